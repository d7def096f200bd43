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
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/error.h"
#include "petrel/lazy.h"
#include "petrel/lts.h"
#include "petrel/ltl.h"
#include "petrel/rers_read.h"

#ifdef __cplusplus
extern "C" {
#endif

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
