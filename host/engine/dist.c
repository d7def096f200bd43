/* The distributed exploration (dist.h): hash-partitioned, level-synchronous
 * BFS over the ranks of an MPI job, after Stern & Dill ("Parallelizing the
 * Murphi verifier", CAV 1997) as LTSmin's and DiVinE's MPI tools do it.
 * Each rank runs pn_explore as its part (engine/part.h): its threads
 * expand the states it owns and queue the others' successors in
 * per-destination outboxes; between rounds this file's two collectives
 * move the outboxes (mpi_transport.c) and make every rank take the same
 * decision, the on-the-fly check's findings merged on the way
 * (pn_check_shared_*). A widening restarts every rank with the union of
 * the overflowed places (a wider field moves a state to another owner).
 * MPI itself is only in mpi_transport.c. */
#include "petrel/dist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mpi_transport.h"
#include "engine/part.h"
#include "pn_state.h"

struct pn_dist {
    pn_mpi *mpi;
    bool commanded;       /* the one command (pn_dist_command) is settled */
    uint64_t bytes_sent;  /* the last exploration's, all ranks */
};

/* One exploration's collective state. */
typedef struct dist_run {
    pn_dist *d;
    pn_check *c;          /* NULL: no visitor findings to merge */
    uint32_t c_words, c_bytes;
    /* The round's one reduction (pn_mpi_combine): the header (3 words),
     * maxima (stop, busy, widen_any, the check's words), sums (next,
     * states, edges), then bits (the widen flags, the check's bytes). */
    uint64_t *v;
    uint32_t n_max, n_bits;
    uint8_t *bytes;       /* n_places + c_bytes, unpacked */
    uint32_t n_places;
    /* The check was complete after the last merge: stop at the next
     * collective (every rank then has it, so all stop alike). */
    uint64_t stop_next;
} dist_run;

bool pn_dist_built(void) { return pn_mpi_built(); }
bool pn_dist_launched(void) { return pn_mpi_launched(); }

pn_status pn_dist_init(int *argc, char ***argv, pn_dist_fatal_fn fatal, void *ctx,
                       pn_dist **out, pn_error *err)
{
    *out = NULL;
    pn_mpi *m = NULL;
    if (pn_mpi_init(argc, argv, fatal, ctx, &m, err) != PN_OK)
        return err->code;
    pn_dist *d = calloc(1, sizeof *d);
    if (d == NULL) {
        pn_mpi_end(m, true);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory joining the MPI job");
    }
    d->mpi = m;
    *out = d;
    return PN_OK;
}

uint32_t pn_dist_rank(const pn_dist *d) { return pn_mpi_rank(d->mpi); }
uint32_t pn_dist_ranks(const pn_dist *d) { return pn_mpi_ranks(d->mpi); }
uint64_t pn_dist_bytes_sent(const pn_dist *d) { return d->bytes_sent; }

void pn_dist_end(pn_dist *d, bool failed)
{
    if (d == NULL)
        return;
    if (!failed)
        pn_dist_command(d, false, NULL, NULL);
    pn_mpi_end(d->mpi, failed);
    free(d);
}

/* What the ranks must share to explore together: the net and the answers'
 * count (the same files, reduced by the same deterministic rules). */
static uint64_t dist_fingerprint(const pn_cnet *cn, const pn_check *c)
{
    if (cn == NULL)
        return 0;
    uint64_t h = pn_mix64(cn->n_places) ^ pn_mix64((uint64_t)cn->n_transitions << 32);
    h = pn_mix64(h ^ (c != NULL ? pn_check_count(c) : UINT32_MAX));
    for (uint32_t p = 0; p < cn->n_places; p++)
        h = pn_mix64(h ^ cn->m0[p]) + p;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
            h = pn_mix64(h ^ ((uint64_t)cn->pre[k].place << 32) ^ cn->pre[k].weight) + t;
        for (uint32_t k = cn->post_off[t]; k < cn->post_off[t + 1]; k++)
            h = pn_mix64(h ^ ((uint64_t)cn->post[k].place << 32) ^ cn->post[k].weight) + ~t;
    }
    return h;
}

bool pn_dist_command(pn_dist *d, bool explore, const pn_cnet *cn, const pn_check *c)
{
    if (d == NULL || d->commanded)
        return false;
    d->commanded = true;
    uint64_t mine = dist_fingerprint(cn, c);
    uint64_t msg[2] = {explore && cn != NULL, mine};
    pn_mpi_bcast_u64(d->mpi, msg, 2);
    if (msg[0] == 0)
        return false;
    uint64_t differ = cn == NULL || msg[1] != mine;
    pn_mpi_max_u64(d->mpi, &differ, 1);
    if (differ && pn_mpi_rank(d->mpi) == 0)
        fprintf(stderr, "petrel: the ranks hold different nets (a reduction cut short by "
                        "time?): rank 0 explores alone\n");
    return differ == 0;
}

static int dist_exchange(void *ctx, pn_outbox *const *boxes, uint32_t n_boxes, uint32_t words,
                         const uint64_t **recv, uint64_t *n_recv)
{
    dist_run *r = ctx;
    return pn_mpi_exchange(r->d->mpi, boxes, n_boxes, words, recv, n_recv);
}

static void dist_agree(void *ctx, pn_part_agree *a, uint32_t n_places)
{
    dist_run *r = ctx;
    uint64_t *v = r->v, *max = v + 3, *sum = max + r->n_max, *bits = sum + 3;
    uint32_t n_bytes = n_places + r->c_bytes;
    max[0] = a->stop > r->stop_next ? a->stop : r->stop_next;
    max[1] = a->busy;
    max[2] = a->widen_any;
    memcpy(r->bytes, a->widen, n_places);
    if (r->c != NULL)
        pn_check_shared_get(r->c, max + 3, r->bytes + n_places);
    sum[0] = a->next;
    sum[1] = a->states;
    sum[2] = a->edges;
    memset(bits, 0, (n_bytes + 63) / 64 * sizeof *bits);
    for (uint32_t i = 0; i < n_bytes; i++)
        bits[i / 64] |= (uint64_t)(r->bytes[i] != 0) << (i % 64);
    pn_mpi_combine(r->d->mpi, v);
    for (uint32_t i = 0; i < n_bytes; i++)
        r->bytes[i] = (uint8_t)(bits[i / 64] >> (i % 64) & 1);
    a->stop = max[0];
    a->busy = max[1];
    a->widen_any = max[2];
    memcpy(a->widen, r->bytes, n_places);
    a->next = sum[0];
    a->states = sum[1];
    a->edges = sum[2];
    if (r->c != NULL && pn_check_shared_put(r->c, max + 3, r->bytes + n_places))
        r->stop_next = PN_RUN_STOPPED;
}

/* The totals over all ranks, on every rank. */
static void dist_reduce(pn_mpi *m, pn_engine_result *res)
{
    uint64_t sums[4] = {res->states, res->edges, res->bytes, res->threads};
    uint64_t maxs[5] = {res->max_tokens_place, res->max_tokens_marking, res->levels,
                        res->restarts, (uint64_t)res->compact};
    pn_mpi_sum_u64(m, sums, 4);
    pn_mpi_max_u64(m, maxs, 5);
    res->states = sums[0];
    res->edges = sums[1];
    res->bytes = sums[2];
    res->threads = (uint32_t)sums[3];
    res->max_tokens_place = maxs[0];
    res->max_tokens_marking = maxs[1];
    res->levels = maxs[2];
    res->restarts = maxs[3];
    res->compact = maxs[4] != 0;
}

pn_status pn_dist_explore(pn_dist *d, const pn_cnet *cn, const pn_engine_opts *o, pn_check *c,
                          pn_engine_result *res, pn_error *err)
{
    memset(res, 0, sizeof *res);
    if (o->keep_parents || o->record_graph || o->keep_states)
        return pn_fail(err, PN_ERR_UNSUPPORTED,
                       "a distributed exploration keeps no state ids (traces, CTL and LTL "
                       "run on one process)");
    dist_run r = {.d = d, .c = c, .n_places = cn->n_places};
    if (c != NULL)
        pn_check_shared_size(c, &r.c_words, &r.c_bytes);
    r.n_max = 3 + r.c_words;
    r.n_bits = cn->n_places + r.c_bytes;
    size_t n = 3 + (size_t)r.n_max + 3 + (r.n_bits + 63) / 64;
    r.v = calloc(n, sizeof *r.v);
    r.bytes = calloc((size_t)r.n_bits + 1, 1);
    if (r.v != NULL) {
        r.v[0] = r.n_max;
        r.v[1] = 3;
        r.v[2] = n;
    }
    if (r.v == NULL || r.bytes == NULL)
        pn_mpi_fail(d->mpi, "out of memory for the exploration's collectives");
    pn_part part = {.rank = pn_mpi_rank(d->mpi), .ranks = pn_mpi_ranks(d->mpi), .ctx = &r,
                    .exchange = dist_exchange, .agree = dist_agree};
    pn_engine_opts eo = *o;
    eo.part = &part;
    if (part.rank != 0)
        eo.progress = NULL;
    uint64_t sent0 = pn_mpi_bytes_sent(d->mpi);
    pn_status st = pn_explore(cn, &eo, res, err);
    free(r.v);
    free(r.bytes);
    if (st != PN_OK) /* the other ranks wait in a collective for this one */
        pn_mpi_fail(d->mpi, err->msg);
    dist_reduce(d->mpi, res);
    d->bytes_sent = pn_mpi_bytes_sent(d->mpi) - sent0;
    pn_mpi_sum_u64(d->mpi, &d->bytes_sent, 1);
    return PN_OK;
}
