/* Compact exact hash set for markings that pack into one 64-bit word: the
 * slot holds the marking itself (0 marks it empty; the all-zero marking is
 * kept in a flag of its own), so a probe compares in place and never
 * touches a state store. One cache miss per
 * successor instead of two (slot, then stored state), and 8 bytes per slot
 * is the whole per-state cost of the set.
 *
 * Open addressing with linear probing over a slot count that need not be a
 * power of two: the home slot is the high half of hash * n (Lemire, "Fast
 * random integer generation in an interval", ACM TOMACS 2019), so the table
 * can grow by less than 2x and keep its load between 1/2 and 4/5. Claiming a
 * slot is a single CAS from 0 to the key: the key is published by the same
 * atomic write that claims it, so no BUSY state is needed.
 *
 * The caller guarantees room (some slot stays empty). */
#ifndef PETREL_PN_CTABLE_H
#define PETREL_PN_CTABLE_H

#include "pn_hd.h"

typedef struct pn_ctable {
    uint64_t *slots;
    uint64_t n;          /* slot count, >= 1 */
    uint64_t *has_zero;  /* 1 once the all-zero marking is in */
} pn_ctable;

PN_HD static uint64_t pn_ctable_home(uint64_t h, uint64_t n)
{
#if defined(__CUDA_ARCH__)
    return __umul64hi(h, n);
#else
    return (uint64_t)(((unsigned __int128)h * n) >> 64);
#endif
}

/* 1 when s (hash h) was absent and is now in, 0 when it was there. */
PN_HD static int pn_ctable_insert(const pn_ctable *t, uint64_t s, uint64_t h)
{
    if (s == 0)
        return pn_atomic_cas_u64(t->has_zero, 0, 1) ? 1 : 0;
    for (uint64_t i = pn_ctable_home(h, t->n);; i = i + 1 == t->n ? 0 : i + 1) {
        uint64_t cur = pn_atomic_load_u64(&t->slots[i]);
        if (cur == 0) {
            if (pn_atomic_cas_u64(&t->slots[i], 0, s))
                return 1;
            cur = pn_atomic_load_u64(&t->slots[i]);
        }
        if (cur == s)
            return 0;
    }
}

/* Single-threaded insert of a non-zero marking known to be absent
 * (growing the table). */
PN_HD static void pn_ctable_reinsert(const pn_ctable *t, uint64_t s, uint64_t h)
{
    uint64_t i = pn_ctable_home(h, t->n);
    while (t->slots[i] != 0)
        i = i + 1 == t->n ? 0 : i + 1;
    t->slots[i] = s;
}

/* ---- sizing (host code of both engines) ----------------------------------
 * A compact run holds the table and the window of states still to expand
 * (ids base .. count-1). The table grows when a round could push its load
 * past 4/5, to 8/5 of the states (load back at 5/8: 10-12.8 bytes a
 * state); when the budget cannot hold that beside the old table (both live
 * while rehashing) and the window, it takes whatever fits if that keeps the
 * load at most 9/10 ("tight": linear probing slows there, but the run goes
 * on). The window grows to 5/4 of what it must hold. */
#define PN_CTABLE_MIN_SLOTS 1024ULL

typedef struct pn_ctable_plan {
    uint64_t slots;  /* slot count (unchanged: no rehash) */
    uint64_t buf;    /* window capacity in states */
    bool tight;
} pn_ctable_plan;

enum { PN_CTABLE_FITS = 0, PN_CTABLE_NO_IDS = 1, PN_CTABLE_NO_MEMORY = 2 };

/* Ids below this fit both the load limit and the window. */
static inline uint64_t pn_ctable_cap(const pn_ctable_plan *p, uint64_t base)
{
    uint64_t by_load = p->tight ? p->slots / 10 * 9 : p->slots / 5 * 4;
    return by_load < base + p->buf ? by_load : base + p->buf;
}

/* The plan *p (the current one on entry) after which `need` more states
 * fit, count states being numbered and those from base kept; memory: the
 * budget in bytes (0: none). PN_CTABLE_NO_IDS beyond max_states ids,
 * PN_CTABLE_NO_MEMORY beyond the budget (p is then unchanged). */
static inline int pn_ctable_grow_plan(pn_ctable_plan *p, uint64_t count, uint64_t base,
                                      uint64_t need, uint64_t max_states, uint64_t memory)
{
    uint64_t want = count + need, held = count - base;
    if (want > max_states)
        return PN_CTABLE_NO_IDS;
    pn_ctable_plan q = *p;
    if (held + need > q.buf)
        q.buf = (held + need) / 4 * 5 + 64;
    uint64_t by_load = q.tight ? q.slots / 10 * 9 : q.slots / 5 * 4;
    if (want > by_load) {
        uint64_t slots = want / 5 * 8 > PN_CTABLE_MIN_SLOTS ? want / 5 * 8 : PN_CTABLE_MIN_SLOTS;
        uint64_t fixed = (p->slots + q.buf) * sizeof(uint64_t);
        if (memory != 0 && fixed + slots * sizeof(uint64_t) > memory) {
            uint64_t fit = memory > fixed ? (memory - fixed) / sizeof(uint64_t) : 0;
            if (fit < p->slots)
                fit = p->slots; /* no growth: the old table may still do at 9/10 */
            if (want > fit / 10 * 9)
                return PN_CTABLE_NO_MEMORY;
            q.tight = true;
            slots = fit;
        }
        q.slots = slots;
    }
    uint64_t peak = (q.slots + (q.slots != p->slots ? p->slots : 0) + q.buf) * sizeof(uint64_t);
    if (memory != 0 && peak > memory)
        return PN_CTABLE_NO_MEMORY;
    *p = q;
    return PN_CTABLE_FITS;
}

#endif
