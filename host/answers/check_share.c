/* The board's items as data for the engines that cannot call the visitor
 * per state: the GPU kernels (check_items.h) and the ranks of a
 * distributed exploration, whose findings merge by maximum. */
#include "answers/check_int.h"

#include <string.h>

#include "answers/check_items.h"

/* ---- merging across the ranks of a distributed exploration -------------- */

void pn_check_shared_size(const pn_check *c, uint32_t *words, uint32_t *bytes)
{
    *words = 2 * c->n;
    bool seen = c->track_quasi || c->track_fire;
    *bytes = (seen ? c->cn->n_transitions : 0) + (c->track_stable ? c->cn->n_places : 0);
}

void pn_check_shared_get(const pn_check *c, uint64_t *words, uint8_t *bytes)
{
    for (uint32_t i = 0; i < c->n; i++) {
        words[2 * i] = (uint64_t)__atomic_load_n(&c->items[i].decided, __ATOMIC_ACQUIRE);
        words[2 * i + 1] = __atomic_load_n(&c->items[i].max, __ATOMIC_RELAXED);
    }
    uint32_t k = 0;
    for (uint32_t t = 0; (c->track_quasi || c->track_fire) && t < c->cn->n_transitions; t++)
        bytes[k++] = __atomic_load_n(&c->seen[t], __ATOMIC_RELAXED);
    for (uint32_t p = 0; c->track_stable && p < c->cn->n_places; p++)
        bytes[k++] = __atomic_load_n(&c->moved[p], __ATOMIC_RELAXED);
}

/* Whether every item a witness can decide is decided (bounds without a
 * proven limit never are before the end). */
static bool check_all_decided(const pn_check *c)
{
    for (uint32_t i = 0; i < c->n; i++) {
        const check_item *it = &c->items[i];
        if (it->kind != ITEM_NONE && it->kind != ITEM_FIXED && it->decided == 0)
            return false;
    }
    return true;
}

bool pn_check_shared_put(pn_check *c, const uint64_t *words, const uint8_t *bytes)
{
    uint32_t k = 0;
    bool quasi_done = false, stable_none = false;
    for (uint32_t t = 0; (c->track_quasi || c->track_fire) && t < c->cn->n_transitions;
         t++, k++)
        if (bytes[k] && !c->seen[t]) {
            c->seen[t] = 1;
            quasi_done |= --c->n_unseen == 0;
            check_fire_seen(c, t, 0); /* seen on another rank */
        }
    for (uint32_t p = 0; c->track_stable && p < c->cn->n_places; p++, k++)
        if (bytes[k] && !c->moved[p]) {
            c->moved[p] = 1;
            stable_none |= --c->n_still == 0;
        }
    for (uint32_t i = 0; i < c->n; i++) {
        check_item *it = &c->items[i];
        if (it->kind == ITEM_NONE || it->kind == ITEM_FIXED || it->decided != 0)
            continue;
        if (it->kind == ITEM_BOUND) {
            it->max = words[2 * i + 1] > it->max ? words[2 * i + 1] : it->max;
            if (it->has_limit && it->max >= it->limit)
                check_decide(c, it, PN_VERDICT_VALUE, 0);
        } else if (words[2 * i] != 0) { /* a witness on another rank */
            check_decide(c, it, (pn_verdict)words[2 * i], 0);
        } else if ((it->kind == ITEM_QUASI && quasi_done) ||
                   (it->kind == ITEM_STABLE && stable_none)) {
            check_decide(c, it, it->kind == ITEM_QUASI ? PN_VERDICT_TRUE : PN_VERDICT_FALSE, 0);
        }
    }
    return check_all_decided(c);
}

/* ---- the items as data, for the GPU kernels (check_items.h) --------------- */

static const uint32_t check_item_kinds[] = {
    [ITEM_EF] = PN_ITEM_EF,           [ITEM_AG] = PN_ITEM_AG,
    [ITEM_BOUND] = PN_ITEM_BOUND,     [ITEM_DEADLOCK] = PN_ITEM_DEADLOCK,
    [ITEM_ONESAFE] = PN_ITEM_ONESAFE, [ITEM_QUASI] = PN_ITEM_QUASI,
    [ITEM_STABLE] = PN_ITEM_STABLE,   [ITEM_LIVE] = PN_ITEM_LIVE};

uint32_t pn_check_items(const pn_check *c, pn_item *items, bool *quasi, bool *stable)
{
    uint32_t n = 0, local = 0;
    *quasi = *stable = false;
    for (uint32_t i = 0; i < c->n; i++) {
        const check_item *it = &c->items[i];
        if (it->kind == ITEM_NONE || it->kind == ITEM_FIXED || it->decided)
            continue;
        pn_item d;
        memset(&d, 0, sizeof d);
        d.kind = check_item_kinds[it->kind];
        d.answer = i;
        d.local = UINT32_MAX;
        if (it->sf != NULL)
            d.f = it->sf->f;
        if (it->kind == ITEM_BOUND) {
            d.places = it->places;
            d.n_places = it->n_places;
            d.has_limit = it->has_limit;
            d.limit = it->limit;
            if (local < PN_ITEMS_LOCAL)
                d.local = local++;
        }
        *quasi |= it->kind == ITEM_QUASI || it->kind == ITEM_LIVE;
        *stable |= it->kind == ITEM_STABLE;
        items[n++] = d;
    }
    return n;
}

/* A counter decided the item: no single state witnesses it. */
static void check_decide_by_count(pn_check *c, check_item *it, pn_verdict v)
{
    check_decide(c, it, v, 0); /* no witness */
}

bool pn_check_items_found(pn_check *c, const pn_item *items, const pn_item_found *found,
                          uint32_t n, const uint32_t *seen, const uint32_t *moved)
{
    for (uint32_t t = 0; seen != NULL && t < c->cn->n_transitions; t++)
        if (seen[t] != 0 && c->seen[t] == 0) {
            c->seen[t] = 1;
            c->n_unseen--;
        }
    for (uint32_t p = 0; moved != NULL && p < c->cn->n_places; p++)
        if (moved[p] != 0 && c->moved[p] == 0) {
            c->moved[p] = 1;
            c->n_still--;
        }
    for (uint32_t k = 0; k < n; k++) {
        check_item *it = &c->items[items[k].answer];
        if (it->kind == ITEM_BOUND)
            pn_atomic_max_u64(&it->max, found[k].max);
        if (it->decided)
            continue;
        if (found[k].witness != PN_ITEM_NONE) {
            pn_verdict v = it->kind == ITEM_BOUND                                   ? PN_VERDICT_VALUE
                           : it->kind == ITEM_EF || it->kind == ITEM_DEADLOCK ? PN_VERDICT_TRUE
                                                                                  : PN_VERDICT_FALSE;
            check_decide(c, it, v, found[k].witness + 1);
        } else if (it->kind == ITEM_QUASI && c->n_unseen == 0) {
            check_decide_by_count(c, it, PN_VERDICT_TRUE);
        } else if (it->kind == ITEM_STABLE && c->n_still == 0) {
            check_decide_by_count(c, it, PN_VERDICT_FALSE);
        }
    }
    return pn_check_decided(c);
}

