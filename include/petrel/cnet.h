/* The compiled net: what the engines and the formula evaluator read.
 * Dense incidence matrix C = Post - Pre (places x transitions, row-major by
 * place), and per-transition sparse lists (CSR) of the input arcs, output
 * arcs and the net effect, with parallel arcs merged. */
#ifndef PETREL_CNET_H
#define PETREL_CNET_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/error.h"
#include "petrel/net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_cnet_arc {
    uint32_t place;
    uint64_t weight;
} pn_cnet_arc;

typedef struct pn_cnet_delta {
    uint32_t place;
    int64_t delta;           /* never 0; |delta| < 2^63 */
} pn_cnet_delta;

typedef struct pn_cnet {
    uint32_t n_places;
    uint32_t n_transitions;
    uint64_t *m0;
    /* C[p * n_transitions + t]; NULL when P*T is beyond the dense limit
     * (the engines only use the sparse lists). */
    int64_t *incidence;
    uint32_t *pre_off;       /* n_transitions + 1 */
    pn_cnet_arc *pre;        /* tokens a transition needs (and consumes) */
    uint32_t *post_off;
    pn_cnet_arc *post;       /* tokens it produces */
    uint32_t *delta_off;
    pn_cnet_delta *delta;    /* post - pre, non-zero entries only */
    const pn_net *net;       /* names, borrowed */
} pn_cnet;

/* Fails on weights whose merged sum or difference does not fit. */
pn_status pn_cnet_compile(const pn_net *net, pn_cnet **out, pn_error *err);
void pn_cnet_free(pn_cnet *cn);

/* Enabledness and firing on an unpacked marking (one uint64_t per place).
 * Fire returns false, leaving `out` unspecified, when a count would pass
 * UINT64_MAX. The engines use the packed equivalents in kernels/. */
bool pn_cnet_enabled(const pn_cnet *cn, const uint64_t *m, uint32_t t);
bool pn_cnet_fire(const pn_cnet *cn, const uint64_t *m, uint32_t t, uint64_t *out);
/* Fires enabled t on m itself, touching only the places t changes; false
 * (m unchanged) when a place would pass UINT64_MAX. */
bool pn_cnet_fire_here(const pn_cnet *cn, uint64_t *m, uint32_t t);
/* The tokens of marking m on the n places listed, saturating at UINT64_MAX
 * (a bound's sum: UINT64_MAX is then no proven value). */
uint64_t pn_marking_sum(const uint64_t *m, const uint32_t *places, uint32_t n);
/* The same on all n_places places of m. */
uint64_t pn_marking_total(const uint64_t *m, uint32_t n_places);

/* The arcs seen from the places: the transitions that consume from each
 * place (post false: its pre arcs) or produce into it (post true), CSR:
 * (*off)[p] .. (*off)[p + 1] index *items, both freed by the caller (off
 * has n_places + 2 entries). PN_ERR_NOMEM (nothing to free); err may be
 * NULL. */
pn_status pn_cnet_place_index(const pn_cnet *cn, bool post, uint32_t **off, uint32_t **items,
                              pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
