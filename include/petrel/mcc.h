/* The MCC protocol: examination names and the result lines Petrel prints on
 * standard output (see docs/architecture.md and the MCC rules). */
#ifndef PETREL_MCC_H
#define PETREL_MCC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "petrel/engine.h"
#include "petrel/net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pn_exam {
    PN_EXAM_STATE_SPACE,
    PN_EXAM_UPPER_BOUNDS,
    PN_EXAM_REACH_CARDINALITY,
    PN_EXAM_REACH_FIREABILITY,
    PN_EXAM_CTL_CARDINALITY,
    PN_EXAM_CTL_FIREABILITY,
    PN_EXAM_LTL_CARDINALITY,
    PN_EXAM_LTL_FIREABILITY,
    PN_EXAM_REACH_DEADLOCK,
    PN_EXAM_ONE_SAFE,
    PN_EXAM_QUASI_LIVENESS,
    PN_EXAM_LIVENESS,
    PN_EXAM_STABLE_MARKING,
    PN_EXAM_COUNT,
    PN_EXAM_UNKNOWN = PN_EXAM_COUNT
} pn_exam;

pn_exam pn_exam_parse(const char *name);
const char *pn_exam_name(pn_exam e);
/* "ReachabilityCardinality.xml" for formula examinations, else NULL. */
const char *pn_exam_formula_file(pn_exam e);
/* Global properties answer one line named after the examination. */
bool pn_exam_is_global(pn_exam e);

/* TECHNIQUES keywords for what an exploration actually used; net (may be
 * NULL) adds UNFOLDING_TO_PT when it was unfolded from a coloured net. */
void pn_mcc_techniques(const pn_engine_result *r, const pn_net *net, char *buf,
                       size_t len);

/* The four STATE_SPACE lines when the exploration completed, else
 * CANNOT_COMPUTE: a partial count proves nothing. */
void pn_mcc_print_state_space(FILE *out, const pn_engine_result *r, const pn_net *net);

/* FORMULA <id> <value> TECHNIQUES ..., or FORMULA <id> CANNOT_COMPUTE when
 * value is NULL. */
void pn_mcc_print_formula(FILE *out, const char *id, const char *value,
                          const char *techniques);

#ifdef __cplusplus
}
#endif
#endif
