#include "petrel/topology.h"

#include <stdio.h>
#include <stdlib.h>

#include "petrel/sysinfo.h"

#ifdef PETREL_HAVE_HWLOC
#include <hwloc.h>
#endif

struct pn_topology {
    uint32_t cores, pus, numa;
#ifdef PETREL_HAVE_HWLOC
    hwloc_topology_t topo;    /* NULL when hwloc failed to load */
#endif
};

#ifdef PETREL_HAVE_HWLOC
static void topology_load(pn_topology *t)
{
    if (hwloc_topology_init(&t->topo) != 0) {
        t->topo = NULL;
        return;
    }
    /* hwloc restricts the topology to what this process may use (affinity
     * mask and cgroup cpuset) unless told otherwise. */
    if (hwloc_topology_load(t->topo) != 0) {
        hwloc_topology_destroy(t->topo);
        t->topo = NULL;
        return;
    }
    int cores = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_CORE);
    int pus = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_PU);
    int numa = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_NUMANODE);
    t->pus = pus > 0 ? (uint32_t)pus : t->pus;
    t->cores = cores > 0 ? (uint32_t)cores : t->pus;
    t->numa = numa > 0 ? (uint32_t)numa : 1;
}
#endif

pn_topology *pn_topology_new(void)
{
    pn_topology *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->pus = pn_sys_cpu_count();
    t->cores = t->pus;
    t->numa = 1;
#ifdef PETREL_HAVE_HWLOC
    topology_load(t);
#endif
    return t;
}

void pn_topology_free(pn_topology *t)
{
    if (t == NULL)
        return;
#ifdef PETREL_HAVE_HWLOC
    if (t->topo != NULL)
        hwloc_topology_destroy(t->topo);
#endif
    free(t);
}

uint32_t pn_topology_cores(const pn_topology *t) { return t && t->cores ? t->cores : 1; }

bool pn_topology_pin(const pn_topology *t, uint32_t worker)
{
#ifdef PETREL_HAVE_HWLOC
    if (t == NULL || t->topo == NULL)
        return false;
    hwloc_obj_t core = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_CORE, worker % t->cores);
    if (core == NULL)
        core = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PU, worker % t->pus);
    if (core == NULL || core->cpuset == NULL)
        return false;
    return hwloc_set_cpubind(t->topo, core->cpuset, HWLOC_CPUBIND_THREAD) == 0;
#else
    (void)t;
    (void)worker;
    return false;
#endif
}

void pn_topology_describe(const pn_topology *t, char *buf, size_t len)
{
#ifdef PETREL_HAVE_HWLOC
    const char *how = t->topo != NULL ? "hwloc " HWLOC_VERSION : "no hwloc topology";
#else
    const char *how = "built without hwloc: not pinned";
#endif
    snprintf(buf, len, "%u core(s), %u PU(s), %u NUMA node(s) (%s)", t->cores, t->pus, t->numa,
             how);
}
