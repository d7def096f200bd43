/* A P/T net as read from PNML: names, arcs, initial marking. Built
 * incrementally by readers (PNML, unfolding) and then compiled (cnet.h). */
#ifndef PETREL_NET_H
#define PETREL_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_arc {
    uint32_t place;
    uint32_t transition;
    uint64_t weight;         /* >= 1 */
    bool to_transition;      /* true: place -> transition (consumes) */
} pn_arc;

struct pn_strmap;

/* Named lists of node indices: for a net unfolded from a coloured one, each
 * coloured place (transition) id and the unfolded places (transitions) it
 * stands for, so that formulas naming coloured ids can be bound. */
typedef struct pn_net_groups {
    uint32_t n, cap;
    char **id;
    uint32_t **idx;
    uint32_t *len;           /* may be 0: a transition no binding enables */
    struct pn_strmap *index;
} pn_net_groups;

/* What the unfolding of a coloured net did (all zero for a P/T net). */
typedef struct pn_unfold_info {
    bool unfolded;           /* the net comes from a coloured (symmetric) net */
    uint32_t coloured_places;
    uint32_t coloured_transitions;
    uint64_t bindings_tried; /* variable assignments enumerated, partial ones
                                included (guards are checked early), by the
                                colour fixpoint and by the building */
    uint64_t bindings_kept;  /* bindings whose guard holds */
    uint32_t dropped_places; /* never markable (outside the colour fixpoint
                                of the unfolder): never built */
    uint32_t dropped_transitions; /* bindings whose guard holds that read
                                such a colour: they never fire, never built */
    uint32_t merged_sorts;   /* sorts whose colours were merged into classes
                                (pn_pnml_opts.merge_colours): the net is then
                                exact for the coloured ids only */
    /* The coloured net's colour-blind skeleton, not its unfolding
     * (pn_pnml_opts.skeleton; unfolded stays false): its places and
     * transitions carry the coloured ids. */
    bool skeleton;
    double seconds;          /* reading and unfolding */
} pn_unfold_info;

typedef struct pn_net {
    char *id;                /* the <net id="..."> */
    uint32_t n_places;
    uint32_t n_transitions;
    uint32_t n_arcs;
    char **place_id;         /* formulas refer to ids */
    char **place_name;       /* <name><text>, or a copy of the id */
    uint64_t *m0;            /* initial marking */
    char **trans_id;
    char **trans_name;
    pn_arc *arcs;
    /* private: capacities and the id index */
    uint32_t cap_places, cap_transitions, cap_arcs;
    struct pn_strmap *place_index;
    struct pn_strmap *trans_index;
    pn_net_groups place_groups;
    pn_net_groups trans_groups;
    pn_unfold_info unfold;
    /* The PNML carried a <toolspecific tool="nupn">: the places come
     * structured into nested units (the MCC's NESTED_UNITS property). */
    bool nupn;
} pn_net;

pn_net *pn_net_new(const char *id);
void pn_net_free(pn_net *net);

/* Return the new node's index, or -1 with err set (duplicate id, no memory).
 * name may be NULL (the id is used). */
int64_t pn_net_add_place(pn_net *net, const char *id, const char *name,
                         uint64_t m0, pn_error *err);
int64_t pn_net_add_transition(pn_net *net, const char *id, const char *name,
                              pn_error *err);
/* Parallel arcs are kept as given; the compiler (cnet.h) adds the weights
 * of arcs between the same pair in the same direction (multiset semantics)
 * and rejects a sum beyond 64 bits. */
pn_status pn_net_add_arc(pn_net *net, uint32_t place, uint32_t transition,
                         bool to_transition, uint64_t weight, pn_error *err);

/* Index of the place/transition with this id, or -1. */
int64_t pn_net_find_place(const pn_net *net, const char *id);
int64_t pn_net_find_transition(const pn_net *net, const char *id);

/* Records that the coloured place (place = true) or transition `id` stands
 * for the nodes idx[0..n) (copied; n may be 0). Fails on a duplicate group
 * id (PN_ERR_INPUT) or an index out of range (PN_ERR_INTERNAL). Group ids
 * live apart from node ids: a dot-sorted place keeps its id for both. */
pn_status pn_net_add_group(pn_net *net, bool place, const char *id,
                           const uint32_t *idx, uint32_t n, pn_error *err);
/* True when id names a group; *idx (borrowed) and *n get its nodes. A P/T
 * net has no groups. */
bool pn_net_find_place_group(const pn_net *net, const char *id,
                             const uint32_t **idx, uint32_t *n);
bool pn_net_find_transition_group(const pn_net *net, const char *id,
                                  const uint32_t **idx, uint32_t *n);

#ifdef __cplusplus
}
#endif
#endif
