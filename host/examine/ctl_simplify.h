/* CTL formulas simplified with what the linear layer proves (ctl_simplify.c). */
#ifndef PETREL_EXAMINE_CTL_SIMPLIFY_H
#define PETREL_EXAMINE_CTL_SIMPLIFY_H

#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/formula.h"
#include "petrel/linear.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How to simplify. lin: the linear layer's options (its budget may be
 * NULL: the layer's own limit; proofs_only is set here). finite (may be
 * NULL): 1 when every run of cn is known to be finite, 0 when not known,
 * -1 to ask (a ranking function, pn_linear_terminates), then set to the
 * answer. verbose (may be NULL): what was asked and the formulas after.
 * deadlock_free (CTL; may be NULL: never asked): asked once, when the
 * simplified formulas read "deadlock" (the rules turn EX true into
 * !deadlock and AX false into deadlock); true: no reachable marking is a
 * deadlock, so the atoms are FALSE and the rounds go on with them. */
typedef struct pn_simplify_opts {
    const pn_linear_opts *lin;
    int *finite;
    FILE *verbose;
    bool (*deadlock_free)(void *ctx);
    void *deadlock_ctx;
    /* Optional: each batch of rounds (before and after the deadlock
     * question) gets `share` of this budget's time left when it starts,
     * in place of lin's budget. */
    const pn_budget *budget;
    double share;
} pn_simplify_opts;

/* A copy of set with every formula rewritten (pn_fml_ctl_rewrite) and
 * every sub-formula that the linear layer proves constant on the
 * reachable markings of cn replaced by the constant. *decided (may be
 * NULL) counts the sub-formulas replaced. PN_OK with *out, or
 * PN_ERR_NOMEM. */
pn_status pn_ctl_simplify(const pn_cnet *cn, const pn_fml_set *set, const pn_simplify_opts *o,
                          pn_fml_set **out, uint32_t *decided, pn_error *err);

/* The same for LTL formulas: only state sub-formulas are replaced (every
 * position of a path is a reachable marking), in one round, and only the
 * rewrites of pn_fml_simplify apply, never the CTL rules. */
pn_status pn_ltl_simplify(const pn_cnet *cn, const pn_fml_set *set, const pn_simplify_opts *o,
                          pn_fml_set **out, uint32_t *decided, pn_error *err);

/* The deadlock atoms of set's formulas: counted, and with replace, each
 * replaced by FALSE, which is sound once no reachable marking is a
 * deadlock (every CTL sub-formula is evaluated at reachable markings). */
uint32_t pn_ctl_deadlock_atoms(pn_fml_set *set, bool replace);

#ifdef __cplusplus
}
#endif
#endif
