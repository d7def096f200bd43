/* LTL in negation normal form and its translation to a generalised Büchi
 * automaton (GPVW tableau, PSTV 1995). Internal to host/ (ltl.c, tests). */
#ifndef PETREL_LTL_BUCHI_H
#define PETREL_LTL_BUCHI_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/error.h"
#include "petrel/formula.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { LT_TRUE, LT_FALSE, LT_AP, LT_NAP, LT_AND, LT_OR, LT_X, LT_U, LT_R } ltl_kind;

/* Hash-consed: equal subformulas share an index. AP/NAP: a = atom. */
typedef struct ltl_node {
    ltl_kind kind;
    uint32_t a, b;
} ltl_node;

typedef struct ltl_formula {
    ltl_node *n;
    uint32_t count, cap;
    const pn_fml_node **atoms;   /* the state subformulas, borrowed */
    uint32_t n_atoms, cap_atoms;
    uint32_t root;
} ltl_formula;

typedef struct ltl_lit {
    uint32_t atom;
    bool positive;
} ltl_lit;

/* States carry their labels (a conjunction of literals that the letter
 * read on entering the state must satisfy). A run starts in a state with
 * init set, reading the first letter. */
typedef struct ltl_buchi {
    uint32_t n_states, n_acc;
    uint32_t *succ_off, *succ;
    uint32_t *lit_off;
    ltl_lit *lit;
    uint8_t *init;
    uint8_t *acc;                /* acc[q * n_acc + i]: q is in set i */
} ltl_buchi;

/* psi (a path formula; negate: of its negation) in NNF. Atoms are the
 * maximal state subformulas. */
pn_status ltl_from_fml(const pn_fml_node *psi, bool negate, ltl_formula *f, pn_error *err);
void ltl_formula_free(ltl_formula *f);

/* PN_ERR_UNSUPPORTED when more than max_states tableau nodes arise;
 * budget (may be NULL): its deadline and cancel flag are polled. */
pn_status ltl_buchi_build(const ltl_formula *f, uint32_t max_states, const pn_budget *budget,
                          ltl_buchi **out, pn_error *err);
void ltl_buchi_free(ltl_buchi *b);

#ifdef __cplusplus
}
#endif
#endif
