/* Packing of markings into 64-bit words with a bit width per place, and the
 * net compiled for that packing (pn_prog, consumed by kernels/pn_state.h). */
#ifndef PETREL_LAYOUT_H
#define PETREL_LAYOUT_H

#include <stdint.h>

#include "petrel/cnet.h"
#include "petrel/error.h"
#include "pn_state.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_layout {
    pn_prog prog;        /* views into the arrays below */
    uint8_t *width;      /* bits per place, 1..64 */
    pn_op *field;
    uint32_t *pre_off, *dec_off, *inc_off;
    pn_op *pre, *dec, *inc;
    uint32_t *trig_off, *trig, *free_trans, *bit_place;
} pn_layout;

/* Starting widths: enough bits for the initial marking and for the largest
 * weight of an arc into each place (a cheap guess that saves restarts). */
pn_status pn_layout_initial_widths(const pn_cnet *cn, uint8_t **widths, pn_error *err);

/* Packs fields in place order, first-fit into 64-bit words. */
pn_status pn_layout_new(const pn_cnet *cn, const uint8_t *widths, pn_layout **out,
                        pn_error *err);
/* The same in the given order of the places (a permutation; NULL: place
 * order), e.g. pn_place_order's. */
pn_status pn_layout_new_ordered(const pn_cnet *cn, const uint8_t *widths, const uint32_t *order,
                                pn_layout **out, pn_error *err);
void pn_layout_free(pn_layout *lay);
/* An estimate of the bytes a layout of cn and what is set up with it (an
 * engine's place order and workers, a state space's firing) take at their
 * peak: 47 bytes per place, transition and arc measured on an engine's
 * setup for Dekker-PT-200 (17 MB for 40,400 transitions), 64 counted. A
 * phase whose memory cannot hold it does not start. */
uint64_t pn_layout_bytes(const pn_cnet *cn);

/* Packs m into s (prog.words words); false when a count does not fit. */
bool pn_layout_pack(const pn_layout *lay, const uint64_t *m, uint64_t *s);

/* The widening policy, for every caller (CPU and GPU engines, the state
 * space interface): each place flagged in overflowed (which is cleared)
 * doubles its width, up to 64 bits. False when a flagged place is at 64
 * bits already: its count would pass 2^64-1. */
bool pn_layout_widen(uint8_t *widths, uint8_t *overflowed, uint32_t n_places);
/* The same, every flagged place then at least min_bits wide: for a store
 * where width costs little and each widening a pass over every state (the
 * CPU engine's tree compression). */
bool pn_layout_widen_to(uint8_t *widths, uint8_t *overflowed, uint32_t n_places,
                        uint8_t min_bits);

/* The words pn_layout_new_ordered packs fields of these widths into, in
 * that order (NULL: place order); 0 when out of memory. */
uint32_t pn_layout_words(const uint8_t *widths, const uint32_t *order, uint32_t n_places);

/* Bits needed to hold v (at least 1). */
uint8_t pn_bits_for(uint64_t v);

#ifdef __cplusplus
}
#endif
#endif
