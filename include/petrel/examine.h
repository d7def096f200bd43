/* One examination end to end, without I/O: the on-the-fly checker for what
 * a witness or a complete exploration decides, and the state graph with
 * the CTL, LTL or Liveness checkers for the rest. The CLI and the oracle
 * tests both go through here. */
#ifndef PETREL_EXAMINE_H
#define PETREL_EXAMINE_H

#include <stdio.h>

#include "petrel/check.h"
#include "petrel/engine.h"
#include "petrel/formula.h"

#ifdef __cplusplus
extern "C" {
#endif

/* set: the examination's formulas, simplified (NULL for global
 * properties). On PN_OK, *check holds the answers (pn_check_answer) and
 * res the exploration's statistics and, with opts->keep_parents, the BFS
 * tree for traces; the caller frees both. diag (may be NULL) receives one
 * line per formula that a checker could not answer, with the reason. */
pn_status pn_examine(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                     const pn_engine_opts *opts, pn_check **check, pn_engine_result *res,
                     FILE *diag, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
