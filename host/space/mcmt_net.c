/* A bounded MCMT instance as a 1-safe P/T net (petrel/mcmt.h,
 * pn_mcmt_space_net): the standard encoding of a finite transition system
 * over variables with finite domains as a net, one place per variable and
 * value (as the MCC's nets from automata networks are built, and LTSmin's
 * PINS-to-net view of a guarded-command language). A space transition
 * depends only on the cells it reads and writes (host/space/mcmt.c's
 * static sets, the same ones partial-order reduction trusts), so each of
 * their valuations that enables it is one P/T transition: it takes the
 * places of the old values and puts the places of the new. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "space/mcmt_int.h"

#define MN_MAX_TRIES (1ULL << 22) /* valuations tried, over all transitions */

typedef struct mn {
    mc *m;
    pn_net *net;
    uint32_t *place0;   /* per cell: the place of its lowest value */
    uint64_t *base, *succ;
    uint32_t *cells;    /* the cells one transition reads or writes */
    uint64_t tries;
    pn_error *err;
} mn;

static void mn_cell_name(const mc *m, uint32_t c, char *buf, size_t n)
{
    const pn_mcmt_sys *sys = m->sys;
    uint32_t K = sys->n_arrays + sys->n_params;
    for (uint32_t a = 0; a < K; a++) {
        uint32_t end = a + 1 < K ? m->cell0[a + 1] : m->crash0;
        if (c < m->cell0[a] || c >= end)
            continue;
        const char *name = a < sys->n_arrays ? sys->arrays[a].name : sys->params[a - sys->n_arrays].name;
        if (end - m->cell0[a] == 1 && (a >= sys->n_arrays || sys->arrays[a].global))
            snprintf(buf, n, "%s", name);
        else
            snprintf(buf, n, "%s_%lld", name, (long long)(m->b.idx_from + c - m->cell0[a]));
        return;
    }
    snprintf(buf, n, "crashed_%lld", (long long)(m->b.idx_from + c - m->crash0));
}

static pn_status mn_places(mn *t)
{
    mc *m = t->m;
    char name[160], id[200];
    for (uint32_t c = 0; c < m->n_cells; c++) {
        mn_cell_name(m, c, name, sizeof name);
        int64_t v0 = mc_get(m, m->init, c, m->clo[c]);
        for (int64_t v = m->clo[c]; v <= m->chi[c]; v++) {
            snprintf(id, sizeof id, "%s_is_%lld", name, (long long)v);
            uint64_t tok = m->n_init == 1 && v == v0;
            int64_t p = pn_net_add_place(t->net, id, NULL, tok, t->err);
            if (p < 0)
                return t->err->code;
            if (v == m->clo[c])
                t->place0[c] = (uint32_t)p;
        }
    }
    return PN_OK;
}

/* One P/T transition from valuation base to succ over cells[0 .. n). */
static pn_status mn_emit(mn *t, const char *name, uint32_t n, const uint64_t *from,
                         const uint64_t *to)
{
    mc *m = t->m;
    char id[200];
    snprintf(id, sizeof id, "%s_%u", name, t->net->n_transitions);
    int64_t tr = pn_net_add_transition(t->net, id, NULL, t->err);
    if (tr < 0)
        return t->err->code;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = t->cells[k];
        uint32_t pin = t->place0[c] + (uint32_t)(mc_get(m, from, c, m->clo[c]) - m->clo[c]);
        uint32_t pout = t->place0[c] + (uint32_t)(mc_get(m, to, c, m->clo[c]) - m->clo[c]);
        pn_status st = pn_net_add_arc(t->net, pin, (uint32_t)tr, true, 1, t->err);
        if (st == PN_OK)
            st = pn_net_add_arc(t->net, pout, (uint32_t)tr, false, 1, t->err);
        if (st != PN_OK)
            return st;
    }
    return PN_OK;
}

/* The cells space transition u reads or writes, into t->cells. */
static uint32_t mn_cells(mn *t, uint32_t u)
{
    const pn_space_statics *st = &t->m->st;
    uint32_t n = 0;
    for (int w = 0; w < 2; w++) {
        const uint32_t *off = w ? st->wr_off : st->rd_off, *it = w ? st->wr : st->rd;
        for (uint32_t k = off[u]; k < off[u + 1]; k++) {
            bool seen = false;
            for (uint32_t i = 0; i < n && !seen; i++)
                seen = t->cells[i] == it[k];
            if (!seen)
                t->cells[n++] = it[k];
        }
    }
    return n;
}

static pn_status mn_transition(mn *t, uint32_t u)
{
    mc *m = t->m;
    uint32_t ti;
    int64_t x, y;
    pn_mcmt_decode(m, u, &ti, &x, &y);
    uint32_t n = mn_cells(t, u);
    uint64_t total = 1;
    for (uint32_t k = 0; k < n; k++) {
        total *= (uint64_t)(m->chi[t->cells[k]] - m->clo[t->cells[k]] + 1);
        if (total > MN_MAX_TRIES || t->tries + total > MN_MAX_TRIES)
            return pn_fail(t->err, PN_ERR_UNSUPPORTED, "the net would need more than %llu "
                           "valuations tried (%s reads too many cells)",
                           (unsigned long long)MN_MAX_TRIES, m->sys->trans[ti].name);
    }
    t->tries += total;
    memcpy(t->base, m->init, (size_t)m->words * sizeof *t->base);
    for (uint64_t code = 0; code < total; code++) {
        uint64_t c = code;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t cell = t->cells[k];
            uint64_t span = (uint64_t)(m->chi[cell] - m->clo[cell] + 1);
            mc_set(m, t->base, cell, m->clo[cell], m->clo[cell] + (int64_t)(c % span));
            c /= span;
        }
        if (!pn_mcmt_try(m, t->base, ti, x, y, t->succ))
            continue;
        pn_status st = mn_emit(t, m->sys->trans[ti].name, n, t->base, t->succ);
        if (st != PN_OK)
            return st;
    }
    return PN_OK;
}

/* Several initial states: "start" and a transition per initial state. */
static pn_status mn_starts(mn *t)
{
    mc *m = t->m;
    int64_t start = pn_net_add_place(t->net, "start", NULL, 1, t->err);
    if (start < 0)
        return t->err->code;
    for (uint64_t k = 0; k < m->n_init; k++) {
        char id[64];
        snprintf(id, sizeof id, "initial_%llu", (unsigned long long)k);
        int64_t tr = pn_net_add_transition(t->net, id, NULL, t->err);
        if (tr < 0 || pn_net_add_arc(t->net, (uint32_t)start, (uint32_t)tr, true, 1, t->err) != PN_OK)
            return t->err->code;
        const uint64_t *s = m->init + k * m->words;
        for (uint32_t c = 0; c < m->n_cells; c++) {
            uint32_t p = t->place0[c] + (uint32_t)(mc_get(m, s, c, m->clo[c]) - m->clo[c]);
            if (pn_net_add_arc(t->net, p, (uint32_t)tr, false, 1, t->err) != PN_OK)
                return t->err->code;
        }
    }
    return PN_OK;
}

pn_status pn_mcmt_space_net(pn_space *sp, pn_net **out, pn_error *err)
{
    *out = NULL;
    mc *m = pn_mcmt_of(sp);
    if (m == NULL)
        return pn_fail(err, PN_ERR_INTERNAL, "not an MCMT instance");
    if (m->n_init == 0)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "the instance has no initial state");
    mn t = {.m = m, .err = err, .net = pn_net_new("mcmt")};
    t.place0 = calloc((size_t)m->n_cells + 1, sizeof *t.place0);
    t.cells = calloc((size_t)m->n_cells + 1, sizeof *t.cells);
    t.base = calloc((size_t)m->words, sizeof *t.base);
    t.succ = calloc((size_t)m->words, sizeof *t.succ);
    pn_status st = t.net != NULL && t.place0 != NULL && t.cells != NULL && t.base != NULL &&
                           t.succ != NULL
                       ? mn_places(&t)
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory for the net");
    if (st == PN_OK && m->n_init > 1)
        st = mn_starts(&t);
    for (uint32_t u = 0; st == PN_OK && u < m->st.transitions; u++)
        st = mn_transition(&t, u);
    const char *msg = NULL;
    if (st == PN_OK && pn_mcmt_space_defect(sp, &msg) != PN_MCMT_DEFECT_NONE)
        st = pn_fail(err, PN_ERR_UNSUPPORTED, "no net: a valuation meets %s", msg);
    free(t.place0);
    free(t.cells);
    free(t.base);
    free(t.succ);
    if (st != PN_OK) {
        pn_net_free(t.net);
        return st;
    }
    *out = t.net;
    return PN_OK;
}
