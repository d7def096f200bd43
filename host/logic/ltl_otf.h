/* Internal to host/: the net's state graph discovered on demand
 * (ltl_lazy.c) and the on-the-fly product search over it (ltl_otf.c),
 * plus the automaton reductions (ltl_reduce.c). */
#ifndef PETREL_LTL_OTF_H
#define PETREL_LTL_OTF_H

#include <stdbool.h>
#include <stdint.h>

#include "logic/ltl_buchi.h"
#include "net/layout.h"
#include "petrel/ltl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The successor ids of net state s, expanding it on first use (UINT32
 * ids; a deadlock has none). *succ stays valid until the next call that
 * may expand. PN_ERR_NOMEM past the budget, PN_ERR_UNSUPPORTED when a
 * count passes 2^64-1. */
pn_status ltl_lazy_succ(pn_ltl_lazy *z, uint32_t s, const uint32_t **succ, uint32_t *n,
                        pn_error *err);
/* Transitions enabled in s (duplicated successors counted). */
uint32_t ltl_lazy_enabled(pn_ltl_lazy *z, uint32_t s);
/* The marking of s, one count per place, for m all zero on entry: only
 * the marked places are written, and listed in nz; returns how many (the
 * caller zeroes them again). */
uint32_t ltl_lazy_marking_sparse(const pn_ltl_lazy *z, uint32_t s, uint64_t *m, uint32_t *nz);
/* A transition leading from s to t; UINT32_MAX when none does (the
 * stuttering step of a deadlock). */
uint32_t ltl_lazy_trans(pn_ltl_lazy *z, uint32_t s, uint32_t t);
uint64_t ltl_lazy_count(const pn_ltl_lazy *z);
/* Bytes held by the product that shares the budget (counted against it). */
void ltl_lazy_set_other(pn_ltl_lazy *z, uint64_t bytes);
bool ltl_lazy_fits(const pn_ltl_lazy *z, uint64_t more);
const pn_prog *ltl_lazy_prog(const pn_ltl_lazy *z);

/* Reductions that keep the language: states unreachable from an initial
 * state, states with a contradictory label, states from which no
 * accepting cycle is reachable, then the quotient by the coarsest
 * bisimulation that respects labels and acceptance. *out is new. */
pn_status ltl_buchi_reduce(const ltl_buchi *b, ltl_buchi **out, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
