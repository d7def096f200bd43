/* Examinations on nets unfolded from coloured ones (global_col.c).
 * Formula examinations need nothing special (formulas name coloured ids,
 * which the formula reader binds to their unfolded nodes), but the MCC
 * defines OneSafe, QuasiLiveness, StableMarking and Liveness of a coloured
 * net on its coloured places and transitions: a coloured place is one-safe
 * (stable) when the sum over its colours is at most 1 (constant), a
 * coloured transition is quasi-live (live) when some binding of it is. The
 * driver rewrites those into formulas over the coloured groups (net.h),
 * examines them as pn_col_as(exam) and folds the verdicts into one. */
#ifndef PETREL_EXAMINE_GLOBAL_COL_H
#define PETREL_EXAMINE_GLOBAL_COL_H

#include "petrel/check.h"

/* True for the four global properties on an unfolded net. */
bool pn_col_rewritten(const pn_cnet *cn, pn_exam exam);
/* The formula examination the rewritten formulas are checked as. */
pn_exam pn_col_as(pn_exam exam);
/* The formulas, simplified: one (OneSafe), one per coloured place
 * (StableMarking) or transition (QuasiLiveness, Liveness). */
pn_status pn_col_build(const pn_net *net, pn_exam exam, pn_fml_set **out, pn_error *err);
/* The examination's one verdict from the formulas' answers. */
pn_verdict pn_col_fold(const pn_check *c, pn_exam exam);

#endif
