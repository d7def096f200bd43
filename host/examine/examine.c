/* The examination driver (see examine.h): engine choice, StateSpace, the
 * on-the-fly checks, the state graph with the CTL / LTL / Liveness
 * checkers under time shares of one budget, and the coloured global
 * properties rewritten into formulas (global_col.c). */
#include "net/layout.h"
#include "petrel/examine.h"

#include <stdlib.h>
#include <string.h>

#include "examine/ctl_simplify.h"
#include "examine/global_col.h"
#include "examine/otf.h"
#include "examine/reduce_each.h"
#include "examine/split.h"
#include "examine/symbolic.h"
#include "petrel/ctl.h"
#include "petrel/dist.h"
#include "petrel/gpu.h"
#include "petrel/graph.h"
#include "petrel/linear.h"
#include "petrel/ltl.h"
#include "petrel/stubborn.h"
#include "petrel/pnml.h"
#include "petrel/reduce.h"
#include "petrel/walk.h"

static bool examine_is_ltl(pn_exam e)
{
    return e == PN_EXAM_LTL_CARDINALITY || e == PN_EXAM_LTL_FIREABILITY;
}

static bool examine_is_ctl(pn_exam e)
{
    return e == PN_EXAM_CTL_CARDINALITY || e == PN_EXAM_CTL_FIREABILITY;
}

static bool examine_uses_graph(pn_exam e, const pn_check *c)
{
    return (e == PN_EXAM_CTL_CARDINALITY || e == PN_EXAM_CTL_FIREABILITY ||
            e == PN_EXAM_LIVENESS || examine_is_ltl(e)) &&
           pn_check_needs_graph(c);
}

/* One formula (or Liveness) on the graph; PN_OK with *v, or why not. */
static pn_status examine_one(pn_ctl_model *m, pn_exam exam, const pn_fml_set *set, uint32_t i,
                             bool *v, pn_error *err)
{
    const pn_fml_node *root =
        set != NULL && set->props[i].status == PN_OK ? set->props[i].root : NULL;
    if (set == NULL && exam == PN_EXAM_LIVENESS)
        return pn_ctl_liveness(m, v, err);
    if (root != NULL && examine_is_ltl(exam))
        return pn_ltl_check(m, root, v, NULL, err);
    if (root != NULL)
        return pn_ctl_check(m, root, v, err);
    return pn_fail(err, PN_ERR_UNSUPPORTED, "no formula to check");
}

/* Answers what was not decided up front from the state graph. Under a time
 * limit, a first pass gives each open formula an equal share of the time
 * left, so that one hard formula cannot starve the others; a second pass
 * gives what remains to those that ran out. Anything a checker cannot
 * prove stays unknown (CANNOT_COMPUTE). */
static void examine_graph_passes(pn_ctl_model *m, pn_exam exam, const pn_fml_set *set,
                                 const pn_budget *budget, pn_check *c, FILE *diag)
{
    bool timed = budget != NULL && budget->deadline > 0;
    for (int pass = timed ? 0 : 1; pass < 2; pass++) {
        uint32_t left = ex_open_count(c);
        for (uint32_t i = 0; i < pn_check_count(c) && left > 0; i++) {
            if (pn_check_answer(c, i)->verdict != PN_VERDICT_UNKNOWN)
                continue;
            pn_budget share = pn_budget_share(budget, pass == 0 ? 1.0 / left : 1.0);
            m->budget = &share;
            left--;
            pn_error err = {0};
            bool v = false;
            pn_status st = examine_one(m, exam, set, i, &v, &err);
            m->budget = NULL; /* the share ends with this turn */
            if (st == PN_OK)
                pn_check_set(c, i, v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
            else if (diag != NULL && (pass == 1 || !timed) && !ex_unbound(set, i))
                fprintf(diag, "petrel: %s: %s\n", pn_check_answer(c, i)->id, err.msg);
            if (pn_budget_expired(budget))
                return;
        }
    }
}

/* The checkers get the memory that the graph and the states they work on
 * leave of the budget. */
static void examine_on_graph(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                             pn_budget *budget, pn_check *c, pn_engine_result *res, FILE *diag)
{
    if (res->status != PN_RUN_COMPLETE || res->graph == NULL)
        return;
    uint64_t held = pn_graph_bytes(res->graph) + res->states * res->state_words * 8;
    pn_budget_charge(budget, held);
    pn_ctl_model m = {.cn = cn, .graph = res->graph, .store = res->store,
                      .layout = res->layout};
    examine_graph_passes(&m, exam, set, budget, c, diag);
    pn_budget_release(budget, held);
}

/* ---- one formula examination or global property ------------------------ */

/* ---- the portfolio: one schedule per examination class ------------------ */

/* The steps that decide formulas, cheapest proofs first. Each gets `share`
 * of the time left when it starts; a step with nothing to do is skipped,
 * and an answer leaves the open set as soon as a step decides it. */
typedef enum step_kind {
    STEP_LINEAR,  /* state equation, invariants, siphons (host/linear) */
    STEP_WALK,    /* random walks (host/engine/walk.c) */
    STEP_SPLIT,   /* the reachability sub-formulas (split.c) by the first three */
    STEP_EXPLORE, /* BFS with the check's visitor: witnesses, or completeness */
    STEP_GRAPH,   /* CTL / Liveness: the recorded graph (visitor on it too);
                   * LTL: the product on the fly, formula by formula */
    STEP_STUBBORN, /* E F / A G / deadlock over stubborn sets (host/space/stubborn*.c) */
    STEP_LOCAL,    /* CTL formulas one by one, on the fly (host/logic/ctl_otf.c) */
    STEP_PROBE,    /* a small complete exploration, kept only if it completes */
    STEP_SYMBOLIC  /* CTL and LTL on decision diagrams (host/examine/symbolic.c) */
} step_kind;

typedef struct portfolio_step {
    step_kind kind;
    double share;
    /* With two threads or more, this step and the next run beside each
     * other, each on its own thread, over the time the two would have had
     * one after the other, and each with half of the memory (beside.h):
     * steps that use one thread each. One thread: one after the other. */
    bool with_next;
} portfolio_step;

static const char *const step_names[] = {"linear", "walk", "split", "explore", "graph",
                                          "stubborn", "local", "probe", "symbolic"};
#define STEP_COUNT (sizeof step_names / sizeof step_names[0])

/* Reachability-shaped answers only: RC, RF, UB, RD, the global properties,
 * and CTL / LTL examinations whose formulas all are E F / A G / state
 * formulas (under the MCC semantics, docs/semantics.md). */
static const portfolio_step plan_reach[] = {{STEP_LINEAR, 1.0 / 3, false},
                                            {STEP_PROBE, 1.0 / 10, false},
                                            {STEP_WALK, 1.0 / 6, false},
                                            {STEP_STUBBORN, 1.0 / 4, false},
                                            {STEP_EXPLORE, 1.0, false}};
/* CTL beyond reachability, Liveness: local CTL answers what it can without
 * the whole state space, the decision diagrams beside it (on one thread:
 * after it) what they can where the reachable set closes; then one
 * exploration records the graph and feeds the visitor, which decides the
 * reachability-shaped ones. A graph that fills the memory ends long before
 * the deadline (the MCC's 16 GB hold a few hundred million states: minutes
 * of a 3600 s run), and one that the decision diagrams count too large to
 * record in the time or memory left is not started: the two before it get
 * the time it leaves, the diagrams going on with their forest. */
static const portfolio_step plan_ctl[] = {{STEP_LINEAR, 1.0 / 5, false},
                                          {STEP_PROBE, 1.0 / 10, false},
                                          {STEP_WALK, 1.0 / 8, false},
                                          {STEP_SPLIT, 1.0 / 4, false},
                                          {STEP_LOCAL, 1.0 / 2, true},
                                          {STEP_SYMBOLIC, 1.0 / 2, false},
                                          {STEP_GRAPH, 1.0, false},
                                          {STEP_LOCAL, 1.0, true},
                                          {STEP_SYMBOLIC, 1.0, false}};
/* LTL beyond reachability: the reachability-shaped formulas get a BFS of
 * their own, then the decision diagrams (their product with the automaton,
 * where the reachable set closes) and the LTL product run beside each
 * other (on one thread: the diagrams a third, the product the rest; the
 * product answers most LTL formulas, so the split gets less than in CTL). */
static const portfolio_step plan_ltl[] = {{STEP_LINEAR, 1.0 / 5, false},
                                          {STEP_WALK, 1.0 / 8, false},
                                          {STEP_SPLIT, 1.0 / 4, false},
                                          {STEP_EXPLORE, 1.0 / 3, false},
                                          {STEP_SYMBOLIC, 1.0 / 3, true},
                                          {STEP_GRAPH, 1.0, false}};

/* LTL with --trace: every FALSE answer needs its lasso, which only the
 * product gives. */
static const portfolio_step plan_ltl_trace[] = {{STEP_GRAPH, 1.0, false}};
/* CTL with --trace: the local checker's searches give the paths (E F / E U
 * witnesses, A G / A F / A U counterexamples); the graph what is left. */
static const portfolio_step plan_ctl_trace[] = {{STEP_LOCAL, 1.0 / 2, false},
                                                {STEP_GRAPH, 1.0, false}};

typedef struct portfolio {
    const pn_cnet *cn;
    pn_exam exam;
    pn_engine_kind kind;    /* CPU, GPU or GPU_OR_CPU (pn_examine_engine) */
    const pn_fml_set *set;
    const pn_engine_opts *o;
    pn_budget *budget;
    FILE *diag;
    pn_check *c;
    pn_engine_result *res;
    pn_visitor inner, all;  /* the check's visitor; one that never stops */
    bool finished;          /* pn_check_finish ran after an exploration */
    bool graph_tried;       /* step_graph ran: res holds its statistics */
    uint8_t *target;        /* per answer: a reachability target at the start */
    const char **by;        /* per answer: the step that decided it */
    double *at;             /* per answer: seconds from the start */
    double t0;
    /* The examination's own portfolio in an MPI job (o->dist): its first
     * exploration runs on every rank (pn_dist_command). */
    bool dist_top;
    /* While two steps run beside each other: their lock and flags; the
     * check is read and written only under the lock. NULL otherwise. */
    ex_beside *beside;
    ex_sym_forest *forest; /* the symbolic steps' (symbolic.h) */
} portfolio;

static uint32_t portfolio_open_targets(const pn_check *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < pn_check_count(c); i++) {
        const pn_fml_node *phi;
        const uint32_t *places;
        uint32_t np;
        n += pn_check_target_of(c, i, &phi, &places, &np) != PN_TARGET_NONE;
    }
    return n;
}

/* Open answers that no witness decides (CTL beyond E F / A G, Liveness). */
static bool portfolio_open_others(const portfolio *p)
{
    for (uint32_t i = 0; i < pn_check_count(p->c); i++)
        if (!p->target[i] && pn_check_answer(p->c, i)->verdict == PN_VERDICT_UNKNOWN)
            return true;
    return false;
}

/* Credits step with the answers decided since the last call. */
static void portfolio_mark(portfolio *p, step_kind step)
{
    double t = pn_clock_now() - p->t0;
    for (uint32_t i = 0; i < pn_check_count(p->c); i++) {
        const pn_fml_node *phi;
        const uint32_t *places;
        uint32_t np;
        if (p->by[i] != NULL)
            continue;
        bool done = pn_check_answer(p->c, i)->verdict != PN_VERDICT_UNKNOWN ||
                    (p->target[i] &&
                     pn_check_target_of(p->c, i, &phi, &places, &np) == PN_TARGET_NONE);
        if (done) {
            p->by[i] = step_names[step];
            p->at[i] = t;
        }
    }
}

static void step_linear(portfolio *p, double share)
{
    pn_budget b = pn_budget_share(p->budget, share);
    pn_linear_opts lo = {.budget = &b, .verbose = p->o->verbose ? p->diag : NULL,
                         .trace = p->o->keep_parents, .no_smt = p->o->no_smt};
    pn_error e = {0};
    if (pn_linear_decide(p->cn, p->c, &lo, &e) != PN_OK && p->diag != NULL)
        fprintf(p->diag, "petrel: linear layer: %s\n", e.msg);
}

static void step_walk(portfolio *p, double share)
{
    pn_budget b = pn_budget_share(p->budget, share);
    pn_walk_opts wo = {.budget = &b, .threads = p->o->threads,
                       .verbose = p->o->verbose ? p->diag : NULL,
                       .gpu = p->kind != PN_ENGINE_CPU,
                       .trace = p->o->keep_parents};
    pn_error e = {0};
    if (pn_walk_decide(p->cn, p->c, &wo, NULL, &e) != PN_OK && p->diag != NULL)
        fprintf(p->diag, "petrel: random walks: %s\n", e.msg);
}

/* An exploration on the examination's engine. The GPU evaluates the check's
 * items itself (eo->check) where eo's visitor is the check's own; a graph
 * or a visitor of another kind is host work for the CPU engine. Under
 * GPU_OR_CPU a failed GPU run is redone on the CPU (with a note). */
static pn_status portfolio_explore(portfolio *p, pn_engine_opts *eo, pn_error *err)
{
    const pn_visitor *cv = pn_check_visitor(p->c);
    bool own = eo->visitor == NULL ||
               (eo->visitor->on_state == cv->on_state && eo->visitor->ctx == cv->ctx);
    if (p->kind != PN_ENGINE_CPU && own && !eo->record_graph && !eo->keep_states) {
        eo->check = eo->visitor != NULL ? p->c : NULL;
        pn_status st = pn_gpu_explore(p->cn, eo, p->res, err);
        eo->check = NULL;
        if (st == PN_OK || p->kind == PN_ENGINE_GPU)
            return st;
        if (p->diag != NULL && p->o->verbose)
            fprintf(p->diag, "petrel: GPU engine failed (%s); using the CPU engine\n", err->msg);
        pn_error_clear(err);
    }
    return pn_explore(p->cn, eo, p->res, err);
}

/* The exploration step: in an MPI job, the examination's first one runs
 * on every rank (unless traces need the ids one process keeps); the probe,
 * later explorations and those of sub-portfolios stay on this process. */
static pn_status portfolio_explore_all(portfolio *p, pn_engine_opts *eo, pn_error *err)
{
    if (p->dist_top && pn_dist_command(eo->dist, !eo->keep_parents, p->cn, p->c))
        return pn_dist_explore(eo->dist, p->cn, eo, p->c, p->res, err);
    return portfolio_explore(p, eo, err);
}

/* The visitor's BFS; a complete one decides every reachability answer. */
static pn_status step_explore(portfolio *p, double share, pn_error *err)
{
    pn_budget b = pn_budget_share(p->budget, share);
    pn_engine_opts eo = *p->o;
    eo.budget = share < 1.0 ? &b : p->budget;
    eo.visitor = pn_check_visitor(p->c);
    eo.record_graph = eo.keep_states = false;
    pn_status st = portfolio_explore_all(p, &eo, err);
    pn_check_finish(p->c, st == PN_OK ? p->res : NULL);
    p->finished = true;
    return st;
}

/* The check's visitor on every state of a graph exploration: a decided
 * target must not stop the exploration the other formulas need. */
static bool portfolio_see_all(void *ctx, uint32_t worker, uint64_t id, const uint64_t *m,
                              uint32_t n_enabled)
{
    const pn_visitor *v = ctx;
    v->on_state(v->ctx, worker, id, m, n_enabled);
    return false;
}

static pn_status step_graph(portfolio *p, pn_error *err)
{
    if (examine_is_ltl(p->exam)) {
        ex_beside_lock(p->beside);
        if (!p->finished) /* again would forget what completeness proved */
            pn_check_finish(p->c, NULL);
        ex_beside_unlock(p->beside);
        return ex_ltl_otf(p->cn, p->set, p->o, EX_OTF_WORKERS, p->budget, p->c, p->beside,
                          p->res, p->diag, err);
    }
    if (!examine_uses_graph(p->exam, p->c)) { /* the split decided them */
        if (!pn_check_decided(p->c))
            return step_explore(p, 1.0, err);
        if (!p->finished)
            pn_check_finish(p->c, NULL);
        return PN_OK;
    }
    if (ex_sym_hopeless(p->forest, p->budget, p->o->threads)) {
        if (p->diag != NULL && p->o->verbose)
            fprintf(p->diag, "petrel: graph: %.4g reachable markings: not recorded\n",
                    pn_ctl_mdd_states(p->forest->s));
        return PN_OK;
    }
    ex_sym_forest_free(p->forest); /* its memory is the graph's now */
    bool visit = !pn_check_decided(p->c);
    pn_engine_opts eo = *p->o;
    p->inner = *pn_check_visitor(p->c);
    p->all = (pn_visitor){.on_state = portfolio_see_all, .ctx = &p->inner};
    eo.visitor = visit ? &p->all : NULL;
    eo.record_graph = eo.keep_states = true;
    pn_status st = pn_explore(p->cn, &eo, p->res, err);
    /* Without the visitor, completeness proves nothing about a target. */
    pn_check_finish(p->c, st == PN_OK && visit ? p->res : NULL);
    if (st == PN_OK)
        examine_on_graph(p->cn, p->exam, p->set, p->budget, p->c, p->res, p->diag);
    p->graph_tried = true;
    if (p->res->status != PN_RUN_COMPLETE) /* a part of a graph answers nothing */
        pn_engine_result_free(p->res);
    return st;
}

/* Most nets with a small state space are decided faster by enumerating it
 * than by the steps after this one: a walk cannot prove an invariant and
 * would spend its whole share on it (Dekker-PT-010 RC: 20 s of walks
 * against 0.1 s of BFS). So a first exploration runs under a small memory
 * cap and a small time share; it decides everything only if it completes
 * (or its visitor decided every target), else what it held is freed and the
 * witnesses its visitor met stay. */
#define PROBE_MEMORY (64ull << 20)

static void step_probe(portfolio *p, double share)
{
    bool graph = examine_uses_graph(p->exam, p->c);
    bool visit = !pn_check_decided(p->c);
    pn_budget b = pn_budget_share(p->budget, share);
    uint64_t held = pn_budget_memory(&b);
    b.memory = held != 0 && held < PROBE_MEMORY ? held : PROBE_MEMORY;
    pn_engine_opts eo = *p->o;
    eo.budget = &b;
    p->inner = *pn_check_visitor(p->c);
    p->all = (pn_visitor){.on_state = portfolio_see_all, .ctx = &p->inner};
    eo.visitor = !visit ? NULL : graph ? &p->all : &p->inner;
    eo.record_graph = eo.keep_states = graph;
    pn_error e = {0}; /* a real failure shows again in the steps after */
    pn_status st = portfolio_explore(p, &eo, &e);
    /* STOPPED: the visitor decided every target (it never stops a graph). */
    if (st != PN_OK ||
        (p->res->status != PN_RUN_COMPLETE && p->res->status != PN_RUN_STOPPED)) {
        pn_engine_result_free(p->res); /* the next exploration starts afresh */
        return;
    }
    if (visit)
        pn_check_finish(p->c, p->res);
    p->finished = visit;
    if (graph)
        examine_on_graph(p->cn, p->exam, p->set, p->budget, p->c, p->res, p->diag);
}

static pn_status portfolio_run(portfolio *p, pn_error *err);

/* One search per open E F / A G / deadlock target over the stubborn-set
 * layer; what it cannot settle within share goes on to the exploration. */
static void step_stubborn(portfolio *p, double share)
{
    pn_budget b = pn_budget_share(p->budget, share);
    pn_stubborn_decide(p->cn, p->c, &b, p->res, p->o->verbose ? p->diag : NULL);
}

/* The leaves' own reachability portfolio within share, folded into p->c. */
static pn_status step_split(portfolio *p, double share, pn_error *err)
{
    pn_split *sp = NULL;
    if (p->set == NULL) /* a global property: no formulas */
        return PN_OK;
    if (pn_split_new(p->exam, p->set, p->c, &sp, err) != PN_OK)
        return err->code;
    const pn_fml_set *leaves = pn_split_leaves(sp);
    pn_check *aux = NULL;
    pn_status st = leaves->n == 0 ? PN_OK
                                  : pn_check_new(p->cn, PN_EXAM_REACH_CARDINALITY, leaves,
                                                 p->res->threads, &aux, err);
    if (st == PN_OK && aux != NULL) {
        pn_budget b = pn_budget_share(p->budget, share);
        pn_engine_result r = {.threads = p->res->threads};
        portfolio sub = {.cn = p->cn, .exam = PN_EXAM_REACH_CARDINALITY, .kind = p->kind,
                         .set = leaves,
                         .o = p->o, .budget = &b, .c = aux, .res = &r, .t0 = p->t0};
        st = portfolio_run(&sub, err);
        pn_engine_result_free(&r);
    }
    if (st == PN_OK) { /* with no leaves, the initial marking may settle some */
        uint8_t *done = calloc((size_t)pn_check_count(p->c) + 1, 1);
        uint32_t n = st == PN_OK ? pn_split_fold(sp, aux, p->cn, p->c, done) : 0;
        for (uint32_t i = 0; done != NULL && i < pn_check_count(p->c); i++)
            if (done[i] && p->by[i] == NULL) {
                p->by[i] = step_names[STEP_SPLIT];
                p->at[i] = pn_clock_now() - p->t0;
            }
        free(done);
        if (p->o->verbose && p->diag != NULL)
            fprintf(p->diag, "petrel: split: %u reachability sub-formulas decided %u formulas\n",
                    leaves->n, n);
    }
    pn_check_free(aux);
    pn_split_free(sp);
    return st;
}

static const portfolio_step *portfolio_plan(pn_exam exam, const pn_check *c, bool trace,
                                            uint32_t *n)
{
    if (examine_is_ltl(exam) && trace) {
        *n = 1;
        return plan_ltl_trace;
    }
    if (!examine_uses_graph(exam, c)) {
        *n = sizeof plan_reach / sizeof plan_reach[0];
        return plan_reach;
    }
    if (examine_is_ltl(exam)) {
        *n = sizeof plan_ltl / sizeof plan_ltl[0];
        return plan_ltl;
    }
    if (trace && exam != PN_EXAM_LIVENESS) {
        *n = sizeof plan_ctl_trace / sizeof plan_ctl_trace[0];
        return plan_ctl_trace;
    }
    *n = sizeof plan_ctl / sizeof plan_ctl[0];
    return plan_ctl;
}

static pn_status portfolio_step_run(portfolio *p, const portfolio_step *s, pn_error *err)
{
    ex_beside_lock(p->beside);
    bool targets = portfolio_open_targets(p->c) > 0;
    ex_beside_unlock(p->beside);
    switch (s->kind) {
    case STEP_LINEAR:
        if (targets)
            step_linear(p, s->share);
        return PN_OK;
    case STEP_WALK:
        if (targets)
            step_walk(p, s->share);
        return PN_OK;
    case STEP_SPLIT: return step_split(p, s->share, err);
    case STEP_EXPLORE:
        if (p->finished) /* the probe completed, or its visitor decided all */
            return PN_OK;
        if (!pn_check_decided(p->c))
            return step_explore(p, s->share, err);
        pn_check_finish(p->c, NULL);
        return PN_OK;
    case STEP_GRAPH: return step_graph(p, err);
    case STEP_LOCAL:
        if (p->set != NULL && !examine_is_ltl(p->exam) && p->exam != PN_EXAM_LIVENESS &&
            ex_beside_open_count(p->beside, p->c) > 0 && !pn_budget_expired(p->budget))
            ex_ctl_otf(p->cn, p->set, p->budget, s->share, p->o, EX_OTF_WORKERS,
                       p->o->verbose ? p->diag : NULL, p->c, p->beside,
                       p->graph_tried ? NULL : p->res); /* keep the graph's figures */
        return PN_OK;
    case STEP_SYMBOLIC:
        if (p->exam != PN_EXAM_LIVENESS && ex_beside_open_count(p->beside, p->c) > 0 &&
            !pn_budget_expired(p->budget))
            ex_symbolic(p->cn, p->set, examine_is_ltl(p->exam) ? EX_SYM_LTL : EX_SYM_CTL,
                        p->budget, s->share, p->o->verbose ? p->diag : NULL, p->c, p->beside,
                        p->forest);
        return PN_OK;
    case STEP_PROBE:
        if (targets || (examine_uses_graph(p->exam, p->c) && portfolio_open_others(p)))
            step_probe(p, s->share);
        return PN_OK;
    case STEP_STUBBORN:
        if (targets && !p->o->no_por && !p->o->keep_parents) /* traces need the engine's ids */
            step_stubborn(p, s->share);
        return PN_OK;
    }
    return PN_OK;
}

/* -v: per answer the step that decided it and when; always: one summary
 * line counting the answers per step. */
static void portfolio_report(const portfolio *p)
{
    if (p->diag == NULL)
        return;
    uint32_t per[STEP_COUNT] = {0}, unknown = 0;
    for (uint32_t i = 0; i < pn_check_count(p->c); i++) {
        const pn_answer *a = pn_check_answer(p->c, i);
        unknown += a->verdict == PN_VERDICT_UNKNOWN;
        for (uint32_t k = 0; k < STEP_COUNT && a->verdict != PN_VERDICT_UNKNOWN; k++)
            per[k] += p->by[i] == step_names[k];
        if (p->o->verbose)
            fprintf(p->diag, "petrel: %s: %s by %s at %.3f s\n", a->id,
                    a->verdict == PN_VERDICT_UNKNOWN ? "unknown" : "decided",
                    p->by[i] != NULL ? p->by[i] : "nothing", p->at[i]);
    }
    fprintf(p->diag,
            "petrel: answers: %u linear, %u probe, %u walk, %u stubborn, %u split, %u local, "
            "%u symbolic, %u explore, %u graph, %u unknown\n",
            per[STEP_LINEAR], per[STEP_PROBE], per[STEP_WALK], per[STEP_STUBBORN], per[STEP_SPLIT],
            per[STEP_LOCAL], per[STEP_SYMBOLIC], per[STEP_EXPLORE], per[STEP_GRAPH], unknown);
}

/* A rank other than 0 of an MPI job: rank 0 runs the steps; this one waits
 * for its command and joins the exploration it starts. */
static pn_status portfolio_follow(portfolio *p, pn_error *err)
{
    if (!pn_dist_command(p->o->dist, false, p->cn, p->c))
        return PN_OK;
    pn_engine_opts eo = *p->o;
    eo.budget = p->budget;
    eo.visitor = pn_check_visitor(p->c);
    eo.record_graph = eo.keep_states = false;
    pn_status st = pn_dist_explore(eo.dist, p->cn, &eo, p->c, p->res, err);
    pn_check_finish(p->c, st == PN_OK ? p->res : NULL);
    return st;
}

/* ---- two steps beside each other ------------------------------------------ */

typedef struct pair_side {
    portfolio p;         /* the portfolio, with this side's budget */
    portfolio_step step; /* over the whole of it */
    pn_budget budget;
    pn_status st;
    pn_error err;
} pair_side;

static void pair_side_run(void *arg)
{
    pair_side *s = arg;
    s->st = portfolio_step_run(&s->p, &s->step, &s->err);
}

/* Steps a and b (a->with_next) beside each other over the time they would
 * have had in turn, 1 - (1 - a's share)(1 - b's), each with half of the
 * memory left. The decision diagrams yield: the other step leads, and
 * when it ends they end (its end is the graph's turn, or the deadline).
 * Answers are credited by their technique. */
static pn_status portfolio_pair(portfolio *p, const portfolio_step *a, const portfolio_step *b,
                                pn_error *err)
{
    ex_beside bs;
    if (ex_beside_init(&bs, pn_check_count(p->c), err) != PN_OK)
        return err->code;
    pn_budget both = pn_budget_share(p->budget, 1.0 - (1.0 - a->share) * (1.0 - b->share));
    uint64_t memory = pn_budget_memory(&both);
    const portfolio_step *order[2] = {a, b};
    if (a->kind == STEP_SYMBOLIC) { /* side[0] leads */
        order[0] = b;
        order[1] = a;
    }
    pair_side side[2];
    for (int k = 0; k < 2; k++) {
        side[k] = (pair_side){.p = *p, .step = {order[k]->kind, 1.0, false}, .budget = both};
        if (memory != 0)
            side[k].budget.memory = k == 0 ? memory - memory / 2 : memory / 2;
        side[k].p.budget = &side[k].budget;
        side[k].p.beside = &bs;
    }
    ex_beside_follow(&bs, &side[1].budget);
    ex_beside_run(&bs, pair_side_run, &side[0], pair_side_run, &side[1]);
    ex_beside_free(&bs);
    for (int k = 0; k < 2; k++) {
        p->finished |= side[k].p.finished;
        p->graph_tried |= side[k].p.graph_tried;
    }
    for (uint32_t i = 0; i < pn_check_count(p->c); i++) {
        const pn_answer *an = pn_check_answer(p->c, i);
        if (p->by[i] != NULL || an->verdict == PN_VERDICT_UNKNOWN)
            continue;
        bool dd = (an->techniques & PN_TECH_DECISION_DIAGRAMS) != 0;
        p->by[i] = step_names[dd && order[1]->kind == STEP_SYMBOLIC ? order[1]->kind
                                                                    : order[0]->kind];
        p->at[i] = pn_clock_now() - p->t0;
    }
    int bad = side[0].st != PN_OK ? 0 : side[1].st != PN_OK ? 1 : -1;
    if (bad >= 0)
        *err = side[bad].err;
    return bad >= 0 ? side[bad].st : PN_OK;
}

static pn_status portfolio_run(portfolio *p, pn_error *err)
{
    if (p->dist_top && pn_dist_rank(p->o->dist) != 0)
        return portfolio_follow(p, err);
    uint32_t n = pn_check_count(p->c), n_steps = 0;
    ex_sym_forest forest = {0};
    p->forest = &forest;
    p->target = calloc((size_t)n + 1, 1);
    p->by = calloc((size_t)n + 1, sizeof *p->by);
    p->at = calloc((size_t)n + 1, sizeof *p->at);
    pn_status st = p->target && p->by && p->at
                       ? PN_OK
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory for the examination");
    for (uint32_t i = 0; st == PN_OK && i < n; i++) {
        const pn_fml_node *phi;
        const uint32_t *places;
        uint32_t np;
        p->target[i] = pn_check_target_of(p->c, i, &phi, &places, &np) != PN_TARGET_NONE;
    }
    const portfolio_step *plan = portfolio_plan(p->exam, p->c, p->o->keep_parents, &n_steps);
    /* A complete exploration (the probe's) writes every answer: the steps
     * after it would only look again at targets already final. */
    for (uint32_t k = 0; st == PN_OK && k < n_steps && ex_open_count(p->c) > 0; k++) {
        if (plan[k].with_next && k + 1 < n_steps && p->o->threads >= 2) {
            st = portfolio_pair(p, &plan[k], &plan[k + 1], err);
            k++;
            continue;
        }
        st = portfolio_step_run(p, &plan[k], err);
        portfolio_mark(p, plan[k].kind);
    }
    if (st == PN_OK)
        portfolio_report(p);
    if (p->dist_top) /* no exploration for the other ranks: release them */
        pn_dist_command(p->o->dist, false, NULL, NULL);
    ex_sym_forest_free(&forest);
    p->forest = NULL;
    free(p->target);
    free(p->by);
    free(p->at);
    return st;
}

/* The answers of exam on set (NULL: a global property) into *check, with
 * res the exploration's. o carries the budget; every answer also carries the
 * techniques extra (a reduced net's STRUCTURAL_REDUCTION). */
static pn_status examine_formulas(const pn_cnet *cn, pn_exam exam, pn_engine_kind kind,
                                  const pn_fml_set *set, const pn_engine_opts *o,
                                  pn_budget *budget, FILE *diag, uint32_t extra,
                                  pn_check **check, pn_engine_result *res, pn_error *err)
{
    pn_check *c = NULL;
    if (pn_check_new(cn, exam, set, res->threads, &c, err) != PN_OK)
        return err->code;
    pn_check_add_techniques(c, extra);
    pn_check_on_decide(c, o->on_decide, o->on_decide_ctx);
    portfolio p = {.cn = cn, .exam = exam, .kind = kind, .set = set, .o = o, .budget = budget,
                   .diag = diag, .c = c, .res = res, .t0 = pn_clock_now(),
                   .dist_top = o->dist != NULL};
    pn_status st = portfolio_run(&p, err);
    if (st != PN_OK) {
        pn_check_free(c);
        return st;
    }
    *check = c;
    return PN_OK;
}

/* OneSafe, StableMarking, QuasiLiveness and Liveness of an unfolded net:
 * formulas over the coloured groups (global_col.c), folded into the one
 * answer named after the examination. */
static pn_status examine_coloured_global(const pn_cnet *cn, pn_exam exam, pn_engine_kind kind,
                                         const pn_engine_opts *o, pn_budget *budget,
                                         FILE *diag, pn_check **check, pn_engine_result *res,
                                         pn_error *err)
{
    pn_fml_set *fs = NULL;
    pn_check *inner = NULL;
    pn_engine_opts io = *o; /* the inner answers are not the examination's */
    io.on_decide = NULL;
    pn_status st = pn_col_build(cn->net, exam, &fs, err);
    if (st == PN_OK)
        st = examine_formulas(cn, pn_col_as(exam), kind, fs, &io, budget, diag, 0, &inner, res,
                              err);
    if (st == PN_OK)
        st = pn_check_new(cn, exam, NULL, 1, check, err);
    if (st == PN_OK)
        pn_check_on_decide(*check, o->on_decide, o->on_decide_ctx);
    if (st == PN_OK)
        pn_check_set(*check, 0, pn_col_fold(inner, exam));
    pn_check_free(inner);
    pn_fml_set_free(fs);
    return st;
}

/* ---- the engine and StateSpace ------------------------------------------ */

/* Every examination runs on the GPU where a device is usable: StateSpace,
 * and in the portfolio the on-the-fly explorations (the kernels evaluate
 * the check's items) and the random walks. What needs the state graph or
 * the LTL / CTL searches is host work on the CPU either way. */
pn_status pn_examine_engine(pn_exam exam, pn_engine_kind *kind, FILE *diag, pn_error *err)
{
    (void)exam;
    if (*kind == PN_ENGINE_CPU || *kind == PN_ENGINE_GPU_OR_CPU)
        return PN_OK;
    char why[256];
    bool gpu = pn_gpu_available(why, sizeof why);
    if (*kind == PN_ENGINE_GPU && !gpu)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "no usable GPU: %s", why);
    if (*kind == PN_ENGINE_GPU)
        return PN_OK;
    *kind = gpu ? PN_ENGINE_GPU_OR_CPU : PN_ENGINE_CPU;
    if (!gpu && diag != NULL)
        fprintf(diag, "petrel: no usable GPU (%s): using the CPU engine\n", why);
    return PN_OK;
}

/* StateSpace on the chosen engine; GPU_OR_CPU falls back to the CPU
 * engine when the GPU fails (the answers are the same). */
static pn_status examine_state_space(const pn_cnet *cn, pn_engine_kind kind,
                                     const pn_engine_opts *o, FILE *diag,
                                     pn_engine_result *res, pn_error *err)
{
    /* Every rank of the MPI job, on the CPU, once all hold the net (a rank
     * that timed out while reading did not: rank 0 then explores alone). */
    if (o->dist != NULL && pn_dist_command(o->dist, true, cn, NULL))
        return pn_dist_explore(o->dist, cn, o, NULL, res, err);
    if (o->dist != NULL && pn_dist_rank(o->dist) != 0) {
        memset(res, 0, sizeof *res);
        return PN_OK;
    }
    if (kind == PN_ENGINE_GPU || kind == PN_ENGINE_GPU_OR_CPU) {
        pn_status st = pn_gpu_explore(cn, o, res, err);
        if (st == PN_OK || kind == PN_ENGINE_GPU)
            return st;
        if (diag != NULL)
            fprintf(diag, "petrel: GPU engine failed (%s); using the CPU engine\n", err->msg);
        pn_error_clear(err);
    }
    return pn_explore(cn, o, res, err);
}

/* ---- the driver ---------------------------------------------------------- */

void pn_report_free(pn_report *r)
{
    if (r == NULL)
        return;
    pn_check_free(r->check);
    pn_engine_result_free(&r->result);
    pn_reduced_free(r->reduced);
    pn_fml_set_free(r->simplified);
    free(r);
}

#define REPORT_DEADLOCK_STEPS (1u << 16)

/* Extends *seq (n steps of cn from m0) by cn's enabled transitions, the
 * lowest first, up to a deadlock (see pn_report_trace); unchanged when none
 * is met within REPORT_DEADLOCK_STEPS or a step does not fire. */
static pn_status report_to_deadlock(const pn_cnet *cn, uint32_t **seq, uint64_t *n,
                                    pn_error *err)
{
    uint32_t P = cn->n_places;
    uint64_t *m = malloc(((size_t)P + 1) * sizeof *m), *next = malloc(((size_t)P + 1) * sizeof *next);
    uint32_t *more = malloc(((size_t)REPORT_DEADLOCK_STEPS + 1) * sizeof *more);
    pn_status st = m != NULL && next != NULL && more != NULL
                       ? PN_OK
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory completing a trace");
    bool fires = st == PN_OK;
    if (fires)
        memcpy(m, cn->m0, (size_t)P * sizeof *m);
    for (uint64_t i = 0; fires && i < *n; i++) {
        fires = pn_cnet_enabled(cn, m, (*seq)[i]) && pn_cnet_fire(cn, m, (*seq)[i], next);
        memcpy(m, next, (size_t)P * sizeof *m);
    }
    uint32_t k = 0, t = 0;
    while (fires && k < REPORT_DEADLOCK_STEPS) {
        for (t = 0; t < cn->n_transitions && !pn_cnet_enabled(cn, m, t); t++)
            ;
        if (t == cn->n_transitions || !pn_cnet_fire(cn, m, t, next))
            break;
        memcpy(m, next, (size_t)P * sizeof *m);
        more[k++] = t;
    }
    uint32_t *grown = NULL;
    if (fires && k > 0 && t == cn->n_transitions &&
        (grown = realloc(*seq, (*n + k + 1) * sizeof *grown)) != NULL) {
        memcpy(grown + *n, more, (size_t)k * sizeof *grown);
        *seq = grown;
        *n += k;
    }
    free(m);
    free(next);
    free(more);
    return st;
}

pn_status pn_report_trace(const pn_report *r, const uint32_t *trans, uint64_t n, uint32_t **out,
                          uint64_t *n_out, pn_error *err)
{
    if (r->reduced != NULL) {
        pn_status st = pn_reduce_expand(r->reduced, trans, n, out, n_out, err);
        if (st == PN_OK && r->exam == PN_EXAM_REACH_DEADLOCK && r->original != NULL)
            st = report_to_deadlock(r->original, out, n_out, err);
        if (st != PN_OK) {
            free(*out);
            *out = NULL;
        }
        return st;
    }
    *n_out = n;
    *out = malloc((n + 1) * sizeof **out);
    if (*out == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (n > 0) /* an empty path may come as NULL */
        memcpy(*out, trans, n * sizeof **out);
    return PN_OK;
}

pn_status pn_report_lasso(const pn_report *r, const uint32_t *trans, uint64_t n, uint64_t cycle,
                          uint32_t **out, uint64_t *n_out, uint64_t *cycle_out, pn_error *err)
{
    cycle = cycle < n ? cycle : n;
    uint32_t *tail = NULL;
    uint64_t tail_len = 0;
    pn_status st = pn_report_trace(r, trans, cycle, out, cycle_out, err);
    if (st == PN_OK && cycle < n)
        st = pn_report_trace(r, trans + cycle, n - cycle, &tail, &tail_len, err);
    uint32_t *all = st == PN_OK && tail_len > 0
                        ? realloc(*out, (*cycle_out + tail_len + 1) * sizeof *all)
                        : *out;
    if (st == PN_OK && all == NULL)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (st != PN_OK) {
        free(*out);
        free(tail);
        *out = NULL;
        return st;
    }
    if (tail_len > 0)
        memcpy(all + *cycle_out, tail, tail_len * sizeof *all);
    free(tail);
    *out = all;
    *n_out = *cycle_out + tail_len;
    return PN_OK;
}

/* The share of the time the formulas' joint net gets when some formulas
 * also have a net of their own (examine_each). */
#define JOINT_SHARE (1.0 / 2)

/* The formulas of each still open after the joint run, one after another on
 * their own reduced nets, each with an equal share of the time left; their
 * answers join r->check (streamed from there). Traces are not asked for
 * here: a path on one formula's net is not one of the joint net's. */
static void examine_each(const pn_each *each, pn_exam exam, const pn_examine_opts *opts,
                         const pn_engine_opts *o, pn_budget *budget, pn_report *r)
{
    uint32_t open = 0, decided = 0;
    for (uint32_t k = 0; k < pn_each_count(each); k++)
        open += pn_check_answer(r->check, pn_each_formula(each, k))->verdict ==
                PN_VERDICT_UNKNOWN;
    for (uint32_t k = 0; k < pn_each_count(each) && !pn_budget_expired(budget); k++) {
        uint32_t i = pn_each_formula(each, k);
        if (pn_check_answer(r->check, i)->verdict != PN_VERDICT_UNKNOWN)
            continue;
        pn_budget b = pn_budget_share(budget, 1.0 / open--);
        pn_engine_opts eo = *o;
        eo.budget = &b;
        eo.on_decide = NULL;
        eo.verbose = false;
        eo.progress = NULL;
        pn_engine_result res = {.threads = r->result.threads};
        pn_check *c = NULL;
        pn_error e = {0};
        const pn_reduced *red = pn_each_reduced(each, k);
        if (examine_formulas(red->cn, exam, opts->engine, red->set, &eo, &b, NULL, 0, &c, &res,
                             &e) == PN_OK) {
            pn_check_take(r->check, i, c, 0, PN_TECH_STRUCTURAL_REDUCTION);
            decided += pn_check_answer(r->check, i)->verdict != PN_VERDICT_UNKNOWN;
        }
        pn_check_free(c);
        pn_engine_result_free(&res);
    }
    if (o->verbose && opts->diag != NULL)
        fprintf(opts->diag, "petrel: reduction per formula: %u of %u formulas decided\n",
                decided, pn_each_count(each));
}

/* --write-reduced: the joint net at path, and beside it, in a folder per
 * formula named by its id, each formula's own net and the formula on it
 * (an MCC instance folder), for every formula, not only those whose net
 * the run uses (those at most half the joint net's size). */
static pn_status examine_write_reduced(const char *path, const pn_net *net, const pn_cnet *cn,
                                       pn_exam exam, const pn_fml_set *set, bool reduce,
                                       const pn_budget *budget, pn_error *err)
{
    if (pn_pnml_write_file(path, net, err) != PN_OK)
        return err->code;
    pn_each *each = NULL;
    if (!reduce || set == NULL)
        return PN_OK;
    pn_status st = pn_each_new(cn, exam, set, PN_EACH_ALL, budget, NULL, &each, err);
    if (st != PN_OK || each == NULL)
        return st;
    char *dir = strdup(path);
    if (dir == NULL) {
        pn_each_free(each);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    }
    char *slash = strrchr(dir, '/');
    if (slash == NULL)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    st = pn_each_write(each, exam, dir, err);
    free(dir);
    pn_each_free(each);
    return st;
}

/* Structural reductions (host/reduce) where they preserve exam's answers:
 * the reduced net and formulas replace the original ones (the report keeps
 * them: the check borrows them; pn_report_trace maps traces back). Where
 * one formula alone reduces much further than all together, it also gets a
 * net of its own (reduce_each.c) for the time the joint net leaves. A
 * failed reduction is only a note. */
static pn_status examine_reduced(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                                 const pn_examine_opts *opts, pn_engine_opts *o,
                                 pn_budget *budget, pn_report *r, pn_error *err)
{
    pn_reduced *red = NULL;
    pn_each *each = NULL;
    FILE *verbose = o->verbose ? opts->diag : NULL;
    if (!opts->no_reduce && pn_reduce_applies(exam)) {
        pn_reduce_opts ro = {.budget = budget, .verbose = verbose};
        pn_error e = {0};
        if (pn_reduce(cn, exam, set, &ro, &red, &e) != PN_OK && opts->diag != NULL)
            fprintf(opts->diag, "petrel: reduction: %s\n", e.msg);
        const pn_cnet *joint = pn_reduce_changed(red) ? red->cn : cn;
        uint64_t size = opts->reduce_each_only ? PN_EACH_ALL
                                               : (uint64_t)joint->n_places + joint->n_transitions;
        pn_error ee = {0};
        if (!o->keep_parents && o->dist == NULL &&
            pn_each_new(cn, exam, set, size, budget, verbose, &each, &ee) != PN_OK &&
            opts->diag != NULL)
            fprintf(opts->diag, "petrel: reduction per formula: %s\n", ee.msg);
    }
    if (opts->write_reduced != NULL &&
        examine_write_reduced(opts->write_reduced, red != NULL ? red->net : cn->net, cn, exam,
                              set, !opts->no_reduce && pn_reduce_applies(exam), budget,
                              err) != PN_OK) {
        pn_reduced_free(red);
        pn_each_free(each);
        return err->code;
    }
    /* the joint net's share: all when no formula has a net of its own */
    pn_budget share = pn_budget_share(budget, JOINT_SHARE), *jb = each != NULL ? &share : budget;
    if (each != NULL && opts->reduce_each_only)
        share.deadline = pn_clock_now() - 1; /* spent: the joint net answers nothing */
    pn_engine_opts jo = *o;
    jo.budget = jb;
    pn_status st;
    if (!pn_reduce_changed(red)) {
        pn_reduced_free(red);
        st = examine_formulas(cn, exam, opts->engine, set, &jo, jb, opts->diag, 0, &r->check,
                              &r->result, err);
    } else {
        r->reduced = red;
        st = examine_formulas(red->cn, exam, opts->engine, red->set, &jo, jb, opts->diag,
                              PN_TECH_STRUCTURAL_REDUCTION, &r->check, &r->result, err);
        for (uint32_t i = 0; st == PN_OK && i < pn_check_count(r->check); i++) {
            uint32_t t = pn_check_answer(r->check, i)->techniques;
            pn_check_set_techniques(r->check, i,
                                    (t ? t : PN_TECH_EXPLICIT) | PN_TECH_STRUCTURAL_REDUCTION);
        }
    }
    if (st == PN_OK && each != NULL)
        examine_each(each, exam, opts, o, budget, r);
    pn_each_free(each);
    return st;
}

/* CTL and LTL formulas simplified before the portfolio chooses its plan, so
 * that those that become reachability or state formulas take the faster
 * paths. A sixth of the time (LTL: one round of state sub-formulas, which
 * rarely needs it all); on failure the formulas as read. */
#define SIMPLIFY_SHARE (1.0 / 6)
/* The deadlock question, when the simplified formulas ask it. */
#define DEADLOCK_SHARE (1.0 / 10)

static pn_status examine_reduced(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                                 const pn_examine_opts *opts, pn_engine_opts *o,
                                 pn_budget *budget, pn_report *r, pn_error *err);

/* Is no deadlock reachable? ReachabilityDeadlock's own portfolio (linear
 * layer, reductions, stubborn sets, ...) within share, streaming nothing. */
static bool examine_deadlock_free(const pn_cnet *cn, const pn_examine_opts *opts,
                                  const pn_engine_opts *o, pn_budget *budget, double share)
{
    pn_examine_opts so = *opts;
    so.diag = NULL;
    so.write_reduced = NULL;
    pn_engine_opts eo = *o;
    eo.on_decide = NULL;
    eo.verbose = false;
    eo.progress = NULL;
    pn_budget b = pn_budget_share(budget, share);
    pn_report *r = calloc(1, sizeof *r);
    if (r != NULL) /* the check gets one worker slot per engine thread */
        r->result.threads = eo.threads ? eo.threads : 1;
    pn_error e = {0};
    bool free_of = r != NULL &&
                   examine_reduced(cn, PN_EXAM_REACH_DEADLOCK, NULL, &so, &eo, &b, r, &e) ==
                       PN_OK &&
                   r->check != NULL &&
                   pn_check_answer(r->check, 0)->verdict == PN_VERDICT_FALSE;
    pn_report_free(r);
    return free_of;
}

static const pn_fml_set *examine_simplify(const pn_cnet *cn, const pn_fml_set *set,
                                          const pn_examine_opts *opts, const pn_engine_opts *o,
                                          pn_budget *budget, bool ltl, pn_report *r)
{
    FILE *diag = opts->diag, *verbose = o->verbose ? diag : NULL;
    const char *logic = ltl ? "LTL" : "CTL";
    pn_budget b = pn_budget_share(budget, SIMPLIFY_SHARE);
    uint32_t decided = 0;
    double t0 = pn_clock_now();
    pn_error e = {0};
    pn_linear_opts lo = {.budget = &b, .no_smt = o->no_smt};
    int finite = -1; /* asked once, kept for the second pass */
    pn_status st =
        ltl ? pn_ltl_simplify(cn, set, &lo, &finite, verbose, &r->simplified, &decided, &e)
            : pn_ctl_simplify(cn, set, &lo, &finite, verbose, &r->simplified, &decided, &e);
    /* The rules turn EX true into !deadlock: where no deadlock is
     * reachable, such atoms are FALSE, and another pass may fold more. */
    if (st == PN_OK && !ltl && pn_ctl_deadlock_atoms(r->simplified, false) > 0 &&
        examine_deadlock_free(cn, opts, o, budget, DEADLOCK_SHARE)) {
        uint32_t more = 0, atoms = pn_ctl_deadlock_atoms(r->simplified, true);
        pn_fml_set *again = NULL;
        b = pn_budget_share(budget, SIMPLIFY_SHARE);
        st = pn_ctl_simplify(cn, r->simplified, &lo, &finite, verbose, &again, &more, &e);
        pn_fml_set_free(r->simplified);
        r->simplified = again;
        decided += atoms + more;
        if (verbose != NULL)
            fprintf(verbose, "petrel: CTL simplification: no deadlock is reachable: %u atoms "
                             "false\n", atoms);
    }
    if (st != PN_OK) {
        if (diag != NULL)
            fprintf(diag, "petrel: %s simplification: %s\n", logic, e.msg);
        return set;
    }
    if (verbose != NULL)
        fprintf(verbose, "petrel: %s simplification: %u sub-formulas constant in %.3f s\n",
                logic, decided, pn_clock_now() - t0);
    return r->simplified;
}

static pn_status examine_run(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                             const pn_examine_opts *opts, pn_budget *budget, pn_report *r,
                             pn_error *err)
{
    pn_engine_kind kind = opts->engine;
    pn_status st = pn_examine_engine(exam, &kind, opts->diag, err);
    if (st != PN_OK)
        return st;
    pn_engine_opts o = opts->explore;
    o.budget = budget;
    o.visitor = NULL;
    o.record_graph = o.keep_states = false;
    if (exam == PN_EXAM_STATE_SPACE)
        return examine_state_space(cn, kind, &o, opts->diag, &r->result, err);
    r->result.threads = o.threads ? o.threads : 1;
    if (!opts->pt_globals && pn_col_rewritten(cn, exam))
        return examine_coloured_global(cn, exam, kind, &o, budget, opts->diag, &r->check,
                                       &r->result, err);
    pn_examine_opts resolved = *opts;
    resolved.engine = kind;
    /* LTL with traces keeps its formulas: one folded to FALSE would have no
     * counterexample lasso to print. */
    bool ltl = examine_is_ltl(exam);
    if ((examine_is_ctl(exam) || (ltl && !o.keep_parents)) && set != NULL)
        set = examine_simplify(cn, set, &resolved, &o, budget, ltl, r);
    return examine_reduced(cn, exam, set, &resolved, &o, budget, r, err);
}

pn_status pn_examine(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                     const pn_examine_opts *opts, pn_budget *budget, pn_report **out,
                     pn_error *err)
{
    *out = NULL;
    pn_report *r = calloc(1, sizeof *r);
    if (r == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    r->exam = exam;
    r->original = cn;
    pn_status st = examine_run(cn, exam, set, opts, budget, r, err);
    if (st != PN_OK) {
        pn_report_free(r);
        return st;
    }
    *out = r;
    return PN_OK;
}
