/* The coloured net fired as itself (petrel/csim.h), after the enabling
 * check of CPN simulators: K. H. Mortensen, "Efficient Data-Structures and
 * Algorithms for a Coloured Petri Nets Simulator", 3rd Workshop on
 * Practical Use of Coloured Petri Nets and CPN Tools, 2001 (bindings found
 * by matching the input arcs' patterns against the tokens present, the
 * guard tested as soon as its variables are bound).
 *
 * A marking is, per place, the sorted list of its colours present with
 * their counts (hl_bag, counts > 0). The input arcs' inscriptions are sums
 * of weighted colour terms; a term that is a pattern (a variable, a
 * constant, a successor or predecessor of a pattern, a tuple of patterns)
 * can only be matched by a colour present in its place, so it binds its
 * unbound variables from those colours, one colour at a time (depth first,
 * each guard conjunct tested once its variables are bound). A tuple whose
 * leading components are already bound matches only the range of colours
 * that starts with them (products are mixed radix, the last component
 * least significant): the matching colours are found by binary search,
 * not by a scan. Variables no pattern binds (in subtractions, <all>
 * tuples, guards or output arcs only) range over their sort, if small.
 * Each complete binding is then checked exactly: guard, and every input
 * arc's multiset (hl_eval_bag) included in the marking. The search is
 * complete, so "no binding" is a proof; where it would pass its bound it
 * says "not known". */
#include "petrel/csim.h"

#include <stdlib.h>
#include <string.h>

#include "coloured/hlpn.h"
#include "pn_walk.h" /* pn_walk_rand: the walks' xorshift64 */

/* Search steps (colours tried, free-variable values tried) per call, past
 * which the answer is "not known". */
#define CS_SEARCH_MAX (UINT64_C(1) << 22)
/* The most colours a variable that no pattern binds may range over. */
#define CS_FREE_MAX (UINT64_C(1) << 16)
/* Search steps between two polls of the budget. */
#define CS_POLL (UINT64_C(1) << 12)
#define CS_COUNT_MAX (UINT64_C(1) << 62)

typedef struct cs_atom {
    uint32_t place;
    const hl_term *colour;   /* a pattern: a colour term */
    uint64_t count;          /* its weight: the colour is present this often */
} cs_atom;

typedef struct cs_trans {
    cs_atom *atoms;          /* the input arcs' patterns */
    uint32_t n_atoms, cap_atoms;
    uint32_t *vars;          /* every variable of its arcs and guard */
    uint32_t n_vars;
    const hl_term **clauses; /* the guard's top-level conjuncts */
    uint32_t n_clauses, cap_clauses;
} cs_trans;

typedef struct cs_need {
    uint32_t place;
    uint64_t colour;
    int64_t count;
} cs_need;

struct pn_csim {
    xmlDoc *doc;
    hl_model m;
    char *path;
    pn_error err;
    cs_trans *tr;
    hl_bag *m0, *mark;       /* per place */
    uint64_t *counts0, *counts;
    uint64_t *binding;       /* per variable of the model */
    bool *bound;
    uint32_t *trail;         /* the variables bound, in order */
    uint32_t n_trail;
    cs_need *need;           /* a binding's inputs (negative) and outputs */
    size_t n_need, cap_need;
    hl_bag bag;
    uint64_t seed, work;
    bool random;
};

/* ---- reading the transitions --------------------------------------------- */

static bool cs_is_pattern(const hl_term *t)
{
    switch (t->kind) {
    case HL_T_VAR:
    case HL_T_CONST: return true;
    case HL_T_SUCC:
    case HL_T_PRED: return cs_is_pattern(t->kids[0]);
    case HL_T_TUPLE:
        for (uint32_t i = 0; i < t->n; i++)
            if (hl_term_is_multiset(t->kids[i]) || !cs_is_pattern(t->kids[i]))
                return false;
        return true;
    default: return false;
    }
}

/* The patterns of an input inscription, weighted: only through sums and
 * coefficients (a pattern inside a subtraction need not be present). */
static bool cs_collect(cs_trans *T, uint32_t place, const hl_term *t, uint64_t coef)
{
    if (t->kind == HL_T_NUMBEROF) {
        if (t->value == 0 || coef >= CS_COUNT_MAX / t->value)
            return true; /* a weight past 2^62 cannot be matched anyway */
        return cs_collect(T, place, t->kids[0], coef * t->value);
    }
    if (t->kind == HL_T_ADD) {
        for (uint32_t i = 0; i < t->n; i++)
            if (!cs_collect(T, place, t->kids[i], coef))
                return false;
        return true;
    }
    if (hl_term_is_multiset(t) || !cs_is_pattern(t))
        return true;
    if (hl_grow((void **)&T->atoms, &T->cap_atoms, T->n_atoms + 1, sizeof *T->atoms))
        return false;
    T->atoms[T->n_atoms++] = (cs_atom){place, t, coef};
    return true;
}

static bool cs_clauses(cs_trans *T, const hl_term *g)
{
    if (g->kind == HL_G_AND) {
        for (uint32_t i = 0; i < g->n; i++)
            if (!cs_clauses(T, g->kids[i]))
                return false;
        return true;
    }
    if (hl_grow((void **)&T->clauses, &T->cap_clauses, T->n_clauses + 1, sizeof *T->clauses))
        return false;
    T->clauses[T->n_clauses++] = g;
    return true;
}

static bool cs_prepare(pn_csim *s, uint32_t t, bool *used)
{
    const hl_model *m = &s->m;
    const hl_trans *tr = &m->trans[t];
    cs_trans *T = &s->tr[t];
    memset(used, 0, (size_t)m->n_vars * sizeof *used);
    for (uint32_t k = 0; k < tr->arc_count; k++) {
        const hl_arc *a = &m->arcs[m->by_trans[tr->arc_first + k]];
        hl_term_vars(a->ins, used);
        if (a->to_trans && !cs_collect(T, a->place, a->ins, 1))
            return false;
    }
    if (tr->guard != NULL) {
        hl_term_vars(tr->guard, used);
        if (!cs_clauses(T, tr->guard))
            return false;
    }
    T->vars = malloc(((size_t)m->n_vars + 1) * sizeof *T->vars);
    if (T->vars == NULL)
        return false;
    for (uint32_t v = 0; v < m->n_vars; v++)
        if (used[v])
            T->vars[T->n_vars++] = v;
    return true;
}

/* ---- markings ------------------------------------------------------------- */

/* The first entry of bag whose colour is at least c. */
static size_t cs_lower(const hl_bag *bag, uint64_t c)
{
    size_t lo = 0, hi = bag->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (bag->p[mid].colour < c)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint64_t cs_count_of(const hl_bag *bag, uint64_t c)
{
    size_t i = cs_lower(bag, c);
    return i < bag->n && bag->p[i].colour == c ? (uint64_t)bag->p[i].count : 0;
}

/* Adds d tokens of colour c (the caller checked the result is in
 * [0, 2^62)); false when out of memory. */
static bool cs_bag_add(hl_bag *bag, uint64_t c, int64_t d)
{
    size_t i = cs_lower(bag, c);
    if (i < bag->n && bag->p[i].colour == c) {
        bag->p[i].count += d;
        if (bag->p[i].count == 0) {
            memmove(bag->p + i, bag->p + i + 1, (bag->n - i - 1) * sizeof *bag->p);
            bag->n--;
        }
        return true;
    }
    if (bag->n == bag->cap) {
        size_t cap = bag->cap ? bag->cap * 2 : 16;
        hl_pair *p = realloc(bag->p, cap * sizeof *p);
        if (p == NULL)
            return false;
        bag->p = p;
        bag->cap = cap;
    }
    memmove(bag->p + i + 1, bag->p + i, (bag->n - i) * sizeof *bag->p);
    bag->p[i] = (hl_pair){c, d};
    bag->n++;
    return true;
}

static bool cs_bag_copy(hl_bag *to, const hl_bag *from)
{
    if (to->cap < from->n) {
        hl_pair *p = realloc(to->p, from->n * sizeof *p);
        if (p == NULL)
            return false;
        to->p = p;
        to->cap = from->n;
    }
    if (from->n > 0)
        memcpy(to->p, from->p, from->n * sizeof *to->p);
    to->n = from->n;
    return true;
}

/* ---- the binding search --------------------------------------------------- */

static uint64_t cs_rand(pn_csim *s)
{
    return pn_walk_rand(&s->seed);
}

static int cs_unknown(pn_csim *s, pn_status code, const char *what)
{
    pn_fail(&s->err, code, "%s: %s", s->path, what);
    return -1;
}

/* One more search step: -1 once past the bound or the budget. */
static int cs_step(pn_csim *s)
{
    if (++s->work > CS_SEARCH_MAX)
        return cs_unknown(s, PN_ERR_UNSUPPORTED, "a binding search went past its bound");
    if (s->work % CS_POLL == 0 && pn_budget_fail(s->m.budget, &s->err, s->path) != PN_OK)
        return -1;
    return 0;
}

static bool cs_is_bound(const pn_csim *s, const hl_term *t)
{
    if (t->kind == HL_T_VAR)
        return s->bound[t->value];
    for (uint32_t i = 0; i < t->n; i++)
        if (!cs_is_bound(s, t->kids[i]))
            return false;
    return true;
}

static void cs_bind(pn_csim *s, uint32_t v, uint64_t c)
{
    s->bound[v] = true;
    s->binding[v] = c;
    s->trail[s->n_trail++] = v;
}

static void cs_undo(pn_csim *s, uint32_t to)
{
    while (s->n_trail > to)
        s->bound[s->trail[--s->n_trail]] = false;
}

static uint64_t cs_size(const pn_csim *s, uint32_t sort)
{
    return s->m.sorts[hl_canon(&s->m, sort)].size;
}

static bool cs_unify(pn_csim *s, const hl_term *t, uint64_t c);

/* Components 0..k-1 of tuple t from colour c (the last one least
 * significant, as hl_eval_colour builds it). */
static bool cs_unify_tuple(pn_csim *s, const hl_term *t, uint64_t c, uint32_t k)
{
    if (k == 0)
        return true;
    uint64_t size = cs_size(s, t->kids[k - 1]->sort);
    return cs_unify(s, t->kids[k - 1], c % size) && cs_unify_tuple(s, t, c / size, k - 1);
}

/* Binds pattern t's unbound variables so that it denotes colour c; false
 * when it cannot (bindings made are left for the caller to undo). */
static bool cs_unify(pn_csim *s, const hl_term *t, uint64_t c)
{
    uint64_t size;
    switch (t->kind) {
    case HL_T_VAR:
        if (s->bound[t->value])
            return s->binding[t->value] == c;
        cs_bind(s, (uint32_t)t->value, c);
        return true;
    case HL_T_SUCC: /* cyclic, as hl_eval_colour: x + 1 = c */
        size = s->m.sorts[t->sort].size;
        return cs_unify(s, t->kids[0], c == 0 ? size - 1 : c - 1);
    case HL_T_PRED:
        size = s->m.sorts[t->sort].size;
        return cs_unify(s, t->kids[0], c + 1 == size ? 0 : c + 1);
    case HL_T_TUPLE: return cs_unify_tuple(s, t, c, t->n);
    default: return t->value == c; /* CONST */
    }
}

/* The colours pattern t can match: [*lo, *hi), the range of those starting
 * with its bound leading components. */
static void cs_range(const pn_csim *s, const hl_term *t, uint64_t *lo, uint64_t *hi)
{
    *lo = 0;
    *hi = UINT64_MAX;
    if (t->kind != HL_T_TUPLE)
        return;
    uint64_t prefix = 0, rest = 1;
    uint32_t j = 0;
    for (; j < t->n && cs_is_bound(s, t->kids[j]); j++)
        prefix = prefix * cs_size(s, t->kids[j]->sort) +
                 hl_eval_colour(&s->m, t->kids[j], s->binding);
    if (j == 0)
        return;
    for (uint32_t i = j; i < t->n; i++)
        rest *= cs_size(s, t->kids[i]->sort); /* the product's size is below 2^62 */
    *lo = prefix * rest;
    *hi = *lo + rest;
}

static bool cs_clauses_hold(const pn_csim *s, const cs_trans *T)
{
    for (uint32_t i = 0; i < T->n_clauses; i++)
        if (cs_is_bound(s, T->clauses[i]) &&
            !hl_eval_guard(&s->m, T->clauses[i], s->binding))
            return false;
    return true;
}

static int cs_need_cmp(const void *a, const void *b)
{
    const cs_need *x = a, *y = b;
    if (x->place != y->place)
        return x->place < y->place ? -1 : 1;
    return (x->colour > y->colour) - (x->colour < y->colour);
}

/* Appends arcs' multisets under the binding to s->need, inputs negative
 * (to_trans) or outputs positive; -1 when one cannot be evaluated. */
static int cs_needs(pn_csim *s, uint32_t t, bool to_trans)
{
    const hl_trans *tr = &s->m.trans[t];
    for (uint32_t k = 0; k < tr->arc_count; k++) {
        const hl_arc *a = &s->m.arcs[s->m.by_trans[tr->arc_first + k]];
        if (a->to_trans != to_trans)
            continue;
        if (hl_eval_bag(&s->m, a->ins, s->binding, &s->bag) != PN_OK)
            return -1; /* s->err says why (the model's errors are s's) */
        for (size_t i = 0; i < s->bag.n; i++) {
            if (s->n_need == s->cap_need) {
                size_t cap = s->cap_need ? s->cap_need * 2 : 64;
                cs_need *p = realloc(s->need, cap * sizeof *p);
                if (p == NULL)
                    return cs_unknown(s, PN_ERR_NOMEM, "out of memory");
                s->need = p;
                s->cap_need = cap;
            }
            int64_t n = s->bag.p[i].count;
            s->need[s->n_need++] = (cs_need){a->place, s->bag.p[i].colour, to_trans ? -n : n};
        }
    }
    return 0;
}

/* Sorts s->need by place and colour and adds up equal entries. */
static void cs_needs_merge(pn_csim *s)
{
    if (s->n_need == 0)
        return;
    qsort(s->need, s->n_need, sizeof *s->need, cs_need_cmp);
    size_t out = 0;
    for (size_t i = 0; i < s->n_need; i++) {
        if (out > 0 && s->need[out - 1].place == s->need[i].place &&
            s->need[out - 1].colour == s->need[i].colour)
            s->need[out - 1].count += s->need[i].count; /* each |count| < 2^62 */
        else
            s->need[out++] = s->need[i];
    }
    s->n_need = out;
}

/* A complete binding: its guard, and its inputs present. */
static int cs_leaf(pn_csim *s, uint32_t t)
{
    const hl_trans *tr = &s->m.trans[t];
    if (tr->guard != NULL && !hl_eval_guard(&s->m, tr->guard, s->binding))
        return 0;
    s->n_need = 0;
    if (cs_needs(s, t, true) != 0)
        return -1;
    cs_needs_merge(s);
    for (size_t i = 0; i < s->n_need; i++)
        if (cs_count_of(&s->mark[s->need[i].place], s->need[i].colour) <
            (uint64_t)-s->need[i].count)
            return 0;
    return 1;
}

/* Variables no pattern bound, over their sorts. */
static int cs_free_vars(pn_csim *s, uint32_t t, uint32_t i)
{
    const cs_trans *T = &s->tr[t];
    while (i < T->n_vars && s->bound[T->vars[i]])
        i++;
    if (i == T->n_vars)
        return cs_leaf(s, t);
    uint32_t v = T->vars[i];
    uint64_t size = cs_size(s, s->m.vars[v].sort);
    if (size > CS_FREE_MAX)
        return cs_unknown(s, PN_ERR_UNSUPPORTED,
                          "a variable no input arc binds ranges over too many colours");
    uint64_t off = s->random && size > 0 ? cs_rand(s) % size : 0;
    for (uint64_t j = 0; j < size; j++) {
        if (cs_step(s) != 0)
            return -1;
        uint32_t mark = s->n_trail;
        cs_bind(s, v, (off + j) % size);
        int r = cs_clauses_hold(s, T) ? cs_free_vars(s, t, i + 1) : 0;
        if (r != 0)
            return r;
        cs_undo(s, mark);
    }
    return 0;
}

/* Patterns k.. of transition t, each matched against its place's colours. */
static int cs_patterns(pn_csim *s, uint32_t t, uint32_t k)
{
    const cs_trans *T = &s->tr[t];
    if (k == T->n_atoms)
        return cs_free_vars(s, t, 0);
    const cs_atom *a = &T->atoms[k];
    if (cs_is_bound(s, a->colour)) /* checked with the whole binding */
        return cs_patterns(s, t, k + 1);
    const hl_bag *mk = &s->mark[a->place];
    uint64_t lo, hi;
    cs_range(s, a->colour, &lo, &hi);
    size_t first = cs_lower(mk, lo), last = hi == UINT64_MAX ? mk->n : cs_lower(mk, hi);
    size_t n = last - first;
    size_t off = s->random && n > 0 ? (size_t)(cs_rand(s) % n) : 0;
    for (size_t j = 0; j < n; j++) {
        if (cs_step(s) != 0)
            return -1;
        const hl_pair *pr = &mk->p[first + (off + j) % n];
        if ((uint64_t)pr->count < a->count)
            continue;
        uint32_t mark = s->n_trail;
        int r = cs_unify(s, a->colour, pr->colour) && cs_clauses_hold(s, T)
                    ? cs_patterns(s, t, k + 1)
                    : 0;
        if (r != 0)
            return r;
        cs_undo(s, mark);
    }
    return 0;
}

/* 1 with s->binding an enabled binding of t (its variables still marked
 * bound, for the caller to undo), 0 none, -1 not known. */
static int cs_search(pn_csim *s, uint32_t t)
{
    s->work = 0;
    cs_undo(s, 0);
    return cs_clauses_hold(s, &s->tr[t]) ? cs_patterns(s, t, 0) : 0;
}

/* ---- the API --------------------------------------------------------------- */

int pn_csim_enabled(pn_csim *s, uint32_t t)
{
    s->random = false;
    int r = cs_search(s, t);
    cs_undo(s, 0);
    return r;
}

/* Applies s->need (merged) to the marking; -1 where a count would pass
 * 2^62 (the marking is then unchanged). */
static int cs_apply(pn_csim *s)
{
    for (size_t i = 0; i < s->n_need; i++) {
        const cs_need *d = &s->need[i];
        if (d->count > 0 && (s->counts[d->place] >= CS_COUNT_MAX - (uint64_t)d->count ||
                             cs_count_of(&s->mark[d->place], d->colour) >=
                                 CS_COUNT_MAX - (uint64_t)d->count))
            return cs_unknown(s, PN_ERR_UNSUPPORTED, "a count past 2^62");
    }
    for (size_t i = 0; i < s->n_need; i++) {
        const cs_need *d = &s->need[i];
        if (d->count == 0)
            continue;
        if (!cs_bag_add(&s->mark[d->place], d->colour, d->count))
            return cs_unknown(s, PN_ERR_NOMEM, "out of memory");
        s->counts[d->place] += (uint64_t)d->count; /* wraps back for negative counts */
    }
    return 1;
}

int pn_csim_fire(pn_csim *s, uint32_t t, uint64_t seed)
{
    s->random = true;
    s->seed = seed | 1;
    int r = cs_search(s, t);
    if (r == 1) { /* s->need holds the inputs, merged */
        r = cs_needs(s, t, false);
        if (r == 0) {
            cs_needs_merge(s);
            r = cs_apply(s);
        }
    }
    cs_undo(s, 0);
    return r;
}

void pn_csim_reset(pn_csim *s)
{
    for (uint32_t p = 0; p < s->m.n_places; p++)
        cs_bag_copy(&s->mark[p], &s->m0[p]); /* capacities only grow: never fails
                                                   once the first copy succeeded */
    memcpy(s->counts, s->counts0, (size_t)s->m.n_places * sizeof *s->counts);
}

const uint64_t *pn_csim_counts(const pn_csim *s) { return s->counts; }
uint64_t pn_csim_colours(const pn_csim *s, uint32_t p) { return s->mark[p].n; }

void pn_csim_colour(const pn_csim *s, uint32_t p, uint64_t k, uint64_t *colour, uint64_t *count)
{
    *colour = s->mark[p].p[k].colour;
    *count = (uint64_t)s->mark[p].p[k].count;
}
uint32_t pn_csim_places(const pn_csim *s) { return s->m.n_places; }
uint32_t pn_csim_transitions(const pn_csim *s) { return s->m.n_trans; }
const char *pn_csim_place_id(const pn_csim *s, uint32_t p) { return s->m.places[p].id; }
const char *pn_csim_transition_id(const pn_csim *s, uint32_t t) { return s->m.trans[t].id; }
const pn_error *pn_csim_error(const pn_csim *s) { return &s->err; }
void pn_csim_set_budget(pn_csim *s, const pn_budget *budget) { s->m.budget = budget; }

static uint64_t cs_sat_add(uint64_t a, uint64_t b)
{
    const uint64_t top = UINT64_C(1) << 63;
    return a >= top - b ? top : a + b;
}

uint64_t pn_csim_unfolded_nodes(const pn_csim *s)
{
    const uint64_t top = UINT64_C(1) << 63;
    uint64_t n = 0;
    for (uint32_t p = 0; p < s->m.n_places; p++)
        n = cs_sat_add(n, cs_size(s, s->m.places[p].sort));
    for (uint32_t t = 0; t < s->m.n_trans; t++) {
        uint64_t b = 1;
        for (uint32_t i = 0; i < s->tr[t].n_vars; i++) {
            uint64_t size = cs_size(s, s->m.vars[s->tr[t].vars[i]].sort);
            b = size != 0 && b >= top / size ? top : b * size;
        }
        n = cs_sat_add(n, b);
    }
    return n;
}

/* ---- opening --------------------------------------------------------------- */

static pn_status cs_initial(pn_csim *s)
{
    hl_model *m = &s->m;
    for (uint32_t p = 0; p < m->n_places; p++) {
        const hl_place *pl = &m->places[p];
        s->m0[p].n = 0;
        if (pl->m0 != NULL && hl_eval_bag(m, pl->m0, s->binding, &s->m0[p]) != PN_OK)
            return s->err.code;
        for (size_t i = 0; i < s->m0[p].n; i++)
            s->counts0[p] = cs_sat_add(s->counts0[p], (uint64_t)s->m0[p].p[i].count);
        if (s->counts0[p] >= CS_COUNT_MAX)
            return pn_fail(&s->err, PN_ERR_UNSUPPORTED, "%s: place %s holds 2^62 tokens or more",
                           s->path, pl->id);
        if (!cs_bag_copy(&s->mark[p], &s->m0[p]))
            return pn_fail(&s->err, PN_ERR_NOMEM, "%s: out of memory", s->path);
    }
    memcpy(s->counts, s->counts0, (size_t)m->n_places * sizeof *s->counts);
    return PN_OK;
}

static pn_status cs_build(pn_csim *s)
{
    hl_model *m = &s->m;
    size_t np = (size_t)m->n_places + 1, nv = (size_t)m->n_vars + 1;
    s->tr = calloc((size_t)m->n_trans + 1, sizeof *s->tr);
    s->m0 = calloc(np, sizeof *s->m0);
    s->mark = calloc(np, sizeof *s->mark);
    s->counts0 = calloc(np, sizeof *s->counts0);
    s->counts = calloc(np, sizeof *s->counts);
    s->binding = calloc(nv, sizeof *s->binding);
    s->bound = calloc(nv, sizeof *s->bound);
    s->trail = calloc(nv, sizeof *s->trail);
    bool *used = calloc(nv, sizeof *used);
    bool ok = s->tr && s->m0 && s->mark && s->counts0 && s->counts && s->binding && s->bound &&
              s->trail && used;
    for (uint32_t t = 0; ok && t < m->n_trans; t++)
        ok = cs_prepare(s, t, used);
    free(used);
    if (!ok)
        return pn_fail(&s->err, PN_ERR_NOMEM, "%s: out of memory", s->path);
    return cs_initial(s);
}

/* A simulator holding a copy of label; *err set on failure. */
static pn_csim *cs_new(const char *label, pn_error *err)
{
    pn_csim *s = calloc(1, sizeof *s);
    size_t len = strlen(label);
    char *copy = malloc(len + 1);
    if (s == NULL || copy == NULL) {
        free(s);
        free(copy);
        pn_fail(err, PN_ERR_NOMEM, "%s: out of memory", label);
        return NULL;
    }
    memcpy(copy, label, len + 1);
    s->path = copy;
    return s;
}

/* The rest of an opening, once hl_model_open* answered st. */
static pn_status cs_finish(pn_csim *s, pn_status st, pn_csim **out, pn_error *err)
{
    if (st == PN_OK) {
        s->m.err = &s->err;
        /* The searches bound their own work; the budget bounds the time. */
        s->m.limits.budgeted = true;
        st = cs_build(s);
    }
    if (st != PN_OK) {
        *err = s->err;
        pn_csim_free(s);
        return st;
    }
    *out = s;
    return PN_OK;
}

pn_status pn_csim_open(const char *path, const pn_budget *budget, pn_csim **out,
                       pn_error *err)
{
    *out = NULL;
    pn_csim *s = cs_new(path, err);
    if (s == NULL)
        return err->code;
    return cs_finish(s, hl_model_open(s->path, budget, &s->m, &s->doc, &s->err), out, err);
}

pn_status pn_csim_open_memory(const char *buf, size_t len, const char *label,
                              const pn_budget *budget, pn_csim **out, pn_error *err)
{
    *out = NULL;
    pn_csim *s = cs_new(label, err);
    if (s == NULL)
        return err->code;
    return cs_finish(s, hl_model_open_memory(buf, len, s->path, budget, &s->m, &s->doc, &s->err),
                     out, err);
}

void pn_csim_free(pn_csim *s)
{
    if (s == NULL)
        return;
    for (uint32_t t = 0; s->tr != NULL && t < s->m.n_trans; t++) {
        free(s->tr[t].atoms);
        free(s->tr[t].vars);
        free(s->tr[t].clauses);
    }
    for (uint32_t p = 0; p < s->m.n_places; p++) {
        if (s->m0 != NULL)
            free(s->m0[p].p);
        if (s->mark != NULL)
            free(s->mark[p].p);
    }
    free(s->tr);
    free(s->m0);
    free(s->mark);
    free(s->counts0);
    free(s->counts);
    free(s->binding);
    free(s->bound);
    free(s->trail);
    free(s->need);
    free(s->bag.p);
    hl_model_free(&s->m);
    xmlFreeDoc(s->doc);
    free(s->path);
    free(s);
}
