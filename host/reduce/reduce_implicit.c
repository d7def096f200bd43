/* Implicit places, dominated by one other place (Silva, Teruel & Colom,
 * "Linear algebraic and linear programming techniques for the analysis of
 * place/transition net systems", 1998, the structurally implicit place
 * condition with the weight vector restricted to one place; Berthelot's
 * "redundant place" in the case of two identical places).
 *
 * p (unobserved) is implicit with respect to a kept place q when
 *   (1) C[q,t] <= C[p,t] for every live transition t, and
 *   (2) Pre[q,t] - m0(q) >= Pre[p,t] - m0(p) for every live t consuming p.
 * Why: by (1), m(p) - m(q) never decreases along a firing, so m(p) >=
 * m(q) + m0(p) - m0(q) in every reachable marking; a transition t whose
 * other inputs hold has m(q) >= Pre[q,t] (Pre[q,t] = 0 when q is no input),
 * so by (2) m(p) >= Pre[p,t]: p never disables anything. Dropping p is
 * then a functional bisimulation (the projection): the reachability graph,
 * deadlocks and every transition's enabledness stay, so it serves every
 * reduced class, LTL with X included. Dead transitions never fire and are
 * left out; duplicates share their kept transition's columns. */
#include "reduce/reduce_work.h"

#include <stdlib.h>
#include <string.h>

#include "space/pt.h"

/* Candidates q tried per place: those the first consumer of p touches. */
#define IMP_MAX_CANDIDATES 64u

typedef struct imp_state {
    const red_work *w;
    red_rows rows;         /* per place: its live incidence entries */
    int64_t *cp, *cq;      /* dense scratch per transition: C[p,.], C[q,.] */
    uint64_t *preq;        /* dense scratch: Pre[q,.] */
} imp_state;

/* The rows of the incidence matrix over live transitions, and scratch. */
static pn_status imp_rows(imp_state *s, pn_error *err)
{
    uint32_t T = s->w->cn->n_transitions;
    s->cp = calloc((size_t)T + 1, sizeof *s->cp);
    s->cq = calloc((size_t)T + 1, sizeof *s->cq);
    s->preq = calloc((size_t)T + 1, sizeof *s->preq);
    if (!s->cp || !s->cq || !s->preq)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    return red_rows_build(s->w, &s->rows, err);
}

static void imp_free(imp_state *s)
{
    red_rows_free(&s->rows);
    free(s->cp);
    free(s->cq);
    free(s->preq);
}

/* Fills (or with clear, empties) the dense row of place x. */
static void imp_fill(imp_state *s, uint32_t x, int64_t *dense, bool clear)
{
    for (uint32_t k = s->rows.off[x]; k < s->rows.off[x + 1]; k++)
        dense[s->rows.t[k]] = clear ? 0 : s->rows.d[k];
}

/* Conditions (1) and (2) for p against q; s->cp holds C[p,.]. The
 * consumers of p are the live transitions with a pre arc on it. */
static bool imp_dominates(imp_state *s, uint32_t p, uint32_t q, const uint32_t *cons,
                          const uint64_t *wp, uint32_t ncons)
{
    const pn_cnet *cn = s->w->cn;
    bool ok = true;
    for (uint32_t k = s->rows.off[q]; ok && k < s->rows.off[q + 1]; k++)
        ok = s->rows.d[k] <= s->cp[s->rows.t[k]];
    imp_fill(s, q, s->cq, false);
    for (uint32_t k = s->rows.off[p]; ok && k < s->rows.off[p + 1]; k++)
        ok = s->rows.d[k] >= 0 || s->cq[s->rows.t[k]] <= s->rows.d[k];
    imp_fill(s, q, s->cq, true);
    for (uint32_t i = 0; ok && i < ncons; i++) {
        /* Pre[q,t] - m0(q) >= Pre[p,t] - m0(p), in 128 bits */
        __int128 lhs = (__int128)red_arc_weight(cn, true, cons[i], q) - (__int128)cn->m0[q];
        __int128 rhs = (__int128)wp[i] - (__int128)cn->m0[p];
        ok = lhs >= rhs;
    }
    return ok;
}

/* p's live consumers and their weights; the count. */
static uint32_t imp_consumers(const imp_state *s, uint32_t p, uint32_t *cons, uint64_t *wp,
                              const uint32_t *coff, const uint32_t *citems)
{
    const pn_cnet *cn = s->w->cn;
    uint32_t n = 0;
    for (uint32_t k = coff[p]; k < coff[p + 1]; k++)
        if (red_alive(s->w, citems[k])) {
            cons[n] = citems[k];
            wp[n++] = red_arc_weight(cn, true, citems[k], p);
        }
    return n;
}

/* Is p implicit with respect to some kept place its first consumer
 * touches? */
static bool imp_place(imp_state *s, uint32_t p, const uint32_t *cons, const uint64_t *wp,
                      uint32_t ncons)
{
    const pn_cnet *cn = s->w->cn;
    uint32_t t = cons[0], tried = 0;
    bool found = false;
    imp_fill(s, p, s->cp, false);
    for (int side = 0; side < 2 && !found; side++) {
        const pn_cnet_arc *arcs = side == 0 ? cn->pre : cn->post;
        const uint32_t *off = side == 0 ? cn->pre_off : cn->post_off;
        for (uint32_t k = off[t]; k < off[t + 1] && !found && tried < IMP_MAX_CANDIDATES; k++) {
            uint32_t q = arcs[k].place;
            if (q == p || s->w->pstate[q] != RED_P_KEEP)
                continue;
            tried++;
            found = imp_dominates(s, p, q, cons, wp, ncons);
        }
    }
    imp_fill(s, p, s->cp, true);
    return found;
}

pn_status red_implicit(red_work *w, uint32_t *removed, pn_error *err)
{
    const pn_cnet *cn = w->cn;
    *removed = 0;
    imp_state s = {.w = w};
    uint32_t *coff = NULL, *citems = NULL;
    uint32_t *cons = malloc(((size_t)cn->n_transitions + 1) * sizeof *cons);
    uint64_t *wp = malloc(((size_t)cn->n_transitions + 1) * sizeof *wp);
    pn_status st = cons != NULL && wp != NULL ? pn_cnet_place_index(cn, false, &coff, &citems, err)
                                              : pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (st == PN_OK)
        st = imp_rows(&s, err);
    for (uint32_t p = 0; st == PN_OK && p < cn->n_places; p++) {
        if (w->pstate[p] != RED_P_KEEP || w->pobs[p])
            continue;
        uint32_t n = imp_consumers(&s, p, cons, wp, coff, citems);
        if (n > 0 && imp_place(&s, p, cons, wp, n)) {
            w->pstate[p] = RED_P_GONE;
            (*removed)++;
        }
    }
    imp_free(&s);
    free(coff);
    free(citems);
    free(cons);
    free(wp);
    return st;
}
