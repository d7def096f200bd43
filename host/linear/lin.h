/* Private parts of the linear layer (see include/petrel/linear.h): linear
 * constraints over markings, the state-equation LP, traps and the guided
 * firing of an LP solution. */
#ifndef PETREL_LIN_H
#define PETREL_LIN_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "answers/fire_seq.h"

/* Coefficients and constants the LP may hold: integers a double represents
 * exactly (GLPK reads doubles; glp_exact turns them into rationals). */
#define LIN_EXACT_MAX ((int64_t)1 << 52)

/* sum_k coef[k] * m(place[k]) <= rhs */
typedef struct lin_cons {
    uint32_t n;
    uint32_t *place;
    int64_t *coef;
    int64_t rhs;
} lin_cons;

/* A disjunction of cubes, each a conjunction of constraints (indices into
 * cons). It over-approximates the formula it came from: every marking with
 * the formula satisfies some cube. */
typedef struct lin_dnf {
    uint32_t n_cons, cap_cons;
    lin_cons *cons;
    uint32_t n_cubes;
    uint32_t *cube_off;   /* n_cubes + 1 */
    uint32_t *cube_cons;
    bool exact;           /* nothing was over-approximated: each cube implies the formula */
} lin_dnf;

/* The DNF of phi (negated when neg) with at most max_cubes cubes; PN_OK
 * or PN_ERR_NOMEM. */
pn_status lin_dnf_build(const pn_fml_node *phi, bool neg, const pn_cnet *cn, uint32_t max_cubes,
                        lin_dnf **out, pn_error *err);
void lin_dnf_free(lin_dnf *d);

/* ---- the state equation m = m0 + C x, m >= 0, x >= 0 (lin_lp.c) ---- */
typedef struct lin_lp lin_lp;
typedef enum lin_result {
    LIN_UNKNOWN,      /* out of time, numerical trouble, too large */
    LIN_INFEASIBLE,   /* certified by the exact simplex */
    LIN_FEASIBLE,     /* the floating-point simplex found a solution */
    LIN_OPTIMAL,      /* certified optimum (lin_lp_maximise) */
    LIN_UNBOUNDED
} lin_result;

/* Whether a solver's model of cn fits the budget's memory: fixed bytes and
 * per_element bytes per place, transition and change of the incidence
 * matrix; else PN_ERR_OUT_OF_MEMORY naming what (about N MB against the MB
 * left). PN_OK also without a memory limit. */
pn_status lin_fits(const pn_cnet *cn, const pn_budget *b, uint64_t fixed, uint64_t per_element,
                   const char *what, pn_error *err);

/* PN_ERR_UNSUPPORTED when a count or weight is beyond LIN_EXACT_MAX;
 * PN_ERR_OUT_OF_MEMORY when GLPK's problem would not fit the memory the
 * budget b leaves (GLPK allocates on its own and has no limit that does not
 * abort the process: the size is estimated first). */
pn_status lin_lp_new(const pn_cnet *cn, const pn_budget *b, lin_lp **out, pn_error *err);
void lin_lp_free(lin_lp *lp);
/* Adds constraints for good (every reachable marking satisfies them);
 * false when a coefficient is too large (nothing added). */
bool lin_lp_add_fixed(lin_lp *lp, const lin_cons *c);
/* Is the state equation with cons[idx[0..n)] feasible? x (n_transitions,
 * may be NULL) gets the solution when LIN_FEASIBLE. LIN_UNKNOWN once the
 * budget is spent (GLPK gets the seconds left of it: it cannot be stopped
 * while it runs). */
lin_result lin_lp_solve(lin_lp *lp, const lin_cons *cons, const uint32_t *idx, uint32_t n,
                        const pn_budget *b, double *x);
/* Maximises the token sum of places[0..n) (each counted as often as it is
 * listed); LIN_OPTIMAL with *bound the floor of the exact optimum. */
lin_result lin_lp_maximise(lin_lp *lp, const uint32_t *places, uint32_t n, const pn_budget *b,
                           uint64_t *bound, double *x);

/* lin_lp_solve with "sum of places[0..n) >= bound": LIN_INFEASIBLE
 * certifies that every solution has sum <= bound - 1, LIN_FEASIBLE gives
 * the fewest firings that reach it. lin_lp_maximise's LIN_OPTIMAL is only
 * a candidate until its bound + 1 is certified this way. */
lin_result lin_lp_at_least(lin_lp *lp, const uint32_t *places, uint32_t n, uint64_t bound,
                           const pn_budget *b, double *x);

/* ---- the state equation and a whole formula in SMT (lin_smt.c) ---- */
typedef struct lin_smt lin_smt;
/* m = m0 + C x with integer markings, rational firing counts; PN_ERR_NOMEM
 * (or PN_ERR_UNSUPPORTED for a net beyond the solver's indices, or
 * PN_ERR_OUT_OF_MEMORY when Z3's context would not fit the memory the
 * budget b leaves: the size is estimated first). */
pn_status lin_smt_new(const pn_cnet *cn, const pn_budget *b, lin_smt **out, pn_error *err);
void lin_smt_free(lin_smt *s);
/* Is the state equation with phi (its negation when neg) and the traps
 * added so far satisfiable? LIN_INFEASIBLE is exact; LIN_FEASIBLE fills x
 * (n_transitions, may be NULL) with the solution's firing counts;
 * LIN_UNKNOWN once the budget is spent, when the formula would not fit its
 * memory, or on a solver error (Z3 gets the seconds left of it, and the
 * memory as its own limit). */
lin_result lin_smt_solve(lin_smt *s, const pn_fml_node *phi, bool neg, const pn_budget *b,
                         double *x);
/* Adds "the places with in[p] hold a token" for good (a trap marked at
 * m0); false when nothing was added. */
bool lin_smt_add_trap(lin_smt *s, const uint8_t *in);

/* ---- traps (lin_trap.c) ---- */
/* Shrinks in[p] (1: in the set) to the largest trap it contains; returns
 * its size. */
uint32_t lin_trap_max(const pn_cnet *cn, uint8_t *in);

/* ---- P-semiflows and what they prove (lin_invariant.c, lin_fold.c) ---- */
typedef struct lin_inv {
    uint32_t n_flows;          /* semiflows y >= 0, y C = 0, each verified */
    uint32_t *flow_off;        /* n_flows + 1 */
    uint32_t *flow_place;
    int64_t *flow_weight;      /* > 0 */
    uint64_t *ub;              /* per place: structural bound, UINT64_MAX: none */
    uint8_t *constant;         /* per place: no transition changes it */
    bool complete;             /* Farkas ran to the end (all minimal ones) */
    bool deadlock_free;        /* proven by lin_siphon_deadlock_free */
} lin_inv;

/* Farkas' algorithm until the budget is spent (time, cancel or drop);
 * giving up leaves fewer semiflows, never a wrong one. PN_OK or
 * PN_ERR_NOMEM. */
pn_status lin_inv_compute(const pn_cnet *cn, const pn_budget *b, lin_inv **out, pn_error *err);
void lin_inv_free(lin_inv *inv);

/* Shrinks in[] to the largest siphon inside it (every transition that
 * puts into the set takes from it), transitions with skip[t] (NULL: none)
 * left out as never firing; its size, UINT32_MAX when out of budget or
 * memory (in[] then means nothing). */
uint32_t lin_siphon_max(const pn_cnet *cn, const uint8_t *skip, uint8_t *in, const pn_budget *b);

/* Commoner's property on a net whose input arcs all have weight 1: true
 * when every siphon contains a trap marked at m0, so no reachable marking
 * is dead (lin_siphon.c); false: not proven (search bounded by the budget). */
bool lin_siphon_deadlock_free(const pn_cnet *cn, const pn_budget *b);
/* Every transition of cn is live: an ordinary free-choice net with
 * Commoner's property (lin_siphon.c); false: not proven. */
bool lin_siphon_live(const pn_cnet *cn, const pn_budget *b);

/* Is phi (a state formula) the same in every reachable marking, as far as
 * the invariants prove? Folds a copy's atoms with the structural bounds and
 * constant places, then pn_fml_simplify; *value 1 (true everywhere), 0
 * (false everywhere) or -1 (undecided). PN_OK or PN_ERR_NOMEM. */
pn_status lin_fold_state(const pn_fml_node *phi, const pn_cnet *cn, const lin_inv *inv,
                         int *value, pn_error *err);
/* The sum of the structural bounds of places[0..n) (each counted as often
 * as listed); UINT64_MAX: none. */
uint64_t lin_inv_bound(const lin_inv *inv, const uint32_t *places, uint32_t n);

/* ---- guided firing (lin_path.c) ---- */
/* Called on every marking reached (m0 included); true stops the walk. */
typedef bool (*lin_path_visit)(void *ctx, const uint64_t *m);
/* Fires transitions from m0, each at most round(x[t]) times, while one is
 * enabled; tries walks (the first in order, then random choices), max_steps
 * steps in all, until the budget is spent; *stopped when visit stopped one. fired
 * (NULL: none kept): the current walk's transitions, so once *stopped the
 * firing sequence from m0 to the marking visit stopped on. */
pn_status lin_path_walk(const pn_cnet *cn, const double *x, uint64_t max_steps, uint32_t tries,
                        const pn_budget *b, lin_path_visit visit, void *ctx, bool *stopped,
                        pn_fire_seq *fired, pn_error *err);

/* A uniform random walk from m0 (no solution to follow): tries restarts,
 * max_steps steps in all, until the budget is spent; fired as above; seen
 * (NULL: none) gets a 1 for each transition some marking met enables. A
 * step costs the transitions that read a place the last firing changed. */
pn_status lin_path_random(const pn_cnet *cn, uint64_t max_steps, uint32_t tries,
                          const pn_budget *b, lin_path_visit visit, void *ctx, bool *stopped,
                          pn_fire_seq *fired, uint8_t *seen, pn_error *err);

#endif
