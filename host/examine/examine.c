#include "net/layout.h"
#include "petrel/examine.h"

#include <stdlib.h>
#include <string.h>

#include "petrel/ctl.h"
#include "petrel/graph.h"
#include "petrel/linear.h"
#include "petrel/ltl.h"

static bool examine_is_ltl(pn_exam e)
{
    return e == PN_EXAM_LTL_CARDINALITY || e == PN_EXAM_LTL_FIREABILITY;
}

static bool examine_uses_graph(pn_exam e, const pn_check *c)
{
    return (e == PN_EXAM_CTL_CARDINALITY || e == PN_EXAM_CTL_FIREABILITY ||
            e == PN_EXAM_LIVENESS || examine_is_ltl(e)) &&
           pn_check_needs_graph(c);
}

/* One formula (or Liveness) on the graph; PN_OK with *v, or why not. */
static pn_status examine_one(pn_ctl_model *m, pn_exam exam, const pn_fml_set *set, uint32_t i,
                             bool *v, pn_error *err)
{
    const pn_fml_node *root =
        set != NULL && set->props[i].status == PN_OK ? set->props[i].root : NULL;
    if (set == NULL && exam == PN_EXAM_LIVENESS)
        return pn_ctl_liveness(m, v, err);
    if (root != NULL && examine_is_ltl(exam))
        return pn_ltl_check(m, root, v, NULL, err);
    if (root != NULL)
        return pn_ctl_check(m, root, v, err);
    return pn_fail(err, PN_ERR_UNSUPPORTED, "no formula to check");
}

static uint32_t examine_unknown(const pn_check *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < pn_check_count(c); i++)
        n += pn_check_answer(c, i)->verdict == PN_VERDICT_UNKNOWN;
    return n;
}

/* Answers what was not decided up front from the state graph. Under a time
 * limit, a first pass gives each open formula an equal share of the time
 * left, so that one hard formula cannot starve the others; a second pass
 * gives what remains to those that ran out. Anything a checker cannot
 * prove stays unknown (CANNOT_COMPUTE). */
static void examine_on_graph(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                             const pn_engine_opts *opts, pn_check *c, pn_engine_result *res,
                             double deadline, FILE *diag)
{
    if (res->status != PN_RUN_COMPLETE || res->graph == NULL)
        return;
    pn_ctl_model m = {.cn = cn, .graph = res->graph, .store = res->store,
                      .layout = res->layout, .memory_budget = opts->memory_budget,
                      .deadline = deadline, .cancel = opts->cancel};
    for (int pass = deadline > 0 ? 0 : 1; pass < 2; pass++) {
        uint32_t left = examine_unknown(c);
        for (uint32_t i = 0; i < pn_check_count(c) && left > 0; i++) {
            if (pn_check_answer(c, i)->verdict != PN_VERDICT_UNKNOWN)
                continue;
            if (pass == 0)
                m.deadline = pn_ctl_now() + (deadline - pn_ctl_now()) / left;
            left--;
            pn_error err = {0};
            bool v = false;
            pn_status st = examine_one(&m, exam, set, i, &v, &err);
            m.deadline = deadline;
            if (st == PN_OK)
                pn_check_set(c, i, v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
            else if (diag != NULL && (pass == 1 || deadline == 0))
                fprintf(diag, "petrel: %s: %s\n", pn_check_answer(c, i)->id, err.msg);
            if (pn_ctl_expired(&m))
                return;
        }
    }
}

/* ---- LTL on the fly --------------------------------------------------- */

typedef struct ltl_run {
    const pn_cnet *cn;
    const pn_fml_set *set;
    const pn_engine_opts *opts;
    pn_check *c;
    pn_ltl_lazy *z;
    uint8_t *graph_only;   /* per formula: the on-the-fly check cannot take it */
    FILE *diag;
} ltl_run;

/* One formula on the fly until deadline; a counterexample is kept when
 * traces were asked for (opts->keep_parents). */
static pn_status examine_ltl_one(ltl_run *r, uint32_t i, double deadline, pn_error *err)
{
    const pn_fml_node *root = r->set->props[i].status == PN_OK ? r->set->props[i].root : NULL;
    if (root == NULL)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "no formula to check");
    pn_ltl_lasso lasso;
    bool v = false;
    pn_status st = pn_ltl_check_otf(r->z, root, deadline, r->opts->cancel, &v, NULL,
                                    r->opts->keep_parents ? &lasso : NULL, err);
    if (st == PN_OK) {
        pn_check_set(r->c, i, v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
        if (!v && r->opts->keep_parents)
            pn_check_set_lasso(r->c, i, lasso.trans, lasso.prefix, lasso.cycle);
    }
    return st;
}

/* After running out of memory the states found so far are dropped: the
 * next formula may need fewer. */
static void examine_ltl_reset(ltl_run *r)
{
    pn_ltl_lazy_free(r->z);
    r->z = NULL;
    pn_error e = {0};
    pn_ltl_lazy_new(r->cn, r->opts->memory_budget, &r->z, &e);
}

/* Time shares: a quarter of an equal share of what is left in the first
 * pass (most formulas are decided in milliseconds: the hard ones should not
 * wait behind each other), an equal share in the second, everything left
 * in the third. A formula that runs out starts again from scratch in the
 * next pass, but the net states it found stay cached. */
static void examine_ltl_passes(ltl_run *r, double deadline)
{
    pn_ctl_model lim = {.deadline = deadline, .cancel = r->opts->cancel};
    for (int pass = deadline > 0 ? 0 : 2; pass < 3 && r->z != NULL; pass++) {
        uint32_t left = examine_unknown(r->c);
        for (uint32_t i = 0; i < pn_check_count(r->c) && left > 0 && r->z != NULL; i++) {
            if (pn_check_answer(r->c, i)->verdict != PN_VERDICT_UNKNOWN || r->graph_only[i])
                continue;
            double share = (deadline - pn_ctl_now()) / left / (pass == 0 ? 4 : 1);
            double d = pass < 2 ? pn_ctl_now() + share : deadline;
            left--;
            pn_error err = {0};
            pn_status st = examine_ltl_one(r, i, d, &err);
            if (st == PN_ERR_NOMEM)
                examine_ltl_reset(r);
            if (st == PN_ERR_UNSUPPORTED && strstr(err.msg, "time limit") == NULL)
                r->graph_only[i] = 1;
            if (st != PN_OK && r->diag != NULL && (pass == 2 || r->graph_only[i]))
                fprintf(r->diag, "petrel: %s: %s\n", pn_check_answer(r->c, i)->id, err.msg);
            if (pn_ctl_expired(&lim))
                return;
        }
    }
}

/* Formulas the on-the-fly check could not take go to the graph checker. */
static pn_status examine_ltl_fallback(ltl_run *r, pn_exam exam, pn_engine_result *res,
                                      double deadline, pn_error *err)
{
    bool any = false;
    for (uint32_t i = 0; i < pn_check_count(r->c); i++)
        any |= r->graph_only[i] && pn_check_answer(r->c, i)->verdict == PN_VERDICT_UNKNOWN;
    pn_ctl_model lim = {.deadline = deadline, .cancel = r->opts->cancel};
    if (!any || pn_ctl_expired(&lim))
        return PN_OK;
    pn_ltl_lazy_free(r->z);
    r->z = NULL;
    pn_engine_opts o = *r->opts;
    o.visitor = NULL;
    o.record_graph = o.keep_states = true;
    if (deadline > 0)
        o.timeout_s = deadline - pn_ctl_now();
    pn_engine_result_free(res);
    pn_status st = pn_explore(r->cn, &o, res, err);
    if (st == PN_OK)
        examine_on_graph(r->cn, exam, r->set, r->opts, r->c, res, deadline, r->diag);
    return st;
}

/* The statistics of the on-the-fly checks: one thread, the part of the
 * state space they generated. */
static void examine_ltl_report(const pn_ltl_lazy *z, pn_engine_result *res, double seconds)
{
    res->states = pn_ltl_lazy_states(z);
    res->edges = pn_ltl_lazy_edges(z);
    res->status = PN_RUN_STOPPED;
    res->threads = 1;
    res->seconds = seconds;
}

/* LTL: each formula on the fly (ltl_otf.c), sharing the net states found
 * so far; res reports those (a partial exploration: PN_RUN_STOPPED). */
static pn_status examine_ltl(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                             const pn_engine_opts *opts, pn_check *c, pn_engine_result *res,
                             double deadline, FILE *diag, pn_error *err)
{
    double t0 = pn_ctl_now();
    ltl_run r = {.cn = cn, .set = set, .opts = opts, .c = c, .diag = diag};
    pn_check_finish(c, NULL);
    r.graph_only = calloc(pn_check_count(c) + 1, 1);
    pn_status st = r.graph_only != NULL ? pn_ltl_lazy_new(cn, opts->memory_budget, &r.z, err)
                                        : pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (st == PN_ERR_NOMEM && r.graph_only != NULL) { /* every formula CANNOT_COMPUTE */
        if (diag != NULL)
            fprintf(diag, "petrel: %s\n", err->msg);
        pn_error_clear(err);
        st = PN_OK;
    }
    if (st == PN_OK && r.z != NULL)
        examine_ltl_passes(&r, deadline);
    if (r.z != NULL)
        examine_ltl_report(r.z, res, pn_ctl_now() - t0);
    if (st == PN_OK)
        st = examine_ltl_fallback(&r, exam, res, deadline, err);
    pn_ltl_lazy_free(r.z);
    free(r.graph_only);
    return st;
}

/* The linear layer (host/linear) first, with a third of the time: what it
 * proves the exploration no longer looks for. Failing to prove is silent. */
static void examine_linear(const pn_cnet *cn, const pn_engine_opts *opts, pn_check *c,
                           FILE *diag)
{
    pn_linear_opts lo = {.seconds = opts->timeout_s > 0 ? opts->timeout_s / 3 : 20.0,
                         .verbose = opts->verbose ? diag : NULL};
    pn_error e = {0};
    if (pn_linear_decide(cn, c, &lo, &e) != PN_OK && diag != NULL)
        fprintf(diag, "petrel: linear layer: %s\n", e.msg);
}

pn_status pn_examine(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                     const pn_engine_opts *opts, pn_check **check, pn_engine_result *res,
                     FILE *diag, pn_error *err)
{
    memset(res, 0, sizeof *res);
    res->threads = opts->threads ? opts->threads : 1;
    /* The time limit covers the exploration and the graph checkers. */
    double deadline = opts->timeout_s > 0 ? pn_ctl_now() + opts->timeout_s : 0;
    pn_check *c = NULL;
    if (pn_check_new(cn, exam, set, res->threads, &c, err) != PN_OK)
        return err->code;
    bool graph = examine_uses_graph(exam, c);
    if (graph && examine_is_ltl(exam)) {
        pn_status st = examine_ltl(cn, exam, set, opts, c, res, deadline, diag, err);
        if (st != PN_OK) {
            pn_engine_result_free(res);
            pn_check_free(c);
            return st;
        }
        *check = c;
        return PN_OK;
    }
    if (!graph && pn_linear_applies(exam))
        examine_linear(cn, opts, c, diag);
    bool explored = graph || !pn_check_decided(c);
    pn_status st = PN_OK;
    if (explored) {
        pn_engine_opts o = *opts;
        o.visitor = graph ? NULL : pn_check_visitor(c);
        o.record_graph = o.keep_states = graph;
        if (deadline > 0) /* what the linear layer left */
            o.timeout_s = deadline - pn_ctl_now() > 0.01 ? deadline - pn_ctl_now() : 0.01;
        st = pn_explore(cn, &o, res, err);
    }
    /* In graph mode the visitor saw nothing: only what was decided before
     * exploring stands, and the graph decides the rest. */
    pn_check_finish(c, explored && !graph && st == PN_OK ? res : NULL);
    if (graph && st == PN_OK)
        examine_on_graph(cn, exam, set, opts, c, res, deadline, diag);
    if (st != PN_OK) {
        pn_engine_result_free(res);
        pn_check_free(c);
        return st;
    }
    *check = c;
    return PN_OK;
}
