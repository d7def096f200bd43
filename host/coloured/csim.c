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
#include "coloured/csim_int.h"

#include <stdlib.h>
#include <string.h>

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

/* ---- markings, changed ------------------------------------------------------ */

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
    if (!hl_bag_reserve(bag, bag->n + 1))
        return false;
    memmove(bag->p + i + 1, bag->p + i, (bag->n - i) * sizeof *bag->p);
    bag->p[i] = (hl_pair){c, d};
    bag->n++;
    return true;
}

static bool cs_bag_copy(hl_bag *to, const hl_bag *from)
{
    if (!hl_bag_reserve(to, from->n))
        return false;
    if (from->n > 0)
        memcpy(to->p, from->p, from->n * sizeof *to->p);
    to->n = from->n;
    return true;
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
