/* The check's items as flat data (kernels/pn_items.h) for an engine that
 * evaluates them itself, per state, where the visitor cannot run: the GPU
 * kernels (the BFS and the random walks). Private to the library. */
#ifndef PETREL_CHECK_ITEMS_H
#define PETREL_CHECK_ITEMS_H

#include "petrel/check.h"
#include "pn_items.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the open items of c into items (room for pn_check_count(c)) and
 * returns how many; their pointers borrow from c. *quasi and *stable say
 * whether the per-transition / per-place counters are needed. Bound items
 * get register slots (pn_item.local) in order, PN_ITEMS_LOCAL at most. */
uint32_t pn_check_items(const pn_check *c, pn_item *items, bool *quasi, bool *stable);

/* Takes what an engine found through items[0 .. n): each witness decides
 * its item (streamed at once, as the visitor's would be), maxima raise the
 * bounds, and seen / moved (per transition / per place, non-zero: seen
 * enabled / seen off m0; NULL: not read this time) feed QuasiLiveness and
 * StableMarking. Returns true when every item a witness can decide is. */
bool pn_check_items_found(pn_check *c, const pn_item *items, const pn_item_found *found,
                          uint32_t n, const uint32_t *seen, const uint32_t *moved);

#ifdef __cplusplus
}
#endif
#endif
