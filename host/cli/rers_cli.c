/* petrel rers: RERS parallel problems (petrel/rers.h) from the command line.
 * Reads the system (.dot or PNML) and the properties, checks each over one
 * on-demand space, and prints "<number> true|false|unknown" per property on
 * stdout as it is decided, then a summary on stderr. */
#include "rers_cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/rers.h"
#include "petrel/sysinfo.h"
#include "petrel/turns.h"

typedef struct rers_opts {
    const char *system, *props;
    double timeout_s;
    uint64_t memory;
    pn_rers_logic logic;
    bool trace, quiet;
} rers_opts;

typedef struct rers_run {
    rers_opts o;
    pn_net *net;
    pn_cnet *cn;
    pn_rers_props *props;
    pn_budget budget;
    pn_lazy *z;
    uint32_t n_true, n_false, n_unknown;
    uint64_t states;
} rers_run;

static void rers_usage(FILE *f)
{
    fputs(
        "Usage: petrel rers [options] SYSTEM PROPERTIES\n"
        "Checks the properties of a RERS parallel problem (RERS 2019, Parallel LTL and\n"
        "Parallel CTL tracks).\n"
        "\n"
        "SYSTEM is a .dot file of labelled transition systems that synchronise on\n"
        "shared labels (one cluster per LTS; a label fires when every LTS having it\n"
        "takes it), or the same system as a PNML net whose transition names are the\n"
        "labels.\n"
        "PROPERTIES has one formula a line; blank lines and lines starting with '#' are\n"
        "skipped, except '#N' alone, which numbers the next formula, and '#N: f', the\n"
        "formula f numbered N; a formula may start with 'N:'; otherwise formulas are\n"
        "numbered on from 1. A formula that parses as CTL is CTL, else LTL:\n"
        "  LTL (Spot syntax, over infinite action traces: a deadlock ends a finite\n"
        "       trace, which satisfies every property): labels (a, \"a\"), true, false,\n"
        "       ! X F G [] <> U W R M & | xor -> <->\n"
        "  CTL (over all maximal paths, deadlocks included): true false & | => <=> !\n"
        "       [a] f, <a> f, [] f (AX), <> f (EX), A(f U g), E(f U g), A(f W g),\n"
        "       E(f W g), AG EG AF EF\n"
        "\n"
        "Output: '<number> true|false|unknown' per property on stdout, as each is\n"
        "decided ('unknown': out of time or memory, never a guess); a summary on stderr.\n"
        "\n"
        "Options:\n"
        "      --ltl, --ctl        read every formula as LTL (CTL)\n"
        "      --trace             print on stderr, for a false LTL property, the\n"
        "                          counterexample: labels of a prefix, then a cycle in\n"
        "                          brackets that repeats forever ('tau': an empty label);\n"
        "                          for a true EF g / E(f U g) or a false AG f, the path\n"
        "                          of labels that proves it\n"
        "      --timeout SECONDS   wall-clock budget for all properties (default: none)\n"
        "      --memory SIZE       memory budget, e.g. 512M, 3G (default: the memory\n"
        "                          available to this process)\n"
        "  -q, --quiet             no summary\n"
        "  -h, --help              this text\n"
        "\n"
        "Exit status: 0 when the properties were checked (some may be unknown), 2 for bad\n"
        "usage or a malformed system or property file, 1 for any other failure.\n",
        f);
}

static int rers_bad(const char *what, const char *arg)
{
    fprintf(stderr, "petrel rers: %s '%s'\nTry 'petrel rers --help'.\n", what, arg);
    return 2;
}

enum { RO_TIMEOUT = 256, RO_MEMORY, RO_TRACE, RO_LTL, RO_CTL };

/* 0: run; 1: help printed; 2: usage error. */
static int rers_parse_args(int argc, char **argv, rers_opts *o)
{
    static const struct option longs[] = {
        {"timeout", required_argument, NULL, RO_TIMEOUT},
        {"memory", required_argument, NULL, RO_MEMORY},
        {"trace", no_argument, NULL, RO_TRACE},
        {"ltl", no_argument, NULL, RO_LTL},
        {"ctl", no_argument, NULL, RO_CTL},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, "qh", longs, NULL)) != -1) {
        switch (c) {
        case RO_TIMEOUT:
            if (pn_parse_seconds(optarg, &o->timeout_s) != 0)
                return rers_bad("bad --timeout", optarg);
            break;
        case RO_MEMORY:
            if ((o->memory = pn_parse_size(optarg)) == 0)
                return rers_bad("bad --memory", optarg);
            break;
        case RO_TRACE: o->trace = true; break;
        case RO_LTL: o->logic = PN_RERS_LTL; break;
        case RO_CTL: o->logic = PN_RERS_CTL; break;
        case 'q': o->quiet = true; break;
        case 'h': rers_usage(stdout); return 1;
        default: return rers_bad("unknown option or missing argument", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return rers_bad("expected SYSTEM and PROPERTIES, got",
                        argc - optind < 2 ? "fewer" : "more");
    o->system = argv[optind];
    o->props = argv[optind + 1];
    return 0;
}

static int rers_exit_code(pn_status st) { return st == PN_ERR_INPUT || st == PN_ERR_IO ? 2 : 1; }

static int rers_load(rers_run *r)
{
    pn_error err = {0};
    if (pn_rers_read_system(r->o.system, &r->budget, NULL, &r->net, &err) != PN_OK ||
        pn_cnet_compile(r->net, &r->cn, &err) != PN_OK ||
        pn_rers_read_props(r->o.props, r->net, r->o.logic, &r->props, &err) != PN_OK) {
        fprintf(stderr, "petrel rers: %s\n", err.msg);
        return rers_exit_code(err.code);
    }
    return 0;
}

static void rers_print_lasso(const rers_run *r, const pn_rers_prop *p, const pn_ltl_lasso *l)
{
    if (l->cycle == 0)
        fprintf(stderr, "petrel rers: trace %u (path, %lu steps):", p->number,
                (unsigned long)l->prefix);
    else
        fprintf(stderr, "petrel rers: trace %u (lasso, %lu-step prefix, %lu-step cycle):",
                p->number, (unsigned long)l->prefix, (unsigned long)l->cycle);
    for (uint64_t k = 0; k < l->prefix + l->cycle; k++) {
        const char *label = l->trans[k] < r->net->n_transitions
                                ? pn_rers_label(r->net, l->trans[k]) : "?";
        fprintf(stderr, "%s %s", k == l->prefix ? " [" : "", label != NULL ? label : "tau");
    }
    fputs(l->cycle > 0 ? " ]\n" : "\n", stderr);
}

/* One property in its turn (share: an equal part of the time left); a
 * space that ran out of memory is dropped (the next property starts a
 * fresh one). */
static int rers_one(rers_run *r, uint32_t i, const pn_budget *share)
{
    const pn_rers_prop *p = &r->props->p[i];
    pn_error err = {0};
    pn_status st = PN_OK;
    if (r->z == NULL)
        st = pn_rers_space(r->cn, pn_budget_memory(&r->budget), &r->z, &err);
    bool value = false;
    pn_ltl_lasso lasso = {0};
    if (st == PN_OK)
        st = pn_rers_check(r->z, p, share, &value, r->o.trace ? &lasso : NULL, &err);
    if (st != PN_OK && st != PN_ERR_TIMEOUT && st != PN_ERR_OUT_OF_MEMORY &&
        st != PN_ERR_UNSUPPORTED && st != PN_ERR_CANCELLED) {
        fprintf(stderr, "petrel rers: property %u: %s\n", p->number, err.msg);
        return 1;
    }
    printf("%u %s\n", p->number, st != PN_OK ? "unknown" : value ? "true" : "false");
    fflush(stdout);
    if (st != PN_OK && !r->o.quiet)
        fprintf(stderr, "petrel rers: property %u: %s\n", p->number, err.msg);
    if (st == PN_OK && lasso.trans != NULL)
        rers_print_lasso(r, p, &lasso);
    pn_ltl_lasso_free(&lasso);
    *(st != PN_OK ? &r->n_unknown : value ? &r->n_true : &r->n_false) += 1;
    if (r->z != NULL && pn_lazy_states(r->z) > r->states)
        r->states = pn_lazy_states(r->z);
    if (st != PN_OK) {
        pn_lazy_free(r->z);
        r->z = NULL;
    }
    return 0;
}

static bool rers_open(void *ctx, uint32_t i)
{
    (void)ctx;
    (void)i;
    return true; /* each property has one turn, in order */
}

/* The properties in order, each in its turn (petrel/turns.h, one equal
 * share of the time left each: what one leaves goes to the next); those
 * the deadline leaves without a turn are still answered (unknown). */
static int rers_all(rers_run *r)
{
    pn_turns *t = NULL;
    pn_error err = {0};
    if (pn_turns_new(&r->budget, r->props->n, 1, PN_TURNS_ONCE, rers_open, NULL, &t, &err) !=
        PN_OK) {
        fprintf(stderr, "petrel rers: %s\n", err.msg);
        return 1;
    }
    int rc = 0;
    uint32_t i, done = 0;
    int pass;
    pn_budget share;
    while (rc == 0 && pn_turns_next(t, &i, &share, &pass)) {
        rc = rers_one(r, i, &share);
        pn_turns_end(t, i);
        done = i + 1;
    }
    pn_turns_free(t);
    for (i = done; rc == 0 && i < r->props->n; i++)
        rc = rers_one(r, i, &r->budget);
    return rc;
}

int cli_rers_main(int argc, char **argv)
{
    rers_run r;
    memset(&r, 0, sizeof r);
    int rc = rers_parse_args(argc, argv, &r.o);
    if (rc != 0)
        return rc == 1 ? 0 : rc;
    double t0 = pn_clock_now();
    /* The cap is the whole process's, as petrel's (main.c, cli_budget). */
    uint64_t mem = r.o.memory ? r.o.memory : pn_sys_memory_bytes();
    r.budget = pn_budget_make(r.o.timeout_s, NULL, mem);
    r.budget.process = mem;
    pn_sys_unmap_large_blocks();
    rc = rers_load(&r);
    if (rc == 0)
        rc = rers_all(&r);
    if (rc == 0 && !r.o.quiet)
        fprintf(stderr, "petrel rers: %u properties: %u true, %u false, %u unknown; "
                        "%lu states explored, %u transitions, %.3f s, peak RSS %.1f MB\n",
                r.props->n, r.n_true, r.n_false, r.n_unknown, (unsigned long)r.states,
                r.net->n_transitions, pn_clock_now() - t0, (double)pn_sys_peak_rss() / 1e6);
    pn_lazy_free(r.z);
    pn_rers_props_free(r.props);
    pn_cnet_free(r.cn);
    pn_net_free(r.net);
    return rc;
}
