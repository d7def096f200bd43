#include "petrel/topology.h"

#include <sched.h>
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
static bool topology_restrict_to_binding(hwloc_topology_t topo)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (set == NULL)
        return false;
    bool ok = hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) == 0 &&
              !hwloc_bitmap_iszero(set) && hwloc_topology_restrict(topo, set, 0) == 0;
    hwloc_bitmap_free(set);
    return ok;
}

static void topology_load(pn_topology *t)
{
    if (hwloc_topology_init(&t->topo) != 0) {
        t->topo = NULL;
        return;
    }
    /* hwloc leaves out what the cgroup cpuset disallows, but not what the
     * affinity mask (taskset, a batch slot) leaves out: the topology is
     * restricted to the CPUs this process may run on, so that the default
     * worker count and the pinning stay inside them. */
    if (hwloc_topology_load(t->topo) != 0 || !topology_restrict_to_binding(t->topo)) {
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

#ifdef PETREL_HAVE_HWLOC
/* Core c, or PU c where hwloc names no cores. */
static hwloc_obj_t topology_core(const pn_topology *t, uint32_t c)
{
    hwloc_obj_t core = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_CORE, c);
    return core != NULL ? core : hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PU, c);
}
#endif

bool pn_topology_pin(const pn_topology *t, uint32_t worker)
{
#ifdef PETREL_HAVE_HWLOC
    if (t == NULL || t->topo == NULL)
        return false;
    hwloc_obj_t core = topology_core(t, worker % t->cores);
    if (core == NULL || core->cpuset == NULL)
        return false;
    return hwloc_set_cpubind(t->topo, core->cpuset, HWLOC_CPUBIND_THREAD) == 0;
#else
    (void)t;
    (void)worker;
    return false;
#endif
}

bool pn_topology_pins(const pn_topology *t, uint32_t threads)
{
    return threads >= pn_topology_cores(t);
}

/* Without a topology a core is an allowed CPU, in the system's order. */
static uint32_t topology_allowed_pus(uint32_t first, uint32_t n, uint32_t *pus, uint32_t cap)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    uint32_t k = 0, got = 0; /* k: the allowed CPUs before cpu */
    for (int cpu = 0; cpu < CPU_SETSIZE && got < cap; cpu++) {
        if (!CPU_ISSET(cpu, &set))
            continue;
        if (k >= first && k - first < n)
            pus[got++] = (uint32_t)cpu;
        k++;
    }
    return got;
}

uint32_t pn_topology_core_pus(const pn_topology *t, uint32_t first, uint32_t n, uint32_t *pus,
                              uint32_t cap)
{
#ifdef PETREL_HAVE_HWLOC
    if (t != NULL && t->topo != NULL) {
        uint32_t got = 0;
        for (uint32_t c = first; c < t->cores && c - first < n; c++) {
            hwloc_obj_t core = topology_core(t, c);
            if (core == NULL || core->cpuset == NULL)
                continue;
            for (int pu = hwloc_bitmap_first(core->cpuset); pu >= 0 && got < cap;
                 pu = hwloc_bitmap_next(core->cpuset, pu))
                pus[got++] = (uint32_t)pu;
        }
        return got;
    }
#else
    (void)t;
#endif
    return topology_allowed_pus(first, n, pus, cap);
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
