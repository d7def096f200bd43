/* The CUDA exploration engine: level-synchronous BFS with the store and the
 * hash table in device memory (include/petrel/gpu.h; docs/gpu.md).
 *
 * The host drives, the device expands. Each level's states are the id range
 * [level_begin, level_end) of the append-only store (kernels/pn_table.h), so
 * the frontier needs no storage. This file is the driver and the memory
 * planning; the host cuts the range into launches of the kernels in
 * gpu_kernels.cu (through kernels/gpu_launch.h), which expand each state
 * with pn_expand_state (kernels/pn_expand.h, shared with the CPU engine).
 *
 * pn_table_insert needs guaranteed room: a launch of n states may insert up
 * to n * T successors (T transitions), so the host launches only as many
 * states as count + n * T <= store capacity allows, and grows the store and
 * table (on the device: copy, then rehash with a kernel) between launches,
 * within the memory budget: min(pn_budget_memory(opts->budget), device free memory
 * less headroom). Between launches the host reads the counters back (one
 * small copy per launch), polls timeout and cancel, and reports progress.
 *
 * A successor whose token count outgrows its bit field is skipped and the
 * place flagged (a per-place device array plus a global flag); the level
 * goes on, then the host widens every flagged place (double, at most 64
 * bits), repacks the stored states into the new layout with a kernel,
 * rebuilds the table and redoes the level, exactly as host/engine/engine_cpu.c.
 *
 * With PN_GPU_EMULATE this file and gpu_kernels.cu compile as plain C++
 * against kernels/gpu_emu.cuh, which runs every kernel thread in turn on the
 * host (gpu_launch.h). */
#include "petrel/gpu.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "net/layout.h"
#include "answers/check_items.h"
#include "gpu_launch.h"

static_assert(GPU_OUT_OF_MEMORY == PN_RUN_OUT_OF_MEMORY,
              "the device glue reports running out as the engine does");

#ifndef PN_GPU_EMULATE
#include <mutex>
#endif

/* ---- the driver: memory planning and the BFS ------------------------------- */

typedef struct gpu_engine {
    const pn_cnet *cn;
    const pn_engine_opts *o;
    pn_error *err;
    pn_layout *lay;         /* host copy of the current packing */
    uint8_t *widths;
    uint8_t *widen;         /* host copy of d_widen */
    cudaStream_t stream;
    bool have_stream;
    void *d_blob;           /* the device copy of lay->prog's arrays */
    pn_prog d_prog;         /* lay->prog with pointers into d_blob */
    uint64_t *d_store, *d_slots, *d_parent;
    uint32_t *d_via;
    uint8_t *d_widen;
    gpu_counters *d_ctr;
    gpu_counters *h_ctr;    /* pinned mirror */
    uint64_t *d_scratch;
    uint64_t scratch_threads, scratch_words;
    uint64_t slot_cap, store_cap, count, budget, resident;
    int cc_major;           /* picks the launch policy (gpu_launch.h) */
    /* Compact table (pn_engine_compact: one-word states, nothing by id):
     * d_slots is a pn_ctable of slot_cap keys, d_store the window of ids
     * base .. count-1 (buf_cap states), and a widening starts over. */
    bool compact, tight;
    uint64_t base, buf_cap;
    /* The check's items (opts->check), evaluated by the kernels. */
    pn_item *items;         /* host pointers (pn_check_items) */
    gpu_items dev;          /* their device copy */
    uint64_t *d_m0;         /* m0 packed in the current layout */
    uint64_t decided_read;  /* d_ctr->decided when last read */
    bool flags_read;        /* the seen / moved flags were read when complete */
    bool all_decided;
    uint64_t level_begin, level_end, cursor, level, widenings;
    uint64_t edges_done;    /* edges of the levels finished */
    uint64_t level_edges;   /* of the current level (device counter) */
    uint64_t max_place, max_marking, max_threads;
    bool need_widen;
    double t0, next_progress;
} gpu_engine;

static int gpu_cuda_fail(gpu_engine *e, cudaError_t rc, const char *what, int line)
{
    return gpu_dev_fail(e->err, rc, what, "gpu_engine.cu", line);
}

#define GPU_TRY(e, call)                                                                   \
    do {                                                                                   \
        cudaError_t rc_ = (call);                                                          \
        if (rc_ != cudaSuccess)                                                            \
            return gpu_cuda_fail((e), rc_, #call, __LINE__);                               \
    } while (0)

static int gpu_alloc(gpu_engine *e, void **p, uint64_t bytes)
{
    return gpu_dev_alloc(e->err, p, bytes);
}

#define gpu_free gpu_dev_free

static uint32_t gpu_words(const gpu_engine *e) { return e->lay->prog.words; }

static uint64_t gpu_bytes(const gpu_engine *e, uint64_t slots, uint64_t store, uint32_t words)
{
    uint64_t tree = e->o->keep_parents ? sizeof(uint64_t) + sizeof(uint32_t) : 0;
    return slots * sizeof(uint64_t) + store * (words * sizeof(uint64_t) + tree);
}

/* What the table and store hold now (compact: the window). */
static uint64_t gpu_held(const gpu_engine *e)
{
    return gpu_bytes(e, e->slot_cap, e->compact ? e->buf_cap : e->store_cap,
                     e->lay != NULL ? e->lay->prog.words : 1);
}

static uint64_t gpu_blocks(uint64_t states, uint64_t max_threads)
{
    uint64_t threads = states < max_threads ? states : max_threads;
    uint64_t blocks = (threads + GPU_BLOCK - 1) / GPU_BLOCK;
    return blocks ? blocks : 1;
}

/* Blocks of a launch over n items by kernel k: the policy's items per
 * thread, never more threads than are resident (grid-stride beyond). */
static uint64_t gpu_policy_blocks(const gpu_engine *e, gpu_kernel_kind k, uint64_t n)
{
    const gpu_policy pol = gpu_policy_for(e->cc_major, k);
    uint64_t per = pol.per_thread ? pol.per_thread : 1;
    return gpu_blocks((n + per - 1) / per, e->resident);
}

static int gpu_sync(gpu_engine *e)
{
    GPU_TRY(e, cudaGetLastError());
    GPU_TRY(e, cudaStreamSynchronize(e->stream));
    return 0;
}

static int gpu_upload_prog(gpu_engine *e, const pn_prog *h, void **blob, pn_prog *d)
{
    return gpu_dev_upload_prog(e->err, h, blob, d, e->stream);
}

/* The generic kernel's per-thread scratch, for states wider than
 * GPU_LOCAL_MAX words. */
static int gpu_ensure_scratch(gpu_engine *e)
{
    uint64_t W = gpu_words(e);
    if (W <= GPU_LOCAL_MAX || e->scratch_words == W)
        return 0;
    gpu_free(e->d_scratch);
    e->d_scratch = NULL;
    e->scratch_words = 0;
    const uint64_t per_thread = W * GPU_BATCH * sizeof(uint64_t);
    uint64_t threads = GPU_SCRATCH_BYTES / per_thread;
    if (threads > e->resident)
        threads = e->resident;
    threads = threads / GPU_BLOCK * GPU_BLOCK;
    if (threads == 0)
        threads = GPU_BLOCK;
    int r = gpu_alloc(e, (void **)&e->d_scratch, threads * per_thread);
    if (r != 0)
        return r;
    e->scratch_threads = threads;
    e->scratch_words = W;
    return 0;
}

/* PN_RUN_TOO_MANY_STATES or PN_RUN_OUT_OF_MEMORY when a table of `slots`
 * slots (and its store) is beyond what ids or the budget allow. */
static int gpu_fits(const gpu_engine *e, uint64_t slots)
{
    uint64_t cap = slots / 4 * 3;
    if (cap > PN_TABLE_MAX_STATES)
        return PN_RUN_TOO_MANY_STATES;
    if (gpu_bytes(e, slots, cap, gpu_words(e)) > e->budget)
        return PN_RUN_OUT_OF_MEMORY;
    return 0;
}

/* Fills the (allocated) table with the stored states [0, count). */
static int gpu_rebuild_table(gpu_engine *e)
{
    GPU_TRY(e, cudaMemsetAsync(e->d_slots, 0, e->slot_cap * sizeof(uint64_t), e->stream));
    if (e->count != 0) {
        pn_table_view v = {e->d_slots, e->slot_cap - 1, e->d_store, &e->d_ctr->count,
                           gpu_words(e), {0, 0, 0}, 0, 0};
        gpu_kernels_rehash(&v, 0, e->count, gpu_policy_blocks(e, GPU_K_REHASH, e->count),
                           e->stream);
    }
    return gpu_sync(e);
}

/* Replaces *p (`keep` bytes in use) with a new block of `bytes`. */
static int gpu_realloc(gpu_engine *e, void **p, uint64_t keep, uint64_t bytes)
{
    void *q;
    int r = gpu_alloc(e, &q, bytes);
    if (r != 0)
        return r;
    if (keep != 0) {
        cudaError_t rc = cudaMemcpyAsync(q, *p, keep, cudaMemcpyDeviceToDevice, e->stream);
        if (rc == cudaSuccess)
            rc = cudaStreamSynchronize(e->stream);
        if (rc != cudaSuccess) {
            gpu_free(q);
            return gpu_cuda_fail(e, rc, "growing the state store", __LINE__);
        }
    }
    gpu_free(*p);
    *p = q;
    return 0;
}

/* Moves to a table of `slots` slots and a store of 3/4 as many states. The
 * old table goes first (it is rebuilt anyway), so that at the peak the
 * device holds the old and the new store only. */
static int gpu_resize(gpu_engine *e, uint64_t slots)
{
    const uint64_t cap = slots / 4 * 3, W = gpu_words(e);
    gpu_free(e->d_slots);
    e->d_slots = NULL;
    int r = gpu_realloc(e, (void **)&e->d_store, e->count * W * sizeof(uint64_t),
                        cap * W * sizeof(uint64_t));
    if (r == 0 && e->o->keep_parents)
        r = gpu_realloc(e, (void **)&e->d_parent, e->count * sizeof(uint64_t),
                        cap * sizeof(uint64_t));
    if (r == 0 && e->o->keep_parents)
        r = gpu_realloc(e, (void **)&e->d_via, e->count * sizeof(uint32_t),
                        cap * sizeof(uint32_t));
    if (r != 0)
        return r;
    e->store_cap = cap;
    r = gpu_alloc(e, (void **)&e->d_slots, slots * sizeof(uint64_t));
    if (r != 0)
        return r;
    e->slot_cap = slots;
    return gpu_rebuild_table(e);
}

/* Grows (doubling) until `need` more states fit, or as far as the budget
 * and the id space allow: the caller checks the room it got. */
static int gpu_grow(gpu_engine *e, uint64_t need)
{
    uint64_t slots = e->slot_cap;
    if (slots == 0) {
        slots = GPU_MIN_SLOTS;
        int r = gpu_fits(e, slots);
        if (r != 0)
            return r;
    }
    while (e->count + need > slots / 4 * 3 && gpu_fits(e, slots * 2) == 0)
        slots *= 2;
    return slots == e->slot_cap ? 0 : gpu_resize(e, slots);
}

/* ---- the compact table (kernels/pn_ctable.h) on the device ---------------- */

static void gpu_compact_cap(gpu_engine *e)
{
    pn_ctable_plan p = {e->slot_cap, e->buf_cap, e->tight};
    e->store_cap = pn_ctable_cap(&p, e->base);
}

/* Moves to a compact table of `slots` keys: the new table is filled from
 * the old one by a kernel, then the old one goes. */
static int gpu_rehash_compact(gpu_engine *e, uint64_t slots)
{
    uint64_t *ns = NULL;
    int r = gpu_alloc(e, (void **)&ns, slots * sizeof(uint64_t));
    if (r != 0)
        return r;
    GPU_TRY(e, cudaMemsetAsync(ns, 0, slots * sizeof(uint64_t), e->stream));
    pn_ctable t = {ns, slots, &e->d_ctr->has_zero};
    if (e->slot_cap != 0)
        gpu_kernels_rehash_compact(&t, e->d_slots, e->slot_cap,
                                   gpu_policy_blocks(e, GPU_K_REHASH, e->slot_cap), e->stream);
    r = gpu_sync(e);
    gpu_free(e->d_slots);
    e->d_slots = ns;
    e->slot_cap = slots;
    return r;
}

/* Room for `need` more states in the compact table and the window, by the
 * CPU engine's rule (pn_ctable_grow_plan). */
static int gpu_grow_compact(gpu_engine *e, uint64_t need)
{
    pn_ctable_plan p = {e->slot_cap, e->buf_cap, e->tight};
    int fit = pn_ctable_grow_plan(&p, e->count, e->base, need, PN_TABLE_MAX_STATES, e->budget);
    if (fit != PN_CTABLE_FITS)
        return fit == PN_CTABLE_NO_IDS ? PN_RUN_TOO_MANY_STATES : PN_RUN_OUT_OF_MEMORY;
    e->tight = p.tight;
    int r = 0;
    if (p.buf != e->buf_cap) {
        r = gpu_realloc(e, (void **)&e->d_store, (e->count - e->base) * sizeof(uint64_t),
                        p.buf * sizeof(uint64_t));
        if (r != 0)
            return r;
        e->buf_cap = p.buf;
    }
    if (p.slots != e->slot_cap)
        r = gpu_rehash_compact(e, p.slots);
    gpu_compact_cap(e);
    return r;
}

/* Between levels: the expanded level leaves the window. The states kept
 * move down in pieces no longer than the distance they move, so that no
 * copy overlaps itself. */
static int gpu_slide_window(gpu_engine *e, uint64_t first)
{
    const uint64_t drop = first - e->base, keep = e->count - first;
    for (uint64_t done = 0; drop != 0 && done < keep; done += drop) {
        uint64_t n = keep - done < drop ? keep - done : drop;
        GPU_TRY(e, cudaMemcpyAsync(e->d_store + done, e->d_store + drop + done,
                                   n * sizeof(uint64_t), cudaMemcpyDeviceToDevice, e->stream));
    }
    e->base = first;
    gpu_compact_cap(e);
    return gpu_sync(e);
}

/* How many states the next launch expands (at least 1), growing first. */
static int gpu_plan(gpu_engine *e, uint64_t *n)
{
    const uint64_t T = e->cn->n_transitions ? e->cn->n_transitions : 1;
    const uint64_t per_state = e->compact ? 2 * sizeof(uint64_t)
                                          : gpu_bytes(e, 2, 1, gpu_words(e)); /* at 3/4 load */
    uint64_t ahead = GPU_HEADROOM_BYTES / per_state;
    if (ahead < e->count)
        ahead = e->count;
    const gpu_policy pol = gpu_policy_for(e->cc_major, GPU_K_EXPAND);
    uint64_t want = e->level_end - e->cursor, most = e->resident * pol.per_thread;
    if (most > GPU_LAUNCH_MAX)
        most = GPU_LAUNCH_MAX;
    if (want > most)
        want = most;
    if (want > ahead / T)
        want = ahead / T ? ahead / T : 1;
    /* Near the budget, fewer states per launch need less room. */
    int r;
    while ((r = e->compact ? gpu_grow_compact(e, want * T) : gpu_grow(e, want * T)) ==
               PN_RUN_OUT_OF_MEMORY &&
           want > 1)
        want /= 2;
    if (r != 0)
        return r;
    uint64_t room = e->store_cap > e->count ? (e->store_cap - e->count) / T : 0;
    if (room == 0) { /* a compact plan that fits leaves room: only the id table gets here */
        r = e->compact ? PN_RUN_OUT_OF_MEMORY : gpu_fits(e, e->slot_cap * 2);
        return r != 0 ? r : PN_RUN_OUT_OF_MEMORY;
    }
    *n = want < room ? want : room;
    return 0;
}

static int gpu_read_counters(gpu_engine *e)
{
    GPU_TRY(e, cudaMemcpyAsync(e->h_ctr, e->d_ctr, sizeof *e->h_ctr, cudaMemcpyDeviceToHost,
                               e->stream));
    int r = gpu_sync(e);
    if (r != 0)
        return r;
    e->count = e->h_ctr->count;
    e->level_edges = e->h_ctr->edges;
    e->max_place = e->h_ctr->max_place;
    e->max_marking = e->h_ctr->max_marking;
    if (e->h_ctr->overflow != 0)
        e->need_widen = true;
    return 0;
}

/* ---- the check's items ------------------------------------------------------ */

/* Packs m0 in the current layout for StableMarking (again after a widening). */
static int gpu_upload_m0(gpu_engine *e)
{
    if (e->o->check == NULL)
        return 0;
    const uint32_t W = gpu_words(e);
    uint64_t *s = (uint64_t *)calloc(W, sizeof *s);
    if (s == NULL) {
        pn_fail(e->err, PN_ERR_NOMEM, "out of memory preparing the exploration");
        return GPU_FAILED;
    }
    pn_layout_pack(e->lay, e->cn->m0, s);
    gpu_free(e->d_m0);
    int r = gpu_dev_upload(e->err, (void **)&e->d_m0, s, W * sizeof *s, e->stream);
    free(s);
    return r;
}

/* The items of opts->check on the device. */
static int gpu_items_setup(gpu_engine *e)
{
    pn_check *c = e->o->check;
    if (c == NULL)
        return 0;
    e->items = (pn_item *)calloc((size_t)pn_check_count(c) + 1, sizeof *e->items);
    if (e->items == NULL) {
        pn_fail(e->err, PN_ERR_NOMEM, "out of memory preparing the formulas for the GPU");
        return GPU_FAILED;
    }
    bool quasi = false, stable = false;
    uint32_t n = pn_check_items(c, e->items, &quasi, &stable);
    int r = gpu_items_upload(&e->dev, e->items, n, quasi, stable, e->cn->n_transitions,
                             e->cn->n_places, e->stream, e->err);
    return r != 0 ? r : gpu_upload_m0(e);
}

/* Hands what the kernels found to the check when something new was decided
 * (or at the end: `last`), which streams the answers at once. */
static int gpu_items_poll(gpu_engine *e, bool last)
{
    if (e->o->check == NULL || e->dev.d_moved == NULL) /* not (all) on the device */
        return 0;
    const gpu_items *d = &e->dev;
    bool full = (d->quasi && e->h_ctr->n_seen == d->n_trans) ||
                (d->stable && e->h_ctr->n_moved == d->n_places);
    bool flags = last || (full && !e->flags_read);
    if (!flags && e->h_ctr->decided == e->decided_read)
        return 0;
    int r = gpu_items_read(&e->dev, flags, e->stream, e->err);
    if (r != 0)
        return r;
    e->flags_read |= full;
    e->decided_read = e->h_ctr->decided;
    e->all_decided = pn_check_items_found(e->o->check, d->item, d->h_found, d->n,
                                          flags && d->quasi ? d->h_seen : NULL,
                                          flags && d->stable ? d->h_moved : NULL);
    return 0;
}

static int gpu_launch_expand(gpu_engine *e, uint64_t begin, uint64_t end)
{
    gpu_args a;
    memset(&a, 0, sizeof a);
    a.g = e->d_prog;
    if (e->compact) {
        a.v.ctable.slots = e->d_slots;
        a.v.ctable.n = e->slot_cap;
        a.v.ctable.has_zero = &e->d_ctr->has_zero;
        a.v.base = e->base;
    } else {
        a.v.slots = e->d_slots;
        a.v.slot_mask = e->slot_cap - 1;
    }
    a.v.store = e->d_store;
    if (e->o->check != NULL)
        a.items = gpu_items_view(&e->dev, e->d_ctr, e->d_m0);
    a.v.count = &e->d_ctr->count;
    a.v.words = e->d_prog.words;
    a.tree.parent = e->d_parent;
    a.tree.via = e->d_via;
    a.begin = begin;
    a.end = end;
    a.ctr = e->d_ctr;
    a.widen = e->d_widen;
    const uint64_t n = end - begin, W = e->d_prog.words;
    uint64_t blocks = gpu_blocks(n, e->resident);
    /* The smallest local scratch that holds a state, else device scratch. */
    uint32_t maxw = 0;
    for (uint32_t m = 2; m <= 128 && maxw == 0; m *= 4)
        if (W <= m && m <= GPU_LOCAL_MAX)
            maxw = m;
    if (maxw == 0) {
        int r = gpu_ensure_scratch(e);
        if (r != 0)
            return r;
        a.scratch = e->d_scratch;
        blocks = gpu_blocks(n, e->scratch_threads);
    }
    GPU_TRY(e, gpu_kernels_expand(&a, maxw, blocks, e->stream));
    GPU_TRY(e, cudaGetLastError());
    uint64_t threads = n < blocks * GPU_BLOCK ? n : blocks * GPU_BLOCK;
    if (threads > e->max_threads)
        e->max_threads = threads;
    return 0;
}

/* Resets the current level's edge count (a new level, or one redone). */
static int gpu_reset_level_edges(gpu_engine *e)
{
    e->level_edges = 0;
    GPU_TRY(e, cudaMemsetAsync(&e->d_ctr->edges, 0, sizeof(uint64_t), e->stream));
    return 0;
}

/* The widths after the flagged places double; TOKEN_OVERFLOW when one is
 * at 64 bits already. */
static int gpu_next_widths(gpu_engine *e)
{
    const uint32_t P = e->cn->n_places;
    GPU_TRY(e, cudaMemcpyAsync(e->widen, e->d_widen, P ? P : 1, cudaMemcpyDeviceToHost,
                               e->stream));
    int r = gpu_sync(e);
    if (r != 0)
        return r;
    return pn_layout_widen(e->widths, e->widen, P) ? 0 : PN_RUN_TOKEN_OVERFLOW;
}

/* Widens every flagged place and repacks the stored states on the device:
 * the table is dropped, the new store allocated and filled from the old
 * one, then the table rebuilt. */
static int gpu_seed(gpu_engine *e);

/* Compact mode cannot repack the states that left the window: the run
 * starts over from m0 with the wider fields, as the CPU engine's does (the
 * items keep what they found: everything they record is idempotent). */
static int gpu_restart(gpu_engine *e)
{
    pn_layout *lay = NULL;
    pn_error lerr;
    pn_error_clear(&lerr);
    if (pn_layout_new(e->cn, e->widths, &lay, &lerr) != PN_OK)
        return PN_RUN_OUT_OF_MEMORY;
    void *blob;
    pn_prog prog;
    int r = gpu_upload_prog(e, &lay->prog, &blob, &prog);
    if (r != 0) {
        pn_layout_free(lay);
        return r;
    }
    gpu_free(e->d_blob);
    pn_layout_free(e->lay);
    e->lay = lay;
    e->d_blob = blob;
    e->d_prog = prog;
    gpu_free(e->d_store);
    gpu_free(e->d_slots);
    e->d_store = e->d_slots = NULL;
    e->slot_cap = e->store_cap = e->buf_cap = e->base = e->count = 0;
    e->tight = false;
    e->compact = pn_engine_compact(e->o, gpu_words(e));
    e->edges_done = e->level_edges = e->level = e->max_place = e->max_marking = 0;
    GPU_TRY(e, cudaMemsetAsync(e->d_ctr, 0, offsetof(gpu_counters, decided), e->stream));
    GPU_TRY(e, cudaMemsetAsync(&e->d_ctr->has_zero, 0, sizeof(uint64_t), e->stream));
    GPU_TRY(e, cudaMemsetAsync(e->d_widen, 0, e->cn->n_places ? e->cn->n_places : 1,
                               e->stream));
    e->need_widen = false;
    e->widenings++;
    r = gpu_ensure_scratch(e);
    if (r == 0)
        r = gpu_upload_m0(e);
    return r != 0 ? r : gpu_seed(e);
}

static int gpu_widen(gpu_engine *e)
{
    int r = gpu_next_widths(e);
    if (r != 0)
        return r;
    if (e->compact)
        return gpu_restart(e);
    pn_layout *lay = NULL;
    pn_error lerr;
    pn_error_clear(&lerr);
    if (pn_layout_new(e->cn, e->widths, &lay, &lerr) != PN_OK)
        return PN_RUN_OUT_OF_MEMORY;
    const uint64_t W0 = gpu_words(e), W1 = lay->prog.words;
    const uint64_t tree = e->o->keep_parents ? sizeof(uint64_t) + sizeof(uint32_t) : 0;
    const uint64_t peak = e->store_cap * ((W0 + W1) * sizeof(uint64_t) + tree);
    pn_layout *old_lay = e->lay;
    e->lay = lay; /* gpu_bytes and gpu_words now see the new packing */
    if (gpu_bytes(e, e->slot_cap, e->store_cap, (uint32_t)W1) > e->budget || peak > e->budget) {
        e->lay = old_lay;
        pn_layout_free(lay);
        return PN_RUN_OUT_OF_MEMORY;
    }
    void *blob;
    pn_prog prog;
    r = gpu_upload_prog(e, &lay->prog, &blob, &prog);
    uint64_t *store = NULL;
    if (r == 0) {
        gpu_free(e->d_slots);
        e->d_slots = NULL;
        r = gpu_alloc(e, (void **)&store, e->store_cap * W1 * sizeof(uint64_t));
        if (r != 0)
            gpu_free(blob);
    }
    if (r != 0) {
        e->lay = old_lay;
        pn_layout_free(lay);
        return r;
    }
    if (e->count != 0)
        gpu_kernels_repack(&e->d_prog, &prog, e->d_store, store, e->count,
                           gpu_policy_blocks(e, GPU_K_REPACK, e->count), e->stream);
    r = gpu_sync(e);
    /* From here on the engine holds the new packing whatever happens. */
    gpu_free(e->d_store);
    gpu_free(e->d_blob);
    pn_layout_free(old_lay);
    e->d_store = store;
    e->d_blob = blob;
    e->d_prog = prog;
    if (r != 0)
        return r;
    r = gpu_alloc(e, (void **)&e->d_slots, e->slot_cap * sizeof(uint64_t));
    if (r == 0)
        r = gpu_rebuild_table(e);
    if (r != 0)
        return r;
    GPU_TRY(e, cudaMemsetAsync(e->d_widen, 0, e->cn->n_places ? e->cn->n_places : 1,
                               e->stream));
    GPU_TRY(e, cudaMemsetAsync(&e->d_ctr->overflow, 0, sizeof(uint64_t), e->stream));
    e->need_widen = false;
    e->widenings++;
    r = gpu_upload_m0(e);
    return r != 0 ? r : gpu_sync(e);
}

static void gpu_report(gpu_engine *e, double now)
{
    const pn_engine_opts *o = e->o;
    if (o->progress == NULL || o->progress_interval_s <= 0 || now < e->next_progress)
        return;
    e->next_progress = now + o->progress_interval_s;
    pn_progress p;
    memset(&p, 0, sizeof p);
    p.states = e->count;
    p.edges = e->edges_done + e->level_edges;
    p.level = e->level;
    p.frontier = e->level_end - e->level_begin;
    p.seconds = now - e->t0;
    p.bytes = gpu_held(e);
    o->progress(o->progress_ctx, &p);
}

static int gpu_check_limits(gpu_engine *e)
{
    pn_status limit = pn_budget_status(e->o->budget);
    if (limit == PN_ERR_CANCELLED)
        return PN_RUN_CANCELLED;
    if (limit == PN_ERR_TIMEOUT)
        return PN_RUN_TIMEOUT;
    double now = pn_clock_now();
    gpu_report(e, now);
    return 0;
}

static int gpu_setup(gpu_engine *e)
{
    int dev = 0, sms = 0, per_sm = 0;
    GPU_TRY(e, cudaGetDevice(&dev));
    GPU_TRY(e, cudaDeviceGetAttribute(&e->cc_major, cudaDevAttrComputeCapabilityMajor, dev));
    GPU_TRY(e, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    GPU_TRY(e, cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    e->resident = (uint64_t)(sms > 0 ? sms : 1) * (uint64_t)(per_sm >= 256 ? per_sm : 256);
    GPU_TRY(e, cudaStreamCreateWithFlags(&e->stream, cudaStreamNonBlocking));
    e->have_stream = true;

    e->widen = (uint8_t *)calloc((size_t)e->cn->n_places + 1, 1);
    if (e->widen == NULL || pn_layout_initial_widths(e->cn, &e->widths, e->err) != PN_OK ||
        pn_layout_new(e->cn, e->widths, &e->lay, e->err) != PN_OK) {
        pn_fail(e->err, PN_ERR_NOMEM, "out of memory preparing the exploration");
        return GPU_FAILED;
    }
    e->compact = pn_engine_compact(e->o, gpu_words(e));
    if (cudaMallocHost((void **)&e->h_ctr, sizeof *e->h_ctr) != cudaSuccess) {
        e->h_ctr = NULL;
        (void)cudaGetLastError();
        pn_fail(e->err, PN_ERR_NOMEM, "out of pinned host memory for the GPU engine");
        return GPU_FAILED;
    }
    memset(e->h_ctr, 0, sizeof *e->h_ctr);
    int r = gpu_alloc(e, (void **)&e->d_ctr, sizeof *e->d_ctr);
    if (r == 0)
        r = gpu_alloc(e, (void **)&e->d_widen, (uint64_t)e->cn->n_places + 1);
    if (r == 0)
        r = gpu_upload_prog(e, &e->lay->prog, &e->d_blob, &e->d_prog);
    if (r == 0)
        r = gpu_ensure_scratch(e);
    if (r != 0)
        return r;
    GPU_TRY(e, cudaMemsetAsync(e->d_ctr, 0, sizeof *e->d_ctr, e->stream));
    GPU_TRY(e, cudaMemsetAsync(e->d_widen, 0, (size_t)e->cn->n_places + 1, e->stream));
    r = gpu_sync(e);
    if (r == 0)
        r = gpu_items_setup(e);
    if (r != 0)
        return r;

    /* The budget: what the caller allows, within what the device has free
     * now, less headroom. */
    size_t free_b = 0, total_b = 0;
    GPU_TRY(e, cudaMemGetInfo(&free_b, &total_b));
    uint64_t reserve = (uint64_t)total_b / 32;
    if (reserve < GPU_RESERVE_MIN)
        reserve = GPU_RESERVE_MIN;
    e->budget = free_b > reserve ? (uint64_t)free_b - reserve : 0;
    uint64_t allowed = pn_budget_memory(e->o->budget);
    if (allowed != 0 && allowed < e->budget)
        e->budget = allowed;
    return 0;
}

/* Stores the initial marking as level 0. */
static int gpu_seed(gpu_engine *e)
{
    int r = e->compact ? gpu_grow_compact(e, 1) : gpu_grow(e, 1);
    if (r != 0)
        return r;
    const uint32_t W = gpu_words(e);
    uint64_t *s = (uint64_t *)calloc(W, sizeof *s);
    if (s == NULL) {
        pn_fail(e->err, PN_ERR_NOMEM, "out of memory preparing the exploration");
        return GPU_FAILED;
    }
    pn_layout_pack(e->lay, e->cn->m0, s); /* the initial widths cover m0 */
    cudaError_t rc = cudaMemcpyAsync(e->d_store, s, W * sizeof *s, cudaMemcpyHostToDevice,
                                     e->stream);
    if (rc == cudaSuccess)
        rc = cudaStreamSynchronize(e->stream);
    const bool zero = W == 1 && s[0] == 0;
    free(s);
    if (rc != cudaSuccess)
        return gpu_cuda_fail(e, rc, "copying the initial marking", __LINE__);
    e->count = 1;
    e->h_ctr->count = 1;
    e->h_ctr->has_zero = zero;
    GPU_TRY(e, cudaMemcpyAsync(&e->d_ctr->count, &e->h_ctr->count, sizeof(uint64_t),
                               cudaMemcpyHostToDevice, e->stream));
    if (e->compact) { /* the window's state 0 goes into the table; zero has its flag */
        GPU_TRY(e, cudaMemcpyAsync(&e->d_ctr->has_zero, &e->h_ctr->has_zero, sizeof(uint64_t),
                                   cudaMemcpyHostToDevice, e->stream));
        pn_ctable t = {e->d_slots, e->slot_cap, &e->d_ctr->has_zero};
        gpu_kernels_rehash_compact(&t, e->d_store, 1, 1, e->stream);
        r = gpu_sync(e);
    } else {
        r = gpu_rebuild_table(e);
    }
    if (r != 0)
        return r;
    e->level_begin = 0;
    e->level_end = 1;
    e->cursor = 0;
    return 0;
}

static int gpu_next_level(gpu_engine *e)
{
    e->edges_done += e->level_edges;
    int r = gpu_reset_level_edges(e);
    if (r == 0 && e->compact)
        r = gpu_slide_window(e, e->level_end);
    e->level_begin = e->level_end;
    e->level_end = e->count;
    e->cursor = e->level_begin;
    if (e->level_begin != e->level_end)
        e->level++;
    return r;
}

static int gpu_run(gpu_engine *e)
{
    for (;;) {
        int r = gpu_check_limits(e);
        if (r != 0)
            return r;
        if (e->cursor >= e->level_end) {
            if (e->need_widen) {
                r = gpu_widen(e);
                if (r == 0)
                    r = gpu_reset_level_edges(e);
                if (r != 0)
                    return r;
                e->cursor = e->level_begin;
                continue;
            }
            r = gpu_next_level(e);
            if (r != 0)
                return r;
            if (e->level_begin == e->level_end)
                return 0;
        }
        uint64_t n = 0;
        r = gpu_plan(e, &n);
        if (r == 0)
            r = gpu_launch_expand(e, e->cursor, e->cursor + n);
        if (r == 0)
            r = gpu_read_counters(e);
        if (r == 0)
            r = gpu_items_poll(e, false);
        if (r != 0)
            return r;
        e->cursor += n;
        if (e->all_decided)
            return PN_RUN_STOPPED;
    }
}

/* Copies the BFS tree to host memory for the result. */
static int gpu_take_tree(gpu_engine *e, pn_engine_result *res)
{
    if (!e->o->keep_parents || e->count == 0 || e->d_parent == NULL)
        return 0;
    uint64_t *parent = (uint64_t *)malloc(e->count * sizeof *parent);
    uint32_t *via = (uint32_t *)malloc(e->count * sizeof *via);
    if (parent == NULL || via == NULL) {
        free(parent);
        free(via);
        pn_fail(e->err, PN_ERR_NOMEM, "out of host memory for the BFS tree");
        return GPU_FAILED;
    }
    cudaError_t rc = cudaMemcpyAsync(parent, e->d_parent, e->count * sizeof *parent,
                                     cudaMemcpyDeviceToHost, e->stream);
    if (rc == cudaSuccess)
        rc = cudaMemcpyAsync(via, e->d_via, e->count * sizeof *via, cudaMemcpyDeviceToHost,
                             e->stream);
    if (rc == cudaSuccess)
        rc = cudaStreamSynchronize(e->stream);
    if (rc != cudaSuccess) {
        free(parent);
        free(via);
        return gpu_cuda_fail(e, rc, "copying the BFS tree back", __LINE__);
    }
    parent[0] = 0; /* the root's entries are never written */
    via[0] = 0;
    res->parent = parent;
    res->via = via;
    return 0;
}

static void gpu_release(gpu_engine *e)
{
    gpu_free(e->d_store);
    gpu_free(e->d_slots);
    gpu_free(e->d_parent);
    gpu_free(e->d_via);
    gpu_free(e->d_widen);
    gpu_free(e->d_ctr);
    gpu_free(e->d_scratch);
    gpu_free(e->d_blob);
    gpu_free(e->d_m0);
    gpu_items_free(&e->dev);
    free(e->items);
    if (e->h_ctr != NULL)
        (void)cudaFreeHost(e->h_ctr);
    if (e->have_stream)
        (void)cudaStreamDestroy(e->stream);
    pn_layout_free(e->lay);
    free(e->widths);
    free(e->widen);
}

/* pn_gpu_explore once a device is known to be there. */
GPU_ENTRY pn_status gpu_explore_impl(const pn_cnet *cn, const pn_engine_opts *opts,
                                  pn_engine_result *res, pn_error *err)
{
    memset(res, 0, sizeof *res);
    if (opts->visitor != NULL && opts->check == NULL)
        return pn_fail(err, PN_ERR_UNSUPPORTED,
                       "the GPU engine cannot run a host state visitor (it evaluates the "
                       "items of a check, opts->check): use the CPU engine");
    if (opts->record_graph || opts->keep_states)
        return pn_fail(err, PN_ERR_UNSUPPORTED,
                       "the GPU engine does not record the state graph (CTL, LTL, Liveness): "
                       "use the CPU engine");
    gpu_engine e;
    memset(&e, 0, sizeof e);
    e.cn = cn;
    e.o = opts;
    e.err = err;
    e.t0 = pn_clock_now();
    e.next_progress = e.t0 + opts->progress_interval_s;
    int r = gpu_setup(&e);
    if (r == 0)
        r = gpu_seed(&e);
    if (r == 0)
        r = gpu_run(&e);
    if (r >= 0) /* the maxima and flags of the run, decided or not */
        r = gpu_items_poll(&e, true) < 0 ? GPU_FAILED : r;
    if (r >= 0)
        r = gpu_take_tree(&e, res) < 0 ? GPU_FAILED : r;
    pn_status st = PN_OK;
    if (r < 0) {
        st = err != NULL && err->code != PN_OK ? err->code : PN_ERR_INTERNAL;
    } else {
        res->status = (pn_run_status)r;
        res->states = e.count;
        res->edges = e.edges_done + e.level_edges;
        res->max_tokens_place = e.max_place;
        res->max_tokens_marking = e.max_marking;
        res->levels = e.level;
        res->restarts = e.widenings;
        res->state_words = e.lay != NULL ? gpu_words(&e) : 0;
        res->threads = e.max_threads > UINT32_MAX ? UINT32_MAX
                       : e.max_threads != 0        ? (uint32_t)e.max_threads
                                                   : 1;
        res->bytes = gpu_held(&e);
        res->compact = e.compact;
    }
    if (st != PN_OK)
        pn_engine_result_free(res);
    gpu_release(&e);
    res->seconds = pn_clock_now() - e.t0;
    return st;
}

/* ---- the API (real builds only) ------------------------------------------- */

#ifndef PN_GPU_EMULATE

static char gpu_why[256];
static bool gpu_ok;
static std::once_flag gpu_probe_once;

static void gpu_probe(void)
{
    int n = 0;
    cudaError_t rc = cudaGetDeviceCount(&n);
    if (rc == cudaErrorNoDevice || (rc == cudaSuccess && n == 0)) {
        snprintf(gpu_why, sizeof gpu_why, "no CUDA device found");
        return;
    }
    if (rc == cudaErrorInsufficientDriver || rc == cudaErrorNotPermitted ||
        rc == cudaErrorCompatNotSupportedOnDevice || rc == cudaErrorSystemDriverMismatch) {
        snprintf(gpu_why, sizeof gpu_why, "CUDA driver too old or missing: %s",
                 cudaGetErrorString(rc));
        return;
    }
    if (rc != cudaSuccess) {
        snprintf(gpu_why, sizeof gpu_why, "CUDA runtime cannot start: %s",
                 cudaGetErrorString(rc));
        return;
    }
    int dev = 0;
    cudaDeviceProp prop;
    rc = cudaGetDevice(&dev);
    if (rc == cudaSuccess)
        rc = cudaGetDeviceProperties(&prop, dev);
    if (rc != cudaSuccess) {
        snprintf(gpu_why, sizeof gpu_why, "cannot query CUDA device %d: %s", dev,
                 cudaGetErrorString(rc));
        return;
    }
    if (prop.major < 8) {
        snprintf(gpu_why, sizeof gpu_why,
                 "CUDA device %d (%s) has compute capability %d.%d; this build has code for "
                 "8.0 and newer only",
                 dev, prop.name, prop.major, prop.minor);
        return;
    }
    /* The real test: is there code this device can run? */
    rc = gpu_kernels_probe();
    if (rc != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(gpu_why, sizeof gpu_why, "no kernel image for CUDA device %d (%s, %d.%d): %s",
                 dev, prop.name, prop.major, prop.minor, cudaGetErrorString(rc));
        return;
    }
    gpu_ok = true;
}

extern "C" bool pn_gpu_available(char *why, size_t len)
{
    std::call_once(gpu_probe_once, gpu_probe);
    if (!gpu_ok && why != NULL && len > 0)
        snprintf(why, len, "%s", gpu_why);
    return gpu_ok;
}

extern "C" pn_status pn_gpu_explore(const pn_cnet *cn, const pn_engine_opts *opts,
                                    pn_engine_result *res, pn_error *err)
{
    if (res != NULL)
        memset(res, 0, sizeof *res);
    if (cn == NULL || opts == NULL || res == NULL)
        return pn_fail(err, PN_ERR_INTERNAL, "pn_gpu_explore: a required argument is NULL");
    char why[256];
    if (!pn_gpu_available(why, sizeof why))
        return pn_fail(err, PN_ERR_UNSUPPORTED, "no usable GPU: %s", why);
    return gpu_explore_impl(cn, opts, res, err);
}

#endif
