/* The state equation and a whole formula as one SMT problem over exact
 * linear arithmetic (Z3, de Moura & Bjørner 2008): markings are integers,
 * firing counts rationals, as in ITS-Tools' SMT check of reachability
 * properties (Thierry-Mieg, "Structural reductions revisited", Petri Nets
 * 2020) and Esparza & Melzer's integer state equation with traps (2000).
 *
 * The cube-by-cube LP of linear.c needs the formula in disjunctive normal
 * form; "deadlock" (every transition has an input place below its weight)
 * has a product of |pre(t)| cubes over all transitions, and wide
 * fireability formulas are alike, so their DNF is cut to a few cubes and
 * the LP proves little. The solver takes the Boolean structure as it is.
 * Integer markings matter: Dekker's deadlock-freedom holds for integer
 * solutions of the state equation but not for rational ones.
 *
 * Soundness: every reachable marking m = m0 + C x has integer m >= 0 and
 * integer x >= 0, so it satisfies the constraints built here (rational x
 * only widens them); an unsatisfiable answer is exact (Z3's arithmetic is
 * rational, never floating point), so no reachable marking has the
 * formula. A satisfiable answer proves nothing: its firing counts only
 * guide a walk (lin_path_walk). */
#include <stdlib.h>
#include <z3.h>

#include "linear/lin.h"

#define SMT_TACTICS_FROM 1000 /* places + transitions */

/* Z3 allocates on its own: what a context and a check take is estimated
 * first, and a check that would not fit the budget's memory is not
 * started. A context with its modules: 22.5 MB resident measured (Z3's
 * pages touched included); each place, transition, arc and formula node
 * 360 to 1,400 bytes (Dekker-PT-100's state equation and deadlock). The
 * search itself is bounded by Z3's own max_memory (smt_limits). */
#define SMT_CONTEXT_BYTES (24u << 20)
#define SMT_ELEMENT_BYTES 1536
/* Building the context cannot be interrupted: 2 to 9 microseconds per
 * place, transition and non-zero effect measured (Philosophers-PT-001000
 * 26,000 elements in 0.05 s; Dekker-PT-200 reduced, 169,876 in 1.2 s;
 * ShieldPPPt-PT-100B 13,531 in 0.125 s). A context whose build, at 10 us an
 * element, would take more than the time left is not started: on
 * Dekker-PT-200 the deadlock question of the CTL simplification (0.2 s)
 * spent 0.8 s building one and checked nothing. */
#define SMT_BUILD_SECONDS_PER_ELEMENT 10e-6

struct lin_smt {
    const pn_cnet *cn;
    Z3_context ctx;
    Z3_solver solver;
    Z3_sort int_sort, real_sort, bool_sort;
    Z3_ast *m;        /* per place: its tokens (Int) */
    Z3_ast *x;        /* per transition: its firing count (Real) */
    Z3_ast *enabled;  /* per transition: its enabling condition, built on demand */
    unsigned timeout_ms; /* the solver's timeout now, 0: none set */
    unsigned memory_mb;  /* the solver's max_memory now, 0: none set */
    bool combined;       /* Z3_mk_solver's (large nets), not the simple one */
};

static bool smt_ok(const lin_smt *s)
{
    return Z3_get_error_code(s->ctx) == Z3_OK;
}

/* sum of terms[0..n); 0 of sort when n == 0. */
static Z3_ast smt_sum(Z3_context ctx, Z3_sort sort, Z3_ast *terms, uint32_t n)
{
    if (n == 0)
        return Z3_mk_int(ctx, 0, sort);
    return n == 1 ? terms[0] : Z3_mk_add(ctx, n, terms);
}

/* m(p) = m0(p) + sum_t C(p,t) x(t) for every place p, over the rationals. */
static bool smt_state_equation(lin_smt *s)
{
    const pn_cnet *cn = s->cn;
    uint32_t P = cn->n_places, T = cn->n_transitions;
    uint32_t *off = calloc((size_t)P + 2, sizeof *off);
    uint32_t n_delta = cn->delta_off[T];
    Z3_ast *terms = malloc(((size_t)n_delta + 1) * sizeof *terms);
    uint32_t *fill = calloc((size_t)P + 1, sizeof *fill);
    bool ok = off != NULL && terms != NULL && fill != NULL;
    for (uint32_t k = 0; ok && k < n_delta; k++)
        off[cn->delta[k].place + 1]++;
    for (uint32_t p = 0; ok && p < P; p++)
        off[p + 1] += off[p];
    for (uint32_t t = 0; ok && t < T; t++)
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
            uint32_t p = cn->delta[k].place;
            Z3_ast c = Z3_mk_int64(s->ctx, cn->delta[k].delta, s->real_sort);
            Z3_ast f[2] = {c, s->x[t]};
            terms[off[p] + fill[p]++] = Z3_mk_mul(s->ctx, 2, f);
        }
    for (uint32_t p = 0; ok && p < P; p++) {
        Z3_ast sum[2] = {Z3_mk_unsigned_int64(s->ctx, cn->m0[p], s->real_sort),
                         smt_sum(s->ctx, s->real_sort, terms + off[p], off[p + 1] - off[p])};
        Z3_ast rhs = Z3_mk_add(s->ctx, 2, sum);
        Z3_solver_assert(s->ctx, s->solver, Z3_mk_eq(s->ctx, Z3_mk_int2real(s->ctx, s->m[p]), rhs));
        ok = smt_ok(s);
    }
    free(off);
    free(terms);
    free(fill);
    return ok;
}

static bool smt_variables(lin_smt *s)
{
    const pn_cnet *cn = s->cn;
    Z3_ast zero_i = Z3_mk_int(s->ctx, 0, s->int_sort), zero_r = Z3_mk_int(s->ctx, 0, s->real_sort);
    for (uint32_t p = 0; p < cn->n_places; p++) {
        s->m[p] = Z3_mk_const(s->ctx, Z3_mk_int_symbol(s->ctx, (int)p), s->int_sort);
        Z3_solver_assert(s->ctx, s->solver, Z3_mk_ge(s->ctx, s->m[p], zero_i));
    }
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        s->x[t] = Z3_mk_const(s->ctx, Z3_mk_int_symbol(s->ctx, (int)(cn->n_places + t)),
                              s->real_sort);
        Z3_solver_assert(s->ctx, s->solver, Z3_mk_ge(s->ctx, s->x[t], zero_r));
    }
    return smt_ok(s);
}

pn_status lin_smt_new(const pn_cnet *cn, const pn_budget *b, lin_smt **out, pn_error *err)
{
    *out = NULL;
    if ((uint64_t)cn->n_places + cn->n_transitions > (uint64_t)INT32_MAX)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "net too large for the SMT state equation");
    pn_status fits =
        lin_fits(cn, b, SMT_CONTEXT_BYTES, SMT_ELEMENT_BYTES, "the SMT state equation", err);
    if (fits != PN_OK)
        return fits;
    uint64_t elements = (uint64_t)cn->n_places + cn->n_transitions + cn->delta_off[cn->n_transitions];
    double build = (double)elements * SMT_BUILD_SECONDS_PER_ELEMENT;
    if (b != NULL && pn_budget_left_s(b) < build)
        return pn_fail(err, PN_ERR_TIMEOUT, "the SMT state equation (about %.2f s to build) does "
                                            "not fit the %.2f s left", build, pn_budget_left_s(b));
    lin_smt *s = calloc(1, sizeof *s);
    if (s == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the SMT state equation");
    s->cn = cn;
    s->m = calloc((size_t)cn->n_places + 1, sizeof *s->m);
    s->x = calloc((size_t)cn->n_transitions + 1, sizeof *s->x);
    s->enabled = calloc((size_t)cn->n_transitions + 1, sizeof *s->enabled);
    Z3_config cfg = Z3_mk_config();
    if (cfg != NULL) {
        Z3_set_param_value(cfg, "model", "true");
        s->ctx = Z3_mk_context(cfg);
        Z3_del_config(cfg);
    }
    if (s->m == NULL || s->x == NULL || s->enabled == NULL || s->ctx == NULL) {
        lin_smt_free(s);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the SMT state equation");
    }
    /* No handler: errors are codes we check, never an exit. */
    Z3_set_error_handler(s->ctx, NULL);
    s->int_sort = Z3_mk_int_sort(s->ctx);
    s->real_sort = Z3_mk_real_sort(s->ctx);
    s->bool_sort = Z3_mk_bool_sort(s->ctx);
    /* Z3_mk_solver's first check runs a tactic pipeline (equations
     * solved away, ...) that costs about 2 ms a context: on small nets more
     * than the checks, on large ones (Dekker-PT-100: 10,200 transitions)
     * it makes the check 5x faster. */
    bool large = (uint64_t)cn->n_places + cn->n_transitions > SMT_TACTICS_FROM;
    s->solver = large ? Z3_mk_solver(s->ctx) : Z3_mk_simple_solver(s->ctx);
    s->combined = large;
    if (s->solver != NULL)
        Z3_solver_inc_ref(s->ctx, s->solver);
    if (s->solver == NULL || !smt_variables(s) || !smt_state_equation(s)) {
        lin_smt_free(s);
        return pn_fail(err, PN_ERR_NOMEM, "the SMT solver refused the state equation");
    }
    *out = s;
    return PN_OK;
}

void lin_smt_free(lin_smt *s)
{
    if (s == NULL)
        return;
    if (s->solver != NULL)
        Z3_solver_dec_ref(s->ctx, s->solver);
    if (s->ctx != NULL)
        Z3_del_context(s->ctx);
    free(s->m);
    free(s->x);
    free(s->enabled);
    free(s);
}

/* m(p) >= Pre(p,t) for every input place: t is enabled. */
static Z3_ast smt_enabled(lin_smt *s, uint32_t t)
{
    if (s->enabled[t] != NULL)
        return s->enabled[t];
    const pn_cnet *cn = s->cn;
    uint32_t n = cn->pre_off[t + 1] - cn->pre_off[t];
    Z3_ast *need = malloc(((size_t)n + 1) * sizeof *need);
    if (need == NULL)
        return NULL;
    for (uint32_t k = 0; k < n; k++) {
        const pn_cnet_arc *a = &cn->pre[cn->pre_off[t] + k];
        need[k] = Z3_mk_ge(s->ctx, s->m[a->place],
                           Z3_mk_unsigned_int64(s->ctx, a->weight, s->int_sort));
    }
    s->enabled[t] = n == 0 ? Z3_mk_true(s->ctx) : n == 1 ? need[0] : Z3_mk_and(s->ctx, n, need);
    free(need);
    return s->enabled[t];
}

/* An integer expression: a constant or a token sum; NULL otherwise. */
static Z3_ast smt_int(lin_smt *s, const pn_fml_node *e)
{
    if (e->kind == PN_FML_CONST)
        return Z3_mk_unsigned_int64(s->ctx, e->value, s->int_sort);
    if (e->kind != PN_FML_TOKENS)
        return NULL;
    Z3_ast *terms = malloc(((size_t)e->n + 1) * sizeof *terms);
    if (terms == NULL)
        return NULL;
    for (uint32_t i = 0; i < e->n; i++)
        terms[i] = s->m[e->idx[i]];
    Z3_ast sum = smt_sum(s->ctx, s->int_sort, terms, e->n);
    free(terms);
    return sum;
}

static Z3_ast smt_fml(lin_smt *s, const pn_fml_node *f);

/* AND / OR of kids, or of enabled(t) over idx (FIREABLE) / of not
 * enabled(t) over every transition (DEADLOCK). */
static Z3_ast smt_connective(lin_smt *s, const pn_fml_node *f)
{
    bool dead = f->kind == PN_FML_DEADLOCK;
    uint32_t n = dead ? s->cn->n_transitions : f->n;
    Z3_ast *args = malloc(((size_t)n + 1) * sizeof *args);
    if (args == NULL)
        return NULL;
    bool ok = true;
    for (uint32_t i = 0; ok && i < n; i++) {
        Z3_ast a = dead                           ? smt_enabled(s, i)
                   : f->kind == PN_FML_FIREABLE ? smt_enabled(s, f->idx[i])
                                                : smt_fml(s, f->kids[i]);
        ok = a != NULL;
        args[i] = dead && ok ? Z3_mk_not(s->ctx, a) : a;
    }
    Z3_ast r = NULL;
    if (ok && n == 0)
        r = f->kind == PN_FML_OR || f->kind == PN_FML_FIREABLE ? Z3_mk_false(s->ctx)
                                                                : Z3_mk_true(s->ctx);
    else if (ok)
        r = f->kind == PN_FML_OR || f->kind == PN_FML_FIREABLE ? Z3_mk_or(s->ctx, n, args)
                                                                : Z3_mk_and(s->ctx, n, args);
    free(args);
    return r;
}

/* A state formula; an atom it cannot express becomes a fresh Boolean,
 * which only widens the constraints (sound in either polarity). NULL when
 * out of memory. */
static Z3_ast smt_fml(lin_smt *s, const pn_fml_node *f)
{
    switch (f->kind) {
    case PN_FML_TRUE: return Z3_mk_true(s->ctx);
    case PN_FML_FALSE: return Z3_mk_false(s->ctx);
    case PN_FML_NOT: {
        Z3_ast a = smt_fml(s, f->kids[0]);
        return a == NULL ? NULL : Z3_mk_not(s->ctx, a);
    }
    case PN_FML_INT_LE: {
        Z3_ast a = smt_int(s, f->kids[0]), b = smt_int(s, f->kids[1]);
        if (a != NULL && b != NULL)
            return Z3_mk_le(s->ctx, a, b);
        break;
    }
    case PN_FML_AND:
    case PN_FML_OR:
    case PN_FML_FIREABLE:
    case PN_FML_DEADLOCK: return smt_connective(s, f);
    default: break;
    }
    return Z3_mk_fresh_const(s->ctx, "atom", s->bool_sort);
}

/* The model's firing counts, rounded to doubles for the guided walk. */
static void smt_model_x(lin_smt *s, double *x)
{
    Z3_model mdl = Z3_solver_get_model(s->ctx, s->solver);
    if (mdl == NULL)
        return;
    Z3_model_inc_ref(s->ctx, mdl);
    for (uint32_t t = 0; t < s->cn->n_transitions; t++) {
        Z3_ast v = NULL;
        x[t] = 0;
        if (Z3_model_eval(s->ctx, mdl, s->x[t], true, &v) && v != NULL &&
            Z3_is_numeral_ast(s->ctx, v))
            x[t] = strtod(Z3_get_numeral_decimal_string(s->ctx, v, 6), NULL);
    }
    Z3_model_dec_ref(s->ctx, mdl);
}

/* The largest power of two not above v (at least 1), below 2^31. */
static unsigned smt_grid(double v)
{
    unsigned grid = 1;
    while (grid < (1u << 31) && 2.0 * grid <= v)
        grid *= 2;
    return grid;
}

/* Setting the solver's parameters costs about half a millisecond (Z3
 * validates them against every module's), more than a small check: the
 * timeout and the memory move on grids of powers of two (milliseconds,
 * MB), never above what is left, and are set again only when a grid value
 * changes. The memory is Z3's own count of what it allocates (all its
 * contexts), checked as its search goes: what it holds now (rounded up to
 * 16 MB, as it moves a little with every check) and the room left. room 0:
 * no memory limit. False when the solver refused them: no check may run
 * without its timeout. */
static bool smt_limits(lin_smt *s, double seconds, uint64_t room)
{
    unsigned ms = smt_grid(seconds * 1000.0);
    uint64_t held_mb = (Z3_get_estimated_alloc_size() / 1048576 + 16) / 16 * 16;
    unsigned mb = room == 0 ? 0 : (unsigned)held_mb + smt_grid((double)room / 1048576.0);
    if (ms == s->timeout_ms && mb == s->memory_mb)
        return true;
    Z3_params prm = Z3_mk_params(s->ctx);
    Z3_params_inc_ref(s->ctx, prm);
    Z3_params_set_uint(s->ctx, prm, Z3_mk_string_symbol(s->ctx, "timeout"), ms);
    /* An incremental check that ends unknown returns unknown: by default
     * (solver2_unknown 1) the combined solver (Z3_mk_solver) then runs its
     * non-incremental tactic over the whole context, and that run keeps to
     * no timeout (NeoElection-PT-6: 5.6 to 7.2 s past a 1 ms one, in the CTL
     * simplification's questions). The simple solver has no such parameter:
     * set there, it would void the whole set, the timeout with it. */
    if (s->combined)
        Z3_params_set_uint(s->ctx, prm, Z3_mk_string_symbol(s->ctx, "solver2_unknown"), 0);
    if (mb != 0)
        Z3_params_set_uint(s->ctx, prm, Z3_mk_string_symbol(s->ctx, "max_memory"), mb);
    Z3_solver_set_params(s->ctx, s->solver, prm);
    bool set = smt_ok(s);
    Z3_params_dec_ref(s->ctx, prm);
    s->timeout_ms = set ? ms : 0;
    s->memory_mb = set ? mb : 0;
    return set;
}

/* The Z3 terms phi adds to what the context has (transitions' enabling
 * conditions are built once and kept). */
static uint64_t smt_size(const lin_smt *s, const pn_fml_node *f)
{
    const pn_cnet *cn = s->cn;
    uint64_t n = 1;
    if (f->kind == PN_FML_DEADLOCK || f->kind == PN_FML_FIREABLE) {
        bool dead = f->kind == PN_FML_DEADLOCK;
        uint32_t k = dead ? cn->n_transitions : f->n;
        for (uint32_t i = 0; i < k; i++) {
            uint32_t t = dead ? i : f->idx[i];
            n += 1 + (s->enabled[t] != NULL ? 0 : cn->pre_off[t + 1] - cn->pre_off[t]);
        }
        return n;
    }
    if (f->kind == PN_FML_TOKENS)
        return n + f->n;
    for (uint32_t i = 0; f->kids != NULL && i < f->n; i++)
        n += smt_size(s, f->kids[i]);
    return n;
}

lin_result lin_smt_solve(lin_smt *s, const pn_fml_node *phi, bool neg, const pn_budget *b,
                         double *x)
{
    double seconds = pn_budget_left_s(b);
    if (seconds < 0.001 || pn_budget_expired(b))
        return LIN_UNKNOWN;
    uint64_t room = pn_budget_memory(b);
    if (room != 0 && smt_size(s, phi) * SMT_ELEMENT_BYTES > room)
        return LIN_UNKNOWN;
    Z3_ast goal = smt_fml(s, phi);
    if (goal == NULL || !smt_ok(s))
        return LIN_UNKNOWN;
    if (!smt_limits(s, seconds, room))
        return LIN_UNKNOWN;
    Z3_solver_push(s->ctx, s->solver);
    Z3_solver_assert(s->ctx, s->solver, neg ? Z3_mk_not(s->ctx, goal) : goal);
    Z3_lbool r = smt_ok(s) ? Z3_solver_check(s->ctx, s->solver) : Z3_L_UNDEF;
    lin_result res = LIN_UNKNOWN;
    if (smt_ok(s) && r == Z3_L_FALSE)
        res = LIN_INFEASIBLE;
    else if (smt_ok(s) && r == Z3_L_TRUE) {
        res = LIN_FEASIBLE;
        if (x != NULL)
            smt_model_x(s, x);
    }
    Z3_solver_pop(s->ctx, s->solver, 1);
    return smt_ok(s) ? res : LIN_UNKNOWN;
}

bool lin_smt_add_trap(lin_smt *s, const uint8_t *in)
{
    uint32_t n = 0;
    for (uint32_t p = 0; p < s->cn->n_places; p++)
        n += in[p] != 0;
    Z3_ast *terms = malloc(((size_t)n + 1) * sizeof *terms);
    if (terms == NULL || n == 0) {
        free(terms);
        return false;
    }
    n = 0;
    for (uint32_t p = 0; p < s->cn->n_places; p++)
        if (in[p])
            terms[n++] = s->m[p];
    Z3_ast sum = smt_sum(s->ctx, s->int_sort, terms, n);
    free(terms);
    Z3_solver_assert(s->ctx, s->solver, Z3_mk_ge(s->ctx, sum, Z3_mk_int(s->ctx, 1, s->int_sort)));
    return smt_ok(s);
}
