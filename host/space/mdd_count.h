/* Exact counts on a decision-diagram forest (mdd.h): the markings of a set
 * as an integer of any size, summed over as many sets as asked (the
 * StateSpace examination's STATES and TRANSITIONS reach 10^700), and the
 * largest token count of each place over a set.
 *
 * The count of a node is the sum of its children's (a quasi-reduced MDD:
 * every path from a node to the terminal is one marking of its levels),
 * kept per node as a little-endian array of 64-bit limbs, so that the sets
 * of one forest share the counts of their shared nodes, and the edges'
 * count (pn_mdd_counter_add_edges) reads the set's own below each
 * transition's input places. The memo follows the node ids: it is void
 * after pn_mdd_compact. */
#ifndef PETREL_SPACE_MDD_COUNT_H
#define PETREL_SPACE_MDD_COUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "space/mdd.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_mdd_counter pn_mdd_counter;

/* A counter on d's nodes; its memo and total take from d's budget room
 * beside the forest, and a long count polls budget (both borrowed). NULL
 * when out of memory. */
pn_mdd_counter *pn_mdd_counter_new(pn_mdd *d, const pn_budget *budget);
void pn_mdd_counter_free(pn_mdd_counter *k);

/* Adds the markings of a to the total: PN_OK, PN_ERR_OUT_OF_MEMORY (the
 * budget's room), PN_ERR_NOMEM, or the budget's stop (the total is then
 * void). */
pn_status pn_mdd_counter_add(pn_mdd_counter *k, pn_mdd_ref a);
/* Adds, for every transition t of the forest, the markings of a that
 * enable t: the edges of the reachability graph when a is the reachable
 * set (mdd_count.c, "edges"). Same returns as pn_mdd_counter_add; the
 * counts of a's nodes stay in the memo. */
pn_status pn_mdd_counter_add_edges(pn_mdd_counter *k, pn_mdd_ref a);
/* The total so far, in decimal (a new string: free it); NULL when out of
 * memory. *low: its value when it fits in 64 bits, else UINT64_MAX. */
char *pn_mdd_counter_text(const pn_mdd_counter *k, uint64_t *low);
void pn_mdd_counter_zero(pn_mdd_counter *k);

/* max[p] = the largest count of place p over the markings of a (0 when a
 * is empty), for every place. false when out of memory (a byte per node,
 * beside the forest in its room). */
bool pn_mdd_place_max(const pn_mdd *d, pn_mdd_ref a, uint64_t *max);

#ifdef __cplusplus
}
#endif

#endif
