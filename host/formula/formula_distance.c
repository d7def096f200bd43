/* The distance of a marking to a state formula: the heuristic of TAPAAL's
 * best-first reachability search (J. F. Jensen, T. Nielsen, L. K.
 * Oestergaard, J. Srba, "TAPAAL and reachability analysis of P/T nets",
 * ToPNoC XI, LNCS 9930, 2016). With the negations pushed to the atoms:
 *   dist(a <= b) = max(0, a - b),   dist(!(a <= b)) = max(0, b - a + 1);
 *   dist(fireable(t)) = the tokens t's preset lacks, min over the listed t;
 *   dist(!fireable(t)) = the tokens to take from one input place so that t
 *     is disabled, max over the listed t (each must be disabled);
 *   dist(f & g) = dist(f) + dist(g),   dist(f | g) = min(dist(f), dist(g));
 *   a deadlock: 0 where it holds, 1 where not (no finer measure is cheap).
 * The distance is 0 exactly where the formula has the wanted value, so a
 * search ordered by it checks the goal by the same number. Sums saturate
 * at PN_FML_DISTANCE_MAX. */
#include "petrel/formula.h"

__extension__ typedef unsigned __int128 dist_u128;

static uint64_t dist_cap(dist_u128 v)
{
    return v > PN_FML_DISTANCE_MAX ? PN_FML_DISTANCE_MAX : (uint64_t)v;
}

static uint64_t dist_add(uint64_t a, uint64_t b)
{
    return dist_cap((dist_u128)a + b);
}

/* Tokens t lacks to be enabled. */
static uint64_t dist_enable(const pn_cnet *cn, const uint64_t *m, uint32_t t)
{
    dist_u128 lack = 0;
    for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
        if (m[cn->pre[k].place] < cn->pre[k].weight)
            lack += cn->pre[k].weight - m[cn->pre[k].place];
    return dist_cap(lack);
}

/* Tokens to take from one input place of t so that t is disabled (a
 * transition without inputs never is). */
static uint64_t dist_disable(const pn_cnet *cn, const uint64_t *m, uint32_t t)
{
    uint64_t best = PN_FML_DISTANCE_MAX;
    for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++) {
        uint64_t have = m[cn->pre[k].place], w = cn->pre[k].weight;
        uint64_t take = have < w ? 0 : have - w + 1;
        best = take < best ? take : best;
    }
    return best;
}

static uint64_t dist_fireable(const pn_fml_node *f, bool want, const pn_cnet *cn,
                              const uint64_t *m)
{
    uint64_t d = want ? PN_FML_DISTANCE_MAX : 0;
    for (uint32_t i = 0; i < f->n; i++) {
        uint32_t t = f->idx[i];
        if (want) {
            uint64_t e = dist_enable(cn, m, t);
            d = e < d ? e : d;
        } else {
            uint64_t e = dist_disable(cn, m, t);
            d = e > d ? e : d;
        }
    }
    return d;
}

static bool dist_dead(const pn_cnet *cn, const uint64_t *m)
{
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        if (pn_cnet_enabled(cn, m, t))
            return false;
    return true;
}

uint64_t pn_fml_distance(const pn_fml_node *phi, bool want, const pn_cnet *cn,
                         const uint64_t *m)
{
    switch (phi->kind) {
    case PN_FML_TRUE: return want ? 0 : PN_FML_DISTANCE_MAX;
    case PN_FML_FALSE: return want ? PN_FML_DISTANCE_MAX : 0;
    case PN_FML_DEADLOCK: return dist_dead(cn, m) == want ? 0 : 1;
    case PN_FML_FIREABLE: return dist_fireable(phi, want, cn, m);
    case PN_FML_INT_LE: {
        /* the exact comparison says whether it is 0; the sums (saturated
         * past 2^64) how far, at least 1 */
        if (pn_fml_eval_state(phi, cn, m) == want)
            return 0;
        uint64_t a = pn_fml_eval_int(phi->kids[0], m), b = pn_fml_eval_int(phi->kids[1], m);
        uint64_t d = want ? (a > b ? dist_cap(a - b) : 0) : (b >= a ? dist_add(b - a, 1) : 0);
        return d > 0 ? d : 1;
    }
    case PN_FML_NOT: return pn_fml_distance(phi->kids[0], !want, cn, m);
    case PN_FML_AND:
    case PN_FML_OR: {
        /* all kids must reach want (AND wanted true, OR wanted false): the
         * sum; one kid suffices: the least */
        bool all = (phi->kind == PN_FML_AND) == want;
        uint64_t d = all ? 0 : PN_FML_DISTANCE_MAX;
        for (uint32_t i = 0; i < phi->n; i++) {
            uint64_t k = pn_fml_distance(phi->kids[i], want, cn, m);
            d = all ? dist_add(d, k) : (k < d ? k : d);
        }
        return d;
    }
    default: return PN_FML_DISTANCE_MAX; /* not a state formula */
    }
}
