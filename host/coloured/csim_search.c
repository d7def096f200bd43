/* The binding search of the coloured net fired as itself (csim_int.h); the
 * method is csim.c's opening comment's. */
#include "coloured/csim_int.h"

#include <stdlib.h>
#include <string.h>

#include "pn_walk.h" /* pn_walk_rand: the walks' xorshift64 */

/* ---- markings, read --------------------------------------------------------- */

/* The first entry of bag whose colour is at least c. */
size_t cs_lower(const hl_bag *bag, uint64_t c)
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

uint64_t cs_count_of(const hl_bag *bag, uint64_t c)
{
    size_t i = cs_lower(bag, c);
    return i < bag->n && bag->p[i].colour == c ? (uint64_t)bag->p[i].count : 0;
}

/* ---- the binding search --------------------------------------------------- */

static uint64_t cs_rand(pn_csim *s)
{
    return pn_walk_rand(&s->seed);
}

int cs_unknown(pn_csim *s, pn_status code, const char *what)
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

void cs_undo(pn_csim *s, uint32_t to)
{
    while (s->n_trail > to)
        s->bound[s->trail[--s->n_trail]] = false;
}

uint64_t cs_size(const pn_csim *s, uint32_t sort)
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
int cs_needs(pn_csim *s, uint32_t t, bool to_trans)
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
void cs_needs_merge(pn_csim *s)
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
int cs_search(pn_csim *s, uint32_t t)
{
    s->work = 0;
    cs_undo(s, 0);
    return cs_clauses_hold(s, &s->tr[t]) ? cs_patterns(s, t, 0) : 0;
}
