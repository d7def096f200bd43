/* The colour classes each place of a symmetric net can ever hold, as a
 * least fixpoint over the coloured net with token counts ignored, the
 * over-approximation TAPAAL computes before it unfolds (Bilgram, Jensen,
 * Pedersen, Srba, Taankvist, "Improvements in Unfolding of Colored Petri
 * Nets", RP 2021, sec. 3): a class is markable when the initial marking
 * holds it or some binding whose input classes are all markable puts it
 * there. Only markable places and bindings with markable inputs are
 * unfolded (unfold.c): the others never hold a token or fire.
 *
 * A work list of coloured transitions: a transition is enumerated again
 * (by the join of unfold_bind.c) when a place it reads from gains a class.
 * The bits are set as the bindings are found, so a chain of successors
 * (x, x++, ...) is followed within one enumeration, in the order of the
 * colours. */
#include "coloured/unfold_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct hl_reach {
    uint32_t *cons_off, *cons;  /* coloured place -> transitions reading it */
    uint32_t *queue;            /* ring of n_trans + 1 */
    bool *queued;
    uint32_t head, tail;
    /* Bindings found live per transition at its latest enumeration, and
     * their sum: a lower bound on the transitions the unfolding will
     * build, held to the same bounds as the building (unfold.c). */
    uint64_t *live_of;
    uint64_t live, now;
    uint64_t bytes;          /* what those bindings will take, HL_BYTES' way */
};

static void hl_reach_free(hl_reach *r)
{
    free(r->cons_off);
    free(r->cons);
    free(r->queue);
    free(r->queued);
    free(r->live_of);
}

static bool hl_reach_index(hl_reach *r, const hl_model *m)
{
    r->cons_off = calloc((size_t)m->n_places + 1, sizeof *r->cons_off);
    r->cons = malloc(((size_t)m->n_arcs + 1) * sizeof *r->cons);
    r->queue = malloc(((size_t)m->n_trans + 1) * sizeof *r->queue);
    r->queued = calloc((size_t)m->n_trans + 1, sizeof *r->queued);
    r->live_of = calloc((size_t)m->n_trans + 1, sizeof *r->live_of);
    if (r->cons_off == NULL || r->cons == NULL || r->queue == NULL || r->queued == NULL ||
        r->live_of == NULL)
        return false;
    for (uint32_t i = 0; i < m->n_arcs; i++)
        if (m->arcs[i].to_trans)
            r->cons_off[m->arcs[i].place + 1]++;
    for (uint32_t p = 0; p < m->n_places; p++)
        r->cons_off[p + 1] += r->cons_off[p];
    uint32_t *next = calloc((size_t)m->n_places + 1, sizeof *next);
    if (next == NULL)
        return false;
    for (uint32_t i = 0; i < m->n_arcs; i++) {
        const hl_arc *a = &m->arcs[i];
        if (a->to_trans)
            r->cons[r->cons_off[a->place] + next[a->place]++] = a->trans;
    }
    free(next);
    return true;
}

static void hl_reach_push(hl_reach *r, uint32_t n_trans, uint32_t t)
{
    if (r->queued[t])
        return;
    r->queued[t] = true;
    r->queue[r->tail] = t;
    r->tail = (r->tail + 1) % (n_trans + 1);
}

/* A place gained a class: the transitions reading it are enumerated
 * again. */
static void hl_reach_wake(hl_unfolder *u, uint32_t p)
{
    hl_reach *r = u->reach;
    for (uint32_t k = r->cons_off[p]; k < r->cons_off[p + 1]; k++)
        hl_reach_push(r, u->m->n_trans, r->cons[k]);
}

/* Marks the classes of bag in place p, waking its readers when one is new. */
static void hl_reach_mark(hl_unfolder *u, uint32_t p, const hl_bag *bag)
{
    bool grew = false;
    for (size_t k = 0; k < bag->n; k++) {
        uint64_t i = u->base_of[p] + bag->p[k].colour;
        if (hl_bit(u->markable, i))
            continue;
        grew = true;
        u->markable[i >> 6] |= UINT64_C(1) << (i & 63);
        hl_domains_widen(u, p, bag->p[k].colour);
    }
    if (grew)
        hl_reach_wake(u, p);
}

/* Bytes a built transition with n arcs takes (unfold.c's HL_BYTES). */
static uint64_t hl_trans_bytes(uint32_t n)
{
    return 2 * (150 + 30 * (uint64_t)n);
}

/* An unfolding past its bounds is refused as soon as the live bindings
 * found show it, not after the whole fixpoint. */
static pn_status hl_reach_bounds(hl_unfolder *u, const hl_trans *t)
{
    const hl_reach *r = u->reach;
    if (r->live > u->m->limits.transitions)
        return hl_fail(u->m, PN_ERR_UNSUPPORTED, t->node,
                       "the unfolding has more than %" PRIu64 " transitions",
                       u->m->limits.transitions);
    if (u->room != 0 && r->bytes > u->room)
        return hl_fail(u->m, PN_ERR_OUT_OF_MEMORY, t->node,
                       "the unfolding outgrows the memory left (%" PRIu64
                       " transitions that can fire found)", r->live);
    return PN_OK;
}

/* The leaf of the join: the binding's outputs become markable. */
static pn_status hl_reach_leaf(hl_unfolder *u, const hl_trans *t)
{
    hl_reach *r = u->reach;
    uint64_t *most = &r->live_of[t - u->m->trans];
    if (++r->now > *most) { /* more than any earlier enumeration of t found */
        *most = r->now;
        r->live++;
        r->bytes += hl_trans_bytes(t->arc_count);
    }
    pn_status st = r->now % 4096 == 0 ? hl_reach_bounds(u, t) : PN_OK;
    if (st == PN_OK)
        st = hl_spend(u->m, t->node, 0, u->arc_cost);
    for (uint32_t i = 0; i < t->arc_count && st == PN_OK; i++) {
        const hl_arc *a = &u->m->arcs[u->m->by_trans[t->arc_first + i]];
        if (a->to_trans)
            continue;
        st = hl_eval_classes(u, a->ins, u->m->places[a->place].sort, u->binding);
        if (st == PN_OK)
            hl_reach_mark(u, a->place, &u->bag);
    }
    return st;
}

/* The initial marking's classes (its variables were refused by the
 * caller's reading of it). */
static pn_status hl_reach_initial(hl_unfolder *u)
{
    for (uint32_t p = 0; p < u->m->n_places; p++) {
        pn_status st = hl_initial_bag(u, &u->m->places[p]);
        if (st != PN_OK)
            return st;
        hl_reach_mark(u, p, &u->bag);
    }
    return PN_OK;
}

static pn_status hl_reach_layout(hl_unfolder *u)
{
    const hl_model *m = u->m;
    u->base_of = malloc(((size_t)m->n_places + 1) * sizeof *u->base_of);
    if (u->base_of == NULL)
        return hl_nomem(u->m);
    uint64_t n = 0;
    for (uint32_t p = 0; p < m->n_places; p++) {
        u->base_of[p] = n;
        n += hl_class_count(m, m->places[p].sort); /* hl_count_places bounds it */
    }
    u->n_classes = n;
    u->markable = calloc((size_t)(n / 64 + 1), sizeof *u->markable);
    return u->markable != NULL ? PN_OK : hl_nomem(u->m);
}

pn_status hl_reach_classes(hl_unfolder *u)
{
    hl_reach r;
    memset(&r, 0, sizeof r);
    pn_status st = hl_reach_layout(u);
    if (st == PN_OK && !hl_reach_index(&r, u->m))
        st = hl_nomem(u->m);
    u->reach = &r;
    for (uint32_t t = 0; t < u->m->n_trans && st == PN_OK; t++)
        hl_reach_push(&r, u->m->n_trans, t);
    if (st == PN_OK)
        st = hl_reach_initial(u);
    pn_budget_phase(u->m->budget, "unfolding: the colours each of %u coloured places can hold",
                    u->m->n_places);
    u->join = true;
    u->leaf = hl_reach_leaf;
    while (st == PN_OK && r.head != r.tail) {
        uint32_t t = r.queue[r.head];
        r.head = (r.head + 1) % (u->m->n_trans + 1);
        r.queued[t] = false;
        r.now = 0;
        pn_budget_detail(u->m->budget, "transition %u of %u (%s)", t + 1, u->m->n_trans,
                         u->m->trans[t].id);
        st = hl_bind_all(u, &u->m->trans[t]);
    }
    u->join = false;
    u->reach = NULL;
    hl_reach_free(&r);
    return st;
}
