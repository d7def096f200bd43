/* PNML reader: P/T nets as the MCC ships them, through a streaming reader
 * (libxml2 xmlTextReader); symmetric (coloured) nets are read into a DOM and
 * unfolded to P/T (net->unfold says so, and net->place_groups /
 * trans_groups map each coloured id to its unfolded nodes). Constructs
 * beyond symmetric nets (integers, lists, strings) are refused with
 * PN_ERR_UNSUPPORTED. A budget with a deadline and a memory cap bounds the
 * unfolding (PN_ERR_TIMEOUT, PN_ERR_OUT_OF_MEMORY; past 32-bit indices,
 * PN_ERR_UNSUPPORTED); without one, unfoldings past the fixed bounds of
 * host/coloured/hlpn.h (2^22 places or transitions, 2^24 arcs, 2^30
 * bindings and term evaluations) are refused with PN_ERR_UNSUPPORTED. */
#ifndef PETREL_PNML_H
#define PETREL_PNML_H

#include <stddef.h>

#include "petrel/budget.h"
#include "petrel/error.h"
#include "petrel/net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* On success *out owns a new net. On failure *out is NULL and err says what
 * and where (file:line: element: problem). budget (NULL: no limit): reading
 * and unfolding poll its deadline and cancel flag every few thousand
 * elements or bindings and stop with PN_ERR_TIMEOUT or PN_ERR_CANCELLED;
 * they poll its memory too (pn_budget_fail_memory) and stop with
 * PN_ERR_OUT_OF_MEMORY, and a coloured net's document, which is parsed
 * whole first, is not read where its tree would not fit the memory left. */
pn_status pn_pnml_read_file(const char *path, const pn_budget *budget,
                            pn_net **out, pn_error *err);
pn_status pn_pnml_read_memory(const char *buf, size_t len, const char *label,
                              const pn_budget *budget, pn_net **out,
                              pn_error *err);

/* How a coloured net is unfolded. merge_colours: the colours of a sort
 * that no guard, constant or repeated variable tells apart are merged into
 * classes, one unfolded place per class holding the sum of their tokens
 * (host/coloured/hlpn_classes.c); net->unfold.merged_sorts says whether
 * any were. The net is then exact for what is said of the coloured places
 * and transitions (their sums, their fireability, deadlocks, in any
 * temporal logic), not of single unfolded nodes (the state count, the
 * bound of one unfolded place). P/T nets are read as above. */
typedef struct pn_pnml_opts {
    bool merge_colours;
    /* A coloured net is read as its colour-blind skeleton instead
     * (host/coloured/skeleton.c): one place per coloured place holding the
     * number of its tokens, one transition per coloured transition, guards
     * dropped (net->unfold.skeleton). It over-approximates the coloured
     * net's token counts and fireability; pn_examine_skeleton keeps only
     * the answers that follow. PN_ERR_UNSUPPORTED where an inscription
     * subtracts more tokens than it has. Takes precedence over merge_colours. */
    bool skeleton;
} pn_pnml_opts;

/* The readers above with options (NULL: all false). */
pn_status pn_pnml_read_file_opts(const char *path, const pn_budget *budget,
                                 const pn_pnml_opts *opts, pn_net **out, pn_error *err);
pn_status pn_pnml_read_memory_opts(const char *buf, size_t len, const char *label,
                                   const pn_budget *budget, const pn_pnml_opts *opts,
                                   pn_net **out, pn_error *err);
/* Writes net as P/T PNML (pnml_write.c) that the reader above reads back
 * to the same net (ids, names, initial marking, arcs). */
pn_status pn_pnml_write_file(const char *path, const pn_net *net, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
