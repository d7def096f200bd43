/* A firing sequence being recorded by a memory-less walk (walk.c, the
 * linear layer's lin_path.c): the transitions fired since the walk last
 * restarted from the initial marking, so that the walk that meets a
 * witness can hand its prefix over as the answer's trace (check.h,
 * pn_check_set_path). A plain growable array (doubling); a failed growth
 * marks the sequence lost rather than truncating it, since a shortened
 * sequence would reach another marking. */
#ifndef PETREL_ENGINE_FIRE_SEQ_H
#define PETREL_ENGINE_FIRE_SEQ_H

#include <stdbool.h>
#include <stdint.h>

typedef struct pn_fire_seq {
    uint32_t *trans;
    uint64_t n, cap;
    bool lost;              /* a step could not be stored since the restart */
} pn_fire_seq;

/* A walk restarts from the initial marking: nothing fired yet. */
static inline void pn_fire_seq_restart(pn_fire_seq *s)
{
    s->n = 0;
    s->lost = false;
}

void pn_fire_seq_push(pn_fire_seq *s, uint32_t t);
/* A malloc'ed copy of the n steps (n + 1 entries allocated); NULL when the
 * sequence is lost or memory is short. */
uint32_t *pn_fire_seq_copy(const pn_fire_seq *s);
void pn_fire_seq_free(pn_fire_seq *s);

#endif
