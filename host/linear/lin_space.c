/* Bounds on StateSpace's two maxima without the state space, for a run
 * whose exploration does not end (a value is proven where a reached
 * marking meets its upper bound): MAX_TOKEN_IN_PLACE from the P-semiflows'
 * place bounds (y C = 0, y >= 0: y.m = y.m0 in every reachable marking m,
 * so m(p) <= y.m0 / y(p); K. Lautenbach, "Linear algebraic techniques for
 * place/transition nets", Advances in Petri Nets 1986, LNCS 254);
 * MAX_TOKEN_PER_MARKING of a conservative net (every transition puts back
 * as many tokens as it takes: the all-ones semiflow), whose every marking
 * holds the initial marking's tokens; and, for what these leave open, the
 * linear layer's UpperBounds questions (the state equation's bound, and
 * the markings its firing sequences reach) on the sum of every place and
 * on each place no semiflow bounds. */
#include "petrel/linear.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "linear/lin.h"
#include "petrel/formula.h"

__extension__ typedef __int128 space_i128;


/* Every transition's changes sum to 0 (no overflow: each |delta| < 2^63,
 * summed in 128 bits). */
static bool space_conservative(const pn_cnet *cn)
{
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        space_i128 sum = 0;
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++)
            sum += cn->delta[k].delta;
        if (sum != 0)
            return false;
    }
    return true;
}

/* Places no semiflow bounds, asked one by one: past this many, only the
 * sum is asked (each is an LP on the whole net). */
#define SPACE_MAX_LP_PLACES 256

/* An UpperBounds question on places[0..n), named id; false: out of memory. */
static bool space_question(pn_fml_set *set, const char *id, const uint32_t *places, uint32_t n)
{
    pn_fml_prop *q = &set->props[set->n];
    q->id = strdup(id);
    q->root = pn_fml_list(PN_FML_PLACE_BOUND, places, n);
    q->status = PN_OK;
    set->n++;
    return q->id != NULL && q->root != NULL;
}

/* The questions: 0 the sum of every place, then each open place. */
static pn_fml_set *space_questions(const pn_cnet *cn, const uint32_t *open, uint32_t n_open)
{
    const uint32_t P = cn->n_places;
    pn_fml_set *set = calloc(1, sizeof *set);
    uint32_t *all = malloc(((size_t)P + 1) * sizeof *all);
    if (set == NULL || all == NULL ||
        (set->props = calloc((size_t)n_open + 1, sizeof *set->props)) == NULL) {
        free(set);
        free(all);
        return NULL;
    }
    for (uint32_t p = 0; p < P; p++)
        all[p] = p;
    bool ok = space_question(set, "sum", all, P);
    for (uint32_t k = 0; ok && k < n_open; k++) {
        char id[24];
        snprintf(id, sizeof id, "p%u", open[k]);
        ok = space_question(set, id, &open[k], 1);
    }
    free(all);
    if (!ok) {
        pn_fml_set_free(set);
        return NULL;
    }
    set->net = cn->net;
    return set;
}

/* Question i's reached value (lo) and upper bound (hi) after the linear
 * layer: a decided bound is both; else the bound it proved, if any. */
static void space_answer(const pn_check *c, uint32_t i, uint64_t *lo, uint64_t *hi)
{
    const pn_answer *a = pn_check_answer(c, i);
    uint32_t tech = 0;
    *lo = 0;
    *hi = UINT64_MAX;
    if (a->verdict == PN_VERDICT_VALUE)
        *lo = *hi = a->value;
    else if (!pn_check_bound_known(c, i, hi, &tech))
        *hi = UINT64_MAX;
}

/* The linear layer on the sum and on the open places; place[] and
 * marking[] ({reached, upper}) tightened with what it proves. */
static pn_status space_linear(const pn_cnet *cn, const pn_budget *b, const uint32_t *open,
                              uint32_t n_open, uint64_t place[2], uint64_t marking[2],
                              pn_error *err)
{
    pn_fml_set *set = space_questions(cn, open, n_open);
    pn_check *c = NULL;
    if (set == NULL || pn_check_new(cn, PN_EXAM_UPPER_BOUNDS, set, 1, &c, err) != PN_OK) {
        pn_fml_set_free(set);
        return set == NULL ? pn_fail(err, PN_ERR_NOMEM, "out of memory for the maxima") : err->code;
    }
    pn_linear_opts lo = {.budget = b};
    pn_status st = pn_linear_decide(cn, c, &lo, err);
    uint64_t reached, upper;
    space_answer(c, 0, &reached, &upper);
    marking[0] = reached > marking[0] ? reached : marking[0];
    marking[1] = upper < marking[1] ? upper : marking[1];
    for (uint32_t k = 0; k < n_open; k++) { /* place[1] is UINT64_MAX: some place was open */
        space_answer(c, k + 1, &reached, &upper);
        place[0] = reached > place[0] ? reached : place[0];
        place[1] = k == 0 || upper > place[1] ? upper : place[1];
    }
    pn_check_free(c);
    pn_fml_set_free(set);
    return st;
}

pn_status pn_linear_space_maxima(const pn_cnet *cn, const pn_budget *b, uint64_t place[2],
                                 uint64_t marking[2], pn_error *err)
{
    const uint32_t P = cn->n_places;
    place[0] = marking[0] = 0;
    place[1] = marking[1] = UINT64_MAX;
    if (space_conservative(cn))
        marking[0] = marking[1] = pn_marking_total(cn->m0, cn->n_places);
    lin_inv *inv = NULL;
    if (lin_inv_compute(cn, b, &inv, err) != PN_OK)
        return err->code;
    uint32_t *open = malloc(((size_t)P + 1) * sizeof *open), n_open = 0;
    uint64_t bounded = 0; /* the largest bound of the places the semiflows bound */
    for (uint32_t p = 0; open != NULL && p < P; p++) {
        if (inv->ub[p] == UINT64_MAX)
            open[n_open++] = p;
        else
            bounded = inv->ub[p] > bounded ? inv->ub[p] : bounded;
    }
    lin_inv_free(inv);
    if (open == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the maxima");
    place[1] = n_open == 0 ? bounded : UINT64_MAX;
    pn_status st = PN_OK;
    bool ask_places = n_open > 0 && n_open <= SPACE_MAX_LP_PLACES;
    if ((ask_places || marking[1] == UINT64_MAX) && !pn_budget_expired(b)) {
        uint64_t lp_place[2] = {0, UINT64_MAX};
        st = space_linear(cn, b, open, ask_places ? n_open : 0, lp_place, marking, err);
        if (ask_places && lp_place[1] != UINT64_MAX)
            place[1] = lp_place[1] > bounded ? lp_place[1] : bounded;
        place[0] = lp_place[0];
    }
    free(open);
    return st;
}
