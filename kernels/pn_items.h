/* The on-the-fly check's items as flat data, and what one state does to
 * them: the per-state code of the GPU kernels (the BFS and the random
 * walks) and of their host emulation. host/logic/check.c describes its open
 * items this way (pn_check_items) and takes back what the kernels found
 * (pn_check_items_found); its own visitor, on the CPU engine's unpacked
 * markings, keeps per-worker candidate lists instead.
 *
 * An item is decided by a witness state (E F phi: a state with phi; A G phi:
 * one without; deadlock; a marking above 1 token per place; a bound that
 * reaches its proven limit) or by counters over all states (QuasiLiveness:
 * every transition seen enabled; StableMarking: every place seen off its
 * initial count). Threads only lower a witness id (atomic min: the smallest
 * id of a level is the same whatever the thread order, so the depth of a
 * --trace does not depend on the schedule), raise maxima and set flags:
 * all idempotent, so a level redone after a widening changes nothing. */
#ifndef PETREL_PN_ITEMS_H
#define PETREL_PN_ITEMS_H

#include "pn_sformula.h"

enum {
    PN_ITEM_EF,       /* decided TRUE by a state with f */
    PN_ITEM_AG,       /* decided FALSE by a state without f */
    PN_ITEM_BOUND,    /* maximum of a token sum; decided at a proven limit */
    PN_ITEM_DEADLOCK, /* TRUE at a state enabling nothing */
    PN_ITEM_ONESAFE,  /* FALSE at a state with a place above 1 */
    PN_ITEM_QUASI,    /* TRUE once every transition was seen enabled */
    PN_ITEM_STABLE,   /* FALSE once every place was seen off its m0 count */
    PN_ITEM_LIVE      /* FALSE at a deadlock (the graph decides the rest) */
};

#define PN_ITEM_NONE UINT64_MAX /* witness of an undecided item */

typedef struct pn_item {
    uint32_t kind;
    uint32_t answer;        /* the check's answer index */
    pn_sformula f;          /* EF, AG */
    const uint32_t *places; /* BOUND: the summed places (repeats counted) */
    uint32_t n_places;
    uint32_t has_limit;     /* BOUND: limit is a proven upper bound */
    uint64_t limit;
    uint32_t local;         /* BOUND: slot in a thread's register maxima, or
                             * UINT32_MAX (then an atomic per state) */
    uint32_t pad_;
} pn_item;

/* What the states have shown so far, in memory every thread writes. */
typedef struct pn_item_found {
    uint64_t witness;       /* smallest deciding state id; PN_ITEM_NONE */
    uint64_t max;           /* BOUND: largest sum (saturating at 2^64-1) */
} pn_item_found;

typedef struct pn_items_view {
    const pn_item *item;
    uint32_t n;
    uint32_t track_quasi, track_stable;
    uint32_t n_local;       /* BOUND items with a register slot */
    pn_item_found *found;
    uint32_t *seen;         /* per transition: seen enabled */
    uint32_t *moved;        /* per place: seen off its initial count */
    const uint64_t *m0;     /* the initial marking, packed like the states */
    uint64_t *decided;      /* items that got their first witness */
    uint64_t *n_seen;       /* transitions seen enabled */
    uint64_t *n_moved;      /* places seen moved */
} pn_items_view;

/* Register maxima a thread keeps for the first bound items (the MCC has 16
 * formulas per examination); the rest go straight to memory. */
#define PN_ITEMS_LOCAL 16

PN_HD static uint64_t pn_item_sum(const pn_item *it, const pn_prog *g, const uint64_t *s)
{
    uint64_t sum = 0;
    for (uint32_t k = 0; k < it->n_places; k++) {
        uint64_t v = pn_field_get(s, &g->field[it->places[k]]);
        sum = sum > UINT64_MAX - v ? UINT64_MAX : sum + v;
    }
    return sum;
}

PN_HD static bool pn_items_unsafe(const pn_prog *g, const uint64_t *s)
{
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; (p = pn_marked_next(g, s, &it)) != UINT32_MAX;)
        if (pn_field_get(s, &g->field[p]) > 1)
            return true;
    return false;
}

/* Whether state s (packed, g's layout; n_enabled transitions enabled)
 * decides item it by itself; *sum gets a BOUND item's token sum. */
PN_HD static bool pn_item_hit(const pn_item *it, const pn_prog *g, const uint64_t *s,
                              uint32_t n_enabled, uint64_t *sum)
{
    switch (it->kind) {
    case PN_ITEM_EF: return pn_sf_eval_packed(&it->f, g, s, n_enabled);
    case PN_ITEM_AG: return !pn_sf_eval_packed(&it->f, g, s, n_enabled);
    case PN_ITEM_BOUND:
        *sum = pn_item_sum(it, g, s);
        return it->has_limit && *sum >= it->limit;
    case PN_ITEM_DEADLOCK: return n_enabled == 0;
    case PN_ITEM_ONESAFE: return pn_items_unsafe(g, s);
    case PN_ITEM_LIVE: return n_enabled == 0 && g->n_transitions > 0;
    default: return false; /* QUASI, STABLE: the counters decide */
    }
}

PN_HD static void pn_items_witness(const pn_items_view *v, uint32_t k, uint64_t id)
{
    if (pn_atomic_min_u64(&v->found[k].witness, id) == PN_ITEM_NONE)
        pn_atomic_add_u64(v->decided, 1);
}

/* QuasiLiveness: the transitions s enables, through the trigger lists. */
PN_HD static void pn_items_track_quasi(const pn_items_view *v, const pn_prog *g,
                                       const uint64_t *s)
{
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; (p = pn_marked_next(g, s, &it)) != UINT32_MAX;)
        for (uint32_t k = g->trig_off[p]; k < g->trig_off[p + 1]; k++) {
            uint32_t t = g->trig[k];
            if (v->seen[t] == 0 && pn_state_enabled(g, s, t) && pn_atomic_set_u32(&v->seen[t]) == 0)
                pn_atomic_add_u64(v->n_seen, 1);
        }
    for (uint32_t k = 0; k < g->n_free; k++) {
        uint32_t t = g->free_trans[k];
        if (v->seen[t] == 0 && pn_atomic_set_u32(&v->seen[t]) == 0)
            pn_atomic_add_u64(v->n_seen, 1);
    }
}

/* StableMarking: the places whose count differs from m0, found from the
 * bits where s and the packed m0 differ. */
PN_HD static void pn_items_track_stable(const pn_items_view *v, const pn_prog *g,
                                        const uint64_t *s)
{
    for (uint32_t w = 0; w < g->words; w++)
        for (uint64_t x = s[w] ^ v->m0[w]; x != 0;) {
#if defined(__CUDA_ARCH__)
            uint32_t b = (uint32_t)(__ffsll((long long)x) - 1);
#else
            uint32_t b = (uint32_t)__builtin_ctzll(x);
#endif
            uint32_t p = g->bit_place[w * 64 + b];
            x &= ~(g->field[p].mask << g->field[p].shift);
            if (v->moved[p] == 0 && pn_atomic_set_u32(&v->moved[p]) == 0)
                pn_atomic_add_u64(v->n_moved, 1);
        }
}

/* Everything state `id` (packed s) shows the items. local: the thread's
 * register maxima of the first n_local bound items, flushed by the caller
 * (a warp reduction on the device). */
PN_HD static void pn_items_state(const pn_items_view *v, const pn_prog *g, const uint64_t *s,
                                 uint64_t id, uint32_t n_enabled, uint64_t *local)
{
    if (v->track_quasi)
        pn_items_track_quasi(v, g, s);
    if (v->track_stable)
        pn_items_track_stable(v, g, s);
    for (uint32_t k = 0; k < v->n; k++) {
        const pn_item *it = &v->item[k];
        if (it->kind != PN_ITEM_BOUND &&
            pn_atomic_peek_u64(&v->found[k].witness) != PN_ITEM_NONE)
            continue;
        uint64_t sum = 0;
        bool hit = pn_item_hit(it, g, s, n_enabled, &sum);
        if (it->kind == PN_ITEM_BOUND) {
            if (it->local != UINT32_MAX)
                local[it->local] = sum > local[it->local] ? sum : local[it->local];
            else
                pn_atomic_max_u64(&v->found[k].max, sum);
        }
        if (hit)
            pn_items_witness(v, k, id);
    }
}

#endif
