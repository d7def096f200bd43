/* LTL for the MCC's LTLCardinality / LTLFireability: A(psi) with psi a path
 * formula over state atoms. psi is negated and put in negation normal form,
 * translated to a generalised Büchi automaton with the tableau construction
 * of Gerth, Peled, Vardi and Wolper ("Simple on-the-fly automatic
 * verification of linear temporal logic", PSTV 1995), and the product with
 * the recorded state graph is searched for a reachable strongly connected
 * component that is non-trivial and meets every acceptance set (an
 * iterative Tarjan search). Non-empty: A(psi) is FALSE.
 *
 * Finite maximal paths (ending in a deadlock) are extended by repeating the
 * deadlock state forever (docs/semantics.md). */
#ifndef PETREL_LTL_H
#define PETREL_LTL_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/ctl.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_ltl_stats {
    uint32_t automaton_states, automaton_edges, acceptance_sets, atoms;
    uint64_t product_states;
} pn_ltl_stats;

/* phi: the property root, A(psi). PN_ERR_UNSUPPORTED when it is not of
 * that shape or the automaton would exceed its size limit. stats may be
 * NULL. */
pn_status pn_ltl_check(pn_ctl_model *m, const pn_fml_node *phi, bool *value,
                       pn_ltl_stats *stats, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
