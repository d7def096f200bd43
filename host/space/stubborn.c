/* Stubborn sets (Valmari, "Stubborn sets for reduced state space
 * generation", 1989; "The state explosion problem", 1998) as a pn_space
 * layer, for the reachability of a state formula: Schmidt, "Stubborn sets
 * for standard properties" (ICATPN 1999) and Kristensen, Schmidt and
 * Valmari, "Question-guided stubborn set methods for state properties"
 * (FMSD 29, 2006); the same conditions as TAPAAL's reachability reduction
 * (Bonneland, Dyhr, Jensen, Johannsen and Srba, "Stubborn versus structural
 * reductions for Petri nets", JLAMP 2019) and LTSmin's POR (Laarman,
 * Pater, van de Pol and Hansen, "Guard-based partial-order reduction",
 * STTT 2016: the may-disable relation and necessary enabling sets are the
 * P/T instances of theirs).
 *
 * In a state s where goal != want, the set S of transitions satisfies:
 *  W  every enabled t in S: each u that can disable t (takes from a place
 *     of pre(t)) and each u that t can disable (t takes from a place of
 *     pre(u)) is in S; then for w outside S, s -w t-> s' implies
 *     s -t w-> s' (Petri-net effects add up);
 *     every disabled t in S: all producers of one scapegoat place p with
 *     m(p) < pre(p, t) are in S; then no w outside S enables t;
 *  R  S holds an "interesting" set of the goal: a path of transitions
 *     outside S cannot make goal == want (the up / down sets of the atoms,
 *     through the connectives; KSV 2006, section 5);
 *  D  when the goal reads "deadlock" and s is not one: S holds an enabled
 *     transition; by W it is a key transition (nothing outside S disables
 *     it), so no path outside S reaches a deadlock.
 * Then a shortest path s -w-> g to a goal state g contains a transition of
 * S (R, D); the first one, t, is enabled in s and s -t-> s1 reaches g in
 * |w| - 1 steps (W). By induction the reduced space reaches a goal state
 * whenever the full one does: no cycle proviso is needed for a state
 * property searched this way (KSV 2006, theorem 1; the ignoring problem
 * concerns properties beyond one goal). The tests compare with full
 * enumeration on random nets.
 *
 * Per state: the enabled transitions are stamped, S is closed with a work
 * stack over per-place lists of the compiled net (takers, consumers,
 * producers: the may-disable relation and necessary enabling sets of
 * LTSmin, taken per place so that each list is followed once per closure,
 * however many transitions test the place); with a deadlock goal up to
 * STUBBORN_TRIES enabled seeds with the fewest list entries are closed and
 * the set with the fewest enabled transitions is kept. */
#include "petrel/stubborn.h"

#include "space/pt.h"

#include <stdlib.h>
#include <string.h>

#define STUBBORN_TRIES 3

typedef struct stubborn {
    const pn_cnet *cn;
    const pn_fml_node *goal;
    bool want;
    bool full;                 /* the goal has an atom without up/down sets */
    uint32_t P, T;
    uint32_t *inc_off, *inc;   /* per place: transitions that add to it */
    uint32_t *dec_off, *dec;   /* per place: transitions that take from it */
    uint32_t *cons_off, *cons; /* per place: transitions with it as input */
    uint32_t *pl_stamp, pl_epoch; /* per place and list (dec, cons, inc):
                                     followed in this closure already */
    uint32_t *deg;             /* per transition: the lists its closure reads */
    uint64_t *m;               /* the marking of the state at hand */
    uint32_t *en, n_en;        /* its enabled transitions */
    uint32_t *en_stamp, en_epoch;
    uint32_t *in_stamp, in_epoch;
    uint32_t *stack, n_stack;
    uint32_t *seeds, n_seeds;  /* the interesting set of the goal */
    bool need_key;             /* the goal needs an enabled transition */
    uint32_t *best, n_best;    /* the enabled transitions of the chosen set */
    uint64_t *succ;
    uint32_t succ_words;
} stubborn;

/* ---- static lists -------------------------------------------------------- */

/* Per place, the transitions whose effect on it has the given sign. */
static bool stubborn_place_lists(const pn_cnet *cn, int sign, uint32_t **off_out,
                                 uint32_t **items_out)
{
    uint32_t P = cn->n_places, T = cn->n_transitions;
    uint32_t *off = calloc((size_t)P + 2, sizeof *off);
    uint32_t *items = malloc(((size_t)cn->delta_off[T] + 1) * sizeof *items);
    *off_out = off;
    *items_out = items;
    if (off == NULL || items == NULL)
        return false;
    for (uint32_t k = 0; k < cn->delta_off[T]; k++)
        if ((cn->delta[k].delta > 0) == (sign > 0))
            off[cn->delta[k].place + 2]++;
    for (uint32_t p = 0; p < P; p++)
        off[p + 2] += off[p + 1];
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++)
            if ((cn->delta[k].delta > 0) == (sign > 0))
                items[off[cn->delta[k].place + 1]++] = t;
    return true;
}

static void stubborn_free(void *self)
{
    stubborn *b = self;
    if (b == NULL)
        return;
    free(b->inc_off);
    free(b->inc);
    free(b->dec_off);
    free(b->dec);
    free(b->m);
    free(b->en);
    free(b->en_stamp);
    free(b->in_stamp);
    free(b->stack);
    free(b->seeds);
    free(b->best);
    free(b->deg);
    free(b->cons_off);
    free(b->cons);
    free(b->pl_stamp);
    free(b->succ);
    free(b);
}

/* ---- the set in one state ------------------------------------------------ */

static bool stubborn_enabled(const stubborn *b, uint32_t t)
{
    return b->en_stamp[t] == b->en_epoch;
}

static void stubborn_add(stubborn *b, uint32_t t)
{
    if (b->in_stamp[t] == b->in_epoch)
        return;
    b->in_stamp[t] = b->in_epoch;
    b->stack[b->n_stack++] = t;
}

static void stubborn_add_seed(stubborn *b, uint32_t t)
{
    if (b->in_stamp[t] == b->in_epoch)
        return;
    b->in_stamp[t] = b->in_epoch;
    b->seeds[b->n_seeds++] = t;
}

static void stubborn_add_list(stubborn *b, const uint32_t *off, const uint32_t *items, uint32_t p,
                              bool seed)
{
    for (uint32_t k = off[p]; k < off[p + 1]; k++) {
        if (seed)
            stubborn_add_seed(b, items[k]);
        else
            stubborn_add(b, items[k]);
    }
}

/* The scapegoat of disabled t: an input place short of tokens whose
 * producers are fewest outside the set so far. */
static uint32_t stubborn_scapegoat(const stubborn *b, uint32_t t)
{
    const pn_cnet *cn = b->cn;
    uint32_t best = UINT32_MAX, best_cost = UINT32_MAX;
    for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++) {
        uint32_t p = cn->pre[k].place;
        if (b->m[p] >= cn->pre[k].weight)
            continue;
        uint32_t cost = 0;
        for (uint32_t j = b->inc_off[p]; j < b->inc_off[p + 1] && cost < best_cost; j++)
            cost += b->in_stamp[b->inc[j]] != b->in_epoch;
        if (cost < best_cost) {
            best = p;
            best_cost = cost;
        }
    }
    return best;
}

/* Adds list `which` (0: takers, 1: consumers, 2: producers) of place p,
 * once per closure: many transitions share the places they test. */
static void stubborn_add_place(stubborn *b, uint32_t which, uint32_t p)
{
    uint32_t *stamp = &b->pl_stamp[(size_t)which * b->P + p];
    if (*stamp == b->pl_epoch)
        return;
    *stamp = b->pl_epoch;
    if (which == 0)
        stubborn_add_list(b, b->dec_off, b->dec, p, false);
    else if (which == 1)
        stubborn_add_list(b, b->cons_off, b->cons, p, false);
    else
        stubborn_add_list(b, b->inc_off, b->inc, p, false);
}

/* Closes the set on the stack under W; stops early (false) once it holds
 * more than limit enabled transitions. Counts those in *n_enabled. An
 * enabled t brings the takers of its input places (they may disable it)
 * and the consumers of the places it takes from (it may disable them). */
static bool stubborn_close(stubborn *b, uint32_t limit, uint32_t *n_enabled)
{
    const pn_cnet *cn = b->cn;
    uint32_t n = 0;
    while (b->n_stack > 0) {
        uint32_t t = b->stack[--b->n_stack];
        if (!stubborn_enabled(b, t)) {
            uint32_t p = stubborn_scapegoat(b, t);
            if (p != UINT32_MAX)
                stubborn_add_place(b, 2, p);
            continue;
        }
        if (++n > limit)
            return false;
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
            stubborn_add_place(b, 0, cn->pre[k].place);
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++)
            if (cn->delta[k].delta < 0)
                stubborn_add_place(b, 1, cn->delta[k].place);
    }
    *n_enabled = n;
    return true;
}

static void stubborn_new_epoch(uint32_t *stamp, uint32_t *epoch, uint32_t n)
{
    if (++*epoch == 0) {
        memset(stamp, 0, (size_t)n * sizeof *stamp);
        *epoch = 1;
    }
}

/* An integer expression whose up / down sets the layer knows. */
static bool stubborn_int_places(const pn_fml_node *e)
{
    return e->kind == PN_FML_CONST || e->kind == PN_FML_TOKENS;
}

static void stubborn_int_side(stubborn *b, const pn_fml_node *e, bool up)
{
    if (e->kind != PN_FML_TOKENS)
        return;
    for (uint32_t i = 0; i < e->n; i++)
        stubborn_add_list(b, up ? b->inc_off : b->dec_off, up ? b->inc : b->dec, e->idx[i], true);
}

/* The enabled transition of idx[0..n) with the fewest disablers. */
static uint32_t stubborn_pick_enabled(const stubborn *b, const uint32_t *idx, uint32_t n)
{
    const pn_cnet *cn = b->cn;
    uint32_t best = UINT32_MAX, best_cost = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = idx[i];
        if (!stubborn_enabled(b, t))
            continue;
        uint32_t cost = 0;
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
            cost += b->dec_off[cn->pre[k].place + 1] - b->dec_off[cn->pre[k].place];
        if (cost < best_cost) {
            best = t;
            best_cost = cost;
        }
    }
    return best;
}

static void stubborn_interesting(stubborn *b, const pn_fml_node *f, bool want);

/* Forgets the seeds past n (a choice that was not taken). */
static void stubborn_unseed(stubborn *b, uint32_t n)
{
    while (b->n_seeds > n)
        b->in_stamp[b->seeds[--b->n_seeds]] = b->in_epoch - 1;
}

/* f is an AND (want) or an OR (!want) that does not have the value want:
 * one kid without it is enough, the one that needs the fewest seeds. The
 * others (OR with want, AND without): every kid. */
static void stubborn_connective(stubborn *b, const pn_fml_node *f, bool want)
{
    bool one = (f->kind == PN_FML_AND) == want;
    uint32_t base = b->n_seeds, best = UINT32_MAX, best_n = UINT32_MAX;
    bool key = b->need_key;
    for (uint32_t i = 0; i < f->n; i++) {
        if (!one) {
            stubborn_interesting(b, f->kids[i], want);
            continue;
        }
        if (pn_fml_eval_state(f->kids[i], b->cn, b->m) == want)
            continue;
        b->need_key = false;
        stubborn_interesting(b, f->kids[i], want);
        uint32_t n = b->n_seeds - base + (b->need_key || b->full ? 1 : 0);
        stubborn_unseed(b, base);
        if (n < best_n) {
            best = i;
            best_n = n;
        }
    }
    if (!one)
        return;
    b->need_key = key;
    if (best != UINT32_MAX)
        stubborn_interesting(b, f->kids[best], want);
}

/* Adds to the seeds transitions without which f cannot turn from !want to
 * want (R); f has !want in the current state. */
static void stubborn_interesting(stubborn *b, const pn_fml_node *f, bool want)
{
    const pn_cnet *cn = b->cn;
    switch (f->kind) {
    case PN_FML_TRUE:
    case PN_FML_FALSE:
        return; /* constants never change */
    case PN_FML_NOT:
        stubborn_interesting(b, f->kids[0], !want);
        return;
    case PN_FML_AND:
    case PN_FML_OR:
        stubborn_connective(b, f, want);
        return;
    case PN_FML_DEADLOCK:
        b->need_key |= want; /* nothing leaves a deadlock */
        return;
    case PN_FML_FIREABLE:
        if (want) { /* all disabled: each needs its scapegoat's producers */
            for (uint32_t i = 0; i < f->n; i++)
                stubborn_add_seed(b, f->idx[i]);
        } else { /* one stays enabled unless its inputs lose tokens */
            uint32_t t = stubborn_pick_enabled(b, f->idx, f->n);
            if (t == UINT32_MAX) /* not true after all: nothing to keep */
                return;
            for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
                stubborn_add_list(b, b->dec_off, b->dec, cn->pre[k].place, true);
        }
        return;
    case PN_FML_INT_LE: /* l <= r turns true when l falls or r rises */
        stubborn_int_side(b, f->kids[0], !want);
        stubborn_int_side(b, f->kids[1], want);
        return;
    default:
        b->full = true;
        return;
    }
}

/* Whether the layer can reduce for goal (every atom has up / down sets). */
static bool stubborn_supported(const pn_fml_node *f)
{
    switch (f->kind) {
    case PN_FML_TRUE:
    case PN_FML_FALSE:
    case PN_FML_DEADLOCK:
    case PN_FML_FIREABLE:
        return true;
    case PN_FML_INT_LE:
        return stubborn_int_places(f->kids[0]) && stubborn_int_places(f->kids[1]);
    case PN_FML_NOT:
    case PN_FML_AND:
    case PN_FML_OR:
        for (uint32_t i = 0; i < f->n; i++)
            if (!stubborn_supported(f->kids[i]))
                return false;
        return true;
    default:
        return false;
    }
}

/* One closure of the seeds plus extra (UINT32_MAX: none); keeps it in best
 * when it has fewer enabled transitions than the best so far. */
static void stubborn_try(stubborn *b, uint32_t extra)
{
    stubborn_new_epoch(b->in_stamp, &b->in_epoch, b->T);
    stubborn_new_epoch(b->pl_stamp, &b->pl_epoch, 3 * b->P);
    b->n_stack = 0;
    for (uint32_t i = 0; i < b->n_seeds; i++)
        stubborn_add(b, b->seeds[i]);
    if (extra != UINT32_MAX)
        stubborn_add(b, extra);
    uint32_t n = 0;
    uint32_t limit = b->n_best == UINT32_MAX ? b->T : b->n_best - 1;
    if (!stubborn_close(b, limit, &n))
        return;
    b->n_best = 0;
    for (uint32_t i = 0; i < b->n_en; i++)
        if (b->in_stamp[b->en[i]] == b->in_epoch)
            b->best[b->n_best++] = b->en[i];
}

/* The enabled transitions whose closures look smallest (the fewest list
 * entries to follow), at most STUBBORN_TRIES, into cand; how many. */
static uint32_t stubborn_candidates(const stubborn *b, uint32_t *cand)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->n_en; i++) {
        uint32_t t = b->en[i], k = n < STUBBORN_TRIES ? n++ : STUBBORN_TRIES;
        if (k == STUBBORN_TRIES && b->deg[t] >= b->deg[cand[k - 1]])
            continue;
        if (k == STUBBORN_TRIES)
            k--;
        while (k > 0 && b->deg[cand[k - 1]] > b->deg[t]) {
            cand[k] = cand[k - 1];
            k--;
        }
        cand[k] = t;
    }
    return n;
}

/* The enabled transitions of a stubborn set of state s into best. */
static void stubborn_choose(stubborn *b)
{
    stubborn_new_epoch(b->in_stamp, &b->in_epoch, b->T);
    b->n_seeds = 0;
    b->need_key = false;
    stubborn_interesting(b, b->goal, b->want);
    b->n_best = UINT32_MAX;
    if (!b->need_key || b->n_en == 0) {
        stubborn_try(b, UINT32_MAX);
        return;
    }
    /* Seeds that are enabled already give a key transition. */
    for (uint32_t i = 0; i < b->n_seeds; i++)
        if (stubborn_enabled(b, b->seeds[i])) {
            stubborn_try(b, UINT32_MAX);
            return;
        }
    uint32_t cand[STUBBORN_TRIES], n = stubborn_candidates(b, cand);
    for (uint32_t i = 0; i < n && b->n_best != 1; i++)
        stubborn_try(b, cand[i]);
}

/* ---- the layer ----------------------------------------------------------- */

static uint32_t stubborn_fire_all(stubborn *b, pn_space *inner, const uint64_t *s,
                                  const uint32_t *list, uint32_t n, pn_space_succ_fn fn,
                                  void *ctx)
{
    uint32_t w = pn_space_words(inner);
    if (w > b->succ_words) {
        uint64_t *succ = realloc(b->succ, (size_t)w * sizeof *succ);
        if (succ == NULL) /* no room to reduce into: the full successors */
            return pn_space_next_all(inner, s, fn, ctx);
        b->succ = succ;
        b->succ_words = w;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t of = pn_space_fire(inner, s, list[i], b->succ);
        if (of != 0)
            return of;
        fn(ctx, list[i], b->succ);
    }
    return 0;
}

static uint32_t stubborn_next_all(void *self, pn_space *inner, const uint64_t *s,
                                  pn_space_succ_fn fn, void *ctx)
{
    stubborn *b = self;
    b->n_en = pn_space_enabled(inner, s, b->en);
    if (b->full || b->n_en <= 1)
        return stubborn_fire_all(b, inner, s, b->en, b->n_en, fn, ctx);
    pn_space_marking(inner, s, b->m);
    if (pn_fml_eval_state(b->goal, b->cn, b->m) == b->want) /* a goal: nothing to keep */
        return stubborn_fire_all(b, inner, s, b->en, b->n_en, fn, ctx);
    stubborn_new_epoch(b->en_stamp, &b->en_epoch, b->T);
    for (uint32_t i = 0; i < b->n_en; i++)
        b->en_stamp[b->en[i]] = b->en_epoch;
    stubborn_choose(b);
    return stubborn_fire_all(b, inner, s, b->best, b->n_best, fn, ctx);
}

static const pn_space_ops stubborn_ops = {
    .next_all = stubborn_next_all,
    .free = stubborn_free,
};

static bool stubborn_alloc(stubborn *b)
{
    size_t T = (size_t)b->T + 1;
    b->m = malloc(((size_t)b->P + 1) * sizeof *b->m);
    b->en = malloc(T * sizeof *b->en);
    b->en_stamp = calloc(T, sizeof *b->en_stamp);
    b->in_stamp = calloc(T, sizeof *b->in_stamp);
    b->stack = malloc(T * sizeof *b->stack);
    b->seeds = malloc(T * sizeof *b->seeds);
    b->best = malloc(T * sizeof *b->best);
    b->deg = calloc(T, sizeof *b->deg);
    b->pl_stamp = calloc(3 * ((size_t)b->P + 1), sizeof *b->pl_stamp);
    return b->m != NULL && b->en != NULL && b->en_stamp != NULL && b->in_stamp != NULL &&
           b->stack != NULL && b->seeds != NULL && b->best != NULL && b->deg != NULL &&
           b->pl_stamp != NULL &&
           pn_cnet_place_index(b->cn, false, &b->cons_off, &b->cons, NULL) == PN_OK &&
           stubborn_place_lists(b->cn, 1, &b->inc_off, &b->inc) &&
           stubborn_place_lists(b->cn, -1, &b->dec_off, &b->dec);
}

static void stubborn_degrees(stubborn *b)
{
    const pn_cnet *cn = b->cn;
    for (uint32_t t = 0; t < b->T; t++) {
        uint64_t d = 0;
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
            d += b->dec_off[cn->pre[k].place + 1] - b->dec_off[cn->pre[k].place];
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++)
            if (cn->delta[k].delta < 0)
                d += b->cons_off[cn->delta[k].place + 1] - b->cons_off[cn->delta[k].place];
        b->deg[t] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
    }
}

pn_status pn_stubborn_new(const pn_cnet *cn, pn_space *inner, const pn_fml_node *goal,
                          bool want, pn_space **out, pn_error *err)
{
    *out = NULL;
    stubborn *b = calloc(1, sizeof *b);
    pn_status st = PN_OK;
    if (b == NULL || (b->cn = cn, b->P = cn->n_places, b->T = cn->n_transitions,
                      !stubborn_alloc(b)))
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory for the stubborn-set layer");
    if (st == PN_OK) {
        stubborn_degrees(b);
        b->goal = goal;
        b->want = want;
        b->full = !stubborn_supported(goal);
        st = pn_space_layer_new(&stubborn_ops, b, inner, out, err);
    }
    if (st != PN_OK) {
        stubborn_free(b);
        pn_space_free(inner);
    }
    return st;
}
