/* Formulas one by one on the fly, in passes, on several workers: a
 * portfolio over the formulas in the manner of TAPAAL's parallel query
 * processing (the formulas of an examination are independent problems;
 * a worker takes the next open one). The time of each turn is the turns'
 * (petrel/turns.h, PN_TURNS_GROWING): a quarter of an equal share, an
 * equal share, then everything left, or turns that grow without a
 * deadline. A formula that runs
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

#include "petrel/turns.h"

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
    pn_turns *turns;
    uint64_t states, edges;
} passes;

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
        pn_budget share;
        pthread_mutex_lock(&p->lock);
        bool go = z != NULL && pn_turns_next(p->turns, &i, &share, &pass);
        pthread_mutex_unlock(&p->lock);
        if (!go)
            break;
        pn_budget_detail(&share, "formula %u of %u (pass %d)", i + 1, p->n, pass);
        pn_error e = {0};
        double t1 = pn_clock_now();
        pn_status st = p->ops->check(p->ctx, worker, z, i, &share, pass, &e);
        pthread_mutex_lock(&p->lock);
        pn_turns_end(p->turns, i);
        if (!p->ops->commit(p->ctx, worker, z, i, pass, st, &e, pn_clock_now() - t1))
            pn_turns_stop(p->turns);
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
    passes_thread *th = calloc(workers, sizeof *th);
    if (th == NULL || pthread_mutex_init(&p.lock, NULL) != 0) {
        free(th);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the on-the-fly checks");
    }
    pn_status st = pn_turns_new(budget, n, workers, PN_TURNS_GROWING, ops->open, ctx, &p.turns,
                                err);
    pn_lazy *z0 = st == PN_OK ? passes_space(&p, err) : NULL;
    st = st != PN_OK || z0 != NULL ? st : err->code;
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
    pn_turns_free(p.turns);
    free(th);
    return st;
}
