/* The scheduler (see sched.h): a job's plan run step by step, each step
 * within its share of the time left, two steps beside each other on two
 * threads where the plan says so, and per step one -v line (its planned
 * and used time, what it decided). The steps beside each other follow
 * TAPAAL's parallel portfolio (its strategies run side by side, each with
 * the whole budget) and ITS-Tools' (its engines run as separate processes,
 * the first answer wins): the local CTL checker and the LTL product use one
 * worker each (more was a loss: git history of docs/benchmarks.md), the
 * decision diagrams one, so run in turn each had a part of the time and a
 * second core stood idle; beside each other both have all of it. */
#include "examine/sched.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "petrel/dist.h"

bool ex_exam_is_ltl(pn_exam e)
{
    return e == PN_EXAM_LTL_CARDINALITY || e == PN_EXAM_LTL_FIREABILITY;
}

bool ex_exam_is_ctl(pn_exam e)
{
    return e == PN_EXAM_CTL_CARDINALITY || e == PN_EXAM_CTL_FIREABILITY;
}

bool ex_unbound(const pn_fml_set *set, uint32_t i)
{
    return set != NULL && (set->props[i].status != PN_OK || set->props[i].root == NULL);
}

bool ex_job_uses_graph(const ex_job *j)
{
    return (ex_exam_is_ctl(j->exam) || j->exam == PN_EXAM_LIVENESS || ex_exam_is_ltl(j->exam)) &&
           pn_check_needs_graph(j->c);
}

static bool job_is_target(const pn_check *c, uint32_t i)
{
    const pn_fml_node *phi;
    const uint32_t *places;
    uint32_t np;
    return pn_check_target_of(c, i, &phi, &places, &np) != PN_TARGET_NONE;
}

uint32_t ex_job_open_targets(ex_job *j)
{
    uint32_t n = 0;
    pn_check_lock(j->c);
    for (uint32_t i = 0; i < pn_check_count(j->c); i++)
        n += job_is_target(j->c, i);
    pn_check_unlock(j->c);
    return n;
}

bool ex_job_open_others(ex_job *j)
{
    bool any = false;
    pn_check_lock(j->c);
    for (uint32_t i = 0; i < pn_check_count(j->c) && !any; i++)
        any = !j->target[i] && pn_check_answer(j->c, i)->verdict == PN_VERDICT_UNKNOWN;
    pn_check_unlock(j->c);
    return any;
}

pn_status ex_job_init(ex_job *j, const ex_sched *s, const char *name, const pn_cnet *cn,
                      pn_exam exam, const pn_fml_set *set, pn_check *c, pn_engine_result *res,
                      pn_error *err)
{
    uint32_t n = pn_check_count(c);
    *j = (ex_job){.name = name, .s = s, .cn = cn, .exam = exam, .set = set, .c = c,
                  .res = res};
    j->target = calloc((size_t)n + 1, 1);
    j->by = calloc((size_t)n + 1, sizeof *j->by);
    j->at = calloc((size_t)n + 1, sizeof *j->at);
    if (j->target == NULL || j->by == NULL || j->at == NULL) {
        ex_job_free(j);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the examination");
    }
    for (uint32_t i = 0; i < n; i++)
        j->target[i] = job_is_target(c, i);
    return PN_OK;
}

void ex_job_free(ex_job *j)
{
    ex_sym_forest_free(&j->forest);
    free(j->target);
    free(j->by);
    free(j->at);
    j->target = NULL;
    j->by = NULL;
    j->at = NULL;
}

/* ---- credits and lines ------------------------------------------------------ */

/* The answers a job has when its steps start: decided by the formulas'
 * simplification or the net's reductions (a formula made constant). A
 * name in the "answers by step" line, never a step of a plan. */
static const ex_tech sched_before = {.name = "simplification"};

/* Credits `step` with the answers decided since the last call. With two
 * steps beside each other (`other` not NULL), answers carrying the
 * technique bits that mark other's go to other. */
static void sched_credit(ex_job *j, const ex_tech *step, const ex_tech *other, uint32_t n[2])
{
    double t = pn_clock_now() - j->s->t0;
    n[0] = n[1] = 0;
    pn_check_lock(j->c);
    for (uint32_t i = 0; i < pn_check_count(j->c); i++) {
        if (j->by[i] != NULL)
            continue;
        const pn_answer *a = pn_check_answer(j->c, i);
        if (a->verdict == PN_VERDICT_UNKNOWN)
            continue;
        bool others = other != NULL && (a->techniques & other->marks) != 0;
        j->by[i] = others ? other->name : step->name;
        j->at[i] = t;
        n[others]++;
    }
    pn_check_unlock(j->c);
}

static void sched_line(const ex_job *j, const char *name, double planned, double used,
                       uint32_t decided, const char *note)
{
    FILE *v = j->s->verbose;
    if (v == NULL)
        return;
    /* the examination's own job unnamed, the others (split's leaves, a
     * formula's own net, ...) by name */
    char who[96] = "";
    if (!j->report)
        snprintf(who, sizeof who, " (%s)", j->name);
    if (note != NULL) {
        fprintf(v, "petrel: step %s%s: skipped (%s)\n", name, who, note);
        return;
    }
    char plan[32];
    if (planned < 1e29)
        snprintf(plan, sizeof plan, "%.3f s", planned);
    else
        snprintf(plan, sizeof plan, "no deadline");
    fprintf(v, "petrel: step %s%s: %s planned, %.3f s used, %u decided, %u open\n", name, who,
            plan, used, decided, pn_check_open_count(j->c));
}

/* -v: per answer the step that decided it and when; always (diag): one
 * line counting the answers each step of the plan decided, in its order
 * (tools and tests read it by name). A step decides by its own means: the
 * linear step's guided walk prints RANDOM_WALK and counts as linear; the
 * final "answers:" line (examine.c) counts by MCC technique. */
static void sched_report(const ex_job *j, const ex_plan *plan)
{
    if (j->s->diag == NULL || !j->report)
        return;
    uint32_t unknown = 0;
    for (uint32_t i = 0; i < pn_check_count(j->c); i++) {
        const pn_answer *a = pn_check_answer(j->c, i);
        unknown += a->verdict == PN_VERDICT_UNKNOWN;
        if (j->s->verbose != NULL)
            fprintf(j->s->verbose, "petrel: %s: %s by %s at %.3f s\n", a->id,
                    a->verdict == PN_VERDICT_UNKNOWN ? "unknown" : "decided",
                    j->by[i] != NULL ? j->by[i] : "nothing", j->at[i]);
    }
    fprintf(j->s->diag, "petrel: answers by step:");
    uint32_t simplified = 0;
    for (uint32_t i = 0; i < pn_check_count(j->c); i++)
        simplified += j->by[i] == sched_before.name;
    fprintf(j->s->diag, " %u %s,", simplified, sched_before.name);
    for (uint32_t k = 0; k < plan->n; k++) {
        const char *name = plan->steps[k].tech->name;
        bool again = false;
        for (uint32_t e = 0; e < k && !again; e++)
            again = plan->steps[e].tech == plan->steps[k].tech;
        uint32_t n = 0;
        for (uint32_t i = 0; i < pn_check_count(j->c) && !again; i++)
            n += j->by[i] == name && pn_check_answer(j->c, i)->verdict != PN_VERDICT_UNKNOWN;
        if (!again)
            fprintf(j->s->diag, " %u %s,", n, name);
    }
    fprintf(j->s->diag, " %u unknown\n", unknown);
}

/* ---- one step ---------------------------------------------------------------- */

/* Says which step runs now (phase.h), with the job's name where it is not
 * the examination's own (a split's leaf, a formula's own net). */
static void sched_phase(const ex_job *j, const pn_budget *b, const char *step, const char *beside)
{
    pn_budget_phase(b, "step %s%s%s%s%s%s", step, beside != NULL ? " beside " : "",
                    beside != NULL ? beside : "", j->report ? "" : " (", j->report ? "" : j->name,
                    j->report ? "" : ")");
}

/* Why step s is not run now (NULL: it is): nothing for it, or its setup
 * alone would take more than its share `planned`. */
static const char *sched_skip(ex_job *j, const ex_tech *t, double planned, char *why,
                              size_t len)
{
    if (!t->applies(j))
        return "nothing for it";
    if (planned <= 0)
        return "no time left";
    const char *what = "its setup";
    double setup = t->setup_s != NULL ? t->setup_s(j, &what) : 0;
    if (isinf(setup))
        return what;
    if (setup > planned) {
        snprintf(why, len, "%s takes about %.3g s on this net, its share is %.3g s", what, setup,
                 planned);
        return why;
    }
    return NULL;
}

static pn_status sched_step(ex_job *j, const ex_step *s, const pn_budget *budget,
                            pn_error *err)
{
    double planned = pn_budget_left_s(budget) * s->share;
    char why[160];
    const char *skip = sched_skip(j, s->tech, planned, why, sizeof why);
    if (skip != NULL) {
        sched_line(j, s->tech->name, planned, 0, 0, skip);
        return PN_OK;
    }
    pn_budget b = pn_budget_share(budget, s->share);
    sched_phase(j, &b, s->tech->name, NULL);
    double t0 = pn_clock_now();
    pn_status st = s->tech->run(j, &b, err);
    uint32_t decided[2];
    sched_credit(j, s->tech, NULL, decided);
    sched_line(j, s->tech->name, planned, pn_clock_now() - t0, decided[0], NULL);
    return st;
}

/* ---- two steps beside each other -------------------------------------------- */

typedef struct sched_side {
    ex_job *j;
    const ex_tech *tech;
    pn_budget budget;
    pn_status st;
    pn_error err;
    double seconds;
} sched_side;

static void *sched_side_main(void *arg)
{
    sched_side *s = arg;
    double t0 = pn_clock_now();
    s->st = s->tech->run(s->j, &s->budget, &s->err);
    s->seconds = pn_clock_now() - t0;
    return NULL;
}

/* The decision diagrams recurse a few calls per level (up to 4,096 places
 * on the caller's stack; wider forests make a thread of their own,
 * sys/deep.h): the second thread's stack is reserved large (only what it
 * touches is memory), not left to the default. */
#define SCHED_STACK (64u << 20)

/* lead on this thread, other on a new one; other's budget ends when lead
 * returns (j->lead_ended). No thread: other runs after lead. */
static void sched_two(ex_job *j, sched_side *lead, sched_side *other)
{
    pthread_t th;
    pthread_attr_t attr;
    bool made = false;
    if (pthread_attr_init(&attr) == 0) {
        made = pthread_attr_setstacksize(&attr, SCHED_STACK) == 0 &&
               pthread_create(&th, &attr, sched_side_main, other) == 0;
        pthread_attr_destroy(&attr);
    }
    sched_side_main(lead);
    __atomic_store_n(&j->lead_ended, 1, __ATOMIC_RELEASE);
    if (made)
        pthread_join(th, NULL);
    else
        sched_side_main(other);
}

/* Steps a and b over the time they would have had in turn,
 * 1 - (1 - a's share)(1 - b's), each with half of the memory left; the
 * one that follows (the decision diagrams, in the plans) ends when the
 * other leads ends (its end is the graph's turn, or the deadline). */
static pn_status sched_pair(ex_job *j, const ex_step *a, const ex_step *b,
                            const pn_budget *budget, pn_error *err)
{
    const ex_step *lead = a->pair == EX_LEADS ? a : b;
    const ex_step *other = lead == a ? b : a;
    double share = 1.0 - (1.0 - a->share) * (1.0 - b->share);
    double planned = pn_budget_left_s(budget) * share;
    char why[2][160];
    const char *skip[2] = {sched_skip(j, lead->tech, planned, why[0], sizeof why[0]),
                           sched_skip(j, other->tech, planned, why[1], sizeof why[1])};
    if (skip[0] != NULL || skip[1] != NULL) { /* what is left runs alone */
        const ex_step *s[2] = {lead, other};
        for (int k = 0; k < 2; k++) {
            ex_step alone = {s[k]->tech, share, EX_ALONE};
            pn_status st = skip[k] != NULL ? PN_OK : sched_step(j, &alone, budget, err);
            if (skip[k] != NULL)
                sched_line(j, s[k]->tech->name, planned, 0, 0, skip[k]);
            if (st != PN_OK)
                return st;
        }
        return PN_OK;
    }
    pn_budget both = pn_budget_share(budget, share);
    uint64_t memory = pn_budget_memory(&both);
    sched_side side[2] = {{.j = j, .tech = lead->tech, .budget = both},
                          {.j = j, .tech = other->tech, .budget = both}};
    if (memory != 0) {
        side[0].budget.memory = memory - memory / 2;
        side[1].budget.memory = memory / 2;
    }
    j->lead_ended = 0;
    side[1].budget.stop = &j->lead_ended;
    sched_phase(j, &both, lead->tech->name, other->tech->name);
    sched_two(j, &side[0], &side[1]);
    uint32_t decided[2];
    sched_credit(j, lead->tech, other->tech, decided);
    for (int k = 0; k < 2; k++)
        sched_line(j, side[k].tech->name, planned, side[k].seconds, decided[k], NULL);
    int bad = side[0].st != PN_OK ? 0 : side[1].st != PN_OK ? 1 : -1;
    if (bad >= 0)
        *err = side[bad].err;
    return bad >= 0 ? side[bad].st : PN_OK;
}

/* ---- the plan ------------------------------------------------------------------ */

/* A rank other than 0 of an MPI job: rank 0 runs the steps; this one waits
 * for its command and joins the exploration it starts. */
static pn_status sched_follow(ex_job *j, const pn_budget *budget, pn_error *err)
{
    pn_dist *dist = j->s->opts->dist;
    if (!pn_dist_command(dist, false, j->cn, j->c))
        return PN_OK;
    pn_engine_opts eo = j->s->engine;
    eo.budget = budget;
    eo.visitor = pn_check_visitor(j->c);
    eo.record_graph = eo.keep_states = false;
    pn_status st = pn_dist_explore(dist, j->cn, &eo, j->c, j->res, err);
    pn_check_finish(j->c, st == PN_OK ? j->res : NULL);
    return st;
}

pn_status ex_sched_run(ex_job *j, const ex_plan *plan, const pn_budget *budget, pn_error *err)
{
    pn_dist *dist = j->s->opts->dist;
    if (j->dist_top && pn_dist_rank(dist) != 0)
        return sched_follow(j, budget, err);
    bool two = j->s->engine.threads >= 2;
    pn_status st = PN_OK;
    j->budget = budget;
    /* What is decided before the first step (a formula the simplification
     * or the reductions made constant) is theirs, not the first step's. */
    uint32_t before[2];
    sched_credit(j, &sched_before, NULL, before);
    /* A complete exploration (the probe's) writes every answer: the steps
     * after it would only look again at targets already final. */
    for (uint32_t k = 0; st == PN_OK && k < plan->n && pn_check_open_count(j->c) > 0; k++) {
        const ex_step *s = &plan->steps[k];
        if (s->pair != EX_ALONE && k + 1 < plan->n && two) {
            st = sched_pair(j, s, &plan->steps[k + 1], budget, err);
            k++;
        } else {
            st = sched_step(j, s, budget, err);
        }
    }
    if (st == PN_OK)
        sched_report(j, plan);
    if (j->dist_top) /* no exploration for the other ranks: release them */
        pn_dist_command(dist, false, NULL, NULL);
    j->budget = NULL;
    return st;
}
