/* The reduction's working state (reduce_work.h): what the formulas
 * observe on the input net, and which rules its property class allows.
 * Its own file because every pass starts from it: the driver
 * (reduce_driver.c) before the removing rules, and each agglomeration pass
 * (reduce_agglo.c) on the net it fuses. */
#include "reduce/reduce_work.h"

#include <stdlib.h>
#include <string.h>

/* Marks what n reads; *deadlock when a deadlock atom reads every
 * transition's enabledness. */
static void red_observe(red_work *w, const pn_fml_node *n, bool *deadlock)
{
    if (n == NULL)
        return;
    if (n->kind == PN_FML_DEADLOCK)
        *deadlock = true;
    for (uint32_t i = 0; n->idx != NULL && i < n->n; i++) {
        if (n->kind == PN_FML_FIREABLE)
            w->tobs[n->idx[i]] = 1;
        else
            w->pobs[n->idx[i]] = 1;
    }
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        red_observe(w, n->kids[i], deadlock);
}

/* Pure reachability: every formula E F phi / A G phi / a bound / a
 * constant, and no deadlock atom (the null rule's condition). */
static bool red_pure_reach(const pn_fml_set *set, pn_exam exam, bool deadlock)
{
    if (set == NULL || deadlock ||
        !(exam == PN_EXAM_REACH_CARDINALITY || exam == PN_EXAM_REACH_FIREABILITY ||
          exam == PN_EXAM_UPPER_BOUNDS))
        return false;
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_fml_node *r = set->props[i].root;
        if (set->props[i].status != PN_OK || r == NULL)
            continue;
        bool ok = r->kind == PN_FML_TRUE || r->kind == PN_FML_FALSE ||
                  r->kind == PN_FML_PLACE_BOUND || pn_fml_reach_shape(r, NULL) != PN_FML_REACH_NONE;
        if (!ok)
            return false;
    }
    return true;
}

/* True when an X (next) occurs in n. */
static bool red_has_next(const pn_fml_node *n)
{
    if (n == NULL)
        return false;
    if (n->kind == PN_FML_X)
        return true;
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        if (red_has_next(n->kids[i]))
            return true;
    return false;
}

/* No X and no action atom in n: its truth is the same on runs equal up to
 * stuttering (repeated observations). */
static bool red_stutter_free(const pn_fml_node *n)
{
    return n == NULL || (!red_has_next(n) && !pn_fml_has_action(n));
}

/* Which agglomerations keep set's answers: all for pure reachability and
 * ReachabilityDeadlock; for LTL and CTL without X nor deadlock atoms (a
 * fusion makes a marking where only a fused transition was enabled a
 * deadlock), the stutter-preserving ones. */
static uint8_t red_agglo_class(const pn_fml_set *set, pn_exam exam, bool deadlock,
                               bool pure_reach)
{
    if (set == NULL)
        return exam == PN_EXAM_REACH_DEADLOCK ? RED_AGGLO_REACH : RED_AGGLO_NONE;
    if (pure_reach)
        return RED_AGGLO_REACH;
    bool ltl = exam == PN_EXAM_LTL_CARDINALITY || exam == PN_EXAM_LTL_FIREABILITY;
    bool ctl = exam == PN_EXAM_CTL_CARDINALITY || exam == PN_EXAM_CTL_FIREABILITY;
    if (deadlock || !(ltl || ctl))
        return RED_AGGLO_NONE;
    for (uint32_t i = 0; i < set->n; i++)
        if (set->props[i].status == PN_OK && !red_stutter_free(set->props[i].root))
            return RED_AGGLO_NONE;
    return ltl ? RED_AGGLO_LINEAR : RED_AGGLO_BRANCHING;
}

pn_status red_work_init(red_work *w, const pn_cnet *cn, pn_exam exam,
                               const pn_fml_set *set, pn_error *err)
{
    memset(w, 0, sizeof *w);
    w->cn = cn;
    w->pstate = calloc((size_t)cn->n_places + 1, 1);
    w->pobs = calloc((size_t)cn->n_places + 1, 1);
    w->tobs = calloc((size_t)cn->n_transitions + 1, 1);
    w->tmap = malloc(((size_t)cn->n_transitions + 1) * sizeof *w->tmap);
    if (!w->pstate || !w->pobs || !w->tobs || !w->tmap)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        w->tmap[t] = t;
    bool deadlock = set == NULL; /* the global ReachabilityDeadlock */
    for (uint32_t i = 0; set != NULL && i < set->n; i++)
        if (set->props[i].status == PN_OK)
            red_observe(w, set->props[i].root, &deadlock);
    w->allow_null = red_pure_reach(set, exam, deadlock);
    w->agglo = red_agglo_class(set, exam, deadlock, w->allow_null);
    return PN_OK;
}

void red_work_free(red_work *w)
{
    free(w->pstate);
    free(w->pobs);
    free(w->tobs);
    free(w->tmap);
}
