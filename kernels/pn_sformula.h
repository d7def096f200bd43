/* State formulas compiled to a flat postfix program: what the engines
 * evaluate per state for Reachability, UpperBounds and the global
 * properties. Shared by the CPU engine and the CUDA kernels (no recursion,
 * no allocation: a caller-provided stack of max_stack bytes). */
#ifndef PETREL_PN_SFORMULA_H
#define PETREL_PN_SFORMULA_H

#include "pn_state.h"

enum {
    PN_SF_TRUE,
    PN_SF_FALSE,
    PN_SF_DEADLOCK,  /* no transition enabled */
    PN_SF_FIREABLE,  /* any of list[a.off .. a.off + a.n) enabled */
    PN_SF_LE,        /* term a <= term b */
    PN_SF_NOT,
    PN_SF_AND,       /* of the top n values */
    PN_SF_OR
};

/* An integer term: the constant `value` when n == 0, else the token sum of
 * places list[off .. off + n) (repeats counted). */
typedef struct pn_sf_term {
    uint32_t off, n;
    uint64_t value;
} pn_sf_term;

typedef struct pn_sf_instr {
    uint32_t op, n;
    pn_sf_term a, b;
} pn_sf_instr;

typedef struct pn_sformula {
    const pn_sf_instr *code;
    uint32_t len;
    uint32_t max_stack;
    const uint32_t *list;
} pn_sformula;

/* Sums in 128 bits: a comparison of two sums is exact whatever the counts. */
PN_HD static unsigned __int128 pn_sf_term_value(const pn_sformula *f, const pn_sf_term *t,
                                                const uint64_t *m)
{
    if (t->n == 0)
        return t->value;
    unsigned __int128 sum = 0;
    for (uint32_t k = 0; k < t->n; k++)
        sum += m[f->list[t->off + k]];
    return sum;
}

PN_HD static bool pn_sf_fireable(const pn_sformula *f, const pn_sf_term *t, const pn_prog *g,
                                 const uint64_t *m)
{
    for (uint32_t k = 0; k < t->n; k++)
        if (pn_marking_enabled(g, m, f->list[t->off + k]))
            return true;
    return false;
}

PN_HD static bool pn_sf_eval(const pn_sformula *f, const pn_prog *g, const uint64_t *m,
                             uint32_t n_enabled, uint8_t *stack)
{
    uint32_t sp = 0;
    for (uint32_t i = 0; i < f->len; i++) {
        const pn_sf_instr *in = &f->code[i];
        uint8_t v;
        switch (in->op) {
        case PN_SF_TRUE: v = 1; break;
        case PN_SF_FALSE: v = 0; break;
        case PN_SF_DEADLOCK: v = n_enabled == 0; break;
        case PN_SF_FIREABLE: v = pn_sf_fireable(f, &in->a, g, m); break;
        case PN_SF_LE:
            v = pn_sf_term_value(f, &in->a, m) <= pn_sf_term_value(f, &in->b, m);
            break;
        case PN_SF_NOT: v = !stack[--sp]; break;
        case PN_SF_AND:
            v = 1;
            for (uint32_t k = 0; k < in->n; k++)
                v &= stack[--sp];
            break;
        default: /* PN_SF_OR */
            v = 0;
            for (uint32_t k = 0; k < in->n; k++)
                v |= stack[--sp];
            break;
        }
        stack[sp++] = v;
    }
    return stack[0] != 0;
}

#endif
