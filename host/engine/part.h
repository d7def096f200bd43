/* The seam between the level-synchronous engine (engine_cpu.c) and a
 * distributed exploration (dist.c): the engine runs as one rank's
 * part, storing and expanding only the states whose hash the rank owns
 * (kernels/pn_part.h), and between two rounds of work it calls the two
 * collectives below, in this order, on every rank: `exchange` hands every
 * thread's outbox to its owners and returns what the others sent here (the
 * engine inserts it as states of the next level), then `agree` combines
 * what each rank knows, so that every rank takes the same decision (go on,
 * next level, done, widen and restart, stop). The engine itself knows
 * nothing of MPI. */
#ifndef PETREL_ENGINE_PART_H
#define PETREL_ENGINE_PART_H

#include <stdint.h>

#include "pn_part.h"

/* In: this rank's view after a round; out: all ranks'. */
typedef struct pn_part_agree {
    uint64_t stop;       /* a pn_run_status or 0; out: the largest */
    uint64_t busy;       /* 1: this rank has states of the level left; out: any has */
    uint64_t widen_any;  /* a successor overflowed; out: on any rank */
    uint8_t *widen;      /* per place: its field overflowed; out: on any rank */
    uint64_t next;       /* states stored for the next level; out: the sum */
    uint64_t states;     /* states stored; out: the sum (progress reports) */
    uint64_t edges;      /* edges counted; out: the sum (progress reports) */
} pn_part_agree;

typedef struct pn_part {
    uint32_t rank, ranks;
    void *ctx;
    /* Sends the states of boxes[0..n_boxes) (one outbox per thread) to
     * their ranks and sets *recv to the n_recv states (words each) sent
     * here, valid until the next call. Returns 0 or a pn_run_status (the
     * receive buffer did not fit: the run stops). */
    int (*exchange)(void *ctx, pn_outbox *const *boxes, uint32_t n_boxes, uint32_t words,
                    const uint64_t **recv, uint64_t *n_recv);
    /* The combination above over all ranks (n_places entries of widen);
     * the visitor's findings are merged there too. */
    void (*agree)(void *ctx, pn_part_agree *a, uint32_t n_places);
} pn_part;

#endif
