#include "petrel/graph.h"

#include <stdlib.h>
#include <string.h>

void pn_graph_free(pn_graph *g)
{
    if (g == NULL)
        return;
    free(g->off);
    free(g->dst);
    free(g->roff);
    free(g->rsrc);
    free(g);
}

uint64_t pn_graph_bytes(const pn_graph *g)
{
    uint64_t b = (g->n_states + 1) * sizeof(uint64_t) + g->n_edges * sizeof(uint32_t);
    if (g->roff != NULL)
        b *= 2;
    return b;
}

pn_status pn_graph_from_pairs(uint64_t n_states, uint64_t *const *bufs, const uint64_t *counts,
                              uint32_t n_bufs, pn_graph **out, pn_error *err)
{
    *out = NULL;
    pn_graph *g = calloc(1, sizeof *g);
    if (g == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state graph");
    g->n_states = n_states;
    for (uint32_t b = 0; b < n_bufs; b++)
        g->n_edges += counts[b];
    g->off = calloc(n_states + 2, sizeof *g->off);
    g->dst = malloc((g->n_edges + 1) * sizeof *g->dst);
    if (g->off == NULL || g->dst == NULL) {
        pn_graph_free(g);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state graph");
    }
    for (uint32_t b = 0; b < n_bufs; b++)
        for (uint64_t k = 0; k < counts[b]; k++)
            g->off[(bufs[b][k] >> 32) + 2]++;
    for (uint64_t s = 0; s < n_states; s++)
        g->off[s + 2] += g->off[s + 1];
    /* off[s + 1] is now where s's list starts: fill, then it ends there. */
    for (uint32_t b = 0; b < n_bufs; b++)
        for (uint64_t k = 0; k < counts[b]; k++) {
            uint64_t e = bufs[b][k];
            g->dst[g->off[(e >> 32) + 1]++] = (uint32_t)e;
        }
    *out = g;
    return PN_OK;
}

pn_status pn_graph_reverse(pn_graph *g, pn_error *err)
{
    if (g->roff != NULL)
        return PN_OK;
    uint64_t *roff = calloc(g->n_states + 2, sizeof *roff);
    uint32_t *rsrc = malloc((g->n_edges + 1) * sizeof *rsrc);
    if (roff == NULL || rsrc == NULL) {
        free(roff);
        free(rsrc);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for predecessor lists");
    }
    for (uint64_t e = 0; e < g->n_edges; e++)
        roff[(uint64_t)g->dst[e] + 2]++;
    for (uint64_t s = 0; s < g->n_states; s++)
        roff[s + 2] += roff[s + 1];
    for (uint64_t s = 0; s < g->n_states; s++)
        for (uint64_t e = g->off[s]; e < g->off[s + 1]; e++)
            rsrc[roff[(uint64_t)g->dst[e] + 1]++] = (uint32_t)s;
    g->roff = roff;
    g->rsrc = rsrc;
    return PN_OK;
}
