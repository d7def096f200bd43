/* Per-state logic on packed markings, shared by the CPU engine and the CUDA
 * kernels: enabledness, firing, unpacking and hashing.
 *
 * A marking is `words` 64-bit words; place p occupies `width` bits at `shift`
 * in word `word` (a field never straddles two words). Firing works on the
 * packed words directly: consumption subtracts `value << shift` (enabledness
 * guarantees no borrow), production adds it after checking that the field
 * cannot pass its mask. An overflow is reported, never wrapped: the engine
 * then widens that place and explores again. No libc calls in here. */
#ifndef PETREL_PN_STATE_H
#define PETREL_PN_STATE_H

#include "pn_hd.h"

typedef struct pn_op {
    uint32_t word;
    uint32_t shift;
    uint64_t mask;    /* of the field, before shifting */
    uint64_t value;   /* weight to test / subtract / add */
    uint32_t place;
    uint32_t pad_;
} pn_op;

/* The net, compiled for one packing. Flat arrays so that a device copy is a
 * handful of memcpys. */
typedef struct pn_prog {
    uint32_t n_places;
    uint32_t n_transitions;
    uint32_t words;
    const pn_op *field;       /* n_places: where each place lives */
    const uint32_t *pre_off;  /* n_transitions + 1 */
    const pn_op *pre;         /* enabled iff every field >= value */
    const uint32_t *dec_off;
    const pn_op *dec;         /* net consumption: field -= value */
    const uint32_t *inc_off;
    const pn_op *inc;         /* net production: field += value */
    /* Each transition with input arcs is listed under one of its input
     * places, its trigger: only transitions whose trigger is marked can be
     * enabled, so a state checks a handful of transitions instead of all. */
    const uint32_t *trig_off; /* n_places + 1 */
    const uint32_t *trig;
    uint32_t n_free;          /* transitions without input arcs: always enabled */
    const uint32_t *free_trans;
    const uint32_t *bit_place; /* words * 64: the place owning each bit */
} pn_prog;

PN_HD static uint64_t pn_field_get(const uint64_t *s, const pn_op *op)
{
    return (s[op->word] >> op->shift) & op->mask;
}

PN_HD static bool pn_state_enabled(const pn_prog *g, const uint64_t *s, uint32_t t)
{
    for (uint32_t k = g->pre_off[t]; k < g->pre_off[t + 1]; k++)
        if (pn_field_get(s, &g->pre[k]) < g->pre[k].value)
            return false;
    return true;
}

/* The same test on an unpacked marking (one count per place): cheaper on
 * the CPU, where the engine unpacks each state once anyway. */
PN_HD static bool pn_marking_enabled(const pn_prog *g, const uint64_t *m, uint32_t t)
{
    for (uint32_t k = g->pre_off[t]; k < g->pre_off[t + 1]; k++)
        if (m[g->pre[k].place] < g->pre[k].value)
            return false;
    return true;
}

/* Writes the successor of s by t (t must be enabled) into out. Returns the
 * index + 1 into g->inc of the first production that overflows its field
 * (out is then unspecified), or 0. */
PN_HD static uint32_t pn_state_fire(const pn_prog *g, const uint64_t *s, uint32_t t,
                                    uint64_t *out)
{
    for (uint32_t w = 0; w < g->words; w++)
        out[w] = s[w];
    for (uint32_t k = g->dec_off[t]; k < g->dec_off[t + 1]; k++)
        out[g->dec[k].word] -= g->dec[k].value << g->dec[k].shift;
    for (uint32_t k = g->inc_off[t]; k < g->inc_off[t + 1]; k++) {
        const pn_op *op = &g->inc[k];
        if (op->value > op->mask || pn_field_get(out, op) > op->mask - op->value)
            return k + 1;
        out[op->word] += op->value << op->shift;
    }
    return 0;
}

PN_HD static void pn_state_unpack(const pn_prog *g, const uint64_t *s, uint64_t *m)
{
    for (uint32_t p = 0; p < g->n_places; p++)
        m[p] = pn_field_get(s, &g->field[p]);
}

/* Walks the non-zero fields of a packed state, lowest bit first: markings
 * are sparse in practice (a few marked places out of hundreds), so the
 * expansion, the unpacking and the token statistics visit set bits rather
 * than every place. Start with pn_marked_begin; pn_marked_next returns the
 * next marked place, or UINT32_MAX at the end. */
typedef struct pn_marked_iter {
    uint32_t w;
    uint64_t x;    /* bits of word w not yet visited */
} pn_marked_iter;

PN_HD static void pn_marked_begin(const uint64_t *s, pn_marked_iter *it)
{
    it->w = 0;
    it->x = s[0]; /* a layout has at least one word */
}

PN_HD static uint32_t pn_marked_next(const pn_prog *g, const uint64_t *s, pn_marked_iter *it)
{
    while (it->x == 0) {
        if (it->w + 1 >= g->words)
            return UINT32_MAX;
        it->x = s[++it->w];
    }
#if defined(__CUDA_ARCH__)
    uint32_t b = (uint32_t)(__ffsll((long long)it->x) - 1);
#else
    uint32_t b = (uint32_t)__builtin_ctzll(it->x);
#endif
    uint32_t p = g->bit_place[it->w * 64 + b];
    it->x &= ~(g->field[p].mask << g->field[p].shift);
    return p;
}

/* Unpacks only the non-zero fields: m must be all zero on entry; their
 * places are listed in nz (at most n_places). Returns how many. */
PN_HD static uint32_t pn_state_unpack_sparse(const pn_prog *g, const uint64_t *s, uint64_t *m,
                                             uint32_t *nz)
{
    uint32_t n = 0;
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; (p = pn_marked_next(g, s, &it)) != UINT32_MAX;) {
        m[p] = pn_field_get(s, &g->field[p]);
        nz[n++] = p;
    }
    return n;
}

/* The transitions enabled in s, through the trigger lists (out: room for
 * n_transitions). The fused expansion (pn_expand.h) walks the same lists
 * without the intermediate array. */
PN_HD static uint32_t pn_state_enabled_list(const pn_prog *g, const uint64_t *s, uint32_t *out)
{
    uint32_t n = 0;
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; (p = pn_marked_next(g, s, &it)) != UINT32_MAX;)
        for (uint32_t k = g->trig_off[p]; k < g->trig_off[p + 1]; k++)
            if (pn_state_enabled(g, s, g->trig[k]))
                out[n++] = g->trig[k];
    for (uint32_t k = 0; k < g->n_free; k++)
        out[n++] = g->free_trans[k];
    return n;
}

/* Widening, the one repacking step: copies s (packed for `from`) into d
 * (packed for `to`, every field at least as wide). Reads the non-zero
 * fields only. Used by the CPU engine, the GPU repack kernel and the state
 * space interface (host/space/pt.c). */
PN_HD static void pn_state_repack(const pn_prog *from, const pn_prog *to, const uint64_t *s,
                                  uint64_t *d)
{
    for (uint32_t w = 0; w < to->words; w++)
        d[w] = 0;
    pn_marked_iter it;
    pn_marked_begin(s, &it);
    for (uint32_t p; (p = pn_marked_next(from, s, &it)) != UINT32_MAX;)
        d[to->field[p].word] |= pn_field_get(s, &from->field[p]) << to->field[p].shift;
}

PN_HD static uint64_t pn_mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* The multiply-rotate round of xxHash64 (Y. Collet, the XXH64
 * specification, 2012-2019), with its two 64-bit primes. */
#define PN_HASH_P1 0x9E3779B185EBCA87ULL
#define PN_HASH_P2 0xC2B2AE3D27D4EB4FULL

PN_HD static uint64_t pn_rotl64(uint64_t x, unsigned r) { return (x << r) | (x >> (64 - r)); }

PN_HD static uint64_t pn_hash_round(uint64_t acc, uint64_t x)
{
    return pn_rotl64(acc + x * PN_HASH_P2, 31) * PN_HASH_P1;
}

PN_HD static uint64_t pn_state_hash(const uint64_t *s, uint32_t words)
{
    /* One word (compact markings, tree keys): one finalizer round, a
     * bijection, is enough, and runs once per successor. */
    if (words == 1)
        return pn_mix64(s[0] ^ 0x632be59bd9b4e019ULL);
    /* Wider markings: four lanes, so that the multiplications of
     * consecutive words overlap where a single chain waits on each one
     * (every successor of a wide net's state is hashed: 79 words for
     * Philosophers-PT-001000's 5,000 places, hashed 7 times faster than
     * by a chain of finalizers); the final mix spreads every bit. */
    uint64_t a0 = PN_HASH_P1 + PN_HASH_P2, a1 = PN_HASH_P2, a2 = 0, a3 = 0 - PN_HASH_P1;
    uint32_t w = 0;
    for (; w + 4 <= words; w += 4) {
        a0 = pn_hash_round(a0, s[w]);
        a1 = pn_hash_round(a1, s[w + 1]);
        a2 = pn_hash_round(a2, s[w + 2]);
        a3 = pn_hash_round(a3, s[w + 3]);
    }
    uint64_t h = pn_rotl64(a0, 1) + pn_rotl64(a1, 7) + pn_rotl64(a2, 12) + pn_rotl64(a3, 18);
    for (; w < words; w++)
        h = pn_hash_round(h, s[w]);
    return pn_mix64(h ^ words);
}

PN_HD static bool pn_state_equal(const uint64_t *a, const uint64_t *b, uint32_t words)
{
    for (uint32_t w = 0; w < words; w++)
        if (a[w] != b[w])
            return false;
    return true;
}

#endif
