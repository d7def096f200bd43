/* The message layer of the distributed exploration (dist.c): the few
 * MPI operations it needs, so that MPI itself appears in one file
 * (mpi_transport.c; builds without MPI get mpi_transport_stub.c, which is
 * never launched). Every call is collective over MPI_COMM_WORLD. A failed
 * MPI call (a rank died, a message could not go) does not return: it prints
 * what failed and hands the process to the fatal function (dist.h). */
#ifndef PETREL_MPI_TRANSPORT_H
#define PETREL_MPI_TRANSPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/dist.h"
#include "petrel/error.h"
#include "pn_part.h"

typedef struct pn_mpi pn_mpi;

bool pn_mpi_built(void);
bool pn_mpi_launched(void);
pn_status pn_mpi_init(int *argc, char ***argv, pn_dist_fatal_fn fatal, void *ctx, pn_mpi **out,
                      pn_error *err);
uint32_t pn_mpi_rank(const pn_mpi *m);
uint32_t pn_mpi_ranks(const pn_mpi *m);
/* MPI_Finalize, or with abort the end of the whole job; frees m. */
void pn_mpi_end(pn_mpi *m, bool abort);
/* Prints "petrel: rank R: what" and ends the run through the fatal
 * function. */
void pn_mpi_fail(pn_mpi *m, const char *what);

/* Sends every box's states to their ranks (non-blocking sends and
 * receives, one message per pair of ranks); *recv gets the n_recv states
 * of `words` words sent here, valid until the next call. Returns 0, or
 * PN_RUN_OUT_OF_MEMORY on every rank when some rank could not hold what it
 * is sent (nothing is then delivered). */
int pn_mpi_exchange(pn_mpi *m, pn_outbox *const *boxes, uint32_t n_boxes, uint32_t words,
                    const uint64_t **recv, uint64_t *n_recv);
/* In place, element-wise over all ranks. */
void pn_mpi_max_u64(pn_mpi *m, uint64_t *v, uint32_t n);
void pn_mpi_max_u8(pn_mpi *m, uint8_t *v, uint32_t n);
void pn_mpi_sum_u64(pn_mpi *m, uint64_t *v, uint32_t n);
/* One reduction of three kinds at once: v[0] entries from v[3] on merge by
 * maximum, the v[1] after them by sum, the rest (up to v[2] words in all,
 * the header included) by bitwise or; in place, on every rank. */
void pn_mpi_combine(pn_mpi *m, uint64_t *v);
/* v from rank 0 to all; the others wait sleeping between polls, so that a
 * rank waiting for the driver leaves the cores to it. */
void pn_mpi_bcast_u64(pn_mpi *m, uint64_t *v, uint32_t n);
/* Bytes of states this rank sent so far. */
uint64_t pn_mpi_bytes_sent(const pn_mpi *m);

#endif
