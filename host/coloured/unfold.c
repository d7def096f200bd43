/* Unfolding a symmetric net into a P/T pn_net: one place per (place,
 * colour class) that the place can ever hold, one transition per binding of
 * a transition's variables whose guard holds and whose input classes can
 * all be held (unfold_reach.c computes those classes first), so nothing that
 * can never be marked or fire is built. The bindings come from
 * unfold_bind.c. Unfolded places are then what INDEX.tsv of the MCC counts,
 * less what the MCC's own pruning keeps (see docs/architecture.md). */
#include "coloured/unfold_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the net being built holds (measured on TokenRing-COL-500: 787 MB
 * resident for 3.2M transitions, 12.6M arcs and 251,001 places, so about
 * 150 bytes a transition, 30 an arc, 100 a place), twice over: a growing
 * array is copied to one twice its size, so the resident size can jump by
 * as much as it holds between two polls of the budget. */
#define HL_BYTES(net) \
    (2 * ((uint64_t)(net)->n_transitions * 150 + (uint64_t)(net)->n_arcs * 30 + \
          (uint64_t)(net)->n_places * 100))

/* Refuses, before it is built, the node that would take the net past the
 * memory left when the unfolding started (checked every 4,096 nodes). */
static pn_status hl_room(hl_unfolder *u, const xmlNode *at, uint32_t count)
{
    if (u->room == 0 || count % 4096 != 0 || HL_BYTES(u->net) <= u->room)
        return PN_OK;
    return hl_fail(u->m, PN_ERR_OUT_OF_MEMORY, at,
                   "the unfolding outgrows the memory left (%u places, %u transitions, "
                   "%u arcs built)", u->net->n_places, u->net->n_transitions, u->net->n_arcs);
}

static pn_status hl_net_error(hl_unfolder *u, const xmlNode *at, const pn_error *e)
{
    return hl_fail(u->m, e->code, at, "%s", e->msg);
}

/* u->name is the wanted id; a clash with an id already taken (a coloured
 * id that reads like an unfolded one) gets a numeric suffix. */
static pn_status hl_unique_name(hl_unfolder *u, const xmlNode *at)
{
    size_t len = strlen(u->name);
    for (uint32_t k = 2; pn_net_find_place(u->net, u->name) >= 0 ||
                         pn_net_find_transition(u->net, u->name) >= 0; k++) {
        /* Labels that run together ("a_b" and "a", "b_c" in a product) can
         * make many colours want one id: each retry is a step, so that
         * such a model cannot go quadratic without bound. */
        pn_status st = hl_spend(u->m, at, 0, 1);
        if (st != PN_OK)
            return st;
        if (len + 16 > sizeof u->name)
            return hl_fail(u->m, PN_ERR_UNSUPPORTED, at, "unfolded id too long");
        snprintf(u->name + len, sizeof u->name - len, "_u%u", k);
    }
    return PN_OK;
}

/* Appends "_x<n>" to u->name when the class holds n > 1 colours (its
 * first colour's label is already there): merged nodes never read like
 * the unfolded node of one colour. */
static pn_status hl_class_mark(hl_unfolder *u, const xmlNode *at, uint32_t sort,
                               uint64_t rank)
{
    uint64_t n = hl_class_size(u->m, sort, rank);
    size_t len = strlen(u->name);
    if (n > 1 && snprintf(u->name + len, sizeof u->name - len, "_x%" PRIu64, n) >=
                     (int)(sizeof u->name - len))
        return hl_fail(u->m, PN_ERR_UNSUPPORTED, at, "unfolded id too long");
    return PN_OK;
}

/* name = id, then "_label" when the colour has one. */
static pn_status hl_node_name(hl_unfolder *u, const xmlNode *at, const char *id,
                              uint32_t sort, uint64_t colour)
{
    size_t n = strlen(id);
    if (n + 2 > sizeof u->name)
        return hl_fail(u->m, PN_ERR_UNSUPPORTED, at, "unfolded id too long");
    memcpy(u->name, id, n);
    u->name[n] = '_';
    u->name[n + 1] = '\0';
    if (hl_colour_label(u->m, sort, colour, u->name, sizeof u->name) != 0)
        return hl_fail(u->m, PN_ERR_UNSUPPORTED, at, "unfolded id too long");
    if (u->name[n + 1] == '\0')
        u->name[n] = '\0';
    return PN_OK;
}

/* ---- places -------------------------------------------------------------- */

/* An initial marking is a closed term: its variables are refused before
 * anything evaluates it. */
static pn_status hl_check_initial(hl_unfolder *u)
{
    for (uint32_t i = 0; i < u->m->n_places; i++) {
        const hl_place *p = &u->m->places[i];
        if (p->m0 == NULL)
            continue;
        memset(u->used, 0, u->m->n_vars * sizeof *u->used);
        hl_term_vars(p->m0, u->used);
        for (uint32_t v = 0; v < u->m->n_vars; v++)
            if (u->used[v])
                return hl_fail(u->m, PN_ERR_INPUT, p->node,
                               "initial marking of '%.120s' uses variable '%.120s'", p->id,
                               u->m->vars[v].id);
    }
    return PN_OK;
}

/* Whether class c of place i is built: it is markable, or no class of the
 * place is and c is the first (a coloured id always names a place, so
 * that formulas over it stay well formed). */
static bool hl_place_built(const hl_unfolder *u, uint32_t i, uint64_t c, bool any)
{
    return any ? hl_bit(u->markable, u->base_of[i] + c) : c == 0;
}

static bool hl_any_markable(const hl_unfolder *u, uint32_t i, uint64_t size)
{
    for (uint64_t c = 0; c < size; c++)
        if (hl_bit(u->markable, u->base_of[i] + c))
            return true;
    return false;
}

static pn_status hl_unfold_place(hl_unfolder *u, uint32_t i)
{
    const hl_place *p = &u->m->places[i];
    uint64_t size = hl_class_count(u->m, p->sort); /* hl_count_places checked it */
    pn_status st = hl_initial_bag(u, p);
    bool any = hl_any_markable(u, i, size);
    size_t k = 0; /* cursor in the sorted initial marking, by class */
    for (uint64_t c = 0; c < size && st == PN_OK; c++) {
        u->place_of[u->base_of[i] + c] = HL_NONE;
        st = hl_spend(u->m, p->node, 0, 1); /* a place is a step: the budget is polled */
        if (st != PN_OK || !hl_place_built(u, i, c, any))
            continue;
        st = hl_room(u, p->node, u->net->n_places);
        if (st != PN_OK)
            break;
        uint64_t m0 = k < u->bag.n && u->bag.p[k].colour == c ? (uint64_t)u->bag.p[k++].count : 0;
        st = hl_node_name(u, p->node, p->id, p->sort, hl_class_rep(u->m, p->sort, c));
        if (st == PN_OK)
            st = hl_class_mark(u, p->node, p->sort, c);
        if (st == PN_OK)
            st = hl_unique_name(u, p->node);
        pn_error e = {PN_OK, ""};
        int64_t at = st == PN_OK ? pn_net_add_place(u->net, u->name, NULL, m0, &e) : -1;
        if (st == PN_OK && at < 0)
            st = hl_net_error(u, p->node, &e);
        else if (st == PN_OK)
            u->place_of[u->base_of[i] + c] = (uint32_t)at;
    }
    return st;
}

/* A coloured node's unfolded nodes are built one after the other, so its
 * group is a range. */
static pn_status hl_range_group(hl_unfolder *u, bool place, const char *id,
                                const xmlNode *at, uint32_t first, uint32_t n)
{
    uint32_t *idx = malloc((size_t)(n > 0 ? n : 1) * sizeof *idx);
    if (idx == NULL)
        return hl_nomem(u->m);
    for (uint32_t i = 0; i < n; i++)
        idx[i] = first + i;
    pn_error e = {PN_OK, ""};
    pn_status st = pn_net_add_group(u->net, place, id, idx, n, &e);
    free(idx);
    return st == PN_OK ? PN_OK : hl_net_error(u, at, &e);
}

/* ---- one binding: the transition and its arcs ----------------------------- */

/* The transition id, then the colour of each variable in binding order. */
static pn_status hl_binding_name(hl_unfolder *u, const hl_trans *t)
{
    size_t len = strlen(t->id);
    if (len + 1 > sizeof u->name)
        return hl_fail(u->m, PN_ERR_UNSUPPORTED, t->node, "unfolded id too long");
    memcpy(u->name, t->id, len + 1);
    for (uint32_t i = 0; i < u->n_order; i++) {
        uint32_t v = u->order[i];
        size_t n = strlen(u->name);
        if (n + 2 > sizeof u->name)
            return hl_fail(u->m, PN_ERR_UNSUPPORTED, t->node, "unfolded id too long");
        memcpy(u->name + n, "_", 2);
        uint32_t sort = u->m->vars[v].sort;
        if (hl_colour_label(u->m, sort, u->binding[v], u->name, sizeof u->name) != 0)
            return hl_fail(u->m, PN_ERR_UNSUPPORTED, t->node, "unfolded id too long");
        pn_status st = hl_class_mark(u, t->node, sort,
                                     hl_class_of(u->m, sort, u->binding[v]));
        if (st != PN_OK)
            return st;
    }
    return hl_unique_name(u, t->node);
}

static pn_status hl_add_arcs(hl_unfolder *u, const hl_trans *t, uint32_t tr)
{
    for (uint32_t i = 0; i < t->arc_count; i++) {
        const hl_arc *a = &u->m->arcs[u->m->by_trans[t->arc_first + i]];
        pn_status st = hl_eval_classes(u, a->ins, u->m->places[a->place].sort, u->binding);
        uint64_t base = u->base_of[a->place];
        for (size_t k = 0; k < u->bag.n && st == PN_OK; k++) {
            uint32_t q = u->place_of[base + u->bag.p[k].colour];
            if (q == HL_NONE) /* the fixpoint closes markable classes under firing */
                return hl_fail(u->m, PN_ERR_INTERNAL, a->node,
                               "an arc reaches a class the colour fixpoint left out");
            if (u->net->n_arcs >= u->m->limits.arcs)
                return hl_fail(u->m, PN_ERR_UNSUPPORTED, a->node,
                               "the unfolding has more than %" PRIu64 " arcs", u->m->limits.arcs);
            pn_error e = {PN_OK, ""};
            if (pn_net_add_arc(u->net, q, tr, a->to_trans,
                               (uint64_t)u->bag.p[k].count, &e) != PN_OK)
                st = hl_net_error(u, a->node, &e);
        }
        if (st != PN_OK)
            return st;
    }
    return PN_OK;
}

/* The leaf of the enumeration: a binding whose input classes can all be
 * held becomes a transition; the others are counted as dead, never built. */
static pn_status hl_emit(hl_unfolder *u, const hl_trans *t)
{
    for (uint32_t i = 0; i < t->arc_count; i++) {
        const hl_arc *a = &u->m->arcs[u->m->by_trans[t->arc_first + i]];
        bool ok = true;
        pn_status st = a->to_trans ? hl_inputs_markable(u, a, &ok) : PN_OK;
        if (st != PN_OK)
            return st;
        if (!ok) {
            u->info->dropped_transitions++;
            return PN_OK;
        }
    }
    if (u->net->n_transitions >= u->m->limits.transitions)
        return hl_fail(u->m, PN_ERR_UNSUPPORTED, t->node,
                       "the unfolding has more than %" PRIu64 " transitions",
                       u->m->limits.transitions);
    pn_status st = hl_spend(u->m, t->node, 0, u->arc_cost);
    if (st == PN_OK)
        st = hl_room(u, t->node, u->net->n_transitions);
    if (st == PN_OK)
        st = hl_binding_name(u, t);
    if (st != PN_OK)
        return st;
    pn_error e = {PN_OK, ""};
    int64_t tr = pn_net_add_transition(u->net, u->name, NULL, &e);
    if (tr < 0)
        return hl_net_error(u, t->node, &e);
    u->info->bindings_kept++;
    return hl_add_arcs(u, t, (uint32_t)tr);
}

static pn_status hl_unfold_trans(hl_unfolder *u, const hl_trans *t)
{
    uint32_t first = u->net->n_transitions;
    pn_status st = hl_bind_all(u, t);
    if (st != PN_OK)
        return st;
    return hl_range_group(u, false, t->id, t->node, first, u->net->n_transitions - first);
}

/* ---- the whole net ------------------------------------------------------- */

/* The unfolded places are known before any is built: refuse too many at
 * once rather than after gigabytes of them. */
static pn_status hl_count_places(hl_model *m)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < m->n_places; i++) {
        n += hl_class_count(m, m->places[i].sort); /* each < 2^31, n_places < 2^32 */
        if (n > m->limits.places)
            return hl_fail(m, PN_ERR_UNSUPPORTED, m->places[i].node,
                           "the unfolding has more than %" PRIu64 " places", m->limits.places);
    }
    return PN_OK;
}

static pn_status hl_unfold_all(hl_unfolder *u)
{
    for (uint32_t i = 0; i < u->m->n_vars; i++)
        u->pos[i] = HL_NONE;
    pn_status st = hl_count_places(u->m);
    if (st == PN_OK)
        st = hl_check_initial(u);
    if (st == PN_OK)
        st = hl_reach_classes(u);
    if (st == PN_OK && (u->place_of = malloc((size_t)(u->n_classes + 1) *
                                              sizeof *u->place_of)) == NULL)
        st = hl_nomem(u->m);
    pn_budget_phase(u->m->budget, "unfolding %u coloured places and %u transitions",
                    u->m->n_places, u->m->n_trans);
    for (uint32_t i = 0; i < u->m->n_places && st == PN_OK; i++) {
        uint32_t first = u->net->n_places;
        st = hl_unfold_place(u, i);
        if (st == PN_OK)
            st = hl_range_group(u, true, u->m->places[i].id, u->m->places[i].node, first,
                                u->net->n_places - first);
    }
    if (st == PN_OK)
        u->info->dropped_places = (uint32_t)(u->n_classes - u->net->n_places);
    u->leaf = hl_emit;
    for (uint32_t i = 0; i < u->m->n_trans && st == PN_OK; i++) {
        pn_budget_detail(u->m->budget, "transition %u of %u (%s)", i + 1, u->m->n_trans,
                         u->m->trans[i].id);
        st = hl_unfold_trans(u, &u->m->trans[i]);
    }
    return st;
}

static void hl_unfolder_free(hl_unfolder *u)
{
    free(u->bag.p);
    free(u->binding);
    free(u->pos);
    free(u->order);
    free(u->used);
    free(u->depth_cost);
    free(u->clauses);
    free(u->checks);
    free(u->restr);
    for (uint32_t i = 0; i < u->m->n_vars && u->dom != NULL; i++)
        free(u->dom[i]);
    free(u->dom);
    free(u->dom_on);
    free(u->markable);
    free(u->base_of);
    free(u->place_of);
}

pn_status hl_unfold(hl_model *m, const char *net_id, pn_net **out)
{
    hl_unfolder u;
    memset(&u, 0, sizeof u);
    u.m = m;
    u.net = pn_net_new(net_id);
    size_t nv = m->n_vars > 0 ? m->n_vars : 1;
    u.binding = calloc(nv, sizeof *u.binding);
    u.pos = calloc(nv, sizeof *u.pos);
    u.order = calloc(nv, sizeof *u.order);
    u.used = calloc(nv, sizeof *u.used);
    u.depth_cost = calloc(nv + 1, sizeof *u.depth_cost);
    u.dom = calloc(nv, sizeof *u.dom);
    u.dom_on = calloc(nv, sizeof *u.dom_on);
    pn_status st = PN_OK;
    if (u.net == NULL || u.binding == NULL || u.pos == NULL || u.order == NULL ||
        u.used == NULL || u.depth_cost == NULL || u.dom == NULL || u.dom_on == NULL) {
        st = hl_nomem(m);
    } else {
        u.info = &u.net->unfold;
        u.info->unfolded = true;
        u.info->coloured_places = m->n_places;
        u.info->coloured_transitions = m->n_trans;
        u.info->merged_sorts = hl_classes_merged(m);
        u.room = pn_budget_memory(m->budget);
        st = hl_unfold_all(&u);
    }
    hl_unfolder_free(&u);
    if (st != PN_OK) {
        pn_net_free(u.net);
        return st;
    }
    *out = u.net;
    return PN_OK;
}
