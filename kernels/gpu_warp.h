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

/* The largest of one value over the warp (all 32 lanes call it), in every
 * lane; the emulation runs one thread at a time and returns v. */
GPU_DEVICE uint64_t gpu_warp_max(uint64_t v)
{
#ifndef PN_GPU_EMULATE
    unsigned long long m = v;
    for (int off = 16; off > 0; off >>= 1) {
        unsigned long long o = __shfl_xor_sync(0xffffffffu, m, off);
        m = o > m ? o : m;
    }
    return m;
#else
    return v;
#endif
}

GPU_DEVICE bool gpu_warp_leader(void)
{
#ifndef PN_GPU_EMULATE
    return (threadIdx.x & 31u) == 0;
#else
    return true;
#endif
}

/* Adds one thread's bound maxima (registers `local`, pn_items_state) to
 * the items' maxima: a warp reduction per bound item, then one atomic by
 * lane 0. Every thread of the block calls it with the same items. */
GPU_DEVICE void gpu_flush_bounds(const pn_items_view *v, const uint64_t *local)
{
    for (uint32_t k = 0; k < v->n; k++) {
        const pn_item *it = &v->item[k];
        if (it->kind != PN_ITEM_BOUND || it->local == UINT32_MAX)
            continue;
        uint64_t m = gpu_warp_max(local[it->local]);
        if (gpu_warp_leader() && m != 0)
            pn_atomic_max_u64(&v->found[k].max, m);
    }
}

#endif
