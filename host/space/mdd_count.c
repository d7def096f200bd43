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

void pn_mdd_counter_forget(pn_mdd_counter *k)
{
    if (k->len != NULL)
        memset(k->len, 0, k->cap_memo * sizeof *k->len);
    k->n_limb = 0;
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

/* One sweep down the ids from a marks what a reaches (children have
 * smaller ids); each reached node's largest edge value (values ascend) is
 * its place's count somewhere in a. */
bool pn_mdd_place_max(const pn_mdd *d, pn_mdd_ref a, uint64_t *max)
{
    for (uint32_t L = 0; L < pn_mdd_levels(d); L++)
        max[L] = 0;
    if (a <= 1)
        return true;
    uint64_t room = pn_mdd_room(d);
    if (room != 0 && pn_mdd_bytes(d) + (uint64_t)a + 1 > room)
        return false;
    uint8_t *seen = calloc((size_t)a + 1, 1);
    if (seen == NULL)
        return false;
    seen[a] = 1;
    for (pn_mdd_ref x = a; x > 1; x--) {
        if (!seen[x])
            continue;
        uint32_t n;
        const uint32_t *val;
        const pn_mdd_ref *kid;
        uint32_t p = pn_mdd_place_at(d, pn_mdd_node(d, x, &n, &val, &kid));
        if (n > 0 && val[n - 1] > max[p])
            max[p] = val[n - 1];
        for (uint32_t i = 0; i < n; i++)
            seen[kid[i]] = 1;
    }
    free(seen);
    return true;
}
