/* RERS parallel problems (RERS 2019, Parallel LTL and Parallel CTL tracks):
 * a system of rooted labelled transition systems (LTSs) that synchronise on
 * shared labels, given as a Graphviz .dot file or as the equivalent PNML
 * net whose transition names are the labels, and properties about actions
 * (docs/semantics.md, "RERS"; docs/architecture.md, "RERS").
 *
 * A system becomes a 1-safe P/T net (pn_lts_to_net): one place per local
 * state of each LTS, one transition per way a label can fire (one local
 * transition of every LTS that has the label in its alphabet), named by the
 * label. Everything that explores a net then explores the system: the
 * engines, the on-demand space, the checkers. A transition whose name is
 * missing or empty (its name then reads as its id) is an internal step with
 * an empty label: it is never synchronised and no label holds on it. */
#ifndef PETREL_RERS_H
#define PETREL_RERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/lazy.h"
#include "petrel/ltl.h"
#include "petrel/net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- systems of LTSs (net/lts_net.c) -------------------------------------- */

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

/* A system file: .dot (read and turned into its net) or PNML. */
pn_status pn_rers_read_system(const char *path, const pn_budget *budget, pn_net **out,
                              pn_error *err);

/* The label of transition t: NULL for an internal step. */
const char *pn_rers_label(const pn_net *net, uint32_t t);

/* ---- properties (io/rers_props.c) ----------------------------------------- */

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

/* ---- checking (logic/rers.c) ---------------------------------------------- */

/* An on-demand space of cn that keeps the transitions of its steps, shared
 * by the properties of one system. */
pn_status pn_rers_space(const pn_cnet *cn, uint64_t memory_budget, pn_lazy **out,
                        pn_error *err);
/* *value: whether the system's start state satisfies p. lasso (may be NULL):
 * for a false LTL property, the counterexample; for a CTL property whose
 * root is E(f U g) / EF g (true) or AG f (false), the path that proves it
 * (prefix steps, no cycle; pn_ctl_check_otf_witness). Past the budget
 * PN_ERR_TIMEOUT / PN_ERR_OUT_OF_MEMORY (then free z); nothing is guessed. */
pn_status pn_rers_check(pn_lazy *z, const pn_rers_prop *p, const pn_budget *budget,
                        bool *value, pn_ltl_lasso *lasso, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
