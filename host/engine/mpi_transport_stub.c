/* The message layer in builds without MPI (PETREL_MPI=OFF, or no MPI
 * found): never launched, and joining a job is refused. Builds with MPI get
 * mpi_transport.c instead. */
#include "engine/mpi_transport.h"

#include <stdlib.h>

struct pn_mpi {
    uint32_t unused;
};

bool pn_mpi_built(void) { return false; }
bool pn_mpi_launched(void) { return false; }

pn_status pn_mpi_init(int *argc, char ***argv, pn_dist_fatal_fn fatal, void *ctx, pn_mpi **out,
                      pn_error *err)
{
    (void)argc;
    (void)argv;
    (void)fatal;
    (void)ctx;
    *out = NULL;
    return pn_fail(err, PN_ERR_UNSUPPORTED,
                   "this build has no MPI (install libopenmpi-dev and rebuild with "
                   "-DPETREL_MPI=ON)");
}

/* Unreachable without a pn_mpi, which this build never makes. */
uint32_t pn_mpi_rank(const pn_mpi *m) { return m != NULL ? 0 : 0; }
uint32_t pn_mpi_ranks(const pn_mpi *m) { return m != NULL ? 1 : 1; }
uint64_t pn_mpi_bytes_sent(const pn_mpi *m) { return m != NULL ? 0 : 0; }
void pn_mpi_end(pn_mpi *m, bool abort_job)
{
    (void)abort_job;
    free(m);
}
void pn_mpi_fail(pn_mpi *m, const char *what)
{
    (void)m;
    (void)what;
    abort();
}

int pn_mpi_exchange(pn_mpi *m, pn_outbox *const *boxes, uint32_t n_boxes, uint32_t words,
                    const uint64_t **recv, uint64_t *n_recv)
{
    (void)m;
    (void)boxes;
    (void)n_boxes;
    (void)words;
    *recv = NULL;
    *n_recv = 0;
    return 0;
}

void pn_mpi_max_u64(pn_mpi *m, uint64_t *v, uint32_t n) { (void)m, (void)v, (void)n; }
void pn_mpi_max_u8(pn_mpi *m, uint8_t *v, uint32_t n) { (void)m, (void)v, (void)n; }
void pn_mpi_sum_u64(pn_mpi *m, uint64_t *v, uint32_t n) { (void)m, (void)v, (void)n; }
void pn_mpi_combine(pn_mpi *m, uint64_t *v) { (void)m, (void)v; }
void pn_mpi_bcast_u64(pn_mpi *m, uint64_t *v, uint32_t n) { (void)m, (void)v, (void)n; }
