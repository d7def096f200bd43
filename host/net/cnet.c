#include "petrel/cnet.h"

#include <stdlib.h>
#include <string.h>

/* Above this many entries (2 MB) the dense matrix is not built: nothing
 * but small nets' checks reads it (the engines and the linear layer use
 * the sparse lists), and it grows with places x transitions, not with the
 * arcs: Dekker-PT-200 (1000 x 40400) made 320 MB of it, tens of MB of
 * them touched, which a tight memory budget cannot spare. */
#define CNET_DENSE_LIMIT (256ULL * 1024)

void pn_cnet_free(pn_cnet *cn)
{
    if (cn == NULL)
        return;
    free(cn->m0);
    free(cn->incidence);
    free(cn->pre_off);
    free(cn->pre);
    free(cn->post_off);
    free(cn->post);
    free(cn->delta_off);
    free(cn->delta);
    free(cn);
}


static int cnet_arc_key_cmp(const pn_arc *a, const pn_arc *b)
{
    if (a->transition != b->transition)
        return a->transition < b->transition ? -1 : 1;
    if (a->place != b->place)
        return a->place < b->place ? -1 : 1;
    return 0;
}

/* Orders arcs by (transition, place) so that merging parallel arcs and
 * building the CSR lists is one pass: a counting sort by transition, then an
 * insertion sort that only moves arcs within their transition's short run. */
static int cnet_sort_arcs(const pn_net *net, uint32_t *order)
{
    uint32_t T = net->n_transitions;
    uint32_t *start = calloc((size_t)T + 1, sizeof *start);
    if (start == NULL)
        return -1;
    for (uint32_t i = 0; i < net->n_arcs; i++)
        start[net->arcs[i].transition + 1]++;
    for (uint32_t t = 0; t < T; t++)
        start[t + 1] += start[t];
    for (uint32_t i = 0; i < net->n_arcs; i++)
        order[start[net->arcs[i].transition]++] = i;
    free(start);
    for (uint32_t i = 1; i < net->n_arcs; i++)
        for (uint32_t j = i; j > 0 && cnet_arc_key_cmp(&net->arcs[order[j - 1]],
                                                        &net->arcs[order[j]]) > 0; j--) {
            uint32_t tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    return 0;
}

typedef struct {
    uint32_t place;
    uint64_t pre, post;
} cnet_pair;

static pn_status cnet_alloc(pn_cnet *cn, uint32_t T, uint32_t n_arcs, pn_error *err)
{
    cn->pre_off = calloc((size_t)T + 1, sizeof *cn->pre_off);
    cn->post_off = calloc((size_t)T + 1, sizeof *cn->post_off);
    cn->delta_off = calloc((size_t)T + 1, sizeof *cn->delta_off);
    size_t n = n_arcs ? n_arcs : 1;
    cn->pre = malloc(n * sizeof *cn->pre);
    cn->post = malloc(n * sizeof *cn->post);
    cn->delta = malloc(n * sizeof *cn->delta);
    if (!cn->pre_off || !cn->post_off || !cn->delta_off || !cn->pre || !cn->post ||
        !cn->delta)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory compiling the net");
    return PN_OK;
}

static pn_status cnet_emit(pn_cnet *cn, const pn_net *net, const cnet_pair *pr,
                           uint32_t *np, uint32_t *nq, uint32_t *nd, pn_error *err)
{
    if (pr->pre) {
        cn->pre[*np].place = pr->place;
        cn->pre[(*np)++].weight = pr->pre;
    }
    if (pr->post) {
        cn->post[*nq].place = pr->place;
        cn->post[(*nq)++].weight = pr->post;
    }
    if (pr->pre != pr->post) {
        uint64_t mag = pr->post > pr->pre ? pr->post - pr->pre : pr->pre - pr->post;
        if (mag > (uint64_t)INT64_MAX)
            return pn_fail(err, PN_ERR_INPUT,
                           "place '%s': arc weights differ by more than 2^63",
                           net->place_id[pr->place]);
        cn->delta[*nd].place = pr->place;
        cn->delta[(*nd)++].delta = pr->post > pr->pre ? (int64_t)mag : -(int64_t)mag;
    }
    return PN_OK;
}

static pn_status cnet_build_lists(pn_cnet *cn, const pn_net *net, const uint32_t *order,
                                  pn_error *err)
{
    uint32_t np = 0, nq = 0, nd = 0, i = 0;
    for (uint32_t t = 0; t < net->n_transitions; t++) {
        cn->pre_off[t] = np;
        cn->post_off[t] = nq;
        cn->delta_off[t] = nd;
        while (i < net->n_arcs && net->arcs[order[i]].transition == t) {
            cnet_pair pr = {net->arcs[order[i]].place, 0, 0};
            for (; i < net->n_arcs && net->arcs[order[i]].transition == t &&
                   net->arcs[order[i]].place == pr.place; i++) {
                const pn_arc *a = &net->arcs[order[i]];
                uint64_t *sum = a->to_transition ? &pr.pre : &pr.post;
                if (*sum > UINT64_MAX - a->weight)
                    return pn_fail(err, PN_ERR_INPUT,
                                   "parallel arcs between '%s' and '%s' weigh more than 2^64-1",
                                   net->place_id[pr.place], net->trans_id[t]);
                *sum += a->weight;
            }
            if (cnet_emit(cn, net, &pr, &np, &nq, &nd, err) != PN_OK)
                return err->code;
        }
    }
    cn->pre_off[net->n_transitions] = np;
    cn->post_off[net->n_transitions] = nq;
    cn->delta_off[net->n_transitions] = nd;
    return PN_OK;
}

static void cnet_fill_dense(pn_cnet *cn)
{
    uint64_t cells = (uint64_t)cn->n_places * cn->n_transitions;
    if (cells == 0 || cells > CNET_DENSE_LIMIT)
        return;
    cn->incidence = calloc(cells, sizeof *cn->incidence);
    if (cn->incidence == NULL)
        return; /* optional: nothing depends on it */
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++)
            cn->incidence[(uint64_t)cn->delta[k].place * cn->n_transitions + t] =
                cn->delta[k].delta;
}

pn_status pn_cnet_compile(const pn_net *net, pn_cnet **out, pn_error *err)
{
    *out = NULL;
    pn_cnet *cn = calloc(1, sizeof *cn);
    uint32_t *order = malloc(((size_t)net->n_arcs + 1) * sizeof *order);
    if (cn == NULL || order == NULL) {
        free(cn);
        free(order);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory compiling the net");
    }
    cn->net = net;
    cn->n_places = net->n_places;
    cn->n_transitions = net->n_transitions;
    cn->m0 = malloc(((size_t)net->n_places + 1) * sizeof *cn->m0);
    pn_status st = cn->m0 ? cnet_alloc(cn, net->n_transitions, net->n_arcs, err)
                          : pn_fail(err, PN_ERR_NOMEM, "out of memory compiling the net");
    if (st == PN_OK) {
        if (net->n_places > 0)
            memcpy(cn->m0, net->m0, (size_t)net->n_places * sizeof *cn->m0);
        st = cnet_sort_arcs(net, order) == 0
                 ? cnet_build_lists(cn, net, order, err)
                 : pn_fail(err, PN_ERR_NOMEM, "out of memory compiling the net");
    }
    free(order);
    if (st != PN_OK) {
        pn_cnet_free(cn);
        return st;
    }
    cnet_fill_dense(cn);
    *out = cn;
    return PN_OK;
}

uint64_t pn_marking_sum(const uint64_t *m, const uint32_t *places, uint32_t n)
{
    uint64_t sum = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t v = m[places[k]];
        sum = sum > UINT64_MAX - v ? UINT64_MAX : sum + v;
    }
    return sum;
}

uint64_t pn_marking_total(const uint64_t *m, uint32_t n_places)
{
    uint64_t sum = 0;
    for (uint32_t p = 0; p < n_places; p++)
        sum = sum > UINT64_MAX - m[p] ? UINT64_MAX : sum + m[p];
    return sum;
}

bool pn_cnet_enabled(const pn_cnet *cn, const uint64_t *m, uint32_t t)
{
    for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
        if (m[cn->pre[k].place] < cn->pre[k].weight)
            return false;
    return true;
}

bool pn_cnet_fire(const pn_cnet *cn, const uint64_t *m, uint32_t t, uint64_t *out)
{
    if (cn->n_places > 0)
        memcpy(out, m, (size_t)cn->n_places * sizeof *out);
    return pn_cnet_fire_here(cn, out, t);
}

bool pn_cnet_fire_here(const pn_cnet *cn, uint64_t *m, uint32_t t)
{
    for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
        const pn_cnet_delta *d = &cn->delta[k];
        if (d->delta > 0 && m[d->place] > UINT64_MAX - (uint64_t)d->delta)
            return false;
    }
    for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
        const pn_cnet_delta *d = &cn->delta[k];
        if (d->delta > 0)
            m[d->place] += (uint64_t)d->delta;
        else
            m[d->place] -= (uint64_t)(-d->delta);
    }
    return true;
}

/* A counting sort of the arcs by place, shifted by one slot so that the
 * placement pass leaves off[p] .. off[p + 1] as p's range. */
pn_status pn_cnet_place_index(const pn_cnet *cn, bool post, uint32_t **off_out,
                              uint32_t **items_out, pn_error *err)
{
    uint32_t P = cn->n_places, T = cn->n_transitions;
    const uint32_t *aoff = post ? cn->post_off : cn->pre_off;
    const pn_cnet_arc *arcs = post ? cn->post : cn->pre;
    uint32_t *off = calloc((size_t)P + 2, sizeof *off);
    uint32_t *items = malloc(((size_t)aoff[T] + 1) * sizeof *items);
    if (off == NULL || items == NULL) {
        free(off);
        free(items);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the arcs by place");
    }
    for (uint32_t k = 0; k < aoff[T]; k++)
        off[arcs[k].place + 2]++;
    for (uint32_t p = 0; p < P; p++)
        off[p + 2] += off[p + 1];
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t k = aoff[t]; k < aoff[t + 1]; k++)
            items[off[arcs[k].place + 1]++] = t;
    *off_out = off;
    *items_out = items;
    return PN_OK;
}
