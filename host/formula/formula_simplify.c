/* Sound rewrites only. Path operators are read over maximal paths, which
 * may be finite (they end in a deadlock): F, G and U over constants fold the
 * same way on finite and infinite paths, X does not (EX true is false at a
 * deadlock), so X is left alone. Every step keeps the tree valid and
 * equivalent, so running out of memory midway loses nothing. */
#include "petrel/formula.h"

#include <stdlib.h>

/* Turns n into the leaf `kind` in place: folding never needs memory. */
static void simp_become(pn_fml_node *n, pn_fml_kind kind)
{
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        pn_fml_free(n->kids[i]);
    free(n->kids);
    free(n->idx);
    n->kids = NULL;
    n->idx = NULL;
    n->n = 0;
    n->value = 0;
    n->kind = kind;
}

/* Replaces *pp by its i-th child. */
static void simp_lift(pn_fml_node **pp, uint32_t i)
{
    pn_fml_node *n = *pp;
    pn_fml_node *kid = n->kids[i];
    n->kids[i] = NULL;
    pn_fml_free(n);
    *pp = kid;
}

static bool simp_is(const pn_fml_node *n, pn_fml_kind kind)
{
    return n->kind == kind;
}

/* A state formula in the CTL* sense: its truth on a path depends on the
 * first state only. Quantified subformulas count, so A E phi = E phi. */
static bool simp_statelike(const pn_fml_node *n)
{
    if (n->kind == PN_FML_A || n->kind == PN_FML_E)
        return true;
    if (n->kind == PN_FML_NOT || n->kind == PN_FML_AND || n->kind == PN_FML_OR) {
        for (uint32_t i = 0; i < n->n; i++)
            if (!simp_statelike(n->kids[i]))
                return false;
        return true;
    }
    return pn_fml_is_state(n);
}

/* !F x = G !x and !G x = F !x on every path, finite ones too: moving the
 * negation inward makes A !F x read as A G !x, a reachability question.
 * The nodes are reused: no memory. */
static bool simp_push_not(pn_fml_node **pp)
{
    pn_fml_node *n = *pp, *kid = n->kids[0];
    if (!simp_is(kid, PN_FML_F) && !simp_is(kid, PN_FML_G))
        return false;
    n->kids[0] = kid->kids[0];
    kid->kids[0] = n;
    kid->kind = simp_is(kid, PN_FML_F) ? PN_FML_G : PN_FML_F;
    *pp = kid;
    return true;
}

static bool simp_not(pn_fml_node **pp)
{
    pn_fml_node *n = *pp, *kid = n->kids[0];
    if (simp_is(kid, PN_FML_TRUE) || simp_is(kid, PN_FML_FALSE)) {
        simp_become(n, simp_is(kid, PN_FML_TRUE) ? PN_FML_FALSE : PN_FML_TRUE);
        return true;
    }
    if (!simp_is(kid, PN_FML_NOT))
        return false;
    n->kids[0] = kid->kids[0];
    kid->kids[0] = NULL;
    pn_fml_free(kid);
    simp_lift(pp, 0);
    return true;
}

/* Splices children of the same kind (AND in AND) into n. */
static pn_status simp_flatten(pn_fml_node *n, bool *changed)
{
    uint64_t total = 0;
    bool nested = false;
    for (uint32_t i = 0; i < n->n; i++) {
        bool same = simp_is(n->kids[i], n->kind);
        nested = nested || same;
        total += same ? n->kids[i]->n : 1;
    }
    if (!nested || total > UINT32_MAX)
        return PN_OK; /* too wide to splice: left nested, still equivalent */
    pn_fml_node **kids = malloc((size_t)total * sizeof *kids);
    if (kids == NULL)
        return PN_ERR_NOMEM;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n->n; i++) {
        pn_fml_node *c = n->kids[i];
        if (!simp_is(c, n->kind)) {
            kids[k++] = c;
            continue;
        }
        for (uint32_t j = 0; j < c->n; j++)
            kids[k++] = c->kids[j];
        free(c->kids);
        free(c);
        *changed = true;
    }
    free(n->kids);
    n->kids = kids;
    n->n = k;
    return PN_OK;
}

/* Kids x and !x, both read on the same state or path: AND is false and
 * OR true, whatever x means. Wider connectives are left alone (the
 * comparison is quadratic). */
#define SIMP_COMPLEMENT_MAX 256

static bool simp_complementary(const pn_fml_node *n)
{
    if (n->n > SIMP_COMPLEMENT_MAX)
        return false;
    for (uint32_t i = 0; i < n->n; i++) {
        if (!simp_is(n->kids[i], PN_FML_NOT))
            continue;
        for (uint32_t j = 0; j < n->n; j++)
            if (j != i && pn_fml_equal(n->kids[i]->kids[0], n->kids[j]))
                return true;
    }
    return false;
}

/* AND/OR: a zero child (FALSE in AND) or two complementary ones decide,
 * unit children drop out, nested same-kind children are spliced in. */
static pn_status simp_nary(pn_fml_node **pp, bool *changed)
{
    pn_fml_node *n = *pp;
    pn_fml_kind zero = simp_is(n, PN_FML_AND) ? PN_FML_FALSE : PN_FML_TRUE;
    pn_fml_kind unit = simp_is(n, PN_FML_AND) ? PN_FML_TRUE : PN_FML_FALSE;
    for (uint32_t i = 0; i < n->n; i++)
        if (simp_is(n->kids[i], zero)) {
            simp_become(n, zero);
            *changed = true;
            return PN_OK;
        }
    pn_status st = simp_flatten(n, changed);
    if (st != PN_OK)
        return st;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n->n; i++) {
        if (simp_is(n->kids[i], unit))
            pn_fml_free(n->kids[i]);
        else
            n->kids[k++] = n->kids[i];
    }
    *changed = *changed || k != n->n;
    n->n = k;
    if (simp_complementary(n)) {
        simp_become(n, zero);
        *changed = true;
        return PN_OK;
    }
    if (k == 0)
        simp_become(n, unit);
    else if (k == 1)
        simp_lift(pp, 0);
    *changed = *changed || k <= 1;
    return PN_OK;
}

/* Integer expressions are never negative and evaluate the same way twice. */
static bool simp_int_le(pn_fml_node *n)
{
    const pn_fml_node *a = n->kids[0], *b = n->kids[1];
    bool both = simp_is(a, PN_FML_CONST) && simp_is(b, PN_FML_CONST);
    if (both || (simp_is(a, PN_FML_CONST) && a->value == 0) || pn_fml_equal(a, b)) {
        simp_become(n, !both || a->value <= b->value ? PN_FML_TRUE : PN_FML_FALSE);
        return true;
    }
    return false;
}

/* F and G over a constant are that constant; F F = F and G G = G. */
static bool simp_fg(pn_fml_node **pp)
{
    pn_fml_node *n = *pp, *kid = n->kids[0];
    if (simp_is(kid, PN_FML_TRUE) || simp_is(kid, PN_FML_FALSE) ||
        simp_is(kid, n->kind)) {
        simp_lift(pp, 0);
        return true;
    }
    return false;
}

/* Strong until: a U true = true, a U false = false, false U b = b,
 * true U b = F b. */
static bool simp_until(pn_fml_node **pp)
{
    pn_fml_node *n = *pp, *a = n->kids[0], *b = n->kids[1];
    if (simp_is(b, PN_FML_TRUE) || simp_is(b, PN_FML_FALSE) ||
        simp_is(a, PN_FML_FALSE)) {
        simp_lift(pp, 1);
        return true;
    }
    if (!simp_is(a, PN_FML_TRUE))
        return false;
    pn_fml_free(a);
    n->kids[0] = b;
    n->kids[1] = NULL;
    n->n = 1;
    n->kind = PN_FML_F;
    return true;
}

static pn_status simp_rec(pn_fml_node **pp);

/* One rewrite at the root of *pp (children already simplified). */
static pn_status simp_step(pn_fml_node **pp, bool *changed)
{
    pn_fml_node *n = *pp;
    switch (n->kind) {
    case PN_FML_NOT:
        if (simp_push_not(pp)) { /* the new !x may simplify further */
            *changed = true;
            return simp_rec(&(*pp)->kids[0]);
        }
        *changed = simp_not(pp);
        return PN_OK;
    case PN_FML_AND:
    case PN_FML_OR: return simp_nary(pp, changed);
    case PN_FML_INT_LE: *changed = simp_int_le(n); return PN_OK;
    case PN_FML_A:
    case PN_FML_E:
        /* Every state starts at least one maximal path, so A and E of a
         * formula about the first state are that formula. */
        *changed = simp_statelike(n->kids[0]);
        if (*changed)
            simp_lift(pp, 0);
        return PN_OK;
    case PN_FML_F:
    case PN_FML_G: *changed = simp_fg(pp); return PN_OK;
    case PN_FML_U: *changed = simp_until(pp); return PN_OK;
    default: return PN_OK;
    }
}

static pn_status simp_rec(pn_fml_node **pp)
{
    pn_fml_node *n = *pp;
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++) {
        pn_status st = simp_rec(&n->kids[i]);
        if (st != PN_OK)
            return st;
    }
    /* A rewrite can expose another (true U b -> F b -> b's constant). */
    bool changed;
    pn_status st;
    do {
        changed = false;
        st = simp_step(pp, &changed);
    } while (st == PN_OK && changed);
    return st;
}

pn_status pn_fml_simplify(pn_fml_node **root, pn_error *err)
{
    pn_status st = simp_rec(root);
    if (st != PN_OK)
        return pn_fail(err, st, "out of memory simplifying a formula");
    return PN_OK;
}

pn_status pn_fml_set_simplify(pn_fml_set *set, pn_error *err)
{
    for (uint32_t i = 0; i < set->n; i++) {
        if (set->props[i].status != PN_OK)
            continue;
        pn_status st = pn_fml_simplify(&set->props[i].root, err);
        if (st != PN_OK)
            return st;
    }
    return PN_OK;
}
