/* MCMT array-based systems (MCMT 2.8 user manual, Ghilardi and Ranise;
 * "Backward reachability of array-based systems by SMT solving", LMCS 6(4),
 * 2010): the system as read (pn_mcmt_read_*), a bounded instance of it as
 * a state space (pn_mcmt_space_new, host/space/mcmt.c) and the search for
 * an unsafe state in that instance (pn_mcmt_check, host/logic/mcmt_check.c).
 * docs/mcmt.md gives the reading of each construct.
 *
 * The system is data: terms in one pool (children by index), formulas as
 * lists of terms read as a conjunction. Every value is an integer (false 0,
 * true 1); index variables hold process identifiers. */
#ifndef PETREL_MCMT_H
#define PETREL_MCMT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/error.h"
#include "petrel/net.h"
#include "petrel/space.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Index variables: x, y, j, then z1 .. z10. */
enum { PN_MCMT_X = 0, PN_MCMT_Y = 1, PN_MCMT_J = 2, PN_MCMT_Z1 = 3, PN_MCMT_VARS = 13 };

typedef enum pn_mcmt_kind {
    PN_MCMT_CONST, /* value: an integer or a boolean */
    PN_MCMT_VAR,   /* value: the index variable (PN_MCMT_X ..) */
    PN_MCMT_READ,  /* value: the array; n = 1: a[kid], n = 0: a global read bare */
    PN_MCMT_PARAM, /* value: the symbolic constant */
    PN_MCMT_OP     /* op over n children */
} pn_mcmt_kind;

typedef enum pn_mcmt_op {
    PN_MCMT_EQ, PN_MCMT_LT, PN_MCMT_LE, PN_MCMT_GT, PN_MCMT_GE,
    PN_MCMT_AND, PN_MCMT_OR, PN_MCMT_NOT, PN_MCMT_IMPLIES,
    PN_MCMT_ADD, PN_MCMT_MUL, PN_MCMT_NEG, PN_MCMT_ITE
} pn_mcmt_op;

typedef struct pn_mcmt_term {
    uint8_t kind, op;
    int64_t value;
    uint32_t first, n; /* children: kids[first .. first + n) */
    uint32_t line;
} pn_mcmt_term;

typedef enum pn_mcmt_base { PN_MCMT_BOOL, PN_MCMT_NAT, PN_MCMT_INT, PN_MCMT_SUBRANGE } pn_mcmt_base;

typedef struct pn_mcmt_type {
    uint8_t base;
    int64_t lo, hi; /* PN_MCMT_SUBRANGE only */
} pn_mcmt_type;

/* A conjunction: terms items[0 .. n) of the pool. */
typedef struct pn_mcmt_list {
    uint32_t *items;
    uint32_t n;
} pn_mcmt_list;

typedef struct pn_mcmt_array {
    char *name;
    pn_mcmt_type type;
    bool global;
} pn_mcmt_array;

typedef struct pn_mcmt_param {
    char *name;
    pn_mcmt_type type;
} pn_mcmt_param;

/* :initial and :system_axiom: universal over the declared variables
 * (vars: bit v for PN_MCMT_X / _Y / _J). */
typedef struct pn_mcmt_univ {
    uint32_t vars;
    pn_mcmt_list cnj;
    uint32_t line;
} pn_mcmt_univ;

/* An :unsafe or :u_cnj disjunct: some distinct z1 .. z_nz satisfy cnj. */
typedef struct pn_mcmt_cube {
    uint32_t nz;
    pn_mcmt_list cnj;
    uint32_t line;
} pn_mcmt_cube;

typedef struct pn_mcmt_case {
    pn_mcmt_list cond;   /* as written (the implicit literals are not in it) */
    uint32_t *val;       /* one term per array, in declaration order */
    uint32_t line;
} pn_mcmt_case;

typedef struct pn_mcmt_trans {
    char *name;          /* the :comment before it, or "t<k>" */
    uint32_t line;
    uint32_t n_vars;     /* existential: 0 (j only), 1 (x), 2 (x, y) */
    pn_mcmt_list guard;
    pn_mcmt_list *uguard; /* a disjunction of conjunctions over x and j */
    uint32_t n_uguard;
    pn_mcmt_case *cases;
    uint32_t n_cases;
} pn_mcmt_trans;

typedef struct pn_mcmt_sys {
    pn_mcmt_term *terms;
    uint32_t n_terms, cap_terms;
    uint32_t *kids;
    uint32_t n_kids, cap_kids;
    pn_mcmt_array *arrays;
    uint32_t n_arrays;
    pn_mcmt_param *params;
    uint32_t n_params;
    pn_mcmt_univ *initial, *axioms;
    uint32_t n_initial, n_axioms;
    pn_mcmt_cube *unsafe;
    uint32_t n_unsafe;
    pn_mcmt_trans *trans;
    uint32_t n_trans;
    char **notes;        /* "line N: ..." for each option read and ignored */
    uint32_t n_notes;
} pn_mcmt_sys;

/* Reads MCMT's input language; PN_ERR_INPUT (malformed, with the line) or
 * PN_ERR_UNSUPPORTED (a construct Petrel does not explore: free function
 * symbols, reals, existential data variables), PN_ERR_IO, PN_ERR_NOMEM. */
pn_status pn_mcmt_read_text(const char *text, size_t len, pn_mcmt_sys **out, pn_error *err);
pn_status pn_mcmt_read_file(const char *path, pn_mcmt_sys **out, pn_error *err);
void pn_mcmt_free(pn_mcmt_sys *sys);

/* ---- bounded instances ---------------------------------------------------- */

/* The bound: processes idx_from .. idx_from + procs - 1; nat and int values
 * within [int_lo, int_hi] (nat from max(0, int_lo)). */
typedef struct pn_mcmt_bound {
    uint32_t procs;
    int64_t idx_from;
    int64_t int_lo, int_hi;
} pn_mcmt_bound;

/* What an instance met that keeps it from being explored whole, first
 * met first: a successor past --int-range (cut), a read at an index the
 * instance lacks, overlapping cases that disagree (the transition is not
 * taken there). */
typedef enum pn_mcmt_defect {
    PN_MCMT_DEFECT_NONE, PN_MCMT_DEFECT_RANGE, PN_MCMT_DEFECT_INDEX, PN_MCMT_DEFECT_CASES
} pn_mcmt_defect;

/* The instance as a pn_space (sys borrowed). A state holds every cell:
 * globals, symbolic constants, then each local array's procs cells, then
 * one crash flag per process (stopping failures, docs/mcmt.md). A
 * transition of the space is a transition of sys with its x (and y)
 * bound: pn_mcmt_space_binding says which. pn_space_initial gives the first
 * initial state; pn_mcmt_initial_next the others. */
pn_status pn_mcmt_space_new(const pn_mcmt_sys *sys, pn_mcmt_bound b, pn_space **out,
                            pn_error *err);
/* The initial states in turn: *cursor starts at 0; false after the last. */
bool pn_mcmt_initial_next(pn_space *sp, uint64_t *cursor, uint64_t *s);
/* Which disjunct of the unsafe formula s satisfies (its index + 1), 0: none. */
uint32_t pn_mcmt_unsafe(pn_space *sp, const uint64_t *s);
/* Transition t of the space: its transition in sys, and x, y (process ids;
 * -1 when not bound). */
void pn_mcmt_space_binding(pn_space *sp, uint32_t t, uint32_t *trans, int64_t *x, int64_t *y);
/* The first defect met so far, with its message (NONE: msg untouched). */
pn_mcmt_defect pn_mcmt_space_defect(pn_space *sp, const char **msg);
/* The value of array a at process p (globals: p ignored) in s. */
int64_t pn_mcmt_cell(pn_space *sp, const uint64_t *s, uint32_t a, uint32_t p);
bool pn_mcmt_crashed(pn_space *sp, const uint64_t *s, uint32_t p);
int64_t pn_mcmt_param_value(pn_space *sp, const uint64_t *s, uint32_t k);

/* The instance as a 1-safe P/T net with the same reachable states (one
 * place per cell and value; one transition per space transition and
 * valuation of the cells it reads or writes that enables it; where the
 * instance has several initial states, a place "start" and a transition
 * per initial state put one in place: one state more). PN_ERR_UNSUPPORTED
 * when the valuations to try pass 2^22 or the instance meets a defect on
 * one of them (docs/mcmt.md). */
pn_status pn_mcmt_space_net(pn_space *sp, pn_net **out, pn_error *err);

/* ---- the check of one instance -------------------------------------------- */

typedef enum pn_mcmt_answer { PN_MCMT_UNKNOWN, PN_MCMT_SAFE, PN_MCMT_UNSAFE } pn_mcmt_answer;

typedef struct pn_mcmt_step {
    uint32_t trans;   /* in sys */
    int64_t x, y;     /* -1: not bound */
} pn_mcmt_step;

typedef struct pn_mcmt_result {
    pn_mcmt_answer answer;
    uint64_t states;       /* met (SAFE: the whole instance) */
    uint64_t transitions;  /* successors computed */
    uint32_t unsafe_cube;  /* UNSAFE: the disjunct (index + 1) */
    pn_mcmt_step *trace;   /* UNSAFE: the steps from an initial state */
    uint32_t trace_len;
    /* UNSAFE: trace_len + 1 valuations of n_vals values each: every array
     * in declaration order (a global's one cell, a local's procs cells),
     * the symbolic constants, the crash flags. */
    int64_t *trace_vals;
    uint32_t n_vals;
    char why[512];         /* UNKNOWN: the reason */
} pn_mcmt_result;

/* Breadth-first search of the instance for an unsafe state: UNSAFE with a
 * shortest trace, SAFE when every reachable state was met and none is
 * unsafe and nothing was cut, else UNKNOWN (budget, memory, a defect).
 * Errors: the instance could not be set up. */
pn_status pn_mcmt_check(const pn_mcmt_sys *sys, pn_mcmt_bound b, const pn_budget *budget,
                        pn_mcmt_result *res, pn_error *err);
void pn_mcmt_result_clear(pn_mcmt_result *res);
/* The trace, one line a step with the values it changes. */
void pn_mcmt_print_trace(FILE *f, const pn_mcmt_sys *sys, pn_mcmt_bound b,
                         const pn_mcmt_result *res);

#ifdef __cplusplus
}
#endif
#endif
