/* The run's budget (see budget.h): one clock, one deadline, one account. */
#include "petrel/budget.h"

#include <time.h>

double pn_clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

pn_budget pn_budget_make(double timeout_s, const volatile int *cancel, uint64_t memory)
{
    pn_budget b = {.deadline = timeout_s > 0 ? pn_clock_now() + timeout_s : 0,
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

pn_budget pn_budget_share(const pn_budget *b, double fraction)
{
    pn_budget c = {0};
    if (b == NULL)
        return c;
    c = *b;
    c.memory = pn_budget_memory(b);
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

uint64_t pn_budget_memory(const pn_budget *b)
{
    if (b == NULL || b->memory == 0)
        return 0;
    return b->held < b->memory ? b->memory - b->held : 1;
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
