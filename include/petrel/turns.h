/* Turns: the one way a budget's time is cut into shares among the tasks of
 * a step (the formulas of an examination, the properties of a system, the
 * nets of an examination's formulas), so that no task starves the others.
 *
 * Two policies. PN_TURNS_ONCE: one turn per task, each an equal share of
 * the time left when it starts (a task that finishes early leaves its time
 * to the next). PN_TURNS_GROWING, as the on-the-fly checks have always done
 * (TAPAAL's parallel query processing hands formulas out the same way):
 * with a deadline, three passes, each task getting a quarter of an equal
 * share in the first (most tasks end in milliseconds: the hard ones should
 * not wait behind each other), an equal share in the second and all that is
 * left in the third; without one, endless passes of turns that grow four
 * times each pass from PN_TURNS_FIRST_S, so that a task that never ends
 * does not keep the others from theirs. A task whose turn ran out comes back
 * in the next pass; whether it resumes or starts again is the caller's.
 *
 * With `workers` claiming turns at once, a share is `workers` times as long
 * (that many tasks run at the same time). Not thread-safe: callers with
 * several workers claim and end turns under a lock of their own. */
#ifndef PETREL_TURNS_H
#define PETREL_TURNS_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pn_turns_policy {
    PN_TURNS_ONCE,
    PN_TURNS_GROWING
} pn_turns_policy;

/* The first turn of a task when there is no deadline (PN_TURNS_GROWING). */
#define PN_TURNS_FIRST_S 1.0

/* Whether task i still needs turns (an open answer, say); read at each
 * claim. */
typedef bool (*pn_turns_open)(void *ctx, uint32_t i);

typedef struct pn_turns pn_turns;

/* Tasks 0..n-1 within budget (may be NULL: no deadline). */
pn_status pn_turns_new(const pn_budget *budget, uint32_t n, uint32_t workers,
                       pn_turns_policy policy, pn_turns_open open, void *ctx, pn_turns **out,
                       pn_error *err);
void pn_turns_free(pn_turns *t);

/* The next turn: the open task, not running, with the earliest pass (the
 * lowest index among those), *share its budget (a share of the time left,
 * with the budget's cancel and drop flags and memory), *pass its pass.
 * False when no turn is left: every task is closed, running or had its
 * last pass, or the budget ran out. */
bool pn_turns_next(pn_turns *t, uint32_t *i, pn_budget *share, int *pass);
/* Task i's turn is over (decided or not): another may be claimed for it. */
void pn_turns_end(pn_turns *t, uint32_t i);
/* No more turns for anyone (a task found what ends them all). */
void pn_turns_stop(pn_turns *t);

#ifdef __cplusplus
}
#endif
#endif
