/* The MCC's generic properties of a net (GenericPropertiesDefinition.xml):
 * the structural ones, read off the arcs, and the behavioural ones, each
 * decided through the examination driver (examine.h) within a budget or
 * left unknown. A net unfolded from a coloured one is judged on its P/T
 * places and transitions, as the MCC's verdict files judge a coloured model
 * (one file serves the model's coloured and P/T instances, and 9 of the 10
 * coloured models of ../shared/mcc state SAFE of the P/T nets, e.g.
 * DrinkVendingMachine: "the unfolded place-transition nets are deemed to
 * be safe"; DatabaseWithMutex alone states it of the coloured net). */
#ifndef PETREL_PROPS_H
#define PETREL_PROPS_H

#include <stdint.h>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/examine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pn_prop {
    /* structural */
    PN_PROP_ORDINARY,
    PN_PROP_SIMPLE_FREE_CHOICE,
    PN_PROP_EXTENDED_FREE_CHOICE,
    PN_PROP_STATE_MACHINE,
    PN_PROP_MARKED_GRAPH,
    PN_PROP_CONNECTED,
    PN_PROP_STRONGLY_CONNECTED,
    PN_PROP_SOURCE_PLACE,
    PN_PROP_SINK_PLACE,
    PN_PROP_SOURCE_TRANSITION,
    PN_PROP_SINK_TRANSITION,
    PN_PROP_LOOP_FREE,
    PN_PROP_CONSERVATIVE,
    PN_PROP_SUBCONSERVATIVE,
    PN_PROP_NESTED_UNITS,
    /* behavioural */
    PN_PROP_SAFE,
    PN_PROP_DEADLOCK,
    PN_PROP_REVERSIBLE,
    PN_PROP_QUASI_LIVE,
    PN_PROP_LIVE,
    PN_PROP_DEAD_PLACES,
    PN_PROP_DEAD_TRANSITIONS,
    PN_PROP_COUNT,
    PN_PROP_UNKNOWN = PN_PROP_COUNT
} pn_prop;

#define PN_PROP_FIRST_BEHAVIOURAL PN_PROP_SAFE

/* One property's value: TRUE, FALSE or UNKNOWN (never VALUE), what decided
 * it (pn_technique bits; 0 for the structural ones) and, for a behavioural
 * one proved by a reachable marking with traces asked for, the firing
 * sequence from the initial marking (transition indices; NULL: none). */
typedef struct pn_prop_value {
    pn_verdict verdict;
    uint32_t techniques;
    uint32_t *trace;
    uint64_t trace_len;
} pn_prop_value;

typedef struct pn_props {
    pn_prop_value v[PN_PROP_COUNT];
    bool explored;        /* some exploration ran (PARALLEL_PROCESSING ...) */
    uint32_t threads;
    /* Optional, set by the caller: told of each behavioural property the
     * moment it is decided, from the thread that called
     * pn_props_behavioural (the CLI's watchdog keeps a copy). */
    void (*on_decide)(void *ctx, pn_prop p, pn_verdict v);
    void *on_decide_ctx;
} pn_props;

const char *pn_prop_name(pn_prop p);
pn_prop pn_prop_parse(const char *name);

/* The structural properties of cn (exact; NESTED_UNITS is TRUE when the
 * PNML carried a NUPN, else UNKNOWN). On an unfolded net from which the
 * unfolding dropped never-markable places or never-enabled transitions,
 * the structure of the P/T twin is not the one at hand: they stay UNKNOWN.
 * PN_ERR_NOMEM only. */
pn_status pn_props_structural(const pn_cnet *cn, pn_props *out, pn_error *err);

/* The behavioural properties, each through pn_examine with a share of the
 * budget's time (SAFE as OneSafe, DEADLOCK as ReachabilityDeadlock,
 * QUASI_LIVE and DEAD_TRANSITIONS as QuasiLiveness, LIVE as Liveness, on
 * the P/T net even when it was unfolded; REVERSIBLE as the CTL formula
 * A G E F (marking = m0); DEAD_PLACES as E F (p >= 1) per place), with
 * the sound shortcuts between them (a deadlock other than m0 refutes
 * LIVE and REVERSIBLE, ...). opts: threads, engine, diag, no_reduce and
 * keep_parents (traces) as for an examination. */
pn_status pn_props_behavioural(const pn_cnet *cn, const pn_examine_opts *opts,
                               pn_budget *budget, pn_props *out, pn_error *err);

void pn_props_free(pn_props *p);

#ifdef __cplusplus
}
#endif
#endif
