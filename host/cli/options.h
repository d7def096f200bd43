/* Command-line and BenchKit-environment options of the petrel CLI. */
#ifndef PETREL_CLI_OPTIONS_H
#define PETREL_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/engine.h"
#include "petrel/mcc.h"

typedef enum { CLI_ENGINE_AUTO, CLI_ENGINE_CPU, CLI_ENGINE_GPU } cli_engine;

/* What the run does: one examination, or `petrel properties` (the MCC's
 * generic properties). `petrel batch` has its own options (batch.h). */
typedef enum { CLI_CMD_EXAMINE, CLI_CMD_PROPERTIES } cli_command;

typedef struct cli_options {
    cli_command command;
    const char *model;        /* folder or .pnml file, as given */
    pn_exam exam;
    const char *exam_name;
    bool exam_from_env;           /* exam_name is BK_EXAMINATION's */
    double timeout_s;         /* 0: none */
    uint64_t memory;          /* bytes; 0: the machine's */
    uint32_t threads;         /* 0: the cores we may use */
    cli_engine engine;
    bool quiet, progress, verbose, trace, no_por, no_smt, no_dd, dd_only;
    double progress_s; /* --progress=S: seconds between progress lines (0: not given) */
    pn_store_kind store;          /* --store (--full-store: full) */
    bool no_reduce;               /* --no-reduce */
    bool no_skeleton;             /* --no-skeleton */
    const char *write_reduced;    /* --write-reduced FILE; NULL: none */
    const char *verdict_xml;      /* --verdict-xml FILE; NULL: none */
    bool use_verdicts;            /* --use-verdicts */
    int stats_fd;                 /* --stats-fd N (for petrel batch); -1: none */
} cli_options;

/* argv[0] is the program, or the subcommand (`properties`) after it.
 * 0: run; 1: done (help or version printed); 2: usage error (printed). */
int cli_parse(int argc, char **argv, cli_command command, cli_options *o);

#endif
