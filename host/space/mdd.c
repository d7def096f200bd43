/* Quasi-reduced MDDs over markings (see mdd.h for the papers).
 *
 * Node n: level lvl[n], cnt[n] edges from off[n] in val/kid, values strictly
 * increasing; node 0 is the empty set, node 1 the terminal below the last
 * level (the set holding the empty tuple). A unique table (open addressing
 * over node ids) makes nodes canonical; a direct-mapped operation cache,
 * which may forget, memoises the recursions. Results are built on a stack
 * of edges: a call pushes its node's edges above the caller's and makes a
 * node of them, so recursion needs no allocation per call; the
 * saturations grow their node in a row per level (mdd_row) instead, and
 * make it once. Everything is addressed by index: the arrays move when
 * they grow. */
#include "space/mdd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pn_state.h"

/* Work between two looks at the clock: one per operation step, plus one per
 * edge of each node made (a node's hash, comparison and copy are as long as
 * it is: an unbounded place's level grows nodes of 10^4 edges, and a count of
 * steps alone then looked at the clock seconds apart under a sanitizer). */
#define MDD_TICK 4096u

enum { OP_UNION = 1, OP_INTER, OP_MINUS, OP_POST, OP_PRE, OP_ENAB, OP_SAT, OP_PREW, OP_PREALL, OP_BSAT, OP_LIN };
#define OP_BITS 4 /* OP_LIN | constraint id << OP_BITS */

typedef struct mdd_tr { /* a touched level of a transition */
    uint32_t level;
    uint64_t pre;
    int64_t delta;
} mdd_tr;

/* A node under construction by saturation (mdd_sat): its edges in value
 * order, and the values whose child this level's transitions have not yet
 * fired on (dirty, and stacked on todo). One row per level: a saturation
 * at level L calls others only below L, so a level has one at a time. */
typedef struct mdd_row {
    uint32_t *v, *k, *todo;
    uint8_t *dirty;
    uint64_t n, cap, nt;
} mdd_row;

typedef struct mdd_entry {
    uint64_t b;
    uint32_t op; /* 0: empty */
    uint32_t a, r;
} mdd_entry;

struct pn_mdd {
    uint32_t P, T;
    const pn_budget *budget;
    /* pn_budget_memory when the budget was set (0: unlimited), and the
     * forest's bytes then: a watched process counts them as resident
     * already, so only the growth past them takes from the room (mdd_room). */
    uint64_t room, base;
    pn_status status;
    uint64_t steps;   /* work done (see MDD_TICK) */
    uint64_t look_at; /* the work at which the clock is next read */
    uint32_t *lvl, *cnt;
    uint64_t *off;
    uint64_t n_nodes, cap_nodes;
    uint32_t *val, *kid;
    uint64_t n_edges, cap_edges;
    uint64_t *uniq;          /* high hash bits << 32 | node id; 0: free */
    uint64_t uniq_n;
    mdd_entry *cache;
    uint64_t cache_mask;
    uint64_t cache_max;      /* the entries the cache may grow to */
    uint32_t *sv, *sk;       /* the edge stack */
    uint64_t top, cap_stack;
    uint32_t *level_place;
    uint32_t *tr_off;        /* T + 1 */
    mdd_tr *tr;
    uint32_t *ev_off, *ev;   /* P + 1: the transitions whose top touched level is L */
    /* pn_mdd_linear's current constraint */
    uint32_t lin_id;
    const int64_t *lin_coef;
    int64_t lin_bound;
    uint8_t *pos_below, *neg_below; /* P + 1: a coefficient > 0 / < 0 at this level or below */
    mdd_row *rows;           /* P */
    uint64_t row_bytes;
};

pn_status pn_mdd_status(const pn_mdd *d) { return d->status; }

/* The room is asked once per budget (pn_budget_memory is a snapshot: a
 * forest that asked at every growth would count its own nodes twice). */
static void mdd_take_room(pn_mdd *d)
{
    d->room = pn_budget_memory(d->budget);
    d->base = d->budget != NULL && d->budget->process != 0 ? pn_mdd_bytes(d) : 0;
}

void pn_mdd_set_budget(pn_mdd *d, const pn_budget *budget)
{
    d->budget = budget;
    mdd_take_room(d);
    if (d->status == PN_ERR_TIMEOUT || d->status == PN_ERR_CANCELLED)
        d->status = PN_OK;
}

uint64_t pn_mdd_room(const pn_mdd *d)
{
    return d->room == 0 ? 0 : d->room + d->base;
}
uint64_t pn_mdd_nodes(const pn_mdd *d) { return d->n_nodes; }

uint64_t pn_mdd_bytes(const pn_mdd *d)
{
    return d->cap_nodes * (2 * sizeof(uint32_t) + sizeof(uint64_t)) +
           d->cap_edges * 2 * sizeof(uint32_t) + d->uniq_n * sizeof(uint64_t) +
           (d->cache_mask + 1) * sizeof(mdd_entry) + d->cap_stack * 2 * sizeof(uint32_t) +
           d->row_bytes;
}

static pn_mdd_ref mdd_stop(pn_mdd *d, pn_status why)
{
    if (d->status == PN_OK)
        d->status = why;
    return PN_MDD_STOP;
}

/* Whether `more` bytes may be added to what the forest holds. */
static bool mdd_fits(pn_mdd *d, uint64_t more)
{
    uint64_t room = pn_mdd_room(d);
    if (room != 0 && pn_mdd_bytes(d) + more > room) {
        mdd_stop(d, PN_ERR_OUT_OF_MEMORY);
        return false;
    }
    return true;
}

static bool mdd_tick(pn_mdd *d)
{
    if (d->status != PN_OK)
        return false;
    if (++d->steps >= d->look_at) {
        d->look_at = d->steps + MDD_TICK;
        pn_status s = pn_budget_status(d->budget);
        if (s != PN_OK) {
            mdd_stop(d, s);
            return false;
        }
    }
    return true;
}

/* The capacity that holds need (doubling from cap), if the budget allows
 * `each` bytes more per added entry; 0 when it does not. */
static uint64_t mdd_capacity(pn_mdd *d, uint64_t cap, uint64_t need, size_t each)
{
    uint64_t n = cap ? cap : 1024;
    while (n < need)
        n *= 2;
    return mdd_fits(d, (n - cap) * each) ? n : 0;
}

/* *p resized to n entries of `each` bytes. */
static bool mdd_resize(pn_mdd *d, void *p, uint64_t n, size_t each)
{
    void *q = realloc(*(void **)p, n * each);
    if (q == NULL) {
        mdd_stop(d, PN_ERR_NOMEM);
        return false;
    }
    *(void **)p = q;
    return true;
}

static bool mdd_push(pn_mdd *d, uint32_t v, pn_mdd_ref c)
{
    if (d->top == d->cap_stack) {
        uint64_t n = mdd_capacity(d, d->cap_stack, d->top + 1, 2 * sizeof(uint32_t));
        if (n == 0 || !mdd_resize(d, &d->sv, n, sizeof(uint32_t)) ||
            !mdd_resize(d, &d->sk, n, sizeof(uint32_t)))
            return false;
        d->cap_stack = n;
    }
    d->sv[d->top] = v;
    d->sk[d->top] = c;
    d->top++;
    return true;
}

/* Room for one more node with n edges. */
static bool mdd_room(pn_mdd *d, uint64_t n)
{
    if (d->n_nodes == d->cap_nodes) {
        uint64_t c = mdd_capacity(d, d->cap_nodes, d->n_nodes + 1,
                                  2 * sizeof(uint32_t) + sizeof(uint64_t));
        if (c == 0 || !mdd_resize(d, &d->lvl, c, sizeof(uint32_t)) ||
            !mdd_resize(d, &d->cnt, c, sizeof(uint32_t)) ||
            !mdd_resize(d, &d->off, c, sizeof(uint64_t)))
            return false;
        d->cap_nodes = c;
    }
    if (d->n_edges + n > d->cap_edges) {
        uint64_t c = mdd_capacity(d, d->cap_edges, d->n_edges + n, 2 * sizeof(uint32_t));
        if (c == 0 || !mdd_resize(d, &d->val, c, sizeof(uint32_t)) ||
            !mdd_resize(d, &d->kid, c, sizeof(uint32_t)))
            return false;
        d->cap_edges = c;
    }
    return true;
}

/* One multiply-add per edge and one finalizer: the edges of a new node are
 * hashed each time it is made, so the hash must be cheap. */
static uint64_t mdd_hash(uint32_t level, const uint32_t *v, const uint32_t *k, uint64_t n)
{
    uint64_t h = level ^ (n << 32);
    for (uint64_t i = 0; i < n; i++)
        h = (h ^ ((uint64_t)v[i] << 32 | k[i])) * 0x9e3779b97f4a7c15ULL;
    return pn_mix64(h);
}

static bool mdd_same(const pn_mdd *d, uint32_t node, uint32_t level, uint64_t base, uint64_t n)
{
    return d->lvl[node] == level && d->cnt[node] == n &&
           memcmp(d->val + d->off[node], d->sv + base, n * sizeof(uint32_t)) == 0 &&
           memcmp(d->kid + d->off[node], d->sk + base, n * sizeof(uint32_t)) == 0;
}

#define MDD_TAG(h) ((h) & 0xFFFFFFFF00000000ULL)

/* The cache grows with the unique table (four entries a slot), to at most
 * cache_max entries: a small forest does not clear (nor, under a sanitizer,
 * fill) hundreds of MB.
 * The entries are forgotten (a cache only saves work); a cache that cannot
 * grow stays as it is. */
static void mdd_grow_cache(pn_mdd *d)
{
    uint64_t n = d->cache_mask + 1;
    if (n >= d->cache_max || n >= 4 * d->uniq_n)
        return;
    while (n < 4 * d->uniq_n && n < d->cache_max)
        n *= 2;
    uint64_t room = pn_mdd_room(d);
    if (room != 0 && pn_mdd_bytes(d) + (n - d->cache_mask - 1) * sizeof(mdd_entry) > room)
        return;
    mdd_entry *c = calloc(n, sizeof *c);
    if (c == NULL)
        return;
    free(d->cache);
    d->cache = c;
    d->cache_mask = n - 1;
}

static bool mdd_rehash(pn_mdd *d)
{
    uint64_t n = d->uniq_n * 2;
    if (!mdd_fits(d, d->uniq_n * sizeof(uint64_t)))
        return false;
    uint64_t *u = calloc(n, sizeof *u);
    if (u == NULL) {
        mdd_stop(d, PN_ERR_NOMEM);
        return false;
    }
    for (uint64_t x = 2; x < d->n_nodes; x++) {
        uint64_t h = mdd_hash(d->lvl[x], d->val + d->off[x], d->kid + d->off[x], d->cnt[x]);
        uint64_t i = h & (n - 1);
        while (u[i] != 0)
            i = (i + 1) & (n - 1);
        u[i] = MDD_TAG(h) | x;
    }
    free(d->uniq);
    d->uniq = u;
    d->uniq_n = n;
    mdd_grow_cache(d);
    return true;
}

/* The node at level with the edges base .. top of the stack, which are
 * popped; the empty set when there are none. */
static pn_mdd_ref mdd_make(pn_mdd *d, uint32_t level, uint64_t base)
{
    uint64_t n = d->top - base;
    d->top = base;
    if (n == 0)
        return PN_MDD_EMPTY;
    d->steps += n;
    uint64_t h = mdd_hash(level, d->sv + base, d->sk + base, n);
    uint64_t i = h & (d->uniq_n - 1);
    for (; d->uniq[i] != 0; i = (i + 1) & (d->uniq_n - 1))
        if (MDD_TAG(d->uniq[i]) == MDD_TAG(h) && mdd_same(d, (uint32_t)d->uniq[i], level, base, n))
            return (uint32_t)d->uniq[i];
    if (d->n_nodes >= UINT32_MAX - 1)
        return mdd_stop(d, PN_ERR_OUT_OF_MEMORY);
    if (!mdd_room(d, n))
        return PN_MDD_STOP;
    uint32_t x = (uint32_t)d->n_nodes++;
    d->lvl[x] = level;
    d->cnt[x] = (uint32_t)n;
    d->off[x] = d->n_edges;
    memcpy(d->val + d->n_edges, d->sv + base, n * sizeof(uint32_t));
    memcpy(d->kid + d->n_edges, d->sk + base, n * sizeof(uint32_t));
    d->n_edges += n;
    d->uniq[i] = MDD_TAG(h) | x;
    if (2 * d->n_nodes > d->uniq_n && !mdd_rehash(d))
        return PN_MDD_STOP;
    return x;
}

static mdd_entry *mdd_slot(pn_mdd *d, uint32_t op, pn_mdd_ref a, uint64_t b)
{
    uint64_t h = pn_mix64(((uint64_t)op << 32 | a) ^ pn_mix64(b));
    return &d->cache[h & d->cache_mask];
}

static bool mdd_cached(pn_mdd *d, uint32_t op, pn_mdd_ref a, uint64_t b, pn_mdd_ref *r)
{
    const mdd_entry *e = mdd_slot(d, op, a, b);
    if (e->op != op || e->a != a || e->b != b)
        return false;
    *r = e->r;
    return true;
}

static pn_mdd_ref mdd_keep(pn_mdd *d, uint32_t op, pn_mdd_ref a, uint64_t b, pn_mdd_ref r)
{
    if (r != PN_MDD_STOP)
        *mdd_slot(d, op, a, b) = (mdd_entry){.b = b, .op = op, .a = a, .r = r};
    return r;
}

/* ---- set operations ----------------------------------------------------- */

static pn_mdd_ref mdd_apply(pn_mdd *d, uint32_t op, pn_mdd_ref a, pn_mdd_ref b);

static pn_mdd_ref mdd_apply(pn_mdd *d, uint32_t op, pn_mdd_ref a, pn_mdd_ref b)
{
    if (a == PN_MDD_STOP || b == PN_MDD_STOP || d->status != PN_OK)
        return PN_MDD_STOP;
    switch (op) {
    case OP_UNION:
        if (a == PN_MDD_EMPTY || a == b)
            return b;
        if (b == PN_MDD_EMPTY)
            return a;
        break;
    case OP_INTER:
        if (a == PN_MDD_EMPTY || b == PN_MDD_EMPTY || a == b)
            return a == b ? a : PN_MDD_EMPTY;
        break;
    default: /* OP_MINUS */
        if (a == PN_MDD_EMPTY || a == b)
            return PN_MDD_EMPTY;
        if (b == PN_MDD_EMPTY)
            return a;
        break;
    }
    if (op != OP_MINUS && a > b) {
        pn_mdd_ref t = a;
        a = b;
        b = t;
    }
    pn_mdd_ref r;
    if (mdd_cached(d, op, a, b, &r))
        return r;
    if (!mdd_tick(d))
        return PN_MDD_STOP;
    uint64_t base = d->top;
    uint64_t i = d->off[a], ie = i + d->cnt[a], j = d->off[b], je = j + d->cnt[b];
    while (i < ie || j < je) {
        uint32_t v;
        pn_mdd_ref c;
        if (j == je || (i < ie && d->val[i] < d->val[j])) { /* only in a */
            v = d->val[i];
            c = op == OP_INTER ? PN_MDD_EMPTY : d->kid[i];
            i++;
        } else if (i == ie || d->val[j] < d->val[i]) { /* only in b */
            v = d->val[j];
            c = op == OP_UNION ? d->kid[j] : PN_MDD_EMPTY;
            j++;
        } else {
            v = d->val[i];
            c = mdd_apply(d, op, d->kid[i], d->kid[j]);
            i++;
            j++;
        }
        if (c == PN_MDD_STOP || (c != PN_MDD_EMPTY && !mdd_push(d, v, c))) {
            d->top = base;
            return PN_MDD_STOP;
        }
    }
    return mdd_keep(d, op, a, b, mdd_make(d, d->lvl[a], base));
}

pn_mdd_ref pn_mdd_union(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref b)
{
    return mdd_apply(d, OP_UNION, a, b);
}
pn_mdd_ref pn_mdd_inter(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref b)
{
    return mdd_apply(d, OP_INTER, a, b);
}
pn_mdd_ref pn_mdd_minus(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref b)
{
    return mdd_apply(d, OP_MINUS, a, b);
}

/* ---- transitions -------------------------------------------------------- */

/* op OP_POST, OP_PRE or OP_ENAB of transition t on a, whose level is at
 * or above the touched level tr[k] (k == tr_off[t + 1]: none left). */
static pn_mdd_ref mdd_fire(pn_mdd *d, uint32_t op, uint32_t t, uint32_t k, pn_mdd_ref a)
{
    if (a == PN_MDD_EMPTY || a == PN_MDD_STOP)
        return a;
    if (k == d->tr_off[t + 1])
        return a;
    pn_mdd_ref r;
    if (mdd_cached(d, op, a, t, &r))
        return r;
    if (!mdd_tick(d))
        return PN_MDD_STOP;
    const mdd_tr e = d->tr[k];
    const uint32_t L = d->lvl[a];
    const bool here = L == e.level;
    uint64_t base = d->top;
    for (uint64_t i = d->off[a]; i < d->off[a] + d->cnt[a]; i++) {
        uint64_t v = d->val[i];
        if (here) {
            if (op != OP_PRE && v < e.pre)
                continue;
            if (op == OP_POST)
                v += (uint64_t)e.delta; /* >= v - pre >= 0 */
            if (op == OP_PRE) {
                if (e.delta > 0 && v < (uint64_t)e.delta)
                    continue;
                v -= (uint64_t)e.delta;
                if (v < e.pre)
                    continue;
            }
            if (v > UINT32_MAX - 1) {
                d->top = base;
                return mdd_stop(d, PN_ERR_UNSUPPORTED);
            }
        }
        pn_mdd_ref c = mdd_fire(d, op, t, here ? k + 1 : k, d->kid[i]);
        if (c == PN_MDD_STOP || (c != PN_MDD_EMPTY && !mdd_push(d, (uint32_t)v, c))) {
            d->top = base;
            return PN_MDD_STOP;
        }
    }
    return mdd_keep(d, op, a, t, mdd_make(d, L, base));
}

static pn_mdd_ref mdd_fire_top(pn_mdd *d, uint32_t op, uint32_t t, pn_mdd_ref a)
{
    if (t >= d->T)
        return mdd_stop(d, PN_ERR_INTERNAL);
    return mdd_fire(d, op, t, d->tr_off[t], a);
}

pn_mdd_ref pn_mdd_post(pn_mdd *d, uint32_t t, pn_mdd_ref a)
{
    return mdd_fire_top(d, OP_POST, t, a);
}
pn_mdd_ref pn_mdd_pre(pn_mdd *d, uint32_t t, pn_mdd_ref a)
{
    return mdd_fire_top(d, OP_PRE, t, a);
}
pn_mdd_ref pn_mdd_enabled(pn_mdd *d, uint32_t t, pn_mdd_ref a)
{
    return mdd_fire_top(d, OP_ENAB, t, a);
}

/* The markings of c that enable t and lead into a (t's touched levels from
 * tr[k] on). Walking c's edges instead of a's keeps the result, and every
 * node made on the way, inside c: pre of a whole set would build the
 * unreachable predecessors too. */
static pn_mdd_ref mdd_prew(pn_mdd *d, uint32_t t, uint32_t k, pn_mdd_ref a, pn_mdd_ref c)
{
    if (a == PN_MDD_STOP || c == PN_MDD_STOP)
        return PN_MDD_STOP;
    if (a == PN_MDD_EMPTY || c == PN_MDD_EMPTY)
        return PN_MDD_EMPTY;
    if (k == d->tr_off[t + 1])
        return mdd_apply(d, OP_INTER, a, c);
    pn_mdd_ref r;
    uint64_t key = (uint64_t)c << 32 | t;
    if (mdd_cached(d, OP_PREW, a, key, &r))
        return r;
    if (!mdd_tick(d))
        return PN_MDD_STOP;
    const mdd_tr e = d->tr[k];
    const uint32_t L = d->lvl[c];
    const bool here = L == e.level;
    uint64_t base = d->top, j = d->off[a], je = j + d->cnt[a];
    for (uint64_t i = d->off[c]; i < d->off[c] + d->cnt[c]; i++) {
        uint64_t v = d->val[i], w = v;
        if (here) {
            if (v < e.pre)
                continue;
            w = v + (uint64_t)e.delta; /* >= v - pre >= 0 */
        }
        while (j < je && d->val[j] < w) /* w grows with v */
            j++;
        if (j == je)
            break;
        if (d->val[j] != w)
            continue;
        pn_mdd_ref x = mdd_prew(d, t, here ? k + 1 : k, d->kid[j], d->kid[i]);
        if (x == PN_MDD_STOP || (x != PN_MDD_EMPTY && !mdd_push(d, (uint32_t)v, x))) {
            d->top = base;
            return PN_MDD_STOP;
        }
    }
    return mdd_keep(d, OP_PREW, a, key, mdd_make(d, L, base));
}

pn_mdd_ref pn_mdd_pre_within(pn_mdd *d, uint32_t t, pn_mdd_ref a, pn_mdd_ref c)
{
    if (t >= d->T)
        return mdd_stop(d, PN_ERR_INTERNAL);
    return mdd_prew(d, t, d->tr_off[t], a, c);
}

/* Room in row r for one more edge (and its todo entry). */
static bool mdd_row_grow(pn_mdd *d, mdd_row *r)
{
    if (r->n < r->cap)
        return true;
    const size_t each = 3 * sizeof(uint32_t) + 1;
    uint64_t c = r->cap ? 2 * r->cap : 64;
    if (!mdd_fits(d, (c - r->cap) * each) || !mdd_resize(d, &r->v, c, sizeof(uint32_t)) ||
        !mdd_resize(d, &r->k, c, sizeof(uint32_t)) ||
        !mdd_resize(d, &r->todo, c, sizeof(uint32_t)) || !mdd_resize(d, &r->dirty, c, 1))
        return false;
    d->row_bytes += (c - r->cap) * each;
    r->cap = c;
    return true;
}

/* The first index in [lo, hi) of sorted v whose value is >= x. */
static uint64_t mdd_lower(const uint32_t *v, uint64_t lo, uint64_t hi, uint32_t x)
{
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static uint64_t mdd_row_find(const mdd_row *r, uint32_t v) { return mdd_lower(r->v, 0, r->n, v); }

/* The set at value v of row r grows by c; a change marks v dirty. Both
 * are closed under op's recursion (key: its second operand), and so is
 * their union (the closure of a union is the union of the closures),
 * which the cache is told. */
static bool mdd_row_add(pn_mdd *d, mdd_row *r, uint32_t v, pn_mdd_ref c, uint32_t op,
                        uint64_t key)
{
    uint64_t i = mdd_row_find(r, v);
    if (i == r->n || r->v[i] != v) {
        if (!mdd_row_grow(d, r))
            return false;
        memmove(r->v + i + 1, r->v + i, (r->n - i) * sizeof *r->v);
        memmove(r->k + i + 1, r->k + i, (r->n - i) * sizeof *r->k);
        memmove(r->dirty + i + 1, r->dirty + i, (r->n - i) * sizeof *r->dirty);
        r->v[i] = v;
        r->k[i] = PN_MDD_EMPTY;
        r->dirty[i] = 0;
        r->n++;
    }
    pn_mdd_ref u = mdd_apply(d, OP_UNION, r->k[i], c);
    if (u == PN_MDD_STOP)
        return false;
    if (u == r->k[i])
        return true;
    mdd_keep(d, op, u, key, u);
    r->k[i] = u;
    if (!r->dirty[i]) {
        r->dirty[i] = 1;
        r->todo[r->nt++] = v;
    }
    return true;
}

/* The node of row r's edges at level L. */
static pn_mdd_ref mdd_row_make(pn_mdd *d, const mdd_row *r, uint32_t L)
{
    uint64_t base = d->top;
    for (uint64_t i = 0; i < r->n; i++)
        if (r->k[i] != PN_MDD_EMPTY && !mdd_push(d, r->v[i], r->k[i])) {
            d->top = base;
            return PN_MDD_STOP;
        }
    return mdd_make(d, L, base);
}

/* The next dirty value of row r, its flag cleared; false when none. */
static bool mdd_row_next(mdd_row *r, uint32_t *v, pn_mdd_ref *child)
{
    if (r->nt == 0)
        return false;
    *v = r->todo[--r->nt];
    uint64_t i = mdd_row_find(r, *v);
    r->dirty[i] = 0;
    *child = r->k[i];
    return true;
}

/* Saturation (Ciardo, Marmorstein, Siminiceanu, STTT 2006): a node is
 * saturated when its set is closed under every transition whose top
 * touched level is at or below its own. Its children are saturated first;
 * then the transitions whose top level is the node's own fire on each
 * value's child, their images saturated below and added to the values
 * they lead to, until no value's child changes. The node is built in a
 * row, in place, as the paper's algorithm updates its nodes: only the
 * final node is made, and a value is fired on again only when its child
 * grew (a level whose count climbs to N makes one node, not N of growing
 * size, and fires each value once per change instead of every value in
 * each round). Union keeps children saturated (the closure of a union is
 * the union of the closures), so the fixed point is the closure. */
static pn_mdd_ref mdd_sat(pn_mdd *d, pn_mdd_ref a);

static bool mdd_sat_fire(pn_mdd *d, mdd_row *r, uint32_t L, uint32_t v, pn_mdd_ref x)
{
    for (uint32_t k = d->ev_off[L]; k < d->ev_off[L + 1]; k++) {
        const uint32_t t = d->ev[k];
        const mdd_tr e = d->tr[d->tr_off[t]];
        if (v < e.pre)
            continue;
        uint64_t w = (uint64_t)v + (uint64_t)e.delta; /* >= v - pre >= 0 */
        if (w > UINT32_MAX - 1) {
            mdd_stop(d, PN_ERR_UNSUPPORTED);
            return false;
        }
        pn_mdd_ref y = mdd_sat(d, mdd_fire(d, OP_POST, t, d->tr_off[t] + 1, x));
        if (y == PN_MDD_STOP ||
            (y != PN_MDD_EMPTY && !mdd_row_add(d, r, (uint32_t)w, y, OP_SAT, 0)))
            return false;
    }
    return true;
}

static pn_mdd_ref mdd_sat(pn_mdd *d, pn_mdd_ref a)
{
    if (a <= 1 || a == PN_MDD_STOP)
        return a;
    pn_mdd_ref res;
    if (mdd_cached(d, OP_SAT, a, 0, &res))
        return res;
    if (!mdd_tick(d))
        return PN_MDD_STOP;
    const uint32_t L = d->lvl[a];
    mdd_row *r = &d->rows[L];
    r->n = r->nt = 0;
    for (uint64_t i = d->off[a]; i < d->off[a] + d->cnt[a]; i++) {
        pn_mdd_ref c = mdd_sat(d, d->kid[i]);
        if (c == PN_MDD_STOP || !mdd_row_add(d, r, d->val[i], c, OP_SAT, 0))
            return PN_MDD_STOP;
    }
    uint32_t v;
    pn_mdd_ref x;
    while (mdd_row_next(r, &v, &x))
        if (!mdd_tick(d) || !mdd_sat_fire(d, r, L, v, x))
            return PN_MDD_STOP;
    return mdd_keep(d, OP_SAT, a, 0, mdd_row_make(d, r, L));
}

/* A transition without arcs (top level P) changes nothing: no level
 * fires it. */
pn_mdd_ref pn_mdd_reachable(pn_mdd *d, pn_mdd_ref a) { return mdd_sat(d, a); }

/* ---- predecessors of a set, all transitions at once ---------------------- */

/* The node at c's level whose child at v is pre_all(a's child at v, c's
 * child at v), for the values both have. */
static pn_mdd_ref mdd_pair_kids(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref c);

/* pre(a) & c over every transition: those whose top level is c's fire
 * here (mdd_prew), the others act below and leave this level's value
 * unchanged, so they are the same operation on the children. One pass
 * over the nodes of a and c instead of one per transition, each of which
 * copies every level above the transition's top (RwMutex: 2,020
 * transitions over 3,020 levels). */
static pn_mdd_ref mdd_pre_all(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref c)
{
    if (a == PN_MDD_STOP || c == PN_MDD_STOP)
        return PN_MDD_STOP;
    if (a == PN_MDD_EMPTY || c == PN_MDD_EMPTY)
        return PN_MDD_EMPTY;
    if (a == 1) /* below the last level: a transition without arcs is a self-loop */
        return d->ev_off[d->P] < d->ev_off[d->P + 1] ? 1 : PN_MDD_EMPTY;
    pn_mdd_ref r;
    if (mdd_cached(d, OP_PREALL, a, c, &r))
        return r;
    if (!mdd_tick(d))
        return PN_MDD_STOP;
    const uint32_t L = d->lvl[c];
    r = mdd_pair_kids(d, a, c);
    for (uint32_t k = d->ev_off[L]; k < d->ev_off[L + 1] && r != PN_MDD_STOP; k++)
        r = mdd_apply(d, OP_UNION, r, mdd_prew(d, d->ev[k], d->tr_off[d->ev[k]], a, c));
    return mdd_keep(d, OP_PREALL, a, c, r);
}

static pn_mdd_ref mdd_pair_kids(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref c)
{
    if (a <= 1 || a == PN_MDD_STOP)
        return a;
    uint64_t base = d->top, j = d->off[c], je = j + d->cnt[c];
    for (uint64_t i = d->off[a]; i < d->off[a] + d->cnt[a]; i++) {
        uint32_t v = d->val[i];
        while (j < je && d->val[j] < v)
            j++;
        if (j == je || d->val[j] != v)
            continue;
        pn_mdd_ref x = mdd_pre_all(d, d->kid[i], d->kid[j]);
        if (x == PN_MDD_STOP || (x != PN_MDD_EMPTY && !mdd_push(d, v, x))) {
            d->top = base;
            return PN_MDD_STOP;
        }
    }
    return mdd_make(d, d->lvl[a], base);
}

/* E[c U a]: a and the markings of c that reach it through c, by
 * saturation run backwards and kept inside c (Y. Zhao, G. Ciardo,
 * "Symbolic CTL model checking of asynchronous systems using constrained
 * saturation", ATVA 2009): a node is closed under the predecessors, within
 * c, of the transitions whose top level is at or below its own; children
 * first, then this level's transitions to a fixed point, the node built
 * in a row as forward (mdd_sat). The closure of a union is the union of
 * the closures, as forward. */
static pn_mdd_ref mdd_bsat(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref c);

/* c's child at value v; EMPTY when c has none. */
static pn_mdd_ref mdd_kid_at(const pn_mdd *d, pn_mdd_ref c, uint32_t v)
{
    uint64_t end = d->off[c] + d->cnt[c], i = mdd_lower(d->val, d->off[c], end, v);
    return i < end && d->val[i] == v ? d->kid[i] : PN_MDD_EMPTY;
}

/* The predecessors within c, by this level's transitions, of the
 * markings with value w here and x below, closed below and added to row
 * r at their values. */
static bool mdd_bsat_fire(pn_mdd *d, mdd_row *r, uint32_t L, uint32_t w, pn_mdd_ref x,
                          pn_mdd_ref c)
{
    for (uint32_t k = d->ev_off[L]; k < d->ev_off[L + 1]; k++) {
        const uint32_t t = d->ev[k];
        const mdd_tr e = d->tr[d->tr_off[t]];
        if (e.delta > 0 && w < (uint64_t)e.delta)
            continue;
        uint64_t v = (uint64_t)w - (uint64_t)e.delta; /* v + delta = w */
        if (v < e.pre || v > UINT32_MAX - 1)
            continue;
        pn_mdd_ref cv = mdd_kid_at(d, c, (uint32_t)v);
        if (cv == PN_MDD_EMPTY)
            continue;
        pn_mdd_ref y = mdd_bsat(d, mdd_prew(d, t, d->tr_off[t] + 1, x, cv), cv);
        if (y == PN_MDD_STOP ||
            (y != PN_MDD_EMPTY && !mdd_row_add(d, r, (uint32_t)v, y, OP_BSAT, cv)))
            return false;
    }
    return true;
}

static pn_mdd_ref mdd_bsat(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref c)
{
    if (a <= 1 || a == PN_MDD_STOP || c == PN_MDD_STOP)
        return a == PN_MDD_STOP || c == PN_MDD_STOP ? PN_MDD_STOP : a;
    if (c == PN_MDD_EMPTY)
        return a;
    pn_mdd_ref res;
    if (mdd_cached(d, OP_BSAT, a, c, &res))
        return res;
    if (!mdd_tick(d))
        return PN_MDD_STOP;
    const uint32_t L = d->lvl[a];
    mdd_row *r = &d->rows[L];
    r->n = r->nt = 0;
    for (uint64_t i = d->off[a], j = d->off[c], je = j + d->cnt[c]; i < d->off[a] + d->cnt[a]; i++) {
        uint32_t v = d->val[i];
        while (j < je && d->val[j] < v)
            j++;
        pn_mdd_ref cv = j < je && d->val[j] == v ? d->kid[j] : PN_MDD_EMPTY;
        pn_mdd_ref x = mdd_bsat(d, d->kid[i], cv);
        if (x == PN_MDD_STOP || !mdd_row_add(d, r, v, x, OP_BSAT, cv))
            return PN_MDD_STOP;
    }
    uint32_t w;
    pn_mdd_ref x;
    while (mdd_row_next(r, &w, &x))
        if (!mdd_tick(d) || !mdd_bsat_fire(d, r, L, w, x, c))
            return PN_MDD_STOP;
    return mdd_keep(d, OP_BSAT, a, c, mdd_row_make(d, r, L));
}

pn_mdd_ref pn_mdd_pre_all(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref c)
{
    if (d->status != PN_OK)
        return PN_MDD_STOP;
    return mdd_pre_all(d, a, c);
}

pn_mdd_ref pn_mdd_backward(pn_mdd *d, pn_mdd_ref a, pn_mdd_ref c)
{
    if (d->status != PN_OK)
        return PN_MDD_STOP;
    return mdd_bsat(d, a, c);
}

/* ---- linear constraints ------------------------------------------------- */

static pn_mdd_ref mdd_linear(pn_mdd *d, pn_mdd_ref a, int64_t acc)
{
    if (a == PN_MDD_EMPTY || a == PN_MDD_STOP)
        return a;
    if (a == 1)
        return acc <= d->lin_bound ? a : PN_MDD_EMPTY;
    const uint32_t L = d->lvl[a];
    if (acc <= d->lin_bound && !d->pos_below[L]) /* the rest can only lower it */
        return a;
    if (acc > d->lin_bound && !d->neg_below[L])
        return PN_MDD_EMPTY;
    uint32_t op = OP_LIN | d->lin_id << OP_BITS;
    pn_mdd_ref r;
    if (mdd_cached(d, op, a, (uint64_t)acc, &r))
        return r;
    if (!mdd_tick(d))
        return PN_MDD_STOP;
    int64_t c = d->lin_coef[d->level_place[L]];
    uint64_t base = d->top;
    for (uint64_t i = d->off[a]; i < d->off[a] + d->cnt[a]; i++) {
        int64_t part, next;
        if (__builtin_mul_overflow(c, (int64_t)d->val[i], &part) ||
            __builtin_add_overflow(acc, part, &next)) {
            d->top = base;
            return mdd_stop(d, PN_ERR_UNSUPPORTED);
        }
        pn_mdd_ref k = mdd_linear(d, d->kid[i], next);
        if (k == PN_MDD_STOP || (k != PN_MDD_EMPTY && !mdd_push(d, d->val[i], k))) {
            d->top = base;
            return PN_MDD_STOP;
        }
    }
    return mdd_keep(d, op, a, (uint64_t)acc, mdd_make(d, L, base));
}

pn_mdd_ref pn_mdd_linear(pn_mdd *d, pn_mdd_ref a, const int64_t *coef, int64_t bound)
{
    if (d->status != PN_OK)
        return PN_MDD_STOP;
    d->lin_id = (d->lin_id + 1) & (UINT32_MAX >> OP_BITS); /* a new key space in the cache */
    if (d->lin_id == 0) { /* wrapped: forget the old constraints' entries */
        memset(d->cache, 0, (d->cache_mask + 1) * sizeof *d->cache);
        d->lin_id = 1;
    }
    d->lin_coef = coef;
    d->lin_bound = bound;
    d->pos_below[d->P] = d->neg_below[d->P] = 0;
    for (uint32_t L = d->P; L-- > 0;) {
        int64_t c = coef[d->level_place[L]];
        d->pos_below[L] = d->pos_below[L + 1] || c > 0;
        d->neg_below[L] = d->neg_below[L + 1] || c < 0;
    }
    return mdd_linear(d, a, 0);
}

/* ---- single markings, membership, counting ------------------------------ */

pn_mdd_ref pn_mdd_marking(pn_mdd *d, const uint64_t *m)
{
    pn_mdd_ref r = 1;
    for (uint32_t L = d->P; L-- > 0 && r != PN_MDD_STOP;) {
        uint64_t v = m[d->level_place[L]];
        if (v > UINT32_MAX - 1)
            return mdd_stop(d, PN_ERR_UNSUPPORTED);
        uint64_t base = d->top;
        if (!mdd_push(d, (uint32_t)v, r))
            return PN_MDD_STOP;
        r = mdd_make(d, L, base);
    }
    return d->status == PN_OK ? r : PN_MDD_STOP;
}

bool pn_mdd_member(const pn_mdd *d, pn_mdd_ref a, const uint64_t *m)
{
    for (uint32_t L = 0; L < d->P; L++) {
        if (a == PN_MDD_EMPTY || a == PN_MDD_STOP)
            return false;
        uint64_t v = m[d->level_place[L]], lo = d->off[a], hi = lo + d->cnt[a];
        while (lo < hi) { /* the first edge with a value >= v */
            uint64_t mid = lo + (hi - lo) / 2;
            if (d->val[mid] < v)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == d->off[a] + d->cnt[a] || d->val[lo] != v)
            return false;
        a = d->kid[lo];
    }
    return a == 1;
}

static uint64_t mdd_max(const pn_mdd *d, pn_mdd_ref a, const uint64_t *coef, uint64_t *memo,
                        uint8_t *known)
{
    if (a <= 1)
        return 0;
    if (known[a])
        return memo[a];
    uint64_t c = coef[d->level_place[d->lvl[a]]], best = 0;
    for (uint64_t i = d->off[a]; i < d->off[a] + d->cnt[a]; i++) {
        uint64_t here, below = mdd_max(d, d->kid[i], coef, memo, known), x;
        if (__builtin_mul_overflow(c, (uint64_t)d->val[i], &here) ||
            __builtin_add_overflow(here, below, &x))
            x = UINT64_MAX;
        best = x > best ? x : best;
    }
    known[a] = 1;
    return memo[a] = best;
}

uint32_t pn_mdd_node(const pn_mdd *d, pn_mdd_ref a, uint32_t *n, const uint32_t **val,
                     const pn_mdd_ref **kid)
{
    *n = d->cnt[a];
    *val = d->val + d->off[a];
    *kid = d->kid + d->off[a];
    return d->lvl[a];
}

uint32_t pn_mdd_needs(const pn_mdd *d, uint32_t t, uint32_t *level, uint64_t *pre)
{
    uint32_t n = 0;
    for (uint32_t k = d->tr_off[t]; k < d->tr_off[t + 1]; k++)
        if (d->tr[k].pre > 0) {
            level[n] = d->tr[k].level;
            pre[n++] = d->tr[k].pre;
        }
    return n;
}
uint32_t pn_mdd_transitions(const pn_mdd *d) { return d->T; }

uint32_t pn_mdd_place_at(const pn_mdd *d, uint32_t level) { return d->level_place[level]; }
uint32_t pn_mdd_levels(const pn_mdd *d) { return d->P; }

/* Whether a per-node memo of `each` bytes fits beside the forest. */
static bool mdd_memo_fits(const pn_mdd *d, size_t each)
{
    uint64_t room = pn_mdd_room(d);
    return room == 0 || pn_mdd_bytes(d) + d->n_nodes * each <= room;
}

bool pn_mdd_max_sum(const pn_mdd *d, pn_mdd_ref a, const uint64_t *coef, uint64_t *max)
{
    if (a == PN_MDD_STOP || !mdd_memo_fits(d, sizeof(uint64_t) + 1))
        return false;
    uint64_t *memo = malloc(d->n_nodes * sizeof *memo);
    uint8_t *known = calloc(d->n_nodes, 1);
    bool ok = memo != NULL && known != NULL;
    if (ok)
        *max = mdd_max(d, a, coef, memo, known);
    free(memo);
    free(known);
    return ok;
}

static double mdd_count(const pn_mdd *d, pn_mdd_ref a, double *memo)
{
    if (a <= 1)
        return a;
    if (!isnan(memo[a]))
        return memo[a];
    double n = 0;
    for (uint64_t i = d->off[a]; i < d->off[a] + d->cnt[a]; i++)
        n += mdd_count(d, d->kid[i], memo);
    return memo[a] = n;
}

double pn_mdd_count(pn_mdd *d, pn_mdd_ref a)
{
    if (a == PN_MDD_STOP || !mdd_memo_fits(d, sizeof(double)))
        return NAN;
    double *memo = malloc(d->n_nodes * sizeof *memo);
    if (memo == NULL)
        return NAN;
    for (uint64_t i = 0; i < d->n_nodes; i++)
        memo[i] = NAN;
    double n = mdd_count(d, a, memo);
    free(memo);
    return n;
}

/* ---- garbage collection ------------------------------------------------- */

/* A node's children are made before it, so they have smaller ids: one
 * sweep down the ids marks what the roots reach, one sweep up moves each
 * kept node to its new id (never above its old one, so in place) with its
 * children already renamed. The operation cache names old ids: it is
 * cleared. */
bool pn_mdd_compact(pn_mdd *d, pn_mdd_ref *roots, uint32_t n)
{
    if (d->status == PN_ERR_NOMEM || d->status == PN_ERR_INTERNAL)
        return false;
    uint32_t *to = calloc(d->n_nodes, sizeof *to); /* new id + 1; 0: dropped */
    if (to == NULL)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (roots[i] < d->n_nodes)
            to[roots[i]] = 1;
    for (uint64_t x = d->n_nodes; x-- > 2;)
        if (to[x] != 0)
            for (uint64_t i = d->off[x]; i < d->off[x] + d->cnt[x]; i++)
                to[d->kid[i]] = 1;
    uint64_t nodes = 2, edges = 0;
    to[0] = 1;
    to[1] = 2;
    for (uint64_t x = 2; x < d->n_nodes; x++) {
        if (to[x] == 0)
            continue;
        uint64_t from = d->off[x], cnt = d->cnt[x];
        d->lvl[nodes] = d->lvl[x];
        d->cnt[nodes] = (uint32_t)cnt;
        d->off[nodes] = edges;
        for (uint64_t i = 0; i < cnt; i++) {
            d->val[edges + i] = d->val[from + i];
            d->kid[edges + i] = to[d->kid[from + i]] - 1;
        }
        edges += cnt;
        to[x] = (uint32_t)(++nodes);
    }
    for (uint32_t i = 0; i < n; i++)
        if (roots[i] < d->n_nodes)
            roots[i] = to[roots[i]] - 1;
    free(to);
    d->n_nodes = nodes;
    d->n_edges = edges;
    memset(d->uniq, 0, d->uniq_n * sizeof *d->uniq);
    for (uint64_t x = 2; x < d->n_nodes; x++) {
        uint64_t h = mdd_hash(d->lvl[x], d->val + d->off[x], d->kid + d->off[x], d->cnt[x]);
        uint64_t i = h & (d->uniq_n - 1);
        while (d->uniq[i] != 0)
            i = (i + 1) & (d->uniq_n - 1);
        d->uniq[i] = MDD_TAG(h) | x;
    }
    memset(d->cache, 0, (d->cache_mask + 1) * sizeof *d->cache);
    if (d->status == PN_ERR_OUT_OF_MEMORY)
        d->status = PN_OK;
    return true;
}

/* ---- the forest --------------------------------------------------------- */

static pn_status mdd_transitions(pn_mdd *d, const pn_cnet *cn, const uint32_t *place_level)
{
    uint64_t n = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        n += (cn->pre_off[t + 1] - cn->pre_off[t]) + (cn->delta_off[t + 1] - cn->delta_off[t]);
    d->tr_off = malloc(((size_t)cn->n_transitions + 1) * sizeof *d->tr_off);
    d->tr = malloc((n ? n : 1) * sizeof *d->tr);
    if (d->tr_off == NULL || d->tr == NULL)
        return PN_ERR_NOMEM;
    uint32_t k = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        d->tr_off[t] = k;
        for (uint32_t i = cn->pre_off[t]; i < cn->pre_off[t + 1]; i++)
            d->tr[k++] = (mdd_tr){place_level[cn->pre[i].place], cn->pre[i].weight, 0};
        for (uint32_t i = cn->delta_off[t]; i < cn->delta_off[t + 1]; i++) {
            uint32_t L = place_level[cn->delta[i].place], j = d->tr_off[t];
            while (j < k && d->tr[j].level != L)
                j++;
            if (j == k)
                d->tr[k++] = (mdd_tr){L, 0, 0};
            d->tr[j].delta = cn->delta[i].delta;
        }
        for (uint32_t i = d->tr_off[t] + 1; i < k; i++) /* by level: insertion sort */
            for (uint32_t j = i; j > d->tr_off[t] && d->tr[j - 1].level > d->tr[j].level; j--) {
                mdd_tr x = d->tr[j];
                d->tr[j] = d->tr[j - 1];
                d->tr[j - 1] = x;
            }
    }
    d->tr_off[cn->n_transitions] = k;
    /* by top level (counting sort); a transition without arcs: level P */
    d->ev_off = calloc((size_t)d->P + 2, sizeof *d->ev_off);
    d->ev = malloc(((size_t)cn->n_transitions + 1) * sizeof *d->ev);
    if (d->ev_off == NULL || d->ev == NULL)
        return PN_ERR_NOMEM;
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        d->ev_off[(d->tr_off[t] < d->tr_off[t + 1] ? d->tr[d->tr_off[t]].level : d->P) + 1]++;
    for (uint32_t L = 0; L <= d->P; L++)
        d->ev_off[L + 1] += d->ev_off[L];
    uint32_t *at = malloc(((size_t)d->P + 1) * sizeof *at);
    if (at == NULL)
        return PN_ERR_NOMEM;
    memcpy(at, d->ev_off, ((size_t)d->P + 1) * sizeof *at);
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        d->ev[at[d->tr_off[t] < d->tr_off[t + 1] ? d->tr[d->tr_off[t]].level : d->P]++] = t;
    free(at);
    return PN_OK;
}

pn_status pn_mdd_new(const pn_cnet *cn, const uint32_t *order, const pn_budget *budget,
                     pn_mdd **out, pn_error *err)
{
    *out = NULL;
    if (cn->n_places > PN_MDD_MAX_LEVELS)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "MDD: %u places, more levels than %u",
                       cn->n_places, PN_MDD_MAX_LEVELS);
    pn_mdd *d = calloc(1, sizeof *d);
    if (d == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "MDD: out of memory");
    d->P = cn->n_places;
    d->T = cn->n_transitions;
    d->budget = budget;
    d->room = pn_budget_memory(budget); /* nothing of the forest is resident yet */
    /* The cache: 2^18 entries first, growing with the unique table
     * (mdd_grow_cache) to a sixteenth of the memory budget, 2^16 .. 2^24. */
    uint64_t room = d->room;
    d->cache_max = 1ULL << 16;
    while (d->cache_max < (1ULL << 24) &&
           (room == 0 || (d->cache_max * 2) * sizeof(mdd_entry) <= room / 16))
        d->cache_max *= 2;
    uint64_t cache = d->cache_max < (1ULL << 18) ? d->cache_max : 1ULL << 18;
    d->cache_mask = cache - 1;
    d->cache = calloc(cache, sizeof *d->cache);
    d->uniq_n = 1024;
    d->uniq = calloc(d->uniq_n, sizeof *d->uniq);
    d->level_place = malloc(((size_t)d->P + 1) * sizeof *d->level_place);
    uint32_t *place_level = malloc(((size_t)d->P + 1) * sizeof *place_level);
    d->pos_below = malloc((size_t)d->P + 1);
    d->neg_below = malloc((size_t)d->P + 1);
    d->cap_nodes = 1024;
    d->lvl = malloc(d->cap_nodes * sizeof *d->lvl);
    d->cnt = malloc(d->cap_nodes * sizeof *d->cnt);
    d->off = malloc(d->cap_nodes * sizeof *d->off);
    d->rows = calloc((size_t)d->P + 1, sizeof *d->rows);
    pn_status st = PN_OK;
    if (d->cache == NULL || d->uniq == NULL || d->level_place == NULL || place_level == NULL ||
        d->pos_below == NULL || d->neg_below == NULL || d->lvl == NULL || d->cnt == NULL ||
        d->off == NULL || d->rows == NULL)
        st = PN_ERR_NOMEM;
    for (uint32_t L = 0; st == PN_OK && L < d->P; L++)
        place_level[L] = UINT32_MAX;
    for (uint32_t L = 0; st == PN_OK && L < d->P; L++) {
        uint32_t p = order != NULL ? order[L] : L;
        if (p >= d->P || place_level[p] != UINT32_MAX) {
            free(place_level);
            pn_mdd_free(d);
            return pn_fail(err, PN_ERR_INTERNAL,
                           "MDD: the order is not a permutation of the places");
        }
        d->level_place[L] = p;
        place_level[p] = L;
    }
    if (st == PN_OK)
        st = mdd_transitions(d, cn, place_level);
    free(place_level);
    if (st != PN_OK) {
        pn_mdd_free(d);
        return pn_fail(err, st, "MDD: out of memory");
    }
    d->n_nodes = 2; /* the empty set and the terminal */
    d->lvl[0] = d->lvl[1] = d->P;
    d->cnt[0] = d->cnt[1] = 0;
    d->off[0] = d->off[1] = 0;
    *out = d;
    return PN_OK;
}

void pn_mdd_free(pn_mdd *d)
{
    if (d == NULL)
        return;
    free(d->lvl);
    free(d->cnt);
    free(d->off);
    free(d->val);
    free(d->kid);
    free(d->uniq);
    free(d->cache);
    free(d->sv);
    free(d->sk);
    free(d->level_place);
    free(d->tr_off);
    free(d->tr);
    free(d->ev_off);
    free(d->ev);
    free(d->pos_below);
    free(d->neg_below);
    for (uint32_t L = 0; d->rows != NULL && L < d->P; L++) {
        free(d->rows[L].v);
        free(d->rows[L].k);
        free(d->rows[L].todo);
        free(d->rows[L].dirty);
    }
    free(d->rows);
    free(d);
}
