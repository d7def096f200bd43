/* The portfolio's decision-diagram step (symbolic.c): the open answers of
 * an examination on the MDD of the reachable markings. */
#ifndef PETREL_EXAMINE_SYMBOLIC_H
#define PETREL_EXAMINE_SYMBOLIC_H

#include <stdbool.h>
#include <stdio.h>

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
 * of that share, else nothing), then every open answer of c in turn, each
 * with an equal part of what is left, then the ones still open with all of
 * it. E F / A G targets and bounds are read off the set; the other
 * formulas of set (may be NULL) are checked as `logic` says. Decides
 * answers in c (DECISION_DIAGRAMS); verbose (may be NULL) gets a line per
 * answer. */
void ex_symbolic(const pn_cnet *cn, const pn_fml_set *set, ex_sym_logic logic,
                 const pn_budget *budget, double share_of_left, FILE *verbose, pn_check *c);

#ifdef __cplusplus
}
#endif
#endif
