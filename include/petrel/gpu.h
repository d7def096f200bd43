/* The CUDA exploration engine (kernels/gpu_engine.cu): the same
 * level-synchronous BFS as pn_explore, with the expansion step run by one
 * GPU thread per frontier state and the store and hash table in device
 * memory. Builds without CUDA get host/engine/gpu_stub.c: not available, and every
 * exploration fails with PN_ERR_UNSUPPORTED. */
#ifndef PETREL_GPU_H
#define PETREL_GPU_H

#include <stdbool.h>
#include <stddef.h>

#include "petrel/cnet.h"
#include "petrel/engine.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True when this build has the CUDA engine and the CUDA runtime finds a
 * usable device (compute capability 8.0 or newer, as the build targets).
 * Otherwise false, and `why` (when not NULL) gets a non-empty reason:
 * "this build has no CUDA engine", "no CUDA device found", "CUDA driver too
 * old or missing: ...", ... Cheap after the first call, which starts the
 * CUDA runtime (up to a second or so with a driver). Thread-safe. */
bool pn_gpu_available(char *why, size_t len);

/* Same contract as pn_explore: PN_OK with res->status saying how the run
 * ended (COMPLETE, OUT_OF_MEMORY when the device or pn_budget_memory(opts->budget)
 * cannot hold the state space, TIMEOUT, CANCELLED, TOKEN_OVERFLOW,
 * TOO_MANY_STATES), or an error status with err->msg (no usable device, a
 * CUDA error, host allocation failure). StateSpace values are exact and
 * equal pn_explore's; res->threads is the most device threads one kernel
 * launch ran. opts->threads is ignored. pn_budget_memory(opts->budget) bounds the
 * device memory for states, table and BFS tree (the device's free memory,
 * less headroom, bounds it too); with keep_parents the BFS tree is copied to
 * host memory at the end. opts->visitor (formula examinations) is host code
 * and is not supported: PN_ERR_UNSUPPORTED, use pn_explore. */
pn_status pn_gpu_explore(const pn_cnet *cn, const pn_engine_opts *opts,
                         pn_engine_result *res, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
