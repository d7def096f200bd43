/* Structural termination by a linear ranking function: place weights
 * y >= 0 with sum_p y_p C[p,t] <= -1 for every transition t (Murata,
 * "Petri nets: properties, analysis and applications", 1989, section VI:
 * by Gordan's alternative such a y exists iff no x >= 0, x != 0 has
 * C x >= 0, the firing counts every infinite run would need; Memmi and
 * Roucairol's structural termination). With integer weights, y.m is a
 * natural number that every firing lowers by at least one, so every run
 * from any marking has at most y.m0 steps.
 *
 * GLPK's floating-point simplex finds a candidate (least total weight);
 * it only guides: the weights are scaled, rounded to integers and every
 * transition's sum is checked in exact 128-bit arithmetic before the net
 * is called terminating. */
#include <glpk.h>
#include <math.h>
#include <stdlib.h>

#include "linear/lin.h"
#include "petrel/linear.h"

__extension__ typedef __int128 lt_i128;

/* The scaled candidate's largest weight: products with |C| < 2^52 and
 * sums over 2^30 arcs stay inside 128 bits. */
#define LT_WEIGHT_MAX 1099511627776.0 /* 2^40 */

static glp_prob *lt_build(const pn_cnet *cn, int *ind, double *val)
{
    uint32_t P = cn->n_places, T = cn->n_transitions;
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, (int)P);
    for (uint32_t p = 0; p < P; p++) {
        glp_set_col_bnds(lp, (int)p + 1, GLP_LO, 0.0, 0.0);
        glp_set_obj_coef(lp, (int)p + 1, 1.0);
    }
    glp_add_rows(lp, (int)T);
    for (uint32_t t = 0; t < T; t++) {
        int len = 0;
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
            ind[++len] = (int)cn->delta[k].place + 1;
            val[len] = (double)cn->delta[k].delta;
        }
        glp_set_mat_row(lp, (int)t + 1, len, ind, val);
        glp_set_row_bnds(lp, (int)t + 1, GLP_UP, 0.0, -1.0);
    }
    return lp;
}

/* The exact check of the rounded weights w: every transition lowers w.m. */
static bool lt_ranks(const pn_cnet *cn, const int64_t *w)
{
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        lt_i128 s = 0;
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++)
            s += (lt_i128)cn->delta[k].delta * w[cn->delta[k].place];
        if (s >= 0)
            return false;
    }
    return true;
}

/* Scales the simplex's weights so the largest is about 2^40 and rounds
 * them; false when they are unusable (negative, not finite). */
static bool lt_round(glp_prob *lp, uint32_t P, int64_t *w)
{
    double top = 0;
    for (uint32_t p = 0; p < P; p++) {
        double y = glp_get_col_prim(lp, (int)p + 1);
        if (!isfinite(y))
            return false;
        top = y > top ? y : top;
    }
    double scale = LT_WEIGHT_MAX / (top > 1.0 ? top : 1.0);
    for (uint32_t p = 0; p < P; p++) {
        double y = glp_get_col_prim(lp, (int)p + 1) * scale;
        w[p] = y > 0 ? (int64_t)llround(y) : 0;
    }
    return true;
}

pn_status pn_linear_terminates(const pn_cnet *cn, const pn_budget *b, bool *out, pn_error *err)
{
    *out = false;
    if (pn_budget_expired(b))
        return PN_OK;
    uint32_t P = cn->n_places, T = cn->n_transitions;
    if (P == 0 || T == 0 || P >= (1u << 30) || cn->delta_off[T] >= (1u << 30))
        return PN_OK; /* no transition: trivially finite, but nothing to gain */
    for (uint32_t t = 0; t < T; t++) {
        if (cn->delta_off[t] == cn->delta_off[t + 1])
            return PN_OK; /* changes nothing: fires forever once enabled */
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++)
            if (cn->delta[k].delta > LIN_EXACT_MAX || cn->delta[k].delta < -LIN_EXACT_MAX)
                return PN_OK;
    }
    int *ind = malloc(((size_t)P + 2) * sizeof *ind);
    double *val = malloc(((size_t)P + 2) * sizeof *val);
    int64_t *w = malloc((size_t)P * sizeof *w);
    if (ind == NULL || val == NULL || w == NULL) {
        free(ind);
        free(val);
        free(w);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the termination weights");
    }
    glp_prob *lp = lt_build(cn, ind, val);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    double seconds = pn_budget_left_s(b);
    parm.tm_lim = seconds < 0.001 ? 1 : (int)(fmin(seconds, 1e6) * 1000.0);
    if (glp_simplex(lp, &parm) == 0 && glp_get_status(lp) == GLP_OPT && lt_round(lp, P, w))
        *out = lt_ranks(cn, w);
    glp_delete_prob(lp);
    free(ind);
    free(val);
    free(w);
    return PN_OK;
}
