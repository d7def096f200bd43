/* The answer board (see check.h): each formula becomes an item whose
 * verdict a witness state (check_visit.c), a complete exploration, or any
 * technique's proof decides; every answer is told to the listener once,
 * the moment it is final. Also the lock and the per-answer flags of steps
 * that run beside each other. */
#include "petrel/check.h"

#include <stdlib.h>
#include <string.h>

#include "answers/check_int.h"

static const pn_fml_node *check_strip_not(const pn_fml_node *n, bool *negate)
{
    *negate = false;
    while (n->kind == PN_FML_NOT) {
        *negate = !*negate;
        n = n->kids[0];
    }
    return n;
}

static pn_status check_fixed(pn_check *c, check_item *it, const pn_fml_node *phi,
                             pn_error *err)
{
    pn_sformula_owned *sf = NULL;
    if (pn_sformula_compile(phi, &sf, err) != PN_OK)
        return err->code;
    const uint64_t *m0 = c->cn->m0;
    bool v = pn_sf_eval(&sf->f, &c->lay->prog, m0, check_enabled_count(c, m0), NULL);
    pn_sformula_free(sf);
    it->kind = ITEM_FIXED;
    it->decided = v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    return PN_OK;
}

/* Classifies one formula: negations on top are peeled off (the answer is
 * flipped), then a state formula is decided on the initial marking, E F phi
 * and A G phi are checked on the fly, and anything else is left to the
 * CTL/LTL checkers (ITEM_NONE here). */
static pn_status check_classify(pn_check *c, check_item *it, const pn_fml_node *root,
                                pn_error *err)
{
    const pn_fml_node *n = check_strip_not(root, &it->negate);
    if (n->kind == PN_FML_PLACE_BOUND) {
        it->kind = ITEM_BOUND;
        it->places = n->idx;
        it->n_places = n->n;
        return PN_OK;
    }
    if (pn_fml_is_state(n))
        return check_fixed(c, it, n, err);
    const pn_fml_node *phi = NULL;
    pn_fml_reach shape = pn_fml_reach_shape(n, &phi);
    if (shape == PN_FML_REACH_NONE)
        return PN_OK;
    it->kind = shape == PN_FML_REACH_EF ? ITEM_EF : ITEM_AG;
    it->phi = phi;
    if (it->kind == ITEM_EF && phi->kind == PN_FML_FIREABLE && phi->n == 1)
        it->fire = phi->idx[0] + 1;
    if (pn_sformula_compile(phi, &it->sf, err) != PN_OK)
        return err->code;
    return PN_OK;
}

static item_kind check_global_kind(pn_exam exam)
{
    switch (exam) {
    case PN_EXAM_REACH_DEADLOCK: return ITEM_DEADLOCK;
    case PN_EXAM_ONE_SAFE: return ITEM_ONESAFE;
    case PN_EXAM_QUASI_LIVENESS: return ITEM_QUASI;
    case PN_EXAM_STABLE_MARKING: return ITEM_STABLE;
    case PN_EXAM_LIVENESS: return ITEM_LIVE;
    default: return ITEM_NONE;
    }
}

static pn_status check_items(pn_check *c, pn_exam exam, const pn_fml_set *set, pn_error *err)
{
    for (uint32_t i = 0; i < c->n; i++) {
        check_item *it = &c->items[i];
        if (set == NULL) {
            it->kind = check_global_kind(exam);
            c->answers[i].id = pn_exam_name(exam);
            if (it->kind == ITEM_DEADLOCK) {
                c->deadlock = pn_fml_leaf(PN_FML_DEADLOCK);
                if (c->deadlock == NULL)
                    return pn_fail(err, PN_ERR_NOMEM, "out of memory for the examination");
                it->phi = c->deadlock;
            }
            continue;
        }
        c->answers[i].id = set->props[i].id;
        if (set->props[i].status != PN_OK || set->props[i].root == NULL)
            continue; /* a name did not bind: CANNOT_COMPUTE */
        if (check_classify(c, it, set->props[i].root, err) != PN_OK)
            return err->code;
    }
    return PN_OK;
}

/* Item it is one a witness can still decide (a bound only once its limit
 * is proven: without one it is a maximum over every state). */
static bool check_counted(const check_item *it)
{
    return it->kind != ITEM_NONE && it->kind != ITEM_FIXED && !it->decided &&
           (it->kind != ITEM_BOUND || it->has_limit);
}

static bool check_unbounded(const check_item *it)
{
    return it->kind == ITEM_BOUND && !it->has_limit && !it->decided;
}

/* What a witness can decide, counted once; every decision then takes its
 * item off (check_decide, check_uncount), so that a family of tens of
 * thousands of items costs each decision a constant, not a recount. */
static void check_count_work(pn_check *c)
{
    c->to_decide = c->unbounded = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        const check_item *it = &c->items[i];
        item_kind k = it->kind;
        c->to_decide += check_counted(it);
        c->unbounded += check_unbounded(it);
        c->track_quasi |= k == ITEM_QUASI || k == ITEM_LIVE;
        c->track_fire |= it->fire != 0 && !it->decided;
        c->track_stable |= k == ITEM_STABLE;
    }
}

/* Item it, counted or unbounded before (was_counted, was_unbounded), was
 * changed from outside the exploration: the counts follow. */
static void check_recount(pn_check *c, const check_item *it, bool was_counted, bool was_unbounded)
{
    int d = (int)check_counted(it) - (int)was_counted;
    int u = (int)check_unbounded(it) - (int)was_unbounded;
    if (d != 0)
        __atomic_add_fetch(&c->to_decide, (uint32_t)d, __ATOMIC_ACQ_REL);
    if (u != 0)
        __atomic_add_fetch(&c->unbounded, (uint32_t)u, __ATOMIC_ACQ_REL);
}

/* The `fire` items by transition (CSR). */
static pn_status check_fire_index(pn_check *c, pn_error *err)
{
    uint32_t T = c->cn->n_transitions;
    c->fire_off = calloc((size_t)T + 2, sizeof *c->fire_off);
    c->fire_of = malloc(((size_t)c->n + 1) * sizeof *c->fire_of);
    if (c->fire_off == NULL || c->fire_of == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the examination");
    for (uint32_t i = 0; i < c->n; i++)
        if (c->items[i].fire != 0)
            c->fire_off[c->items[i].fire + 1]++;
    for (uint32_t t = 0; t < T; t++)
        c->fire_off[t + 2] += c->fire_off[t + 1];
    for (uint32_t i = 0; i < c->n; i++)
        if (c->items[i].fire != 0)
            c->fire_of[c->fire_off[c->items[i].fire]++] = i;
    return PN_OK;
}

static pn_status check_workers(pn_check *c, pn_error *err)
{
    uint32_t T = c->cn->n_transitions, P = c->cn->n_places;
    if (c->track_fire && check_fire_index(c, err) != PN_OK)
        return err->code;
    c->seen = calloc((size_t)T + 1, 1);
    c->moved = calloc((size_t)P + 1, 1);
    c->workers = calloc(c->threads, sizeof *c->workers);
    if (c->seen == NULL || c->moved == NULL || c->workers == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the examination");
    c->n_unseen = T;
    c->n_still = P;
    for (uint32_t i = 0; i < c->threads; i++) {
        check_worker *w = &c->workers[i];
        bool any = c->track_quasi || c->track_fire;
        w->trans = malloc(((size_t)(any ? T : 0) + 1) * sizeof *w->trans);
        w->places = malloc(((size_t)(c->track_stable ? P : 0) + 1) * sizeof *w->places);
        w->memo.slot = calloc((size_t)T + 1, sizeof *w->memo.slot);
        if (w->memo.slot == NULL || w->trans == NULL || w->places == NULL)
            return pn_fail(err, PN_ERR_NOMEM, "out of memory for the examination");
        /* every transition for QuasiLiveness, else those with items */
        for (uint32_t t = 0; any && t < T; t++)
            if (c->track_quasi || c->fire_off[t + 1] > c->fire_off[t])
                w->trans[w->n_trans++] = t;
        for (uint32_t p = 0; c->track_stable && p < P; p++)
            w->places[w->n_places++] = p;
    }
    return PN_OK;
}

void pn_check_free(pn_check *c)
{
    if (c == NULL)
        return;
    for (uint32_t i = 0; c->items != NULL && i < c->n; i++)
        pn_sformula_free(c->items[i].sf);
    for (uint32_t i = 0; c->workers != NULL && i < c->threads; i++) {
        free(c->workers[i].trans);
        free(c->workers[i].places);
        free(c->workers[i].memo.slot);
    }
    for (uint32_t i = 0; c->answers != NULL && i < c->n; i++)
        free((uint32_t *)c->answers[i].lasso);
    free(c->workers);
    free(c->fire_off);
    free(c->fire_of);
    free(c->seen);
    free(c->moved);
    free(c->items);
    free(c->answers);
    free(c->told);
    free(c->gone);
    if (c->lock_made)
        pthread_mutex_destroy(&c->lock);
    pn_layout_free(c->lay);
    pn_fml_free(c->deadlock);
    free(c);
}

pn_status pn_check_new(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                       uint32_t threads, pn_check **out, pn_error *err)
{
    *out = NULL;
    pn_check *c = calloc(1, sizeof *c);
    if (c == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the examination");
    c->cn = cn;
    c->threads = threads ? threads : 1;
    c->n = set != NULL ? set->n : 1;
    c->items = calloc((size_t)c->n + 1, sizeof *c->items);
    c->answers = calloc((size_t)c->n + 1, sizeof *c->answers);
    c->told = calloc((size_t)c->n + 1, 1);
    c->gone = calloc((size_t)c->n + 1, sizeof *c->gone);
    c->lock_made = c->gone != NULL && pthread_mutex_init(&c->lock, NULL) == 0;
    uint8_t *widths = NULL;
    pn_status st = c->items && c->answers && c->told && c->lock_made
                       ? pn_layout_initial_widths(cn, &widths, err)
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory for the examination");
    if (st == PN_OK)
        st = pn_layout_new(cn, widths, &c->lay, err);
    free(widths);
    if (st == PN_OK)
        st = check_items(c, exam, set, err);
    if (st == PN_OK) {
        check_count_work(c);
        st = check_workers(c, err);
    }
    if (st != PN_OK) {
        pn_check_free(c);
        return st;
    }
    /* what the initial marking decided is an answer from the start, so
     * that no step takes it for open (pn_check_open) */
    for (uint32_t i = 0; i < c->n; i++)
        check_tell_decided(c, i);
    c->visitor.on_state = check_on_state;
    c->visitor.ctx = c;
    *out = c;
    return PN_OK;
}

const pn_visitor *pn_check_visitor(pn_check *c) { return &c->visitor; }

bool pn_check_decided(const pn_check *c)
{
    return (__atomic_load_n(&c->to_decide, __ATOMIC_ACQUIRE) == 0 &&
            __atomic_load_n(&c->unbounded, __ATOMIC_ACQUIRE) == 0) ||
           __atomic_load_n(&c->closed, __ATOMIC_ACQUIRE);
}

static pn_verdict check_final(const pn_check *c, const check_item *it, bool complete)
{
    if (it->decided)
        return (pn_verdict)it->decided;
    if (!complete)
        return PN_VERDICT_UNKNOWN;
    switch (it->kind) {
    case ITEM_EF: return PN_VERDICT_FALSE;
    case ITEM_AG: return PN_VERDICT_TRUE;
    case ITEM_DEADLOCK: return PN_VERDICT_FALSE;
    case ITEM_ONESAFE: return PN_VERDICT_TRUE;
    case ITEM_QUASI: return c->n_unseen == 0 ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    case ITEM_STABLE: return c->n_still > 0 ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    /* A transition never enabled is not live; otherwise liveness needs the
     * graph's bottom SCCs, which this check does not have. */
    case ITEM_LIVE: return c->n_unseen > 0 ? PN_VERDICT_FALSE : PN_VERDICT_UNKNOWN;
    default: return PN_VERDICT_UNKNOWN;
    }
}

void pn_check_finish(pn_check *c, const pn_engine_result *res)
{
    bool complete = res != NULL && res->status == PN_RUN_COMPLETE;
    for (uint32_t i = 0; i < c->n; i++) {
        const check_item *it = &c->items[i];
        pn_answer *a = &c->answers[i];
        if (it->techniques != 0)
            a->techniques = it->techniques;
        if (it->kind == ITEM_BOUND) {
            /* A saturated sum is not a proven value; a marking that reached
             * the proven limit is, complete or not. */
            bool reached = it->decided != 0;
            a->verdict = reached || (complete && it->max != UINT64_MAX) ? PN_VERDICT_VALUE
                                                                        : PN_VERDICT_UNKNOWN;
            a->value = reached ? it->limit : it->max;
            if (reached && it->witness != 0) /* the exploration found the marking */
                a->techniques |= PN_TECH_EXPLICIT;
            else if (!reached)
                a->techniques = 0;
            continue;
        }
        pn_verdict v = check_final(c, it, complete);
        a->has_witness = it->decided != 0 && it->witness != 0;
        a->witness = it->witness ? it->witness - 1 : 0;
        if (it->negate && v != PN_VERDICT_UNKNOWN)
            v = v == PN_VERDICT_TRUE ? PN_VERDICT_FALSE : PN_VERDICT_TRUE;
        a->verdict = v;
    }
    for (uint32_t i = 0; i < c->n; i++)
        check_tell(c, i);
}

uint32_t pn_check_count(const pn_check *c) { return c->n; }

const pn_answer *pn_check_answer(const pn_check *c, uint32_t i)
{
    return i < c->n ? &c->answers[i] : NULL;
}

bool pn_check_needs_graph(const pn_check *c)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (c->items[i].kind == ITEM_NONE || c->items[i].kind == ITEM_LIVE)
            return true;
    return false;
}

void pn_check_set(pn_check *c, uint32_t i, pn_verdict v)
{
    if (i >= c->n)
        return;
    c->answers[i].verdict = v;
    check_tell(c, i);
}

void pn_check_set_techniques(pn_check *c, uint32_t i, uint32_t techniques)
{
    if (i < c->n)
        c->answers[i].techniques = techniques;
}

void pn_check_take(pn_check *c, uint32_t i, const pn_check *from, uint32_t j,
                   uint32_t techniques)
{
    if (i >= c->n || j >= from->n || c->answers[i].verdict != PN_VERDICT_UNKNOWN ||
        from->answers[j].verdict == PN_VERDICT_UNKNOWN)
        return;
    /* through the item, so that a job still to run on c counts it decided
     * and its finish keeps it */
    const pn_answer *a = &from->answers[j];
    uint32_t tech = (a->techniques ? a->techniques : PN_TECH_EXPLICIT) | techniques;
    if (c->items[i].kind == ITEM_BOUND)
        pn_check_bound_limit(c, i, a->value, true, tech);
    else
        pn_check_decide_answer(c, i, a->verdict == PN_VERDICT_TRUE, tech);
}

void pn_check_set_lasso(pn_check *c, uint32_t i, uint32_t *trans, uint64_t prefix,
                        uint64_t cycle)
{
    if (i >= c->n) {
        free(trans);
        return;
    }
    free((uint32_t *)c->answers[i].lasso);
    c->answers[i].lasso = trans;
    c->answers[i].lasso_prefix = prefix;
    c->answers[i].lasso_cycle = cycle;
}

void pn_check_adopt_proof(pn_check *c, uint32_t i, const pn_check *from, uint32_t j)
{
    if (i >= c->n || j >= from->n)
        return;
    const pn_answer *a = &from->answers[j];
    c->answers[i].has_witness = a->has_witness;
    c->answers[i].witness = a->witness;
    uint64_t n = a->lasso_prefix + a->lasso_cycle;
    uint32_t *copy = a->lasso != NULL ? malloc((n + 1) * sizeof *copy) : NULL;
    if (copy == NULL)
        return; /* a proof without its path: the answer stands */
    memcpy(copy, a->lasso, n * sizeof *copy);
    pn_check_set_lasso(c, i, copy, a->lasso_prefix, a->lasso_cycle);
}

void pn_check_set_path(pn_check *c, uint32_t i, uint32_t *trans, uint64_t n)
{
    pn_check_set_lasso(c, i, trans, n, 0);
}

pn_check_target pn_check_target_of(const pn_check *c, uint32_t i, const pn_fml_node **phi,
                                   const uint32_t **places, uint32_t *n_places)
{
    if (i >= c->n || c->items[i].decided || __atomic_load_n(&c->closed, __ATOMIC_ACQUIRE))
        return PN_TARGET_NONE;
    const check_item *it = &c->items[i];
    *phi = it->phi;
    *places = it->places;
    *n_places = it->n_places;
    switch (it->kind) {
    case ITEM_EF:
    case ITEM_DEADLOCK: return PN_TARGET_EF;
    case ITEM_AG: return PN_TARGET_AG;
    case ITEM_BOUND: return PN_TARGET_BOUND;
    default: return PN_TARGET_NONE;
    }
}

void pn_check_decide_target(pn_check *c, uint32_t i, bool holds, uint32_t techniques)
{
    if (i >= c->n || c->items[i].decided)
        return;
    check_item *it = &c->items[i];
    if (it->kind != ITEM_EF && it->kind != ITEM_AG && it->kind != ITEM_DEADLOCK)
        return;
    bool counted = check_counted(it), unbounded = check_unbounded(it);
    it->kind = ITEM_FIXED;
    it->decided = holds ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    it->techniques = techniques;
    check_recount(c, it, counted, unbounded);
    check_tell_decided(c, i);
}

void pn_check_bound_limit(pn_check *c, uint32_t i, uint64_t limit, bool reached,
                          uint32_t techniques)
{
    if (i >= c->n || c->items[i].kind != ITEM_BOUND || c->items[i].decided)
        return;
    check_item *it = &c->items[i];
    if (!reached && it->has_limit && it->limit <= limit) /* the tighter proof stays */
        return;
    bool counted = check_counted(it), unbounded = check_unbounded(it);
    it->has_limit = true;
    it->limit = limit;
    it->techniques = techniques;
    if (reached)
        it->decided = PN_VERDICT_VALUE;
    check_recount(c, it, counted, unbounded);
    if (reached)
        check_tell_decided(c, i);
}

bool pn_check_bound_known(const pn_check *c, uint32_t i, uint64_t *limit,
                          uint32_t *techniques)
{
    if (i >= c->n || c->items[i].kind != ITEM_BOUND || c->items[i].decided ||
        !c->items[i].has_limit)
        return false;
    *limit = c->items[i].limit;
    *techniques = c->items[i].techniques;
    return true;
}

void pn_check_decide_answer(pn_check *c, uint32_t i, bool holds, uint32_t techniques)
{
    if (i >= c->n || c->items[i].decided || c->items[i].kind == ITEM_BOUND)
        return;
    check_item *it = &c->items[i];
    bool counted = check_counted(it), unbounded = check_unbounded(it);
    it->kind = ITEM_FIXED;
    it->negate = false;
    it->decided = holds ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    it->techniques = techniques;
    check_recount(c, it, counted, unbounded);
    check_tell_decided(c, i);
}

/* ---- steps beside each other ---------------------------------------------- */

void pn_check_lock(pn_check *c)
{
    pthread_mutex_lock(&c->lock);
}

void pn_check_unlock(pn_check *c)
{
    pthread_mutex_unlock(&c->lock);
}

bool pn_check_open(pn_check *c, uint32_t i)
{
    pn_check_lock(c);
    bool open = i < c->n && c->answers[i].verdict == PN_VERDICT_UNKNOWN &&
                !__atomic_load_n(&c->closed, __ATOMIC_ACQUIRE);
    pn_check_unlock(c);
    return open;
}

uint32_t pn_check_open_count(pn_check *c)
{
    pn_check_lock(c);
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->n && !__atomic_load_n(&c->closed, __ATOMIC_ACQUIRE); i++)
        n += c->answers[i].verdict == PN_VERDICT_UNKNOWN;
    pn_check_unlock(c);
    return n;
}

void pn_check_close(pn_check *c)
{
    __atomic_store_n(&c->closed, 1, __ATOMIC_RELEASE);
    for (uint32_t i = 0; i < c->n; i++)
        __atomic_store_n(&c->gone[i], 1, __ATOMIC_RELEASE);
}

void pn_check_watch(const pn_check *c, uint32_t i, pn_budget *share)
{
    if (i < c->n)
        share->drop = &c->gone[i];
}
