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
 * many as the slot count needs, and hash bits as a tag in the rest, the
 * top one the node's kind (pair nodes, below). At most PN_TSTORE_MAX_NODES
 * nodes (3/4 of 2^31 slots).
 *
 * Shape: leaves are positions 0 .. W-1; inner positions W .. 2W-2 pair
 * adjacent positions level by level (an odd one out moves up a level), so
 * children always precede their parent and the root is position 2W-2. For
 * W = 1 the key is the word itself and the set holds no nodes.
 *
 * Pair nodes. The nodes of the first round of pairing (two leaves each,
 * W >= 3) are found by the two words they stand for rather than by their
 * children's refs: their hash is the words', and a candidate is compared
 * through its stored refs, by ref for a leaf the successor kept and by the
 * leaf's stored word for one it changed. So a successor looks up a changed
 * word's leaf only when the pair above it is new, which is rare (Peterson-
 * PT-3: 3.5 lookups a successor become 1.6). A pair node carries a kind
 * bit in its slot's tag (PN_TNODES_PAIR) and in the set's per-ref bitmap:
 * a lookup of one kind never matches a node of the other (a pair's stored
 * refs can equal a leaf word or another node's refs), and a grown set
 * rehashes each node the way it is found.
 *
 * Successors are encoded in batches (pn_tstore_encode_batch): the nodes to
 * look up again are those above the words a transition changes, the same
 * for every firing of it (its net effect), so they are listed once per
 * transition (pn_tstore_above, fire_off / fire_pos) and a successor only
 * takes a copy of its parent's refs. The dirty nodes of every successor in
 * the batch are looked up one level at a time, their slots and then their stored
 * values prefetched before any is compared, so that a CPU thread waits for
 * a batch's cache misses at once rather than for a chain of them per
 * successor (the batching pn_expand.h does for whole markings).
 */
#ifndef PETREL_PN_TREESTORE_H
#define PETREL_PN_TREESTORE_H

#include "pn_ctable.h"
#include "pn_state.h"

#define PN_TSTORE_MAX_NODES (3ULL << 29)

/* The tag bit of a pair node: the ref field stays below it, as the set has
 * at most 2^31 slots. */
#define PN_TNODES_PAIR 0x80000000u

/* Marks a position whose node is still to be looked up; as a result of
 * pn_tnodes_find_pair, no such node. */
#define PN_TSTORE_DIRTY 0xFFFFFFFFu

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
    uint64_t n;          /* slot count, 8 .. 2^31 */
    uint32_t ref_mask;   /* the ref + 1 field: 2^b - 1 >= n - 1 */
    uint64_t *store;     /* node values by ref */
    uint32_t *pair;      /* a bit per ref: a pair node */
    uint64_t *count;     /* refs handed out so far */
} pn_tnodes;

/* Points the set at n (8 .. 2^31) empty slots. */
PN_HD static void pn_tnodes_reset(pn_tnodes *t, uint32_t *slots, uint64_t n)
{
    uint64_t m = n - 1;
    for (uint32_t k = 1; k < 64; k *= 2)
        m |= m >> k;
    t->slots = slots;
    t->n = n;
    t->ref_mask = (uint32_t)m;
}

/* The hash a node is found by: a one-word state's (one round of
 * SplitMix64's finalizer, a bijection). The slot comes from its high
 * half, the tag from its low bits. */
PN_HD static uint64_t pn_tnodes_hash(uint64_t v) { return pn_state_hash(&v, 1); }

/* The hash of the pair node standing for words w0, w1. */
PN_HD static uint64_t pn_tnodes_pair_hash(uint64_t w0, uint64_t w1)
{
    return pn_mix64(pn_tnodes_hash(w0) ^ w1);
}

/* The tag of a node of hash h, a pair node if pair. */
PN_HD static uint32_t pn_tnodes_tag(const pn_tnodes *t, uint64_t h, uint32_t pair)
{
    return ((uint32_t)h & ~t->ref_mask & ~PN_TNODES_PAIR) | (pair ? PN_TNODES_PAIR : 0);
}

PN_HD static uint32_t pn_tnodes_is_pair(const pn_tnodes *t, uint32_t ref)
{
    return t->pair[ref / 32] >> (ref % 32) & 1;
}

/* The ref of value v (home slot i, tag from pn_tnodes_tag), inserted if
 * new. */
PN_HD static uint32_t pn_tnodes_insert_at(const pn_tnodes *t, uint64_t v, uint64_t i,
                                          uint32_t tag)
{
    const uint32_t m = t->ref_mask;
    for (;; i = i + 1 == t->n ? 0 : i + 1) {
        uint32_t cur = pn_atomic_load_u32(&t->slots[i]);
        if (cur == 0) {
            if (pn_atomic_cas_u32(&t->slots[i], 0, tag | m)) {
                uint64_t ref = pn_atomic_add_u64(t->count, 1);
                t->store[ref] = v;
                if (tag & PN_TNODES_PAIR)
                    pn_atomic_or_u32(&t->pair[ref / 32], 1u << (ref % 32));
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

/* The ref of value v (hash h; a pair node if pair), inserted if new. */
PN_HD static uint32_t pn_tnodes_insert(const pn_tnodes *t, uint64_t v, uint64_t h, uint32_t pair)
{
    return pn_tnodes_insert_at(t, v, pn_ctable_home(h, t->n), pn_tnodes_tag(t, h, pair));
}

/* The pair node standing for words w0, w1 whose leaf refs are k0, k1 where
 * the caller knows them (else PN_TSTORE_DIRTY), from home slot i with tag
 * (pn_tnodes_pair_hash, pn_tnodes_tag); PN_TSTORE_DIRTY if there is none
 * yet. */
PN_HD static uint32_t pn_tnodes_find_pair(const pn_tnodes *t, uint64_t w0, uint64_t w1,
                                          uint32_t k0, uint32_t k1, uint64_t i, uint32_t tag)
{
    const uint32_t m = t->ref_mask;
    for (;; i = i + 1 == t->n ? 0 : i + 1) {
        uint32_t cur = pn_atomic_load_u32(&t->slots[i]);
        if (cur == 0)
            return PN_TSTORE_DIRTY;
        if ((cur & ~m) != tag)
            continue;
        while ((cur & m) == m)
            cur = pn_atomic_load_u32(&t->slots[i]);
        const uint32_t ref = (cur & m) - 1;
        const uint64_t v = t->store[ref];
        const uint32_t c0 = (uint32_t)(v >> 32), c1 = (uint32_t)v;
        if ((k0 != PN_TSTORE_DIRTY ? c0 == k0 : t->store[c0] == w0) &&
            (k1 != PN_TSTORE_DIRTY ? c1 == k1 : t->store[c1] == w1))
            return ref;
    }
}

/* The hash stored ref is found by (a pair node's: its words'). */
PN_HD static uint64_t pn_tnodes_hash_of(const pn_tnodes *t, uint32_t ref)
{
    const uint64_t v = t->store[ref];
    if (pn_tnodes_is_pair(t, ref))
        return pn_tnodes_pair_hash(t->store[v >> 32], t->store[(uint32_t)v]);
    return pn_tnodes_hash(v);
}

/* Re-insertion of stored ref (hash h: pn_tnodes_hash_of) after the slots
 * grew, by several threads at once (each ref once: claiming a slot
 * publishes it). */
PN_HD static void pn_tnodes_reinsert(const pn_tnodes *t, uint32_t ref, uint64_t h)
{
    const uint32_t tag = pn_tnodes_tag(t, h, pn_tnodes_is_pair(t, ref));
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

typedef struct pn_tstore {
    pn_tnodes nodes;     /* node values by ref */
    uint32_t words;      /* W, the leaves */
    uint32_t depth;      /* inner levels, root included: ceil(log2 W) */
    uint32_t pair_end;   /* see pn_tstore_pair_end */
    /* 2 (W - 1) entries: inner position W + i has children kid[2i] and
     * kid[2i + 1] (positions). */
    const uint32_t *kid;
    const uint32_t *up;        /* 2W - 1: the parent position (root: itself) */
    /* depth + 1: positions below round_end[r] were made by round r of the
     * pairing (leaves: round 0), so each round needs only earlier ones. */
    const uint32_t *round_end;
    /* Optional (the engine's): per transition t, fire_pos[fire_off[t] ..
     * fire_off[t + 1]) are the positions above the words t changes. */
    const uint64_t *fire_off;
    const uint32_t *fire_pos;
} pn_tstore;

/* Successors one pn_tstore_encode_batch call takes at most. */
#define PN_TSTORE_BATCH_MAX 64

/* Gives t the shape above for W words: fills kid (2 (W - 1) entries), up
 * (2W - 1) and round_end (up to 33), using lvl (W entries) as scratch,
 * and points t at them. */
PN_HD static void pn_tstore_shape(pn_tstore *t, uint32_t W, uint32_t *kid, uint32_t *up,
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
    t->words = W;
    t->depth = depth;
    t->kid = kid;
    t->up = up;
    t->round_end = round_end;
    /* the first round's nodes are pairs of leaves unless it made the root */
    t->pair_end = depth >= 2 ? round_end[1] : W;
}

/* The ref of node value v found by its value (a leaf, or a pair above
 * the first round), inserted if new. */
PN_HD static uint32_t pn_tstore_node(const pn_tstore *t, uint64_t v)
{
    return pn_tnodes_insert(&t->nodes, v, pn_tnodes_hash(v), 0);
}

/* Positions W .. pn_tstore_pair_end - 1 are pair nodes (two leaves below;
 * none when W = 2, whose leaves' pair is the key). */
PN_HD static uint32_t pn_tstore_pair_end(const pn_tstore *t) { return t->pair_end; }

/* The first position whose ref a successor takes from its parent before
 * its dirty nodes are looked up: the leaves under pair nodes are read by
 * their pair's lookup from the parent's refs (pn_tstore_gather_low), and
 * no later round reads them, so a successor needs no copy of theirs. */
PN_HD static uint32_t pn_tstore_copy_from(const pn_tstore *t)
{
    return 2 * (pn_tstore_pair_end(t) - t->words);
}

/* A dirty list's entry (pn_tstore_above): the position, and for a pair
 * node which of its two leaves changed. */
#define PN_TSTORE_POS 0x3FFFFFFFu
#define PN_TSTORE_LEFT 0x40000000u
#define PN_TSTORE_RIGHT 0x80000000u

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
    const uint32_t pair_end = pn_tstore_pair_end(t);
    for (uint32_t k = 0; k < W; k++)
        refs[k] = pn_tstore_node(t, s[k]);
    for (uint32_t i = 0; i + 2 < W; i++) {
        const uint32_t *k = t->kid + 2 * i;
        const uint64_t v = pn_tstore_pair(refs[k[0]], refs[k[1]]);
        refs[W + i] = W + i < pair_end
                          ? pn_tnodes_insert(&t->nodes, v, pn_tnodes_pair_hash(s[k[0]], s[k[1]]), 1)
                          : pn_tstore_node(t, v);
    }
    return pn_tstore_root(t, refs);
}

/* The dirty list of a successor whose words w[0 .. n) changed (repeats
 * allowed; a listed word may also have kept its value): the positions
 * above them, the root excluded, in increasing order (round by round, as
 * pn_tstore_encode_batch takes them), but for the leaves under pair nodes,
 * which their pair's entry names instead (PN_TSTORE_LEFT, _RIGHT). flag
 * holds 2W - 1 zero bytes, zero again on return. pos needs room for 2W - 2
 * entries, as many as it may hold on the way; returns how many it holds. */
PN_HD static uint32_t pn_tstore_above(const pn_tstore *t, const uint32_t *w, uint32_t n,
                                      uint8_t *flag, uint32_t *pos)
{
    /* Visits only the paths above w (a net's transition lists are short
     * and its markings can be thousands of words wide). */
    const uint32_t W = t->words, root = 2 * W - 2, pair_end = pn_tstore_pair_end(t);
    uint32_t m = 0;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t p = w[k]; p != root && !flag[p]; p = t->up[p]) {
            flag[p] = 1;
            pos[m++] = p;
        }
    for (uint32_t i = 1; i < m; i++) /* insertion sort: short lists (all W words: once a widening) */
        for (uint32_t j = i; j > 0 && pos[j - 1] > pos[j]; j--) {
            const uint32_t x = pos[j];
            pos[j] = pos[j - 1];
            pos[j - 1] = x;
        }
    uint32_t e = 0;
    for (uint32_t i = 0; i < m; i++) {
        const uint32_t p = pos[i];
        if (p < W && t->up[p] < pair_end)
            continue;
        uint32_t x = p;
        if (p >= W && p < pair_end) {
            const uint32_t *k = t->kid + 2 * (p - W);
            x |= (flag[k[0]] ? PN_TSTORE_LEFT : 0) | (flag[k[1]] ? PN_TSTORE_RIGHT : 0);
        }
        pos[e++] = x;
    }
    for (uint32_t k = 0; k < n; k++) /* everything above a cleared position is */
        for (uint32_t p = w[k]; p != root && flag[p]; p = t->up[p])
            flag[p] = 0;
    return e;
}

/* Nodes a successor with dirty list d[0 .. n) can add at most: one per
 * entry, and a pair's changed leaves. */
PN_HD static uint32_t pn_tstore_adds(const uint32_t *d, uint32_t n)
{
    uint32_t a = n;
    for (uint32_t j = 0; j < n; j++)
        a += (d[j] & PN_TSTORE_LEFT ? 1 : 0) + (d[j] & PN_TSTORE_RIGHT ? 1 : 0);
    return a;
}

/* Lookups one chunk of a round of pn_tstore_encode_batch gathers: their
 * values and hashes are computed once, for both prefetch passes and the
 * insertion. */
#define PN_TSTORE_CHUNK 256

/* A chunk of gathered lookups (pn_tstore_encode_batch), each to land in
 * refs[at[k]], its home slot and tag computed once for the prefetches and
 * the lookup: a node found by value v[k], or (the tag's kind bit) a pair
 * node standing for words v[k], w1[k] with leaf refs k0[k], k1[k] where
 * the successor kept them (else PN_TSTORE_DIRTY). A lookup's home slot is
 * prefetched as it is added. */
typedef struct pn_tstore_chunk {
    uint32_t n;
    uint32_t at[PN_TSTORE_CHUNK];
    uint32_t tag[PN_TSTORE_CHUNK];
    uint64_t home[PN_TSTORE_CHUNK];
    uint64_t v[PN_TSTORE_CHUNK];
    uint64_t w1[PN_TSTORE_CHUNK];
    uint32_t k0[PN_TSTORE_CHUNK], k1[PN_TSTORE_CHUNK];
} pn_tstore_chunk;

/* Adds to c a lookup of value v (a pair node's first word) and hash h
 * that is to land in refs[at], its home slot prefetched; returns its
 * index in c. */
PN_HD static uint32_t pn_tstore_chunk_push(const pn_tnodes *t, pn_tstore_chunk *c, uint32_t at,
                                           uint64_t v, uint64_t h, uint32_t pair)
{
    const uint32_t k = c->n++;
    c->at[k] = at;
    c->v[k] = v;
    c->home[k] = pn_ctable_home(h, t->n);
    c->tag[k] = pn_tnodes_tag(t, h, pair);
#if !defined(__CUDA_ARCH__)
    PN_PREFETCH(&t->slots[c->home[k]]);
#endif
    return k;
}

PN_HD static void pn_tstore_chunk_add(const pn_tnodes *t, pn_tstore_chunk *c, uint32_t at,
                                      uint64_t v)
{
    (void)pn_tstore_chunk_push(t, c, at, v, pn_tnodes_hash(v), 0);
}

PN_HD static void pn_tstore_chunk_add_pair(const pn_tnodes *t, pn_tstore_chunk *c, uint32_t at,
                                           uint64_t w0, uint64_t w1, uint32_t k0, uint32_t k1)
{
    const uint32_t k = pn_tstore_chunk_push(t, c, at, w0, pn_tnodes_pair_hash(w0, w1), 1);
    c->w1[k] = w1;
    c->k0[k] = k0;
    c->k1[k] = k1;
}

/* Prefetches (host only) the stored nodes whose tags match in the home
 * slots, then looks up the chunk's nodes (a pair node new, with its
 * changed leaves). */
PN_HD static void pn_tstore_chunk_run(const pn_tnodes *t, pn_tstore_chunk *c, uint32_t *refs)
{
#if !defined(__CUDA_ARCH__)
    const uint32_t m = t->ref_mask;
    for (uint32_t k = 0; k < c->n; k++) {
        const uint32_t cur = pn_atomic_load_u32(&t->slots[c->home[k]]), ref1 = cur & m;
        if (ref1 - 1 < m - 1 && (cur & ~m) == c->tag[k]) /* a ref, not empty or busy */
            PN_PREFETCH(t->store + ref1 - 1);
    }
#endif
    for (uint32_t k = 0; k < c->n; k++) {
        if (!(c->tag[k] & PN_TNODES_PAIR)) {
            refs[c->at[k]] = pn_tnodes_insert_at(t, c->v[k], c->home[k], c->tag[k]);
            continue;
        }
        uint32_t ref = pn_tnodes_find_pair(t, c->v[k], c->w1[k], c->k0[k], c->k1[k],
                                           c->home[k], c->tag[k]);
        if (ref == PN_TSTORE_DIRTY) { /* new: its changed leaves first */
            uint32_t r0 = c->k0[k], r1 = c->k1[k];
            if (r0 == PN_TSTORE_DIRTY)
                r0 = pn_tnodes_insert(t, c->v[k], pn_tnodes_hash(c->v[k]), 0);
            if (r1 == PN_TSTORE_DIRTY)
                r1 = pn_tnodes_insert(t, c->w1[k], pn_tnodes_hash(c->w1[k]), 0);
            ref = pn_tnodes_insert_at(t, pn_tstore_pair(r0, r1), c->home[k], c->tag[k]);
        }
        refs[c->at[k]] = ref;
    }
    c->n = 0;
}

/* Adds to chunk c the lookups of one successor that need no ref computed
 * for it (its leaves and pair nodes: words si, refs + base its 2W - 1
 * refs from pn_tstore_copy_from on, the refs of the leaves it kept under
 * pair nodes in kept, dirty list d[0 .. nd)), running c whenever it is
 * full; returns the index in d of its first later entry. A caller that
 * fires successors one by one calls it as each is fired, so that these
 * lookups' slots are prefetched a batch before they are read. */
PN_HD static uint32_t pn_tstore_gather_low(const pn_tstore *t, pn_tstore_chunk *c,
                                           const uint64_t *si, const uint32_t *kept,
                                           uint32_t *refs, uint32_t base, const uint32_t *d,
                                           uint32_t nd)
{
    const uint32_t W = t->words, pair_end = pn_tstore_pair_end(t);
    const uint32_t *kid = t->kid - 2 * W; /* kid[2p], kid[2p + 1]: inner position p's */
    uint32_t j = 0;
    for (; j < nd && (d[j] & PN_TSTORE_POS) < pair_end; j++) {
        if (c->n == PN_TSTORE_CHUNK)
            pn_tstore_chunk_run(&t->nodes, c, refs);
        const uint32_t e = d[j], p = e & PN_TSTORE_POS;
        if (p < W) {
            pn_tstore_chunk_add(&t->nodes, c, base + p, si[p]);
        } else {
            const uint32_t a = kid[2 * p], b = kid[2 * p + 1];
            pn_tstore_chunk_add_pair(&t->nodes, c, base + p, si[a], si[b],
                                     e & PN_TSTORE_LEFT ? PN_TSTORE_DIRTY : kept[a],
                                     e & PN_TSTORE_RIGHT ? PN_TSTORE_DIRTY : kept[b]);
        }
    }
    return j;
}

/* The keys of n <= PN_TSTORE_BATCH_MAX successors (successor i: refs +
 * i (2W - 1) holding the refs of every position from pn_tstore_copy_from
 * on but those its dirty list names, n_dirty[i] entries at dirty[i] as pn_tstore_above
 * lists them) whose first lookups are in chunk c (pn_tstore_gather_low,
 * which returned at[i]): c's lookups, then the later rounds one by one,
 * each gathered in chunks whose stored nodes are prefetched before any is
 * compared. The refs of leaves under pair nodes are left as they were. */
PN_HD static void pn_tstore_encode_rest(const pn_tstore *t, uint32_t n, uint32_t *refs,
                                        const uint32_t *const *dirty,
                                        const uint32_t *n_dirty, uint32_t *at,
                                        pn_tstore_chunk *c, uint64_t *keys)
{
    const uint32_t W = t->words, R = 2 * W - 1;
    const uint32_t *kid = t->kid - 2 * W;
    pn_tstore_chunk_run(&t->nodes, c, refs);
    for (uint32_t r = 2; r < t->depth; r++) { /* pairs of refs */
        const uint32_t end = t->round_end[r];
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t *d = dirty[i], nd = n_dirty[i], base = i * R;
            uint32_t j = at[i];
            for (; j < nd && d[j] < end; j++) {
                if (c->n == PN_TSTORE_CHUNK)
                    pn_tstore_chunk_run(&t->nodes, c, refs);
                const uint32_t p = d[j];
                pn_tstore_chunk_add(&t->nodes, c, base + p,
                                    pn_tstore_pair(refs[base + kid[2 * p]],
                                                   refs[base + kid[2 * p + 1]]));
            }
            at[i] = j;
        }
        pn_tstore_chunk_run(&t->nodes, c, refs);
    }
    for (uint32_t i = 0; i < n; i++)
        keys[i] = pn_tstore_root(t, refs + (uint64_t)i * R);
}

/* pn_tstore_encode_rest of n successors none of whose lookups is gathered
 * yet. W >= 2. */
PN_HD static void pn_tstore_encode_batch(const pn_tstore *t, uint32_t n,
                                         const uint64_t *s, uint32_t *refs,
                                         const uint32_t *const *dirty,
                                         const uint32_t *n_dirty, uint64_t *keys)
{
    const uint32_t W = t->words, R = 2 * W - 1;
    uint32_t at[PN_TSTORE_BATCH_MAX];
    pn_tstore_chunk c;
    c.n = 0;
    for (uint32_t i = 0; i < n; i++)
        at[i] = pn_tstore_gather_low(t, &c, s + (uint64_t)i * W, refs + (uint64_t)i * R, refs,
                                     i * R, dirty[i], n_dirty[i]);
    pn_tstore_encode_rest(t, n, refs, dirty, n_dirty, at, &c, keys);
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
