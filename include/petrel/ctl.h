/* CTL model checking on the recorded state graph (graph.h): backward
 * fixpoints, linear in the graph, one satisfaction array per subformula.
 *
 * Semantics at a deadlock (a state without successor), as the MCC uses
 * them (docs/semantics.md): EX phi is FALSE and AX phi is TRUE there, and
 * the path operators range over maximal paths, so at a deadlock AF phi,
 * EG phi, E[a U b] and A[a U b] reduce to phi, phi, b and b. */
#ifndef PETREL_CTL_H
#define PETREL_CTL_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/graph.h"
#include "petrel/lazy.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pn_layout;

typedef struct pn_ctl_model {
    const pn_cnet *cn;
    pn_graph *graph;          /* predecessor lists are added on demand */
    const uint64_t *store;    /* packed states, by id */
    const struct pn_layout *layout; /* how they are packed (net/layout.h) */
    /* The deadline, cancel and drop flags, and the bytes for satisfaction
     * arrays and products (pn_budget_memory); NULL: no limits. Past the
     * deadline the checkers give up with PN_ERR_TIMEOUT (PN_ERR_CANCELLED),
     * past the memory with PN_ERR_OUT_OF_MEMORY. Not owned: the caller's
     * share for the formula in turn. */
    const pn_budget *budget;
} pn_ctl_model;

/* The truth of phi at the initial state (id 0). PN_ERR_UNSUPPORTED when phi
 * is not a CTL formula (a temporal operator not directly under A or E),
 * PN_ERR_OUT_OF_MEMORY when the arrays do not fit the budget. */
pn_status pn_ctl_check(pn_ctl_model *m, const pn_fml_node *phi, bool *value, pn_error *err);

/* As pn_ctl_check, locally (host/logic/ctl_otf.c): over the on-demand
 * space z, exploring only the states the answer needs; z keeps them for
 * the next formula. budget (may be NULL): past its deadline PN_ERR_TIMEOUT
 * (PN_ERR_CANCELLED); past z's memory budget PN_ERR_OUT_OF_MEMORY (then
 * free z, as after any failed pn_lazy_succ). Nothing is guessed. */
pn_status pn_ctl_check_otf(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                           bool *value, pn_error *err);

struct pn_ltl_lasso;
/* As pn_ctl_check_otf; trace (may be NULL; petrel/ltl.h): when phi is, under negations, an
 * until-shaped operator (E F, E U, A F, A U, and A G / E G as their
 * negations) whose search met its goal, the path from the initial state
 * that proves it: a witness of E F / E U / E G, a counterexample of A G /
 * A F / A U. prefix transitions, then cycle ones repeated (0: a finite
 * path; one UINT32_MAX entry: the path ends at a deadlock). trans is NULL
 * when there is none; free it with pn_ltl_lasso_free. */
pn_status pn_ctl_check_otf_trace(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                                 bool *value, struct pn_ltl_lasso *trace, pn_error *err);

/* The path that decided a root E[a U b] (EF b) or AG a: the transitions
 * from the initial state through a-states to a b-state, proving E[a U b]
 * TRUE (n may be 0: b holds there), or to a !a-state, proving AG a FALSE.
 * trans is malloc'd (free it); NULL for a root of another shape or the
 * other answer. The trace of pn_ctl_check_otf_trace, kept for these. */
typedef struct pn_ctl_witness {
    uint32_t *trans;
    uint64_t n;
} pn_ctl_witness;

pn_status pn_ctl_check_otf_witness(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                                   bool *value, pn_ctl_witness *w, pn_error *err);

/* Liveness: every transition is enabled in some state of every bottom SCC.
 * Iterative SCC decomposition (no recursion). */
pn_status pn_ctl_liveness(pn_ctl_model *m, bool *live, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
