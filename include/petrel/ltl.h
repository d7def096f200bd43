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
    /* The automaton as translated, before ltl_buchi_reduce (on-the-fly
     * check only; the graph check does not reduce). */
    uint32_t raw_states, raw_edges;
} pn_ltl_stats;

/* phi: the property root, A(psi). PN_ERR_UNSUPPORTED when it is not of
 * that shape or the automaton would exceed its size limit. stats may be
 * NULL. */
pn_status pn_ltl_check(pn_ctl_model *m, const pn_fml_node *phi, bool *value,
                       pn_ltl_stats *stats, pn_error *err);

/* The on-the-fly check (host/logic/ltl_otf.c): the product of the automaton with
 * the net's states, generated as the search needs them, searched with
 * Couvreur's SCC algorithm; it stops at the first accepting cycle, so a
 * FALSE answer rarely needs the whole state space. A pn_ltl_lazy keeps the
 * net states and successor lists discovered so far, shared by the formulas
 * of one examination. pn_budget_memory(budget), read once (budget may be
 * NULL: none), bounds the net states and the product together. */
typedef struct pn_ltl_lazy pn_ltl_lazy;

pn_status pn_ltl_lazy_new(const pn_cnet *cn, const pn_budget *budget, pn_ltl_lazy **out,
                          pn_error *err);
void pn_ltl_lazy_free(pn_ltl_lazy *z);
uint64_t pn_ltl_lazy_states(const pn_ltl_lazy *z);
uint64_t pn_ltl_lazy_edges(const pn_ltl_lazy *z);

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
pn_status pn_ltl_check_otf(pn_ltl_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                           bool *value, pn_ltl_stats *stats,
                           pn_ltl_lasso *lasso, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
