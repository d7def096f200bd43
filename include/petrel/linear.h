/* The linear layer: decides reachability answers (E F phi, A G phi) and
 * proves place bounds with the state equation, refined by traps, before any
 * exploration (see docs/linear.md). Every verdict is exact: infeasibility
 * and optima are certified by GLPK's rational simplex or decided by Z3's
 * exact arithmetic, witnesses are real firing sequences checked with the
 * reference evaluator. */
#ifndef PETREL_LINEAR_H
#define PETREL_LINEAR_H

#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_linear_opts {
    /* Deadline and cancel flag for the whole layer (may be NULL); with no
     * deadline it stops after 20 s, leaving the rest to the exploration. */
    const pn_budget *budget;
    FILE *verbose;               /* optional: one line per answer it tried */
    uint32_t max_cubes;          /* DNF cubes per formula; 0: 64 */
    /* No firing sequences: only what the state equation, traps and
     * invariants prove (E F false, A G true); for questions whose
     * witnesses nobody needs (the CTL simplification's). */
    bool proofs_only;
    /* Keep the firing sequence of each witness found (pn_check_set_path),
     * for --trace. */
    bool trace;
    /* No SMT check (Z3) of what the cut DNF leaves open: the LP alone,
     * for comparisons and tests. */
    bool no_smt;
} pn_linear_opts;

/* What it proves goes into c: pn_check_decide_target for E F / A G
 * answers, pn_check_bound_limit for bounds (answered at once when a
 * realised firing sequence reaches the bound). Failures to decide are not
 * errors; only PN_ERR_NOMEM is returned, with c still consistent. */
pn_status pn_linear_decide(const pn_cnet *cn, pn_check *c, const pn_linear_opts *o,
                           pn_error *err);

/* Whether every run of cn, from any marking, is finite (*out), proven by
 * place weights that every transition lowers (lin_terminate.c, checked
 * exactly); false also when the budget ran out (b may be NULL: no limits).
 * PN_OK or PN_ERR_NOMEM. */
pn_status pn_linear_terminates(const pn_cnet *cn, const pn_budget *b, bool *out, pn_error *err);

/* Whether every transition of cn is live (*out), proven structurally: an
 * ordinary free-choice net whose every non-empty siphon contains a trap
 * marked at m0 (Commoner's theorem); false also when not proven within
 * budget. PN_OK. */
pn_status pn_linear_live(const pn_cnet *cn, const pn_budget *budget, bool *out, pn_error *err);

/* The transitions that can never fire again from a marking m: those that
 * take from the largest siphon among the places m leaves empty (a siphon
 * empty at m stays empty: whatever would put a token into it takes one
 * from it first). An index over the net's places, built once; the test is
 * const and thread-safe. */
typedef struct pn_dying pn_dying;
pn_status pn_dying_new(const pn_cnet *cn, pn_dying **out, pn_error *err);
/* Sets dead[t] (n_transitions bytes) for each transition dead from m (a
 * marking over cn's places); returns how many, UINT32_MAX when out of
 * memory (dead[] then means nothing). */
uint32_t pn_dying_at(const pn_dying *d, const uint64_t *m, uint8_t *dead);
void pn_dying_free(pn_dying *d);

/* Bounds on StateSpace's maxima without the state space (lin_space.c),
 * for a run whose exploration does not end, each as {reached, upper}:
 * place[] on MAX_TOKEN_IN_PLACE, marking[] on MAX_TOKEN_PER_MARKING.
 * Upper: the P-semiflows' place bounds; the initial tokens of a net whose
 * every transition keeps the count; the state equation's (the linear
 * layer's UpperBounds, on the sum of every place and on each place no
 * semiflow bounds, up to 256 of them). Reached: the largest a firing
 * sequence of the linear layer reaches (0: none). UINT64_MAX: no upper
 * bound. A reached marking that meets an upper bound proves the value.
 * Within b. PN_OK or PN_ERR_NOMEM. */
pn_status pn_linear_space_maxima(const pn_cnet *cn, const pn_budget *b, uint64_t place[2],
                                 uint64_t marking[2], pn_error *err);

/* The examinations it can help: ReachabilityCardinality, ...Fireability,
 * UpperBounds, ReachabilityDeadlock (E F deadlock; its DNF keeps at most
 * max_cubes cubes of "every transition disabled", an over-approximation,
 * and the SMT check takes the whole conjunction). */
bool pn_linear_applies(pn_exam exam);

#ifdef __cplusplus
}
#endif
#endif
