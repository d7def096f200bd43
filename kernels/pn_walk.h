/* One step of a memory-less random walk on a packed marking, shared by the
 * CPU walks (host/engine/walk.c: the generator) and the GPU walk kernel
 * (kernels/gpu_kernels.cu: everything): the next transition is drawn
 * uniformly among the enabled ones (xorshift64, Marsaglia, "Xorshift
 * RNGs", J. Stat. Softw. 2003) without a per-thread list: the enabled
 * transitions are counted through the trigger lists, then the drawn one is
 * found by a second pass, so a device thread needs no array of T entries. */
#ifndef PETREL_PN_WALK_H
#define PETREL_PN_WALK_H

#include "pn_state.h"

PN_HD static uint64_t pn_walk_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The generator state of walker i under seed (never 0). */
PN_HD static uint64_t pn_walk_seed(uint64_t seed, uint64_t i)
{
    uint64_t r = (seed ? seed : 0x9E3779B97F4A7C15ULL) ^ (0xD1B54A32D192ED03ULL * (i + 1));
    return r ? r : 1;
}

/* One pass over the transitions s enables, in trigger-list order: with
 * k == UINT32_MAX, returns how many there are; otherwise the k-th of them
 * (k below that count). */
PN_HD static uint32_t pn_walk_scan(const pn_prog *g, const uint64_t *s, uint32_t k)
{
    uint32_t n = 0;
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; (p = pn_marked_next(g, s, &it)) != UINT32_MAX;)
        for (uint32_t j = g->trig_off[p]; j < g->trig_off[p + 1]; j++)
            if (pn_state_enabled(g, s, g->trig[j]) && n++ == k)
                return g->trig[j];
    if (k == UINT32_MAX)
        return n + g->n_free;
    return g->free_trans[k - n];
}

#endif
