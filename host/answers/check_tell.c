/* Streaming the board's answers (check_int.h): each answer is told to the
 * listener once, the moment it is final, from whichever thread decided it,
 * and its flag is raised for the work on it elsewhere to stop. */
#include "answers/check_int.h"

/* Answer i is final: work on it elsewhere stops (pn_check_watch). */
static void check_raise(pn_check *c, uint32_t i)
{
    if (c->answers[i].verdict != PN_VERDICT_UNKNOWN)
        __atomic_store_n(&c->gone[i], 1, __ATOMIC_RELEASE);
}

/* Hands a final answer to the listener, once (several workers may race). */
void check_tell(pn_check *c, uint32_t i)
{
    check_raise(c, i);
    if (c->listen == NULL || c->answers[i].verdict == PN_VERDICT_UNKNOWN ||
        __atomic_exchange_n(&c->told[i], 1, __ATOMIC_ACQ_REL))
        return;
    if (c->extra != 0) {
        pn_answer *a = &c->answers[i];
        a->techniques = (a->techniques ? a->techniques : PN_TECH_EXPLICIT) | c->extra;
    }
    c->listen(c->listen_ctx, c, i);
}

/* The answer of an item a witness or a proof just decided, as
 * pn_check_finish will write it; only the deciding thread writes it. The
 * verdict is read atomically: other workers' compare-exchanges on it
 * (check_visit.c) may still be under way, and ThreadSanitizer reports a
 * plain read beside them. */
static void check_write_decided(pn_check *c, uint32_t i)
{
    const check_item *it = &c->items[i];
    pn_answer *a = &c->answers[i];
    int decided = __atomic_load_n(&it->decided, __ATOMIC_ACQUIRE);
    if (decided == 0 || it->kind == ITEM_NONE)
        return;
    if (it->techniques != 0)
        a->techniques = it->techniques;
    if (it->kind == ITEM_BOUND) {
        a->value = it->limit;
        if (it->witness != 0)
            a->techniques |= PN_TECH_EXPLICIT;
        a->verdict = PN_VERDICT_VALUE;
    } else {
        pn_verdict v = (pn_verdict)decided;
        if (it->negate)
            v = v == PN_VERDICT_TRUE ? PN_VERDICT_FALSE : PN_VERDICT_TRUE;
        a->has_witness = it->witness != 0;
        a->witness = it->witness ? it->witness - 1 : 0;
        a->verdict = v;
    }
}

/* The answer is written at once, listener or not, so that the steps after
 * the one that decided it see it decided (pn_check_open_count). */
void check_tell_decided(pn_check *c, uint32_t i)
{
    check_write_decided(c, i);
    check_tell(c, i);
}

void pn_check_on_decide(pn_check *c, pn_check_listener fn, void *ctx)
{
    c->listen = fn;
    c->listen_ctx = ctx;
    for (uint32_t i = 0; i < c->n; i++) {
        check_tell_decided(c, i);
        check_tell(c, i);
    }
}

void pn_check_add_techniques(pn_check *c, uint32_t techniques)
{
    c->extra |= techniques;
}
