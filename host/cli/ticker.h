/* The CLI's progress lines for every phase: a thread that, whenever a
 * phase has run `interval` seconds without a line on stderr, prints which
 * one it is ("petrel: 12.0 s: step linear: formula X-03 (for 4.1 s)").
 * The phases say where they are through the budget's pn_phase (phase.h);
 * the exploration prints its own level lines and says so (cli_ticker_said),
 * so that the two never repeat each other. */
#ifndef PETREL_CLI_TICKER_H
#define PETREL_CLI_TICKER_H

#include "petrel/phase.h"

typedef struct cli_ticker cli_ticker;

/* Starts the thread: t0 is the run's start (pn_clock_now), interval_s > 0.
 * NULL when out of memory or no thread could start (the run goes without). */
cli_ticker *cli_ticker_start(double t0, double interval_s);
/* The phase slot to put in the run's budget. t may be NULL. */
pn_phase *cli_ticker_phase(cli_ticker *t);
/* A progress line was just printed by someone else. t may be NULL. */
void cli_ticker_said(cli_ticker *t);
/* Stops and joins the thread and frees t (NULL is fine). */
void cli_ticker_stop(cli_ticker *t);

#endif
