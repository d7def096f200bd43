/* Enabled sets kept across firings (petrel/space.h): the incremental
 * enabledness of ITS-Tools' random walker (Y. Thierry-Mieg, "Structural
 * reductions revisited", Petri Nets 2020). Firing t changes the
 * token counts of t's write set only, so a transition u changes its
 * enabledness only when t adds to or takes from one of u's input places:
 * the static may-enable and may-disable relations (pt_static.c) list
 * exactly those u. The list itself (pn_space_enset_put) also serves walks
 * on unpacked markings that test on their own (host/linear/lin_path.c). */
#include <stdlib.h>

#include "pn_state.h"
#include "space/pt.h"

pn_status pn_space_enset_alloc(pn_space_enset *e, uint32_t transitions, pn_error *err)
{
    *e = (pn_space_enset){0};
    e->list = malloc(((size_t)transitions + 1) * sizeof *e->list);
    e->pos = malloc(((size_t)transitions + 1) * sizeof *e->pos);
    if (e->list == NULL || e->pos == NULL) {
        pn_space_enset_free(e);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for an enabled set");
    }
    for (uint32_t t = 0; t < transitions; t++)
        e->pos[t] = UINT32_MAX;
    return PN_OK;
}

/* A listing afresh tests at most every transition once (each sits in its
 * trigger place's list); testing again what t may enable or disable pays
 * where that is a small part of the net. Where one place feeds most
 * transitions (a bridge's or an election's shared places:
 * BridgeAndVehicles-PT-V80P20N10's transitions may enable or disable 1,035
 * of its 2,108 on average, NeoElection-PT-4's 401 of 2,340) the set is
 * listed afresh after t instead: beyond a quarter of the transitions. */
#define ENSET_REFILL_PARTS 4

pn_status pn_space_enset_init(pn_space *sp, pn_space_enset *e, pn_error *err)
{
    pn_status st = pn_space_enset_alloc(e, pn_space_transitions(sp), err);
    e->refill_above = pn_space_transitions(sp) / ENSET_REFILL_PARTS;
    if (st == PN_OK)
        st = pn_space_may_enable(sp, &e->en, err);
    if (st == PN_OK)
        st = pn_space_may_disable(sp, &e->dis, err);
    if (st != PN_OK)
        pn_space_enset_free(e);
    return st;
}

void pn_space_enset_put(pn_space_enset *e, uint32_t u, bool enabled)
{
    uint32_t k = e->pos[u];
    if (enabled && k == UINT32_MAX) {
        e->pos[u] = e->n;
        e->list[e->n++] = u;
    } else if (!enabled && k != UINT32_MAX) { /* the last one takes its place */
        uint32_t last = e->list[--e->n];
        e->list[k] = last;
        e->pos[last] = k;
        e->pos[u] = UINT32_MAX;
    }
}

void pn_space_enset_fill(pn_space *sp, pn_space_enset *e, const uint64_t *s)
{
    for (uint32_t k = 0; k < e->n; k++)
        e->pos[e->list[k]] = UINT32_MAX;
    e->n = pn_space_enabled(sp, s, e->list);
    for (uint32_t k = 0; k < e->n; k++)
        e->pos[e->list[k]] = k;
}

void pn_space_enset_fired(pn_space *sp, pn_space_enset *e, const uint64_t *s, uint32_t t)
{
    uint32_t work = e->dis.off[t + 1] - e->dis.off[t] + e->en.off[t + 1] - e->en.off[t];
    if (work > e->refill_above) {
        pn_space_enset_fill(sp, e, s);
        return;
    }
    if (sp->pt == NULL) { /* another language: its own test, one transition at a time */
        for (uint32_t k = e->dis.off[t]; k < e->dis.off[t + 1]; k++)
            pn_space_enset_put(e, e->dis.items[k], pn_space_enabled_one(sp, s, e->dis.items[k]));
        for (uint32_t k = e->en.off[t]; k < e->en.off[t + 1]; k++)
            pn_space_enset_put(e, e->en.items[k], pn_space_enabled_one(sp, s, e->en.items[k]));
        return;
    }
    const pn_prog *g = &sp->pt->lay->prog;
    for (uint32_t k = e->dis.off[t]; k < e->dis.off[t + 1]; k++)
        pn_space_enset_put(e, e->dis.items[k], pn_state_enabled(g, s, e->dis.items[k]));
    for (uint32_t k = e->en.off[t]; k < e->en.off[t + 1]; k++)
        pn_space_enset_put(e, e->en.items[k], pn_state_enabled(g, s, e->en.items[k]));
}

void pn_space_enset_free(pn_space_enset *e)
{
    free(e->list);
    free(e->pos);
    *e = (pn_space_enset){0};
}
