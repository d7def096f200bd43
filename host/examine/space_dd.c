/* StateSpace on the decision diagram of the reachable markings, built by
 * saturation (G. Ciardo, R. Marmorstein, R. Siminiceanu, "The saturation
 * algorithm for symbolic state-space exploration", STTT 2006; the
 * contest's StateSpace winners count this way): STATES is the set's count;
 * TRANSITIONS, every (marking, enabled transition) pair, is the sum over
 * the transitions of the count of the markings that enable each, as paths
 * from the root to the transition's first input level times the paths
 * below that meet its needs (pn_mdd_counter_add_edges: no set is built
 * per transition); MAX_TOKEN_IN_PLACE the largest edge value of a level;
 * MAX_TOKEN_PER_MARKING the longest path with every place's weight 1.
 * Exact, in decimal of any size. */
#include "examine/space_dd.h"

#include <stdlib.h>

#include "logic/ctl_mdd.h"
#include "petrel/phase.h"
#include "space/mdd.h"
#include "space/mdd_count.h"
#include "sys/deep.h"

/* The edges: the markings that enable each transition, summed
 * (pn_mdd_counter_add_edges). NULL when they could not all be counted. */
static char *dd_edges(pn_ctl_mdd *s, pn_mdd_counter *k, uint64_t *low)
{
    uint32_t reach;
    pn_ctl_mdd_forest(s, &reach);
    pn_mdd_counter_zero(k);
    if (pn_mdd_counter_add_edges(k, reach) != PN_OK)
        return NULL;
    return pn_mdd_counter_text(k, low);
}

/* The values on s's reachable set into res; false when one of STATES,
 * MAX_TOKEN_IN_PLACE, MAX_TOKEN_PER_MARKING could not be had. */
static bool dd_values(pn_ctl_mdd *s, const pn_cnet *cn, const pn_budget *budget,
                      pn_engine_result *res)
{
    uint32_t reach;
    pn_mdd *d = pn_ctl_mdd_forest(s, &reach);
    const uint32_t P = cn->n_places;
    uint64_t *w = malloc(((size_t)P + 1) * sizeof *w);
    pn_mdd_counter *k = pn_mdd_counter_new(d, budget);
    bool ok = w != NULL && k != NULL && pn_mdd_counter_add(k, reach) == PN_OK;
    if (ok)
        ok = (res->states_text = pn_mdd_counter_text(k, &res->states)) != NULL;
    if (ok)
        ok = pn_mdd_place_max(d, reach, w);
    res->max_tokens_place = 0;
    for (uint32_t p = 0; ok && p < P; p++)
        res->max_tokens_place = w[p] > res->max_tokens_place ? w[p] : res->max_tokens_place;
    for (uint32_t p = 0; ok && p < P; p++)
        w[p] = 1;
    if (ok)
        ok = pn_mdd_max_sum(d, reach, w, &res->max_tokens_marking);
    free(w);
    if (ok) {
        pn_budget_phase(budget, "StateSpace: counting the edges of %s markings",
                        res->states_text);
        res->edges_text = dd_edges(s, k, &res->edges);
    }
    pn_mdd_counter_free(k);
    return ok;
}

static pn_status space_dd_run(const pn_cnet *cn, const pn_budget *budget, FILE *verbose,
                              pn_engine_result *res, pn_error *err)
{
    double t0 = pn_clock_now();
    pn_budget_phase(budget, "StateSpace: the reachable set on decision diagrams");
    pn_ctl_mdd *s = NULL;
    pn_error e = {0};
    pn_status st = pn_ctl_mdd_new(cn, budget, &s, &e);
    if (st == PN_ERR_NOMEM)
        return pn_fail(err, st, "%s", e.msg);
    if (st != PN_OK) {
        if (verbose != NULL)
            fprintf(verbose, "petrel: StateSpace: decision diagrams: %s after %.3f s\n", e.msg,
                    pn_clock_now() - t0);
        return PN_OK;
    }
    pn_ctl_mdd_set_budget(s, budget);
    pn_engine_result dd = {.status = PN_RUN_COMPLETE, .symbolic = true, .threads = 1};
    bool ok = dd_values(s, cn, budget, &dd);
    dd.seconds = pn_clock_now() - t0;
    if (verbose != NULL)
        fprintf(verbose,
                "petrel: StateSpace: decision diagrams: %s, %lu nodes, in %.3f s\n",
                ok ? "counted" : "stopped while counting",
                (unsigned long)pn_ctl_mdd_nodes(s), dd.seconds);
    pn_ctl_mdd_free(s);
    if (!ok) {
        free(dd.states_text);
        free(dd.edges_text);
        return PN_OK;
    }
    pn_engine_result_free(res);
    *res = dd;
    return PN_OK;
}

typedef struct space_dd_call {
    const pn_cnet *cn;
    const pn_budget *budget;
    FILE *verbose;
    pn_engine_result *res;
    pn_error *err;
    pn_status st;
} space_dd_call;

static void space_dd_deep(void *p)
{
    space_dd_call *c = p;
    c->st = space_dd_run(c->cn, c->budget, c->verbose, c->res, c->err);
}

/* A net wider than the caller's stack allows runs on a stack of its own
 * (PN_MDD_STACK_BYTES); when that thread cannot be made, nothing is
 * counted and the engines get the time. */
pn_status ex_space_dd(const pn_cnet *cn, const pn_budget *budget, FILE *verbose,
                      pn_engine_result *res, pn_error *err)
{
    if (cn->n_places <= PN_MDD_INLINE_LEVELS)
        return space_dd_run(cn, budget, verbose, res, err);
    space_dd_call c = {cn, budget, verbose, res, err, PN_OK};
    if (!pn_run_deep(PN_MDD_STACK_BYTES(cn->n_places), space_dd_deep, &c) && verbose != NULL)
        fprintf(verbose, "petrel: StateSpace: decision diagrams: no thread with a %zu MB stack\n",
                PN_MDD_STACK_BYTES(cn->n_places) >> 20);
    return c.st;
}
