/* Structural reduction rules, iterated to a fixpoint (see reduce.h).
 *
 * The rules are the simplest of those in Berthelot, "Transformations and
 * decompositions of nets" (1986), Thierry-Mieg, "Structural reductions
 * revisited" (Petri Nets 2020, rules on constant places, dead and
 * duplicate transitions, sink places) and Bonneland et al., "Stubborn
 * versus structural reductions" / verifypn (rules A-D). Each keeps a
 * functional bisimulation between the original and the reduced reachability
 * graphs (the projection onto kept places), so every marking-based property
 * over the observed places and transitions, deadlocks and maximal paths
 * included, is preserved; the null-transition rule alone only preserves
 * the reachable set and is kept to pure reachability. Post-agglomeration
 * and pre-agglomeration are in reduce_agglo.c, dead transitions by the
 * state equation in reduce_lp.c, places another one dominates in
 * reduce_implicit.c, what lies outside the formulas' cone of influence
 * (pure reachability) in reduce_cone.c. */
#include "petrel/reduce.h"

#include "reduce/reduce_work.h"

#include <stdlib.h>
#include <string.h>

#include "linear/lin.h"

/* Time for the siphon rule: at most this, and a fortieth of the budget. */
#define RED_SIPHON_SECONDS 0.5

/* Per place: does some live transition raise it, change it, consume it,
 * and the most one needs from it. */
typedef struct red_flow {
    uint8_t *inc, *chg, *cons;
    uint64_t *maxpre;
} red_flow;

static void red_flow_compute(const red_work *w, red_flow *f)
{
    const pn_cnet *cn = w->cn;
    memset(f->inc, 0, cn->n_places);
    memset(f->chg, 0, cn->n_places);
    memset(f->cons, 0, cn->n_places);
    memset(f->maxpre, 0, (size_t)cn->n_places * sizeof *f->maxpre);
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        if (!red_alive(w, t))
            continue;
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
            f->chg[cn->delta[k].place] = 1;
            if (cn->delta[k].delta > 0)
                f->inc[cn->delta[k].place] = 1;
        }
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++) {
            uint32_t p = cn->pre[k].place;
            f->cons[p] = 1;
            if (cn->pre[k].weight > f->maxpre[p])
                f->maxpre[p] = cn->pre[k].weight;
        }
    }
}

/* Dead transitions. A place no live transition raises never holds more
 * than m0 (only removed transitions, never fired, could raise it), so a
 * transition needing more than m0 from it is never enabled: removing it
 * leaves the reachability graph unchanged, and fireable(t) is false. */
static uint32_t red_dead(red_work *w, const red_flow *f)
{
    const pn_cnet *cn = w->cn;
    uint32_t n = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        if (!red_alive(w, t))
            continue;
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++) {
            uint32_t p = cn->pre[k].place;
            if (!f->inc[p] && cn->pre[k].weight > cn->m0[p]) {
                w->tmap[t] = RED_T_DEAD;
                n++;
                break;
            }
        }
    }
    return n;
}

/* Dead transitions by an unmarked siphon (Murata 1989, section VIII): a
 * set S of places empty at m0 where every transition putting into S takes
 * from S stays empty (none of them is ever enabled), so every transition
 * with an input place in S is never enabled. S is the largest siphon among
 * the places empty at m0 (lin_siphon_max), removed transitions left out as
 * never firing. Catches cycles of empty places, which neither the rule
 * above nor the state equation sees. */
static pn_status red_dead_siphon(red_work *w, const pn_budget *budget, uint32_t *removed,
                                 pn_error *err)
{
    const pn_cnet *cn = w->cn;
    *removed = 0;
    uint8_t *in = malloc((size_t)cn->n_places + 1), *skip = malloc((size_t)cn->n_transitions + 1);
    if (in == NULL || skip == NULL) {
        free(in);
        free(skip);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    }
    for (uint32_t p = 0; p < cn->n_places; p++)
        in[p] = cn->m0[p] == 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        skip[t] = !red_alive(w, t);
    double left = pn_budget_left_s(budget) / 40;
    pn_budget within = pn_budget_within(budget, left < RED_SIPHON_SECONDS ? left : RED_SIPHON_SECONDS);
    uint32_t n = lin_siphon_max(cn, skip, in, &within);
    for (uint32_t t = 0; n != 0 && n != UINT32_MAX && t < cn->n_transitions; t++) {
        if (skip[t])
            continue;
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
            if (in[cn->pre[k].place]) {
                w->tmap[t] = RED_T_DEAD;
                (*removed)++;
                break;
            }
    }
    free(in);
    free(skip);
    return PN_OK;
}

/* Constant places. No live transition changes p, so it holds m0(p) in
 * every reachable marking; its arcs are self-loops whose test always
 * holds (checked), so dropping them changes no enabledness. An observed
 * constant place stays, isolated, so atoms over it read m0(p); an
 * unobserved one goes. */
static uint32_t red_constant(red_work *w, const red_flow *f)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < w->cn->n_places; p++) {
        if (w->pstate[p] != RED_P_KEEP || f->chg[p] || f->maxpre[p] > w->cn->m0[p])
            continue;
        w->pstate[p] = w->pobs[p] ? RED_P_ISOLATED : RED_P_GONE;
        n++;
    }
    return n;
}

/* Sink places. No live transition consumes from p, so p restricts no
 * enabledness: the projection that forgets p maps each marking's
 * successors onto its image's successors (a functional bisimulation).
 * Only unobserved places go. */
static uint32_t red_sink(red_work *w, const red_flow *f)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < w->cn->n_places; p++) {
        if (w->pstate[p] != RED_P_KEEP || f->cons[p] || w->pobs[p])
            continue;
        w->pstate[p] = RED_P_GONE;
        n++;
    }
    return n;
}

/* One round of every rule; the count of what it removed. */
static pn_status red_round(red_work *w, red_flow *f, uint32_t *changed, pn_error *err)
{
    uint32_t got[PN_RED_RULE_COUNT] = {0};
    red_flow_compute(w, f);
    got[PN_RED_DEAD_TRANSITION] = red_dead(w, f);
    red_flow_compute(w, f);
    got[PN_RED_CONSTANT_PLACE] = red_constant(w, f);
    got[PN_RED_SINK_PLACE] = red_sink(w, f);
    uint32_t dup = 0, null = 0, implicit = 0;
    pn_status st = red_duplicates(w, &dup, err);
    if (st == PN_OK)
        st = red_implicit(w, &implicit, err);
    got[PN_RED_IMPLICIT_PLACE] = implicit;
    uint32_t cone = 0;
    if (st == PN_OK && w->allow_null)
        st = red_null(w, &null, err);
    if (st == PN_OK && w->allow_null)
        st = red_cone(w, &cone, err);
    got[PN_RED_DUPLICATE_TRANS] = dup;
    got[PN_RED_NULL_TRANSITION] = null;
    got[PN_RED_CONE] = cone;
    *changed = 0;
    for (int r = 0; r < PN_RED_RULE_COUNT; r++) {
        w->removed[r] += got[r];
        *changed += got[r];
    }
    return st;
}

pn_status red_fixpoint(red_work *w, const pn_budget *budget, pn_error *err)
{
    uint32_t np = w->cn->n_places;
    red_flow f = {malloc(np + 1), malloc(np + 1), malloc(np + 1),
                  malloc(((size_t)np + 1) * sizeof *f.maxpre)};
    pn_status st = f.inc && f.chg && f.cons && f.maxpre ? PN_OK
                                                        : pn_fail(err, PN_ERR_NOMEM, "out of memory");
    uint32_t changed = 1;
    for (bool lp = w->with_lp; st == PN_OK && changed > 0 && !pn_budget_expired(budget);) {
        st = red_round(w, &f, &changed, err);
        w->rounds++;
        if (st == PN_OK && changed == 0 && lp) { /* the costly rules once, on what is left */
            lp = false;
            uint32_t by_siphon = 0;
            st = red_dead_siphon(w, budget, &by_siphon, err);
            if (st == PN_OK)
                st = red_dead_lp(w, budget, &changed, err);
            w->removed[PN_RED_DEAD_SIPHON] += by_siphon;
            w->removed[PN_RED_DEAD_LP] += changed;
            changed += by_siphon;
        }
    }
    free(f.inc);
    free(f.chg);
    free(f.cons);
    free(f.maxpre);
    return st;
}
