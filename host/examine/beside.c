/* Two portfolio steps at once (see beside.h). */
#include "examine/beside.h"

#include <stdlib.h>

#include "examine/otf.h"

pn_status ex_beside_init(ex_beside *b, uint32_t n, pn_error *err)
{
    b->n = n;
    b->gone = calloc((size_t)n + 1, sizeof *b->gone);
    if (b->gone == NULL || pthread_mutex_init(&b->lock, NULL) != 0) {
        free(b->gone);
        b->gone = NULL;
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the steps run side by side");
    }
    return PN_OK;
}

void ex_beside_free(ex_beside *b)
{
    if (b->gone == NULL)
        return;
    pthread_mutex_destroy(&b->lock);
    free(b->gone);
    b->gone = NULL;
}

void ex_beside_lock(ex_beside *b)
{
    if (b != NULL)
        pthread_mutex_lock(&b->lock);
}

void ex_beside_unlock(ex_beside *b)
{
    if (b != NULL)
        pthread_mutex_unlock(&b->lock);
}

bool ex_beside_open(ex_beside *b, const pn_check *c, uint32_t i)
{
    ex_beside_lock(b);
    bool open = pn_check_answer(c, i)->verdict == PN_VERDICT_UNKNOWN;
    ex_beside_unlock(b);
    return open;
}

uint32_t ex_beside_open_count(ex_beside *b, const pn_check *c)
{
    ex_beside_lock(b);
    uint32_t n = ex_open_count(c);
    ex_beside_unlock(b);
    return n;
}

void ex_beside_settled(ex_beside *b, uint32_t i)
{
    if (b != NULL && i < b->n)
        __atomic_store_n(&b->gone[i], 1, __ATOMIC_RELAXED);
}

void ex_beside_watch(const ex_beside *b, uint32_t i, pn_budget *share)
{
    if (b != NULL && i < b->n)
        share->drop = &b->gone[i];
}

void ex_beside_follow(const ex_beside *b, pn_budget *budget)
{
    if (b != NULL)
        budget->drop = &b->gone[b->n];
}

void ex_beside_end(ex_beside *b)
{
    for (uint32_t i = 0; b != NULL && i <= b->n; i++)
        __atomic_store_n(&b->gone[i], 1, __ATOMIC_RELAXED);
}

typedef struct beside_thread {
    void (*fn)(void *);
    void *ctx;
} beside_thread;

static void *beside_main(void *arg)
{
    beside_thread *t = arg;
    t->fn(t->ctx);
    return NULL;
}

/* The decision diagrams recurse two calls per level (up to 4,096 places):
 * the helper thread's stack is reserved large (only what it touches is
 * memory), not left to the default. */
#define BESIDE_STACK (64u << 20)

bool ex_beside_run(ex_beside *b, void (*lead)(void *), void *a, void (*other)(void *), void *c)
{
    beside_thread t = {.fn = other, .ctx = c};
    pthread_t th;
    pthread_attr_t attr;
    bool made = false;
    if (pthread_attr_init(&attr) == 0) {
        made = pthread_attr_setstacksize(&attr, BESIDE_STACK) == 0 &&
               pthread_create(&th, &attr, beside_main, &t) == 0;
        pthread_attr_destroy(&attr);
    }
    lead(a);
    if (!made) {
        other(c);
        return false;
    }
    ex_beside_end(b);
    pthread_join(th, NULL);
    return true;
}
