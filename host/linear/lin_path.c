/* Realising a solution of the state equation as a firing sequence (the
 * "findpath" idea of LoLA, Schmidt; also Wimmel & Wolf, "Applying CEGAR to
 * the Petri net state equation", 2011): fire, from the initial marking,
 * enabled transitions that the solution x still counts, until none is left
 * or none of them is enabled. Every marking met is reachable, so a caller
 * that checks its predicate on them decides exactly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linear/lin.h"
#include "petrel/space.h"
#include "pn_walk.h"


typedef struct path_buf {
    uint64_t *m, *next, *left;
    uint32_t *live;
    const pn_budget *budget; /* time, cancel and drop */
    pn_fire_seq *fired;     /* NULL, or the current walk's transitions */
} path_buf;

static void path_restart(path_buf *b, const pn_cnet *cn)
{
    memcpy(b->m, cn->m0, (size_t)cn->n_places * sizeof *b->m);
    if (b->fired != NULL)
        pn_fire_seq_restart(b->fired);
}

/* b->m becomes b->next, reached by firing t. */
static void path_step(path_buf *b, const pn_cnet *cn, uint32_t t)
{
    memcpy(b->m, b->next, (size_t)cn->n_places * sizeof *b->m);
    if (b->fired != NULL)
        pn_fire_seq_push(b->fired, t);
}

static bool path_late(const path_buf *b)
{
    return pn_budget_expired(b->budget);
}

/* One walk; try 0 takes the first enabled candidate, later tries a random
 * one (LoLA's findpath restarts with random choices too). */
static bool path_try(const pn_cnet *cn, const double *x, uint64_t max_steps, path_buf *b,
                     uint64_t *seed, bool random, lin_path_visit visit, void *ctx)
{
    uint32_t T = cn->n_transitions;
    path_restart(b, cn);
    uint32_t n_live = 0;
    for (uint32_t t = 0; t < T; t++) {
        double v = x != NULL && x[t] > 0 ? floor(x[t] + 0.5) : 0;
        b->left[t] = v > 1e15 ? (uint64_t)1e15 : (uint64_t)v;
        if (b->left[t] > 0)
            b->live[n_live++] = t;
    }
    if (visit(ctx, b->m))
        return true;
    for (uint64_t step = 0; step < max_steps && n_live > 0; step++) {
        if ((step & 1023) == 1023 && path_late(b))
            return false;
        uint32_t start = random ? (uint32_t)(pn_walk_rand(seed) % n_live) : 0, k = 0;
        while (k < n_live && !pn_cnet_enabled(cn, b->m, b->live[(start + k) % n_live]))
            k++;
        if (k == n_live)
            return false;
        k = (start + k) % n_live;
        uint32_t t = b->live[k];
        if (!pn_cnet_fire(cn, b->m, t, b->next))
            return false;
        path_step(b, cn, t);
        if (--b->left[t] == 0)
            b->live[k] = b->live[--n_live];
        else if (!random && k + 1 < n_live) { /* rotate: let the others go first */
            b->live[k] = b->live[n_live - 1];
            b->live[n_live - 1] = t;
        }
        if (visit(ctx, b->m))
            return true;
    }
    return false;
}

pn_status lin_path_walk(const pn_cnet *cn, const double *x, uint64_t max_steps, uint32_t tries,
                        const pn_budget *budget, lin_path_visit visit, void *ctx, bool *stopped,
                        pn_fire_seq *fired, pn_error *err)
{
    uint32_t P = cn->n_places, T = cn->n_transitions;
    path_buf b = {.budget = budget, .fired = fired};
    b.m = malloc(((size_t)P + 1) * sizeof *b.m);
    b.next = malloc(((size_t)P + 1) * sizeof *b.next);
    b.left = malloc(((size_t)T + 1) * sizeof *b.left);
    b.live = malloc(((size_t)T + 1) * sizeof *b.live);
    pn_status st = PN_OK;
    *stopped = false;
    if (b.m == NULL || b.next == NULL || b.left == NULL || b.live == NULL)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory realising a firing sequence");
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    uint64_t steps = tries > 0 ? max_steps / tries : 0;
    for (uint32_t i = 0; st == PN_OK && i < tries && !*stopped; i++)
        *stopped = path_try(cn, x, steps, &b, &seed, i > 0, visit, ctx);
    free(b.m);
    free(b.next);
    free(b.left);
    free(b.live);
    return st;
}

/* ---- the random walk ------------------------------------------------------
 * Its enabled transitions are kept from step to step (the incremental
 * enabledness of ITS-Tools' walker, Thierry-Mieg, "Structural reductions
 * revisited", Petri Nets 2020): after t fires, only the consumers of the
 * places t changed are tested again, so a step costs t's neighbourhood, not
 * the net; the first marking of each walk is tested whole. */

typedef struct path_enabled {
    uint32_t *cons_off, *cons; /* the consumers of each place */
    pn_space_enset set;        /* the enabled transitions (its list alone) */
    uint8_t *seen;             /* NULL, or set for each transition found enabled */
} path_enabled;

static void path_en_set(path_enabled *e, uint32_t t, bool on)
{
    pn_space_enset_put(&e->set, t, on);
    if (on && e->seen != NULL)
        e->seen[t] = 1;
}

static void path_en_all(path_enabled *e, const pn_cnet *cn, const uint64_t *m)
{
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        path_en_set(e, t, pn_cnet_enabled(cn, m, t));
}

/* After t fired on m: the consumers of the places it changed. */
static void path_en_after(path_enabled *e, const pn_cnet *cn, const uint64_t *m, uint32_t t)
{
    for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
        uint32_t p = cn->delta[k].place;
        for (uint32_t j = e->cons_off[p]; j < e->cons_off[p + 1]; j++)
            path_en_set(e, e->cons[j], pn_cnet_enabled(cn, m, e->cons[j]));
    }
}

static void path_en_free(path_enabled *e)
{
    free(e->cons_off);
    free(e->cons);
    pn_space_enset_free(&e->set);
}

/* A random walk (no guide): each step fires a uniformly chosen enabled
 * transition; restarts from m0 at a deadlock or after its share of steps. */
pn_status lin_path_random(const pn_cnet *cn, uint64_t max_steps, uint32_t tries,
                          const pn_budget *budget, lin_path_visit visit, void *ctx, bool *stopped,
                          pn_fire_seq *fired, uint8_t *seen, pn_error *err)
{
    uint32_t P = cn->n_places, T = cn->n_transitions;
    path_buf b = {.budget = budget, .fired = fired};
    path_enabled e = {.seen = seen};
    b.m = malloc(((size_t)P + 1) * sizeof *b.m);
    pn_status st = b.m == NULL ? pn_fail(err, PN_ERR_NOMEM, "out of memory for a random walk")
                               : pn_space_enset_alloc(&e.set, T, err);
    if (st == PN_OK)
        st = pn_cnet_place_index(cn, false, &e.cons_off, &e.cons, err);
    uint64_t seed = 0x2545f4914f6cdd1dULL, steps = tries > 0 ? max_steps / tries : 0;
    *stopped = false;
    for (uint32_t i = 0; st == PN_OK && i < tries && !*stopped && !path_late(&b); i++) {
        path_restart(&b, cn);
        path_en_all(&e, cn, b.m);
        *stopped = visit(ctx, b.m);
        for (uint64_t s = 0; s < steps && !*stopped && e.set.n > 0; s++) {
            if ((s & 255) == 255 && path_late(&b))
                break;
            uint32_t t = e.set.list[pn_walk_rand(&seed) % e.set.n];
            if (!pn_cnet_fire_here(cn, b.m, t))
                break;
            if (b.fired != NULL)
                pn_fire_seq_push(b.fired, t);
            path_en_after(&e, cn, b.m, t);
            *stopped = visit(ctx, b.m);
        }
    }
    free(b.m);
    path_en_free(&e);
    return st;
}
