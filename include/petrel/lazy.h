/* An on-demand state space with ids: a consumer of pn_space (space.h) that
 * numbers the states it meets (0 = the initial state) and keeps each
 * state's successor ids once they were asked for. Used by the on-the-fly
 * LTL check; any method that needs explicit ids and revisits states
 * (nested searches, counterexamples) can use it. One thread at a time. */
#ifndef PETREL_LAZY_H
#define PETREL_LAZY_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/space.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_lazy pn_lazy;

/* Over the P/T space of cn. memory_budget: bytes (0: none), counting the
 * states, the successor lists and what set_other declares. */
pn_status pn_lazy_new(const pn_cnet *cn, uint64_t memory_budget, pn_lazy **out,
                      pn_error *err);
/* Over any space (owned from here on, also on failure). */
pn_status pn_lazy_new_space(pn_space *sp, uint64_t memory_budget, pn_lazy **out,
                            pn_error *err);
void pn_lazy_free(pn_lazy *z);

uint64_t pn_lazy_states(const pn_lazy *z);
/* Every state met has been expanded (and the space does not reduce): the
 * states known are the whole reachable space. */
bool pn_lazy_complete(const pn_lazy *z);
uint64_t pn_lazy_edges(const pn_lazy *z);
/* How many times a firing overflowed a field and the space widened. */
uint64_t pn_lazy_widenings(const pn_lazy *z);
pn_space *pn_lazy_space(pn_lazy *z);

/* The successor ids of state s, expanding it on first use (a deadlock has
 * none; duplicates are kept, one per enabled transition). *succ stays
 * valid until the next call that may expand. PN_ERR_OUT_OF_MEMORY past the budget
 * or 2^32 states, PN_ERR_UNSUPPORTED when a count passes 2^64-1. After
 * either, free z: a failed widening leaves its states unusable. */
pn_status pn_lazy_succ(pn_lazy *z, uint32_t s, const uint32_t **succ, uint32_t *n,
                       pn_error *err);
/* The number of successor entries of s, expanding it on first use; then
 * pn_lazy_succ_at gives entry k's id (k < n). Where the space lists its
 * successors (pn_space_defers), that makes entry k's state alone, the
 * others waiting until asked for: a depth-first search pays for the
 * successors it visits. Errors as pn_lazy_succ. */
pn_status pn_lazy_degree(pn_lazy *z, uint32_t s, uint32_t *n, pn_error *err);
pn_status pn_lazy_succ_at(pn_lazy *z, uint32_t s, uint32_t k, uint32_t *id, pn_error *err);
/* Inserts s (a further initial state, for a space that has several):
 * its id, and whether it is new. Errors as pn_lazy_succ. */
pn_status pn_lazy_insert(pn_lazy *z, const uint64_t *s, uint32_t *id, bool *is_new,
                         pn_error *err);
/* Gives back the successor list of s when it is the last one made (a
 * breadth-first search that is done with s): the memory of its entries is
 * reused; asked again, s is expanded again. Otherwise nothing. */
void pn_lazy_release(pn_lazy *z, uint32_t s);
/* Over a space that reduces (space.h): from now on a state whose reduced
 * successors include itself or a state expanded before it gets all its
 * successors instead, so that every cycle holds a fully expanded state
 * (what LTL-X needs; host/space/lazy.c). No effect on other spaces. */
void pn_lazy_cycle_proviso(pn_lazy *z);
/* Over a space that reduces: once the first 2048 states are expanded, if
 * their successors number more than per_mille / 1000 of their enabled
 * transitions, that expansion fails with PN_ERR_UNSUPPORTED (the state is
 * expanded all the same): the reduction does not pay for what it costs
 * (one search of its own). 0: no probe; no effect on other spaces. */
void pn_lazy_probe_reduction(pn_lazy *z, uint32_t per_mille);
/* Keep the transition of every successor entry (4 more bytes an edge,
 * under the budget): call before the first pn_lazy_succ. */
pn_status pn_lazy_keep_trans(pn_lazy *z, pn_error *err);
bool pn_lazy_keeps_trans(const pn_lazy *z);
/* With keep_trans (always where pn_space_defers), after
 * pn_lazy_succ(s) or pn_lazy_degree(s): the transitions of s's successor
 * entries, parallel to *succ (valid as long as it); else NULL. */
const uint32_t *pn_lazy_succ_trans(const pn_lazy *z, uint32_t s);
/* Transitions enabled in s (all of them, also over a reducing space). */
uint32_t pn_lazy_enabled(pn_lazy *z, uint32_t s);
/* The packed state vector of s (pn_space_words words), valid until the
 * next call that may expand. */
const uint64_t *pn_lazy_state(const pn_lazy *z, uint32_t s);
/* A transition leading from s to t (any enabled one, also one a reducing
 * layer dropped); UINT32_MAX when none does. */
uint32_t pn_lazy_trans(pn_lazy *z, uint32_t s, uint32_t t);
/* Bytes that a consumer holds under the same budget. */
void pn_lazy_set_other(pn_lazy *z, uint64_t bytes);
/* Whether `more` bytes may be allocated now; in a pool, true reserves them
 * in the pool's account (the next call settles what was really taken). */
bool pn_lazy_fits(pn_lazy *z, uint64_t more);

/* One memory account shared by spaces used at once (the workers of the
 * on-the-fly checks, host/examine/passes.c): a member fits while all
 * members together stay within cap, so one may use what the others leave.
 * Members update `used` atomically; it must outlive them. */
typedef struct pn_lazy_pool {
    uint64_t cap;  /* bytes; 0: unlimited */
    uint64_t used;
} pn_lazy_pool;
/* z counts against pool from now until pn_lazy_free (its own budget
 * still holds too). */
void pn_lazy_join_pool(pn_lazy *z, pn_lazy_pool *pool);
/* The pool z counts against; NULL when none. */
pn_lazy_pool *pn_lazy_pool_of(const pn_lazy *z);
/* Whether the members of pool hold all it allows (false for NULL or an
 * unlimited pool): a new member would not get a byte. */
bool pn_lazy_pool_full(const pn_lazy_pool *pool);
/* Bytes held now, what set_other declares included. */
uint64_t pn_lazy_bytes(const pn_lazy *z);

#ifdef __cplusplus
}
#endif
#endif
