/* A call on a stack of a given size: for recursions as deep as the net is
 * wide (the decision diagrams recurse a few calls per place, and a net of
 * 30,000 places needs more than an 8 MB main thread has). */
#ifndef PETREL_SYS_DEEP_H
#define PETREL_SYS_DEEP_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs fn(arg) on a new thread whose stack is `bytes` (address space
 * reserved; memory is taken only as the recursion touches it) and waits
 * for it to return. false when no such thread could be made: fn did not
 * run. */
bool pn_run_deep(size_t bytes, void (*fn)(void *), void *arg);

#ifdef __cplusplus
}
#endif

#endif
