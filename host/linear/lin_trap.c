/* The largest trap inside a set of places (Starke's fixpoint; Esparza &
 * Melzer 2000 use it to refine the state equation): a trap Q has every
 * transition that consumes from Q also produce into Q, so a trap marked
 * initially stays marked in every reachable marking. Removing the places a
 * violating transition consumes from, until none is left, gives the union
 * of all traps inside the set. */
#include "linear/lin.h"

/* Does t put a token into some place of the set? */
static bool trap_feeds(const pn_cnet *cn, const uint8_t *in, uint32_t t)
{
    for (uint32_t a = cn->post_off[t]; a < cn->post_off[t + 1]; a++)
        if (in[cn->post[a].place])
            return true;
    return false;
}

uint32_t lin_trap_max(const pn_cnet *cn, uint8_t *in)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t t = 0; t < cn->n_transitions; t++) {
            bool takes = false;
            for (uint32_t a = cn->pre_off[t]; a < cn->pre_off[t + 1] && !takes; a++)
                takes = in[cn->pre[a].place];
            if (!takes || trap_feeds(cn, in, t))
                continue;
            for (uint32_t a = cn->pre_off[t]; a < cn->pre_off[t + 1]; a++)
                in[cn->pre[a].place] = 0;
            changed = true;
        }
    }
    uint32_t n = 0;
    for (uint32_t p = 0; p < cn->n_places; p++)
        n += in[p];
    return n;
}
