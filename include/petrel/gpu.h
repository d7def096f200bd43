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
 * host memory at the end. With opts->check (the check whose visitor is
 * opts->visitor), the kernels evaluate its items on every expanded state,
 * the answers are streamed as they are decided, and the run stops
 * (PN_RUN_STOPPED) once every item a witness can decide is; the caller
 * then calls pn_check_finish as after pn_explore. Any other visitor is
 * host code: PN_ERR_UNSUPPORTED. The compact table is used by the CPU
 * engine's rule (pn_engine_compact). */
pn_status pn_gpu_explore(const pn_cnet *cn, const pn_engine_opts *opts,
                         pn_engine_result *res, pn_error *err);

struct pn_item;
struct pn_item_found;
struct pn_walk_opts;

/* Random walks on the device (kernels/gpu_walk.cu): one walk per resident
 * thread, each from the initial marking, restarted after o->max_steps
 * steps (0: 100000) or at a deadlock; every marking met is shown to
 * items[0 .. n) (kernels/pn_items.h: reach targets and bounds with a proven
 * limit), and found[k] gets what item k met (witness != PN_ITEM_NONE: a
 * deciding marking, the walk's index standing for it; max: the largest
 * bound sum). Walk w's generator starts at pn_walk_seed(o->seed, w): runs
 * are reproducible up to the thread schedule across launches. Stops when
 * every item is found, at o->budget's deadline or cancel, or, with
 * o->max_walks, after max_walks * max_steps steps per walk. */
pn_status pn_gpu_walk(const pn_cnet *cn, const struct pn_item *items, uint32_t n,
                      const struct pn_walk_opts *o, struct pn_item_found *found,
                      pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
