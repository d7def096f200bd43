/* Per-state and per-warp device code of the GPU engine: the StateSpace
 * maxima of one state, and their reduction across a warp with shuffles
 * (butterfly, as CUB's WarpReduce) before one atomic per warp. */
#ifndef PETREL_GPU_WARP_H
#define PETREL_GPU_WARP_H

#include "gpu_launch.h"

/* The largest count of one place and the token sum (saturating) of state s,
 * folded into *max_place and *max_marking: reads only the non-zero fields. */
GPU_DEVICE void gpu_tokens(const pn_prog *g, const uint64_t *s, uint64_t *max_place,
                           uint64_t *max_marking)
{
    uint64_t sum = 0;
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; (p = pn_marked_next(g, s, &it)) != UINT32_MAX;) {
        uint64_t v = pn_field_get(s, &g->field[p]);
        if (v > *max_place)
            *max_place = v;
        sum = sum > UINT64_MAX - v ? UINT64_MAX : sum + v;
    }
    if (sum > *max_marking)
        *max_marking = sum;
}

/* Adds one thread's edges and maxima to the device counters. Every thread of
 * the block calls it (no early exit), so the warp is complete: three
 * butterfly reductions, then lane 0 alone does the atomics. */
GPU_DEVICE void gpu_flush(gpu_counters *c, uint64_t edges, uint64_t max_place,
                          uint64_t max_marking)
{
#ifndef PN_GPU_EMULATE
    unsigned long long e = edges, p = max_place, m = max_marking;
    for (int off = 16; off > 0; off >>= 1) {
        e += __shfl_xor_sync(0xffffffffu, e, off);
        unsigned long long po = __shfl_xor_sync(0xffffffffu, p, off);
        unsigned long long mo = __shfl_xor_sync(0xffffffffu, m, off);
        p = po > p ? po : p;
        m = mo > m ? mo : m;
    }
    if ((threadIdx.x & 31u) != 0)
        return;
    edges = e;
    max_place = p;
    max_marking = m;
#endif
    if (edges != 0)
        pn_atomic_add_u64(&c->edges, edges);
    if (max_place != 0)
        pn_atomic_max_u64(&c->max_place, max_place);
    if (max_marking != 0)
        pn_atomic_max_u64(&c->max_marking, max_marking);
}

#endif
