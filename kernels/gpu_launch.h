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

#include "petrel/error.h"
#include "pn_expand.h"
#include "pn_items.h"

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
/* Walks at once: fewer than the emulated device's resident threads, so
 * that a walk test runs a few hundred thousand steps, not millions. */
#define GPU_WALKS_MAX 128ULL
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
/* Walks at once at most: one per resident thread. */
#define GPU_WALKS_MAX UINT64_MAX
/* pn_expand.h's PN_EXPAND_BATCH as device code sees it (checked there):
 * this host code sees the CPU's value. */
#define GPU_BATCH 1
#endif

#define GPU_MIN_SLOTS 1024ULL

/* ---- launch policy (CUB's tuning policies): the one place that says how
 * each kernel is launched. `block`: threads per block (at most GPU_BLOCK,
 * which the kernels' __launch_bounds__ promise); `per_thread`: work items a
 * resident thread gets per launch at most (states for the BFS, steps for a
 * walk), which sets the launch size and so how often the host polls. The
 * values are first guesses: no device has run them yet (docs/gpu.md has
 * the plan that will tune them, per architecture, on hardware). */
#define GPU_BLOCK 256u

typedef enum gpu_kernel_kind {
    GPU_K_EXPAND,   /* the BFS expansion (gpu_expand_kernel) */
    GPU_K_REHASH,   /* table rebuilds (id and compact table) */
    GPU_K_REPACK,   /* widening */
    GPU_K_WALK,     /* random walks (gpu_walk_kernel) */
    GPU_K_COUNT
} gpu_kernel_kind;

typedef struct gpu_policy {
    uint32_t block;
    uint32_t per_thread;
} gpu_policy;

/* Indexed by major compute capability >= 9 (sm_90 and later) or not
 * (sm_80 family), then by kernel. */
static const gpu_policy gpu_policies[2][GPU_K_COUNT] = {
    /* sm_80 */ {{256, 4}, {256, 8}, {256, 8}, {128, 64}},
    /* sm_90 */ {{256, 4}, {256, 8}, {256, 8}, {128, 64}},
};

static inline gpu_policy gpu_policy_for(int cc_major, gpu_kernel_kind k)
{
    return gpu_policies[cc_major >= 9 ? 1 : 0][k];
}

/* States per launch at most: the expansion's per-thread share of the
 * resident threads, and never more than this (1 M states). */
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
    uint64_t decided;     /* items that got a witness (pn_items_view) */
    uint64_t n_seen;      /* QuasiLiveness: transitions seen enabled */
    uint64_t n_moved;     /* StableMarking: places seen off m0 */
    uint64_t has_zero;    /* compact table: the all-zero marking is in */
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
    pn_items_view items;  /* the check's items (n == 0 and no tracking: none) */
} gpu_args;

/* A launch of random walks (gpu_walk_kernel): each thread continues its
 * own walk for `steps` steps, from the state it left in `walk`. */
typedef struct gpu_walk_args {
    pn_prog g;
    pn_items_view items;
    const uint64_t *m0;   /* packed initial marking */
    uint64_t *state;      /* per walk: words, the current marking */
    uint64_t *rng;        /* per walk: xorshift64 state (never 0) */
    uint64_t *step;       /* per walk: steps since its last restart */
    uint64_t walks, steps, max_steps;
    uint8_t *widen;       /* per place: overflowed (the host widens) */
    gpu_counters *ctr;    /* overflow */
} gpu_walk_args;


/* GPU_GLUE: functions shared between the .cu files; GPU_ENTRY: the
 * drivers' entries behind the API (the tests call them in emulation, where
 * a test file need not use every one). */
#ifdef PN_GPU_EMULATE
#define GPU_GLUE static __attribute__((unused))
#define GPU_ENTRY static __attribute__((unused))
#else
#define GPU_GLUE
#define GPU_ENTRY static
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
/* Inserts the keys of the compact table old[0 .. n_old) into t's. */
GPU_GLUE void gpu_kernels_rehash_compact(const pn_ctable *t, const uint64_t *old, uint64_t n_old,
                                         uint64_t blocks, cudaStream_t stream);
/* One launch of random walks (`blocks` blocks of policy block size). */
GPU_GLUE void gpu_kernels_walk(const gpu_walk_args *a, uint64_t blocks, uint32_t block,
                               cudaStream_t stream);
/* Repacks states [0, count) from layout `from` (src) into `to` (dst). */
GPU_GLUE void gpu_kernels_repack(const pn_prog *from, const pn_prog *to, const uint64_t *src,
                                 uint64_t *dst, uint64_t count, uint64_t blocks,
                                 cudaStream_t stream);
/* ---- device memory and errors (gpu_device.cu) ------------------------------ */

/* What the glue returns besides 0: running out of device memory, an outcome
 * (the driver ends the run with PN_RUN_OUT_OF_MEMORY, the same value: it
 * checks so, since the kernels know nothing of the engines), or a hard
 * failure, described in the caller's pn_error. */
#define GPU_OUT_OF_MEMORY 2
#define GPU_FAILED (-1)

/* Writes "CUDA error in the GPU engine (file:line, what): why" into err. */
GPU_GLUE int gpu_dev_fail(pn_error *err, cudaError_t rc, const char *what, const char *file,
                          int line);
/* Device allocation: 0, GPU_OUT_OF_MEMORY (running out is an outcome,
 * not an error) or GPU_FAILED. *p is NULL unless 0. */
GPU_GLUE int gpu_dev_alloc(pn_error *err, void **p, uint64_t bytes);
GPU_GLUE void gpu_dev_free(void *p);
/* Copies `bytes` from host to a new device block *p (0, OOM or FAILED). */
GPU_GLUE int gpu_dev_upload(pn_error *err, void **p, const void *src, uint64_t bytes,
                            cudaStream_t stream);
/* Copies the net program h's arrays into one new device block *blob; *d
 * gets h with its pointers into that block. */
GPU_GLUE int gpu_dev_upload_prog(pn_error *err, const pn_prog *h, void **blob, pn_prog *d,
                                 cudaStream_t stream);

/* ---- the check's items on the device (gpu_items.cu) ------------------------- */

typedef struct gpu_items {
    pn_item *item;            /* host copy of the items, device pointers inside */
    uint32_t n;
    uint32_t n_local;
    uint32_t n_trans, n_places;
    bool quasi, stable;
    void *d_blob;             /* items, their programs, lists and places */
    pn_item_found *d_found, *h_found;
    uint32_t *d_seen, *d_moved, *h_seen, *h_moved;
} gpu_items;

/* Uploads items[0 .. n) (host pointers; quasi / stable: the per-transition
 * and per-place flags are wanted) with every item undecided. */
GPU_GLUE int gpu_items_upload(gpu_items *d, const pn_item *items, uint32_t n, bool quasi,
                              bool stable, uint32_t n_trans, uint32_t n_places,
                              cudaStream_t stream, pn_error *err);
/* The kernels' view; ctr holds the decided / seen / moved counters. */
GPU_GLUE pn_items_view gpu_items_view(const gpu_items *d, gpu_counters *ctr, const uint64_t *m0);
/* Copies the items' findings to h_found (and h_seen / h_moved with flags). */
GPU_GLUE int gpu_items_read(gpu_items *d, bool flags, cudaStream_t stream, pn_error *err);
GPU_GLUE void gpu_items_free(gpu_items *d);

#ifndef PN_GPU_EMULATE
/* cudaSuccess when this device can run the build's kernels. */
cudaError_t gpu_kernels_probe(void);
#endif

#endif
