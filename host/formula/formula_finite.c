/* CTL and LTL rules for nets whose runs are all finite (a ranking
 * function, pn_linear_terminates; the folding of temporal operators over
 * what holds at the end of every path, as LoLA's and TAPAAL's rules fold
 * them over constants). Every maximal path of such a net ends at a
 * deadlock, in CTL (docs/semantics.md: paths are maximal, a deadlock ends
 * them) and in LTL (the deadlock then repeats forever). So:
 *  - F phi holds on every path when phi holds at every deadlock: the path
 *    reaches one; E F phi and A F phi are TRUE.
 *  - G phi holds on no path when phi fails at every deadlock: the path's
 *    last state is one; E G phi and A G phi are FALSE.
 * Both hold at every marking, so the node is replaced wherever it occurs.
 *
 * A formula's value at a deadlock d is a state formula (pn_fml_at_deadlock):
 * fireable is FALSE and deadlock TRUE there; the only path from d is d
 * itself (CTL: EX FALSE, AX TRUE; F, G and U read d), in LTL d repeated
 * (X reads d again). Here it counts when it simplifies to a constant; the
 * CTL simplification also asks the linear layer about the rest
 * (examine/ctl_simplify.c). */
#include "petrel/formula.h"

#include <stdlib.h>

static pn_fml_node *fin_path(const pn_fml_node *p, bool ltl, bool exists)
{
    switch (p->kind) {
    case PN_FML_X:
        if (ltl)
            return pn_fml_at_deadlock(p->kids[0], ltl);
        return pn_fml_leaf(exists ? PN_FML_FALSE : PN_FML_TRUE);
    case PN_FML_F:
    case PN_FML_G: return pn_fml_at_deadlock(p->kids[0], ltl);
    case PN_FML_U: return pn_fml_at_deadlock(p->kids[1], ltl);
    default: return pn_fml_at_deadlock(p, ltl); /* A p = E p = p for a state-like p */
    }
}

pn_fml_node *pn_fml_at_deadlock(const pn_fml_node *n, bool ltl)
{
    switch (n->kind) {
    case PN_FML_TRUE:
    case PN_FML_FALSE:
    case PN_FML_INT_LE: return pn_fml_clone(n);
    case PN_FML_DEADLOCK: return pn_fml_leaf(PN_FML_TRUE);
    case PN_FML_FIREABLE: return pn_fml_leaf(PN_FML_FALSE);
    case PN_FML_NOT: return pn_fml_unary(PN_FML_NOT, pn_fml_at_deadlock(n->kids[0], ltl));
    case PN_FML_AND:
    case PN_FML_OR: {
        pn_fml_node **kids = malloc(n->n * sizeof *kids);
        if (kids == NULL)
            return NULL;
        for (uint32_t i = 0; i < n->n; i++)
            kids[i] = pn_fml_at_deadlock(n->kids[i], ltl);
        pn_fml_node *out = pn_fml_nary(n->kind, kids, n->n);
        free(kids);
        return out;
    }
    case PN_FML_A:
    case PN_FML_E: return fin_path(n->kids[0], ltl, n->kind == PN_FML_E);
    case PN_FML_X:
    case PN_FML_F:
    case PN_FML_G:
    case PN_FML_U: return ltl ? fin_path(n, ltl, false) : NULL;
    default: return NULL; /* actions: no deadlock reading */
    }
}

/* The constant n has at every deadlock: 1 TRUE, 0 FALSE, -1 not known. */
static int fin_value(const pn_fml_node *n, bool ltl)
{
    pn_fml_node *d = pn_fml_at_deadlock(n, ltl);
    pn_error e = {0};
    int v = d == NULL || pn_fml_simplify(&d, &e) != PN_OK ? -1
            : d->kind == PN_FML_TRUE                       ? 1
            : d->kind == PN_FML_FALSE                      ? 0
                                                           : -1;
    pn_fml_free(d);
    return v;
}

const pn_fml_node *pn_fml_finite_temporal(const pn_fml_node *n, bool ltl)
{
    if (ltl)
        return n->kind == PN_FML_F || n->kind == PN_FML_G ? n : NULL;
    if ((n->kind == PN_FML_A || n->kind == PN_FML_E) && n->n == 1 &&
        (n->kids[0]->kind == PN_FML_F || n->kids[0]->kind == PN_FML_G))
        return n->kids[0];
    return NULL;
}

uint32_t pn_fml_fold_finite(pn_fml_node **root, bool ltl)
{
    pn_fml_node *n = *root;
    uint32_t k = 0;
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        k += pn_fml_fold_finite(&n->kids[i], ltl);
    const pn_fml_node *t = pn_fml_finite_temporal(n, ltl);
    if (t == NULL)
        return k;
    int v = fin_value(t->kids[0], ltl);
    pn_fml_kind to;
    if (t->kind == PN_FML_F && v == 1)
        to = PN_FML_TRUE;
    else if (t->kind == PN_FML_G && v == 0)
        to = PN_FML_FALSE;
    else
        return k;
    pn_fml_node *c = pn_fml_leaf(to);
    if (c == NULL)
        return k;
    pn_fml_free(n);
    *root = c;
    return k + 1;
}
