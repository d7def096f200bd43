/* The cores this process may use (hwloc: affinity mask and cgroup cpuset),
 * and pinning of worker threads to them, one thread per core. Without hwloc
 * the count falls back to the affinity mask and nothing is pinned. */
#ifndef PETREL_TOPOLOGY_H
#define PETREL_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_topology pn_topology;

/* Never NULL unless out of memory; works without hwloc. */
pn_topology *pn_topology_new(void);
void pn_topology_free(pn_topology *t);

/* Allowed cores (at least 1). */
uint32_t pn_topology_cores(const pn_topology *t);
/* Binds the calling thread to core (worker mod cores); false when it could
 * not (no hwloc, or the system refused): the thread then runs unpinned. */
bool pn_topology_pin(const pn_topology *t, uint32_t worker);
/* Whether a run of `threads` workers pins them: only when it uses every
 * allowed core. A run on fewer would take the first cores, the ones every
 * other such run takes too (two 1-thread runs beside each other both on
 * core 0, the other core idle); the system spreads unpinned threads. */
bool pn_topology_pins(const pn_topology *t, uint32_t threads);
/* The system's numbers of the PUs of allowed cores first .. first + n - 1
 * (those that exist), at most cap of them into pus; returns how many. A
 * process given one such share per concurrent run (sched_setaffinity) sees
 * only its cores, so each run pins to cores of its own. */
uint32_t pn_topology_core_pus(const pn_topology *t, uint32_t first, uint32_t n, uint32_t *pus,
                              uint32_t cap);
/* One line: "4 cores, 8 PUs, 1 NUMA node (hwloc 2.9.0)". */
void pn_topology_describe(const pn_topology *t, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
