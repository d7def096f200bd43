/* The on-demand state space with ids (petrel/lazy.h), a consumer of
 * pn_space. Packed states live in an append-only store indexed by the
 * engines' exact hash set (kernels/pn_table.h: linear probing, hash tag and
 * id + 1 in a slot, full states compared), used by one thread here; a
 * state's successor ids are
 * computed once, when a consumer first needs them, and kept in an arena,
 * so that the formulas of an examination share the work.
 *
 * Firing can overflow a packed field. Then the space widens that place
 * (pn_space_widen), every stored state is repacked (pn_space_repack; ids do
 * not change, so successor lists and the consumers stay valid) and the
 * state being expanded is expanded again.
 *
 * Over a space that reduces (a partial-order reduction, space.h), a
 * consumer that needs every cycle to hold a fully expanded state (LTL-X:
 * Peled's cycle condition C3, "Combining partial order reductions with
 * on-the-fly model-checking", FMSD 8, 1996) asks for the cycle proviso
 * (pn_lazy_cycle_proviso). A state then keeps its reduced successors only
 * if none of them is itself or a state expanded before it, and otherwise
 * takes every successor: on any cycle of the expanded graph, the state
 * expanded last sees its successor on the cycle expanded already, so it is
 * fully expanded, whatever order the consumer expands states in. This is
 * the closed-set kind of proviso (Evangelista and Pajault, "Solving the
 * ignoring problem for partial order reduction", STTT 12, 2010), checked on
 * the net states rather than on the product, so the reduced net graph
 * satisfies C3 by itself and any check over it stays a check of a
 * stutter-equivalent graph.
 *
 * With pn_lazy_keep_trans, a second arena parallel to the first holds the
 * transition of each successor entry: action-based logic (RERS) reads the
 * step's transition, which the successor id alone does not give (two
 * transitions with different labels may lead to the same state).
 *
 * Over a space whose successors are its enabled transitions fired
 * (pn_space_defers: the P/T net without layers), an expansion only lists
 * the enabled transitions (kept in that second arena) and defers their
 * states: entry k is fired, hashed and inserted when a consumer first asks
 * for it (pn_lazy_succ_at), as the depth-first searches of Spin and LTSmin
 * take one successor at a time. A search that leaves a state early (a
 * counterexample found, a value settled) then pays for the successors it
 * visited, not for all of them: a state of Philosophers-PT-001000 enables
 * up to a thousand transitions. pn_lazy_succ resolves every entry of the
 * state it is asked for. */
#include "petrel/lazy.h"

#include <stdlib.h>
#include <string.h>

#include "net/layout.h"
#include "pn_table.h"

#define LAZY_NOT_EXPANDED UINT64_MAX
#define LAZY_UNRESOLVED UINT32_MAX /* a deferred entry: transition known, state not yet */
#define LAZY_PROBE_STATES 2048
#define LAZY_MAX_STATES (UINT32_MAX - 1u)
/* Successors of one expansion inserted together: their slots, then the
 * stored states their tags point at, are prefetched before any is probed
 * (the engines' batches, kernels/pn_expand.h), so that the search waits
 * for several cache misses at once rather than one after the other. */
#define LAZY_BATCH 32

struct pn_lazy {
    pn_space *sp;
    uint32_t words, T;
    uint64_t *store;           /* count states of words words */
    uint64_t count, cap;
    uint64_t *slots;           /* pn_table.h slots: tag | id + 1 */
    uint64_t slot_mask;
    uint64_t *soff;            /* per state: first successor in arena */
    uint32_t *sdeg;            /* per state: successor count */
    uint32_t *arena;
    uint32_t *arena_trans;     /* parallel to arena; NULL unless keep_trans */
    uint64_t arena_n, arena_cap;
    bool keep_trans;
    bool defer;                /* entries resolve on demand (pn_space_defers) */
    uint64_t unresolved;       /* deferred entries not resolved yet */
    uint64_t *vec;             /* one state: the initial, then scratch */
    uint64_t *batch;           /* LAZY_BATCH successors waiting to be inserted */
    uint64_t bhash[LAZY_BATCH];
    uint32_t btrans[LAZY_BATCH];
    uint32_t bn;
    uint32_t *trans;           /* enabled transitions of one state */
    uint64_t budget, other;
    pn_lazy_pool *pool;        /* shared account; NULL: none */
    uint64_t pooled;           /* what this space counts in pool->used */
    bool reduces;              /* the space drops successors (space.h) */
    bool proviso;              /* pn_lazy_cycle_proviso was asked for */
    uint32_t probe_per_mille;  /* pn_lazy_probe_reduction; 0: none */
    uint64_t probed, probe_fired, probe_enabled; /* over the first states */
    uint64_t widenings;
    uint64_t expanded;         /* states whose successor lists are known */
    bool broken;               /* the space widened but the store could not
                                  follow: every expansion fails from then on */
};

static uint64_t lazy_bytes_for(const pn_lazy *z, uint64_t cap, uint64_t slots, uint64_t arena)
{
    return cap * (z->words * 8 + 12) + slots * 8 + arena * (z->keep_trans ? 8 : 4);
}

static uint64_t lazy_bytes(const pn_lazy *z)
{
    return lazy_bytes_for(z, z->cap, z->slot_mask + 1, z->arena_cap);
}

uint64_t pn_lazy_bytes(const pn_lazy *z) { return lazy_bytes(z) + z->other; }

/* The pool learns what z holds now (a negative change wraps, as meant). */
static void lazy_pool_sync(pn_lazy *z)
{
    uint64_t now = lazy_bytes(z) + z->other;
    if (z->pool != NULL && now != z->pooled) {
        __atomic_add_fetch(&z->pool->used, now - z->pooled, __ATOMIC_RELAXED);
        z->pooled = now;
    }
}

bool pn_lazy_fits(pn_lazy *z, uint64_t more)
{
    if (z->budget != 0 && lazy_bytes(z) + z->other + more > z->budget)
        return false;
    if (z->pool == NULL)
        return true;
    lazy_pool_sync(z);
    if (z->pool->cap == 0)
        return true;
    /* Reserved at once: two members growing together cannot both pass. */
    uint64_t after = __atomic_add_fetch(&z->pool->used, more, __ATOMIC_RELAXED);
    if (after > z->pool->cap) {
        __atomic_sub_fetch(&z->pool->used, more, __ATOMIC_RELAXED);
        return false;
    }
    z->pooled += more;
    return true;
}

void pn_lazy_set_other(pn_lazy *z, uint64_t bytes)
{
    z->other = bytes;
    lazy_pool_sync(z);
}

void pn_lazy_join_pool(pn_lazy *z, pn_lazy_pool *pool)
{
    z->pool = pool;
    z->pooled = 0;
    lazy_pool_sync(z);
}

pn_lazy_pool *pn_lazy_pool_of(const pn_lazy *z) { return z->pool; }

bool pn_lazy_pool_full(const pn_lazy_pool *pool)
{
    return pool != NULL && pool->cap != 0 &&
           __atomic_load_n(&pool->used, __ATOMIC_RELAXED) >= pool->cap;
}

void pn_lazy_cycle_proviso(pn_lazy *z) { z->proviso = z->reduces; }

void pn_lazy_probe_reduction(pn_lazy *z, uint32_t per_mille)
{
    z->probe_per_mille = z->reduces ? per_mille : 0;
}

uint64_t pn_lazy_states(const pn_lazy *z) { return z->count; }

uint64_t pn_lazy_edges(const pn_lazy *z) { return z->arena_n - z->unresolved; }

uint64_t pn_lazy_widenings(const pn_lazy *z) { return z->widenings; }

pn_space *pn_lazy_space(pn_lazy *z) { return z->sp; }

const uint64_t *pn_lazy_state(const pn_lazy *z, uint32_t s)
{
    return z->store + (uint64_t)s * z->words;
}

/* The table over the current store and slots (both move when they grow). */
static pn_table_view lazy_view(pn_lazy *z)
{
    return pn_table_plain(z->slots, z->slot_mask, z->store, &z->count, z->words);
}

/* The id of state s (hash h), inserting it when new. The caller made room
 * (lazy_room). */
static uint32_t lazy_insert(pn_lazy *z, const uint64_t *s, uint64_t h)
{
    pn_table_view v = lazy_view(z);
    uint64_t id;
    if (pn_table_insert(&v, s, h, &id) == PN_INSERT_NEW)
        z->soff[id] = LAZY_NOT_EXPANDED;
    return (uint32_t)id;
}

static void lazy_rehash(pn_lazy *z)
{
    memset(z->slots, 0, (z->slot_mask + 1) * sizeof *z->slots);
    pn_table_view v = lazy_view(z);
    uint32_t w = z->words;
    for (uint64_t id = 0; id < z->count; id++)
        pn_table_reinsert(&v, id, pn_space_hash(z->store + id * w, w));
}

static pn_status lazy_nomem(pn_error *err)
{
    return pn_fail(err, PN_ERR_OUT_OF_MEMORY, "the on-demand state space exceeds the memory budget");
}

static pn_status lazy_grow_store(pn_lazy *z, uint64_t need, pn_error *err)
{
    uint64_t cap = z->cap * 2 > need ? z->cap * 2 : need;
    if (cap > LAZY_MAX_STATES + 1ULL)
        cap = LAZY_MAX_STATES + 1ULL;
    if (cap < need ||
        !pn_lazy_fits(z, lazy_bytes_for(z, cap, 0, 0) - lazy_bytes_for(z, z->cap, 0, 0)))
        return lazy_nomem(err);
    uint64_t *store = realloc(z->store, cap * z->words * sizeof *store);
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

static pn_status lazy_grow_slots(pn_lazy *z, uint64_t need, pn_error *err)
{
    uint64_t n = z->slot_mask + 1;
    while (need * 4 > n * 3)
        n *= 2;
    if (!pn_lazy_fits(z, (n - z->slot_mask - 1) * 8))
        return lazy_nomem(err);
    uint64_t *slots = realloc(z->slots, n * sizeof *slots);
    if (slots == NULL)
        return lazy_nomem(err);
    z->slots = slots;
    z->slot_mask = n - 1;
    lazy_rehash(z);
    return PN_OK;
}

static pn_status lazy_grow_arena(pn_lazy *z, uint64_t need, pn_error *err)
{
    uint64_t cap = z->arena_cap * 2 > need ? z->arena_cap * 2 : need;
    if (!pn_lazy_fits(z, (cap - z->arena_cap) * (z->keep_trans ? 8 : 4)))
        return lazy_nomem(err);
    uint32_t *a = realloc(z->arena, cap * sizeof *a);
    if (a == NULL)
        return lazy_nomem(err);
    z->arena = a;
    if (z->keep_trans) {
        a = realloc(z->arena_trans, cap * sizeof *a);
        if (a == NULL)
            return lazy_nomem(err);
        z->arena_trans = a;
    }
    z->arena_cap = cap;
    return PN_OK;
}

/* Room for `states` more states and `entries` more successor entries:
 * every insert then succeeds. */
static pn_status lazy_room(pn_lazy *z, uint64_t states, uint64_t entries, pn_error *err)
{
    pn_status st = PN_OK;
    if (z->count + states > z->cap)
        st = lazy_grow_store(z, z->count + states, err);
    if (st == PN_OK && (z->count + states) * 4 > (z->slot_mask + 1) * 3)
        st = lazy_grow_slots(z, z->count + states, err);
    if (st == PN_OK && z->arena_n + entries > z->arena_cap)
        st = lazy_grow_arena(z, z->arena_n + entries, err);
    return st;
}

/* Room for one more state (lazy_room), where the space is still usable
 * and under 2^32 states. */
static pn_status lazy_room_one(pn_lazy *z, pn_error *err)
{
    if (z->broken)
        return lazy_nomem(err);
    if (z->count + 1 > LAZY_MAX_STATES)
        return pn_fail(err, PN_ERR_NOMEM, "the on-demand state space passes 2^32 states");
    return lazy_room(z, 1, 0, err);
}

/* Place p overflowed: the space widens it, every stored state is
 * repacked. */
static pn_status lazy_widen(pn_lazy *z, uint32_t p, pn_error *err)
{
    pn_status st = pn_space_widen(z->sp, &p, 1, err);
    if (st != PN_OK)
        return st;
    uint32_t ow = z->words, nw = pn_space_words(z->sp);
    uint64_t *ns = pn_lazy_fits(z, z->cap * (uint64_t)nw * 8)
                       ? malloc((z->cap + 1) * nw * sizeof *ns) : NULL;
    uint64_t *vec = malloc((size_t)nw * sizeof *vec);
    uint64_t *batch = malloc((size_t)LAZY_BATCH * nw * sizeof *batch);
    if (ns == NULL || vec == NULL || batch == NULL) {
        free(ns);
        free(vec);
        free(batch);
        z->broken = true;
        return lazy_nomem(err);
    }
    for (uint64_t id = 0; id < z->count; id++)
        pn_space_repack(z->sp, z->store + id * ow, ns + id * nw);
    free(z->store);
    free(z->vec);
    free(z->batch);
    z->store = ns;
    z->vec = vec;
    z->batch = batch;
    z->words = nw;
    z->widenings++;
    lazy_rehash(z);
    return PN_OK;
}

/* The waiting successors into the table and the arena, in their order. */
static void lazy_flush(pn_lazy *z)
{
    uint32_t w = z->words;
    for (uint32_t i = 0; i < z->bn; i++) {
        z->bhash[i] = pn_space_hash(z->batch + (size_t)i * w, w);
        PN_PREFETCH(&z->slots[z->bhash[i] & z->slot_mask]);
    }
    for (uint32_t i = 0; i < z->bn; i++) {
        uint64_t slot = z->slots[z->bhash[i] & z->slot_mask];
        uint64_t sid = slot & PN_SLOT_ID_MASK;
        if (sid != 0 && sid != PN_SLOT_BUSY &&
            (slot >> PN_SLOT_ID_BITS) == (z->bhash[i] >> PN_SLOT_ID_BITS))
            PN_PREFETCH(z->store + (sid - 1) * w);
    }
    for (uint32_t i = 0; i < z->bn; i++) {
        if (z->keep_trans)
            z->arena_trans[z->arena_n] = z->btrans[i];
        z->arena[z->arena_n++] = lazy_insert(z, z->batch + (size_t)i * w, z->bhash[i]);
    }
    z->bn = 0;
}

static void lazy_record(void *ctx, uint32_t trans, const uint64_t *succ)
{
    pn_lazy *z = ctx;
    memcpy(z->batch + (size_t)z->bn * z->words, succ, z->words * sizeof *succ);
    z->btrans[z->bn] = trans;
    if (++z->bn == LAZY_BATCH)
        lazy_flush(z);
}

/* The cycle proviso: whether the reduced successors of s, arena[start..),
 * must give way to all of them (one is s or was expanded before, and some
 * enabled transition was dropped). */
static bool lazy_proviso_fails(pn_lazy *z, uint32_t s, uint64_t start)
{
    if (!z->proviso)
        return false;
    bool closes = false;
    for (uint64_t k = start; k < z->arena_n && !closes; k++)
        closes = z->arena[k] == s || z->soff[z->arena[k]] != LAZY_NOT_EXPANDED;
    return closes && pn_space_enabled(z->sp, pn_lazy_state(z, s), z->trans) > z->arena_n - start;
}

/* pn_lazy_probe_reduction: after the first LAZY_PROBE_STATES expansions,
 * whether they fired too large a part of their enabled transitions. */
static pn_status lazy_probe(pn_lazy *z, uint32_t s, pn_error *err)
{
    if (z->probe_per_mille == 0 || z->probed >= LAZY_PROBE_STATES)
        return PN_OK;
    z->probe_fired += z->sdeg[s];
    z->probe_enabled += pn_space_enabled(z->sp, pn_lazy_state(z, s), z->trans);
    if (++z->probed == LAZY_PROBE_STATES &&
        z->probe_fired * 1000 > z->probe_enabled * z->probe_per_mille)
        return pn_fail(err, PN_ERR_UNSUPPORTED,
                       "the reduction fires %lu of %lu enabled transitions in its first %u states",
                       (unsigned long)z->probe_fired, (unsigned long)z->probe_enabled,
                       LAZY_PROBE_STATES);
    return PN_OK;
}

static pn_status lazy_expand(pn_lazy *z, uint32_t s, pn_error *err)
{
    for (;;) {
        if (z->broken)
            return lazy_nomem(err);
        if (z->count + z->T > LAZY_MAX_STATES)
            return pn_fail(err, PN_ERR_NOMEM, "the on-demand state space passes 2^32 states");
        pn_status st = lazy_room(z, z->T, z->T, err);
        if (st != PN_OK)
            return st;
        uint64_t start = z->arena_n;
        /* Successors go straight into the store: s stays put (room made). */
        uint32_t of = pn_space_next_all(z->sp, pn_lazy_state(z, s), lazy_record, z);
        if (of == 0)
            lazy_flush(z);
        if (of == 0 && lazy_proviso_fails(z, s, start)) {
            z->arena_n = start;
            of = pn_space_next_all_unreduced(z->sp, pn_lazy_state(z, s), lazy_record, z);
            if (of == 0)
                lazy_flush(z);
        }
        if (of == 0) {
            z->soff[s] = start;
            z->sdeg[s] = (uint32_t)(z->arena_n - start);
            z->expanded++;
            return lazy_probe(z, s, err);
        }
        /* The states inserted before the overflow stay (they are states of
         * the net); only the list of s is redone. */
        z->bn = 0;
        z->arena_n = start;
        if ((st = lazy_widen(z, of - 1, err)) != PN_OK)
            return st;
    }
}

/* A deferred expansion: s's enabled transitions become unresolved
 * entries. */
static pn_status lazy_list(pn_lazy *z, uint32_t s, pn_error *err)
{
    if (z->broken)
        return lazy_nomem(err);
    pn_status st = lazy_room(z, 0, z->T, err);
    if (st != PN_OK)
        return st;
    uint64_t start = z->arena_n;
    uint32_t n = pn_space_enabled(z->sp, pn_lazy_state(z, s), z->arena_trans + start);
    for (uint32_t k = 0; k < n; k++)
        z->arena[start + k] = LAZY_UNRESOLVED;
    z->arena_n += n;
    z->unresolved += n;
    z->soff[s] = start;
    z->sdeg[s] = n;
    z->expanded++;
    return PN_OK;
}

/* Entry k of s (listed) gets its state: fired, widened on an overflow
 * and fired again, inserted. */
static pn_status lazy_resolve(pn_lazy *z, uint32_t s, uint32_t k, pn_error *err)
{
    uint64_t e = z->soff[s] + k;
    while (z->arena[e] == LAZY_UNRESOLVED) {
        pn_status st = lazy_room_one(z, err);
        if (st != PN_OK)
            return st;
        uint32_t of = pn_space_fire(z->sp, pn_lazy_state(z, s), z->arena_trans[e], z->vec);
        if (of != 0) {
            if ((st = lazy_widen(z, of - 1, err)) != PN_OK)
                return st;
            continue;
        }
        z->arena[e] = lazy_insert(z, z->vec, pn_space_hash(z->vec, z->words));
        z->unresolved--;
    }
    return PN_OK;
}

pn_status pn_lazy_degree(pn_lazy *z, uint32_t s, uint32_t *n, pn_error *err)
{
    if (z->soff[s] == LAZY_NOT_EXPANDED) {
        pn_status st = z->defer ? lazy_list(z, s, err) : lazy_expand(z, s, err);
        if (st != PN_OK)
            return st;
    }
    *n = z->sdeg[s];
    return PN_OK;
}

pn_status pn_lazy_succ_at(pn_lazy *z, uint32_t s, uint32_t k, uint32_t *id, pn_error *err)
{
    uint32_t n;
    pn_status st = pn_lazy_degree(z, s, &n, err);
    if (st == PN_OK && z->defer)
        st = lazy_resolve(z, s, k, err);
    if (st == PN_OK)
        *id = z->arena[z->soff[s] + k];
    return st;
}

pn_status pn_lazy_succ(pn_lazy *z, uint32_t s, const uint32_t **succ, uint32_t *n,
                       pn_error *err)
{
    pn_status st = pn_lazy_degree(z, s, n, err);
    for (uint32_t k = 0; st == PN_OK && z->defer && k < *n; k++)
        st = lazy_resolve(z, s, k, err);
    if (st != PN_OK)
        return st;
    *succ = *n == 0 ? NULL : z->arena + z->soff[s]; /* the arena may not exist yet */
    return PN_OK;
}

pn_status pn_lazy_keep_trans(pn_lazy *z, pn_error *err)
{
    if (z->keep_trans)
        return PN_OK;
    if (z->arena_n > 0)
        return pn_fail(err, PN_ERR_INTERNAL, "pn_lazy_keep_trans after the first expansion");
    if (!pn_lazy_fits(z, z->arena_cap * 4))
        return lazy_nomem(err);
    z->arena_trans = malloc((z->arena_cap + 1) * sizeof *z->arena_trans);
    if (z->arena_trans == NULL)
        return lazy_nomem(err);
    z->keep_trans = true;
    return PN_OK;
}

bool pn_lazy_keeps_trans(const pn_lazy *z) { return z->keep_trans; }

bool pn_lazy_complete(const pn_lazy *z)
{
    return !z->reduces && !z->broken && z->count > 0 && z->expanded == z->count &&
           z->unresolved == 0;
}

const uint32_t *pn_lazy_succ_trans(const pn_lazy *z, uint32_t s)
{
    if (!z->keep_trans || z->soff[s] == LAZY_NOT_EXPANDED || z->arena_trans == NULL)
        return NULL;
    return z->arena_trans + z->soff[s];
}

uint32_t pn_lazy_enabled(pn_lazy *z, uint32_t s)
{
    if (z->soff[s] != LAZY_NOT_EXPANDED && !z->reduces)
        return z->sdeg[s];
    return pn_space_enabled(z->sp, pn_lazy_state(z, s), z->trans);
}

/* Every enabled transition, the ones a reducing layer dropped too. One
 * that overflows a field cannot lead to t, a stored state that fits the
 * layout, and is passed by: a reduced expansion never fired it, so the
 * field was never widened for it, and stopping at the overflow
 * (pn_space_next_all_unreduced does) would miss the transitions after it. */
uint32_t pn_lazy_trans(pn_lazy *z, uint32_t s, uint32_t t)
{
    const uint64_t *from = pn_lazy_state(z, s), *to = pn_lazy_state(z, t);
    uint32_t n = pn_space_enabled(z->sp, from, z->trans);
    for (uint32_t k = 0; k < n; k++)
        if (pn_space_fire(z->sp, from, z->trans[k], z->vec) == 0 &&
            memcmp(z->vec, to, z->words * sizeof *to) == 0)
            return z->trans[k];
    return UINT32_MAX;
}

pn_status pn_lazy_insert(pn_lazy *z, const uint64_t *s, uint32_t *id, bool *is_new,
                         pn_error *err)
{
    pn_status st = lazy_room_one(z, err);
    if (st != PN_OK)
        return st;
    uint64_t before = z->count;
    *id = lazy_insert(z, s, pn_space_hash(s, z->words));
    *is_new = z->count > before;
    return PN_OK;
}

void pn_lazy_release(pn_lazy *z, uint32_t s)
{
    if (z->soff[s] == LAZY_NOT_EXPANDED || z->soff[s] + z->sdeg[s] != z->arena_n)
        return;
    for (uint64_t k = z->soff[s]; k < z->arena_n; k++)
        z->unresolved -= z->arena[k] == LAZY_UNRESOLVED;
    z->arena_n = z->soff[s];
    z->soff[s] = LAZY_NOT_EXPANDED;
    z->expanded--;
}

/* The initial state becomes state 0. */
static pn_status lazy_init(pn_lazy *z, pn_error *err)
{
    z->words = pn_space_words(z->sp);
    z->T = pn_space_transitions(z->sp);
    z->reduces = pn_space_reduces(z->sp);
    z->trans = malloc(((size_t)z->T + 1) * sizeof *z->trans);
    z->vec = malloc((size_t)z->words * sizeof *z->vec);
    z->batch = malloc((size_t)LAZY_BATCH * z->words * sizeof *z->batch);
    z->slots = calloc(1024, sizeof *z->slots);
    if (z->trans == NULL || z->vec == NULL || z->batch == NULL || z->slots == NULL)
        return lazy_nomem(err);
    z->slot_mask = 1023;
    pn_status st = lazy_grow_store(z, 1024, err);
    if (st != PN_OK)
        return st;
    pn_space_initial(z->sp, z->vec);
    lazy_insert(z, z->vec, pn_space_hash(z->vec, z->words));
    /* Deferred entries keep their transitions: they are fired later. */
    z->defer = pn_space_defers(z->sp);
    return z->defer ? pn_lazy_keep_trans(z, err) : PN_OK;
}

pn_status pn_lazy_new_space(pn_space *sp, uint64_t memory_budget, pn_lazy **out,
                            pn_error *err)
{
    *out = NULL;
    pn_lazy *z = calloc(1, sizeof *z);
    if (z == NULL) {
        pn_space_free(sp);
        return lazy_nomem(err);
    }
    z->sp = sp;
    z->budget = memory_budget;
    pn_status st = lazy_init(z, err);
    if (st != PN_OK) {
        pn_lazy_free(z);
        return st;
    }
    *out = z;
    return PN_OK;
}

pn_status pn_lazy_new(const pn_cnet *cn, uint64_t memory_budget, pn_lazy **out, pn_error *err)
{
    *out = NULL;
    /* The space's setup (its layout and firing) counts too: the states get
     * what it leaves, and none is set up where it would not fit. */
    uint64_t setup = pn_layout_bytes(cn);
    if (memory_budget != 0 && memory_budget <= setup)
        return lazy_nomem(err);
    pn_space *sp = NULL;
    pn_status st = pn_space_pt_new(cn, &sp, err);
    uint64_t states = memory_budget == 0 ? 0 : memory_budget - setup;
    return st == PN_OK ? pn_lazy_new_space(sp, states, out, err) : st;
}

void pn_lazy_free(pn_lazy *z)
{
    if (z == NULL)
        return;
    if (z->pool != NULL)
        __atomic_sub_fetch(&z->pool->used, z->pooled, __ATOMIC_RELAXED);
    pn_space_free(z->sp);
    free(z->store);
    free(z->slots);
    free(z->soff);
    free(z->sdeg);
    free(z->arena);
    free(z->arena_trans);
    free(z->vec);
    free(z->batch);
    free(z->trans);
    free(z);
}
