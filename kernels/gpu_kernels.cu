/* The CUDA engine's kernels and the functions that launch them
 * (kernels/gpu_launch.h; the driver is gpu_engine.cu). A launch runs a
 * grid-stride loop in which each thread expands states with
 * pn_expand_state (kernels/pn_expand.h: the very function the CPU engine's
 * threads run), then reads the state's token counts for the StateSpace
 * maxima; edges and maxima are combined across the warp (gpu_warp.h) and
 * added to the device counters with one atomic per warp. Rehashing and
 * repacking after a widening are kernels too. */
#include "gpu_launch.h"
#include "gpu_warp.h"
#include "pn_walk.h"

/* Expands the states [a.begin, a.end), grid-stride. MAXW > 0: successor
 * scratch in a local array (states of at most MAXW words); MAXW == 0: in
 * a.scratch, a.g.words * GPU_BATCH per thread of the grid. ITEMS: the
 * check's items are evaluated on every expanded state (a StateSpace run
 * gets the variant without their registers and local array). */
template <uint32_t MAXW, bool ITEMS>
GPU_KERNEL void GPU_BOUNDS(GPU_BLOCK) gpu_expand_kernel(const GPU_GRID_CONST gpu_args a)
{
#if defined(__CUDA_ARCH__) || defined(PN_GPU_EMULATE)
    static_assert(PN_EXPAND_BATCH == GPU_BATCH, "the host sizes the scratch for GPU_BATCH");
#endif
    uint64_t local[MAXW ? MAXW * GPU_BATCH : 1];
    const uint64_t tid = GPU_THREAD_ID(), stride = GPU_THREAD_COUNT();
    pn_expand_scratch scratch;
    scratch.succ = MAXW ? local : a.scratch + tid * a.g.words * GPU_BATCH;
    uint64_t edges = 0, max_place = 0, max_marking = 0;
    uint64_t bounds[ITEMS ? PN_ITEMS_LOCAL : 1];
    for (uint32_t k = 0; ITEMS && k < a.items.n_local; k++)
        bounds[k] = 0;
    for (uint64_t id = a.begin + tid; id < a.end; id += stride) {
        pn_expand_out out;
        pn_expand_state(&a.g, &a.v, &a.tree, id, &scratch, &out);
        if (out.overflow_place != 0) {
            a.widen[out.overflow_place - 1] = 1;
            a.ctr->overflow = 1;
        }
        edges += out.enabled;
        /* Compact table: the store is the window of ids from v.base. */
        const uint64_t *s = a.v.store + (id - a.v.base) * a.g.words;
        gpu_tokens(&a.g, s, &max_place, &max_marking);
        if (ITEMS)
            pn_items_state(&a.items, &a.g, s, id, out.enabled, bounds);
    }
    gpu_flush(a.ctr, edges, max_place, max_marking);
    if (ITEMS)
        gpu_flush_bounds(&a.items, bounds);
}

/* Random walks: thread w continues walk w for a.steps steps. Each state met
 * is shown to the items (its walk index stands for the witness: walks keep
 * no ids); a deadlock or a.max_steps steps restart the walk from m0, and so
 * does an overflow, after flagging the place for the host to widen. */
GPU_KERNEL void GPU_BOUNDS(GPU_BLOCK) gpu_walk_kernel(const GPU_GRID_CONST gpu_walk_args a)
{
    uint64_t bounds[PN_ITEMS_LOCAL];
    for (uint32_t k = 0; k < a.items.n_local; k++)
        bounds[k] = 0;
    const uint64_t w = GPU_THREAD_ID();
    if (w < a.walks) { /* no return: every lane reaches the warp reduction */
        uint64_t *s = a.state + w * a.g.words, rng = a.rng[w], step = a.step[w];
        for (uint64_t i = 0; i < a.steps; i++) {
            uint32_t n = pn_walk_scan(&a.g, s, UINT32_MAX);
            pn_items_state(&a.items, &a.g, s, w, n, bounds);
            uint32_t of = 0;
            if (n != 0 && step < a.max_steps) {
                uint32_t t = pn_walk_scan(&a.g, s, (uint32_t)(pn_walk_rand(&rng) % n));
                of = pn_state_fire(&a.g, s, t, s); /* in place: s is lost on overflow */
                step++;
                if (of == 0)
                    continue;
                a.widen[a.g.inc[of - 1].place] = 1;
                a.ctr->overflow = 1;
            }
            for (uint32_t k = 0; k < a.g.words; k++)
                s[k] = a.m0[k];
            step = 0;
        }
        a.rng[w] = rng;
        a.step[w] = step;
    }
    gpu_flush_bounds(&a.items, bounds);
}

/* Moves the keys of a compact table old[0 .. n_old) into the grown table t
 * (keys are distinct: an insert is one CAS on an empty slot). */
GPU_KERNEL void gpu_rehash_compact_kernel(const pn_ctable t, const uint64_t *old, uint64_t n_old)
{
    const uint64_t stride = GPU_THREAD_COUNT();
    for (uint64_t i = GPU_THREAD_ID(); i < n_old; i += stride) {
        uint64_t s = old[i];
        if (s != 0)
            pn_ctable_insert(&t, s, pn_state_hash(&s, 1));
    }
}

/* Inserts the stored states [begin, end) into an empty table: the
 * concurrent form of pn_table_reinsert (ids are distinct, so claiming an
 * empty slot is all there is to it). */
GPU_KERNEL void gpu_rehash_kernel(const pn_table_view v, uint64_t begin, uint64_t end)
{
    const uint64_t stride = GPU_THREAD_COUNT();
    for (uint64_t id = begin + GPU_THREAD_ID(); id < end; id += stride) {
        uint64_t h = pn_state_hash(v.store + id * v.words, v.words);
        uint64_t tag = (h >> PN_SLOT_ID_BITS) << PN_SLOT_ID_BITS;
        for (uint64_t i = h & v.slot_mask;; i = (i + 1) & v.slot_mask)
            if (pn_atomic_cas_u64(&v.slots[i], 0, tag | (id + 1)))
                break;
    }
}

/* Copies states [0, count) from layout `from` into the wider layout `to`
 * (every field at least as wide): reads the non-zero fields only. */
GPU_KERNEL void gpu_repack_kernel(const GPU_GRID_CONST pn_prog from,
                                  const GPU_GRID_CONST pn_prog to, const uint64_t *src,
                                  uint64_t *dst, uint64_t count)
{
    const uint64_t stride = GPU_THREAD_COUNT();
    for (uint64_t id = GPU_THREAD_ID(); id < count; id += stride) {
        pn_state_repack(&from, &to, src + id * from.words, dst + id * to.words);
    }
}

/* ---- launch glue ---------------------------------------------------------- */

#define GPU_EXPAND_CASE(W)                                                                 \
    case W:                                                                                \
        if (items)                                                                         \
            GPU_LAUNCH((gpu_expand_kernel<W, true>), blocks, GPU_BLOCK, stream, *a);       \
        else                                                                               \
            GPU_LAUNCH((gpu_expand_kernel<W, false>), blocks, GPU_BLOCK, stream, *a);      \
        return cudaSuccess

GPU_GLUE cudaError_t gpu_kernels_expand(const gpu_args *a, uint32_t maxw, uint64_t blocks,
                                        cudaStream_t stream)
{
    const bool items = a->items.n != 0 || a->items.track_quasi || a->items.track_stable;
    switch (maxw) {
        GPU_EXPAND_CASE(2);
        GPU_EXPAND_CASE(8);
        GPU_EXPAND_CASE(32);
        GPU_EXPAND_CASE(128);
        GPU_EXPAND_CASE(0);
    default: return cudaErrorInvalidValue;
    }
}

GPU_GLUE void gpu_kernels_rehash(const pn_table_view *v, uint64_t begin, uint64_t end,
                                 uint64_t blocks, cudaStream_t stream)
{
    GPU_LAUNCH(gpu_rehash_kernel, blocks, GPU_BLOCK, stream, *v, begin, end);
}

GPU_GLUE void gpu_kernels_rehash_compact(const pn_ctable *t, const uint64_t *old, uint64_t n_old,
                                         uint64_t blocks, cudaStream_t stream)
{
    GPU_LAUNCH(gpu_rehash_compact_kernel, blocks, GPU_BLOCK, stream, *t, old, n_old);
}

GPU_GLUE void gpu_kernels_walk(const gpu_walk_args *a, uint64_t blocks, uint32_t block,
                               cudaStream_t stream)
{
    GPU_LAUNCH(gpu_walk_kernel, blocks, block, stream, *a);
}

GPU_GLUE void gpu_kernels_repack(const pn_prog *from, const pn_prog *to, const uint64_t *src,
                                 uint64_t *dst, uint64_t count, uint64_t blocks,
                                 cudaStream_t stream)
{
    GPU_LAUNCH(gpu_repack_kernel, blocks, GPU_BLOCK, stream, *from, *to, src, dst, count);
}

#ifndef PN_GPU_EMULATE
cudaError_t gpu_kernels_probe(void)
{
    cudaFuncAttributes attr;
    return cudaFuncGetAttributes(&attr, gpu_expand_kernel<2, false>);
}
#endif
