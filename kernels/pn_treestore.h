/* Tree compression of packed markings, shared by the CPU engine and (later)
 * the CUDA kernels: A. Laarman, J. van de Pol, M. Weber, "Parallel recursive
 * state compression for free", SPIN 2011 (LTSmin's tree database).
 *
 * A marking of W >= 2 words is the leaves of a fixed binary tree. Every tree
 * node is one 64-bit value in a single concurrent set of nodes: a leaf node
 * is a word of the marking, an inner node is the pair (left ref << 32 |
 * right ref) of its children's refs, a node's ref being its id in that set.
 * The root pair is the marking's 64-bit key, which the caller keeps in a
 * one-word set of its own (pn_ctable.h when no ids are needed, pn_table.h
 * when they are): equal keys are equal markings, so the state set stays
 * exact while a marking costs one key plus the nodes no earlier marking
 * shared. Sub-vectors repeat across states, so the new nodes per state are
 * few; a successor re-inserts only the nodes above the words its transition
 * changed and reuses the parent's refs for the rest (the paper's
 * incremental insertion).
 *
 * Unlike the paper's table, nodes do not live in the hash slots: slots name
 * refs in an append-only store (pn_table.h's layout), so a node's ref never
 * moves when the set grows and is rebuilt. Nodes are never removed. Refs
 * are 32-bit and the set is never more than 3/4 full, so a slot is 32 bits
 * (pn_tnodes below), half of pn_table.h's: the ref + 1 in the low bits, as
 * many as the slot count needs, and hash bits as a tag in the rest. At most
 * PN_TSTORE_MAX_NODES nodes (3/4 of 2^32 slots).
 *
 * Shape: leaves are positions 0 .. W-1; inner positions W .. 2W-2 pair
 * adjacent positions level by level (an odd one out moves up a level), so
 * children always precede their parent and the root is position 2W-2. For
 * W = 1 the key is the word itself and the set holds no nodes.
 *
 * Successors are encoded in batches (pn_tstore_mark, then
 * pn_tstore_encode_batch): the dirty nodes of every successor in the batch
 * are looked up one level at a time, their slots and then their stored
 * values prefetched before any is compared, so that a CPU thread waits for
 * a batch's cache misses at once rather than for a chain of them per
 * successor (the batching pn_expand.h does for whole markings).
 */
#ifndef PETREL_PN_TREESTORE_H
#define PETREL_PN_TREESTORE_H

#include "pn_ctable.h"
#include "pn_state.h"

#define PN_TSTORE_MAX_NODES (3ULL << 30)

/* The node set. A 64-bit id table slot (24-bit tag, 40-bit id) spent 8
 * bytes a slot on refs that never pass 32 bits, and its power-of-two slot
 * count sat at 3/8 to 3/4 load: on RwMutex-PT-r1000w0010 (3.4 new nodes a
 * state) the slots were 46 of the 96 bytes a state held. Here a slot is
 * 32 bits and the count need not be a power of two: the home slot is the
 * high half of hash * n (Lemire, as in pn_ctable.h), so the engine can
 * grow the set by less than 2x. The tag is the low hash bits that the ref
 * field leaves (5 bits at 10^8 slots, none at 2^32): a probe compares the
 * stored value a little more often as the set grows, and equality is
 * always decided on the value, never on the tag. Same protocol as
 * pn_table_insert: an inserter claims an empty slot as BUSY (ref field all
 * ones, never a ref + 1 while the set is at most 3/4 full), writes the
 * value and publishes the ref. */
typedef struct pn_tnodes {
    uint32_t *slots;     /* tag | (ref + 1); 0: empty */
    uint64_t n;          /* slot count, 8 .. 2^32 */
    uint32_t ref_mask;   /* the ref + 1 field: 2^b - 1 >= n - 1 */
    uint64_t *store;     /* node values by ref */
    uint64_t *count;     /* refs handed out so far */
} pn_tnodes;

/* Points the set at n (8 .. 2^32) empty slots. */
PN_HD static void pn_tnodes_reset(pn_tnodes *t, uint32_t *slots, uint64_t n)
{
    uint64_t m = n - 1;
    for (uint32_t k = 1; k < 64; k *= 2)
        m |= m >> k;
    t->slots = slots;
    t->n = n;
    t->ref_mask = (uint32_t)m;
}

/* The ref of value v (hash h), inserted if new. */
PN_HD static uint32_t pn_tnodes_insert(const pn_tnodes *t, uint64_t v, uint64_t h)
{
    const uint32_t m = t->ref_mask, tag = (uint32_t)h & ~m;
    for (uint64_t i = pn_ctable_home(h, t->n);; i = i + 1 == t->n ? 0 : i + 1) {
        uint32_t cur = pn_atomic_load_u32(&t->slots[i]);
        if (cur == 0) {
            if (pn_atomic_cas_u32(&t->slots[i], 0, tag | m)) {
                uint64_t ref = pn_atomic_add_u64(t->count, 1);
                t->store[ref] = v;
                pn_atomic_store_u32(&t->slots[i], tag | (uint32_t)(ref + 1));
                return (uint32_t)ref;
            }
            cur = pn_atomic_load_u32(&t->slots[i]);
        }
        if ((cur & ~m) != tag)
            continue;
        while ((cur & m) == m)
            cur = pn_atomic_load_u32(&t->slots[i]);
        uint32_t ref = (cur & m) - 1;
        if (t->store[ref] == v)
            return ref;
    }
}

/* Re-insertion of stored ref (its value's hash h) after the slots grew, by
 * several threads at once (each ref once: claiming a slot publishes it). */
PN_HD static void pn_tnodes_reinsert(const pn_tnodes *t, uint32_t ref, uint64_t h)
{
    const uint32_t tag = (uint32_t)h & ~t->ref_mask;
    for (uint64_t i = pn_ctable_home(h, t->n);; i = i + 1 == t->n ? 0 : i + 1)
        if (pn_atomic_load_u32(&t->slots[i]) == 0 &&
            pn_atomic_cas_u32(&t->slots[i], 0, tag | (ref + 1)))
            return;
}

/* The home slot of hash h. */
PN_HD static const uint32_t *pn_tnodes_home(const pn_tnodes *t, uint64_t h)
{
    return &t->slots[pn_ctable_home(h, t->n)];
}

/* Pass 0: prefetches the home slot of value hash h; pass 1: the stored
 * value that slot names if its tag matches. */
PN_HD static void pn_tnodes_prefetch(const pn_tnodes *t, uint64_t h, uint32_t pass)
{
    const uint32_t *slot = pn_tnodes_home(t, h);
    if (pass == 0) {
        PN_PREFETCH(slot);
        return;
    }
    const uint32_t m = t->ref_mask, cur = pn_atomic_load_u32(slot), ref1 = cur & m;
    if (ref1 != 0 && ref1 != m && (cur & ~m) == ((uint32_t)h & ~m))
        PN_PREFETCH(t->store + ref1 - 1);
}

typedef struct pn_tstore {
    pn_tnodes nodes;     /* node values by ref */
    uint32_t words;      /* W, the leaves */
    uint32_t depth;      /* inner levels, root included: ceil(log2 W) */
    /* 2 (W - 1) entries: inner position W + i has children kid[2i] and
     * kid[2i + 1] (positions). */
    const uint32_t *kid;
    const uint32_t *up;        /* 2W - 1: the parent position (root: itself) */
    /* depth + 1: positions below round_end[r] were made by round r of the
     * pairing (leaves: round 0), so each round needs only earlier ones. */
    const uint32_t *round_end;
} pn_tstore;

/* Marks a position whose node is still to be looked up. */
#define PN_TSTORE_DIRTY 0xFFFFFFFFu
/* Successors one pn_tstore_encode_batch call takes at most. */
#define PN_TSTORE_BATCH_MAX 64

/* Fills kid (2 (W - 1) entries), up (2W - 1) and round_end (up to 33)
 * with the shape above, using lvl (W entries) as scratch; returns the
 * depth. */
PN_HD static uint32_t pn_tstore_shape(uint32_t W, uint32_t *kid, uint32_t *up,
                                      uint32_t *round_end, uint32_t *lvl)
{
    uint32_t n = W, next = W, depth = 0;
    for (uint32_t k = 0; k < W; k++)
        lvl[k] = k;
    up[2 * W - 2] = 2 * W - 2;
    round_end[0] = W;
    while (n > 1) {
        uint32_t m = 0;
        for (uint32_t k = 0; k + 1 < n; k += 2) {
            uint32_t i = next++ - W;
            kid[2 * i] = lvl[k];
            kid[2 * i + 1] = lvl[k + 1];
            up[lvl[k]] = up[lvl[k + 1]] = W + i;
            lvl[m++] = W + i;
        }
        if (n % 2)
            lvl[m++] = lvl[n - 1];
        n = m;
        round_end[++depth] = next;
    }
    return depth;
}

/* Nodes one successor can add at most when its transition writes `changed`
 * words: a leaf and the inner nodes above it, below the root, per word. */
PN_HD static uint64_t pn_tstore_nodes_per_change(const pn_tstore *t, uint32_t changed)
{
    if (t->words == 1)
        return 0;
    uint64_t n = (uint64_t)changed * t->depth, all = 2ULL * t->words - 2;
    return n < all ? n : all;
}

/* The ref of node value v, inserted if new. */
PN_HD static uint32_t pn_tstore_node(const pn_tstore *t, uint64_t v)
{
    return pn_tnodes_insert(&t->nodes, v, pn_state_hash(&v, 1));
}

PN_HD static uint64_t pn_tstore_pair(uint32_t a, uint32_t b) { return (uint64_t)a << 32 | b; }

PN_HD static uint64_t pn_tstore_root(const pn_tstore *t, const uint32_t *refs)
{
    const uint32_t *k = t->kid + 2 * (t->words - 2);
    return pn_tstore_pair(refs[k[0]], refs[k[1]]);
}

/* The key of marking s; refs (2W - 1 entries) gets every position's ref. */
PN_HD static uint64_t pn_tstore_encode(const pn_tstore *t, const uint64_t *s, uint32_t *refs)
{
    const uint32_t W = t->words;
    if (W == 1)
        return s[0];
    for (uint32_t k = 0; k < W; k++)
        refs[k] = pn_tstore_node(t, s[k]);
    for (uint32_t i = 0; i + 2 < W; i++)
        refs[W + i] = pn_tstore_node(t, pn_tstore_pair(refs[t->kid[2 * i]], refs[t->kid[2 * i + 1]]));
    return pn_tstore_root(t, refs);
}

/* Prepares s, a successor of ps whose refs are prefs, for
 * pn_tstore_encode_batch: refs gets prefs with the positions above words
 * that differ marked PN_TSTORE_DIRTY (root excluded), and dirty those
 * positions in increasing order; returns how many (at most 2W - 2). */
PN_HD static uint32_t pn_tstore_mark(const pn_tstore *t, const uint64_t *ps,
                                     const uint32_t *prefs, const uint64_t *s, uint32_t *refs,
                                     uint32_t *dirty)
{
    const uint32_t W = t->words, root = 2 * W - 2;
    for (uint32_t k = 0; k < root; k++)
        refs[k] = prefs[k];
    uint32_t n = 0;
    for (uint32_t w = 0; w < W; w++)
        for (uint32_t p = w; s[w] != ps[w] && p != root && refs[p] != PN_TSTORE_DIRTY;
             p = t->up[p])
            refs[p] = PN_TSTORE_DIRTY;
    for (uint32_t p = 0; p < root; p++) /* in position order: round by round */
        if (refs[p] == PN_TSTORE_DIRTY)
            dirty[n++] = p;
    return n;
}

PN_HD static uint64_t pn_tstore_value(const pn_tstore *t, const uint64_t *s,
                                      const uint32_t *refs, uint32_t p)
{
    if (p < t->words)
        return s[p];
    const uint32_t *k = t->kid + 2 * (p - t->words);
    return pn_tstore_pair(refs[k[0]], refs[k[1]]);
}

/* Lookups one chunk of a round of pn_tstore_encode_batch gathers: their
 * values and hashes are computed once, for both prefetch passes and the
 * insertion. */
#define PN_TSTORE_CHUNK 256

/* Prefetches (host only: slots, then the stored nodes their tags name) and
 * inserts c gathered lookups: value v[k] of position p[k] of successor
 * i[k], hash h[k]. */
PN_HD static void pn_tstore_chunk(const pn_tstore *t, uint32_t c, const uint32_t *i,
                                  const uint32_t *p, const uint64_t *v, const uint64_t *h,
                                  uint32_t *refs)
{
#if !defined(__CUDA_ARCH__)
    for (uint32_t pass = 0; pass < 2; pass++)
        for (uint32_t k = 0; k < c; k++)
            pn_tnodes_prefetch(&t->nodes, h[k], pass);
#endif
    const uint32_t R = 2 * t->words - 1;
    for (uint32_t k = 0; k < c; k++)
        refs[(uint64_t)i[k] * R + p[k]] = pn_tnodes_insert(&t->nodes, v[k], h[k]);
}

/* The keys of n <= PN_TSTORE_BATCH_MAX successors marked by pn_tstore_mark
 * (successor i: words s + i W, refs + i (2W - 1), its n_dirty[i] dirty
 * positions at dirty + i (2W - 2)), round by round: a round's lookups are
 * gathered in chunks, each chunk's prefetched, slots first, then the stored
 * nodes their tags point to, before any is compared. W >= 2. */
PN_HD static void pn_tstore_encode_batch(const pn_tstore *t, uint32_t n,
                                         const uint64_t *s, uint32_t *refs,
                                         const uint32_t *dirty, const uint32_t *n_dirty,
                                         uint64_t *keys)
{
    const uint32_t W = t->words, R = 2 * W - 1, D = 2 * W - 2;
    uint32_t at[PN_TSTORE_BATCH_MAX];
    uint32_t ci[PN_TSTORE_CHUNK], cp[PN_TSTORE_CHUNK];
    uint64_t cv[PN_TSTORE_CHUNK], ch[PN_TSTORE_CHUNK];
    for (uint32_t i = 0; i < n; i++)
        at[i] = 0;
    for (uint32_t r = 0; r < t->depth; r++) {
        const uint32_t end = t->round_end[r];
        uint32_t c = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t j = at[i];
            for (; j < n_dirty[i] && dirty[i * D + j] < end; j++) {
                if (c == PN_TSTORE_CHUNK) {
                    pn_tstore_chunk(t, c, ci, cp, cv, ch, refs);
                    c = 0;
                }
                uint32_t p = dirty[i * D + j];
                ci[c] = i;
                cp[c] = p;
                cv[c] = pn_tstore_value(t, s + (uint64_t)i * W, refs + (uint64_t)i * R, p);
                ch[c] = pn_state_hash(&cv[c], 1);
                c++;
            }
            at[i] = j;
        }
        pn_tstore_chunk(t, c, ci, cp, cv, ch, refs);
    }
    for (uint32_t i = 0; i < n; i++)
        keys[i] = pn_tstore_root(t, refs + (uint64_t)i * R);
}

/* Prefetches the nodes the root of key names (the leaves, when W = 2): a
 * caller that knows the next key to decode issues it one state ahead. */
PN_HD static void pn_tstore_prefetch(const pn_tstore *t, uint64_t key)
{
    if (t->words > 1) {
        PN_PREFETCH(t->nodes.store + (uint32_t)(key >> 32));
        PN_PREFETCH(t->nodes.store + (uint32_t)key);
    }
}

/* The marking s of key, and every position's ref in refs: inner nodes are
 * read from the root down, then the leaves, all their loads in flight at
 * once. */
PN_HD static void pn_tstore_decode(const pn_tstore *t, uint64_t key, uint32_t *refs,
                                   uint64_t *s)
{
    const uint32_t W = t->words;
    if (W == 1) {
        s[0] = key;
        return;
    }
    const uint64_t *node = t->nodes.store;
    const uint32_t *k = t->kid + 2 * (W - 2);
    refs[k[0]] = (uint32_t)(key >> 32);
    refs[k[1]] = (uint32_t)key;
    for (uint32_t i = W - 2; i-- > 0;) {
        uint64_t v = node[refs[W + i]];
        refs[t->kid[2 * i]] = (uint32_t)(v >> 32);
        refs[t->kid[2 * i + 1]] = (uint32_t)v;
    }
    for (uint32_t w = 0; w < W; w++)
        PN_PREFETCH(node + refs[w]);
    for (uint32_t w = 0; w < W; w++)
        s[w] = node[refs[w]];
}

/* pn_tstore_decode of n keys at once (s + i W, refs + i (2W - 1)): round
 * by round from the root down, each round's node loads prefetched across
 * the batch before any is read. W >= 2. */
PN_HD static void pn_tstore_decode_batch(const pn_tstore *t, uint32_t n, const uint64_t *keys,
                                         uint32_t *refs, uint64_t *s)
{
    const uint32_t W = t->words, R = 2 * W - 1;
    const uint64_t *node = t->nodes.store;
    const uint32_t *k = t->kid + 2 * (W - 2);
    for (uint32_t i = 0; i < n; i++) {
        refs[i * R + k[0]] = (uint32_t)(keys[i] >> 32);
        refs[i * R + k[1]] = (uint32_t)keys[i];
    }
    for (uint32_t r = t->depth; r-- > 0;) {
        const uint32_t lo = r == 0 ? 0 : t->round_end[r - 1], hi = t->round_end[r];
        const uint32_t top = hi < 2 * W - 2 ? hi : 2 * W - 2; /* the root is the key */
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t p = lo; p < top; p++)
                PN_PREFETCH(node + refs[i * R + p]);
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t p = lo; p < top; p++) {
                uint64_t v = node[refs[i * R + p]];
                if (p < W) {
                    s[(uint64_t)i * W + p] = v;
                } else {
                    refs[i * R + t->kid[2 * (p - W)]] = (uint32_t)(v >> 32);
                    refs[i * R + t->kid[2 * (p - W) + 1]] = (uint32_t)v;
                }
            }
    }
}

#endif
