/* Streamed MCC answers and the watchdog that keeps the deadline (see
 * stream.h). The signals are taken synchronously (sigtimedwait in the
 * watchdog thread, blocked everywhere else), so no code runs in a signal
 * handler; the watchdog ends the process with _exit() while holding the
 * output lock, so no line can follow its CANNOT_COMPUTE ones. */
#include "stream.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "petrel/budget.h"
#include "petrel/mcc.h"

/* Past the deadline, the cooperative path (which polls the budget and then
 * prints) gets this long before the watchdog prints for it. */
#define STREAM_GRACE_S 0.5
#define STREAM_WAIT_MAX_S 86400.0

struct cli_stream {
    pthread_mutex_t lock;
    FILE *out;
    const pn_budget *budget; /* the run's: its deadline; NULL: signals only */
    char **ids;          /* NULL: one bare CANNOT_COMPUTE answer */
    uint32_t n;
    uint8_t *printed;    /* per answer; printed[0] for the bare one */
    uint8_t bare_printed;
    bool closed;
    const pn_net *net;
    uint32_t threads;
    const uint32_t *slot; /* check index -> answer; NULL: the same */
    bool watching;
    pthread_t watchdog;
};

void cli_stream_block_signals(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static void stream_unblock_signals(void)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/* Under the lock: every open answer as CANNOT_COMPUTE. */
static void stream_print_open(cli_stream *s)
{
    if (s->closed)
        return;
    if (s->ids == NULL && !s->bare_printed)
        fputs("CANNOT_COMPUTE\n", s->out);
    for (uint32_t i = 0; s->ids != NULL && i < s->n; i++)
        if (!s->printed[i])
            pn_mcc_print_formula(s->out, s->ids[i], NULL, NULL);
    s->closed = true;
    fflush(s->out);
}

static void stream_fire(cli_stream *s)
{
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
    pthread_mutex_lock(&s->lock);
    stream_print_open(s);
    if (ferror(s->out)) {
        static const char msg[] = "petrel: cannot write the answers\n";
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(1);
    }
    _exit(0);
}

static void *stream_watch(void *arg)
{
    cli_stream *s = arg;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGUSR1);
    double deadline = s->budget != NULL ? s->budget->deadline : 0;
    for (;;) {
        if (deadline <= 0) {
            int sig = 0;
            if (sigwait(&set, &sig) == 0 && sig == SIGUSR1)
                return NULL;
            if (sig != 0)
                stream_fire(s);
            continue;
        }
        double left = deadline + STREAM_GRACE_S - pn_clock_now();
        if (left <= 0)
            stream_fire(s);
        /* Waits of at most a day: a far deadline must not overflow time_t
         * (sigtimedwait would fail at once, and this loop would spin). */
        if (!(left <= STREAM_WAIT_MAX_S))
            left = STREAM_WAIT_MAX_S;
        if (left < 0.001)
            left = 0.001;
        struct timespec ts = pn_clock_timespec(left);
        int sig = sigtimedwait(&set, NULL, &ts);
        if (sig == SIGUSR1)
            return NULL;
        if (sig > 0)
            stream_fire(s);
    }
    return NULL;
}

cli_stream *cli_stream_new(FILE *out, const pn_budget *budget)
{
    cli_stream *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->out = out;
    s->budget = budget;
    s->threads = 1;
    pthread_mutex_init(&s->lock, NULL);
    s->watching = pthread_create(&s->watchdog, NULL, stream_watch, s) == 0;
    if (!s->watching)
        stream_unblock_signals();
    return s;
}

void cli_stream_free(cli_stream *s)
{
    if (s == NULL)
        return;
    if (s->watching) {
        /* SIGUSR1 (blocked everywhere, waited for by the watchdog) asks it to
         * return: pthread_cancel of a thread in sigtimedwait crashes under
         * qemu -cpu SandyBridge (check-sandybridge). */
        pthread_kill(s->watchdog, SIGUSR1);
        pthread_join(s->watchdog, NULL);
    }
    for (uint32_t i = 0; s->ids != NULL && i < s->n; i++)
        free(s->ids[i]);
    free(s->ids);
    free(s->printed);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

bool cli_stream_set_ids(cli_stream *s, const char *const *ids, uint32_t n, const pn_net *net,
                        uint32_t threads)
{
    char **copy = calloc((size_t)n + 1, sizeof *copy);
    uint8_t *printed = calloc((size_t)n + 1, 1);
    bool ok = copy != NULL && printed != NULL;
    for (uint32_t i = 0; ok && i < n; i++)
        ok = (copy[i] = strdup(ids[i] != NULL ? ids[i] : "?")) != NULL;
    if (!ok) {
        for (uint32_t i = 0; copy != NULL && i < n; i++)
            free(copy[i]);
        free(copy);
        free(printed);
        return false;
    }
    pthread_mutex_lock(&s->lock);
    for (uint32_t i = 0; s->ids != NULL && i < s->n; i++) /* named before the model was read */
        free(s->ids[i]);
    free(s->ids);
    free(s->printed);
    s->ids = copy;
    s->printed = printed;
    s->n = n;
    s->net = net;
    s->threads = threads ? threads : 1;
    pthread_mutex_unlock(&s->lock);
    return true;
}

/* Under the lock: answer i's line, unless printed. */
static void stream_print(cli_stream *s, const pn_answer *a, uint32_t i,
                         const pn_engine_result *res)
{
    if (s->slot != NULL)
        i = s->slot[i];
    if (s->closed || s->ids == NULL || i >= s->n || s->printed[i])
        return;
    char tech[160], value[32];
    pn_mcc_techniques(res, s->net, a->techniques, tech, sizeof tech);
    const char *v = NULL;
    if (a->verdict == PN_VERDICT_TRUE)
        v = "TRUE";
    else if (a->verdict == PN_VERDICT_FALSE)
        v = "FALSE";
    else if (a->verdict == PN_VERDICT_VALUE) {
        snprintf(value, sizeof value, "%lu", (unsigned long)a->value);
        v = value;
    }
    pn_mcc_print_formula(s->out, s->ids[i], v, tech);
    fflush(s->out);
    s->printed[i] = 1;
}

void cli_stream_rebind(cli_stream *s, const pn_net *net, uint32_t threads, const uint32_t *slot)
{
    pthread_mutex_lock(&s->lock);
    s->net = net;
    s->threads = threads ? threads : 1;
    s->slot = slot;
    pthread_mutex_unlock(&s->lock);
}

void cli_stream_on_decide(void *ctx, const pn_check *c, uint32_t i)
{
    cli_stream *s = ctx;
    const pn_answer *a = pn_check_answer(c, i);
    if (a == NULL || a->verdict == PN_VERDICT_UNKNOWN)
        return;
    pn_engine_result res = {.threads = s->threads};
    pthread_mutex_lock(&s->lock);
    stream_print(s, a, i, &res);
    pthread_mutex_unlock(&s->lock);
}

void cli_stream_answer(cli_stream *s, const pn_check *c, uint32_t i, const pn_engine_result *res)
{
    const pn_answer *a = pn_check_answer(c, i);
    if (a == NULL)
        return;
    pthread_mutex_lock(&s->lock);
    stream_print(s, a, i, res);
    pthread_mutex_unlock(&s->lock);
}

void cli_stream_state_space(cli_stream *s, const pn_engine_result *res, const pn_net *net)
{
    pthread_mutex_lock(&s->lock);
    if (!s->closed && s->ids == NULL && !s->bare_printed) {
        pn_mcc_print_state_space(s->out, res, net);
        fflush(s->out);
        s->bare_printed = 1;
    }
    pthread_mutex_unlock(&s->lock);
}

void cli_stream_fail(cli_stream *s)
{
    stream_fire(s);
}

void cli_stream_close(cli_stream *s)
{
    pthread_mutex_lock(&s->lock);
    stream_print_open(s);
    pthread_mutex_unlock(&s->lock);
}
