/* Directed random walks: the structural distance heuristic of directed
 * model checking (S. Edelkamp, A. Lluch Lafuente, S. Leue, "Directed
 * explicit-state model checking in the validation of communication
 * protocols", STTT 5(2-3), 2004), on the net's graph, steering a random
 * walk as a greedy step does a best-first search.
 *
 * A transition's distance to a goal is 0 when it changes or tests a place
 * the goal reads, else one more than the least distance of a transition
 * whose input places it feeds (breadth first, backwards through the arcs:
 * O(arcs) per goal). A directed step fires, half the time, one of the
 * enabled transitions nearest to the goal, and otherwise any enabled one,
 * so that the walk still moves the tokens a join further on waits for. A
 * uniform walk over a net of many concurrent parts moves each part a step
 * in as many steps as there are parts, and meets a marking deep in one part
 * with a probability that falls exponentially with its depth; the directed
 * walk moves the part the goal lies in (ShieldPPPt-PT-100B's UpperBounds:
 * every place's bound 1 is attained within 600 directed steps, where
 * uniform walks of a whole step's time attain none). Heuristic only: a
 * walk fires enabled transitions, so what it meets is reachable. */
#include "space/walk_aim.h"

#include <stdlib.h>

#include "pn_walk.h"

pn_status pn_walk_aim_init(pn_walk_aim *a, const pn_cnet *cn, pn_error *err)
{
    *a = (pn_walk_aim){.cn = cn};
    if (pn_cnet_place_index(cn, true, &a->prod_off, &a->prod, err) != PN_OK)
        return PN_ERR_NOMEM;
    if (pn_cnet_place_index(cn, false, &a->cons_off, &a->cons, err) != PN_OK) {
        pn_walk_aim_free(a);
        return PN_ERR_NOMEM;
    }
    a->dist = malloc(((size_t)cn->n_transitions + 1) * sizeof *a->dist);
    a->queue = malloc(((size_t)cn->n_transitions + 1) * sizeof *a->queue);
    if (a->dist == NULL || a->queue == NULL) {
        pn_walk_aim_free(a);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for directed walks");
    }
    return PN_OK;
}

void pn_walk_aim_free(pn_walk_aim *a)
{
    free(a->prod_off);
    free(a->prod);
    free(a->cons_off);
    free(a->cons);
    free(a->dist);
    free(a->queue);
    *a = (pn_walk_aim){0};
}

static void aim_push(pn_walk_aim *a, uint32_t t, uint32_t d, uint32_t *n)
{
    if (a->dist[t] != PN_AIM_NONE)
        return;
    a->dist[t] = d;
    a->queue[(*n)++] = t;
}

/* Distance 0: the transitions that change or test place p. */
static void aim_seed_place(pn_walk_aim *a, uint32_t p, uint32_t *n)
{
    for (uint32_t j = a->prod_off[p]; j < a->prod_off[p + 1]; j++)
        aim_push(a, a->prod[j], 0, n);
    for (uint32_t j = a->cons_off[p]; j < a->cons_off[p + 1]; j++)
        aim_push(a, a->cons[j], 0, n);
}

static void aim_seed_formula(pn_walk_aim *a, const pn_fml_node *f, uint32_t *n)
{
    const pn_cnet *cn = a->cn;
    if (f->kind == PN_FML_TOKENS || f->kind == PN_FML_PLACE_BOUND) {
        for (uint32_t i = 0; i < f->n; i++)
            aim_seed_place(a, f->idx[i], n);
        return;
    }
    if (f->kind == PN_FML_FIREABLE) {
        for (uint32_t i = 0; i < f->n; i++)
            for (uint32_t k = cn->pre_off[f->idx[i]]; k < cn->pre_off[f->idx[i] + 1]; k++)
                aim_seed_place(a, cn->pre[k].place, n);
        return;
    }
    for (uint32_t i = 0; f->kids != NULL && i < f->n; i++)
        aim_seed_formula(a, f->kids[i], n);
}

uint32_t pn_walk_aim_at(pn_walk_aim *a, const pn_fml_node *phi, const uint32_t *places,
                        uint32_t n)
{
    const pn_cnet *cn = a->cn;
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        a->dist[t] = PN_AIM_NONE;
    uint32_t tail = 0;
    if (phi != NULL)
        aim_seed_formula(a, phi, &tail);
    for (uint32_t i = 0; phi == NULL && i < n; i++)
        aim_seed_place(a, places[i], &tail);
    /* Backwards: u at distance d + 1 feeds an input place of t at d. */
    for (uint32_t head = 0; head < tail; head++) {
        uint32_t t = a->queue[head], d = a->dist[t];
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++) {
            uint32_t p = cn->pre[k].place;
            for (uint32_t j = a->prod_off[p]; j < a->prod_off[p + 1]; j++)
                aim_push(a, a->prod[j], d + 1, &tail);
        }
    }
    return tail > 0 ? a->dist[a->queue[tail - 1]] + 1 : 0;
}

uint32_t pn_walk_aim_pick(const pn_walk_aim *a, const uint32_t *enabled, uint32_t n,
                          uint64_t *rng)
{
    uint64_t r = pn_walk_rand(rng);
    uint32_t any = enabled[(r >> 1) % n];
    if (r & 1)
        return any;
    uint32_t best = PN_AIM_NONE, pick = any, ties = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = a->dist[enabled[i]];
        if (d == PN_AIM_NONE || d > best)
            continue;
        if (d < best) {
            best = d;
            ties = 0;
        }
        if (pn_walk_rand(rng) % ++ties == 0) /* uniform among the nearest */
            pick = enabled[i];
    }
    return pick;
}
