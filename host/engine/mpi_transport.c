/* The MPI operations of the distributed exploration (mpi_transport.h), on
 * Open MPI. Successors travel as one message per pair of ranks and round:
 * the counts first (MPI_Alltoall), then MPI_Irecv / MPI_Isend of the
 * states packed per destination, as in the "personalized all-to-all" of
 * the distributed BFS literature (e.g. Buluc & Madduri, SC 2011). Errors
 * return (MPI_ERRORS_RETURN) and end the run through the fatal function
 * rather than MPI's default abort, so that rank 0 still prints its open
 * answers. */
#include "engine/mpi_transport.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A rank waiting for the others polls this many times, then sleeps
 * between polls: busy-waiting ranks took the cores from the working ones
 * when several share a machine (mpirun --oversubscribe, or a loaded one). */
#define MPI_SPIN_POLLS 200
#define MPI_POLL_SLEEP_NS 50000

struct pn_mpi {
    uint32_t rank, ranks;
    pn_dist_fatal_fn fatal;
    void *fatal_ctx;
    uint64_t *scount, *rcount;  /* states per rank, this round */
    uint64_t *sbuf, *rbuf;      /* packed states, by rank */
    uint64_t scap, rcap;        /* words allocated */
    MPI_Request *reqs;          /* 2 per rank */
    MPI_Datatype state;         /* `words` uint64 */
    uint32_t state_words;       /* 0: none committed */
    uint64_t sent;              /* bytes of states sent */
};

bool pn_mpi_built(void) { return true; }

bool pn_mpi_launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") != NULL || getenv("PMIX_RANK") != NULL ||
           getenv("PMI_RANK") != NULL;
}

void pn_mpi_fail(pn_mpi *m, const char *what)
{
    fprintf(stderr, "petrel: rank %u of %u: %s; the run ends, open answers are CANNOT_COMPUTE\n",
            m->rank, m->ranks, what);
    fflush(stderr);
    if (m->fatal != NULL)
        m->fatal(m->fatal_ctx);
    MPI_Abort(MPI_COMM_WORLD, 1);
    abort(); /* MPI_Abort does not return */
}

static void mpi_check(pn_mpi *m, int rc, const char *call);

/* Completes n requests, spinning briefly, then sleeping between polls. */
static void mpi_wait(pn_mpi *m, int n, MPI_Request *reqs, const char *call)
{
    for (uint64_t k = 0;; k++) {
        int done = 0;
        mpi_check(m, MPI_Testall(n, reqs, &done, MPI_STATUSES_IGNORE), call);
        if (done)
            return;
        if (k >= MPI_SPIN_POLLS) {
            struct timespec ts = {.tv_sec = 0, .tv_nsec = MPI_POLL_SLEEP_NS};
            nanosleep(&ts, NULL);
        }
    }
}

/* Ends the run on a failed MPI call. */
static void mpi_check(pn_mpi *m, int rc, const char *call)
{
    if (rc == MPI_SUCCESS)
        return;
    char msg[MPI_MAX_ERROR_STRING + 96];
    char why[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, why, &len) != MPI_SUCCESS)
        snprintf(why, sizeof why, "error %d", rc);
    snprintf(msg, sizeof msg, "%s failed (%s): a rank failed or was killed", call, why);
    pn_mpi_fail(m, msg);
}

pn_status pn_mpi_init(int *argc, char ***argv, pn_dist_fatal_fn fatal, void *ctx, pn_mpi **out,
                      pn_error *err)
{
    *out = NULL;
    int provided = 0, rank = 0, size = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return pn_fail(err, PN_ERR_INTERNAL, "MPI_Init_thread failed");
    if (provided < MPI_THREAD_FUNNELED) {
        MPI_Finalize();
        return pn_fail(err, PN_ERR_UNSUPPORTED, "this MPI library lacks MPI_THREAD_FUNNELED");
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pn_mpi *m = calloc(1, sizeof *m);
    if (m != NULL) {
        m->rank = (uint32_t)rank;
        m->ranks = (uint32_t)size;
        m->fatal = fatal;
        m->fatal_ctx = ctx;
        m->scount = calloc((size_t)size, sizeof *m->scount);
        m->rcount = calloc((size_t)size, sizeof *m->rcount);
        m->reqs = calloc(2 * (size_t)size, sizeof *m->reqs);
    }
    if (m == NULL || m->scount == NULL || m->rcount == NULL || m->reqs == NULL) {
        if (m != NULL) {
            free(m->scount);
            free(m->rcount);
            free(m->reqs);
        }
        free(m);
        MPI_Abort(MPI_COMM_WORLD, 1);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory joining the MPI job");
    }
    *out = m;
    return PN_OK;
}

uint32_t pn_mpi_rank(const pn_mpi *m) { return m->rank; }
uint32_t pn_mpi_ranks(const pn_mpi *m) { return m->ranks; }
uint64_t pn_mpi_bytes_sent(const pn_mpi *m) { return m->sent; }

void pn_mpi_end(pn_mpi *m, bool abort_job)
{
    if (m == NULL)
        return;
    if (abort_job)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (m->state_words != 0)
        MPI_Type_free(&m->state);
    MPI_Finalize();
    free(m->scount);
    free(m->rcount);
    free(m->sbuf);
    free(m->rbuf);
    free(m->reqs);
    free(m);
}

static void mpi_state_type(pn_mpi *m, uint32_t words)
{
    if (m->state_words == words)
        return;
    if (m->state_words != 0)
        MPI_Type_free(&m->state);
    mpi_check(m, MPI_Type_contiguous((int)words, MPI_UINT64_T, &m->state), "MPI_Type_contiguous");
    mpi_check(m, MPI_Type_commit(&m->state), "MPI_Type_commit");
    m->state_words = words;
}

/* Room for `words` words in *buf (capacity *cap); false when out of memory. */
static bool mpi_reserve(uint64_t **buf, uint64_t *cap, uint64_t words)
{
    if (words <= *cap)
        return true;
    uint64_t *p = realloc(*buf, words * sizeof *p);
    if (p == NULL)
        return false;
    *buf = p;
    *cap = words;
    return true;
}

/* Packs the boxes by destination into sbuf; false when out of memory. */
static bool mpi_pack(pn_mpi *m, pn_outbox *const *boxes, uint32_t n_boxes, uint32_t words)
{
    uint64_t total = 0;
    for (uint32_t d = 0; d < m->ranks; d++)
        total += m->scount[d];
    if (!mpi_reserve(&m->sbuf, &m->scap, total * words))
        return false;
    uint64_t at = 0;
    for (uint32_t d = 0; d < m->ranks; d++)
        for (uint32_t b = 0; b < n_boxes; b++) {
            uint64_t n = boxes[b]->n[d] * words;
            if (n != 0)
                memcpy(m->sbuf + at, boxes[b]->states[d], n * sizeof *m->sbuf);
            at += n;
        }
    return true;
}

int pn_mpi_exchange(pn_mpi *m, pn_outbox *const *boxes, uint32_t n_boxes, uint32_t words,
                    const uint64_t **recv, uint64_t *n_recv)
{
    *recv = NULL;
    *n_recv = 0;
    if (m->ranks == 1)
        return 0;
    for (uint32_t d = 0; d < m->ranks; d++) {
        m->scount[d] = 0;
        for (uint32_t b = 0; b < n_boxes; b++)
            m->scount[d] += boxes[b]->n[d];
    }
    MPI_Request req;
    mpi_check(m, MPI_Ialltoall(m->scount, 1, MPI_UINT64_T, m->rcount, 1, MPI_UINT64_T,
                               MPI_COMM_WORLD, &req), "MPI_Ialltoall");
    mpi_wait(m, 1, &req, "MPI_Ialltoall");
    uint64_t total = 0;
    for (uint32_t s = 0; s < m->ranks; s++)
        total += m->rcount[s];
    /* Every rank learns whether all could hold their part before any
     * state moves: a message nobody receives would never complete. */
    uint64_t failed = !mpi_reserve(&m->rbuf, &m->rcap, total * words) ||
                      !mpi_pack(m, boxes, n_boxes, words);
    pn_mpi_max_u64(m, &failed, 1);
    if (failed)
        return PN_RUN_OUT_OF_MEMORY;
    mpi_state_type(m, words);
    int nreq = 0;
    uint64_t at = 0;
    for (uint32_t s = 0; s < m->ranks; s++) {
        if (m->rcount[s] != 0 && s != m->rank)
            mpi_check(m, MPI_Irecv(m->rbuf + at, (int)m->rcount[s], m->state, (int)s, 0,
                                   MPI_COMM_WORLD, &m->reqs[nreq++]), "MPI_Irecv");
        at += m->rcount[s] * words;
    }
    at = 0;
    for (uint32_t d = 0; d < m->ranks; d++) {
        if (m->scount[d] != 0 && d != m->rank)
            mpi_check(m, MPI_Isend(m->sbuf + at, (int)m->scount[d], m->state, (int)d, 0,
                                   MPI_COMM_WORLD, &m->reqs[nreq++]), "MPI_Isend");
        at += m->scount[d] * words;
        m->sent += m->scount[d] * words * sizeof(uint64_t);
    }
    mpi_wait(m, nreq, m->reqs, "MPI_Testall");
    *recv = m->rbuf;
    *n_recv = total;
    return 0;
}

static void mpi_allreduce(pn_mpi *m, void *v, uint32_t n, MPI_Datatype type, MPI_Op op)
{
    if (m->ranks == 1 || n == 0)
        return;
    MPI_Request req;
    mpi_check(m, MPI_Iallreduce(MPI_IN_PLACE, v, (int)n, type, op, MPI_COMM_WORLD, &req),
              "MPI_Iallreduce");
    mpi_wait(m, 1, &req, "MPI_Iallreduce");
}

void pn_mpi_max_u64(pn_mpi *m, uint64_t *v, uint32_t n)
{
    mpi_allreduce(m, v, n, MPI_UINT64_T, MPI_MAX);
}

void pn_mpi_max_u8(pn_mpi *m, uint8_t *v, uint32_t n)
{
    mpi_allreduce(m, v, n, MPI_UINT8_T, MPI_MAX);
}

void pn_mpi_sum_u64(pn_mpi *m, uint64_t *v, uint32_t n)
{
    mpi_allreduce(m, v, n, MPI_UINT64_T, MPI_SUM);
}

/* A pn_mpi_combine vector: the header says where the sections end. */
static void mpi_combine_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const uint64_t *a = in;
    uint64_t *b = inout;
    for (int e = 0; e < *len; e++) { /* one element is one whole vector */
        uint64_t n_max = a[0], n_sum = a[1], n = a[2];
        for (uint64_t i = 3; i < 3 + n_max; i++)
            b[i] = a[i] > b[i] ? a[i] : b[i];
        for (uint64_t i = 3 + n_max; i < 3 + n_max + n_sum; i++)
            b[i] += a[i];
        for (uint64_t i = 3 + n_max + n_sum; i < n; i++)
            b[i] |= a[i];
        a += n;
        b += n;
    }
}

void pn_mpi_combine(pn_mpi *m, uint64_t *v)
{
    if (m->ranks == 1)
        return;
    MPI_Datatype whole;
    MPI_Op op;
    mpi_check(m, MPI_Type_contiguous((int)v[2], MPI_UINT64_T, &whole), "MPI_Type_contiguous");
    mpi_check(m, MPI_Type_commit(&whole), "MPI_Type_commit");
    mpi_check(m, MPI_Op_create(mpi_combine_op, 1, &op), "MPI_Op_create");
    MPI_Request req;
    mpi_check(m, MPI_Iallreduce(MPI_IN_PLACE, v, 1, whole, op, MPI_COMM_WORLD, &req),
              "MPI_Iallreduce");
    mpi_wait(m, 1, &req, "MPI_Iallreduce");
    MPI_Op_free(&op);
    MPI_Type_free(&whole);
}

void pn_mpi_bcast_u64(pn_mpi *m, uint64_t *v, uint32_t n)
{
    if (m->ranks == 1)
        return;
    MPI_Request req;
    mpi_check(m, MPI_Ibcast(v, (int)n, MPI_UINT64_T, 0, MPI_COMM_WORLD, &req), "MPI_Ibcast");
    for (;;) {
        int done = 0;
        mpi_check(m, MPI_Test(&req, &done, MPI_STATUS_IGNORE), "MPI_Test");
        if (done)
            return;
        struct timespec ts = {.tv_sec = 0, .tv_nsec = 1000000};
        nanosleep(&ts, NULL);
    }
}
