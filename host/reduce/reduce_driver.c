/* The reduction's entry point (pn_reduce): what the formulas observe, the
 * fixpoint of the removing rules (reduce.c), the reduced net they leave
 * (reduce_build.c), then agglomeration (reduce_agglo.c) and the removing
 * rules again while it fuses. It calls the rules and they never call it
 * back: what they share lives in reduce_work.c, reduce_build.c and
 * reduce_out.c. */
#include "reduce/reduce_work.h"

#include <stdlib.h>
#include <string.h>

/* CTL: the rules other than the null and agglomeration ones keep a
 * functional bisimulation (the projection onto the kept places), which
 * keeps every CTL formula over what is observed, X and deadlocks included
 * (Browne, Clarke, Grumberg 1988: bisimilar structures satisfy the same
 * CTL* formulas). red_work_init allows no null rule for CTL, and the
 * agglomerations that keep a stuttering bisimulation only for formulas
 * without X (reduce_agglo.c). */
bool pn_reduce_applies(pn_exam exam)
{
    return exam == PN_EXAM_REACH_CARDINALITY || exam == PN_EXAM_REACH_FIREABILITY ||
           exam == PN_EXAM_REACH_DEADLOCK || exam == PN_EXAM_UPPER_BOUNDS ||
           exam == PN_EXAM_LTL_CARDINALITY || exam == PN_EXAM_LTL_FIREABILITY ||
           exam == PN_EXAM_CTL_CARDINALITY || exam == PN_EXAM_CTL_FIREABILITY;
}

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
                           const pn_reduced *prev, const pn_reduce_opts *o,
                           const pn_budget *budget, pn_reduced **out, pn_error *err)
{
    *out = NULL;
    pn_reduced *r = calloc(1, sizeof *r);
    red_work w;
    if (r == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    pn_status st = red_work_init(&w, cn, exam, set, err);
    w.with_lp = prev == NULL && (o == NULL || !o->no_dead_tests);
    w.lp_share = o != NULL ? o->dead_lp_share : 0;
    w.lp_one_dead = o != NULL && o->one_dead_answers;
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
            st = red_masks(fused->cn, exam, fused->set, fused, NULL, budget, &again, err);
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

/* A reduced net with its compiled form, and the rules' work beside the net
 * being reduced: 100 bytes per place, transition and arc at the peak on
 * Dekker-PT-200 (37 MB for 1,000 places, 40,400 transitions and 320,400
 * arcs), 160 counted. A reduction that would not fit the memory left is not
 * started: the examination goes on with the net as it is. */
#define RED_ELEMENT_BYTES 160

pn_status pn_reduce(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                    const pn_reduce_opts *o, pn_reduced **out, pn_error *err)
{
    const pn_budget *budget = o != NULL ? o->budget : NULL;
    double t0 = pn_clock_now();
    pn_reduced *r = NULL;
    *out = NULL;
    uint32_t T = cn->n_transitions;
    uint64_t room = pn_budget_memory(budget);
    uint64_t need = ((uint64_t)cn->n_places + T + cn->pre_off[T] + cn->post_off[T] + 1) *
                    RED_ELEMENT_BYTES;
    if (room != 0 && need > room)
        return pn_fail(err, PN_ERR_OUT_OF_MEMORY,
                       "not started: it needs about %.0f MB, %.0f MB are left",
                       (double)need / 1e6, (double)room / 1e6);
    pn_status st = red_masks(cn, exam, set, NULL, o, budget, &r, err);
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
