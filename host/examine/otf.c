/* The on-the-fly steps of the examination portfolio (see otf.h): LTL
 * formulas by the product with their automata (host/logic/ltl.c),
 * over a space reduced by stubborn sets where the formula allows it, and
 * CTL formulas by local fixed points (host/logic/ctl_otf.c); both hand
 * their formulas to the workers of passes.c and settle the answers in the
 * check under its lock. */
#include "examine/otf.h"

#include <stdlib.h>

#include "examine/passes.h"
#include "examine/tech.h"
#include "petrel/ctl.h"
#include "petrel/ltl.h"

static const pn_fml_node *otf_root(const pn_fml_set *set, uint32_t i)
{
    return set->props[i].status == PN_OK ? set->props[i].root : NULL;
}

/* The statistics of the on-the-fly checks: the part of the state space
 * they generated (the largest one a worker built, or the largest reduced
 * one: each is part of one state space). */
static void otf_report(const ex_passes_stats *s, uint64_t states, uint64_t edges,
                       pn_engine_result *res, double seconds)
{
    res->states = s->states > states ? s->states : states;
    res->edges = s->states > states ? s->edges : edges;
    res->status = PN_RUN_STOPPED;
    res->threads = s->workers ? s->workers : 1;
    res->seconds = seconds;
}

/* Whether a turn that ended with st says why its formula stays unknown: a
 * failure other than the time at once, the time at the last turn of a
 * timed run (untimed turns grow until one ends). */
static bool otf_last_word(const pn_budget *budget, int pass, pn_status st)
{
    bool time = st == PN_ERR_TIMEOUT || st == PN_ERR_CANCELLED;
    return !time || (budget != NULL && budget->deadline > 0 && pass >= 2);
}

/* ---- LTL ----------------------------------------------------------------- */

/* graph_only's values: the LTL check cannot take the formula (no retry);
 * its reduced space reduced too little: the shared space serves it. */
#define LTL_GRAPH_ONLY 1
#define LTL_SHARED 2

/* A reduced space that fires more than this part of the enabled
 * transitions over its first states gives way to the shared space: one
 * space per formula pays only where it is much smaller (per mille). */
#define LTL_POR_PROBE_PER_MILLE 600

typedef struct ltl_slot { /* one worker's last formula */
    bool v, reduced;
    pn_ltl_lasso lasso;
    uint64_t reduced_states, reduced_edges;
} ltl_slot;

typedef struct ltl_run {
    const pn_cnet *cn;
    const pn_fml_set *set;
    const pn_engine_opts *opts;
    bool no_por;           /* no stubborn sets (--no-por) */
    const pn_budget *budget;
    pn_check *c;
    uint8_t *graph_only;   /* per formula: LTL_GRAPH_ONLY, LTL_SHARED or 0 */
    ltl_slot *slot;        /* per worker */
    FILE *diag;
    uint64_t reduced_states, reduced_edges; /* the largest reduced space */
} ltl_run;

/* A fresh reduced space for formula i (pn_ltl_por_lazy_new) when the
 * reduction applies and is not turned off; NULL otherwise. It counts
 * against the workers' memory account, as their unreduced spaces do. */
static pn_lazy *ltl_reduced(const ltl_run *r, const pn_lazy *z, uint32_t i,
                            const pn_fml_node *root)
{
    if (r->no_por || r->graph_only[i] == LTL_SHARED || !pn_ltl_por_applies(root))
        return NULL;
    pn_lazy_pool *pool = pn_lazy_pool_of(z);
    if (pn_lazy_pool_full(pool))
        return NULL;
    pn_lazy *red = NULL;
    pn_error e = {0};
    if (pn_ltl_por_lazy_new(r->cn, root, pn_budget_memory(r->budget), &red, &e) != PN_OK)
        return NULL;
    if (pool != NULL)
        pn_lazy_join_pool(red, pool);
    pn_lazy_probe_reduction(red, LTL_POR_PROBE_PER_MILLE);
    return red;
}

static bool ltl_open(void *ctx, uint32_t i)
{
    const ltl_run *r = ctx;
    return pn_check_open(r->c, i) && r->graph_only[i] != LTL_GRAPH_ONLY;
}

/* One formula on the fly within share, over its own reduced space where
 * partial-order reduction applies, else over the worker's shared one; a
 * counterexample is kept when traces were asked for. */
static pn_status ltl_check(void *ctx, uint32_t worker, pn_lazy *z, uint32_t i,
                           const pn_budget *share, int pass, pn_error *err)
{
    ltl_run *r = ctx;
    ltl_slot *s = &r->slot[worker];
    const pn_fml_node *root = otf_root(r->set, i);
    if (root == NULL)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "no formula to check");
    pn_lazy *reduced = ltl_reduced(r, z, i, root);
    s->lasso = (pn_ltl_lasso){0};
    pn_budget mine = *share;
    pn_check_watch(r->c, i, &mine);
    pn_status st = pn_ltl_check_otf(reduced != NULL ? reduced : z, root, &mine, &s->v, NULL,
                                    r->opts->keep_parents ? &s->lasso : NULL, err);
    s->reduced = reduced != NULL;
    if (reduced != NULL) {
        s->reduced_states = pn_lazy_states(reduced);
        s->reduced_edges = pn_lazy_edges(reduced);
    }
    pn_lazy_free(reduced);
    if (reduced != NULL && st == PN_ERR_UNSUPPORTED) { /* it reduced too little */
        r->graph_only[i] = LTL_SHARED; /* formula i is this worker's alone now */
        pn_error_clear(err);
        return ltl_check(ctx, worker, z, i, share, pass, err);
    }
    return st;
}

static bool ltl_commit(void *ctx, uint32_t worker, const pn_lazy *z, uint32_t i, int pass,
                       pn_status st, const pn_error *err, double seconds)
{
    ltl_run *r = ctx;
    ltl_slot *s = &r->slot[worker];
    (void)z;
    (void)seconds;
    if (s->reduced && s->reduced_states > r->reduced_states) {
        r->reduced_states = s->reduced_states;
        r->reduced_edges = s->reduced_edges;
    }
    pn_check_lock(r->c);
    if (st == PN_OK && pn_check_answer(r->c, i)->verdict == PN_VERDICT_UNKNOWN) {
        if (s->reduced)
            pn_check_set_techniques(r->c, i, PN_TECH_EXPLICIT | PN_TECH_STUBBORN_SETS);
        if (!s->v && r->opts->keep_parents)
            pn_check_set_lasso(r->c, i, s->lasso.trans, s->lasso.prefix, s->lasso.cycle);
        else
            pn_ltl_lasso_free(&s->lasso);
        pn_check_set(r->c, i, s->v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
    } else {
        pn_ltl_lasso_free(&s->lasso); /* none, or the step beside decided i meanwhile */
    }
    pn_check_unlock(r->c);
    if (st == PN_ERR_UNSUPPORTED)
        r->graph_only[i] = LTL_GRAPH_ONLY;
    if (st != PN_OK && r->diag != NULL &&
        (otf_last_word(r->budget, pass, st) || r->graph_only[i] == LTL_GRAPH_ONLY) &&
        !ex_unbound(r->set, i))
        fprintf(r->diag, "petrel: %s: %s\n", pn_check_answer(r->c, i)->id, err->msg);
    return true;
}

/* LTL: every open formula on the fly within b, on EX_OTF_WORKERS workers;
 * res reports the states they generated (PN_RUN_STOPPED). */
static pn_status product_run(ex_job *j, const pn_budget *b, pn_error *err)
{
    pn_check_lock(j->c);
    if (!j->finished) /* again would forget what completeness proved */
        pn_check_finish(j->c, NULL);
    pn_check_unlock(j->c);
    double t0 = pn_clock_now();
    uint32_t workers = EX_OTF_WORKERS, n = pn_check_count(j->c);
    ltl_run r = {.cn = j->cn, .set = j->set, .opts = &j->s->engine, .no_por = j->s->opts->no_por,
                 .budget = b, .c = j->c, .diag = j->report ? j->s->diag : NULL};
    r.graph_only = calloc((size_t)n + 1, 1);
    r.slot = calloc(workers, sizeof *r.slot);
    if (r.graph_only == NULL || r.slot == NULL) {
        free(r.graph_only);
        free(r.slot);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    }
    static const ex_passes_ops ops = {ltl_open, ltl_check, ltl_commit};
    ex_passes_stats stats = {0};
    pn_status st = ex_passes_run(j->cn, b, n, workers, &ops, &r, &stats, err);
    if (st == PN_ERR_NOMEM || st == PN_ERR_OUT_OF_MEMORY) { /* every formula CANNOT_COMPUTE */
        if (r.diag != NULL)
            fprintf(r.diag, "petrel: %s\n", err->msg);
        pn_error_clear(err);
        st = PN_OK;
    }
    if (st == PN_OK)
        otf_report(&stats, r.reduced_states, r.reduced_edges, j->res, pn_clock_now() - t0);
    free(r.graph_only);
    free(r.slot);
    return st;
}

static bool otf_open(ex_job *j)
{
    return j->set != NULL && pn_check_open_count(j->c) > 0;
}

const ex_tech ex_tech_product = {.name = "product", .applies = otf_open, .run = product_run};

/* ---- CTL ----------------------------------------------------------------- */

/* Once the searches have met the whole reachable space, the recorded graph
 * (the next step) answers the formulas still open in one exploration and
 * one fixpoint pass each over bit sets, where the local checker would build
 * each formula's dependency graph over all those states: on
 * SharedMemory-PT-000010 (1.8 M states) the graph answers 16 formulas in
 * 16.5 s while the local step spent its whole half of 300 s. Taken only
 * with two formulas or more open, twice the searches' memory free, and
 * four times the searches' time (spent) left: the graph explores those
 * states again and then checks, and with 10 s on one thread it ends later
 * than the local checker would (SharedMemory-PT-000010 CTLCardinality: 11
 * values at 10 s without the switch, 10 with it). */
static bool ex_graph_now(const pn_lazy *z, const pn_budget *budget, uint32_t open, double spent)
{
    uint64_t room = pn_budget_memory(budget);
    return open >= 2 && pn_lazy_complete(z) && (room == 0 || pn_lazy_bytes(z) <= room / 2) &&
           pn_budget_left_s(budget) >= 4 * spent;
}

typedef struct ctl_slot { /* one worker's last formula */
    bool v;
    pn_ltl_lasso path;
} ctl_slot;

typedef struct ctl_run {
    const pn_fml_set *set;
    const pn_budget *budget; /* the job's: the graph's room */
    pn_check *c;
    bool trace;
    FILE *verbose;
    double t0;
    ctl_slot *slot;          /* per worker */
} ctl_run;

static bool ctl_open(void *ctx, uint32_t i)
{
    const ctl_run *r = ctx;
    return pn_check_open(r->c, i) && otf_root(r->set, i) != NULL;
}

static pn_status ctl_check(void *ctx, uint32_t worker, pn_lazy *z, uint32_t i,
                           const pn_budget *share, int pass, pn_error *err)
{
    ctl_run *r = ctx;
    ctl_slot *s = &r->slot[worker];
    (void)pass;
    s->path = (pn_ltl_lasso){0};
    pn_budget mine = *share;
    pn_check_watch(r->c, i, &mine);
    return pn_ctl_check_otf_trace(z, otf_root(r->set, i), &mine, &s->v,
                                  r->trace ? &s->path : NULL, err);
}

/* Answers still unknown, counted under the check's lock (held). */
static uint32_t ctl_left(const pn_check *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < pn_check_count(c); i++)
        n += pn_check_answer(c, i)->verdict == PN_VERDICT_UNKNOWN;
    return n;
}

/* ctl_commit under the check's lock. Answers are decided in the check
 * (pn_check_decide_answer), so that a later pn_check_finish keeps them; one
 * the step beside decided meanwhile is left as it is. */
static bool ctl_settle(ctl_run *r, ctl_slot *s, uint32_t worker, const pn_lazy *z, uint32_t i,
                       int pass, pn_status st, const pn_error *err, double seconds)
{
    bool beside = st == PN_OK && pn_check_answer(r->c, i)->verdict != PN_VERDICT_UNKNOWN;
    if (r->verbose != NULL)
        fprintf(r->verbose, "petrel: local: %s: %s%s in %.3f s (pass %d, worker %u, %lu states known)\n",
                pn_check_answer(r->c, i)->id, st != PN_OK ? err->msg : s->v ? "TRUE" : "FALSE",
                beside ? " (decided beside meanwhile)" : "", seconds, pass, worker,
                (unsigned long)pn_lazy_states(z));
    if (beside) {
        free(s->path.trans);
        s->path = (pn_ltl_lasso){0};
    } else if (st == PN_OK) {
        if (r->trace && s->path.trans != NULL)
            pn_check_set_lasso(r->c, i, s->path.trans, s->path.prefix, s->path.cycle);
        pn_check_decide_answer(r->c, i, s->v, PN_TECH_EXPLICIT);
    }
    if (ex_graph_now(z, r->budget, ctl_left(r->c), pn_clock_now() - r->t0)) {
        if (r->verbose != NULL)
            fprintf(r->verbose, "petrel: local: every reachable state is known (%lu): the "
                                "recorded graph takes the %u formulas left\n",
                    (unsigned long)pn_lazy_states(z), ctl_left(r->c));
        return false;
    }
    return true;
}

static bool ctl_commit(void *ctx, uint32_t worker, const pn_lazy *z, uint32_t i, int pass,
                       pn_status st, const pn_error *err, double seconds)
{
    ctl_run *r = ctx;
    pn_check_lock(r->c);
    bool go_on = ctl_settle(r, &r->slot[worker], worker, z, i, pass, st, err, seconds);
    pn_check_unlock(r->c);
    return go_on;
}

pn_status ex_otf_local(ex_job *j, const pn_budget *b, uint32_t workers)
{
    workers = workers ? workers : 1;
    ctl_run r = {.set = j->set, .budget = j->budget != NULL ? j->budget : b, .c = j->c,
                 .trace = j->s->engine.keep_parents, .verbose = j->s->verbose,
                 .t0 = pn_clock_now()};
    r.slot = calloc(workers, sizeof *r.slot);
    if (r.slot == NULL)
        return PN_ERR_NOMEM;
    static const ex_passes_ops ops = {ctl_open, ctl_check, ctl_commit};
    ex_passes_stats stats = {0};
    pn_error e = {0};
    pn_status st = ex_passes_run(j->cn, b, pn_check_count(j->c), workers, &ops, &r, &stats, &e);
    if (st == PN_OK && !j->graph_tried) /* keep the graph's figures */
        otf_report(&stats, 0, 0, j->res, pn_clock_now() - r.t0);
    free(r.slot);
    return st;
}

static pn_status local_run(ex_job *j, const pn_budget *b, pn_error *err)
{
    (void)err; /* what a formula could not do leaves it unknown */
    ex_otf_local(j, b, EX_OTF_WORKERS);
    return PN_OK;
}

static bool local_applies(ex_job *j)
{
    return !ex_exam_is_ltl(j->exam) && j->exam != PN_EXAM_LIVENESS && otf_open(j);
}

const ex_tech ex_tech_local = {.name = "local", .applies = local_applies, .run = local_run};
