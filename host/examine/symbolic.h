/* The portfolio's decision-diagram step (symbolic.c): the open answers of
 * an examination on the MDD of the reachable markings. */
#ifndef PETREL_EXAMINE_SYMBOLIC_H
#define PETREL_EXAMINE_SYMBOLIC_H

#include <stdbool.h>
#include <stdio.h>

#include "examine/beside.h"
#include "logic/ctl_mdd.h"
#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/formula.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the formulas of a set are, beyond E F / A G targets and bounds. */
typedef enum ex_sym_logic {
    EX_SYM_TARGETS, /* nothing else is checked */
    EX_SYM_CTL,
    EX_SYM_LTL
} ex_sym_logic;

/* Within share_of_left of the time left: the reachable set (within half
 * of that share, else nothing), then every open answer of c in turn, in
 * three passes: each with a quarter of an equal part of what is left, then
 * an equal part, then all of it. E F / A G targets and bounds are read off the set; the other
 * formulas of set (may be NULL) are checked as `logic` says. Decides
 * answers in c (DECISION_DIAGRAMS); verbose (may be NULL) gets a line per
 * answer. beside: NULL, or the lock and flags of a step running beside
 * this one (examine/beside.h). keep: NULL (the forest is freed at the
 * end), or the examination's forest (below): one built here is left in
 * it, one there is used, and none is built again once a step tried. */
typedef struct ex_sym_forest ex_sym_forest;
void ex_symbolic(const pn_cnet *cn, const pn_fml_set *set, ex_sym_logic logic,
                 const pn_budget *budget, double share_of_left, FILE *verbose, pn_check *c,
                 ex_beside *beside, ex_sym_forest *keep);

/* The forest and its reachable set across the steps of one examination:
 * a later symbolic step goes on with it (and with the sub-formula sets a
 * CTL check kept), and the graph step asks it how many states it would
 * have to store. tried: a step has built it, or failed to. */
struct ex_sym_forest {
    pn_ctl_mdd *s;
    bool tried;
};
void ex_sym_forest_free(ex_sym_forest *f);

/* A recorded graph of every reachable marking cannot be had within
 * budget: the forest counted more markings than the memory holds at
 * EX_GRAPH_MIN_BYTES each, or than `threads` explore in the time left at
 * EX_GRAPH_MAX_RATE each per second (bounds above what the explicit engine
 * reaches). False when there is no set to count. */
#define EX_GRAPH_MIN_BYTES 8.0
#define EX_GRAPH_MAX_RATE 8e6
bool ex_sym_hopeless(const ex_sym_forest *f, const pn_budget *budget, uint32_t threads);

#ifdef __cplusplus
}
#endif
#endif
