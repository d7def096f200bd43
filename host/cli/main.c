/* petrel: the command-line tool. Loads a model, runs one MCC examination and
 * prints its answers in the MCC format; `petrel properties` computes the
 * generic properties instead (properties.h) and `petrel batch` runs many
 * models and examinations, each as a child petrel (batch.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "options.h"
#include "mcmt_cli.h"
#include "rers_cli.h"
#include "path.h"
#include "properties.h"
#include "skeleton_cli.h"
#include "stream.h"
#include "ticker.h"
#include "verdicts.h"
#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/dist.h"
#include "petrel/engine.h"
#include "petrel/examine.h"
#include "petrel/formula.h"
#include "petrel/mcc.h"
#include "petrel/pnml.h"
#include "petrel/rers.h"
#include "petrel/sysinfo.h"
#include "petrel/topology.h"

typedef struct cli_run {
    cli_options o;
    char *dir;          /* instance folder (formula files live there) */
    char *pnml;
    pn_net *net;
    pn_cnet *cn;
    pn_topology *topo;
    pn_budget budget;     /* made before the model is read */
    pn_examine_opts xo;
    cli_stream *out;      /* every answer goes through it (stream.h) */
    pn_dist *dist;        /* under mpirun (dist.h); NULL: one process */
    FILE *sink;           /* ranks other than 0 print here (/dev/null) */
    cli_ticker *ticker;   /* the progress lines of every phase (ticker.h) */
    cli_skeleton skel;    /* what a coloured net's skeleton answered first */
    double t0;            /* when the run started (pn_clock_now) */
} cli_run;

static int cli_resolve_model(cli_run *r)
{
    struct stat st;
    if (stat(r->o.model, &st) != 0) {
        fprintf(stderr, "petrel: %s: no such file or folder\n", r->o.model);
        return 2;
    }
    if (S_ISDIR(st.st_mode)) {
        r->dir = strdup(r->o.model);
        r->pnml = cli_path_join(r->o.model, "model.pnml");
    } else {
        r->pnml = strdup(r->o.model);
        const char *slash = strrchr(r->o.model, '/');
        r->dir = slash ? strndup(r->o.model, (size_t)(slash - r->o.model)) : strdup(".");
    }
    if (r->dir == NULL || r->pnml == NULL) {
        fputs("petrel: out of memory\n", stderr);
        return 1;
    }
    return 0;
}

static int cli_load(cli_run *r)
{
    pn_error err = {0};
    pn_budget_phase(&r->budget, "reading %s", r->pnml);
    /* A coloured net's colours that nothing tells apart are merged where the
     * examination speaks of coloured ids only; a trace, a written net or the
     * generic properties name unfolded nodes, so they get the plain one. */
    pn_pnml_opts opts = {
        .merge_colours = r->o.command == CLI_CMD_EXAMINE && pn_exam_on_coloured_ids(r->o.exam) &&
                         !r->o.trace && r->o.write_reduced == NULL && !r->o.use_verdicts,
    };
    /* A .dot system of LTSs (RERS) is read as its net; anything else is PNML.
     * The skeleton's pass has read a P/T model already. */
    double t_compile = pn_clock_now();
    pn_status st = r->net != NULL ? PN_OK
                                  : pn_rers_read_system(r->pnml, &r->budget, &opts, &r->net, &err);
    if (st == PN_OK) {
        pn_budget_phase(&r->budget, "compiling the net (%u places, %u transitions)",
                        r->net->n_places, r->net->n_transitions);
        t_compile = pn_clock_now();
        st = pn_cnet_compile(r->net, &r->cn, &err);
    }
    if (st != PN_OK || pn_budget_fail_memory(&r->budget, &err, r->pnml) != PN_OK) {
        fprintf(stderr, "petrel: %s\n", err.msg);
        /* Out of time, memory or cancelled while reading, unfolding or
         * compiling, or a model beyond what Petrel reads: the examination
         * ran and proved nothing. */
        bool cannot = err.code == PN_ERR_UNSUPPORTED || err.code == PN_ERR_TIMEOUT ||
                      err.code == PN_ERR_CANCELLED || err.code == PN_ERR_OUT_OF_MEMORY;
        if (cannot && !r->o.quiet)
            fputs("petrel: answering CANNOT_COMPUTE\n", stderr);
        return err.code == PN_ERR_NOMEM ? 1 : cannot ? -1 : 2;
    }
    if (r->o.verbose)
        fprintf(stderr, "petrel: %s: %u places, %u transitions, %u arcs (read %.3f s after the "
                        "start, compiled in %.3f s)\n",
                r->net->id, r->net->n_places, r->net->n_transitions, r->net->n_arcs,
                t_compile - r->t0, pn_clock_now() - t_compile);
    const pn_unfold_info *u = &r->net->unfold;
    if (u->unfolded && !r->o.quiet)
        fprintf(stderr, "petrel: unfolded %u coloured places and %u transitions to %u places "
                        "and %u transitions (%u places and %u transitions that can never be "
                        "marked or fire left out, %lu bindings tried, colours merged into classes in %u sorts) "
                        "in %.3f s\n",
                u->coloured_places, u->coloured_transitions, r->net->n_places,
                r->net->n_transitions, u->dropped_places, u->dropped_transitions,
                (unsigned long)u->bindings_tried, u->merged_sorts, u->seconds);
    return 0;
}

/* The exploration's own progress line, timed from the run's start as the
 * ticker's are (ctx: the run; its ticker is told of the line). */
static void cli_progress(void *ctx, const pn_progress *p)
{
    const cli_run *r = ctx;
    fprintf(stderr, "petrel: %.1f s: level %lu, %lu states (%lu in frontier), %lu edges, %.1f MB\n",
            pn_clock_now() - r->t0, (unsigned long)p->level, (unsigned long)p->states,
            (unsigned long)p->frontier, (unsigned long)p->edges, (double)p->bytes / 1e6);
    cli_ticker_said(r->ticker);
}

/* Seconds between progress lines: --progress=S, 1 with --progress, else 5. */
static double cli_progress_s(const cli_options *o)
{
    return o->progress_s > 0 ? o->progress_s : o->progress ? 1.0 : 5.0;
}

/* The progress lines of the phases outside exploration (ticker.h); none
 * with -q (nor on MPI ranks other than 0, which are quiet). */
static void cli_start_ticker(cli_run *r)
{
    if (r->o.quiet)
        return;
    r->ticker = cli_ticker_start(r->t0, cli_progress_s(&r->o));
    r->budget.phase = cli_ticker_phase(r->ticker);
}

/* The budget starts before the model is read: reading, unfolding and
 * compiling count against the time limit and the memory. The cap is the
 * whole process's (budget.h, `process`): every phase gets what the cap
 * leaves beside what is resident when it starts (the binary, the
 * libraries, the net, the formulas, what earlier phases keep), so no
 * reserve is set aside for them. SIGINT and SIGTERM end the run through
 * the stream's watchdog (with what was printed so far), not through a
 * flag. */
static void cli_budget(cli_run *r)
{
    const cli_options *o = &r->o;
    uint64_t cap = o->memory ? o->memory : pn_sys_memory_bytes();
    r->budget = pn_budget_make(o->timeout_s, NULL, cap);
    r->budget.process = cap;
    pn_sys_unmap_large_blocks();
}

static void cli_examine_opts(cli_run *r)
{
    const cli_options *o = &r->o;
    pn_engine_opts *eo = &r->xo.explore;
    r->topo = pn_topology_new();
    r->xo.dist = r->dist;
    eo->threads = o->threads ? o->threads : pn_topology_cores(r->topo);
    /* Several ranks on one machine would pin their workers to the same
     * cores (mpirun's binding places them instead), and so would runs on
     * fewer threads than cores beside each other. */
    bool pin = (r->dist == NULL || pn_dist_ranks(r->dist) <= 1) &&
               pn_topology_pins(r->topo, eo->threads);
    eo->topology = pin ? r->topo : NULL;
    if (o->verbose && r->topo != NULL) {
        char desc[160];
        pn_topology_describe(r->topo, desc, sizeof desc);
        fprintf(stderr, "petrel: topology: %s; %u worker thread(s)%s\n", desc, eo->threads,
                pin ? ", pinned" : ", not pinned");
    }
    r->xo.verbose = o->verbose;
    r->xo.no_por = o->no_por;
    r->xo.no_smt = o->no_smt;
    r->xo.no_dd = o->no_dd;
    r->xo.dd_only = o->dd_only;
    eo->keep_parents = o->trace;
    eo->store = o->store;
    if (!o->quiet) {
        eo->progress = cli_progress;
        eo->progress_ctx = r;
        eo->progress_interval_s = cli_progress_s(o);
    }
    r->xo.diag = o->quiet ? NULL : stderr;
    r->xo.no_reduce = o->no_reduce;
    r->xo.write_reduced = o->write_reduced;
}

/* How the exploration the statistics describe ended, in the run's terms:
 * a step's exploration that used up its share of the time ended there, not
 * at the run's deadline, and one that stopped early did so because the
 * formulas it was checking were decided, not every formula of the run. */
static const char *cli_exploration_end(const cli_run *r, const pn_engine_result *res)
{
    switch (res->status) {
    case PN_RUN_STOPPED: return "stopped once the formulas it checked were decided";
    case PN_RUN_TIMEOUT:
    case PN_RUN_CANCELLED:
        return pn_budget_expired(&r->budget) ? "stopped at the run's deadline"
                                             : "stopped at the end of its share of the time";
    default: return pn_run_status_name(res->status);
    }
}

static void cli_print_stats(const cli_run *r, const pn_engine_result *res)
{
    if (r->o.quiet)
        return;
    if (res->symbolic) {
        fprintf(stderr,
                "petrel: %s: decision diagrams: %s states, %s edges in %.3f s, peak RSS %.1f MB\n",
                r->o.exam_name, res->states_text, res->edges_text ? res->edges_text : "uncounted",
                res->seconds, (double)pn_sys_peak_rss() / 1e6);
        return;
    }
    if (res->threads == 0) { /* the diagrams did not close, and no engine ran after them */
        fprintf(stderr, "petrel: %s: no exploration ran (%s)\n", r->o.exam_name,
                cli_exploration_end(r, res));
        return;
    }
    double rate = res->seconds > 0 ? (double)res->states / res->seconds : 0;
    double bps = res->states ? (double)res->bytes / (double)res->states : 0;
    fprintf(stderr,
            "petrel: %s: exploration %s: %lu states, %lu edges, %lu levels in %.3f s "
            "(%.2f M states/s); %u word(s)/state, %s table, %.1f bytes/state, "
            "peak RSS %.1f MB, %u thread(s), %lu restart(s)\n",
            r->o.exam_name, cli_exploration_end(r, res), (unsigned long)res->states,
            (unsigned long)res->edges, (unsigned long)res->levels, res->seconds, rate / 1e6,
            res->state_words, res->tree ? "tree" : res->compact ? "compact" : "full", bps, (double)pn_sys_peak_rss() / 1e6, res->threads,
            (unsigned long)res->restarts);
    if (r->dist != NULL && res->states > 0)
        fprintf(stderr, "petrel: %u MPI rank(s): %lu bytes of states sent, %.1f bytes/state\n",
                pn_dist_ranks(r->dist), (unsigned long)pn_dist_bytes_sent(r->dist),
                (double)pn_dist_bytes_sent(r->dist) / (double)res->states);
}

static void cli_print_answers(const cli_run *r, const pn_check *c,
                              const pn_engine_result *res)
{
    for (uint32_t i = 0; i < pn_check_count(c); i++)
        cli_stream_answer(r->out, c, i, res);
}

/* Prints trans[0..n) (of the net rep answered on) as the original net's
 * transitions, "[" before step cycle (UINT64_MAX: none); a lasso's deadlock
 * step prints as "(deadlock)". */
static void cli_print_steps(const cli_run *r, const pn_report *rep, const uint32_t *trans,
                            uint64_t n, uint64_t cycle)
{
    uint32_t *full = NULL;
    uint64_t len = 0, at = 0;
    pn_error err = {0};
    if (pn_report_lasso(rep, trans, n, cycle, &full, &len, &at, &err) != PN_OK) {
        fprintf(stderr, " (%s)\n", err.msg);
        return;
    }
    for (uint64_t k = 0; k < len; k++)
        fprintf(stderr, "%s %s", k == at ? " [" : "",
                full[k] == UINT32_MAX ? "(deadlock)" : r->net->trans_id[full[k]]);
    fputs(at < len ? " ]\n" : "\n", stderr);
    free(full);
}

/* An LTL counterexample or a CTL path: the prefix, then the cycle in
 * brackets, repeated forever. A CTL path without a cycle prints as a
 * reachability trace. */
static void cli_print_lasso(const cli_run *r, const pn_report *rep, const pn_answer *a)
{
    if (a->lasso_cycle == 0) {
        fprintf(stderr, "petrel: trace %s (%lu steps%s):", a->id, (unsigned long)a->lasso_prefix,
                rep->reduced != NULL ? " on the reduced net" : "");
        cli_print_steps(r, rep, a->lasso, a->lasso_prefix, UINT64_MAX);
        return;
    }
    fprintf(stderr, "petrel: trace %s (lasso, %lu-step prefix, %lu-step cycle%s):", a->id,
            (unsigned long)a->lasso_prefix, (unsigned long)a->lasso_cycle,
            rep->reduced != NULL ? " on the reduced net" : "");
    cli_print_steps(r, rep, a->lasso, a->lasso_prefix + a->lasso_cycle, a->lasso_prefix);
}

static void cli_print_traces(const cli_run *r, const pn_report *rep)
{
    const pn_check *c = rep->check;
    for (uint32_t i = 0; i < pn_check_count(c); i++) {
        const pn_answer *a = pn_check_answer(c, i);
        uint32_t *path;
        uint64_t len;
        if (a->lasso != NULL) {
            cli_print_lasso(r, rep, a);
            continue;
        }
        if (!a->has_witness || !pn_engine_trace(&rep->result, a->witness, &path, &len))
            continue;
        fprintf(stderr, "petrel: trace %s (%lu steps%s):", a->id, (unsigned long)len,
                rep->reduced != NULL ? " on the reduced net" : "");
        cli_print_steps(r, rep, path, len, UINT64_MAX);
        free(path);
    }
}

/* --stats-fd: one line of key=value pairs for petrel batch, which runs
 * this process as its child: what the exploration did, and whether it
 * ended on the time or the memory budget. */
static void cli_write_stats(const cli_run *r, const pn_engine_result *res)
{
    if (r->o.stats_fd < 0)
        return;
    /* The run's limits, not a step's share: "time" when the run reached
     * its deadline (or was cancelled), whatever its last exploration did;
     * an exploration that ended at its share left the run within time. */
    bool timed_out = pn_budget_expired(&r->budget);
    const char *limit = res->status == PN_RUN_OUT_OF_MEMORY ? "memory"
                        : timed_out                          ? "time"
                                                             : "none";
    dprintf(r->o.stats_fd, "states=%lu edges=%lu limit=%s\n", (unsigned long)res->states,
            (unsigned long)res->edges, limit);
}

/* Reads and simplifies the examination's formula file; NULL for global
 * properties. Returns 0, or an exit code. */
static int cli_load_formulas(cli_run *r, pn_fml_set **set)
{
    *set = NULL;
    const char *file = pn_exam_formula_file(r->o.exam);
    if (file == NULL)
        return 0;
    char *path = cli_path_join(r->dir, file);
    if (path == NULL)
        return 1;
    pn_budget_phase(&r->budget, "reading the formulas (%s)", path);
    pn_error err = {0};
    pn_status st = pn_fml_read_file(path, r->net, set, &err);
    free(path);
    if (st == PN_OK)
        st = pn_fml_set_simplify(*set, &err);
    if (st != PN_OK) {
        fprintf(stderr, "petrel: %s\n", err.msg);
        return st == PN_ERR_NOMEM ? 1 : 2;
    }
    for (uint32_t i = 0; i < (*set)->n; i++) {
        if ((*set)->props[i].status != PN_OK) /* an error: said with -q too */
            fprintf(stderr, "petrel: %s\n", (*set)->props[i].error);
        if (r->o.verbose)
            pn_fml_print(stderr, *set, i);
    }
    return 0;
}

/* Prints the report: the answers (or StateSpace's values), then traces and
 * statistics on stderr. */
static void cli_print_report(const cli_run *r, const pn_report *rep)
{
    const pn_engine_result *res = &rep->result;
    if (rep->check == NULL) {
        cli_stream_state_space(r->out, res, r->net);
        cli_print_stats(r, res);
        return;
    }
    cli_print_answers(r, rep->check, res);
    if (r->o.trace) /* a walk's or the linear layer's witness needs no exploration */
        cli_print_traces(r, rep);
    if (res->states > 0)
        cli_print_stats(r, res);
}

/* The examinations whose exploration runs on every rank of an MPI job
 * (docs/distributed.md); CTL, LTL and Liveness run on rank 0. */
static bool cli_explores_distributed(pn_exam exam)
{
    switch (exam) {
    case PN_EXAM_STATE_SPACE:
    case PN_EXAM_UPPER_BOUNDS:
    case PN_EXAM_REACH_CARDINALITY:
    case PN_EXAM_REACH_FIREABILITY:
    case PN_EXAM_REACH_DEADLOCK:
    case PN_EXAM_ONE_SAFE:
    case PN_EXAM_QUASI_LIVENESS:
    case PN_EXAM_STABLE_MARKING: return true;
    default: return false;
    }
}

/* Names the answers to stream: the formulas, or the global property;
 * StateSpace keeps the stream's one bare answer. */
static int cli_stream_answers(cli_run *r, pn_fml_set *set)
{
    bool ltl = r->o.exam == PN_EXAM_LTL_CARDINALITY || r->o.exam == PN_EXAM_LTL_FIREABILITY;
    uint32_t threads = ltl ? 1 : r->xo.explore.threads; /* LTL runs on one thread */
    if (r->dist != NULL && cli_explores_distributed(r->o.exam))
        threads *= pn_dist_ranks(r->dist);
    bool ok = true;
    if (set != NULL && r->skel.decided != NULL) {
        ok = cli_skeleton_rest(&r->skel, set, r->out, r->cn, &r->budget, threads);
        if (r->o.exam == PN_EXAM_UPPER_BOUNDS)
            r->xo.bound_limits = r->skel.limits;
    } else if (set != NULL) {
        const char **ids = calloc((size_t)set->n + 1, sizeof *ids);
        for (uint32_t i = 0; ids != NULL && i < set->n; i++)
            ids[i] = set->props[i].id;
        ok = ids != NULL && cli_stream_set_ids(r->out, ids, set->n, r->net, threads);
        free(ids);
    } else if (pn_exam_is_global(r->o.exam)) {
        const char *id = pn_exam_name(r->o.exam);
        ok = cli_stream_set_ids(r->out, &id, 1, r->net, threads);
    }
    if (!ok) {
        fputs("petrel: out of memory\n", stderr);
        return 1;
    }
    r->xo.on_decide = cli_stream_on_decide;
    r->xo.on_decide_ctx = r->out;
    return 0;
}

/* --use-verdicts: the model's verdict file's hints, checked and said. */
static void cli_use_verdicts(const cli_run *r)
{
    if (!r->o.use_verdicts || r->o.quiet)
        return;
    pn_verdicts *file = cli_verdicts_read_model(r->dir, stderr);
    cli_verdicts_check_hints(file, r->cn, stderr);
    pn_verdicts_free(file);
}

/* A formula the file holds but Petrel could not read (an unknown place or
 * element, said when the file was read) answers CANNOT_COMPUTE beside the
 * others; the run then ends with 2, as for a malformed file, and this last
 * line says why (petrel batch records it). */
static int cli_unreadable_formulas(const pn_fml_set *set)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; set != NULL && i < set->n; i++)
        bad += set->props[i].status != PN_OK;
    if (bad == 0)
        return 0;
    fprintf(stderr, "petrel: %u of %u formulas could not be read; they answer "
                    "CANNOT_COMPUTE\n", bad, set->n);
    return 2;
}

/* Every examination through the driver (see examine.h). */
static int cli_examine(cli_run *r)
{
    cli_use_verdicts(r);
    pn_fml_set *set = NULL;
    int rc = cli_load_formulas(r, &set);
    if (rc == 0)
        rc = cli_stream_answers(r, set);
    if (rc != 0) {
        cli_stream_close(r->out);
        pn_fml_set_free(set);
        return rc;
    }
    pn_report *rep = NULL;
    pn_error err = {0};
    if (pn_examine(r->cn, r->o.exam, set, &r->xo, &r->budget, &rep, &err) != PN_OK) {
        fprintf(stderr, "petrel: %s\n", err.msg);
        cli_stream_close(r->out);
        pn_fml_set_free(set);
        return 1;
    }
    cli_print_report(r, rep);
    cli_write_stats(r, &rep->result);
    int rc2 = r->o.verdict_xml != NULL ? cli_verdicts_write_exam(r->o.verdict_xml, r->net, rep) : 0;
    pn_report_free(rep);
    if (rc2 == 0)
        rc2 = cli_unreadable_formulas(set);
    pn_fml_set_free(set);
    return rc2;
}

/* A coloured net's skeleton answers first what it proves (skeleton_cli.h),
 * where the answers speak of coloured ids only (as for merged colours) and
 * one process prints them all (no MPI job, no verdict file). */
static int cli_skeleton_first(cli_run *r)
{
    const cli_options *o = &r->o;
    const char *file = pn_exam_formula_file(o->exam);
    bool global = pn_examine_skeleton_global_applies(o->exam);
    if (o->no_skeleton || !(global || (cli_skeleton_takes(o->exam) && file != NULL)) ||
        o->trace || o->write_reduced != NULL || o->use_verdicts || o->verdict_xml != NULL ||
        r->dist != NULL)
        return 0;
    char *path = global ? NULL : cli_path_join(r->dir, file);
    if (!global && path == NULL)
        return 1;
    int rc = cli_skeleton_pass(r->pnml, path, o->exam, &r->xo, &r->budget, r->out, o->verbose,
                               &r->net, &r->skel);
    free(path);
    return rc;
}

/* Asks the driver for the engine before anything is read, so that a
 * request it cannot serve fails at once (--engine gpu without a usable
 * GPU: exit 1 with the reason). */
static int cli_choose_engine(cli_run *r)
{
    static const pn_engine_kind kinds[] = {
        [CLI_ENGINE_AUTO] = PN_ENGINE_AUTO,
        [CLI_ENGINE_CPU] = PN_ENGINE_CPU,
        [CLI_ENGINE_GPU] = PN_ENGINE_GPU,
    };
    r->xo.engine = kinds[r->o.engine];
    pn_error err = {0};
    /* The CPU fallback is the normal case on a machine without a GPU (the
     * contest's VM): said with -v only. */
    if (pn_examine_engine(r->o.exam, &r->xo.engine, r->o.verbose ? stderr : NULL, &err) == PN_OK)
        return 0;
    fprintf(stderr, "petrel: %s\n", err.msg);
    return err.code == PN_ERR_INPUT ? 2 : 1;
}

static void cli_free(cli_run *r)
{
    cli_skeleton_free(&r->skel);
    cli_ticker_stop(r->ticker);
    r->ticker = NULL;
    r->budget.phase = NULL;
    pn_topology_free(r->topo);
    pn_cnet_free(r->cn);
    pn_net_free(r->net);
    free(r->dir);
    free(r->pnml);
}

/* An MPI failure (dist.h): the open answers, then the end. */
static void cli_dist_fatal(void *ctx)
{
    cli_run *r = ctx;
    if (r->out != NULL)
        cli_stream_fail(r->out);
    _exit(1);
}

/* Under mpirun: joins the job; ranks other than 0 print nothing (rank 0
 * prints every answer once). Returns 0 or an exit code. */
static int cli_join_job(cli_run *r, int *argc, char ***argv)
{
    if (!pn_dist_launched())
        return 0;
    pn_error err = {0};
    if (pn_dist_init(argc, argv, cli_dist_fatal, r, &r->dist, &err) != PN_OK) {
        fprintf(stderr, "petrel: %s\n", err.msg);
        return 1;
    }
    if (pn_dist_rank(r->dist) == 0)
        return 0;
    r->o.quiet = true;
    r->o.verbose = r->o.progress = false;
    r->sink = fopen("/dev/null", "w");
    if (r->sink == NULL) {
        fputs("petrel: cannot open /dev/null\n", stderr);
        return 1;
    }
    return 0;
}

/* `petrel properties`: no MCC lines, so no stream; each behavioural
 * property keeps to its share of the budget. */
static int cli_properties(cli_run *r)
{
    r->t0 = pn_clock_now();
    cli_budget(r);
    cli_start_ticker(r);
    int rc = cli_resolve_model(r);
    if (rc == 0)
        rc = cli_load(r);
    if (rc < 0) {
        rc = cli_properties_unread(&r->o, r->dir);
    } else if (rc == 0) {
        cli_examine_opts(r);
        r->xo.engine = PN_ENGINE_AUTO;
        r->xo.diag = r->o.verbose ? stderr : NULL; /* each examination's notes */
        rc = cli_properties_run(&r->o, r->dir, r->cn, &r->xo, &r->budget);
    }
    cli_free(r);
    return rc;
}

static int cli_main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "rers") == 0)
        return cli_rers_main(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "mcmt") == 0)
        return cli_mcmt_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "batch") == 0)
        return cli_batch_main(argc - 1, argv + 1);
    cli_run r;
    memset(&r, 0, sizeof r);
    bool props = argc > 1 && strcmp(argv[1], "properties") == 0;
    int rc = props ? cli_parse(argc - 1, argv + 1, CLI_CMD_PROPERTIES, &r.o)
                   : cli_parse(argc, argv, CLI_CMD_EXAMINE, &r.o);
    if (rc != 0)
        return rc == 1 ? 0 : rc;
    if (props)
        return cli_properties(&r);
    cli_stream_block_signals();
    r.t0 = pn_clock_now();
    cli_budget(&r);
    rc = cli_join_job(&r, &argc, &argv);
    if (rc != 0) {
        pn_dist_end(r.dist, true);
        return rc;
    }
    cli_start_ticker(&r);
    /* Ranks other than 0 keep the deadline through the budget and end with
     * rank 0 (mpirun's SIGTERM); their watchdog only takes that signal. */
    r.out = cli_stream_new(r.sink != NULL ? r.sink : stdout, r.sink != NULL ? NULL : &r.budget);
    if (r.out == NULL) {
        fputs("petrel: out of memory\n", stderr);
        return 1;
    }
    if (pn_exam_is_global(r.o.exam)) { /* its one answer is named before reading */
        const char *id = pn_exam_name(r.o.exam);
        if (!cli_stream_set_ids(r.out, &id, 1, NULL, 1))
            rc = 1;
    }
    if (rc == 0)
        rc = cli_resolve_model(&r);
    if (rc == 0)
        rc = cli_choose_engine(&r);
    if (rc == 0) {
        cli_examine_opts(&r);
        rc = cli_skeleton_first(&r);
    }
    if (rc == 0 && cli_skeleton_all(&r.skel)) { /* nothing left for the unfolding */
        cli_write_stats(&r, &(pn_engine_result){.status = PN_RUN_COMPLETE});
        rc = -1;
    }
    if (rc == 0)
        rc = cli_load(&r);
    if (rc < 0) /* a model Petrel cannot handle, or out of time: nothing proven */
        rc = 0;
    else if (rc == 0)
        rc = cli_examine(&r);
    if (rc <= 0) /* what is still open (on errors, nothing is printed) */
        cli_stream_close(r.out);
    cli_free(&r);
    /* Everything is printed: the watchdog stops before the ranks meet in
     * MPI_Finalize, which a loaded machine can make last past the deadline.
     * Every rank settles the command and finalizes; a rank that failed ends
     * the job (rank 0 has printed what it could). */
    cli_stream_free(r.out);
    r.out = NULL;
    pn_dist_end(r.dist, rc == 1);
    if (r.sink != NULL)
        fclose(r.sink);
    return rc;
}

/* Answers that could not be written are lost: a full disk or a closed
 * stdout must not end with status 0. */
static int cli_flush_stdout(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    fprintf(stderr, "petrel: cannot write to standard output: %s\n",
            errno != 0 ? strerror(errno) : "write error");
    return rc != 0 ? rc : 1;
}

int main(int argc, char **argv)
{
    return cli_flush_stdout(cli_main(argc, argv));
}
