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
 * choosing a coloured transition and then one of its enabled bindings.
 * Every other walk aims at one open bound in turn: it fires a transition
 * that adds tokens to the bound's places where one is enabled, else one
 * that takes none away, else any (the gain of a coloured transition is
 * its skeleton transition's, the same for every binding), so that the
 * markings that pile tokens up, which uniform walks rarely reach, are
 * reached.
 *
 * An LTL formula (A phi) is refuted by one run: each walk's first
 * PN_PREFIX_STEPS letters (its atoms at each marking) are kept, and phi is
 * read on them (formula/prefix_goals.h, at every power of two of them):
 * where every run that starts so violates phi, or the walk ended in a
 * deadlock (its run is then known whole) that violates it, the answer is
 * FALSE. */
#include "petrel/examine.h"

#include <stdlib.h>
#include <string.h>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/csim.h"
#include "petrel/formula.h"
#include "petrel/mcc.h"
#include "petrel/net.h"
#include "formula/prefix_goals.h"
#include "pn_walk.h" /* pn_walk_rand: the walks' xorshift64 */

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
    int64_t *gain;            /* per transition: tokens it adds to the aim */
    uint8_t *in_aim;          /* per place: one of the aim's */
    const pn_fml_set *set;
    pn_prefix_goals ltl;      /* the LTL formulas a run's prefix may refute */
    pn_prefix_trace prefix;   /* their atoms at each step of the walk */
    uint64_t seed;
} walk;

static uint64_t walk_rand(walk *w)
{
    return pn_walk_rand(&w->seed);
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

/* The next open bound after *from (round robin), its gains set; false
 * when no bound with a limit is open. */
static bool walk_aim(walk *w, uint32_t n, uint32_t *from)
{
    const pn_cnet *cn = w->skel;
    for (uint32_t k = 1; k <= n; k++) {
        uint32_t i = (*from + k) % n;
        const pn_fml_node *phi = NULL;
        const uint32_t *places = NULL;
        uint32_t n_places = 0;
        if ((w->skip != NULL && w->skip[i]) || w->limits == NULL ||
            w->limits[i] == UINT64_MAX ||
            pn_check_target_of(w->c, i, &phi, &places, &n_places) != PN_TARGET_BOUND)
            continue;
        memset(w->in_aim, 0, cn->n_places);
        for (uint32_t j = 0; j < n_places; j++)
            w->in_aim[places[j]] = 1;
        for (uint32_t t = 0; t < cn->n_transitions; t++) {
            w->gain[t] = 0;
            for (uint32_t d = cn->delta_off[t]; d < cn->delta_off[t + 1]; d++)
                if (w->in_aim[cn->delta[d].place])
                    w->gain[t] += cn->delta[d].delta; /* |sum| < 2^63: few places */
        }
        *from = i;
        return true;
    }
    return false;
}

/* The enabled transitions an aimed walk chooses from: those that add to
 * the aim, else those that keep it, else all; their number. */
static uint32_t walk_best(walk *w, uint32_t n_enabled)
{
    for (int sign = 1; sign >= 0; sign--) {
        uint32_t k = 0;
        for (uint32_t j = 0; j < n_enabled; j++)
            if ((sign == 1 && w->gain[w->choice[j]] > 0) ||
                (sign == 0 && w->gain[w->choice[j]] == 0))
                w->choice[k++] = w->choice[j];
        if (k > 0)
            return k;
    }
    return n_enabled;
}

/* An open LTL formula A phi, not one the check reads as reachability
 * (walk_decide's). */
static bool walk_ltl_goal(void *ctx, uint32_t i)
{
    const walk *w = ctx;
    const pn_fml_node *phi = NULL;
    const uint32_t *places = NULL;
    uint32_t n_places = 0;
    return (w->skip == NULL || !w->skip[i]) &&
           pn_check_answer(w->c, i)->verdict == PN_VERDICT_UNKNOWN &&
           pn_check_target_of(w->c, i, &phi, &places, &n_places) == PN_TARGET_NONE;
}

static uint32_t walk_ltl_open(const walk *w)
{
    uint32_t open = 0;
    for (uint32_t k = 0; k < w->ltl.n; k++)
        open += pn_check_answer(w->c, w->ltl.answer[k])->verdict == PN_VERDICT_UNKNOWN;
    return open;
}

/* Keeps the atoms at the current marking as step k's letter. */
static void walk_record(walk *w, uint32_t k)
{
    uint64_t *letter = pn_prefix_trace_step(&w->prefix, k);
    const uint64_t *m = pn_csim_counts(w->sim);
    memset(letter, 0, (size_t)w->prefix.words * sizeof *letter);
    for (uint32_t a = 0; a < w->ltl.n_atoms; a++)
        if (pn_fml_eval_state_given(w->ltl.atoms[a], m, w->enabled, w->skel->n_transitions))
            letter[a / 64] |= UINT64_C(1) << (a % 64);
}

/* The open LTL formulas read on the trace's first len steps. */
static void walk_ltl(walk *w, uint32_t len, bool dead)
{
    for (uint32_t k = 0; k < w->ltl.n; k++) {
        uint32_t i = w->ltl.answer[k];
        if (pn_check_answer(w->c, i)->verdict == PN_VERDICT_UNKNOWN &&
            pn_prefix_goal_refuted(&w->ltl, k, &w->prefix, len, dead))
            pn_check_decide_answer(w->c, i, false, PN_TECH_RANDOM_WALK);
    }
}

/* One walk from the initial marking, aimed (walk_aim) or not. 1: go on,
 * 0: every answer decided, -1: the coloured net could not be fired (a
 * search not known, the budget spent). */
static int walk_once(walk *w, uint32_t n, const pn_budget *budget, bool aimed)
{
    pn_csim_reset(w->sim);
    uint32_t T = w->skel->n_transitions, ltl_open = walk_ltl_open(w);
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
        if (walk_decide(w, n) == 0 && ltl_open == 0)
            return 0;
        if (ltl_open > 0)
            walk_record(w, step);
        bool ends = n_enabled == 0 || step + 1 == PN_PREFIX_STEPS;
        if (ltl_open > 0 && pn_prefix_due(step + 1, ends))
            walk_ltl(w, step + 1, n_enabled == 0);
        if (ltl_open > 0 && ends)
            return 1;
        if (n_enabled == 0)
            return 1;
        if (aimed)
            n_enabled = walk_best(w, n_enabled);
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
    walk w = {.sim = sim, .skel = skel, .skip = skip, .limits = limits, .c = c, .set = set,
              .seed = 0x2545f4914f6cdd1du};
    size_t nt = (size_t)skel->n_transitions + 1;
    w.enabled = calloc(nt, sizeof *w.enabled);
    w.choice = calloc(nt, sizeof *w.choice);
    w.gain = calloc(nt, sizeof *w.gain);
    w.in_aim = calloc((size_t)skel->n_places + 1, 1);
    pn_status st = PN_OK;
    if (w.enabled == NULL || w.choice == NULL || w.gain == NULL || w.in_aim == NULL)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory walking the coloured net");
    if (st == PN_OK)
        st = pn_prefix_goals_collect(&w.ltl, set, walk_ltl_goal, &w, err);
    if (st == PN_OK && w.ltl.n > 0)
        st = pn_prefix_trace_init(&w.prefix, (w.ltl.n_atoms + 63) / 64, 0, err);
    pn_csim_set_budget(sim, budget);
    uint32_t aim = set->n > 0 ? set->n - 1 : 0;
    for (uint64_t k = 0; st == PN_OK; k++) {
        bool aimed = k % 2 == 1 && walk_aim(&w, set->n, &aim);
        if (walk_once(&w, set->n, budget, aimed) != 1)
            break;
    }
    pn_csim_set_budget(sim, NULL);
    free(w.enabled);
    free(w.choice);
    free(w.gain);
    free(w.in_aim);
    pn_prefix_goals_free(&w.ltl);
    pn_prefix_trace_free(&w.prefix);
    return st;
}
