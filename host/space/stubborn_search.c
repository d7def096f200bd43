/* The search over the stubborn-set layer (petrel/stubborn.h), over the
 * on-demand store (petrel/lazy.h). The
 * layer's conditions (stubborn.c) make the reduced space reach a state
 * where the goal has the wanted value whenever the full one does, so a
 * complete reduced search that finds none proves there is none. */
#include <stdlib.h>

#include "net/layout.h"
#include "petrel/lazy.h"
#include "petrel/stubborn.h"
#include "petrel/turns.h"

/* The space to search: the P/T net, with the layer when reducing. */
static pn_status search_space(const pn_cnet *cn, const pn_fml_node *goal, bool want, bool reduce,
                              pn_space **out, pn_error *err)
{
    pn_space *pt = NULL;
    pn_status st = pn_space_pt_new(cn, &pt, err);
    if (st != PN_OK || !reduce) {
        *out = pt;
        return st;
    }
    return pn_stubborn_new(cn, pt, goal, want, out, err);
}

/* Whether a goal reads "deadlock": deadlocks lie deep, other goals are
 * often near the initial state. */
static bool search_reads_deadlock(const pn_fml_node *f)
{
    if (f->kind == PN_FML_DEADLOCK)
        return true;
    for (uint32_t i = 0; f->kids != NULL && i < f->n; i++)
        if (search_reads_deadlock(f->kids[i]))
            return true;
    return false;
}

/* The depth-first stack: the new successors of a state (ids at or past
 * before, the count before its expansion), each pushed once. New ids first
 * appear in increasing order, so a later edge to one falls below before. */
static pn_status search_push(uint32_t **stack, uint64_t *n_stack, uint64_t *cap,
                             const uint32_t *succ, uint32_t n, uint64_t before, pn_error *err)
{
    if (*n_stack + n > *cap) {
        uint32_t *grown = realloc(*stack, (*cap + n) * 2 * sizeof **stack);
        if (grown == NULL)
            return pn_fail(err, PN_ERR_NOMEM, "out of memory for the stubborn-set search");
        *stack = grown;
        *cap = (*cap + n) * 2;
    }
    for (uint32_t k = 0; k < n; k++)
        if (succ[k] >= before) {
            (*stack)[(*n_stack)++] = succ[k];
            before = succ[k] + 1;
        }
    return PN_OK;
}

/* A search that fires more than 9 in 10 of the enabled transitions over
 * its first states (pn_lazy_probe_reduction) reduces too little to beat
 * the parallel full exploration, which then gets the time instead (speed
 * only: giving up decides nothing). */
#define SEARCH_PROBE_PER_MILLE 900

/* Breadth first (ids in the order states are found), or depth first for
 * deadlock goals, which then come early. A goal is checked when its state
 * is taken; a complete search sees every state either way. */
static pn_status search_run(pn_lazy *z, const pn_cnet *cn, const pn_fml_node *goal, bool want,
                            const pn_budget *budget, bool *found, pn_error *err)
{
    bool dfs = search_reads_deadlock(goal);
    uint64_t *m = malloc(((size_t)cn->n_places + 1) * sizeof *m);
    uint32_t *stack = malloc(1024 * sizeof *stack);
    uint64_t n_stack = 1, cap = 1024, next = 0;
    pn_status st = m == NULL || stack == NULL
                       ? pn_fail(err, PN_ERR_NOMEM, "out of memory for the stubborn-set search")
                       : PN_OK;
    if (stack != NULL)
        stack[0] = 0;
    for (uint64_t steps = 1; st == PN_OK; steps++) {
        if (dfs ? n_stack == 0 : next >= pn_lazy_states(z))
            break;
        if ((steps & 255) == 0 && (st = pn_budget_fail(budget, err, "the stubborn-set search")))
            break;
        uint32_t id = dfs ? stack[--n_stack] : (uint32_t)next++;
        pn_space_marking(pn_lazy_space(z), pn_lazy_state(z, id), m);
        if (pn_fml_eval_state(goal, cn, m) == want) {
            *found = true;
            break;
        }
        uint64_t before = pn_lazy_states(z);
        const uint32_t *succ = NULL;
        uint32_t n = 0;
        st = pn_lazy_succ(z, id, &succ, &n, err);
        if (st == PN_OK && dfs)
            st = search_push(&stack, &n_stack, &cap, succ, n, before, err);
    }
    free(stack);
    free(m);
    return st;
}

/* pn_stubborn_search; probe: give up (PN_ERR_UNSUPPORTED) where the layer
 * reduces too little (SEARCH_PROBE_PER_MILLE). */
static pn_status search_goal(const pn_cnet *cn, const pn_fml_node *goal, bool want, bool reduce,
                             bool probe, const pn_budget *budget, bool *found, uint64_t *states,
                             uint64_t *edges, pn_error *err)
{
    *found = false;
    *states = *edges = 0;
    pn_space *sp = NULL;
    pn_lazy *z = NULL;
    /* The space's setup must fit first; the states get what it leaves. */
    uint64_t room = pn_budget_memory(budget);
    if (room != 0 && room <= pn_layout_bytes(cn))
        return pn_fail(err, PN_ERR_OUT_OF_MEMORY, "the stubborn-set search: out of memory");
    pn_status st = search_space(cn, goal, want, reduce, &sp, err);
    if (st == PN_OK)
        st = pn_lazy_new_space(sp, pn_budget_memory(budget), &z, err);
    if (st == PN_OK && probe)
        pn_lazy_probe_reduction(z, SEARCH_PROBE_PER_MILLE);
    if (st == PN_OK) {
        st = search_run(z, cn, goal, want, budget, found, err);
        *states = pn_lazy_states(z);
        *edges = pn_lazy_edges(z);
    }
    pn_lazy_free(z);
    if (st != PN_OK)
        *found = false;
    return st;
}

pn_status pn_stubborn_search(const pn_cnet *cn, const pn_fml_node *goal, bool want, bool reduce,
                             const pn_budget *budget, bool *found, uint64_t *states,
                             uint64_t *edges, pn_error *err)
{
    return search_goal(cn, goal, want, reduce, false, budget, found, states, edges, err);
}

/* ---- the examination hook ------------------------------------------------ */

typedef struct decide_stats {
    uint32_t tried, decided;
    uint64_t states, edges;        /* summed over the searches */
    uint64_t max_states, max_edges; /* of the largest search */
} decide_stats;

/* Answer i (target EF or AG phi) within share; true when decided. */
static bool decide_one(const pn_cnet *cn, pn_check *c, uint32_t i, pn_check_target tg,
                       const pn_fml_node *phi, const pn_budget *share, decide_stats *ds,
                       FILE *diag)
{
    bool ef = tg == PN_TARGET_EF, found = false;
    uint64_t states = 0, edges = 0;
    pn_error err = {0};
    /* A G phi fails exactly where a state without phi is reachable. */
    pn_status st = search_goal(cn, phi, ef, true, true, share, &found, &states, &edges, &err);
    ds->tried++;
    ds->states += states;
    ds->edges += edges;
    if (states > ds->max_states) {
        ds->max_states = states;
        ds->max_edges = edges;
    }
    if (st != PN_OK) {
        if (diag != NULL && st != PN_ERR_TIMEOUT && st != PN_ERR_CANCELLED)
            fprintf(diag, "petrel: %s: stubborn sets: %s\n", pn_check_answer(c, i)->id, err.msg);
        return false;
    }
    pn_check_decide_target(c, i, ef ? found : !found, PN_TECH_EXPLICIT | PN_TECH_STUBBORN_SETS);
    ds->decided++;
    return true;
}

/* An open E F / A G target of c: *phi and *tg say which. */
static bool decide_target(const pn_check *c, uint32_t i, const pn_fml_node **phi,
                          pn_check_target *tg)
{
    const uint32_t *places = NULL;
    uint32_t np = 0;
    *tg = pn_check_target_of(c, i, phi, &places, &np);
    return *tg == PN_TARGET_EF || *tg == PN_TARGET_AG;
}

static bool decide_open(void *ctx, uint32_t i)
{
    const pn_fml_node *phi;
    pn_check_target tg;
    return decide_target(ctx, i, &phi, &tg);
}

static uint32_t decide_count(const pn_check *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < pn_check_count(c); i++)
        n += decide_open((void *)c, i);
    return n;
}

void pn_stubborn_decide(const pn_cnet *cn, pn_check *c, const pn_budget *budget,
                        pn_engine_result *res, FILE *diag)
{
    uint32_t left = decide_count(c);
    /* Without a deadline, one search per formula can cost more than the one
     * full exploration that answers them all. */
    bool timed = budget != NULL && budget->deadline > 0;
    pn_turns *t = NULL;
    pn_error err = {0};
    if (left == 0 || (!timed && left > 1) ||
        pn_turns_new(budget, pn_check_count(c), 1, PN_TURNS_ONCE, decide_open, c, &t, &err) !=
            PN_OK)
        return;
    double t0 = pn_clock_now();
    decide_stats ds = {0};
    uint32_t i;
    int pass;
    pn_budget share;
    while (pn_turns_next(t, &i, &share, &pass)) {
        const pn_fml_node *phi = NULL;
        pn_check_target tg;
        pn_budget_detail(&share, "formula %s", pn_check_answer(c, i)->id);
        if (decide_target(c, i, &phi, &tg))
            decide_one(cn, c, i, tg, phi, &share, &ds, diag);
        pn_turns_end(t, i);
    }
    pn_turns_free(t);
    /* Each search stores a part of one state space: the largest part is
     * what the statistics report (never more than the reachable states). */
    res->states = ds.max_states;
    res->edges = ds.max_edges;
    res->status = PN_RUN_STOPPED;
    res->threads = 1; /* SEQUENTIAL_PROCESSING, unless the engine runs after */
    res->seconds = pn_clock_now() - t0;
    if (diag != NULL)
        fprintf(diag, "petrel: stubborn sets: %u of %u searches decided, %lu states, %lu edges "
                      "(summed over the searches) in %.3f s\n", ds.decided, ds.tried, (unsigned long)ds.states,
                (unsigned long)ds.edges, res->seconds);
}
