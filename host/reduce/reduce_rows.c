/* The live incidence matrix by rows: per place, the live transitions that
 * change it and by how much. Its own file because more than one rule reads
 * it (the cone of influence, reduce_cone.c, and implicit places,
 * reduce_implicit.c), and the rules' driver (reduce.c) calls both: kept
 * there, the rules would call back into their caller. */
#include "reduce/reduce_work.h"

#include <stdlib.h>

pn_status red_rows_build(const red_work *w, red_rows *r, pn_error *err)
{
    const pn_cnet *cn = w->cn;
    uint32_t P = cn->n_places, T = cn->n_transitions, n = cn->delta_off[T];
    r->off = calloc((size_t)P + 2, sizeof *r->off);
    r->t = malloc(((size_t)n + 1) * sizeof *r->t);
    r->d = malloc(((size_t)n + 1) * sizeof *r->d);
    if (r->off == NULL || r->t == NULL || r->d == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t k = cn->delta_off[t]; red_alive(w, t) && k < cn->delta_off[t + 1]; k++)
            r->off[cn->delta[k].place + 2]++;
    for (uint32_t p = 0; p < P; p++)
        r->off[p + 2] += r->off[p + 1];
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t k = cn->delta_off[t]; red_alive(w, t) && k < cn->delta_off[t + 1]; k++) {
            uint32_t at = r->off[cn->delta[k].place + 1]++;
            r->t[at] = t;
            r->d[at] = cn->delta[k].delta;
        }
    return PN_OK;
}

void red_rows_free(red_rows *r)
{
    free(r->off);
    free(r->t);
    free(r->d);
}
