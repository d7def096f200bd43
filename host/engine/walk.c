/* Random walks (see walk.h), the memory-less search that ITS-Tools runs
 * before anything else (Thierry-Mieg, "Structural reductions revisited",
 * Petri Nets 2020) and TAPAAL runs beside its searches: each worker owns a
 * pn_space (space.h), walks from the initial marking firing a uniformly
 * chosen enabled transition (xorshift64, seeded per worker, so a run is
 * reproducible), restarts after max_steps or at a deadlock, and tests every
 * open goal on every marking it meets (a goal that is one transition's
 * E F fireable(t) through the enabled transitions the walk draws from:
 * one walk covers many transitions, as a family such as QuasiLiveness's
 * needs, at no cost per goal). Workers only raise per-goal flags
 * and maxima (atomics); the answers are written into the check after they
 * have joined, by the calling thread. With o->trace each worker records
 * its current walk's transitions, and the one that finds a reach goal
 * first keeps a copy of that prefix as the answer's trace. */
#include "petrel/walk.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "answers/fire_seq.h"
#include "formula/prefix_goals.h"
#include "formula/sformula.h"
#include "net/layout.h"
#include "petrel/gpu.h"
#include "petrel/space.h"
#include "pn_items.h"
#include "pn_walk.h"
#include "space/walk_aim.h"
#include "walk_moves.h"

#define WALK_STEPS 100000
#define WALK_CHECK_EVERY 64 /* steps between two looks at the clock */
/* Steps between two probes (o->probe): one costs about a pass over the
 * net's arcs, a step a few transitions' arcs. */
#define WALK_PROBE_EVERY 4096

typedef struct walk_goal {
    uint32_t answer;
    pn_check_target kind;   /* EF, AG (atom = goal index) or BOUND */
    const pn_fml_node *phi; /* EF, AG */
    const uint32_t *places; /* PN_TARGET_BOUND */
    uint32_t n_places;
    uint64_t limit;         /* PN_TARGET_BOUND: the proven upper bound */
    uint32_t techniques;    /* what proved the limit */
} walk_goal;

typedef struct walk_shared {
    const pn_cnet *cn;
    const pn_walk_opts *o;
    /* reach goals first (goal k < n_atoms reads atom k), then bounds (up to
     * n_tested: both tested on every marking), then fireable(t) goals and
     * the moves goals (walk_moves.h), both met through enabled transitions */
    walk_goal *goals;
    uint32_t n_goals, n_atoms, n_tested;
    uint32_t *fire_goal;    /* per transition: its fireable(t) goal, or UINT32_MAX */
    pn_walk_moves moves;    /* per transition: the moves goals it refutes */
    const pn_fml_node **sums; /* per moves goal (in order): its TOKENS node */
    uint32_t *sum_goal;     /* ... and its goal */
    uint32_t n_sums;
    const pn_fml_node **atoms; /* the reach goals' (n_atoms) */
    pn_prefix_goals ltl;    /* o->ltl's formulas that a prefix may refute */
    uint8_t *ltl_found;     /* per LTL goal, atomic */
    uint8_t *found;         /* per goal, atomic */
    uint64_t *max;          /* per goal, atomic: the largest bound sum seen */
    uint32_t open;          /* atomic: goals not found yet */
    uint32_t probed;        /* atomic: o->probe said stop */
    uint64_t walks;         /* atomic: walks ended, every worker's */
    uint64_t aimed, steps;  /* atomic: directed walks begun, steps walked (every worker's) */
    double t0;              /* when the walks began */
    uint64_t found_us;      /* atomic: microseconds after t0 when an LTL goal last fell */
    uint32_t **paths;       /* o->trace: per reach goal, its finder's prefix */
    uint64_t *path_len;
} walk_shared;

typedef struct walk_worker {
    walk_shared *sh;
    uint32_t id;
    pn_space *sp;
    pn_space_atoms *atoms;     /* the reach goals', on every step */
    pn_space_atoms *ltl_atoms; /* the LTL goals', on the prefix's steps only */
    uint64_t *s, *next, *letter, *marking;
    pn_space_enset en;      /* the transitions enabled in s (space.h: kept across steps) */
    pn_fire_seq fired;      /* o->trace: this walk's transitions so far */
    pn_prefix_trace prefix; /* the letters of the walk's first steps (LTL goals) */
    uint64_t step;          /* the current walk's steps so far (0: it starts at m0) */
    /* Directed walks (space/walk_aim.h), one open goal each in turn; the
     * uniform walk waits meanwhile in the aside buffers (walk_swap). */
    pn_walk_aim aim;
    bool aimed;             /* the current walk is directed */
    uint64_t aim_steps;     /* and ends after this many steps */
    uint32_t next_aim;      /* the goal the next directed walk tries first */
    uint32_t aim_goal;      /* the goal of the current directed walk */
    uint32_t round;         /* rounds of directed walks begun */
    uint8_t *aim_fails;     /* per goal: its directed walks that missed it (at most AIM_BACKOFF) */
    uint64_t *aside_s, *aside_next, aside_step;
    pn_space_enset aside_en;
    pn_fire_seq aside_fired;
    uint64_t rng;
    pn_status st;
    pn_error err;
} walk_worker;

/* Only the worker whose exchange wins writes goal k's path: read after
 * the join. */
static void walk_found(walk_worker *w, uint32_t k)
{
    walk_shared *sh = w->sh;
    if (__atomic_exchange_n(&sh->found[k], 1, __ATOMIC_ACQ_REL) != 0)
        return;
    if (sh->paths != NULL && sh->goals[k].kind != PN_TARGET_BOUND) {
        sh->paths[k] = pn_fire_seq_copy(&w->fired);
        sh->path_len[k] = w->fired.n;
    }
    __atomic_sub_fetch(&sh->open, 1, __ATOMIC_ACQ_REL);
}

/* The moves goals that t, enabled at a reachable marking, refutes. */
static void walk_moved(walk_worker *w, uint32_t t)
{
    const walk_shared *sh = w->sh;
    for (uint32_t j = sh->moves.off[t]; j < sh->moves.off[t + 1]; j++)
        if (!__atomic_load_n(&sh->found[sh->moves.goal[j]], __ATOMIC_RELAXED))
            walk_found(w, sh->moves.goal[j]);
}

/* The open LTL goals read on the walk's first len steps (dead: it ends in
 * a deadlock there). */
static void walk_ltl(walk_worker *w, uint32_t len, bool dead)
{
    walk_shared *sh = w->sh;
    for (uint32_t k = 0; k < sh->ltl.n; k++) {
        if (__atomic_load_n(&sh->ltl_found[k], __ATOMIC_RELAXED) ||
            !pn_prefix_goal_refuted(&sh->ltl, k, &w->prefix, len, dead))
            continue;
        if (__atomic_exchange_n(&sh->ltl_found[k], 1, __ATOMIC_ACQ_REL) != 0)
            continue;
        __atomic_sub_fetch(&sh->open, 1, __ATOMIC_ACQ_REL);
        __atomic_store_n(&sh->found_us, (uint64_t)((pn_clock_now() - sh->t0) * 1e6),
                         __ATOMIC_RELAXED);
    }
}

/* Tests every open goal on state w->s, the walk's step'th, which enables
 * n_enabled transitions; ends: the walk stops there. */
static void walk_visit(walk_worker *w, uint64_t step, uint32_t n_enabled, bool ends)
{
    walk_shared *sh = w->sh;
    if (sh->n_atoms > 0)
        pn_space_atoms_eval(w->atoms, w->s, n_enabled, w->letter);
    if (sh->ltl.n > 0 && step < PN_PREFIX_STEPS && !w->aimed) { /* one prefix: the uniform walk's */
        pn_space_atoms_eval(w->ltl_atoms, w->s, n_enabled,
                            pn_prefix_trace_step(&w->prefix, (uint32_t)step));
        if (pn_prefix_due((uint32_t)step + 1, ends))
            walk_ltl(w, (uint32_t)step + 1, n_enabled == 0);
    }
    bool marked = false;
    for (uint32_t i = 0; sh->n_tested < sh->n_goals && i < n_enabled; i++) {
        uint32_t t = w->en.list[i];
        uint32_t k = sh->fire_goal[t];
        if (k != UINT32_MAX && !__atomic_load_n(&sh->found[k], __ATOMIC_RELAXED))
            walk_found(w, k);
        if (sh->n_sums > 0)
            walk_moved(w, t);
    }
    for (uint32_t k = 0; k < sh->n_tested; k++) {
        if (__atomic_load_n(&sh->found[k], __ATOMIC_RELAXED))
            continue;
        const walk_goal *g = &sh->goals[k];
        if (g->kind != PN_TARGET_BOUND) {
            bool holds = (w->letter[k / 64] >> (k % 64)) & 1;
            if (holds == (g->kind == PN_TARGET_EF))
                walk_found(w, k);
            continue;
        }
        if (!marked)
            pn_space_marking(w->sp, w->s, w->marking);
        marked = true;
        uint64_t sum = pn_marking_sum(w->marking, g->places, g->n_places);
        pn_atomic_max_u64(&sh->max[k], sum);
        if (sum >= g->limit)
            walk_found(w, k);
    }
}

/* (Re)allocates the states of both walks for the space's width now: both
 * start again at m0. */
static pn_status walk_buffers(walk_worker *w)
{
    uint32_t words = pn_space_words(w->sp);
    uint64_t **buf[4] = {&w->s, &w->next, &w->aside_s, &w->aside_next};
    bool ok = true;
    for (int i = 0; i < 4; i++) {
        free(*buf[i]);
        *buf[i] = malloc(((size_t)words + 1) * sizeof **buf[i]);
        ok = ok && *buf[i] != NULL;
    }
    w->step = w->aside_step = 0;
    return ok ? PN_OK : pn_fail(&w->err, PN_ERR_NOMEM, "out of memory for random walks");
}

/* Puts the current walk aside and takes up the other one. */
static void walk_swap(walk_worker *w)
{
#define WALK_SWAP(a, b, type) do { type t_ = a; a = b; b = t_; } while (0)
    WALK_SWAP(w->s, w->aside_s, uint64_t *);
    WALK_SWAP(w->next, w->aside_next, uint64_t *);
    WALK_SWAP(w->step, w->aside_step, uint64_t);
    WALK_SWAP(w->en, w->aside_en, pn_space_enset);
    WALK_SWAP(w->fired, w->aside_fired, pn_fire_seq);
#undef WALK_SWAP
}

/* Whether every goal left is an LTL one (no probe either). */
static bool walk_only_ltl(const walk_shared *sh)
{
    if (sh->ltl.n == 0 || sh->o->probe != NULL)
        return false;
    uint32_t ltl_open = 0;
    for (uint32_t k = 0; k < sh->ltl.n; k++)
        ltl_open += !__atomic_load_n(&sh->ltl_found[k], __ATOMIC_RELAXED);
    return ltl_open == __atomic_load_n(&sh->open, __ATOMIC_ACQUIRE);
}

/* When only LTL goals are left, the walks end once none has fallen for as
 * long as it took to the last one and at least LTL_WALKS_MIN walks have
 * gone by: a prefix that violates a formula shows up in the first walks or
 * rarely (RwMutex-PT-r2000w0010 LTLFireability: six fall in the first two
 * walks, nothing in the next thirteen, and the rest of the step's second
 * went short to the decision diagrams after it, which needed it;
 * Eratosthenes-PT-050's diagrams decide in 0.02 s what the walks leave). */
#define LTL_WALKS_MIN 16

static bool walk_ltl_spent(const walk_shared *sh)
{
    const pn_budget *b = sh->o->budget;
    if (b == NULL || b->deadline <= 0 ||
        __atomic_load_n(&sh->walks, __ATOMIC_RELAXED) < LTL_WALKS_MIN)
        return false;
    double now = pn_clock_now() - sh->t0;
    double found = (double)__atomic_load_n(&sh->found_us, __ATOMIC_RELAXED) * 1e-6;
    return now >= 2 * found && walk_only_ltl(sh);
}

static bool walk_stop(const walk_worker *w)
{
    const walk_shared *sh = w->sh;
    bool goals_done = sh->o->probe == NULL && __atomic_load_n(&sh->open, __ATOMIC_ACQUIRE) == 0;
    return goals_done || walk_ltl_spent(sh) || __atomic_load_n(&sh->probed, __ATOMIC_ACQUIRE) ||
           pn_budget_expired(sh->o->budget);
}

/* Runs o->probe on the marking w->s; true when it says stop. */
static bool walk_probe(walk_worker *w)
{
    walk_shared *sh = w->sh;
    pn_space_marking(w->sp, w->s, w->marking);
    if (!sh->o->probe(sh->o->probe_ctx, w->marking))
        return false;
    __atomic_store_n(&sh->probed, 1, __ATOMIC_RELEASE);
    return true;
}

/* The current walk, from where it is (m0 when w->step is 0) for at most
 * quota steps (it then waits there) or to its end; *used: the steps
 * taken. False when the worker should stop (goals done, budget, error). */
static bool walk_once(walk_worker *w, uint64_t max_steps, uint64_t quota, uint64_t *used)
{
    if (w->step == 0) {
        pn_space_initial(w->sp, w->s);
        pn_space_enset_fill(w->sp, &w->en, w->s);
        pn_fire_seq_restart(&w->fired);
    }
    for (uint64_t k = 0;; k++, w->step++) {
        uint64_t step = w->step;
        *used = k;
        uint32_t n = w->en.n;
        /* Only LTL goals left: a walk is read no further than its prefix,
         * so a new one starts there. */
        bool ends = n == 0 || step >= max_steps ||
                    (step + 1 == PN_PREFIX_STEPS && walk_only_ltl(w->sh));
        walk_visit(w, step, n, ends);
        if (step % WALK_CHECK_EVERY == 0 && walk_stop(w)) {
            __atomic_add_fetch(&w->sh->steps, k, __ATOMIC_RELAXED);
            return false;
        }
        if (w->sh->o->probe != NULL && (ends || step % WALK_PROBE_EVERY == 0) && walk_probe(w))
            return false;
        if (ends) {
            __atomic_add_fetch(&w->sh->walks, 1, __ATOMIC_RELAXED);
            __atomic_add_fetch(&w->sh->steps, k, __ATOMIC_RELAXED);
            w->step = 0;
            return true;
        }
        if (k >= quota) { /* it goes on from this state at its next turn */
            __atomic_add_fetch(&w->sh->steps, k, __ATOMIC_RELAXED);
            return true;
        }
        uint32_t t = w->aimed ? pn_walk_aim_pick(&w->aim, w->en.list, n, &w->rng)
                              : w->en.list[pn_walk_rand(&w->rng) % n];
        uint32_t over = pn_space_fire(w->sp, w->s, t, w->next);
        if (over != 0) { /* a field overflowed: widen, walk again */
            uint32_t p = over - 1;
            w->st = pn_space_widen(w->sp, &p, 1, &w->err);
            if (w->st == PN_OK)
                w->st = walk_buffers(w);
            return w->st == PN_OK;
        }
        if (w->sh->paths != NULL)
            pn_fire_seq_push(&w->fired, t);
        uint64_t *tmp = w->s;
        w->s = w->next;
        w->next = tmp;
        pn_space_enset_fired(w->sp, &w->en, w->s, t);
    }
}

static pn_status walk_setup(walk_worker *w)
{
    walk_shared *sh = w->sh;
    if (pn_space_pt_new(sh->cn, &w->sp, &w->err) != PN_OK)
        return w->err.code;
    if (sh->n_atoms > 0 &&
        pn_space_atoms_new(w->sp, sh->atoms, sh->n_atoms, &w->atoms, &w->err) != PN_OK)
        return w->err.code;
    if (sh->ltl.n > 0 &&
        (pn_space_atoms_new(w->sp, sh->ltl.atoms, sh->ltl.n_atoms, &w->ltl_atoms, &w->err) !=
             PN_OK ||
         pn_prefix_trace_init(&w->prefix, pn_space_atoms_words(w->ltl_atoms), 0, &w->err) !=
             PN_OK))
        return w->err.code;
    uint32_t lw = w->atoms != NULL ? pn_space_atoms_words(w->atoms) : 1;
    w->aim_fails = calloc((size_t)sh->n_goals + 1, 1);
    if (w->aim_fails == NULL || pn_walk_aim_init(&w->aim, sh->cn, &w->err) != PN_OK)
        return pn_fail(&w->err, PN_ERR_NOMEM, "out of memory for random walks");
    w->letter = calloc(lw, sizeof *w->letter);
    w->marking = calloc((size_t)sh->cn->n_places + 1, sizeof *w->marking);
    if (w->letter == NULL || w->marking == NULL)
        return pn_fail(&w->err, PN_ERR_NOMEM, "out of memory for random walks");
    if (pn_space_enset_init(w->sp, &w->en, &w->err) != PN_OK ||
        pn_space_enset_init(w->sp, &w->aside_en, &w->err) != PN_OK)
        return w->err.code;
    return walk_buffers(w);
}

/* A directed walk meets its goal in a few steps per unit of distance or
 * wanders off (ShieldPPPt-PT-100B: within 600 steps at distances up to
 * 130): it ends after AIM_STEPS_PER_DEPTH steps per unit of the goal's
 * greatest distance plus AIM_STEPS, and the next goal has its turn. A goal
 * whose directed walks missed it f times has one every 2^f rounds (f at
 * most AIM_BACKOFF): where the goal is no place deep in one part but a
 * configuration of the whole net (Philosophers-PT-001000's A G counter-
 * examples), the uniform walk meets it and gets the time. */
#define AIM_STEPS 2048
#define AIM_STEPS_PER_DEPTH 16
#define AIM_BACKOFF 6

/* Aims the next walk at the next open goal of this round (from
 * w->next_aim on) that has places to aim at (walk_aim.h); false at the
 * round's end: that walk is uniform, and the next round starts again from
 * the first goal. */
static bool walk_aim_next(walk_worker *w)
{
    const walk_shared *sh = w->sh;
    for (uint32_t k = w->next_aim; k < sh->n_goals; k++) {
        const walk_goal *g = &sh->goals[k];
        if (__atomic_load_n(&sh->found[k], __ATOMIC_RELAXED) ||
            w->round % (1u << w->aim_fails[k]) != 0)
            continue;
        uint32_t depth = pn_walk_aim_at(&w->aim, g->phi, g->places, g->n_places);
        if (depth == 0) {
            w->aim_fails[k] = AIM_BACKOFF; /* nothing to aim at: rarely asked again */
            continue;
        }
        w->next_aim = k + 1;
        w->aim_goal = k;
        w->aim_steps = AIM_STEPS + (uint64_t)AIM_STEPS_PER_DEPTH * depth;
        return true;
    }
    w->next_aim = 0;
    w->round++;
    return false;
}

/* One directed walk, from m0, with the uniform walk put aside; false:
 * stop. */
static bool walk_aimed_once(walk_worker *w, uint64_t max_steps, uint64_t *used)
{
    __atomic_add_fetch(&w->sh->aimed, 1, __ATOMIC_RELAXED);
    walk_swap(w);
    w->aimed = true;
    w->step = 0;
    bool go_on = walk_once(w, w->aim_steps < max_steps ? w->aim_steps : max_steps,
                           UINT64_MAX, used);
    w->aimed = false;
    walk_swap(w);
    uint32_t k = w->aim_goal;
    if (!__atomic_load_n(&w->sh->found[k], __ATOMIC_RELAXED) && w->aim_fails[k] < AIM_BACKOFF)
        w->aim_fails[k]++;
    return go_on;
}

/* Rounds of one walk directed at each open goal in turn (for those deep
 * in one part of a net of many), then the uniform walk, which tests every
 * goal at once as the directed ones do, for as many steps as the round
 * took: each kind has half the time. The uniform walk goes on from where
 * it waited, and restarts at m0 after max_steps or a deadlock as before;
 * without a goal to aim at, it is the only walk. */
static void *walk_thread(void *arg)
{
    walk_worker *w = arg;
    const pn_walk_opts *o = w->sh->o;
    w->st = walk_setup(w);
    uint64_t steps = o->max_steps ? o->max_steps : WALK_STEPS, credit = 0, used = 0;
    for (uint64_t n = 0; w->st == PN_OK && (o->max_walks == 0 || n < o->max_walks); n++) {
        bool go_on;
        if (walk_aim_next(w)) {
            go_on = walk_aimed_once(w, steps, &used);
            credit += used + 1;
        } else {
            go_on = walk_once(w, steps, credit > 0 ? credit : UINT64_MAX, &used);
            credit = 0;
        }
        if (!go_on)
            break;
    }
    return NULL;
}

static void walk_worker_free(walk_worker *w)
{
    pn_space_atoms_free(w->atoms);
    pn_space_atoms_free(w->ltl_atoms);
    pn_space_free(w->sp);
    pn_walk_aim_free(&w->aim);
    free(w->s);
    free(w->next);
    free(w->aside_s);
    free(w->aside_next);
    free(w->aim_fails);
    free(w->letter);
    free(w->marking);
    pn_space_enset_free(&w->en);
    pn_space_enset_free(&w->aside_en);
    pn_fire_seq_free(&w->fired);
    pn_fire_seq_free(&w->aside_fired);
    pn_prefix_trace_free(&w->prefix);
}

/* E F fireable(t) of one transition: found through the enabled list. */
static bool walk_fires(pn_check_target k, const pn_fml_node *phi)
{
    return k == PN_TARGET_EF && phi->kind == PN_FML_FIREABLE && phi->n == 1;
}

/* The open answers a walk can decide: reach targets (atoms first), then
 * bounds whose upper limit is proven, then one transition's E F fireable
 * (at most one goal per transition: a second asks the same), then the
 * moves goals. */
static void walk_collect(walk_shared *sh, const pn_check *c)
{
    for (int pass = 0; pass < 4; pass++) {
        for (uint32_t i = 0; i < pn_check_count(c); i++) {
            const pn_fml_node *phi = NULL;
            const uint32_t *places = NULL;
            uint32_t np = 0;
            pn_check_target k = pn_check_target_of(c, i, &phi, &places, &np);
            walk_goal g = {.answer = i, .kind = k, .phi = phi, .places = places, .n_places = np};
            bool reach = (k == PN_TARGET_EF || k == PN_TARGET_AG) && phi != NULL;
            bool fires = reach && walk_fires(k, phi);
            /* (a trace needs the marking itself: no moves goals then) */
            bool moves = reach && !fires && sh->paths == NULL;
            const pn_fml_node *sum = moves ? pn_walk_moves_sum(sh->cn, k, phi) : NULL;
            if (pass == 0 && reach && !fires && sum == NULL) {
                sh->atoms[sh->n_atoms++] = phi;
                sh->goals[sh->n_goals++] = g;
            } else if (pass == 1 && k == PN_TARGET_BOUND &&
                       pn_check_bound_known(c, i, &g.limit, &g.techniques)) {
                sh->goals[sh->n_goals++] = g;
            } else if (pass == 2 && fires && sh->fire_goal[phi->idx[0]] == UINT32_MAX) {
                sh->fire_goal[phi->idx[0]] = sh->n_goals;
                sh->goals[sh->n_goals++] = g;
            } else if (pass == 3 && sum != NULL) {
                sh->sums[sh->n_sums] = sum;
                sh->sum_goal[sh->n_sums++] = sh->n_goals;
                sh->goals[sh->n_goals++] = g;
            }
        }
        if (pass == 1)
            sh->n_tested = sh->n_goals;
    }
}

/* An LTL goal: an open formula that no reach goal reads. */
static bool walk_ltl_open(void *ctx, uint32_t i)
{
    const pn_check *c = ctx;
    const pn_fml_node *phi = NULL;
    const uint32_t *places = NULL;
    uint32_t np = 0;
    return i < pn_check_count(c) && pn_check_answer(c, i)->verdict == PN_VERDICT_UNKNOWN &&
           pn_check_target_of(c, i, &phi, &places, &np) == PN_TARGET_NONE;
}

/* The LTL goals of o->ltl: their atoms are evaluated apart from the reach
 * goals', on the prefix's steps only. */
static pn_status walk_collect_ltl(walk_shared *sh, pn_check *c, pn_error *err)
{
    if (sh->o->ltl == NULL || sh->o->trace)
        return PN_OK;
    pn_status st = pn_prefix_goals_collect(&sh->ltl, sh->o->ltl, walk_ltl_open, c, err);
    if (st != PN_OK || sh->ltl.n == 0)
        return st;
    sh->ltl_found = calloc(sh->ltl.n, 1);
    if (sh->ltl_found == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for random walks");
    return PN_OK;
}

/* Writes what was found into c; returns how many answers it decided. */
static uint32_t walk_apply(walk_shared *sh, pn_check *c, FILE *verbose)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < sh->ltl.n; k++) {
        if (!sh->ltl_found[k])
            continue;
        pn_check_decide_answer(c, sh->ltl.answer[k], false, PN_TECH_RANDOM_WALK);
        n++;
        if (verbose != NULL)
            fprintf(verbose, "petrel: walk: %s: FALSE (a run's prefix violates it)\n",
                    pn_check_answer(c, sh->ltl.answer[k])->id);
    }
    for (uint32_t k = 0; k < sh->n_goals; k++) {
        const walk_goal *g = &sh->goals[k];
        if (!sh->found[k])
            continue;
        if (g->kind == PN_TARGET_BOUND) {
            if (sh->max[k] != g->limit) /* above a proven bound: never answer */
                continue;
            pn_check_bound_limit(c, g->answer, g->limit, true,
                                 g->techniques | PN_TECH_RANDOM_WALK);
        } else {
            pn_check_decide_target(c, g->answer, g->kind == PN_TARGET_EF, PN_TECH_RANDOM_WALK);
            if (sh->paths != NULL && sh->paths[k] != NULL) {
                pn_check_set_path(c, g->answer, sh->paths[k], sh->path_len[k]);
                sh->paths[k] = NULL; /* the check owns it */
            }
        }
        n++;
        if (verbose != NULL)
            fprintf(verbose, "petrel: walk: %s: %s\n", pn_check_answer(c, g->answer)->id,
                    g->kind == PN_TARGET_EF   ? "E F true (witness)"
                    : g->kind == PN_TARGET_AG ? "A G false (counterexample)"
                                              : "bound attained");
    }
    return n;
}

static pn_status walk_run(walk_shared *sh, uint32_t threads, pn_error *err)
{
    walk_worker *w = calloc(threads, sizeof *w);
    pthread_t *tid = calloc(threads, sizeof *tid);
    pn_status st = w != NULL && tid != NULL
                       ? PN_OK
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory for random walks");
    uint32_t started = 0;
    for (uint32_t i = 0; st == PN_OK && i < threads; i++) {
        w[i] = (walk_worker){.sh = sh, .id = i, .rng = pn_walk_seed(sh->o->seed, i)};
        if (pthread_create(&tid[i], NULL, walk_thread, &w[i]) != 0)
            break;
        started++;
    }
    for (uint32_t i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    for (uint32_t i = 0; i < started && st == PN_OK; i++)
        if (w[i].st != PN_OK)
            st = pn_fail(err, w[i].st, "%s", w[i].err.msg);
    for (uint32_t i = 0; w != NULL && i < threads; i++)
        walk_worker_free(&w[i]);
    free(w);
    free(tid);
    return st;
}

/* The goals as the GPU kernels' items (kernels/pn_items.h), walked on the
 * device; what they met goes into sh->found / sh->max as the CPU walkers'
 * would. False when the device cannot walk (the CPU walks then). */
static bool walk_on_gpu(walk_shared *sh, FILE *verbose)
{
    pn_item *items = calloc((size_t)sh->n_goals + 1, sizeof *items);
    pn_item_found *found = calloc((size_t)sh->n_goals + 1, sizeof *found);
    pn_sformula_owned **sf = calloc((size_t)sh->n_goals + 1, sizeof *sf);
    pn_error err = {0};
    bool ok = items != NULL && found != NULL && sf != NULL;
    uint32_t local = 0;
    for (uint32_t k = 0; ok && k < sh->n_goals; k++) {
        const walk_goal *g = &sh->goals[k];
        pn_item *it = &items[k];
        it->answer = k;
        it->local = UINT32_MAX;
        if (g->kind == PN_TARGET_BOUND) {
            it->kind = PN_ITEM_BOUND;
            it->places = g->places;
            it->n_places = g->n_places;
            it->has_limit = 1;
            it->limit = g->limit;
            it->local = local < PN_ITEMS_LOCAL ? local++ : UINT32_MAX;
        } else {
            it->kind = g->kind == PN_TARGET_EF ? PN_ITEM_EF : PN_ITEM_AG;
            ok = pn_sformula_compile(g->phi, &sf[k], &err) == PN_OK;
            if (ok)
                it->f = sf[k]->f;
        }
    }
    ok = ok && pn_gpu_walk(sh->cn, items, sh->n_goals, sh->o, found, &err) == PN_OK;
    for (uint32_t k = 0; ok && k < sh->n_goals; k++) {
        sh->found[k] = found[k].witness != PN_ITEM_NONE;
        sh->max[k] = found[k].max;
    }
    if (!ok && verbose != NULL)
        fprintf(verbose, "petrel: walk: GPU walks failed (%s); walking on the CPU\n",
                err.msg[0] ? err.msg : "out of memory");
    for (uint32_t k = 0; sf != NULL && k < sh->n_goals; k++)
        pn_sformula_free(sf[k]);
    free(sf);
    free(items);
    free(found);
    return ok;
}

pn_status pn_walk_decide(const pn_cnet *cn, pn_check *c, const pn_walk_opts *o,
                         uint32_t *decided, pn_error *err)
{
    if (decided != NULL)
        *decided = 0;
    bool bounded = (o->budget != NULL && o->budget->deadline > 0) || o->max_walks > 0;
    uint32_t n = c != NULL ? pn_check_count(c) : 0;
    if (!bounded || (n == 0 && o->probe == NULL))
        return PN_OK;
    walk_shared sh = {.cn = cn, .o = o};
    sh.goals = calloc((size_t)n + 1, sizeof *sh.goals);
    sh.atoms = calloc((size_t)n + 1, sizeof *sh.atoms);
    sh.found = calloc((size_t)n + 1, 1);
    sh.max = calloc((size_t)n + 1, sizeof *sh.max);
    sh.fire_goal = malloc(((size_t)cn->n_transitions + 1) * sizeof *sh.fire_goal);
    sh.sums = calloc((size_t)n + 1, sizeof *sh.sums);
    sh.sum_goal = calloc((size_t)n + 1, sizeof *sh.sum_goal);
    for (uint32_t t = 0; sh.fire_goal != NULL && t < cn->n_transitions; t++)
        sh.fire_goal[t] = UINT32_MAX;
    if (o->trace) {
        sh.paths = calloc((size_t)n + 1, sizeof *sh.paths);
        sh.path_len = calloc((size_t)n + 1, sizeof *sh.path_len);
    }
    bool traced = !o->trace || (sh.paths != NULL && sh.path_len != NULL);
    pn_status st = sh.goals && sh.atoms && sh.found && sh.max && sh.fire_goal && sh.sums &&
                           sh.sum_goal && traced
                       ? PN_OK
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory for random walks");
    if (st == PN_OK && c != NULL)
        walk_collect(&sh, c);
    if (st == PN_OK && c != NULL)
        st = walk_collect_ltl(&sh, c, err);
    if (st == PN_OK && sh.n_sums > 0)
        st = pn_walk_moves_build(cn, sh.sums, sh.sum_goal, sh.n_sums, &sh.moves, err);
    sh.open = sh.n_goals + sh.ltl.n;
    sh.t0 = pn_clock_now();
    /* Each walker sets up a state space of its own: as many as the memory
     * left holds (none: nothing walks). */
    uint32_t threads = o->threads ? o->threads : 1;
    uint64_t room = pn_budget_memory(o->budget), each = pn_layout_bytes(cn);
    if (room != 0 && room / each < threads)
        threads = (uint32_t)(room / each);
    /* The GPU walks keep no paths, run no probe and read no prefix: then
     * the CPU walks. */
    bool gpu = o->gpu && !o->trace && o->probe == NULL && sh.ltl.n == 0;
    if (st == PN_OK && (sh.n_goals > 0 || sh.ltl.n > 0 || o->probe != NULL) && threads > 0 &&
        !(gpu && walk_on_gpu(&sh, o->verbose)))
        st = walk_run(&sh, threads, err);
    uint32_t k = st == PN_OK && c != NULL ? walk_apply(&sh, c, o->verbose) : 0;
    if (o->verbose != NULL && sh.walks > 0)
        fprintf(o->verbose, "petrel: walk: %lu walks ended (%lu directed), %lu steps, in %.3f s\n",
                (unsigned long)sh.walks, (unsigned long)sh.aimed, (unsigned long)sh.steps,
                pn_clock_now() - sh.t0);
    if (decided != NULL)
        *decided = k;
    free(sh.goals);
    free(sh.atoms);
    free(sh.found);
    free(sh.max);
    free(sh.fire_goal);
    free(sh.sums);
    free(sh.sum_goal);
    free(sh.ltl_found);
    pn_prefix_goals_free(&sh.ltl);
    pn_walk_moves_free(&sh.moves);
    for (uint32_t g = 0; sh.paths != NULL && g < n; g++)
        free(sh.paths[g]); /* those walk_apply did not hand over */
    free(sh.paths);
    free(sh.path_len);
    return st;
}
