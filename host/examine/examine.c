/* The examination driver (see examine.h): engine choice, StateSpace, the
 * on-the-fly checks, the state graph with the CTL / LTL / Liveness
 * checkers under time shares of one budget, and the coloured global
 * properties rewritten into formulas (global_col.c). */
#include "net/layout.h"
#include "petrel/examine.h"

#include <stdlib.h>
#include <string.h>

#include "examine/global_col.h"
#include "petrel/ctl.h"
#include "petrel/gpu.h"
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
static void examine_graph_passes(pn_ctl_model *m, pn_exam exam, const pn_fml_set *set,
                                 const pn_budget *budget, pn_check *c, FILE *diag)
{
    bool timed = budget != NULL && budget->deadline > 0;
    for (int pass = timed ? 0 : 1; pass < 2; pass++) {
        uint32_t left = examine_unknown(c);
        for (uint32_t i = 0; i < pn_check_count(c) && left > 0; i++) {
            if (pn_check_answer(c, i)->verdict != PN_VERDICT_UNKNOWN)
                continue;
            m->budget = pn_budget_share(budget, pass == 0 ? 1.0 / left : 1.0);
            left--;
            pn_error err = {0};
            bool v = false;
            pn_status st = examine_one(m, exam, set, i, &v, &err);
            if (st == PN_OK)
                pn_check_set(c, i, v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
            else if (diag != NULL && (pass == 1 || !timed))
                fprintf(diag, "petrel: %s: %s\n", pn_check_answer(c, i)->id, err.msg);
            if (pn_budget_expired(budget))
                return;
        }
    }
}

/* The checkers get the memory that the graph and the states they work on
 * leave of the budget. */
static void examine_on_graph(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                             pn_budget *budget, pn_check *c, pn_engine_result *res, FILE *diag)
{
    if (res->status != PN_RUN_COMPLETE || res->graph == NULL)
        return;
    uint64_t held = pn_graph_bytes(res->graph) + res->states * res->state_words * 8;
    pn_budget_charge(budget, held);
    pn_ctl_model m = {.cn = cn, .graph = res->graph, .store = res->store,
                      .layout = res->layout};
    examine_graph_passes(&m, exam, set, budget, c, diag);
    pn_budget_release(budget, held);
}

/* ---- LTL on the fly --------------------------------------------------- */

typedef struct ltl_run {
    const pn_cnet *cn;
    const pn_fml_set *set;
    const pn_engine_opts *opts;
    pn_budget *budget;
    pn_check *c;
    pn_lazy *z;
    uint8_t *graph_only;   /* per formula: the LTL check cannot take it (no retry) */
    FILE *diag;
} ltl_run;

/* One formula on the fly within share; a counterexample is kept when
 * traces were asked for (opts->keep_parents). */
static pn_status examine_ltl_one(ltl_run *r, uint32_t i, const pn_budget *share, pn_error *err)
{
    const pn_fml_node *root = r->set->props[i].status == PN_OK ? r->set->props[i].root : NULL;
    if (root == NULL)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "no formula to check");
    pn_ltl_lasso lasso;
    bool v = false;
    pn_status st = pn_ltl_check_otf(r->z, root, share, &v, NULL,
                                    r->opts->keep_parents ? &lasso : NULL, err);
    if (st == PN_OK) {
        pn_check_set(r->c, i, v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
        if (!v && r->opts->keep_parents)
            pn_check_set_lasso(r->c, i, lasso.trans, lasso.prefix, lasso.cycle);
    }
    return st;
}

static bool examine_out_of_memory(pn_status st)
{
    return st == PN_ERR_NOMEM || st == PN_ERR_OUT_OF_MEMORY;
}

/* After running out of memory the states found so far are dropped: the
 * next formula may need fewer. */
static void examine_ltl_reset(ltl_run *r)
{
    pn_lazy_free(r->z);
    r->z = NULL;
    pn_error e = {0};
    pn_lazy_new(r->cn, pn_budget_memory(r->budget), &r->z, &e);
}

/* Time shares: a quarter of an equal share of what is left in the first
 * pass (most formulas are decided in milliseconds: the hard ones should not
 * wait behind each other), an equal share in the second, everything left
 * in the third. A formula that runs out starts again from scratch in the
 * next pass, but the net states it found stay cached. A formula the
 * on-the-fly check cannot take for another reason (its shape, memory) goes
 * to the graph checker. */
static void examine_ltl_passes(ltl_run *r)
{
    bool timed = r->budget != NULL && r->budget->deadline > 0;
    for (int pass = timed ? 0 : 2; pass < 3 && r->z != NULL; pass++) {
        uint32_t left = examine_unknown(r->c);
        for (uint32_t i = 0; i < pn_check_count(r->c) && left > 0 && r->z != NULL; i++) {
            if (pn_check_answer(r->c, i)->verdict != PN_VERDICT_UNKNOWN || r->graph_only[i])
                continue;
            double fraction = pass == 2 ? 1.0 : 1.0 / left / (pass == 0 ? 4 : 1);
            pn_budget share = pn_budget_share(r->budget, fraction);
            left--;
            pn_error err = {0};
            pn_status st = examine_ltl_one(r, i, &share, &err);
            if (examine_out_of_memory(st))
                examine_ltl_reset(r);
            if (st == PN_ERR_UNSUPPORTED)
                r->graph_only[i] = 1;
            if (st != PN_OK && r->diag != NULL && (pass == 2 || r->graph_only[i]))
                fprintf(r->diag, "petrel: %s: %s\n", pn_check_answer(r->c, i)->id, err.msg);
            if (pn_budget_expired(r->budget))
                return;
        }
    }
}

/* The statistics of the on-the-fly checks: one thread, the part of the
 * state space they generated. */
static void examine_ltl_report(const pn_lazy *z, pn_engine_result *res, double seconds)
{
    res->states = pn_lazy_states(z);
    res->edges = pn_lazy_edges(z);
    res->status = PN_RUN_STOPPED;
    res->threads = 1;
    res->seconds = seconds;
}

/* LTL: each formula on the fly (ltl_otf.c), sharing the net states found
 * so far; res reports those (a partial exploration: PN_RUN_STOPPED). */
static pn_status examine_ltl(const pn_cnet *cn, const pn_fml_set *set,
                             const pn_engine_opts *opts, pn_budget *budget, pn_check *c,
                             pn_engine_result *res, FILE *diag, pn_error *err)
{
    double t0 = pn_clock_now();
    ltl_run r = {.cn = cn, .set = set, .opts = opts, .budget = budget, .c = c, .diag = diag};
    pn_check_finish(c, NULL);
    r.graph_only = calloc(pn_check_count(c) + 1, 1);
    pn_status st = r.graph_only != NULL ? pn_lazy_new(cn, pn_budget_memory(budget), &r.z, err)
                                        : pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (examine_out_of_memory(st) && r.graph_only != NULL) { /* every formula CANNOT_COMPUTE */
        if (diag != NULL)
            fprintf(diag, "petrel: %s\n", err->msg);
        pn_error_clear(err);
        st = PN_OK;
    }
    if (st == PN_OK && r.z != NULL)
        examine_ltl_passes(&r);
    if (r.z != NULL)
        examine_ltl_report(r.z, res, pn_clock_now() - t0);
    pn_lazy_free(r.z);
    free(r.graph_only);
    return st;
}

/* ---- CTL on the fly ----------------------------------------------------- */

/* CTL: each formula first on the fly (ctl_otf.c) within half of the time,
 * sharing the net states found so far, in the passes of
 * examine_ltl_passes (a quarter share, an equal share, the rest); what is
 * left goes to the recorded graph when it fits (the states found on the
 * fly are dropped first). */
static void examine_ctl_otf(const pn_cnet *cn, const pn_fml_set *set, pn_budget *budget,
                            pn_check *c, pn_engine_result *res)
{
    double t0 = pn_clock_now();
    pn_budget half = pn_budget_share(budget, 0.5);
    bool timed = budget != NULL && budget->deadline > 0;
    pn_lazy *z = NULL;
    pn_error err = {0};
    if (pn_lazy_new(cn, pn_budget_memory(budget), &z, &err) != PN_OK)
        return;
    for (int pass = timed ? 0 : 2; pass < 3 && z != NULL && !pn_budget_expired(&half); pass++) {
        uint32_t left = examine_unknown(c);
        for (uint32_t i = 0; i < pn_check_count(c) && left > 0 && z != NULL &&
                             !pn_budget_expired(&half); i++) {
            const pn_fml_node *root = set->props[i].status == PN_OK ? set->props[i].root : NULL;
            if (pn_check_answer(c, i)->verdict != PN_VERDICT_UNKNOWN || root == NULL)
                continue;
            double fraction = pass == 2 ? 1.0 : 1.0 / left / (pass == 0 ? 4 : 1);
            pn_budget share = pn_budget_share(&half, fraction);
            left--;
            bool v = false;
            pn_error e = {0};
            pn_status st = pn_ctl_check_otf(z, root, &share, &v, &e);
            if (st == PN_OK)
                pn_check_set(c, i, v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
            else if (examine_out_of_memory(st)) {
                pn_lazy_free(z);
                z = NULL;
                pn_lazy_new(cn, pn_budget_memory(budget), &z, &e);
            }
        }
    }
    if (z != NULL)
        examine_ltl_report(z, res, pn_clock_now() - t0);
    pn_lazy_free(z);
}

/* CTL on the fly, then the graph for what is left. */
static pn_status examine_ctl(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                             const pn_engine_opts *o, pn_budget *budget, pn_check *c,
                             pn_engine_result *res, FILE *diag, pn_error *err)
{
    pn_check_finish(c, NULL);
    examine_ctl_otf(cn, set, budget, c, res);
    if (examine_unknown(c) == 0 || pn_budget_expired(budget))
        return PN_OK;
    pn_engine_opts eo = *o;
    eo.visitor = NULL;
    eo.record_graph = eo.keep_states = true;
    pn_status st = pn_explore(cn, &eo, res, err);
    if (st == PN_OK)
        examine_on_graph(cn, exam, set, budget, c, res, diag);
    return st;
}

/* ---- one formula examination or global property ------------------------ */

/* The linear layer (host/linear) first, with a third of the time left: what
 * it proves the exploration no longer looks for. Failing to prove is silent. */
static void examine_linear(const pn_cnet *cn, const pn_engine_opts *o, pn_budget *budget,
                           pn_check *c, FILE *diag)
{
    pn_budget share = pn_budget_share(budget, 1.0 / 3);
    pn_linear_opts lo = {.budget = &share, .verbose = o->verbose ? diag : NULL};
    pn_error e = {0};
    if (pn_linear_decide(cn, c, &lo, &e) != PN_OK && diag != NULL)
        fprintf(diag, "petrel: linear layer: %s\n", e.msg);
}

/* The answers of exam on set (NULL: a global property) into *check, with
 * res the exploration's. o carries the budget. */
static pn_status examine_formulas(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                                  const pn_engine_opts *o, pn_budget *budget, FILE *diag,
                                  pn_check **check, pn_engine_result *res, pn_error *err)
{
    pn_check *c = NULL;
    if (pn_check_new(cn, exam, set, res->threads, &c, err) != PN_OK)
        return err->code;
    bool graph = examine_uses_graph(exam, c);
    pn_status st = PN_OK;
    if (graph && examine_is_ltl(exam)) {
        st = examine_ltl(cn, set, o, budget, c, res, diag, err);
    } else if (graph && exam != PN_EXAM_LIVENESS && set != NULL) {
        st = examine_ctl(cn, exam, set, o, budget, c, res, diag, err);
    } else {
        if (!graph && pn_linear_applies(exam))
            examine_linear(cn, o, budget, c, diag);
        bool explored = graph || !pn_check_decided(c);
        if (explored) {
            pn_engine_opts eo = *o;
            eo.visitor = graph ? NULL : pn_check_visitor(c);
            eo.record_graph = eo.keep_states = graph;
            st = pn_explore(cn, &eo, res, err);
        }
        /* In graph mode the visitor saw nothing: only what was decided
         * before exploring stands, and the graph decides the rest. */
        pn_check_finish(c, explored && !graph && st == PN_OK ? res : NULL);
        if (graph && st == PN_OK)
            examine_on_graph(cn, exam, set, budget, c, res, diag);
    }
    if (st != PN_OK) {
        pn_check_free(c);
        return st;
    }
    *check = c;
    return PN_OK;
}

/* OneSafe, StableMarking, QuasiLiveness and Liveness of an unfolded net:
 * formulas over the coloured groups (global_col.c), folded into the one
 * answer named after the examination. */
static pn_status examine_coloured_global(const pn_cnet *cn, pn_exam exam,
                                         const pn_engine_opts *o, pn_budget *budget,
                                         FILE *diag, pn_check **check, pn_engine_result *res,
                                         pn_error *err)
{
    pn_fml_set *fs = NULL;
    pn_check *inner = NULL;
    pn_status st = pn_col_build(cn->net, exam, &fs, err);
    if (st == PN_OK)
        st = examine_formulas(cn, pn_col_as(exam), fs, o, budget, diag, &inner, res, err);
    if (st == PN_OK)
        st = pn_check_new(cn, exam, NULL, 1, check, err);
    if (st == PN_OK)
        pn_check_set(*check, 0, pn_col_fold(inner, exam));
    pn_check_free(inner);
    pn_fml_set_free(fs);
    return st;
}

/* ---- the engine and StateSpace ------------------------------------------ */

/* The GPU explores StateSpace; formula examinations need the host-side
 * visitor or the state graph, which only the CPU engine provides. */
pn_status pn_examine_engine(pn_exam exam, pn_engine_kind *kind, FILE *diag, pn_error *err)
{
    if (*kind == PN_ENGINE_CPU || *kind == PN_ENGINE_GPU_OR_CPU)
        return PN_OK;
    char why[256];
    bool gpu = pn_gpu_available(why, sizeof why);
    if (*kind == PN_ENGINE_GPU && !gpu)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "--engine gpu: no usable GPU: %s", why);
    if (*kind == PN_ENGINE_GPU && exam != PN_EXAM_STATE_SPACE)
        return pn_fail(err, PN_ERR_INPUT,
                       "--engine gpu: the GPU engine answers StateSpace only; "
                       "use --engine cpu or auto for %s", pn_exam_name(exam));
    if (*kind == PN_ENGINE_GPU)
        return PN_OK;
    *kind = gpu && exam == PN_EXAM_STATE_SPACE ? PN_ENGINE_GPU_OR_CPU : PN_ENGINE_CPU;
    if (!gpu && exam == PN_EXAM_STATE_SPACE && diag != NULL)
        fprintf(diag, "petrel: no usable GPU (%s): using the CPU engine\n", why);
    return PN_OK;
}

/* StateSpace on the chosen engine; GPU_OR_CPU falls back to the CPU
 * engine when the GPU fails (the answers are the same). */
static pn_status examine_state_space(const pn_cnet *cn, pn_engine_kind kind,
                                     const pn_engine_opts *o, FILE *diag,
                                     pn_engine_result *res, pn_error *err)
{
    if (kind == PN_ENGINE_GPU || kind == PN_ENGINE_GPU_OR_CPU) {
        pn_status st = pn_gpu_explore(cn, o, res, err);
        if (st == PN_OK || kind == PN_ENGINE_GPU)
            return st;
        if (diag != NULL)
            fprintf(diag, "petrel: GPU engine failed (%s); using the CPU engine\n", err->msg);
        pn_error_clear(err);
    }
    return pn_explore(cn, o, res, err);
}

/* ---- the driver ---------------------------------------------------------- */

void pn_report_free(pn_report *r)
{
    if (r == NULL)
        return;
    pn_check_free(r->check);
    pn_engine_result_free(&r->result);
    free(r);
}

static pn_status examine_run(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                             const pn_examine_opts *opts, pn_budget *budget, pn_report *r,
                             pn_error *err)
{
    pn_engine_kind kind = opts->engine;
    pn_status st = pn_examine_engine(exam, &kind, opts->diag, err);
    if (st != PN_OK)
        return st;
    pn_engine_opts o = opts->explore;
    o.budget = budget;
    o.visitor = NULL;
    o.record_graph = o.keep_states = false;
    if (exam == PN_EXAM_STATE_SPACE)
        return examine_state_space(cn, kind, &o, opts->diag, &r->result, err);
    r->result.threads = o.threads ? o.threads : 1;
    if (pn_col_rewritten(cn, exam))
        return examine_coloured_global(cn, exam, &o, budget, opts->diag, &r->check,
                                       &r->result, err);
    return examine_formulas(cn, exam, set, &o, budget, opts->diag, &r->check, &r->result, err);
}

pn_status pn_examine(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                     const pn_examine_opts *opts, pn_budget *budget, pn_report **out,
                     pn_error *err)
{
    *out = NULL;
    pn_report *r = calloc(1, sizeof *r);
    if (r == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    r->exam = exam;
    pn_status st = examine_run(cn, exam, set, opts, budget, r, err);
    if (st != PN_OK) {
        pn_report_free(r);
        return st;
    }
    *out = r;
    return PN_OK;
}
