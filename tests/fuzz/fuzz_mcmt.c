/* libFuzzer target: the MCMT reader (host/io/mcmt_read.c) on arbitrary
 * bytes and, for the tiny systems it accepts, their bounded instance with
 * 2 processes (host/space/mcmt.c) and its search (host/logic/mcmt_check.c).
 *
 *   FUZZ_TARGETS=mcmt tools/fuzz/run.sh [seconds]
 *
 * Beyond "no crash, leak or undefined behaviour": a reading gives a system
 * xor a message (PN_ERR_INPUT, PN_ERR_UNSUPPORTED or PN_ERR_NOMEM); a system
 * keeps petrel/mcmt.h's shape: at least one array and one :initial block,
 * every index in range (children, list items, arrays, constants,
 * variables), each operator with its arity, a read of a local array with
 * one index and of a global with none, terms that nest (no cycle), every
 * transition with 0..2 existential variables and its cases each with one
 * :val per array (all read: ASan catches a short array), the variables of
 * each formula those it may use (an initial formula those of its :var
 * lines among x, y, an axiom also j; a guard x, y as declared; cases,
 * values and :uguard also j; an unsafe cube z1 .. z_nz), no j in the
 * update of a global.
 * A system whose instance has few cells, valuations and transitions is then
 * built for 2 processes (ints in -1..2): its initial states enumerated,
 * each within its types and checked against the unsafe formula, the
 * successors of the first few computed; pn_mcmt_check then searches it and
 * must agree: UNSAFE with an empty trace when an initial state is unsafe,
 * with one step when only a successor of one is, SAFE when there is no
 * initial state, a trace of transitions bound to processes of the
 * instance. The smallest are also translated to a net (pn_mcmt_space_net):
 * 1-safe, consistent, compiled. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"
#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/mcmt.h"
#include "petrel/net.h"
#include "petrel/space.h"

/* The deepest term walk: the reader refuses terms nested past 200. */
#define PETREL_FUZZ_MCMT_DEPTH 1000
/* The instance built: at most this many cells, and values to try. */
#define PETREL_FUZZ_MCMT_CELLS 10
#define PETREL_FUZZ_MCMT_VALUES 4096
/* The instance also translated to a net (pn_mcmt_space_net): at most this
 * many values. */
#define PETREL_FUZZ_MCMT_NET 256

/* The index variables term t uses (bits), its arities and indices checked;
 * *budget bounds the walk (it stops at 0 without a verdict). */
static uint32_t petrel_fuzz_mcmt_term(const pn_mcmt_sys *s, uint32_t t, uint32_t depth,
                                      uint64_t *budget)
{
    PETREL_FUZZ_CHECK(t < s->n_terms);
    PETREL_FUZZ_CHECK(depth < PETREL_FUZZ_MCMT_DEPTH); /* a cycle of children */
    if (*budget == 0)
        return 0;
    (*budget)--;
    const pn_mcmt_term *x = &s->terms[t];
    PETREL_FUZZ_CHECK((uint64_t)x->first + x->n <= s->n_kids);
    uint32_t vars = 0;
    switch (x->kind) {
    case PN_MCMT_CONST:
        PETREL_FUZZ_CHECK(x->n == 0);
        break;
    case PN_MCMT_VAR:
        PETREL_FUZZ_CHECK(x->n == 0 && x->value >= 0 && x->value < PN_MCMT_VARS);
        vars = 1u << x->value;
        break;
    case PN_MCMT_PARAM:
        PETREL_FUZZ_CHECK(x->n == 0 && x->value >= 0 && x->value < (int64_t)s->n_params);
        break;
    case PN_MCMT_READ:
        PETREL_FUZZ_CHECK(x->value >= 0 && x->value < (int64_t)s->n_arrays);
        PETREL_FUZZ_CHECK(x->n == (s->arrays[x->value].global ? 0u : 1u));
        break;
    case PN_MCMT_OP:
        switch (x->op) {
        case PN_MCMT_EQ:
        case PN_MCMT_LT:
        case PN_MCMT_LE:
        case PN_MCMT_GT:
        case PN_MCMT_GE:
        case PN_MCMT_IMPLIES:
            PETREL_FUZZ_CHECK(x->n == 2);
            break;
        case PN_MCMT_NOT:
        case PN_MCMT_NEG:
            PETREL_FUZZ_CHECK(x->n == 1);
            break;
        case PN_MCMT_ITE:
            PETREL_FUZZ_CHECK(x->n == 3);
            break;
        case PN_MCMT_AND:
        case PN_MCMT_OR:
        case PN_MCMT_ADD:
        case PN_MCMT_MUL:
            PETREL_FUZZ_CHECK(x->n >= 1 && x->n <= 64);
            break;
        default:
            PETREL_FUZZ_FAIL("an unknown operator");
        }
        break;
    default:
        PETREL_FUZZ_FAIL("an unknown term kind");
    }
    for (uint32_t k = 0; k < x->n; k++)
        vars |= petrel_fuzz_mcmt_term(s, s->kids[x->first + k], depth + 1, budget);
    return vars;
}

/* The variables of list l, which must be within `allowed`. */
static void petrel_fuzz_mcmt_list(const pn_mcmt_sys *s, const pn_mcmt_list *l, uint32_t allowed,
                                  uint64_t *budget)
{
    PETREL_FUZZ_CHECK(l->n == 0 || l->items != NULL);
    for (uint32_t k = 0; k < l->n; k++) {
        uint32_t v = petrel_fuzz_mcmt_term(s, l->items[k], 0, budget);
        PETREL_FUZZ_CHECK((v & ~allowed) == 0);
    }
}

static void petrel_fuzz_mcmt_check_sys(const pn_mcmt_sys *s)
{
    const uint32_t X = 1u << PN_MCMT_X, Y = 1u << PN_MCMT_Y, J = 1u << PN_MCMT_J;
    uint64_t budget = 64 * (uint64_t)s->n_terms + 1024;
    PETREL_FUZZ_CHECK(s->n_terms <= s->cap_terms && s->n_kids <= s->cap_kids);
    PETREL_FUZZ_CHECK(s->n_arrays >= 1 && s->arrays != NULL);
    PETREL_FUZZ_CHECK(s->n_initial >= 1 && s->initial != NULL);
    for (uint32_t a = 0; a < s->n_arrays; a++) {
        const pn_mcmt_array *ar = &s->arrays[a];
        PETREL_FUZZ_CHECK(ar->name != NULL && ar->name[0] != '\0');
        PETREL_FUZZ_CHECK(ar->type.base <= PN_MCMT_SUBRANGE);
        PETREL_FUZZ_CHECK(ar->type.base != PN_MCMT_SUBRANGE || ar->type.lo <= ar->type.hi);
    }
    for (uint32_t k = 0; k < s->n_params; k++) {
        PETREL_FUZZ_CHECK(s->params[k].name != NULL && s->params[k].name[0] != '\0');
        PETREL_FUZZ_CHECK(s->params[k].type.base <= PN_MCMT_SUBRANGE);
        PETREL_FUZZ_CHECK(s->params[k].type.base != PN_MCMT_SUBRANGE ||
                          s->params[k].type.lo <= s->params[k].type.hi);
    }
    /* Children of every term in range, whether or not a formula uses it. */
    for (uint32_t t = 0; t < s->n_terms; t++) {
        PETREL_FUZZ_CHECK((uint64_t)s->terms[t].first + s->terms[t].n <= s->n_kids);
        for (uint32_t k = 0; k < s->terms[t].n; k++)
            PETREL_FUZZ_CHECK(s->kids[s->terms[t].first + k] < s->n_terms);
    }
    /* :initial over x, y and :system_axiom also j, as their :var lines say. */
    for (uint32_t k = 0; k < s->n_initial; k++) {
        PETREL_FUZZ_CHECK((s->initial[k].vars & ~(X | Y)) == 0);
        petrel_fuzz_mcmt_list(s, &s->initial[k].cnj, s->initial[k].vars, &budget);
    }
    for (uint32_t k = 0; k < s->n_axioms; k++) {
        PETREL_FUZZ_CHECK((s->axioms[k].vars & ~(X | Y | J)) == 0);
        petrel_fuzz_mcmt_list(s, &s->axioms[k].cnj, s->axioms[k].vars, &budget);
    }
    for (uint32_t k = 0; k < s->n_unsafe; k++) {
        const pn_mcmt_cube *c = &s->unsafe[k];
        PETREL_FUZZ_CHECK(c->nz <= 10);
        petrel_fuzz_mcmt_list(s, &c->cnj, ((1u << c->nz) - 1) << PN_MCMT_Z1, &budget);
    }
    for (uint32_t t = 0; t < s->n_trans; t++) {
        const pn_mcmt_trans *tr = &s->trans[t];
        PETREL_FUZZ_CHECK(tr->name != NULL);
        PETREL_FUZZ_CHECK(tr->n_vars <= 2);
        uint32_t tv = (tr->n_vars >= 1 ? X : 0) | (tr->n_vars == 2 ? Y : 0);
        petrel_fuzz_mcmt_list(s, &tr->guard, tv, &budget);
        PETREL_FUZZ_CHECK(tr->n_uguard == 0 || tr->uguard != NULL);
        for (uint32_t u = 0; u < tr->n_uguard; u++)
            petrel_fuzz_mcmt_list(s, &tr->uguard[u], tv | J, &budget);
        PETREL_FUZZ_CHECK(tr->n_cases >= 1 && tr->cases != NULL);
        for (uint32_t c = 0; c < tr->n_cases; c++) {
            const pn_mcmt_case *cs = &tr->cases[c];
            petrel_fuzz_mcmt_list(s, &cs->cond, tv | J, &budget);
            PETREL_FUZZ_CHECK(cs->val != NULL);
            /* One value per array: read them all (ASan catches a short
             * array). */
            for (uint32_t a = 0; a < s->n_arrays; a++) {
                uint32_t v = petrel_fuzz_mcmt_term(s, cs->val[a], 0, &budget);
                PETREL_FUZZ_CHECK((v & ~(tv | J)) == 0);
                if (s->arrays[a].global)
                    PETREL_FUZZ_CHECK((v & J) == 0);
            }
        }
    }
    for (uint32_t k = 0; k < s->n_notes; k++)
        PETREL_FUZZ_CHECK(s->notes[k] != NULL);
}

/* ---- the instance ------------------------------------------------------------------- */

static uint64_t petrel_fuzz_mcmt_span(const pn_mcmt_type *t)
{
    if (t->base == PN_MCMT_BOOL)
        return 2;
    if (t->base == PN_MCMT_SUBRANGE)
        return (uint64_t)(t->hi - t->lo) + 1;
    return t->base == PN_MCMT_NAT ? 3 : 4; /* int_lo..int_hi = -1..2 */
}

/* The valuations of the instance of 2 processes (crash flags aside) when
 * it is small enough to build and search here (few cells, valuations and
 * transitions), else 0. */
static uint64_t petrel_fuzz_mcmt_tiny(const pn_mcmt_sys *s)
{
    uint32_t cells = 0;
    uint64_t values = 1;
    for (uint32_t k = 0; k < s->n_arrays + s->n_params; k++) {
        const pn_mcmt_type *t =
            k < s->n_arrays ? &s->arrays[k].type : &s->params[k - s->n_arrays].type;
        uint32_t n = k < s->n_arrays && !s->arrays[k].global ? 2 : 1;
        uint64_t span = petrel_fuzz_mcmt_span(t);
        cells += n;
        if (cells > PETREL_FUZZ_MCMT_CELLS || span > PETREL_FUZZ_MCMT_VALUES)
            return 0;
        for (uint32_t i = 0; i < n; i++) {
            values *= span;
            if (values > PETREL_FUZZ_MCMT_VALUES)
                return 0;
        }
    }
    return s->n_trans <= 16 ? values : 0;
}

/* What the walk of the instance saw. */
typedef struct petrel_fuzz_mcmt_seen {
    uint64_t n_init;
    int init_unsafe; /* an initial state is unsafe */
    int succ_unsafe; /* a successor of one of the first initial states is */
} petrel_fuzz_mcmt_seen;

typedef struct petrel_fuzz_mcmt_succ {
    const pn_mcmt_sys *sys;
    pn_space *sp;
    uint32_t n;
    petrel_fuzz_mcmt_seen *seen;
} petrel_fuzz_mcmt_succ;

/* Space transition t binds a transition of sys to processes of the
 * instance (0, 1), x and y as its existential variables. */
static void petrel_fuzz_mcmt_binding(const pn_mcmt_sys *s, uint32_t ti, int64_t x, int64_t y)
{
    PETREL_FUZZ_CHECK(ti < s->n_trans);
    uint32_t nv = s->trans[ti].n_vars;
    PETREL_FUZZ_CHECK(nv >= 1 ? x >= 0 && x < 2 : x == -1);
    PETREL_FUZZ_CHECK(nv == 2 ? y >= 0 && y < 2 && y != x : y == -1);
}

static void petrel_fuzz_mcmt_on_succ(void *ctx, uint32_t trans, const uint64_t *succ)
{
    petrel_fuzz_mcmt_succ *c = (petrel_fuzz_mcmt_succ *)ctx;
    PETREL_FUZZ_CHECK(succ != NULL);
    uint32_t ti = UINT32_MAX;
    int64_t x = -2, y = -2;
    pn_mcmt_space_binding(c->sp, trans, &ti, &x, &y);
    petrel_fuzz_mcmt_binding(c->sys, ti, x, y);
    uint32_t u = pn_mcmt_unsafe(c->sp, succ);
    PETREL_FUZZ_CHECK(u <= c->sys->n_unsafe);
    c->seen->succ_unsafe |= u != 0;
    c->n++;
}

/* pn_mcmt_check on the instance, against what the walk saw. */
static void petrel_fuzz_mcmt_search(const pn_mcmt_sys *s, pn_mcmt_bound b,
                                    const petrel_fuzz_mcmt_seen *seen)
{
    static FILE *devnull = NULL;
    if (devnull == NULL)
        devnull = fopen("/dev/null", "w");
    pn_budget budget = pn_budget_make(0, NULL, 64u << 20);
    pn_mcmt_result res;
    pn_error err;
    memset(&err, 0, sizeof err);
    pn_status st = pn_mcmt_check(s, b, &budget, &res, &err);
    PETREL_FUZZ_CHECK(st == PN_OK); /* the same instance was built before */
    PETREL_FUZZ_CHECK(res.answer == PN_MCMT_SAFE || res.answer == PN_MCMT_UNSAFE ||
                      res.answer == PN_MCMT_UNKNOWN);
    if (seen->n_init == 0)
        PETREL_FUZZ_CHECK(res.answer == PN_MCMT_SAFE);
    if (seen->init_unsafe)
        PETREL_FUZZ_CHECK(res.answer == PN_MCMT_UNSAFE && res.trace_len == 0);
    else if (seen->succ_unsafe)
        PETREL_FUZZ_CHECK(res.answer == PN_MCMT_UNSAFE && res.trace_len == 1);
    if (res.answer == PN_MCMT_UNKNOWN)
        PETREL_FUZZ_CHECK(res.why[0] != '\0');
    if (res.answer == PN_MCMT_UNSAFE) {
        uint32_t n_vals = s->n_params + 2;
        for (uint32_t a = 0; a < s->n_arrays; a++)
            n_vals += s->arrays[a].global ? 1 : 2;
        PETREL_FUZZ_CHECK(res.unsafe_cube >= 1 && res.unsafe_cube <= s->n_unsafe);
        PETREL_FUZZ_CHECK(res.trace_vals != NULL && res.n_vals == n_vals);
        PETREL_FUZZ_CHECK(res.trace_len == 0 || res.trace != NULL);
        PETREL_FUZZ_CHECK(res.states >= 1);
        for (uint32_t k = 0; k < res.trace_len; k++)
            petrel_fuzz_mcmt_binding(s, res.trace[k].trans, res.trace[k].x, res.trace[k].y);
        /* Every value read back (ASan: the valuations' size). */
        int64_t sum = 0;
        for (uint64_t k = 0; k < (uint64_t)(res.trace_len + 1) * n_vals; k++)
            sum ^= res.trace_vals[k];
        (void)sum;
        if (devnull != NULL)
            pn_mcmt_print_trace(devnull, s, b, &res);
    }
    pn_mcmt_result_clear(&res);
}

/* The instance as a 1-safe net: a consistent net that compiles, with a
 * transition per initial state where there are several. */
static void petrel_fuzz_mcmt_net(pn_space *sp)
{
    pn_net *net = NULL;
    pn_error err;
    memset(&err, 0, sizeof err);
    pn_status st = pn_mcmt_space_net(sp, &net, &err);
    if (st != PN_OK) {
        PETREL_FUZZ_CHECK(net == NULL && err.code == st && err.msg[0] != '\0');
        PETREL_FUZZ_CHECK(st == PN_ERR_UNSUPPORTED || st == PN_ERR_NOMEM);
        return;
    }
    PETREL_FUZZ_CHECK(net != NULL && net->n_places >= 1);
    for (uint32_t p = 0; p < net->n_places; p++)
        PETREL_FUZZ_CHECK(net->m0[p] <= 1);
    for (uint32_t a = 0; a < net->n_arcs; a++) {
        PETREL_FUZZ_CHECK(net->arcs[a].place < net->n_places);
        PETREL_FUZZ_CHECK(net->arcs[a].transition < net->n_transitions);
        PETREL_FUZZ_CHECK(net->arcs[a].weight == 1);
    }
    pn_cnet *cn = NULL;
    memset(&err, 0, sizeof err);
    PETREL_FUZZ_CHECK(pn_cnet_compile(net, &cn, &err) == PN_OK);
    PETREL_FUZZ_CHECK(cn->n_places == net->n_places && cn->n_transitions == net->n_transitions);
    pn_cnet_free(cn);
    pn_net_free(net);
}

static void petrel_fuzz_mcmt_space(const pn_mcmt_sys *s, uint64_t values)
{
    pn_mcmt_bound b = {2, 0, -1, 2};
    pn_space *sp = NULL;
    pn_error err;
    memset(&err, 0, sizeof err);
    pn_status st = pn_mcmt_space_new(s, b, &sp, &err);
    if (st != PN_OK) {
        PETREL_FUZZ_CHECK(sp == NULL && err.code == st && err.msg[0] != '\0');
        return;
    }
    PETREL_FUZZ_CHECK(sp != NULL);
    if (values <= PETREL_FUZZ_MCMT_NET) { /* first: defects met later stop it */
        petrel_fuzz_mcmt_net(sp);
        pn_space_free(sp);
        sp = NULL;
        memset(&err, 0, sizeof err);
        PETREL_FUZZ_CHECK(pn_mcmt_space_new(s, b, &sp, &err) == PN_OK);
    }
    uint32_t words = pn_space_words(sp);
    uint32_t n_trans = pn_space_transitions(sp);
    PETREL_FUZZ_CHECK(words >= 1);
    uint64_t *state = (uint64_t *)calloc(words, sizeof *state);
    if (state == NULL) {
        pn_space_free(sp);
        return;
    }
    petrel_fuzz_mcmt_seen seen = {0, 0, 0};
    uint64_t cursor = 0;
    while (pn_mcmt_initial_next(sp, &cursor, state)) {
        seen.n_init++;
        uint32_t u = pn_mcmt_unsafe(sp, state);
        PETREL_FUZZ_CHECK(u <= s->n_unsafe);
        seen.init_unsafe |= u != 0;
        for (uint32_t a = 0; a < s->n_arrays; a++) {
            int64_t lo = -1, hi = 2;
            if (s->arrays[a].type.base == PN_MCMT_BOOL)
                lo = 0, hi = 1;
            else if (s->arrays[a].type.base == PN_MCMT_SUBRANGE)
                lo = s->arrays[a].type.lo, hi = s->arrays[a].type.hi;
            else if (s->arrays[a].type.base == PN_MCMT_NAT)
                lo = 0;
            for (uint32_t p = 0; p < 2; p++) {
                int64_t v = pn_mcmt_cell(sp, state, a, p);
                PETREL_FUZZ_CHECK(v >= lo && v <= hi);
            }
        }
        PETREL_FUZZ_CHECK(!pn_mcmt_crashed(sp, state, 0) && !pn_mcmt_crashed(sp, state, 1));
        if (seen.n_init <= 4) {
            petrel_fuzz_mcmt_succ c = {s, sp, 0, &seen};
            (void)pn_space_next_all(sp, state, petrel_fuzz_mcmt_on_succ, &c);
            PETREL_FUZZ_CHECK(c.n <= n_trans);
        }
    }
    PETREL_FUZZ_CHECK(seen.n_init <= PETREL_FUZZ_MCMT_VALUES);
    const char *msg = NULL;
    if (pn_mcmt_space_defect(sp, &msg) != PN_MCMT_DEFECT_NONE)
        PETREL_FUZZ_CHECK(msg != NULL);
    free(state);
    pn_space_free(sp);
    petrel_fuzz_mcmt_search(s, b, &seen);
}

/* One input; returns 0 (libFuzzer's convention). */
static int petrel_fuzz_mcmt(const uint8_t *data, size_t size)
{
    pn_mcmt_sys *sys = NULL;
    pn_error err;
    memset(&err, 0, sizeof err);
    pn_status st = pn_mcmt_read_text((const char *)data, size, &sys, &err);
    if (st == PN_OK) {
        PETREL_FUZZ_CHECK(sys != NULL);
        PETREL_FUZZ_CHECK(err.code == PN_OK);
        petrel_fuzz_mcmt_check_sys(sys);
        uint64_t values = petrel_fuzz_mcmt_tiny(sys);
        if (values > 0)
            petrel_fuzz_mcmt_space(sys, values);
        pn_mcmt_free(sys);
    } else {
        PETREL_FUZZ_CHECK(sys == NULL);
        PETREL_FUZZ_CHECK(st == PN_ERR_INPUT || st == PN_ERR_UNSUPPORTED || st == PN_ERR_NOMEM);
        PETREL_FUZZ_CHECK(err.code == st);
        PETREL_FUZZ_CHECK(memchr(err.msg, '\0', sizeof err.msg) != NULL);
        PETREL_FUZZ_CHECK(err.msg[0] != '\0');
    }
    return 0;
}

#ifndef PETREL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return petrel_fuzz_mcmt(data, size);
}
#endif
