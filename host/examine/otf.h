/* The formulas of an examination checked on the fly, without the whole
 * state space (otf.c): LTL by the product with each formula's automaton,
 * CTL by local fixed points; both on ex_passes' workers. */
#ifndef PETREL_EXAMINE_OTF_H
#define PETREL_EXAMINE_OTF_H

#include <stdio.h>

#include "examine/beside.h"
#include "petrel/check.h"
#include "petrel/engine.h"
#include "petrel/formula.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Answers still unknown in c. */
uint32_t ex_open_count(const pn_check *c);
/* A formula the reader could not bind: it already said why (once). */
bool ex_unbound(const pn_fml_set *set, uint32_t i);

/* The portfolio's workers for the on-the-fly checks: one. Formulas on one
 * worker share the states the earlier ones generated, which is most of a
 * local check's cost: with a space per worker, 2 workers answered fewer
 * CTL formulas on `scale` at 10 s with --threads 2 than one (docs/
 * benchmarks.md, "On-the-fly checks on several workers"). More pay only
 * with one space shared between them. */
#define EX_OTF_WORKERS 1

/* LTL: every open formula of c on the fly within budget, on `workers`
 * workers; res reports the states they generated (PN_RUN_STOPPED).
 * beside: NULL, or the lock and flags of a step running beside this one
 * (examine/beside.h); the same for ex_ctl_otf. */
pn_status ex_ltl_otf(const pn_cnet *cn, const pn_fml_set *set, const pn_engine_opts *opts,
                     uint32_t workers, pn_budget *budget, pn_check *c, ex_beside *beside,
                     pn_engine_result *res, FILE *diag, pn_error *err);

/* CTL: every open formula of c on the fly within `share_of_left` of the
 * time left, on `workers` workers (opts->keep_parents: the traces). It
 * stops early, leaving the rest to the recorded graph, once a worker has
 * met every reachable state (ex_graph_now). res (may be NULL) gets the
 * statistics of the states the workers generated. */
void ex_ctl_otf(const pn_cnet *cn, const pn_fml_set *set, pn_budget *budget, double share_of_left,
                const pn_engine_opts *opts, uint32_t workers, FILE *verbose, pn_check *c,
                ex_beside *beside, pn_engine_result *res);

#ifdef __cplusplus
}
#endif
#endif
