/* Duplicate and null transitions (Thierry-Mieg 2020, rules on "same
 * transitions" and "empty effect"; verifypn rule B): transitions are
 * compared on their arcs to the places that still have arcs (constant
 * places' tests always hold, removed sinks are never read), grouped by a
 * hash of those arcs, then compared exactly. */
#include "reduce/reduce_work.h"

#include <stdlib.h>
#include <string.h>

typedef struct red_sig {
    uint64_t hash;
    uint32_t t;
} red_sig;

static uint64_t red_mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

/* The multiset of kept arcs of list [a, b) (merged, so order-free sum of
 * per-arc hashes). */
static uint64_t red_arcs_hash(const red_work *w, const pn_cnet_arc *arcs, uint32_t a, uint32_t b)
{
    uint64_t h = 0;
    for (uint32_t k = a; k < b; k++)
        if (w->pstate[arcs[k].place] == RED_P_KEEP)
            h += red_mix(arcs[k].place, arcs[k].weight);
    return h;
}

/* Kept arcs of [a, b) all in [c, d) with the same weight, and as many. */
static bool red_arcs_same(const red_work *w, const pn_cnet_arc *arcs, uint32_t a, uint32_t b,
                          uint32_t c, uint32_t d)
{
    uint32_t na = 0, nc = 0;
    for (uint32_t k = c; k < d; k++)
        nc += w->pstate[arcs[k].place] == RED_P_KEEP;
    for (uint32_t k = a; k < b; k++) {
        if (w->pstate[arcs[k].place] != RED_P_KEEP)
            continue;
        na++;
        bool found = false;
        for (uint32_t j = c; j < d && !found; j++)
            found = arcs[j].place == arcs[k].place && arcs[j].weight == arcs[k].weight;
        if (!found)
            return false;
    }
    return na == nc;
}

static bool red_same_trans(const red_work *w, uint32_t t, uint32_t u)
{
    const pn_cnet *cn = w->cn;
    return red_arcs_same(w, cn->pre, cn->pre_off[t], cn->pre_off[t + 1], cn->pre_off[u],
                         cn->pre_off[u + 1]) &&
           red_arcs_same(w, cn->post, cn->post_off[t], cn->post_off[t + 1], cn->post_off[u],
                         cn->post_off[u + 1]);
}

static int red_sig_cmp(const void *a, const void *b)
{
    const red_sig *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t;
}

/* Within one run of equal hashes: the first of each class is kept (the
 * lowest index), the others map to it. Same pre-set on the kept places and
 * always-true tests elsewhere: same enabledness; same post: same successor.
 * So the reachability graph only loses parallel edges, and fireable(u)
 * reads as fireable(t). */
static uint32_t red_dup_run(red_work *w, const red_sig *s, uint32_t n)
{
    uint32_t removed = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = s[i].t;
        if (!red_alive(w, t))
            continue;
        for (uint32_t j = i + 1; j < n; j++) {
            uint32_t u = s[j].t;
            if (red_alive(w, u) && red_same_trans(w, t, u)) {
                w->tmap[u] = t;
                w->tobs[t] |= w->tobs[u];
                removed++;
            }
        }
    }
    return removed;
}

pn_status red_duplicates(red_work *w, uint32_t *removed, pn_error *err)
{
    const pn_cnet *cn = w->cn;
    red_sig *s = malloc(((size_t)cn->n_transitions + 1) * sizeof *s);
    if (s == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    uint32_t n = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        if (!red_alive(w, t))
            continue;
        uint64_t h = red_arcs_hash(w, cn->pre, cn->pre_off[t], cn->pre_off[t + 1]);
        h = red_mix(h, red_arcs_hash(w, cn->post, cn->post_off[t], cn->post_off[t + 1]));
        s[n++] = (red_sig){h, t};
    }
    qsort(s, n, sizeof *s, red_sig_cmp);
    *removed = 0;
    for (uint32_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && s[j].hash == s[i].hash; j++)
            ;
        *removed += red_dup_run(w, s + i, j - i);
    }
    free(s);
    return PN_OK;
}

/* Null transitions: firing t changes no kept place (only removed sinks
 * and nothing else), so the reachable markings projected on the kept
 * places are those of the net without t. Sound for EF / AG / bounds over
 * kept places only: it may turn markings into deadlocks and removes
 * stuttering cycles, so the caller allows it for pure reachability
 * without deadlock atoms, and only for unobserved t. */
pn_status red_null(red_work *w, uint32_t *removed, pn_error *err)
{
    (void)err;
    const pn_cnet *cn = w->cn;
    *removed = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        if (!red_alive(w, t) || w->tobs[t])
            continue;
        bool null = true;
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1] && null; k++)
            null = w->pstate[cn->delta[k].place] != RED_P_KEEP;
        if (null) {
            w->tmap[t] = RED_T_NULL;
            (*removed)++;
        }
    }
    return PN_OK;
}
