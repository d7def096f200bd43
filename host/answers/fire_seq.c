/* Recording a walk's firing sequence (fire_seq.h). */
#include "answers/fire_seq.h"

#include <stdlib.h>
#include <string.h>

void pn_fire_seq_push(pn_fire_seq *s, uint32_t t)
{
    if (s->lost)
        return;
    if (s->n == s->cap) {
        uint64_t cap = s->cap ? 2 * s->cap : 256;
        uint32_t *grown = cap < SIZE_MAX / sizeof *grown
                              ? realloc(s->trans, (size_t)cap * sizeof *grown)
                              : NULL;
        if (grown == NULL) {
            s->lost = true;
            return;
        }
        s->trans = grown;
        s->cap = cap;
    }
    s->trans[s->n++] = t;
}

uint32_t *pn_fire_seq_copy(const pn_fire_seq *s)
{
    if (s->lost)
        return NULL;
    uint32_t *copy = malloc(((size_t)s->n + 1) * sizeof *copy);
    if (copy != NULL && s->n > 0)
        memcpy(copy, s->trans, (size_t)s->n * sizeof *copy);
    return copy;
}

void pn_fire_seq_free(pn_fire_seq *s)
{
    free(s->trans);
    *s = (pn_fire_seq){0};
}
