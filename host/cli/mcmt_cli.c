/* petrel mcmt: bounded instances of an MCMT array-based system
 * (petrel/mcmt.h) from the command line. Reads the system, then checks
 * each instance of the range of processes asked for in turn, and prints a
 * line per instance on stdout the moment it is decided, an unsafe
 * instance's trace after its line; notes and a summary on stderr. */
#include "mcmt_cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "petrel/budget.h"
#include "petrel/mcmt.h"
#include "petrel/pnml.h"
#include "petrel/sysinfo.h"
#include "ticker.h"

typedef struct mcmt_opts {
    const char *file;
    uint32_t procs_lo, procs_hi;
    /* --int-range: each end an integer, plus N times n_lo / n_hi (0 or 1) */
    int64_t int_lo, int_hi;
    int n_lo, n_hi;
    int64_t idx_from;
    double timeout_s;
    uint64_t memory;
    bool quiet, no_trace;
    const char *write_pnml;
} mcmt_opts;

static void mcmt_usage(FILE *f)
{
    fputs(
        "Usage: petrel mcmt [options] FILE\n"
        "Checks bounded instances of an MCMT array-based system (MCMT 2.8's input\n"
        "language, docs/mcmt.md): N processes, every local array a vector of N values,\n"
        "integers bounded; an explicit breadth-first search of each instance from all\n"
        "its initial states for a state of the :unsafe formula.\n"
        "\n"
        "Output, a line per instance on stdout as it is decided:\n"
        "  procs=N answer=SAFE|UNSAFE|UNKNOWN states=S transitions=T seconds=X [depth=D]\n"
        "SAFE: the instance's whole state space was explored and no state is unsafe\n"
        "(for this N and these bounds only: never a claim for every N). UNSAFE: then\n"
        "a shortest trace, a line a step: the transition, the processes x and y it\n"
        "binds, the values it changes. UNKNOWN: out of time or memory, or the search\n"
        "met what keeps it from proving safety (a value past --int-range, a read at\n"
        "an index the instance lacks), said on stderr.\n"
        "\n"
        "Options:\n"
        "      --procs N|A..B      the instances: N processes, or each of A..B (default 2..4)\n"
        "      --int-range LO..HI  the values of nat and int arrays and constants; an end\n"
        "                          may be N, N+K or N-K for N processes (default 0..N+1)\n"
        "      --index-from K      processes are numbered K .. K+N-1 (default 1)\n"
        "      --timeout SECONDS   wall-clock budget for all instances (default: none)\n"
        "      --memory SIZE       memory budget, e.g. 512M, 3G (default: the memory\n"
        "                          available to this process)\n"
        "      --no-trace          no trace after UNSAFE\n"
        "      --write-pnml PATH   write the instance (one N) as a 1-safe P/T net with the\n"
        "                          same states (one more where it has several initial\n"
        "                          states), for petrel's engines, and check nothing\n"
        "  -q, --quiet             no notes and no summary\n"
        "  -h, --help              this text\n"
        "\n"
        "Exit status: 0 when every instance was checked (some may be UNKNOWN), 2 for bad\n"
        "usage or a malformed or unsupported file, 1 for any other failure.\n",
        f);
}

static int mcmt_bad(const char *what, const char *arg)
{
    fprintf(stderr, "petrel mcmt: %s '%s'\nTry 'petrel mcmt --help'.\n", what, arg);
    return 2;
}

/* "A..B" or "A" (b = a); 0 when it parses. */
static int mcmt_range(const char *s, int64_t *a, int64_t *b)
{
    char *end;
    long long x = strtoll(s, &end, 10);
    if (end == s)
        return -1;
    long long y = x;
    if (strncmp(end, "..", 2) == 0) {
        const char *t = end + 2;
        y = strtoll(t, &end, 10);
        if (end == t)
            return -1;
    }
    if (*end != '\0' || x > y || x < -(1LL << 40) || y > (1LL << 40))
        return -1;
    *a = x;
    *b = y;
    return 0;
}

/* One end of --int-range: K, N, N+K or N-K; the end of it in *end. */
static int mcmt_end(const char *s, const char **end, int64_t *k, int *n)
{
    char *e;
    *n = 0;
    *k = 0;
    if (*s == 'N') {
        *n = 1;
        s++;
        if (*s != '+' && *s != '-') {
            *end = s;
            return 0;
        }
    }
    long long v = strtoll(s, &e, 10);
    if (e == s || v < -(1LL << 40) || v > (1LL << 40))
        return -1;
    *k = v;
    *end = e;
    return 0;
}

static int mcmt_int_range(const char *s, mcmt_opts *o)
{
    const char *e;
    if (mcmt_end(s, &e, &o->int_lo, &o->n_lo) != 0 || strncmp(e, "..", 2) != 0 ||
        mcmt_end(e + 2, &e, &o->int_hi, &o->n_hi) != 0 || *e != '\0')
        return -1;
    return 0;
}

enum { MO_PROCS = 256, MO_INT, MO_INDEX, MO_TIMEOUT, MO_MEMORY, MO_NO_TRACE, MO_WRITE };

/* 0: run; 1: help printed; 2: usage error. */
static int mcmt_parse_args(int argc, char **argv, mcmt_opts *o)
{
    static const struct option longs[] = {
        {"procs", required_argument, NULL, MO_PROCS},
        {"int-range", required_argument, NULL, MO_INT},
        {"index-from", required_argument, NULL, MO_INDEX},
        {"timeout", required_argument, NULL, MO_TIMEOUT},
        {"memory", required_argument, NULL, MO_MEMORY},
        {"no-trace", no_argument, NULL, MO_NO_TRACE},
        {"write-pnml", required_argument, NULL, MO_WRITE},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->procs_lo = 2;
    o->procs_hi = 4;
    o->idx_from = 1;
    o->int_hi = 1; /* 0..N+1 */
    o->n_hi = 1;
    opterr = 0;
    optind = 1;
    int c;
    int64_t a, b;
    while ((c = getopt_long(argc, argv, "qh", longs, NULL)) != -1) {
        switch (c) {
        case MO_PROCS:
            if (mcmt_range(optarg, &a, &b) != 0 || a < 1 || b > 4096)
                return mcmt_bad("bad --procs (N or A..B, 1 to 4096)", optarg);
            o->procs_lo = (uint32_t)a;
            o->procs_hi = (uint32_t)b;
            break;
        case MO_INT:
            if (mcmt_int_range(optarg, o) != 0)
                return mcmt_bad("bad --int-range (LO..HI, each end K, N, N+K or N-K)", optarg);
            break;
        case MO_INDEX:
            if (mcmt_range(optarg, &a, &b) != 0 || a != b)
                return mcmt_bad("bad --index-from", optarg);
            o->idx_from = a;
            break;
        case MO_TIMEOUT:
            if (pn_parse_seconds(optarg, &o->timeout_s) != 0)
                return mcmt_bad("bad --timeout", optarg);
            break;
        case MO_MEMORY:
            if ((o->memory = pn_parse_size(optarg)) == 0)
                return mcmt_bad("bad --memory", optarg);
            break;
        case MO_NO_TRACE: o->no_trace = true; break;
        case MO_WRITE: o->write_pnml = optarg; break;
        case 'q': o->quiet = true; break;
        case 'h': mcmt_usage(stdout); return 1;
        default: return mcmt_bad("unknown option or missing argument", argv[optind - 1]);
        }
    }
    if (argc - optind != 1)
        return mcmt_bad("expected one FILE, got", argc - optind < 1 ? "none" : "more");
    o->file = argv[optind];
    if (o->write_pnml != NULL && o->procs_lo != o->procs_hi)
        return mcmt_bad("--write-pnml takes one N, not", "--procs A..B");
    return 0;
}

static pn_mcmt_bound mcmt_bound(const mcmt_opts *o, uint32_t n)
{
    return (pn_mcmt_bound){n, o->idx_from, o->int_lo + o->n_lo * (int64_t)n,
                           o->int_hi + o->n_hi * (int64_t)n};
}

/* --write-pnml: the instance's net; the exit status. */
static int mcmt_write(const mcmt_opts *o, const pn_mcmt_sys *sys)
{
    pn_space *sp = NULL;
    pn_net *net = NULL;
    pn_error err = {0};
    pn_status st = pn_mcmt_space_new(sys, mcmt_bound(o, o->procs_lo), &sp, &err);
    if (st == PN_OK)
        st = pn_mcmt_space_net(sp, &net, &err);
    if (st == PN_OK)
        st = pn_pnml_write_file(o->write_pnml, net, &err);
    if (st == PN_OK && !o->quiet)
        fprintf(stderr, "petrel mcmt: wrote %s: %u places, %u transitions\n", o->write_pnml,
                net->n_places, net->n_transitions);
    if (st != PN_OK)
        fprintf(stderr, "petrel mcmt: %s (procs=%u): %s\n", o->file, o->procs_lo, err.msg);
    pn_net_free(net);
    pn_space_free(sp);
    return st == PN_OK ? 0 : st == PN_ERR_INPUT || st == PN_ERR_UNSUPPORTED ? 2 : 1;
}

static const char *mcmt_answer_name(pn_mcmt_answer a)
{
    return a == PN_MCMT_SAFE ? "SAFE" : a == PN_MCMT_UNSAFE ? "UNSAFE" : "UNKNOWN";
}

/* One instance; 0, or the exit status of a failure. */
static int mcmt_one(const mcmt_opts *o, const pn_mcmt_sys *sys, uint32_t n, pn_budget *budget)
{
    pn_mcmt_bound b = mcmt_bound(o, n);
    pn_mcmt_result res;
    pn_error err = {0};
    double t0 = pn_clock_now();
    pn_status st = pn_mcmt_check(sys, b, budget, &res, &err);
    if (st != PN_OK) {
        fprintf(stderr, "petrel mcmt: %s (procs=%u): %s\n", o->file, n, err.msg);
        return st == PN_ERR_INPUT || st == PN_ERR_UNSUPPORTED ? 2 : 1;
    }
    printf("procs=%u answer=%s states=%" PRIu64 " transitions=%" PRIu64 " seconds=%.3f", n,
           mcmt_answer_name(res.answer), res.states, res.transitions, pn_clock_now() - t0);
    if (res.answer == PN_MCMT_UNSAFE)
        printf(" depth=%u", res.trace_len);
    putchar('\n');
    if (res.answer == PN_MCMT_UNSAFE && !o->no_trace)
        pn_mcmt_print_trace(stdout, sys, b, &res);
    fflush(stdout);
    if (res.answer == PN_MCMT_UNKNOWN)
        fprintf(stderr, "petrel mcmt: procs=%u unknown: %s\n", n, res.why);
    pn_mcmt_result_clear(&res);
    return 0;
}

int cli_mcmt_main(int argc, char **argv)
{
    mcmt_opts o;
    int rc = mcmt_parse_args(argc, argv, &o);
    if (rc != 0)
        return rc == 1 ? 0 : rc;
    double t0 = pn_clock_now();
    uint64_t mem = o.memory ? o.memory : pn_sys_memory_bytes();
    pn_budget budget = pn_budget_make(o.timeout_s, NULL, mem);
    budget.process = mem;
    pn_mcmt_sys *sys = NULL;
    pn_error err = {0};
    if (pn_mcmt_read_file(o.file, &sys, &err) != PN_OK) {
        fprintf(stderr, "petrel mcmt: %s\n", err.msg);
        return err.code == PN_ERR_INPUT || err.code == PN_ERR_UNSUPPORTED ||
                       err.code == PN_ERR_IO
                   ? 2
                   : 1;
    }
    for (uint32_t k = 0; k < sys->n_notes && !o.quiet; k++)
        fprintf(stderr, "petrel mcmt: %s\n", sys->notes[k]);
    if (o.write_pnml != NULL) {
        rc = mcmt_write(&o, sys);
        pn_mcmt_free(sys);
        return rc;
    }
    /* A progress line on stderr when an instance runs 5 s without one. */
    cli_ticker *ticker = o.quiet ? NULL : cli_ticker_start(t0, 5.0);
    budget.phase = cli_ticker_phase(ticker);
    for (uint32_t n = o.procs_lo; rc == 0 && n <= o.procs_hi; n++)
        rc = mcmt_one(&o, sys, n, &budget);
    cli_ticker_stop(ticker);
    if (rc == 0 && !o.quiet)
        fprintf(stderr, "petrel mcmt: %u instances, %.3f s, peak RSS %.1f MB\n",
                o.procs_hi - o.procs_lo + 1, pn_clock_now() - t0,
                (double)pn_sys_peak_rss() / 1e6);
    pn_mcmt_free(sys);
    return rc;
}
