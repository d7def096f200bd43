/* CTL on the MDD of the reachable markings (space/mdd.h): the textbook
 * fixed points of E. M. Clarke, E. A. Emerson, A. P. Sistla, "Automatic
 * verification of finite-state concurrent systems using temporal logic
 * specifications", TOPLAS 1986, on sets (K. L. McMillan, "Symbolic Model
 * Checking", 1993), under the MCC's maximal-path semantics that the graph
 * checker (ctl.c) implements: EX is FALSE and AX TRUE at a deadlock, a
 * deadlock joins A[a U b] only through b, EG a holds at a deadlock where a
 * does (docs/semantics.md). */
#ifndef PETREL_LOGIC_CTL_MDD_H
#define PETREL_LOGIC_CTL_MDD_H

#include <stdbool.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/formula.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_ctl_mdd pn_ctl_mdd;

/* The forest of cn (its places in the net's order) and the set of the
 * markings reachable from cn->m0, within budget (borrowed until the next
 * call). PN_ERR_TIMEOUT, PN_ERR_OUT_OF_MEMORY, ... when the set could not
 * be built; *out is then NULL. */
pn_status pn_ctl_mdd_new(const pn_cnet *cn, const pn_budget *budget, pn_ctl_mdd **out,
                         pn_error *err);
/* The value of CTL formula phi at m0, within budget (borrowed until the
 * next call); the forest's nodes and caches stay, and so do the sets of
 * phi's temporal sub-formulas and fireability atoms: a later call for phi
 * (after a time limit) resumes from those it finished, and a formula that
 * has an equal sub-formula (pn_fml_equal) pays nothing for it. phi must
 * outlive s. PN_ERR_UNSUPPORTED for an atom this checker has
 * no set for (actions, bounds, counts beyond 2^62). */
pn_status pn_ctl_mdd_check(pn_ctl_mdd *s, const pn_fml_node *phi, const pn_budget *budget,
                           bool *value, pn_error *err);
/* The value of LTL formula phi (A of a path formula over state formulas)
 * at m0, within budget: the product of the reachable set with the
 * generalised Büchi automaton of its negation (the one the explicit
 * product uses), one set of markings per automaton state, and the
 * Emerson-Lei fixed point of its fair states (E. A. Emerson, C.-L. Lei,
 * "Efficient model checking in fragments of the propositional mu-calculus",
 * LICS 1986). A deadlock repeats forever (docs/semantics.md). FALSE when an
 * initial product state is fair. */
pn_status pn_ctl_mdd_ltl(pn_ctl_mdd *s, const pn_fml_node *phi, const pn_budget *budget,
                         bool *value, pn_error *err);
/* Whether some (*some) and whether every (*all) reachable marking
 * satisfies state formula phi, within budget: E F phi and A G phi. */
pn_status pn_ctl_mdd_reach(pn_ctl_mdd *s, const pn_fml_node *phi, const pn_budget *budget,
                           bool *some, bool *all, pn_error *err);
/* The largest token sum of places[0..n) (each counted as often as it is
 * listed) over the reachable markings: an UpperBounds value. */
pn_status pn_ctl_mdd_bound(pn_ctl_mdd *s, const uint32_t *places, uint32_t n, uint64_t *max,
                           pn_error *err);
/* The budget the forest's own work (bounds' memos) keeps until the next
 * call that takes one; NULL: none. */
void pn_ctl_mdd_set_budget(pn_ctl_mdd *s, const pn_budget *budget);
/* Sub-formula sets kept by pn_ctl_mdd_check (until a collection that
 * follows a stop for memory drops them). */
uint32_t pn_ctl_mdd_kept(const pn_ctl_mdd *s);
/* The forest and *reach its set of reachable markings, for the readers
 * that count on it (StateSpace). */
struct pn_mdd *pn_ctl_mdd_forest(pn_ctl_mdd *s, uint32_t *reach);
/* Reachable markings, and the forest's nodes. */
double pn_ctl_mdd_states(pn_ctl_mdd *s);
uint64_t pn_ctl_mdd_nodes(const pn_ctl_mdd *s);
void pn_ctl_mdd_free(pn_ctl_mdd *s);

#ifdef __cplusplus
}
#endif
#endif
