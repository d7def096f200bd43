/* Random walks on the coloured net itself (examine.h's pn_skeleton_walk).
 *
 * Where the colour-blind skeleton leaves an answer open, the coloured
 * net's own runs may settle it: a marking reached where phi holds proves
 * E F phi, one where it fails disproves A G phi, and a bound reached that
 * equals the skeleton's (an upper bound of the coloured one) is the bound.
 * The walks fire the coloured net as itself (petrel/csim.h): no
 * unfolding, so they reach nets whose unfolding does not fit in any
 * budget. Its places and transitions are the skeleton's, so the formulas
 * read on the skeleton are evaluated on the coloured marking's token
 * counts, with fireability computed on the coloured net (a complete
 * binding search: exact). The walks are the random walks of the P/T
 * examination (uniform among the enabled transitions, restarted from the
 * initial marking at a deadlock or after WALK_STEPS steps), one step
 * choosing a coloured transition and then one of its enabled bindings. */
#include "petrel/examine.h"

#include <stdlib.h>
#include <string.h>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/csim.h"
#include "petrel/formula.h"
#include "petrel/mcc.h"
#include "petrel/net.h"

/* Steps of one walk before it restarts from the initial marking. */
#define WALK_STEPS 16384

typedef struct walk {
    pn_csim *sim;
    const pn_cnet *skel;
    const uint8_t *skip;
    const uint64_t *limits;
    pn_check *c;
    bool *enabled;
    uint32_t *choice;
    uint64_t seed;
} walk;

static uint64_t walk_rand(walk *w)
{
    w->seed ^= w->seed << 13;
    w->seed ^= w->seed >> 7;
    w->seed ^= w->seed << 17;
    return w->seed;
}

/* Whether the coloured net is the skeleton's: the same places and
 * transitions, in the same order. */
static bool walk_matches(const pn_csim *sim, const pn_cnet *skel)
{
    const pn_net *net = skel->net;
    if (net == NULL || pn_csim_places(sim) != skel->n_places ||
        pn_csim_transitions(sim) != skel->n_transitions)
        return false;
    for (uint32_t p = 0; p < skel->n_places; p++)
        if (strcmp(pn_csim_place_id(sim, p), net->place_id[p]) != 0)
            return false;
    for (uint32_t t = 0; t < skel->n_transitions; t++)
        if (strcmp(pn_csim_transition_id(sim, t), net->trans_id[t]) != 0)
            return false;
    return true;
}

/* Decides what the current marking proves; returns the answers still
 * open. */
static uint32_t walk_decide(walk *w, uint32_t n)
{
    const uint32_t tech = PN_TECH_RANDOM_WALK;
    const uint64_t *m = pn_csim_counts(w->sim);
    uint32_t open = 0;
    for (uint32_t i = 0; i < n; i++) {
        const pn_fml_node *phi = NULL;
        const uint32_t *places = NULL;
        uint32_t n_places = 0;
        pn_check_target k = w->skip != NULL && w->skip[i]
                                ? PN_TARGET_NONE
                                : pn_check_target_of(w->c, i, &phi, &places, &n_places);
        if (k == PN_TARGET_NONE)
            continue;
        if (k == PN_TARGET_BOUND) {
            uint64_t limit = w->limits != NULL ? w->limits[i] : UINT64_MAX;
            if (limit != UINT64_MAX && pn_marking_sum(m, places, n_places) == limit)
                pn_check_bound_limit(w->c, i, limit, true, tech);
            open += limit != UINT64_MAX && pn_check_target_of(w->c, i, &phi, &places,
                                                              &n_places) != PN_TARGET_NONE;
            continue;
        }
        bool holds;
        if (phi != NULL) {
            holds = pn_fml_eval_state_given(phi, m, w->enabled, w->skel->n_transitions);
        } else { /* a deadlock */
            holds = true;
            for (uint32_t t = 0; t < w->skel->n_transitions; t++)
                holds &= !w->enabled[t];
        }
        if (k == PN_TARGET_EF && holds)
            pn_check_decide_target(w->c, i, true, tech);
        else if (k == PN_TARGET_AG && !holds)
            pn_check_decide_target(w->c, i, false, tech);
        else
            open++;
    }
    return open;
}

/* One walk from the initial marking. 1: go on, 0: every answer decided,
 * -1: the coloured net could not be fired (a search not known, the budget
 * spent). */
static int walk_once(walk *w, uint32_t n, const pn_budget *budget)
{
    pn_csim_reset(w->sim);
    uint32_t T = w->skel->n_transitions;
    for (uint32_t step = 0; step < WALK_STEPS; step++) {
        if (pn_budget_status(budget) != PN_OK)
            return -1;
        uint32_t n_enabled = 0;
        for (uint32_t t = 0; t < T; t++) {
            int r = pn_csim_enabled(w->sim, t);
            if (r < 0)
                return -1;
            w->enabled[t] = r == 1;
            if (r == 1)
                w->choice[n_enabled++] = t;
        }
        if (walk_decide(w, n) == 0)
            return 0;
        if (n_enabled == 0)
            return 1;
        uint32_t t = w->choice[walk_rand(w) % n_enabled];
        if (pn_csim_fire(w->sim, t, walk_rand(w)) != 1)
            return -1;
    }
    return 1;
}

pn_status pn_skeleton_walk(pn_csim *sim, const pn_cnet *skel, const pn_fml_set *set,
                           const uint8_t *skip, const uint64_t *limits, pn_check *c,
                           const pn_budget *budget, pn_error *err)
{
    if (!walk_matches(sim, skel))
        return PN_OK; /* not the skeleton's coloured net: nothing to walk */
    walk w = {.sim = sim, .skel = skel, .skip = skip, .limits = limits, .c = c,
              .seed = 0x2545f4914f6cdd1du};
    w.enabled = calloc((size_t)skel->n_transitions + 1, sizeof *w.enabled);
    w.choice = calloc((size_t)skel->n_transitions + 1, sizeof *w.choice);
    if (w.enabled == NULL || w.choice == NULL) {
        free(w.enabled);
        free(w.choice);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory walking the coloured net");
    }
    pn_csim_set_budget(sim, budget);
    while (walk_once(&w, set->n, budget) == 1)
        ;
    pn_csim_set_budget(sim, NULL);
    free(w.enabled);
    free(w.choice);
    return PN_OK;
}
