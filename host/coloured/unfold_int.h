/* The unfolder's state, shared by its three files: unfold_bind.c
 * enumerates a transition's bindings, unfold_reach.c computes the colour
 * classes each place can ever hold, unfold.c builds the P/T net. Private
 * to host/coloured/. */
#ifndef PETREL_UNFOLD_INT_H
#define PETREL_UNFOLD_INT_H

#include "coloured/hlpn.h"

#define HL_NAME_MAX 4096
/* The most classes a sort or a place may have for the join to restrict a
 * variable by a bitmap (2 MB); beyond, the variable takes every class, as
 * in the building. */
#define HL_DOM_MAX (UINT64_C(1) << 24)

typedef struct hl_clause {
    const hl_term *term;
    uint32_t depth;          /* variables bound before it can be tested */
} hl_clause;

/* An input arc of the transition at hand, tested against the markable
 * classes once `depth` variables are bound (the colour fixpoint's join). */
typedef struct hl_in_check {
    const hl_arc *arc;
    uint32_t depth;
} hl_in_check;

/* Variable at position `pos` read as component `comp` (HL_NONE: the whole
 * colour) of a colour of `place` by an input arc. */
typedef struct hl_restriction {
    uint32_t pos, place, comp;
} hl_restriction;

typedef struct hl_unfolder hl_unfolder;
typedef struct hl_reach hl_reach; /* unfold_reach.c's work list */

/* What a complete binding (u->binding, guard holding) is used for. */
typedef pn_status (*hl_leaf_fn)(hl_unfolder *u, const hl_trans *t);

struct hl_unfolder {
    hl_model *m;
    pn_net *net;
    pn_unfold_info *info;
    hl_bag bag;
    uint64_t *binding;       /* per variable of the model */
    uint32_t *pos;           /* variable -> position in order, or HL_NONE */
    bool *used;              /* variable -> occurs in the term at hand */
    uint32_t *order;         /* the current transition's variables */
    uint32_t n_order;
    hl_clause *clauses;
    uint32_t n_clauses, cap_clauses;
    uint64_t *depth_cost;    /* steps to test the clauses of each depth */
    uint64_t arc_cost;       /* steps to evaluate the transition's arcs */
    hl_leaf_fn leaf;
    /* The join (unfold_reach.c): input arcs tested as soon as their
     * variables are bound, and variables bound only to the classes that
     * the places they are read from can hold (dom, one bitmap per
     * position of the order where dom_on, else every class). */
    bool join;
    hl_in_check *checks;
    uint32_t n_checks, cap_checks;
    uint64_t **dom;
    bool *dom_on;
    hl_restriction *restr;   /* the transition's, that made dom */
    uint32_t n_restr, cap_restr;
    /* The classes each place can ever hold: bit base_of[p] + class. */
    uint64_t *markable;
    uint64_t *base_of;       /* per coloured place */
    uint64_t n_classes;      /* over all places */
    uint32_t *place_of;      /* bit -> unfolded place, HL_NONE: never built */
    hl_reach *reach;         /* while the fixpoint runs */
    uint64_t room;           /* bytes the unfolding may take; 0: unwatched */
    char name[HL_NAME_MAX];
};

/* ---- unfold_bind.c ------------------------------------------------------- */
/* Calls u->leaf for every binding of t's variables (over classes) whose
 * guard holds; in join mode (u->join) only for those whose inputs are all
 * markable, and far fewer are tried. */
pn_status hl_bind_all(hl_unfolder *u, const hl_trans *t);
/* Class c of place p became markable during the join: the domains read
 * from p take in what it gives them (a superset stays sound), so that a
 * chain x, x++, ... is followed within one enumeration. */
void hl_domains_widen(hl_unfolder *u, uint32_t p, uint64_t c);
/* u->bag = term t's multiset under binding b (NULL: a closed term), its
 * colours replaced by their classes of `sort`. */
pn_status hl_eval_classes(hl_unfolder *u, const hl_term *t, uint32_t sort, const uint64_t *b);
/* u->bag = place p's initial marking by class (empty without one). */
pn_status hl_initial_bag(hl_unfolder *u, const hl_place *p);
/* Whether every class of arc a's multiset under u->binding is markable. */
pn_status hl_inputs_markable(hl_unfolder *u, const hl_arc *a, bool *ok);

/* ---- unfold_reach.c ------------------------------------------------------ */
static inline bool hl_bit(const uint64_t *bits, uint64_t i)
{
    return (bits[i >> 6] >> (i & 63)) & 1u;
}
/* The least fixpoint of the classes each place can hold, over the coloured
 * net with counts ignored: the initial marking's, then the outputs of every
 * binding whose inputs are all markable (u->markable, allocated here). */
pn_status hl_reach_classes(hl_unfolder *u);

#endif
