#include "petrel/sysinfo.h"

#include "petrel/budget.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static uint64_t sys_read_u64(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    char buf[64] = {0};
    uint64_t v = 0;
    if (fgets(buf, sizeof buf, f) != NULL && isdigit((unsigned char)buf[0]))
        v = strtoull(buf, NULL, 10);
    fclose(f);
    return v;
}

static uint64_t sys_mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f == NULL)
        return 0;
    char line[256];
    uint64_t kb = 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "MemAvailable: %lu kB", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}

uint64_t pn_sys_memory_bytes(void)
{
    uint64_t avail = sys_mem_available();
    /* cgroup v2, then v1; "max" and huge v1 values read as no limit. */
    uint64_t lim = sys_read_u64("/sys/fs/cgroup/memory.max");
    if (lim == 0)
        lim = sys_read_u64("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    if (lim != 0 && lim < (1ULL << 60) && (avail == 0 || lim < avail))
        return lim;
    return avail;
}

uint32_t pn_sys_cpu_count(void)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0)
            return (uint32_t)n;
    }
    return 1;
}

uint64_t pn_sys_peak_rss(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (uint64_t)ru.ru_maxrss * 1024;
}

uint64_t pn_sys_resident(void)
{
    /* open/read/close on a stack buffer: no allocation, so it can be asked
     * when the memory is what ran out. */
    int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    char buf[128];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    unsigned long long size = 0, resident = 0;
    if (sscanf(buf, "%llu %llu", &size, &resident) != 2)
        return 0;
    long page = sysconf(_SC_PAGESIZE);
    return (uint64_t)resident * (uint64_t)(page > 0 ? page : 4096);
}

void pn_sys_trim(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

void pn_sys_unmap_large_blocks(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    /* Fixing the threshold fixes the heap's trim threshold too, at 128 KB:
     * the heap's top then shrinks and grows again at every large free and
     * allocation (twice the time of Dekker-PT-100's reductions, 0.5 s to
     * 1.06 s). 8 MB kept free on top cost nothing measurable; the budget
     * trims it when the process nears its cap (pn_budget_memory). */
    mallopt(M_TRIM_THRESHOLD, 8 * 1024 * 1024);
#endif
}

int pn_parse_seconds(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || !(v >= 0))
        return -1;
    *out = v <= PN_BUDGET_FOREVER_S ? v : 0;
    return 0;
}

uint64_t pn_parse_size(const char *s)
{
    if (s == NULL || !isdigit((unsigned char)*s))
        return 0;
    errno = 0;
    char *end;
    uint64_t v = strtoull(s, &end, 10);
    if (errno != 0 || v == 0)
        return 0;
    uint64_t mult;
    switch (toupper((unsigned char)*end)) {
    case '\0': mult = 1ULL << 20; break; /* BK_MEMORY_CONFINEMENT is in MB */
    case 'B': mult = 1; break;
    case 'K': mult = 1ULL << 10; break;
    case 'M': mult = 1ULL << 20; break;
    case 'G': mult = 1ULL << 30; break;
    case 'T': mult = 1ULL << 40; break;
    default: return 0;
    }
    if (*end != '\0') {
        end++;
        if (toupper((unsigned char)*end) == 'B' && mult != 1)
            end++;
        if (*end != '\0')
            return 0;
    }
    if (v > UINT64_MAX / mult)
        return 0;
    return v * mult;
}

void pn_sys_advise_huge(void *p, uint64_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = 2u << 20;
    uintptr_t a = ((uintptr_t)p + huge - 1) & ~(huge - 1);
    uintptr_t b = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (p != NULL && b > a)
        (void)madvise((void *)a, b - a, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}
