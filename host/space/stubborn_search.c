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
 * the parallel full exploration at proving a goal unreachable; it goes on
 * over the full space, best first, for what it can find in its share. */
#define SEARCH_PROBE_PER_MILLE 900

/* The best-first queue (pn_fml_distance, TAPAAL's heuristic): the nearest
 * state first and, at equal distance, the newest (a depth-first bias, as
 * TAPAAL's). A key holds both: the distance above, the id inverted below. */
typedef struct search_heap {
    uint64_t *key;
    uint64_t n, cap;
} search_heap;

static bool heap_push(search_heap *h, uint64_t dist, uint32_t id)
{
    if (h->n == h->cap) {
        uint64_t cap = h->cap ? 2 * h->cap : 1024;
        uint64_t *grown = realloc(h->key, cap * sizeof *grown);
        if (grown == NULL)
            return false;
        h->key = grown;
        h->cap = cap;
    }
    uint64_t k = dist << 32 | (uint32_t)~id, i = h->n++;
    for (; i > 0 && h->key[(i - 1) / 2] > k; i = (i - 1) / 2)
        h->key[i] = h->key[(i - 1) / 2];
    h->key[i] = k;
    return true;
}

static uint32_t heap_pop(search_heap *h)
{
    uint64_t top = h->key[0], last = h->key[--h->n], i = 0;
    for (;;) {
        uint64_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        c += c + 1 < h->n && h->key[c + 1] < h->key[c];
        if (h->key[c] >= last)
            break;
        h->key[i] = h->key[c];
        i = c;
    }
    if (h->n > 0)
        h->key[i] = last;
    return ~(uint32_t)top;
}

typedef struct search {
    pn_lazy *z;
    const pn_cnet *cn;
    const pn_fml_node *goal;
    bool want, dfs;
    uint64_t *m;
    uint32_t *stack; /* dfs */
    uint64_t n_stack, cap;
    search_heap heap; /* best first */
} search;

/* Whether state id has the goal's wanted value; best first: its distance
 * into the queue (0 exactly there, so one evaluation answers both). */
static bool search_meet(search *r, uint32_t id, pn_error *err, pn_status *st)
{
    pn_space_marking(pn_lazy_space(r->z), pn_lazy_state(r->z, id), r->m);
    if (r->dfs)
        return pn_fml_eval_state(r->goal, r->cn, r->m) == r->want;
    uint64_t d = pn_fml_distance(r->goal, r->want, r->cn, r->m);
    if (d == 0)
        return true;
    if (!heap_push(&r->heap, d, id))
        *st = pn_fail(err, PN_ERR_NOMEM, "out of memory for the stubborn-set search");
    return false;
}

/* Depth first for goals that read "deadlock" (deadlocks lie deep, and the
 * distance says little of them), else best first. A goal is checked when
 * its state is found; a complete search sees every state either way. */
static pn_status search_run(pn_lazy *z, const pn_cnet *cn, const pn_fml_node *goal, bool want,
                            const pn_budget *budget, bool *found, pn_error *err)
{
    search r = {.z = z, .cn = cn, .goal = goal, .want = want, .dfs = search_reads_deadlock(goal),
                .cap = 1024};
    r.m = malloc(((size_t)cn->n_places + 1) * sizeof *r.m);
    r.stack = malloc(1024 * sizeof *r.stack);
    pn_status st = r.m == NULL || r.stack == NULL
                       ? pn_fail(err, PN_ERR_NOMEM, "out of memory for the stubborn-set search")
                       : PN_OK;
    if (st == PN_OK) {
        r.stack[r.n_stack++] = 0;
        *found = search_meet(&r, 0, err, &st);
    }
    for (uint64_t steps = 1; st == PN_OK && !*found; steps++) {
        if (r.dfs ? r.n_stack == 0 : r.heap.n == 0)
            break;
        if ((steps & 255) == 0 && (st = pn_budget_fail(budget, err, "the stubborn-set search")))
            break;
        uint32_t id = r.dfs ? r.stack[--r.n_stack] : heap_pop(&r.heap);
        uint64_t before = pn_lazy_states(z);
        const uint32_t *succ = NULL;
        uint32_t n = 0;
        st = pn_lazy_succ(z, id, &succ, &n, err);
        if (st == PN_OK && r.dfs)
            st = search_push(&r.stack, &r.n_stack, &r.cap, succ, n, before, err);
        /* new ids first appear in increasing order: each is met once */
        for (uint32_t k = 0; st == PN_OK && k < n && !*found; k++)
            if (succ[k] >= before) {
                before = succ[k] + 1;
                *found = search_meet(&r, succ[k], err, &st);
            }
    }
    free(r.stack);
    free(r.heap.key);
    free(r.m);
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
    uint32_t unreduced;            /* searches the layer reduced too little */
    uint64_t states, edges;        /* summed over the searches */
    uint64_t max_states, max_edges; /* of the largest search */
} decide_stats;

/* An open target of c the searches take: E F / A G phi, or a bound whose
 * proven upper bound (*limit) no marking has been seen to reach. */
typedef struct decide_goal {
    pn_check_target tg;
    const pn_fml_node *phi;   /* E F / A G */
    pn_fml_node *at_limit;    /* a bound: tokens(places) = limit, owned */
    uint64_t limit;
    uint32_t techniques;      /* what proved the limit */
} decide_goal;

static bool decide_target(const pn_check *c, uint32_t i, decide_goal *g)
{
    const uint32_t *places = NULL;
    uint32_t np = 0;
    const pn_fml_node *phi = NULL;
    pn_check_target tg = pn_check_target_of(c, i, &phi, &places, &np);
    *g = (decide_goal){.tg = tg, .phi = phi};
    if (g->tg == PN_TARGET_EF || g->tg == PN_TARGET_AG)
        return true;
    return g->tg == PN_TARGET_BOUND && np > 0 &&
           pn_check_bound_known(c, i, &g->limit, &g->techniques);
}

/* The bound's goal: a marking whose sum is the proven limit (one above it
 * would contradict the proof: such a search finds none and answers nothing,
 * as the walks do not). */
static pn_fml_node *decide_at_limit(const pn_check *c, uint32_t i, uint64_t limit)
{
    const pn_fml_node *phi = NULL;
    const uint32_t *places = NULL;
    uint32_t np = 0;
    pn_check_target_of(c, i, &phi, &places, &np);
    pn_fml_node *kids[2] = {
        pn_fml_binary(PN_FML_INT_LE, pn_fml_const(limit), pn_fml_list(PN_FML_TOKENS, places, np)),
        pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, places, np), pn_fml_const(limit))};
    return pn_fml_nary(PN_FML_AND, kids, 2);
}

/* Answer i (target g) within share; true when decided. */
static bool decide_one(const pn_cnet *cn, pn_check *c, uint32_t i, decide_goal *g,
                       const pn_budget *share, decide_stats *ds, FILE *diag)
{
    bool bound = g->tg == PN_TARGET_BOUND, want = g->tg != PN_TARGET_AG, found = false;
    const pn_fml_node *goal = g->phi;
    if (bound && (goal = g->at_limit = decide_at_limit(c, i, g->limit)) == NULL)
        return false; /* no memory for it: the answer stays open */
    uint64_t states = 0, edges = 0;
    pn_error err = {0};
    /* A G phi fails exactly where a state without phi is reachable. */
    pn_status st = search_goal(cn, goal, want, true, true, share, &found, &states, &edges, &err);
    bool reduced = st != PN_ERR_UNSUPPORTED;
    if (!reduced) { /* the layer reduces too little: the full space */
        pn_error_clear(&err);
        ds->unreduced++;
        st = search_goal(cn, goal, want, false, false, share, &found, &states, &edges, &err);
    }
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
    uint32_t tech = PN_TECH_EXPLICIT | (reduced ? PN_TECH_STUBBORN_SETS : 0);
    if (bound && !found)
        return false; /* below the proven limit: the value is still unknown */
    if (bound)
        pn_check_bound_limit(c, i, g->limit, true, g->techniques | tech);
    else
        pn_check_decide_target(c, i, want == found, tech);
    ds->decided++;
    return true;
}

static bool decide_open(void *ctx, uint32_t i)
{
    decide_goal g;
    return decide_target(ctx, i, &g);
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
        decide_goal g;
        pn_budget_detail(&share, "formula %s", pn_check_answer(c, i)->id);
        if (decide_target(c, i, &g))
            decide_one(cn, c, i, &g, &share, &ds, diag);
        pn_fml_free(g.at_limit);
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
        fprintf(diag, "petrel: stubborn sets: %u of %u searches decided (%u over the full space), "
                      "%lu states, %lu edges (summed over the searches) in %.3f s\n",
                ds.decided, ds.tried, ds.unreduced, (unsigned long)ds.states,
                (unsigned long)ds.edges, res->seconds);
}
