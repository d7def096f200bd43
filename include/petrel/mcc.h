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
/* What the examination asks is said of a coloured net's places and
 * transitions as wholes (sums of tokens, fireability under some binding,
 * deadlocks): every examination but StateSpace, which counts the markings
 * and bounds single unfolded places (the MCC defines the global
 * properties on the coloured net: docs/architecture.md "Coloured nets"). */
bool pn_exam_on_coloured_ids(pn_exam e);

/* What decided an answer, as a set of TECHNIQUES keywords: each method that
 * decides answers (enumeration, the linear layer, a reduction, a walk...)
 * marks its own bit, so the line names what actually proved that value. */
typedef enum pn_technique {
    PN_TECH_EXPLICIT = 1u << 0,             /* an exploration of the state space */
    PN_TECH_LINEAR_EQUATIONS = 1u << 1,     /* the state equation (LP / ILP) */
    PN_TECH_TOPOLOGICAL = 1u << 2,          /* invariants, siphons and traps */
    PN_TECH_STRUCTURAL_REDUCTION = 1u << 3, /* answered on a reduced net */
    PN_TECH_STUBBORN_SETS = 1u << 4,        /* partial-order reduction */
    PN_TECH_RANDOM_WALK = 1u << 5,          /* a random walk found the witness */
    PN_TECH_DECISION_DIAGRAMS = 1u << 6     /* a symbolic state space (MDDs) */
} pn_technique;

/* TECHNIQUES keywords for an answer decided by `techniques` (pn_technique
 * bits; 0 counts as PN_TECH_EXPLICIT). r (may be NULL: nothing explored)
 * adds PARALLEL_PROCESSING or SEQUENTIAL_PROCESSING to an explicit answer;
 * net (may be NULL) adds UNFOLDING_TO_PT when it was unfolded from a
 * coloured net. */
void pn_mcc_techniques(const pn_engine_result *r, const pn_net *net, uint32_t techniques,
                       char *buf, size_t len);

/* One STATE_SPACE value: its key ("STATES", ...), its decimal value
 * (NULL: unknown, CANNOT_COMPUTE; it may point into text, so read it where
 * pn_mcc_space_values wrote it, not from a copy) and its TECHNIQUES
 * keywords. */
typedef struct pn_mcc_space_value {
    const char *key;
    const char *value;
    char text[24];
    char techniques[128];
} pn_mcc_space_value;

/* The four StateSpace values of r, in the contest's order: those a complete
 * exploration or decision diagram counted, or, when it did not end, the
 * maxima proven by structure (a partial count proves nothing). The one
 * reading of r that the output and the verdict XML share. */
void pn_mcc_space_values(const pn_engine_result *r, const pn_net *net, pn_mcc_space_value v[4]);

/* The four STATE_SPACE lines (pn_mcc_space_values), or a bare
 * CANNOT_COMPUTE when none is known. */
void pn_mcc_print_state_space(FILE *out, const pn_engine_result *r, const pn_net *net);

/* FORMULA <id> <value> TECHNIQUES ..., or FORMULA <id> CANNOT_COMPUTE when
 * value is NULL. */
void pn_mcc_print_formula(FILE *out, const char *id, const char *value,
                          const char *techniques);

#ifdef __cplusplus
}
#endif
#endif
