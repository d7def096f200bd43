/* The examination driver (see examine.h): the engine chosen once,
 * StateSpace, the formulas simplified once, the net reduced (for all the
 * formulas together, and for each alone where that is much smaller), and
 * the questions handed as jobs to the one scheduler (sched.h), whose plans
 * and techniques decide them. The global properties become families of
 * small questions (global.c), folded back into one answer. */
#include "petrel/examine.h"

#include <stdlib.h>
#include <string.h>

#include "examine/ctl_simplify.h"
#include "examine/global.h"
#include "examine/reduce_each.h"
#include "examine/space_dd.h"
#include "examine/tech.h"
#include "petrel/dist.h"
#include "petrel/gpu.h"
#include "petrel/linear.h"
#include "petrel/mcc.h"
#include "petrel/walk.h"
#include "petrel/pnml.h"
#include "petrel/reduce.h"
#include "petrel/turns.h"
#include "space/mdd.h"

/* ---- the engine and StateSpace ------------------------------------------ */

/* Every examination runs on the GPU where a device is usable: StateSpace,
 * and in the plans the on-the-fly explorations (the kernels evaluate the
 * check's items) and the random walks. What needs the state graph or the
 * LTL / CTL searches is host work on the CPU either way. */
pn_status pn_examine_engine(pn_exam exam, pn_engine_kind *kind, FILE *diag, pn_error *err)
{
    (void)exam;
    if (*kind == PN_ENGINE_CPU || *kind == PN_ENGINE_GPU_OR_CPU)
        return PN_OK;
    char why[256];
    bool gpu = pn_gpu_available(why, sizeof why);
    if (*kind == PN_ENGINE_GPU && !gpu)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "no usable GPU: %s", why);
    if (*kind == PN_ENGINE_GPU)
        return PN_OK;
    *kind = gpu ? PN_ENGINE_GPU_OR_CPU : PN_ENGINE_CPU;
    if (!gpu && diag != NULL)
        fprintf(diag, "petrel: no usable GPU (%s): using the CPU engine\n", why);
    return PN_OK;
}

/* StateSpace without a deadline: the decision diagrams' time at most (the
 * explicit engines after them still get theirs). */
#define SPACE_DD_ALONE_S 120.0

/* The chosen engine with the time left; GPU_OR_CPU falls back to the CPU
 * engine when the GPU fails (the answers are the same). An MPI job
 * explores on every rank at once. */
static pn_status examine_space_engines(const ex_sched *s, const pn_cnet *cn,
                                       pn_engine_result *res, pn_error *err)
{
    const pn_engine_opts *o = &s->engine;
    pn_dist *dist = s->opts->dist;
    pn_budget_phase(o->budget, "StateSpace: the explicit exploration");
    /* Every rank of the MPI job, on the CPU, once all hold the net (a rank
     * that timed out while reading did not: rank 0 then explores alone). */
    if (dist != NULL && pn_dist_command(dist, true, cn, NULL))
        return pn_dist_explore(dist, cn, o, NULL, res, err);
    if (dist != NULL && pn_dist_rank(dist) != 0) {
        memset(res, 0, sizeof *res);
        return PN_OK;
    }
    if (s->kind == PN_ENGINE_GPU || s->kind == PN_ENGINE_GPU_OR_CPU) {
        pn_status st = pn_gpu_explore(cn, o, res, err);
        if (st == PN_OK || s->kind == PN_ENGINE_GPU)
            return st;
        if (s->diag != NULL)
            fprintf(s->diag, "petrel: GPU engine failed (%s); using the CPU engine\n", err->msg);
        pn_error_clear(err);
    }
    return pn_explore(cn, o, res, err);
}

/* The maxima's bounds without the state space (pn_linear_space_maxima),
 * asked before the exploration (which runs to the deadline when it does
 * not end) within a tenth of the time, at most SPACE_MAXIMA_MAX_S (the
 * linear layer splits its share among the questions: with 1 s of a 30 s
 * run BridgeAndVehicles-PT-V80P20N10's 189 bounds were cut short, they take
 * 1.4 s with 4 s; an easy net's bounds take milliseconds): a
 * run that does not end still answers a maximum whose upper bound a marking
 * it, or the linear layer, reached meets (MAX_TOKEN_IN_PLACE of the 1-safe
 * nets whose P-semiflows cover them, MAX_TOKEN_PER_MARKING of the
 * conservative ones, and where the state equation's bound is met). */
#define SPACE_MAXIMA_SHARE (1.0 / 10)
#define SPACE_MAXIMA_MAX_S 30.0

/* An upper bound as text into buf: "none" when there is none. */
static const char *examine_bound_text(uint64_t upper, char buf[24])
{
    if (upper == UINT64_MAX)
        return "none";
    snprintf(buf, 24, "%lu", (unsigned long)upper);
    return buf;
}

/* The maxima whose upper bound a reached marking meets: the initial one,
 * the linear layer's, or the largest counts the stopped exploration saw
 * (of reached markings; 0 where an engine kept none). */
static void examine_space_met(const pn_cnet *cn, const uint64_t max_place[2],
                              const uint64_t max_marking[2], pn_engine_result *res)
{
    uint64_t place = res->max_tokens_place, marking = res->max_tokens_marking;
    uint64_t sum = pn_marking_total(cn->m0, cn->n_places);
    place = max_place[0] > place ? max_place[0] : place;
    marking = max_marking[0] > marking ? max_marking[0] : marking;
    for (uint32_t p = 0; p < cn->n_places; p++)
        place = cn->m0[p] > place ? cn->m0[p] : place;
    marking = sum > marking ? sum : marking;
    res->proven_max_place = max_place[1] != UINT64_MAX && place == max_place[1];
    res->max_tokens_place = place;
    res->proven_max_marking = max_marking[1] != UINT64_MAX && marking == max_marking[1];
    res->max_tokens_marking = marking;
}

/* StateSpace: the decision diagrams first, within a third of the time (a
 * set that closes counts 10^9 .. 10^600 markings that no table holds, and
 * a net whose set does not close in that time seldom closes later), then,
 * if they did not count, the structural maxima and the engines; with
 * dd_only the diagrams alone, with the whole time. */
static pn_status examine_state_space(const ex_sched *s, const pn_cnet *cn,
                                     pn_engine_result *res, pn_error *err)
{
    const pn_engine_opts *o = &s->engine;
    bool alone = s->opts->dd_only && !s->opts->no_dd;
    if (s->opts->dist == NULL && !s->opts->no_dd && cn->n_places <= PN_MDD_MAX_LEVELS) {
        pn_budget dd = pn_budget_share(o->budget, alone ? 1.0 : 1.0 / 3);
        if (!alone && (o->budget == NULL || o->budget->deadline <= 0))
            dd = pn_budget_within(&dd, SPACE_DD_ALONE_S);
        if (ex_space_dd(cn, &dd, s->verbose, res, err) != PN_OK)
            return err->code;
        if (res->symbolic)
            return PN_OK;
        if (alone || pn_budget_status(o->budget) != PN_OK) { /* nothing for the engines */
            res->status = PN_RUN_TIMEOUT; /* not the zeroed result's COMPLETE */
            return PN_OK;
        }
    } else if (alone) { /* no diagrams here (MPI, or past PN_MDD_MAX_LEVELS): nothing */
        res->status = PN_RUN_TIMEOUT;
        return PN_OK;
    }
    uint64_t max_place[2], max_marking[2];
    char b_place[24], b_marking[24];
    pn_budget maxima = pn_budget_share(o->budget, SPACE_MAXIMA_SHARE);
    maxima = pn_budget_within(&maxima, SPACE_MAXIMA_MAX_S);
    pn_budget_phase(o->budget, "StateSpace: the maxima by structure");
    double t0 = pn_clock_now();
    if (pn_linear_space_maxima(cn, &maxima, max_place, max_marking, err) != PN_OK)
        return err->code;
    if (s->verbose != NULL)
        fprintf(s->verbose,
                "petrel: StateSpace: maxima by structure: place %lu .. %s, marking %lu .. %s "
                "(reached .. upper bound) in %.3f s\n",
                (unsigned long)max_place[0], examine_bound_text(max_place[1], b_place),
                (unsigned long)max_marking[0], examine_bound_text(max_marking[1], b_marking),
                pn_clock_now() - t0);
    if (examine_space_engines(s, cn, res, err) != PN_OK)
        return err->code;
    if (res->status != PN_RUN_COMPLETE)
        examine_space_met(cn, max_place, max_marking, res);
    return PN_OK;
}

/* ---- jobs ------------------------------------------------------------------- */

/* How a job is run: its name (-v), whether it is the examination's own
 * (its summary line, its first exploration on every MPI rank), whether its
 * answers are streamed, and the techniques every answer also carries. */
typedef struct job_kind {
    const char *name;
    bool top, stream;
    uint32_t extra;
    const uint64_t *limits; /* per question, a bound proven elsewhere; NULL: none */
} job_kind;

/* The answers of exam's questions on cn (set NULL: a global property),
 * before any job runs: the techniques, proven bounds and streaming k asks. */
static pn_status examine_check(const ex_sched *s, job_kind k, const pn_cnet *cn, pn_exam exam,
                               const pn_fml_set *set, uint32_t threads, pn_check **check,
                               pn_error *err)
{
    pn_check *c = NULL;
    if (pn_check_new(cn, exam, set, threads, &c, err) != PN_OK)
        return err->code;
    pn_check_add_techniques(c, k.extra);
    for (uint32_t i = 0; k.limits != NULL && i < pn_check_count(c); i++)
        if (k.limits[i] != UINT64_MAX)
            pn_check_bound_limit(c, i, k.limits[i], false, PN_TECH_TOPOLOGICAL);
    if (k.stream)
        pn_check_on_decide(c, s->opts->on_decide, s->opts->on_decide_ctx);
    *check = c;
    return PN_OK;
}

/* The questions of c still open, on cn, as one job on the scheduler within
 * budget. */
static pn_status examine_job_on(const ex_sched *s, job_kind k, const pn_cnet *cn, pn_exam exam,
                                const pn_fml_set *set, const pn_budget *budget, pn_check *c,
                                pn_engine_result *res, pn_error *err)
{
    ex_job j;
    pn_status st = ex_job_init(&j, s, k.name, cn, exam, set, c, res, err);
    if (st == PN_OK) {
        j.dist_top = k.top && s->opts->dist != NULL;
        j.report = k.top;
        st = ex_sched_run(&j, s->plan_of(&j), budget, err);
        ex_job_free(&j);
    }
    return st;
}

/* The questions of exam on cn (set NULL: a global property) as one job on
 * the scheduler within budget; *check gets its answers. */
static pn_status examine_job(const ex_sched *s, job_kind k, const pn_cnet *cn, pn_exam exam,
                             const pn_fml_set *set, const pn_budget *budget, pn_check **check,
                             pn_engine_result *res, pn_error *err)
{
    pn_check *c = NULL;
    pn_status st = examine_check(s, k, cn, exam, set, res->threads, &c, err);
    if (st == PN_OK)
        st = examine_job_on(s, k, cn, exam, set, budget, c, res, err);
    if (st != PN_OK) {
        pn_check_free(c);
        return st;
    }
    *check = c;
    return PN_OK;
}

/* ---- structural reductions ----------------------------------------------------- */

/* The net reduced for exam's formulas (host/reduce), where the class allows
 * and reductions are on; NULL when nothing changed or it failed (a note). */
static pn_reduced *examine_reduce(const ex_sched *s, const pn_cnet *cn, pn_exam exam,
                                  const pn_fml_set *set, const pn_reduce_opts *items,
                                  const pn_budget *budget)
{
    if (s->opts->no_reduce || !pn_reduce_applies(exam))
        return NULL;
    pn_reduced *red = NULL;
    pn_reduce_opts ro = items != NULL ? *items : (pn_reduce_opts){0};
    ro.budget = budget;
    ro.verbose = s->verbose;
    pn_error e = {0};
    pn_budget_phase(budget, "structural reductions (%u places, %u transitions)", cn->n_places,
                    cn->n_transitions);
    if (pn_reduce(cn, exam, set, &ro, &red, &e) != PN_OK && s->diag != NULL)
        fprintf(s->diag, "petrel: reduction: %s\n", e.msg);
    if (pn_reduce_changed(red))
        return red;
    pn_reduced_free(red);
    return NULL;
}

/* --write-reduced: the joint net at path, and beside it, in a folder per
 * formula named by its id, each formula's own net and the formula on it
 * (an MCC instance folder), for every formula, not only those whose net
 * the run uses (those at most half the joint net's size). */
static pn_status examine_write_reduced(const ex_sched *s, const char *path, const pn_net *net,
                                       const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                                       const pn_budget *budget, pn_error *err)
{
    if (pn_pnml_write_file(path, net, err) != PN_OK)
        return err->code;
    pn_each *each = NULL;
    if (s->opts->no_reduce || !pn_reduce_applies(exam) || set == NULL)
        return PN_OK;
    pn_status st = pn_each_new(cn, false, exam, set, PN_EACH_ALL, budget, NULL, &each, err);
    if (st != PN_OK || each == NULL)
        return st;
    char *dir = strdup(path);
    if (dir == NULL) {
        pn_each_free(each);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    }
    char *slash = strrchr(dir, '/');
    if (slash == NULL)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    st = pn_each_write(each, exam, dir, err);
    free(dir);
    pn_each_free(each);
    return st;
}

/* ---- the formulas on nets of their own -------------------------------------- */

/* The share of the time the formulas with a net of their own get before
 * the joint net, which then has what they leave. */
#define EACH_SHARE (1.0 / 2)

/* LTL and CTL check one formula at a time on the joint net too (the
 * product, the local checker): nothing done there serves two formulas, so
 * the formulas with a net of their own get their part of the open ones'
 * time (at most EACH_SHARE): two of sixteen with half of it would leave
 * the other fourteen a third of their part. Reachability explores the
 * joint net once for all, and its formulas alone get EACH_SHARE. */
static double examine_each_share(pn_exam exam, const pn_each *each, pn_check *joint)
{
    bool one_by_one = exam == PN_EXAM_LTL_CARDINALITY || exam == PN_EXAM_LTL_FIREABILITY ||
                      exam == PN_EXAM_CTL_CARDINALITY || exam == PN_EXAM_CTL_FIREABILITY;
    uint32_t open = pn_check_open_count(joint), own = pn_each_count(each);
    if (!one_by_one || open == 0 || 2 * own >= open)
        return EACH_SHARE;
    return (double)own / open;
}

typedef struct each_run {
    const pn_each *each;
    const pn_check *joint;
} each_run;

static bool each_open(void *ctx, uint32_t k)
{
    const each_run *e = ctx;
    return pn_check_answer(e->joint, pn_each_formula(e->each, k))->verdict == PN_VERDICT_UNKNOWN;
}

/* The formulas of each, one after another on their own reduced nets, each
 * in its turn (an equal share of the time left, so what one leaves goes to
 * the next and what all leave to the joint net); their answers join the
 * joint check (streamed from there). Traces are not asked for here: a path
 * on one formula's net is not one of the joint net's. */
static void examine_each(const ex_sched *s, const pn_each *each, pn_exam exam,
                         const pn_budget *budget, pn_check *joint, uint32_t threads)
{
    each_run e = {.each = each, .joint = joint};
    pn_turns *t = NULL;
    pn_error err = {0};
    uint32_t decided = 0;
    if (pn_turns_new(budget, pn_each_count(each), 1, PN_TURNS_ONCE, each_open, &e, &t, &err) !=
        PN_OK)
        return;
    uint32_t k;
    int pass;
    pn_budget share;
    while (pn_turns_next(t, &k, &share, &pass)) {
        uint32_t i = pn_each_formula(each, k);
        const pn_reduced *red = pn_each_reduced(each, k);
        pn_engine_result res = {.threads = threads};
        pn_check *c = NULL;
        const uint64_t *limits = s->opts->bound_limits;
        job_kind kind = {.name = pn_check_answer(joint, i)->id,
                         .limits = limits != NULL ? &limits[i] : NULL};
        if (examine_job(s, kind, red->cn, exam, red->set, &share, &c, &res, &err) == PN_OK) {
            pn_check_take(joint, i, c, 0, PN_TECH_STRUCTURAL_REDUCTION);
            decided += pn_check_answer(joint, i)->verdict != PN_VERDICT_UNKNOWN;
        }
        pn_error_clear(&err);
        pn_check_free(c);
        pn_engine_result_free(&res);
        pn_turns_end(t, k);
    }
    pn_turns_free(t);
    if (s->verbose != NULL)
        fprintf(s->verbose, "petrel: reduction per formula: %u of %u formulas decided\n",
                decided, pn_each_count(each));
}

/* The nets of single formulas much smaller than the joint one (reduce_each.c),
 * each reduced further from the joint net and its formula there (set): the
 * joint net keeps every formula's answer, the second reduction this one's,
 * and the rules' work on the whole net is not done again per formula.
 * NULL when none, or when traces or an MPI job need the joint net's. */
static pn_each *examine_each_nets(const ex_sched *s, const pn_cnet *joint, pn_exam exam,
                                  const pn_fml_set *set, const pn_budget *budget)
{
    if (s->opts->no_reduce || !pn_reduce_applies(exam) || s->engine.keep_parents ||
        s->opts->dist != NULL)
        return NULL;
    uint64_t size = s->opts->reduce_each_only ? PN_EACH_ALL
                                              : (uint64_t)joint->n_places + joint->n_transitions;
    pn_each *each = NULL;
    pn_error e = {0};
    pn_budget_phase(budget, "structural reductions per formula");
    if (pn_each_new(joint, true, exam, set, size, budget, s->verbose, &each, &e) != PN_OK &&
        s->diag != NULL)
        fprintf(s->diag, "petrel: reduction per formula: %s\n", e.msg);
    return each;
}

/* Structural reductions where they preserve exam's answers: the reduced
 * net and formulas replace the original ones (the report keeps them: the
 * check borrows them; pn_report_trace maps traces back). Where one formula
 * alone reduces much further than all together, it also gets a net of its
 * own for the time the joint net leaves. A failed reduction is a note. */
static pn_status examine_formulas(const ex_sched *s, const pn_cnet *cn, pn_exam exam,
                                  const pn_fml_set *set, const pn_budget *budget, pn_report *r,
                                  pn_error *err)
{
    pn_reduced *red = examine_reduce(s, cn, exam, set, NULL, budget);
    const pn_cnet *joint = red != NULL ? red->cn : cn;
    pn_each *each = examine_each_nets(s, joint, exam, red != NULL ? red->set : set, budget);
    const char *write = s->opts->write_reduced;
    if (write != NULL && examine_write_reduced(s, write, red != NULL ? red->net : cn->net, cn,
                                               exam, set, budget, err) != PN_OK) {
        pn_reduced_free(red);
        pn_each_free(each);
        return err->code;
    }
    r->reduced = red;
    job_kind top = {.name = "joint", .top = true, .stream = true,
                    .extra = red != NULL ? PN_TECH_STRUCTURAL_REDUCTION : 0,
                    .limits = s->opts->bound_limits};
    const pn_fml_set *jset = red != NULL ? red->set : set;
    pn_status st = examine_check(s, top, joint, exam, jset, r->result.threads, &r->check, err);
    if (st == PN_OK && each != NULL) {
        pn_budget share = pn_budget_share(
            budget, s->opts->reduce_each_only ? 1.0 : examine_each_share(exam, each, r->check));
        examine_each(s, each, exam, &share, r->check, r->result.threads);
    }
    pn_budget spent = pn_budget_share(budget, 1.0);
    if (each != NULL && s->opts->reduce_each_only)
        spent.deadline = pn_clock_now() - 1; /* the joint net answers nothing */
    if (st == PN_OK)
        st = examine_job_on(s, top, joint, exam, jset, &spent, r->check, &r->result, err);
    for (uint32_t i = 0; st == PN_OK && red != NULL && i < pn_check_count(r->check); i++) {
        uint32_t t = pn_check_answer(r->check, i)->techniques;
        pn_check_set_techniques(r->check, i,
                                (t ? t : PN_TECH_EXPLICIT) | PN_TECH_STRUCTURAL_REDUCTION);
    }
    pn_each_free(each);
    return st;
}

/* ---- the global properties ------------------------------------------------- */

/* Liveness: the share of its items (the ways it fails) before what can
 * prove it (the graph's bottom SCCs, or A G E F per coloured transition). */
#define LIVE_ITEMS_SHARE (1.0 / 4)
/* The reduction's state-equation rule for the fireable items, as a share of
 * the whole examination. */
#define ITEMS_DEAD_LP_SHARE (1.0 / 10)
/* The structural proof's (Commoner's theorem), of what is left. */
#define LIVE_THEOREM_SHARE (1.0 / 10)
/* The walks that look for a transition dying: of what is left, and walks
 * per thread (a transition that dies usually does so early in most walks;
 * where none does the time goes to what can prove Liveness). */
#define LIVE_DYING_SHARE (1.0 / 5)
#define LIVE_DYING_WALKS 16

typedef struct glob_watch {
    pn_check *property; /* the examination's one answer */
    pn_glob_tally tally;
    int told;           /* the property was answered */
    uint32_t by;        /* the item that decided it (UINT32_MAX: all of them) */
} glob_watch;

/* Decides the property once; its items' job then ends (pn_check_close). */
static void glob_answer(glob_watch *w, pn_check *items, uint32_t by, pn_verdict v,
                        uint32_t techniques)
{
    if (v == PN_VERDICT_UNKNOWN || __atomic_exchange_n(&w->told, 1, __ATOMIC_ACQ_REL))
        return;
    w->by = by;
    pn_check_set_techniques(w->property, 0, techniques);
    pn_check_set(w->property, 0, v);
    if (items != NULL)
        pn_check_close(items);
}

/* An item was decided (on any thread): the property, once it decides it;
 * a single item that does gives it its proof (after the job: the path of a
 * walk's witness comes with the verdict or after it). */
static void glob_heard(void *ctx, const pn_check *items, uint32_t i)
{
    glob_watch *w = ctx;
    uint32_t techniques = 0;
    pn_verdict v = pn_glob_tally_add(&w->tally, i, pn_check_answer(items, i), &techniques);
    bool single = v != PN_VERDICT_UNKNOWN && w->tally.settled < w->tally.n;
    glob_answer(w, (pn_check *)items, single ? i : UINT32_MAX, v, techniques);
}

/* The items of exam as one job on the net reduced for them, within budget:
 * the property is answered the moment they decide it. */
static pn_status glob_items(const ex_sched *s, const pn_cnet *cn, pn_exam exam, bool groups,
                            glob_watch *w, const pn_budget *budget, pn_report *r, pn_error *err)
{
    pn_fml_set *fs = NULL;
    pn_status st = pn_glob_build(cn->net, exam, groups, &fs, err);
    if (st != PN_OK)
        return st;
    pn_exam as = pn_glob_as(exam);
    /* A dead transition is a FALSE item: the reduction's state-equation rule
     * proves it, within the same time in both examinations (Liveness's items
     * get a quarter of the run: a tenth of that was 0.25 s at 10 s, where
     * SimpleLoadBal-PT-20's first dead transitions, 87 of 2,205, need 0.3 s).
     * Over coloured groups one refutes the property only with the rest of
     * its group. */
    bool fireable = exam == PN_EXAM_QUASI_LIVENESS || exam == PN_EXAM_LIVENESS;
    pn_reduce_opts how = {.dead_lp_share = exam == PN_EXAM_LIVENESS
                                               ? ITEMS_DEAD_LP_SHARE / LIVE_ITEMS_SHARE
                                               : ITEMS_DEAD_LP_SHARE,
                          .one_dead_answers = fireable && !groups};
    pn_reduced *red = examine_reduce(s, cn, as, fs, &how, budget);
    const pn_cnet *net = red != NULL ? red->cn : cn;
    pn_check *items = NULL;
    st = pn_check_new(net, as, red != NULL ? red->set : fs, r->result.threads, &items, err);
    ex_job j;
    if (st == PN_OK) {
        w->tally = (pn_glob_tally){.exam = exam, .n = pn_check_count(items)};
        pn_check_add_techniques(items, red != NULL ? PN_TECH_STRUCTURAL_REDUCTION : 0);
        pn_check_on_decide(items, glob_heard, w);
        st = ex_job_init(&j, s, "items", net, as, red != NULL ? red->set : fs, items, &r->result,
                         err);
    }
    if (st == PN_OK) {
        j.dist_top = s->opts->dist != NULL;
        j.report = true;
        st = ex_sched_run(&j, ex_plan_items(exam), budget, err);
        ex_job_free(&j);
    }
    uint32_t techniques = 0;
    if (st == PN_OK) /* what the items decided when no listener was told */
        glob_answer(w, NULL, UINT32_MAX, pn_glob_fold(items, exam, &techniques), techniques);
    if (st == PN_OK && w->by != UINT32_MAX)
        pn_check_adopt_proof(w->property, 0, items, w->by);
    pn_check_free(items);
    r->reduced = red; /* its traces map back through it */
    pn_fml_set_free(fs);
    return st;
}

/* Liveness FALSE from walks that reach a marking from which a transition
 * (coloured: every binding of one) never fires again, an empty siphon
 * feeding it (pn_glob_dying_probe), within share. */
static pn_status glob_dying(const ex_sched *s, const pn_cnet *cn, bool groups, glob_watch *w,
                            const pn_budget *share, pn_error *err)
{
    pn_dying *d = NULL;
    pn_status st = pn_dying_new(cn, &d, err);
    if (st != PN_OK)
        return st;
    pn_glob_dying g = {.dying = d, .net = cn->net, .groups = groups, .dead = UINT32_MAX};
    pn_walk_opts wo = {.budget = share, .threads = s->engine.threads,
                       .max_walks = LIVE_DYING_WALKS, .probe = pn_glob_dying_probe, .probe_ctx = &g};
    st = pn_walk_decide(cn, NULL, &wo, NULL, err);
    if (st == PN_OK && g.dead != UINT32_MAX) {
        if (s->verbose != NULL)
            fprintf(s->verbose, "petrel: liveness: %s dies after a walk (an empty siphon)\n",
                    groups ? cn->net->trans_groups.id[g.dead] : cn->net->trans_id[g.dead]);
        glob_answer(w, NULL, UINT32_MAX, PN_VERDICT_FALSE,
                    PN_TECH_RANDOM_WALK | PN_TECH_TOPOLOGICAL);
    }
    pn_dying_free(d);
    return st;
}

/* Liveness where its items did not refute it: a transition dying after a
 * walk, Commoner's theorem, then on a
 * P/T net the bottom SCCs of the recorded graph (every transition at once,
 * check.c's ITEM_LIVE), over coloured groups A G E F fireable(T) per
 * coloured transition. */
static pn_status glob_live(const ex_sched *s, const pn_cnet *cn, bool groups, glob_watch *w,
                           const pn_budget *budget, pn_report *r, pn_error *err)
{
    /* An ordinary free-choice net with Commoner's property is live (every
     * transition, so every coloured one that has a binding: those without
     * one refuted it with the items). */
    bool live = false;
    pn_budget share = pn_budget_share(budget, LIVE_DYING_SHARE);
    pn_status st = glob_dying(s, cn, groups, w, &share, err);
    if (st != PN_OK || __atomic_load_n(&w->told, __ATOMIC_ACQUIRE))
        return st;
    share = pn_budget_share(budget, LIVE_THEOREM_SHARE);
    if (pn_linear_live(cn, &share, &live, err) == PN_OK && live) {
        glob_answer(w, NULL, UINT32_MAX, PN_VERDICT_TRUE, PN_TECH_TOPOLOGICAL);
        return PN_OK;
    }
    pn_fml_set *fs = NULL;
    pn_check *c = NULL;
    st = groups ? pn_glob_build_live(cn->net, &fs, err) : PN_OK;
    job_kind k = {.name = "liveness", .top = true};
    if (st == PN_OK)
        st = examine_job(s, k, cn, groups ? PN_EXAM_CTL_FIREABILITY : PN_EXAM_LIVENESS, fs,
                         budget, &c, &r->result, err);
    uint32_t techniques = 0;
    if (st == PN_OK && groups)
        glob_answer(w, NULL, UINT32_MAX, pn_glob_fold_live(c, &techniques), techniques);
    else if (st == PN_OK) {
        glob_answer(w, NULL, UINT32_MAX, pn_check_answer(c, 0)->verdict,
                    pn_check_answer(c, 0)->techniques);
        pn_check_adopt_proof(w->property, 0, c, 0); /* a deadlock's path */
    }
    pn_check_free(c);
    pn_fml_set_free(fs);
    return st;
}

/* OneSafe, StableMarking, QuasiLiveness and Liveness as families of small
 * questions (global.c): the items as a job, folded into the one answer
 * named after the examination; Liveness then by what can prove it. */
static pn_status examine_global(const ex_sched *s, const pn_cnet *cn, pn_exam exam,
                                const pn_budget *budget, pn_report *r, pn_error *err)
{
    bool groups = !s->opts->pt_globals && cn->net != NULL && cn->net->unfold.unfolded;
    pn_status st = pn_check_new(cn, exam, NULL, 1, &r->check, err);
    if (st != PN_OK)
        return st;
    pn_check_on_decide(r->check, s->opts->on_decide, s->opts->on_decide_ctx);
    glob_watch w = {.property = r->check, .by = UINT32_MAX};
    bool live = exam == PN_EXAM_LIVENESS;
    pn_budget share = pn_budget_share(budget, live ? LIVE_ITEMS_SHARE : 1.0);
    st = glob_items(s, cn, exam, groups, &w, &share, r, err);
    if (st == PN_OK && live && !__atomic_load_n(&w.told, __ATOMIC_ACQUIRE)) {
        pn_reduced_free(r->reduced); /* what proves it runs on the net as given */
        r->reduced = NULL;
        pn_engine_result_free(&r->result);
        r->result.threads = s->engine.threads ? s->engine.threads : 1;
        st = glob_live(s, cn, groups, &w, budget, r, err);
    }
    return st;
}

/* ---- simplification --------------------------------------------------------- */

/* CTL and LTL formulas simplified before the plan is chosen, so that those
 * that become reachability or state formulas take the faster plans. A
 * sixth of the time per batch of rounds (LTL: one round of state
 * sub-formulas, which rarely needs it all); on failure the formulas as
 * read. */
#define SIMPLIFY_SHARE (1.0 / 6)
/* The deadlock question, when the simplified formulas ask it. */
#define DEADLOCK_SHARE (1.0 / 10)

typedef struct deadlock_question {
    const ex_sched *s;
    const pn_cnet *cn;
    const pn_budget *budget;
} deadlock_question;

/* Is no deadlock reachable? ReachabilityDeadlock as a job of its own on the
 * net reduced for it, within DEADLOCK_SHARE, streaming nothing. */
static bool examine_deadlock_free(void *ctx)
{
    const deadlock_question *q = ctx;
    pn_budget b = pn_budget_share(q->budget, DEADLOCK_SHARE);
    pn_reduced *red = examine_reduce(q->s, q->cn, PN_EXAM_REACH_DEADLOCK, NULL, NULL, &b);
    pn_engine_result res = {.threads = q->s->engine.threads ? q->s->engine.threads : 1};
    pn_check *c = NULL;
    pn_error e = {0};
    job_kind k = {.name = "deadlock"};
    bool free_of = examine_job(q->s, k, red != NULL ? red->cn : q->cn, PN_EXAM_REACH_DEADLOCK,
                               NULL, &b, &c, &res, &e) == PN_OK &&
                   pn_check_answer(c, 0)->verdict == PN_VERDICT_FALSE;
    pn_check_free(c);
    pn_engine_result_free(&res);
    pn_reduced_free(red);
    return free_of;
}

static const pn_fml_set *examine_simplify(const ex_sched *s, const pn_cnet *cn,
                                          const pn_fml_set *set, const pn_budget *budget,
                                          bool ltl, pn_report *r)
{
    const char *logic = ltl ? "LTL" : "CTL";
    uint32_t decided = 0;
    double t0 = pn_clock_now();
    pn_error e = {0};
    pn_linear_opts lo = {.no_smt = s->opts->no_smt};
    deadlock_question q = {.s = s, .cn = cn, .budget = budget};
    pn_simplify_opts so = {.lin = &lo, .verbose = s->verbose, .budget = budget,
                           .share = SIMPLIFY_SHARE,
                           .deadlock_free = ltl ? NULL : examine_deadlock_free,
                           .deadlock_ctx = &q};
    pn_budget_phase(budget, "simplifying the %s formulas", logic);
    pn_status st = ltl ? pn_ltl_simplify(cn, set, &so, &r->simplified, &decided, &e)
                       : pn_ctl_simplify(cn, set, &so, &r->simplified, &decided, &e);
    if (st != PN_OK) {
        if (s->diag != NULL)
            fprintf(s->diag, "petrel: %s simplification: %s\n", logic, e.msg);
        return set;
    }
    if (s->verbose != NULL)
        fprintf(s->verbose, "petrel: %s simplification: %u sub-formulas constant in %.3f s\n",
                logic, decided, pn_clock_now() - t0);
    return r->simplified;
}

/* ---- the driver ---------------------------------------------------------------- */

static pn_status examine_run(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                             const pn_examine_opts *opts, pn_budget *budget, pn_report *r,
                             pn_error *err)
{
    ex_sched s = {.kind = opts->engine, .opts = opts, .engine = opts->explore,
                  .diag = opts->diag, .verbose = opts->verbose ? opts->diag : NULL,
                  .t0 = pn_clock_now(), .plan_of = ex_plan_of};
    if (pn_examine_engine(exam, &s.kind, opts->diag, err) != PN_OK)
        return err->code;
    s.engine.budget = budget;
    s.engine.visitor = NULL;
    s.engine.record_graph = s.engine.keep_states = false;
    if (exam == PN_EXAM_STATE_SPACE)
        return examine_state_space(&s, cn, &r->result, err);
    r->result.threads = s.engine.threads ? s.engine.threads : 1;
    if (exam == PN_EXAM_ONE_SAFE || exam == PN_EXAM_STABLE_MARKING ||
        exam == PN_EXAM_QUASI_LIVENESS || exam == PN_EXAM_LIVENESS)
        return examine_global(&s, cn, exam, budget, r, err);
    /* LTL with traces keeps its formulas: one folded to FALSE would have no
     * counterexample lasso to print. */
    bool ltl = ex_exam_is_ltl(exam);
    if ((ex_exam_is_ctl(exam) || (ltl && !s.engine.keep_parents)) && set != NULL)
        set = examine_simplify(&s, cn, set, budget, ltl, r);
    return examine_formulas(&s, cn, exam, set, budget, r, err);
}

/* One line (diag) on the final answers, what stdout shows: how many were
 * decided, by which MCC techniques (an answer counts once under each of
 * its keywords), and how many print as CANNOT_COMPUTE. The steps' own
 * line (sched.c, "answers by step") counts the joint net's steps only. */
static void examine_summary(FILE *diag, const pn_check *c)
{
    if (diag == NULL || c == NULL)
        return;
    uint32_t decided = 0, by[32] = {0};
    for (uint32_t i = 0; i < pn_check_count(c); i++) {
        const pn_answer *a = pn_check_answer(c, i);
        if (a->verdict == PN_VERDICT_UNKNOWN)
            continue;
        decided++;
        uint32_t t = a->techniques ? a->techniques : PN_TECH_EXPLICIT;
        for (uint32_t bit = 0; bit < 32; bit++)
            by[bit] += (t >> bit) & 1u;
    }
    fprintf(diag, "petrel: answers: %u decided", decided);
    const char *sep = " (";
    for (uint32_t bit = 0; bit < 32; bit++) {
        if (by[bit] == 0)
            continue;
        char word[64];
        pn_mcc_techniques(NULL, NULL, 1u << bit, word, sizeof word);
        fprintf(diag, "%s%u %s", sep, by[bit], word);
        sep = ", ";
    }
    fprintf(diag, "%s, %u CANNOT_COMPUTE\n", decided > 0 ? ")" : "",
            pn_check_count(c) - decided);
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
    r->original = cn;
    pn_status st = examine_run(cn, exam, set, opts, budget, r, err);
    if (st != PN_OK) {
        pn_report_free(r);
        return st;
    }
    examine_summary(opts->diag, r->check);
    *out = r;
    return PN_OK;
}
