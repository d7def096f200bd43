/* The techniques that decide reachability-shaped answers (E F / A G
 * targets, bounds, the global properties a witness decides): the linear
 * layer, random walks, the probe, stubborn-set searches and the
 * exploration with the check's visitor. Each is an entry of the
 * scheduler's one table (sched.h); plans.c names them. */
#include "examine/tech.h"

#include <stdlib.h>

#include "petrel/linear.h"
#include "petrel/stubborn.h"
#include "petrel/walk.h"

static bool has_targets(ex_job *j)
{
    return ex_job_open_targets(j) > 0;
}

/* ---- linear: state equation, invariants, siphons (host/linear) ---------- */

static pn_status linear_run(ex_job *j, const pn_budget *b, pn_error *err)
{
    (void)err;
    const pn_examine_opts *o = j->s->opts;
    pn_linear_opts lo = {.budget = b, .verbose = j->s->verbose,
                         .trace = o->explore.keep_parents, .no_smt = o->no_smt};
    pn_error e = {0};
    if (pn_linear_decide(j->cn, j->c, &lo, &e) != PN_OK && j->s->diag != NULL)
        fprintf(j->s->diag, "petrel: linear layer: %s\n", e.msg);
    return PN_OK;
}

const ex_tech ex_tech_linear = {.name = "linear", .applies = has_targets, .run = linear_run};

/* ---- walk: random walks (host/engine/walk.c) --------------------------------- */

static pn_status walk_run(ex_job *j, const pn_budget *b, pn_error *err)
{
    (void)err;
    const pn_engine_opts *eo = &j->s->engine;
    pn_walk_opts wo = {.budget = b, .threads = eo->threads, .verbose = j->s->verbose,
                       .gpu = j->s->kind != PN_ENGINE_CPU, .trace = eo->keep_parents,
                       .ltl = ex_exam_is_ltl(j->exam) ? j->set : NULL};
    pn_error e = {0};
    if (pn_walk_decide(j->cn, j->c, &wo, NULL, &e) != PN_OK && j->s->diag != NULL)
        fprintf(j->s->diag, "petrel: random walks: %s\n", e.msg);
    return PN_OK;
}

/* Reachability targets, and in an LTL examination any open formula: a
 * walk's prefix may refute it (formula/prefix_goals.h). */
static bool walk_applies(ex_job *j)
{
    return has_targets(j) || (ex_exam_is_ltl(j->exam) && j->set != NULL &&
                              !j->s->engine.keep_parents && pn_check_open_count(j->c) > 0);
}

const ex_tech ex_tech_walk = {.name = "walk", .applies = walk_applies, .run = walk_run};

/* ---- probe: a small complete exploration, kept only if it completes ------ */

/* Most nets with a small state space are decided faster by enumerating it
 * than by the steps after this one: a walk cannot prove an invariant and
 * would spend its whole share on it (Dekker-PT-010 RC: 20 s of walks
 * against 0.1 s of BFS). So a first exploration runs under a small memory
 * cap and a small time share; it decides everything only if it completes
 * (or its visitor decided every target), else what it held is freed and the
 * witnesses its visitor met stay. */
#define PROBE_MEMORY (64ull << 20)

static bool probe_applies(ex_job *j)
{
    return has_targets(j) || (ex_job_uses_graph(j) && ex_job_open_others(j));
}

static pn_status probe_run(ex_job *j, const pn_budget *budget, pn_error *err)
{
    (void)err;
    bool graph = ex_job_uses_graph(j);
    bool visit = !pn_check_decided(j->c);
    pn_budget b = *budget;
    uint64_t held = pn_budget_memory(&b);
    b.memory = held != 0 && held < PROBE_MEMORY ? held : PROBE_MEMORY;
    pn_engine_opts eo = j->s->engine;
    eo.budget = &b;
    ex_see_all all;
    eo.visitor = !visit ? NULL : graph ? ex_see_all_of(&all, j->c) : pn_check_visitor(j->c);
    eo.record_graph = eo.keep_states = graph;
    pn_error e = {0}; /* a real failure shows again in the steps after */
    pn_status st = ex_explore(j, &eo, &e);
    /* STOPPED: the visitor decided every target (it never stops a graph). */
    pn_engine_result *res = j->res;
    if (st != PN_OK || (res->status != PN_RUN_COMPLETE && res->status != PN_RUN_STOPPED)) {
        /* The next exploration starts afresh; the run's report does not
         * show this one's numbers, nor its stop at the probe's small cap
         * as the run's end (a step after it may decide everything). */
        uint32_t threads = res->threads;
        pn_engine_result_free(res);
        *res = (pn_engine_result){.threads = threads};
        return PN_OK;
    }
    if (visit)
        pn_check_finish(j->c, res);
    j->finished = visit;
    if (graph)
        ex_on_graph(j, j->budget);
    return PN_OK;
}

const ex_tech ex_tech_probe = {.name = "probe", .applies = probe_applies, .run = probe_run};

/* ---- stubborn: E F / A G / deadlock over stubborn sets (host/space) ------ */

/* Open E F / A G targets, or bounds with a proven limit not yet reached
 * (a search looks for a marking at the limit; it finds no bound itself). */
static bool has_reach_targets(ex_job *j)
{
    bool any = false;
    pn_check_lock(j->c);
    for (uint32_t i = 0; i < pn_check_count(j->c) && !any; i++) {
        const pn_fml_node *phi;
        const uint32_t *places;
        uint32_t np, tech;
        uint64_t limit;
        pn_check_target k = pn_check_target_of(j->c, i, &phi, &places, &np);
        any = k == PN_TARGET_EF || k == PN_TARGET_AG ||
              (k == PN_TARGET_BOUND && pn_check_bound_known(j->c, i, &limit, &tech));
    }
    pn_check_unlock(j->c);
    return any;
}

static bool stubborn_applies(ex_job *j)
{
    const pn_examine_opts *o = j->s->opts;
    /* traces need the engine's ids */
    return !o->no_por && !o->explore.keep_parents && has_reach_targets(j);
}

/* The layer starts from the transitions' may-enable and may-disable
 * relations (host/space/pt_static.c): two passes per sign over, for every
 * transition t and place p it changes, the consumers of p. Measured 7 to 10
 * ns per such visit (Dekker-PT-200: 3.2e7 visits, 0.9 s; NeoElection-PT-6:
 * 1.0e7, 0.35 s; Railroad-PT-100: 4.2e6, 0.17 s). */
#define STUBBORN_S_PER_VISIT 8e-9

static double stubborn_setup_s(const ex_job *j, const char **why)
{
    const pn_cnet *cn = j->cn;
    const uint32_t T = cn->n_transitions;
    uint32_t *consumers = calloc((size_t)cn->n_places + 1, sizeof *consumers);
    if (consumers == NULL)
        return 0; /* the layer will say so itself */
    for (uint32_t k = 0; k < cn->pre_off[T]; k++)
        consumers[cn->pre[k].place]++;
    double visits = 0;
    for (uint32_t k = 0; k < cn->delta_off[T]; k++)
        visits += consumers[cn->delta[k].place];
    free(consumers);
    *why = "building the transitions' relations";
    return 4 * visits * STUBBORN_S_PER_VISIT;
}

static pn_status stubborn_run(ex_job *j, const pn_budget *b, pn_error *err)
{
    (void)err;
    pn_stubborn_decide(j->cn, j->c, b, j->res, j->s->verbose);
    return PN_OK;
}

const ex_tech ex_tech_stubborn = {.name = "stubborn", .applies = stubborn_applies,
                                   .setup_s = stubborn_setup_s, .run = stubborn_run};

/* ---- explore: the BFS with the check's visitor ------------------------------ */

/* Nothing to explore once the probe completed or its visitor decided all. */
static bool explore_applies(ex_job *j)
{
    return !j->finished;
}

/* A complete exploration decides every reachability answer. */
static pn_status explore_run(ex_job *j, const pn_budget *b, pn_error *err)
{
    if (pn_check_decided(j->c)) {
        pn_check_finish(j->c, NULL);
        j->finished = true;
        return PN_OK;
    }
    pn_engine_opts eo = j->s->engine;
    eo.budget = b;
    eo.visitor = pn_check_visitor(j->c);
    eo.record_graph = eo.keep_states = false;
    pn_status st = ex_explore_first(j, &eo, err);
    pn_check_finish(j->c, st == PN_OK ? j->res : NULL);
    j->finished = true;
    return st;
}

const ex_tech ex_tech_explore = {.name = "explore", .applies = explore_applies, .run = explore_run};
