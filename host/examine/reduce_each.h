/* Structural reductions per formula (reduce_each.c). */
#ifndef PETREL_EXAMINE_REDUCE_EACH_H
#define PETREL_EXAMINE_REDUCE_EACH_H

#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/reduce.h"

typedef struct pn_each pn_each;

/* `joint` that takes every formula's net, even one no smaller. */
#define PN_EACH_ALL UINT64_MAX

/* Reduces cn for each formula of set on its own (within budget, an equal
 * slice each; cn may be a net already reduced for all of set, as a
 * reduction for one formula keeps its answer on that net, so on the
 * original: from_joint then skips the dead-transition tests, which looked
 * at that net already and do not depend on the formula; one
 * formula's reduction is taken only when its net is at most half of `joint`
 * places plus transitions, the size of the net all formulas share). *out
 * is NULL when no formula gains that much, or set has fewer than two. */
pn_status pn_each_new(const pn_cnet *cn, bool from_joint, pn_exam exam, const pn_fml_set *set,
                      uint64_t joint,
                      const pn_budget *budget, FILE *verbose, pn_each **out, pn_error *err);
/* The formulas with a reduced net of their own. */
uint32_t pn_each_count(const pn_each *e);
/* The k-th of them: its index in set, and the net with that one formula. */
uint32_t pn_each_formula(const pn_each *e, uint32_t k);
const pn_reduced *pn_each_reduced(const pn_each *e, uint32_t k);
/* Each formula's net and the formula on it as an MCC instance folder,
 * dir/<formula id>/ with model.pnml and exam's formula file, which Petrel
 * reads back (--write-reduced). */
pn_status pn_each_write(const pn_each *e, pn_exam exam, const char *dir, pn_error *err);
void pn_each_free(pn_each *e);

#endif
