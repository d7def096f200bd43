/* Directed random walks (host/space/walk_aim.c): the transitions ranked by their
 * distance, in the net's graph, to the places a goal reads, and a walk's
 * step that prefers the nearest enabled ones. */
#ifndef PETREL_WALK_AIM_H
#define PETREL_WALK_AIM_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/formula.h"

#define PN_AIM_NONE UINT32_MAX

/* One walker's: the net's place-to-transition lists and the distances of
 * the goal aimed at. */
typedef struct pn_walk_aim {
    const pn_cnet *cn;
    uint32_t *prod_off, *prod; /* per place: the transitions that put tokens in it */
    uint32_t *cons_off, *cons; /* per place: the transitions that take or test them */
    uint32_t *dist;            /* per transition: steps to the goal, PN_AIM_NONE: none */
    uint32_t *queue;           /* transitions, breadth first */
} pn_walk_aim;

pn_status pn_walk_aim_init(pn_walk_aim *a, const pn_cnet *cn, pn_error *err);
void pn_walk_aim_free(pn_walk_aim *a);

/* Aims at the places phi reads (its token sums, the input places of the
 * transitions it asks fireable), or at places[0..n) when phi is NULL.
 * Returns the greatest distance plus one, 0 when there is nothing to aim
 * at (a deadlock atom, no place). */
uint32_t pn_walk_aim_at(pn_walk_aim *a, const pn_fml_node *phi, const uint32_t *places,
                        uint32_t n);

/* One of the n enabled transitions: half the time one of the nearest to
 * the goal (uniformly among them), else any (uniformly). */
uint32_t pn_walk_aim_pick(const pn_walk_aim *a, const uint32_t *enabled, uint32_t n,
                          uint64_t *rng);

#endif
