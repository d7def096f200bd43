/* Exact counts on a forest (see mdd_count.h). The count of a set is the
 * number of its paths, summed bottom-up over the nodes (Srinivasan et al.,
 * ICCAD 1990, on counting an MDD's satisfying assignments); the integers
 * are arrays of 64-bit limbs (D. E. Knuth, TAOCP vol. 2, 4.3.1: addition
 * with carry, and division by a one-limb divisor for the decimal digits). */
#include "space/mdd_count.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KC_TICK 4095u /* nodes counted between two looks at the clock */

struct pn_mdd_counter {
    pn_mdd *d;
    const pn_budget *budget;
    uint64_t *at;     /* per node: where its count starts in limb */
    uint32_t *len;    /* per node: its count's limbs; 0: not counted yet */
    uint64_t cap_memo;
    uint64_t *limb;   /* every node's count, one after the other */
    uint64_t n_limb, cap_limb;
    uint64_t *total;
    uint32_t n_total, cap_total;
    uint64_t steps;
};

static uint64_t kc_bytes(const pn_mdd_counter *k)
{
    return k->cap_memo * (sizeof *k->at + sizeof *k->len) + k->cap_limb * sizeof *k->limb +
           (uint64_t)k->cap_total * sizeof *k->total;
}

/* Whether `more` bytes fit beside the forest and the counter. */
static bool kc_fits(const pn_mdd_counter *k, uint64_t more)
{
    uint64_t room = pn_mdd_room(k->d);
    return room == 0 || pn_mdd_bytes(k->d) + kc_bytes(k) + more <= room;
}

static pn_status kc_grow(pn_mdd_counter *k, void *p, uint64_t *cap, uint64_t need, size_t each)
{
    if (need <= *cap)
        return PN_OK;
    uint64_t n = *cap ? *cap : 1024;
    while (n < need)
        n *= 2;
    if (!kc_fits(k, (n - *cap) * each))
        return PN_ERR_OUT_OF_MEMORY;
    void *q = realloc(*(void **)p, n * each);
    if (q == NULL)
        return PN_ERR_NOMEM;
    *(void **)p = q;
    *cap = n;
    return PN_OK;
}

/* The memo covers every node of the forest (which grows between adds). */
static pn_status kc_memo(pn_mdd_counter *k)
{
    uint64_t need = pn_mdd_nodes(k->d), old = k->cap_memo;
    if (need <= old)
        return PN_OK;
    uint64_t n = old ? old : 1024;
    while (n < need)
        n *= 2;
    if (!kc_fits(k, (n - old) * (sizeof *k->at + sizeof *k->len)))
        return PN_ERR_OUT_OF_MEMORY;
    uint64_t *at = realloc(k->at, n * sizeof *at);
    if (at == NULL)
        return PN_ERR_NOMEM;
    k->at = at;
    uint32_t *len = realloc(k->len, n * sizeof *len);
    if (len == NULL)
        return PN_ERR_NOMEM;
    k->len = len;
    memset(k->len + old, 0, (n - old) * sizeof *k->len);
    k->cap_memo = n;
    return PN_OK;
}

/* dst[0 .. dn) += src[0 .. sn); dst has room for the carry (dn > sn). */
static void kc_add(uint64_t *dst, uint32_t dn, const uint64_t *src, uint32_t sn)
{
    uint64_t carry = 0;
    uint32_t i = 0;
    for (; i < sn; i++) {
        uint64_t s = dst[i] + carry;
        carry = s < carry;
        dst[i] = s + src[i];
        carry += dst[i] < src[i];
    }
    for (; carry && i < dn; i++) {
        dst[i] += 1;
        carry = dst[i] == 0;
    }
}

static const uint64_t kc_one = 1;

/* Node a's count in the memo, its children's first (a child has a smaller
 * id, and the recursion is as deep as the levels). */
static pn_status kc_node(pn_mdd_counter *k, pn_mdd_ref a)
{
    if (a <= 1 || k->len[a] != 0)
        return PN_OK;
    if ((++k->steps & KC_TICK) == 0) {
        pn_status s = pn_budget_status(k->budget);
        if (s != PN_OK)
            return s;
    }
    uint32_t n, most = 1;
    const uint32_t *val;
    const pn_mdd_ref *kid;
    pn_mdd_node(k->d, a, &n, &val, &kid);
    for (uint32_t i = 0; i < n; i++) {
        pn_status s = kc_node(k, kid[i]);
        if (s != PN_OK)
            return s;
        if (kid[i] > 1 && k->len[kid[i]] > most)
            most = k->len[kid[i]];
    }
    /* n < 2^32 counts below 2^(64 most) each: their sum needs one limb more */
    uint32_t cap = most + 1;
    pn_status s = kc_grow(k, &k->limb, &k->cap_limb, k->n_limb + cap, sizeof *k->limb);
    if (s != PN_OK)
        return s;
    uint64_t at = k->n_limb, *sum = k->limb + at;
    memset(sum, 0, cap * sizeof *sum);
    for (uint32_t i = 0; i < n; i++) {
        pn_mdd_ref c = kid[i];
        if (c == 1)
            kc_add(sum, cap, &kc_one, 1);
        else if (c > 1)
            kc_add(sum, cap, k->limb + k->at[c], k->len[c]);
    }
    uint32_t len = cap;
    while (len > 1 && sum[len - 1] == 0)
        len--;
    k->n_limb = at + len;
    k->at[a] = at;
    k->len[a] = len;
    return PN_OK;
}

pn_mdd_counter *pn_mdd_counter_new(pn_mdd *d, const pn_budget *budget)
{
    pn_mdd_counter *k = calloc(1, sizeof *k);
    if (k == NULL)
        return NULL;
    k->d = d;
    k->budget = budget;
    uint64_t cap = 0;
    if (kc_grow(k, &k->total, &cap, 4, sizeof *k->total) != PN_OK) {
        free(k);
        return NULL;
    }
    k->cap_total = (uint32_t)cap;
    k->n_total = 1;
    k->total[0] = 0;
    return k;
}

void pn_mdd_counter_free(pn_mdd_counter *k)
{
    if (k == NULL)
        return;
    free(k->at);
    free(k->len);
    free(k->limb);
    free(k->total);
    free(k);
}

void pn_mdd_counter_zero(pn_mdd_counter *k)
{
    k->n_total = 1;
    k->total[0] = 0;
}

pn_status pn_mdd_counter_add(pn_mdd_counter *k, pn_mdd_ref a)
{
    if (a == PN_MDD_STOP)
        return PN_ERR_INTERNAL;
    pn_status s = kc_memo(k);
    if (s == PN_OK)
        s = kc_node(k, a);
    if (s != PN_OK || a == PN_MDD_EMPTY)
        return s;
    const uint64_t *src = a == 1 ? &kc_one : k->limb + k->at[a];
    uint32_t sn = a == 1 ? 1 : k->len[a];
    uint32_t need = (sn > k->n_total ? sn : k->n_total) + 1;
    uint64_t cap = k->cap_total;
    s = kc_grow(k, &k->total, &cap, need, sizeof *k->total);
    if (s != PN_OK)
        return s;
    k->cap_total = (uint32_t)cap;
    memset(k->total + k->n_total, 0, (need - k->n_total) * sizeof *k->total);
    kc_add(k->total, need, src, sn);
    k->n_total = need;
    while (k->n_total > 1 && k->total[k->n_total - 1] == 0)
        k->n_total--;
    return PN_OK;
}

/* The decimal digits of the total: 19 at a time, by dividing a copy by
 * 10^19 (the remainders, least significant first). */
char *pn_mdd_counter_text(const pn_mdd_counter *k, uint64_t *low)
{
    const uint64_t base = 10000000000000000000ULL;
    uint32_t n = k->n_total;
    *low = n == 1 ? k->total[0] : UINT64_MAX;
    uint64_t *q = malloc(n * sizeof *q);
    uint64_t *rem = malloc((n * 20u / 19u + 2) * sizeof *rem); /* 2^64 < 10^19 * 2 */
    char *s = malloc((size_t)n * 20 + 2);
    if (q == NULL || rem == NULL || s == NULL) {
        free(q);
        free(rem);
        free(s);
        return NULL;
    }
    memcpy(q, k->total, n * sizeof *q);
    uint32_t r = 0;
    do {
        unsigned __int128 carry = 0;
        for (uint32_t i = n; i-- > 0;) {
            unsigned __int128 cur = carry << 64 | q[i];
            q[i] = (uint64_t)(cur / base);
            carry = cur % base;
        }
        rem[r++] = (uint64_t)carry;
        while (n > 1 && q[n - 1] == 0)
            n--;
    } while (n > 1 || q[0] != 0);
    size_t at = (size_t)sprintf(s, "%lu", (unsigned long)rem[r - 1]);
    for (uint32_t i = r - 1; i-- > 0;)
        at += (size_t)sprintf(s + at, "%019lu", (unsigned long)rem[i]);
    free(q);
    free(rem);
    return s;
}

/* The nodes a reaches, as one byte per node id up to a (a new array;
 * NULL when out of memory): one sweep down the ids from a, children
 * having smaller ids than their parents. */
static uint8_t *kc_reach(const pn_mdd *d, pn_mdd_ref a)
{
    uint8_t *seen = calloc((size_t)a + 1, 1);
    if (seen == NULL)
        return NULL;
    seen[a] = 1;
    for (pn_mdd_ref x = a; x > 1; x--) {
        if (!seen[x])
            continue;
        uint32_t n;
        const uint32_t *val;
        const pn_mdd_ref *kid;
        pn_mdd_node(d, x, &n, &val, &kid);
        for (uint32_t i = 0; i < n; i++)
            seen[kid[i]] = 1;
    }
    return seen;
}

/* Node x's largest edge value (values ascend; 0 without edges), and its
 * level. */
static uint32_t kc_top_value(const pn_mdd *d, pn_mdd_ref x, uint32_t *level)
{
    uint32_t n;
    const uint32_t *val;
    const pn_mdd_ref *kid;
    *level = pn_mdd_node(d, x, &n, &val, &kid);
    return n > 0 ? val[n - 1] : 0;
}

/* Each node a reaches has its largest edge value (values ascend) as its
 * place's count somewhere in a. */
bool pn_mdd_place_max(const pn_mdd *d, pn_mdd_ref a, uint64_t *max)
{
    for (uint32_t L = 0; L < pn_mdd_levels(d); L++)
        max[L] = 0;
    if (a <= 1)
        return true;
    uint64_t room = pn_mdd_room(d);
    if (room != 0 && pn_mdd_bytes(d) + (uint64_t)a + 1 > room)
        return false;
    uint8_t *seen = kc_reach(d, a);
    if (seen == NULL)
        return false;
    for (pn_mdd_ref x = a; x > 1; x--)
        if (seen[x]) {
            uint32_t level, top = kc_top_value(d, x, &level), p = pn_mdd_place_at(d, level);
            max[p] = top > max[p] ? top : max[p];
        }
    free(seen);
    return true;
}

/* ---- edges ----------------------------------------------------------------
 *
 * The markings of a that enable t, summed over t, without building a set
 * per transition (a restriction rebuilds every node above t's top level:
 * RwMutex-PT-r1000w0010's 2,020 transitions over 3,020 levels did not end
 * in 10 s). A path through a node x splits at x: up(x) paths from a's root
 * to x, times the paths from x to the terminal. A marking enables t when
 * its path meets t's needs at t's levels L1 < ... < Lm, so with x ranging
 * over the nodes at L1,
 *
 *     enabled(t) = sum_x up(x) * g_t(x),
 *
 * g_t(x) the paths below x meeting the needs: at a level L1 .. Lm, the sum
 * of the children's g_t over the edges whose value meets the need there
 * (any edge between needs), and below Lm the children's own counts (the
 * memo). up is counted once for all transitions, top-down over a's nodes
 * (a child's id is below its parents'); g_t level by level from Lm up to
 * L1. A transition costs the nodes between its first and last need.
 * Sizes: up(x) * count(x) <= count(a), each path through x being one
 * marking, so up(x) takes at most limbs(count(a)) - limbs(count(x)) + 1
 * limbs, and g_t(x) <= count(x) the limbs of count(x). */

typedef struct kc_edges {
    uint32_t n;        /* a's nodes other than the terminals */
    uint32_t *node;    /* them, by level (ascending), id descending within */
    uint32_t *lvl_at;  /* levels + 1: where each level's nodes start in node[] */
    uint32_t *pos;     /* node id -> its index in node[] (a's nodes only) */
    uint64_t *u_at;    /* per index: up's limbs in up[], and their room */
    uint32_t *u_cap;
    uint64_t *up;
    uint64_t *g_at;    /* per index: g_t's limbs in g[] (this transition), their length */
    uint32_t *g_len;
    uint64_t *g;
    uint32_t *need_lvl;
    uint64_t *need_pre;
    uint64_t *prod;    /* up(x) * g_t(x) */
} kc_edges;

static void kc_edges_free(kc_edges *e)
{
    free(e->node);
    free(e->lvl_at);
    free(e->pos);
    free(e->u_at);
    free(e->u_cap);
    free(e->up);
    free(e->g_at);
    free(e->g_len);
    free(e->g);
    free(e->need_lvl);
    free(e->need_pre);
    free(e->prod);
}

static uint32_t kc_trim(const uint64_t *x, uint32_t n)
{
    while (n > 1 && x[n - 1] == 0)
        n--;
    return n;
}

/* dst[0 .. dn) += a[0 .. an) * b[0 .. bn); dn > an + bn - 1 and the sum
 * fits (Knuth's algorithm M, accumulating). */
static void kc_mul_add(uint64_t *dst, uint32_t dn, const uint64_t *a, uint32_t an,
                       const uint64_t *b, uint32_t bn)
{
    for (uint32_t i = 0; i < an; i++) {
        if (a[i] == 0)
            continue;
        unsigned __int128 carry = 0;
        uint32_t j = 0;
        for (; j < bn; j++) {
            unsigned __int128 cur = (unsigned __int128)a[i] * b[j] + dst[i + j] + carry;
            dst[i + j] = (uint64_t)cur;
            carry = cur >> 64;
        }
        for (uint32_t at = i + j; carry != 0 && at < dn; at++) {
            unsigned __int128 cur = (unsigned __int128)dst[at] + carry;
            dst[at] = (uint64_t)cur;
            carry = cur >> 64;
        }
    }
}

static pn_status kc_tick(pn_mdd_counter *k)
{
    return (++k->steps & KC_TICK) == 0 ? pn_budget_status(k->budget) : PN_OK;
}

static uint32_t kc_level(const pn_mdd *d, pn_mdd_ref x)
{
    uint32_t level;
    kc_top_value(d, x, &level);
    return level;
}

/* a's nodes by level, and the room for up and g (checked against the
 * budget's room first). */
static pn_status kc_edges_layout(pn_mdd_counter *k, pn_mdd_ref a, kc_edges *e)
{
    const uint32_t P = pn_mdd_levels(k->d);
    const uint32_t total = k->len[a];
    if (!kc_fits(k, (uint64_t)(a + 1) * 5 + (uint64_t)(P + 2) * 16))
        return PN_ERR_OUT_OF_MEMORY;
    e->pos = malloc(((size_t)a + 1) * sizeof *e->pos);
    e->lvl_at = calloc((size_t)P + 2, sizeof *e->lvl_at);
    e->need_lvl = malloc(((size_t)P + 1) * sizeof *e->need_lvl);
    e->need_pre = malloc(((size_t)P + 1) * sizeof *e->need_pre);
    uint8_t *seen = kc_reach(k->d, a);
    if (e->pos == NULL || e->lvl_at == NULL || e->need_lvl == NULL || e->need_pre == NULL ||
        seen == NULL) {
        free(seen);
        return PN_ERR_NOMEM;
    }
    uint64_t u_limbs = 0, g_limbs = 0;
    for (pn_mdd_ref x = a; x > 1; x--) {
        if (!seen[x])
            continue;
        e->lvl_at[kc_level(k->d, x) + 1]++;
        e->n++;
        u_limbs += total - k->len[x] + 2;
        g_limbs += k->len[x];
    }
    for (uint32_t L = 0; L <= P; L++)
        e->lvl_at[L + 1] += e->lvl_at[L];
    uint64_t per = sizeof *e->node + sizeof *e->u_at + sizeof *e->u_cap + sizeof *e->g_at +
                   sizeof *e->g_len;
    if (!kc_fits(k, e->n * per + (u_limbs + g_limbs + 2 * (uint64_t)total + 2) * 8)) {
        free(seen);
        return PN_ERR_OUT_OF_MEMORY;
    }
    e->node = malloc(((size_t)e->n + 1) * sizeof *e->node);
    e->u_at = malloc(((size_t)e->n + 1) * sizeof *e->u_at);
    e->u_cap = malloc(((size_t)e->n + 1) * sizeof *e->u_cap);
    e->g_at = malloc(((size_t)e->n + 1) * sizeof *e->g_at);
    e->g_len = malloc(((size_t)e->n + 1) * sizeof *e->g_len);
    e->up = calloc(u_limbs + 1, sizeof *e->up);
    e->g = malloc((g_limbs + 1) * sizeof *e->g);
    e->prod = malloc((2 * (size_t)total + 2) * sizeof *e->prod);
    uint32_t *fill = malloc(((size_t)P + 1) * sizeof *fill);
    if (e->node == NULL || e->u_at == NULL || e->u_cap == NULL || e->g_at == NULL ||
        e->g_len == NULL || e->up == NULL || e->g == NULL || e->prod == NULL || fill == NULL) {
        free(seen);
        free(fill);
        return PN_ERR_NOMEM;
    }
    memcpy(fill, e->lvl_at, ((size_t)P + 1) * sizeof *fill);
    uint64_t u = 0, gl = 0;
    for (pn_mdd_ref x = a; x > 1; x--) {
        if (!seen[x])
            continue;
        uint32_t i = fill[kc_level(k->d, x)]++;
        e->node[i] = x;
        e->pos[x] = i;
        e->u_at[i] = u;
        e->u_cap[i] = total - k->len[x] + 2;
        u += e->u_cap[i];
        e->g_at[i] = gl;
        gl += k->len[x];
    }
    free(fill);
    free(seen);
    return PN_OK;
}

/* up(x) for every node of a: 1 at the root, then each node's up added to
 * its children's, level by level from the root (a node's parents are all
 * one level above it). */
static pn_status kc_edges_up(pn_mdd_counter *k, pn_mdd_ref a, kc_edges *e)
{
    e->up[e->u_at[e->pos[a]]] = 1;
    for (uint32_t i = 0; i < e->n; i++) {
        pn_status s = kc_tick(k);
        if (s != PN_OK)
            return s;
        uint32_t n;
        const uint32_t *val;
        const pn_mdd_ref *kid;
        pn_mdd_node(k->d, e->node[i], &n, &val, &kid);
        const uint64_t *ux = e->up + e->u_at[i];
        uint32_t ul = kc_trim(ux, e->u_cap[i]);
        for (uint32_t c = 0; c < n; c++) {
            if (kid[c] <= 1)
                continue;
            uint32_t j = e->pos[kid[c]];
            kc_add(e->up + e->u_at[j], e->u_cap[j], ux, ul);
        }
    }
    return PN_OK;
}

/* g_t over the levels lo .. hi (t's first and last need), bottom-up. */
static pn_status kc_edges_g(pn_mdd_counter *k, kc_edges *e, uint32_t m)
{
    const uint32_t lo = e->need_lvl[0], hi = e->need_lvl[m - 1];
    uint32_t w = m; /* the need at the level being done: need_lvl[w - 1] */
    for (uint32_t L = hi + 1; L-- > lo;) {
        bool needs = w > 0 && e->need_lvl[w - 1] == L;
        uint64_t pre = needs ? e->need_pre[w - 1] : 0;
        for (uint32_t i = e->lvl_at[L]; i < e->lvl_at[L + 1]; i++) {
            pn_status s = kc_tick(k);
            if (s != PN_OK)
                return s;
            pn_mdd_ref x = e->node[i];
            uint32_t n;
            const uint32_t *val;
            const pn_mdd_ref *kid;
            pn_mdd_node(k->d, x, &n, &val, &kid);
            uint32_t cap = k->len[x];
            uint64_t *sum = e->g + e->g_at[i];
            memset(sum, 0, cap * sizeof *sum);
            for (uint32_t c = 0; c < n; c++) {
                if (val[c] < pre)
                    continue;
                if (kid[c] == 1)
                    kc_add(sum, cap, &kc_one, 1);
                else if (L < hi) { /* the child's g_t, one level down */
                    uint32_t j = e->pos[kid[c]];
                    kc_add(sum, cap, e->g + e->g_at[j], e->g_len[j]);
                } else if (kid[c] > 1)
                    kc_add(sum, cap, k->limb + k->at[kid[c]], k->len[kid[c]]);
            }
            e->g_len[i] = kc_trim(sum, cap);
        }
        if (needs)
            w--;
    }
    return PN_OK;
}

/* The total's room for `need` limbs, the new ones zero. */
static pn_status kc_total_room(pn_mdd_counter *k, uint32_t need)
{
    if (need <= k->n_total)
        return PN_OK;
    uint64_t cap = k->cap_total;
    pn_status s = kc_grow(k, &k->total, &cap, need, sizeof *k->total);
    if (s != PN_OK)
        return s;
    k->cap_total = (uint32_t)cap;
    memset(k->total + k->n_total, 0, (need - k->n_total) * sizeof *k->total);
    k->n_total = need;
    return PN_OK;
}

/* total += src */
static pn_status kc_total_add(pn_mdd_counter *k, const uint64_t *src, uint32_t sn)
{
    pn_status s = kc_total_room(k, (sn > k->n_total ? sn : k->n_total) + 1);
    if (s != PN_OK)
        return s;
    kc_add(k->total, k->n_total, src, sn);
    k->n_total = kc_trim(k->total, k->n_total);
    return PN_OK;
}

static pn_status kc_edges_run(pn_mdd_counter *k, pn_mdd_ref a, kc_edges *e)
{
    pn_status s = kc_edges_layout(k, a, e);
    if (s == PN_OK)
        s = kc_edges_up(k, a, e);
    const uint32_t T = pn_mdd_transitions(k->d);
    for (uint32_t t = 0; s == PN_OK && t < T; t++) {
        uint32_t m = pn_mdd_needs(k->d, t, e->need_lvl, e->need_pre);
        if (m == 0) { /* enabled everywhere */
            s = kc_total_add(k, k->limb + k->at[a], k->len[a]);
            continue;
        }
        s = kc_edges_g(k, e, m);
        const uint32_t L = e->need_lvl[0];
        for (uint32_t i = e->lvl_at[L]; s == PN_OK && i < e->lvl_at[L + 1]; i++) {
            const uint64_t *u = e->up + e->u_at[i], *g = e->g + e->g_at[i];
            uint32_t ul = kc_trim(u, e->u_cap[i]), gl = e->g_len[i];
            if (gl == 1 && g[0] == 0)
                continue;
            uint32_t pn = ul + gl + 1;
            memset(e->prod, 0, pn * sizeof *e->prod);
            kc_mul_add(e->prod, pn, u, ul, g, gl);
            s = kc_total_add(k, e->prod, kc_trim(e->prod, pn));
        }
    }
    return s;
}

pn_status pn_mdd_counter_add_edges(pn_mdd_counter *k, pn_mdd_ref a)
{
    if (a == PN_MDD_STOP)
        return PN_ERR_INTERNAL;
    if (a == PN_MDD_EMPTY)
        return PN_OK;
    pn_status s = kc_memo(k);
    if (s == PN_OK)
        s = kc_node(k, a);
    if (s != PN_OK)
        return s;
    if (a == 1) { /* no places: every transition is enabled in the one marking */
        for (uint32_t t = 0; s == PN_OK && t < pn_mdd_transitions(k->d); t++)
            s = kc_total_add(k, &kc_one, 1);
        return s;
    }
    uint32_t n;
    const uint32_t *val;
    const pn_mdd_ref *kid;
    if (pn_mdd_node(k->d, a, &n, &val, &kid) != 0) /* a set of whole markings only */
        return PN_ERR_INTERNAL;
    kc_edges e = {0};
    s = kc_edges_run(k, a, &e);
    kc_edges_free(&e);
    return s;
}
