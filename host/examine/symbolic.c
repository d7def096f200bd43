/* The decision-diagram step (see symbolic.h). The reachable set is built
 * once and the forest kept for every answer, which share its nodes and
 * caches (the fireability atoms, the predecessor sets). */
#include "examine/symbolic.h"

#include "examine/beside.h"
#include "examine/otf.h"
#include "logic/ctl_mdd.h"
#include "petrel/mcc.h"

/* Answer i on the set, if its kind is one the set answers; *tried false
 * when it is not. The check is read and written under the lock of the
 * step beside (if any), the set is worked on outside it. */
static pn_status sym_answer(pn_ctl_mdd *s, const pn_fml_set *set, ex_sym_logic logic,
                            pn_check *c, ex_beside *beside, uint32_t i, const pn_budget *turn,
                            bool *tried, pn_error *err)
{
    const pn_fml_node *phi;
    const uint32_t *places;
    uint32_t np;
    ex_beside_lock(beside);
    pn_check_target k = pn_check_target_of(c, i, &phi, &places, &np);
    ex_beside_unlock(beside);
    bool v = false, other = false;
    uint64_t max = 0;
    pn_status st;
    *tried = true;
    if (k == PN_TARGET_EF || k == PN_TARGET_AG)
        st = pn_ctl_mdd_reach(s, phi, turn, k == PN_TARGET_EF ? &v : &other,
                              k == PN_TARGET_EF ? &other : &v, err);
    else if (k == PN_TARGET_BOUND)
        st = pn_ctl_mdd_bound(s, places, np, &max, err);
    else if (logic == EX_SYM_TARGETS || set == NULL || i >= set->n ||
             set->props[i].status != PN_OK) {
        *tried = false;
        return PN_OK;
    } else if (logic == EX_SYM_CTL)
        st = pn_ctl_mdd_check(s, set->props[i].root, turn, &v, err);
    else
        st = pn_ctl_mdd_ltl(s, set->props[i].root, turn, &v, err);
    if (st != PN_OK)
        return st;
    ex_beside_lock(beside);
    if (pn_check_answer(c, i)->verdict == PN_VERDICT_UNKNOWN) { /* not decided beside */
        if (k == PN_TARGET_EF || k == PN_TARGET_AG)
            pn_check_decide_target(c, i, v, PN_TECH_DECISION_DIAGRAMS);
        else if (k == PN_TARGET_BOUND)
            pn_check_bound_limit(c, i, max, true, PN_TECH_DECISION_DIAGRAMS);
        else
            pn_check_decide_answer(c, i, v, PN_TECH_DECISION_DIAGRAMS);
        ex_beside_settled(beside, i);
    }
    ex_beside_unlock(beside);
    return PN_OK;
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
                 const pn_budget *budget, double share_of_left, FILE *verbose, pn_check *c,
                 ex_beside *beside, ex_sym_forest *keep)
{
    pn_budget part = pn_budget_share(budget, share_of_left);
    /* The reachable set gets half: a net whose set does not close in that
     * time rarely has answers it could give in the other half, which the
     * steps after this one then get. */
    pn_budget reach = pn_budget_share(budget, share_of_left / 2);
    pn_ctl_mdd *s = keep != NULL ? keep->s : NULL;
    if (s == NULL && (keep == NULL || !keep->tried))
        s = sym_open(cn, &reach, verbose);
    if (keep != NULL) {
        keep->tried = true;
        keep->s = s;
    }
    if (s != NULL)
        pn_ctl_mdd_set_budget(s, &part);
    bool memory = false;
    /* Passes as the on-the-fly checks' (passes.c): a quarter of an equal
     * share of what is left, then an equal share, then all of it. A CTL
     * formula resumes from the sub-formulas it finished in its last turn
     * (pn_ctl_mdd_check keeps their sets), so the quick ones are decided
     * first at little cost to the others. */
    const uint32_t n = pn_check_count(c);
    for (int pass = 0; s != NULL && pass < 3 && !memory && !pn_budget_expired(&part); pass++) {
        uint32_t left = ex_beside_open_count(beside, c);
        for (uint32_t i = 0; i < n && !memory && !pn_budget_expired(&part); i++) {
            if (!ex_beside_open(beside, c, i))
                continue;
            double f = pass == 2 || left == 0 ? 1.0 : 1.0 / left / (pass == 0 ? 4 : 1);
            pn_budget turn = pn_budget_share(&part, f);
            ex_beside_watch(beside, i, &turn);
            left -= left > 0;
            double t1 = pn_clock_now();
            bool tried = false;
            pn_error fe = {0};
            pn_status st = sym_answer(s, set, logic, c, beside, i, &turn, &tried, &fe);
            if (verbose != NULL && tried)
                fprintf(verbose, "petrel: symbolic: %s: %s in %.3f s (pass %d, %lu nodes)\n",
                        pn_check_answer(c, i)->id, st != PN_OK ? fe.msg : "done",
                        pn_clock_now() - t1, pass, (unsigned long)pn_ctl_mdd_nodes(s));
            memory = st == PN_ERR_NOMEM; /* the budget's memory: collected before the next */
        }
    }
    if (keep == NULL)
        pn_ctl_mdd_free(s);
    else if (s != NULL)
        pn_ctl_mdd_set_budget(s, NULL); /* part is gone after this call */
}

bool ex_sym_hopeless(const ex_sym_forest *f, const pn_budget *budget, uint32_t threads)
{
    if (f == NULL || f->s == NULL)
        return false;
    double states = pn_ctl_mdd_states(f->s), left = pn_budget_left_s(budget);
    uint64_t memory = pn_budget_memory(budget);
    return (memory != 0 && states * EX_GRAPH_MIN_BYTES > (double)memory) ||
           states > EX_GRAPH_MAX_RATE * (threads ? threads : 1) * (left > 0 ? left : 0);
}

void ex_sym_forest_free(ex_sym_forest *f)
{
    pn_ctl_mdd_free(f->s);
    *f = (ex_sym_forest){0};
}
