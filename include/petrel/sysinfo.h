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
/* Resident set size of this process now, in bytes (/proc/self/statm: the
 * heap, the stacks and the pages of the binary and the libraries it has
 * touched); 0 when unknown. A few microseconds: not for inner loops. */
uint64_t pn_sys_resident(void);
/* Gives the pages the allocator keeps free back to the kernel (glibc keeps
 * freed memory for reuse, and it stays resident); nothing elsewhere. A
 * walk of the free lists: milliseconds on a fragmented heap. */
void pn_sys_trim(void);
/* From now on every block of 128 KB or more is mapped on its own and
 * unmapped when freed, and grows by remapping. glibc's default raises that
 * threshold to the largest block freed so far (up to 32 MB), after which
 * such blocks come from the heap, where a freed one stays resident and a
 * grown one is copied: in a CTL run held to 64 MB, 15-20 MB resident that
 * no phase counted. Up to 8 MB free on the heap's top stay for reuse.
 * For a process held to a memory cap; call it once, at the start. Nothing
 * elsewhere than glibc. */
void pn_sys_unmap_large_blocks(void);
/* Parses "512M", "16G", "1024" (MB, as BK_MEMORY_CONFINEMENT), "100K",
 * "12345B". 0 on a malformed or zero size. */
uint64_t pn_parse_size(const char *s);
/* What a size looks like, for the front ends' messages. */
#define PN_SIZE_HELP "a number of MB, or with a unit: B, K, M, G or T, e.g. 16G"
/* A limit in seconds: a whole decimal number >= 0, "inf" or anything past
 * PN_BUDGET_FOREVER_S reads as 0 (no limit). Returns 0, or -1 when s is not
 * such a number. One parser for every front end's --timeout. */
int pn_parse_seconds(const char *s, double *out);
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
