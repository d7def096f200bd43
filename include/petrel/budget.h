/* What one run may spend: an absolute deadline on the project's one
 * monotonic clock, a cancel flag (a signal) and a memory account. The CLI
 * makes one before it reads the model, so reading, unfolding and compiling
 * count against the time and the memory, and passes it everywhere; a share
 * of the time (one formula's turn) is a copy with a nearer deadline
 * (pn_budget_share). */
#ifndef PETREL_BUDGET_H
#define PETREL_BUDGET_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_budget {
    double deadline;            /* pn_clock_now() seconds; 0: none */
    const volatile int *cancel; /* optional: non-zero stops every phase */
    /* Optional: non-zero once what this share works on was decided
     * elsewhere (the answer it works on is final: pn_check_watch); set by
     * another thread, read atomically; a share of this budget keeps it. */
    const volatile int *drop;
    /* Optional: non-zero once the step this budget is for must end (the
     * step it ran beside has ended: examine/sched.c); kept by shares. */
    const volatile int *stop;
    uint64_t memory;            /* bytes this share may hold; 0: unlimited */
    uint64_t held;              /* bytes charged by what outlives a phase */
    /* Bytes the whole process may keep resident: the run's cap, the same
     * in every share; 0 (pn_budget_make's): not watched. The one account
     * every phase counts against is the kernel's count of the process's
     * resident pages (pn_sys_resident), read when a phase asks how much it
     * may take (pn_budget_memory) and polled by the phases that cannot
     * count what they allocate (pn_budget_fail_memory). Not a counter each
     * phase charges: GLPK, Z3 and libxml2 allocate on their own, a phase's
     * allocator keeps what it frees, and the binary's and the libraries'
     * pages are resident too; none of it escapes the kernel's count. */
    uint64_t process;
    /* Optional: where the run says which phase it is in (phase.h), for a
     * progress reporter; kept by shares. NULL: nobody listens. */
    struct pn_phase *phase;
} pn_budget;

/* Seconds on CLOCK_MONOTONIC: the one clock every module measures with. */
double pn_clock_now(void);
/* seconds >= 0 (a span, or a time on that clock) as a struct timespec for
 * the waits that take one, its nanoseconds below 1e9. */
struct timespec pn_clock_timespec(double seconds);

/* timeout_s <= 0, infinite, or past PN_BUDGET_FOREVER_S (about 31 years): no
 * deadline; memory 0: unlimited; cancel may be NULL. */
#define PN_BUDGET_FOREVER_S 1e9
pn_budget pn_budget_make(double timeout_s, const volatile int *cancel, uint64_t memory);

/* PN_OK, PN_ERR_CANCELLED (the cancel flag, drop or stop) or PN_ERR_TIMEOUT.
 * b may be NULL (no limits). */
pn_status pn_budget_status(const pn_budget *b);
bool pn_budget_expired(const pn_budget *b);
/* pn_budget_status as an error: err names `what` ran out of time or was
 * cancelled. PN_OK when neither. */
pn_status pn_budget_fail(const pn_budget *b, pn_error *err, const char *what);

/* Seconds to the deadline (negative past it); a large number when none. */
double pn_budget_left_s(const pn_budget *b);

/* A child: the same cancel flag and memory left, and a deadline at
 * `fraction` of the time left (fraction >= 1 or no deadline: the parent's). */
pn_budget pn_budget_share(const pn_budget *b, double fraction);
/* A child that ends `seconds` from now at the latest (the parent's deadline
 * if sooner): a step with a fixed cap of its own. b may be NULL. */
pn_budget pn_budget_within(const pn_budget *b, double seconds);

/* Bytes a phase starting now may allocate: 0 when unlimited (the engines'
 * convention), at least 1 when the account is spent. The share's memory
 * less what is charged and, where the process is watched, no more than
 * the cap leaves beside what is resident now. A snapshot: a phase takes it
 * once, when it starts, and counts its own allocations against it (once
 * allocated they are resident, so asking again would count them twice).
 * Reads /proc: microseconds, and milliseconds when it first gives the
 * allocator's free pages back (pn_sys_trim) near the cap. */
uint64_t pn_budget_memory(const pn_budget *b);
/* PN_ERR_OUT_OF_MEMORY (err names `what` ran out of memory) when the
 * process is watched and its resident size has passed the cap; else PN_OK.
 * For the phases that cannot count what they allocate (reading, unfolding,
 * compiling), polled as the time is. b may be NULL. */
pn_status pn_budget_fail_memory(const pn_budget *b, pn_error *err, const char *what);
/* Charges (or releases) bytes that stay held while later phases run: the
 * state graph the CTL and LTL checkers work on. */
void pn_budget_charge(pn_budget *b, uint64_t bytes);
/* Says (phase.h) that the phase `fmt`... now runs, or what it works on now
 * (pn_budget_detail: a formula's turn); b or its phase may be NULL.
 * Defined in phase.c. */
void pn_budget_phase(const pn_budget *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void pn_budget_detail(const pn_budget *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void pn_budget_release(pn_budget *b, uint64_t bytes);

#ifdef __cplusplus
}
#endif
#endif
