/* Where the GPU engine's two halves meet (CUB's layering): gpu_kernels.cu
 * holds the kernels and the functions that launch them, gpu_engine.cu the
 * BFS driver and the memory planning that call those functions. Both see
 * here the build mode (CUDA, or the host emulation of gpu_emu.cuh), the
 * launch constants, the device counters and the kernels' arguments. The
 * per-state code is kernels/pn_expand.h (the CPU engine's too), the per-warp
 * code kernels/gpu_warp.h. Private to kernels/.
 *
 * With PN_GPU_EMULATE both .cu files compile as plain C++ in one
 * translation unit (gpu_kernels.cu first), every kernel thread run in turn
 * on the host. */
#ifndef PETREL_GPU_LAUNCH_H
#define PETREL_GPU_LAUNCH_H

#include <stdint.h>

#include "pn_expand.h"

#ifdef PN_GPU_EMULATE
#include "gpu_emu.cuh"
#define GPU_KERNEL static
#define GPU_DEVICE static inline
#define GPU_GRID_CONST
#define GPU_BOUNDS(n)
/* Tests lower these to reach the generic kernel and the budget paths. */
static uint32_t gpu_emu_local_max = 128;
#define GPU_LOCAL_MAX gpu_emu_local_max
static uint64_t gpu_emu_reserve_min = 0;
#define GPU_RESERVE_MIN gpu_emu_reserve_min
#define GPU_HEADROOM_BYTES (256ULL << 10)
/* Successors a thread buffers before inserting (kernels/pn_expand.h): the
 * emulation runs the host's batched variant. */
#define GPU_BATCH PN_EXPAND_BATCH
#else
#include <cuda_runtime.h>

#define GPU_KERNEL __global__
#define GPU_DEVICE static __device__ __forceinline__
#define GPU_GRID_CONST __grid_constant__
#define GPU_BOUNDS(n) __launch_bounds__(n)
#define GPU_THREAD_ID() ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x)
#define GPU_THREAD_COUNT() ((uint64_t)gridDim.x * blockDim.x)
#define GPU_LAUNCH(kernel, blocks, threads, stream, ...)                                   \
    kernel<<<(unsigned)(blocks), (unsigned)(threads), 0, (stream)>>>(__VA_ARGS__)
#define GPU_LOCAL_MAX 128u
/* Device memory left to the runtime, the driver's local-memory reservation
 * for resident threads (up to 1 KB each here) and other processes. */
#define GPU_RESERVE_MIN (512ULL << 20)
/* How far ahead of the states stored the store is grown at least: launches
 * of many states on nets with many transitions need n * T free slots. */
#define GPU_HEADROOM_BYTES (256ULL << 20)
/* pn_expand.h's PN_EXPAND_BATCH as device code sees it (checked there):
 * this host code sees the CPU's value. */
#define GPU_BATCH 1
#endif

#define GPU_BLOCK 256u
#define GPU_MIN_SLOTS 1024ULL
/* States per launch at most: a few per resident thread (270K on an H100). */
#define GPU_LAUNCH_MAX (1ULL << 20)
/* Per-thread successor scratch of the generic kernel (states wider than
 * GPU_LOCAL_MAX words), in device memory. */
#define GPU_SCRATCH_BYTES (256ULL << 20)

/* Device counters, read back after every launch in one copy. */
typedef struct gpu_counters {
    uint64_t count;       /* ids handed out: the table's count */
    uint64_t edges;       /* enabled transitions found in the current level */
    uint64_t max_place;   /* over every expanded state */
    uint64_t max_marking;
    uint64_t overflow;    /* non-zero: a successor overflowed a field */
} gpu_counters;

/* A kernel's arguments: passed by value, read in place (grid constant). */
typedef struct gpu_args {
    pn_prog g;            /* device pointers */
    pn_table_view v;
    pn_tree_view tree;
    uint64_t begin, end;  /* state ids to expand */
    gpu_counters *ctr;
    uint8_t *widen;       /* per place: overflowed */
    uint64_t *scratch;    /* generic kernel: words per thread */
} gpu_args;


#ifdef PN_GPU_EMULATE
#define GPU_GLUE static
#else
#define GPU_GLUE
#endif

/* ---- launch glue (gpu_kernels.cu) ------------------------------------------ */

/* Expands the states [a->begin, a->end) with `blocks` blocks of GPU_BLOCK
 * threads. maxw: the kernel's local successor scratch in words per state,
 * 2, 8, 32 or 128 (at most GPU_LOCAL_MAX), or 0 for scratch in a->scratch;
 * cudaErrorInvalidValue for any other. Launch errors: cudaGetLastError. */
GPU_GLUE cudaError_t gpu_kernels_expand(const gpu_args *a, uint32_t maxw, uint64_t blocks,
                                        cudaStream_t stream);
/* Inserts the stored states [begin, end) into v's empty table. */
GPU_GLUE void gpu_kernels_rehash(const pn_table_view *v, uint64_t begin, uint64_t end,
                                 uint64_t blocks, cudaStream_t stream);
/* Repacks states [0, count) from layout `from` (src) into `to` (dst). */
GPU_GLUE void gpu_kernels_repack(const pn_prog *from, const pn_prog *to, const uint64_t *src,
                                 uint64_t *dst, uint64_t count, uint64_t blocks,
                                 cudaStream_t stream);
#ifndef PN_GPU_EMULATE
/* cudaSuccess when this device can run the build's kernels. */
cudaError_t gpu_kernels_probe(void);
#endif

#endif
