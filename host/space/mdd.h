/* Sets of markings as quasi-reduced multi-valued decision diagrams (MDDs),
 * with the Petri net's firing rule applied to whole sets: the symbolic
 * state space that the explicit engines cannot enumerate (10^10 states and
 * up) but whose structure an MDD shares.
 *
 * A. Srinivasan, T. Kam, S. Malik, R. Brayton, "Algorithms for discrete
 * function manipulation", ICCAD 1990 (MDDs); G. Ciardo, R. Marmorstein,
 * R. Siminiceanu, "The saturation algorithm for symbolic state-space
 * exploration", STTT 2006, section 2: a transition's effect is local to the
 * levels of the places it touches, so it is applied to a set by a
 * recursion that copies the untouched levels and shifts the edge values of
 * the touched ones (no transition relation is built, and no bound on the
 * places is needed: edge values are the token counts that occur).
 *
 * One level per place, in the order given (NULL: the net's); every path
 * from a node visits every level below it (quasi-reduced), so a set is
 * canonical: equal sets are equal refs. Nodes are hash-consed and freed
 * only by pn_mdd_compact, which the caller runs between operations (an
 * operation that outgrows the memory budget stops). Every operation keeps the budget: past the deadline
 * or the memory, it returns PN_MDD_STOP and so does every later one; the
 * reason is pn_mdd_status. Not thread-safe: one forest per thread. */
#ifndef PETREL_SPACE_MDD_H
#define PETREL_SPACE_MDD_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_mdd pn_mdd;
typedef uint32_t pn_mdd_ref;

/* The most places (levels) a forest takes. The recursions go a few calls
 * per level (about 200 bytes of stack per level in a release build, 1 MB
 * for Philosophers-PT-001000's 5,000 levels): a forest of more than
 * PN_MDD_INLINE_LEVELS levels runs on a thread whose stack is
 * PN_MDD_STACK_BYTES (pn_run_deep, sys/deep.h), ten times that with room
 * for sanitizer builds; up to PN_MDD_INLINE_LEVELS it runs on the caller's
 * stack, as an 8 MB main thread allows. */
#define PN_MDD_MAX_LEVELS 32768u
#define PN_MDD_INLINE_LEVELS 4096u
#define PN_MDD_STACK_BYTES(levels) ((size_t)(levels) * 2048u + ((size_t)16 << 20))

#define PN_MDD_EMPTY ((pn_mdd_ref)0)
#define PN_MDD_STOP ((pn_mdd_ref)UINT32_MAX)

/* order: a permutation of the places (level k holds place order[k]), or
 * NULL. The budget is borrowed and must outlive the forest. */
pn_status pn_mdd_new(const pn_cnet *cn, const uint32_t *order, const pn_budget *budget,
                     pn_mdd **out, pn_error *err);
void pn_mdd_free(pn_mdd *d);
/* Operations from now on keep budget (borrowed) instead; a stop for time
 * or a cancel is forgotten (the forest stays whole: a stopped operation
 * leaves only finished nodes behind). A stop for memory stays. The
 * budget's memory is read here, once (pn_budget_memory is a snapshot). */
void pn_mdd_set_budget(pn_mdd *d, const pn_budget *budget);
/* The bytes the forest may hold in all under its budget (pn_mdd_bytes
 * counts them); 0: unlimited. */
uint64_t pn_mdd_room(const pn_mdd *d);
/* Why operations return PN_MDD_STOP: PN_OK while they do not;
 * PN_ERR_TIMEOUT, PN_ERR_CANCELLED, PN_ERR_OUT_OF_MEMORY (the budget's or
 * the 2^32 nodes a ref can name), PN_ERR_NOMEM, or PN_ERR_UNSUPPORTED (a
 * token count beyond 2^32 - 1). */
pn_status pn_mdd_status(const pn_mdd *d);


/* {m}: one marking (one count per place, in place order). */
pn_mdd_ref pn_mdd_marking(pn_mdd *d, const uint64_t *m);
pn_mdd_ref pn_mdd_union(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref b);
pn_mdd_ref pn_mdd_inter(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref b);
pn_mdd_ref pn_mdd_minus(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref b);

/* The markings that firing t leads to from a. */
pn_mdd_ref pn_mdd_post(pn_mdd *d, uint32_t t, pn_mdd_ref a);
/* The markings (reachable or not) that enable t and lead into a. */
pn_mdd_ref pn_mdd_pre(pn_mdd *d, uint32_t t, pn_mdd_ref a);
/* The markings of c that enable t and lead into a: pre(t, a) & c, built
 * without leaving c. */
pn_mdd_ref pn_mdd_pre_within(pn_mdd *d, uint32_t t, pn_mdd_ref a, pn_mdd_ref c);
/* The markings of c with a successor in a (by any transition). */
pn_mdd_ref pn_mdd_pre_all(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref c);
/* E[c U a]: a, and the markings of c from which a path through c reaches
 * a, by constrained saturation. */
pn_mdd_ref pn_mdd_backward(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref c);
/* The markings of a that enable t. */
pn_mdd_ref pn_mdd_enabled(pn_mdd *d, uint32_t t, pn_mdd_ref a);
/* The markings m of a with sum_p coef[p] m[p] <= bound (coef per place). */
pn_mdd_ref pn_mdd_linear(pn_mdd *d, pn_mdd_ref a, const int64_t *coef, int64_t bound);
/* Every marking reachable from a (a included), by saturation. */
pn_mdd_ref pn_mdd_reachable(pn_mdd *d, pn_mdd_ref a);

/* Garbage collection: keeps only the nodes the n roots reach, which are
 * renamed in place (a ref not among them is void after). A stop for
 * memory is forgotten. false (nothing done) when the renaming table does
 * not fit. */
bool pn_mdd_compact(pn_mdd *d, pn_mdd_ref *roots, uint32_t n);

bool pn_mdd_member(const pn_mdd *d, pn_mdd_ref a, const uint64_t *m);
/* The largest sum_p coef[p] m[p] over the markings of a (coef >= 0 per
 * place), saturating at UINT64_MAX; 0 for the empty set. false when out
 * of memory (9 bytes per node, in the budget beside the forest). */
bool pn_mdd_max_sum(const pn_mdd *d, pn_mdd_ref a, const uint64_t *coef, uint64_t *max);
/* Markings in a (a double: 10^300 fits). NaN when out of memory (its
 * memo, a double per node, must fit in the budget beside the forest). */
double pn_mdd_count(pn_mdd *d, pn_mdd_ref a);
/* Node a (> 1)'s edges: *n values, ascending, and the children they lead
 * to, which have smaller ids than a (a node is made after its children);
 * its level is the return value. For readers that keep a memo per node
 * (mdd_count.c); the arrays are valid until the next operation. */
uint32_t pn_mdd_node(const pn_mdd *d, pn_mdd_ref a, uint32_t *n, const uint32_t **val,
                     const pn_mdd_ref **kid);
/* Transition t's enabling condition: the levels where it needs tokens
 * (pre > 0), ascending, each with what it needs, into level[] and pre[]
 * (room for one per place); returns how many. */
uint32_t pn_mdd_needs(const pn_mdd *d, uint32_t t, uint32_t *level, uint64_t *pre);
uint32_t pn_mdd_transitions(const pn_mdd *d);
/* The place at a level, and the levels (one per place). */
uint32_t pn_mdd_place_at(const pn_mdd *d, uint32_t level);
uint32_t pn_mdd_levels(const pn_mdd *d);
/* Nodes in the forest, the two terminals included, and bytes held. */
uint64_t pn_mdd_nodes(const pn_mdd *d);
uint64_t pn_mdd_bytes(const pn_mdd *d);

#ifdef __cplusplus
}
#endif
#endif
