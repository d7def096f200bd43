/* The body of the expansion step, shared verbatim by the CPU engine's
 * threads and the CUDA kernel's threads: expand one stored state, i.e. find
 * its enabled transitions through the trigger lists, fire each, and insert
 * the successors into the table (recording the BFS tree when asked).
 * Works on packed words only, so a GPU thread needs no per-place scratch.
 *
 * Successors are inserted in batches of PN_EXPAND_BATCH: their table slots
 * (and, when the home slot's tag matches, the stored state it names) are
 * prefetched before any is probed, so a CPU thread waits for several cache
 * misses at once instead of one after another. On the GPU the batch is 1:
 * other warps hide the latency.
 *
 * In tree mode (pn_table_view.tree) the stored states are tree keys: a state
 * is decoded before its expansion, each successor takes its parent's refs
 * and its transition's dirty positions (pn_tstore.fire_pos) as it is
 * fired, its first lookups joining the batch's chunk then
 * (pn_tstore_gather_low), and a full batch is encoded together
 * (pn_tstore_encode_rest) into one-word keys that the set then takes like
 * any one-word state. */
#ifndef PETREL_PN_EXPAND_H
#define PETREL_PN_EXPAND_H

#include "pn_part.h"
#include "pn_table.h"
#include "pn_treestore.h"

#if defined(__CUDA_ARCH__)
#define PN_EXPAND_BATCH 1
#else
#define PN_EXPAND_BATCH 32
#endif

typedef struct pn_expand_out {
    uint32_t enabled;        /* transitions enabled in the state */
    uint32_t overflow_place; /* + 1 of a place whose field overflowed: that
                                successor was skipped and the level must be
                                redone wider; 0 when none */
    uint32_t new_states;
    uint32_t n_ids;          /* successor ids written (pn_expand_state_ids) */
} pn_expand_out;

/* Optional BFS tree, written once per new id by its inserter. */
typedef struct pn_tree_view {
    uint64_t *parent;
    uint32_t *via;
} pn_tree_view;

/* Scratch for one expanding thread: PN_EXPAND_BATCH successors. */
typedef struct pn_expand_scratch {
    uint64_t *succ;          /* PN_EXPAND_BATCH * words */
    uint64_t hash[PN_EXPAND_BATCH];
    uint32_t trans[PN_EXPAND_BATCH];
    uint32_t n;
    /* A distributed exploration's successors for other ranks (pn_part.h);
     * NULL: every successor is this process's. Host code only. */
    pn_outbox *outbox;
    /* Tree mode, with W = tree->words: the state being expanded (W words,
     * 2W - 1 refs), and per batched successor its W words (wide), 2W - 1
     * refs and its dirty positions (its transition's list). */
    uint64_t *cur, *wide;
    uint32_t *cur_refs, *refs;
    const uint32_t *dirty[PN_EXPAND_BATCH];
    uint32_t n_dirty[PN_EXPAND_BATCH];
    /* The batch's lookups gathered as its successors were fired (host:
     * allocated by the engine), and where each successor's later ones
     * start in its dirty list (pn_tstore_gather_low). */
    pn_tstore_chunk *chunk;
    uint32_t at[PN_EXPAND_BATCH];
} pn_expand_scratch;

/* Compact mode: a new state gets the next id and joins the store window
 * (ids and the BFS tree are not kept there). */
PN_HD static void pn_expand_flush_compact(const pn_table_view *v, pn_expand_scratch *b,
                                          pn_expand_out *out)
{
    for (uint32_t i = 0; i < b->n; i++)
        if (pn_ctable_insert(&v->ctable, b->succ[i], b->hash[i])) {
            uint64_t nid = pn_atomic_add_u64(v->count, 1);
            v->store[nid - v->base] = b->succ[i];
            out->new_states++;
        }
    b->n = 0;
}

PN_HD static uint64_t pn_expand_home(const pn_table_view *v, uint64_t h)
{
    return v->ctable.n ? pn_ctable_home(h, v->ctable.n) : h & v->slot_mask;
}

/* Tree mode: the batch's successors become keys in b->succ, their slots
 * prefetched. */
PN_HD static void pn_expand_encode(const pn_table_view *v, pn_expand_scratch *b)
{
    const pn_tstore *t = v->tree;
    pn_tstore_encode_rest(t, b->n, b->refs, b->dirty, b->n_dirty, b->at, b->chunk, b->succ);
    for (uint32_t i = 0; i < b->n; i++) {
        b->hash[i] = pn_state_hash(&b->succ[i], 1);
        PN_PREFETCH(&(v->ctable.n ? v->ctable.slots : v->slots)[pn_expand_home(v, b->hash[i])]);
    }
}

PN_HD static void pn_expand_flush(const pn_table_view *v, const pn_tree_view *tree, uint64_t id,
                                  pn_expand_scratch *b, uint64_t *ids, pn_expand_out *out)
{
    if (v->tree != 0)
        pn_expand_encode(v, b);
    if (v->ctable.n) {
        pn_expand_flush_compact(v, b, out);
        return;
    }
#if PN_EXPAND_BATCH > 1
    for (uint32_t i = 0; i < b->n; i++) {
        uint64_t slot = pn_atomic_load_u64(&v->slots[b->hash[i] & v->slot_mask]);
        uint64_t sid = slot & PN_SLOT_ID_MASK;
        if (sid != 0 && sid != PN_SLOT_BUSY &&
            (slot >> PN_SLOT_ID_BITS) == (b->hash[i] >> PN_SLOT_ID_BITS))
            PN_PREFETCH(v->store + (sid - 1) * v->words);
    }
#endif
    for (uint32_t i = 0; i < b->n; i++) {
        uint64_t sid;
        int r = pn_table_insert(v, b->succ + (uint64_t)i * v->words, b->hash[i], &sid);
        if (ids != 0)
            ids[out->n_ids++] = sid;
        if (r == PN_INSERT_NEW) {
            out->new_states++;
            if (tree != 0 && tree->parent != 0) {
                tree->parent[sid] = id;
                tree->via[sid] = b->trans[i];
            }
        }
    }
    b->n = 0;
}

PN_HD static void pn_expand_fire(const pn_prog *g, const pn_table_view *v,
                                 const pn_tree_view *tree, uint64_t id, const uint64_t *s,
                                 uint32_t t, pn_expand_scratch *b, uint64_t *ids,
                                 pn_expand_out *out)
{
    out->enabled++;
    const pn_tstore *ts = v->tree;
    uint64_t *succ = ts != 0 ? b->wide + (uint64_t)b->n * g->words
                             : b->succ + (uint64_t)b->n * g->words;
    uint32_t of = pn_state_fire(g, s, t, succ);
    if (of != 0) {
        out->overflow_place = g->inc[of - 1].place + 1;
        return;
    }
    if (ts != 0) { /* hashed once encoded, at the flush; never distributed */
        const uint32_t R = 2 * g->words - 1;
        uint32_t *refs = b->refs + (uint64_t)b->n * R;
        for (uint32_t k = pn_tstore_copy_from(ts); k + 1 < R; k++)
            refs[k] = b->cur_refs[k];
        b->dirty[b->n] = ts->fire_pos + ts->fire_off[t];
        b->n_dirty[b->n] = (uint32_t)(ts->fire_off[t + 1] - ts->fire_off[t]);
        b->at[b->n] = pn_tstore_gather_low(ts, b->chunk, succ, b->cur_refs, b->refs, b->n * R,
                                           b->dirty[b->n], b->n_dirty[b->n]);
    } else {
        uint64_t h = pn_state_hash(succ, g->words);
#if !defined(__CUDA_ARCH__)
        if (b->outbox != 0 && pn_outbox_route(b->outbox, succ, h))
            return;
#endif
        PN_PREFETCH(&(v->ctable.n ? v->ctable.slots : v->slots)[pn_expand_home(v, h)]);
        b->hash[b->n] = h;
    }
    b->trans[b->n] = t;
    if (++b->n == PN_EXPAND_BATCH)
        pn_expand_flush(v, tree, id, b, ids, out);
}

/* Fires every enabled transition of s into the batch b, which is flushed
 * whenever it fills. */
PN_HD static void pn_expand_succs(const pn_prog *g, const pn_table_view *v,
                                  const pn_tree_view *tree, uint64_t id, const uint64_t *s,
                                  pn_expand_scratch *b, uint64_t *ids, pn_expand_out *out)
{
    out->enabled = 0;
    out->overflow_place = 0;
    out->new_states = 0;
    out->n_ids = 0;
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; (p = pn_marked_next(g, s, &it)) != UINT32_MAX;)
        for (uint32_t k = g->trig_off[p]; k < g->trig_off[p + 1]; k++)
            if (pn_state_enabled(g, s, g->trig[k]))
                pn_expand_fire(g, v, tree, id, s, g->trig[k], b, ids, out);
    for (uint32_t k = 0; k < g->n_free; k++)
        pn_expand_fire(g, v, tree, id, s, g->free_trans[k], b, ids, out);
}

/* The state of id, decoded into b->cur in tree mode. */
PN_HD static const uint64_t *pn_expand_load(const pn_table_view *v, uint64_t id,
                                            pn_expand_scratch *b)
{
    const uint64_t *s = v->store + (id - v->base) * v->words;
    if (v->tree == 0)
        return s;
    pn_tstore_decode(v->tree, s[0], b->cur_refs, b->cur);
    return b->cur;
}

/* ids (may be NULL; else room for one id per enabled transition, at most
 * n_transitions) receives the id of each successor, duplicates included,
 * for recording the state graph. In compact mode ids and tree must be
 * unused (NULL / no parent array). */
PN_HD static void pn_expand_state_ids(const pn_prog *g, const pn_table_view *v,
                                      const pn_tree_view *tree, uint64_t id,
                                      pn_expand_scratch *b, uint64_t *ids, pn_expand_out *out)
{
    b->n = 0;
    pn_expand_succs(g, v, tree, id, pn_expand_load(v, id, b), b, ids, out);
    pn_expand_flush(v, tree, id, b, ids, out);
}

/* Compact mode only: the successors of consecutive states share one batch,
 * so a state with few successors still overlaps a full batch of cache
 * misses. The caller starts with an empty batch (b->n == 0) and drains it
 * with pn_expand_drain before anyone reads the table's new states. */
PN_HD static void pn_expand_state_batched(const pn_prog *g, const pn_table_view *v, uint64_t id,
                                          pn_expand_scratch *b, pn_expand_out *out)
{
    pn_expand_succs(g, v, 0, id, pn_expand_load(v, id, b), b, 0, out);
}

PN_HD static void pn_expand_drain(const pn_table_view *v, pn_expand_scratch *b,
                                  pn_expand_out *out)
{
    pn_expand_flush(v, 0, 0, b, 0, out);
}

PN_HD static void pn_expand_state(const pn_prog *g, const pn_table_view *v,
                                  const pn_tree_view *tree, uint64_t id,
                                  pn_expand_scratch *b, pn_expand_out *out)
{
    pn_expand_state_ids(g, v, tree, id, b, 0, out);
}

#endif
