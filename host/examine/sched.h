/* The scheduler: the one place that decides which technique runs, for how
 * long, on what (sched.c).
 *
 * A job is one set of questions on one net: an examination's formulas on
 * its (reduced) net, one formula on a net reduced for it alone, the
 * reachability leaves of a split, the deadlock question of the CTL
 * simplification, the coloured global properties' formulas. Its answers
 * are a board (pn_check, host/answers/) that every technique reports to.
 * A plan is data: a table of steps, each a technique with its share of the
 * time left when it starts (time a step leaves goes to the steps after it),
 * and whether it runs beside the next one on a second thread. Inside a
 * step, the time of each formula is cut by turns (petrel/turns.h).
 *
 * A technique is one entry of one kind: a name, whether the job has work
 * for it now, what its setup alone costs on this net, and a run within a
 * budget. Adding a technique is adding an entry (ex_tech) and naming it in
 * the plans (plans.c); nothing else changes. */
#ifndef PETREL_EXAMINE_SCHED_H
#define PETREL_EXAMINE_SCHED_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "examine/forest.h"
#include "petrel/examine.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ex_job ex_job;
typedef struct ex_plan ex_plan;

/* What every job of one examination shares: settings chosen once. */
typedef struct ex_sched {
    pn_engine_kind kind;          /* CPU, GPU or GPU_OR_CPU: chosen once */
    const pn_examine_opts *opts;  /* flags (no_por, no_smt, trace, ...) */
    pn_engine_opts engine;        /* opts->explore: engine settings only */
    FILE *diag;                   /* one-line notes; NULL: silent */
    FILE *verbose;                /* -v: a line per step and per answer */
    double t0;                    /* the examination's start */
    /* The plan for a job's questions (plans.c's ex_plan_of): a technique
     * that makes a job of its own (split) asks here. */
    const ex_plan *(*plan_of)(const ex_job *j);
} ex_sched;


typedef struct ex_tech {
    const char *name;
    /* Whether the job has work for it now (open answers of its kind). */
    bool (*applies)(ex_job *j);
    /* Seconds its setup alone takes on this job's net before it can decide
     * anything (an estimate from the net's size, INFINITY where it cannot
     * run on this net at all), *why what that setup is; NULL: nothing worth
     * naming. A step whose setup would not fit its share is skipped. */
    double (*setup_s)(const ex_job *j, const char **why);
    pn_status (*run)(ex_job *j, const pn_budget *b, pn_error *err);
    /* The technique bits that mark the answers it decided when it ran
     * beside another step (0: the answers of the pair are the other's). */
    uint32_t marks;
} ex_tech;

/* With two threads or more, a step and the next can run beside each other,
 * each on its own thread, over the time the two would have had one after
 * the other, each with half of the memory; the one that follows ends when
 * the one that leads does. With one thread: one after the other, in the
 * plan's order. */
typedef enum ex_pair {
    EX_ALONE,
    EX_LEADS,   /* beside the next step, which ends with this one */
    EX_FOLLOWS  /* beside the next step, ending with it */
} ex_pair;

typedef struct ex_step {
    const ex_tech *tech;
    double share;       /* of the time left when the step starts */
    ex_pair pair;
} ex_step;

struct ex_plan {
    const char *name;
    const ex_step *steps;
    uint32_t n;
};

struct ex_job {
    const char *name;          /* in -v lines */
    const ex_sched *s;
    const pn_cnet *cn;
    pn_exam exam;              /* the class of its questions: its plan */
    const pn_fml_set *set;     /* NULL: a global property */
    pn_check *c;               /* its answers */
    pn_engine_result *res;     /* the statistics of its explorations */
    const pn_budget *budget;   /* the whole job's, while ex_sched_run runs */
    /* The examination's own job in an MPI job (opts->dist): its
     * first exploration runs on every rank. */
    bool dist_top;
    /* One line per step and the summary of who decided what (-v), and
     * one note per answer a checker could not give (diag). */
    bool report;
    /* What one step leaves the next. Two steps beside each other write
     * disjoint fields (the explicit steps res and finished, the decision
     * diagrams forest). */
    bool finished;             /* pn_check_finish ran after an exploration */
    bool graph_tried;          /* the graph step ran: res holds its figures */
    ex_sym_forest forest;      /* the decision diagrams' */
    uint8_t *target;           /* per answer: a reachability target at the start */
    const char **by;           /* per answer: the step that decided it */
    double *at;                /* per answer: when, from the examination's start */
    int lead_ended;            /* of two steps beside each other */
};

/* A job over c's answers (its formulas set, NULL for a global property) on
 * cn; res gets the statistics (its threads: the engine's). */
pn_status ex_job_init(ex_job *j, const ex_sched *s, const char *name, const pn_cnet *cn,
                      pn_exam exam, const pn_fml_set *set, pn_check *c, pn_engine_result *res,
                      pn_error *err);
void ex_job_free(ex_job *j);

/* The plan's steps on j within budget (may be NULL: no deadline), until no
 * answer is open. */
pn_status ex_sched_run(ex_job *j, const ex_plan *plan, const pn_budget *budget, pn_error *err);

/* ---- what the techniques share --------------------------------------------- */

/* Open answers of j that no witness decides (CTL beyond E F / A G,
 * Liveness), and the open reachability targets. */
bool ex_job_open_others(ex_job *j);
uint32_t ex_job_open_targets(ex_job *j);
/* Whether j's answers need the state graph (or the LTL product). */
bool ex_job_uses_graph(const ex_job *j);
bool ex_exam_is_ltl(pn_exam e);
bool ex_exam_is_ctl(pn_exam e);
/* A formula the reader could not bind: it already said why (once). */
bool ex_unbound(const pn_fml_set *set, uint32_t i);

/* An exploration on the examination's engine (the GPU evaluates the
 * check's items itself where eo's visitor is the check's own); a failed
 * GPU run is redone on the CPU under GPU_OR_CPU. */
pn_status ex_explore(ex_job *j, pn_engine_opts *eo, pn_error *err);
/* The same, on every rank of an MPI job for the examination's first. */
pn_status ex_explore_first(ex_job *j, pn_engine_opts *eo, pn_error *err);
/* The check's visitor on every state, never stopping (a graph exploration
 * must go on for the formulas a witness cannot decide). */
typedef struct ex_see_all {
    pn_visitor inner, all;
} ex_see_all;
const pn_visitor *ex_see_all_of(ex_see_all *v, pn_check *c);
/* The open answers of j on the recorded graph in res (complete), each in
 * its turn within budget; the graph and states charged meanwhile. */
void ex_on_graph(ex_job *j, const pn_budget *budget);

#ifdef __cplusplus
}
#endif
#endif
