/* Removing the structurally dead part of an unfolding, as the MCC's own
 * unfolded models do (their place and transition counts in INDEX.tsv are
 * after this step). A place is unmarkable when it starts empty and no live
 * transition puts tokens into it; a transition that consumes from an
 * unmarkable place is dead. Both are computed as a least fixpoint with a
 * work list (linear in the arcs) and dropped: an unmarkable place always
 * holds 0 tokens and a dead transition never fires, so every examination
 * answers the same on the pruned net. Group members that are dropped are
 * left out of their group, except that a place group always keeps one
 * member, so that formulas over it (UpperBounds included) stay well formed. */
#include "coloured/hlpn.h"

#include <stdlib.h>
#include <string.h>

typedef struct hl_prune {
    const pn_net *net;
    uint32_t *cons_off, *cons;   /* place -> transitions consuming from it */
    uint32_t *prod_off, *prod;   /* transition -> places it produces into */
    uint32_t *producers;         /* live producer arcs per place */
    bool *unmarkable, *dead;
    uint32_t *queue;
    uint32_t *place_map, *trans_map; /* old index -> new, or HL_NONE */
} hl_prune;

static void hl_prune_free(hl_prune *p)
{
    free(p->cons_off);
    free(p->cons);
    free(p->prod_off);
    free(p->prod);
    free(p->producers);
    free(p->unmarkable);
    free(p->dead);
    free(p->queue);
    free(p->place_map);
    free(p->trans_map);
}

/* CSR adjacency: for consuming arcs, place -> transition; for producing
 * arcs, transition -> place. */
static void hl_prune_csr(const pn_net *net, bool consuming, uint32_t *off, uint32_t *adj,
                         uint32_t n)
{
    memset(off, 0, ((size_t)n + 1) * sizeof *off);
    for (uint32_t i = 0; i < net->n_arcs; i++) {
        const pn_arc *a = &net->arcs[i];
        if (a->to_transition == consuming)
            off[(consuming ? a->place : a->transition) + 1]++;
    }
    for (uint32_t i = 0; i < n; i++)
        off[i + 1] += off[i];
    for (uint32_t i = 0; i < net->n_arcs; i++) {
        const pn_arc *a = &net->arcs[i];
        if (a->to_transition != consuming)
            continue;
        uint32_t from = consuming ? a->place : a->transition;
        adj[off[from]++] = consuming ? a->transition : a->place;
    }
    for (uint32_t i = n; i > 0; i--)
        off[i] = off[i - 1];
    off[0] = 0;
}

static bool hl_prune_alloc(hl_prune *p, const pn_net *net)
{
    size_t np = net->n_places, nt = net->n_transitions, na = net->n_arcs ? net->n_arcs : 1;
    p->net = net;
    p->cons_off = malloc((np + 1) * sizeof *p->cons_off);
    p->cons = malloc(na * sizeof *p->cons);
    p->prod_off = malloc((nt + 1) * sizeof *p->prod_off);
    p->prod = malloc(na * sizeof *p->prod);
    p->producers = calloc(np + 1, sizeof *p->producers);
    p->unmarkable = calloc(np + 1, sizeof *p->unmarkable);
    p->dead = calloc(nt + 1, sizeof *p->dead);
    p->queue = malloc((np + 1) * sizeof *p->queue);
    p->place_map = malloc((np + 1) * sizeof *p->place_map);
    p->trans_map = malloc((nt + 1) * sizeof *p->trans_map);
    return p->cons_off && p->cons && p->prod_off && p->prod && p->producers &&
           p->unmarkable && p->dead && p->queue && p->place_map && p->trans_map;
}

static void hl_prune_fixpoint(hl_prune *p)
{
    const pn_net *net = p->net;
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < net->n_arcs; i++)
        if (!net->arcs[i].to_transition)
            p->producers[net->arcs[i].place]++;
    for (uint32_t q = 0; q < net->n_places; q++)
        if (net->m0[q] == 0 && p->producers[q] == 0) {
            p->unmarkable[q] = true;
            p->queue[tail++] = q;
        }
    while (head < tail) {
        uint32_t q = p->queue[head++];
        for (uint32_t k = p->cons_off[q]; k < p->cons_off[q + 1]; k++) {
            uint32_t t = p->cons[k];
            if (p->dead[t])
                continue;
            p->dead[t] = true;
            for (uint32_t j = p->prod_off[t]; j < p->prod_off[t + 1]; j++) {
                uint32_t r = p->prod[j];
                if (--p->producers[r] == 0 && net->m0[r] == 0 && !p->unmarkable[r]) {
                    p->unmarkable[r] = true;
                    p->queue[tail++] = r;
                }
            }
        }
    }
}

/* A place group never becomes empty: its first member is kept. */
static void hl_prune_keep_groups(hl_prune *p)
{
    const pn_net_groups *g = &p->net->place_groups;
    for (uint32_t i = 0; i < g->n; i++) {
        bool any = false;
        for (uint32_t k = 0; k < g->len[i] && !any; k++)
            any = !p->unmarkable[g->idx[i][k]];
        if (!any && g->len[i] > 0)
            p->unmarkable[g->idx[i][0]] = false;
    }
}

static pn_status hl_copy_nodes(hl_prune *p, pn_net *out, pn_error *err)
{
    const pn_net *net = p->net;
    for (uint32_t q = 0; q < net->n_places; q++) {
        p->place_map[q] = HL_NONE;
        if (p->unmarkable[q])
            continue;
        int64_t i = pn_net_add_place(out, net->place_id[q], net->place_name[q], net->m0[q], err);
        if (i < 0)
            return err->code;
        p->place_map[q] = (uint32_t)i;
    }
    for (uint32_t t = 0; t < net->n_transitions; t++) {
        p->trans_map[t] = HL_NONE;
        if (p->dead[t])
            continue;
        int64_t i = pn_net_add_transition(out, net->trans_id[t], net->trans_name[t], err);
        if (i < 0)
            return err->code;
        p->trans_map[t] = (uint32_t)i;
    }
    for (uint32_t i = 0; i < net->n_arcs; i++) {
        const pn_arc *a = &net->arcs[i];
        uint32_t q = p->place_map[a->place], t = p->trans_map[a->transition];
        if (q != HL_NONE && t != HL_NONE &&
            pn_net_add_arc(out, q, t, a->to_transition, a->weight, err) != PN_OK)
            return err->code;
    }
    return PN_OK;
}

static pn_status hl_copy_groups(const pn_net_groups *g, const uint32_t *map, bool place,
                                pn_net *out, pn_error *err)
{
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t n = 0;
        for (uint32_t k = 0; k < g->len[i]; k++)
            if (map[g->idx[i][k]] != HL_NONE)
                g->idx[i][n++] = map[g->idx[i][k]]; /* in place: the old net goes */
        pn_status st = pn_net_add_group(out, place, g->id[i], g->idx[i], n, err);
        if (st != PN_OK)
            return st;
    }
    return PN_OK;
}

pn_status hl_prune_dead(pn_net *net, pn_net **out, pn_error *err)
{
    hl_prune p;
    memset(&p, 0, sizeof p);
    pn_status st = PN_OK;
    pn_net *pruned = NULL;
    if (!hl_prune_alloc(&p, net) || (pruned = pn_net_new(net->id)) == NULL) {
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory pruning the unfolding");
    } else {
        hl_prune_csr(net, true, p.cons_off, p.cons, net->n_places);
        hl_prune_csr(net, false, p.prod_off, p.prod, net->n_transitions);
        hl_prune_fixpoint(&p);
        hl_prune_keep_groups(&p);
        st = hl_copy_nodes(&p, pruned, err);
        if (st == PN_OK)
            st = hl_copy_groups(&net->place_groups, p.place_map, true, pruned, err);
        if (st == PN_OK)
            st = hl_copy_groups(&net->trans_groups, p.trans_map, false, pruned, err);
    }
    hl_prune_free(&p);
    if (st != PN_OK) {
        pn_net_free(pruned);
        return st;
    }
    pruned->unfold = net->unfold;
    *out = pruned;
    return PN_OK;
}
