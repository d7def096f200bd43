/* Hash partitioning of the state space over the ranks of a distributed
 * exploration (after the distributed BFS of Stern & Dill, "Parallelizing the
 * Murphi verifier", CAV 1997, and LTSmin's / DiVinE's MPI back ends): a
 * state belongs to the rank its hash names, that rank alone stores and
 * expands it, and an expanding thread hands the successors it does not own
 * to a per-destination outbox instead of its table.
 *
 * The owner reads bits 16..39 of the table hash (pn_state_hash): the id
 * table's home slot takes the low bits, its tag and the compact table's
 * home slot the high ones, so a rank's states still spread over all of its
 * own slots. */
#ifndef PETREL_PN_PART_H
#define PETREL_PN_PART_H

#include "pn_hd.h"

PN_HD static uint32_t pn_part_owner(uint64_t h, uint32_t ranks)
{
    return (uint32_t)((((h >> 16) & 0xffffffULL) * ranks) >> 24);
}

/* One expanding thread's successors for the other ranks: states[d] holds
 * n[d] packed states (words each) for rank d, room for cap states each. The
 * engine checks the room before each chunk of work, so a push never fails. */
typedef struct pn_outbox {
    uint64_t **states;
    uint64_t *n;
    uint64_t cap;
    uint32_t self, ranks, words;
} pn_outbox;

#if !defined(__CUDA_ARCH__)
/* True when s (hash h) belongs to another rank: it is then in that rank's
 * outbox, and the caller neither stores nor counts it as new. */
static inline bool pn_outbox_route(pn_outbox *o, const uint64_t *s, uint64_t h)
{
    uint32_t d = pn_part_owner(h, o->ranks);
    if (d == o->self)
        return false;
    uint64_t *dst = o->states[d] + o->n[d]++ * o->words;
    for (uint32_t w = 0; w < o->words; w++)
        dst[w] = s[w];
    return true;
}
#endif

#endif
