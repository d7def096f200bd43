/* The CLI's progress thread (see ticker.h). It sleeps on a condition
 * variable on CLOCK_MONOTONIC, the project's one clock, so that stopping
 * it is immediate and a wall-clock jump changes nothing. */
#include "ticker.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "petrel/budget.h"

struct cli_ticker {
    pn_phase *phase;
    double t0, interval;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    double last; /* when the last line was printed (under lock) */
    bool others; /* and it was someone else's (under lock) */
    bool stop;   /* under lock */
    pthread_t thread;
};

/* When the next line is due (under lock): an interval after the last
 * line, half an interval more after another's (the exploration's, on its
 * own clock of the same interval): the two never print side by side; the
 * ticker fills the silences only. */
static double ticker_due(const cli_ticker *t)
{
    return t->last + t->interval * (t->others ? 1.5 : 1.0);
}

static void *ticker_main(void *arg)
{
    cli_ticker *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->stop) {
        struct timespec until = pn_clock_timespec(ticker_due(t));
        pthread_cond_timedwait(&t->wake, &t->lock, &until);
        double now = pn_clock_now();
        if (t->stop || now < ticker_due(t))
            continue;
        t->last = now;
        t->others = false;
        pthread_mutex_unlock(&t->lock);
        char name[400];
        double since = pn_phase_get(t->phase, name, sizeof name);
        fprintf(stderr, "petrel: %.1f s: %s (for %.1f s)\n", now - t->t0,
                name[0] != '\0' ? name : "starting", since);
        pthread_mutex_lock(&t->lock);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

cli_ticker *cli_ticker_start(double t0, double interval_s)
{
    cli_ticker *t = calloc(1, sizeof *t);
    if (t == NULL)
        return NULL;
    t->t0 = t0;
    t->interval = interval_s;
    t->last = pn_clock_now();
    t->phase = pn_phase_new();
    pthread_condattr_t attr;
    bool cond = false, lock = pthread_mutex_init(&t->lock, NULL) == 0;
    if (pthread_condattr_init(&attr) == 0) {
        cond = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
               pthread_cond_init(&t->wake, &attr) == 0;
        pthread_condattr_destroy(&attr);
    }
    if (t->phase != NULL && lock && cond && pthread_create(&t->thread, NULL, ticker_main, t) == 0)
        return t;
    if (cond)
        pthread_cond_destroy(&t->wake);
    if (lock)
        pthread_mutex_destroy(&t->lock);
    pn_phase_free(t->phase);
    free(t);
    return NULL;
}

pn_phase *cli_ticker_phase(cli_ticker *t)
{
    return t != NULL ? t->phase : NULL;
}

void cli_ticker_said(cli_ticker *t)
{
    if (t == NULL)
        return;
    double now = pn_clock_now();
    pthread_mutex_lock(&t->lock);
    t->last = now;
    t->others = true;
    pthread_mutex_unlock(&t->lock);
}

void cli_ticker_stop(cli_ticker *t)
{
    if (t == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    t->stop = true;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    pthread_cond_destroy(&t->wake);
    pthread_mutex_destroy(&t->lock);
    pn_phase_free(t->phase);
    free(t);
}
