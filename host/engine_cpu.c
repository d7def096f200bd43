/* Level-synchronous parallel BFS on the CPU.
 *
 * Every thread runs rounds of: barrier, thread 0 plans (advance the level,
 * grow the store and table, check limits), barrier, all threads claim chunks
 * of the current level's id range and expand them with the shared per-state
 * code (kernels/pn_state.h, kernels/pn_table.h). A thread claims a chunk only
 * while the store and table have room for every successor that all chunks in
 * flight could still insert, so inserts never fail and growth happens only
 * between rounds, when no thread touches the table. */
#include "petrel/engine.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "petrel/layout.h"
#include "pn_table.h"

#define ENGINE_RESTART_LIMIT 64
#define ENGINE_MIN_SLOTS 1024ULL
#define ENGINE_MAX_CHUNK 64ULL
/* Successor headroom per planning round: bounds the memory kept free for a
 * round on nets with many transitions. */
#define ENGINE_HEADROOM_STATES (1ULL << 20)

enum { ENGINE_RESTART = 100 }; /* internal stop reason: a place overflowed */

typedef struct engine_worker engine_worker;

typedef struct engine {
    const pn_cnet *cn;
    const pn_engine_opts *o;
    const pn_prog *g;
    pn_table_view view;
    uint64_t slot_cap, store_cap, count;
    uint64_t level_begin, level_end, cursor, level, chunk;
    int stop;            /* 0, a pn_run_status, or ENGINE_RESTART; first wins */
    int done;
    uint8_t *widen;      /* places that overflowed */
    uint32_t nthreads;
    double t0, next_progress;
    pthread_barrier_t barrier;
    pthread_mutex_t gate_lock; /* holds workers until all threads exist */
    pthread_cond_t gate_cond;
    int gate;                  /* 0 wait, 1 go, -1 thread creation failed */
    engine_worker *workers;
} engine;

struct engine_worker {
    engine *e;
    uint32_t id;
    uint64_t *succ;
    uint64_t *marking;
    uint64_t edges, max_place, max_marking;
    pthread_t thread;
};

static double engine_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void engine_set_stop(engine *e, int reason)
{
    int expected = 0;
    __atomic_compare_exchange_n(&e->stop, &expected, reason, false, __ATOMIC_ACQ_REL,
                                __ATOMIC_ACQUIRE);
}

static int engine_stopped(engine *e) { return __atomic_load_n(&e->stop, __ATOMIC_ACQUIRE); }

static uint64_t engine_bytes(const engine *e, uint64_t slots, uint64_t store)
{
    return slots * sizeof(uint64_t) + store * e->g->words * sizeof(uint64_t);
}

/* Doubles the table (and the store with it) until `need` more states fit. */
static int engine_grow(engine *e, uint64_t need)
{
    uint64_t slots = e->slot_cap ? e->slot_cap : ENGINE_MIN_SLOTS;
    while ((e->count + need) > slots / 4 * 3)
        slots *= 2;
    if (slots == e->slot_cap)
        return 0;
    uint64_t store_cap = slots / 4 * 3;
    if (store_cap > PN_TABLE_MAX_STATES)
        return PN_RUN_TOO_MANY_STATES;
    if (e->o->memory_budget && engine_bytes(e, slots, store_cap) > e->o->memory_budget)
        return PN_RUN_OUT_OF_MEMORY;
    uint64_t *store = realloc(e->view.store, store_cap * e->g->words * sizeof(uint64_t));
    if (store == NULL)
        return PN_RUN_OUT_OF_MEMORY;
    e->view.store = store;
    e->store_cap = store_cap;
    uint64_t *nslots = calloc(slots, sizeof *nslots);
    if (nslots == NULL)
        return PN_RUN_OUT_OF_MEMORY;
    free(e->view.slots);
    e->view.slots = nslots;
    e->view.slot_mask = slots - 1;
    e->slot_cap = slots;
    for (uint64_t id = 0; id < e->count; id++) {
        const uint64_t *s = e->view.store + id * e->g->words;
        pn_table_reinsert(&e->view, id, pn_state_hash(s, e->g->words));
    }
    return 0;
}

static uint64_t engine_round_need(const engine *e)
{
    return (uint64_t)e->nthreads * e->chunk * (e->g->n_transitions ? e->g->n_transitions : 1);
}

static int engine_has_room(engine *e)
{
    uint64_t count = __atomic_load_n(&e->count, __ATOMIC_RELAXED);
    return count + engine_round_need(e) <= e->store_cap;
}

static void engine_report(engine *e, double now)
{
    if (e->o->progress == NULL || e->o->progress_interval_s <= 0 || now < e->next_progress)
        return;
    e->next_progress = now + e->o->progress_interval_s;
    uint64_t edges = 0;
    for (uint32_t i = 0; i < e->nthreads; i++)
        edges += __atomic_load_n(&e->workers[i].edges, __ATOMIC_RELAXED);
    pn_progress p = {.states = __atomic_load_n(&e->count, __ATOMIC_RELAXED),
                     .edges = edges,
                     .level = e->level,
                     .frontier = e->level_end - e->level_begin,
                     .seconds = now - e->t0,
                     .bytes = engine_bytes(e, e->slot_cap, e->store_cap)};
    e->o->progress(e->o->progress_ctx, &p);
}

/* Thread 0 only: called with every worker parked at the barrier. */
static void engine_plan(engine *e)
{
    if (engine_stopped(e)) {
        e->done = 1;
        return;
    }
    if (e->cursor >= e->level_end) {
        e->level_begin = e->level_end;
        e->level_end = e->count;
        e->cursor = e->level_begin;
        if (e->level_begin == e->level_end) {
            e->done = 1;
            return;
        }
        e->level++;
    }
    int r = engine_grow(e, engine_round_need(e));
    if (r != 0) {
        engine_set_stop(e, r);
        e->done = 1;
    }
}

/* inc_k is what pn_state_fire returned: the overflowing production + 1. */
static void engine_note_overflow(engine *e, uint32_t inc_k)
{
    const pn_op *op = &e->g->inc[inc_k - 1];
    __atomic_store_n(&e->widen[op->place], 1, __ATOMIC_RELAXED);
    engine_set_stop(e, ENGINE_RESTART);
}

static void engine_track_tokens(engine_worker *w, const uint64_t *m)
{
    uint64_t sum = 0;
    for (uint32_t p = 0; p < w->e->g->n_places; p++) {
        if (m[p] > w->max_place)
            w->max_place = m[p];
        sum = sum > UINT64_MAX - m[p] ? UINT64_MAX : sum + m[p];
    }
    if (sum > w->max_marking)
        w->max_marking = sum;
}

/* Expands one state. Returns false when the exploration must stop. */
static bool engine_expand(engine_worker *w, uint64_t id)
{
    engine *e = w->e;
    const pn_prog *g = e->g;
    const uint64_t *s = e->view.store + id * g->words;
    uint32_t enabled = 0;
    for (uint32_t t = 0; t < g->n_transitions; t++) {
        if (!pn_state_enabled(g, s, t))
            continue;
        enabled++;
        uint32_t of = pn_state_fire(g, s, t, w->succ);
        if (of != 0) {
            engine_note_overflow(e, of);
            return false;
        }
        uint64_t sid;
        pn_table_insert(&e->view, w->succ, pn_state_hash(w->succ, g->words), &sid);
    }
    w->edges += enabled;
    pn_state_unpack(g, s, w->marking);
    engine_track_tokens(w, w->marking);
    const pn_visitor *v = e->o->visitor;
    if (v != NULL && v->on_state != NULL &&
        v->on_state(v->ctx, w->id, id, w->marking, enabled)) {
        engine_set_stop(e, PN_RUN_STOPPED);
        return false;
    }
    return true;
}

static void engine_check_limits(engine_worker *w)
{
    engine *e = w->e;
    if (e->o->cancel != NULL && *e->o->cancel)
        engine_set_stop(e, PN_RUN_CANCELLED);
    if (w->id != 0)
        return;
    double now = engine_now();
    if (e->o->timeout_s > 0 && now - e->t0 >= e->o->timeout_s)
        engine_set_stop(e, PN_RUN_TIMEOUT);
    engine_report(e, now);
}

static void engine_work(engine_worker *w)
{
    engine *e = w->e;
    while (!engine_stopped(e) && engine_has_room(e)) {
        uint64_t c = __atomic_fetch_add(&e->cursor, e->chunk, __ATOMIC_RELAXED);
        if (c >= e->level_end)
            return;
        uint64_t end = c + e->chunk < e->level_end ? c + e->chunk : e->level_end;
        for (uint64_t id = c; id < end; id++)
            if (!engine_expand(w, id))
                return;
        engine_check_limits(w);
    }
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
    for (;;) {
        pthread_barrier_wait(&e->barrier);
        if (w->id == 0)
            engine_plan(e);
        pthread_barrier_wait(&e->barrier);
        if (e->done)
            return NULL;
        engine_work(w);
    }
}

static void engine_release(engine *e)
{
    if (e->workers != NULL)
        for (uint32_t i = 0; i < e->nthreads; i++) {
            free(e->workers[i].succ);
            free(e->workers[i].marking);
        }
    free(e->workers);
    free(e->view.slots);
    free(e->view.store);
    e->workers = NULL;
    e->view.slots = NULL;
    e->view.store = NULL;
}

static pn_status engine_setup(engine *e, pn_error *err)
{
    e->workers = calloc(e->nthreads, sizeof *e->workers);
    if (e->workers == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for worker threads");
    for (uint32_t i = 0; i < e->nthreads; i++) {
        engine_worker *w = &e->workers[i];
        w->e = e;
        w->id = i;
        w->succ = malloc((size_t)e->g->words * sizeof *w->succ);
        w->marking = malloc(((size_t)e->g->n_places + 1) * sizeof *w->marking);
        if (w->succ == NULL || w->marking == NULL)
            return pn_fail(err, PN_ERR_NOMEM, "out of memory for worker buffers");
    }
    uint64_t T = e->g->n_transitions ? e->g->n_transitions : 1;
    uint64_t chunk = ENGINE_HEADROOM_STATES / (T * e->nthreads);
    e->chunk = chunk < 1 ? 1 : chunk > ENGINE_MAX_CHUNK ? ENGINE_MAX_CHUNK : chunk;
    e->view.count = &e->count;
    e->view.words = e->g->words;
    return PN_OK;
}

/* Inserts the initial marking; false when it does not fit the budget. */
static int engine_seed(engine *e, const pn_layout *lay)
{
    int r = engine_grow(e, engine_round_need(e) + 1);
    if (r != 0)
        return r;
    uint64_t *s = e->workers[0].succ;
    if (!pn_layout_pack(lay, e->cn->m0, s))
        return PN_RUN_TOKEN_OVERFLOW; /* cannot happen: widths cover m0 */
    uint64_t id;
    pn_table_insert(&e->view, s, pn_state_hash(s, e->g->words), &id);
    e->level_end = 0;
    e->cursor = 0;
    return 0;
}

static void engine_open_gate(engine *e, int gate)
{
    pthread_mutex_lock(&e->gate_lock);
    e->gate = gate;
    pthread_cond_broadcast(&e->gate_cond);
    pthread_mutex_unlock(&e->gate_lock);
}

/* Returns 0, or the number of threads that could be created when fewer than
 * asked (the caller retries with that many). */
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
    return created == e->nthreads ? 0 : created;
}

static void engine_collect(const engine *e, pn_engine_result *res)
{
    res->states = e->count;
    res->edges = 0;
    res->max_tokens_place = 0;
    res->max_tokens_marking = 0;
    for (uint32_t i = 0; i < e->nthreads; i++) {
        const engine_worker *w = &e->workers[i];
        res->edges += w->edges;
        if (w->max_place > res->max_tokens_place)
            res->max_tokens_place = w->max_place;
        if (w->max_marking > res->max_tokens_marking)
            res->max_tokens_marking = w->max_marking;
    }
    res->levels = e->level;
    res->state_words = e->g->words;
    res->threads = e->nthreads;
    res->bytes = engine_bytes(e, e->slot_cap, e->store_cap);
}

/* One exploration with fixed widths. Returns the stop reason (0: complete). */
static int engine_explore_once(const pn_cnet *cn, const pn_engine_opts *o,
                               const pn_layout *lay, uint8_t *widen, uint32_t threads,
                               pn_engine_result *res, pn_error *err)
{
    engine e = {.cn = cn, .o = o, .g = &lay->prog, .widen = widen, .nthreads = threads};
    e.t0 = engine_now();
    e.next_progress = e.t0 + o->progress_interval_s;
    if (engine_setup(&e, err) != PN_OK) {
        engine_release(&e);
        return -1;
    }
    int r = engine_seed(&e, lay);
    if (r == 0) {
        if (pthread_barrier_init(&e.barrier, NULL, threads) != 0) {
            engine_release(&e);
            pn_fail(err, PN_ERR_INTERNAL, "cannot create a thread barrier");
            return -1;
        }
        pthread_mutex_init(&e.gate_lock, NULL);
        pthread_cond_init(&e.gate_cond, NULL);
        uint32_t started = engine_run_threads(&e);
        pthread_cond_destroy(&e.gate_cond);
        pthread_mutex_destroy(&e.gate_lock);
        pthread_barrier_destroy(&e.barrier);
        if (started != 0) {
            engine_release(&e);
            return -(int)started - 1000; /* retry with this many threads */
        }
        r = e.stop;
    }
    engine_collect(&e, res);
    engine_release(&e);
    return r;
}

static bool engine_widen(const pn_cnet *cn, uint8_t *widths, uint8_t *widen)
{
    bool grew = false;
    for (uint32_t p = 0; p < cn->n_places; p++) {
        if (!widen[p])
            continue;
        widen[p] = 0;
        if (widths[p] >= 64)
            return false;
        widths[p] = widths[p] >= 32 ? 64 : (uint8_t)(widths[p] * 2);
        grew = true;
    }
    return grew;
}

const char *pn_run_status_name(pn_run_status s)
{
    switch (s) {
    case PN_RUN_COMPLETE: return "complete";
    case PN_RUN_STOPPED: return "stopped: all answers decided";
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
    memset(res, 0, sizeof *res);
    double t0 = engine_now();
    uint8_t *widths = NULL;
    uint8_t *widen = calloc((size_t)cn->n_places + 1, 1);
    if (widen == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (pn_layout_initial_widths(cn, &widths, err) != PN_OK) {
        free(widen);
        return err->code;
    }
    uint32_t threads = opts->threads ? opts->threads : 1;
    pn_status st = PN_OK;
    for (uint64_t attempt = 0;; attempt++) {
        pn_layout *lay = NULL;
        if ((st = pn_layout_new(cn, widths, &lay, err)) != PN_OK)
            break;
        double elapsed = engine_now() - t0;
        pn_engine_opts o = *opts;
        if (o.timeout_s > 0) /* the budget covers every attempt */
            o.timeout_s = o.timeout_s - elapsed > 0 ? o.timeout_s - elapsed : 1e-9;
        int r = engine_explore_once(cn, &o, lay, widen, threads, res, err);
        pn_layout_free(lay);
        res->restarts = attempt;
        if (r == -1) {
            st = err->code;
            break;
        }
        if (r <= -1000) {
            threads = (uint32_t)(-(r + 1000));
            continue;
        }
        if (r != ENGINE_RESTART) {
            res->status = (pn_run_status)r;
            break;
        }
        if (attempt >= ENGINE_RESTART_LIMIT || !engine_widen(cn, widths, widen)) {
            res->status = PN_RUN_TOKEN_OVERFLOW;
            break;
        }
    }
    res->seconds = engine_now() - t0;
    free(widths);
    free(widen);
    return st;
}
