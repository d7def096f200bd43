/* Folds the atoms of a state formula that the P-semiflows decide (see
 * lin_invariant.c) and lets the formula simplifier (formula_simplify.c) do
 * the rest. Every reachable marking m has m(p) = m0(p) on a constant place
 * (no transition changes it) and m(p) <= ub(p) (a semiflow y with y(p) > 0
 * gives y(p) m(p) <= y.m = y.m0). An atom is replaced by TRUE or FALSE only
 * when these facts alone decide it in every reachable marking; a deadlock
 * atom is also FALSE when Commoner's property holds (lin_siphon.c). */
#include <stdlib.h>

#include "linear/lin.h"

static uint64_t fold_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t lin_inv_bound(const lin_inv *inv, const uint32_t *places, uint32_t n)
{
    uint64_t s = 0;
    for (uint32_t k = 0; k < n; k++)
        s = fold_add(s, inv->ub[places[k]]);
    return s;
}

/* [lo, hi] of an integer expression over reachable markings; false when
 * it is not one the fold knows. UINT64_MAX as hi: no bound. */
static bool fold_range(const pn_fml_node *e, const pn_cnet *cn, const lin_inv *inv,
                       uint64_t *lo, uint64_t *hi)
{
    if (e->kind == PN_FML_CONST) {
        *lo = *hi = e->value;
        return true;
    }
    if (e->kind != PN_FML_TOKENS)
        return false;
    *lo = 0;
    *hi = lin_inv_bound(inv, e->idx, e->n);
    for (uint32_t k = 0; k < e->n; k++)
        if (inv->constant[e->idx[k]])
            *lo = fold_add(*lo, cn->m0[e->idx[k]]);
    /* saturated sums decide nothing */
    return *lo != UINT64_MAX;
}

/* t can never fire: an input place's bound is below its weight. */
static bool fold_dead(const pn_cnet *cn, const lin_inv *inv, uint32_t t)
{
    for (uint32_t a = cn->pre_off[t]; a < cn->pre_off[t + 1]; a++)
        if (inv->ub[cn->pre[a].place] < cn->pre[a].weight)
            return true;
    return false;
}

/* t is enabled in every reachable marking: its inputs are constant places
 * holding enough. */
static bool fold_always(const pn_cnet *cn, const lin_inv *inv, uint32_t t)
{
    for (uint32_t a = cn->pre_off[t]; a < cn->pre_off[t + 1]; a++)
        if (!inv->constant[cn->pre[a].place] || cn->m0[cn->pre[a].place] < cn->pre[a].weight)
            return false;
    return true;
}

/* The truth of an atom in every reachable marking: 1, 0, or -1. */
static int fold_atom(const pn_fml_node *n, const pn_cnet *cn, const lin_inv *inv)
{
    uint64_t alo, ahi, blo, bhi;
    bool any_always = false, all_dead = true;
    switch (n->kind) {
    case PN_FML_INT_LE:
        if (!fold_range(n->kids[0], cn, inv, &alo, &ahi) ||
            !fold_range(n->kids[1], cn, inv, &blo, &bhi))
            return -1;
        if (ahi != UINT64_MAX && ahi <= blo)
            return 1;
        return bhi != UINT64_MAX && alo > bhi ? 0 : -1;
    case PN_FML_FIREABLE:
    case PN_FML_DEADLOCK: {
        uint32_t m = n->kind == PN_FML_FIREABLE ? n->n : cn->n_transitions;
        for (uint32_t k = 0; k < m; k++) {
            uint32_t t = n->kind == PN_FML_FIREABLE ? n->idx[k] : k;
            any_always |= fold_always(cn, inv, t);
            all_dead &= fold_dead(cn, inv, t);
        }
        int fire = any_always || (n->kind == PN_FML_DEADLOCK && inv->deadlock_free) ? 1
                   : all_dead                                                  ? 0
                                                                               : -1;
        return fire < 0 || n->kind == PN_FML_FIREABLE ? fire : 1 - fire;
    }
    default: return -1;
    }
}

static pn_status fold_rec(pn_fml_node **pp, const pn_cnet *cn, const lin_inv *inv)
{
    pn_fml_node *n = *pp;
    if (n->kind == PN_FML_NOT || n->kind == PN_FML_AND || n->kind == PN_FML_OR) {
        for (uint32_t i = 0; i < n->n; i++) {
            pn_status st = fold_rec(&n->kids[i], cn, inv);
            if (st != PN_OK)
                return st;
        }
        return PN_OK;
    }
    int v = fold_atom(n, cn, inv);
    if (v < 0)
        return PN_OK;
    pn_fml_node *leaf = pn_fml_leaf(v ? PN_FML_TRUE : PN_FML_FALSE);
    if (leaf == NULL)
        return PN_ERR_NOMEM;
    pn_fml_free(n);
    *pp = leaf;
    return PN_OK;
}

pn_status lin_fold_state(const pn_fml_node *phi, const pn_cnet *cn, const lin_inv *inv,
                         int *value, pn_error *err)
{
    *value = -1;
    pn_fml_node *copy = pn_fml_clone(phi);
    if (copy == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory folding a formula");
    pn_status st = fold_rec(&copy, cn, inv);
    if (st != PN_OK) {
        pn_fml_free(copy);
        return pn_fail(err, st, "out of memory folding a formula");
    }
    st = pn_fml_simplify(&copy, err);
    if (st == PN_OK && (copy->kind == PN_FML_TRUE || copy->kind == PN_FML_FALSE))
        *value = copy->kind == PN_FML_TRUE;
    pn_fml_free(copy);
    return st;
}
