/* The global properties as families of small questions (see global.h). */
#include "examine/global.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "petrel/mcc.h"

/* The places or transitions of one item: a coloured group, or one node. */
typedef struct glob_nodes {
    const uint32_t *idx;
    uint32_t n;
} glob_nodes;

static glob_nodes glob_places(const pn_net *net, bool groups, uint32_t g)
{
    if (groups)
        return (glob_nodes){net->place_groups.idx[g], net->place_groups.len[g]};
    return (glob_nodes){NULL, 1};
}

static glob_nodes glob_transitions(const pn_net *net, bool groups, uint32_t g)
{
    if (groups)
        return (glob_nodes){net->trans_groups.idx[g], net->trans_groups.len[g]};
    return (glob_nodes){NULL, 1};
}

/* idx NULL: node g itself. */
static pn_fml_node *glob_list(pn_fml_kind kind, glob_nodes nodes, uint32_t g)
{
    return pn_fml_list(kind, nodes.idx != NULL ? nodes.idx : &g, nodes.n);
}

static pn_fml_node *glob_tokens(const pn_net *net, bool groups, uint32_t g)
{
    return glob_list(PN_FML_TOKENS, glob_places(net, groups, g), g);
}

static pn_fml_node *glob_fireable(const pn_net *net, bool groups, uint32_t g)
{
    glob_nodes t = glob_transitions(net, groups, g);
    if (t.n == 0) /* a coloured transition without bindings */
        return pn_fml_leaf(PN_FML_FALSE);
    return glob_list(PN_FML_FIREABLE, t, g);
}

static uint64_t glob_m0(const pn_net *net, bool groups, uint32_t g)
{
    glob_nodes p = glob_places(net, groups, g);
    uint64_t sum = 0;
    for (uint32_t k = 0; k < p.n; k++) {
        uint64_t v = net->m0[p.idx != NULL ? p.idx[k] : g];
        sum = v > UINT64_MAX - sum ? UINT64_MAX : sum + v;
    }
    return sum;
}

static pn_fml_node *glob_ef(pn_fml_node *phi)
{
    return pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, phi));
}

static pn_fml_node *glob_ag(pn_fml_node *phi)
{
    return pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, phi));
}

/* Item i of exam (Liveness: the last item is E F deadlock). */
static pn_fml_node *glob_item(const pn_net *net, bool groups, pn_exam exam, uint32_t i)
{
    switch (exam) {
    case PN_EXAM_ONE_SAFE:
        return glob_ag(pn_fml_binary(PN_FML_INT_LE, glob_tokens(net, groups, i), pn_fml_const(1)));
    case PN_EXAM_STABLE_MARKING: {
        uint64_t c = glob_m0(net, groups, i);
        return glob_ag(pn_fml_binary(
            PN_FML_AND, pn_fml_binary(PN_FML_INT_LE, glob_tokens(net, groups, i), pn_fml_const(c)),
            pn_fml_binary(PN_FML_INT_LE, pn_fml_const(c), glob_tokens(net, groups, i))));
    }
    default: { /* QuasiLiveness, Liveness */
        uint32_t T = groups ? net->trans_groups.n : net->n_transitions;
        if (i == T)
            return glob_ef(pn_fml_leaf(PN_FML_DEADLOCK));
        return glob_ef(glob_fireable(net, groups, i));
    }
    }
}

static uint32_t glob_count(const pn_net *net, pn_exam exam, bool groups)
{
    uint32_t P = groups ? net->place_groups.n : net->n_places;
    uint32_t T = groups ? net->trans_groups.n : net->n_transitions;
    switch (exam) {
    case PN_EXAM_ONE_SAFE:
    case PN_EXAM_STABLE_MARKING: return P;
    case PN_EXAM_QUASI_LIVENESS: return T;
    default: return T + 1;
    }
}

/* A set of n formulas item(0..n-1), ids "<exam>-<k>", simplified. */
static pn_status glob_set(const pn_net *net, pn_exam exam, uint32_t n,
                          pn_fml_node *(*item)(const pn_net *, bool, pn_exam, uint32_t),
                          bool groups, pn_fml_set **out, pn_error *err)
{
    *out = NULL;
    pn_fml_set *set = calloc(1, sizeof *set);
    if (set == NULL || (n > 0 && (set->props = calloc(n, sizeof *set->props)) == NULL)) {
        free(set);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building %s", pn_exam_name(exam));
    }
    set->net = net;
    for (; set->n < n; set->n++) {
        pn_fml_prop *p = &set->props[set->n];
        char id[48];
        snprintf(id, sizeof id, "%s-%u", pn_exam_name(exam), set->n);
        p->id = malloc(strlen(id) + 1);
        p->root = item(net, groups, exam, set->n);
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

pn_status pn_glob_build(const pn_net *net, pn_exam exam, bool groups, pn_fml_set **out,
                        pn_error *err)
{
    return glob_set(net, exam, glob_count(net, exam, groups), glob_item, groups, out, err);
}

static pn_fml_node *glob_live(const pn_net *net, bool groups, pn_exam exam, uint32_t i)
{
    (void)exam;
    return glob_ag(glob_ef(glob_fireable(net, groups, i)));
}

pn_status pn_glob_build_live(const pn_net *net, pn_fml_set **out, pn_error *err)
{
    return glob_set(net, PN_EXAM_LIVENESS, net->trans_groups.n, glob_live, true, out, err);
}

pn_exam pn_glob_as(pn_exam exam)
{
    return exam == PN_EXAM_ONE_SAFE || exam == PN_EXAM_STABLE_MARKING
               ? PN_EXAM_REACH_CARDINALITY
               : PN_EXAM_REACH_FIREABILITY;
}

static uint32_t glob_tech(const pn_answer *a)
{
    return a->techniques ? a->techniques : PN_TECH_EXPLICIT;
}

/* Every item TRUE, or (exists) one TRUE; the first answer that decides the
 * property gives its techniques, all of them when every one was needed. */
static pn_verdict glob_fold_all(const pn_check *items, bool exists, uint32_t n,
                                uint32_t *techniques)
{
    pn_verdict decisive = exists ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    bool unknown = false;
    uint32_t all = 0;
    for (uint32_t i = 0; i < n; i++) {
        const pn_answer *a = pn_check_answer(items, i);
        if (a->verdict == decisive) {
            *techniques = glob_tech(a);
            return decisive;
        }
        unknown = unknown || a->verdict == PN_VERDICT_UNKNOWN;
        if (a->verdict != PN_VERDICT_UNKNOWN)
            all |= glob_tech(a);
    }
    if (unknown)
        return PN_VERDICT_UNKNOWN;
    *techniques = all;
    return exists ? PN_VERDICT_FALSE : PN_VERDICT_TRUE;
}

pn_verdict pn_glob_fold(const pn_check *items, pn_exam exam, uint32_t *techniques)
{
    uint32_t n = pn_check_count(items);
    if (exam != PN_EXAM_LIVENESS)
        return glob_fold_all(items, exam == PN_EXAM_STABLE_MARKING, n, techniques);
    /* Liveness: a transition never fireable, or a reachable deadlock
     * (with a transition to be live), refutes it. */
    const pn_answer *dead = pn_check_answer(items, n - 1);
    if (n > 1 && dead->verdict == PN_VERDICT_TRUE) {
        *techniques = glob_tech(dead);
        return PN_VERDICT_FALSE;
    }
    for (uint32_t i = 0; i + 1 < n; i++) {
        const pn_answer *a = pn_check_answer(items, i);
        if (a->verdict == PN_VERDICT_FALSE) {
            *techniques = glob_tech(a);
            return PN_VERDICT_FALSE;
        }
    }
    return PN_VERDICT_UNKNOWN;
}

pn_verdict pn_glob_fold_live(const pn_check *items, uint32_t *techniques)
{
    return glob_fold_all(items, false, pn_check_count(items), techniques);
}

pn_verdict pn_glob_tally_add(pn_glob_tally *t, uint32_t i, const pn_answer *a,
                             uint32_t *techniques)
{
    uint32_t tech = glob_tech(a);
    if (t->exam == PN_EXAM_LIVENESS) { /* items only refute it */
        bool last = i + 1 == t->n;
        bool refutes = last ? a->verdict == PN_VERDICT_TRUE && t->n > 1
                            : a->verdict == PN_VERDICT_FALSE;
        *techniques = tech;
        return refutes ? PN_VERDICT_FALSE : PN_VERDICT_UNKNOWN;
    }
    bool exists = t->exam == PN_EXAM_STABLE_MARKING;
    pn_verdict decisive = exists ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    if (a->verdict == decisive) {
        *techniques = tech;
        return decisive;
    }
    if (a->verdict == PN_VERDICT_UNKNOWN)
        return PN_VERDICT_UNKNOWN;
    __atomic_fetch_or(&t->techniques, tech, __ATOMIC_ACQ_REL);
    if (__atomic_add_fetch(&t->settled, 1, __ATOMIC_ACQ_REL) < t->n)
        return PN_VERDICT_UNKNOWN;
    *techniques = __atomic_load_n(&t->techniques, __ATOMIC_ACQUIRE);
    return exists ? PN_VERDICT_FALSE : PN_VERDICT_TRUE;
}

/* The first group (transition) all of whose transitions dead[] holds. */
static uint32_t glob_dead_group(const pn_glob_dying *g, const uint8_t *dead)
{
    uint32_t n = g->groups ? g->net->trans_groups.n : g->net->n_transitions;
    for (uint32_t i = 0; i < n; i++) {
        glob_nodes ts = glob_transitions(g->net, g->groups, i);
        bool all = true;
        for (uint32_t k = 0; k < ts.n && all; k++)
            all = dead[ts.idx != NULL ? ts.idx[k] : i];
        if (all)
            return i;
    }
    return UINT32_MAX;
}

bool pn_glob_dying_probe(void *ctx, const uint64_t *marking)
{
    pn_glob_dying *g = ctx;
    uint8_t *dead = malloc((size_t)g->net->n_transitions + 1);
    uint32_t n = dead != NULL ? pn_dying_at(g->dying, marking, dead) : UINT32_MAX;
    uint32_t found = n != 0 && n != UINT32_MAX ? glob_dead_group(g, dead) : UINT32_MAX;
    free(dead);
    uint32_t none = UINT32_MAX;
    if (found != UINT32_MAX)
        __atomic_compare_exchange_n(&g->dead, &none, found, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE);
    return found != UINT32_MAX;
}
