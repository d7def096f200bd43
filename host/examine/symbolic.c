/* The decision-diagram step (see symbolic.h). The reachable set is built
 * once and the forest kept for every answer, which share its nodes and
 * caches (the fireability atoms, the predecessor sets). */
#include "examine/symbolic.h"

#include "examine/otf.h"
#include "logic/ctl_mdd.h"
#include "petrel/mcc.h"

/* Answer i on the set, if its kind is one the set answers; *tried false
 * when it is not. */
static pn_status sym_answer(pn_ctl_mdd *s, const pn_fml_set *set, ex_sym_logic logic,
                            pn_check *c, uint32_t i, const pn_budget *turn, bool *tried,
                            pn_error *err)
{
    const pn_fml_node *phi;
    const uint32_t *places;
    uint32_t np;
    pn_check_target k = pn_check_target_of(c, i, &phi, &places, &np);
    *tried = true;
    if (k == PN_TARGET_EF || k == PN_TARGET_AG) {
        bool some = false, all = false;
        pn_status st = pn_ctl_mdd_reach(s, phi, turn, &some, &all, err);
        if (st == PN_OK)
            pn_check_decide_target(c, i, k == PN_TARGET_EF ? some : all,
                                   PN_TECH_DECISION_DIAGRAMS);
        return st;
    }
    if (k == PN_TARGET_BOUND) {
        uint64_t max = 0;
        pn_status st = pn_ctl_mdd_bound(s, places, np, &max, err);
        if (st == PN_OK)
            pn_check_bound_limit(c, i, max, true, PN_TECH_DECISION_DIAGRAMS);
        return st;
    }
    if (logic == EX_SYM_TARGETS || set == NULL || i >= set->n || set->props[i].status != PN_OK) {
        *tried = false;
        return PN_OK;
    }
    bool v = false;
    pn_status st = logic == EX_SYM_CTL ? pn_ctl_mdd_check(s, set->props[i].root, turn, &v, err)
                                       : pn_ctl_mdd_ltl(s, set->props[i].root, turn, &v, err);
    if (st == PN_OK)
        pn_check_decide_answer(c, i, v, PN_TECH_DECISION_DIAGRAMS);
    return st;
}

/* Builds the set within reach; NULL (and a line) when it does not close. */
static pn_ctl_mdd *sym_open(const pn_cnet *cn, const pn_budget *reach, FILE *verbose)
{
    double t0 = pn_clock_now();
    pn_error e = {0};
    pn_ctl_mdd *s = NULL;
    if (pn_ctl_mdd_new(cn, reach, &s, &e) != PN_OK) {
        if (verbose != NULL)
            fprintf(verbose, "petrel: symbolic: %s after %.3f s\n", e.msg, pn_clock_now() - t0);
        return NULL;
    }
    if (verbose != NULL)
        fprintf(verbose, "petrel: symbolic: %.4g reachable markings, %lu nodes in %.3f s\n",
                pn_ctl_mdd_states(s), (unsigned long)pn_ctl_mdd_nodes(s), pn_clock_now() - t0);
    return s;
}

void ex_symbolic(const pn_cnet *cn, const pn_fml_set *set, ex_sym_logic logic,
                 const pn_budget *budget, double share_of_left, FILE *verbose, pn_check *c)
{
    pn_budget part = pn_budget_share(budget, share_of_left);
    /* The reachable set gets half: a net whose set does not close in that
     * time rarely has answers it could give in the other half, which the
     * steps after this one then get. */
    pn_budget reach = pn_budget_share(budget, share_of_left / 2);
    pn_ctl_mdd *s = sym_open(cn, &reach, verbose);
    bool memory = false;
    for (int pass = 0; s != NULL && pass < 2 && !memory && !pn_budget_expired(&part); pass++) {
        uint32_t left = ex_open_count(c);
        for (uint32_t i = 0; i < pn_check_count(c) && !memory && !pn_budget_expired(&part); i++) {
            if (pn_check_answer(c, i)->verdict != PN_VERDICT_UNKNOWN)
                continue;
            pn_budget turn = pn_budget_share(&part, pass == 0 && left > 0 ? 1.0 / left : 1.0);
            left -= left > 0;
            double t1 = pn_clock_now();
            bool tried = false;
            pn_error fe = {0};
            pn_status st = sym_answer(s, set, logic, c, i, &turn, &tried, &fe);
            if (verbose != NULL && tried) {
                const pn_answer *a = pn_check_answer(c, i);
                fprintf(verbose, "petrel: symbolic: %s: %s in %.3f s (pass %d, %lu nodes)\n",
                        a->id, st != PN_OK ? fe.msg : "decided", pn_clock_now() - t1, pass,
                        (unsigned long)pn_ctl_mdd_nodes(s));
            }
            memory = st == PN_ERR_NOMEM; /* the budget's memory: collected before the next */
        }
    }
    pn_ctl_mdd_free(s);
}
