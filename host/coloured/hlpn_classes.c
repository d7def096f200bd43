/* Colour classes: the colours of a sort that no guard, no constant and no
 * repeated variable tells apart are merged into one class, and the net is
 * unfolded over the classes: one place per (place, class) holding the sum
 * of the tokens of its colours, one transition per class binding.
 *
 * The idea is the static subclasses of well-formed nets (Chiola,
 * Dutheillet, Franceschinis, Haddad, "Stochastic well-formed coloured nets
 * for symmetric modelling applications", IEEE Trans. Computers 42(11),
 * 1993) and TAPAAL's colour quotienting (Bilgram, Jensen, Pedersen, Srba,
 * Taankvist, "Improvements in Unfolding of Colored Petri Nets", RP 2021).
 * Here the counting quotient is kept only where it is exact, under these
 * conditions on every transition, for each variable whose sort has a class
 * of two colours or more:
 *   - it occurs at most once in all the input arcs together (a coefficient
 *     k counts k times), so that whatever token of the class the quotient
 *     consumes, a colour of the variable picks exactly that token;
 *   - every comparison in the guard is decided by the class: a variable
 *     against a constant (the sort is cut before and after the constant), a
 *     partition element of a variable against a constant or another one
 *     (the sort is cut where the element changes); any other comparison
 *     (x = y, x < y++, tuples) makes the sorts of its variables single;
 *   - successor and predecessor of it only where its sort is one class;
 * and every constant read by an input arc is a class of its own, an <all>
 * or a partition element's subset read by an input arc or any subtraction
 * in an arc makes its sorts single (a subset written cuts its sort like
 * partitionelementof).
 * Then the map from markings to class sums is a bisimulation between the
 * unfolded net and the class net (each step of one is matched by a step of
 * the other between the images, deadlocks included), so every property over
 * the coloured places' sums and the coloured transitions' fireability
 * (the MCC's formulas and global properties over coloured nets) has the
 * same value on both; the state count and the bounds of single unfolded
 * places do not, and the reader only merges colours when asked
 * (pn_pnml_opts).
 *
 * Classes are intervals of colour indices: a sort is cut into intervals,
 * or every colour is single; a product sort's classes are the products of
 * its components' classes (mixed radix over the class counts, as colours
 * are over the sizes). Structurally equal range and bool sorts share their
 * cuts, as their colours meet in one place. */
#include "coloured/hlpn.h"

#include <stdlib.h>
#include <string.h>

typedef struct cl_work {
    hl_model *m;
    uint32_t *key;           /* sort -> the sort holding its cuts */
    uint64_t *occ;           /* variable -> occurrences in the inputs */
} cl_work;

static bool cl_is_base(const hl_sort *s)
{
    return s->kind == HL_SORT_ENUM || s->kind == HL_SORT_RANGE || s->kind == HL_SORT_BOOL;
}

static hl_classes *cl_of(cl_work *w, uint32_t s)
{
    return &w->m->classes[w->key[hl_canon(w->m, s)]];
}

static void cl_single(cl_work *w, uint32_t s)
{
    s = hl_canon(w->m, s);
    const hl_sort *so = &w->m->sorts[s];
    if (so->kind == HL_SORT_PRODUCT)
        for (uint32_t i = 0; i < so->n; i++)
            cl_single(w, so->comp[i]);
    else if (cl_is_base(so))
        cl_of(w, s)->single = true;
}

static pn_status cl_cut(cl_work *w, uint32_t s, uint64_t at)
{
    s = hl_canon(w->m, s);
    if (!cl_is_base(&w->m->sorts[s])) {
        cl_single(w, s);
        return PN_OK;
    }
    hl_classes *c = cl_of(w, s);
    if (at == 0 || at >= w->m->sorts[s].size || c->single)
        return PN_OK;
    if (hl_grow((void **)&c->cuts, &c->cap_cuts, c->n_cuts + 1, sizeof *c->cuts))
        return hl_nomem(w->m);
    c->cuts[c->n_cuts++] = (uint32_t)at;
    return PN_OK;
}

/* A constant colour is a class of its own. */
static pn_status cl_cut_around(cl_work *w, uint32_t s, uint64_t c)
{
    pn_status st = cl_cut(w, s, c);
    return st == PN_OK ? cl_cut(w, s, c + 1) : st;
}

static void cl_single_vars(cl_work *w, const hl_term *t)
{
    if (t->kind == HL_T_VAR)
        cl_single(w, w->m->vars[t->value].sort);
    for (uint32_t i = 0; i < t->n; i++)
        cl_single_vars(w, t->kids[i]);
}

static bool cl_has_var(const hl_term *t)
{
    if (t->kind == HL_T_VAR)
        return true;
    for (uint32_t i = 0; i < t->n; i++)
        if (cl_has_var(t->kids[i]))
            return true;
    return false;
}

/* The partitioned sort of a partition element term (or of a constant of
 * the partition) is cut wherever the element changes, so that every class
 * lies within one element. */
static pn_status cl_cut_partition(cl_work *w, const hl_term *pelem)
{
    const hl_sort *ps = &w->m->sorts[hl_canon(w->m, pelem->sort)];
    uint64_t size = w->m->sorts[hl_canon(w->m, ps->base)].size;
    pn_status st = hl_spend(w->m, NULL, pelem->line, size);
    for (uint64_t c = 1; c < size && st == PN_OK; c++)
        if (ps->comp[c] != ps->comp[c - 1])
            st = cl_cut(w, ps->base, c);
    return st;
}

/* ---- pass 1: what the guards and the arcs' constants cut ----------------- */

static bool cl_is_pelem_of_var(const hl_term *t)
{
    return t->kind == HL_T_PELEM && t->kids[0]->kind == HL_T_VAR;
}

static pn_status cl_compare(cl_work *w, const hl_term *g)
{
    const hl_term *a = g->kids[0], *b = g->kids[1];
    bool ca = !cl_has_var(a), cb = !cl_has_var(b);
    if (ca && cb)
        return PN_OK;
    if ((a->kind == HL_T_VAR && cb) || (b->kind == HL_T_VAR && ca)) {
        const hl_term *v = a->kind == HL_T_VAR ? a : b;
        uint64_t c = hl_eval_colour(w->m, ca ? a : b, NULL);
        return cl_cut_around(w, w->m->vars[v->value].sort, c);
    }
    if ((cl_is_pelem_of_var(a) || ca) && (cl_is_pelem_of_var(b) || cb)) {
        pn_status st = ca ? PN_OK : cl_cut_partition(w, a);
        return st == PN_OK && !cb ? cl_cut_partition(w, b) : st;
    }
    cl_single_vars(w, g);
    return PN_OK;
}

static pn_status cl_guard(cl_work *w, const hl_term *g)
{
    switch (g->kind) {
    case HL_G_TRUE:
    case HL_G_FALSE:
        return PN_OK;
    case HL_G_AND:
    case HL_G_OR:
    case HL_G_NOT:
    case HL_G_IMPLY:
        for (uint32_t i = 0; i < g->n; i++) {
            pn_status st = cl_guard(w, g->kids[i]);
            if (st != PN_OK)
                return st;
        }
        return PN_OK;
    default:
        return cl_compare(w, g);
    }
}

/* Constants an input arc reads are classes of their own; an <all> it reads
 * or a subtraction anywhere makes the sort single; partition elements cut
 * their partitioned sort. `place_sort`: the sort of the arc's place. */
static pn_status cl_arc_cuts(cl_work *w, const hl_term *t, bool input, uint32_t place_sort)
{
    pn_status st = PN_OK;
    switch (t->kind) {
    case HL_T_CONST:
        return input ? cl_cut_around(w, t->sort, t->value) : PN_OK;
    case HL_T_ALL:
        if (input)
            cl_single(w, t->sort);
        return PN_OK;
    case HL_T_SUBSET: /* read: every colour of it; written: cut like the partition */
        if (input)
            cl_single(w, t->sort);
        return input ? PN_OK : cl_cut_partition(w, t->kids[0]);
    case HL_T_SUB:
        cl_single(w, place_sort);
        break;
    case HL_T_PELEM:
        st = cl_cut_partition(w, t);
        break;
    case HL_T_SUCC:
    case HL_T_PRED:
        if (input && !cl_has_var(t)) /* a constant too */
            cl_single(w, t->sort);
        break;
    default:
        break;
    }
    for (uint32_t i = 0; i < t->n && st == PN_OK; i++)
        st = cl_arc_cuts(w, t->kids[i], input, place_sort);
    return st;
}

/* ---- pass 2: what makes a sort single ------------------------------------ */

/* occ[v] += how many times v is read, k'x counting k. */
static void cl_count(cl_work *w, const hl_term *t, uint64_t coef)
{
    if (t->kind == HL_T_VAR) {
        uint64_t *o = &w->occ[t->value];
        *o = *o + coef < *o ? UINT64_MAX : *o + coef;
        return;
    }
    if (t->kind == HL_T_NUMBEROF) {
        if (t->value == 0)
            return;
        coef = coef > UINT64_MAX / t->value ? UINT64_MAX : coef * t->value;
    }
    for (uint32_t i = 0; i < t->n; i++)
        cl_count(w, t->kids[i], coef);
}

/* x++ is in x's class only when the sort is one class (or all single). */
static void cl_succ(cl_work *w, const hl_term *t)
{
    if ((t->kind == HL_T_SUCC || t->kind == HL_T_PRED) && cl_has_var(t)) {
        const hl_classes *c = cl_of(w, t->sort);
        if (!c->single && c->n_cuts > 1)
            cl_single_vars(w, t);
    }
    for (uint32_t i = 0; i < t->n; i++)
        cl_succ(w, t->kids[i]);
}

static void cl_trans_singles(cl_work *w, const hl_trans *t)
{
    hl_model *m = w->m;
    memset(w->occ, 0, (size_t)m->n_vars * sizeof *w->occ);
    for (uint32_t i = 0; i < t->arc_count; i++) {
        const hl_arc *a = &m->arcs[m->by_trans[t->arc_first + i]];
        if (a->to_trans)
            cl_count(w, a->ins, 1);
        cl_succ(w, a->ins);
    }
    if (t->guard != NULL)
        cl_succ(w, t->guard);
    for (uint32_t v = 0; v < m->n_vars; v++)
        if (w->occ[v] > 1)
            cl_single(w, m->vars[v].sort);
}

/* ---- the classes of every sort ------------------------------------------- */

static int cl_u32_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sorts and dedups the cuts (0 included); a sort cut everywhere is single. */
static void cl_finish_base(hl_classes *c, uint64_t size)
{
    if (!c->single) {
        qsort(c->cuts, c->n_cuts, sizeof *c->cuts, cl_u32_cmp);
        uint32_t out = 0;
        for (uint32_t i = 0; i < c->n_cuts; i++)
            if (out == 0 || c->cuts[out - 1] != c->cuts[i])
                c->cuts[out++] = c->cuts[i];
        c->n_cuts = out;
        c->single = out >= size;
    }
    c->count = c->single ? size : c->n_cuts;
}

/* A product's classes are the products of its components' classes. */
static void cl_finish_product(hl_model *m, uint32_t s)
{
    hl_classes *c = &m->classes[s];
    const hl_sort *so = &m->sorts[s];
    c->count = 1;
    c->single = true;
    for (uint32_t i = 0; i < so->n; i++) {
        uint32_t k = hl_canon(m, so->comp[i]);
        if (m->sorts[k].kind == HL_SORT_PRODUCT)
            cl_finish_product(m, k);
        c->count *= m->classes[k].count; /* <= the product of the sizes */
        c->single = c->single && m->classes[k].single;
    }
}

static void cl_finish(hl_model *m, const uint32_t *key)
{
    for (uint32_t s = 0; s < m->n_sorts; s++)
        if (key[s] == s && cl_is_base(&m->sorts[s]))
            cl_finish_base(&m->classes[s], m->sorts[s].size);
    for (uint32_t s = 0; s < m->n_sorts; s++) {
        hl_classes *c = &m->classes[s];
        c->key = key[s];
        if (cl_is_base(&m->sorts[s])) {
            c->single = m->classes[key[s]].single;
            c->count = m->classes[key[s]].count;
        } else {
            c->single = true; /* dot, partitions, aliases; products below */
            c->count = m->sorts[s].size;
        }
    }
    for (uint32_t s = 0; s < m->n_sorts; s++)
        if (hl_canon(m, s) == s && m->sorts[s].kind == HL_SORT_PRODUCT)
            cl_finish_product(m, s);
}

static pn_status cl_analyse(cl_work *w)
{
    hl_model *m = w->m;
    pn_status st = PN_OK;
    for (uint32_t t = 0; t < m->n_trans && st == PN_OK; t++)
        if (m->trans[t].guard != NULL)
            st = cl_guard(w, m->trans[t].guard);
    for (uint32_t a = 0; a < m->n_arcs && st == PN_OK; a++)
        st = cl_arc_cuts(w, m->arcs[a].ins, m->arcs[a].to_trans,
                         m->places[m->arcs[a].place].sort);
    for (uint32_t t = 0; t < m->n_trans && st == PN_OK; t++)
        cl_trans_singles(w, &m->trans[t]);
    return st;
}

/* Every interval list starts at colour 0 (cl_cut never adds it). */
static pn_status cl_seed(hl_model *m, const uint32_t *key)
{
    for (uint32_t s = 0; s < m->n_sorts; s++) {
        hl_classes *c = &m->classes[s];
        if (key[s] != s || !cl_is_base(&m->sorts[s]))
            continue;
        if (hl_grow((void **)&c->cuts, &c->cap_cuts, 1, sizeof *c->cuts))
            return hl_nomem(m);
        c->cuts[c->n_cuts++] = 0;
    }
    return PN_OK;
}

pn_status hl_classes_build(hl_model *m, bool lump)
{
    m->classes = calloc(m->n_sorts > 0 ? m->n_sorts : 1, sizeof *m->classes);
    uint32_t *key = malloc((m->n_sorts > 0 ? m->n_sorts : 1) * sizeof *key);
    cl_work w = {m, key, calloc(m->n_vars > 0 ? m->n_vars : 1, sizeof *w.occ)};
    pn_status st = m->classes != NULL && key != NULL && w.occ != NULL ? PN_OK : hl_nomem(m);
    for (uint32_t s = 0; s < m->n_sorts && st == PN_OK; s++) {
        key[s] = s;
        bool base = hl_canon(m, s) == s && cl_is_base(&m->sorts[s]);
        for (uint32_t r = 0; r < s && base; r++)
            if (key[r] == r && hl_canon(m, r) == r && cl_is_base(&m->sorts[r]) &&
                hl_sort_eq(m, r, s)) {
                key[s] = r;
                break;
            }
        m->classes[s].single = !lump;
    }
    if (st == PN_OK && lump)
        st = cl_seed(m, key);
    if (st == PN_OK && lump)
        st = cl_analyse(&w);
    if (st == PN_OK)
        cl_finish(m, key);
    free(key);
    free(w.occ);
    return st;
}

void hl_classes_free(hl_model *m)
{
    if (m->classes == NULL)
        return;
    for (uint32_t s = 0; s < m->n_sorts; s++)
        free(m->classes[s].cuts);
    free(m->classes);
    m->classes = NULL;
}

uint32_t hl_classes_merged(const hl_model *m)
{
    uint32_t n = 0;
    for (uint32_t s = 0; s < m->n_sorts; s++)
        n += m->classes[s].key == s && cl_is_base(&m->sorts[s]) && !m->classes[s].single;
    return n;
}

/* ---- colours and classes -------------------------------------------------- */

static const hl_classes *cl_base(const hl_model *m, uint32_t s)
{
    return &m->classes[m->classes[s].key];
}

uint64_t hl_class_count(const hl_model *m, uint32_t s)
{
    return m->classes[hl_canon(m, s)].count;
}

/* The interval holding c: the last cut <= c. */
static uint64_t cl_interval(const hl_classes *c, uint64_t colour)
{
    uint32_t lo = 0, hi = c->n_cuts; /* cuts[lo] <= colour < cuts[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c->cuts[mid] <= colour)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

uint64_t hl_class_of(const hl_model *m, uint32_t s, uint64_t colour)
{
    s = hl_canon(m, s);
    if (m->classes[s].single)
        return colour;
    const hl_sort *so = &m->sorts[s];
    if (so->kind != HL_SORT_PRODUCT)
        return cl_interval(cl_base(m, s), colour);
    uint64_t rank = 0, scale = 1;
    for (uint32_t i = so->n; i-- > 0;) {
        uint32_t k = hl_canon(m, so->comp[i]);
        uint64_t size = m->sorts[k].size;
        rank += hl_class_of(m, k, colour % size) * scale;
        scale *= m->classes[k].count;
        colour /= size;
    }
    return rank;
}

/* A product's class is the mixed-radix number of its components' classes
 * (last component least significant): its first colour (size_of false),
 * or how many colours it has. */
static uint64_t cl_product(const hl_model *m, const hl_sort *so, uint64_t rank, bool size_of)
{
    uint64_t acc = size_of ? 1 : 0, scale = 1;
    for (uint32_t i = so->n; i-- > 0;) {
        uint32_t k = hl_canon(m, so->comp[i]);
        uint64_t count = m->classes[k].count, part = rank % count;
        if (size_of) {
            acc *= hl_class_size(m, k, part);
        } else {
            acc += hl_class_rep(m, k, part) * scale;
            scale *= m->sorts[k].size;
        }
        rank /= count;
    }
    return acc;
}

uint64_t hl_class_rep(const hl_model *m, uint32_t s, uint64_t rank)
{
    s = hl_canon(m, s);
    if (m->classes[s].single)
        return rank;
    const hl_sort *so = &m->sorts[s];
    return so->kind == HL_SORT_PRODUCT ? cl_product(m, so, rank, false)
                                       : cl_base(m, s)->cuts[rank];
}

uint64_t hl_class_size(const hl_model *m, uint32_t s, uint64_t rank)
{
    s = hl_canon(m, s);
    if (m->classes[s].single)
        return 1;
    const hl_sort *so = &m->sorts[s];
    if (so->kind == HL_SORT_PRODUCT)
        return cl_product(m, so, rank, true);
    const hl_classes *c = cl_base(m, s);
    uint64_t end = rank + 1 < c->n_cuts ? c->cuts[rank + 1] : so->size;
    return end - c->cuts[rank];
}

pn_status hl_bag_classes(hl_model *m, uint32_t sort, hl_bag *bag)
{
    if (m->classes[hl_canon(m, sort)].single)
        return PN_OK;
    for (size_t i = 0; i < bag->n; i++)
        bag->p[i].colour = hl_class_of(m, sort, bag->p[i].colour);
    if (!hl_bag_merge(bag, 0))
        return pn_fail(m->err, PN_ERR_INPUT, "%s: a multiplicity beyond 2^62", m->label);
    return PN_OK;
}
