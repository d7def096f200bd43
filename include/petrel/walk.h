/* Random walks: memory-less searches for the witnesses of reachability
 * answers (a marking with phi for E F phi, one without it for A G phi, a
 * deadlock, a marking that attains a proven bound), as in ITS-Tools'
 * random walks (Thierry-Mieg, "Structural reductions revisited", Petri
 * Nets 2020) and TAPAAL's. Every marking a walk meets is reachable, so a
 * witness decides its answer exactly; finding none proves nothing. */
#ifndef PETREL_WALK_H
#define PETREL_WALK_H

#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/formula.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_walk_opts {
    const pn_budget *budget; /* deadline and cancel flag (NULL: max_walks only) */
    uint32_t threads;        /* workers, each with its own pn_space; 0: 1 */
    uint64_t seed;           /* 0: a fixed default (runs are reproducible) */
    uint64_t max_steps;      /* steps of one walk before it restarts; 0: 100000 */
    uint64_t max_walks;      /* walks per worker; 0: until the budget runs out */
    FILE *verbose;           /* optional: one line per answer decided */
    /* Walk on the GPU (pn_gpu_walk: thousands of walks at once) when one is
     * usable; the CPU threads walk when it is not or when it fails. */
    bool gpu;
    /* Keep the firing sequence of each witness found (pn_check_set_path),
     * for --trace; the walks then run on the CPU (the GPU's keep none). */
    bool trace;
    /* Optional: a test of the marking a walk is at, every few thousand steps
     * and where the walk ends (called from every walker thread: it must be
     * thread-safe). True stops every walker; what it found is the caller's
     * (probe_ctx). With a probe the walks run on the CPU, and they walk
     * even when c has no open answer. */
    bool (*probe)(void *probe_ctx, const uint64_t *marking);
    void *probe_ctx;
    /* Optional: the LTL formulas of c (A phi), each refuted where a walk's
     * first steps violate phi on every run that starts so
     * (formula/prefix_goals.h); not with trace, which asks for a lasso. */
    const pn_fml_set *ltl;
} pn_walk_opts;

/* What the walks find goes into c (may be NULL with a probe) (pn_check_decide_target, with
 * PN_TECH_RANDOM_WALK; pn_check_bound_limit once a bound's proven limit is
 * attained; pn_check_decide_answer FALSE for a refuted LTL formula). Without a deadline and with max_walks 0 it does nothing.
 * *decided (may be NULL): how many answers it decided. Only PN_ERR_NOMEM
 * and errors of the state space are returned. */
pn_status pn_walk_decide(const pn_cnet *cn, pn_check *c, const pn_walk_opts *o,
                         uint32_t *decided, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
