/* The answers on stdout as they are decided, each exactly once. A line is
 * printed and flushed under one lock the moment its answer is final
 * (pn_check_on_decide); a watchdog thread ends the run at the deadline (plus
 * a short grace) or on SIGINT / SIGTERM with the still-open answers as
 * CANNOT_COMPUTE, so that the time limit holds even where a step does not
 * poll the budget, and a killed run has already printed what it proved. */
#ifndef PETREL_CLI_STREAM_H
#define PETREL_CLI_STREAM_H

#include <stdint.h>
#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/engine.h"
#include "petrel/pnml.h"

typedef struct cli_stream cli_stream;

/* Blocks SIGINT and SIGTERM in the calling thread (and so in every thread
 * it starts later): call it before any other thread exists. */
void cli_stream_block_signals(void);

/* budget: the run's (kept, not copied: it must outlive the stream), whose
 * deadline the watchdog keeps; NULL, or one without a deadline: the
 * signals alone end the run. Until cli_stream_set_ids the one open answer
 * is a bare CANNOT_COMPUTE (nothing read yet, or StateSpace). NULL when
 * out of memory. The watchdog thread starts here; without it the signals
 * are unblocked again (they then end the run). */
cli_stream *cli_stream_new(FILE *out, const pn_budget *budget);
/* Ends the watchdog and frees s; call cli_stream_close first. */
void cli_stream_free(cli_stream *s);

/* The examination's answer names (copied), replacing any given before
 * (while nothing is printed). threads: what TECHNIQUES says of answers
 * streamed before the exploration's statistics exist. Returns false when
 * out of memory. */
bool cli_stream_set_ids(cli_stream *s, const char *const *ids, uint32_t n, const pn_net *net,
                        uint32_t threads);

/* The answers that follow come from checks over some of the named answers,
 * on net (TECHNIQUES speaks of it; NULL: of no unfolding): check answer i
 * is named answer slot[i] (kept, not copied; NULL: i itself). For a
 * coloured net's skeleton answered first and its unfolding after it. */
void cli_stream_rebind(cli_stream *s, const pn_net *net, uint32_t threads, const uint32_t *slot);

/* The listener to pass as pn_examine_opts.on_decide (ctx: the stream). */
void cli_stream_on_decide(void *ctx, const pn_check *c, uint32_t i);
/* Answer i with the exploration's statistics, unless already printed. */
void cli_stream_answer(cli_stream *s, const pn_check *c, uint32_t i, const pn_engine_result *res);
/* The StateSpace lines (the one answer), unless already printed. */
void cli_stream_state_space(cli_stream *s, const pn_engine_result *res, const pn_net *net);
/* Prints every answer still open as CANNOT_COMPUTE; nothing after. */
void cli_stream_close(cli_stream *s);
/* The same, then ends the process at once (exit status 0, as at the
 * deadline): for failures no caller can return from (an MPI rank died). */
void cli_stream_fail(cli_stream *s);

#endif
