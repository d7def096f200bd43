/* The run's budget (see budget.h): one clock, one deadline, one account. */
#include "petrel/budget.h"

#include <time.h>

#include "petrel/sysinfo.h"

double pn_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct timespec pn_clock_timespec(double seconds)
{
    struct timespec ts;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

pn_budget pn_budget_make(double timeout_s, const volatile int *cancel, uint64_t memory)
{
    /* A deadline decades away is no deadline: converted to time_t or
     * nanoseconds it would overflow (a watchdog's wait, a turn's share). */
    bool forever = !(timeout_s > 0) || !(timeout_s <= PN_BUDGET_FOREVER_S);
    pn_budget b = {.deadline = forever ? 0 : pn_clock_now() + timeout_s,
                   .cancel = cancel, .memory = memory, .held = 0};
    return b;
}

pn_status pn_budget_status(const pn_budget *b)
{
    if (b == NULL)
        return PN_OK;
    if (b->cancel != NULL && __atomic_load_n(b->cancel, __ATOMIC_RELAXED))
        return PN_ERR_CANCELLED;
    if (b->drop != NULL && __atomic_load_n(b->drop, __ATOMIC_RELAXED))
        return PN_ERR_CANCELLED;
    if (b->stop != NULL && __atomic_load_n(b->stop, __ATOMIC_RELAXED))
        return PN_ERR_CANCELLED;
    if (b->deadline > 0 && pn_clock_now() >= b->deadline)
        return PN_ERR_TIMEOUT;
    return PN_OK;
}

bool pn_budget_expired(const pn_budget *b)
{
    return pn_budget_status(b) != PN_OK;
}

pn_status pn_budget_fail(const pn_budget *b, pn_error *err, const char *what)
{
    pn_status st = pn_budget_status(b);
    if (st == PN_ERR_CANCELLED)
        return pn_fail(err, st, "%s: cancelled", what);
    if (st == PN_ERR_TIMEOUT)
        return pn_fail(err, st, "%s: time limit reached", what);
    return PN_OK;
}

double pn_budget_left_s(const pn_budget *b)
{
    if (b == NULL || b->deadline <= 0)
        return 1e30;
    return b->deadline - pn_clock_now();
}

/* The share's own memory less what is charged (pn_budget_memory's
 * convention), without the process: a share of the time need not read
 * /proc; the phase that sizes itself does, when it asks. */
static uint64_t budget_own(const pn_budget *b)
{
    if (b->memory == 0)
        return 0;
    return b->held < b->memory ? b->memory - b->held : 1;
}

pn_budget pn_budget_share(const pn_budget *b, double fraction)
{
    pn_budget c = {0};
    if (b == NULL)
        return c;
    c = *b;
    c.memory = budget_own(b);
    c.held = 0;
    if (b->deadline > 0 && fraction < 1) {
        double now = pn_clock_now();
        double left = b->deadline - now;
        c.deadline = left > 0 ? now + left * fraction : b->deadline;
    }
    return c;
}

pn_budget pn_budget_within(const pn_budget *b, double seconds)
{
    pn_budget c = pn_budget_share(b, 1.0);
    double end = pn_clock_now() + seconds;
    if (c.deadline <= 0 || end < c.deadline)
        c.deadline = end;
    return c;
}

/* The process's resident bytes, the allocator's free pages given back
 * first when the size is above `trim_above`: glibc keeps what a phase
 * frees (Z3's and a finished exploration's tens of MB), and counted as
 * resident it would cut every later phase's room. Only near the cap: the
 * walk of the free lists costs milliseconds. */
static uint64_t budget_resident(uint64_t trim_above)
{
    uint64_t resident = pn_sys_resident();
    if (resident > trim_above) {
        pn_sys_trim();
        resident = pn_sys_resident();
    }
    return resident;
}

uint64_t pn_budget_memory(const pn_budget *b)
{
    if (b == NULL)
        return 0;
    uint64_t room = budget_own(b);
    if (b->process != 0) {
        uint64_t resident = budget_resident(b->process / 2);
        uint64_t left = resident < b->process ? b->process - resident : 1;
        room = room == 0 || left < room ? left : room;
    }
    return room;
}

pn_status pn_budget_fail_memory(const pn_budget *b, pn_error *err, const char *what)
{
    if (b == NULL || b->process == 0 || budget_resident(b->process) <= b->process)
        return PN_OK;
    return pn_fail(err, PN_ERR_OUT_OF_MEMORY,
                   "%s: out of memory (%.0f MB resident, %.0f MB allowed)", what,
                   (double)pn_sys_resident() / 1e6, (double)b->process / 1e6);
}

void pn_budget_charge(pn_budget *b, uint64_t bytes)
{
    if (b != NULL)
        b->held = bytes > UINT64_MAX - b->held ? UINT64_MAX : b->held + bytes;
}

void pn_budget_release(pn_budget *b, uint64_t bytes)
{
    if (b != NULL)
        b->held = bytes < b->held ? b->held - bytes : 0;
}
