/* Internal to host/: the on-the-fly product search (ltl.c) over the
 * on-demand space (petrel/lazy.h), plus the automaton reductions
 * (ltl_reduce.c). */
#ifndef PETREL_LTL_OTF_H
#define PETREL_LTL_OTF_H

#include <stdbool.h>
#include <stdint.h>

#include "logic/ltl_buchi.h"
#include "petrel/lazy.h"
#include "petrel/ltl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reductions that keep the language: states unreachable from an initial
 * state, states with a contradictory label, states from which no
 * accepting cycle is reachable, then the quotient by the coarsest
 * bisimulation that respects labels and acceptance. *out is new. */
pn_status ltl_buchi_reduce(const ltl_buchi *b, ltl_buchi **out, pn_error *err);

/* What the products (explicit, ltl.c, and on decision diagrams,
 * ctl_mdd.c) read for phi = A psi: f gets the negation of psi in NNF and
 * its atoms, *raw its GPVW tableau (at most max_states nodes), *b the
 * reduced automaton. On failure what was made is still to be freed
 * (ltl_formula_free and ltl_buchi_free take empty ones). */
pn_status ltl_negation_automaton(const pn_fml_node *phi, uint32_t max_states,
                                 const pn_budget *budget, ltl_formula *f, ltl_buchi **raw,
                                 ltl_buchi **b, pn_error *err);

/* For letters read on steps (action-based LTL): b plus one new state, the
 * only initial one, with no label and no acceptance, whose successors are
 * b's initial states. The product starts in (initial state, new state) and
 * its first step reads the first action. *out is new. */
pn_status ltl_buchi_with_start(const ltl_buchi *b, ltl_buchi **out, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
