/* The colour-blind skeleton of a symmetric net: one place per coloured
 * place holding the number of its tokens, one transition per coloured
 * transition whose arcs weigh the number of tokens its inscriptions move,
 * guards dropped: the abstraction ITS-Tools answers some questions on
 * before it unfolds (its Model Checking Contest submissions call it the
 * coloured net's skeleton). Petrel answers on it first, so that what it
 * proves needs no unfolding, however big that would be.
 *
 * Why it over-approximates: in a symmetric net every inscription moves a
 * number of tokens that no binding changes (coefficients are constants, a
 * variable or a constant is one colour, <all> and a partition element a
 * fixed number of them; a - b is defined only where b is included in a,
 * ISO/IEC 15909-2, so it moves card(a) - card(b)). A firing of transition t under any binding takes
 * card(in) tokens from each input place and puts card(out) into each
 * output place, so the token counts of every run of the coloured net are a
 * run of the skeleton, and t enabled in the coloured net implies t enabled
 * in the skeleton. What the skeleton never reaches, the coloured net never
 * reaches; the converse does not hold (host/examine/skeleton.c keeps only
 * the answers that follow). */
#include "coloured/hlpn.h"

#include <stdio.h>

/* Multiplicities stay below this, as in the evaluator. */
#define HL_CARD_MAX (UINT64_C(1) << 62)

static bool card_mul(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a != 0 && b >= HL_CARD_MAX / a)
        return false;
    *out = a * b;
    return true;
}

/* The number of tokens t denotes under every binding; false where it
 * passes 2^62 or a subtraction takes more than there is (the unfolder
 * refuses such a net at the first binding that does). */
static bool hl_term_card(const hl_model *m, const hl_term *t, uint64_t *out)
{
    uint64_t acc, k;
    switch (t->kind) {
    case HL_T_NUMBEROF:
        return hl_term_card(m, t->kids[0], &k) && card_mul(t->value, k, out);
    case HL_T_ADD:
        acc = 0;
        for (uint32_t i = 0; i < t->n; i++) {
            if (!hl_term_card(m, t->kids[i], &k) || k >= HL_CARD_MAX - acc)
                return false;
            acc += k;
        }
        *out = acc;
        return true;
    case HL_T_SUB: /* defined only where each operand after the first is included */
        if (!hl_term_card(m, t->kids[0], &acc))
            return false;
        for (uint32_t i = 1; i < t->n; i++) {
            if (!hl_term_card(m, t->kids[i], &k) || k > acc)
                return false;
            acc -= k;
        }
        *out = acc;
        return true;
    case HL_T_EMPTY: *out = 0; return true;
    case HL_T_ALL: *out = m->sorts[hl_canon(m, t->sort)].size; return true;
    case HL_T_SUBSET: {
        const hl_sort *ps = &m->sorts[hl_canon(m, t->kids[0]->sort)];
        acc = 0;
        for (uint64_t c = 0; c < m->sorts[hl_canon(m, t->sort)].size; c++)
            acc += ps->comp[c] == t->kids[0]->value;
        *out = acc;
        return true;
    }
    case HL_T_TUPLE: /* a product of its components' counts */
        acc = 1;
        for (uint32_t i = 0; i < t->n; i++)
            if (!hl_term_card(m, t->kids[i], &k) || !card_mul(acc, k, &acc))
                return false;
        *out = acc;
        return true;
    default: /* one colour */
        *out = 1;
        return true;
    }
}

static pn_status hl_skeleton_nodes(hl_model *m, pn_net *net)
{
    pn_error e = {PN_OK, ""};
    for (uint32_t p = 0; p < m->n_places; p++) {
        const hl_place *pl = &m->places[p];
        uint64_t m0 = 0;
        if (pl->m0 != NULL && !hl_term_card(m, pl->m0, &m0))
            return hl_fail(m, PN_ERR_UNSUPPORTED, pl->node,
                           "no colour-blind skeleton: the initial marking of %s subtracts "
                           "more than it has",
                           pl->id);
        if (pn_net_add_place(net, pl->id, NULL, m0, &e) < 0)
            return hl_fail(m, e.code, pl->node, "%s", e.msg);
    }
    for (uint32_t t = 0; t < m->n_trans; t++)
        if (pn_net_add_transition(net, m->trans[t].id, NULL, &e) < 0)
            return hl_fail(m, e.code, m->trans[t].node, "%s", e.msg);
    return PN_OK;
}

static pn_status hl_skeleton_arcs(hl_model *m, pn_net *net)
{
    pn_error e = {PN_OK, ""};
    for (uint32_t t = 0; t < m->n_trans; t++) {
        const hl_trans *tr = &m->trans[t];
        for (uint32_t k = 0; k < tr->arc_count; k++) {
            const hl_arc *a = &m->arcs[m->by_trans[tr->arc_first + k]];
            uint64_t w;
            if (!hl_term_card(m, a->ins, &w))
                return hl_fail(m, PN_ERR_UNSUPPORTED, a->node,
                               "no colour-blind skeleton: arc %s subtracts more than it has",
                               a->id != NULL ? a->id : "");
            if (w > 0 && pn_net_add_arc(net, a->place, t, a->to_trans, w, &e) != PN_OK)
                return hl_fail(m, e.code, a->node, "%s", e.msg);
        }
    }
    return PN_OK;
}

pn_status hl_skeleton(hl_model *m, const char *net_id, pn_net **out)
{
    *out = NULL;
    pn_net *net = pn_net_new(net_id);
    if (net == NULL)
        return hl_nomem(m);
    pn_status st = hl_skeleton_nodes(m, net);
    if (st == PN_OK)
        st = hl_skeleton_arcs(m, net);
    if (st != PN_OK) {
        pn_net_free(net);
        return st;
    }
    net->unfold.skeleton = true;
    net->unfold.coloured_places = m->n_places;
    net->unfold.coloured_transitions = m->n_trans;
    *out = net;
    return PN_OK;
}
