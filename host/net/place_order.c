/* FORCE: F. A. Aloul, I. L. Markov, K. A. Sakallah, "FORCE: a fast and
 * easy-to-implement variable-ordering heuristic", GLSVLSI 2003.
 *
 * The vertices are the places, the hyperedges the transitions' sets of
 * places (pn_order_edges). A round puts every hyperedge at the mean
 * position of its places (its centre), every place at the mean of its
 * hyperedges' centres (a place in none keeps its own position), and ranks
 * the places by that. Each run keeps going for FORCE_ROUNDS rounds, fewer
 * on nets so large that a round costs much (FORCE_WORK place visits a
 * run), and the order of least span over every round of every run wins;
 * past the budget the rounds stop, and the best order so far is the one
 * (its setup must not outlast the step that asked for it). One of the
 * starts is the breadth-first order of E. Cuthill, J. McKee, "Reducing the
 * bandwidth of sparse symmetric matrices", ACM national conference 1969,
 * from a pseudo-peripheral place (N. E. Gibbs, W. G. Poole, P. K.
 * Stockmeyer, SIAM J. Numer. Anal. 13(2), 1976), see force_start_bfs. */
#include "net/place_order.h"

#include <stdlib.h>
#include <string.h>

#define FORCE_ROUNDS 200
#define FORCE_WORK 100000000ULL
/* A run ends after this many rounds without a span below its best: FORCE
 * then keeps an order, or swings between two (Philosophers-PT-001000's six
 * runs of 200 rounds took 0.45 s, most of its forest's setup, for no order
 * better than their first 30 rounds' best). */
#define FORCE_PATIENCE 20

/* The positions of transition t's places, one by one (pre arcs first
 * where they count). */
#define FORCE_EACH_PLACE(cn, edges, t, v, body)                                       \
    do {                                                                               \
        if ((edges) == PN_ORDER_TOUCHED)                                               \
            for (uint32_t i_ = (cn)->pre_off[t]; i_ < (cn)->pre_off[(t) + 1]; i_++) {  \
                const uint32_t v = (cn)->pre[i_].place;                                \
                body;                                                                  \
            }                                                                          \
        for (uint32_t i_ = (cn)->delta_off[t]; i_ < (cn)->delta_off[(t) + 1]; i_++) {  \
            const uint32_t v = (cn)->delta[i_].place;                                  \
            body;                                                                      \
        }                                                                              \
    } while (0)

/* Transition t's places; 0 for a transition that changes one place only
 * where changes count (it has no span to shorten, and would only hold its
 * place where it is). */
static uint32_t force_degree(const pn_cnet *cn, pn_order_edges edges, uint32_t t)
{
    uint32_t n = cn->delta_off[t + 1] - cn->delta_off[t];
    if (edges == PN_ORDER_CHANGED)
        return n >= 2 ? n : 0;
    return n + (cn->pre_off[t + 1] - cn->pre_off[t]);
}

/* The sum over the transitions of the distance between the first and the
 * last of their places: what FORCE lowers. */
static uint64_t force_span(const pn_cnet *cn, pn_order_edges edges, const double *pos)
{
    uint64_t span = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        double lo = 1e300, hi = -1e300;
        FORCE_EACH_PLACE(cn, edges, t, p, {
            lo = pos[p] < lo ? pos[p] : lo;
            hi = pos[p] > hi ? pos[p] : hi;
        });
        span += hi > lo ? (uint64_t)(hi - lo) : 0;
    }
    return span;
}

typedef struct force_key {
    double at;
    uint32_t place;
} force_key;

static int force_cmp(const void *a, const void *b)
{
    const force_key *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return x->place < y->place ? -1 : x->place > y->place;
}

/* One FORCE round: each place moves to the mean centre of its transitions
 * (sum, deg: scratch), then the places are ranked by it. With `weighted`,
 * a transition counts 1/(its places) in the mean: transitions on every
 * reader's semaphore (RwMutex's writers) otherwise pull all of them to the
 * middle, away from the places each reader's own transitions touch. */
static void force_round(const pn_cnet *cn, pn_order_edges edges, bool weighted, double *pos,
                        double *sum, double *deg, force_key *key)
{
    const uint32_t P = cn->n_places;
    memset(sum, 0, (size_t)P * sizeof *sum);
    memset(deg, 0, (size_t)P * sizeof *deg);
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        const uint32_t n = force_degree(cn, edges, t);
        if (n == 0)
            continue;
        double centre = 0;
        FORCE_EACH_PLACE(cn, edges, t, p, centre += pos[p]);
        const double w = weighted ? 1.0 / n : 1;
        centre /= n;
        FORCE_EACH_PLACE(cn, edges, t, p, {
            sum[p] += w * centre;
            deg[p] += w;
        });
    }
    for (uint32_t p = 0; p < P; p++)
        key[p] = (force_key){deg[p] > 0 ? sum[p] / deg[p] : pos[p], p};
    qsort(key, P, sizeof *key, force_cmp);
    for (uint32_t k = 0; k < P; k++)
        pos[key[k].place] = k;
}

/* A start for FORCE: the transitions by their number of places, smallest
 * first, each placing its places not yet placed. The places of a small
 * transition (a reader's idle, semaphore and reading places) end up side
 * by side whatever the net's order; FORCE alone, from an order that lists
 * all idle places, then all semaphores, keeps a local optimum where they
 * stay apart. */
static int force_by_size(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return *x < *y ? -1 : *x > *y;
}

static bool force_start_small(const pn_cnet *cn, pn_order_edges edges, double *pos)
{
    const uint32_t P = cn->n_places, T = cn->n_transitions;
    uint64_t *by = malloc(((size_t)T + 1) * sizeof *by);
    if (by == NULL)
        return false;
    for (uint32_t t = 0; t < T; t++)
        by[t] = (uint64_t)force_degree(cn, edges, t) << 32 | t;
    qsort(by, T, sizeof *by, force_by_size);
    for (uint32_t p = 0; p < P; p++)
        pos[p] = -1;
    double next = 0;
    for (uint32_t k = 0; k < T; k++) {
        const uint32_t t = (uint32_t)by[k];
        FORCE_EACH_PLACE(cn, edges, t, p, {
            if (pos[p] < 0)
                pos[p] = next++;
        });
    }
    for (uint32_t p = 0; p < P; p++)
        if (pos[p] < 0)
            pos[p] = next++;
    free(by);
    return true;
}

/* A start for FORCE: the places in breadth-first order over the net
 * (place, its transitions, their places), from a pseudo-peripheral place
 * of each connected part (Cuthill and McKee; the far end as by Gibbs,
 * Poole and Stockmeyer: from a place, the last one a search reaches, again
 * while that takes more levels). Each transition is expanded once per
 * search, so a search is linear in the arcs. FORCE moves a long chain or
 * ring only a little per round: a ring of processes listed place kind by
 * place kind (all the thinking places, then all the forks, ...) keeps a
 * span of about its length per process, where this start puts each
 * process beside its neighbours. */
typedef struct force_bfs {
    uint32_t *off, *items; /* place -> its transitions (CSR) */
    uint32_t *queue, *level, *seen_t;
    uint32_t stamp;
} force_bfs;

/* One search from `from` over the places with level UINT32_MAX - 1 (not
 * placed yet): their order in queue[0 .. *n), returns the levels it took.
 * The places stay unplaced (their level is reset by the caller). */
static uint32_t force_bfs_run(const pn_cnet *cn, pn_order_edges edges, force_bfs *b,
                              uint32_t from, uint32_t *n)
{
    b->stamp++;
    uint32_t head = 0, tail = 0, depth = 0;
    b->queue[tail++] = from;
    b->level[from] = 0;
    while (head < tail) {
        const uint32_t p = b->queue[head++];
        depth = b->level[p];
        for (uint32_t k = b->off[p]; k < b->off[p + 1]; k++) {
            const uint32_t t = b->items[k];
            if (b->seen_t[t] == b->stamp)
                continue;
            b->seen_t[t] = b->stamp;
            FORCE_EACH_PLACE(cn, edges, t, q, {
                if (b->level[q] == UINT32_MAX - 1) {
                    b->level[q] = depth + 1;
                    b->queue[tail++] = q;
                }
            });
        }
    }
    *n = tail;
    return depth;
}

static void force_bfs_reset(force_bfs *b, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        b->level[b->queue[k]] = UINT32_MAX - 1;
}

static bool force_bfs_index(const pn_cnet *cn, pn_order_edges edges, force_bfs *b)
{
    const uint32_t P = cn->n_places, T = cn->n_transitions;
    b->off = calloc((size_t)P + 2, sizeof *b->off);
    if (b->off == NULL)
        return false;
    for (uint32_t t = 0; t < T; t++)
        FORCE_EACH_PLACE(cn, edges, t, p, b->off[p + 2]++);
    for (uint32_t p = 0; p < P; p++)
        b->off[p + 2] += b->off[p + 1];
    b->items = malloc(((size_t)b->off[P + 1] + 1) * sizeof *b->items);
    if (b->items == NULL)
        return false;
    for (uint32_t t = 0; t < T; t++) /* a place twice in t (pre and delta): listed twice */
        FORCE_EACH_PLACE(cn, edges, t, p, b->items[b->off[p + 1]++] = t);
    return true;
}

static bool force_start_bfs(const pn_cnet *cn, pn_order_edges edges, double *pos)
{
    const uint32_t P = cn->n_places, T = cn->n_transitions;
    force_bfs b = {0};
    b.queue = malloc(((size_t)P + 1) * sizeof *b.queue);
    b.level = malloc(((size_t)P + 1) * sizeof *b.level);
    b.seen_t = calloc((size_t)T + 1, sizeof *b.seen_t);
    bool ok = b.queue != NULL && b.level != NULL && b.seen_t != NULL &&
              force_bfs_index(cn, edges, &b);
    for (uint32_t p = 0; ok && p < P; p++)
        b.level[p] = UINT32_MAX - 1;
    double next = 0;
    for (uint32_t p = 0; ok && p < P; p++) {
        if (b.level[p] != UINT32_MAX - 1)
            continue;
        uint32_t n = 0, depth = force_bfs_run(cn, edges, &b, p, &n);
        for (int again = 0; again < 4; again++) { /* from the far end, while it goes further */
            const uint32_t far = b.queue[n - 1];
            force_bfs_reset(&b, n);
            const uint32_t d = force_bfs_run(cn, edges, &b, far, &n);
            if (d <= depth)
                break;
            depth = d;
        }
        for (uint32_t k = 0; k < n; k++) { /* placed for good */
            pos[b.queue[k]] = next++;
            b.level[b.queue[k]] = UINT32_MAX;
        }
    }
    free(b.off);
    free(b.items);
    free(b.queue);
    free(b.level);
    free(b.seen_t);
    return ok;
}

pn_status pn_place_order(const pn_cnet *cn, pn_order_edges edges, pn_order_rounds rounds,
                         bool classic, const pn_budget *budget, uint32_t *order,
                         uint64_t *span_before, uint64_t *span_after, pn_error *err)
{
    const uint32_t P = cn->n_places, T = cn->n_transitions;
    double *pos = calloc((size_t)P + 1, sizeof *pos), *sum = calloc((size_t)P + 1, sizeof *sum);
    double *deg = calloc((size_t)P + 1, sizeof *deg);
    force_key *key = malloc(((size_t)P + 1) * sizeof *key);
    bool ok = pos != NULL && sum != NULL && deg != NULL && key != NULL;
    for (uint32_t p = 0; ok && p < P; p++) {
        pos[p] = p;
        order[p] = p;
    }
    uint64_t best = ok ? force_span(cn, edges, pos) : 0;
    if (span_before != NULL)
        *span_before = best;
    const uint64_t work = (uint64_t)cn->pre_off[T] + cn->delta_off[T] + P + 1;
    const int most = FORCE_WORK / work >= FORCE_ROUNDS ? FORCE_ROUNDS
                     : FORCE_WORK / work < 2   ? 2
                                               : (int)(FORCE_WORK / work);
    bool spent = false;
    for (int run = 0; ok && run < (classic ? 1 : 6); run++) {
        if (run < 2)
            for (uint32_t p = 0; p < P; p++)
                pos[p] = p;
        else
            ok = run < 4 ? force_start_small(cn, edges, pos) : force_start_bfs(cn, edges, pos);
        uint64_t last = force_span(cn, edges, pos); /* the run's, a round before */
        uint64_t run_best = last;
        int stale = 0; /* rounds since the run's best */
        /* a run past the budget still has its start and its first round */
        for (int round = (run == 2 || run == 4) ? -1 : 0; ok && round < most; round++) {
            if (round > 0 && (spent || (spent = pn_budget_expired(budget))))
                break;
            if (round >= 0) {
                force_round(cn, edges, run & 1, pos, sum, deg, key);
            } else { /* the start itself is a candidate */
                for (uint32_t p = 0; p < P; p++)
                    key[(uint32_t)pos[p]] = (force_key){pos[p], p};
            }
            const uint64_t span = force_span(cn, edges, pos);
            if (span < best) {
                best = span;
                for (uint32_t k = 0; k < P; k++)
                    order[k] = key[k].place;
            }
            if (rounds == PN_ORDER_CONVERGE && round >= 0 && span >= last)
                break;
            stale = span < run_best ? 0 : stale + 1;
            run_best = span < run_best ? span : run_best;
            if (stale >= FORCE_PATIENCE)
                break;
            last = span;
        }
    }
    if (span_after != NULL)
        *span_after = best;
    free(pos);
    free(sum);
    free(deg);
    free(key);
    return ok ? PN_OK : pn_fail(err, PN_ERR_NOMEM, "out of memory for the place order");
}
