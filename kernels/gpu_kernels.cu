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

/* Expands the states [a.begin, a.end), grid-stride. MAXW > 0: successor
 * scratch in a local array (states of at most MAXW words); MAXW == 0: in
 * a.scratch, a.g.words * GPU_BATCH per thread of the grid. */
template <uint32_t MAXW>
GPU_KERNEL void GPU_BOUNDS(GPU_BLOCK) gpu_expand_kernel(const GPU_GRID_CONST gpu_args a)
{
#if defined(__CUDA_ARCH__) || defined(PN_GPU_EMULATE)
    static_assert(PN_EXPAND_BATCH == GPU_BATCH, "the host sizes the scratch for GPU_BATCH");
#endif
    uint64_t local[MAXW ? MAXW * GPU_BATCH : 1];
    const uint64_t tid = GPU_THREAD_ID(), stride = GPU_THREAD_COUNT();
    pn_expand_scratch scratch;
    scratch.succ = MAXW ? local : a.scratch + tid * a.g.words * GPU_BATCH;
    scratch.outbox = 0; /* one process: every successor is stored here */
    uint64_t edges = 0, max_place = 0, max_marking = 0;
    for (uint64_t id = a.begin + tid; id < a.end; id += stride) {
        pn_expand_out out;
        pn_expand_state(&a.g, &a.v, &a.tree, id, &scratch, &out);
        if (out.overflow_place != 0) {
            a.widen[out.overflow_place - 1] = 1;
            a.ctr->overflow = 1;
        }
        edges += out.enabled;
        gpu_tokens(&a.g, a.v.store + id * a.g.words, &max_place, &max_marking);
    }
    gpu_flush(a.ctr, edges, max_place, max_marking);
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

GPU_GLUE cudaError_t gpu_kernels_expand(const gpu_args *a, uint32_t maxw, uint64_t blocks,
                                        cudaStream_t stream)
{
    switch (maxw) {
    case 2:
        GPU_LAUNCH(gpu_expand_kernel<2>, blocks, GPU_BLOCK, stream, *a);
        return cudaSuccess;
    case 8:
        GPU_LAUNCH(gpu_expand_kernel<8>, blocks, GPU_BLOCK, stream, *a);
        return cudaSuccess;
    case 32:
        GPU_LAUNCH(gpu_expand_kernel<32>, blocks, GPU_BLOCK, stream, *a);
        return cudaSuccess;
    case 128:
        GPU_LAUNCH(gpu_expand_kernel<128>, blocks, GPU_BLOCK, stream, *a);
        return cudaSuccess;
    case 0:
        GPU_LAUNCH(gpu_expand_kernel<0>, blocks, GPU_BLOCK, stream, *a);
        return cudaSuccess;
    default:
        return cudaErrorInvalidValue;
    }
}

GPU_GLUE void gpu_kernels_rehash(const pn_table_view *v, uint64_t begin, uint64_t end,
                                 uint64_t blocks, cudaStream_t stream)
{
    GPU_LAUNCH(gpu_rehash_kernel, blocks, GPU_BLOCK, stream, *v, begin, end);
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
    return cudaFuncGetAttributes(&attr, gpu_expand_kernel<2>);
}
#endif
