/* The decision diagrams' forest across the steps of one job (forest.c):
 * the symbolic step (symbolic.c) builds and keeps it, the graph step asks
 * it how many markings there are. */
#ifndef PETREL_EXAMINE_FOREST_H
#define PETREL_EXAMINE_FOREST_H

#include <stdbool.h>
#include <stdio.h>

#include "logic/ctl_mdd.h"
#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/formula.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The forest and its reachable set across the steps of one job: a later
 * symbolic step goes on with it (and with the sub-formula sets a CTL check
 * kept), and the graph step asks it how many states it would have to
 * store. tried: a step has built it, or failed to. */
typedef struct ex_sym_forest {
    pn_ctl_mdd *s;
    pn_fml_node *live; /* Liveness as a CTL formula (symbolic.c), owned */
    bool tried;
} ex_sym_forest;
void ex_sym_forest_free(ex_sym_forest *f);

/* A recorded graph of every reachable marking cannot be had within
 * budget: the forest counted more markings than the memory holds at
 * EX_GRAPH_MIN_BYTES each, or than `threads` explore in the time left at
 * EX_GRAPH_MAX_RATE each per second (bounds above what the explicit engine
 * reaches). False when there is no set to count. */
#define EX_GRAPH_MIN_BYTES 8.0
#define EX_GRAPH_MAX_RATE 8e6
bool ex_sym_hopeless(const ex_sym_forest *f, const pn_budget *budget, uint32_t threads);

#ifdef __cplusplus
}
#endif
#endif
