/* pn_run_deep (deep.h): a joined thread with its own stack size. */
#include "sys/deep.h"

#include <pthread.h>

typedef struct deep_call {
    void (*fn)(void *);
    void *arg;
} deep_call;

static void *deep_main(void *p)
{
    deep_call *c = p;
    c->fn(c->arg);
    return NULL;
}

bool pn_run_deep(size_t bytes, void (*fn)(void *), void *arg)
{
    deep_call c = {fn, arg};
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return false;
    pthread_t th;
    bool made = pthread_attr_setstacksize(&attr, bytes) == 0 &&
                pthread_create(&th, &attr, deep_main, &c) == 0;
    pthread_attr_destroy(&attr);
    if (made)
        pthread_join(th, NULL);
    return made;
}
