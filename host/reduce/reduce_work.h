/* The reduction's working state: which places and transitions are kept,
 * set up by reduce_work.c, shared by the rules (reduce.c, reduce_dup.c,
 * reduce_agglo.c, ...), the builder (reduce_build.c), the formulas and
 * traces mapped between the nets (reduce_out.c) and the entry point
 * (reduce_driver.c). Private to host/reduce. */
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

/* The agglomerations a property class allows (reduce_agglo.c): all of them
 * (pure reachability, ReachabilityDeadlock), those that keep the maximal
 * runs up to stuttering (LTL without X: linear), those that also keep the
 * branching up to stuttering (CTL without X: post-agglomeration with one
 * consumer only), or none. */
enum { RED_AGGLO_NONE = 0, RED_AGGLO_REACH, RED_AGGLO_LINEAR, RED_AGGLO_BRANCHING };

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
    uint8_t agglo;      /* RED_AGGLO_*: which agglomerations keep the answers */
    bool with_lp;       /* run the state-equation rule (once, on the original net) */
    double lp_share;    /* ... within this share of the budget */
    bool lp_one_dead;   /* ... stopping at the first dead transition */
    uint32_t removed[PN_RED_RULE_COUNT];
    uint32_t rounds;
} red_work;

static inline bool red_alive(const red_work *w, uint32_t t)
{
    return w->tmap[t] == t;
}

/* The weight of t's input (pre) or output arc on place p; 0: none. */
static inline uint64_t red_arc_weight(const pn_cnet *cn, bool pre, uint32_t t, uint32_t p)
{
    const pn_cnet_arc *arcs = pre ? cn->pre : cn->post;
    const uint32_t *off = pre ? cn->pre_off : cn->post_off;
    for (uint32_t k = off[t]; k < off[t + 1]; k++)
        if (arcs[k].place == p)
            return arcs[k].weight;
    return 0;
}

/* pnew[p] / tnew[t]: index in the reduced net, UINT32_MAX when removed. */
typedef struct red_maps {
    uint32_t *pnew, *tnew;
} red_maps;

/* The output of a rule as reduce_build.c builds it: the fate of each input
 * place (RED_P_*), and each output transition as a word of input
 * transitions fired in sequence, named after its head. */
typedef struct red_plan {
    const uint8_t *pstate;
    uint32_t n_out;
    uint32_t *word_off;   /* n_out + 1 */
    pn_red_step *steps;
    uint32_t *head;       /* per output transition */
    uint32_t *second;     /* per output transition: UINT32_MAX, or the input
                             transition paired with head in its name */
} red_plan;

pn_status red_plan_alloc(red_plan *pl, uint32_t n_out, uint32_t n_steps, pn_error *err);
/* Appends an output transition (word steps[0..n)), named after head (and
 * second: "head.second"); within the sizes given to red_plan_alloc. */
void red_plan_add(red_plan *pl, uint32_t head, uint32_t second, const pn_red_step *steps,
                  uint32_t n);
void red_plan_free(red_plan *pl);
/* The net pl describes on w->cn, compiled, set's formulas on it, and its
 * words over the original net (prev: w->cn's own reduction, NULL when
 * w->cn is the original). */
pn_status red_build(const red_work *w, const red_plan *pl, const pn_fml_set *set,
                    const pn_reduced *prev, pn_reduced *r, pn_error *err);

/* What set observes on cn, and which rules its property class allows
 * (reduce_work.c). */
pn_status red_work_init(red_work *w, const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                        pn_error *err);
void red_work_free(red_work *w);
/* set's formulas on the reduced net (w->tmap resolves removed transitions;
 * reduce_out.c). */
pn_status red_map_set(const red_work *w, const red_maps *m, const pn_fml_set *set,
                      const pn_net *net, pn_fml_set **out, pn_error *err);
/* One pass of pre- and post-agglomeration (reduce_agglo.c) on in: *out
 * the fused net (NULL and *fused 0 when nothing qualifies). */
pn_status red_agglomerate(const pn_reduced *in, pn_exam exam, pn_reduced **out, uint32_t *fused,
                          pn_error *err);

/* Per place, the live transitions' non-zero effects on it, CSR: entries
 * off[p] .. off[p + 1] of t (the transition) and d (its effect)
 * (reduce_rows.c). */
typedef struct red_rows {
    uint32_t *off;    /* n_places + 2 */
    uint32_t *t;
    int64_t *d;
} red_rows;

pn_status red_rows_build(const red_work *w, red_rows *r, pn_error *err);
void red_rows_free(red_rows *r);

pn_status red_fixpoint(red_work *w, const pn_budget *budget, pn_error *err);
pn_status red_duplicates(red_work *w, uint32_t *removed, pn_error *err);
pn_status red_null(red_work *w, uint32_t *removed, pn_error *err);
/* Places and transitions outside the cone of influence of what is observed
 * (reduce_cone.c); pure reachability only (the null rule's condition). */
pn_status red_cone(red_work *w, uint32_t *removed, pn_error *err);
/* Unobserved places another kept place dominates (reduce_implicit.c). */
pn_status red_implicit(red_work *w, uint32_t *removed, pn_error *err);
/* Dead transitions by the state equation (reduce_lp.c), within a share of
 * budget. */
pn_status red_dead_lp(red_work *w, const pn_budget *budget, uint32_t *removed, pn_error *err);

#endif
