/* The reduction's working state: which places and transitions are kept,
 * shared by the rules (reduce.c, reduce_dup.c) and the output stage
 * (reduce_out.c). Private to host/reduce. */
#ifndef PETREL_REDUCE_WORK_H
#define PETREL_REDUCE_WORK_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/reduce.h"

enum {
    RED_P_KEEP = 0,     /* kept with its arcs */
    RED_P_ISOLATED,     /* kept without arcs: constant and observed */
    RED_P_GONE          /* removed */
};

/* tmap[t]: t itself when alive, another transition with the same pre and
 * post (duplicate), or one of these markers. */
#define RED_T_DEAD UINT32_MAX        /* never enabled */
#define RED_T_NULL (UINT32_MAX - 1)  /* no effect, unobserved, removed */

typedef struct red_work {
    const pn_cnet *cn;
    uint8_t *pstate;    /* RED_P_* */
    uint8_t *pobs;      /* read by a formula */
    uint8_t *tobs;      /* read by a fireable atom (or a duplicate of one) */
    uint32_t *tmap;
    bool allow_null;    /* pure reachability: no deadlock or LTL */
    uint32_t removed[PN_RED_RULE_COUNT];
    uint32_t rounds;
} red_work;

static inline bool red_alive(const red_work *w, uint32_t t)
{
    return w->tmap[t] == t;
}

pn_status red_fixpoint(red_work *w, const pn_budget *budget, pn_error *err);
pn_status red_duplicates(red_work *w, uint32_t *removed, pn_error *err);
pn_status red_null(red_work *w, uint32_t *removed, pn_error *err);

#endif
