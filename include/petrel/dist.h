/* Distributed exploration over Open MPI (built with -DPETREL_MPI=AUTO|ON
 * when MPI is found; host/engine/dist.c): `mpirun -np N petrel ...`
 * runs N ranks; the states are partitioned by hash, each rank stores and
 * expands its own with its threads (the engine of pn_explore) and sends the
 * successors it does not own to their ranks, level by level. Rank 0 runs
 * the examination driver and prints; the others wait for its command and
 * take part in the exploration. Builds without MPI get
 * host/engine/dist_stub.c: never launched, and every call is refused. */
#ifndef PETREL_DIST_H
#define PETREL_DIST_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/engine.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_dist pn_dist;

/* Ends the process after an MPI failure (a rank died, a message could not
 * be delivered) or a rank that cannot take part: it prints what is still
 * open as CANNOT_COMPUTE and exits; it must not return. */
typedef void (*pn_dist_fatal_fn)(void *ctx);

/* True when this build has MPI. */
bool pn_dist_built(void);
/* True when this build has MPI and the process was started by mpirun (the
 * Open MPI / PMIx environment says so): plain runs never start MPI. */
bool pn_dist_launched(void);

/* Joins the MPI job (MPI_Init_thread, funneled: only the engine's first
 * thread calls MPI). fatal (may be NULL: MPI_Abort) ends the run on
 * failures; the caller blocks SIGTERM first so that mpirun's SIGTERM, sent
 * when another rank dies, reaches its own handling. */
pn_status pn_dist_init(int *argc, char ***argv, pn_dist_fatal_fn fatal, void *ctx,
                       pn_dist **out, pn_error *err);
uint32_t pn_dist_rank(const pn_dist *d);
uint32_t pn_dist_ranks(const pn_dist *d);
/* The last pn_dist_explore's traffic: bytes of states sent, all ranks. */
uint64_t pn_dist_bytes_sent(const pn_dist *d);
/* Leaves the job: settles the command (below) if none was given, then
 * MPI_Finalize. failed: this rank's run failed; the job is aborted. */
void pn_dist_end(pn_dist *d, bool failed);

/* The one command of an examination: rank 0 says whether every rank
 * explores (explore; cn and c, NULL for StateSpace, are what it explores),
 * the others
 * (whose explore is ignored) learn it. Every rank calls it exactly once
 * (pn_dist_end calls it for those that did not); later calls return false
 * at once. True on every rank when all explore: rank 0 asked and every
 * rank holds the same net and answers (else rank 0 explores alone). */
bool pn_dist_command(pn_dist *d, bool explore, const pn_cnet *cn, const pn_check *c);

/* One exploration, called by every rank at once: pn_explore's contract,
 * with the result (states, edges, both maxima, levels, ...) over all ranks
 * on every rank; c (NULL: StateSpace) is the on-the-fly check, whose
 * visitor runs on each rank's states and whose findings are merged between
 * rounds (pn_check_shared_*). keep_parents, record_graph and keep_states
 * are refused (traces, CTL and LTL run on one process). */
pn_status pn_dist_explore(pn_dist *d, const pn_cnet *cn, const pn_engine_opts *o, pn_check *c,
                          pn_engine_result *res, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
