/* Orders of the places that keep each transition's places close together
 * (FORCE), for the structures whose cost grows with the distance between
 * them: a decision diagram's levels (host/space/mdd.c), the words of a
 * tree-compressed marking (the CPU engine). */
#ifndef PETREL_PLACE_ORDER_H
#define PETREL_PLACE_ORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A transition's places, to keep together. */
typedef enum pn_order_edges {
    PN_ORDER_TOUCHED, /* those it reads or changes: a decision diagram's levels */
    PN_ORDER_CHANGED  /* those it changes (two or more): the tree store looks their
                         words up again */
} pn_order_edges;

/* How the rounds end: after a fixed number, the best span of them all
 * kept (decision diagrams), or, as in the paper, at the first round that
 * shortens the span no more (the tree store, which asks for an order at
 * each restart: fewer rounds, and span is only a proxy for its cost). */
typedef enum pn_order_rounds { PN_ORDER_BEST_OF_ROUNDS, PN_ORDER_CONVERGE } pn_order_rounds;

/* order (n_places entries) gets a permutation of the places: FORCE (F.
 * Aloul, I. Markov, K. Sakallah, "FORCE: a fast and easy-to-implement
 * variable-ordering heuristic", GLSVLSI 2003) over the transitions' sets
 * of places (edges), keeping the order of the smallest total span (the sum
 * over the transitions of the distance between their first and last
 * place), never larger than the net's own order. classic: FORCE from the
 * net's order only. Otherwise also FORCE with each transition weighted by
 * 1/(its places), and both from a start that places the places of the
 * smallest transitions first and from a breadth-first start over the net
 * (Cuthill-McKee; each start itself a candidate too). Span is only a
 * proxy: for decision diagrams either can be the better order
 * (RwMutex-PT-r1000w0010 closes in 0.2 s with the second and not in 30 s
 * with the first, GPPP-PT-C0001N0000001000 the other way round).
 * *span_before, *span_after (either may be NULL): the net's order's span
 * and the result's. budget (may be NULL): past it, no more rounds (each run
 * has at least its start and first round), the best order so far stands. PN_ERR_NOMEM. */
pn_status pn_place_order(const pn_cnet *cn, pn_order_edges edges, pn_order_rounds rounds,
                         bool classic, const pn_budget *budget, uint32_t *order,
                         uint64_t *span_before, uint64_t *span_after, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
