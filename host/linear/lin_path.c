/* Realising a solution of the state equation as a firing sequence (the
 * "findpath" idea of LoLA, Schmidt; also Wimmel & Wolf, "Applying CEGAR to
 * the Petri net state equation", 2011): fire, from the initial marking,
 * enabled transitions that the solution x still counts, until none is left
 * or none of them is enabled. Every marking met is reachable, so a caller
 * that checks its predicate on them decides exactly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linear/lin.h"

pn_status lin_path_walk(const pn_cnet *cn, const double *x, uint64_t max_steps,
                        lin_path_visit visit, void *ctx, bool *stopped, pn_error *err)
{
    uint32_t P = cn->n_places, T = cn->n_transitions;
    uint64_t *m = malloc(((size_t)P + 1) * sizeof *m);
    uint64_t *next = malloc(((size_t)P + 1) * sizeof *next);
    uint64_t *left = malloc(((size_t)T + 1) * sizeof *left);
    uint32_t *live = malloc(((size_t)T + 1) * sizeof *live); /* t with left[t] > 0 */
    if (m == NULL || next == NULL || left == NULL || live == NULL) {
        free(m);
        free(next);
        free(left);
        free(live);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory realising a firing sequence");
    }
    memcpy(m, cn->m0, (size_t)P * sizeof *m);
    uint32_t n_live = 0;
    for (uint32_t t = 0; t < T; t++) {
        double v = x != NULL && x[t] > 0 ? floor(x[t] + 0.5) : 0;
        left[t] = v > 1e15 ? (uint64_t)1e15 : (uint64_t)v;
        if (left[t] > 0)
            live[n_live++] = t;
    }
    *stopped = visit(ctx, m);
    for (uint64_t step = 0; step < max_steps && !*stopped && n_live > 0; step++) {
        uint32_t k = 0;
        while (k < n_live && !pn_cnet_enabled(cn, m, live[k]))
            k++;
        if (k == n_live || !pn_cnet_fire(cn, m, live[k], next))
            break;
        memcpy(m, next, (size_t)P * sizeof *m);
        uint32_t t = live[k];
        if (--left[t] == 0)
            live[k] = live[--n_live];
        else if (k + 1 < n_live) { /* rotate: let the others go first */
            live[k] = live[n_live - 1];
            live[n_live - 1] = t;
        }
        *stopped = visit(ctx, m);
    }
    free(m);
    free(next);
    free(left);
    free(live);
    return PN_OK;
}
