/* The linear layer's driver: for each open reachability answer, the state
 * equation on every cube of the target's DNF, refined with marked traps
 * (Esparza & Melzer 2000), with a guided firing of each LP solution to find
 * a real witness (LoLA's findpath), then the whole formula with integer
 * markings in SMT (lin_smt.c) where that can prove more; for each bound, the
 * certified LP maximum, tightened by the SMT check, exact once a reachable
 * marking attains it. Time is shared equally among the answers still open;
 * every step keeps to a share of the layer's budget, so the caller's cancel
 * flag and drop flag stop it as its deadline does. */
#include "petrel/linear.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linear/lin.h"
#include "petrel/turns.h"

#define LIN_TRAP_ROUNDS 8
#define LIN_WALK_STEPS 200000
#define LIN_WALK_TRIES 8
#define LIN_RANDOM_STEPS 40000 /* a random walk's steps on a small net */
#define LIN_RANDOM_PER_T 16     /* and per transition beyond: a big net's walks go deeper */

/* Steps of a random walk (lin_path_random: a step costs the firing's
 * neighbourhood, so a big net's walks can be as long as it needs). */
static uint64_t lin_random_steps(const pn_cnet *cn)
{
    return LIN_RANDOM_STEPS + (uint64_t)LIN_RANDOM_PER_T * cn->n_transitions;
}

typedef struct lin_run {
    const pn_cnet *cn;
    pn_check *c;
    const pn_linear_opts *o;
    lin_lp *lp;
    pn_budget budget;       /* the layer's: o->budget's, at most 20 s without a deadline */
    double *x;
    uint8_t *in;
    uint32_t n_traps;       /* trap rows in the LP (valid for every formula) */
    lin_smt *smt;           /* the SMT form, built on first need */
    bool smt_failed;        /* ... and not again once it could not be */
    pn_fire_seq fired;      /* o->trace: the last walk's transitions */
} lin_run;

/* Where the walks record their firing sequences: nowhere without traces. */
static pn_fire_seq *lin_fired(lin_run *r)
{
    return r->o->trace ? &r->fired : NULL;
}

typedef enum { GOAL_UNKNOWN, GOAL_NONE, GOAL_FOUND } goal_result;

typedef struct goal_walk {
    const pn_cnet *cn;
    const pn_fml_node *phi;
    bool neg;
} goal_walk;

typedef struct bound_walk {
    const uint32_t *places;
    uint32_t n;
    uint64_t max, target;
} bound_walk;

static bool goal_visit(void *ctx, const uint64_t *m)
{
    const goal_walk *g = ctx;
    return pn_fml_eval_state(g->phi, g->cn, m) != g->neg;
}

static bool bound_visit(void *ctx, const uint64_t *m)
{
    bound_walk *b = ctx;
    uint64_t s = pn_fml_eval_int(&(pn_fml_node){.kind = PN_FML_TOKENS, .n = b->n,
                                                .idx = (uint32_t *)b->places},
                                 m);
    if (s > b->max)
        b->max = s;
    return b->max >= b->target;
}

/* Adds sum_{p in Q} m(p) >= 1 for the largest trap Q inside the places the
 * solution x leaves empty, when Q is marked initially, to the LP and to
 * the SMT form when there is one; false when there is none (the refinement
 * cannot cut this solution). */
static bool lin_refine_trap(lin_run *r)
{
    const pn_cnet *cn = r->cn;
    uint32_t P = cn->n_places;
    double *m = calloc((size_t)P + 1, sizeof *m);
    if (m == NULL)
        return false;
    for (uint32_t p = 0; p < P; p++)
        m[p] = (double)cn->m0[p];
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        for (uint32_t k = cn->delta_off[t]; r->x[t] != 0 && k < cn->delta_off[t + 1]; k++)
            m[cn->delta[k].place] += (double)cn->delta[k].delta * r->x[t];
    for (uint32_t p = 0; p < P; p++)
        r->in[p] = m[p] < 1e-6;
    free(m);
    if (lin_trap_max(cn, r->in) == 0)
        return false;
    lin_cons q = {.rhs = -1};
    q.place = malloc(((size_t)P + 1) * sizeof *q.place);
    q.coef = malloc(((size_t)P + 1) * sizeof *q.coef);
    bool marked = false, ok = q.place != NULL && q.coef != NULL;
    for (uint32_t p = 0; ok && p < P; p++)
        if (r->in[p]) {
            marked |= cn->m0[p] > 0;
            q.place[q.n] = p;
            q.coef[q.n++] = -1;
        }
    ok = ok && marked && lin_lp_add_fixed(r->lp, &q);
    free(q.place);
    free(q.coef);
    if (ok && r->smt != NULL)
        ok = lin_smt_add_trap(r->smt, r->in);
    r->n_traps += ok;
    return ok;
}

/* Is m0 + C x integer (up to the float solver's rounding)? */
static bool lin_marking_integral(const pn_cnet *cn, const double *x)
{
    for (uint32_t p = 0; p < cn->n_places; p++)
        if (cn->m0[p] > (uint64_t)LIN_EXACT_MAX)
            return false;
    double *m = calloc((size_t)cn->n_places + 1, sizeof *m);
    if (m == NULL)
        return false;
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        for (uint32_t k = cn->delta_off[t]; x[t] != 0 && k < cn->delta_off[t + 1]; k++)
            m[cn->delta[k].place] += (double)cn->delta[k].delta * x[t];
    bool integral = true;
    for (uint32_t p = 0; integral && p < cn->n_places; p++) {
        double v = m[p] + (double)cn->m0[p];
        integral = fabs(v - nearbyint(v)) < 1e-6;
    }
    free(m);
    return integral;
}

/* What a refinement loop solves: one cube of the DNF with the LP, or the
 * whole formula in the SMT form; r->x gets the solution. */
typedef struct lin_question {
    const lin_dnf *d;        /* NULL: the SMT form of phi */
    uint32_t cube;
    const pn_fml_node *phi;
    bool ef;
} lin_question;

static lin_result lin_question_solve(lin_run *r, const lin_question *q, const pn_budget *b)
{
    if (q->d == NULL)
        return lin_smt_solve(r->smt, q->phi, !q->ef, b, r->x);
    const uint32_t *ids = q->d->cube_cons + q->d->cube_off[q->cube];
    uint32_t n = q->d->cube_off[q->cube + 1] - q->d->cube_off[q->cube];
    return lin_lp_solve(r->lp, q->d->cons, ids, n, b, r->x);
}

/* Infeasible (certified), a witness from a guided walk, or unknown; a
 * feasible solution without a witness is cut by a marked trap, at most
 * LIN_TRAP_ROUNDS times. */
static goal_result lin_refine(lin_run *r, const lin_question *q, goal_walk *g,
                              const pn_budget *b, pn_error *err)
{
    for (int round = 0; round <= LIN_TRAP_ROUNDS; round++) {
        if (pn_budget_expired(b))
            return GOAL_UNKNOWN;
        lin_result lr = lin_question_solve(r, q, b);
        if (lr == LIN_INFEASIBLE)
            return GOAL_NONE;
        if (lr != LIN_FEASIBLE)
            return GOAL_UNKNOWN;
        bool found = false;
        if (!r->o->proofs_only &&
            lin_path_walk(r->cn, r->x, LIN_WALK_STEPS, LIN_WALK_TRIES, b, goal_visit, g, &found,
                          lin_fired(r), err) != PN_OK)
            return GOAL_UNKNOWN;
        if (found)
            return GOAL_FOUND;
        if (round == LIN_TRAP_ROUNDS || !lin_refine_trap(r))
            return GOAL_UNKNOWN;
    }
    return GOAL_UNKNOWN;
}

static lin_smt *lin_smt_get(lin_run *r)
{
    if (r->smt == NULL && !r->smt_failed) {
        pn_error serr = {0};
        r->smt_failed = lin_smt_new(r->cn, &r->budget, &r->smt, &serr) != PN_OK;
    }
    return r->smt;
}

static const char *lin_result_name(goal_result g, bool ef)
{
    if (g == GOAL_UNKNOWN)
        return "undecided";
    bool holds = (g == GOAL_FOUND) == ef;
    return ef ? (holds ? "E F true" : "E F false") : (holds ? "A G true" : "A G false");
}

/* E F phi: a marking with phi; A G phi: one without. */
static pn_status lin_reach(lin_run *r, uint32_t i, const pn_fml_node *phi, bool ef,
                           const pn_budget *b, pn_error *err)
{
    double t0 = pn_clock_now();
    lin_dnf *d = NULL;
    uint32_t max_cubes = r->o->max_cubes ? r->o->max_cubes : 64;
    if (lin_dnf_build(phi, !ef, r->cn, max_cubes, &d, err) != PN_OK)
        return err->code;
    goal_walk g = {.cn = r->cn, .phi = phi, .neg = !ef};
    goal_result res = GOAL_NONE;
    /* A cut DNF (deadlock's always is) proves little that the SMT form,
     * which has the whole formula, does not: the time goes to the latter. */
    bool cubes = d->exact || r->o->no_smt;
    for (uint32_t k = 0; cubes && k < d->n_cubes && res == GOAL_NONE; k++)
        res = lin_refine(r, &(lin_question){.d = d, .cube = k}, &g, b, err);
    if (!cubes)
        res = GOAL_UNKNOWN;
    /* An exact DNF whose feasible cube has an integer marking: that
     * marking solves the SMT form too, which could prove nothing. */
    bool smt = res == GOAL_UNKNOWN && err->code == PN_OK && !r->o->no_smt &&
               (!cubes || !lin_marking_integral(r->cn, r->x));
    /* The random walk first, with a quarter of the time left when the SMT
     * check follows: the check may take all it gets without an answer
     * (RERS2020-PT-pb103's deadlock: the walk finds it in 0.7 s, the check
     * stays open for 4 s), and proofs need it (Dekker-PT-100: 1.5 s). */
    uint32_t walk_tech = PN_TECH_LINEAR_EQUATIONS;
    if (res == GOAL_UNKNOWN && err->code == PN_OK && !r->o->proofs_only) {
        bool found = false;
        pn_budget walk = pn_budget_share(b, smt ? 0.25 : 1.0);
        if (lin_path_random(r->cn, lin_random_steps(r->cn), 4, &walk, goal_visit, &g, &found,
                            lin_fired(r), NULL, err) == PN_OK &&
            found) {
            res = GOAL_FOUND;
            walk_tech = PN_TECH_RANDOM_WALK;
        }
    }
    smt = smt && res == GOAL_UNKNOWN && err->code == PN_OK;
    if (smt) /* the whole formula at once, with integer markings */
        res = lin_smt_get(r) == NULL
                  ? GOAL_UNKNOWN
                  : lin_refine(r, &(lin_question){.phi = phi, .ef = ef}, &g, b, err);
    if (err->code == PN_ERR_NOMEM) {
        lin_dnf_free(d);
        return err->code;
    }
    if (res == GOAL_FOUND) {
        pn_check_decide_target(r->c, i, ef, walk_tech);
        uint32_t *path = r->o->trace ? pn_fire_seq_copy(&r->fired) : NULL;
        if (path != NULL)
            pn_check_set_path(r->c, i, path, r->fired.n);
    } else if (res == GOAL_NONE) {
        uint32_t tech = PN_TECH_LINEAR_EQUATIONS | (r->n_traps > 0 ? PN_TECH_TOPOLOGICAL : 0);
        pn_check_decide_target(r->c, i, !ef, tech);
    }
    if (r->o->verbose != NULL)
        fprintf(r->o->verbose,
                "petrel: linear: %s: %s (%s%s, %u cubes, %u traps so far) in %.3f s\n",
                pn_check_answer(r->c, i)->id, lin_result_name(res, ef),
                res != GOAL_FOUND                     ? "state equation"
                : walk_tech == PN_TECH_RANDOM_WALK ? "random walk"
                                                   : "realised firing sequence",
                smt ? ", SMT" : "", d->n_cubes,
                r->n_traps, pn_clock_now() - t0);
    lin_dnf_free(d);
    return PN_OK;
}

/* The LP's bound *b is not reached: the integer maximum of the token sum is
 * below it when "sum >= k" is unsatisfiable with integer markings. Binary
 * search between the best sum a walk reached (w->max, feasible) and *b + 1
 * (infeasible, certified): *b becomes the least k - 1 proven, and the walk
 * follows the solution at the top. */
static pn_status lin_smt_bound(lin_run *r, const uint32_t *places, uint32_t n, bound_walk *w,
                               uint64_t *b, const pn_budget *budget, pn_error *err)
{
    lin_smt *smt = lin_smt_get(r);
    if (smt == NULL)
        return PN_OK;
    pn_fml_node k = {.kind = PN_FML_CONST};
    pn_fml_node sum = {.kind = PN_FML_TOKENS, .n = n, .idx = (uint32_t *)places};
    pn_fml_node *kids[2] = {&k, &sum};
    pn_fml_node ge = {.kind = PN_FML_INT_LE, .n = 2, .kids = kids};
    uint64_t lo = w->max, hi = *b + 1; /* sum >= lo reachable, sum >= hi impossible */
    bool top = false;                   /* r->x solves sum >= lo */
    while (hi - lo > 1 && !pn_budget_expired(budget)) {
        k.value = lo + (hi - lo) / 2;
        lin_result lr = lin_smt_solve(smt, &ge, false, budget, r->x);
        if (lr == LIN_INFEASIBLE)
            hi = k.value;
        else if (lr == LIN_FEASIBLE)
            lo = k.value, top = true;
        else
            break;
    }
    *b = hi - 1;
    if (w->max >= *b || !top || hi - lo > 1 || r->o->proofs_only)
        return PN_OK;
    w->target = *b;
    bool reached = false;
    return lin_path_walk(r->cn, r->x, LIN_WALK_STEPS, LIN_WALK_TRIES, budget, bound_visit, w,
                         &reached, NULL, err);
}

static pn_status lin_bound(lin_run *r, uint32_t i, const uint32_t *places, uint32_t n,
                           const pn_budget *budget, pn_error *err)
{
    double t0 = pn_clock_now();
    uint64_t b = 0;
    const char *smt = "";
    lin_result lr = lin_lp_maximise(r->lp, places, n, budget, &b, r->x);
    if (lr == LIN_OPTIMAL && b < (uint64_t)LIN_EXACT_MAX - 1 &&
        lin_lp_at_least(r->lp, places, n, b + 1, budget, NULL) != LIN_INFEASIBLE)
        lr = LIN_UNKNOWN;
    /* The shortest firing vector reaching the bound guides the walk. */
    if (lr == LIN_OPTIMAL && lin_lp_at_least(r->lp, places, n, b, budget, r->x) != LIN_FEASIBLE)
        memset(r->x, 0, (size_t)r->cn->n_transitions * sizeof *r->x);
    bool reached = false;
    if (lr == LIN_OPTIMAL) {
        bound_walk w = {.places = places, .n = n, .target = b};
        if (lin_path_walk(r->cn, r->x, LIN_WALK_STEPS, LIN_WALK_TRIES, budget, bound_visit, &w,
                          &reached, lin_fired(r), err) != PN_OK)
            return err->code;
        if (!reached && lin_path_random(r->cn, lin_random_steps(r->cn), 4, budget, bound_visit,
                                        &w, &reached, lin_fired(r), NULL, err) != PN_OK)
            return err->code;
        if (w.max > b) { /* a marking above a proven bound: never answer */
            if (r->o->verbose != NULL)
                fprintf(r->o->verbose, "petrel: linear: %s: bound %lu below a reached %lu\n",
                        pn_check_answer(r->c, i)->id, (unsigned long)b, (unsigned long)w.max);
            return PN_OK;
        }
        /* With traces, the walk that reached the bound is its path. */
        uint32_t *path = reached && r->o->trace ? pn_fire_seq_copy(&r->fired) : NULL;
        if (path != NULL)
            pn_check_set_path(r->c, i, path, r->fired.n);
        if (!reached && !r->o->no_smt) {
            uint64_t lp = b;
            if (lin_smt_bound(r, places, n, &w, &b, budget, err) != PN_OK)
                return err->code;
            smt = b < lp ? " (SMT)" : "";
            if (w.max > b) { /* never answer against a reached marking */
                if (r->o->verbose != NULL)
                    fprintf(r->o->verbose, "petrel: linear: %s: SMT bound %lu below a reached %lu\n",
                            pn_check_answer(r->c, i)->id, (unsigned long)b, (unsigned long)w.max);
                return PN_OK;
            }
            reached = w.max == b;
        }
        pn_check_bound_limit(r->c, i, b, reached, PN_TECH_LINEAR_EQUATIONS);
    }
    if (r->o->verbose != NULL)
        fprintf(r->o->verbose, "petrel: linear: %s: %s %lu%s%s in %.3f s\n",
                pn_check_answer(r->c, i)->id,
                lr == LIN_OPTIMAL ? "bound" : lr == LIN_UNBOUNDED ? "unbounded LP" : "no bound",
                (unsigned long)b, smt, reached ? ", reached" : "", pn_clock_now() - t0);
    return PN_OK;
}

/* Answers the P-semiflows decide alone (TOPOLOGICAL): a target whose
 * formula folds to a constant, a bound whose structural value the initial
 * marking already attains. */
static pn_status lin_fold_all(const pn_cnet *cn, pn_check *c, const lin_inv *inv,
                              FILE *verbose, pn_error *err)
{
    for (uint32_t i = 0; i < pn_check_count(c); i++) {
        const pn_fml_node *phi = NULL;
        const uint32_t *places = NULL;
        uint32_t np = 0;
        pn_check_target k = pn_check_target_of(c, i, &phi, &places, &np);
        if (k == PN_TARGET_NONE)
            continue;
        if (k == PN_TARGET_BOUND) {
            uint64_t ub = lin_inv_bound(inv, places, np), at0 = 0;
            for (uint32_t j = 0; j < np && ub != UINT64_MAX; j++)
                at0 += cn->m0[places[j]];
            if (ub == UINT64_MAX || at0 != ub)
                continue;
            pn_check_bound_limit(c, i, ub, true, PN_TECH_TOPOLOGICAL);
        } else {
            int v = -1;
            if (lin_fold_state(phi, cn, inv, &v, err) != PN_OK)
                return err->code;
            if (v < 0)
                continue;
            /* the same in every reachable marking, m0 included */
            pn_check_decide_target(c, i, v == 1, PN_TECH_TOPOLOGICAL);
        }
        if (verbose != NULL)
            fprintf(verbose, "petrel: linear: %s: decided by P-semiflows\n",
                    pn_check_answer(c, i)->id);
    }
    return PN_OK;
}

static bool lin_has_deadlock(const pn_fml_node *n)
{
    if (n->kind == PN_FML_DEADLOCK)
        return true;
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        if (lin_has_deadlock(n->kids[i]))
            return true;
    return false;
}

/* Does an open target mention deadlock (worth Commoner's check)? */
static bool lin_wants_siphons(const pn_check *c)
{
    for (uint32_t i = 0; i < pn_check_count(c); i++) {
        const pn_fml_node *phi = NULL;
        const uint32_t *places = NULL;
        uint32_t np = 0;
        pn_check_target k = pn_check_target_of(c, i, &phi, &places, &np);
        if ((k == PN_TARGET_EF || k == PN_TARGET_AG) && lin_has_deadlock(phi))
            return true;
    }
    return false;
}

static uint32_t lin_open(const pn_check *c);

/* Beyond this many open targets (a contest formula file has 16; a global
 * property's items are one per place or transition) the semiflows, which
 * fold every bound question at once, get half of the step: the LP after
 * them costs a few milliseconds per target, thousands of targets more than
 * the step has (OneSafe of AutoFlight-PT-96b, 7,894 places: all 618 minimal
 * semiflows in 0.3 s decide every place; a tenth of the step, 0.32 s, gave
 * up at 137; ShieldPPPt-PT-100B needs 1.04 s of its 3.2 s). */
#define LIN_FEW_TARGETS 16

/* Semiflows with a tenth of the time (at most 2 s; half, at most 20 s,
 * for many targets), siphons with as much when a formula mentions
 * deadlock, then the fold. */
static pn_status lin_invariants(const pn_cnet *cn, pn_check *c, const pn_budget *b,
                                FILE *verbose, pn_error *err)
{
    bool many = lin_open(c) > LIN_FEW_TARGETS;
    double t0 = pn_clock_now(), share = pn_budget_left_s(b) / (many ? 2 : 10);
    double cap = many ? 20.0 : 2.0;
    if (share > cap)
        share = cap;
    lin_inv *inv = NULL;
    pn_budget flows = pn_budget_within(b, share);
    pn_budget_detail(b, "P-semiflows");
    if (lin_inv_compute(cn, &flows, &inv, err) != PN_OK)
        return err->code;
    if (verbose != NULL)
        fprintf(verbose, "petrel: linear: %u P-semiflows (%s) in %.3f s\n", inv->n_flows,
                inv->complete ? "all minimal" : "gave up early", pn_clock_now() - t0);
    if (lin_wants_siphons(c)) {
        double t1 = pn_clock_now();
        pn_budget siphons = pn_budget_within(b, share);
        pn_budget_detail(b, "siphons and traps");
        inv->deadlock_free = lin_siphon_deadlock_free(cn, &siphons);
        if (verbose != NULL)
            fprintf(verbose, "petrel: linear: siphons: %s in %.3f s\n",
                    inv->deadlock_free ? "every siphon has a marked trap: no deadlock"
                                       : "not proven",
                    pn_clock_now() - t1);
    }
    pn_status st = lin_fold_all(cn, c, inv, verbose, err);
    lin_inv_free(inv);
    return st;
}

static uint32_t lin_open(const pn_check *c)
{
    uint32_t n = 0;
    const pn_fml_node *phi;
    const uint32_t *places;
    uint32_t np;
    for (uint32_t i = 0; i < pn_check_count(c); i++)
        n += pn_check_target_of(c, i, &phi, &places, &np) != PN_TARGET_NONE;
    return n;
}

static bool lin_target_open(void *ctx, uint32_t i)
{
    const uint32_t *places;
    const pn_fml_node *phi;
    uint32_t np;
    return pn_check_target_of(ctx, i, &phi, &places, &np) != PN_TARGET_NONE;
}

/* Each open target in its turn (petrel/turns.h: an equal share of the time
 * left each, what one leaves going to the next). */
static pn_status lin_all(lin_run *r, pn_error *err)
{
    pn_turns *t = NULL;
    if (pn_turns_new(&r->budget, pn_check_count(r->c), 1, PN_TURNS_ONCE, lin_target_open, r->c,
                     &t, err) != PN_OK)
        return err->code;
    pn_status st = PN_OK;
    uint32_t i;
    int pass;
    pn_budget each;
    while (st == PN_OK && pn_turns_next(t, &i, &each, &pass)) {
        const pn_fml_node *phi = NULL;
        const uint32_t *places = NULL;
        uint32_t np = 0;
        pn_check_target k = pn_check_target_of(r->c, i, &phi, &places, &np);
        pn_budget_detail(&each, "formula %s", pn_check_answer(r->c, i)->id);
        st = k == PN_TARGET_BOUND ? lin_bound(r, i, places, np, &each, err)
                                  : lin_reach(r, i, phi, k == PN_TARGET_EF, &each, err);
        pn_turns_end(t, i);
    }
    pn_turns_free(t);
    return st;
}

bool pn_linear_applies(pn_exam exam)
{
    return exam == PN_EXAM_REACH_CARDINALITY || exam == PN_EXAM_REACH_FIREABILITY ||
           exam == PN_EXAM_UPPER_BOUNDS || exam == PN_EXAM_REACH_DEADLOCK;
}

pn_status pn_linear_decide(const pn_cnet *cn, pn_check *c, const pn_linear_opts *o,
                           pn_error *err)
{
    if (lin_open(c) == 0)
        return PN_OK;
    lin_run r = {.cn = cn, .c = c, .o = o};
    r.budget = o->budget != NULL && o->budget->deadline > 0 ? pn_budget_share(o->budget, 1.0)
                                                            : pn_budget_within(o->budget, 20.0);
    r.x = calloc((size_t)cn->n_transitions + 1, sizeof *r.x);
    r.in = calloc((size_t)cn->n_places + 1, 1);
    if (r.x == NULL || r.in == NULL) {
        free(r.x);
        free(r.in);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state equation");
    }
    pn_error lerr = {0};
    pn_status st = lin_invariants(cn, c, &r.budget, o->verbose, err);
    if (st != PN_OK || lin_open(c) == 0) {
        free(r.x);
        free(r.in);
        return st;
    }
    st = lin_lp_new(cn, &r.budget, &r.lp, &lerr);
    if (st == PN_OK)
        st = lin_all(&r, err);
    else if (st != PN_ERR_NOMEM)
        st = PN_OK; /* too large for an exact LP: nothing to decide */
    else
        *err = lerr;
    if (st == PN_OK && o->verbose != NULL && r.lp == NULL)
        fprintf(o->verbose, "petrel: linear: %s\n", lerr.msg);
    lin_lp_free(r.lp);
    lin_smt_free(r.smt);
    free(r.x);
    free(r.in);
    pn_fire_seq_free(&r.fired);
    return st;
}

pn_status pn_linear_live(const pn_cnet *cn, const pn_budget *budget, bool *out, pn_error *err)
{
    (void)err;
    *out = cn->n_transitions > 0 && lin_siphon_live(cn, budget);
    return PN_OK;
}
