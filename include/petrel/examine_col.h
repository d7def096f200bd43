/* Examinations on nets unfolded from coloured ones. Formula examinations
 * need nothing special (formulas name coloured ids, which the formula
 * reader binds to their unfolded nodes), but the MCC defines OneSafe,
 * QuasiLiveness, StableMarking and Liveness of a coloured net on its
 * coloured places and transitions: a coloured place is one-safe (stable)
 * when the sum over its colours is at most 1 (constant), a coloured
 * transition is quasi-live (live) when some binding of it is. */
#ifndef PETREL_EXAMINE_COL_H
#define PETREL_EXAMINE_COL_H

#include "petrel/examine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pn_examine for any net: a P/T net, ReachabilityDeadlock and the formula
 * examinations go straight to pn_examine; the four global properties above
 * on an unfolded net are rewritten into formulas over the coloured groups
 * (net.h) and answered as one verdict named after the examination. Same
 * contract as pn_examine. */
pn_status pn_examine_coloured(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                              const pn_engine_opts *opts, pn_check **check,
                              pn_engine_result *res, FILE *diag, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
