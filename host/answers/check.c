/* On-the-fly examination answers (see check.h). Each formula becomes an item
 * whose verdict is decided by a witness state (EF: a state with phi; AG: a
 * state without it; deadlock, one-safety, ...) or, for what has no witness,
 * by a complete exploration. Items are shared by all worker threads: a
 * verdict is set once with CAS, statistics are atomic maxima, and the
 * per-transition / per-place trackers keep a per-worker list of candidates
 * that only shrinks. */
#include "petrel/check.h"

#include <stdlib.h>
#include <string.h>

#include "net/layout.h"
#include "formula/sformula.h"
#include "answers/check_items.h"

typedef enum {
    ITEM_NONE,     /* outside what the on-the-fly check can prove */
    ITEM_FIXED,    /* decided before exploring */
    ITEM_EF,
    ITEM_AG,
    ITEM_BOUND,
    ITEM_DEADLOCK,
    ITEM_ONESAFE,
    ITEM_QUASI,
    ITEM_STABLE,
    ITEM_LIVE
} item_kind;

typedef struct check_item {
    item_kind kind;
    bool negate;               /* the formula was NOT(...) of this item */
    pn_sformula_owned *sf;
    const pn_fml_node *phi;    /* ITEM_EF, ITEM_AG: borrowed from the set */
    const uint32_t *places;    /* ITEM_BOUND */
    uint32_t n_places;
    bool has_limit;            /* ITEM_BOUND: limit is a proven upper bound */
    uint64_t limit;
    uint32_t techniques;       /* what decided it outside the exploration */
    int decided;               /* 0 or PN_VERDICT_TRUE/FALSE, before negate */
    uint64_t witness;          /* the state that decided it, +1 (0: none) */
    uint64_t max;              /* ITEM_BOUND */
} check_item;

/* Candidates a worker still has to look at: transitions never seen enabled
 * (QuasiLiveness) or places never seen off their initial count (Stable). */
typedef struct check_worker {
    uint32_t *trans, n_trans;
    uint32_t *places, n_places;
    pn_sf_memo memo;           /* transitions tested in the current state */
} check_worker;

struct pn_check {
    const pn_cnet *cn;
    pn_layout *lay;            /* its pn_prog answers enabledness */
    uint32_t n;
    check_item *items;
    pn_answer *answers;
    uint32_t to_decide;        /* items a witness can decide */
    uint32_t n_decided;
    bool track_quasi, track_stable;
    uint8_t *seen;             /* per transition: seen enabled */
    uint32_t n_unseen;
    uint8_t *moved;            /* per place: seen off its initial count */
    uint32_t n_still;
    uint32_t threads;
    check_worker *workers;
    pn_visitor visitor;
    pn_fml_node *deadlock;     /* the target of ITEM_DEADLOCK (E F deadlock) */
    pn_check_listener listen;  /* streaming (pn_check_on_decide) */
    void *listen_ctx;
    uint8_t *told;             /* per answer: the listener has it */
    uint32_t extra;            /* techniques every answer carries (pn_check_add_techniques) */
};

static void check_tell_decided(pn_check *c, uint32_t i);

/* witness: the deciding state's id + 1; 0 when it is not this process's
 * (a distributed exploration's other rank). */
static bool check_decide(pn_check *c, check_item *it, pn_verdict v, uint64_t witness)
{
    int expected = 0;
    if (!__atomic_compare_exchange_n(&it->decided, &expected, (int)v, false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return false;
    it->witness = witness;
    check_tell_decided(c, (uint32_t)(it - c->items));
    return __atomic_add_fetch(&c->n_decided, 1, __ATOMIC_ACQ_REL) == c->to_decide;
}

static uint32_t check_enabled_count(const pn_check *c, const uint64_t *m)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < c->cn->n_transitions; t++)
        n += pn_marking_enabled(&c->lay->prog, m, t);
    return n;
}

/* QuasiLiveness bookkeeping for one state; true when the last unseen
 * transition was just seen. */
static bool check_track_quasi(pn_check *c, check_worker *w, const uint64_t *m)
{
    bool all = false;
    uint32_t k = 0;
    while (k < w->n_trans) {
        uint32_t t = w->trans[k];
        bool drop = __atomic_load_n(&c->seen[t], __ATOMIC_RELAXED);
        if (!drop && pn_marking_enabled(&c->lay->prog, m, t)) {
            drop = true;
            if (__atomic_exchange_n(&c->seen[t], 1, __ATOMIC_ACQ_REL) == 0)
                all = __atomic_sub_fetch(&c->n_unseen, 1, __ATOMIC_ACQ_REL) == 0;
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

static uint64_t check_sum(const check_item *it, const uint64_t *m)
{
    uint64_t sum = 0;
    for (uint32_t k = 0; k < it->n_places; k++) {
        uint64_t v = m[it->places[k]];
        sum = sum > UINT64_MAX - v ? UINT64_MAX : sum + v;
    }
    return sum;
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
        uint64_t sum = check_sum(it, m);
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

static bool check_on_state(void *ctx, uint32_t worker, uint64_t id, const uint64_t *m,
                           uint32_t n_enabled)
{
    pn_check *c = ctx;
    check_worker *w = &c->workers[worker];
    bool quasi_done = c->track_quasi && check_track_quasi(c, w, m);
    bool stable_none = c->track_stable && check_track_stable(c, w, m);
    w->memo.epoch++;
    bool all = false;
    for (uint32_t i = 0; i < c->n; i++) {
        check_item *it = &c->items[i];
        if (it->kind == ITEM_NONE || it->kind == ITEM_FIXED ||
            __atomic_load_n(&it->decided, __ATOMIC_ACQUIRE))
            continue;
        all |= check_item_state(c, it, w, id, m, n_enabled, quasi_done, stable_none);
    }
    return all;
}

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

/* Counts what a witness can still decide; run again (before exploring)
 * whenever something outside the exploration decides or bounds an item. */
static void check_count_work(pn_check *c)
{
    bool bound = false;
    c->to_decide = 0;
    /* The visitor stops when it has decided to_decide items: count from
     * here. Decisions of an earlier exploration (the probe) are not among
     * the items left, and counting them stopped the next one early. */
    c->n_decided = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        const check_item *it = &c->items[i];
        item_kind k = it->kind;
        bound |= k == ITEM_BOUND && !it->has_limit;
        if (k != ITEM_NONE && k != ITEM_FIXED && !it->decided)
            c->to_decide += k != ITEM_BOUND || it->has_limit;
        c->track_quasi |= k == ITEM_QUASI || k == ITEM_LIVE;
        c->track_stable |= k == ITEM_STABLE;
    }
    /* Bounds without a proven limit are maxima over every state: never
     * stop before the end. */
    if (bound)
        c->to_decide = UINT32_MAX;
}

static pn_status check_workers(pn_check *c, pn_error *err)
{
    uint32_t T = c->cn->n_transitions, P = c->cn->n_places;
    c->seen = calloc((size_t)T + 1, 1);
    c->moved = calloc((size_t)P + 1, 1);
    c->workers = calloc(c->threads, sizeof *c->workers);
    if (c->seen == NULL || c->moved == NULL || c->workers == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the examination");
    c->n_unseen = T;
    c->n_still = P;
    for (uint32_t i = 0; i < c->threads; i++) {
        check_worker *w = &c->workers[i];
        w->trans = malloc(((size_t)(c->track_quasi ? T : 0) + 1) * sizeof *w->trans);
        w->places = malloc(((size_t)(c->track_stable ? P : 0) + 1) * sizeof *w->places);
        w->memo.slot = calloc((size_t)T + 1, sizeof *w->memo.slot);
        if (w->memo.slot == NULL || w->trans == NULL || w->places == NULL)
            return pn_fail(err, PN_ERR_NOMEM, "out of memory for the examination");
        for (uint32_t t = 0; c->track_quasi && t < T; t++)
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
    free(c->seen);
    free(c->moved);
    free(c->items);
    free(c->answers);
    free(c->told);
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
    uint8_t *widths = NULL;
    pn_status st = c->items && c->answers && c->told
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
    c->visitor.on_state = check_on_state;
    c->visitor.ctx = c;
    *out = c;
    return PN_OK;
}

const pn_visitor *pn_check_visitor(pn_check *c) { return &c->visitor; }

bool pn_check_decided(const pn_check *c) { return c->to_decide == 0; }

/* ---- streaming ------------------------------------------------------------ */

/* Hands a final answer to the listener, once (several workers may race). */
static void check_tell(pn_check *c, uint32_t i)
{
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
 * pn_check_finish will write it; only the deciding thread writes it. */
static void check_write_decided(pn_check *c, uint32_t i);

/* The answer is written at once, listener or not, so that the steps after
 * the one that decided it see it decided (ex_open_count). */
static void check_tell_decided(pn_check *c, uint32_t i)
{
    check_write_decided(c, i);
    if (c->listen != NULL)
        check_tell(c, i);
}

static void check_write_decided(pn_check *c, uint32_t i)
{
    const check_item *it = &c->items[i];
    pn_answer *a = &c->answers[i];
    if (it->decided == 0 || it->kind == ITEM_NONE)
        return;
    if (it->techniques != 0)
        a->techniques = it->techniques;
    if (it->kind == ITEM_BOUND) {
        a->value = it->limit;
        if (it->witness != 0)
            a->techniques |= PN_TECH_EXPLICIT;
        a->verdict = PN_VERDICT_VALUE;
    } else {
        pn_verdict v = (pn_verdict)it->decided;
        if (it->negate)
            v = v == PN_VERDICT_TRUE ? PN_VERDICT_FALSE : PN_VERDICT_TRUE;
        a->has_witness = it->witness != 0;
        a->witness = it->witness ? it->witness - 1 : 0;
        a->verdict = v;
    }
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
    for (uint32_t i = 0; c->listen != NULL && i < c->n; i++)
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
    const pn_answer *a = &from->answers[j];
    c->answers[i].value = a->value;
    c->answers[i].has_witness = false;
    c->answers[i].techniques = (a->techniques ? a->techniques : PN_TECH_EXPLICIT) | techniques;
    pn_check_set(c, i, a->verdict);
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

void pn_check_set_path(pn_check *c, uint32_t i, uint32_t *trans, uint64_t n)
{
    pn_check_set_lasso(c, i, trans, n, 0);
}

pn_check_target pn_check_target_of(const pn_check *c, uint32_t i, const pn_fml_node **phi,
                                   const uint32_t **places, uint32_t *n_places)
{
    if (i >= c->n || c->items[i].decided)
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
    it->kind = ITEM_FIXED;
    it->decided = holds ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    it->techniques = techniques;
    check_count_work(c);
    check_tell_decided(c, i);
}

void pn_check_bound_limit(pn_check *c, uint32_t i, uint64_t limit, bool reached,
                          uint32_t techniques)
{
    if (i >= c->n || c->items[i].kind != ITEM_BOUND || c->items[i].decided)
        return;
    check_item *it = &c->items[i];
    it->has_limit = true;
    it->limit = limit;
    it->techniques = techniques;
    if (reached)
        it->decided = PN_VERDICT_VALUE;
    check_count_work(c);
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
    it->kind = ITEM_FIXED;
    it->negate = false;
    it->decided = holds ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    it->techniques = techniques;
    check_count_work(c);
    check_tell_decided(c, i);
}

/* ---- merging across the ranks of a distributed exploration -------------- */

void pn_check_shared_size(const pn_check *c, uint32_t *words, uint32_t *bytes)
{
    *words = 2 * c->n;
    *bytes = (c->track_quasi ? c->cn->n_transitions : 0) + (c->track_stable ? c->cn->n_places : 0);
}

void pn_check_shared_get(const pn_check *c, uint64_t *words, uint8_t *bytes)
{
    for (uint32_t i = 0; i < c->n; i++) {
        words[2 * i] = (uint64_t)__atomic_load_n(&c->items[i].decided, __ATOMIC_ACQUIRE);
        words[2 * i + 1] = __atomic_load_n(&c->items[i].max, __ATOMIC_RELAXED);
    }
    uint32_t k = 0;
    for (uint32_t t = 0; c->track_quasi && t < c->cn->n_transitions; t++)
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
    for (uint32_t t = 0; c->track_quasi && t < c->cn->n_transitions; t++, k++)
        if (bytes[k] && !c->seen[t]) {
            c->seen[t] = 1;
            quasi_done |= --c->n_unseen == 0;
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

void pn_check_add_techniques(pn_check *c, uint32_t techniques)
{
    c->extra |= techniques;
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
    return __atomic_load_n(&c->n_decided, __ATOMIC_ACQUIRE) == c->to_decide;
}
