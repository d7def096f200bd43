/* The formulas of an examination checked on the fly, without the whole
 * state space (otf.c): LTL by the product with each formula's automaton
 * (ex_tech_product), CTL by local fixed points (ex_tech_local); both on
 * ex_passes' workers, both techniques of the scheduler's table (tech.h). */
#ifndef PETREL_EXAMINE_OTF_H
#define PETREL_EXAMINE_OTF_H

/* The workers of the on-the-fly checks: one. Formulas on one worker share
 * the states the earlier ones generated, which is most of a local check's
 * cost: with a space per worker, 2 workers answered fewer CTL formulas on
 * `scale` at 10 s with --threads 2 than one (measured 2026-11-25, in the git
 * history of docs/benchmarks.md, "On-the-fly checks"). More pay only with one
 * space shared between them. */
#define EX_OTF_WORKERS 1

#include "examine/sched.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CTL: every open formula of j on the fly within b, on `workers` workers
 * (traces: the engine's keep_parents). It stops early, leaving the rest
 * to the recorded graph, once a worker has met every reachable state and
 * the job's time and memory would let the graph take them (ex_graph_now).
 * Before the graph step ran, j's result gets the statistics of the states
 * the workers generated. PN_ERR_NOMEM, or PN_OK: what a formula could not
 * do leaves it unknown. ex_tech_local runs it on EX_OTF_WORKERS. */
pn_status ex_otf_local(ex_job *j, const pn_budget *b, uint32_t workers);

#ifdef __cplusplus
}
#endif

#endif
