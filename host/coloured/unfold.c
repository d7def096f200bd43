/* Unfolding a symmetric net into a P/T pn_net. Every colour of a place's
 * sort becomes a place (so unfolded places are exactly what INDEX.tsv of the
 * MCC counts), and every binding of a transition's variables that satisfies
 * its guard becomes a transition. Bindings are enumerated depth first over
 * the transition's own variables; each top-level conjunct of the guard is
 * tested as soon as its last variable is bound, which prunes most of the
 * product of the sorts in guarded models. */
#include "coloured/hlpn.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HL_NAME_MAX 4096

typedef struct hl_clause {
    const hl_term *term;
    uint32_t depth;          /* variables bound before it can be tested */
} hl_clause;

typedef struct hl_unfolder {
    hl_model *m;
    pn_net *net;
    pn_unfold_info *info;
    hl_bag bag;
    uint64_t *binding;       /* per variable of the model */
    uint32_t *pos;           /* variable -> position in order, or HL_NONE */
    bool *used;              /* variable -> occurs in the term at hand */
    uint32_t *order;         /* the current transition's variables */
    uint32_t n_order;
    hl_clause *clauses;
    uint32_t n_clauses, cap_clauses;
    uint64_t *depth_cost;    /* steps to test the clauses of each depth */
    uint64_t arc_cost;       /* steps to evaluate the transition's arcs */
    uint32_t t;              /* the transition being unfolded */
    uint64_t room;           /* bytes the unfolding may take; 0: unwatched */
    char name[HL_NAME_MAX];
} hl_unfolder;

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

static pn_status hl_initial_bag(hl_unfolder *u, const hl_place *p)
{
    u->bag.n = 0;
    if (p->m0 == NULL)
        return PN_OK;
    memset(u->used, 0, u->m->n_vars * sizeof *u->used);
    hl_term_vars(p->m0, u->used);
    for (uint32_t v = 0; v < u->m->n_vars; v++)
        if (u->used[v])
            return hl_fail(u->m, PN_ERR_INPUT, p->node,
                           "initial marking of '%.120s' uses variable '%.120s'", p->id,
                           u->m->vars[v].id);
    pn_status st = hl_eval_bag(u->m, p->m0, NULL, &u->bag);
    return st == PN_OK ? hl_bag_classes(u->m, p->sort, &u->bag) : st;
}

static pn_status hl_unfold_place(hl_unfolder *u, hl_place *p)
{
    uint64_t size = hl_class_count(u->m, p->sort); /* hl_count_places checked it */
    pn_status st = hl_initial_bag(u, p);
    p->base = u->net->n_places;
    size_t k = 0; /* cursor in the sorted initial marking, by class */
    for (uint64_t c = 0; c < size && st == PN_OK; c++) {
        st = hl_spend(u->m, p->node, 0, 1); /* a place is a step: the budget is polled */
        if (st == PN_OK)
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
        if (st == PN_OK && pn_net_add_place(u->net, u->name, NULL, m0, &e) < 0)
            st = hl_net_error(u, p->node, &e);
    }
    return st;
}

/* Places are numbered base .. base+size-1, so the group is a range. */
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

/* ---- one transition: variables and guard clauses ------------------------- */

/* Appends t's variables to the order, first appearance first. */
static void hl_order_vars(hl_unfolder *u, const hl_term *t)
{
    if (t->kind == HL_T_VAR && u->pos[t->value] == HL_NONE) {
        u->pos[t->value] = u->n_order;
        u->order[u->n_order++] = (uint32_t)t->value;
    }
    for (uint32_t i = 0; i < t->n; i++)
        hl_order_vars(u, t->kids[i]);
}

/* Variables bound before t can be evaluated: 1 + the last position. */
static uint32_t hl_term_depth(const hl_unfolder *u, const hl_term *t)
{
    uint32_t d = t->kind == HL_T_VAR ? u->pos[t->value] + 1 : 0;
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t k = hl_term_depth(u, t->kids[i]);
        d = k > d ? k : d;
    }
    return d;
}

static pn_status hl_add_clauses(hl_unfolder *u, const hl_term *g)
{
    if (g->kind == HL_G_AND) {
        for (uint32_t i = 0; i < g->n; i++) {
            pn_status st = hl_add_clauses(u, g->kids[i]);
            if (st != PN_OK)
                return st;
        }
        return PN_OK;
    }
    if (hl_grow((void **)&u->clauses, &u->cap_clauses, u->n_clauses + 1, sizeof *u->clauses))
        return hl_nomem(u->m);
    uint32_t depth = hl_term_depth(u, g);
    u->clauses[u->n_clauses++] = (hl_clause){g, depth};
    u->depth_cost[depth] += hl_term_nodes(g);
    return PN_OK;
}

/* Variables of the arcs first (they decide the unfolded arcs), then those
 * only the guard mentions. */
static pn_status hl_prepare(hl_unfolder *u, const hl_trans *t)
{
    for (uint32_t i = 0; i < u->n_order; i++)
        u->pos[u->order[i]] = HL_NONE;
    u->n_order = 0;
    u->n_clauses = 0;
    u->arc_cost = 0;
    for (uint32_t i = 0; i < t->arc_count; i++) {
        const hl_term *ins = u->m->arcs[u->m->by_trans[t->arc_first + i]].ins;
        hl_order_vars(u, ins);
        u->arc_cost += hl_term_nodes(ins);
    }
    for (uint32_t d = 0; d <= u->m->n_vars; d++)
        u->depth_cost[d] = 0;
    if (t->guard == NULL)
        return PN_OK;
    hl_order_vars(u, t->guard);
    return hl_add_clauses(u, t->guard);
}

static bool hl_clauses_hold(const hl_unfolder *u, uint32_t depth)
{
    for (uint32_t i = 0; i < u->n_clauses; i++)
        if (u->clauses[i].depth == depth &&
            !hl_eval_guard(u->m, u->clauses[i].term, u->binding))
            return false;
    return true;
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
        pn_status st = hl_eval_bag(u->m, a->ins, u->binding, &u->bag);
        if (st == PN_OK)
            st = hl_bag_classes(u->m, u->m->places[a->place].sort, &u->bag);
        uint32_t base = u->m->places[a->place].base;
        for (size_t k = 0; k < u->bag.n && st == PN_OK; k++) {
            if (u->net->n_arcs >= u->m->limits.arcs)
                return hl_fail(u->m, PN_ERR_UNSUPPORTED, a->node,
                               "the unfolding has more than %" PRIu64 " arcs", u->m->limits.arcs);
            pn_error e = {PN_OK, ""};
            if (pn_net_add_arc(u->net, base + (uint32_t)u->bag.p[k].colour, tr, a->to_trans,
                               (uint64_t)u->bag.p[k].count, &e) != PN_OK)
                st = hl_net_error(u, a->node, &e);
        }
        if (st != PN_OK)
            return st;
    }
    return PN_OK;
}

static pn_status hl_emit(hl_unfolder *u, const hl_trans *t)
{
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

/* Binds order[depth..] in turn; recursion depth is the transition's number
 * of variables. */
static pn_status hl_bind(hl_unfolder *u, const hl_trans *t, uint32_t depth)
{
    if (depth == u->n_order)
        return hl_emit(u, t);
    uint32_t v = u->order[depth];
    uint32_t sort = u->m->vars[v].sort;
    uint64_t size = hl_class_count(u->m, sort); /* a class binds its first colour */
    for (uint64_t c = 0; c < size; c++) {
        u->info->bindings_tried++;
        /* Testing the clauses is what a binding costs: scanning them all,
         * evaluating those of this depth. */
        pn_status st = hl_spend(u->m, t->node, 0, 1 + u->n_clauses + u->depth_cost[depth + 1]);
        if (st != PN_OK)
            return st;
        u->binding[v] = hl_class_rep(u->m, sort, c);
        if (!hl_clauses_hold(u, depth + 1))
            continue;
        st = hl_bind(u, t, depth + 1);
        if (st != PN_OK)
            return st;
    }
    return PN_OK;
}

static pn_status hl_unfold_trans(hl_unfolder *u, const hl_trans *t)
{
    pn_status st = hl_prepare(u, t);
    uint32_t first = u->net->n_transitions;
    if (st == PN_OK)
        st = hl_spend(u->m, t->node, 0, u->n_clauses + u->depth_cost[0]);
    if (st == PN_OK && hl_clauses_hold(u, 0))
        st = hl_bind(u, t, 0);
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
    pn_status st = hl_count_places(u->m);
    pn_budget_phase(u->m->budget, "unfolding %u coloured places and %u transitions",
                    u->m->n_places, u->m->n_trans);
    for (uint32_t i = 0; i < u->m->n_places && st == PN_OK; i++) {
        hl_place *p = &u->m->places[i];
        st = hl_unfold_place(u, p);
        if (st == PN_OK)
            st = hl_range_group(u, true, p->id, p->node, p->base,
                                (uint32_t)hl_class_count(u->m, p->sort));
    }
    for (uint32_t i = 0; i < u->m->n_vars; i++)
        u->pos[i] = HL_NONE;
    for (uint32_t i = 0; i < u->m->n_trans && st == PN_OK; i++) {
        pn_budget_detail(u->m->budget, "transition %u of %u (%s)", i + 1, u->m->n_trans,
                         u->m->trans[i].id);
        st = hl_unfold_trans(u, &u->m->trans[i]);
    }
    return st;
}

/* Replaces the full unfolding by its pruned copy (unfold_prune.c). */
static pn_status hl_prune(hl_model *m, pn_net *full, pn_net **out)
{
    pn_error e = {PN_OK, ""};
    pn_budget_phase(m->budget, "unfolding: dropping structurally dead places and transitions "
                               "(%u places, %u transitions)", full->n_places, full->n_transitions);
    pn_status st = hl_prune_dead(full, out, &e);
    if (st == PN_OK) {
        (*out)->unfold.dropped_places = full->n_places - (*out)->n_places;
        (*out)->unfold.dropped_transitions = full->n_transitions - (*out)->n_transitions;
    }
    pn_net_free(full);
    return st == PN_OK ? PN_OK : pn_fail(m->err, st, "%s: %s", m->label, e.msg);
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
    u.depth_cost = calloc((size_t)m->n_vars + 1, sizeof *u.depth_cost);
    pn_status st = PN_OK;
    if (u.net == NULL || u.binding == NULL || u.pos == NULL || u.order == NULL ||
        u.used == NULL || u.depth_cost == NULL) {
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
    free(u.bag.p);
    free(u.binding);
    free(u.pos);
    free(u.order);
    free(u.used);
    free(u.depth_cost);
    free(u.clauses);
    if (st != PN_OK) {
        pn_net_free(u.net);
        return st;
    }
    return hl_prune(m, u.net, out);
}
