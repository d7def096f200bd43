/* The recorded state graph (host/space/graph.c) with the CTL and Liveness
 * checkers of host/logic/ctl.c: one exploration records every reachable
 * state and its successors, the check's visitor decides the targets on the
 * way, and each open formula is checked on the graph in its turn. A
 * technique of the scheduler's table (sched.h). */
#include "examine/tech.h"

#include "petrel/ctl.h"

static bool graph_applies(ex_job *j)
{
    return pn_check_open_count(j->c) > 0;
}

/* What split left of the formulas is reachability: the BFS decides it. */
static pn_status graph_reach_only(ex_job *j, const pn_budget *b, pn_error *err)
{
    if (!pn_check_decided(j->c)) {
        pn_engine_opts eo = j->s->engine;
        eo.budget = b;
        eo.visitor = pn_check_visitor(j->c);
        pn_status st = ex_explore_first(j, &eo, err);
        pn_check_finish(j->c, st == PN_OK ? j->res : NULL);
        j->finished = true;
        return st;
    }
    if (!j->finished)
        pn_check_finish(j->c, NULL);
    return PN_OK;
}

/* The decision diagrams counted more markings than the graph could hold
 * or the engine could reach in the time left: the time goes to the steps
 * after this one. */
static bool graph_hopeless(const ex_job *j, const pn_budget *b)
{
    if (!ex_sym_hopeless(&j->forest, b, j->s->engine.threads))
        return false;
    if (j->s->verbose != NULL)
        fprintf(j->s->verbose, "petrel: graph: %.4g reachable markings: not recorded\n",
                pn_ctl_mdd_states(j->forest.s));
    return true;
}

static pn_status graph_run(ex_job *j, const pn_budget *b, pn_error *err)
{
    if (!ex_job_uses_graph(j))
        return graph_reach_only(j, b, err);
    if (graph_hopeless(j, b))
        return PN_OK;
    ex_sym_forest_free(&j->forest); /* its memory is the graph's now */
    bool visit = !pn_check_decided(j->c);
    pn_engine_opts eo = j->s->engine;
    ex_see_all all;
    eo.budget = b;
    eo.visitor = visit ? ex_see_all_of(&all, j->c) : NULL;
    eo.record_graph = eo.keep_states = true;
    pn_status st = pn_explore(j->cn, &eo, j->res, err);
    /* Without the visitor, completeness proves nothing about a target. */
    pn_check_finish(j->c, st == PN_OK && visit ? j->res : NULL);
    if (st == PN_OK)
        ex_on_graph(j, b);
    j->graph_tried = true;
    if (j->res->status != PN_RUN_COMPLETE) /* a part of a graph answers nothing */
        pn_engine_result_free(j->res);
    return st;
}

const ex_tech ex_tech_graph = {.name = "graph", .applies = graph_applies, .run = graph_run};
