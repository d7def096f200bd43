#include "petrel/examine.h"

#include <string.h>

#include "petrel/ctl.h"
#include "petrel/graph.h"
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
    bool explored = graph || !pn_check_decided(c);
    pn_status st = PN_OK;
    if (explored) {
        pn_engine_opts o = *opts;
        o.visitor = graph ? NULL : pn_check_visitor(c);
        o.record_graph = o.keep_states = graph;
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
