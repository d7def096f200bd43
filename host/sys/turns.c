/* Turns of a budget's time among the tasks of a step (see turns.h). */
#include "petrel/turns.h"

#include <stdlib.h>

/* PN_TURNS_GROWING with a deadline: the pass that gets all the time left. */
#define TURNS_LAST_TIMED 2
/* Without a deadline turns grow fourfold per pass; past this pass they no
 * longer grow (4^24 s is beyond any run). */
#define TURNS_GROWTH_CAP 24

struct pn_turns {
    const pn_budget *budget;
    uint32_t n, workers;
    pn_turns_policy policy;
    bool timed, stopped;
    pn_turns_open open;
    void *ctx;
    uint8_t *running; /* per task */
    int *next_pass;   /* per task: the pass of its next turn; -1: closed */
};

pn_status pn_turns_new(const pn_budget *budget, uint32_t n, uint32_t workers,
                       pn_turns_policy policy, pn_turns_open open, void *ctx, pn_turns **out,
                       pn_error *err)
{
    *out = NULL;
    pn_turns *t = calloc(1, sizeof *t);
    if (t != NULL) {
        t->running = calloc((size_t)n + 1, 1);
        t->next_pass = calloc((size_t)n + 1, sizeof *t->next_pass);
    }
    if (t == NULL || t->running == NULL || t->next_pass == NULL) {
        pn_turns_free(t);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the turns of %u tasks", n);
    }
    t->budget = budget;
    t->n = n;
    t->workers = workers ? workers : 1;
    t->policy = policy;
    t->timed = budget != NULL && budget->deadline > 0;
    t->open = open;
    t->ctx = ctx;
    *out = t;
    return PN_OK;
}

void pn_turns_free(pn_turns *t)
{
    if (t == NULL)
        return;
    free(t->running);
    free(t->next_pass);
    free(t);
}

/* The pass after which a task has no turn left. */
static int turns_last_pass(const pn_turns *t)
{
    if (t->policy == PN_TURNS_ONCE)
        return 0;
    return t->timed ? TURNS_LAST_TIMED : INT32_MAX;
}

/* The share of the time left for a turn in `pass`, `left` tasks (this one
 * included) waiting for a turn in that pass. */
static pn_budget turns_share(const pn_turns *t, int pass, uint32_t left)
{
    pn_budget share = pn_budget_share(t->budget, 1.0);
    if (!t->timed) {
        if (t->policy == PN_TURNS_GROWING) {
            double slice = PN_TURNS_FIRST_S;
            for (int k = 0; k < pass && k < TURNS_GROWTH_CAP; k++)
                slice *= 4;
            share.deadline = pn_clock_now() + slice;
        }
        return share;
    }
    double f = (double)t->workers / (left ? left : 1);
    if (t->policy == PN_TURNS_GROWING)
        f = pass >= TURNS_LAST_TIMED ? 1.0 : pass == 0 ? f / 4 : f;
    return pn_budget_share(t->budget, f < 1.0 ? f : 1.0);
}

bool pn_turns_next(pn_turns *t, uint32_t *i, pn_budget *share, int *pass)
{
    if (t->stopped || pn_budget_expired(t->budget))
        return false;
    uint32_t best = t->n, left = 0;
    int last = turns_last_pass(t);
    for (uint32_t k = 0; k < t->n; k++) {
        if (t->running[k] || t->next_pass[k] < 0 || t->next_pass[k] > last)
            continue;
        if (!t->open(t->ctx, k)) {
            t->next_pass[k] = -1;
            continue;
        }
        if (best == t->n || t->next_pass[k] < t->next_pass[best]) {
            best = k;
            left = 0;
        }
        left += t->next_pass[k] == t->next_pass[best];
    }
    if (best == t->n)
        return false;
    *i = best;
    *pass = t->next_pass[best];
    *share = turns_share(t, *pass, left);
    t->running[best] = 1;
    t->next_pass[best]++;
    return true;
}

void pn_turns_end(pn_turns *t, uint32_t i)
{
    if (i < t->n)
        t->running[i] = 0;
}

void pn_turns_stop(pn_turns *t)
{
    t->stopped = true;
}
