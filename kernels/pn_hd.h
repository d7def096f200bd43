/* Portability layer for the per-state code shared by the CPU engine and the
 * CUDA kernels: one source, compiled by the C compiler, the C++ compiler (the
 * tests) and nvcc (device code). */
#ifndef PETREL_PN_HD_H
#define PETREL_PN_HD_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define PN_HD __host__ __device__ __forceinline__
#else
#define PN_HD inline
#endif

/* A prefetch hint for the CPU's memory-level parallelism; GPUs hide
 * latency with other warps instead. */
#if defined(__CUDA_ARCH__)
#define PN_PREFETCH(p) ((void)(p))
#else
#define PN_PREFETCH(p) __builtin_prefetch((const void *)(p))
#endif

/* Acquire load: a reader that sees a published table slot must also see the
 * state words written before it. */
PN_HD static uint64_t pn_atomic_load_u64(const uint64_t *p)
{
#if defined(__CUDA_ARCH__)
    uint64_t v = *(const volatile uint64_t *)p;
    __threadfence();
    return v;
#else
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

/* Relaxed load: a flag that only ever moves one way (an item decided), read
 * to skip work; no ordering needed, so no fence on the device. */
PN_HD static uint64_t pn_atomic_peek_u64(const uint64_t *p)
{
#if defined(__CUDA_ARCH__)
    return *(const volatile uint64_t *)p;
#else
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}

PN_HD static void pn_atomic_store_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDA_ARCH__)
    __threadfence();
    *(volatile uint64_t *)p = v;
#else
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

PN_HD static bool pn_atomic_cas_u64(uint64_t *p, uint64_t expected, uint64_t desired)
{
#if defined(__CUDA_ARCH__)
    return atomicCAS((unsigned long long *)p, (unsigned long long)expected,
                     (unsigned long long)desired) == expected;
#else
    return __atomic_compare_exchange_n(p, &expected, desired, false,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
#endif
}

PN_HD static uint64_t pn_atomic_add_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDA_ARCH__)
    return atomicAdd((unsigned long long *)p, (unsigned long long)v);
#else
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

/* Atomic max for statistics gathered across threads. */
PN_HD static void pn_atomic_max_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDA_ARCH__)
    atomicMax((unsigned long long *)p, (unsigned long long)v);
#else
    uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (cur < v && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED,
                                                   __ATOMIC_RELAXED))
        ;
#endif
}

/* Atomic min: the smallest witness id of an item (kernels/pn_items.h).
 * Returns the value before. */
PN_HD static uint64_t pn_atomic_min_u64(uint64_t *p, uint64_t v)
{
#if defined(__CUDA_ARCH__)
    return atomicMin((unsigned long long *)p, (unsigned long long)v);
#else
    uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (cur > v && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_ACQ_REL,
                                                   __ATOMIC_RELAXED))
        ;
    return cur;
#endif
}

/* Sets a flag word to 1; returns its value before (devices have no byte
 * atomics, so flags are 32-bit). */
PN_HD static uint32_t pn_atomic_set_u32(uint32_t *p)
{
#if defined(__CUDA_ARCH__)
    return atomicExch(p, 1u);
#else
    return __atomic_exchange_n(p, 1u, __ATOMIC_ACQ_REL);
#endif
}

/* 32-bit slots of the tree's node set (pn_treestore.h): the same ordering
 * as their 64-bit counterparts above. */
PN_HD static uint32_t pn_atomic_load_u32(const uint32_t *p)
{
#if defined(__CUDA_ARCH__)
    uint32_t v = *(const volatile uint32_t *)p;
    __threadfence();
    return v;
#else
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
#endif
}

PN_HD static void pn_atomic_store_u32(uint32_t *p, uint32_t v)
{
#if defined(__CUDA_ARCH__)
    __threadfence();
    *(volatile uint32_t *)p = v;
#else
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
#endif
}

PN_HD static bool pn_atomic_cas_u32(uint32_t *p, uint32_t expected, uint32_t desired)
{
#if defined(__CUDA_ARCH__)
    return atomicCAS(p, expected, desired) == expected;
#else
    return __atomic_compare_exchange_n(p, &expected, desired, false,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
#endif
}

/* Sets bits in a word of a bitmap that other threads set too. */
PN_HD static void pn_atomic_or_u32(uint32_t *p, uint32_t bits)
{
#if defined(__CUDA_ARCH__)
    atomicOr(p, bits);
#else
    __atomic_fetch_or(p, bits, __ATOMIC_RELEASE);
#endif
}

#endif
