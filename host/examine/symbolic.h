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

/* Within share_of_left of the time left: the reachable set (within half
 * of that share, else nothing), then every open answer of c in turn, each
 * with an equal part of what is left, then the ones still open with all of
 * it. E F / A G targets and bounds are read off the set; with ctl, the
 * other formulas of set (may be NULL) are CTL formulas and checked as
 * such. Decides answers in c (DECISION_DIAGRAMS); verbose (may be NULL)
 * gets a line per answer. */
void ex_symbolic(const pn_cnet *cn, const pn_fml_set *set, bool ctl, const pn_budget *budget,
                 double share_of_left, FILE *verbose, pn_check *c);

#ifdef __cplusplus
}
#endif
#endif
