/* Deadlock freedom by siphons and traps (Commoner's property). Theorem
 * (e.g. Murata 1989, section VIII; Desel & Esparza 1995, "Free choice
 * Petri nets", Prop. 4.26): in a net whose every input arc has weight 1,
 * if every non-empty siphon contains a trap marked at m0, no reachable
 * marking is dead. Proof: at a dead marking M every transition has an
 * input place p with M(p) < 1, so E = {p : M(p) = 0} is a siphon (every
 * transition consumes from E, so every transition feeding E does) and is
 * non-empty when every transition has an input place; a trap marked at m0
 * stays marked (whatever weights), so no marked trap lies inside E.
 * Output weights do not matter; input weights > 1 break the argument (a
 * dead transition's input place may hold a token), so the rule is not used.
 *
 * The check searches for a siphon whose largest trap is unmarked, without
 * listing siphons: S = the largest siphon inside a set X (every siphon in
 * X lies in S); if S is empty there is none; if the largest trap Q in S is
 * unmarked, S is one (give up: nothing proven); else a bad siphon inside S
 * cannot contain all of Q (it would contain a marked trap), so it lies in
 * S minus some place of Q: the search branches on the places q1..qk of Q,
 * branch i dropping qi and requiring q1..q(i-1) (a partition of the
 * cases; a required place outside the largest siphon ends a branch). Bounded
 * by a node count and the budget; out of budget proves nothing.
 *
 * Liveness by Commoner's theorem (M. Hack, "Analysis of production schemata
 * by Petri nets", MIT 1972; Desel & Esparza 1995, Theorem 4.21): a
 * free-choice system (ordinary, and any two transitions that share an
 * input place have the same input places) is live if and only if every
 * proper siphon contains a trap marked at m0; only the "if" is used.
 *
 * Dead transitions from a reachable marking m (pn_dying_at): the largest
 * siphon inside the places m leaves empty stays empty from m on (the same
 * argument as the reductions' dead transitions at m0, e.g. Murata 1989,
 * section VIII), so every transition taking from it is dead there: a
 * reachable m with one is a counterexample to Liveness. */
#include <stdlib.h>
#include <string.h>

#include "linear/lin.h"
#include "petrel/linear.h"
#include "space/pt.h"

#define SIPH_NODES 2000u

typedef struct siph_run {
    const pn_cnet *cn;
    uint32_t *feed_off, *feed_t; /* per place: the transitions putting into it */
    const uint8_t *skip;         /* per transition: never fires (NULL: none) */
    const pn_budget *budget;
    uint32_t nodes;
    /* Each level of the search holds two sets of places: the depth the
     * budget's memory allows (UINT64_MAX: unlimited), and the depth now. */
    uint64_t max_depth, depth;
} siph_run;

/* Shrinks in[] to the largest siphon inside it: a place goes when a
 * transition feeding it takes nothing from the set. UINT32_MAX: out of
 * time (in[] then means nothing). */
static uint32_t siph_max(const siph_run *s, uint8_t *in)
{
    const pn_cnet *cn = s->cn;
    bool changed = true;
    while (changed) {
        if (pn_budget_expired(s->budget))
            return UINT32_MAX;
        changed = false;
        for (uint32_t p = 0; p < cn->n_places; p++) {
            for (uint32_t k = s->feed_off[p]; in[p] && k < s->feed_off[p + 1]; k++) {
                uint32_t t = s->feed_t[k];
                bool takes = s->skip != NULL && s->skip[t];
                for (uint32_t a = cn->pre_off[t]; a < cn->pre_off[t + 1] && !takes; a++)
                    takes = in[cn->pre[a].place];
                if (!takes) {
                    in[p] = 0;
                    changed = true;
                }
            }
        }
    }
    uint32_t n = 0;
    for (uint32_t p = 0; p < cn->n_places; p++)
        n += in[p];
    return n;
}

/* true: no siphon inside x that holds every place of must lacks a marked
 * trap; false: found one or out of budget (or memory). */
static bool siph_search(siph_run *s, const uint8_t *x, uint8_t *must)
{
    uint32_t P = s->cn->n_places;
    if (++s->nodes > SIPH_NODES || s->depth >= s->max_depth || pn_budget_expired(s->budget))
        return false;
    s->depth++;
    uint8_t *S = malloc((size_t)P + 1), *Q = malloc((size_t)P + 1);
    bool ok = S != NULL && Q != NULL;
    if (ok) {
        memcpy(S, x, P);
        uint32_t size = siph_max(s, S);
        ok = size != UINT32_MAX;
        bool none = size == 0;
        for (uint32_t p = 0; p < P && !none; p++)
            none = must[p] && !S[p]; /* no siphon in x holds must */
        if (ok && !none) {
            memcpy(Q, S, P);
            bool marked = false;
            if (lin_trap_max(s->cn, Q) > 0)
                for (uint32_t p = 0; p < P; p++)
                    marked |= Q[p] && s->cn->m0[p] > 0;
            ok = marked;
            /* branch i: misses the i-th place of Q outside must, holds the
             * earlier ones (a partition: no set is searched twice) */
            for (uint32_t p = 0; ok && p < P; p++) {
                if (!Q[p] || must[p])
                    continue;
                S[p] = 0;
                ok = siph_search(s, S, must);
                S[p] = 1;
                must[p] = 1;
                Q[p] = 2; /* must[p] set here: undone below */
            }
            for (uint32_t p = 0; p < P; p++)
                if (Q[p] == 2)
                    must[p] = 0;
        }
    }
    free(S);
    free(Q);
    s->depth--;
    return ok;
}

/* The depth the memory allows the search: two sets of places a level. */
static uint64_t siph_max_depth(const pn_cnet *cn, const pn_budget *b)
{
    uint64_t room = pn_budget_memory(b);
    return room == 0 ? UINT64_MAX : room / (2 * ((uint64_t)cn->n_places + 1));
}

bool lin_siphon_deadlock_free(const pn_cnet *cn, const pn_budget *b)
{
    uint32_t P = cn->n_places, T = cn->n_transitions;
    if (T == 0)
        return false;
    for (uint32_t t = 0; t < T; t++) {
        if (cn->pre_off[t] == cn->pre_off[t + 1])
            return false; /* always enabled: the fold decides; keep the theorem's case */
        for (uint32_t a = cn->pre_off[t]; a < cn->pre_off[t + 1]; a++)
            if (cn->pre[a].weight != 1)
                return false; /* not ordinary on the input side */
    }
    siph_run s = {.cn = cn, .budget = b, .max_depth = siph_max_depth(cn, b)};
    uint8_t *x = malloc((size_t)P + 1), *must = calloc((size_t)P + 1, 1);
    bool ok = pn_cnet_place_index(cn, true, &s.feed_off, &s.feed_t, NULL) == PN_OK && x != NULL &&
              must != NULL;
    if (ok) {
        memset(x, 1, P);
        ok = siph_search(&s, x, must);
    }
    free(s.feed_off);
    free(s.feed_t);
    free(x);
    free(must);
    return ok;
}

uint32_t lin_siphon_max(const pn_cnet *cn, const uint8_t *skip, uint8_t *in, const pn_budget *b)
{
    siph_run s = {.cn = cn, .skip = skip, .budget = b};
    uint32_t n = UINT32_MAX;
    if (pn_cnet_place_index(cn, true, &s.feed_off, &s.feed_t, NULL) == PN_OK)
        n = siph_max(&s, in);
    free(s.feed_off);
    free(s.feed_t);
    return n;
}

/* Ordinary (every arc of weight 1) and free-choice: every consumer of a
 * place has the same input places as the others. */
static bool siph_free_choice(const pn_cnet *cn)
{
    uint32_t P = cn->n_places, T = cn->n_transitions;
    for (uint32_t a = 0; a < cn->pre_off[T]; a++)
        if (cn->pre[a].weight != 1)
            return false;
    for (uint32_t a = 0; a < cn->post_off[T]; a++)
        if (cn->post[a].weight != 1)
            return false;
    uint32_t *off = NULL, *cons = NULL, *mark = calloc((size_t)P + 1, sizeof *mark);
    bool ok = mark != NULL && pn_cnet_place_index(cn, false, &off, &cons, NULL) == PN_OK;
    for (uint32_t p = 0; ok && p < P; p++) {
        if (off[p + 1] - off[p] < 2)
            continue;
        uint32_t first = cons[off[p]], n = cn->pre_off[first + 1] - cn->pre_off[first];
        for (uint32_t a = cn->pre_off[first]; a < cn->pre_off[first + 1]; a++)
            mark[cn->pre[a].place] = p + 1;
        for (uint32_t k = off[p] + 1; ok && k < off[p + 1]; k++) {
            uint32_t u = cons[k];
            ok = cn->pre_off[u + 1] - cn->pre_off[u] == n;
            for (uint32_t a = cn->pre_off[u]; ok && a < cn->pre_off[u + 1]; a++)
                ok = mark[cn->pre[a].place] == p + 1;
        }
    }
    free(off);
    free(cons);
    free(mark);
    return ok;
}

bool lin_siphon_live(const pn_cnet *cn, const pn_budget *b)
{
    return siph_free_choice(cn) && lin_siphon_deadlock_free(cn, b);
}

struct pn_dying {
    const pn_cnet *cn;
    uint32_t *feed_off, *feed_t;
};

pn_status pn_dying_new(const pn_cnet *cn, pn_dying **out, pn_error *err)
{
    pn_dying *d = calloc(1, sizeof *d);
    if (d == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the siphon index");
    d->cn = cn;
    pn_status st = pn_cnet_place_index(cn, true, &d->feed_off, &d->feed_t, err);
    if (st != PN_OK) {
        free(d);
        return st;
    }
    *out = d;
    return PN_OK;
}

uint32_t pn_dying_at(const pn_dying *d, const uint64_t *m, uint8_t *dead)
{
    const pn_cnet *cn = d->cn;
    uint8_t *in = malloc((size_t)cn->n_places + 1);
    if (in == NULL)
        return UINT32_MAX;
    for (uint32_t p = 0; p < cn->n_places; p++)
        in[p] = m[p] == 0;
    siph_run s = {.cn = cn, .feed_off = d->feed_off, .feed_t = d->feed_t};
    bool some = siph_max(&s, in) > 0; /* no budget: never out of time */
    uint32_t n = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        dead[t] = 0;
        for (uint32_t a = cn->pre_off[t]; some && a < cn->pre_off[t + 1] && !dead[t]; a++)
            dead[t] = in[cn->pre[a].place];
        n += dead[t];
    }
    free(in);
    return n;
}

void pn_dying_free(pn_dying *d)
{
    if (d == NULL)
        return;
    free(d->feed_off);
    free(d->feed_t);
    free(d);
}
