/* The MCC's examinations by name: what an answer board answers (check.c
 * names a global property's one answer after its examination) and what the
 * CLI reads on its command line and in BK_EXAMINATION. */
#include "petrel/mcc.h"

#include <string.h>

static const char *const exam_names[PN_EXAM_COUNT] = {
    [PN_EXAM_STATE_SPACE] = "StateSpace",
    [PN_EXAM_UPPER_BOUNDS] = "UpperBounds",
    [PN_EXAM_REACH_CARDINALITY] = "ReachabilityCardinality",
    [PN_EXAM_REACH_FIREABILITY] = "ReachabilityFireability",
    [PN_EXAM_CTL_CARDINALITY] = "CTLCardinality",
    [PN_EXAM_CTL_FIREABILITY] = "CTLFireability",
    [PN_EXAM_LTL_CARDINALITY] = "LTLCardinality",
    [PN_EXAM_LTL_FIREABILITY] = "LTLFireability",
    [PN_EXAM_REACH_DEADLOCK] = "ReachabilityDeadlock",
    [PN_EXAM_ONE_SAFE] = "OneSafe",
    [PN_EXAM_QUASI_LIVENESS] = "QuasiLiveness",
    [PN_EXAM_LIVENESS] = "Liveness",
    [PN_EXAM_STABLE_MARKING] = "StableMarking",
};

pn_exam pn_exam_parse(const char *name)
{
    if (name == NULL)
        return PN_EXAM_UNKNOWN;
    for (int e = 0; e < PN_EXAM_COUNT; e++)
        if (strcmp(name, exam_names[e]) == 0)
            return (pn_exam)e;
    return PN_EXAM_UNKNOWN;
}

const char *pn_exam_name(pn_exam e)
{
    return e < PN_EXAM_COUNT ? exam_names[e] : "unknown";
}

const char *pn_exam_formula_file(pn_exam e)
{
    switch (e) {
    case PN_EXAM_UPPER_BOUNDS: return "UpperBounds.xml";
    case PN_EXAM_REACH_CARDINALITY: return "ReachabilityCardinality.xml";
    case PN_EXAM_REACH_FIREABILITY: return "ReachabilityFireability.xml";
    case PN_EXAM_CTL_CARDINALITY: return "CTLCardinality.xml";
    case PN_EXAM_CTL_FIREABILITY: return "CTLFireability.xml";
    case PN_EXAM_LTL_CARDINALITY: return "LTLCardinality.xml";
    case PN_EXAM_LTL_FIREABILITY: return "LTLFireability.xml";
    default: return NULL;
    }
}

bool pn_exam_on_coloured_ids(pn_exam e)
{
    return e != PN_EXAM_STATE_SPACE && e < PN_EXAM_COUNT;
}

bool pn_exam_is_global(pn_exam e)
{
    return e == PN_EXAM_REACH_DEADLOCK || e == PN_EXAM_ONE_SAFE ||
           e == PN_EXAM_QUASI_LIVENESS || e == PN_EXAM_LIVENESS ||
           e == PN_EXAM_STABLE_MARKING;
}
