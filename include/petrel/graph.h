/* The deduplicated state graph as CSR successor lists over state ids (the
 * engine's ids: BFS order, 0 = the initial marking), with predecessor lists
 * built on demand. Ids are 32-bit: graphs of 2^32 states or more are not
 * recorded (the examination answers CANNOT_COMPUTE). */
#ifndef PETREL_GRAPH_H
#define PETREL_GRAPH_H

#include <stdint.h>

#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_graph {
    uint64_t n_states, n_edges;  /* edges: one per (state, enabled transition) */
    uint64_t *off;               /* n_states + 1 */
    uint32_t *dst;
    uint64_t *roff;              /* predecessors: NULL until pn_graph_reverse */
    uint32_t *rsrc;
} pn_graph;

/* Builds the CSR from edge buffers of (src << 32 | dst) words, in any order
 * (a counting sort by source). The buffers are not freed. */
pn_status pn_graph_from_pairs(uint64_t n_states, uint64_t *const *bufs, const uint64_t *counts,
                              uint32_t n_bufs, pn_graph **out, pn_error *err);
pn_status pn_graph_reverse(pn_graph *g, pn_error *err);
void pn_graph_free(pn_graph *g);
uint64_t pn_graph_bytes(const pn_graph *g);

#ifdef __cplusplus
}
#endif
#endif
