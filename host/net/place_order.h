/* A place order that keeps each transition's changed places close together
 * (FORCE), for a packing where the words a firing changes cost work: the
 * tree store looks up again every node above a changed word. */
#ifndef PETREL_PLACE_ORDER_H
#define PETREL_PLACE_ORDER_H

#include <stdint.h>

#include "petrel/cnet.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* order (n_places entries) gets a permutation of the places; *span_before
 * and *span_after (either may be NULL) the sum over transitions of the
 * distance between the first and the last place they change, in place
 * order and in the new one, which is never larger. PN_ERR_NOMEM. */
pn_status pn_place_order(const pn_cnet *cn, uint32_t *order, uint64_t *span_before,
                         uint64_t *span_after, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
