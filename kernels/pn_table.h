/* Exact, lock-free hash set of packed markings, shared by the CPU engine and
 * the CUDA kernels.
 *
 * States live in an append-only store (`words` per state); a state's id is
 * its index there, so ids of one BFS level are a contiguous range and the
 * frontier needs no storage of its own. The table is open addressing with
 * linear probing over 64-bit slots: 24 bits of hash tag | 40 bits of id + 1
 * (0 = empty). An inserter claims an empty slot with CAS as BUSY, takes the
 * next id, writes the state and then publishes the id (release); a prober
 * that meets BUSY with its own tag waits for the publication, so two equal
 * states can never both be inserted. Full markings are compared: no lossy
 * compaction.
 *
 * The caller guarantees room: at most `slots` - 1 states and `store_cap`
 * states in all (the engine checks headroom before each chunk of work). */
#ifndef PETREL_PN_TABLE_H
#define PETREL_PN_TABLE_H

#include "pn_ctable.h"
#include "pn_state.h"

#define PN_SLOT_ID_BITS 40
#define PN_SLOT_ID_MASK ((1ULL << PN_SLOT_ID_BITS) - 1)
#define PN_SLOT_BUSY PN_SLOT_ID_MASK
#define PN_TABLE_MAX_STATES (PN_SLOT_ID_MASK - 1)

typedef struct pn_table_view {
    uint64_t *slots;
    uint64_t slot_mask;  /* slot count - 1, a power of two minus one */
    uint64_t *store;     /* state id i at store[(i - base) * words] */
    uint64_t *count;     /* ids handed out so far */
    uint32_t words;
    /* Compact mode (pn_ctable.h, one-word states): when ctable.n is
     * non-zero, the set is ctable (slots above are unused) and store holds
     * only the states of ids base .. count-1 (the levels still to expand). */
    pn_ctable ctable;
    uint64_t base;
    /* Tree mode (pn_treestore.h): the stored states (one word each) are the
     * keys of markings of tree->words words; NULL: the markings themselves. */
    const struct pn_tstore *tree;
} pn_table_view;

enum { PN_INSERT_OLD = 0, PN_INSERT_NEW = 1 };

/* A plain table's view: states themselves in the store from id 0, neither
 * compact nor tree mode (the on-demand space, a walk's own states). */
PN_HD static pn_table_view pn_table_plain(uint64_t *slots, uint64_t slot_mask, uint64_t *store,
                                          uint64_t *count, uint32_t words)
{
    pn_table_view v;
    v.slots = slots;
    v.slot_mask = slot_mask;
    v.store = store;
    v.count = count;
    v.words = words;
    v.ctable.slots = 0;
    v.ctable.n = 0;
    v.ctable.has_zero = 0;
    v.base = 0;
    v.tree = 0;
    return v;
}

PN_HD static void pn_store_write(uint64_t *dst, const uint64_t *s, uint32_t words)
{
    for (uint32_t w = 0; w < words; w++)
        dst[w] = s[w];
}

/* Inserts s (hash h) if absent. *id gets its id either way. */
PN_HD static int pn_table_insert(const pn_table_view *v, const uint64_t *s, uint64_t h,
                                 uint64_t *id)
{
    const uint64_t tag = (h >> PN_SLOT_ID_BITS) << PN_SLOT_ID_BITS;
    for (uint64_t i = h & v->slot_mask;; i = (i + 1) & v->slot_mask) {
        uint64_t cur = pn_atomic_load_u64(&v->slots[i]);
        if (cur == 0) {
            if (!pn_atomic_cas_u64(&v->slots[i], 0, tag | PN_SLOT_BUSY)) {
                cur = pn_atomic_load_u64(&v->slots[i]);
            } else {
                uint64_t nid = pn_atomic_add_u64(v->count, 1);
                pn_store_write(v->store + nid * v->words, s, v->words);
                pn_atomic_store_u64(&v->slots[i], tag | (nid + 1));
                *id = nid;
                return PN_INSERT_NEW;
            }
        }
        if ((cur & ~PN_SLOT_ID_MASK) != tag)
            continue;
        while ((cur & PN_SLOT_ID_MASK) == PN_SLOT_BUSY)
            cur = pn_atomic_load_u64(&v->slots[i]);
        uint64_t oid = (cur & PN_SLOT_ID_MASK) - 1;
        if (pn_state_equal(v->store + oid * v->words, s, v->words)) {
            *id = oid;
            return PN_INSERT_OLD;
        }
    }
}

/* Re-insertion of a stored state after the table grew, by several threads
 * at once: each id is inserted once and the store is already written, so
 * claiming an empty slot publishes it (no BUSY step, no compare). */
PN_HD static void pn_table_reinsert_shared(const pn_table_view *v, uint64_t id, uint64_t h)
{
    const uint64_t tag = (h >> PN_SLOT_ID_BITS) << PN_SLOT_ID_BITS;
    for (uint64_t i = h & v->slot_mask;; i = (i + 1) & v->slot_mask)
        if (pn_atomic_load_u64(&v->slots[i]) == 0 &&
            pn_atomic_cas_u64(&v->slots[i], 0, tag | (id + 1)))
            return;
}

/* Single-threaded re-insertion of a stored state after the table grew. */
PN_HD static void pn_table_reinsert(const pn_table_view *v, uint64_t id, uint64_t h)
{
    const uint64_t tag = (h >> PN_SLOT_ID_BITS) << PN_SLOT_ID_BITS;
    uint64_t i = h & v->slot_mask;
    while (v->slots[i] != 0)
        i = (i + 1) & v->slot_mask;
    v->slots[i] = tag | (id + 1);
}

#endif
