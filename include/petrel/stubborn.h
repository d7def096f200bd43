/* Partial-order reduction with stubborn sets: a layer on the state-space
 * interface (space.h) whose successors are those of the transitions of a
 * stubborn set, and a search over it that decides whether a state where a
 * state formula has a given value is reachable (E F goal; A G phi is
 * not E F not phi; ReachabilityDeadlock is E F deadlock).
 *
 * The layer preserves the reachability of the goal, and of every deadlock
 * when the goal reads "deadlock" (see host/space/stubborn.c for the
 * conditions and the papers). It changes next_all only: pn_space_enabled
 * still gives every enabled transition (deadlock atoms read it). */
#ifndef PETREL_STUBBORN_H
#define PETREL_STUBBORN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/space.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The layer over inner (owned from here on, also on failure) for the
 * search of a state where goal (a state formula, borrowed: it must outlive
 * the layer) evaluates to want. cn: the net of inner, borrowed. */
pn_status pn_stubborn_new(const pn_cnet *cn, pn_space *inner, const pn_fml_node *goal,
                          bool want, pn_space **out, pn_error *err);

/* LTL without next: whether the layer can reduce for path formula psi
 * (no X, no deadlock atom, atoms over token sums and fireability), and the
 * layer for it over inner (owned from here on, also on failure; psi is
 * read here only). Its successors are an ample set without a transition
 * that can change an atom of psi, or every successor. *proviso: the cycle
 * condition is the consumer's (pn_lazy_cycle_proviso) rather than the
 * layer's own. PN_ERR_UNSUPPORTED when no transition may be left out
 * (nothing to reduce). See host/space/stubborn.c. */
bool pn_stubborn_ltl_supported(const pn_fml_node *psi);
pn_status pn_stubborn_ltl_new(const pn_cnet *cn, pn_space *inner, const pn_fml_node *psi,
                              pn_space **out, bool *proviso, pn_error *err);

/* A search (best first by pn_fml_distance; depth first for goals that read
 * deadlock) of a
 * reachable state where goal == want, over the
 * stubborn layer (reduce) or over every successor (!reduce: the reference).
 * *found: one exists; *states, *edges: what was explored. PN_ERR_TIMEOUT /
 * PN_ERR_CANCELLED when budget ran out, PN_ERR_OUT_OF_MEMORY past its
 * memory; *found is then false and proves nothing. */
pn_status pn_stubborn_search(const pn_cnet *cn, const pn_fml_node *goal, bool want, bool reduce,
                             const pn_budget *budget, bool *found, uint64_t *states,
                             uint64_t *edges, pn_error *err);

/* The examination hook: each open E F / A G answer of c (and
 * ReachabilityDeadlock) searched over the reduced space within budget
 * (the portfolio gives it a quarter of the time left: the reduced search is
 * one thread and pays off only where the reduction is large), each formula
 * getting an equal share; what is decided gets
 * EXPLICIT and STUBBORN_SETS (EXPLICIT alone where the layer reduced too
 * little over its first states and the search went on over the full space,
 * best first), the rest stays open for the full exploration.
 * res gets the states and edges of the largest search (a partial run:
 * PN_RUN_STOPPED) when any ran; diag (may be NULL) a line with the sums. */
void pn_stubborn_decide(const pn_cnet *cn, pn_check *c, const pn_budget *budget,
                        pn_engine_result *res, FILE *diag);

#ifdef __cplusplus
}
#endif
#endif
