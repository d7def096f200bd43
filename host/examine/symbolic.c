/* The decision-diagram step, ex_tech_symbolic (tech.h): the open answers
 * of a job on the MDD of its reachable markings (host/space/mdd.c,
 * host/logic/ctl_mdd.c). The reachable set is built once and the forest
 * kept for every answer and the job's later steps (forest.h), which share
 * its nodes and caches (the fireability atoms, the predecessor sets).
 * Liveness is the CTL formula "for every transition t, A G E F
 * fireable(t)" (Murata, "Petri nets: properties, analysis and
 * applications", Proc. IEEE 77(4), 1989, sec. IV-B: t is live when from
 * every reachable marking a marking enabling t is reachable), checked
 * like any other: a backward fixed point per transition on the set. */
#include "examine/tech.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "logic/ctl_mdd.h"
#include "space/mdd.h"
#include "sys/deep.h"
#include "petrel/mcc.h"
#include "petrel/turns.h"

/* What the formulas of a job are, beyond E F / A G targets and bounds. */
typedef enum sym_logic {
    SYM_TARGETS, /* nothing else is checked */
    SYM_CTL,
    SYM_LTL,
    SYM_LIVE /* the one answer of Liveness: the forest's live formula */
} sym_logic;

/* Answer i on the set, if its kind is one the set answers; *tried false
 * when it is not. The check is read and written under the lock of the
 * step beside (if any), the set is worked on outside it. */
static pn_status sym_answer(pn_ctl_mdd *s, const pn_fml_set *set, const pn_fml_node *live,
                            sym_logic logic, pn_check *c, uint32_t i, const pn_budget *turn,
                            bool *tried, pn_error *err)
{
    const pn_fml_node *phi;
    const uint32_t *places;
    uint32_t np;
    pn_check_lock(c);
    pn_check_target k = pn_check_target_of(c, i, &phi, &places, &np);
    pn_check_unlock(c);
    bool v = false, other = false;
    uint64_t max = 0;
    pn_status st;
    *tried = true;
    if (k == PN_TARGET_EF || k == PN_TARGET_AG)
        st = pn_ctl_mdd_reach(s, phi, turn, k == PN_TARGET_EF ? &v : &other,
                              k == PN_TARGET_EF ? &other : &v, err);
    else if (k == PN_TARGET_BOUND)
        st = pn_ctl_mdd_bound(s, places, np, &max, err);
    else if (logic == SYM_LIVE && live != NULL)
        st = pn_ctl_mdd_check(s, live, turn, &v, err);
    else if (logic == SYM_TARGETS || logic == SYM_LIVE || set == NULL || i >= set->n ||
             set->props[i].status != PN_OK) {
        *tried = false;
        return PN_OK;
    } else if (logic == SYM_CTL)
        st = pn_ctl_mdd_check(s, set->props[i].root, turn, &v, err);
    else
        st = pn_ctl_mdd_ltl(s, set->props[i].root, turn, &v, err);
    if (st != PN_OK)
        return st;
    pn_check_lock(c);
    if (pn_check_answer(c, i)->verdict == PN_VERDICT_UNKNOWN) { /* not decided beside */
        if (k == PN_TARGET_EF || k == PN_TARGET_AG)
            pn_check_decide_target(c, i, v, PN_TECH_DECISION_DIAGRAMS);
        else if (k == PN_TARGET_BOUND)
            pn_check_bound_limit(c, i, max, true, PN_TECH_DECISION_DIAGRAMS);
        else
            pn_check_decide_answer(c, i, v, PN_TECH_DECISION_DIAGRAMS);
    }
    pn_check_unlock(c);
    return PN_OK;
}

/* Builds the set within reach; NULL (and a line) when it does not close. */
static pn_ctl_mdd *sym_build(const pn_cnet *cn, const pn_budget *reach, FILE *verbose)
{
    double t0 = pn_clock_now();
    pn_error e = {0};
    pn_ctl_mdd *s = NULL;
    if (pn_ctl_mdd_new(cn, reach, &s, &e) != PN_OK) {
        if (verbose != NULL)
            fprintf(verbose, "petrel: symbolic: %s after %.3f s\n", e.msg, pn_clock_now() - t0);
        return NULL;
    }
    double n = pn_ctl_mdd_states(s); /* a double: past 10^308 (StateSpace counts exactly) */
    if (verbose != NULL)
        fprintf(verbose, "petrel: symbolic: %s%.4g reachable markings, %lu nodes in %.3f s\n",
                isinf(n) ? "more than " : "", isinf(n) ? DBL_MAX : n,
                (unsigned long)pn_ctl_mdd_nodes(s), pn_clock_now() - t0);
    return s;
}

/* The reachable set's time in a run without a deadline: the explicit
 * steps after this one go on where a diagram cannot close in it. */
#define SYM_REACH_ALONE_S 120.0

typedef struct sym_run {
    pn_check *c;
    bool memory;      /* out of the budget's memory: no more turns */
    uint8_t *untried; /* per answer: of a kind the set does not answer */
} sym_run;

static bool sym_open(void *ctx, uint32_t i)
{
    sym_run *r = ctx;
    return !r->memory && !r->untried[i] && pn_check_open(r->c, i);
}

static sym_logic sym_logic_of(pn_exam exam)
{
    if (exam == PN_EXAM_LIVENESS)
        return SYM_LIVE;
    return ex_exam_is_ltl(exam) ? SYM_LTL : ex_exam_is_ctl(exam) ? SYM_CTL : SYM_TARGETS;
}

/* Every open answer of the job in its turns (PN_TURNS_GROWING): a CTL
 * formula resumes from the sub-formulas it finished in its last turn
 * (pn_ctl_mdd_check keeps their sets), so the quick ones are decided first
 * at little cost to the others. */
static void sym_turns(ex_job *j, pn_ctl_mdd *s, const pn_budget *b)
{
    FILE *verbose = j->s->verbose;
    sym_run r = {.c = j->c, .untried = calloc((size_t)pn_check_count(j->c) + 1, 1)};
    pn_turns *t = NULL;
    pn_error e = {0};
    if (r.untried == NULL ||
        pn_turns_new(b, pn_check_count(j->c), 1, PN_TURNS_GROWING, sym_open, &r, &t, &e) !=
            PN_OK) {
        free(r.untried);
        return;
    }
    uint32_t i;
    int pass;
    pn_budget turn;
    while (pn_turns_next(t, &i, &turn, &pass)) {
        pn_check_watch(j->c, i, &turn);
        pn_budget_detail(&turn, "formula %s (pass %d)", pn_check_answer(j->c, i)->id, pass);
        double t1 = pn_clock_now();
        bool tried = false;
        pn_error fe = {0};
        pn_status st = sym_answer(s, j->set, j->forest.live, sym_logic_of(j->exam), j->c, i,
                                  &turn, &tried, &fe);
        if (verbose != NULL && tried)
            fprintf(verbose, "petrel: symbolic: %s: %s in %.3f s (pass %d, %lu nodes)\n",
                    pn_check_answer(j->c, i)->id, st != PN_OK ? fe.msg : "done",
                    pn_clock_now() - t1, pass, (unsigned long)pn_ctl_mdd_nodes(s));
        r.memory = st == PN_ERR_NOMEM; /* the budget's memory: collected before the next */
        r.untried[i] = !tried; /* another turn would not try it either (no deadline: a spin) */
        pn_turns_end(t, i);
    }
    pn_turns_free(t);
    free(r.untried);
}

/* Liveness as one formula (the top comment), kept with the forest: the
 * check keeps its sub-formulas' sets against their nodes, so a later turn
 * resumes from the transitions it finished. NULL when out of memory. */
static pn_fml_node *sym_live_formula(const pn_cnet *cn)
{
    uint32_t T = cn->n_transitions;
    pn_fml_node **kids = T > 0 ? malloc((size_t)T * sizeof *kids) : NULL;
    if (kids == NULL)
        return NULL;
    for (uint32_t t = 0; t < T; t++) {
        pn_fml_node *ef = pn_fml_unary(
            PN_FML_E, pn_fml_unary(PN_FML_F, pn_fml_list(PN_FML_FIREABLE, &t, 1)));
        kids[t] = pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, ef));
    }
    pn_fml_node *all = pn_fml_nary(PN_FML_AND, kids, T); /* NULL if a kid is */
    free(kids);
    return all;
}

/* The reachable set within half of b (built once per job, kept in its
 * forest for the steps after), then every open answer in its turns. */
static pn_status symbolic_turns(ex_job *j, const pn_budget *b, pn_error *err)
{
    /* The reachable set gets half: a net whose set does not close in that
     * time rarely has answers it could give in the other half, which the
     * steps after this one then get. */
    pn_budget reach = pn_budget_share(b, 0.5);
    if (b->deadline <= 0) /* a run without one: the exploration after it still gets its turn */
        reach = pn_budget_within(&reach, SYM_REACH_ALONE_S);
    ex_sym_forest *keep = &j->forest;
    if (keep->s == NULL && !keep->tried)
        keep->s = sym_build(j->cn, &reach, j->s->verbose);
    keep->tried = true;
    if (keep->s == NULL)
        return PN_OK;
    if (j->exam == PN_EXAM_LIVENESS && keep->live == NULL &&
        (keep->live = sym_live_formula(j->cn)) == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building the Liveness formula");
    /* Without a deadline the answers get as long as the set at most: a set
     * that closes with about a node per marking (Peterson-PT-3's 3.4 * 10^6
     * markings in 2.4 * 10^6 nodes) makes checks that take longer than the
     * exploration after this step, which then still gets its turn. */
    pn_budget turns = b->deadline <= 0 ? pn_budget_within(b, SYM_REACH_ALONE_S) : *b;
    pn_ctl_mdd_set_budget(keep->s, &turns);
    sym_turns(j, keep->s, &turns);
    pn_ctl_mdd_set_budget(keep->s, NULL); /* turns is gone after this call */
    return PN_OK;
}

typedef struct symbolic_call {
    ex_job *j;
    const pn_budget *b;
    pn_error *err;
    pn_status st;
} symbolic_call;

static void symbolic_deep(void *p)
{
    symbolic_call *c = p;
    c->st = symbolic_turns(c->j, c->b, c->err);
}

/* A net wider than the caller's stack allows runs on a stack of its own
 * (PN_MDD_STACK_BYTES); when that thread cannot be made, the step decides
 * nothing. */
static pn_status symbolic_run(ex_job *j, const pn_budget *b, pn_error *err)
{
    if (j->cn->n_places <= PN_MDD_INLINE_LEVELS)
        return symbolic_turns(j, b, err);
    symbolic_call c = {j, b, err, PN_OK};
    pn_run_deep(PN_MDD_STACK_BYTES(j->cn->n_places), symbolic_deep, &c);
    return c.st;
}

/* The share a forest wider than PN_MDD_INLINE_LEVELS needs per level:
 * the reachable set gets half of the share and each order an eighth of
 * that; cut shorter, the orders' rounds stop early and the set does not
 * close, and the time is lost to the steps after (RwMutex-PT-r2000w0010,
 * 6,020 levels, and Philosophers-PT-001000, 5,000: about 0.65 to 0.8 s
 * within a 1.5 to 2 s share, not within 1 s). At 0.4 ms a level the CTL
 * plan skipped the step on RwMutex with 1.9 s to give it, where the set
 * closes and decides formulas the local checker does not. */
#define SYM_WIDE_S_PER_LEVEL 0.00025

/* A forest has a level per place, up to PN_MDD_MAX_LEVELS; up to
 * PN_MDD_INLINE_LEVELS its setup (FORCE's orders, an eighth of the share
 * each at most, the unique table) keeps to the budget, and a wider one
 * asks for a share in proportion to its levels. A forest an earlier step
 * built costs nothing to take up again: the CTL plan's last symbolic step
 * was skipped for a setup already done (RwMutex-PT-r2000w0010: 1 s left
 * to formulas whose checks had resumed in turns of 0.1 s). */
static double symbolic_setup_s(const ex_job *j, const char **why)
{
    const uint32_t P = j->cn->n_places;
    if (j->forest.s != NULL)
        return 0;
    *why = "more places than a decision diagram has levels (32,768)";
    if (P > PN_MDD_MAX_LEVELS)
        return INFINITY;
    *why = "a forest of more than 4,096 levels";
    return P > PN_MDD_INLINE_LEVELS ? P * SYM_WIDE_S_PER_LEVEL : 0;
}

/* (Liveness of a net without transitions is the others' to answer.) */
static bool symbolic_applies(ex_job *j)
{
    bool live_ok = j->exam != PN_EXAM_LIVENESS || j->cn->n_transitions > 0;
    return live_ok && pn_check_open_count(j->c) > 0;
}

const ex_tech ex_tech_symbolic = {.name = "symbolic", .applies = symbolic_applies,
                                   .setup_s = symbolic_setup_s, .run = symbolic_run,
                                   .marks = PN_TECH_DECISION_DIAGRAMS};
