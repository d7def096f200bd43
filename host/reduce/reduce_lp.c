/* Dead transitions from the state equation (Murata, "Petri nets:
 * properties, analysis and applications", 1989, section on the state
 * equation as a necessary reachability condition; the "structurally dead
 * transition" test of Thierry-Mieg, "Structural reductions revisited",
 * Petri Nets 2020): every reachable marking m is m0 + C x for some x >= 0,
 * so when m = m0 + C x, m >= pre(t), x >= 0 has no rational solution, no
 * reachable marking enables t. Removing t leaves the reachability graph
 * as it is and fireable(t) is false: sound for every reduced class, LTL
 * with X included. Infeasibility is certified by GLPK's exact simplex
 * (host/linear/lin_lp.c); anything else keeps t.
 *
 * Most transitions are live: random walks (lin_path.c) first mark those
 * they see enabled, and a feasible solution's marking m0 + C x (rational)
 * is the state equation's too: every transition it covers is feasible and
 * needs no LP of its own (the rounding tolerance only skips tests, never
 * removes). */
#include "reduce/reduce_work.h"

#include <math.h>
#include <stdlib.h>

#include "linear/lin.h"

/* Time for the whole rule: at most this, and a tenth of the budget unless
 * the caller says otherwise (a fifth of it for the walks); the walks and
 * the solutions leave few transitions to test, and a dead one found here
 * settles QuasiLiveness, Liveness and the places it alone moves before any
 * other step. */
#define RED_LP_SECONDS 2.0
#define RED_LP_SHARE (1.0 / 10)
#define RED_LP_EACH 0.25
/* The walks' steps: a step costs the firing's neighbourhood
 * (lin_path_random), so a big net gets walks long enough to reach most of
 * its transitions before any of them needs an LP. */
#define RED_LP_WALK_STEPS 8192
#define RED_LP_WALK_PER_T 16

typedef struct red_lp {
    const pn_cnet *cn;
    lin_lp *lp;
    lin_cons *cons;       /* one per input arc of the transition tested */
    uint32_t *idx, *place;
    int64_t *coef;
    double *x, *m;
    uint8_t *feasible;    /* per transition: covered by some solution (or m0) */
} red_lp;

static bool red_lp_covers(const pn_cnet *cn, const double *m, uint32_t t)
{
    for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
        if (m[cn->pre[k].place] + 1e-6 < (double)cn->pre[k].weight)
            return false;
    return true;
}

/* Marks every transition the marking m covers. */
static void red_lp_cover(red_lp *l, const double *m)
{
    for (uint32_t t = 0; t < l->cn->n_transitions; t++)
        l->feasible[t] |= red_lp_covers(l->cn, m, t);
}

/* m = m0 + C x from the LP's solution. */
static void red_lp_marking(red_lp *l)
{
    const pn_cnet *cn = l->cn;
    for (uint32_t p = 0; p < cn->n_places; p++)
        l->m[p] = (double)cn->m0[p];
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        if (!(l->x[t] > 0) || !isfinite(l->x[t]))
            continue;
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++)
            l->m[cn->delta[k].place] += (double)cn->delta[k].delta * l->x[t];
    }
}

/* The walks' markings themselves tell nothing more: the transitions they
 * enable are marked live by the walk (lin_path_random's seen). */
static bool red_lp_visit(void *ctx, const uint64_t *m)
{
    (void)ctx;
    (void)m;
    return false;
}

/* LIN_INFEASIBLE: t is dead. */
static lin_result red_lp_test(red_lp *l, uint32_t t, const pn_budget *b)
{
    const pn_cnet *cn = l->cn;
    uint32_t n = 0;
    for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++, n++) {
        if (cn->pre[k].weight > (uint64_t)LIN_EXACT_MAX)
            return LIN_UNKNOWN;
        l->place[n] = cn->pre[k].place;
        l->coef[n] = -1;
        l->cons[n] = (lin_cons){1, &l->place[n], &l->coef[n], -(int64_t)cn->pre[k].weight};
        l->idx[n] = n;
    }
    lin_result r = lin_lp_solve(l->lp, l->cons, l->idx, n, b, l->x);
    if (r == LIN_FEASIBLE) {
        red_lp_marking(l);
        red_lp_cover(l, l->m);
    }
    return r;
}

static pn_status red_lp_init(red_lp *l, const pn_cnet *cn, const pn_budget *budget,
                             pn_error *err)
{
    size_t P = (size_t)cn->n_places + 1, T = (size_t)cn->n_transitions + 1;
    size_t arcs = (size_t)cn->pre_off[cn->n_transitions] + 1;
    l->cn = cn;
    l->cons = malloc(arcs * sizeof *l->cons);
    l->idx = malloc(arcs * sizeof *l->idx);
    l->place = malloc(arcs * sizeof *l->place);
    l->coef = malloc(arcs * sizeof *l->coef);
    l->x = calloc(T, sizeof *l->x);
    l->m = malloc(P * sizeof *l->m);
    l->feasible = calloc(T, 1);
    if (!l->cons || !l->idx || !l->place || !l->coef || !l->x || !l->m || !l->feasible)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    return lin_lp_new(cn, budget, &l->lp, err);
}

static void red_lp_free(red_lp *l)
{
    lin_lp_free(l->lp);
    free(l->cons);
    free(l->idx);
    free(l->place);
    free(l->coef);
    free(l->x);
    free(l->m);
    free(l->feasible);
}

pn_status red_dead_lp(red_work *w, const pn_budget *budget, uint32_t *removed, pn_error *err)
{
    *removed = 0;
    red_lp l = {0};
    pn_status st = red_lp_init(&l, w->cn, budget, err);
    /* weights beyond the LP's exact range, or an LP beyond the memory left:
     * no test */
    if (st == PN_ERR_UNSUPPORTED || st == PN_ERR_OUT_OF_MEMORY) {
        pn_error_clear(err);
        red_lp_free(&l);
        return PN_OK;
    }
    double left = pn_budget_left_s(budget) * (w->lp_share > 0 ? w->lp_share : RED_LP_SHARE);
    pn_budget lp = pn_budget_within(budget, left < RED_LP_SECONDS ? left : RED_LP_SECONDS);
    for (uint32_t p = 0; st == PN_OK && p < w->cn->n_places; p++)
        l.m[p] = (double)w->cn->m0[p];
    if (st == PN_OK)
        red_lp_cover(&l, l.m);
    bool stopped = false;
    pn_budget walk = pn_budget_share(&lp, 1.0 / 5);
    if (st == PN_OK)
        st = lin_path_random(w->cn,
                             RED_LP_WALK_STEPS + (uint64_t)RED_LP_WALK_PER_T * w->cn->n_transitions,
                             8, &walk, red_lp_visit, &l, &stopped, NULL, l.feasible, err);
    for (uint32_t t = 0; st == PN_OK && t < w->cn->n_transitions; t++) {
        if (pn_budget_expired(&lp) || (w->lp_one_dead && *removed > 0))
            break;
        if (!red_alive(w, t) || l.feasible[t])
            continue;
        pn_budget each = pn_budget_within(&lp, RED_LP_EACH);
        if (red_lp_test(&l, t, &each) == LIN_INFEASIBLE) {
            w->tmap[t] = RED_T_DEAD;
            (*removed)++;
        }
    }
    red_lp_free(&l);
    return st;
}
