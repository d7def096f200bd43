/* Structural reductions: a smaller net that answers an examination's
 * formulas the same way, with the formulas rewritten onto it.
 *
 * The rules (host/reduce/reduce.c, reduce_implicit.c, reduce_lp.c,
 * reduce_dup.c) keep the reachable markings projected on the observed
 * places, the enabledness of every transition a formula or a deadlock atom
 * reads, and the maximal paths up to the removed places, so the reduced
 * net answers reachability
 * (EF/AG), ReachabilityDeadlock, UpperBounds, LTL and CTL like the original
 * (the projection onto the kept places is a functional bisimulation);
 * the null-transition rule only keeps the reachable markings projected on
 * the observed places (and the deadlocks): it serves pure reachability and
 * UpperBounds only; the pre- and post-agglomerations (reduce_agglo.c) keep
 * those and the deadlocks, and the runs up to stuttering: they also serve
 * ReachabilityDeadlock, and LTL and CTL formulas without X nor deadlock
 * atoms (CTL: post-agglomeration with one consumer). StateSpace (its edge count) is
 * not reduced. Traces on the reduced net map back onto the
 * original (pn_reduce_expand). */
#ifndef PETREL_REDUCE_H
#define PETREL_REDUCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/mcc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per rule: what it removed (summed over the fixpoint's rounds). */
typedef enum pn_reduce_rule {
    PN_RED_CONSTANT_PLACE,   /* places no transition changes */
    PN_RED_DEAD_TRANSITION,  /* needs more than a never-increased place holds */
    PN_RED_DUPLICATE_TRANS,  /* same pre and post as a kept one */
    PN_RED_SINK_PLACE,       /* no transition consumes from it, no formula reads it */
    PN_RED_NULL_TRANSITION,  /* no effect (reachability without deadlock atoms only) */
    PN_RED_POST_AGGLOMERATION, /* a place and its consumers fused into its producers
                                  (not with X, deadlock or action atoms in LTL/CTL) */
    PN_RED_DEAD_LP,          /* never enabled by the state equation (certified LP) */
    PN_RED_PRE_AGGLOMERATION, /* a place and its one producer fused into its consumers
                                 (as post-agglomeration) */
    PN_RED_DEAD_SIPHON,      /* takes from a siphon empty at m0 */
    PN_RED_IMPLICIT_PLACE,   /* never disables: another place dominates it */
    PN_RED_CONE,             /* places and transitions outside the cone of influence of
                                what the formulas read (pure reachability and bounds only) */
    PN_RED_RULE_COUNT
} pn_reduce_rule;

typedef struct pn_reduce_opts {
    const pn_budget *budget;  /* NULL: no limit; the fixpoint stops when it expires */
    FILE *verbose;            /* NULL: silent; else one line per rule */
    double dead_lp_share;     /* the share of the budget for the state-equation rule (dead
                                 transitions); 0: a tenth */
    bool one_dead_answers;    /* the formulas are E F fireable(t), one per transition
                                 (QuasiLiveness, Liveness): a dead transition answers the
                                 property, so that rule stops at the first */
    bool no_dead_tests;       /* skip the siphon and state-equation rules: cn was reduced
                                 with them already (a formula's own net from the joint one) */
} pn_reduce_opts;

/* times firings of original transition t. */
typedef struct pn_red_step {
    uint32_t t;
    uint64_t times;
} pn_red_step;

typedef struct pn_reduced {
    pn_net *net;              /* the reduced net (ids and names of the kept nodes) */
    pn_cnet *cn;              /* compiled */
    pn_fml_set *set;          /* the formulas on net; NULL when the input set was */
    /* Reduced transition u fires as the original's word
     * word[word_off[u] .. word_off[u + 1]) (pn_reduce_expand). */
    uint32_t *word_off;
    pn_red_step *word;
    uint32_t removed[PN_RED_RULE_COUNT];
    uint32_t places_before, transitions_before;
    uint32_t rounds;
    double seconds;
} pn_reduced;

/* True when pn_reduce preserves exam's answers (the property classes above). */
bool pn_reduce_applies(pn_exam exam);

/* Reduces cn for exam's formulas set (NULL: a global property, e.g.
 * ReachabilityDeadlock). *out is a new pn_reduced even when nothing was
 * removed (then its net has the original's size); PN_ERR_NOMEM, a compile
 * failure or PN_ERR_OUT_OF_MEMORY (a net too large for the memory the
 * budget leaves: nothing is tried) leave *out NULL. */
pn_status pn_reduce(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                    const pn_reduce_opts *o, pn_reduced **out, pn_error *err);
/* The longest trace pn_reduce_expand writes. */
#define PN_RED_EXPAND_MAX (1u << 26)

/* The firing sequence trans[0..n) of r's net as one of the original net
 * (*out malloc'd, *n_out long): each reduced transition replaced by its
 * word. The original fires it from its initial marking whenever the
 * reduced net fires trans, and reaches a marking equal on r's places
 * (every rule's words are fireable sequences, see reduce_build.c).
 * UINT32_MAX (a lasso's deadlock step) is copied as is: the rules keep the
 * deadlocks. */
pn_status pn_reduce_expand(const pn_reduced *r, const uint32_t *trans, uint64_t n,
                           uint32_t **out, uint64_t *n_out, pn_error *err);
/* True when anything was removed. */
bool pn_reduce_changed(const pn_reduced *r);
void pn_reduced_free(pn_reduced *r);

#ifdef __cplusplus
}
#endif
#endif
