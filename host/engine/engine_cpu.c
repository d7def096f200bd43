/* Level-synchronous parallel BFS on the CPU.
 *
 * Every thread runs rounds of: barrier, thread 0 plans (advance the level,
 * widen places that overflowed, grow the store and table, check limits),
 * barrier, all threads claim chunks of the current level's id range and
 * expand them with the shared per-state code (kernels/pn_state.h,
 * kernels/pn_table.h). A thread claims a chunk only while the store has room
 * for every successor that all chunks in flight could still insert, so
 * inserts never fail and memory changes only between rounds, when no thread
 * touches it.
 *
 * A token count that outgrows its bit field stops the round; thread 0 then
 * widens the place, repacks every stored state into the new layout and
 * redoes the current level from its start (its successors already stored are
 * found again; edge counts roll back to the level's start).
 *
 * As one rank's part of a distributed exploration (engine/part.h), each
 * round also begins with the exchange of the successors other ranks own
 * and ends with a collective that every rank's decision follows; widening
 * then always restarts (a repacked state hashes to another owner).
 *
 * The states live in one of three sets (docs/architecture.md): the id
 * table over whole markings (pn_table.h), the compact table of one-word
 * markings (pn_ctable.h), or, for wider markings, tree compression
 * (pn_treestore.h): markings become one-word keys kept in either of the
 * other two, over a node set that grows like the id table. */
#include "petrel/engine.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/part.h"
#include "petrel/graph.h"
#include "net/layout.h"
#include "net/place_order.h"
#include "petrel/sysinfo.h"
#include "petrel/topology.h"
#include "pn_expand.h"

#define ENGINE_MIN_SLOTS 1024ULL
#define ENGINE_MAX_CHUNK 64ULL
/* Successor headroom per round: bounds the memory kept free on nets with
 * many transitions by shrinking the chunk. */
#define ENGINE_HEADROOM_STATES (1ULL << 20)
/* Room kept for successors per round above which the level's states are
 * scanned for their real bound (engine_level_degree). */
#define ENGINE_DEGREE_SCAN_BYTES (64ULL << 20)
/* The least chunk (states per thread and round) taken instead of that
 * scan when it keeps the room under the bound (engine_level_degree). */
#define ENGINE_UNSCANNED_CHUNK 16ULL
/* Internal run status: the compact layout overflowed, explore again with
 * the wider fields (pn_explore restarts; never seen by callers). */
#define ENGINE_RESTART 100
/* Distributed: the least room of one outbox for one destination (1 MiB),
 * so that a round sends enough to be worth its collectives. */
#define ENGINE_BOX_MIN_BYTES (1ULL << 20)
/* Tree mode: keys one worker claims at a time when re-encoding them after
 * a widening. */
#define ENGINE_REKEY_CHUNK 256ULL
#define ENGINE_REKEY_BATCH 32
/* Tree mode: nodes reinserted at a time after the node set grew. */
#define ENGINE_REINSERT_BATCH 64
/* Tree mode: a place that overflows widens to at least this many bits
 * (as do the places that outgrew their width before, engine_widen_counters).
 * Wider fields cost the tree little (more words, most of them shared),
 * while each widening re-encodes every key. */
#define ENGINE_TREE_MIN_WIDEN 8
/* Tree mode: nodes kept free for a round's successors, at most (unless a
 * single state can add more). */
#define ENGINE_TREE_ROUND_NODES (256ULL << 10)


typedef struct engine_worker engine_worker;

typedef struct engine {
    const pn_cnet *cn;
    const pn_engine_opts *o;
    pn_layout *lay;
    const pn_prog *g;     /* &lay->prog */
    uint8_t *widths;
    /* Tree mode: the run's FORCE order of the places (engine_order), kept
     * across restarts, and the order the current layout packs them in:
     * that or NULL (place order), as engine_pick_order chose. */
    const uint32_t *force, *order;
    uint8_t *widen;       /* places that overflowed this round */
    pn_table_view view;
    uint64_t *parent;     /* keep_parents: BFS tree, sized like the store */
    uint32_t *via;
    uint64_t slot_cap, store_cap, count;
    bool compact;         /* pn_ctable.h table; store = window from view.base */
    bool tree;            /* pn_treestore.h: the stored states are keys */
    pn_tstore ts;         /* tree: its node set is ts.nodes */
    uint32_t *ts_kid;
    uint64_t node_count, node_slot_cap, node_store_cap;
    uint64_t node_rehash; /* tree: node ids still to reinsert after growth */
    uint64_t nodes_per_succ; /* tree: new nodes one successor can add */
    uint64_t *fire_off;   /* tree: pn_tstore.fire_off */
    uint32_t *fire_pos;   /* tree: pn_tstore.fire_pos */
    uint64_t *node_cost;  /* tree: per place, new nodes the firings of its trigger
                             list can add; [n_places]: of the free transitions */
    uint64_t node_degree; /* tree: new nodes one state of the level can add */
    uint64_t *plan_words; /* tree: thread 0's decoding scratch (degree scan) */
    uint32_t *plan_refs;
    /* Tree mode, after a widening, until every key is re-encoded: the old
     * tree and packing, the old compact table's keys and zero flag, and the
     * keys' index range claimed by the workers (engine_rekey_slice). */
    pn_tstore old_ts;
    uint32_t *old_kid;
    pn_layout *old_lay;
    uint64_t *old_keys, old_keys_n;
    bool old_zero;
    uint64_t rekey_total, rekey_cursor;
    uint32_t *rk_dirty;   /* the dirty list of a key whose every word is new */
    uint32_t rk_n_dirty;
    uint64_t has_zero;    /* compact: the all-zero marking is in the set */
    bool tight;           /* compact: the budget capped a growth (load 9/10) */
    uint64_t *old_slots;  /* compact: the table being replaced, or NULL */
    uint64_t old_n;
    uint64_t rehash_ids;  /* id table: ids still to reinsert after growth */
    uint64_t buf_cap;     /* compact: states the window can hold */
    uint64_t level_begin, level_end, cursor, level, chunk, widenings;
    uint64_t chunk_max;   /* the chunk; tree mode takes less where a state can
                             add many nodes (engine_tree_chunk) */
    /* Successors one state of the current level can have at most (its
     * marked places' trigger lists and the free transitions), so that the
     * room kept per round follows the states, not the net's transition
     * count; degree_for: level_begin + 1 of the level it was computed for. */
    uint64_t degree, degree_for;
    int stop;             /* 0 or a pn_run_status; first wins */
    int need_widen;       /* a successor overflowed: redo the level wider */
    uint64_t graph_bytes; /* record_graph: edge buffers of all workers */
    int done;
    uint32_t nthreads;
    double t0, next_progress;
    uint64_t memory;      /* bytes for states and table (budget.h); 0: unlimited */
    pthread_barrier_t barrier;
    pthread_mutex_t gate_lock; /* holds workers until all threads exist */
    pthread_cond_t gate_cond;
    int gate;                  /* 0 wait, 1 go, -1 thread creation failed */
    engine_worker *workers;
    /* Distributed (o->part): the workers' outboxes (NULL with one rank),
     * what the last exchange brought, and the states of all ranks. */
    pn_outbox **boxes;
    uint64_t box_bytes;
    const uint64_t *recv;
    uint64_t n_recv, all_states, all_edges;
} engine;

struct engine_worker {
    engine *e;
    uint32_t id;
    pn_expand_scratch scratch;
    uint64_t *marking;    /* all zero between states (see engine_expand) */
    uint32_t *marked;     /* places non-zero in the state being expanded */
    uint64_t edges, edges_at_level, max_place, max_marking;
    uint64_t *ids;        /* record_graph: successor ids of one state */
    uint64_t *pairs;      /* record_graph: (src << 32 | dst) */
    uint64_t n_pairs, cap_pairs, pairs_at_level;
    pn_outbox box;        /* distributed: successors for other ranks */
    uint64_t *rk_words, *rk_wide; /* tree widening: a marking, old and new packing */
    uint32_t *rk_refs;    /* ENGINE_REKEY_BATCH of them */
    pthread_t thread;
};

static void engine_set_stop(engine *e, int reason)
{
    int expected = 0;
    __atomic_compare_exchange_n(&e->stop, &expected, reason, false, __ATOMIC_ACQ_REL,
                                __ATOMIC_ACQUIRE);
}

static int engine_stopped(engine *e) { return __atomic_load_n(&e->stop, __ATOMIC_ACQUIRE); }

static uint64_t engine_bytes(const engine *e, uint64_t slots, uint64_t store, uint32_t words)
{
    uint64_t tree = e->o->keep_parents ? sizeof(uint64_t) + sizeof(uint32_t) : 0;
    return slots * sizeof(uint64_t) + store * (words * sizeof(uint64_t) + tree);
}

/* The tree's node set: 32-bit slots, 64-bit nodes and a kind bit each
 * (pn_tnodes). */
static uint64_t engine_node_bytes(uint64_t slots, uint64_t store)
{
    return slots * sizeof(uint32_t) + store * sizeof(uint64_t) + (store + 31) / 32 * 4;
}

/* What the tables and stores hold now (compact: the window, not every id;
 * tree: the keys' set and the nodes). */
static uint64_t engine_held_bytes(const engine *e)
{
    return engine_bytes(e, e->slot_cap, e->compact ? e->buf_cap : e->store_cap, e->view.words) +
           engine_node_bytes(e->node_slot_cap, e->node_store_cap) + e->box_bytes;
}

/* Whether `bytes` of states' set and table, beside the nodes, fit the budget. */
static bool engine_fits(const engine *e, uint64_t bytes)
{
    return e->memory == 0 ||
           bytes + engine_node_bytes(e->node_slot_cap, e->node_store_cap) <= e->memory;
}

static bool engine_grow_tree(engine *e, uint64_t store_cap)
{
    if (!e->o->keep_parents)
        return true;
    uint64_t *parent = realloc(e->parent, store_cap * sizeof *parent);
    if (parent != NULL)
        e->parent = parent;
    uint32_t *via = realloc(e->via, store_cap * sizeof *via);
    if (via != NULL)
        e->via = via;
    return parent != NULL && via != NULL;
}

static void engine_rehash(engine *e)
{
    memset(e->view.slots, 0, e->slot_cap * sizeof *e->view.slots);
    for (uint64_t id = 0; id < e->count; id++) {
        const uint64_t *s = e->view.store + id * e->view.words;
        pn_table_reinsert(&e->view, id, pn_state_hash(s, e->view.words));
    }
}

/* Compact mode: a new table of `slots` slots replaces the old, which is
 * kept in e->old_slots until every worker has moved its slice of the keys
 * over (engine_rehash_slice, between planning and expanding). A rehash is
 * 2.7 inserts per final state over a run; serial, it was a third of a
 * 2-thread run on Referendum-PT-0015. */
static int engine_rehash_compact(engine *e, uint64_t slots)
{
    uint64_t *ns = calloc(slots, sizeof *ns); /* fresh pages: no memset pass */
    if (ns == NULL)
        return PN_RUN_OUT_OF_MEMORY;
    pn_sys_advise_huge(ns, slots * sizeof *ns);
    pn_ctable *t = &e->view.ctable;
    e->old_slots = t->slots;
    e->old_n = e->slot_cap;
    t->slots = ns;
    t->n = slots;
    e->slot_cap = slots;
    return 0;
}

/* Worker w's share [lo, hi) of n items. */
static void engine_slice(const engine_worker *w, uint64_t n, uint64_t *lo, uint64_t *hi)
{
    uint64_t per = n / w->e->nthreads + 1;
    *lo = per * w->id < n ? per * w->id : n;
    *hi = *lo + per < n ? *lo + per : n;
}

/* Ids lo .. hi-1 of an id table back into its new, empty slots. */
static void engine_reinsert_ids(const pn_table_view *v, uint64_t lo, uint64_t hi)
{
    for (uint64_t i = lo; i < hi; i++) {
        const uint64_t *s = v->store + i * v->words;
        pn_table_reinsert_shared(v, i, pn_state_hash(s, v->words));
    }
}

/* Refs lo .. hi-1 of the tree's node set back into its new, empty slots,
 * each batch's home slots prefetched before any is claimed (a grown set of
 * 10^8 nodes is that many cache misses). */
static void engine_reinsert_nodes(const pn_tnodes *t, uint64_t lo, uint64_t hi)
{
    uint64_t h[ENGINE_REINSERT_BATCH];
    for (uint64_t i = lo; i < hi; i += ENGINE_REINSERT_BATCH) {
        uint32_t n = hi - i < ENGINE_REINSERT_BATCH ? (uint32_t)(hi - i) : ENGINE_REINSERT_BATCH;
        for (uint32_t j = 0; j < n; j++) {
            h[j] = pn_tnodes_hash_of(t, (uint32_t)(i + j));
            PN_PREFETCH(pn_tnodes_home(t, h[j]));
        }
        for (uint32_t j = 0; j < n; j++)
            pn_tnodes_reinsert(t, (uint32_t)(i + j), h[j]);
    }
}

/* Worker w's share of a grown table's rebuild: the keys of the compact
 * table being replaced, or the ids whose slots the id table lost; and the
 * tree's nodes when their set grew. The inserts are atomic: the slices
 * land in the new tables at once. */
static void engine_rehash_slice(engine_worker *w)
{
    engine *e = w->e;
    uint64_t lo, hi;
    engine_slice(w, e->old_slots != NULL ? e->old_n : e->rehash_ids, &lo, &hi);
    if (e->old_slots != NULL) {
        for (uint64_t i = lo; i < hi; i++) {
            uint64_t s = e->old_slots[i];
            if (s != 0)
                pn_ctable_insert(&e->view.ctable, s, pn_state_hash(&s, 1));
        }
    } else {
        engine_reinsert_ids(&e->view, lo, hi);
    }
    engine_slice(w, e->node_rehash, &lo, &hi);
    engine_reinsert_nodes(&e->ts.nodes, lo, hi);
}

/* Compact mode: ids below store_cap fit both the table's load limit and
 * the window (engine_has_room reads it as in store mode). */
static void engine_compact_cap(engine *e)
{
    pn_ctable_plan p = {e->slot_cap, e->buf_cap, e->tight};
    e->store_cap = pn_ctable_cap(&p, e->view.base);
}

/* Compact mode: room for `need` more states in the table and in the window
 * of states still to expand (the sizing rule is pn_ctable_grow_plan's). */
static int engine_grow_compact(engine *e, uint64_t need)
{
    pn_ctable_plan p = {e->slot_cap, e->buf_cap, e->tight};
    /* the tree's nodes (keys in this table) take their share first */
    uint64_t nodes = engine_node_bytes(e->node_slot_cap, e->node_store_cap);
    uint64_t budget = e->memory == 0 ? 0 : e->memory > nodes ? e->memory - nodes : 1;
    int fit = pn_ctable_grow_plan(&p, e->count, e->view.base, need, PN_TABLE_MAX_STATES,
                                  budget);
    if (fit != PN_CTABLE_FITS)
        return fit == PN_CTABLE_NO_IDS ? PN_RUN_TOO_MANY_STATES : PN_RUN_OUT_OF_MEMORY;
    e->tight = p.tight;
    if (p.buf != e->buf_cap) {
        uint64_t *store = realloc(e->view.store, p.buf * sizeof *store);
        if (store == NULL)
            return PN_RUN_OUT_OF_MEMORY;
        e->view.store = store;
        e->buf_cap = p.buf;
    }
    int r = p.slots != e->slot_cap ? engine_rehash_compact(e, p.slots) : 0;
    engine_compact_cap(e);
    return r;
}

/* Compact mode, between levels: the expanded level leaves the window. */
static void engine_slide_window(engine *e, uint64_t first)
{
    uint64_t drop = first - e->view.base;
    memmove(e->view.store, e->view.store + drop, (e->count - first) * sizeof *e->view.store);
    e->view.base = first;
    engine_compact_cap(e);
}

/* Doubles the table (and the store with it) until `need` more states fit. */
static int engine_grow(engine *e, uint64_t need)
{
    if (e->compact)
        return engine_grow_compact(e, need);
    uint64_t slots = e->slot_cap ? e->slot_cap : ENGINE_MIN_SLOTS;
    while (e->count + need > slots / 4 * 3)
        slots *= 2;
    if (slots == e->slot_cap)
        return 0;
    uint64_t store_cap = slots / 4 * 3;
    if (store_cap > PN_TABLE_MAX_STATES)
        return PN_RUN_TOO_MANY_STATES;
    const uint32_t words = e->view.words;
    if (!engine_fits(e, engine_bytes(e, slots, store_cap, words)))
        return PN_RUN_OUT_OF_MEMORY;
    uint64_t *store = realloc(e->view.store, store_cap * words * sizeof(uint64_t));
    if (store == NULL)
        return PN_RUN_OUT_OF_MEMORY;
    e->view.store = store;
    pn_sys_advise_huge(store, store_cap * words * sizeof(uint64_t));
    if (!engine_grow_tree(e, store_cap))
        return PN_RUN_OUT_OF_MEMORY;
    e->store_cap = store_cap;
    uint64_t *nslots = calloc(slots, sizeof *nslots);
    if (nslots == NULL)
        return PN_RUN_OUT_OF_MEMORY;
    pn_sys_advise_huge(nslots, slots * sizeof *nslots);
    free(e->view.slots);
    e->view.slots = nslots;
    e->view.slot_mask = slots - 1;
    e->slot_cap = slots;
    e->rehash_ids = e->count; /* the workers reinsert ids 0 .. count-1 */
    return 0;
}

/* Tree mode: room for `need` more nodes. Past 3/4 load the slots grow to
 * twice the nodes needed (load 1/2, about 3/2 of the slots before:
 * pn_tnodes need no power of two), so a set holds 1.33 to 2 slots a node
 * instead of doubling's 1.33 to 2.67, for two reinserts a node over a run
 * instead of one, done by all workers. The store grows to 9/8 of what is
 * needed, not with the slots, so that the nodes cost what was found (glibc
 * grows a block that large by remapping its pages, not copying them). */
static int engine_grow_nodes(engine *e, uint64_t need)
{
    if (!e->tree)
        return 0;
    uint64_t want = e->node_count + need;
    if (want > PN_TSTORE_MAX_NODES)
        return PN_RUN_TOO_MANY_STATES;
    uint64_t slots = e->node_slot_cap ? e->node_slot_cap : ENGINE_MIN_SLOTS;
    if (want > slots / 4 * 3)
        slots = 2 * want < (1ULL << 31) ? 2 * want : 1ULL << 31;
    uint64_t cap = e->node_store_cap;
    if (want > cap)
        cap = want + want / 8 < PN_TSTORE_MAX_NODES ? want + want / 8 : PN_TSTORE_MAX_NODES;
    if (slots == e->node_slot_cap && cap == e->node_store_cap)
        return 0;
    uint64_t held = engine_held_bytes(e) - engine_node_bytes(e->node_slot_cap, e->node_store_cap);
    if (e->memory && held + engine_node_bytes(slots, cap) > e->memory)
        return PN_RUN_OUT_OF_MEMORY;
    pn_tnodes *v = &e->ts.nodes;
    if (cap != e->node_store_cap) {
        uint64_t *store = realloc(v->store, cap * sizeof *store);
        if (store == NULL)
            return PN_RUN_OUT_OF_MEMORY;
        v->store = store;
        pn_sys_advise_huge(store, cap * sizeof *store);
        const uint64_t had = (e->node_store_cap + 31) / 32, words = (cap + 31) / 32;
        uint32_t *pair = realloc(v->pair, words * sizeof *pair);
        if (pair == NULL)
            return PN_RUN_OUT_OF_MEMORY;
        memset(pair + had, 0, (words - had) * sizeof *pair);
        v->pair = pair;
        e->node_store_cap = cap;
    }
    if (slots != e->node_slot_cap) {
        uint32_t *ns = calloc(slots, sizeof *ns);
        if (ns == NULL)
            return PN_RUN_OUT_OF_MEMORY;
        pn_sys_advise_huge(ns, slots * sizeof *ns);
        free(v->slots);
        pn_tnodes_reset(v, ns, slots); /* the tag narrows as the refs widen */
        e->node_slot_cap = slots;
        e->node_rehash = e->node_count; /* the workers reinsert them */
    }
    return 0;
}

/* Nodes the tree's set can take before it must grow (3/4 load). */
static uint64_t engine_node_cap(const engine *e)
{
    uint64_t cap = e->node_slot_cap / 4 * 3;
    return cap < e->node_store_cap ? cap : e->node_store_cap;
}

/* The nodes that decoding a stored state reads, and its words (tree mode:
 * into buf, refs). */
static const uint64_t *engine_state(const engine *e, uint64_t id, uint64_t *buf, uint32_t *refs)
{
    const uint64_t *s = e->view.store + (id - e->view.base) * e->view.words;
    if (!e->tree)
        return s;
    pn_tstore_decode(&e->ts, s[0], refs, buf);
    return buf;
}

/* The transitions pn_expand_succs tries on packed state s: at most that
 * many successors (capped at T); in tree mode *nodes gets the new nodes
 * their firings can add at most. */
static uint64_t engine_state_degree(const engine *e, const uint64_t *s, uint64_t T,
                                    uint64_t *nodes)
{
    const pn_prog *g = e->g;
    uint64_t d = g->n_free, n = e->tree ? e->node_cost[g->n_places] : 0;
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; d < T && (p = pn_marked_next(g, s, &it)) != UINT32_MAX;) {
        d += g->trig_off[p + 1] - g->trig_off[p];
        n += e->tree ? e->node_cost[p] : 0;
    }
    d = d < T ? d : T;
    *nodes = n < d * e->nodes_per_succ ? n : d * e->nodes_per_succ;
    return d;
}

/* Thread 0, between rounds: the largest degree of the level's states. On a
 * 200,000-transition ring the room for n_transitions successors per state
 * in flight was gigabytes before the first state (every state has one). */
static void engine_level_degree(engine *e)
{
    if (e->degree_for == e->level_begin + 1)
        return;
    uint64_t T = e->g->n_transitions ? e->g->n_transitions : 1, d = 1, nd = 0;
    e->degree_for = e->level_begin + 1;
    /* The scan is serial: only worth it where the room for T successors
     * per state in flight is large (tree: a key and its new nodes each). */
    uint64_t per_succ = e->tree ? 8 + 16 * e->nodes_per_succ : 8ULL * e->g->words;
    if ((uint64_t)e->nthreads * e->chunk_max * T * per_succ <= ENGINE_DEGREE_SCAN_BYTES) {
        e->degree = T;
        e->node_degree = T * e->nodes_per_succ;
        return;
    }
    /* Without the tree, a smaller chunk that keeps the room under the
     * bound beats the scan while it stays a useful batch: on
     * RwMutex-PT-r1000w0010 (2,020 transitions, 48 words) the scan of BFS
     * level 2 took 3.5 s of a 4.8 s run, where a chunk of 43 states needs
     * none. The tree sizes its chunk from the scanned node bound instead. */
    uint64_t fit = ENGINE_DEGREE_SCAN_BYTES / ((uint64_t)e->nthreads * T * per_succ);
    if (!e->tree && fit >= ENGINE_UNSCANNED_CHUNK) {
        e->chunk = fit < e->chunk_max ? fit : e->chunk_max;
        e->degree = T;
        return;
    }
    const uint64_t nd_all = T * e->nodes_per_succ;
    for (uint64_t id = e->level_begin; id < e->level_end && (d < T || nd < nd_all); id++) {
        uint64_t n, k = engine_state_degree(e, engine_state(e, id, e->plan_words, e->plan_refs),
                                            T, &n);
        d = k > d ? k : d;
        nd = n > nd ? n : nd;
        if ((id & 4095) == 0 && pn_budget_status(e->o->budget) != PN_OK) {
            d = T; /* the run stops at the next poll: bounds need not be tight */
            nd = nd_all;
            break;
        }
    }
    e->degree = d;
    e->node_degree = nd;
}

static uint64_t engine_round_need(const engine *e)
{
    uint64_t T = e->g->n_transitions ? e->g->n_transitions : 1;
    uint64_t d = e->degree != 0 && e->degree < T ? e->degree : T;
    return (uint64_t)e->nthreads * e->chunk * d;
}

/* Tree mode: a chunk small enough that the nodes kept free for a round stay
 * near ENGINE_TREE_ROUND_NODES: on RwMutex-PT-r1000w0010 (48 words, a state
 * adding up to 18,850 nodes) 64 states a chunk kept as many nodes free as
 * were in use. */
static void engine_tree_chunk(engine *e)
{
    uint64_t per = (uint64_t)e->nthreads * (e->node_degree ? e->node_degree : 1);
    uint64_t c = ENGINE_TREE_ROUND_NODES / per;
    e->chunk = c < 1 ? 1 : c < e->chunk_max ? c : e->chunk_max;
}

/* Tree mode: the nodes a round's successors can add at most. */
static uint64_t engine_round_nodes(const engine *e)
{
    return (uint64_t)e->nthreads * e->chunk * e->node_degree;
}

/* Room for a round's successors: in the states' set and, in tree mode, for
 * the nodes they can add. */
static int engine_has_room(engine *e)
{
    uint64_t count = __atomic_load_n(&e->count, __ATOMIC_RELAXED);
    uint64_t need = engine_round_need(e);
    if (count + need > e->store_cap)
        return 0;
    if (!e->tree)
        return 1;
    uint64_t nodes = __atomic_load_n(&e->node_count, __ATOMIC_RELAXED);
    return nodes + engine_round_nodes(e) <= engine_node_cap(e);
}

/* The id table's widening: every stored marking repacked into a new store
 * for `lay`, the table rebuilt. */
static int engine_widen_full(engine *e, pn_layout *lay)
{
    uint32_t words = lay->prog.words;
    uint64_t *store = NULL;
    if (engine_fits(e, engine_bytes(e, e->slot_cap, e->store_cap, words)))
        store = malloc(e->store_cap * words * sizeof *store);
    if (store == NULL)
        return PN_RUN_OUT_OF_MEMORY;
    for (uint64_t id = 0; id < e->count; id++)
        pn_state_repack(e->g, &lay->prog, e->view.store + id * e->g->words,
                        store + id * words);
    free(e->view.store);
    e->view.store = store;
    e->view.words = words;
    return 0;
}

/* *p replaced by a fresh block of `bytes` (its contents are not kept). */
static bool engine_renew(void *p, size_t bytes)
{
    void **q = p;
    free(*q);
    *q = malloc(bytes);
    return *q != NULL;
}

static bool engine_setup_tree(engine *e);

/* Tree mode, after a widening: nodes one re-encoded key can add. */
static uint64_t engine_rekey_margin(const engine *e)
{
    return (uint64_t)e->nthreads * ENGINE_REKEY_CHUNK * 2 * e->g->words;
}

/* The old key at index i of a widening (engine_widen_tree): a slot of the
 * old compact table, the old all-zero key, a window entry, or the key of
 * id i in the id table's store; false where index i holds none. */
static bool engine_rekey_source(const engine *e, uint64_t i, uint64_t *old)
{
    if (!e->compact)
        *old = e->view.store[i];
    else if (i < e->old_keys_n)
        return (*old = e->old_keys[i]) != 0;
    else if (i == e->old_keys_n)
        return *old = 0, e->old_zero;
    else
        *old = e->view.store[i - e->old_keys_n - 1];
    return true;
}

/* Re-encodes the keys of indices [lo, hi), ENGINE_REKEY_BATCH at a time:
 * decoded with the old tree, repacked, encoded into the new one, all in
 * batches so that the node loads of a batch overlap. */
static void engine_rekey_range(engine *e, engine_worker *w, uint64_t lo, uint64_t hi)
{
    /* rk_refs holds the old refs (2 W0 - 1 each), then the new (W >= W0) */
    const uint32_t W = e->g->words, W0 = e->old_ts.words;
    uint64_t old[ENGINE_REKEY_BATCH], idx[ENGINE_REKEY_BATCH], key[ENGINE_REKEY_BATCH];
    uint32_t n_dirty[ENGINE_REKEY_BATCH];
    const uint32_t *dirty[ENGINE_REKEY_BATCH];
    for (uint64_t i = lo; i < hi;) {
        uint32_t n = 0;
        for (; i < hi && n < ENGINE_REKEY_BATCH; i++)
            if (engine_rekey_source(e, i, &old[n]))
                idx[n++] = i;
        pn_tstore_decode_batch(&e->old_ts, n, old, w->rk_refs, w->rk_words);
        for (uint32_t j = 0; j < n; j++) {
            pn_state_repack(&e->old_lay->prog, e->g, w->rk_words + (uint64_t)j * W0,
                            w->rk_wide + (uint64_t)j * W);
            n_dirty[j] = e->rk_n_dirty;
            dirty[j] = e->rk_dirty; /* every word changed */
        }
        pn_tstore_encode_batch(&e->ts, n, w->rk_wide, w->rk_refs, dirty, n_dirty, key);
        for (uint32_t j = 0; j < n; j++) {
            if (!e->compact)
                e->view.store[idx[j]] = key[j];
            else if (idx[j] > e->old_keys_n)
                e->view.store[idx[j] - e->old_keys_n - 1] = key[j];
            else
                pn_ctable_insert(&e->view.ctable, key[j], pn_state_hash(&key[j], 1));
        }
    }
}

/* Every worker: claims chunks of keys to re-encode while the node set
 * surely has room for every chunk in flight. */
static void engine_rekey_slice(engine_worker *w)
{
    engine *e = w->e;
    for (;;) {
        uint64_t nodes = __atomic_load_n(&e->node_count, __ATOMIC_RELAXED);
        if (nodes + engine_rekey_margin(e) > engine_node_cap(e))
            return;
        uint64_t c = __atomic_fetch_add(&e->rekey_cursor, ENGINE_REKEY_CHUNK, __ATOMIC_RELAXED);
        if (c >= e->rekey_total)
            return;
        engine_rekey_range(e, w, c, c + ENGINE_REKEY_CHUNK < e->rekey_total
                                        ? c + ENGINE_REKEY_CHUNK
                                        : e->rekey_total);
    }
}

static void engine_free_old_tree(engine *e)
{
    free(e->old_ts.nodes.slots);
    free(e->old_ts.nodes.store);
    free(e->old_ts.nodes.pair);
    free(e->old_kid);
    free(e->old_keys);
    pn_layout_free(e->old_lay);
    e->old_ts.nodes.slots = NULL;
    e->old_ts.nodes.store = NULL;
    e->old_ts.nodes.pair = NULL;
    e->old_kid = NULL;
    e->old_keys = NULL;
    e->old_lay = NULL;
}

/* Thread 0, after the workers' slices: the keys they left for want of
 * node room, one by one (growing the node set), then the old tree goes.
 * The id table is then rebuilt by the workers (its keys changed). */
static int engine_rekey_finish(engine *e)
{
    uint64_t from = e->rekey_cursor < e->rekey_total ? e->rekey_cursor : e->rekey_total;
    int r = 0;
    for (uint64_t i = from; r == 0 && i < e->rekey_total; i++) {
        r = engine_grow_nodes(e, 2ULL * e->g->words);
        if (e->node_rehash != 0) {
            engine_reinsert_nodes(&e->ts.nodes, 0, e->node_rehash);
            e->node_rehash = 0;
        }
        if (r == 0)
            engine_rekey_range(e, &e->workers[0], i, i + 1);
    }
    e->rekey_total = 0;
    engine_free_old_tree(e);
    if (r == 0 && !e->compact) {
        memset(e->view.slots, 0, e->slot_cap * sizeof *e->view.slots);
        e->rehash_ids = e->count;
    }
    return r;
}

/* The dirty list of a key whose every word is new (pn_tstore_above) into
 * d (2W - 2 entries); UINT32_MAX when out of memory. */
static uint32_t engine_all_dirty(const pn_tstore *t, uint32_t *d)
{
    const uint32_t W = t->words;
    uint32_t *w = malloc(W * sizeof *w);
    uint8_t *flag = calloc(2 * (size_t)W - 1, 1);
    uint32_t n = UINT32_MAX;
    if (w != NULL && flag != NULL) {
        for (uint32_t k = 0; k < W; k++)
            w[k] = k;
        n = pn_tstore_above(t, w, W, flag, d);
    }
    free(w);
    free(flag);
    return n;
}

/* Tree mode: the keys of the old packing are re-encoded into a fresh node
 * set (the old nodes are of the old packing) by all workers at once
 * (engine_rekey_slice, then engine_rekey_finish): the id table's keys in
 * place, or the compact table's into a new table and the window's in
 * place. Keys stay one word whatever the width, so nothing restarts. Owns
 * `old` from here on. */
static int engine_widen_tree(engine *e, pn_layout *old)
{
    const uint32_t W0 = old->prog.words, W = e->g->words;
    uint64_t old_nodes = e->node_count;
    e->old_ts = e->ts;
    e->old_kid = e->ts_kid;
    e->old_lay = old;
    e->ts_kid = NULL;
    e->ts.nodes.slots = NULL;
    e->ts.nodes.store = NULL;
    e->ts.nodes.pair = NULL;
    e->node_count = e->node_slot_cap = e->node_store_cap = e->node_rehash = 0;
    bool ok = engine_setup_tree(e);
    for (uint32_t i = 0; ok && i < e->nthreads; i++) {
        engine_worker *w = &e->workers[i];
        const size_t B = ENGINE_REKEY_BATCH, D = 2 * (size_t)W - 2;
        ok = engine_renew(&w->rk_words, B * W0 * sizeof *w->rk_words) &&
             engine_renew(&w->rk_wide, B * W * sizeof *w->rk_wide) &&
             engine_renew(&w->rk_refs, B * (D + 1) * sizeof *w->rk_refs);
    }
    ok = ok && engine_renew(&e->rk_dirty, (2 * (size_t)W - 2) * sizeof *e->rk_dirty) &&
         (e->rk_n_dirty = engine_all_dirty(&e->ts, e->rk_dirty)) != UINT32_MAX;
    if (ok && e->compact) {
        pn_ctable *t = &e->view.ctable;
        e->old_keys = t->slots;
        e->old_keys_n = t->n;
        e->old_zero = e->has_zero != 0;
        e->has_zero = 0;
        ok = (t->slots = calloc(t->n, sizeof *t->slots)) != NULL;
        if (ok)
            pn_sys_advise_huge(t->slots, t->n * sizeof *t->slots);
    }
    /* about as many nodes as before, per word; else what fits */
    uint64_t est = old_nodes / W0 * W + engine_rekey_margin(e);
    if (ok && engine_grow_nodes(e, est) != 0 && engine_grow_nodes(e, engine_rekey_margin(e)) != 0)
        ok = false;
    e->node_rehash = 0; /* the set is empty */
    if (!ok)
        return PN_RUN_OUT_OF_MEMORY;
    e->rekey_cursor = 0;
    e->rekey_total = e->compact ? e->old_keys_n + 1 + (e->count - e->view.base) : e->count;
    return 0;
}

/* The words of the packing after widening the places flagged in
 * overflowed (the current widths and the flags are left as they are); 0
 * when out of memory. A place at 64 bits fails the real widening, not
 * this. */
static uint32_t engine_words_after(const engine *e, const uint8_t *overflowed)
{
    const uint32_t P = e->cn->n_places;
    uint8_t *buf = malloc(2 * (size_t)P + 2);
    uint32_t words = 0;
    if (buf != NULL) {
        memcpy(buf, e->widths, P);
        memcpy(buf + P + 1, overflowed, P);
        (void)pn_layout_widen_to(buf, buf + P + 1, P, ENGINE_TREE_MIN_WIDEN);
        words = pn_layout_words(buf, e->order, P);
    }
    free(buf);
    return words;
}

/* Tree mode: a widening re-encodes every key, while a wider field costs
 * the tree little as long as the marking keeps its word count. So the
 * places that have outgrown their initial width before (counters) widen
 * now with the ones that overflowed, to ENGINE_TREE_MIN_WIDEN bits, rather
 * than each at a widening of its own later, when there are more keys to
 * re-encode; unless that would take more words than widening the
 * overflowed places alone (more words: more nodes a state, and fields of
 * other places packed otherwise). RobotManipulation-PT-00010: 23
 * widenings, 8 of them in tree mode (the last four re-encoding 0.4, 2.4
 * and 2 x 7.6 M keys), become 16 and 1. False when out of memory. */
static bool engine_widen_counters(engine *e)
{
    const uint32_t P = e->cn->n_places;
    uint8_t *with = NULL; /* the initial widths, then the flags with the counters */
    pn_error err = {0};
    if (pn_layout_initial_widths(e->cn, &with, &err) != PN_OK)
        return false;
    for (uint32_t p = 0; p < P; p++)
        with[p] = e->widen[p] || (e->widths[p] > with[p] && e->widths[p] < ENGINE_TREE_MIN_WIDEN);
    const uint32_t alone = engine_words_after(e, e->widen), more = engine_words_after(e, with);
    if (alone != 0 && alone == more)
        memcpy(e->widen, with, P);
    free(with);
    return alone != 0 && more != 0;
}

static pn_status engine_pick_order(engine *e, pn_layout **lay, pn_error *err);

/* Repacks every stored state with wider fields. Returns a pn_run_status. */
static int engine_widen(engine *e)
{
    if (e->tree && !engine_widen_counters(e))
        return PN_RUN_OUT_OF_MEMORY;
    if (!pn_layout_widen_to(e->widths, e->widen, e->cn->n_places,
                            e->tree ? ENGINE_TREE_MIN_WIDEN : 0))
        return PN_RUN_TOKEN_OVERFLOW;
    /* Compact: the window lacks the states before it (the tree re-encodes
     * its keys instead). Distributed: a repacked state hashes to another
     * rank. */
    if ((e->compact && !e->tree) || e->o->part != NULL)
        return ENGINE_RESTART;
    pn_layout *lay = NULL;
    pn_error err = {0};
    if (pn_layout_new(e->cn, e->widths, &lay, &err) != PN_OK)
        return PN_RUN_OUT_OF_MEMORY;
    if (engine_pick_order(e, &lay, &err) != PN_OK) {
        pn_layout_free(lay);
        return PN_RUN_OUT_OF_MEMORY;
    }
    uint32_t words = lay->prog.words;
    for (uint32_t i = 0; i < e->nthreads; i++) {
        uint64_t *succ = realloc(e->workers[i].scratch.succ,
                                 (size_t)PN_EXPAND_BATCH * words * sizeof *succ);
        if (succ == NULL) {
            pn_layout_free(lay);
            return PN_RUN_OUT_OF_MEMORY;
        }
        e->workers[i].scratch.succ = succ;
    }
    pn_layout *old = e->lay;
    if (!e->tree) {
        int r = engine_widen_full(e, lay);
        if (r != 0) {
            pn_layout_free(lay);
            return r;
        }
        engine_rehash(e);
    }
    e->lay = lay;
    e->g = &lay->prog;
    e->widenings++;
    e->degree_for = 0; /* rescan the level: its bounds were for the old packing */
    if (e->tree)
        return engine_widen_tree(e, old);
    pn_layout_free(old);
    return 0;
}

static void engine_report(engine *e, double now)
{
    if (e->o->progress == NULL || e->o->progress_interval_s <= 0 || now < e->next_progress)
        return;
    e->next_progress = now + e->o->progress_interval_s;
    uint64_t edges = e->o->part != NULL ? e->all_edges : 0;
    for (uint32_t i = 0; e->o->part == NULL && i < e->nthreads; i++)
        edges += __atomic_load_n(&e->workers[i].edges, __ATOMIC_RELAXED);
    pn_progress p = {.states = e->o->part != NULL ? e->all_states
                                                  : __atomic_load_n(&e->count, __ATOMIC_RELAXED),
                     .edges = edges,
                     .level = e->level,
                     .frontier = e->level_end - e->level_begin,
                     .seconds = now - e->t0,
                     .bytes = engine_held_bytes(e)};
    e->o->progress(e->o->progress_ctx, &p);
}

static void engine_redo_level(engine *e)
{
    e->cursor = e->level_begin;
    for (uint32_t i = 0; i < e->nthreads; i++) {
        e->workers[i].edges = e->workers[i].edges_at_level;
        e->workers[i].n_pairs = e->workers[i].pairs_at_level;
    }
}

static void engine_next_level(engine *e)
{
    if (e->compact)
        engine_slide_window(e, e->level_end);
    e->level_begin = e->level_end;
    e->level_end = e->count;
    e->cursor = e->level_begin;
    /* A rank of a distributed run can start two levels at the same id (the
     * first was empty here): the degree is the new level's, not keyed by
     * where it begins. */
    e->degree_for = 0;
    for (uint32_t i = 0; i < e->nthreads; i++) {
        e->workers[i].edges_at_level = e->workers[i].edges;
        e->workers[i].pairs_at_level = e->workers[i].n_pairs;
    }
    if (e->level_begin != e->level_end)
        e->level++;
}

static void engine_plan_part(engine *e);

/* Thread 0 only: called with every other worker parked at the barrier. */
static void engine_plan(engine *e)
{
    if (e->o->part != NULL) {
        engine_plan_part(e);
        return;
    }
    if (engine_stopped(e)) {
        e->done = 1;
        return;
    }
    if (e->cursor >= e->level_end && e->need_widen) {
        e->need_widen = 0;
        int r = engine_widen(e);
        if (r != 0) {
            e->stop = r;
            e->done = 1;
            return;
        }
        engine_redo_level(e);
        if (e->rekey_total != 0)
            return; /* the workers re-encode the keys first (engine_thread) */
    }
    if (e->cursor >= e->level_end) {
        engine_next_level(e);
        if (e->level_begin == e->level_end) {
            e->done = 1;
            return;
        }
    }
    engine_level_degree(e);
    if (e->tree)
        engine_tree_chunk(e);
    int r = engine_grow(e, engine_round_need(e));
    if (r == 0)
        r = engine_grow_nodes(e, engine_round_nodes(e));
    if (r != 0) {
        engine_set_stop(e, r);
        e->done = 1;
    }
}

/* ---- one rank's part of a distributed exploration (engine/part.h) -------- */

/* Room in each outbox for twice what one thread's chunks in flight can
 * send (outboxes are empty between rounds, when this runs). */
static int engine_part_boxes(engine *e)
{
    if (e->boxes == NULL)
        return 0;
    uint32_t words = e->g->words, ranks = e->o->part->ranks;
    uint64_t need = 2 * (engine_round_need(e) / e->nthreads);
    uint64_t least = ENGINE_BOX_MIN_BYTES / (words * sizeof(uint64_t));
    uint64_t cap = need > least ? need : least;
    if (cap <= e->workers[0].box.cap)
        return 0;
    uint64_t bytes = (uint64_t)e->nthreads * (ranks - 1) * cap * words * sizeof(uint64_t);
    if (e->memory && engine_held_bytes(e) - e->box_bytes + bytes > e->memory)
        return PN_RUN_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < e->nthreads; i++) {
        pn_outbox *b = &e->workers[i].box;
        for (uint32_t d = 0; d < ranks; d++) {
            if (d == b->self)
                continue;
            uint64_t *p = realloc(b->states[d], cap * words * sizeof *p);
            if (p == NULL)
                return PN_RUN_OUT_OF_MEMORY;
            b->states[d] = p;
        }
        b->cap = cap;
    }
    e->box_bytes = bytes;
    return 0;
}

/* Whether w's outbox can take what one more chunk may send. */
static bool engine_box_room(const engine_worker *w)
{
    const pn_outbox *b = w->scratch.outbox;
    if (b == NULL)
        return true;
    uint64_t need = engine_round_need(w->e) / w->e->nthreads;
    for (uint32_t d = 0; d < b->ranks; d++)
        if (b->n[d] + need > b->cap)
            return false;
    return true;
}

/* Thread 0, between rounds: the outboxes go to their owners and what came
 * here is made room for (the workers insert it next). A rank that stops
 * keeps exchanging (every rank joins every collective) but drops what it
 * receives. */
static void engine_part_exchange(engine *e)
{
    const pn_part *pt = e->o->part;
    int r = pt->exchange(pt->ctx, e->boxes, e->boxes != NULL ? e->nthreads : 0, e->g->words,
                         &e->recv, &e->n_recv);
    for (uint32_t i = 0; e->boxes != NULL && i < e->nthreads; i++)
        memset(e->workers[i].box.n, 0, pt->ranks * sizeof *e->workers[i].box.n);
    if (r == 0 && e->n_recv != 0 && !engine_stopped(e))
        r = engine_grow(e, e->n_recv + engine_round_need(e));
    if (r != 0)
        engine_set_stop(e, r);
    if (engine_stopped(e))
        e->n_recv = 0;
}

/* Worker w's slice of the received states into the table: new ones join
 * the next level (batched like successors, pn_expand.h). */
static void engine_part_insert(engine_worker *w)
{
    engine *e = w->e;
    uint32_t words = e->g->words;
    pn_expand_scratch *b = &w->scratch;
    pn_expand_out out = {0};
    uint64_t lo, hi;
    engine_slice(w, e->n_recv, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) {
        const uint64_t *s = e->recv + i * words;
        uint64_t h = pn_state_hash(s, words);
        const uint64_t *slots = e->view.ctable.n ? e->view.ctable.slots : e->view.slots;
        PN_PREFETCH(&slots[pn_expand_home(&e->view, h)]);
        pn_store_write(b->succ + (uint64_t)b->n * words, s, words);
        b->hash[b->n] = h;
        b->trans[b->n] = 0;
        if (++b->n == PN_EXPAND_BATCH)
            pn_expand_flush(&e->view, NULL, 0, b, NULL, &out);
    }
    pn_expand_flush(&e->view, NULL, 0, b, NULL, &out);
}

/* Thread 0: engine_plan for one rank. The collective makes every rank see
 * the same stop, the same end of level and the same widening, so all take
 * the same branch; a stop found here (growth) is agreed next round. */
static void engine_plan_part(engine *e)
{
    const pn_part *pt = e->o->part;
    pn_part_agree a = {.stop = (uint64_t)engine_stopped(e),
                       .busy = e->cursor < e->level_end,
                       .widen_any = (uint64_t)e->need_widen,
                       .widen = e->widen,
                       .next = e->count - e->level_end,
                       .states = e->count};
    for (uint32_t i = 0; i < e->nthreads; i++)
        a.edges += e->workers[i].edges;
    pt->agree(pt->ctx, &a, e->cn->n_places);
    e->all_states = a.states;
    e->all_edges = a.edges;
    if (a.stop != 0) {
        e->stop = (int)a.stop;
        e->done = 1;
        return;
    }
    if (!a.busy) {
        if (a.widen_any) { /* e->widen is every rank's now: all widen alike */
            e->stop = engine_widen(e);
            e->done = 1;
            return;
        }
        if (a.next == 0) {
            e->done = 1;
            return;
        }
        engine_next_level(e);
        if (e->level_begin == e->level_end) /* empty here, not everywhere */
            e->level++;
    }
    engine_level_degree(e);
    int r = engine_grow(e, engine_round_need(e));
    if (r == 0)
        r = engine_part_boxes(e);
    if (r != 0)
        engine_set_stop(e, r);
}

static void engine_track_tokens(engine_worker *w, const uint64_t *m, uint32_t n_marked)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n_marked; i++) {
        uint64_t v = m[w->marked[i]];
        if (v > w->max_place)
            w->max_place = v;
        sum = sum > UINT64_MAX - v ? UINT64_MAX : sum + v;
    }
    if (sum > w->max_marking)
        w->max_marking = sum;
}

/* Appends the edges of state id; false (and a stop) when the budget or
 * memory runs out. */
static bool engine_record_edges(engine_worker *w, uint64_t id, uint32_t n)
{
    engine *e = w->e;
    if (w->n_pairs + n > w->cap_pairs) {
        uint64_t cap = w->cap_pairs ? w->cap_pairs * 2 : 4096;
        while (cap < w->n_pairs + n)
            cap *= 2;
        uint64_t add = (cap - w->cap_pairs) * sizeof *w->pairs;
        uint64_t total = __atomic_add_fetch(&e->graph_bytes, add, __ATOMIC_RELAXED);
        uint64_t *p = NULL;
        if (e->memory == 0 ||
            total + engine_held_bytes(e) <= e->memory)
            p = realloc(w->pairs, cap * sizeof *p);
        if (p == NULL) {
            engine_set_stop(e, PN_RUN_OUT_OF_MEMORY);
            return false;
        }
        w->pairs = p;
        w->cap_pairs = cap;
    }
    for (uint32_t k = 0; k < n; k++)
        w->pairs[w->n_pairs++] = id << 32 | w->ids[k];
    return true;
}

/* Expands one state with the shared kernel body, then unpacks it for the
 * statistics and the visitor. A successor that overflowed its field was
 * skipped: the level goes on so that every such place is widened at once,
 * and is then redone. Returns false when the exploration must stop. */
static bool engine_expand(engine_worker *w, uint64_t id)
{
    engine *e = w->e;
    const pn_prog *g = e->g;
    pn_tree_view tree = {e->parent, e->via};
    pn_expand_out out;
    if (e->compact)
        pn_expand_state_batched(g, &e->view, id, &w->scratch, &out);
    else
        pn_expand_state_ids(g, &e->view, &tree, id, &w->scratch, w->ids, &out);
    if (w->ids != NULL && !engine_record_edges(w, id, out.n_ids))
        return false;
    if (out.overflow_place != 0) {
        __atomic_store_n(&e->widen[out.overflow_place - 1], 1, __ATOMIC_RELAXED);
        __atomic_store_n(&e->need_widen, 1, __ATOMIC_RELAXED);
    }
    /* Only this worker writes it; progress reports read it concurrently. */
    __atomic_store_n(&w->edges, w->edges + out.enabled, __ATOMIC_RELAXED);
    const uint64_t *s =
        e->tree ? w->scratch.cur : e->view.store + (id - e->view.base) * g->words;
    uint32_t n_marked = pn_state_unpack_sparse(g, s, w->marking, w->marked);
    engine_track_tokens(w, w->marking, n_marked);
    bool go = true;
    const pn_visitor *v = e->o->visitor;
    if (v != NULL && v->on_state != NULL &&
        v->on_state(v->ctx, w->id, id, w->marking, out.enabled)) {
        engine_set_stop(e, PN_RUN_STOPPED);
        go = false;
    }
    for (uint32_t i = 0; i < n_marked; i++)
        w->marking[w->marked[i]] = 0;
    return go;
}

static void engine_check_limits(engine_worker *w)
{
    engine *e = w->e;
    pn_status limit = pn_budget_status(e->o->budget);
    if (limit == PN_ERR_CANCELLED)
        engine_set_stop(e, PN_RUN_CANCELLED);
    if (w->id != 0)
        return;
    double now = pn_clock_now();
    if (limit == PN_ERR_TIMEOUT)
        engine_set_stop(e, PN_RUN_TIMEOUT);
    engine_report(e, now);
}

static void engine_work(engine_worker *w)
{
    engine *e = w->e;
    while (!engine_stopped(e) && engine_has_room(e) && engine_box_room(w)) {
        uint64_t c = __atomic_fetch_add(&e->cursor, e->chunk, __ATOMIC_RELAXED);
        if (c >= e->level_end)
            return;
        uint64_t end = c + e->chunk < e->level_end ? c + e->chunk : e->level_end;
        bool go = true;
        for (uint64_t id = c; go && id < end; id++) {
            if (e->tree && id + 1 < end) /* the next state's nodes, one state ahead */
                pn_tstore_prefetch(&e->ts, e->view.store[id + 1 - e->view.base]);
            go = engine_expand(w, id);
        }
        if (e->compact) { /* the chunk's last successors, batched across states */
            pn_expand_out out;
            pn_expand_drain(&e->view, &w->scratch, &out);
        }
        if (!go)
            return;
        engine_check_limits(w);
    }
}

/* After thread 0 grew the table: every worker moves its slice over. */
static void engine_rebuild(engine_worker *w)
{
    engine *e = w->e;
    if (e->old_slots == NULL && e->rehash_ids == 0 && e->node_rehash == 0)
        return;
    engine_rehash_slice(w); /* a table grew */
    pthread_barrier_wait(&e->barrier);
    if (w->id == 0) {
        free(e->old_slots);
        e->old_slots = NULL;
        e->rehash_ids = 0;
        e->node_rehash = 0;
    }
    pthread_barrier_wait(&e->barrier);
}

static void *engine_thread(void *arg)
{
    engine_worker *w = arg;
    engine *e = w->e;
    if (w->id != 0) {
        pthread_mutex_lock(&e->gate_lock);
        while (e->gate == 0)
            pthread_cond_wait(&e->gate_cond, &e->gate_lock);
        int gate = e->gate;
        pthread_mutex_unlock(&e->gate_lock);
        if (gate < 0)
            return NULL;
    }
    if (e->o->topology != NULL)
        pn_topology_pin(e->o->topology, w->id);
    for (;;) {
        pthread_barrier_wait(&e->barrier);
        if (e->o->part != NULL) {
            if (w->id == 0)
                engine_part_exchange(e);
            pthread_barrier_wait(&e->barrier);
            engine_rebuild(w);
            engine_part_insert(w);
            pthread_barrier_wait(&e->barrier);
        }
        if (w->id == 0)
            engine_plan(e);
        pthread_barrier_wait(&e->barrier);
        if (e->rekey_total != 0) { /* a tree widening: then plan again */
            engine_rekey_slice(w);
            pthread_barrier_wait(&e->barrier);
            if (w->id == 0) {
                int r = engine_rekey_finish(e);
                if (r != 0)
                    engine_set_stop(e, r);
            }
            continue;
        }
        engine_rebuild(w);
        if (e->done)
            return NULL;
        engine_work(w);
    }
}

static void engine_open_gate(engine *e, int gate)
{
    pthread_mutex_lock(&e->gate_lock);
    e->gate = gate;
    pthread_cond_broadcast(&e->gate_cond);
    pthread_mutex_unlock(&e->gate_lock);
}

/* Returns how many threads ran: fewer than asked when thread creation
 * failed, in which case nothing was explored. */
static uint32_t engine_run_threads(engine *e)
{
    uint32_t created = 1;
    for (; created < e->nthreads; created++)
        if (pthread_create(&e->workers[created].thread, NULL, engine_thread,
                           &e->workers[created]) != 0)
            break;
    engine_open_gate(e, created == e->nthreads ? 1 : -1);
    if (created == e->nthreads)
        engine_thread(&e->workers[0]);
    for (uint32_t i = 1; i < created; i++)
        pthread_join(e->workers[i].thread, NULL);
    return created;
}

static void engine_release(engine *e)
{
    if (e->workers != NULL)
        for (uint32_t i = 0; i < e->nthreads; i++) {
            free(e->workers[i].scratch.succ);
            free(e->workers[i].ids);
            free(e->workers[i].pairs);
            free(e->workers[i].marking);
            free(e->workers[i].marked);
            for (uint32_t d = 0; e->workers[i].box.states != NULL && d < e->workers[i].box.ranks;
                 d++)
                free(e->workers[i].box.states[d]);
            free(e->workers[i].box.states);
            free(e->workers[i].box.n);
            free(e->workers[i].scratch.cur);
            free(e->workers[i].scratch.wide);
            free(e->workers[i].scratch.cur_refs);
            free(e->workers[i].scratch.refs);
            free(e->workers[i].scratch.chunk);
            free(e->workers[i].rk_words);
            free(e->workers[i].rk_wide);
            free(e->workers[i].rk_refs);
        }
    free(e->workers);
    free(e->boxes);
    free(e->view.slots);
    free(e->view.ctable.slots);
    free(e->old_slots);
    free(e->view.store);
    free(e->parent);
    free(e->via);
    free(e->ts.nodes.slots);
    free(e->ts.nodes.store);
    free(e->ts.nodes.pair);
    free(e->ts_kid);
    free(e->fire_off);
    free(e->fire_pos);
    free(e->rk_dirty);
    free(e->node_cost);
    engine_free_old_tree(e);
    free(e->plan_words);
    free(e->plan_refs);
    pn_layout_free(e->lay);
    free(e->widths);
    free(e->widen);
}

/* The set for this run (docs/architecture.md, "The hash set"): the compact
 * table serves runs that need no state ids afterwards (no graph, tree or
 * store handed out) on one-word markings, or on the one-word keys of tree
 * compression, which serves wider markings unless the flat store is to be
 * handed out. */
static void engine_choose_store(engine *e)
{
    const pn_engine_opts *o = e->o;
    bool ids = o->keep_parents || o->record_graph || o->keep_states;
    /* Tree keys name one rank's own nodes: a distributed part keeps whole
     * markings (they travel between ranks). */
    e->tree = e->g->words > 1 && !o->keep_states && o->part == NULL &&
              (o->store == PN_STORE_AUTO || o->store == PN_STORE_TREE);
    e->compact = pn_engine_compact(o, e->g->words) || (e->tree && !ids);
}

/* The words transition t changes, into words (room for its net
 * consumption and production): every one of them changes when t fires. */
static uint32_t engine_changed_words(const pn_prog *g, uint32_t t, uint32_t *words)
{
    uint32_t n = 0;
    for (uint32_t k = g->dec_off[t]; k < g->dec_off[t + 1]; k++)
        words[n++] = g->dec[k].word;
    for (uint32_t k = g->inc_off[t]; k < g->inc_off[t + 1]; k++)
        words[n++] = g->inc[k].word;
    return n;
}

/* Nodes one firing of t can add (its dirty list's, engine_node_costs). */
static uint64_t engine_fire_adds(const engine *e, uint32_t t)
{
    return pn_tstore_adds(e->fire_pos + e->fire_off[t],
                          (uint32_t)(e->fire_off[t + 1] - e->fire_off[t]));
}

/* Tree mode: per transition, the positions one firing looks up again (the
 * paths above the words it changes: the tree's fire_off / fire_pos), and
 * the new nodes it can add (as many), summed per trigger list (and over
 * the free transitions) for engine_state_degree; the most of them. */
static bool engine_node_costs(engine *e)
{
    const pn_prog *g = e->g;
    const uint32_t T = g->n_transitions, D = 2 * g->words - 2;
    uint8_t *flag = calloc(D + 1, 1);
    uint32_t *words = malloc(((size_t)g->dec_off[T] + g->inc_off[T] + 1) * sizeof *words);
    bool ok = flag != NULL && words != NULL &&
              engine_renew(&e->node_cost, ((size_t)g->n_places + 1) * sizeof *e->node_cost) &&
              engine_renew(&e->fire_off, ((size_t)T + 1) * sizeof *e->fire_off);
    if (ok)
        e->fire_off[0] = 0;
    e->nodes_per_succ = 0;
    size_t cap = 0; /* fire_pos grows as it fills: room for a whole list (2W - 2) first */
    for (uint32_t t = 0; ok && t < T; t++) {
        const size_t at = e->fire_off[t];
        if (at + D >= cap) { /* never empty: fire_pos + fire_off[t] must point somewhere */
            cap = 2 * (at + D) + 1;
            uint32_t *grown = realloc(e->fire_pos, cap * sizeof *grown);
            ok = grown != NULL;
            e->fire_pos = ok ? grown : e->fire_pos;
        }
        if (ok) {
            e->fire_off[t + 1] = at + pn_tstore_above(&e->ts, words,
                                                      engine_changed_words(g, t, words), flag,
                                                      e->fire_pos + at);
            uint64_t m = engine_fire_adds(e, t);
            e->nodes_per_succ = m > e->nodes_per_succ ? m : e->nodes_per_succ;
        }
    }
    for (uint32_t p = 0; ok && p <= g->n_places; p++) {
        uint64_t sum = 0;
        if (p < g->n_places)
            for (uint32_t k = g->trig_off[p]; k < g->trig_off[p + 1]; k++)
                sum += engine_fire_adds(e, g->trig[k]);
        else
            for (uint32_t k = 0; k < g->n_free; k++)
                sum += engine_fire_adds(e, g->free_trans[k]);
        e->node_cost[p] = sum;
    }
    e->ts.fire_off = e->fire_off;
    e->ts.fire_pos = e->fire_pos;
    free(flag);
    free(words);
    return ok;
}

/* Tree mode, for the current layout (again after a widening): the shape,
 * the node set's view and the decoding buffers of thread 0 and the
 * workers. The node set itself is grown by engine_grow_nodes. */
static bool engine_setup_tree(engine *e)
{
    const size_t W = e->g->words, R = 2 * W - 1, batch = PN_EXPAND_BATCH;
    uint32_t *lvl = malloc(W * sizeof *lvl);
    /* kid 2 (W - 1), up 2W - 1, round_end up to 33 */
    bool ok = lvl != NULL && engine_renew(&e->ts_kid, (4 * W + 32) * sizeof *e->ts_kid) &&
              engine_renew(&e->plan_words, W * sizeof *e->plan_words) &&
              engine_renew(&e->plan_refs, R * sizeof *e->plan_refs);
    if (ok) {
        pn_tstore_shape(&e->ts, (uint32_t)W, e->ts_kid, e->ts_kid + 2 * (W - 1),
                        e->ts_kid + 4 * W - 3, lvl);
        e->ts.nodes.count = &e->node_count;
        e->view.tree = &e->ts;
        ok = engine_node_costs(e);
    }
    free(lvl);
    for (uint32_t i = 0; ok && i < e->nthreads; i++) {
        pn_expand_scratch *b = &e->workers[i].scratch;
        ok = engine_renew(&b->cur, W * sizeof *b->cur) &&
             engine_renew(&b->wide, batch * W * sizeof *b->wide) &&
             engine_renew(&b->cur_refs, R * sizeof *b->cur_refs) &&
             engine_renew(&b->refs, batch * R * sizeof *b->refs) &&
             engine_renew(&b->chunk, sizeof *b->chunk);
        if (ok)
            b->chunk->n = 0;
    }
    return ok;
}

bool pn_engine_compact(const pn_engine_opts *o, uint32_t words)
{
    return !o->keep_parents && !o->record_graph && !o->keep_states && o->store != PN_STORE_FULL &&
           words == 1;
}

/* Distributed over several ranks: an empty outbox per worker (sized by
 * engine_part_boxes once the round's need is known). */
static pn_status engine_setup_boxes(engine *e)
{
    const pn_part *pt = e->o->part;
    if (pt == NULL || pt->ranks < 2)
        return PN_OK;
    e->boxes = calloc(e->nthreads, sizeof *e->boxes);
    if (e->boxes == NULL)
        return PN_ERR_NOMEM;
    for (uint32_t i = 0; i < e->nthreads; i++) {
        pn_outbox *b = &e->workers[i].box;
        b->self = pt->rank;
        b->ranks = pt->ranks;
        b->words = e->g->words;
        b->states = calloc(pt->ranks, sizeof *b->states);
        b->n = calloc(pt->ranks, sizeof *b->n);
        if (b->states == NULL || b->n == NULL)
            return PN_ERR_NOMEM;
        e->boxes[i] = b;
        e->workers[i].scratch.outbox = b;
    }
    return PN_OK;
}

/* The words the firings of all transitions change, each transition's
 * counted once; UINT64_MAX when out of memory. */
static uint64_t engine_changed_total(const pn_prog *g)
{
    uint32_t *words = malloc(((size_t)g->n_places + 1) * 2 * sizeof *words);
    uint32_t *stamp = calloc(g->words, sizeof *stamp); /* t + 1: counted for t */
    uint64_t total = words != NULL && stamp != NULL ? 0 : UINT64_MAX;
    for (uint32_t t = 0; total != UINT64_MAX && t < g->n_transitions; t++) {
        const uint32_t n = engine_changed_words(g, t, words);
        for (uint32_t k = 0; k < n; k++)
            if (stamp[words[k]] != t + 1) {
                stamp[words[k]] = t + 1;
                total++;
            }
    }
    free(words);
    free(stamp);
    return total;
}

/* Tree mode: every node above a word a firing changes is looked up again,
 * and the fields of the places a transition changes lie wherever the
 * net's place order put them (Peterson-PT-3: a transition changes 1.86 of
 * the four words, and 1.53 of the pair nodes above them). So the places
 * may be packed in FORCE order (e->force; there 1.24 words, 1.10 pairs):
 * *lay, the layout of the current widths in place order, becomes that of
 * FORCE order where it takes as many words (fewer would change the store
 * chosen for the width) and the transitions change no more words in all (FORCE shortens spans, which is not always that:
 * DES-PT-01a 1.30 -> 1.34 words a transition). Asked again at each
 * widening, as widths move fields between words (HouseConstruction-PT-
 * 00005: a tie at two words, 1.39 -> 1.50 words a transition at three).
 * PN_OK, or out of memory (*lay is left as it was). */
static pn_status engine_pick_order(engine *e, pn_layout **lay, pn_error *err)
{
    e->order = NULL;
    if (e->force == NULL)
        return PN_OK;
    pn_layout *forced = NULL;
    if (pn_layout_new_ordered(e->cn, e->widths, e->force, &forced, err) != PN_OK)
        return PN_ERR_NOMEM;
    const uint64_t was = engine_changed_total(&(*lay)->prog);
    const uint64_t now = engine_changed_total(&forced->prog);
    if (was == UINT64_MAX || now == UINT64_MAX) {
        pn_layout_free(forced);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory ordering the places");
    }
    if (forced->prog.words != (*lay)->prog.words || now > was) {
        pn_layout_free(forced);
        return PN_OK;
    }
    pn_layout_free(*lay);
    *lay = forced;
    e->order = e->force;
    return PN_OK;
}

/* Tree mode: the run's FORCE order (*force, made here once a run: NULL
 * until then) and the first layout's pick (engine_pick_order). */
static pn_status engine_order(engine *e, uint32_t **force, pn_error *err)
{
    if (!e->tree || e->cn->n_places < 2)
        return PN_OK;
    if (*force == NULL) {
        uint32_t *o = malloc((size_t)e->cn->n_places * sizeof *o);
        if (o == NULL || pn_place_order(e->cn, PN_ORDER_CHANGED, PN_ORDER_CONVERGE, true, NULL, o,
                                        NULL, NULL, err) != PN_OK) {
            free(o);
            return pn_fail(err, PN_ERR_NOMEM, "out of memory ordering the places");
        }
        *force = o;
    }
    e->force = *force;
    pn_status st = engine_pick_order(e, &e->lay, err);
    e->g = &e->lay->prog;
    return st;
}

/* widths: the field widths to start from (a restart), or NULL; *order: the
 * run's FORCE order (engine_order), NULL until one is made. */
static pn_status engine_setup(engine *e, const uint8_t *widths, uint32_t **order,
                              pn_error *err)
{
    e->widen = calloc((size_t)e->cn->n_places + 1, 1);
    if (e->widen != NULL && widths != NULL &&
        (e->widths = malloc((size_t)e->cn->n_places + 1)) != NULL)
        memcpy(e->widths, widths, e->cn->n_places);
    if (e->widen == NULL ||
        (widths == NULL && pn_layout_initial_widths(e->cn, &e->widths, err) != PN_OK) ||
        e->widths == NULL || pn_layout_new(e->cn, e->widths, &e->lay, err) != PN_OK)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory preparing the exploration");
    e->g = &e->lay->prog;
    engine_choose_store(e);
    if (engine_order(e, order, err) != PN_OK)
        return PN_ERR_NOMEM;
    e->view.ctable.has_zero = &e->has_zero;
    e->workers = calloc(e->nthreads, sizeof *e->workers);
    if (e->workers == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for worker threads");
    for (uint32_t i = 0; i < e->nthreads; i++) {
        engine_worker *w = &e->workers[i];
        w->e = e;
        w->id = i;
        w->scratch.succ = malloc((size_t)PN_EXPAND_BATCH * e->g->words * sizeof(uint64_t));
        w->marking = calloc((size_t)e->g->n_places + 1, sizeof *w->marking);
        w->marked = malloc(((size_t)e->g->n_places + 1) * sizeof *w->marked);
        if (w->scratch.succ == NULL || w->marking == NULL || w->marked == NULL)
            return pn_fail(err, PN_ERR_NOMEM, "out of memory for worker buffers");
        if (e->o->record_graph &&
            (w->ids = malloc(((size_t)e->g->n_transitions + 1) * sizeof *w->ids)) == NULL)
            return pn_fail(err, PN_ERR_NOMEM, "out of memory for worker buffers");
    }
    if (engine_setup_boxes(e) != PN_OK)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for worker buffers");
    uint64_t T = e->g->n_transitions ? e->g->n_transitions : 1;
    uint64_t chunk = ENGINE_HEADROOM_STATES / (T * e->nthreads);
    e->chunk = chunk < 1 ? 1 : chunk > ENGINE_MAX_CHUNK ? ENGINE_MAX_CHUNK : chunk;
    e->chunk_max = e->chunk;
    e->view.count = &e->count;
    e->view.words = e->tree ? 1 : e->g->words;
    if (e->tree && !engine_setup_tree(e))
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the tree store");
    return PN_OK;
}

/* Stores the initial marking as level 0. Returns a pn_run_status. */
static int engine_seed(engine *e)
{
    uint64_t *s = e->workers[0].scratch.succ;
    pn_layout_pack(e->lay, e->cn->m0, s); /* initial widths cover m0 */
    uint64_t T = e->g->n_transitions ? e->g->n_transitions : 1;
    e->degree = engine_state_degree(e, s, T, &e->node_degree);
    e->degree_for = 1; /* level 0: the initial marking */
    int r = engine_grow(e, engine_round_need(e) + 1);
    if (r == 0)
        r = engine_grow_nodes(e, engine_round_nodes(e) + 2ULL * e->g->words);
    if (r != 0)
        return r;
    uint64_t h = pn_state_hash(s, e->g->words);
    e->level_begin = e->cursor = 0;
    const pn_part *pt = e->o->part;
    if (pt != NULL && pn_part_owner(h, pt->ranks) != pt->rank) {
        e->level_end = 0; /* another rank's: this one starts empty */
        return 0;
    }
    if (e->tree) { /* never distributed: tree keys are one rank's own */
        s[0] = pn_tstore_encode(&e->ts, s, e->workers[0].scratch.refs);
        h = pn_state_hash(s, e->view.words);
    }
    if (e->compact) {
        pn_ctable_insert(&e->view.ctable, s[0], h);
        e->view.store[0] = s[0];
        e->count = 1;
    } else {
        uint64_t id;
        pn_table_insert(&e->view, s, h, &id);
    }
    e->level_begin = 0;
    e->level_end = 1;
    e->cursor = 0;
    return 0;
}

static void engine_collect(const engine *e, pn_engine_result *res)
{
    res->states = e->count;
    for (uint32_t i = 0; i < e->nthreads; i++) {
        const engine_worker *w = &e->workers[i];
        res->edges += w->edges;
        if (w->max_place > res->max_tokens_place)
            res->max_tokens_place = w->max_place;
        if (w->max_marking > res->max_tokens_marking)
            res->max_tokens_marking = w->max_marking;
    }
    res->levels = e->level;
    res->restarts = e->widenings;
    res->state_words = e->g->words;
    res->threads = e->nthreads;
    res->bytes = engine_held_bytes(e);
    res->compact = e->compact;
    res->tree = e->tree;
}

/* Builds the CSR graph from the workers' edge buffers (complete runs of
 * fewer than 2^32 states only: ids are 32-bit there). */
static pn_status engine_give_graph(engine *e, pn_engine_result *res, pn_error *err)
{
    if (!e->o->record_graph || res->status != PN_RUN_COMPLETE)
        return PN_OK;
    if (e->count > UINT32_MAX) {
        res->status = PN_RUN_TOO_MANY_STATES;
        return PN_OK;
    }
    /* The set's slots serve no lookup once the run is complete: they go
     * before the graph is built, which needs its offsets and targets beside
     * the edge buffers (the run's peak otherwise), and that must fit what
     * the engine was given. */
    free(e->view.slots);
    e->view.slots = NULL;
    e->slot_cap = 0;
    uint64_t edges = __atomic_load_n(&e->graph_bytes, __ATOMIC_RELAXED);
    uint64_t csr = (e->count + 2) * sizeof(uint64_t), n_edges = 0;
    for (uint32_t i = 0; i < e->nthreads; i++)
        n_edges += e->workers[i].n_pairs;
    csr += (n_edges + 1) * sizeof(uint32_t);
    if (e->memory != 0 && engine_held_bytes(e) + edges + csr > e->memory) {
        res->status = PN_RUN_OUT_OF_MEMORY;
        return PN_OK;
    }
    uint64_t **bufs = malloc(e->nthreads * sizeof *bufs);
    uint64_t *counts = malloc(e->nthreads * sizeof *counts);
    pn_status st = PN_OK;
    if (bufs == NULL || counts == NULL) {
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory for the state graph");
    } else {
        for (uint32_t i = 0; i < e->nthreads; i++) {
            bufs[i] = e->workers[i].pairs;
            counts[i] = e->workers[i].n_pairs;
        }
        st = pn_graph_from_pairs(e->count, bufs, counts, e->nthreads, &res->graph, err);
    }
    free(bufs);
    free(counts);
    if (st == PN_ERR_NOMEM) { /* too big for memory: not proven, not fatal */
        pn_error_clear(err);
        res->status = PN_RUN_OUT_OF_MEMORY;
        st = PN_OK;
    }
    return st;
}

/* Hands the BFS tree and, when asked, the states to the result (the
 * engine's copies are then gone). */
static void engine_give_tree(engine *e, pn_engine_result *res)
{
    res->parent = e->parent;
    res->via = e->via;
    e->parent = NULL;
    e->via = NULL;
    if (e->o->keep_states) {
        res->store = e->view.store;
        res->layout = e->lay;
        e->view.store = NULL;
        e->lay = NULL;
        e->g = NULL;
    }
}

/* One exploration with `threads` workers, started at t0; *ran gets how
 * many threads could be started (fewer than asked: nothing was explored).
 * *widths: the field widths to start from (NULL: from the net); after a
 * run that ends in ENGINE_RESTART, the wider ones to start again with. */
static pn_status engine_explore(const pn_cnet *cn, const pn_engine_opts *o, uint32_t threads,
                                double t0, uint8_t **widths, uint32_t **order, uint32_t *ran,
                                pn_engine_result *res, pn_error *err)
{
    engine e = {.cn = cn, .o = o, .nthreads = threads};
    e.t0 = t0;
    e.memory = pn_budget_memory(o->budget);
    e.next_progress = pn_clock_now() + o->progress_interval_s;
    *ran = threads;
    /* A run whose memory cannot hold its setup is not set up (a distributed
     * part is: its rank still joins the collectives). */
    if (o->part == NULL && e.memory != 0 && e.memory < pn_layout_bytes(cn)) {
        res->status = PN_RUN_OUT_OF_MEMORY; /* nothing set up, nothing explored */
        res->threads = threads;
        return PN_OK;
    }
    pn_status st = engine_setup(&e, *widths, order, err);
    /* Asked again once set up: where the process is watched, what the setup
     * allocated (the firing programs, the order, the workers' buffers) is
     * resident now, and the tables get what it leaves. */
    if (st == PN_OK)
        e.memory = pn_budget_memory(o->budget);
    int r = st == PN_OK ? engine_seed(&e) : 0;
    /* A rank that cannot start still joins the collectives, to stop them. */
    if (st == PN_OK && r != 0 && o->part != NULL) {
        e.stop = r;
        r = 0;
    }
    if (st == PN_OK && r == 0) {
        if (pthread_barrier_init(&e.barrier, NULL, threads) != 0) {
            engine_release(&e);
            return pn_fail(err, PN_ERR_INTERNAL, "cannot create a thread barrier");
        }
        pthread_mutex_init(&e.gate_lock, NULL);
        pthread_cond_init(&e.gate_cond, NULL);
        *ran = engine_run_threads(&e);
        pthread_cond_destroy(&e.gate_cond);
        pthread_mutex_destroy(&e.gate_lock);
        pthread_barrier_destroy(&e.barrier);
        r = e.stop;
    }
    if (st == PN_OK) {
        res->status = (pn_run_status)r;
        engine_collect(&e, res);
        st = engine_give_graph(&e, res, err);
        engine_give_tree(&e, res);
    }
    if (st == PN_OK && r == ENGINE_RESTART) {
        free(*widths);
        *widths = e.widths;
        e.widths = NULL;
    }
    engine_release(&e);
    return st;
}

const char *pn_run_status_name(pn_run_status s)
{
    switch (s) {
    case PN_RUN_COMPLETE: return "complete";
    case PN_RUN_STOPPED: return "stopped early: what it checked was decided";
    case PN_RUN_OUT_OF_MEMORY: return "out of memory budget";
    case PN_RUN_TIMEOUT: return "timeout";
    case PN_RUN_CANCELLED: return "cancelled";
    case PN_RUN_TOKEN_OVERFLOW: return "token count beyond 64 bits";
    case PN_RUN_TOO_MANY_STATES: return "more states than ids";
    }
    return "unknown";
}

pn_status pn_explore(const pn_cnet *cn, const pn_engine_opts *opts, pn_engine_result *res,
                     pn_error *err)
{
    double t0 = pn_clock_now();
    uint32_t threads = opts->threads ? opts->threads : 1;
    uint8_t *widths = NULL;
    uint32_t *order = NULL;
    uint64_t restarts = 0;
    for (;;) {
        memset(res, 0, sizeof *res);
        uint32_t ran;
        pn_status st = engine_explore(cn, opts, threads, t0, &widths, &order, &ran, res, err);
        if (st == PN_OK && ran == threads && (int)res->status == ENGINE_RESTART) {
            restarts++; /* compact layout outgrown: again, wider */
        } else if (st != PN_OK || ran == threads) {
            res->restarts += restarts;
            res->seconds = pn_clock_now() - t0;
            free(widths);
            free(order);
            return st;
        } else {
            threads = ran; /* the system refused some threads: run with fewer */
        }
        pn_engine_result_free(res);
    }
}

void pn_engine_result_free(pn_engine_result *res)
{
    if (res == NULL)
        return;
    free(res->parent);
    free(res->via);
    pn_graph_free(res->graph);
    free(res->store);
    pn_layout_free(res->layout);
    free(res->states_text);
    free(res->edges_text);
    res->states_text = res->edges_text = NULL;
    res->parent = NULL;
    res->via = NULL;
    res->graph = NULL;
    res->store = NULL;
    res->layout = NULL;
}

bool pn_engine_trace(const pn_engine_result *res, uint64_t id, uint32_t **path, uint64_t *len)
{
    *path = NULL;
    *len = 0;
    if (res->parent == NULL || id >= res->states)
        return false;
    uint64_t n = 0;
    for (uint64_t s = id; s != 0; s = res->parent[s])
        n++;
    uint32_t *p = malloc((n ? n : 1) * sizeof *p);
    if (p == NULL)
        return false;
    uint64_t k = n;
    for (uint64_t s = id; s != 0; s = res->parent[s])
        p[--k] = res->via[s];
    *path = p;
    *len = n;
    return true;
}
