/* A host-only stand-in for the few CUDA runtime calls and kernel launch that
 * kernels/gpu_engine.cu uses, so that its host glue and its kernel bodies can
 * run, one emulated thread after another, on a machine without a GPU:
 * tests/test_gpu.cpp includes gpu_engine.cu with PN_GPU_EMULATE defined and
 * checks it against pn_explore. Never part of the real build.
 *
 * Device memory is host memory counted against gpu_emu_limit, so tests can
 * give the "device" little memory; memcpy and memset are synchronous, and a
 * launch runs every thread of the grid in order. What this cannot show:
 * races between real threads, the warp-level reduction (the emulated kernel
 * does one atomic per thread instead), device performance. */
#ifndef PETREL_GPU_EMU_CUH
#define PETREL_GPU_EMU_CUH

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline

typedef int cudaError_t;
enum {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInsufficientDriver = 35,
    cudaErrorNoDevice = 100
};
enum { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
enum { cudaStreamNonBlocking = 1 };
enum {
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrComputeCapabilityMajor = 75
};
typedef struct gpu_emu_stream *cudaStream_t;

/* Emulated device memory: in use now, and the most there is. */
static size_t gpu_emu_used;
static size_t gpu_emu_limit = (size_t)1 << 30;
static size_t gpu_emu_peak;
/* The next cudaMalloc calls to fail (0: none), for error-path tests. */
static unsigned gpu_emu_fail_after;

struct gpu_emu_block {
    size_t size;
    size_t pad_; /* keeps the payload 16-byte aligned */
};

static inline const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    default: return "unknown error";
    }
}

static inline cudaError_t cudaGetLastError(void) { return cudaSuccess; }

static inline cudaError_t cudaMalloc(void **p, size_t n)
{
    *p = NULL;
    if (gpu_emu_fail_after != 0 && --gpu_emu_fail_after == 0)
        return cudaErrorMemoryAllocation;
    if (n > gpu_emu_limit - gpu_emu_used)
        return cudaErrorMemoryAllocation;
    gpu_emu_block *b = (gpu_emu_block *)malloc(sizeof(gpu_emu_block) + (n ? n : 1));
    if (b == NULL)
        return cudaErrorMemoryAllocation;
    b->size = n;
    gpu_emu_used += n;
    if (gpu_emu_used > gpu_emu_peak)
        gpu_emu_peak = gpu_emu_used;
    /* Garbage, as cudaMalloc gives: the engine must initialise what it reads. */
    memset(b + 1, 0xa5, n);
    *p = b + 1;
    return cudaSuccess;
}

static inline cudaError_t cudaFree(void *p)
{
    if (p == NULL)
        return cudaSuccess;
    gpu_emu_block *b = (gpu_emu_block *)p - 1;
    gpu_emu_used -= b->size;
    free(b);
    return cudaSuccess;
}

static inline cudaError_t cudaMallocHost(void **p, size_t n)
{
    *p = malloc(n ? n : 1);
    return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}

static inline cudaError_t cudaFreeHost(void *p)
{
    free(p);
    return cudaSuccess;
}

static inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind,
                                          cudaStream_t s)
{
    (void)kind;
    (void)s;
    if (n != 0)
        memcpy(dst, src, n);
    return cudaSuccess;
}

static inline cudaError_t cudaMemsetAsync(void *dst, int v, size_t n, cudaStream_t s)
{
    (void)s;
    if (n != 0)
        memset(dst, v, n);
    return cudaSuccess;
}

static inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    (void)flags;
    static int token;
    *s = (cudaStream_t)(void *)&token;
    return cudaSuccess;
}

static inline cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    (void)s;
    return cudaSuccess;
}

static inline cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    (void)s;
    return cudaSuccess;
}

static inline cudaError_t cudaGetDevice(int *d)
{
    *d = 0;
    return cudaSuccess;
}

static inline cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev)
{
    (void)dev;
    /* A small "device": grids of a few blocks, so that emulated launches
     * cover several states per thread (the grid-stride loops). */
    *v = attr == cudaDevAttrMultiProcessorCount       ? 2
         : attr == cudaDevAttrComputeCapabilityMajor ? 9
                                                     : 512;
    return cudaSuccess;
}

static inline cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total)
{
    *free_b = gpu_emu_limit - gpu_emu_used;
    *total = gpu_emu_limit;
    return cudaSuccess;
}

/* The kernel's view of its thread: set by the launch loop below. */
static uint64_t gpu_emu_tid, gpu_emu_nthreads;
#define GPU_THREAD_ID() gpu_emu_tid
#define GPU_THREAD_COUNT() gpu_emu_nthreads

#define GPU_LAUNCH(kernel, blocks, threads, stream, ...)                                   \
    do {                                                                                   \
        (void)(stream);                                                                    \
        gpu_emu_nthreads = (uint64_t)(blocks) * (uint64_t)(threads);                       \
        for (gpu_emu_tid = 0; gpu_emu_tid < gpu_emu_nthreads; gpu_emu_tid++)               \
            kernel(__VA_ARGS__);                                                           \
    } while (0)

#endif
