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
 * then always restarts (a repacked state hashes to another owner). */
#include "petrel/engine.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "engine/part.h"
#include "petrel/graph.h"
#include "net/layout.h"
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
/* Internal run status: the compact layout overflowed, explore again with
 * the wider fields (pn_explore restarts; never seen by callers). */
#define ENGINE_RESTART 100
/* Distributed: the least room of one outbox for one destination (1 MiB),
 * so that a round sends enough to be worth its collectives. */
#define ENGINE_BOX_MIN_BYTES (1ULL << 20)


typedef struct engine_worker engine_worker;

typedef struct engine {
    const pn_cnet *cn;
    const pn_engine_opts *o;
    pn_layout *lay;
    const pn_prog *g;     /* &lay->prog */
    uint8_t *widths;
    uint8_t *widen;       /* places that overflowed this round */
    pn_table_view view;
    uint64_t *parent;     /* keep_parents: BFS tree, sized like the store */
    uint32_t *via;
    uint64_t slot_cap, store_cap, count;
    bool compact;         /* pn_ctable.h table; store = window from view.base */
    uint64_t has_zero;    /* compact: the all-zero marking is in the set */
    bool tight;           /* compact: the budget capped a growth (load 9/10) */
    uint64_t *old_slots;  /* compact: the table being replaced, or NULL */
    uint64_t old_n;
    uint64_t rehash_ids;  /* id table: ids still to reinsert after growth */
    uint64_t buf_cap;     /* compact: states the window can hold */
    uint64_t level_begin, level_end, cursor, level, chunk, widenings;
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

/* What the table and store hold now (compact: the window, not every id). */
static uint64_t engine_held_bytes(const engine *e)
{
    return engine_bytes(e, e->slot_cap, e->compact ? e->buf_cap : e->store_cap, e->g->words) +
           e->box_bytes;
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
        const uint64_t *s = e->view.store + id * e->g->words;
        pn_table_reinsert(&e->view, id, pn_state_hash(s, e->g->words));
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

/* Worker w's share of a grown table's rebuild: the keys of the compact
 * table being replaced, or the ids whose slots the id table lost. The
 * inserts are atomic: the slices land in the new table at once. */
static void engine_rehash_slice(engine_worker *w)
{
    engine *e = w->e;
    uint64_t lo, hi;
    engine_slice(w, e->old_slots != NULL ? e->old_n : e->rehash_ids, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) {
        if (e->old_slots != NULL) {
            uint64_t s = e->old_slots[i];
            if (s != 0)
                pn_ctable_insert(&e->view.ctable, s, pn_state_hash(&s, 1));
        } else {
            const uint64_t *s = e->view.store + i * e->g->words;
            pn_table_reinsert_shared(&e->view, i, pn_state_hash(s, e->g->words));
        }
    }
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
    int fit = pn_ctable_grow_plan(&p, e->count, e->view.base, need, PN_TABLE_MAX_STATES,
                                  e->memory);
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
    if (e->memory &&
        engine_bytes(e, slots, store_cap, e->g->words) > e->memory)
        return PN_RUN_OUT_OF_MEMORY;
    uint64_t *store = realloc(e->view.store, store_cap * e->g->words * sizeof(uint64_t));
    if (store == NULL)
        return PN_RUN_OUT_OF_MEMORY;
    e->view.store = store;
    pn_sys_advise_huge(store, store_cap * e->g->words * sizeof(uint64_t));
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

/* The transitions pn_expand_succs tries on packed state s: at most that
 * many successors (capped at T). */
static uint64_t engine_state_degree(const pn_prog *g, const uint64_t *s, uint64_t T)
{
    uint64_t d = g->n_free;
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; d < T && (p = pn_marked_next(g, s, &it)) != UINT32_MAX;)
        d += g->trig_off[p + 1] - g->trig_off[p];
    return d < T ? d : T;
}

/* Thread 0, between rounds: the largest degree of the level's states. On a
 * 200,000-transition ring the room for n_transitions successors per state
 * in flight was gigabytes before the first state (every state has one). */
static void engine_level_degree(engine *e)
{
    if (e->degree_for == e->level_begin + 1)
        return;
    uint64_t T = e->g->n_transitions ? e->g->n_transitions : 1, d = 1;
    e->degree_for = e->level_begin + 1;
    /* The scan is serial: only worth it where the room for T successors
     * per state in flight is large. */
    if ((uint64_t)e->nthreads * e->chunk * T * e->g->words * 8 <= ENGINE_DEGREE_SCAN_BYTES) {
        e->degree = T;
        return;
    }
    for (uint64_t id = e->level_begin; id < e->level_end && d < T; id++) {
        uint64_t k = engine_state_degree(e->g, e->view.store + (id - e->view.base) * e->g->words,
                                         T);
        d = k > d ? k : d;
    }
    e->degree = d;
}

static uint64_t engine_round_need(const engine *e)
{
    uint64_t T = e->g->n_transitions ? e->g->n_transitions : 1;
    uint64_t d = e->degree != 0 && e->degree < T ? e->degree : T;
    return (uint64_t)e->nthreads * e->chunk * d;
}

static int engine_has_room(engine *e)
{
    uint64_t count = __atomic_load_n(&e->count, __ATOMIC_RELAXED);
    return count + engine_round_need(e) <= e->store_cap;
}

/* Repacks every stored state with wider fields. Returns a pn_run_status. */
static int engine_widen(engine *e)
{
    if (!pn_layout_widen(e->widths, e->widen, e->cn->n_places))
        return PN_RUN_TOKEN_OVERFLOW;
    /* Compact: the window lacks the states before it. Distributed: a
     * repacked state hashes to another rank. */
    if (e->compact || e->o->part != NULL)
        return ENGINE_RESTART;
    pn_layout *lay = NULL;
    pn_error err = {0};
    if (pn_layout_new(e->cn, e->widths, &lay, &err) != PN_OK)
        return PN_RUN_OUT_OF_MEMORY;
    uint32_t words = lay->prog.words;
    uint64_t *store = NULL;
    if (e->memory == 0 ||
        engine_bytes(e, e->slot_cap, e->store_cap, words) <= e->memory)
        store = malloc(e->store_cap * words * sizeof *store);
    for (uint32_t i = 0; store != NULL && i < e->nthreads; i++) {
        uint64_t *succ = realloc(e->workers[i].scratch.succ,
                                 (size_t)PN_EXPAND_BATCH * words * sizeof *succ);
        if (succ == NULL) {
            free(store);
            store = NULL;
        } else {
            e->workers[i].scratch.succ = succ;
        }
    }
    if (store == NULL) {
        pn_layout_free(lay);
        return PN_RUN_OUT_OF_MEMORY;
    }
    for (uint64_t id = 0; id < e->count; id++)
        pn_state_repack(e->g, &lay->prog, e->view.store + id * e->g->words,
                        store + id * words);
    free(e->view.store);
    pn_layout_free(e->lay);
    e->view.store = store;
    e->view.words = words;
    e->lay = lay;
    e->g = &lay->prog;
    engine_rehash(e);
    e->widenings++;
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
    }
    if (e->cursor >= e->level_end) {
        engine_next_level(e);
        if (e->level_begin == e->level_end) {
            e->done = 1;
            return;
        }
    }
    engine_level_degree(e);
    int r = engine_grow(e, engine_round_need(e));
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
            pn_expand_flush(e->g, &e->view, NULL, 0, b, NULL, &out);
    }
    pn_expand_flush(e->g, &e->view, NULL, 0, b, NULL, &out);
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
    const uint64_t *s = e->view.store + (id - e->view.base) * g->words;
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
        for (uint64_t id = c; go && id < end; id++)
            go = engine_expand(w, id);
        if (e->compact) { /* the chunk's last successors, batched across states */
            pn_expand_out out;
            pn_expand_drain(e->g, &e->view, &w->scratch, &out);
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
    if (e->old_slots == NULL && e->rehash_ids == 0)
        return;
    engine_rehash_slice(w);
    pthread_barrier_wait(&e->barrier);
    if (w->id == 0) {
        free(e->old_slots);
        e->old_slots = NULL;
        e->rehash_ids = 0;
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
        }
    free(e->workers);
    free(e->boxes);
    free(e->view.slots);
    free(e->view.ctable.slots);
    free(e->old_slots);
    free(e->view.store);
    free(e->parent);
    free(e->via);
    pn_layout_free(e->lay);
    free(e->widths);
    free(e->widen);
}

bool pn_engine_compact(const pn_engine_opts *o, uint32_t words)
{
    return !o->keep_parents && !o->record_graph && !o->keep_states && !o->full_store &&
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

/* widths: the field widths to start from (a restart), or NULL. */
static pn_status engine_setup(engine *e, const uint8_t *widths, pn_error *err)
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
    e->compact = pn_engine_compact(e->o, e->g->words);
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
    e->view.count = &e->count;
    e->view.words = e->g->words;
    return PN_OK;
}

/* Stores the initial marking as level 0. Returns a pn_run_status. */
static int engine_seed(engine *e)
{
    uint64_t *s = e->workers[0].scratch.succ;
    pn_layout_pack(e->lay, e->cn->m0, s); /* initial widths cover m0 */
    uint64_t T = e->g->n_transitions ? e->g->n_transitions : 1;
    e->degree = engine_state_degree(e->g, s, T);
    e->degree_for = 1; /* level 0: the initial marking */
    int r = engine_grow(e, engine_round_need(e) + 1);
    if (r != 0)
        return r;
    uint64_t h = pn_state_hash(s, e->g->words);
    e->level_begin = e->cursor = 0;
    const pn_part *pt = e->o->part;
    if (pt != NULL && pn_part_owner(h, pt->ranks) != pt->rank) {
        e->level_end = 0; /* another rank's: this one starts empty */
        return 0;
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
                                double t0, uint8_t **widths, uint32_t *ran,
                                pn_engine_result *res, pn_error *err)
{
    engine e = {.cn = cn, .o = o, .nthreads = threads};
    e.t0 = t0;
    e.memory = pn_budget_memory(o->budget);
    e.next_progress = pn_clock_now() + o->progress_interval_s;
    *ran = threads;
    pn_status st = engine_setup(&e, *widths, err);
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
    case PN_RUN_STOPPED: return "stopped early: all answers decided";
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
    uint64_t restarts = 0;
    for (;;) {
        memset(res, 0, sizeof *res);
        uint32_t ran;
        pn_status st = engine_explore(cn, opts, threads, t0, &widths, &ran, res, err);
        if (st == PN_OK && ran == threads && (int)res->status == ENGINE_RESTART) {
            restarts++; /* compact layout outgrown: again, wider */
        } else if (st != PN_OK || ran == threads) {
            res->restarts += restarts;
            res->seconds = pn_clock_now() - t0;
            free(widths);
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
