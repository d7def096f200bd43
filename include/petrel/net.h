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

#ifdef __cplusplus
}
#endif
#endif
