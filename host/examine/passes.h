/* Formulas checked one by one on the fly, in passes of growing time shares,
 * by several workers at once (passes.c): the CTL local step and the LTL
 * product both run here. */
#ifndef PETREL_EXAMINE_PASSES_H
#define PETREL_EXAMINE_PASSES_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/lazy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the caller does per formula. open and commit run under the driver's
 * lock (one at a time, any worker's thread); check runs outside it, on the
 * worker's own state space, and keeps what it found in the caller's
 * per-worker slot for commit to read. */
typedef struct ex_passes_ops {
    /* Formula i is still to be checked. */
    bool (*open)(void *ctx, uint32_t i);
    pn_status (*check)(void *ctx, uint32_t worker, pn_lazy *z, uint32_t i,
                       const pn_budget *share, int pass, pn_error *err);
    /* check's outcome (st, err) for formula i after `seconds`; false stops
     * the passes (each worker ends after the formula it holds). */
    bool (*commit)(void *ctx, uint32_t worker, const pn_lazy *z, uint32_t i, int pass,
                   pn_status st, const pn_error *err, double seconds);
} ex_passes_ops;

typedef struct ex_passes_stats {
    uint64_t states, edges; /* the largest space a worker built */
    uint32_t workers;       /* how many ran */
} ex_passes_stats;

/* Formulas 0..n-1 on `workers` threads (0: 1), each with a state space of
 * its own, all in one account of budget's memory (pn_lazy_pool; a check's
 * own spaces may join it: pn_lazy_pool_of). Returns the error of
 * the first space when none could be made (no formula was checked). */
pn_status ex_passes_run(const pn_cnet *cn, const pn_budget *budget, uint32_t n,
                        uint32_t workers, const ex_passes_ops *ops, void *ctx,
                        ex_passes_stats *stats, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
