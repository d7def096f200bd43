/* State formulas compiled to a flat program that the engines evaluate per
 * state for Reachability, UpperBounds and the global properties. Shared by
 * the CPU engine and the CUDA kernels: no recursion, no allocation.
 *
 * The program computes one boolean, the accumulator, with short-circuit
 * jumps (the way compilers lower && and ||): an AND jumps past its remaining
 * operands as soon as one is false, an OR as soon as one is true. A
 * Reachability formula is a large disjunction or conjunction of hundreds of
 * fireability atoms; evaluating them all, as a postfix stack program does,
 * cost the on-the-fly check 8x the exploration itself (issue 14). */
#ifndef PETREL_PN_SFORMULA_H
#define PETREL_PN_SFORMULA_H

#include "pn_state.h"

enum {
    PN_SF_TRUE,      /* acc = ... */
    PN_SF_FALSE,
    PN_SF_DEADLOCK,  /* no transition enabled */
    PN_SF_FIREABLE,  /* any of list[a.off .. a.off + a.n) enabled */
    PN_SF_LE,        /* term a <= term b */
    PN_SF_NOT,       /* acc = !acc */
    PN_SF_JUMP_FALSE, /* if !acc, go to instruction n */
    PN_SF_JUMP_TRUE   /* if acc, go to instruction n */
};

/* An integer term: the constant `value` when n == 0, else the token sum of
 * places list[off .. off + n) (repeats counted). */
typedef struct pn_sf_term {
    uint32_t off, n;
    uint64_t value;
} pn_sf_term;

typedef struct pn_sf_instr {
    uint32_t op, n;  /* n: the jump target */
    pn_sf_term a, b;
} pn_sf_instr;

typedef struct pn_sformula {
    const pn_sf_instr *code;
    uint32_t len;
    const uint32_t *list;
} pn_sformula;

/* The marking an evaluation reads is either unpacked (one count per place:
 * the CPU engine unpacks each state anyway) or the packed words themselves
 * (g's layout: device threads, which have no room for a copy per place).
 * The evaluators below take a `packed` flag that callers pass as a
 * constant, so each caller gets its own specialised code. */
PN_HD static uint64_t pn_sf_tokens(const pn_prog *g, const uint64_t *m, bool packed, uint32_t p)
{
    return packed ? pn_field_get(m, &g->field[p]) : m[p];
}

/* Sums in 128 bits: a comparison of two sums is exact whatever the counts. */
PN_HD static unsigned __int128 pn_sf_term_read(const pn_sformula *f, const pn_sf_term *t,
                                               const pn_prog *g, const uint64_t *m, bool packed)
{
    if (t->n == 0)
        return t->value;
    unsigned __int128 sum = 0;
    for (uint32_t k = 0; k < t->n; k++)
        sum += pn_sf_tokens(g, m, packed, f->list[t->off + k]);
    return sum;
}

/* Enabledness of each transition in the current state, computed at most
 * once however many atoms and formulas name it (Reachability formulas name
 * the same transitions hundreds of times): slot[t] is epoch << 1 | enabled
 * when t was tested in this state. The caller bumps epoch (from 1) for
 * each new state; slot starts all zero. */
typedef struct pn_sf_memo {
    uint64_t *slot;
    uint64_t epoch;
} pn_sf_memo;

PN_HD static bool pn_sf_enabled(const pn_prog *g, const uint64_t *m, bool packed, uint32_t t,
                                pn_sf_memo *memo)
{
    if (memo == NULL)
        return packed ? pn_state_enabled(g, m, t) : pn_marking_enabled(g, m, t);
    uint64_t s = memo->slot[t];
    if (s >> 1 == memo->epoch)
        return (s & 1) != 0;
    bool en = packed ? pn_state_enabled(g, m, t) : pn_marking_enabled(g, m, t);
    memo->slot[t] = memo->epoch << 1 | (uint64_t)en;
    return en;
}

PN_HD static bool pn_sf_fireable(const pn_sformula *f, const pn_sf_term *t, const pn_prog *g,
                                 const uint64_t *m, bool packed, pn_sf_memo *memo)
{
    for (uint32_t k = 0; k < t->n; k++)
        if (pn_sf_enabled(g, m, packed, f->list[t->off + k], memo))
            return true;
    return false;
}

/* m: unpacked, or packed in g's layout when `packed`; memo: optional
 * (NULL: every atom tests its transitions afresh). */
PN_HD static bool pn_sf_run(const pn_sformula *f, const pn_prog *g, const uint64_t *m,
                            bool packed, uint32_t n_enabled, pn_sf_memo *memo)
{
    bool acc = false;
    for (uint32_t i = 0; i < f->len;) {
        const pn_sf_instr *in = &f->code[i++];
        switch (in->op) {
        case PN_SF_TRUE: acc = true; break;
        case PN_SF_FALSE: acc = false; break;
        case PN_SF_DEADLOCK: acc = n_enabled == 0; break;
        case PN_SF_FIREABLE: acc = pn_sf_fireable(f, &in->a, g, m, packed, memo); break;
        case PN_SF_LE:
            acc = pn_sf_term_read(f, &in->a, g, m, packed) <=
                  pn_sf_term_read(f, &in->b, g, m, packed);
            break;
        case PN_SF_NOT: acc = !acc; break;
        case PN_SF_JUMP_FALSE:
            if (!acc)
                i = in->n;
            break;
        default: /* PN_SF_JUMP_TRUE */
            if (acc)
                i = in->n;
            break;
        }
    }
    return acc;
}

/* On an unpacked marking (one count per place). */
PN_HD static bool pn_sf_eval(const pn_sformula *f, const pn_prog *g, const uint64_t *m,
                             uint32_t n_enabled, pn_sf_memo *memo)
{
    return pn_sf_run(f, g, m, false, n_enabled, memo);
}

/* On a packed state s (g's layout), as the device kernels see it. */
PN_HD static bool pn_sf_eval_packed(const pn_sformula *f, const pn_prog *g, const uint64_t *s,
                                    uint32_t n_enabled)
{
    return pn_sf_run(f, g, s, true, n_enabled, 0);
}

#endif
