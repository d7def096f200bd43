/* LTL for the MCC's LTLCardinality / LTLFireability: A(psi) with psi a path
 * formula over state atoms. psi is negated and put in negation normal form,
 * translated to a generalised Büchi automaton with the tableau construction
 * of Gerth, Peled, Vardi and Wolper ("Simple on-the-fly automatic
 * verification of linear temporal logic", PSTV 1995), and the product with
 * the net's states is searched for a reachable accepting cycle.
 * Non-empty: A(psi) is FALSE.
 *
 * Finite maximal paths (ending in a deadlock) are extended by repeating the
 * deadlock state forever (docs/semantics.md). */
#ifndef PETREL_LTL_H
#define PETREL_LTL_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/ctl.h"
#include "petrel/lazy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_ltl_stats {
    uint32_t automaton_states, automaton_edges, acceptance_sets, atoms;
    uint64_t product_states;
    /* The automaton as translated, before ltl_buchi_reduce. */
    uint32_t raw_states, raw_edges;
} pn_ltl_stats;

/* phi: the property root, A(psi). PN_ERR_UNSUPPORTED when it is not of
 * that shape or the automaton would exceed its size limit. stats may be
 * NULL. */
pn_status pn_ltl_check(pn_ctl_model *m, const pn_fml_node *phi, bool *value,
                       pn_ltl_stats *stats, pn_error *err);

/* The product is searched on the fly (host/logic/ltl.c): the product
 * of the automaton with the net's states, generated as the search needs
 * them, searched with Couvreur's SCC algorithm; it stops at the first
 * accepting cycle, so a FALSE answer rarely needs the whole state space.
 * pn_ltl_check runs it over a fresh on-demand space of m->cn (m's budget;
 * the recorded graph is not used).
 * pn_ltl_check_otf runs it over an on-demand space (petrel/lazy.h) that
 * keeps the net states and successor lists discovered so far, shared by
 * the formulas of one examination; its memory budget bounds the net
 * states and the product together. No limit on atoms or acceptance sets. */

/* A counterexample to A(psi): the transitions of a path from the initial
 * marking (prefix entries) followed by a cycle that repeats forever (cycle
 * entries, at least one). UINT32_MAX stands for the stuttering step of a
 * deadlock. */
typedef struct pn_ltl_lasso {
    uint32_t *trans;
    uint64_t prefix, cycle;
} pn_ltl_lasso;

void pn_ltl_lasso_free(pn_ltl_lasso *l);

/* As pn_ltl_check, on the fly. budget (may be NULL) gives the deadline and
 * cancel flag: past them PN_ERR_TIMEOUT or PN_ERR_CANCELLED; past the lazy
 * space's memory, PN_ERR_OUT_OF_MEMORY; nothing is guessed. lasso (may be
 * NULL) receives a counterexample when *value is false. */
pn_status pn_ltl_check_otf(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                           bool *value, pn_ltl_stats *stats,
                           pn_ltl_lasso *lasso, pn_error *err);

/* Partial-order reduction for LTL without next: phi is A(psi) with psi
 * stutter-invariant as written (no X) over atoms the stubborn-set layer
 * reads (petrel/stubborn.h: no deadlock atom). Then pn_ltl_por_lazy_new
 * gives a fresh on-demand space over that layer with the cycle proviso,
 * on which pn_ltl_check_otf of phi answers as on the full space (a
 * stutter-equivalent reduced graph; host/space/stubborn.c, lazy.c). The
 * reduction depends on phi's atoms: the space serves phi only.
 * PN_ERR_UNSUPPORTED where it cannot reduce (phi not as above, or every
 * transition can change an atom). */
bool pn_ltl_por_applies(const pn_fml_node *phi);
pn_status pn_ltl_por_lazy_new(const pn_cnet *cn, const pn_fml_node *phi, uint64_t memory_budget,
                              pn_lazy **out, pn_error *err);

/* Action-based LTL (RERS, docs/semantics.md): A(psi) over the infinite
 * sequences of fired transitions, with atoms ACTION formulas (formula.h)
 * read on each step; a deadlock ends a finite trace, which violates
 * nothing (no stuttering). z must keep transitions (pn_lazy_keep_trans).
 * The lasso's entries are transitions (never UINT32_MAX). */
pn_status pn_ltl_check_actions(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                               bool *value, pn_ltl_stats *stats, pn_ltl_lasso *lasso,
                               pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
