/* The `properties` subcommand (properties.h): structural properties from
 * the arcs, behavioural ones through the examination driver (props.h),
 * then the comparison with the model's verdict file. A step that does not
 * poll its budget could run past the deadline, so a watchdog thread keeps
 * a copy of every verdict as it is decided and, a grace period after the
 * deadline, prints the table from that copy (the rest unknown) and ends
 * the process, as the examinations' watchdog does (stream.c). */
#include "properties.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "petrel/budget.h"
#include "petrel/props.h"
#include "verdicts.h"

/* Past the deadline, the cooperative path gets this long to finish. */
#define PROPS_GRACE_S 1.0

static const char *props_word(pn_verdict v)
{
    return v == PN_VERDICT_TRUE ? "true" : v == PN_VERDICT_FALSE ? "false" : "unknown";
}

/* agree / disagree / not decided: decided means true or false on both sides. */
static const char *props_compare(const char *mine, const char *theirs)
{
    bool decided = theirs != NULL && strcmp(mine, "unknown") != 0 &&
                   (strcmp(theirs, "true") == 0 || strcmp(theirs, "false") == 0);
    if (!decided)
        return "not decided";
    return strcmp(mine, theirs) == 0 ? "agree" : "disagree";
}

/* note: a line to add (why some are unknown), or NULL. */
static void props_print(const pn_verdict *v, const pn_verdicts *file, const char *note)
{
    unsigned agree = 0, disagree = 0;
    printf("%-21s %-8s %-8s %s\n", "property", "petrel", "file", "comparison");
    for (int k = 0; k < PN_PROP_COUNT; k++) {
        const char *name = pn_prop_name((pn_prop)k);
        const char *mine = props_word(v[k]);
        const char *theirs = file != NULL ? pn_verdicts_value(file, "GENERIC", name) : NULL;
        const char *cmp = props_compare(mine, theirs);
        agree += strcmp(cmp, "agree") == 0;
        disagree += strcmp(cmp, "disagree") == 0;
        printf("%-21s %-8s %-8s %s\n", name, mine, theirs != NULL ? theirs : "-", cmp);
    }
    if (note != NULL)
        printf("# %s\n", note);
    if (file == NULL)
        printf("# no GenericPropertiesVerdict.xml beside the model\n");
    else
        printf("# %u agree, %u disagree, %u not decided\n", agree, disagree,
               PN_PROP_COUNT - agree - disagree);
    fflush(stdout);
}

/* ---- the watchdog -------------------------------------------------------- */

typedef struct props_watch {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool finished;                  /* the computation ended: stand down */
    pn_verdict seen[PN_PROP_COUNT]; /* every verdict decided so far */
    const pn_verdicts *file;
    const pn_budget *budget;        /* the run's: fires its grace after the deadline */
    pthread_t thread;
    bool running;
} props_watch;

static void props_seen(void *ctx, pn_prop p, pn_verdict v)
{
    props_watch *w = ctx;
    pthread_mutex_lock(&w->lock);
    w->seen[p] = v;
    pthread_mutex_unlock(&w->lock);
}

/* The wait is on CLOCK_MONOTONIC, the budget's clock (pn_clock_now). */
static void *props_watch_run(void *arg)
{
    props_watch *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->finished) {
        double left = w->budget->deadline + PROPS_GRACE_S - pn_clock_now();
        if (left <= 0) {
            props_print(w->seen, w->file, "out of time: the properties still open are unknown");
            _exit(0); /* with the lock held: nothing prints after this */
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double at = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 + left;
        ts.tv_sec = (time_t)at;
        ts.tv_nsec = (long)((at - (double)ts.tv_sec) * 1e9);
        pthread_cond_timedwait(&w->wake, &w->lock, &ts);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

static void props_watch_start(props_watch *w, const pn_props *p, const pn_verdicts *file,
                              const pn_budget *budget)
{
    memset(w, 0, sizeof *w);
    for (int k = 0; k < PN_PROP_COUNT; k++)
        w->seen[k] = p->v[k].verdict;
    w->file = file;
    w->budget = budget;
    pthread_mutex_init(&w->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&w->wake, &attr);
    pthread_condattr_destroy(&attr);
    w->running = budget->deadline > 0 && pthread_create(&w->thread, NULL, props_watch_run, w) == 0;
}

static void props_watch_stop(props_watch *w)
{
    pthread_mutex_lock(&w->lock);
    w->finished = true;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    if (w->running)
        pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
}

/* ---- the command --------------------------------------------------------- */

int cli_properties_run(const cli_options *o, const char *dir, const pn_cnet *cn,
                       const pn_examine_opts *xo, pn_budget *budget)
{
    FILE *diag = o->quiet ? NULL : stderr;
    pn_verdicts *file = cli_verdicts_read_model(dir, diag);
    if (o->use_verdicts)
        cli_verdicts_check_hints(file, cn, diag);
    pn_props p = {0};
    pn_error err = {0};
    pn_status st = pn_props_structural(cn, &p, &err);
    props_watch w;
    props_watch_start(&w, &p, file, budget);
    p.on_decide = props_seen;
    p.on_decide_ctx = &w;
    if (st == PN_OK)
        st = pn_props_behavioural(cn, xo, budget, &p, &err);
    props_watch_stop(&w);
    int rc = 0;
    if (st != PN_OK) {
        fprintf(stderr, "petrel: %s\n", err.msg);
        rc = 1;
    } else {
        pn_verdict v[PN_PROP_COUNT];
        for (int k = 0; k < PN_PROP_COUNT; k++)
            v[k] = p.v[k].verdict;
        props_print(v, file, NULL);
        if (o->verdict_xml != NULL)
            rc = cli_verdicts_write_props(o->verdict_xml, cn->net, &p);
    }
    pn_props_free(&p);
    pn_verdicts_free(file);
    return rc;
}

int cli_properties_unread(const cli_options *o, const char *dir)
{
    pn_verdicts *file = cli_verdicts_read_model(dir, o->quiet ? NULL : stderr);
    pn_verdict v[PN_PROP_COUNT] = {PN_VERDICT_UNKNOWN};
    props_print(v, file, "the model could not be read in time, or not at all: every property "
                         "is unknown");
    pn_verdicts_free(file);
    return 0;
}
