/* Agglomerations (Berthelot, "Transformations and decompositions of
 * nets", 1986; Haddad & Pradat-Peyre, "New efficient Petri nets reductions
 * for parallel programs verification", 2006; Thierry-Mieg, "Structural
 * reductions revisited", Petri Nets 2020, "pre" and "post agglomeration"):
 * a place p between its producers H and its consumers F is fused away,
 * each pair becoming one transition that fires the pair in sequence.
 *
 * A place is "read" below when a formula observes it or an observed
 * transition consumes from it (fireable(t) reads t's input places). Both
 * rules need p unread, m0(p) = 0, H and F disjoint and unobserved.
 *
 * Post-agglomeration: every f in F needs nothing but one token of p
 * (pre(f) = {p: 1}) and produces neither into p nor into a read place;
 * with one consumer f, each h becomes h f^w (w: what h puts into p);
 * with several, each h puts one token into p and becomes |F| transitions
 * h f. Why: a reduced run is an original run (f is enabled right after
 * h). Conversely, in an original run each firing of f can move to just
 * after the firing of h that produced its token (f reads p only; moving f
 * earlier only adds tokens, which disable nothing), and the tokens still
 * in p can be consumed the same way: the end marking differs only on p
 * and F's outputs, none read. A deadlock has p empty (else some f is
 * enabled), so the end marking is the same; h f is enabled exactly when h
 * is.
 *
 * Pre-agglomeration: p has one producer h, whose only output is one token
 * into p, whose input places are unread and consumed by h alone, and each
 * f in F takes one token from p; each f becomes h f and h goes. Why: h
 * only needs places no other transition touches, so a firing of h can be
 * delayed until just before the f that takes its token (nothing else
 * waits for h's output, nothing can disable h meanwhile), and a firing of
 * h whose token no f takes can be dropped: the end marking differs only
 * on p and h's inputs, none read. A reduced run is an original run. A
 * deadlock of the original (h disabled) maps to the marking with the
 * pending firings of h undone, where h f is disabled since f's other
 * inputs are the same; a reduced deadlock where h is enabled becomes one
 * in the original after firing h until its inputs run out, since h f
 * disabled with h enabled means f lacks another input, which h does not
 * give.
 *
 * Both keep the reachable markings projected on the observed places and
 * the deadlocks: pure reachability and ReachabilityDeadlock. They also
 * keep the observations of the runs up to stuttering, which LTL and CTL
 * without X read (Lamport 1983; Bønneland, Dyhr, Jensen, Johannsen, Srba,
 * "Stubborn versus structural reductions for Petri nets", JLAMP 2019, for
 * the rules that keep LTL-X and CTL-X): the transition moved (f after
 * post-, h before pre-agglomeration) is invisible, since it changes only
 * unread places, so moving it in a run repeats or drops an observation and
 * changes none. A run of one net is so a run of the other with the same
 * observations up to stuttering, a deadlock included (no deadlock atom:
 * a marking where only h is enabled becomes one). For CTL, the relation
 * "equal up to the moved firings" is a stuttering bisimulation (Browne,
 * Clarke, Grumberg 1988) when nothing is chosen in the move: h in pre-
 * agglomeration has no conflict (its inputs are its own), and after
 * post-agglomeration each producer's token has one consumer f; with two,
 * the original chooses between them after h, the fused net at h, and a
 * marking between the two satisfies E F of both outcomes where no marking
 * of the fused net does, so CTL gets post-agglomeration with one consumer
 * only (RED_AGGLO_BRANCHING). */
#include "reduce/reduce_work.h"

#include <stdlib.h>
#include <string.h>

#include "space/pt.h"

/* The most consumers a post-agglomeration multiplies its producers by,
 * and the most transitions it may create. */
#define AGG_MAX_F 4u
#define AGG_MAX_PAIRS 64u
#define AGG_MAX_W (1ULL << 31)

/* AGG_FAN: post-agglomeration of a place with one producer h and one
 * consumer f, where h may head several of them in one pass (h becomes
 * h f1^w1 f2^w2 ...: the same as fusing them one pass after another, each
 * f enabled by h's tokens alone; a transition that puts into k such places
 * needed k passes). */
enum { AGG_NONE = 0, AGG_POST, AGG_PRE, AGG_FAN };

typedef struct agg_state {
    const pn_cnet *cn;
    const red_work *w;
    uint32_t *prod_off, *prod;  /* producers of each place (CSR) */
    uint32_t *cons_off, *cons;  /* consumers of each place (CSR) */
    uint8_t *used;              /* per transition: in a fusion this pass */
    uint8_t *fan;               /* per transition: the producer of AGG_FAN places */
    uint8_t *pread;             /* per place: observed, or read by an observed transition */
    uint8_t *kind;              /* per place: AGG_* */
} agg_state;

static uint64_t agg_post(const pn_cnet *cn, uint32_t t, uint32_t p)
{
    return red_arc_weight(cn, false, t, p);
}

static uint64_t agg_pre(const pn_cnet *cn, uint32_t t, uint32_t p)
{
    return red_arc_weight(cn, true, t, p);
}

static pn_status agg_index(agg_state *a, pn_error *err)
{
    const pn_cnet *cn = a->cn;
    uint32_t P = cn->n_places, T = cn->n_transitions;
    pn_status st = pn_cnet_place_index(cn, true, &a->prod_off, &a->prod, err);
    if (st == PN_OK)
        st = pn_cnet_place_index(cn, false, &a->cons_off, &a->cons, err);
    if (st != PN_OK)
        return st;
    a->used = calloc((size_t)T + 1, 1);
    a->fan = calloc((size_t)T + 1, 1);
    a->pread = calloc((size_t)P + 1, 1);
    a->kind = calloc((size_t)P + 1, 1);
    if (!a->used || !a->fan || !a->pread || !a->kind)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
            a->pread[cn->pre[k].place] |= a->w->tobs[t];
    for (uint32_t p = 0; p < P; p++)
        a->pread[p] |= a->w->pobs[p];
    return PN_OK;
}

static uint32_t agg_nprod(const agg_state *a, uint32_t p)
{
    return a->prod_off[p + 1] - a->prod_off[p];
}

static uint32_t agg_ncons(const agg_state *a, uint32_t p)
{
    return a->cons_off[p + 1] - a->cons_off[p];
}

/* Free for a fusion: unobserved and in none yet. */
static bool agg_free_t(const agg_state *a, uint32_t t)
{
    return !a->used[t] && !a->fan[t] && !a->w->tobs[t];
}

/* The conditions both rules share: p unread, empty at m0, with producers
 * and consumers, none of them both or taken. */
static bool agg_place_ok(const agg_state *a, uint32_t p)
{
    if (a->pread[p] || a->cn->m0[p] != 0 || agg_nprod(a, p) == 0 || agg_ncons(a, p) == 0)
        return false;
    for (uint32_t k = a->cons_off[p]; k < a->cons_off[p + 1]; k++)
        if (!agg_free_t(a, a->cons[k]) || agg_post(a->cn, a->cons[k], p) > 0)
            return false;
    for (uint32_t k = a->prod_off[p]; k < a->prod_off[p + 1]; k++)
        if (!agg_free_t(a, a->prod[k]))
            return false;
    return true;
}

/* f needs only one token of p and produces into no read place. */
static bool agg_post_consumer(const agg_state *a, uint32_t p, uint32_t f)
{
    const pn_cnet *cn = a->cn;
    if (cn->pre_off[f + 1] - cn->pre_off[f] != 1 || agg_pre(cn, f, p) != 1)
        return false;
    for (uint32_t k = cn->post_off[f]; k < cn->post_off[f + 1]; k++)
        if (a->pread[cn->post[k].place] || cn->post[k].weight > AGG_MAX_W)
            return false;
    return true;
}

static bool agg_post_ok(const agg_state *a, uint32_t p)
{
    uint32_t nf = agg_ncons(a, p), nh = agg_nprod(a, p);
    if (nf > AGG_MAX_F || (uint64_t)nh * nf > AGG_MAX_PAIRS ||
        (nf > 1 && a->w->agglo == RED_AGGLO_BRANCHING))
        return false;
    for (uint32_t k = a->cons_off[p]; k < a->cons_off[p + 1]; k++)
        if (!agg_post_consumer(a, p, a->cons[k]))
            return false;
    for (uint32_t k = a->prod_off[p]; k < a->prod_off[p + 1]; k++) {
        uint64_t w = agg_post(a->cn, a->prod[k], p);
        if (w > AGG_MAX_W || (nf > 1 && w != 1))
            return false;
    }
    return true;
}

/* p's one producer h: one token into p and nothing else, fed by unread
 * places only h consumes; each consumer takes one token of p. */
static bool agg_pre_ok(const agg_state *a, uint32_t p)
{
    const pn_cnet *cn = a->cn;
    if (agg_nprod(a, p) != 1)
        return false;
    uint32_t h = a->prod[a->prod_off[p]];
    if (cn->post_off[h + 1] - cn->post_off[h] != 1 || agg_post(cn, h, p) != 1 ||
        cn->pre_off[h + 1] == cn->pre_off[h])
        return false;
    for (uint32_t k = cn->pre_off[h]; k < cn->pre_off[h + 1]; k++) {
        uint32_t q = cn->pre[k].place;
        if (a->pread[q] || agg_ncons(a, q) != 1)
            return false;
    }
    for (uint32_t k = a->cons_off[p]; k < a->cons_off[p + 1]; k++)
        if (agg_pre(cn, a->cons[k], p) != 1)
            return false;
    return true;
}

/* An AGG_FAN place: one producer h (free, or already heading such places)
 * and one free consumer f, under agg_place_ok's and agg_post_ok's other
 * conditions. */
static bool agg_fan_ok(const agg_state *a, uint32_t p)
{
    if (agg_nprod(a, p) != 1 || agg_ncons(a, p) != 1 || a->pread[p] || a->cn->m0[p] != 0)
        return false;
    uint32_t h = a->prod[a->prod_off[p]], f = a->cons[a->cons_off[p]];
    return h != f && !a->used[h] && !a->w->tobs[h] && agg_free_t(a, f) &&
           agg_post(a->cn, f, p) == 0 && agg_post_ok(a, p);
}

/* Greedy: each transition in one fusion per pass (a fan's producer in
 * all of its places); n[AGG_POST] (fans included), n[AGG_PRE] count them. */
static uint32_t agg_choose(agg_state *a, uint32_t n_kind[4])
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < a->cn->n_places; p++) {
        if (agg_fan_ok(a, p)) {
            a->kind[p] = AGG_FAN;
            a->fan[a->prod[a->prod_off[p]]] = 1;
            a->used[a->cons[a->cons_off[p]]] = 1;
            n_kind[AGG_POST]++;
            n++;
            continue;
        }
        if (!agg_place_ok(a, p))
            continue;
        a->kind[p] = agg_post_ok(a, p) ? AGG_POST : agg_pre_ok(a, p) ? AGG_PRE : AGG_NONE;
        if (a->kind[p] == AGG_NONE)
            continue;
        for (uint32_t k = a->cons_off[p]; k < a->cons_off[p + 1]; k++)
            a->used[a->cons[k]] = 1;
        for (uint32_t k = a->prod_off[p]; k < a->prod_off[p + 1]; k++)
            a->used[a->prod[k]] = 1;
        n_kind[a->kind[p]]++;
        n++;
    }
    return n;
}

/* ---- the fused net ------------------------------------------------------ */

/* Post: each producer h as h f^w, or h f per consumer. */
static void agg_plan_post(const agg_state *a, uint32_t p, red_plan *pl)
{
    uint32_t nf = agg_ncons(a, p);
    for (uint32_t k = a->prod_off[p]; k < a->prod_off[p + 1]; k++) {
        uint32_t h = a->prod[k];
        for (uint32_t j = a->cons_off[p]; j < a->cons_off[p + 1]; j++) {
            pn_red_step w[2] = {{h, 1}, {a->cons[j], nf == 1 ? agg_post(a->cn, h, p) : 1}};
            red_plan_add(pl, h, nf == 1 ? UINT32_MAX : a->cons[j], w, 2);
        }
    }
}

/* A fan's producer h as h f1^w1 f2^w2 ... (steps: room for 1 + its
 * outputs); its AGG_FAN places are the outputs of h of that kind. */
static void agg_plan_fan(const agg_state *a, uint32_t h, pn_red_step *steps, red_plan *pl)
{
    const pn_cnet *cn = a->cn;
    uint32_t n = 0;
    steps[n++] = (pn_red_step){h, 1};
    for (uint32_t k = cn->post_off[h]; k < cn->post_off[h + 1]; k++) {
        uint32_t p = cn->post[k].place;
        if (a->kind[p] == AGG_FAN)
            steps[n++] = (pn_red_step){a->cons[a->cons_off[p]], cn->post[k].weight};
    }
    red_plan_add(pl, h, UINT32_MAX, steps, n);
}

/* Pre: each consumer f as h f. */
static void agg_plan_pre(const agg_state *a, uint32_t p, red_plan *pl)
{
    uint32_t h = a->prod[a->prod_off[p]];
    for (uint32_t j = a->cons_off[p]; j < a->cons_off[p + 1]; j++) {
        pn_red_step w[2] = {{h, 1}, {a->cons[j], 1}};
        red_plan_add(pl, a->cons[j], UINT32_MAX, w, 2);
    }
}

static pn_status agg_build(const agg_state *a, const pn_fml_set *set, const pn_reduced *prev,
                           pn_reduced *r, pn_error *err)
{
    const pn_cnet *cn = a->cn;
    uint8_t *pstate = calloc((size_t)cn->n_places + 1, 1);
    uint32_t n_out = 0, n_fan = 0, max_out = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        n_out += !a->used[t];
        uint32_t outs = cn->post_off[t + 1] - cn->post_off[t];
        max_out = outs > max_out ? outs : max_out;
    }
    for (uint32_t p = 0; p < cn->n_places; p++) {
        n_out += a->kind[p] == AGG_POST  ? agg_nprod(a, p) * agg_ncons(a, p)
                 : a->kind[p] == AGG_PRE ? agg_ncons(a, p)
                                         : 0;
        n_fan += a->kind[p] == AGG_FAN;
    }
    pn_red_step *steps = malloc(((size_t)max_out + 2) * sizeof *steps);
    red_plan pl = {.pstate = pstate};
    pn_status st = pstate != NULL && steps != NULL
                       ? red_plan_alloc(&pl, n_out, 2 * n_out + n_fan, err)
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory");
    for (uint32_t t = 0; st == PN_OK && t < cn->n_transitions; t++) {
        if (a->fan[t])
            agg_plan_fan(a, t, steps, &pl);
        else if (!a->used[t])
            red_plan_add(&pl, t, UINT32_MAX, &(pn_red_step){t, 1}, 1);
    }
    for (uint32_t p = 0; st == PN_OK && p < cn->n_places; p++) {
        pstate[p] = a->kind[p] != AGG_NONE ? RED_P_GONE : RED_P_KEEP;
        if (a->kind[p] == AGG_POST)
            agg_plan_post(a, p, &pl);
        else if (a->kind[p] == AGG_PRE)
            agg_plan_pre(a, p, &pl);
    }
    if (st == PN_OK)
        st = red_build(a->w, &pl, set, prev, r, err);
    red_plan_free(&pl);
    free(steps);
    free(pstate);
    return st;
}

static void agg_free(agg_state *a)
{
    free(a->prod_off);
    free(a->prod);
    free(a->cons_off);
    free(a->cons);
    free(a->used);
    free(a->fan);
    free(a->pread);
    free(a->kind);
}

pn_status red_agglomerate(const pn_reduced *in, pn_exam exam, pn_reduced **out, uint32_t *fused,
                          pn_error *err)
{
    *out = NULL;
    *fused = 0;
    red_work w;
    agg_state a = {.cn = in->cn, .w = &w};
    pn_status st = red_work_init(&w, in->cn, exam, in->set, err);
    if (st == PN_OK && w.agglo != RED_AGGLO_NONE)
        st = agg_index(&a, err);
    uint32_t n_kind[4] = {0};
    uint32_t n = st == PN_OK && w.agglo != RED_AGGLO_NONE ? agg_choose(&a, n_kind) : 0;
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
        r->removed[PN_RED_POST_AGGLOMERATION] = n_kind[AGG_POST];
        r->removed[PN_RED_PRE_AGGLOMERATION] = n_kind[AGG_PRE];
        *out = r;
        *fused = n;
    } else {
        pn_reduced_free(r);
    }
    agg_free(&a);
    red_work_free(&w);
    return st;
}
