/* The report of one examination (see examine.h): its answers, the net and
 * formulas they were found on, and the traces mapped back from a reduced
 * net onto the net the examination was given. */
#include "petrel/examine.h"

#include <stdlib.h>
#include <string.h>

#include "answers/fire_seq.h"
#include "petrel/reduce.h"

void pn_report_free(pn_report *r)
{
    if (r == NULL)
        return;
    pn_check_free(r->check);
    pn_engine_result_free(&r->result);
    pn_reduced_free(r->reduced);
    pn_fml_set_free(r->simplified);
    free(r);
}

#define REPORT_DEADLOCK_STEPS (1u << 16)

static bool report_deadlocked(const pn_cnet *cn, const uint64_t *m)
{
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        if (pn_cnet_enabled(cn, m, t))
            return false;
    return true;
}

/* Fires cn's enabled transitions on m, the lowest first, appending them to
 * q, up to a deadlock; false when none is met within REPORT_DEADLOCK_STEPS
 * or a firing would pass UINT64_MAX. */
static bool report_run_to_deadlock(const pn_cnet *cn, uint64_t *m, pn_fire_seq *q)
{
    for (uint32_t k = 0; k < REPORT_DEADLOCK_STEPS; k++) {
        uint32_t t = 0;
        while (t < cn->n_transitions && !pn_cnet_enabled(cn, m, t))
            t++;
        if (t == cn->n_transitions)
            return true;
        if (!pn_cnet_fire_here(cn, m, t))
            return false;
        pn_fire_seq_push(q, t);
    }
    return false;
}

/* *seq (*n steps of cn from m0) with a run up to a deadlock (see
 * pn_report_trace) before each deadlock step (UINT32_MAX) met where a
 * transition is enabled, and at the end when to_end; *mark (NULL: none),
 * the index of a step, follows that step, a run before it counted before
 * it. Unchanged when a step does not fire or no deadlock is met. */
static pn_status report_complete(const pn_cnet *cn, uint32_t **seq, uint64_t *n, bool to_end,
                                 uint64_t *mark, pn_error *err)
{
    uint64_t *m = malloc(((size_t)cn->n_places + 1) * sizeof *m);
    if (m == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory completing a trace");
    memcpy(m, cn->m0, (size_t)cn->n_places * sizeof *m);
    pn_fire_seq q = {0};
    bool ok = true, grown = false;
    uint64_t new_mark = mark != NULL ? *mark : 0;
    for (uint64_t i = 0; ok && i <= *n; i++) {
        bool stutter = i < *n ? (*seq)[i] == UINT32_MAX : to_end;
        if (stutter && !report_deadlocked(cn, m)) {
            ok = report_run_to_deadlock(cn, m, &q);
            grown = true;
        }
        if (mark != NULL && i == *mark)
            new_mark = q.n;
        if (!ok || i == *n)
            break;
        uint32_t t = (*seq)[i];
        ok = t == UINT32_MAX || (pn_cnet_enabled(cn, m, t) && pn_cnet_fire_here(cn, m, t));
        pn_fire_seq_push(&q, t);
    }
    if (ok && grown && !q.lost) { /* a lost step (no memory): the trace as expanded */
        free(*seq);
        *seq = q.trans;
        *n = q.n;
        if (mark != NULL)
            *mark = new_mark;
    } else {
        pn_fire_seq_free(&q);
    }
    free(m);
    return PN_OK;
}

static bool report_has_stutter(const uint32_t *seq, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (seq[i] == UINT32_MAX)
            return true;
    return false;
}

/* trans[0..n) expanded onto the original when r->reduced, else copied. */
static pn_status report_expand(const pn_report *r, const uint32_t *trans, uint64_t n,
                               uint32_t **out, uint64_t *n_out, pn_error *err)
{
    if (r->reduced != NULL)
        return pn_reduce_expand(r->reduced, trans, n, out, n_out, err);
    *n_out = n;
    *out = malloc((n + 1) * sizeof **out);
    if (*out == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (n > 0) /* an empty path may come as NULL */
        memcpy(*out, trans, n * sizeof **out);
    return PN_OK;
}

pn_status pn_report_trace(const pn_report *r, const uint32_t *trans, uint64_t n, uint32_t **out,
                          uint64_t *n_out, pn_error *err)
{
    pn_status st = report_expand(r, trans, n, out, n_out, err);
    bool to_end = r->exam == PN_EXAM_REACH_DEADLOCK;
    if (st == PN_OK && r->reduced != NULL && r->original != NULL &&
        (to_end || report_has_stutter(*out, *n_out)))
        st = report_complete(r->original, out, n_out, to_end, NULL, err);
    if (st != PN_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}

pn_status pn_report_lasso(const pn_report *r, const uint32_t *trans, uint64_t n, uint64_t cycle,
                          uint32_t **out, uint64_t *n_out, uint64_t *cycle_out, pn_error *err)
{
    cycle = cycle < n ? cycle : n;
    uint32_t *tail = NULL;
    uint64_t tail_len = 0;
    pn_status st = report_expand(r, trans, cycle, out, cycle_out, err);
    if (st == PN_OK && cycle < n)
        st = report_expand(r, trans + cycle, n - cycle, &tail, &tail_len, err);
    uint32_t *all = st == PN_OK && tail_len > 0
                        ? realloc(*out, (*cycle_out + tail_len + 1) * sizeof *all)
                        : *out;
    if (st == PN_OK && all == NULL)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (st != PN_OK) {
        free(*out);
        free(tail);
        *out = NULL;
        return st;
    }
    if (tail_len > 0)
        memcpy(all + *cycle_out, tail, tail_len * sizeof *all);
    free(tail);
    *out = all;
    *n_out = *cycle_out + tail_len;
    if (r->reduced != NULL && r->original != NULL && report_has_stutter(all, *n_out))
        st = report_complete(r->original, out, n_out, false, cycle_out, err);
    if (st != PN_OK) {
        free(*out);
        *out = NULL;
    }
    return st;
}
