/* StateSpace on decision diagrams (space_dd.c). */
#ifndef PETREL_EXAMINE_SPACE_DD_H
#define PETREL_EXAMINE_SPACE_DD_H

#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/engine.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The four StateSpace values of cn counted on the MDD of its reachable
 * markings, within budget: *res is a complete symbolic result (its
 * edges_text NULL when the edges could not be counted in time) or, when
 * the set did not close, left as it was. verbose: a line on how it ended
 * (NULL: silent). PN_OK unless out of memory outside the budget. */
pn_status ex_space_dd(const pn_cnet *cn, const pn_budget *budget, FILE *verbose,
                      pn_engine_result *res, pn_error *err);

#ifdef __cplusplus
}
#endif

#endif
