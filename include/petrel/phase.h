/* Which phase a run is in (reading the model, unfolding, the reductions,
 * each step of the scheduler and the formula it works on, ...), said by
 * the phases as they start and read by a progress reporter on another
 * thread: the CLI prints it when a phase runs long without a line of its
 * own (`--progress`). The run's budget carries it (pn_budget.phase), so
 * every phase that gets a budget can say where it is. */
#ifndef PETREL_PHASE_H
#define PETREL_PHASE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_phase pn_phase;

/* NULL when out of memory (a run then goes without). */
pn_phase *pn_phase_new(void);
void pn_phase_free(pn_phase *p);

/* The phase now running is `name` (cut at 160 bytes), since now; it has
 * no detail yet. p may be NULL. Cheap (a lock and a copy): for phases and
 * formulas, never per state. */
void pn_phase_set(pn_phase *p, const char *name);
/* What the phase works on now (a formula's turn, ...), kept beside its name
 * until the next phase or detail. */
void pn_phase_detail(pn_phase *p, const char *detail);

/* Copies "name" or "name: detail" into buf (n bytes; "" before the first
 * phase) and returns the seconds since the phase was set (0 before). */
double pn_phase_get(pn_phase *p, char *buf, size_t n);

#ifdef __cplusplus
}
#endif

#endif
