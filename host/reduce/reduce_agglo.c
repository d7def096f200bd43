/* Post-agglomeration (Berthelot 1986; Haddad & Pradat-Peyre, "New
 * efficient Petri nets reductions for parallel programs verification",
 * 2006; Thierry-Mieg 2020, "post agglomeration"): a place p whose only
 * consumer f needs nothing but one token of p is fused away, each producer
 * h of p becoming h followed by as many firings of f as h puts into p.
 *
 * Conditions (checked below): p unobserved, m0(p) = 0; f is p's only
 * consumer, pre(f) = {p: 1}, f does not produce into p; no producer is f;
 * f, the producers and f's output places unobserved, where a place is
 * also observed when an observed transition reads it (fireable(t) reads
 * t's input places: the end markings below differ on f's outputs).
 *
 * Why it preserves the reachable markings projected on the observed places
 * and the deadlocks: a reduced run is an original run (f is enabled right
 * after h). Conversely, in an original run each firing of f can move to
 * just after a firing of h that produced its token (f reads p only; moving
 * f earlier only adds tokens that later transitions, none of which
 * consumes p, may use), and the tokens still in p can be consumed the
 * same way: the end marking then differs only on p and f's outputs, all
 * unobserved. A deadlock has p empty (else f is enabled), so all firings
 * of f happened and the end marking is the same; hf is enabled exactly
 * when h is. Not for LTL (intermediate markings disappear) nor formulas
 * with deadlock atoms under negation. */
#include "reduce/reduce_work.h"

#include <stdlib.h>
#include <string.h>

typedef struct agg_state {
    const pn_cnet *cn;
    const red_work *w;
    uint32_t *prod_off, *prod;  /* producers of each place (CSR) */
    uint32_t *ncons, *cons;     /* consumers per place, and the last one */
    uint8_t *used;              /* per transition: in a fusion this pass */
    uint8_t *pread;             /* per place: observed, or read by an observed transition */
    uint32_t *fuse_p;           /* per producer h: the place fused (UINT32_MAX: none) */
    uint32_t *fuse_f;           /* per place p fused: its consumer f; else UINT32_MAX */
} agg_state;

static uint64_t agg_post(const pn_cnet *cn, uint32_t t, uint32_t p)
{
    for (uint32_t k = cn->post_off[t]; k < cn->post_off[t + 1]; k++)
        if (cn->post[k].place == p)
            return cn->post[k].weight;
    return 0;
}

static pn_status agg_index(agg_state *a, pn_error *err)
{
    const pn_cnet *cn = a->cn;
    uint32_t P = cn->n_places, T = cn->n_transitions;
    a->prod_off = calloc((size_t)P + 2, sizeof *a->prod_off);
    a->prod = malloc(((size_t)cn->post_off[T] + 1) * sizeof *a->prod);
    a->ncons = calloc((size_t)P + 1, sizeof *a->ncons);
    a->cons = calloc((size_t)P + 1, sizeof *a->cons);
    a->used = calloc((size_t)T + 1, 1);
    a->pread = calloc((size_t)P + 1, 1);
    a->fuse_p = malloc(((size_t)T + 1) * sizeof *a->fuse_p);
    a->fuse_f = malloc(((size_t)P + 1) * sizeof *a->fuse_f);
    if (!a->prod_off || !a->prod || !a->ncons || !a->cons || !a->used || !a->fuse_p || !a->fuse_f ||
        !a->pread)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    memset(a->fuse_p, 0xff, ((size_t)T + 1) * sizeof *a->fuse_p);
    memset(a->fuse_f, 0xff, ((size_t)P + 1) * sizeof *a->fuse_f);
    for (uint32_t t = 0; t < T; t++) {
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++) {
            a->pread[cn->pre[k].place] |= a->w->tobs[t];
            a->ncons[cn->pre[k].place]++;
            a->cons[cn->pre[k].place] = t;
        }
        for (uint32_t k = cn->post_off[t]; k < cn->post_off[t + 1]; k++)
            a->prod_off[cn->post[k].place + 2]++;
    }
    for (uint32_t p = 0; p < P; p++) {
        a->pread[p] |= a->w->pobs[p];
        a->prod_off[p + 2] += a->prod_off[p + 1];
    }
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t k = cn->post_off[t]; k < cn->post_off[t + 1]; k++)
            a->prod[a->prod_off[cn->post[k].place + 1]++] = t;
    return PN_OK;
}

/* f's outputs unobserved, not p, and small enough to multiply. */
static bool agg_consumer_ok(const agg_state *a, uint32_t p, uint32_t f)
{
    const pn_cnet *cn = a->cn;
    if (a->used[f] || a->w->tobs[f] || cn->pre_off[f + 1] - cn->pre_off[f] != 1 ||
        cn->pre[cn->pre_off[f]].weight != 1)
        return false;
    for (uint32_t k = cn->post_off[f]; k < cn->post_off[f + 1]; k++)
        if (cn->post[k].place == p || a->pread[cn->post[k].place] ||
            cn->post[k].weight > (1ULL << 31))
            return false;
    return true;
}

static bool agg_candidate(const agg_state *a, uint32_t p)
{
    const pn_cnet *cn = a->cn;
    if (a->pread[p] || cn->m0[p] != 0 || a->ncons[p] != 1 ||
        a->prod_off[p] == a->prod_off[p + 1])
        return false;
    uint32_t f = a->cons[p];
    if (!agg_consumer_ok(a, p, f))
        return false;
    for (uint32_t k = a->prod_off[p]; k < a->prod_off[p + 1]; k++) {
        uint32_t h = a->prod[k];
        if (h == f || a->used[h] || a->w->tobs[h] || agg_post(cn, h, p) > (1ULL << 31))
            return false;
    }
    return true;
}

/* Greedy: each transition in one fusion per pass. */
static uint32_t agg_choose(agg_state *a)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < a->cn->n_places; p++) {
        if (!agg_candidate(a, p))
            continue;
        uint32_t f = a->cons[p];
        a->used[f] = 1;
        a->fuse_f[p] = f;
        for (uint32_t k = a->prod_off[p]; k < a->prod_off[p + 1]; k++) {
            a->used[a->prod[k]] = 1;
            a->fuse_p[a->prod[k]] = p;
        }
        n++;
    }
    return n;
}

/* ---- the fused net ------------------------------------------------------ */

/* Kept places, f gone with p; each producer h becomes h f^w (w: what h
 * puts into p), the builder summing the arcs. */
static pn_status agg_build(const agg_state *a, const pn_fml_set *set, const pn_reduced *prev,
                           pn_reduced *r, pn_error *err)
{
    const pn_cnet *cn = a->cn;
    uint8_t *pstate = calloc((size_t)cn->n_places + 1, 1);
    red_plan pl = {.pstate = pstate};
    pn_status st = pstate != NULL ? red_plan_alloc(&pl, cn->n_transitions, 2 * cn->n_transitions, err)
                                  : pn_fail(err, PN_ERR_NOMEM, "out of memory");
    for (uint32_t p = 0; st == PN_OK && p < cn->n_places; p++)
        pstate[p] = a->fuse_f[p] != UINT32_MAX ? RED_P_GONE : RED_P_KEEP;
    for (uint32_t t = 0; st == PN_OK && t < cn->n_transitions; t++) {
        uint32_t p = a->fuse_p[t];
        if (a->used[t] && p == UINT32_MAX)
            continue; /* a consumer f, fused into its producers */
        pn_red_step w[2] = {{t, 1}, {p != UINT32_MAX ? a->fuse_f[p] : 0, 0}};
        if (p != UINT32_MAX)
            w[1].times = agg_post(cn, t, p);
        red_plan_add(&pl, t, w, p != UINT32_MAX ? 2 : 1);
    }
    if (st == PN_OK)
        st = red_build(a->w, &pl, set, prev, r, err);
    red_plan_free(&pl);
    free(pstate);
    return st;
}

static void agg_free(agg_state *a)
{
    free(a->prod_off);
    free(a->prod);
    free(a->ncons);
    free(a->cons);
    free(a->used);
    free(a->pread);
    free(a->fuse_p);
    free(a->fuse_f);
}

pn_status red_agglomerate(const pn_reduced *in, pn_exam exam, pn_reduced **out, uint32_t *fused,
                          pn_error *err)
{
    *out = NULL;
    *fused = 0;
    red_work w;
    agg_state a = {.cn = in->cn, .w = &w};
    pn_status st = red_work_init(&w, in->cn, exam, in->set, err);
    if (st == PN_OK && w.allow_agglo)
        st = agg_index(&a, err);
    uint32_t n = st == PN_OK && w.allow_agglo ? agg_choose(&a) : 0;
    pn_reduced *r = n > 0 ? calloc(1, sizeof *r) : NULL;
    if (n > 0 && r == NULL)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (st == PN_OK && r != NULL)
        st = agg_build(&a, in->set, in, r, err);
    if (st == PN_ERR_UNSUPPORTED) { /* a fused word too heavy or long: no fusion this time */
        pn_error_clear(err);
        st = PN_OK;
        n = 0;
        pn_reduced_free(r);
        r = NULL;
    }
    if (st == PN_OK && r != NULL) {
        r->removed[PN_RED_POST_AGGLOMERATION] = n;
        *out = r;
        *fused = n;
    } else {
        pn_reduced_free(r);
    }
    agg_free(&a);
    red_work_free(&w);
    return st;
}
