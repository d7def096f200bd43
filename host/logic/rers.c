/* Checking RERS properties (petrel/rers.h): LTL through the on-the-fly
 * product with letters on steps (ltl.c, pn_ltl_check_actions), CTL
 * through the local checker with edge atoms (ctl_otf.c), both over one
 * on-demand space of the system's net that keeps the transition of every
 * step. No structural reduction runs: it may merge or drop transitions,
 * and the labels of steps are what the properties read. */
#include "petrel/rers.h"

#include <string.h>

#include "petrel/ctl.h"

pn_status pn_rers_space(const pn_cnet *cn, uint64_t memory_budget, pn_lazy **out,
                        pn_error *err)
{
    pn_status st = pn_lazy_new(cn, memory_budget, out, err);
    if (st == PN_OK && (st = pn_lazy_keep_trans(*out, err)) != PN_OK) {
        pn_lazy_free(*out);
        *out = NULL;
    }
    return st;
}

pn_status pn_rers_check(pn_lazy *z, const pn_rers_prop *p, const pn_budget *budget,
                        bool *value, pn_ltl_lasso *lasso, pn_error *err)
{
    if (lasso != NULL)
        memset(lasso, 0, sizeof *lasso);
    if (p->logic == PN_RERS_LTL)
        return pn_ltl_check_actions(z, p->root, budget, value, NULL, lasso, err);
    if (lasso == NULL)
        return pn_ctl_check_otf(z, p->root, budget, value, err);
    pn_ctl_witness w;
    pn_status st = pn_ctl_check_otf_witness(z, p->root, budget, value, &w, err);
    lasso->trans = w.trans; /* a path, no cycle */
    lasso->prefix = w.trans != NULL ? w.n : 0;
    return st;
}
