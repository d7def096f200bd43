/* The coloured net fired as itself: what its two files share (csim.c reads
 * the net, holds the marking and fires; csim_search.c finds the bindings).
 * Private to host/coloured/. */
#ifndef PETREL_CSIM_INT_H
#define PETREL_CSIM_INT_H

#include <libxml/tree.h>

#include "coloured/hlpn.h"
#include "petrel/csim.h"


/* Search steps (colours tried, free-variable values tried) per call, past
 * which the answer is "not known". */
#define CS_SEARCH_MAX (UINT64_C(1) << 22)
/* The most colours a variable that no pattern binds may range over. */
#define CS_FREE_MAX (UINT64_C(1) << 16)
/* Search steps between two polls of the budget. */
#define CS_POLL (UINT64_C(1) << 12)
#define CS_COUNT_MAX (UINT64_C(1) << 62)

typedef struct cs_atom {
    uint32_t place;
    const hl_term *colour;   /* a pattern: a colour term */
    uint64_t count;          /* its weight: the colour is present this often */
} cs_atom;

typedef struct cs_trans {
    cs_atom *atoms;          /* the input arcs' patterns */
    uint32_t n_atoms, cap_atoms;
    uint32_t *vars;          /* every variable of its arcs and guard */
    uint32_t n_vars;
    const hl_term **clauses; /* the guard's top-level conjuncts */
    uint32_t n_clauses, cap_clauses;
} cs_trans;

typedef struct cs_need {
    uint32_t place;
    uint64_t colour;
    int64_t count;
} cs_need;

struct pn_csim {
    xmlDoc *doc;
    hl_model m;
    char *path;
    pn_error err;
    cs_trans *tr;
    hl_bag *m0, *mark;       /* per place */
    uint64_t *counts0, *counts;
    uint64_t *binding;       /* per variable of the model */
    bool *bound;
    uint32_t *trail;         /* the variables bound, in order */
    uint32_t n_trail;
    cs_need *need;           /* a binding's inputs (negative) and outputs */
    size_t n_need, cap_need;
    hl_bag bag;
    uint64_t seed, work;
    bool random;
};


/* ---- csim_search.c -------------------------------------------------------- */
/* The first entry of bag whose colour is at least c; the count of c. */
size_t cs_lower(const hl_bag *bag, uint64_t c);
uint64_t cs_count_of(const hl_bag *bag, uint64_t c);
/* The number of colours of a sort. */
uint64_t cs_size(const pn_csim *s, uint32_t sort);
/* Sets s->err; -1, the "not known" answer. */
int cs_unknown(pn_csim *s, pn_status code, const char *what);
/* Unbinds the variables bound after the first `to` of the trail. */
void cs_undo(pn_csim *s, uint32_t to);
/* 1 with s->binding an enabled binding of t (its variables still marked
 * bound, for the caller to undo) and s->need its inputs (negative,
 * merged), 0 none, -1 not known. */
int cs_search(pn_csim *s, uint32_t t);
/* Appends t's arcs' multisets under s->binding to s->need, inputs
 * negative (to_trans) or outputs positive; -1 when one cannot be
 * evaluated. Then cs_needs_merge sorts them by place and colour and adds
 * up equal entries. */
int cs_needs(pn_csim *s, uint32_t t, bool to_trans);
void cs_needs_merge(pn_csim *s);

#endif
