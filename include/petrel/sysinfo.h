/* What the machine gives this process: memory and cores, honouring cgroup
 * limits and the affinity mask (containers, the MCC VM, taskset). */
#ifndef PETREL_SYSINFO_H
#define PETREL_SYSINFO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* min(MemAvailable, cgroup memory limit) in bytes; 0 when unknown. */
uint64_t pn_sys_memory_bytes(void);
/* CPUs in the affinity mask (at least 1). */
uint32_t pn_sys_cpu_count(void);
/* Peak resident set size of this process in bytes. */
uint64_t pn_sys_peak_rss(void);
/* Parses "512M", "16G", "1024" (MB, as BK_MEMORY_CONFINEMENT), "100K",
 * "12345B". 0 on a malformed or zero size. */
uint64_t pn_parse_size(const char *s);
/* Asks the kernel for transparent huge pages over the whole 2 MB pages
 * inside [p, p + bytes): the hash tables are probed at random, and with
 * 4 KB pages nearly every probe also misses the TLB. Untouched pages (a
 * fresh calloc or realloc of a large block) are then faulted in as huge
 * pages. A hint: nothing changes where THP is off or unsupported. */
void pn_sys_advise_huge(void *p, uint64_t bytes);

#ifdef __cplusplus
}
#endif
#endif
