/* A random walk's "moves" goals (walk.c): A G (tokens(P) = c) with c the
 * sum of P at the initial marking, StableMarking's items. Any reachable
 * marking m that enables a transition t changing the sum over P refutes
 * such an item: tokens(P) differs from c at m or at m after t. So, like a
 * transition's E F fireable(t), it is decided through the transitions a
 * walk sees enabled, without evaluating an atom per marking; a walk
 * decides at its first marking every place that one transition enabled
 * there moves. Private to host/engine. */
#ifndef PETREL_WALK_MOVES_H
#define PETREL_WALK_MOVES_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/formula.h"

/* The goals each transition's firing refutes: goal[off[t] .. off[t + 1]). */
typedef struct pn_walk_moves {
    uint32_t *off;
    uint32_t *goal;
} pn_walk_moves;

/* The TOKENS node of phi when target k, phi is A G (tokens(P) <= c and
 * c <= tokens(P)) with c the sum of P at cn's initial marking; else NULL. */
const pn_fml_node *pn_walk_moves_sum(const pn_cnet *cn, pn_check_target k,
                                     const pn_fml_node *phi);

/* The lists for n goals: sums[i] (a TOKENS node) is goal goal_of[i]'s. */
pn_status pn_walk_moves_build(const pn_cnet *cn, const pn_fml_node *const *sums,
                              const uint32_t *goal_of, uint32_t n, pn_walk_moves *out,
                              pn_error *err);
void pn_walk_moves_free(pn_walk_moves *m);

#endif
