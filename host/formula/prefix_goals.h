/* LTL formulas A phi that a random walk may refute (prefix_goals.c): the
 * walk records, at each of its first steps, a letter with one bit per
 * maximal state sub-formula of the bodies (their atoms), and phi is read on
 * that prefix by pn_fml_eval_prefix (three-valued: FALSE only where every
 * run that starts so violates phi, or where the prefix ends in a deadlock
 * and its one run does). The P/T walks (host/engine/walk.c) and the walks
 * on a coloured net (host/examine/skeleton_walk.c) share it: each
 * evaluates the atoms its own way and hands the letters over. */
#ifndef PETREL_PREFIX_GOALS_H
#define PETREL_PREFIX_GOALS_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/error.h"
#include "petrel/formula.h"

/* Steps of a walk kept for the reading: a run that violates a formula
 * mostly shows it early, and each reading costs the prefix's length. */
#define PN_PREFIX_STEPS 1024

typedef struct pn_prefix_goals {
    uint32_t n;                /* goals */
    uint32_t *answer;          /* per goal: its formula's index in the set */
    const pn_fml_node **body;  /* per goal: phi, of the formula A phi */
    const pn_fml_node **atoms; /* the bodies' maximal state sub-formulas, once each */
    uint32_t n_atoms;
} pn_prefix_goals;

/* Whether formula i of the set is still to be refuted (open, and no
 * reachability target that other goals read). */
typedef bool (*pn_prefix_open)(void *ctx, uint32_t i);

/* The goals: every formula A phi of set that open() accepts. */
pn_status pn_prefix_goals_collect(pn_prefix_goals *g, const pn_fml_set *set,
                                  pn_prefix_open open, void *ctx, pn_error *err);
void pn_prefix_goals_free(pn_prefix_goals *g);

/* One walker's record: letter k (words words) holds atom a at bit base + a. */
typedef struct pn_prefix_trace {
    uint64_t *letters;
    uint32_t words;
    uint32_t base;
} pn_prefix_trace;

pn_status pn_prefix_trace_init(pn_prefix_trace *t, uint32_t words, uint32_t base,
                               pn_error *err);
void pn_prefix_trace_free(pn_prefix_trace *t);

/* The slot of step k < PN_PREFIX_STEPS, for the walker to fill. */
static inline uint64_t *pn_prefix_trace_step(const pn_prefix_trace *t, uint32_t k)
{
    return t->letters + (uint64_t)k * t->words;
}

/* Whether a reading of the first len steps is due: at 1, 2, 4, ...
 * PN_PREFIX_STEPS steps (a slow net's walks may end first), and where the
 * walk ends within them (dead: at a deadlock). */
static inline bool pn_prefix_due(uint32_t len, bool ends)
{
    return len <= PN_PREFIX_STEPS && (ends || (len & (len - 1)) == 0);
}

/* True when goal k's phi is violated by every run that starts with the
 * first len recorded steps (dead: the prefix ends in a deadlock, its one
 * run repeating the last marking). */
bool pn_prefix_goal_refuted(const pn_prefix_goals *g, uint32_t k, const pn_prefix_trace *t,
                            uint32_t len, bool dead);

#endif
