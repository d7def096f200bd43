/* The net's state graph, discovered on demand for the on-the-fly LTL
 * product (ltl_otf.c). Packed states live in an append-only store indexed
 * by an exact single-threaded hash set (slots: 32 bits of hash tag, 32 bits
 * of id + 1; full states compared);
 * a state's successor ids are computed once, when the product first needs
 * them, and kept in an arena, so that the formulas of an examination share
 * the work: the graph grows only as far as some formula's search went.
 *
 * Firing can overflow a place's packed field. Then that place's width is
 * doubled, every stored state is repacked into the new layout (ids do not
 * change, so successor lists and the product stay valid) and the state
 * being expanded is expanded again. */
#include <stdlib.h>
#include <string.h>

#include "logic/ltl_otf.h"
#include "net/layout.h"

#define LAZY_NOT_EXPANDED UINT64_MAX
#define LAZY_MAX_STATES (UINT32_MAX - 1u)

struct pn_ltl_lazy {
    const pn_cnet *cn;
    pn_layout *lay;
    uint64_t *store;           /* count states of prog.words words */
    uint64_t count, cap;
    uint64_t *slots;           /* pn_table.h slots */
    uint64_t slot_mask;
    uint64_t *soff;            /* per state: first successor in arena */
    uint32_t *sdeg;            /* per state: successor count */
    uint32_t *arena;
    uint64_t arena_n, arena_cap;
    uint64_t *succ;            /* one successor being built */
    uint64_t *mk;              /* one unpacked marking */
    uint32_t *trans;           /* enabled transitions of one state */
    uint64_t budget, other;
};

static uint64_t lazy_bytes_for(const pn_ltl_lazy *z, uint64_t cap, uint64_t slots,
                               uint64_t arena)
{
    return cap * (z->lay->prog.words * 8 + 12) + slots * 8 + arena * 4;
}

static uint64_t lazy_bytes(const pn_ltl_lazy *z)
{
    return lazy_bytes_for(z, z->cap, z->slot_mask + 1, z->arena_cap);
}

bool ltl_lazy_fits(const pn_ltl_lazy *z, uint64_t more)
{
    return z->budget == 0 || lazy_bytes(z) + z->other + more <= z->budget;
}

void ltl_lazy_set_other(pn_ltl_lazy *z, uint64_t bytes) { z->other = bytes; }

uint64_t ltl_lazy_count(const pn_ltl_lazy *z) { return z->count; }

uint64_t pn_ltl_lazy_states(const pn_ltl_lazy *z) { return z->count; }

uint64_t pn_ltl_lazy_edges(const pn_ltl_lazy *z) { return z->arena_n; }

const pn_prog *ltl_lazy_prog(const pn_ltl_lazy *z) { return &z->lay->prog; }

#define LAZY_TAG(h) ((h) & 0xffffffff00000000ULL)

/* The id of packed state s (hash h), inserting it when new. The caller
 * made room (lazy_room). */
static uint32_t lazy_insert(pn_ltl_lazy *z, const uint64_t *s, uint64_t h)
{
    uint32_t w = z->lay->prog.words;
    uint64_t i = h & z->slot_mask;
    for (; z->slots[i] != 0; i = (i + 1) & z->slot_mask) {
        uint64_t id = (z->slots[i] & 0xffffffffULL) - 1;
        if (LAZY_TAG(z->slots[i]) == LAZY_TAG(h) && pn_state_equal(z->store + id * w, s, w))
            return (uint32_t)id;
    }
    uint64_t id = z->count++;
    memcpy(z->store + id * w, s, w * sizeof *s);
    z->soff[id] = LAZY_NOT_EXPANDED;
    z->slots[i] = LAZY_TAG(h) | (id + 1);
    return (uint32_t)id;
}

static void lazy_rehash(pn_ltl_lazy *z)
{
    memset(z->slots, 0, (z->slot_mask + 1) * sizeof *z->slots);
    uint32_t w = z->lay->prog.words;
    for (uint64_t id = 0; id < z->count; id++) {
        uint64_t h = pn_state_hash(z->store + id * w, w), i = h & z->slot_mask;
        while (z->slots[i] != 0)
            i = (i + 1) & z->slot_mask;
        z->slots[i] = LAZY_TAG(h) | (id + 1);
    }
}

static pn_status lazy_nomem(pn_error *err)
{
    return pn_fail(err, PN_ERR_OUT_OF_MEMORY, "LTL: the state space exceeds the memory budget");
}

static pn_status lazy_grow_store(pn_ltl_lazy *z, uint64_t need, pn_error *err)
{
    uint64_t cap = z->cap * 2 > need ? z->cap * 2 : need;
    if (cap > LAZY_MAX_STATES + 1ULL)
        cap = LAZY_MAX_STATES + 1ULL;
    if (cap < need ||
        !ltl_lazy_fits(z, lazy_bytes_for(z, cap, 0, 0) - lazy_bytes_for(z, z->cap, 0, 0)))
        return lazy_nomem(err);
    uint64_t *store = realloc(z->store, cap * z->lay->prog.words * sizeof *store);
    if (store != NULL)
        z->store = store;
    uint64_t *soff = realloc(z->soff, cap * sizeof *soff);
    if (soff != NULL)
        z->soff = soff;
    uint32_t *sdeg = realloc(z->sdeg, cap * sizeof *sdeg);
    if (sdeg != NULL)
        z->sdeg = sdeg;
    if (store == NULL || soff == NULL || sdeg == NULL)
        return lazy_nomem(err);
    z->cap = cap;
    return PN_OK;
}

static pn_status lazy_grow_slots(pn_ltl_lazy *z, uint64_t need, pn_error *err)
{
    uint64_t n = z->slot_mask + 1;
    while (need * 4 > n * 3)
        n *= 2;
    if (!ltl_lazy_fits(z, (n - z->slot_mask - 1) * 8))
        return lazy_nomem(err);
    uint64_t *slots = realloc(z->slots, n * sizeof *slots);
    if (slots == NULL)
        return lazy_nomem(err);
    z->slots = slots;
    z->slot_mask = n - 1;
    lazy_rehash(z);
    return PN_OK;
}

static pn_status lazy_grow_arena(pn_ltl_lazy *z, uint64_t need, pn_error *err)
{
    uint64_t cap = z->arena_cap * 2 > need ? z->arena_cap * 2 : need;
    if (!ltl_lazy_fits(z, (cap - z->arena_cap) * 4))
        return lazy_nomem(err);
    uint32_t *a = realloc(z->arena, cap * sizeof *a);
    if (a == NULL)
        return lazy_nomem(err);
    z->arena = a;
    z->arena_cap = cap;
    return PN_OK;
}

/* Room for the successors of one state: every insert then succeeds. */
static pn_status lazy_room(pn_ltl_lazy *z, pn_error *err)
{
    uint64_t T = z->cn->n_transitions;
    pn_status st = PN_OK;
    if (z->count + T > z->cap)
        st = lazy_grow_store(z, z->count + T, err);
    if (st == PN_OK && (z->count + T) * 4 > (z->slot_mask + 1) * 3)
        st = lazy_grow_slots(z, z->count + T, err);
    if (st == PN_OK && z->arena_n + T > z->arena_cap)
        st = lazy_grow_arena(z, z->arena_n + T, err);
    return st;
}

/* The transitions enabled in packed state s, through the trigger lists. */
static uint32_t lazy_enabled_list(const pn_prog *g, const uint64_t *s, uint32_t *out)
{
    uint32_t n = 0;
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; (p = pn_marked_next(g, s, &it)) != UINT32_MAX;)
        for (uint32_t k = g->trig_off[p]; k < g->trig_off[p + 1]; k++)
            if (pn_state_enabled(g, s, g->trig[k]))
                out[n++] = g->trig[k];
    for (uint32_t k = 0; k < g->n_free; k++)
        out[n++] = g->free_trans[k];
    return n;
}

/* Doubles the width of place p and repacks every stored state. */
static pn_status lazy_widen(pn_ltl_lazy *z, uint32_t p, pn_error *err)
{
    const pn_prog *old = &z->lay->prog;
    if (z->lay->width[p] >= 64)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "LTL: a token count passes 2^64-1");
    uint8_t *w = malloc(old->n_places + 1);
    if (w == NULL)
        return lazy_nomem(err);
    memcpy(w, z->lay->width, old->n_places);
    w[p] = w[p] * 2 > 64 ? 64 : (uint8_t)(w[p] * 2);
    pn_layout *nl = NULL;
    pn_status st = pn_layout_new(z->cn, w, &nl, err);
    free(w);
    if (st != PN_OK)
        return st;
    uint32_t nw = nl->prog.words;
    uint64_t *ns = ltl_lazy_fits(z, z->cap * (uint64_t)nw * 8)
                       ? malloc((z->cap + 1) * nw * sizeof *ns) : NULL;
    uint64_t *succ = malloc((size_t)nw * sizeof *succ);
    if (ns == NULL || succ == NULL) {
        free(ns);
        free(succ);
        pn_layout_free(nl);
        return lazy_nomem(err);
    }
    for (uint64_t id = 0; id < z->count; id++) {
        pn_state_unpack(old, z->store + id * old->words, z->mk);
        pn_layout_pack(nl, z->mk, ns + id * nw); /* wider: always fits */
    }
    free(z->store);
    free(z->succ);
    pn_layout_free(z->lay);
    z->store = ns;
    z->succ = succ;
    z->lay = nl;
    lazy_rehash(z);
    return PN_OK;
}

/* Fires the enabled transitions of s and records the successor ids;
 * returns the place + 1 of an overflow (nothing recorded), else 0. */
static uint32_t lazy_fire_all(pn_ltl_lazy *z, uint32_t s)
{
    const pn_prog *g = &z->lay->prog;
    const uint64_t *st = z->store + (uint64_t)s * g->words;
    uint32_t n = lazy_enabled_list(g, st, z->trans);
    uint64_t start = z->arena_n;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t of = pn_state_fire(g, st, z->trans[k], z->succ);
        if (of != 0) {
            z->arena_n = start;
            return g->inc[of - 1].place + 1;
        }
        z->arena[z->arena_n++] = lazy_insert(z, z->succ, pn_state_hash(z->succ, g->words));
    }
    return 0;
}

static pn_status lazy_expand(pn_ltl_lazy *z, uint32_t s, pn_error *err)
{
    for (;;) {
        if (z->count + z->cn->n_transitions > LAZY_MAX_STATES)
            return pn_fail(err, PN_ERR_NOMEM, "LTL: more than 2^32 states");
        pn_status st = lazy_room(z, err);
        if (st != PN_OK)
            return st;
        uint64_t start = z->arena_n;
        uint32_t of = lazy_fire_all(z, s);
        if (of == 0) {
            z->soff[s] = start;
            z->sdeg[s] = (uint32_t)(z->arena_n - start);
            return PN_OK;
        }
        if ((st = lazy_widen(z, of - 1, err)) != PN_OK)
            return st;
    }
}

pn_status ltl_lazy_succ(pn_ltl_lazy *z, uint32_t s, const uint32_t **succ, uint32_t *n,
                        pn_error *err)
{
    if (z->soff[s] == LAZY_NOT_EXPANDED) {
        pn_status st = lazy_expand(z, s, err);
        if (st != PN_OK)
            return st;
    }
    *succ = z->arena + z->soff[s];
    *n = z->sdeg[s];
    return PN_OK;
}

uint32_t ltl_lazy_enabled(pn_ltl_lazy *z, uint32_t s)
{
    if (z->soff[s] != LAZY_NOT_EXPANDED)
        return z->sdeg[s];
    const pn_prog *g = &z->lay->prog;
    return lazy_enabled_list(g, z->store + (uint64_t)s * g->words, z->trans);
}

uint32_t ltl_lazy_marking_sparse(const pn_ltl_lazy *z, uint32_t s, uint64_t *m, uint32_t *nz)
{
    const pn_prog *g = &z->lay->prog;
    return pn_state_unpack_sparse(g, z->store + (uint64_t)s * g->words, m, nz);
}

uint32_t ltl_lazy_trans(pn_ltl_lazy *z, uint32_t s, uint32_t t)
{
    const pn_prog *g = &z->lay->prog;
    const uint64_t *st = z->store + (uint64_t)s * g->words;
    const uint64_t *target = z->store + (uint64_t)t * g->words;
    uint32_t n = lazy_enabled_list(g, st, z->trans);
    for (uint32_t k = 0; k < n; k++)
        if (pn_state_fire(g, st, z->trans[k], z->succ) == 0 &&
            pn_state_equal(z->succ, target, g->words))
            return z->trans[k];
    return UINT32_MAX;
}

/* The initial marking becomes state 0. */
static pn_status lazy_init(pn_ltl_lazy *z, pn_error *err)
{
    uint32_t P = z->cn->n_places, T = z->cn->n_transitions;
    uint32_t w = z->lay->prog.words;
    z->mk = calloc((size_t)P + 1, sizeof *z->mk);
    z->trans = malloc(((size_t)T + 1) * sizeof *z->trans);
    z->succ = malloc((size_t)w * sizeof *z->succ);
    z->slots = calloc(1024, sizeof *z->slots);
    if (z->mk == NULL || z->trans == NULL || z->succ == NULL || z->slots == NULL)
        return lazy_nomem(err);
    z->slot_mask = 1023;
    pn_status st = lazy_grow_store(z, 1024, err);
    if (st != PN_OK)
        return st;
    if (!pn_layout_pack(z->lay, z->cn->m0, z->succ))
        return pn_fail(err, PN_ERR_INTERNAL, "LTL: the initial marking does not fit its layout");
    lazy_insert(z, z->succ, pn_state_hash(z->succ, w));
    return PN_OK;
}

pn_status pn_ltl_lazy_new(const pn_cnet *cn, const pn_budget *budget, pn_ltl_lazy **out,
                          pn_error *err)
{
    *out = NULL;
    pn_ltl_lazy *z = calloc(1, sizeof *z);
    if (z == NULL)
        return lazy_nomem(err);
    z->cn = cn;
    z->budget = pn_budget_memory(budget);
    uint8_t *widths = NULL;
    pn_status st = pn_layout_initial_widths(cn, &widths, err);
    if (st == PN_OK)
        st = pn_layout_new(cn, widths, &z->lay, err);
    free(widths);
    if (st == PN_OK)
        st = lazy_init(z, err);
    if (st != PN_OK) {
        pn_ltl_lazy_free(z);
        return st;
    }
    *out = z;
    return PN_OK;
}

void pn_ltl_lazy_free(pn_ltl_lazy *z)
{
    if (z == NULL)
        return;
    pn_layout_free(z->lay);
    free(z->store);
    free(z->slots);
    free(z->soff);
    free(z->sdeg);
    free(z->arena);
    free(z->succ);
    free(z->mk);
    free(z->trans);
    free(z);
}
