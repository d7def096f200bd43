/* Reachability inside the boolean layer of a CTL / LTL formula (split.c). */
#ifndef PETREL_EXAMINE_SPLIT_H
#define PETREL_EXAMINE_SPLIT_H

#include "petrel/check.h"
#include "petrel/formula.h"
#include "petrel/mcc.h"

typedef struct pn_split pn_split;

/* The reachability leaves (E F phi / A G phi) of the open formulas of c
 * that are not reachability themselves, as a formula set for a check of
 * their own (empty: nothing to split). */
pn_status pn_split_new(pn_exam exam, const pn_fml_set *set, const pn_check *c,
                       pn_split **out, pn_error *err);
const pn_fml_set *pn_split_leaves(const pn_split *s);
/* Decides in c every formula that the leaves' answers in leaves (a
 * finished check over pn_split_leaves) settle, marking it in decided (per
 * formula; may be NULL); returns how many. */
uint32_t pn_split_fold(const pn_split *s, const pn_check *leaves, const pn_cnet *cn,
                       pn_check *c, uint8_t *decided);
void pn_split_free(pn_split *s);

#endif
