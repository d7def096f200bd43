/* The reduction's entry point: what the formulas observe, the fixpoint of
 * the rules (reduce.c), then the reduced net (reduce_build.c: kept nodes in
 * their order, with their ids), the formulas rewritten onto it, and
 * traces on it expanded back onto the original net. */
#include "reduce/reduce_work.h"

#include <stdlib.h>
#include <string.h>

/* CTL: the rules other than the null and agglomeration ones keep a
 * functional bisimulation (the projection onto the kept places), which
 * keeps every CTL formula over what is observed, X and deadlocks included
 * (Browne, Clarke, Grumberg 1988: bisimilar structures satisfy the same
 * CTL* formulas). red_work_init allows neither of the others for CTL. */
bool pn_reduce_applies(pn_exam exam)
{
    return exam == PN_EXAM_REACH_CARDINALITY || exam == PN_EXAM_REACH_FIREABILITY ||
           exam == PN_EXAM_REACH_DEADLOCK || exam == PN_EXAM_UPPER_BOUNDS ||
           exam == PN_EXAM_LTL_CARDINALITY || exam == PN_EXAM_LTL_FIREABILITY ||
           exam == PN_EXAM_CTL_CARDINALITY || exam == PN_EXAM_CTL_FIREABILITY;
}

/* Marks what n reads; *deadlock when a deadlock atom reads every
 * transition's enabledness. */
static void red_observe(red_work *w, const pn_fml_node *n, bool *deadlock)
{
    if (n == NULL)
        return;
    if (n->kind == PN_FML_DEADLOCK)
        *deadlock = true;
    for (uint32_t i = 0; n->idx != NULL && i < n->n; i++) {
        if (n->kind == PN_FML_FIREABLE)
            w->tobs[n->idx[i]] = 1;
        else
            w->pobs[n->idx[i]] = 1;
    }
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        red_observe(w, n->kids[i], deadlock);
}

/* Pure reachability: every formula E F phi / A G phi / a bound / a
 * constant, and no deadlock atom (the null rule's condition). */
static bool red_pure_reach(const pn_fml_set *set, pn_exam exam, bool deadlock)
{
    if (set == NULL || deadlock ||
        !(exam == PN_EXAM_REACH_CARDINALITY || exam == PN_EXAM_REACH_FIREABILITY ||
          exam == PN_EXAM_UPPER_BOUNDS))
        return false;
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_fml_node *r = set->props[i].root;
        if (set->props[i].status != PN_OK || r == NULL)
            continue;
        bool ok = r->kind == PN_FML_TRUE || r->kind == PN_FML_FALSE ||
                  r->kind == PN_FML_PLACE_BOUND || pn_fml_reach_shape(r, NULL) != PN_FML_REACH_NONE;
        if (!ok)
            return false;
    }
    return true;
}

pn_status red_work_init(red_work *w, const pn_cnet *cn, pn_exam exam,
                               const pn_fml_set *set, pn_error *err)
{
    memset(w, 0, sizeof *w);
    w->cn = cn;
    w->pstate = calloc((size_t)cn->n_places + 1, 1);
    w->pobs = calloc((size_t)cn->n_places + 1, 1);
    w->tobs = calloc((size_t)cn->n_transitions + 1, 1);
    w->tmap = malloc(((size_t)cn->n_transitions + 1) * sizeof *w->tmap);
    if (!w->pstate || !w->pobs || !w->tobs || !w->tmap)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        w->tmap[t] = t;
    bool deadlock = set == NULL; /* the global ReachabilityDeadlock */
    for (uint32_t i = 0; set != NULL && i < set->n; i++)
        if (set->props[i].status == PN_OK)
            red_observe(w, set->props[i].root, &deadlock);
    w->allow_null = red_pure_reach(set, exam, deadlock);
    w->allow_agglo = set == NULL ? exam == PN_EXAM_REACH_DEADLOCK : w->allow_null;
    return PN_OK;
}

void red_work_free(red_work *w)
{
    free(w->pstate);
    free(w->pobs);
    free(w->tobs);
    free(w->tmap);
}

/* ---- the formulas ------------------------------------------------------- */

/* The kept transition t stands for (following duplicates), or a marker. */
static uint32_t red_resolve(const red_work *w, uint32_t t)
{
    while (t < RED_T_NULL && w->tmap[t] != t)
        t = w->tmap[t];
    return t;
}

static pn_fml_node *red_map_list(const red_work *w, const red_maps *m, const pn_fml_node *n)
{
    uint32_t *idx = malloc(((size_t)n->n + 1) * sizeof *idx), k = 0;
    if (idx == NULL)
        return NULL;
    bool bad = false;
    for (uint32_t i = 0; i < n->n; i++) {
        if (n->kind != PN_FML_FIREABLE) {
            bad |= m->pnew[n->idx[i]] == UINT32_MAX; /* observed places are kept */
            idx[k++] = m->pnew[n->idx[i]];
            continue;
        }
        uint32_t t = red_resolve(w, n->idx[i]);
        bad |= t == RED_T_NULL; /* observed transitions are never null-removed */
        if (t < RED_T_NULL)
            idx[k++] = m->tnew[t];
    }
    pn_fml_node *r = bad ? NULL : k == 0 ? pn_fml_leaf(PN_FML_FALSE) : pn_fml_list(n->kind, idx, k);
    free(idx);
    return r;
}

/* A copy of n on the reduced net; NULL when out of memory. */
static pn_fml_node *red_map(const red_work *w, const red_maps *m, const pn_fml_node *n)
{
    if (n->idx != NULL)
        return red_map_list(w, m, n);
    pn_fml_node *c = pn_fml_clone(n);
    if (c == NULL)
        return NULL;
    for (uint32_t i = 0; c->kids != NULL && i < c->n; i++) {
        pn_fml_node *k = red_map(w, m, n->kids[i]);
        if (k == NULL) {
            pn_fml_free(c);
            return NULL;
        }
        pn_fml_free(c->kids[i]);
        c->kids[i] = k;
    }
    return c;
}

pn_status red_map_set(const red_work *w, const red_maps *m, const pn_fml_set *set,
                             const pn_net *net, pn_fml_set **out, pn_error *err)
{
    pn_fml_set *s = calloc(1, sizeof *s);
    if (s == NULL || (s->props = calloc((size_t)set->n + 1, sizeof *s->props)) == NULL) {
        free(s);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    }
    *out = s;
    s->net = net;
    for (uint32_t i = 0; i < set->n; i++, s->n++) {
        const pn_fml_prop *p = &set->props[i];
        pn_fml_prop *q = &s->props[i];
        q->status = p->status;
        q->id = strdup(p->id);
        q->error = p->error != NULL ? strdup(p->error) : NULL;
        q->root = p->root != NULL ? red_map(w, m, p->root) : NULL;
        if (q->id == NULL || (p->error != NULL && q->error == NULL) ||
            (p->root != NULL && q->root == NULL))
            return pn_fail(err, PN_ERR_NOMEM, "out of memory rewriting formula %s", p->id);
    }
    return pn_fml_set_simplify(s, err);
}

/* ---- the entry point ---------------------------------------------------- */

/* The masks as a plan: kept places, and each live transition as itself. */
static pn_status red_mask_build(const red_work *w, const pn_fml_set *set, const pn_reduced *prev,
                                pn_reduced *r, pn_error *err)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < w->cn->n_transitions; t++)
        n += red_alive(w, t);
    red_plan pl = {.pstate = w->pstate};
    pn_status st = red_plan_alloc(&pl, n, n, err);
    for (uint32_t t = 0; st == PN_OK && t < w->cn->n_transitions; t++)
        if (red_alive(w, t))
            red_plan_add(&pl, t, UINT32_MAX, &(pn_red_step){t, 1}, 1);
    if (st == PN_OK)
        st = red_build(w, &pl, set, prev, r, err);
    red_plan_free(&pl);
    return st;
}

static const char *const red_rule_names[PN_RED_RULE_COUNT] = {
    [PN_RED_CONSTANT_PLACE] = "constant places",
    [PN_RED_DEAD_TRANSITION] = "dead transitions",
    [PN_RED_DUPLICATE_TRANS] = "duplicate transitions",
    [PN_RED_SINK_PLACE] = "unread sink places",
    [PN_RED_NULL_TRANSITION] = "null transitions",
    [PN_RED_POST_AGGLOMERATION] = "post-agglomerated places (and their consumers)",
    [PN_RED_PRE_AGGLOMERATION] = "pre-agglomerated places (and their producers)",
    [PN_RED_DEAD_SIPHON] = "dead transitions (unmarked siphon)",
    [PN_RED_IMPLICIT_PLACE] = "implicit places",
    [PN_RED_DEAD_LP] = "dead transitions (state equation)",
    [PN_RED_CONE] = "outside the cone of influence (places and transitions)",
};

static void red_report(const pn_reduced *r, FILE *f)
{
    if (f == NULL)
        return;
    fprintf(f, "petrel: reduction: %u places, %u transitions -> %u places, %u transitions "
               "(%u rounds, %.3f s)\n",
            r->places_before, r->transitions_before, r->net->n_places, r->net->n_transitions,
            r->rounds, r->seconds);
    for (int k = 0; k < PN_RED_RULE_COUNT; k++)
        fprintf(f, "petrel: reduction: %s: %u removed\n", red_rule_names[k], r->removed[k]);
}

/* The rules that only remove (reduce.c, reduce_dup.c), to their fixpoint. */
static pn_status red_masks(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                           const pn_reduced *prev, const pn_budget *budget, pn_reduced **out,
                           pn_error *err)
{
    *out = NULL;
    pn_reduced *r = calloc(1, sizeof *r);
    red_work w;
    if (r == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    pn_status st = red_work_init(&w, cn, exam, set, err);
    w.with_lp = prev == NULL;
    if (st == PN_OK)
        st = red_fixpoint(&w, budget, err);
    if (st == PN_OK)
        st = red_mask_build(&w, set, prev, r, err);
    if (st == PN_OK) {
        memcpy(r->removed, w.removed, sizeof r->removed);
        r->rounds = w.rounds;
        *out = r;
    } else {
        pn_reduced_free(r);
    }
    red_work_free(&w);
    return st;
}

/* Adds what a and b removed into r. */
static void red_add_counts(pn_reduced *r, const pn_reduced *a, const pn_reduced *b)
{
    for (int k = 0; k < PN_RED_RULE_COUNT; k++)
        r->removed[k] += a->removed[k] + b->removed[k];
    r->rounds += a->rounds + b->rounds;
}

/* Post-agglomeration, then the removing rules again, while it fuses. */
static pn_status red_agglo_loop(pn_reduced **cur, pn_exam exam, const pn_budget *budget,
                                pn_error *err)
{
    pn_status st = PN_OK;
    while (st == PN_OK && !pn_budget_expired(budget)) {
        pn_reduced *fused = NULL, *again = NULL;
        uint32_t n = 0;
        st = red_agglomerate(*cur, exam, &fused, &n, err);
        if (st == PN_OK && n > 0)
            st = red_masks(fused->cn, exam, fused->set, fused, budget, &again, err);
        if (st == PN_OK && again != NULL) {
            red_add_counts(again, *cur, fused);
            pn_reduced_free(*cur);
            *cur = again;
        }
        pn_reduced_free(fused);
        if (n == 0)
            break;
    }
    return st;
}

pn_status pn_reduce(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                    const pn_reduce_opts *o, pn_reduced **out, pn_error *err)
{
    const pn_budget *budget = o != NULL ? o->budget : NULL;
    double t0 = pn_clock_now();
    pn_reduced *r = NULL;
    pn_status st = red_masks(cn, exam, set, NULL, budget, &r, err);
    if (st == PN_OK)
        st = red_agglo_loop(&r, exam, budget, err);
    if (st != PN_OK) {
        pn_reduced_free(r);
        *out = NULL;
        return st;
    }
    r->places_before = cn->n_places;
    r->transitions_before = cn->n_transitions;
    r->seconds = pn_clock_now() - t0;
    red_report(r, o != NULL ? o->verbose : NULL);
    *out = r;
    return PN_OK;
}

pn_status pn_reduce_expand(const pn_reduced *r, const uint32_t *trans, uint64_t n,
                           uint32_t **out, uint64_t *n_out, pn_error *err)
{
    *out = NULL;
    *n_out = 0;
    uint64_t len = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (trans[i] == UINT32_MAX && ++len <= PN_RED_EXPAND_MAX)
            continue;
        for (uint32_t k = r->word_off[trans[i]]; k < r->word_off[trans[i] + 1]; k++)
            if (__builtin_add_overflow(len, r->word[k].times, &len) || len > PN_RED_EXPAND_MAX)
                return pn_fail(err, PN_ERR_UNSUPPORTED,
                               "the trace on the original net has over %u steps",
                               (unsigned)PN_RED_EXPAND_MAX);
    }
    uint32_t *o = malloc((len + 1) * sizeof *o);
    if (o == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    uint64_t at = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (trans[i] == UINT32_MAX) { /* a lasso's deadlock step: a deadlock of both nets */
            o[at++] = UINT32_MAX;
            continue;
        }
        for (uint32_t k = r->word_off[trans[i]]; k < r->word_off[trans[i] + 1]; k++)
            for (uint64_t j = 0; j < r->word[k].times; j++)
                o[at++] = r->word[k].t;
    }
    *out = o;
    *n_out = len;
    return PN_OK;
}

bool pn_reduce_changed(const pn_reduced *r)
{
    return r != NULL && (r->net->n_places != r->places_before ||
                         r->net->n_transitions != r->transitions_before ||
                         r->removed[PN_RED_CONSTANT_PLACE] > 0);
}

void pn_reduced_free(pn_reduced *r)
{
    if (r == NULL)
        return;
    pn_fml_set_free(r->set);
    free(r->word_off);
    free(r->word);
    pn_cnet_free(r->cn);
    pn_net_free(r->net);
    free(r);
}
