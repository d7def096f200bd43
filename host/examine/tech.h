/* The scheduler's table of techniques (see sched.h): one entry each, defined
 * beside the code it drives, named in the plans (plans.c). */
#ifndef PETREL_EXAMINE_TECH_H
#define PETREL_EXAMINE_TECH_H

#include "examine/sched.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const ex_tech ex_tech_linear;   /* state equation, invariants (tech_reach.c) */
extern const ex_tech ex_tech_probe;    /* a small exploration, kept if complete */
extern const ex_tech ex_tech_walk;     /* random walks */
extern const ex_tech ex_tech_stubborn; /* searches over stubborn sets */
extern const ex_tech ex_tech_explore;  /* the BFS with the check's visitor */
extern const ex_tech ex_tech_split;    /* the reachability leaves of formulas (split.c) */
extern const ex_tech ex_tech_local;    /* CTL on the fly (otf.c) */
extern const ex_tech ex_tech_product;  /* the LTL product on the fly (otf.c) */
extern const ex_tech ex_tech_symbolic; /* decision diagrams (symbolic.c) */
extern const ex_tech ex_tech_graph;    /* the recorded state graph (tech_graph.c) */

/* The plan for job j's questions (plans.c): by its examination, whether it
 * needs the graph, and whether traces were asked for (the reachability
 * plan for split's leaves and the deadlock question). The driver hands it
 * to the scheduler (ex_sched.plan_of). */
const ex_plan *ex_plan_of(const ex_job *j);
/* The plan of a global property's items (examine/global.c). */
const ex_plan *ex_plan_items(pn_exam exam);

#ifdef __cplusplus
}
#endif
#endif
