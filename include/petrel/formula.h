/* MCC property formulas: the XML reader, the tree they become (bound to
 * place and transition indices of a net), a printer, a sound simplifier and
 * a reference evaluator on unpacked markings.
 *
 * Trees are individually allocated nodes; a node owns its children. The
 * builders below consume their node arguments even when they fail, and a
 * NULL argument makes them return NULL, so nested builder calls need only
 * one NULL check at the end. */
#ifndef PETREL_FORMULA_H
#define PETREL_FORMULA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/net.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pn_fml_kind {
    /* state atoms */
    PN_FML_TRUE,
    PN_FML_FALSE,
    PN_FML_DEADLOCK,     /* no transition is enabled */
    PN_FML_FIREABLE,     /* idx: transitions; true when any is enabled */
    PN_FML_INT_LE,       /* kids[0] <= kids[1], both integer expressions */
    /* boolean connectives */
    PN_FML_NOT,          /* 1 kid */
    PN_FML_AND,          /* n >= 1 kids */
    PN_FML_OR,           /* n >= 1 kids */
    /* path quantifiers and temporal operators: 1 kid, except U */
    PN_FML_A,
    PN_FML_E,
    PN_FML_X,
    PN_FML_F,
    PN_FML_G,
    PN_FML_U,            /* kids[0] U kids[1] (<before> U <reach>), strong */
    /* integer expressions */
    PN_FML_CONST,        /* value */
    PN_FML_TOKENS,       /* idx: places; the sum of their tokens, each entry
                            counted as often as it is listed */
    PN_FML_PLACE_BOUND,  /* idx: places; an UpperBounds formula root: the
                            maximum over reachable markings of their sum */
    /* action-based logic (RERS, petrel/rers.h) */
    PN_FML_ACTION        /* idx: transitions; the step being read is one of
                            them. A letter of the action-based LTL product,
                            or the step of an X in CTL (X (ACTION & f) is
                            <a> f); counted as a state formula, but no
                            state-based checker evaluates it (the state
                            formula compiler refuses it) */
} pn_fml_kind;

typedef struct pn_fml_node {
    pn_fml_kind kind;
    uint32_t n;                  /* entries in kids or idx */
    struct pn_fml_node **kids;   /* operators and INT_LE; else NULL */
    uint32_t *idx;               /* FIREABLE, TOKENS, PLACE_BOUND; else NULL */
    uint64_t value;              /* CONST */
} pn_fml_node;

typedef struct pn_fml_prop {
    char *id;                    /* the <id> text, surrounding space trimmed */
    pn_fml_node *root;           /* NULL when status != PN_OK */
    pn_status status;            /* PN_OK, or PN_ERR_INPUT: a name does not
                                    bind, answer CANNOT_COMPUTE */
    char *error;                 /* NULL iff status == PN_OK */
} pn_fml_prop;

typedef struct pn_fml_set {
    uint32_t n;
    pn_fml_prop *props;
    const pn_net *net;           /* borrowed: the names the printer uses */
} pn_fml_set;

/* ---- reading -------------------------------------------------------------
 * Malformed XML, an unknown element, a wrong number of children or a bad
 * constant fail the whole file with PN_ERR_INPUT (PN_ERR_IO when the file
 * cannot be read) and a message naming file, line and formula id; *out is
 * then NULL. A place or transition name the net does not have only marks
 * that property (status/error) and the rest load. */
pn_status pn_fml_read_file(const char *path, const pn_net *net,
                           pn_fml_set **out, pn_error *err);
/* label names the buffer in messages. */
pn_status pn_fml_read_memory(const char *buf, size_t len, const char *label,
                             const pn_net *net, pn_fml_set **out,
                             pn_error *err);
void pn_fml_set_free(pn_fml_set *set);

/* ---- writing (formula_write.c) -------------------------------------------
 * The properties of set that bound (status PN_OK) as an MCC property file
 * over net's ids, which pn_fml_read_file reads back to equal trees.
 * PN_ERR_IO when the file cannot be written; PN_ERR_UNSUPPORTED for an
 * action formula (RERS), which has no MCC element. */
pn_status pn_fml_write_file(const char *path, const pn_fml_set *set, const pn_net *net,
                            pn_error *err);

/* ---- building (formula.c) ------------------------------------------ */
/* TRUE, FALSE or DEADLOCK. */
pn_fml_node *pn_fml_leaf(pn_fml_kind kind);
pn_fml_node *pn_fml_const(uint64_t value);
/* FIREABLE, TOKENS, PLACE_BOUND or ACTION over a copy of idx[0..n), n >= 1. */
pn_fml_node *pn_fml_list(pn_fml_kind kind, const uint32_t *idx, uint32_t n);
/* NOT, A, E, X, F, G. */
pn_fml_node *pn_fml_unary(pn_fml_kind kind, pn_fml_node *a);
/* AND, OR, INT_LE, U. */
pn_fml_node *pn_fml_binary(pn_fml_kind kind, pn_fml_node *a, pn_fml_node *b);
/* AND or OR over kids[0..n), n >= 1; takes every kid, not the array. */
pn_fml_node *pn_fml_nary(pn_fml_kind kind, pn_fml_node **kids, uint32_t n);
pn_fml_node *pn_fml_clone(const pn_fml_node *n);
void pn_fml_free(pn_fml_node *n);
/* Same tree: same kinds, values, lists (in order) and children. */
bool pn_fml_equal(const pn_fml_node *a, const pn_fml_node *b);

/* ---- classification ----------------------------------------------------- */
bool pn_fml_is_int(const pn_fml_node *n);  /* CONST, TOKENS, PLACE_BOUND */
/* No quantifier and no temporal operator anywhere below: decided by one
 * marking (pn_fml_eval_state). */
bool pn_fml_is_state(const pn_fml_node *n);

typedef enum pn_fml_reach {
    PN_FML_REACH_NONE,
    PN_FML_REACH_EF,     /* E F phi: true iff some reachable marking has phi */
    PN_FML_REACH_AG      /* A G phi: true iff every reachable marking has phi */
} pn_fml_reach;
/* E F phi or A G phi with phi a state formula; *phi (may be NULL) gets phi,
 * borrowed from n, or NULL for PN_FML_REACH_NONE. */
pn_fml_reach pn_fml_reach_shape(const pn_fml_node *n, const pn_fml_node **phi);

/* ---- printing (formula_print.c) -----------------------------------------
 * Infix: AG((p1 + p2 <= 3) | !fireable(t1)), E(a U b), bound(p1, p2).
 * Names come from net, or read p#i / t#i when net is NULL. */
void pn_fml_print_node(FILE *f, const pn_fml_node *n, const pn_net *net);
/* One line: "<id>: <formula>" or "<id>: error: <message>". */
void pn_fml_print(FILE *f, const pn_fml_set *set, uint32_t i);
/* The pn_fml_print_node text, malloc'd; NULL when out of memory. */
char *pn_fml_to_string(const pn_fml_node *n, const pn_net *net);

/* ---- simplifying (formula_simplify.c) -----------------------------------
 * Rewrites *root into an equivalent formula with only provably sound rules
 * (constant folding, double negation, flattening, quantifiers over state
 * formulas, F/G/U over constants, FF = F, GG = G). Paths are maximal paths,
 * finite when they end in a deadlock, so every state starts at least one
 * path (A p = E p = p for a state formula p); X is never folded, since at a
 * deadlock EX true is false and AX false is true. On PN_ERR_NOMEM *root is
 * still a valid formula equivalent to the input. */
pn_status pn_fml_simplify(pn_fml_node **root, pn_error *err);
/* Every property whose status is PN_OK. */
pn_status pn_fml_set_simplify(pn_fml_set *set, pn_error *err);
/* pn_fml_simplify and sound CTL rules (formula_ctl.c), to a fixpoint:
 * negations pushed through quantified F, G, X; EF EF = EF, AG AG = AG,
 * AF AF = AF, EG EG = EG, EF AF = AF EF = EF, AG EG = EG AG = AG; AX / EX
 * over constants; E F over a disjunction and A G over a conjunction split
 * into reachability questions. For CTL formulas only (a path quantifier
 * over each temporal operator); the same guarantees on NOMEM. */
pn_status pn_fml_ctl_rewrite(pn_fml_node **root, pn_error *err);
/* Rules that hold when every run of the net is finite (pn_linear_terminates),
 * so every maximal path ends at a deadlock (formula_finite.c): with phi's
 * value at every deadlock known from its structure (fireable FALSE,
 * deadlock TRUE; CTL's EX FALSE, AX TRUE), Q F phi is TRUE where phi holds
 * at deadlocks and Q G phi FALSE where it fails there. ltl: F and G are
 * LTL's, unquantified, on paths whose deadlock repeats forever. Returns
 * the nodes folded to a constant (0 when out of memory). */
uint32_t pn_fml_fold_finite(pn_fml_node **root, bool ltl);
/* A state formula with n's value at every deadlock (ltl: LTL's reading,
 * the deadlock repeated); NULL for an action formula or out of memory. */
pn_fml_node *pn_fml_at_deadlock(const pn_fml_node *n, bool ltl);
/* The F or G node of n when n is one (ltl) or quantifies one (CTL), the
 * operators the rules above fold; else NULL. */
const pn_fml_node *pn_fml_finite_temporal(const pn_fml_node *n, bool ltl);
/* A copy of set (ids, errors, trees); NULL on NOMEM. */
pn_fml_set *pn_fml_set_clone(const pn_fml_set *set);

/* ---- evaluating (formula_eval.c) ----------------------------------------
 * phi must satisfy pn_fml_is_state (anything else reads as false); marking
 * has cn->n_places counts. Sums are exact (128-bit), so large counts never
 * wrap a comparison. */
bool pn_fml_eval_state(const pn_fml_node *phi, const pn_cnet *cn,
                       const uint64_t *marking);
/* The same, fireability read from enabled[t] (n_transitions of them)
 * rather than from a net: for a net fired elsewhere (a coloured net, whose
 * token counts are its skeleton's marking, petrel/csim.h). */
bool pn_fml_eval_state_given(const pn_fml_node *phi, const uint64_t *marking,
                             const bool *enabled, uint32_t n_transitions);

/* ---- distance to a state formula (formula_distance.c) -------------------
 * A heuristic measure of how far marking is from one where phi (a state
 * formula) evaluates to want: 0 exactly there, else at least 1; the order
 * of a best-first search. */
#define PN_FML_DISTANCE_MAX ((uint64_t)UINT32_MAX)
uint64_t pn_fml_distance(const pn_fml_node *phi, bool want, const pn_cnet *cn,
                         const uint64_t *marking);

/* ---- LTL on a run's prefix (formula_prefix.c) ---------------------------
 * The verdict of the unquantified LTL formula phi on every run that starts
 * with a prefix of len states, whose state formulas at(ctx, psi, k) reads
 * at state k: 1 every such run satisfies phi, 0 none does, -1 not known
 * (the prefix does not settle it, or out of memory). ends_dead: the prefix
 * ends in a deadlock, the only run is the prefix with that state repeated
 * (LTL's reading), and the verdict is exact. Sound, not complete: a
 * definite verdict is one that no continuation changes. */
typedef bool (*pn_fml_state_at)(void *ctx, const pn_fml_node *psi, uint32_t k);
int pn_fml_eval_prefix(const pn_fml_node *phi, uint32_t len, bool ends_dead, pn_fml_state_at at,
                       void *ctx);
/* CONST, TOKENS, or PLACE_BOUND (its sum at this marking); a sum beyond
 * UINT64_MAX saturates to UINT64_MAX. */
uint64_t pn_fml_eval_int(const pn_fml_node *e, const uint64_t *marking);

/* ---- action formulas (formula_eval.c) -----------------------------------
 * True when an ACTION node occurs in n. */
bool pn_fml_has_action(const pn_fml_node *n);
/* A boolean combination of TRUE, FALSE and ACTION only: a predicate on one
 * step, decided by its transition (pn_fml_eval_action). */
bool pn_fml_is_action(const pn_fml_node *n);
/* phi (pn_fml_is_action) on the step by transition t. */
bool pn_fml_eval_action(const pn_fml_node *phi, uint32_t t);

#ifdef __cplusplus
}
#endif
#endif
