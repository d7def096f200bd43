/* A coloured (symmetric) net fired as itself, nothing unfolded: its marking
 * a multiset of colours per place, its transitions fired under bindings
 * found by matching the input arcs' patterns against the tokens present
 * (host/coloured/csim.c). What it is for: walks and replays on coloured
 * nets whose unfolding does not fit (TokenRing-COL-500's has 1.3e8
 * transitions; a walk on the coloured net takes a few hundred tokens a
 * step). Its places and transitions are numbered as the model declares
 * them, as the colour-blind skeleton's are (pn_pnml_opts.skeleton), so a
 * formula read on the skeleton reads this net's token counts and
 * fireability exactly. */
#ifndef PETREL_CSIM_H
#define PETREL_CSIM_H

#include <stddef.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_csim pn_csim;

/* Reads the coloured net of the PNML file at path, at its initial marking.
 * budget (NULL: none) bounds the reading and every later call; it must
 * outlive the simulator or be replaced (pn_csim_set_budget).
 * PN_ERR_UNSUPPORTED for a P/T net or an initial marking that cannot be
 * held (a multiset beyond the reader's bounds). */
pn_status pn_csim_open(const char *path, const pn_budget *budget, pn_csim **out,
                       pn_error *err);
pn_status pn_csim_open_memory(const char *buf, size_t len, const char *label,
                              const pn_budget *budget, pn_csim **out, pn_error *err);
void pn_csim_free(pn_csim *s);
void pn_csim_set_budget(pn_csim *s, const pn_budget *budget);

uint32_t pn_csim_places(const pn_csim *s);
uint32_t pn_csim_transitions(const pn_csim *s);
const char *pn_csim_place_id(const pn_csim *s, uint32_t p);
const char *pn_csim_transition_id(const pn_csim *s, uint32_t t);
/* An upper bound of the unfolding's places and transitions: every colour of
 * every place, every binding of every transition (guards not read),
 * saturating at 2^63. */
uint64_t pn_csim_unfolded_nodes(const pn_csim *s);

/* Back to the initial marking. */
void pn_csim_reset(pn_csim *s);
/* The number of tokens of each place at the current marking. */
const uint64_t *pn_csim_counts(const pn_csim *s);

/* The colours present in place p at the current marking: how many
 * distinct ones, and the k-th (ascending; colours numbered as
 * host/coloured/hlpn.h says) with its count. */
uint64_t pn_csim_colours(const pn_csim *s, uint32_t p);
void pn_csim_colour(const pn_csim *s, uint32_t p, uint64_t k, uint64_t *colour, uint64_t *count);

/* Whether some binding of transition t is enabled: 1 yes, 0 no, -1 not
 * known (the search went past its bound, a multiset could not be
 * evaluated, the budget ended; pn_csim_error says which). */
int pn_csim_enabled(pn_csim *s, uint32_t t);
/* Fires an enabled binding of t, the first one found from a random one on
 * (seed picks it): 1 fired, 0 none enabled, -1 not known (the marking is
 * then unchanged). */
int pn_csim_fire(pn_csim *s, uint32_t t, uint64_t seed);
/* Why the last call answered -1. */
const pn_error *pn_csim_error(const pn_csim *s);

#ifdef __cplusplus
}
#endif

#endif
