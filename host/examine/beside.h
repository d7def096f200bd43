/* Two portfolio steps at once, each on a thread of its own, over one
 * check: a parallel portfolio in the manner of TAPAAL's (its search
 * strategies run side by side, each with the whole budget) and of
 * ITS-Tools' (the SMT, walk and decision-diagram engines run as separate
 * processes, the first answer wins). The local CTL checker and the LTL
 * product each use one worker (more was a loss, docs/benchmarks.md), the
 * decision diagrams one: run one after the other, each had a part of the
 * time and a second core stood idle; beside each other both have all of it.
 *
 * What the two share: the check's answers, read and written only under
 * the lock (pn_check is not thread-safe beyond its visitor), and one flag
 * per answer, set when either step decides it, which the other step's
 * budget for that answer watches (pn_budget.drop): a formula one step
 * proves is dropped at once by the other. */
#ifndef PETREL_EXAMINE_BESIDE_H
#define PETREL_EXAMINE_BESIDE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ex_beside {
    pthread_mutex_t lock;
    int *gone; /* per answer: decided since the two started; [n]: the lead ended */
    uint32_t n;
} ex_beside;

pn_status ex_beside_init(ex_beside *b, uint32_t n, pn_error *err);
void ex_beside_free(ex_beside *b);

/* The lock around every use of the check's answers; both are no-ops when
 * b is NULL (a step running alone). */
void ex_beside_lock(ex_beside *b);
void ex_beside_unlock(ex_beside *b);

/* Whether answer i of c is still unknown, and how many are: read under
 * the lock (b may be NULL). */
bool ex_beside_open(ex_beside *b, const pn_check *c, uint32_t i);
uint32_t ex_beside_open_count(ex_beside *b, const pn_check *c);

/* Under the lock, after answer i was decided: the other step drops it. */
void ex_beside_settled(ex_beside *b, uint32_t i);

/* share, for work on answer i: it ends (PN_ERR_CANCELLED) once another
 * step decides i. Nothing when b is NULL. */
void ex_beside_watch(const ex_beside *b, uint32_t i, pn_budget *share);

/* The other step's budget: it ends once the lead has (ex_beside_end). */
void ex_beside_follow(const ex_beside *b, pn_budget *budget);

/* Every flag set: whatever the other step works on is dropped. */
void ex_beside_end(ex_beside *b);

/* lead(a) on this thread and other(c) on a new one; when lead returns,
 * other is told to end (ex_beside_end), and is waited for. When no thread
 * can be made, other runs after lead: false then. */
bool ex_beside_run(ex_beside *b, void (*lead)(void *), void *a, void (*other)(void *), void *c);

#ifdef __cplusplus
}
#endif
#endif
