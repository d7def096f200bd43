/* FORCE: F. A. Aloul, I. L. Markov, K. A. Sakallah, "FORCE: a fast and
 * easy-to-implement variable-ordering heuristic", GLSVLSI 2003.
 *
 * The vertices are the places, the hyperedges the transitions' sets of
 * changed places (the compiled net's delta lists, those of two places or
 * more: a firing dirties the words of these). A round puts every hyperedge
 * at the mean position of its places (its centre of gravity), every place
 * at the mean of its hyperedges' centres (a place in none keeps its own
 * position), and sorts the places by that, ties in the order before. The
 * order with the least total span (the paper's measure) is kept; the
 * rounds stop when one no longer shortens it, as in the paper, or after
 * PLACE_ORDER_ROUNDS, fewer where the net is so large that a round costs
 * much (PLACE_ORDER_WORK place visits over all rounds). */
#include "net/place_order.h"

#include <stdlib.h>
#include <string.h>

#define PLACE_ORDER_ROUNDS 20
#define PLACE_ORDER_WORK 50000000ULL

typedef struct po_item {
    double key;
    uint32_t place, pos;
} po_item;

static int po_cmp(const void *a, const void *b)
{
    const po_item *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static uint64_t po_span(const pn_cnet *cn, const uint32_t *pos)
{
    uint64_t span = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
            const uint32_t x = pos[cn->delta[k].place];
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
        span += lo < hi ? hi - lo : 0;
    }
    return span;
}

/* One round: order and pos (its inverse) move to the places' new order. */
static void po_round(const pn_cnet *cn, uint32_t *order, uint32_t *pos, double *sum,
                     uint32_t *cnt, po_item *items)
{
    const uint32_t P = cn->n_places;
    memset(sum, 0, (size_t)P * sizeof *sum);
    memset(cnt, 0, (size_t)P * sizeof *cnt);
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        const uint32_t lo = cn->delta_off[t], hi = cn->delta_off[t + 1];
        if (hi - lo < 2)
            continue;
        double cog = 0;
        for (uint32_t k = lo; k < hi; k++)
            cog += pos[cn->delta[k].place];
        cog /= hi - lo;
        for (uint32_t k = lo; k < hi; k++) {
            sum[cn->delta[k].place] += cog;
            cnt[cn->delta[k].place]++;
        }
    }
    for (uint32_t i = 0; i < P; i++) {
        const uint32_t p = order[i];
        items[i] = (po_item){.key = cnt[p] ? sum[p] / cnt[p] : i, .place = p, .pos = i};
    }
    qsort(items, P, sizeof *items, po_cmp);
    for (uint32_t i = 0; i < P; i++) {
        order[i] = items[i].place;
        pos[order[i]] = i;
    }
}

pn_status pn_place_order(const pn_cnet *cn, uint32_t *order, uint64_t *span_before,
                         uint64_t *span_after, pn_error *err)
{
    const uint32_t P = cn->n_places;
    const size_t n = (size_t)P + 1;
    uint32_t *pos = malloc(n * sizeof *pos), *cnt = malloc(n * sizeof *cnt);
    uint32_t *cur = malloc(n * sizeof *cur);
    double *sum = malloc(n * sizeof *sum);
    po_item *items = malloc(n * sizeof *items);
    pn_status st = PN_OK;
    if (pos == NULL || cnt == NULL || cur == NULL || sum == NULL || items == NULL) {
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory ordering the places");
        goto done;
    }
    for (uint32_t p = 0; p < P; p++)
        order[p] = cur[p] = pos[p] = p;
    uint64_t best = po_span(cn, pos);
    if (span_before != NULL)
        *span_before = best;
    const uint64_t work = (uint64_t)cn->delta_off[cn->n_transitions] + P + 1;
    uint64_t rounds = PLACE_ORDER_WORK / work;
    rounds = rounds < 1 ? 1 : rounds > PLACE_ORDER_ROUNDS ? PLACE_ORDER_ROUNDS : rounds;
    for (uint64_t r = 0; r < rounds; r++) {
        po_round(cn, cur, pos, sum, cnt, items);
        const uint64_t span = po_span(cn, pos);
        if (span >= best)
            break;
        best = span;
        memcpy(order, cur, (size_t)P * sizeof *order);
    }
    if (span_after != NULL)
        *span_after = best;
done:
    free(pos);
    free(cnt);
    free(cur);
    free(sum);
    free(items);
    return st;
}
