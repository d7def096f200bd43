/* A RERS parallel system as data: rooted labelled transition systems (LTSs)
 * that synchronise on shared labels, and the 1-safe P/T net that is their
 * product (net/lts.c; see petrel/rers.h for the whole of the RERS path). */
#ifndef PETREL_LTS_H
#define PETREL_LTS_H

#include <stdint.h>

#include "petrel/error.h"
#include "petrel/net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- systems of LTSs (net/lts.c) -------------------------------------- */

#define PN_LTS_INTERNAL UINT32_MAX /* the label of an edge with an empty label */

typedef struct pn_lts_edge {
    uint32_t src, dst;
    uint32_t label;          /* index into the system's labels, or PN_LTS_INTERNAL */
} pn_lts_edge;

typedef struct pn_lts {
    char *name;
    uint32_t n_states, start;
    char **state;            /* n_states names */
    uint32_t n_edges;
    pn_lts_edge *edge;
} pn_lts;

typedef struct pn_lts_system {
    uint32_t n_lts, n_labels;
    pn_lts *lts;
    char **label;
} pn_lts_system;

void pn_lts_system_free(pn_lts_system *s);
/* The synchronised product as a 1-safe net (see above). Place ids are
 * "<lts>.<state>", transition ids "t<k>.<label>" (never equal to a label)
 * or "t<k>" for internal steps. PN_ERR_UNSUPPORTED past 2^24 transitions
 * (a label shared by many LTSs with many local choices each). */
pn_status pn_lts_to_net(const pn_lts_system *s, pn_net **out, pn_error *err);

/* The label of transition t: NULL for an internal step. */
const char *pn_rers_label(const pn_net *net, uint32_t t);

#ifdef __cplusplus
}
#endif
#endif
