/* Formulas one by one on the fly, in passes, on several workers: a
 * portfolio over the formulas in the manner of TAPAAL's parallel query
 * processing (the formulas of an examination are independent problems;
 * a worker takes the next open one). Time shares per pass: a quarter of an
 * equal share of what is left in the first (most formulas are decided in
 * milliseconds: the hard ones should not wait behind each other), an equal
 * share in the second, everything left in the third; with w workers a
 * share is w times as long, as w formulas run at once. A formula that runs
 * out starts again from scratch in the next pass, but the net states its
 * worker found stay cached in that worker's space. Each worker owns its
 * space (no locking on the hot path; the price is states found twice);
 * the spaces share one memory account (pn_lazy_pool), so that a formula
 * that needs most of the memory can have it while the others need little;
 * a space that runs out of memory is dropped and made again. */
#include "examine/passes.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct passes {
    const pn_cnet *cn;
    const pn_budget *budget;
    const ex_passes_ops *ops;
    void *ctx;
    uint32_t n, workers;
    uint64_t memory;    /* the whole budget's; 0: unlimited */
    pn_lazy_pool pool;  /* the workers' spaces share it */
    pthread_mutex_t lock;
    /* under lock */
    uint8_t *running;   /* per formula */
    uint8_t *next_pass; /* per formula: the pass of its next turn; 3: no more */
    bool stop;
    uint64_t states, edges;
} passes;

/* Under lock: the next turn, the open formula with the earliest pass (the
 * lowest index among them), and its share of the time left: a formula
 * still running when the others' next pass is handed out gets that pass
 * when it comes back, so each formula has its turn in every pass. False
 * when no turn is left for this worker. */
static bool passes_claim(passes *p, uint32_t *i, int *pass, double *fraction)
{
    if (p->stop || pn_budget_expired(p->budget))
        return false;
    uint32_t best = p->n, left = 0;
    for (uint32_t k = 0; k < p->n; k++) {
        if (p->running[k] || p->next_pass[k] > 2)
            continue;
        if (!p->ops->open(p->ctx, k)) {
            p->next_pass[k] = 3;
            continue;
        }
        if (best == p->n || p->next_pass[k] < p->next_pass[best]) {
            best = k;
            left = 0;
        }
        left += p->next_pass[k] == p->next_pass[best];
    }
    if (best == p->n)
        return false;
    *i = best;
    *pass = p->next_pass[best];
    double f = *pass == 2 ? 1.0 : (double)p->workers / left / (*pass == 0 ? 4 : 1);
    *fraction = f < 1.0 ? f : 1.0;
    p->running[best] = 1;
    p->next_pass[best]++;
    return true;
}

static void passes_note_space(passes *p, const pn_lazy *z)
{
    if (z != NULL && pn_lazy_states(z) > p->states) {
        p->states = pn_lazy_states(z);
        p->edges = pn_lazy_edges(z);
    }
}

static pn_lazy *passes_space(passes *p, pn_error *err)
{
    pn_lazy *z = NULL;
    if (pn_lazy_new(p->cn, p->memory, &z, err) != PN_OK)
        return NULL;
    pn_lazy_join_pool(z, &p->pool);
    return z;
}

static bool passes_out_of_memory(pn_status st)
{
    return st == PN_ERR_NOMEM || st == PN_ERR_OUT_OF_MEMORY;
}

static void passes_work(passes *p, uint32_t worker, pn_lazy *z)
{
    for (;;) {
        uint32_t i = 0;
        int pass = 0;
        double fraction = 1.0;
        pthread_mutex_lock(&p->lock);
        bool go = z != NULL && passes_claim(p, &i, &pass, &fraction);
        pthread_mutex_unlock(&p->lock);
        if (!go)
            break;
        pn_budget share = pn_budget_share(p->budget, fraction);
        pn_error e = {0};
        double t1 = pn_clock_now();
        pn_status st = p->ops->check(p->ctx, worker, z, i, &share, pass, &e);
        pthread_mutex_lock(&p->lock);
        p->running[i] = 0;
        if (!p->ops->commit(p->ctx, worker, z, i, pass, st, &e, pn_clock_now() - t1))
            p->stop = true;
        passes_note_space(p, z);
        pthread_mutex_unlock(&p->lock);
        if (passes_out_of_memory(st)) {
            pn_lazy_free(z);
            pn_error_clear(&e);
            z = passes_space(p, &e);
        }
    }
    pn_lazy_free(z);
}

typedef struct passes_thread {
    passes *p;
    uint32_t worker;
    pthread_t thread;
} passes_thread;

static void *passes_thread_main(void *arg)
{
    passes_thread *t = arg;
    pn_error e = {0};
    passes_work(t->p, t->worker, passes_space(t->p, &e));
    return NULL;
}

pn_status ex_passes_run(const pn_cnet *cn, const pn_budget *budget, uint32_t n,
                        uint32_t workers, const ex_passes_ops *ops, void *ctx,
                        ex_passes_stats *stats, pn_error *err)
{
    workers = workers == 0 ? 1 : workers;
    uint64_t memory = pn_budget_memory(budget);
    passes p = {.cn = cn, .budget = budget, .ops = ops, .ctx = ctx, .n = n,
                .workers = workers, .memory = memory, .pool = {.cap = memory}};
    bool timed = budget != NULL && budget->deadline > 0;
    p.running = calloc((size_t)n + 1, 1);
    p.next_pass = malloc((size_t)n + 1);
    passes_thread *th = calloc(workers, sizeof *th);
    if (p.running == NULL || p.next_pass == NULL || th == NULL ||
        pthread_mutex_init(&p.lock, NULL) != 0) {
        free(p.running);
        free(p.next_pass);
        free(th);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the on-the-fly checks");
    }
    memset(p.next_pass, timed ? 0 : 2, (size_t)n + 1);
    pn_lazy *z0 = passes_space(&p, err);
    pn_status st = z0 != NULL ? PN_OK : err->code;
    uint32_t started = 1;
    for (; z0 != NULL && started < workers; started++) {
        th[started] = (passes_thread){.p = &p, .worker = started};
        if (pthread_create(&th[started].thread, NULL, passes_thread_main, &th[started]) != 0)
            break;
    }
    if (z0 != NULL)
        passes_work(&p, 0, z0);
    for (uint32_t k = 1; z0 != NULL && k < started; k++)
        pthread_join(th[k].thread, NULL);
    if (stats != NULL)
        *stats = (ex_passes_stats){.states = p.states, .edges = p.edges,
                                   .workers = z0 != NULL ? started : 0};
    pthread_mutex_destroy(&p.lock);
    free(p.running);
    free(p.next_pass);
    free(th);
    return st;
}
