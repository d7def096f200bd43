/* Reading RERS parallel problems: systems (.dot through Graphviz, or PNML)
 * and their properties (Spot LTL and RERS CTL over actions). See
 * petrel/rers.h for the whole of the RERS path. */
#ifndef PETREL_RERS_READ_H
#define PETREL_RERS_READ_H

#include <stddef.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/lts.h"
#include "petrel/net.h"
#include "petrel/pnml.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- reading systems (io/dot_read.c) -------------------------------------- */

/* A .dot file (Graphviz's cgraph) of one or more graphs: in each, every
 * top-level subgraph named "cluster..." is one LTS (all top-level subgraphs
 * when none is so named; the whole graph when there are none); its nodes are local states and its
 * edges transitions labelled by their "label" attribute. The start state is
 * the target of the edge with an empty label from a node that has no other
 * edge (RERS's start arrow; that node is not a state), else the one node
 * without incoming edges. Other edges with an empty label are internal
 * steps. PN_ERR_UNSUPPORTED when Petrel was built without Graphviz. */
pn_status pn_dot_read_file(const char *path, pn_lts_system **out, pn_error *err);
pn_status pn_dot_read_memory(const char *buf, size_t len, const char *label,
                             pn_lts_system **out, pn_error *err);

/* A system file: .dot (read and turned into its net) or PNML (read with
 * opts, NULL: the defaults). */
pn_status pn_rers_read_system(const char *path, const pn_budget *budget,
                              const pn_pnml_opts *opts, pn_net **out, pn_error *err);

/* ---- properties (io/rers_parse.c) ----------------------------------------- */

typedef enum pn_rers_logic { PN_RERS_AUTO, PN_RERS_LTL, PN_RERS_CTL } pn_rers_logic;

typedef struct pn_rers_prop {
    uint32_t number;         /* as given ("N:" or "#N"), else 1 + the one before */
    uint32_t line;
    pn_rers_logic logic;     /* LTL or CTL */
    char *text;
    /* LTL: A(psi) over ACTION atoms; CTL: the formula, with <a> f as
     * E X(ACTION & f) and [a] f as A X(!ACTION | f) */
    pn_fml_node *root;
} pn_rers_prop;

typedef struct pn_rers_props {
    uint32_t n;
    pn_rers_prop *p;
} pn_rers_props;

/* One property per line (docs in README.md, "RERS"): blank lines and lines
 * starting with '#' are skipped, except "#N" (numbers the next property)
 * and "#N: formula"; "N: formula" is numbered too. logic AUTO: a
 * formula that parses as CTL is CTL, else it is read as LTL. A label the
 * net does not have is an action that never happens. PN_ERR_INPUT with
 * file:line: column on a syntax error. */
pn_status pn_rers_read_props(const char *path, const pn_net *net, pn_rers_logic logic,
                             pn_rers_props **out, pn_error *err);
pn_status pn_rers_parse(const char *text, const pn_net *net, pn_rers_logic logic,
                        pn_rers_prop *out, pn_error *err);
void pn_rers_props_free(pn_rers_props *p);
void pn_rers_prop_clear(pn_rers_prop *p);

#ifdef __cplusplus
}
#endif
#endif
