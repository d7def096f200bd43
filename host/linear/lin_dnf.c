/* State formulas as disjunctions of linear constraint systems over the
 * marking, for the state equation (Esparza & Melzer, "Verification of safety
 * properties using integer programming: beyond the state equation", 2000;
 * LoLA and TAPAAL use the same cube-by-cube decomposition).
 *
 * Markings are integers, so a strict a < b is a <= b - 1, and
 * not fireable(t) is "some input place p has m(p) <= Pre(p,t) - 1". The DNF
 * only ever over-approximates: a conjunct whose expansion would pass the
 * cube limit, a disjunction that would, or a number too large for the LP is
 * replaced by TRUE. So "every cube infeasible" still proves that no
 * reachable marking satisfies the formula; a witness is always checked on
 * the real formula. */
#include <stdlib.h>
#include <string.h>

#include "linear/lin.h"

typedef struct dset {
    uint32_t n;       /* cubes */
    uint32_t *off;    /* n + 1 */
    uint32_t *ids;    /* constraint indices */
} dset;

typedef struct dnf_ctx {
    const pn_cnet *cn;
    lin_dnf *d;
    uint32_t max_cubes;
    bool cut;          /* some part over-approximated (lin_dnf.exact) */
    pn_error *err;
    bool nomem;
} dnf_ctx;

static void dset_free(dset *s)
{
    free(s->off);
    free(s->ids);
    s->off = s->ids = NULL;
    s->n = 0;
}

/* n cubes with len ids in all, off/ids uninitialised except off[0]. */
static bool dset_alloc(dnf_ctx *x, dset *s, uint32_t n, uint32_t len)
{
    s->n = n;
    s->off = malloc(((size_t)n + 1) * sizeof *s->off);
    s->ids = malloc(((size_t)len + 1) * sizeof *s->ids);
    if (s->off == NULL || s->ids == NULL) {
        dset_free(s);
        x->nomem = true;
        return false;
    }
    s->off[0] = 0;
    return true;
}

static dset dset_true(dnf_ctx *x)
{
    dset s = {0};
    dset_alloc(x, &s, 1, 0);
    if (s.off != NULL)
        s.off[1] = 0;
    return s;
}

static dset dset_false(dnf_ctx *x)
{
    dset s = {0};
    dset_alloc(x, &s, 0, 0);
    return s;
}

/* One cube holding ids[0..n). */
static dset dset_cube(dnf_ctx *x, const uint32_t *ids, uint32_t n)
{
    dset s = {0};
    if (!dset_alloc(x, &s, 1, n))
        return s;
    memcpy(s.ids, ids, (size_t)n * sizeof *ids);
    s.off[1] = n;
    return s;
}

static dset dset_union(dnf_ctx *x, dset *a, dset *b)
{
    dset s = {0};
    if (a->n + (uint64_t)b->n > x->max_cubes) {
        dset_free(a);
        dset_free(b);
        x->cut = true;
        return dset_true(x); /* over-approximation */
    }
    uint32_t la = a->off[a->n], lb = b->off[b->n];
    if (dset_alloc(x, &s, a->n + b->n, la + lb)) {
        memcpy(s.ids, a->ids, (size_t)la * sizeof *s.ids);
        memcpy(s.ids + la, b->ids, (size_t)lb * sizeof *s.ids);
        memcpy(s.off, a->off, ((size_t)a->n + 1) * sizeof *s.off);
        for (uint32_t k = 1; k <= b->n; k++)
            s.off[a->n + k] = la + b->off[k];
    }
    dset_free(a);
    dset_free(b);
    return s;
}

/* Conjunction: every pair of cubes; the caller checked the size. */
static dset dset_product(dnf_ctx *x, dset *a, dset *b)
{
    dset s = {0};
    uint64_t len = (uint64_t)a->off[a->n] * b->n + (uint64_t)b->off[b->n] * a->n;
    if (len < UINT32_MAX && dset_alloc(x, &s, a->n * b->n, (uint32_t)len)) {
        uint32_t k = 0, pos = 0;
        for (uint32_t i = 0; i < a->n; i++)
            for (uint32_t j = 0; j < b->n; j++) {
                uint32_t la = a->off[i + 1] - a->off[i], lb = b->off[j + 1] - b->off[j];
                memcpy(s.ids + pos, a->ids + a->off[i], (size_t)la * sizeof *s.ids);
                memcpy(s.ids + pos + la, b->ids + b->off[j], (size_t)lb * sizeof *s.ids);
                pos += la + lb;
                s.off[++k] = pos;
            }
    } else if (len >= UINT32_MAX) {
        x->nomem = true;
    }
    dset_free(a);
    dset_free(b);
    return s;
}

/* Appends sum coef*m(place) <= rhs to the pool; UINT32_MAX when out of
 * memory. Duplicate places are merged. */
static uint32_t dnf_add_cons(dnf_ctx *x, const uint32_t *place, const int64_t *coef, uint32_t n,
                             int64_t rhs)
{
    lin_dnf *d = x->d;
    if (d->n_cons == d->cap_cons) {
        uint32_t cap = d->cap_cons ? 2 * d->cap_cons : 16;
        lin_cons *c = realloc(d->cons, (size_t)cap * sizeof *c);
        if (c == NULL) {
            x->nomem = true;
            return UINT32_MAX;
        }
        d->cons = c;
        d->cap_cons = cap;
    }
    lin_cons *c = &d->cons[d->n_cons];
    c->place = malloc(((size_t)n + 1) * sizeof *c->place);
    c->coef = malloc(((size_t)n + 1) * sizeof *c->coef);
    if (c->place == NULL || c->coef == NULL) {
        free(c->place);
        free(c->coef);
        x->nomem = true;
        return UINT32_MAX;
    }
    c->n = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = 0;
        while (k < c->n && c->place[k] != place[i])
            k++;
        if (k == c->n) {
            c->place[c->n] = place[i];
            c->coef[c->n++] = 0;
        }
        c->coef[k] += coef[i];
    }
    c->rhs = rhs;
    return d->n_cons++;
}

static dset dnf_node(dnf_ctx *x, const pn_fml_node *f, bool neg);

/* Side of an INT_LE: token sums go to (place, sign), constants to *k. */
static bool dnf_side(const pn_fml_node *e, int64_t sign, uint32_t *place, int64_t *coef,
                     uint32_t *n, int64_t *k)
{
    if (e->kind == PN_FML_CONST) {
        if (e->value > (uint64_t)LIN_EXACT_MAX)
            return false;
        *k += sign * (int64_t)e->value;
        return true;
    }
    if (e->kind != PN_FML_TOKENS)
        return false;
    for (uint32_t i = 0; i < e->n; i++) {
        place[*n] = e->idx[i];
        coef[(*n)++] = sign;
    }
    return true;
}

/* a <= b is a - b <= 0; its negation b - a <= -1. */
static dset dnf_int_le(dnf_ctx *x, const pn_fml_node *f, bool neg)
{
    const pn_fml_node *a = f->kids[0], *b = f->kids[1];
    uint32_t len = (a->kind == PN_FML_TOKENS ? a->n : 0) + (b->kind == PN_FML_TOKENS ? b->n : 0);
    uint32_t *place = malloc(((size_t)len + 1) * sizeof *place);
    int64_t *coef = malloc(((size_t)len + 1) * sizeof *coef);
    dset s = {0};
    if (place == NULL || coef == NULL) {
        x->nomem = true;
    } else {
        int64_t sign = neg ? -1 : 1, k = 0; /* sum sign*(a - b) + k <= rhs */
        uint32_t n = 0;
        if (!dnf_side(a, sign, place, coef, &n, &k) || !dnf_side(b, -sign, place, coef, &n, &k)) {
            x->cut = true;
            s = dset_true(x);
        } else {
            uint32_t id = dnf_add_cons(x, place, coef, n, -k - (neg ? 1 : 0));
            if (id != UINT32_MAX)
                s = dset_cube(x, &id, 1);
        }
    }
    free(place);
    free(coef);
    return s;
}

/* fireable(t): one cube, m(p) >= Pre(p,t) for each input place. */
static dset dnf_fireable(dnf_ctx *x, uint32_t t)
{
    const pn_cnet *cn = x->cn;
    uint32_t n = cn->pre_off[t + 1] - cn->pre_off[t];
    uint32_t *ids = malloc(((size_t)n + 1) * sizeof *ids);
    if (ids == NULL) {
        x->nomem = true;
        return (dset){0};
    }
    uint32_t k = 0;
    for (uint32_t a = cn->pre_off[t]; a < cn->pre_off[t + 1]; a++) {
        const pn_cnet_arc *arc = &cn->pre[a];
        if (arc->weight > (uint64_t)LIN_EXACT_MAX) {
            x->cut = true;
            continue; /* dropping a conjunct over-approximates */
        }
        int64_t c = -1;
        uint32_t id = dnf_add_cons(x, &arc->place, &c, 1, -(int64_t)arc->weight);
        if (id == UINT32_MAX)
            break;
        ids[k++] = id;
    }
    dset s = x->nomem ? (dset){0} : dset_cube(x, ids, k);
    free(ids);
    return s;
}

/* not fireable(t): one cube per input place, m(p) <= Pre(p,t) - 1. */
static dset dnf_not_fireable(dnf_ctx *x, uint32_t t)
{
    const pn_cnet *cn = x->cn;
    dset s = dset_false(x);
    for (uint32_t a = cn->pre_off[t]; a < cn->pre_off[t + 1] && !x->nomem; a++) {
        const pn_cnet_arc *arc = &cn->pre[a];
        if (arc->weight > (uint64_t)LIN_EXACT_MAX) {
            dset_free(&s);
            x->cut = true;
            return dset_true(x);
        }
        int64_t c = 1;
        uint32_t id = dnf_add_cons(x, &arc->place, &c, 1, (int64_t)arc->weight - 1);
        if (id == UINT32_MAX)
            break;
        dset one = dset_cube(x, &id, 1);
        s = dset_union(x, &s, &one);
    }
    return s;
}

static int dset_cmp_n(const void *a, const void *b)
{
    uint32_t x = ((const dset *)a)->n, y = ((const dset *)b)->n;
    return (x > y) - (x < y);
}

/* Conjunction of parts[0..n) (consumed): smallest first; a part that would
 * pass the cube limit is dropped (over-approximation). */
static dset dnf_and(dnf_ctx *x, dset *parts, uint32_t n)
{
    qsort(parts, n, sizeof *parts, dset_cmp_n);
    dset acc = dset_true(x);
    for (uint32_t i = 0; i < n; i++) {
        if (x->nomem || (uint64_t)acc.n * parts[i].n > x->max_cubes || acc.n == 0) {
            if (parts[i].n == 0 && !x->nomem) { /* FALSE kills everything */
                dset_free(&acc);
                acc = parts[i];
                parts[i] = (dset){0};
                continue;
            }
            dset_free(&parts[i]);
            x->cut |= acc.n > 0; /* FALSE and anything stays FALSE */
            continue;
        }
        acc = dset_product(x, &acc, &parts[i]);
    }
    return acc;
}

/* Children of a connective, or the transitions of a FIREABLE / DEADLOCK. */
static uint32_t dnf_arity(const dnf_ctx *x, const pn_fml_node *f)
{
    if (f->kind == PN_FML_DEADLOCK)
        return x->cn->n_transitions;
    return f->n;
}

static dset dnf_part(dnf_ctx *x, const pn_fml_node *f, bool neg, uint32_t i)
{
    if (f->kind == PN_FML_AND || f->kind == PN_FML_OR)
        return dnf_node(x, f->kids[i], neg);
    uint32_t t = f->kind == PN_FML_DEADLOCK ? i : f->idx[i];
    return neg ? dnf_not_fireable(x, t) : dnf_fireable(x, t);
}

/* AND / OR / FIREABLE (an OR of fireable(t)) / DEADLOCK (an AND of
 * not fireable(t)), with the negation pushed inside. */
static dset dnf_connective(dnf_ctx *x, const pn_fml_node *f, bool neg)
{
    bool conj = f->kind == PN_FML_AND || f->kind == PN_FML_DEADLOCK;
    bool fire_atoms = f->kind == PN_FML_FIREABLE || f->kind == PN_FML_DEADLOCK;
    bool atom_neg = f->kind == PN_FML_DEADLOCK ? !neg : neg;
    if (neg)
        conj = !conj;
    uint32_t n = dnf_arity(x, f);
    if (!conj) {
        dset s = dset_false(x);
        for (uint32_t i = 0; i < n && !x->nomem; i++) {
            dset k = fire_atoms ? dnf_part(x, f, atom_neg, i) : dnf_part(x, f, neg, i);
            s = dset_union(x, &s, &k);
        }
        return s;
    }
    dset *parts = calloc((size_t)n + 1, sizeof *parts);
    if (parts == NULL) {
        x->nomem = true;
        return (dset){0};
    }
    for (uint32_t i = 0; i < n && !x->nomem; i++)
        parts[i] = fire_atoms ? dnf_part(x, f, atom_neg, i) : dnf_part(x, f, neg, i);
    dset s = dnf_and(x, parts, n);
    free(parts);
    return s;
}

static dset dnf_node(dnf_ctx *x, const pn_fml_node *f, bool neg)
{
    switch (f->kind) {
    case PN_FML_TRUE: return neg ? dset_false(x) : dset_true(x);
    case PN_FML_FALSE: return neg ? dset_true(x) : dset_false(x);
    case PN_FML_NOT: return dnf_node(x, f->kids[0], !neg);
    case PN_FML_INT_LE: return dnf_int_le(x, f, neg);
    case PN_FML_AND:
    case PN_FML_OR:
    case PN_FML_FIREABLE:
    case PN_FML_DEADLOCK: return dnf_connective(x, f, neg);
    default: x->cut = true; return dset_true(x); /* not a state atom: over-approximate */
    }
}

void lin_dnf_free(lin_dnf *d)
{
    if (d == NULL)
        return;
    for (uint32_t i = 0; i < d->n_cons; i++) {
        free(d->cons[i].place);
        free(d->cons[i].coef);
    }
    free(d->cons);
    free(d->cube_off);
    free(d->cube_cons);
    free(d);
}

pn_status lin_dnf_build(const pn_fml_node *phi, bool neg, const pn_cnet *cn, uint32_t max_cubes,
                        lin_dnf **out, pn_error *err)
{
    *out = NULL;
    lin_dnf *d = calloc(1, sizeof *d);
    if (d == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state equation");
    dnf_ctx x = {.cn = cn, .d = d, .max_cubes = max_cubes ? max_cubes : 1, .err = err};
    dset s = dnf_node(&x, phi, neg);
    if (x.nomem || s.off == NULL) {
        dset_free(&s);
        lin_dnf_free(d);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state equation");
    }
    d->n_cubes = s.n;
    d->exact = !x.cut;
    d->cube_off = s.off;
    d->cube_cons = s.ids;
    *out = d;
    return PN_OK;
}
