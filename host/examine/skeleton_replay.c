/* A skeleton's witness replayed on the unfolding (examine.h's
 * pn_skeleton_replay).
 *
 * The skeleton (host/coloured/skeleton.c) reaches more than the coloured
 * net: its witness of E F phi is no proof. But each of its steps names a
 * coloured transition, and where some binding of it is enabled at each
 * step in turn, the unfolding fires the same sequence and ends in a
 * marking with the skeleton's token counts: a real witness, checked on the
 * unfolding itself (phi evaluated there, fireability exact). Each step
 * takes the first enabled binding from a random one on; where the path's
 * next coloured transition has none, another one the path still has to
 * fire goes first (the end marking's token counts depend only on how often
 * each fires, as in a walk that follows a firing count vector); a path is
 * tried a few times over (the coloured net's symmetry makes most choices
 * equivalent). A bound reached so equals the skeleton's,
 * which bounds the coloured one: it is exact. */
#include "petrel/examine.h"

#include <stdlib.h>
#include <string.h>

#include "petrel/cnet.h"
#include "petrel/formula.h"
#include "petrel/net.h"
#include "pn_walk.h" /* pn_walk_rand: the walks' xorshift64 */

/* Attempts per path, each with its own random choices. */
#define REPLAY_TRIES 8
/* Steps between two polls of the budget. */
#define REPLAY_POLL 1024

typedef struct replay {
    const pn_cnet *cn;
    const uint32_t **group;   /* per skeleton transition: its unfolded ones */
    uint32_t *group_len;
    uint64_t *m, *next;
    uint64_t *left;           /* per coloured transition: firings still due */
    uint64_t seed;
    const pn_budget *budget;
} replay;

static uint64_t replay_rand(replay *r)
{
    return pn_walk_rand(&r->seed);
}

/* An enabled unfolded transition of coloured transition t: the first from
 * a random one on (a step costs what finding one costs, not a scan of the
 * group); UINT32_MAX when none is. */
static uint32_t replay_member(replay *r, uint32_t t)
{
    uint32_t len = r->group_len[t];
    uint64_t from = len ? replay_rand(r) % len : 0;
    for (uint32_t j = 0; j < len; j++) {
        uint32_t u = r->group[t][(from + j) % len];
        if (pn_cnet_enabled(r->cn, r->m, u))
            return u;
    }
    return UINT32_MAX;
}

/* Where the path's next coloured transition has no enabled binding, any
 * other one it still has to fire (the path's order is the skeleton's, the
 * count of each coloured transition is what the end marking's token
 * counts depend on); *t gets the coloured transition. */
static uint32_t replay_other(replay *r, uint32_t n_groups, uint32_t *t)
{
    uint64_t from = replay_rand(r) % n_groups;
    for (uint32_t j = 0; j < n_groups; j++) {
        uint32_t g = (uint32_t)((from + j) % n_groups);
        uint32_t u = r->left[g] > 0 ? replay_member(r, g) : UINT32_MAX;
        if (u != UINT32_MAX) {
            *t = g;
            return u;
        }
    }
    return UINT32_MAX;
}

/* One attempt: fires every step of the path, in its order where a binding
 * allows, else another step still due; r->m ends in a marking with the
 * token counts of the path's end. False where no step due has an enabled
 * binding, or the budget ends. */
static bool replay_once(replay *r, const pn_skeleton_path *p, uint32_t n_groups)
{
    const pn_cnet *cn = r->cn;
    memcpy(r->m, cn->m0, (size_t)cn->n_places * sizeof *r->m);
    memset(r->left, 0, (size_t)n_groups * sizeof *r->left);
    for (uint64_t s = 0; s < p->n; s++)
        r->left[p->trans[s]]++;
    uint64_t next = 0;
    for (uint64_t s = 0; s < p->n; s++) {
        if (s % REPLAY_POLL == REPLAY_POLL - 1 && pn_budget_status(r->budget) != PN_OK)
            return false;
        while (next < p->n && r->left[p->trans[next]] == 0)
            next++;
        uint32_t t = next < p->n ? p->trans[next] : 0;
        uint32_t pick = next < p->n ? replay_member(r, t) : UINT32_MAX;
        if (pick == UINT32_MAX)
            pick = replay_other(r, n_groups, &t);
        else
            next++;
        if (pick == UINT32_MAX || !pn_cnet_fire(cn, r->m, pick, r->next))
            return false;
        r->left[t]--;
        uint64_t *swap = r->m;
        r->m = r->next;
        r->next = swap;
    }
    return true;
}

/* Whether the marking r->m decides answer i of c, and decides it. */
static void replay_decide(replay *r, const pn_fml_node *root, uint64_t limit, pn_check *c,
                          uint32_t i)
{
    const uint32_t tech = PN_TECH_EXPLICIT | PN_TECH_TOPOLOGICAL;
    if (root->kind == PN_FML_PLACE_BOUND) {
        if (pn_marking_sum(r->m, root->idx, root->n) == limit)
            pn_check_bound_limit(c, i, limit, true, tech);
        return;
    }
    bool negated = false;
    for (; root->kind == PN_FML_NOT; root = root->kids[0])
        negated = !negated;
    const pn_fml_node *phi = NULL;
    pn_fml_reach shape = pn_fml_reach_shape(root, &phi);
    if (shape == PN_FML_REACH_NONE)
        return;
    bool holds = pn_fml_eval_state(phi, r->cn, r->m);
    if (shape == PN_FML_REACH_EF && holds)
        pn_check_decide_answer(c, i, !negated, tech);
    else if (shape == PN_FML_REACH_AG && !holds)
        pn_check_decide_answer(c, i, negated, tech);
}

static bool replay_groups(replay *r, const pn_net *skel)
{
    const pn_net *net = r->cn->net;
    for (uint32_t t = 0; t < skel->n_transitions; t++)
        if (!pn_net_find_transition_group(net, skel->trans_id[t], &r->group[t],
                                          &r->group_len[t]))
            return false;
    return true;
}

pn_status pn_skeleton_replay(const pn_cnet *cn, const pn_net *skel, const pn_fml_set *set,
                             const pn_skeleton_path *paths, const uint64_t *limits, pn_check *c,
                             const pn_budget *budget, pn_error *err)
{
    replay r = {.cn = cn, .budget = budget, .seed = 0x9e3779b97f4a7c15u};
    r.group = calloc((size_t)skel->n_transitions + 1, sizeof *r.group);
    r.group_len = calloc((size_t)skel->n_transitions + 1, sizeof *r.group_len);
    r.m = malloc(((size_t)cn->n_places + 1) * sizeof *r.m);
    r.next = malloc(((size_t)cn->n_places + 1) * sizeof *r.next);
    r.left = malloc(((size_t)skel->n_transitions + 1) * sizeof *r.left);
    pn_status st = PN_OK;
    if (r.group == NULL || r.group_len == NULL || r.m == NULL || r.next == NULL ||
        r.left == NULL)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory replaying the skeleton's paths");
    /* A net that is not the skeleton's unfolding: nothing to replay. */
    bool ok = st == PN_OK && cn->net != NULL && replay_groups(&r, skel);
    for (uint32_t i = 0; ok && i < set->n && pn_budget_status(budget) == PN_OK; i++) {
        const pn_fml_prop *p = &set->props[i];
        if (paths[i].trans == NULL || p->status != PN_OK || p->root == NULL)
            continue;
        for (int k = 0; k < REPLAY_TRIES && pn_check_answer(c, i)->verdict == PN_VERDICT_UNKNOWN;
             k++)
            if (replay_once(&r, &paths[i], skel->n_transitions))
                replay_decide(&r, p->root, limits != NULL ? limits[i] : UINT64_MAX, c, i);
    }
    free(r.group);
    free(r.group_len);
    free(r.m);
    free(r.next);
    free(r.left);
    return st;
}
