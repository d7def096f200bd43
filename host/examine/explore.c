/* What the explicit steps share (see sched.h): an exploration on the
 * examination's engine, the visitor that never stops a graph exploration,
 * and the CTL / LTL / Liveness checkers on a recorded graph. */
#include "examine/sched.h"

#include <stdlib.h>

#include "petrel/ctl.h"
#include "petrel/dist.h"
#include "petrel/gpu.h"
#include "petrel/graph.h"
#include "petrel/ltl.h"
#include "petrel/turns.h"

pn_status ex_explore(ex_job *j, pn_engine_opts *eo, pn_error *err)
{
    const pn_visitor *cv = pn_check_visitor(j->c);
    bool own = eo->visitor == NULL ||
               (eo->visitor->on_state == cv->on_state && eo->visitor->ctx == cv->ctx);
    pn_engine_kind kind = j->s->kind;
    if (kind != PN_ENGINE_CPU && own && !eo->record_graph && !eo->keep_states) {
        eo->check = eo->visitor != NULL ? j->c : NULL;
        pn_status st = pn_gpu_explore(j->cn, eo, j->res, err);
        eo->check = NULL;
        if (st == PN_OK || kind == PN_ENGINE_GPU)
            return st;
        if (j->s->verbose != NULL)
            fprintf(j->s->verbose, "petrel: GPU engine failed (%s); using the CPU engine\n",
                    err->msg);
        pn_error_clear(err);
    }
    return pn_explore(j->cn, eo, j->res, err);
}

/* In an MPI job, the examination's first exploration runs on every rank
 * (unless traces need the ids one process keeps); the probe, later
 * explorations and those of other jobs stay on this process. */
pn_status ex_explore_first(ex_job *j, pn_engine_opts *eo, pn_error *err)
{
    pn_dist *dist = j->s->opts->dist;
    if (j->dist_top && pn_dist_command(dist, !eo->keep_parents, j->cn, j->c))
        return pn_dist_explore(dist, j->cn, eo, j->c, j->res, err);
    return ex_explore(j, eo, err);
}

static bool see_all_state(void *ctx, uint32_t worker, uint64_t id, const uint64_t *m,
                          uint32_t n_enabled)
{
    const pn_visitor *v = ctx;
    v->on_state(v->ctx, worker, id, m, n_enabled);
    return false;
}

const pn_visitor *ex_see_all_of(ex_see_all *v, pn_check *c)
{
    v->inner = *pn_check_visitor(c);
    v->all = (pn_visitor){.on_state = see_all_state, .ctx = &v->inner};
    return &v->all;
}

/* ---- the checkers on the recorded graph ------------------------------------ */

/* One formula (or Liveness) on the graph; PN_OK with *v, or why not. */
static pn_status graph_one(pn_ctl_model *m, const ex_job *j, uint32_t i, bool *v, pn_error *err)
{
    const pn_fml_set *set = j->set;
    const pn_fml_node *root =
        set != NULL && set->props[i].status == PN_OK ? set->props[i].root : NULL;
    if (set == NULL && j->exam == PN_EXAM_LIVENESS)
        return pn_ctl_liveness(m, v, err);
    if (root != NULL && ex_exam_is_ltl(j->exam))
        return pn_ltl_check(m, root, v, NULL, err);
    if (root != NULL)
        return pn_ctl_check(m, root, v, err);
    return pn_fail(err, PN_ERR_UNSUPPORTED, "no formula to check");
}

typedef struct graph_run {
    ex_job *j;
    uint8_t *failed; /* per answer: a checker said why it cannot */
} graph_run;

static bool graph_open(void *ctx, uint32_t i)
{
    const graph_run *g = ctx;
    return !g->failed[i] && pn_check_answer(g->j->c, i)->verdict == PN_VERDICT_UNKNOWN;
}

/* Every open answer in its turn: a hard formula cannot starve the others.
 * Anything a checker cannot prove stays unknown (CANNOT_COMPUTE); why is
 * said once: at its last turn for the time, at once for anything else. */
static void graph_turns(ex_job *j, pn_ctl_model *m, const pn_budget *budget)
{
    uint32_t n = pn_check_count(j->c);
    graph_run g = {.j = j, .failed = calloc((size_t)n + 1, 1)};
    pn_turns *t = NULL;
    pn_error e = {0};
    if (g.failed == NULL ||
        pn_turns_new(budget, n, 1, PN_TURNS_GROWING, graph_open, &g, &t, &e) != PN_OK) {
        free(g.failed);
        return;
    }
    bool timed = budget != NULL && budget->deadline > 0;
    uint32_t i;
    int pass;
    pn_budget share;
    while (pn_turns_next(t, &i, &share, &pass)) {
        m->budget = &share;
        pn_budget_detail(&share, "formula %s on the graph", pn_check_answer(j->c, i)->id);
        bool v = false;
        pn_error_clear(&e);
        pn_status st = graph_one(m, j, i, &v, &e);
        m->budget = NULL; /* the share ends with this turn */
        if (st == PN_OK)
            pn_check_set(j->c, i, v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
        bool time = st == PN_ERR_TIMEOUT || st == PN_ERR_CANCELLED;
        g.failed[i] = st != PN_OK && !time;
        if (st != PN_OK && j->s->diag != NULL && j->report && (!time || (timed && pass == 2)) &&
            !ex_unbound(j->set, i))
            fprintf(j->s->diag, "petrel: %s: %s\n", pn_check_answer(j->c, i)->id, e.msg);
        pn_turns_end(t, i);
    }
    pn_turns_free(t);
    free(g.failed);
}

void ex_on_graph(ex_job *j, const pn_budget *budget)
{
    pn_engine_result *res = j->res;
    if (res->status != PN_RUN_COMPLETE || res->graph == NULL)
        return;
    /* The checkers get the memory that the graph and the states they work
     * on leave of the budget. */
    pn_budget b = pn_budget_share(budget, 1.0);
    pn_budget_charge(&b, pn_graph_bytes(res->graph) + res->states * res->state_words * 8);
    pn_ctl_model m = {.cn = j->cn, .graph = res->graph, .store = res->store,
                      .layout = res->layout};
    graph_turns(j, &m, &b);
}
