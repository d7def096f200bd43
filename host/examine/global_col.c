/* Global properties of coloured nets, as formulas over the coloured groups
 * of the unfolding (see global_col.h):
 *   OneSafe        A G (AND over places P: tokens(P) <= 1)
 *   StableMarking  some P with A G (tokens(P) = m0(P))
 *   QuasiLiveness  every T with E F fireable(T)
 *   Liveness       every T with A G E F fireable(T)
 * where tokens(P) sums P's unfolded places and fireable(T) is true when
 * any binding of T is enabled (false for a T without bindings). The
 * formulas go through the driver (examine.c) like any formula examination
 * and their verdicts are folded into the one answer the examination prints. */
#include "examine/global_col.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "petrel/mcc.h"

static pn_fml_node *col_tokens(const pn_net *net, uint32_t g)
{
    return pn_fml_list(PN_FML_TOKENS, net->place_groups.idx[g], net->place_groups.len[g]);
}

static pn_fml_node *col_fireable(const pn_net *net, uint32_t g)
{
    if (net->trans_groups.len[g] == 0)
        return pn_fml_leaf(PN_FML_FALSE);
    return pn_fml_list(PN_FML_FIREABLE, net->trans_groups.idx[g], net->trans_groups.len[g]);
}

static uint64_t col_m0(const pn_net *net, uint32_t g)
{
    uint64_t sum = 0;
    for (uint32_t k = 0; k < net->place_groups.len[g]; k++) {
        uint64_t v = net->m0[net->place_groups.idx[g][k]];
        sum = v > UINT64_MAX - sum ? UINT64_MAX : sum + v;
    }
    return sum;
}

/* A G (tokens(P) <= 1 for every P). */
static pn_fml_node *col_one_safe(const pn_net *net)
{
    uint32_t n = net->place_groups.n;
    pn_fml_node **kids = malloc((size_t)n * sizeof *kids);
    if (kids == NULL)
        return NULL;
    for (uint32_t g = 0; g < n; g++)
        kids[g] = pn_fml_binary(PN_FML_INT_LE, col_tokens(net, g), pn_fml_const(1));
    pn_fml_node *all = pn_fml_nary(PN_FML_AND, kids, n);
    free(kids);
    return pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, all));
}

/* Formula i of the rewritten examination. */
static pn_fml_node *col_formula(const pn_net *net, pn_exam exam, uint32_t i)
{
    switch (exam) {
    case PN_EXAM_ONE_SAFE:
        return col_one_safe(net);
    case PN_EXAM_STABLE_MARKING: {
        uint64_t c = col_m0(net, i);
        pn_fml_node *eq = pn_fml_binary(
            PN_FML_AND, pn_fml_binary(PN_FML_INT_LE, col_tokens(net, i), pn_fml_const(c)),
            pn_fml_binary(PN_FML_INT_LE, pn_fml_const(c), col_tokens(net, i)));
        return pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, eq));
    }
    case PN_EXAM_QUASI_LIVENESS:
        return pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, col_fireable(net, i)));
    default: /* Liveness */
        return pn_fml_unary(
            PN_FML_A,
            pn_fml_unary(PN_FML_G, pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F,
                                                                         col_fireable(net, i)))));
    }
}

static uint32_t col_count(const pn_net *net, pn_exam exam)
{
    switch (exam) {
    case PN_EXAM_ONE_SAFE: return 1;
    case PN_EXAM_STABLE_MARKING: return net->place_groups.n;
    default: return net->trans_groups.n;
    }
}

pn_status pn_col_build(const pn_net *net, pn_exam exam, pn_fml_set **out, pn_error *err)
{
    pn_fml_set *set = calloc(1, sizeof *set);
    uint32_t n = col_count(net, exam);
    if (set == NULL || (n > 0 && (set->props = calloc(n, sizeof *set->props)) == NULL)) {
        free(set);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building %s", pn_exam_name(exam));
    }
    set->net = net;
    for (; set->n < n; set->n++) {
        pn_fml_prop *p = &set->props[set->n];
        char id[32];
        snprintf(id, sizeof id, "%s-%u", pn_exam_name(exam), set->n);
        p->id = malloc(strlen(id) + 1);
        p->root = col_formula(net, exam, set->n);
        if (p->id == NULL || p->root == NULL) {
            set->n++; /* freed with the rest */
            pn_fml_set_free(set);
            return pn_fail(err, PN_ERR_NOMEM, "out of memory building %s", pn_exam_name(exam));
        }
        memcpy(p->id, id, strlen(id) + 1);
    }
    *out = set;
    return pn_fml_set_simplify(set, err);
}

/* StableMarking needs one TRUE (exists a place); the others need every
 * answer TRUE. UNKNOWN unless decided. */
pn_verdict pn_col_fold(const pn_check *c, pn_exam exam)
{
    bool exists = exam == PN_EXAM_STABLE_MARKING;
    bool unknown = false;
    for (uint32_t i = 0; i < pn_check_count(c); i++) {
        pn_verdict v = pn_check_answer(c, i)->verdict;
        if (v == (exists ? PN_VERDICT_TRUE : PN_VERDICT_FALSE))
            return v;
        unknown = unknown || v == PN_VERDICT_UNKNOWN;
    }
    if (unknown)
        return PN_VERDICT_UNKNOWN;
    return exists ? PN_VERDICT_FALSE : PN_VERDICT_TRUE;
}

bool pn_col_rewritten(const pn_cnet *cn, pn_exam exam)
{
    return cn->net != NULL && cn->net->unfold.unfolded &&
           (exam == PN_EXAM_ONE_SAFE || exam == PN_EXAM_STABLE_MARKING ||
            exam == PN_EXAM_QUASI_LIVENESS || exam == PN_EXAM_LIVENESS);
}

pn_exam pn_col_as(pn_exam exam)
{
    /* Liveness needs the state graph (CTL); the others are reachability
     * formulas, checked on the fly. */
    return exam == PN_EXAM_LIVENESS ? PN_EXAM_CTL_FIREABILITY : PN_EXAM_REACH_FIREABILITY;
}
