/* A transition's bindings, enumerated depth first over its own variables
 * (over colour classes: hlpn_classes.c). Each top-level conjunct of the
 * guard is tested as soon as its last variable is bound, which prunes most
 * of the product of the sorts in guarded models.
 *
 * In join mode (the colour fixpoint, unfold_reach.c) the enumeration is the
 * join of the input arcs with the classes their places can hold, as
 * TAPAAL's unfolder binds variables (Bilgram, Jensen, Pedersen, Srba,
 * Taankvist, "Improvements in Unfolding of Colored Petri Nets", RP 2021):
 * a variable read directly by an input arc (alone or as a tuple component)
 * only takes the classes that component has in the place's markable
 * classes, and each input arc is tested as soon as its variables are
 * bound, so the product of the sorts is never walked where the places hold
 * few colours. */
#include "coloured/unfold_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- variables, guard clauses and input checks ---------------------------- */

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

static pn_status hl_add_checks(hl_unfolder *u, const hl_trans *t)
{
    u->n_checks = 0;
    for (uint32_t i = 0; i < t->arc_count; i++) {
        const hl_arc *a = &u->m->arcs[u->m->by_trans[t->arc_first + i]];
        if (!a->to_trans)
            continue;
        if (hl_grow((void **)&u->checks, &u->cap_checks, u->n_checks + 1, sizeof *u->checks))
            return hl_nomem(u->m);
        uint32_t depth = hl_term_depth(u, a->ins);
        u->checks[u->n_checks++] = (hl_in_check){a, depth};
        u->depth_cost[depth] += hl_term_nodes(a->ins);
    }
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
    u->n_checks = 0;
    u->arc_cost = 0;
    for (uint32_t i = 0; i < t->arc_count; i++) {
        const hl_term *ins = u->m->arcs[u->m->by_trans[t->arc_first + i]].ins;
        hl_order_vars(u, ins);
        u->arc_cost += hl_term_nodes(ins);
    }
    if (t->guard != NULL)
        hl_order_vars(u, t->guard);
    for (uint32_t d = 0; d <= u->n_order; d++)
        u->depth_cost[d] = 0;
    pn_status st = t->guard != NULL ? hl_add_clauses(u, t->guard) : PN_OK;
    return st == PN_OK && u->join ? hl_add_checks(u, t) : st;
}

static bool hl_clauses_hold(const hl_unfolder *u, uint32_t depth)
{
    for (uint32_t i = 0; i < u->n_clauses; i++)
        if (u->clauses[i].depth == depth &&
            !hl_eval_guard(u->m, u->clauses[i].term, u->binding))
            return false;
    return true;
}

pn_status hl_eval_classes(hl_unfolder *u, const hl_term *t, uint32_t sort, const uint64_t *b)
{
    pn_status st = hl_eval_bag(u->m, t, b, &u->bag);
    return st == PN_OK ? hl_bag_classes(u->m, sort, &u->bag) : st;
}

pn_status hl_initial_bag(hl_unfolder *u, const hl_place *p)
{
    u->bag.n = 0;
    if (p->m0 == NULL)
        return PN_OK;
    return hl_eval_classes(u, p->m0, p->sort, NULL);
}

pn_status hl_inputs_markable(hl_unfolder *u, const hl_arc *a, bool *ok)
{
    pn_status st = hl_eval_classes(u, a->ins, u->m->places[a->place].sort, u->binding);
    uint64_t base = u->base_of[a->place];
    *ok = true;
    for (size_t k = 0; k < u->bag.n && st == PN_OK && *ok; k++)
        *ok = hl_bit(u->markable, base + u->bag.p[k].colour);
    return st;
}

/* An arc that cannot be evaluated here (a subtraction going negative) may
 * belong to a binding a later guard clause excludes: it refutes nothing,
 * and the building evaluates it again where the old enumeration did. */
static pn_status hl_checks_hold(hl_unfolder *u, uint32_t depth, bool *ok)
{
    *ok = true;
    for (uint32_t i = 0; i < u->n_checks && *ok; i++) {
        if (u->checks[i].depth != depth)
            continue;
        pn_status st = hl_inputs_markable(u, u->checks[i].arc, ok);
        if (st == PN_ERR_INPUT) {
            pn_error_clear(u->m->err); /* nothing had failed before it */
            *ok = true;
        } else if (st != PN_OK)
            return st;
    }
    return PN_OK;
}

/* ---- the classes a variable may take (join mode) -------------------------- */

/* The class of component k (HL_NONE: the whole colour) of the place's
 * class c, as a class of var sort vs; HL_NONE when not known this way
 * (the var's sort is not the component's). */
static uint64_t hl_project(const hl_model *m, uint32_t ps, uint32_t k, uint32_t vs, uint64_t c)
{
    const hl_sort *so = &m->sorts[ps];
    if (k == HL_NONE)
        return c;
    bool single = m->classes[ps].single;
    for (uint32_t i = so->n; --i > k;) {
        uint32_t ci = hl_canon(m, so->comp[i]);
        c /= single ? m->sorts[ci].size : m->classes[ci].count;
    }
    uint32_t ck = hl_canon(m, so->comp[k]);
    c %= single ? m->sorts[ck].size : m->classes[ck].count;
    return single ? hl_class_of(m, vs, c) : c;
}

/* Intersects the domain of position i (variable v) with the classes that
 * component k of place p's markable classes give it. */
static pn_status hl_restrict(hl_unfolder *u, uint32_t i, uint32_t p, uint32_t k)
{
    const hl_model *m = u->m;
    uint32_t v = u->order[i], vs = hl_canon(m, m->vars[v].sort);
    uint32_t ps = hl_canon(m, m->places[p].sort);
    uint32_t cs = k == HL_NONE ? ps : hl_canon(m, m->sorts[ps].comp[k]);
    uint64_t n = hl_class_count(m, ps);
    if (cs != vs || n > HL_DOM_MAX || hl_class_count(m, vs) > HL_DOM_MAX)
        return PN_OK; /* a sort equal in structure only, or too big: no restriction */
    if (hl_grow((void **)&u->restr, &u->cap_restr, u->n_restr + 1, sizeof *u->restr))
        return hl_nomem(u->m);
    u->restr[u->n_restr++] = (hl_restriction){i, p, k};
    size_t words = (size_t)((hl_class_count(m, vs) + 63) / 64);
    pn_status st = hl_spend(u->m, m->places[p].node, 0, n / 64 + 1);
    uint64_t *seen = st == PN_OK ? calloc(words ? words : 1, sizeof *seen) : NULL;
    if (st != PN_OK || seen == NULL)
        return st != PN_OK ? st : hl_nomem(u->m);
    for (uint64_t c = 0; c < n; c++)
        if (hl_bit(u->markable, u->base_of[p] + c)) {
            uint64_t x = hl_project(m, ps, k, vs, c);
            seen[x / 64] |= UINT64_C(1) << (x % 64);
            st = hl_spend(u->m, m->places[p].node, 0, 1);
            if (st != PN_OK)
                break;
        }
    if (st != PN_OK) {
        free(seen);
        return st;
    }
    if (u->dom_on[i]) {
        for (size_t w = 0; w < words; w++)
            u->dom[i][w] &= seen[w];
        free(seen);
        return PN_OK;
    }
    free(u->dom[i]);
    u->dom[i] = seen;
    u->dom_on[i] = true;
    return PN_OK;
}

/* Each colour term of an input arc summed (not subtracted) is a pattern
 * whose direct variables are restricted by the place's classes: the arc
 * needs that colour there. */
static pn_status hl_restrict_term(hl_unfolder *u, const hl_term *t, uint32_t p)
{
    pn_status st = PN_OK;
    if (t->kind == HL_T_ADD) {
        for (uint32_t i = 0; i < t->n && st == PN_OK; i++)
            st = hl_restrict_term(u, t->kids[i], p);
        return st;
    }
    if (t->kind != HL_T_NUMBEROF || t->value == 0)
        return PN_OK;
    const hl_term *c = t->kids[0];
    if (c->kind == HL_T_VAR)
        return hl_restrict(u, u->pos[c->value], p, HL_NONE);
    if (c->kind != HL_T_TUPLE || hl_canon(u->m, c->sort) != hl_canon(u->m, u->m->places[p].sort))
        return PN_OK;
    for (uint32_t k = 0; k < c->n && st == PN_OK; k++)
        if (c->kids[k]->kind == HL_T_VAR)
            st = hl_restrict(u, u->pos[c->kids[k]->value], p, k);
    return st;
}

/* The domain of every position: every class (dom_on false) unless an input
 * arc reads the variable directly. */
static pn_status hl_domains(hl_unfolder *u, const hl_trans *t)
{
    memset(u->dom_on, 0, (size_t)u->n_order * sizeof *u->dom_on);
    u->n_restr = 0;
    pn_status st = PN_OK;
    for (uint32_t i = 0; i < t->arc_count && st == PN_OK; i++) {
        const hl_arc *a = &u->m->arcs[u->m->by_trans[t->arc_first + i]];
        if (a->to_trans)
            st = hl_restrict_term(u, a->ins, a->place);
    }
    return st;
}

void hl_domains_widen(hl_unfolder *u, uint32_t p, uint64_t c)
{
    const hl_model *m = u->m;
    for (uint32_t r = 0; r < u->n_restr; r++) {
        const hl_restriction *x = &u->restr[r];
        if (x->place != p)
            continue;
        uint32_t ps = hl_canon(m, m->places[p].sort);
        uint32_t vs = hl_canon(m, m->vars[u->order[x->pos]].sort);
        uint64_t v = hl_project(m, ps, x->comp, vs, c);
        u->dom[x->pos][v / 64] |= UINT64_C(1) << (v % 64);
    }
}

/* ---- the enumeration --------------------------------------------------------- */

/* The first class >= c of position depth's domain, or size; *words
 * counts the bitmap words read, each a step (a sparse domain over a big
 * sort is skipped 64 classes a step, and the budget still sees it). */
static uint64_t hl_dom_next(const hl_unfolder *u, uint32_t depth, uint64_t c, uint64_t size,
                            uint64_t *words)
{
    if (!u->join || !u->dom_on[depth])
        return c;
    const uint64_t *d = u->dom[depth];
    for (; c < size; c = (c / 64 + 1) * 64) {
        uint64_t w = d[c / 64] >> (c % 64);
        ++*words;
        if (w != 0) {
            c += (uint64_t)__builtin_ctzll(w);
            return c < size ? c : size;
        }
    }
    return size;
}

/* Binds order[depth..] in turn; recursion depth is the transition's number
 * of variables. */
static pn_status hl_bind(hl_unfolder *u, const hl_trans *t, uint32_t depth)
{
    if (depth == u->n_order)
        return u->leaf(u, t);
    uint32_t v = u->order[depth];
    uint32_t sort = u->m->vars[v].sort;
    uint64_t size = hl_class_count(u->m, sort); /* a class binds its first colour */
    uint64_t words = 0;
    for (uint64_t c = hl_dom_next(u, depth, 0, size, &words); c < size;
         c = hl_dom_next(u, depth, c + 1, size, &words)) {
        u->info->bindings_tried++;
        /* Testing the clauses is what a binding costs: scanning them all,
         * evaluating those of this depth. */
        pn_status st = hl_spend(u->m, t->node, 0,
                                words + 1 + u->n_clauses + u->n_checks + u->depth_cost[depth + 1]);
        words = 0;
        if (st != PN_OK)
            return st;
        u->binding[v] = hl_class_rep(u->m, sort, c);
        if (!hl_clauses_hold(u, depth + 1))
            continue;
        bool ok = true;
        if (u->join && (st = hl_checks_hold(u, depth + 1, &ok)) != PN_OK)
            return st;
        if (ok && (st = hl_bind(u, t, depth + 1)) != PN_OK)
            return st;
    }
    return hl_spend(u->m, t->node, 0, words);
}

pn_status hl_bind_all(hl_unfolder *u, const hl_trans *t)
{
    pn_status st = hl_prepare(u, t);
    if (st == PN_OK)
        st = hl_spend(u->m, t->node, 0, u->n_clauses + u->depth_cost[0]);
    if (st == PN_OK && u->join)
        st = hl_domains(u, t);
    if (st != PN_OK || !hl_clauses_hold(u, 0))
        return st;
    bool ok = true;
    if (u->join && (st = hl_checks_hold(u, 0, &ok)) != PN_OK)
        return st;
    return ok ? hl_bind(u, t, 0) : PN_OK;
}
