/* The plans: for each class of questions, the techniques in order, each
 * with its share of the time left when it starts (sched.h). Cheapest proofs
 * first; an answer leaves the open set the moment a step decides it, and a
 * step with nothing to do is skipped, its time going to the next. */
#include "examine/tech.h"

#define PLAN(name, steps) {name, steps, sizeof steps / sizeof steps[0]}

/* Reachability-shaped answers only: RC, RF, UB, RD, the global properties,
 * and CTL / LTL jobs whose formulas all are E F / A G / state formulas
 * (under the MCC semantics, docs/semantics.md). The decision diagrams
 * before the exploration: a small net with a large state space closes as
 * a diagram long before a table holds it (Murphy-PT-D2N050, 18 places:
 * 4.2e10 markings in 0.7 s, where the exploration met 8e6 in its 5.6 s);
 * one that does not close ends the step at half its share. */
static const ex_step reach_steps[] = {{&ex_tech_linear, 1.0 / 3, EX_ALONE},
                                      {&ex_tech_probe, 1.0 / 10, EX_ALONE},
                                      {&ex_tech_walk, 1.0 / 6, EX_ALONE},
                                      {&ex_tech_stubborn, 1.0 / 4, EX_ALONE},
                                      {&ex_tech_symbolic, 1.0 / 3, EX_ALONE},
                                      {&ex_tech_explore, 1.0, EX_ALONE}};
static const ex_plan plan_reach = PLAN("reachability", reach_steps);

/* CTL beyond reachability, Liveness: local CTL answers what it can without
 * the whole state space, the decision diagrams beside it (on one thread:
 * after it) what they can where the reachable set closes; then one
 * exploration records the graph and feeds the visitor, which decides the
 * reachability-shaped ones. A graph that fills the memory ends long before
 * the deadline (the MCC's 16 GB hold a few hundred million states: minutes
 * of a 3600 s run), and one that the decision diagrams count too large to
 * record in the time or memory left is not started: the two before it get
 * the time it leaves, the diagrams going on with their forest (on one
 * thread half each: the local checker's passes stop deciding long before
 * the diagrams' turns do, RwMutex-PT-r2000w0010 at 60 s: 1 formula in
 * 28.7 s against 10 in 4.5 s). */
static const ex_step ctl_steps[] = {{&ex_tech_linear, 1.0 / 5, EX_ALONE},
                                    {&ex_tech_probe, 1.0 / 10, EX_ALONE},
                                    {&ex_tech_walk, 1.0 / 8, EX_ALONE},
                                    {&ex_tech_split, 1.0 / 4, EX_ALONE},
                                    {&ex_tech_local, 1.0 / 2, EX_LEADS},
                                    {&ex_tech_symbolic, 1.0 / 2, EX_ALONE},
                                    {&ex_tech_graph, 1.0, EX_ALONE},
                                    {&ex_tech_local, 1.0 / 2, EX_LEADS},
                                    {&ex_tech_symbolic, 1.0, EX_ALONE}};
static const ex_plan plan_ctl = PLAN("CTL", ctl_steps);

/* LTL beyond reachability: the reachability-shaped formulas get a BFS of
 * their own, then the decision diagrams (their product with the automaton,
 * where the reachable set closes) and the LTL product run beside each
 * other (on one thread: the diagrams a third, the product the rest; the
 * product answers most LTL formulas, so the split gets less than in CTL). */
static const ex_step ltl_steps[] = {{&ex_tech_linear, 1.0 / 5, EX_ALONE},
                                    {&ex_tech_walk, 1.0 / 8, EX_ALONE},
                                    {&ex_tech_split, 1.0 / 4, EX_ALONE},
                                    {&ex_tech_explore, 1.0 / 3, EX_ALONE},
                                    {&ex_tech_symbolic, 1.0 / 3, EX_FOLLOWS},
                                    {&ex_tech_product, 1.0, EX_ALONE}};
static const ex_plan plan_ltl = PLAN("LTL", ltl_steps);

/* LTL with --trace: every FALSE answer needs its lasso, which only the
 * product gives. */
static const ex_step ltl_trace_steps[] = {{&ex_tech_product, 1.0, EX_ALONE}};
static const ex_plan plan_ltl_trace = PLAN("LTL with traces", ltl_trace_steps);

/* CTL with --trace: the local checker's searches give the paths (E F / E U
 * witnesses, A G / A F / A U counterexamples); the graph what is left. */
static const ex_step ctl_trace_steps[] = {{&ex_tech_local, 1.0 / 2, EX_ALONE},
                                          {&ex_tech_graph, 1.0, EX_ALONE}};
static const ex_plan plan_ctl_trace = PLAN("CTL with traces", ctl_trace_steps);

/* The E F fireable(t) items of QuasiLiveness and Liveness (global.c): a
 * walk covers thousands of transitions in one go, where the linear layer
 * can only prove the few dead ones and spends an LP on every live one; so
 * the walks come before it (Dekker-PT-200 QuasiLiveness, 40,400 items at
 * 10 s: the linear layer decided 0 in its 2.6 s, the walks 38,052 in 1 s).
 * The same holds for StableMarking's A G (tokens(P) = m0(P)): most places
 * move, which a walk shows at once and an LP never does
 * (RwMutex-PT-r2000w0010, 6,020 items: the linear layer decided 0 in 3.2 s,
 * the walks 4,824 in 1 s). The decision diagrams before the stubborn
 * sets: a set that closes decides every item at once (QuasiLiveness's
 * dead transitions that no state equation refutes, Murphy-PT-D2N050),
 * where a stubborn search looks for one target at a time. */
static const ex_step fire_items_steps[] = {{&ex_tech_probe, 1.0 / 10, EX_ALONE},
                                           {&ex_tech_walk, 1.0 / 6, EX_ALONE},
                                           {&ex_tech_linear, 1.0 / 3, EX_ALONE},
                                           {&ex_tech_symbolic, 1.0 / 3, EX_ALONE},
                                           {&ex_tech_stubborn, 1.0 / 4, EX_ALONE},
                                           {&ex_tech_explore, 1.0, EX_ALONE}};
static const ex_plan plan_fire_items = PLAN("fireable items", fire_items_steps);

const ex_plan *ex_plan_items(pn_exam exam)
{
    bool walks_first = exam == PN_EXAM_QUASI_LIVENESS || exam == PN_EXAM_LIVENESS ||
                       exam == PN_EXAM_STABLE_MARKING;
    return walks_first ? &plan_fire_items : &plan_reach;
}

const ex_plan *ex_plan_of(const ex_job *j)
{
    bool trace = j->s->engine.keep_parents;
    if (ex_exam_is_ltl(j->exam) && trace)
        return &plan_ltl_trace;
    if (!ex_job_uses_graph(j))
        return &plan_reach;
    if (ex_exam_is_ltl(j->exam))
        return &plan_ltl;
    if (trace && j->exam != PN_EXAM_LIVENESS)
        return &plan_ctl_trace;
    return &plan_ctl;
}
