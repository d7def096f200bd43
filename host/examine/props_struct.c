/* The structural generic properties of the MCC (GenericPropertiesDefinition.xml,
 * after the classical net classes of Murata, "Petri nets: properties,
 * analysis and applications", Proc. IEEE 77(4), 1989: state machines,
 * marked graphs, free choice and extended free choice nets, conservative
 * nets), read off the compiled net's merged arcs. Connectivity is a
 * union-find over the arcs; strong connectivity is a forward and a backward
 * search from one node, each of which must reach every node. */
#include "petrel/props.h"

#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 props_u128;

static const char *const prop_names[PN_PROP_COUNT] = {
    [PN_PROP_ORDINARY] = "ORDINARY",
    [PN_PROP_SIMPLE_FREE_CHOICE] = "SIMPLE_FREE_CHOICE",
    [PN_PROP_EXTENDED_FREE_CHOICE] = "EXTENDED_FREE_CHOICE",
    [PN_PROP_STATE_MACHINE] = "STATE_MACHINE",
    [PN_PROP_MARKED_GRAPH] = "MARKED_GRAPH",
    [PN_PROP_CONNECTED] = "CONNECTED",
    [PN_PROP_STRONGLY_CONNECTED] = "STRONGLY_CONNECTED",
    [PN_PROP_SOURCE_PLACE] = "SOURCE_PLACE",
    [PN_PROP_SINK_PLACE] = "SINK_PLACE",
    [PN_PROP_SOURCE_TRANSITION] = "SOURCE_TRANSITION",
    [PN_PROP_SINK_TRANSITION] = "SINK_TRANSITION",
    [PN_PROP_LOOP_FREE] = "LOOP_FREE",
    [PN_PROP_CONSERVATIVE] = "CONSERVATIVE",
    [PN_PROP_SUBCONSERVATIVE] = "SUBCONSERVATIVE",
    [PN_PROP_NESTED_UNITS] = "NESTED_UNITS",
    [PN_PROP_SAFE] = "SAFE",
    [PN_PROP_DEADLOCK] = "DEADLOCK",
    [PN_PROP_REVERSIBLE] = "REVERSIBLE",
    [PN_PROP_QUASI_LIVE] = "QUASI_LIVE",
    [PN_PROP_LIVE] = "LIVE",
    [PN_PROP_DEAD_PLACES] = "DEAD_PLACES",
    [PN_PROP_DEAD_TRANSITIONS] = "DEAD_TRANSITIONS",
};

const char *pn_prop_name(pn_prop p)
{
    return p < PN_PROP_COUNT ? prop_names[p] : "?";
}

pn_prop pn_prop_parse(const char *name)
{
    for (int p = 0; p < PN_PROP_COUNT; p++)
        if (strcmp(name, prop_names[p]) == 0)
            return (pn_prop)p;
    return PN_PROP_UNKNOWN;
}

void pn_props_free(pn_props *p)
{
    for (int i = 0; p != NULL && i < PN_PROP_COUNT; i++) {
        free(p->v[i].trace);
        p->v[i].trace = NULL;
    }
}

static void props_set(pn_props *out, pn_prop p, bool holds)
{
    out->v[p].verdict = holds ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    out->v[p].techniques = PN_TECH_TOPOLOGICAL;
}

/* The places of two sorted arc lists meet (a transition's input place that
 * is also an output place). */
static bool props_lists_meet(const pn_cnet_arc *a, uint32_t na, const pn_cnet_arc *b,
                             uint32_t nb)
{
    uint32_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (a[i].place == b[j].place)
            return true;
        if (a[i].place < b[j].place)
            i++;
        else
            j++;
    }
    return false;
}

/* Same set of input places (weights aside); pre lists are sorted by place. */
static bool props_same_preset(const pn_cnet *cn, uint32_t t, uint32_t u)
{
    uint32_t n = cn->pre_off[t + 1] - cn->pre_off[t];
    if (n != cn->pre_off[u + 1] - cn->pre_off[u])
        return false;
    for (uint32_t k = 0; k < n; k++)
        if (cn->pre[cn->pre_off[t] + k].place != cn->pre[cn->pre_off[u] + k].place)
            return false;
    return true;
}

/* What each transition's own arcs say. */
static void props_by_transition(const pn_cnet *cn, pn_props *out)
{
    bool ordinary = true, sm = true, source = false, sink = false, loop_free = true;
    bool cons = true, subcons = true;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        uint32_t npre = cn->pre_off[t + 1] - cn->pre_off[t];
        uint32_t npost = cn->post_off[t + 1] - cn->post_off[t];
        const pn_cnet_arc *pre = cn->pre + cn->pre_off[t], *post = cn->post + cn->post_off[t];
        props_u128 in = 0, outw = 0;
        for (uint32_t k = 0; k < npre; k++) {
            ordinary = ordinary && pre[k].weight == 1;
            in += pre[k].weight;
        }
        for (uint32_t k = 0; k < npost; k++) {
            ordinary = ordinary && post[k].weight == 1;
            outw += post[k].weight;
        }
        sm = sm && npre == 1 && npost == 1;
        source = source || npre == 0;
        sink = sink || npost == 0;
        loop_free = loop_free && !props_lists_meet(pre, npre, post, npost);
        cons = cons && in == outw;
        subcons = subcons && in >= outw;
    }
    props_set(out, PN_PROP_ORDINARY, ordinary);
    props_set(out, PN_PROP_STATE_MACHINE, sm);
    props_set(out, PN_PROP_SOURCE_TRANSITION, source);
    props_set(out, PN_PROP_SINK_TRANSITION, sink);
    props_set(out, PN_PROP_LOOP_FREE, loop_free);
    props_set(out, PN_PROP_CONSERVATIVE, cons);
    props_set(out, PN_PROP_SUBCONSERVATIVE, subcons);
}

/* What each place's producers and consumers say. */
static void props_by_place(const pn_cnet *cn, const uint32_t *coff, const uint32_t *cons,
                           const uint32_t *poff, pn_props *out)
{
    bool mg = true, source = false, sink = false, sfc = true, efc = true;
    for (uint32_t p = 0; p < cn->n_places; p++) {
        uint32_t nc = coff[p + 1] - coff[p], np = poff[p + 1] - poff[p];
        mg = mg && nc == 1 && np == 1;
        source = source || np == 0;
        sink = sink || nc == 0;
        if (nc < 2)
            continue;
        for (uint32_t k = coff[p]; k < coff[p + 1]; k++) {
            uint32_t t = cons[k];
            sfc = sfc && cn->pre_off[t + 1] - cn->pre_off[t] == 1;
            efc = efc && props_same_preset(cn, cons[coff[p]], t);
        }
    }
    props_set(out, PN_PROP_MARKED_GRAPH, mg);
    props_set(out, PN_PROP_SOURCE_PLACE, source);
    props_set(out, PN_PROP_SINK_PLACE, sink);
    props_set(out, PN_PROP_SIMPLE_FREE_CHOICE, sfc);
    props_set(out, PN_PROP_EXTENDED_FREE_CHOICE, efc);
}

static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Nodes: places 0..P-1, then transitions P..P+T-1. */
static bool props_connected(const pn_cnet *cn, uint32_t *parent)
{
    uint32_t P = cn->n_places, N = P + cn->n_transitions, parts = N;
    for (uint32_t x = 0; x < N; x++)
        parent[x] = x;
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        for (int side = 0; side < 2; side++) {
            const uint32_t *off = side ? cn->post_off : cn->pre_off;
            const pn_cnet_arc *arcs = side ? cn->post : cn->pre;
            for (uint32_t k = off[t]; k < off[t + 1]; k++) {
                uint32_t a = uf_find(parent, arcs[k].place), b = uf_find(parent, P + t);
                if (a != b) {
                    parent[a] = b;
                    parts--;
                }
            }
        }
    return parts <= 1;
}

/* Every node reached from node 0, forward (place -> its consumers,
 * transition -> its output places) or backward (place -> its producers,
 * transition -> its input places). */
static bool props_reach_all(const pn_cnet *cn, const uint32_t *toff, const uint32_t *tr,
                            bool forward, uint32_t *stack, uint8_t *seen)
{
    uint32_t P = cn->n_places, N = P + cn->n_transitions, top = 0, count = 1;
    const uint32_t *off = forward ? cn->post_off : cn->pre_off;
    const pn_cnet_arc *arcs = forward ? cn->post : cn->pre;
    memset(seen, 0, N);
    seen[0] = 1;
    stack[top++] = 0;
    while (top > 0) {
        uint32_t x = stack[--top];
        uint32_t lo = x < P ? toff[x] : off[x - P], hi = x < P ? toff[x + 1] : off[x - P + 1];
        for (uint32_t k = lo; k < hi; k++) {
            uint32_t y = x < P ? P + tr[k] : arcs[k].place;
            if (!seen[y]) {
                seen[y] = 1;
                count++;
                stack[top++] = y;
            }
        }
    }
    return count == N;
}

static void props_unknown_structure(pn_props *out)
{
    for (int p = 0; p < PN_PROP_NESTED_UNITS; p++)
        out->v[p].verdict = PN_VERDICT_UNKNOWN;
}

pn_status pn_props_structural(const pn_cnet *cn, pn_props *out, pn_error *err)
{
    const pn_net *net = cn->net;
    out->v[PN_PROP_NESTED_UNITS].verdict =
        net != NULL && net->nupn ? PN_VERDICT_TRUE : PN_VERDICT_UNKNOWN;
    out->v[PN_PROP_NESTED_UNITS].techniques = PN_TECH_TOPOLOGICAL;
    if (net != NULL && (net->unfold.dropped_places > 0 || net->unfold.dropped_transitions > 0)) {
        props_unknown_structure(out);
        return PN_OK;
    }
    uint32_t *coff = NULL, *cons = NULL, *poff = NULL, *prod = NULL;
    size_t N = (size_t)cn->n_places + cn->n_transitions;
    uint32_t *work = malloc((N + 1) * sizeof *work);
    uint8_t *seen = malloc(N + 1);
    pn_status st = work != NULL && seen != NULL
                       ? pn_cnet_place_index(cn, false, &coff, &cons, err)
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory for the net's structure");
    if (st == PN_OK)
        st = pn_cnet_place_index(cn, true, &poff, &prod, err);
    if (st == PN_OK) {
        props_by_transition(cn, out);
        props_by_place(cn, coff, cons, poff, out);
        props_set(out, PN_PROP_CONNECTED, props_connected(cn, work));
        props_set(out, PN_PROP_STRONGLY_CONNECTED,
                  N <= 1 || (props_reach_all(cn, coff, cons, true, work, seen) &&
                             props_reach_all(cn, poff, prod, false, work, seen)));
    }
    free(coff);
    free(cons);
    free(poff);
    free(prod);
    free(work);
    free(seen);
    return st;
}
