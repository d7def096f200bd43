/* The safety check of one bounded instance of an MCMT system: a
 * breadth-first search over the instance's pn_space (host/space/mcmt.c)
 * through the on-demand space with ids (petrel/lazy.h, the engines' exact
 * hash set), from every initial state at once. States get their ids in
 * the order they are met, so expanding ids in order is the breadth-first
 * order, and the first unsafe state met is at the least depth: its
 * parents give a shortest trace. A state's successor list is given back
 * once it is expanded (pn_lazy_release): the search keeps the states, a
 * parent and a transition per state. */
#include <stdlib.h>
#include <string.h>

#include "petrel/lazy.h"
#include "petrel/mcmt.h"

#define MCC_POLL 1024 /* states between two looks at the budget */
#define MCC_DETAIL (1u << 20) /* states between two progress details (phase.h) */

typedef struct mcc {
    pn_space *sp;
    pn_lazy *z;
    uint32_t *parent, *via; /* per state: its parent and the transition from it */
    uint64_t cap;
} mcc;

static pn_status mcc_room(mcc *c, uint64_t n, pn_error *err)
{
    if (n <= c->cap)
        return PN_OK;
    uint64_t cap = c->cap == 0 ? 4096 : c->cap;
    while (cap < n)
        cap *= 2;
    uint32_t *p = realloc(c->parent, cap * sizeof *p);
    if (p != NULL)
        c->parent = p;
    uint32_t *v = realloc(c->via, cap * sizeof *v);
    if (v != NULL)
        c->via = v;
    if (p == NULL || v == NULL)
        return pn_fail(err, PN_ERR_OUT_OF_MEMORY, "out of memory for the search's parents");
    c->cap = cap;
    pn_lazy_set_other(c->z, cap * (sizeof *p + sizeof *v)); /* under the same budget */
    if (!pn_lazy_fits(c->z, 0))
        return pn_fail(err, PN_ERR_OUT_OF_MEMORY, "the search's parents exceed the memory budget");
    return PN_OK;
}

static pn_status mcc_roots(mcc *c, pn_error *err)
{
    uint32_t words = pn_space_words(c->sp);
    uint64_t *s = malloc((size_t)words * sizeof *s);
    if (s == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the initial states");
    uint64_t cursor = 1; /* the first is state 0 already */
    pn_status st = mcc_room(c, 1, err);
    if (st == PN_OK)
        c->parent[0] = c->via[0] = UINT32_MAX;
    while (st == PN_OK && pn_mcmt_initial_next(c->sp, &cursor, s)) {
        uint32_t id;
        bool is_new;
        st = pn_lazy_insert(c->z, s, &id, &is_new, err);
        if (st == PN_OK && is_new && (st = mcc_room(c, (uint64_t)id + 1, err)) == PN_OK)
            c->parent[id] = c->via[id] = UINT32_MAX;
    }
    free(s);
    return st;
}

static void mcc_vals(pn_space *sp, const pn_mcmt_sys *sys, uint32_t N, const uint64_t *s,
                     int64_t *out)
{
    uint32_t k = 0;
    for (uint32_t a = 0; a < sys->n_arrays; a++)
        for (uint32_t p = 0; p < (sys->arrays[a].global ? 1 : N); p++)
            out[k++] = pn_mcmt_cell(sp, s, a, p);
    for (uint32_t q = 0; q < sys->n_params; q++)
        out[k++] = pn_mcmt_param_value(sp, s, q);
    for (uint32_t p = 0; p < N; p++)
        out[k++] = pn_mcmt_crashed(sp, s, p);
}

/* The trace to state u, from its root. */
static pn_status mcc_trace(mcc *c, const pn_mcmt_sys *sys, pn_mcmt_bound b, uint32_t u,
                           pn_mcmt_result *res, pn_error *err)
{
    uint32_t len = 0;
    for (uint32_t v = u; c->parent[v] != UINT32_MAX; v = c->parent[v])
        len++;
    uint32_t n_vals = sys->n_params + b.procs;
    for (uint32_t a = 0; a < sys->n_arrays; a++)
        n_vals += sys->arrays[a].global ? 1 : b.procs;
    res->trace = calloc((size_t)len + 1, sizeof *res->trace);
    res->trace_vals = malloc(((size_t)len + 1) * n_vals * sizeof *res->trace_vals);
    if (res->trace == NULL || res->trace_vals == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the trace");
    res->trace_len = len;
    res->n_vals = n_vals;
    uint32_t v = u;
    for (uint32_t k = len + 1; k-- > 0; v = c->parent[v]) {
        mcc_vals(c->sp, sys, b.procs, pn_lazy_state(c->z, v), res->trace_vals + (size_t)k * n_vals);
        if (k > 0) {
            pn_mcmt_step *st = &res->trace[k - 1];
            pn_mcmt_space_binding(c->sp, c->via[v], &st->trans, &st->x, &st->y);
        }
    }
    return PN_OK;
}

static pn_status mcc_search(mcc *c, const pn_mcmt_sys *sys, pn_mcmt_bound b,
                            const pn_budget *budget, pn_mcmt_result *res, pn_error *err)
{
    pn_status st = PN_OK;
    for (uint64_t s = 0; s < pn_lazy_states(c->z); s++) {
        uint32_t cube = pn_mcmt_unsafe(c->sp, pn_lazy_state(c->z, (uint32_t)s));
        if (cube != 0) {
            res->answer = PN_MCMT_UNSAFE;
            res->unsafe_cube = cube;
            res->states = pn_lazy_states(c->z);
            return mcc_trace(c, sys, b, (uint32_t)s, res, err);
        }
        if (s % MCC_POLL == 0 && (st = pn_budget_status(budget)) != PN_OK)
            return st;
        if (s % MCC_DETAIL == 0 && s > 0)
            pn_budget_detail(budget, "%llu states met, %llu expanded",
                             (unsigned long long)pn_lazy_states(c->z), (unsigned long long)s);
        uint64_t known = pn_lazy_states(c->z);
        const uint32_t *succ;
        uint32_t n;
        if ((st = pn_lazy_succ(c->z, (uint32_t)s, &succ, &n, err)) != PN_OK)
            return st;
        const uint32_t *via = pn_lazy_succ_trans(c->z, (uint32_t)s);
        if ((st = mcc_room(c, pn_lazy_states(c->z), err)) != PN_OK)
            return st;
        for (uint32_t k = 0; k < n; k++)
            if (succ[k] >= known) { /* new: ids come in order */
                c->parent[succ[k]] = (uint32_t)s;
                c->via[succ[k]] = via[k];
                known = (uint64_t)succ[k] + 1;
            }
        res->transitions += n;
        pn_lazy_release(c->z, (uint32_t)s);
    }
    res->states = pn_lazy_states(c->z);
    const char *msg = NULL;
    if (pn_mcmt_space_defect(c->sp, &msg) != PN_MCMT_DEFECT_NONE) {
        res->answer = PN_MCMT_UNKNOWN;
        snprintf(res->why, sizeof res->why, "%s", msg);
    } else
        res->answer = PN_MCMT_SAFE;
    return PN_OK;
}

pn_status pn_mcmt_check(const pn_mcmt_sys *sys, pn_mcmt_bound b, const pn_budget *budget,
                        pn_mcmt_result *res, pn_error *err)
{
    memset(res, 0, sizeof *res);
    pn_budget_phase(budget, "mcmt: %u processes: breadth-first search", b.procs);
    mcc c = {0};
    pn_status st = pn_mcmt_space_new(sys, b, &c.sp, err);
    if (st != PN_OK)
        return st;
    uint64_t cursor = 0;
    uint64_t *first = malloc((size_t)pn_space_words(c.sp) * sizeof *first);
    if (first == NULL) {
        pn_space_free(c.sp);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the instance");
    }
    bool any = pn_mcmt_initial_next(c.sp, &cursor, first);
    free(first);
    if (!any) { /* no initial state: nothing is reachable */
        pn_space_free(c.sp);
        res->answer = PN_MCMT_SAFE;
        return PN_OK;
    }
    st = pn_lazy_new_space(c.sp, pn_budget_memory(budget), &c.z, err);
    if (st == PN_OK)
        st = pn_lazy_keep_trans(c.z, err);
    if (st == PN_OK)
        st = mcc_roots(&c, err);
    if (st == PN_OK)
        st = mcc_search(&c, sys, b, budget, res, err);
    if (st == PN_ERR_TIMEOUT || st == PN_ERR_CANCELLED || st == PN_ERR_OUT_OF_MEMORY ||
        st == PN_ERR_NOMEM) {
        res->answer = PN_MCMT_UNKNOWN;
        res->states = c.z != NULL ? pn_lazy_states(c.z) : 0;
        snprintf(res->why, sizeof res->why, "%s",
                 st == PN_ERR_TIMEOUT      ? "out of time"
                 : st == PN_ERR_CANCELLED ? "cancelled"
                                          : "out of memory");
        pn_error_clear(err);
        st = PN_OK;
    }
    if (c.z != NULL)
        pn_lazy_free(c.z);
    else
        pn_space_free(c.sp);
    free(c.parent);
    free(c.via);
    return st;
}

void pn_mcmt_result_clear(pn_mcmt_result *res)
{
    free(res->trace);
    free(res->trace_vals);
    res->trace = NULL;
    res->trace_vals = NULL;
    res->trace_len = 0;
}

/* Prints the name of value k of a valuation (mcc_vals' order). */
static void mcc_val_name(FILE *f, const pn_mcmt_sys *sys, pn_mcmt_bound b, uint32_t k)
{
    for (uint32_t a = 0; a < sys->n_arrays; a++) {
        uint32_t n = sys->arrays[a].global ? 1 : b.procs;
        if (k < n) {
            if (sys->arrays[a].global)
                fprintf(f, "%s", sys->arrays[a].name);
            else
                fprintf(f, "%s[%lld]", sys->arrays[a].name, (long long)(b.idx_from + k));
            return;
        }
        k -= n;
    }
    if (k < sys->n_params) {
        fprintf(f, "%s", sys->params[k].name);
        return;
    }
    fprintf(f, "crashed[%lld]", (long long)(b.idx_from + k - sys->n_params));
}

void pn_mcmt_print_trace(FILE *f, const pn_mcmt_sys *sys, pn_mcmt_bound b,
                         const pn_mcmt_result *res)
{
    uint32_t n = res->n_vals;
    uint32_t flags = n - b.procs; /* the crash flags: printed where set */
    fprintf(f, "initial:");
    for (uint32_t k = 0; k < n; k++) {
        if (k >= flags && res->trace_vals[k] == 0)
            continue;
        fputc(' ', f);
        mcc_val_name(f, sys, b, k);
        fprintf(f, "=%lld", (long long)res->trace_vals[k]);
    }
    fputc('\n', f);
    for (uint32_t i = 0; i < res->trace_len; i++) {
        const pn_mcmt_step *st = &res->trace[i];
        fprintf(f, "%u: %s", i + 1, sys->trans[st->trans].name);
        if (st->x >= 0)
            fprintf(f, " x=%lld", (long long)st->x);
        if (st->y >= 0)
            fprintf(f, " y=%lld", (long long)st->y);
        fputs(" ->", f);
        const int64_t *before = res->trace_vals + (size_t)i * n, *after = before + n;
        for (uint32_t k = 0; k < n; k++)
            if (before[k] != after[k]) {
                fputc(' ', f);
                mcc_val_name(f, sys, b, k);
                fprintf(f, "=%lld", (long long)after[k]);
            }
        fputc('\n', f);
    }
}
