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

#endif
