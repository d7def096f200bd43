/* The board's visitor (check_int.h): every expanded state of an exploration
 * goes through the open items, each decided by the first witness met
 * (E F: a state with phi; A G: one without it; a deadlock, an unsafe place,
 * ...). Items are shared by all worker threads: a verdict is set once with
 * CAS, statistics are atomic maxima, and the per-transition / per-place
 * trackers keep a per-worker list of candidates that only shrinks. */
#include "answers/check_int.h"

bool check_decide(pn_check *c, check_item *it, pn_verdict v, uint64_t witness)
{
    int expected = 0;
    if (!__atomic_compare_exchange_n(&it->decided, &expected, (int)v, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return false;
    it->witness = witness;
    check_tell_decided(c, (uint32_t)(it - c->items));
    return __atomic_sub_fetch(&c->to_decide, 1, __ATOMIC_ACQ_REL) == 0 &&
           __atomic_load_n(&c->unbounded, __ATOMIC_ACQUIRE) == 0;
}

uint32_t check_enabled_count(const pn_check *c, const uint64_t *m)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < c->cn->n_transitions; t++)
        n += pn_marking_enabled(&c->lay->prog, m, t);
    return n;
}

bool check_fire_seen(pn_check *c, uint32_t t, uint64_t witness)
{
    bool last = false;
    for (uint32_t k = c->fire_off != NULL ? c->fire_off[t] : 0;
         c->fire_off != NULL && k < c->fire_off[t + 1]; k++)
        last |= check_decide(c, &c->items[c->fire_of[k]], PN_VERDICT_TRUE, witness);
    return last;
}

/* QuasiLiveness and the `fire` items' bookkeeping for state id; *quasi
 * when the last unseen transition was just seen, true when the last item a
 * witness could decide was. */
static bool check_track_quasi(pn_check *c, check_worker *w, uint64_t id, const uint64_t *m,
                              bool *quasi)
{
    bool all = false;
    uint32_t k = 0;
    while (k < w->n_trans) {
        uint32_t t = w->trans[k];
        bool drop = __atomic_load_n(&c->seen[t], __ATOMIC_RELAXED);
        if (!drop && pn_marking_enabled(&c->lay->prog, m, t)) {
            drop = true;
            if (__atomic_exchange_n(&c->seen[t], 1, __ATOMIC_ACQ_REL) == 0) {
                *quasi |= __atomic_sub_fetch(&c->n_unseen, 1, __ATOMIC_ACQ_REL) == 0;
                all |= check_fire_seen(c, t, id + 1);
            }
        }
        if (drop)
            w->trans[k] = w->trans[--w->n_trans];
        else
            k++;
    }
    return all;
}

/* StableMarking bookkeeping; true when no place can be stable any more. */
static bool check_track_stable(pn_check *c, check_worker *w, const uint64_t *m)
{
    bool none = false;
    uint32_t k = 0;
    while (k < w->n_places) {
        uint32_t p = w->places[k];
        bool drop = __atomic_load_n(&c->moved[p], __ATOMIC_RELAXED);
        if (!drop && m[p] != c->cn->m0[p]) {
            drop = true;
            if (__atomic_exchange_n(&c->moved[p], 1, __ATOMIC_ACQ_REL) == 0)
                none = __atomic_sub_fetch(&c->n_still, 1, __ATOMIC_ACQ_REL) == 0;
        }
        if (drop)
            w->places[k] = w->places[--w->n_places];
        else
            k++;
    }
    return none;
}

static bool check_one_unsafe(const pn_check *c, const uint64_t *m)
{
    for (uint32_t p = 0; p < c->cn->n_places; p++)
        if (m[p] > 1)
            return true;
    return false;
}

/* Returns true when this state decided the last undecided item. */
static bool check_item_state(pn_check *c, check_item *it, check_worker *w, uint64_t id,
                             const uint64_t *m, uint32_t n_enabled, bool quasi_done,
                             bool stable_none)
{
    const pn_prog *g = &c->lay->prog;
    switch (it->kind) {
    case ITEM_EF:
        return pn_sf_eval(&it->sf->f, g, m, n_enabled, &w->memo) &&
               check_decide(c, it, PN_VERDICT_TRUE, id + 1);
    case ITEM_AG:
        return !pn_sf_eval(&it->sf->f, g, m, n_enabled, &w->memo) &&
               check_decide(c, it, PN_VERDICT_FALSE, id + 1);
    case ITEM_BOUND: {
        /* A marking that reaches the proven bound makes it the answer. */
        uint64_t sum = pn_marking_sum(m, it->places, it->n_places);
        pn_atomic_max_u64(&it->max, sum);
        return it->has_limit && sum >= it->limit && check_decide(c, it, PN_VERDICT_VALUE, id + 1);
    }
    case ITEM_DEADLOCK:
        return n_enabled == 0 && check_decide(c, it, PN_VERDICT_TRUE, id + 1);
    case ITEM_ONESAFE:
        return check_one_unsafe(c, m) && check_decide(c, it, PN_VERDICT_FALSE, id + 1);
    case ITEM_QUASI:
        return quasi_done && check_decide(c, it, PN_VERDICT_TRUE, id + 1);
    case ITEM_STABLE:
        return stable_none && check_decide(c, it, PN_VERDICT_FALSE, id + 1);
    case ITEM_LIVE: /* a reachable deadlock kills every transition */
        return n_enabled == 0 && c->cn->n_transitions > 0 &&
               check_decide(c, it, PN_VERDICT_FALSE, id + 1);
    default:
        return false;
    }
}

bool check_on_state(void *ctx, uint32_t worker, uint64_t id, const uint64_t *m,
                           uint32_t n_enabled)
{
    pn_check *c = ctx;
    if (__atomic_load_n(&c->closed, __ATOMIC_ACQUIRE))
        return true; /* nothing this exploration finds matters any more */
    check_worker *w = &c->workers[worker];
    bool quasi_done = false;
    bool all = (c->track_quasi || c->track_fire) && check_track_quasi(c, w, id, m, &quasi_done);
    bool stable_none = c->track_stable && check_track_stable(c, w, m);
    w->memo.epoch++;
    for (uint32_t i = 0; i < c->n; i++) {
        check_item *it = &c->items[i];
        if (it->kind == ITEM_NONE || it->kind == ITEM_FIXED || it->fire != 0 ||
            __atomic_load_n(&it->decided, __ATOMIC_ACQUIRE))
            continue;
        all |= check_item_state(c, it, w, id, m, n_enabled, quasi_done, stable_none);
    }
    return all;
}

