/* The state equation m = m0 + C x, m >= 0, x >= 0 (Murata, "Petri nets:
 * properties, analysis and applications", 1989, section VI) as an LP over
 * the firing counts x, solved with GLPK. Row p is sum_t C[p,t] x_t >= -m0(p);
 * a constraint on the marking becomes a row over x by substituting m.
 *
 * Certification: the floating-point simplex (glp_simplex) only guides.
 * Infeasibility and optima are claimed only after GLPK's exact rational
 * simplex (glp_exact: the primal simplex in exact bignum rational
 * arithmetic) agrees, warm-started from the floating-point basis. Every
 * coefficient is an integer below 2^52, so the doubles GLPK reads are the
 * exact data. An optimum comes back as a double computed in floating
 * point, so it is only a candidate B: the bound is certified by glp_exact
 * proving "sum >= B + 1" infeasible. */
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linear/lin.h"

__extension__ typedef __int128 lp_i128;

/* What GLPK holds per row, column and non-zero, the exact simplex's
 * rationals and the factorisation included: 120 bytes per non-zero measured
 * on Dekker-PT-100 (1.5 MB a 100,000-entry problem); four times that, as
 * the bignums grow with the numbers. */
#define LP_ELEMENT_BYTES 512
#define LP_FIXED_BYTES (1u << 20)

struct lin_lp {
    const pn_cnet *cn;
    glp_prob *lp;
    int base_rows;          /* places, then fixed constraints */
    bool broken;            /* rows of a cube could not be removed: the LP
                               would be stronger than the net, never solve */
    /* place -> (transition, C[p,t]) lists, to substitute m in constraints */
    uint32_t *col_off;
    uint32_t *col_t;
    int64_t *col_c;
    int64_t *row;           /* dense scratch over transitions */
    uint8_t *mark;          /* row[t] is in touched */
    int *ind;               /* 1-based GLPK scratch */
    double *val;
    uint32_t *touched;
};

static pn_status lp_transpose(lin_lp *l, pn_error *err)
{
    const pn_cnet *cn = l->cn;
    uint32_t P = cn->n_places, T = cn->n_transitions, nd = cn->delta_off[T];
    l->col_off = calloc((size_t)P + 2, sizeof *l->col_off);
    l->col_t = malloc(((size_t)nd + 1) * sizeof *l->col_t);
    l->col_c = malloc(((size_t)nd + 1) * sizeof *l->col_c);
    l->row = calloc((size_t)T + 1, sizeof *l->row);
    l->mark = calloc((size_t)T + 1, 1);
    l->ind = malloc(((size_t)T + 2) * sizeof *l->ind);
    l->val = malloc(((size_t)T + 2) * sizeof *l->val);
    l->touched = malloc(((size_t)T + 1) * sizeof *l->touched);
    if (!l->col_off || !l->col_t || !l->col_c || !l->row || !l->mark || !l->ind || !l->val ||
        !l->touched)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state equation");
    for (uint32_t k = 0; k < nd; k++)
        l->col_off[cn->delta[k].place + 2]++;
    for (uint32_t p = 0; p < P; p++)
        l->col_off[p + 2] += l->col_off[p + 1];
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
            const pn_cnet_delta *d = &cn->delta[k];
            if (d->delta > LIN_EXACT_MAX || d->delta < -LIN_EXACT_MAX)
                return pn_fail(err, PN_ERR_UNSUPPORTED, "arc weight too large for the LP");
            uint32_t at = l->col_off[d->place + 1]++;
            l->col_t[at] = t;
            l->col_c[at] = d->delta;
        }
    return PN_OK;
}

static pn_status lp_build(lin_lp *l, pn_error *err)
{
    const pn_cnet *cn = l->cn;
    uint32_t P = cn->n_places, T = cn->n_transitions;
    l->lp = glp_create_prob();
    glp_set_obj_dir(l->lp, GLP_MAX);
    if (T > 0)
        glp_add_cols(l->lp, (int)T);
    for (uint32_t t = 0; t < T; t++)
        glp_set_col_bnds(l->lp, (int)t + 1, GLP_LO, 0.0, 0.0);
    if (P > 0)
        glp_add_rows(l->lp, (int)P);
    for (uint32_t p = 0; p < P; p++) {
        if (cn->m0[p] > (uint64_t)LIN_EXACT_MAX)
            return pn_fail(err, PN_ERR_UNSUPPORTED, "initial marking too large for the LP");
        int len = 0;
        for (uint32_t k = l->col_off[p]; k < l->col_off[p + 1]; k++) {
            l->ind[++len] = (int)l->col_t[k] + 1;
            l->val[len] = (double)l->col_c[k];
        }
        glp_set_mat_row(l->lp, (int)p + 1, len, l->ind, l->val);
        glp_set_row_bnds(l->lp, (int)p + 1, GLP_LO, -(double)cn->m0[p], 0.0);
    }
    l->base_rows = (int)P;
    return PN_OK;
}

pn_status lin_fits(const pn_cnet *cn, const pn_budget *b, uint64_t fixed, uint64_t per_element,
                   const char *what, pn_error *err)
{
    uint64_t room = pn_budget_memory(b);
    uint64_t need = fixed + ((uint64_t)cn->n_places + cn->n_transitions +
                             cn->delta_off[cn->n_transitions]) * per_element;
    if (room != 0 && need > room)
        return pn_fail(err, PN_ERR_OUT_OF_MEMORY, "%s (about %.0f MB) does not fit the %.0f MB left",
                       what, (double)need / 1e6, (double)room / 1e6);
    return PN_OK;
}

pn_status lin_lp_new(const pn_cnet *cn, const pn_budget *b, lin_lp **out, pn_error *err)
{
    *out = NULL;
    pn_status fits =
        lin_fits(cn, b, LP_FIXED_BYTES, LP_ELEMENT_BYTES, "the state equation's LP", err);
    if (fits != PN_OK)
        return fits;
    lin_lp *l = calloc(1, sizeof *l);
    if (l == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state equation");
    l->cn = cn;
    pn_status st = lp_transpose(l, err);
    if (st == PN_OK)
        st = lp_build(l, err);
    if (st != PN_OK) {
        lin_lp_free(l);
        return st;
    }
    *out = l;
    return PN_OK;
}

void lin_lp_free(lin_lp *l)
{
    if (l == NULL)
        return;
    if (l->lp != NULL)
        glp_delete_prob(l->lp);
    free(l->col_off);
    free(l->col_t);
    free(l->col_c);
    free(l->row);
    free(l->mark);
    free(l->ind);
    free(l->val);
    free(l->touched);
    free(l);
}

/* sum coef*m <= rhs as sum_t b_t x_t <= rhs - sum coef*m0 in the scratch
 * (ind/val, returns the length); -1 when a number passes LIN_EXACT_MAX. */
static int lp_row(lin_lp *l, const lin_cons *c, double *rhs)
{
    uint32_t nt = 0;
    bool ok = true;
    lp_i128 r = c->rhs;
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t p = c->place[i];
        r -= (lp_i128)c->coef[i] * (lp_i128)l->cn->m0[p];
        for (uint32_t k = l->col_off[p]; k < l->col_off[p + 1]; k++) {
            uint32_t t = l->col_t[k];
            if (!l->mark[t]) {
                l->mark[t] = 1;
                l->touched[nt++] = t;
            }
            lp_i128 v = (lp_i128)l->row[t] + (lp_i128)c->coef[i] * l->col_c[k];
            ok &= v <= LIN_EXACT_MAX && v >= -LIN_EXACT_MAX;
            l->row[t] = ok ? (int64_t)v : 0;
        }
    }
    int len = 0;
    for (uint32_t k = 0; k < nt; k++) {
        uint32_t t = l->touched[k];
        if (l->row[t] != 0) {
            l->ind[++len] = (int)t + 1;
            l->val[len] = (double)l->row[t];
        }
        l->row[t] = 0;
        l->mark[t] = 0;
    }
    ok = ok && c->n < (1u << 20) && r <= LIN_EXACT_MAX && r >= -LIN_EXACT_MAX;
    *rhs = (double)r;
    return ok ? len : -1;
}

/* Adds the rows; false (nothing added) when one cannot be exact. */
static bool lp_add_rows(lin_lp *l, const lin_cons *cons, const uint32_t *idx, uint32_t n)
{
    int first = glp_get_num_rows(l->lp) + 1;
    for (uint32_t i = 0; i < n; i++) {
        double rhs = 0;
        int len = lp_row(l, &cons[idx != NULL ? idx[i] : i], &rhs);
        if (len < 0) {
            int have = glp_get_num_rows(l->lp) - first + 1;
            if (have > 0) {
                int *del = malloc(((size_t)have + 1) * sizeof *del);
                if (del == NULL) {
                    l->broken = true;
                    return false;
                }
                for (int k = 1; k <= have; k++)
                    del[k] = first + k - 1;
                glp_del_rows(l->lp, have, del);
                free(del);
            }
            return false;
        }
        int r = glp_add_rows(l->lp, 1);
        glp_set_mat_row(l->lp, r, len, l->ind, l->val);
        glp_set_row_bnds(l->lp, r, GLP_UP, 0.0, rhs);
    }
    return true;
}

bool lin_lp_add_fixed(lin_lp *l, const lin_cons *c)
{
    if (l->broken || glp_get_num_rows(l->lp) != l->base_rows || !lp_add_rows(l, c, NULL, 1))
        return false;
    l->base_rows++;
    return true;
}

static void lp_drop_extra(lin_lp *l)
{
    int have = glp_get_num_rows(l->lp) - l->base_rows;
    if (have <= 0)
        return;
    int *del = malloc(((size_t)have + 1) * sizeof *del);
    if (del == NULL) {
        l->broken = true;
        return;
    }
    for (int k = 1; k <= have; k++)
        del[k] = l->base_rows + k;
    glp_del_rows(l->lp, have, del);
    free(del);
    /* Deleted non-basic rows leave the basis short: start over. */
    if (glp_get_num_rows(l->lp) > 0 && glp_factorize(l->lp) != 0)
        glp_std_basis(l->lp);
}

static int lp_ms(double seconds)
{
    if (seconds > 1e6)
        seconds = 1e6;
    return seconds < 0.001 ? 1 : (int)(seconds * 1000.0);
}

/* Float simplex, then the exact one on the result; the exact status.
 * certify_feasible false: a feasible float answer is returned as is (it
 * proves nothing and is only a guide). */
static int lp_run(lin_lp *l, double seconds, bool certify_feasible)
{
    glp_smcp p;
    glp_init_smcp(&p);
    p.msg_lev = GLP_MSG_OFF;
    p.presolve = GLP_OFF;
    p.tm_lim = lp_ms(seconds * 0.5);
    if (glp_get_num_rows(l->lp) > 0 && glp_factorize(l->lp) != 0)
        glp_std_basis(l->lp);
    double t0 = glp_time();
    int rc = glp_simplex(l->lp, &p);
    if (rc != 0 && rc != GLP_ETMLIM && rc != GLP_EITLIM)
        glp_std_basis(l->lp);
    if (rc == GLP_ETMLIM)
        return GLP_UNDEF;
    int fs = glp_get_status(l->lp);
    if (!certify_feasible && (fs == GLP_FEAS || fs == GLP_OPT))
        return GLP_FEAS;
    double used = glp_difftime(glp_time(), t0);
    p.tm_lim = lp_ms(seconds - used);
    if (glp_get_num_rows(l->lp) > 0 && glp_factorize(l->lp) != 0)
        glp_std_basis(l->lp);
    if (glp_exact(l->lp, &p) != 0)
        return GLP_UNDEF;
    return glp_get_status(l->lp);
}

static void lp_solution(lin_lp *l, double *x)
{
    for (uint32_t t = 0; x != NULL && t < l->cn->n_transitions; t++)
        x[t] = glp_get_col_prim(l->lp, (int)t + 1);
}

lin_result lin_lp_solve(lin_lp *l, const lin_cons *cons, const uint32_t *idx, uint32_t n,
                        const pn_budget *b, double *x)
{
    if (pn_budget_expired(b))
        return LIN_UNKNOWN;
    if (l->broken || !lp_add_rows(l, cons, idx, n)) {
        lp_drop_extra(l);
        return LIN_UNKNOWN;
    }
    /* The fewest firings (LoLA's choice too): a short solution with no
     * spurious cycles is the best guide for the firing sequence. The
     * objective does not change feasibility. */
    glp_set_obj_dir(l->lp, GLP_MIN);
    for (uint32_t t = 0; t < l->cn->n_transitions; t++)
        glp_set_obj_coef(l->lp, (int)t + 1, 1.0);
    glp_set_obj_coef(l->lp, 0, 0.0);
    int st = lp_run(l, pn_budget_left_s(b), false);
    lin_result r = LIN_UNKNOWN;
    if (st == GLP_NOFEAS)
        r = LIN_INFEASIBLE;
    else if (st == GLP_FEAS || st == GLP_OPT) {
        r = LIN_FEASIBLE;
        lp_solution(l, x);
    }
    lp_drop_extra(l);
    return r;
}

lin_result lin_lp_maximise(lin_lp *l, const uint32_t *places, uint32_t n, const pn_budget *b,
                           uint64_t *bound, double *x)
{
    if (pn_budget_expired(b))
        return LIN_UNKNOWN;
    lin_cons obj = {.n = n, .place = (uint32_t *)places, .rhs = 0};
    obj.coef = malloc(((size_t)n + 1) * sizeof *obj.coef);
    if (obj.coef == NULL)
        return LIN_UNKNOWN;
    for (uint32_t i = 0; i < n; i++)
        obj.coef[i] = 1;
    double c0 = 0;
    int len = lp_row(l, &obj, &c0); /* the row sum_t b_t x_t; c0 = -sum m0 */
    free(obj.coef);
    if (len < 0 || l->broken)
        return LIN_UNKNOWN;
    for (uint32_t t = 0; t < l->cn->n_transitions; t++)
        glp_set_obj_coef(l->lp, (int)t + 1, 0.0);
    glp_set_obj_dir(l->lp, GLP_MAX);
    for (int k = 1; k <= len; k++)
        glp_set_obj_coef(l->lp, l->ind[k], l->val[k]);
    glp_set_obj_coef(l->lp, 0, -c0);
    lin_result r = LIN_UNKNOWN;
    int st = lp_run(l, pn_budget_left_s(b), true);
    if (st == GLP_UNBND) {
        r = LIN_UNBOUNDED;
    } else if (st == GLP_OPT) {
        /* The objective GLPK reports is a double sum: only a candidate,
         * rounded up; the caller certifies it (lin_lp_certify_bound). */
        double v = glp_get_obj_val(l->lp);
        v = floor(v + 1e-6 * (1.0 + fabs(v)));
        if (v >= 0 && v < (double)LIN_EXACT_MAX) {
            *bound = (uint64_t)v;
            r = LIN_OPTIMAL;
            lp_solution(l, x);
        }
    }
    for (uint32_t t = 0; t < l->cn->n_transitions; t++)
        glp_set_obj_coef(l->lp, (int)t + 1, 0.0);
    glp_set_obj_coef(l->lp, 0, 0.0);
    return r;
}

lin_result lin_lp_at_least(lin_lp *l, const uint32_t *places, uint32_t n, uint64_t bound,
                           const pn_budget *b, double *x)
{
    lin_cons c = {.n = n, .place = (uint32_t *)places, .rhs = -(int64_t)bound};
    c.coef = malloc(((size_t)n + 1) * sizeof *c.coef);
    if (c.coef == NULL)
        return false;
    for (uint32_t i = 0; i < n; i++)
        c.coef[i] = -1;
    lin_result r = lin_lp_solve(l, &c, NULL, 1, b, x);
    free(c.coef);
    return r;
}
