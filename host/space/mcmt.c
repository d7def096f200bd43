/* A bounded instance of an MCMT array-based system as a pn_space: the
 * second language module of the state-space interface, after the P/T net
 * (LTSmin's PINS serves many languages the same way: Blom, van de Pol and
 * Weber, CAV 2010). The system's reading is MCMT 2.8's user manual
 * (sections 2-3; docs/mcmt.md): N processes, each local array a vector of
 * N cells, a transition the guard over its existential x (and y), the
 * universal guard over every other process j, then one update of every
 * cell by the first case whose condition holds for j (the implicit
 * (= x j) of the first case, (not (= x j)) of the others), the cells
 * updated at once from the state before.
 *
 * A state packs every cell as P/T markings are packed: a field of
 * ceil(log2(hi - lo + 1)) bits holding value - lo, no field across two
 * words. The system's terms are evaluated as they are (a walk of the term
 * pool); the values are integers, bounded by the types and by the
 * instance's --int-range, and a successor past that range is cut and
 * recorded as a defect (an exploration that cut one proves nothing safe). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "petrel/mcmt.h"
#include "space/mcmt_int.h"

#define MC_MAX_INITIAL (1ULL << 24)  /* initial states enumerated at most */
#define MC_MAX_TUPLES (1ULL << 20)   /* local value tuples of one process */
#define MC_MAX_GLOBALS (1ULL << 24)  /* assignments of the globals and constants */
#define MC_MAX_WORK (1ULL << 26)     /* valuations tried for the initial states, in all */

static bool mc_crashed(const mc *m, const uint64_t *s, uint32_t p)
{
    return mc_get(m, s, m->crash0 + p, 0) != 0;
}

static void mc_defect(mc *m, pn_mcmt_defect d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void mc_defect(mc *m, pn_mcmt_defect d, const char *fmt, ...)
{
    if (m->defect != PN_MCMT_DEFECT_NONE)
        return;
    m->defect = d;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->defect_msg, sizeof m->defect_msg, fmt, ap);
    va_end(ap);
}

/* A defect met in env e (cut: a value past --int-range): recorded, or
 * what e's mode makes of it. */
static void mc_env_vdefect(mc_env *e, pn_mcmt_defect d, bool cut, const char *fmt, va_list ap)
{
    if (e->mode == MC_FAST) {
        e->defer = true;
        return;
    }
    if (e->mode == MC_CAREFUL) {
        pn_mcmt_defect *k = cut ? &e->cut : &e->pend;
        if (*k == PN_MCMT_DEFECT_NONE) {
            *k = d;
            vsnprintf(cut ? e->m->cut_msg : e->m->pend_msg, sizeof e->m->pend_msg, fmt, ap);
        }
        return;
    }
    if (e->m->defect == PN_MCMT_DEFECT_NONE) {
        e->m->defect = d;
        vsnprintf(e->m->defect_msg, sizeof e->m->defect_msg, fmt, ap);
    }
}

static void mc_env_defect(mc_env *e, pn_mcmt_defect d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void mc_env_defect(mc_env *e, pn_mcmt_defect d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mc_env_vdefect(e, d, false, fmt, ap);
    va_end(ap);
}

static void mc_env_cut(mc_env *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void mc_env_cut(mc_env *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mc_env_vdefect(e, PN_MCMT_DEFECT_RANGE, true, fmt, ap);
    va_end(ap);
}

/* ---- terms ----------------------------------------------------------------------- */

static int64_t mc_over_get(const mc_env *e, uint32_t c, int64_t lo)
{
    for (uint32_t k = 0; k < e->n_over; k++)
        if (e->m->over_cell[k] == c)
            return e->m->over_val[k];
    return mc_get(e->m, e->s, c, lo);
}

static int64_t mc_eval(mc_env *e, uint32_t t);

static int64_t mc_kid(mc_env *e, const pn_mcmt_term *x, uint32_t k)
{
    return mc_eval(e, e->m->sys->kids[x->first + k]);
}

static int64_t mc_read(mc_env *e, const pn_mcmt_term *x)
{
    mc *m = e->m;
    uint32_t a = (uint32_t)x->value;
    if (m->sys->arrays[a].global)
        return mc_over_get(e, m->cell0[a], m->lo[a]);
    int64_t idx = mc_kid(e, x, 0);
    int64_t p = idx - m->b.idx_from;
    if (p < 0 || p >= (int64_t)m->N) {
        if (!e->bad)
            mc_env_defect(e, PN_MCMT_DEFECT_INDEX, "line %u: %s[%lld] is read, outside the "
                          "processes %lld..%lld", x->line, m->sys->arrays[a].name, (long long)idx,
                          (long long)m->b.idx_from, (long long)(m->b.idx_from + m->N - 1));
        e->bad = true;
        return 0;
    }
    return mc_over_get(e, m->cell0[a] + (uint32_t)p, m->lo[a]);
}

static int64_t mc_arith(mc_env *e, const pn_mcmt_term *x)
{
    int64_t acc = x->op == PN_MCMT_MUL ? 1 : 0;
    for (uint32_t k = 0; k < x->n; k++) {
        int64_t v = mc_kid(e, x, k);
        bool over = x->op == PN_MCMT_MUL ? __builtin_mul_overflow(acc, v, &acc)
                                         : __builtin_add_overflow(acc, v, &acc);
        if (over) {
            if (!e->bad)
                mc_env_defect(e, PN_MCMT_DEFECT_RANGE, "line %u: an integer overflows", x->line);
            e->bad = true;
            return 0;
        }
    }
    return acc;
}

static int64_t mc_op(mc_env *e, const pn_mcmt_term *x)
{
    switch (x->op) {
    case PN_MCMT_EQ: return mc_kid(e, x, 0) == mc_kid(e, x, 1);
    case PN_MCMT_LT: return mc_kid(e, x, 0) < mc_kid(e, x, 1);
    case PN_MCMT_LE: return mc_kid(e, x, 0) <= mc_kid(e, x, 1);
    case PN_MCMT_GT: return mc_kid(e, x, 0) > mc_kid(e, x, 1);
    case PN_MCMT_GE: return mc_kid(e, x, 0) >= mc_kid(e, x, 1);
    case PN_MCMT_NOT: return !mc_kid(e, x, 0);
    case PN_MCMT_IMPLIES: return !mc_kid(e, x, 0) || mc_kid(e, x, 1);
    case PN_MCMT_NEG: return -mc_kid(e, x, 0);
    case PN_MCMT_ITE: return mc_kid(e, x, 0) ? mc_kid(e, x, 1) : mc_kid(e, x, 2);
    case PN_MCMT_AND:
        for (uint32_t k = 0; k < x->n; k++)
            if (!mc_kid(e, x, k))
                return 0;
        return 1;
    case PN_MCMT_OR:
        for (uint32_t k = 0; k < x->n; k++)
            if (mc_kid(e, x, k))
                return 1;
        return 0;
    default: return mc_arith(e, x);
    }
}

static int64_t mc_eval(mc_env *e, uint32_t t)
{
    const pn_mcmt_term *x = &e->m->sys->terms[t];
    switch (x->kind) {
    case PN_MCMT_CONST: return x->value;
    case PN_MCMT_VAR: return e->v[x->value];
    case PN_MCMT_PARAM: {
        uint32_t k = e->m->sys->n_arrays + (uint32_t)x->value;
        return mc_get(e->m, e->s, e->m->cell0[k], e->m->lo[k]); /* never updated */
    }
    case PN_MCMT_READ: return mc_read(e, x);
    default: return mc_op(e, x);
    }
}

/* Every term of l holds (and none read outside the instance). */
static bool mc_all(mc_env *e, const pn_mcmt_list *l)
{
    for (uint32_t k = 0; k < l->n; k++)
        if (!mc_eval(e, l->items[k]) || e->bad)
            return false;
    return true;
}

/* ---- transitions ------------------------------------------------------------------- */

/* Whether v fits array a's field. Outside its type (a subrange, a bool, a
 * nat below 0) the successor does not exist: false, and e->hard. Past
 * --int-range alone: a cut (mc_env_defect; in MC_CAREFUL the value is kept
 * aside for the axioms, and true). */
static bool mc_fits(mc_env *e, uint32_t a, uint32_t cell, int64_t v, const pn_mcmt_trans *tr,
                    bool *hard)
{
    mc *m = e->m;
    if (v >= m->lo[a] && v <= m->hi[a])
        return true;
    if (v < m->hard_lo[a] || v > m->hard_hi[a]) {
        *hard = true;
        return false;
    }
    mc_env_cut(e, "line %u: %s (x=%lld y=%lld) would set %s to %lld, outside --int-range "
               "%lld..%lld", tr->line, tr->name, (long long)e->v[PN_MCMT_X],
               (long long)e->v[PN_MCMT_Y], m->sys->arrays[a].name, (long long)v,
               (long long)m->b.int_lo, (long long)m->b.int_hi);
    if (e->mode != MC_CAREFUL)
        return false;
    m->over_cell[e->n_put] = cell;
    m->over_val[e->n_put++] = v;
    return true;
}

/* Whether case c's condition holds for the process in e->v[J]. */
static bool mc_case_holds(mc_env *e, const pn_mcmt_trans *tr, uint32_t c)
{
    if (tr->n_vars > 0 && (c == 0) != (e->v[PN_MCMT_J] == e->v[PN_MCMT_X]))
        return false;
    return mc_all(e, &tr->cases[c].cond);
}

/* The universal guard: every other live process satisfies one :uguard. */
static bool mc_uguard(mc_env *e, const pn_mcmt_trans *tr)
{
    mc *m = e->m;
    for (uint32_t p = 0; p < m->N; p++) {
        int64_t j = m->b.idx_from + p;
        if ((tr->n_vars > 0 && j == e->v[PN_MCMT_X]) || mc_crashed(m, e->s, p))
            continue;
        e->v[PN_MCMT_J] = j;
        bool one = false;
        for (uint32_t u = 0; u < tr->n_uguard && !one; u++)
            one = mc_all(e, &tr->uguard[u]);
        if (!one || e->bad)
            return false;
    }
    return true;
}

/* A new value v of cell `cell` (array a) into out: false when the update
 * stops (outside the type: *hard; in MC_FAST, a cut to do again
 * carefully). In MC_CAREFUL a value past --int-range waits aside. */
static bool mc_put(mc_env *e, uint32_t a, uint32_t cell, int64_t v, const pn_mcmt_trans *tr,
                   uint64_t *out, bool *hard)
{
    mc *m = e->m;
    if (!mc_fits(e, a, cell, v, tr, hard))
        return false;
    if (v >= m->lo[a] && v <= m->hi[a])
        mc_set(m, out, cell, m->lo[a], v);
    return true;
}

/* A value that could not be computed (e->bad, its defect taken by the
 * mode): in MC_CAREFUL the update goes on without it (its defect is kept);
 * in MC_FAST it stops. */
static bool mc_unknown(mc_env *e)
{
    e->bad = false;
    return e->mode == MC_CAREFUL;
}

/* The local cells of process p by the case that holds for it (the process
 * crashes where none does). false when the update stops (mc_put). Cases
 * that hold together and disagree are a defect. */
static bool mc_update_proc(mc_env *e, const pn_mcmt_trans *tr, uint32_t p, uint64_t *out,
                           bool *hard)
{
    mc *m = e->m;
    const pn_mcmt_sys *sys = m->sys;
    e->v[PN_MCMT_J] = m->b.idx_from + p;
    int chosen = -1;
    for (uint32_t c = 0; c < tr->n_cases; c++) {
        if (!mc_case_holds(e, tr, c)) {
            if (e->bad)
                return mc_unknown(e);
            continue;
        }
        for (uint32_t a = 0; a < sys->n_arrays; a++) {
            if (sys->arrays[a].global)
                continue;
            int64_t v = mc_eval(e, tr->cases[c].val[a]);
            if (e->bad)
                return mc_unknown(e);
            if (chosen < 0)
                m->tmp[a] = v;
            else if (m->tmp[a] != v) {
                mc_env_defect(e, PN_MCMT_DEFECT_CASES, "line %u: cases %d and %u of %s both "
                              "hold for j=%lld and give %s different values", tr->line,
                              chosen + 1, c + 1, tr->name, (long long)e->v[PN_MCMT_J],
                              sys->arrays[a].name);
                return e->mode == MC_CAREFUL;
            }
        }
        if (chosen < 0)
            chosen = (int)c;
    }
    if (chosen < 0) { /* no case: the process crashes (stopping failures) */
        mc_set(m, out, m->crash0 + p, 0, 1);
        return true;
    }
    for (uint32_t a = 0; a < sys->n_arrays; a++)
        if (!sys->arrays[a].global && !mc_put(e, a, m->cell0[a] + p, m->tmp[a], tr, out, hard))
            return false;
    return true;
}

/* Every cell of the successor into out (a copy of e->s); false when the
 * update stops (mc_put). */
static bool mc_update(mc_env *e, uint32_t ti, uint64_t *out, bool *hard)
{
    mc *m = e->m;
    const pn_mcmt_sys *sys = m->sys;
    const pn_mcmt_trans *tr = &sys->trans[ti];
    memcpy(out, e->s, (size_t)m->words * sizeof *out);
    e->v[PN_MCMT_J] = -1; /* globals never read j (the reader sees to it) */
    for (uint32_t a = 0; a < sys->n_arrays; a++) {
        if (!sys->arrays[a].global)
            continue;
        int64_t v = mc_eval(e, tr->cases[0].val[a]);
        if (e->bad) {
            if (!mc_unknown(e))
                return false;
        } else if (!mc_put(e, a, m->cell0[a], v, tr, out, hard))
            return false;
    }
    if (m->frame[ti]) /* the other processes keep their cells */
        return mc_update_proc(e, tr, (uint32_t)(e->v[PN_MCMT_X] - m->b.idx_from), out, hard);
    for (uint32_t p = 0; p < m->N; p++)
        if (!mc_update_proc(e, tr, p, out, hard))
            return false;
    return true;
}

static bool mc_axioms_hold(mc *m, const uint64_t *s, uint32_t n_over);

/* The update done again where the quick one met something irregular, to
 * the end, so that what is decided does not depend on the order the cells
 * come in: a value outside its type anywhere means no successor; else a
 * value that could not be computed or disagreeing cases are a defect;
 * else a broken axiom means no successor; else a value past --int-range
 * is a cut (a defect). */
static bool mc_try_carefully(mc_env *e, uint32_t ti, uint64_t *out)
{
    mc *m = e->m;
    e->mode = MC_CAREFUL;
    e->bad = e->defer = false;
    e->pend = e->cut = PN_MCMT_DEFECT_NONE;
    e->n_put = 0;
    bool hard = false;
    if (!mc_update(e, ti, out, &hard))
        return false;
    if (e->pend != PN_MCMT_DEFECT_NONE) {
        mc_defect(m, e->pend, "%s", m->pend_msg);
        return false;
    }
    if (m->sys->n_axioms > 0 && !mc_axioms_hold(m, out, e->n_put))
        return false;
    if (e->cut != PN_MCMT_DEFECT_NONE) {
        mc_defect(m, e->cut, "%s", m->cut_msg);
        return false;
    }
    return true;
}

/* The successor of s by tr with x, y bound, into out; false when the
 * transition is not enabled there with these processes. */
bool pn_mcmt_try(mc *m, const uint64_t *s, uint32_t ti, int64_t x, int64_t y, uint64_t *out)
{
    const pn_mcmt_sys *sys = m->sys;
    const pn_mcmt_trans *tr = &sys->trans[ti];
    if (tr->n_vars > 0 && mc_crashed(m, s, (uint32_t)(x - m->b.idx_from)))
        return false;
    if (tr->n_vars > 1 && mc_crashed(m, s, (uint32_t)(y - m->b.idx_from)))
        return false;
    mc_env e = {.m = m, .s = s};
    e.v[PN_MCMT_X] = x;
    e.v[PN_MCMT_Y] = y;
    if (!mc_all(&e, &tr->guard))
        return false;
    if (tr->n_uguard > 0 && !mc_uguard(&e, tr))
        return false;
    e.mode = MC_FAST;
    bool hard = false;
    if (mc_update(&e, ti, out, &hard))
        return sys->n_axioms == 0 || mc_axioms_hold(m, out, 0);
    return !hard && e.defer && mc_try_carefully(&e, ti, out);
}

/* Space transition t as (transition of sys, x, y). */
void pn_mcmt_decode(const mc *m, uint32_t t, uint32_t *ti, int64_t *x, int64_t *y)
{
    uint32_t k = 0;
    while (m->tbase[k + 1] <= t)
        k++;
    uint32_t r = t - m->tbase[k], N = m->N;
    *ti = k;
    *x = *y = -1;
    if (m->sys->trans[k].n_vars == 1)
        *x = m->b.idx_from + r;
    else if (m->sys->trans[k].n_vars == 2) {
        uint32_t px = r / (N - 1), py = r % (N - 1);
        py += py >= px;
        *x = m->b.idx_from + px;
        *y = m->b.idx_from + py;
    }
}

/* ---- universal formulas: :initial and :system_axiom --------------------------------- */

/* Every binding of the conjunct's variables (equal ones too) satisfies it
 * in s, the first n_over cells of m->over_cell read from m->over_val. */
static bool mc_conj_all(mc *m, const uint64_t *s, const mc_conj *c, uint32_t n_over)
{
    mc_env e = {.m = m, .s = s, .n_over = n_over};
    int vars[3], nv = 0;
    for (int v = PN_MCMT_X; v <= PN_MCMT_J; v++)
        if (c->vars & 1u << v)
            vars[nv++] = v;
    uint32_t idx[3] = {0, 0, 0};
    for (;;) {
        for (int k = 0; k < nv; k++)
            e.v[vars[k]] = m->b.idx_from + idx[k];
        if (!mc_eval(&e, c->term) || e.bad)
            return false;
        int k = 0;
        while (k < nv && ++idx[k] == m->N)
            idx[k++] = 0;
        if (k == nv)
            return true;
    }
}

static bool mc_axioms_hold(mc *m, const uint64_t *s, uint32_t n_over)
{
    for (uint32_t k = 0; k < m->n_conj; k++)
        if (!m->conj[k].initial && !mc_conj_all(m, s, &m->conj[k], n_over))
            return false;
    return true;
}

static uint32_t mc_vars_of(const pn_mcmt_sys *sys, uint32_t t, bool *plain)
{
    const pn_mcmt_term *x = &sys->terms[t];
    if (x->kind == PN_MCMT_VAR)
        return 1u << x->value;
    if (x->kind == PN_MCMT_READ && x->n == 1 && sys->terms[sys->kids[x->first]].kind != PN_MCMT_VAR)
        *plain = false;
    uint32_t v = 0;
    for (uint32_t k = 0; k < x->n; k++)
        v |= mc_vars_of(sys, sys->kids[x->first + k], plain);
    return v;
}

static bool mc_reads_local(const pn_mcmt_sys *sys, uint32_t t)
{
    const pn_mcmt_term *x = &sys->terms[t];
    if (x->kind == PN_MCMT_READ && !sys->arrays[x->value].global)
        return true;
    for (uint32_t k = 0; k < x->n; k++)
        if (mc_reads_local(sys, sys->kids[x->first + k]))
            return true;
    return false;
}

static pn_status mc_classify(mc *m, pn_error *err)
{
    const pn_mcmt_sys *sys = m->sys;
    uint32_t n = 0;
    for (uint32_t k = 0; k < sys->n_initial; k++)
        n += sys->initial[k].cnj.n;
    for (uint32_t k = 0; k < sys->n_axioms; k++)
        n += sys->axioms[k].cnj.n;
    m->conj = calloc((size_t)n + 1, sizeof *m->conj);
    if (m->conj == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the initial formula");
    for (uint32_t pass = 0; pass < 2; pass++) {
        const pn_mcmt_univ *u = pass == 0 ? sys->initial : sys->axioms;
        uint32_t nu = pass == 0 ? sys->n_initial : sys->n_axioms;
        for (uint32_t k = 0; k < nu; k++)
            for (uint32_t i = 0; i < u[k].cnj.n; i++) {
                mc_conj *c = &m->conj[m->n_conj++];
                bool plain = true;
                c->term = u[k].cnj.items[i];
                c->vars = mc_vars_of(sys, c->term, &plain);
                c->initial = pass == 0;
                if (c->vars == 0 && !mc_reads_local(sys, c->term))
                    c->cls = MC_GLOBAL;
                else if (plain && c->vars != 0 && (c->vars & (c->vars - 1)) == 0) {
                    c->cls = MC_ONE;
                    c->var = (uint8_t)__builtin_ctz(c->vars);
                } else
                    c->cls = MC_FULL;
            }
    }
    return PN_OK;
}

/* ---- initial states ------------------------------------------------------------------- */

typedef struct mc_init {
    mc *m;
    uint64_t *s;            /* the state being assigned */
    uint32_t *loc;          /* the local arrays */
    uint32_t n_loc;
    int64_t **cand;         /* per process: its tuples, n_loc values each */
    uint64_t *n_cand;
    uint64_t cap;
    uint64_t work;          /* valuations tried so far (MC_MAX_WORK) */
    pn_error *err;
} mc_init;

/* Counts n more valuations to try; false past MC_MAX_WORK (err set). */
static bool mc_init_work(mc_init *in, uint64_t n)
{
    if (n <= MC_MAX_WORK && in->work + n <= MC_MAX_WORK) {
        in->work += n;
        return true;
    }
    pn_fail(in->err, PN_ERR_UNSUPPORTED, "the initial states need more than %llu valuations "
            "tried (constrain the :initial formula or narrow --int-range)",
            (unsigned long long)MC_MAX_WORK);
    return false;
}

/* The conjuncts of class cls (MC_ONE: of variable var bound to process p)
 * hold in s. */
static bool mc_init_holds(mc *m, const uint64_t *s, int cls, uint32_t p)
{
    for (uint32_t k = 0; k < m->n_conj; k++) {
        const mc_conj *c = &m->conj[k];
        if (c->cls != cls)
            continue;
        if (cls == MC_ONE) {
            mc_env e = {.m = m, .s = s};
            e.v[c->var] = m->b.idx_from + p;
            if (!mc_eval(&e, c->term) || e.bad)
                return false;
        } else if (!mc_conj_all(m, s, c, 0))
            return false;
    }
    return true;
}

static pn_status mc_init_push(mc_init *in)
{
    mc *m = in->m;
    if (m->n_init == MC_MAX_INITIAL)
        return pn_fail(in->err, PN_ERR_UNSUPPORTED, "the instance has more than %llu initial "
                       "states", (unsigned long long)MC_MAX_INITIAL);
    if (m->n_init == in->cap) {
        uint64_t c = in->cap == 0 ? 64 : in->cap * 2;
        uint64_t *p = realloc(m->init, c * m->words * sizeof *p);
        if (p == NULL)
            return pn_fail(in->err, PN_ERR_NOMEM, "out of memory for the initial states");
        m->init = p;
        in->cap = c;
    }
    memcpy(m->init + m->n_init++ * m->words, in->s, (size_t)m->words * sizeof *in->s);
    return PN_OK;
}

/* Per process p, the tuples of its local cells that the one-variable
 * conjuncts allow (the globals of in->s set). */
static pn_status mc_init_cands(mc_init *in, uint32_t p)
{
    mc *m = in->m;
    uint64_t total = 1;
    for (uint32_t i = 0; i < in->n_loc; i++) {
        uint32_t a = in->loc[i];
        total *= (uint64_t)(m->hi[a] - m->lo[a] + 1);
        if (total > MC_MAX_TUPLES)
            return pn_fail(in->err, PN_ERR_UNSUPPORTED, "a process has more than %llu initial "
                           "local valuations to try", (unsigned long long)MC_MAX_TUPLES);
    }
    if (!mc_init_work(in, total))
        return in->err->code;
    free(in->cand[p]);
    in->cand[p] = malloc((total * in->n_loc + 1) * sizeof **in->cand);
    if (in->cand[p] == NULL)
        return pn_fail(in->err, PN_ERR_NOMEM, "out of memory for the initial states");
    in->n_cand[p] = 0;
    for (uint64_t code = 0; code < total; code++) {
        uint64_t c = code;
        for (uint32_t i = 0; i < in->n_loc; i++) {
            uint32_t a = in->loc[i];
            uint64_t span = (uint64_t)(m->hi[a] - m->lo[a] + 1);
            mc_set(m, in->s, m->cell0[a] + p, m->lo[a], m->lo[a] + (int64_t)(c % span));
            c /= span;
        }
        if (!mc_init_holds(m, in->s, MC_ONE, p))
            continue;
        for (uint32_t i = 0; i < in->n_loc; i++)
            in->cand[p][in->n_cand[p] * in->n_loc + i] =
                mc_get(m, in->s, m->cell0[in->loc[i]] + p, m->lo[in->loc[i]]);
        in->n_cand[p]++;
    }
    return PN_OK;
}

/* Every combination of the processes' tuples that the other conjuncts allow. */
static pn_status mc_init_product(mc_init *in)
{
    mc *m = in->m;
    uint64_t *pick = calloc((size_t)m->N + 1, sizeof *pick);
    if (pick == NULL)
        return pn_fail(in->err, PN_ERR_NOMEM, "out of memory for the initial states");
    pn_status st = PN_OK;
    uint64_t combos = 1;
    for (uint32_t p = 0; p < m->N; p++) {
        if (in->n_cand[p] == 0)
            goto done;
        combos = combos > MC_MAX_WORK / in->n_cand[p] ? MC_MAX_WORK + 1 : combos * in->n_cand[p];
    }
    if (!mc_init_work(in, combos)) {
        st = in->err->code;
        goto done;
    }
    for (;;) {
        for (uint32_t p = 0; p < m->N; p++)
            for (uint32_t i = 0; i < in->n_loc; i++)
                mc_set(m, in->s, m->cell0[in->loc[i]] + p, m->lo[in->loc[i]],
                       in->cand[p][pick[p] * in->n_loc + i]);
        if (mc_init_holds(m, in->s, MC_FULL, 0) && (st = mc_init_push(in)) != PN_OK)
            break;
        uint32_t p = 0;
        while (p < m->N && ++pick[p] == in->n_cand[p])
            pick[p++] = 0;
        if (p == m->N)
            break;
    }
done:
    free(pick);
    return st;
}

static pn_status mc_initial_states(mc *m, pn_error *err)
{
    const pn_mcmt_sys *sys = m->sys;
    mc_init in = {.m = m, .err = err};
    uint32_t n_glob = 0, *glob = calloc((size_t)sys->n_arrays + sys->n_params + 1, sizeof *glob);
    in.loc = calloc((size_t)sys->n_arrays + 1, sizeof *in.loc);
    in.s = calloc((size_t)m->words, sizeof *in.s);
    in.cand = calloc((size_t)m->N, sizeof *in.cand);
    in.n_cand = calloc((size_t)m->N, sizeof *in.n_cand);
    pn_status st = PN_OK;
    if (glob == NULL || in.loc == NULL || in.s == NULL || in.cand == NULL || in.n_cand == NULL) {
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory for the initial states");
        goto done;
    }
    for (uint32_t a = 0; a < sys->n_arrays + sys->n_params; a++) {
        if (a < sys->n_arrays && !sys->arrays[a].global)
            in.loc[in.n_loc++] = a;
        else
            glob[n_glob++] = a;
    }
    uint64_t total = 1;
    for (uint32_t i = 0; i < n_glob; i++) {
        total *= (uint64_t)(m->hi[glob[i]] - m->lo[glob[i]] + 1);
        if (total > MC_MAX_GLOBALS) {
            st = pn_fail(err, PN_ERR_UNSUPPORTED, "the globals and constants have more than "
                         "%llu initial valuations to try", (unsigned long long)MC_MAX_GLOBALS);
            goto done;
        }
    }
    for (uint64_t code = 0; code < total && st == PN_OK; code++) {
        uint64_t c = code;
        for (uint32_t i = 0; i < n_glob; i++) {
            uint32_t a = glob[i];
            uint64_t span = (uint64_t)(m->hi[a] - m->lo[a] + 1);
            mc_set(m, in.s, m->cell0[a], m->lo[a], m->lo[a] + (int64_t)(c % span));
            c /= span;
        }
        if (!mc_init_holds(m, in.s, MC_GLOBAL, 0))
            continue;
        for (uint32_t p = 0; p < m->N && st == PN_OK; p++)
            st = mc_init_cands(&in, p);
        if (st == PN_OK)
            st = mc_init_product(&in);
    }
done:
    for (uint32_t p = 0; in.cand != NULL && p < m->N; p++)
        free(in.cand[p]);
    free(in.cand);
    free(in.n_cand);
    free(in.s);
    free(in.loc);
    free(glob);
    return st;
}

/* ---- layout and static relations ---------------------------------------------------- */

static uint32_t mc_bits(uint64_t span)
{
    uint32_t w = 0;
    while (w < 63 && (1ULL << w) < span)
        w++;
    return w == 0 ? 1 : w;
}

/* The values of a type in the instance, [lo, hi], within the type's own
 * bounds [hard_lo, hard_hi] (the rest is --int-range's). */
static void mc_domain(const pn_mcmt_type *t, pn_mcmt_bound b, int64_t *lo, int64_t *hi,
                      int64_t *hard_lo, int64_t *hard_hi)
{
    *hard_lo = INT64_MIN;
    *hard_hi = INT64_MAX;
    if (t->base == PN_MCMT_BOOL)
        *lo = *hard_lo = 0, *hi = *hard_hi = 1;
    else if (t->base == PN_MCMT_SUBRANGE)
        *lo = *hard_lo = t->lo, *hi = *hard_hi = t->hi;
    else {
        *lo = b.int_lo, *hi = b.int_hi;
        if (t->base == PN_MCMT_NAT) {
            *hard_lo = 0;
            if (*lo < 0)
                *lo = 0;
        }
    }
}

static pn_status mc_layout(mc *m, pn_error *err)
{
    const pn_mcmt_sys *sys = m->sys;
    uint32_t K = sys->n_arrays + sys->n_params;
    m->cell0 = calloc((size_t)K + 1, sizeof *m->cell0);
    m->lo = calloc((size_t)K + 1, sizeof *m->lo);
    m->hi = calloc((size_t)K + 1, sizeof *m->hi);
    m->hard_lo = calloc((size_t)K + 1, sizeof *m->hard_lo);
    m->hard_hi = calloc((size_t)K + 1, sizeof *m->hard_hi);
    m->tmp = calloc((size_t)K + 1, sizeof *m->tmp);
    if (m->cell0 == NULL || m->lo == NULL || m->hi == NULL || m->hard_lo == NULL ||
        m->hard_hi == NULL || m->tmp == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the instance");
    uint32_t cells = 0;
    for (uint32_t a = 0; a < K; a++) {
        const pn_mcmt_type *t = a < sys->n_arrays ? &sys->arrays[a].type
                                                  : &sys->params[a - sys->n_arrays].type;
        mc_domain(t, m->b, &m->lo[a], &m->hi[a], &m->hard_lo[a], &m->hard_hi[a]);
        if (m->lo[a] > m->hi[a])
            return pn_fail(err, PN_ERR_INPUT, "%s has no value in --int-range %lld..%lld",
                           a < sys->n_arrays ? sys->arrays[a].name
                                             : sys->params[a - sys->n_arrays].name,
                           (long long)m->b.int_lo, (long long)m->b.int_hi);
        m->cell0[a] = cells;
        cells += a < sys->n_arrays && !sys->arrays[a].global ? m->N : 1;
    }
    m->crash0 = cells;
    cells += m->N;
    m->n_cells = cells;
    m->st.places = cells;
    m->st.field = calloc((size_t)cells + 1, sizeof *m->st.field);
    m->mask = calloc((size_t)cells + 1, sizeof *m->mask);
    m->clo = calloc((size_t)cells + 1, sizeof *m->clo);
    m->chi = calloc((size_t)cells + 1, sizeof *m->chi);
    m->over_cell = calloc((size_t)cells + 1, sizeof *m->over_cell);
    m->over_val = calloc((size_t)cells + 1, sizeof *m->over_val);
    if (m->st.field == NULL || m->mask == NULL || m->clo == NULL || m->chi == NULL ||
        m->over_cell == NULL || m->over_val == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the instance");
    uint32_t word = 0, bit = 0;
    for (uint32_t a = 0; a <= K; a++) {
        uint32_t first = a < K ? m->cell0[a] : m->crash0;
        uint32_t end = a + 1 < K ? m->cell0[a + 1] : a < K ? m->crash0 : cells;
        uint32_t w = a < K ? mc_bits((uint64_t)(m->hi[a] - m->lo[a]) + 1) : 1;
        for (uint32_t c = first; c < end; c++) {
            if (bit + w > 64)
                word++, bit = 0;
            m->st.field[c] = (pn_space_field){word, bit, w};
            m->clo[c] = a < K ? m->lo[a] : 0;
            m->chi[c] = a < K ? m->hi[a] : 1;
            m->mask[c] = w == 64 ? ~0ULL : (1ULL << w) - 1;
            bit += w;
        }
    }
    m->words = m->st.words = word + 1;
    return PN_OK;
}

typedef struct mc_set_list {
    uint32_t *items;
    uint32_t n, cap;
} mc_set_list;

static bool mc_list_add(mc_set_list *l, uint32_t c)
{
    for (uint32_t k = 0; k < l->n; k++)
        if (l->items[k] == c)
            return true;
    if (l->n == l->cap) {
        uint32_t cap = l->cap == 0 ? 16 : l->cap * 2;
        uint32_t *p = realloc(l->items, cap * sizeof *p);
        if (p == NULL)
            return false;
        l->items = p;
        l->cap = cap;
    }
    l->items[l->n++] = c;
    return true;
}

/* The cells term t may read with x, y (and j, where jv >= 0) bound; other
 * indices: every cell of the array. */
static bool mc_term_reads(const mc *m, uint32_t t, int64_t x, int64_t y, int64_t jv,
                          mc_set_list *l)
{
    const pn_mcmt_sys *sys = m->sys;
    const pn_mcmt_term *e = &sys->terms[t];
    bool ok = true;
    if (e->kind == PN_MCMT_PARAM)
        ok = mc_list_add(l, m->cell0[sys->n_arrays + (uint32_t)e->value]);
    if (e->kind == PN_MCMT_READ) {
        uint32_t a = (uint32_t)e->value;
        const pn_mcmt_term *k = e->n == 1 ? &sys->terms[sys->kids[e->first]] : NULL;
        int64_t at = -1;
        if (k != NULL && k->kind == PN_MCMT_VAR)
            at = k->value == PN_MCMT_X ? x : k->value == PN_MCMT_Y ? y
                                               : k->value == PN_MCMT_J ? jv : -1;
        if (sys->arrays[a].global)
            ok = mc_list_add(l, m->cell0[a]);
        else if (at >= 0)
            ok = mc_list_add(l, mc_cell_of(m, a, (uint32_t)(at - m->b.idx_from)));
        else
            for (uint32_t p = 0; p < m->N && ok; p++)
                ok = mc_list_add(l, m->cell0[a] + p);
    }
    for (uint32_t k = 0; k < e->n && ok; k++)
        ok = mc_term_reads(m, sys->kids[e->first + k], x, y, jv, l);
    return ok;
}

static bool mc_list_reads(const mc *m, const pn_mcmt_list *ls, int64_t x, int64_t y, int64_t jv,
                          mc_set_list *l)
{
    for (uint32_t k = 0; k < ls->n; k++)
        if (!mc_term_reads(m, ls->items[k], x, y, jv, l))
            return false;
    return true;
}

/* Term t is a[j]: the cell keeps its value. */
static bool mc_is_keep(const pn_mcmt_sys *sys, uint32_t t, uint32_t a)
{
    const pn_mcmt_term *e = &sys->terms[t];
    if (e->kind != PN_MCMT_READ || (uint32_t)e->value != a)
        return false;
    if (sys->arrays[a].global)
        return true;
    const pn_mcmt_term *k = &sys->terms[sys->kids[e->first]];
    return k->kind == PN_MCMT_VAR && k->value == PN_MCMT_J;
}

/* Whether the cases of tr cover every process for sure: a case with no
 * condition besides the implicit ones, or two that are L and (not L). */
static bool mc_cases_cover(const pn_mcmt_sys *sys, const pn_mcmt_trans *tr)
{
    if (tr->n_vars > 0 && tr->cases[0].cond.n > 0)
        return false; /* x itself may miss its case */
    for (uint32_t c = tr->n_vars > 0 ? 1 : 0; c < tr->n_cases; c++) {
        if (tr->cases[c].cond.n == 0)
            return true;
        for (uint32_t d = c + 1; d < tr->n_cases; d++) {
            const pn_mcmt_list *u = &tr->cases[c].cond, *v = &tr->cases[d].cond;
            if (u->n != 1 || v->n != 1)
                continue;
            const pn_mcmt_term *tu = &sys->terms[u->items[0]], *tv = &sys->terms[v->items[0]];
            if ((tv->kind == PN_MCMT_OP && tv->op == PN_MCMT_NOT &&
                 sys->kids[tv->first] == u->items[0]) ||
                (tu->kind == PN_MCMT_OP && tu->op == PN_MCMT_NOT &&
                 sys->kids[tu->first] == v->items[0]))
                return true;
        }
    }
    return false;
}

/* The cells space transition (ti, x, y) may write. */
static bool mc_trans_writes(const mc *m, uint32_t ti, int64_t x, mc_set_list *l)
{
    const pn_mcmt_sys *sys = m->sys;
    const pn_mcmt_trans *tr = &sys->trans[ti];
    bool ok = true;
    for (uint32_t a = 0; a < sys->n_arrays && ok; a++) {
        bool first_only = tr->n_vars > 0, any = false;
        for (uint32_t c = 0; c < tr->n_cases; c++)
            if (!mc_is_keep(sys, tr->cases[c].val[a], a)) {
                any = true;
                first_only &= c == 0;
            }
        if (!any)
            continue;
        if (sys->arrays[a].global)
            ok = mc_list_add(l, m->cell0[a]);
        else if (first_only)
            ok = mc_list_add(l, mc_cell_of(m, a, (uint32_t)(x - m->b.idx_from)));
        else
            for (uint32_t p = 0; p < m->N && ok; p++)
                ok = mc_list_add(l, m->cell0[a] + p);
    }
    for (uint32_t p = 0; p < m->N && ok && !mc_cases_cover(sys, tr); p++)
        ok = mc_list_add(l, m->crash0 + p);
    return ok;
}

/* The cells space transition (ti, x, y) reads: a case's a[j] for its own
 * array is left out (the cell keeps its value, whatever it is). In the
 * first case of a transition with x, j is x. */
static bool mc_trans_reads(const mc *m, uint32_t ti, int64_t x, int64_t y, mc_set_list *l)
{
    const pn_mcmt_sys *sys = m->sys;
    const pn_mcmt_trans *tr = &sys->trans[ti];
    bool ok = mc_list_reads(m, &tr->guard, x, y, -1, l);
    for (uint32_t u = 0; u < tr->n_uguard && ok; u++)
        ok = mc_list_reads(m, &tr->uguard[u], x, y, -1, l);
    for (uint32_t c = 0; c < tr->n_cases && ok; c++) {
        int64_t jv = c == 0 && tr->n_vars > 0 ? x : -1;
        ok = mc_list_reads(m, &tr->cases[c].cond, x, y, jv, l);
        for (uint32_t a = 0; a < sys->n_arrays && ok; a++)
            if (!mc_is_keep(sys, tr->cases[c].val[a], a))
                ok = mc_term_reads(m, tr->cases[c].val[a], x, y, jv, l);
    }
    if (ok && x >= 0)
        ok = mc_list_add(l, m->crash0 + (uint32_t)(x - m->b.idx_from));
    if (ok && y >= 0)
        ok = mc_list_add(l, m->crash0 + (uint32_t)(y - m->b.idx_from));
    for (uint32_t p = 0; p < m->N && ok && tr->n_uguard > 0; p++)
        ok = mc_list_add(l, m->crash0 + p);
    for (uint32_t k = 0; k < m->n_conj && ok; k++) /* axioms: checked on the successor */
        if (!m->conj[k].initial)
            ok = mc_term_reads(m, m->conj[k].term, -1, -1, -1, l);
    return ok;
}

/* One CSR (reads or writes) over all space transitions. */
static pn_status mc_csr(mc *m, bool writes, uint32_t **off_out, uint32_t **items_out,
                        pn_error *err)
{
    uint32_t T = m->st.transitions;
    uint32_t *off = calloc((size_t)T + 2, sizeof *off);
    mc_set_list all = {0}, one = {0};
    bool ok = off != NULL;
    for (uint32_t t = 0; t < T && ok; t++) {
        uint32_t ti;
        int64_t x, y;
        pn_mcmt_decode(m, t, &ti, &x, &y);
        one.n = 0;
        ok = writes ? mc_trans_writes(m, ti, x, &one) : mc_trans_reads(m, ti, x, y, &one);
        off[t] = all.n;
        for (uint32_t k = 0; k < one.n && ok; k++) {
            if (all.n == all.cap) {
                uint32_t cap = all.cap == 0 ? 64 : all.cap * 2;
                uint32_t *p = cap > all.cap ? realloc(all.items, cap * sizeof *p) : NULL;
                if (p == NULL) {
                    ok = false;
                    break;
                }
                all.items = p;
                all.cap = cap;
            }
            all.items[all.n++] = one.items[k];
        }
    }
    free(one.items);
    if (!ok || (all.items == NULL && (all.items = malloc(sizeof *all.items)) == NULL)) {
        free(off);
        free(all.items);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the transition relations");
    }
    off[T] = all.n;
    *off_out = off;
    *items_out = all.items;
    return PN_OK;
}

/* ---- the pn_space ----------------------------------------------------------------------- */

static uint32_t mc_words(void *self, pn_space *inner)
{
    (void)inner;
    return ((mc *)self)->words;
}

static void mc_initial(void *self, pn_space *inner, uint64_t *s)
{
    (void)inner;
    mc *m = self;
    if (m->n_init > 0)
        memcpy(s, m->init, (size_t)m->words * sizeof *s);
    else
        memset(s, 0, (size_t)m->words * sizeof *s);
}

static bool mc_fire_into(mc *m, const uint64_t *s, uint32_t t, uint64_t *out)
{
    uint32_t ti;
    int64_t x, y;
    pn_mcmt_decode(m, t, &ti, &x, &y);
    return pn_mcmt_try(m, s, ti, x, y, out);
}

static uint32_t mc_next_all(void *self, pn_space *inner, const uint64_t *s, pn_space_succ_fn fn,
                            void *ctx)
{
    (void)inner;
    mc *m = self;
    uint64_t *out = m->init + m->n_init * m->words; /* the scratch state after the list */
    uint32_t t = 0;
    int64_t from = m->b.idx_from;
    for (uint32_t ti = 0; ti < m->sys->n_trans; ti++) {
        uint32_t nv = m->sys->trans[ti].n_vars;
        if (nv == 0) {
            if (pn_mcmt_try(m, s, ti, -1, -1, out))
                fn(ctx, t, out);
            t++;
            continue;
        }
        for (uint32_t px = 0; px < m->N; px++) {
            if (nv == 1) {
                if (pn_mcmt_try(m, s, ti, from + px, -1, out))
                    fn(ctx, t, out);
                t++;
                continue;
            }
            for (uint32_t py = 0; py < m->N; py++) /* mc_decode's order */
                if (py != px) {
                    if (pn_mcmt_try(m, s, ti, from + px, from + py, out))
                        fn(ctx, t, out);
                    t++;
                }
        }
    }
    return 0;
}

static uint32_t mc_fire(void *self, pn_space *inner, const uint64_t *s, uint32_t t,
                        uint64_t *out)
{
    (void)inner;
    mc_fire_into(self, s, t, out);
    return 0;
}

static uint32_t mc_enabled(void *self, pn_space *inner, const uint64_t *s, uint32_t *out)
{
    (void)inner;
    mc *m = self;
    uint64_t *tmp = m->init + m->n_init * m->words;
    uint32_t n = 0;
    for (uint32_t t = 0; t < m->st.transitions; t++)
        if (mc_fire_into(m, s, t, tmp))
            out[n++] = t;
    return n;
}

static bool mc_enabled_one(void *self, pn_space *inner, const uint64_t *s, uint32_t t)
{
    (void)inner;
    mc *m = self;
    return mc_fire_into(m, s, t, m->init + m->n_init * m->words);
}

static void mc_marking(void *self, pn_space *inner, const uint64_t *s, uint64_t *mk)
{
    (void)inner;
    mc *m = self;
    for (uint32_t c = 0; c < m->n_cells; c++)
        mk[c] = (uint64_t)mc_get(m, s, c, 0);
}

static pn_status mc_widen(void *self, pn_space *inner, const uint32_t *places, uint32_t n,
                          pn_error *err)
{
    (void)self, (void)inner, (void)places, (void)n;
    return pn_fail(err, PN_ERR_INTERNAL, "an MCMT instance has fixed fields and never widens");
}

static void mc_repack(void *self, pn_space *inner, const uint64_t *old_s, uint64_t *s)
{
    (void)inner;
    memcpy(s, old_s, (size_t)((mc *)self)->words * sizeof *s);
}

static void mc_free(void *self)
{
    mc *m = self;
    if (m == NULL)
        return;
    free(m->cell0);
    free(m->lo);
    free(m->hi);
    free(m->hard_lo);
    free(m->hard_hi);
    free(m->clo);
    free(m->chi);
    free(m->over_cell);
    free(m->over_val);
    free(m->mask);
    free(m->tmp);
    free(m->tbase);
    free(m->frame);
    free(m->init);
    free(m->conj);
    pn_space_statics_free(&m->st);
    free(m);
}

static const pn_space_ops mc_ops = {
    .words = mc_words,
    .initial = mc_initial,
    .next_all = mc_next_all,
    .fire = mc_fire,
    .enabled = mc_enabled,
    /* Not next_is_enabled: whether a transition is enabled is known only
     * once its successor is built (a value may leave its type), so listing
     * and then firing would build each successor twice. */
    .next_is_enabled = false,
    .enabled_one = mc_enabled_one,
    .marking = mc_marking,
    .widen = mc_widen,
    .repack = mc_repack,
    .free = mc_free,
};

static bool mc_is_keep(const pn_mcmt_sys *sys, uint32_t t, uint32_t a);

/* Whether every process but x keeps its cells: two cases, the second
 * with no condition (it holds for every j other than x, and no later case
 * overlaps it) and a[j] for every local array. The common shape of MCMT's
 * transitions; the update then visits x alone. */
static bool mc_frame(const pn_mcmt_sys *sys, const pn_mcmt_trans *tr)
{
    if (tr->n_vars == 0 || tr->n_cases != 2 || tr->cases[1].cond.n != 0)
        return false;
    for (uint32_t a = 0; a < sys->n_arrays; a++)
        if (!sys->arrays[a].global && !mc_is_keep(sys, tr->cases[1].val[a], a))
            return false;
    return true;
}

static pn_status mc_transitions(mc *m, pn_error *err)
{
    const pn_mcmt_sys *sys = m->sys;
    m->tbase = calloc((size_t)sys->n_trans + 2, sizeof *m->tbase);
    m->frame = calloc((size_t)sys->n_trans + 1, sizeof *m->frame);
    if (m->tbase == NULL || m->frame == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the instance");
    uint64_t n = 0, N = m->N;
    for (uint32_t t = 0; t < sys->n_trans; t++) {
        m->tbase[t] = (uint32_t)n;
        m->frame[t] = mc_frame(sys, &sys->trans[t]);
        uint32_t v = sys->trans[t].n_vars;
        n += v == 0 ? 1 : v == 1 ? N : N * (N - 1);
        if (n > (1u << 28))
            return pn_fail(err, PN_ERR_UNSUPPORTED, "the instance has more than 2^28 "
                           "transitions with their processes bound");
    }
    m->tbase[sys->n_trans] = (uint32_t)n;
    m->tbase[sys->n_trans + 1] = UINT32_MAX; /* mc_decode stops before it */
    m->st.transitions = (uint32_t)n;
    return PN_OK;
}

static pn_status mc_setup(mc *m, pn_error *err)
{
    if (m->b.procs == 0 || m->b.procs > 4096)
        return pn_fail(err, PN_ERR_INPUT, "an instance has 1 to 4096 processes, not %u",
                       m->b.procs);
    if (m->b.int_lo > m->b.int_hi || m->b.int_hi - m->b.int_lo > (1LL << 32))
        return pn_fail(err, PN_ERR_INPUT, "--int-range LO..HI needs LO <= HI, at most 2^32 apart");
    pn_status st = mc_layout(m, err);
    if (st == PN_OK)
        st = mc_transitions(m, err);
    if (st == PN_OK)
        st = mc_classify(m, err);
    if (st == PN_OK)
        st = mc_initial_states(m, err);
    /* One scratch state after the initial states (mc_next_all). */
    uint64_t *p = st == PN_OK ? realloc(m->init, (m->n_init + 1) * m->words * sizeof *p) : NULL;
    if (st == PN_OK && p == NULL)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory for the instance");
    if (p != NULL)
        m->init = p;
    if (st == PN_OK)
        st = mc_csr(m, false, &m->st.rd_off, &m->st.rd, err);
    if (st == PN_OK)
        st = mc_csr(m, true, &m->st.wr_off, &m->st.wr, err);
    if (st == PN_OK)
        st = pn_space_statics_derive(&m->st, err);
    return st;
}

pn_status pn_mcmt_space_new(const pn_mcmt_sys *sys, pn_mcmt_bound b, pn_space **out,
                            pn_error *err)
{
    *out = NULL;
    mc *m = calloc(1, sizeof *m);
    if (m == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the instance");
    m->sys = sys;
    m->b = b;
    m->N = b.procs;
    pn_status st = mc_setup(m, err);
    if (st != PN_OK) {
        mc_free(m);
        return st;
    }
    return pn_space_module_new(&mc_ops, m, &m->st, out, err);
}

/* ---- queries ------------------------------------------------------------------------------ */

mc *pn_mcmt_of(pn_space *sp)
{
    while (sp->inner != NULL)
        sp = sp->inner;
    return sp->ops == &mc_ops ? sp->self : NULL;
}

bool pn_mcmt_initial_next(pn_space *sp, uint64_t *cursor, uint64_t *s)
{
    mc *m = pn_mcmt_of(sp);
    if (m == NULL || *cursor >= m->n_init)
        return false;
    memcpy(s, m->init + *cursor * m->words, (size_t)m->words * sizeof *s);
    (*cursor)++;
    return true;
}

/* Some distinct processes z1 .. z_nz satisfy the cube. */
static bool mc_cube_holds(mc *m, const uint64_t *s, const pn_mcmt_cube *c)
{
    uint32_t nz = c->nz, idx[10] = {0};
    if (nz > m->N)
        return false;
    mc_env e = {.m = m, .s = s};
    for (;;) {
        bool distinct = true;
        for (uint32_t a = 0; a < nz && distinct; a++)
            for (uint32_t b = a + 1; b < nz && distinct; b++)
                distinct = idx[a] != idx[b];
        if (distinct) {
            for (uint32_t k = 0; k < nz; k++)
                e.v[PN_MCMT_Z1 + k] = m->b.idx_from + idx[k];
            e.bad = false;
            if (mc_all(&e, &c->cnj))
                return true;
        }
        uint32_t k = 0;
        while (k < nz && ++idx[k] == m->N)
            idx[k++] = 0;
        if (k == nz)
            return false;
    }
}

uint32_t pn_mcmt_unsafe(pn_space *sp, const uint64_t *s)
{
    mc *m = pn_mcmt_of(sp);
    for (uint32_t k = 0; m != NULL && k < m->sys->n_unsafe; k++)
        if (mc_cube_holds(m, s, &m->sys->unsafe[k]))
            return k + 1;
    return 0;
}

void pn_mcmt_space_binding(pn_space *sp, uint32_t t, uint32_t *trans, int64_t *x, int64_t *y)
{
    pn_mcmt_decode(pn_mcmt_of(sp), t, trans, x, y);
}

pn_mcmt_defect pn_mcmt_space_defect(pn_space *sp, const char **msg)
{
    mc *m = pn_mcmt_of(sp);
    if (m->defect != PN_MCMT_DEFECT_NONE)
        *msg = m->defect_msg;
    return m->defect;
}

int64_t pn_mcmt_cell(pn_space *sp, const uint64_t *s, uint32_t a, uint32_t p)
{
    mc *m = pn_mcmt_of(sp);
    return mc_get(m, s, mc_cell_of(m, a, p), m->lo[a]);
}

bool pn_mcmt_crashed(pn_space *sp, const uint64_t *s, uint32_t p)
{
    return mc_crashed(pn_mcmt_of(sp), s, p);
}

int64_t pn_mcmt_param_value(pn_space *sp, const uint64_t *s, uint32_t k)
{
    mc *m = pn_mcmt_of(sp);
    uint32_t a = m->sys->n_arrays + k;
    return mc_get(m, s, m->cell0[a], m->lo[a]);
}
