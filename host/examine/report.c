/* The report of one examination (see examine.h): its answers, the net and
 * formulas they were found on, and the traces mapped back from a reduced
 * net onto the net the examination was given. */
#include "petrel/examine.h"

#include <stdlib.h>
#include <string.h>

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

/* Extends *seq (n steps of cn from m0) by cn's enabled transitions, the
 * lowest first, up to a deadlock (see pn_report_trace); unchanged when none
 * is met within REPORT_DEADLOCK_STEPS or a step does not fire. */
static pn_status report_to_deadlock(const pn_cnet *cn, uint32_t **seq, uint64_t *n,
                                    pn_error *err)
{
    uint32_t P = cn->n_places;
    uint64_t *m = malloc(((size_t)P + 1) * sizeof *m), *next = malloc(((size_t)P + 1) * sizeof *next);
    uint32_t *more = malloc(((size_t)REPORT_DEADLOCK_STEPS + 1) * sizeof *more);
    pn_status st = m != NULL && next != NULL && more != NULL
                       ? PN_OK
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory completing a trace");
    bool fires = st == PN_OK;
    if (fires)
        memcpy(m, cn->m0, (size_t)P * sizeof *m);
    for (uint64_t i = 0; fires && i < *n; i++) {
        fires = pn_cnet_enabled(cn, m, (*seq)[i]) && pn_cnet_fire(cn, m, (*seq)[i], next);
        memcpy(m, next, (size_t)P * sizeof *m);
    }
    uint32_t k = 0, t = 0;
    while (fires && k < REPORT_DEADLOCK_STEPS) {
        for (t = 0; t < cn->n_transitions && !pn_cnet_enabled(cn, m, t); t++)
            ;
        if (t == cn->n_transitions || !pn_cnet_fire(cn, m, t, next))
            break;
        memcpy(m, next, (size_t)P * sizeof *m);
        more[k++] = t;
    }
    uint32_t *grown = NULL;
    if (fires && k > 0 && t == cn->n_transitions &&
        (grown = realloc(*seq, (*n + k + 1) * sizeof *grown)) != NULL) {
        memcpy(grown + *n, more, (size_t)k * sizeof *grown);
        *seq = grown;
        *n += k;
    }
    free(m);
    free(next);
    free(more);
    return st;
}

pn_status pn_report_trace(const pn_report *r, const uint32_t *trans, uint64_t n, uint32_t **out,
                          uint64_t *n_out, pn_error *err)
{
    if (r->reduced != NULL) {
        pn_status st = pn_reduce_expand(r->reduced, trans, n, out, n_out, err);
        if (st == PN_OK && r->exam == PN_EXAM_REACH_DEADLOCK && r->original != NULL)
            st = report_to_deadlock(r->original, out, n_out, err);
        if (st != PN_OK) {
            free(*out);
            *out = NULL;
        }
        return st;
    }
    *n_out = n;
    *out = malloc((n + 1) * sizeof **out);
    if (*out == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (n > 0) /* an empty path may come as NULL */
        memcpy(*out, trans, n * sizeof **out);
    return PN_OK;
}

pn_status pn_report_lasso(const pn_report *r, const uint32_t *trans, uint64_t n, uint64_t cycle,
                          uint32_t **out, uint64_t *n_out, uint64_t *cycle_out, pn_error *err)
{
    cycle = cycle < n ? cycle : n;
    uint32_t *tail = NULL;
    uint64_t tail_len = 0;
    pn_status st = pn_report_trace(r, trans, cycle, out, cycle_out, err);
    if (st == PN_OK && cycle < n)
        st = pn_report_trace(r, trans + cycle, n - cycle, &tail, &tail_len, err);
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
    return PN_OK;
}
