/* The run's current phase (see phase.h): one name and when it was set,
 * under a mutex; written a few times per phase, read once per progress
 * interval. */
#include "petrel/phase.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "petrel/budget.h"

struct pn_phase {
    pthread_mutex_t lock;
    char name[160];
    char detail[160];
    double since;
};

pn_phase *pn_phase_new(void)
{
    pn_phase *p = calloc(1, sizeof *p);
    if (p != NULL && pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        return NULL;
    }
    return p;
}

void pn_phase_free(pn_phase *p)
{
    if (p == NULL)
        return;
    pthread_mutex_destroy(&p->lock);
    free(p);
}

void pn_phase_set(pn_phase *p, const char *name)
{
    if (p == NULL)
        return;
    double now = pn_clock_now();
    pthread_mutex_lock(&p->lock);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->detail[0] = '\0';
    p->since = now;
    pthread_mutex_unlock(&p->lock);
}

void pn_phase_detail(pn_phase *p, const char *detail)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    snprintf(p->detail, sizeof p->detail, "%s", detail);
    pthread_mutex_unlock(&p->lock);
}

double pn_phase_get(pn_phase *p, char *buf, size_t n)
{
    if (n > 0)
        buf[0] = '\0';
    if (p == NULL)
        return 0;
    pthread_mutex_lock(&p->lock);
    if (n > 0)
        snprintf(buf, n, "%s%s%s", p->name, p->detail[0] != '\0' ? ": " : "", p->detail);
    double since = p->since;
    pthread_mutex_unlock(&p->lock);
    return since > 0 ? pn_clock_now() - since : 0;
}

/* The budget's phase (budget.h): here, beside the slot, so that the budget
 * itself never calls into the phase. */
static void budget_say(const pn_budget *b, bool detail, const char *fmt, va_list ap)
{
    char text[160];
    vsnprintf(text, sizeof text, fmt, ap);
    if (detail)
        pn_phase_detail(b->phase, text);
    else
        pn_phase_set(b->phase, text);
}

void pn_budget_phase(const pn_budget *b, const char *fmt, ...)
{
    if (b == NULL || b->phase == NULL)
        return;
    va_list ap;
    va_start(ap, fmt);
    budget_say(b, false, fmt, ap);
    va_end(ap);
}

void pn_budget_detail(const pn_budget *b, const char *fmt, ...)
{
    if (b == NULL || b->phase == NULL)
        return;
    va_list ap;
    va_start(ap, fmt);
    budget_say(b, true, fmt, ap);
    va_end(ap);
}
