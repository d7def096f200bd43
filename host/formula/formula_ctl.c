/* Sound CTL rewrites, after LoLA's CTL rule set (K. Wolf, "Petri net model
 * checking with LoLA 2", Petri Nets 2018) and TAPAAL's query simplification
 * (F. M. Bønneland et al., "Simplification of CTL formulae for efficient
 * model checking of Petri nets", Petri Nets 2018), restricted to rules that
 * hold on maximal paths, which end at a deadlock (docs/semantics.md): EX
 * is FALSE and AX TRUE there, F, G and U read the path that stops.
 *
 * Each rule below carries its argument. The aim is fewer temporal operators
 * and more formulas of the reachability shapes (E F phi, A G phi with phi a
 * state formula) that the cheaper paths of the portfolio decide. */
#include "petrel/formula.h"

#include <stdlib.h>

static bool ctl_is(const pn_fml_node *n, pn_fml_kind q, pn_fml_kind t)
{
    return n->kind == q && n->n == 1 && n->kids[0]->kind == t;
}

static bool ctl_quantified(const pn_fml_node *n)
{
    return (n->kind == PN_FML_A || n->kind == PN_FML_E) && n->n == 1 &&
           (n->kids[0]->kind == PN_FML_X || n->kids[0]->kind == PN_FML_F ||
            n->kids[0]->kind == PN_FML_G);
}

/* !Q T phi = Q' T' !phi with A/E and F/G, X/X swapped: the negation of a
 * path quantifier is the other one over the negated path formula, and on
 * every path, finite ones included, !F x = G !x, !G x = F !x; !AX x = EX !x
 * is the definition of AX (FALSE at a deadlock on the left, on the right
 * EX is FALSE there too). The nodes are reused. */
static bool ctl_dual(pn_fml_node **pp)
{
    pn_fml_node *n = *pp, *q = n->kids[0];
    if (!ctl_quantified(q))
        return false;
    pn_fml_node *t = q->kids[0], *phi = t->kids[0];
    n->kids[0] = phi;
    t->kids[0] = n;
    q->kind = q->kind == PN_FML_A ? PN_FML_E : PN_FML_A;
    t->kind = t->kind == PN_FML_F ? PN_FML_G : t->kind == PN_FML_G ? PN_FML_F : PN_FML_X;
    *pp = q;
    return true;
}

/* Q1 T1 Q2 T2 phi with one operator absorbing the other:
 *  - EF EF = EF, AG AG = AG: reachability is transitive.
 *  - AF AF = AF: every maximal path from s meets a state where AF phi
 *    holds, and the rest of the path from there is a maximal path of that
 *    state, so it meets phi; conversely AF phi holds at position 0. EG EG
 *    = EG: a path with phi everywhere has EG phi at each of its states
 *    (its suffixes), and EG EG phi has EG phi, so phi, at the start.
 *  - EF AF = EF and AF EF = EF: a state has at least one maximal path, so
 *    AF phi at a reachable state makes phi reachable, and a state on a
 *    path is reachable; EF phi holds at position 0 of every path.
 *  - AG EG = AG and EG AG = AG, their duals: every state of a maximal
 *    path is reachable, and EG phi implies phi.
 * keep_outer: the result is Q1 T1 phi, else Q2 T2 phi. */
static bool ctl_absorb(pn_fml_node **pp)
{
    pn_fml_node *o = *pp;
    if (!ctl_quantified(o) || o->kids[0]->kind == PN_FML_X)
        return false;
    pn_fml_node *ot = o->kids[0], *i = ot->kids[0];
    if (!ctl_quantified(i) || i->kids[0]->kind == PN_FML_X)
        return false;
    pn_fml_kind q1 = o->kind, t1 = ot->kind, q2 = i->kind, t2 = i->kids[0]->kind;
    bool same = q1 == q2 && t1 == t2;
    bool ef_af = q1 == PN_FML_E && t1 == PN_FML_F && q2 == PN_FML_A && t2 == PN_FML_F;
    bool af_ef = q1 == PN_FML_A && t1 == PN_FML_F && q2 == PN_FML_E && t2 == PN_FML_F;
    bool ag_eg = q1 == PN_FML_A && t1 == PN_FML_G && q2 == PN_FML_E && t2 == PN_FML_G;
    bool eg_ag = q1 == PN_FML_E && t1 == PN_FML_G && q2 == PN_FML_A && t2 == PN_FML_G;
    if (same || af_ef || eg_ag) { /* the inner one */
        ot->kids[0] = NULL;
        pn_fml_free(o);
        *pp = i;
        return true;
    }
    if (ef_af || ag_eg) { /* the outer one over phi */
        pn_fml_node *it = i->kids[0];
        ot->kids[0] = it->kids[0];
        it->kids[0] = NULL;
        pn_fml_free(i);
        return true;
    }
    return false;
}

/* Quantified next over a constant: AX true and EX false hold and fail
 * everywhere (AX true vacuously at a deadlock, EX false has no witness);
 * EX true holds iff a successor exists, AX false iff none does. */
static bool ctl_next_const(pn_fml_node **pp)
{
    pn_fml_node *n = *pp;
    if ((n->kind != PN_FML_A && n->kind != PN_FML_E) || !ctl_is(n, n->kind, PN_FML_X))
        return false;
    pn_fml_node *x = n->kids[0], *c = x->kids[0];
    if (c->kind != PN_FML_TRUE && c->kind != PN_FML_FALSE)
        return false;
    bool all = n->kind == PN_FML_A, t = c->kind == PN_FML_TRUE;
    if (all == t) { /* AX true, EX false: the constant itself */
        x->kids[0] = NULL;
        pn_fml_free(n);
        *pp = c;
        return true;
    }
    /* EX true = !deadlock, AX false = deadlock: reuse x as the NOT and c as
     * the atom when the result is !deadlock, else free both. */
    c->kind = PN_FML_DEADLOCK;
    if (all) {
        x->kids[0] = NULL;
        pn_fml_free(n);
        *pp = c;
    } else {
        x->kind = PN_FML_NOT;
        n->kids[0] = NULL;
        pn_fml_free(n);
        *pp = x;
    }
    return true;
}

/* E F (a | b | ...) = E F a | E F b | ...: some reachable state has one of
 * them iff one of them is reachable; dually A G (a & b) = A G a & A G b.
 * The state formulas among the kids stay together (one reachability
 * question), each kid of the same shape (E F x under E F) gets its own, so
 * that E F E F x collapses, and the rest stay together. Built from copies:
 * on NOMEM the tree is unchanged. */
static pn_status ctl_distribute(pn_fml_node **pp, bool *changed)
{
    pn_fml_node *n = *pp;
    bool ef = ctl_is(n, PN_FML_E, PN_FML_F), ag = ctl_is(n, PN_FML_A, PN_FML_G);
    if (!ef && !ag)
        return PN_OK;
    pn_fml_node *t = n->kids[0], *j = t->kids[0];
    pn_fml_kind junction = ef ? PN_FML_OR : PN_FML_AND;
    if (j->kind != junction || pn_fml_is_state(j))
        return PN_OK;
    uint32_t n_state = 0, n_same = 0;
    for (uint32_t k = 0; k < j->n; k++) {
        n_state += pn_fml_is_state(j->kids[k]);
        n_same += ctl_is(j->kids[k], n->kind, t->kind);
    }
    uint32_t n_rest = j->n - n_state - n_same;
    uint32_t parts = (n_state > 0) + n_same + (n_rest > 0);
    if (parts < 2)
        return PN_OK;
    pn_fml_node **out = calloc(parts, sizeof *out);
    pn_fml_node **group = calloc(j->n, sizeof *group);
    bool ok = out != NULL && group != NULL;
    uint32_t p = 0;
    for (int pass = 0; ok && pass < 3; pass++) { /* 0: state, 1: same shape, 2: rest */
        uint32_t g = 0;
        for (uint32_t k = 0; ok && k < j->n; k++) {
            const pn_fml_node *c = j->kids[k];
            int kind = pn_fml_is_state(c) ? 0 : ctl_is(c, n->kind, t->kind) ? 1 : 2;
            if (kind != pass)
                continue;
            pn_fml_node *copy = pn_fml_clone(c);
            ok = copy != NULL;
            if (ok && pass == 1)
                out[p++] = copy;
            else if (ok)
                group[g++] = copy;
        }
        if (!ok || g == 0)
            continue;
        pn_fml_node *body = g == 1 ? group[0] : pn_fml_nary(junction, group, g);
        out[p] = pn_fml_unary(n->kind, pn_fml_unary(t->kind, body));
        ok = out[p++] != NULL;
    }
    pn_fml_node *r = ok ? pn_fml_nary(junction, out, p) : NULL;
    if (r == NULL && ok)
        ok = false;
    if (!ok && out != NULL && r == NULL)
        for (uint32_t k = 0; k < p; k++)
            pn_fml_free(out[k]);
    free(out);
    free(group);
    if (!ok)
        return PN_ERR_NOMEM;
    pn_fml_free(n);
    *pp = r;
    *changed = true;
    return PN_OK;
}

static pn_status ctl_rec(pn_fml_node **pp, bool *changed)
{
    pn_fml_node *n = *pp;
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++) {
        pn_status st = ctl_rec(&n->kids[i], changed);
        if (st != PN_OK)
            return st;
    }
    for (bool again = true; again;) {
        again = false;
        if ((*pp)->kind == PN_FML_NOT && ctl_dual(pp)) {
            *changed = again = true;
            pn_status st = ctl_rec(&(*pp)->kids[0]->kids[0], changed); /* the new !phi */
            if (st != PN_OK)
                return st;
            continue;
        }
        if (ctl_absorb(pp) || ctl_next_const(pp)) {
            *changed = again = true;
            continue;
        }
        bool d = false;
        pn_status st = ctl_distribute(pp, &d);
        if (st != PN_OK)
            return st;
        if (d) { /* the new E F / A G nodes may absorb their kids */
            *changed = true;
            return ctl_rec(pp, changed);
        }
    }
    return PN_OK;
}

pn_status pn_fml_ctl_rewrite(pn_fml_node **root, pn_error *err)
{
    /* Each round shrinks the tree or pushes a negation down; the bound is a
     * guard, not a need. */
    for (int round = 0; round < 64; round++) {
        bool changed = false;
        pn_status st = pn_fml_simplify(root, err);
        if (st == PN_OK && (st = ctl_rec(root, &changed)) != PN_OK)
            return pn_fail(err, st, "out of memory simplifying a CTL formula");
        if (st != PN_OK || !changed)
            return st;
    }
    return pn_fml_simplify(root, err);
}
