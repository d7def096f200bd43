#include "options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "petrel_build_info.h"
#include "petrel/sysinfo.h"

static void cli_usage(FILE *f)
{
    fputs(
        "Usage: petrel [options] MODEL\n"
        "       petrel rers [options] SYSTEM.dot|SYSTEM.pnml PROPERTIES\n"
        "       petrel mcmt [options] FILE (bounded MCMT systems, see petrel mcmt --help)\n"
        "       petrel properties [options] MODEL\n"
        "       petrel batch [options] --out FILE MODEL... (see petrel batch --help)\n"
        "Explicit-state model checker for Petri nets (MCC examinations), and for the\n"
        "RERS parallel problems: systems of synchronising LTSs as .dot or PNML, with\n"
        "action-based LTL and CTL properties ('petrel rers --help').\n"
        "\n"
        "MODEL is an MCC instance folder (model.pnml and the formula files), a .pnml\n"
        "file, or a .dot system of synchronising LTSs (read as its net, see\n"
        "'petrel rers --help'; StateSpace counts its states). Results go to stdout in\n"
        "the MCC format; statistics and progress to stderr. Each answer is printed the\n"
        "moment it is decided.\n"
        "\n"
        "petrel properties computes the MCC's generic properties (ORDINARY ... LIVE,\n"
        "DEAD_TRANSITIONS) and prints each beside the verdict of the model's\n"
        "GenericPropertiesVerdict.xml: agree, disagree or not decided; the\n"
        "behavioural ones share the --timeout and stay unknown when it runs out.\n"
        "\n"
        "Options:\n"
        "  -e, --examination NAME  examination (default: $BK_EXAMINATION, else StateSpace):\n"
        "                          StateSpace, UpperBounds, ReachabilityCardinality,\n"
        "                          ReachabilityFireability, ReachabilityDeadlock, OneSafe,\n"
        "                          QuasiLiveness, StableMarking, Liveness, CTLCardinality,\n"
        "                          CTLFireability, LTLCardinality, LTLFireability\n"
        "      --timeout SECONDS   wall-clock budget, 0 or inf for no limit (default:\n"
        "                          $BK_TIME_CONFINEMENT, else none); at the limit, or on\n"
        "                          SIGTERM or SIGINT, the open answers print as CANNOT_COMPUTE\n"
        "      --memory SIZE       memory budget of the whole process, e.g. 512M, 16G (default:\n"
        "                          $BK_MEMORY_CONFINEMENT in MB, else the memory available to\n"
        "                          this process)\n"
        "      --threads N         worker threads (default: the cores this process may use)\n"
        "      --engine KIND       auto, cpu or gpu (default: auto)\n"
        "      --store KIND        the set the states are kept in, for benchmarks: compact\n"
        "                          (one-word markings in the slots, else full), tree (tree\n"
        "                          compression of wider markings) or full (whole markings\n"
        "                          by id); default: chosen by the marking's width\n"
        "      --full-store        the same as --store full\n"
        "      --no-por            no partial-order reduction (stubborn sets): explore\n"
        "                          every interleaving (for comparisons)\n"
        "      --no-smt            the linear layer without its SMT check (the state\n"
        "                          equation with the whole formula, in Z3): LPs alone\n"
        "      --no-dd             StateSpace by the explicit engines alone, without the\n"
        "                          decision diagrams first (for comparisons)\n"
        "      --dd-only           StateSpace by the decision diagrams alone, with the\n"
        "                          whole time (for comparisons)\n"
        "      --trace             print on stderr, for each answer proved by a reachable\n"
        "                          marking (EF true, AG false, a deadlock, ...), the\n"
        "                          transitions that lead to it from the initial marking;\n"
        "                          LTL FALSE: the counterexample lasso; CTL: the path\n"
        "                          (or lasso) that witnesses E F / E U / E G or refutes\n"
        "                          A G / A F / A U at the top of the formula\n"
        "      --no-reduce         explore the net as given (no structural reductions;\n"
        "                          --trace also skips them: traces are not mapped back)\n"
        "      --no-skeleton       a coloured net's RC / RF / UB / LTL formulas and OS /\n"
        "                          SM / QL / L on its unfolding only, not on its colour-\n"
        "                          blind skeleton and by walks on the coloured net first\n"
        "      --write-reduced FILE  write the net the examination explores, after the\n"
        "                          structural reductions, as PNML; and beside FILE, per\n"
        "                          formula, a folder named by its id with the net reduced\n"
        "                          for that formula alone and the formula on it (an MCC\n"
        "                          instance folder Petrel reads back)\n"
        "      --verdict-xml FILE  also write the answers (or properties) as an MCC\n"
        "                          properties-verdict document, with techniques and,\n"
        "                          with --trace, the traces\n"
        "      --use-verdicts      check the SAFE and CONSERVATIVE verdicts of the\n"
        "                          model's GenericPropertiesVerdict.xml against what\n"
        "                          Petrel proves and say so on stderr (hints only:\n"
        "                          never used as answers)\n"
        "      --stats-fd N        at the end, write one line of run statistics\n"
        "                          (states, edges, the budget that ran out) to\n"
        "                          descriptor N (petrel batch reads it)\n"
        "  -q, --quiet             no statistics or progress on stderr\n"
        "      --progress[=S]      a progress line every S seconds (1 without S;\n"
        "                          default: every 5 s), naming the phase (reading,\n"
        "                          unfolding, reductions, each step and its formula)\n"
        "  -v, --verbose           more detail on stderr\n"
        "  -h, --help              this text\n"
        "  -V, --version           the version\n"
        "\n"
        "Under mpirun (a build with MPI): `mpirun -np N petrel MODEL -e EXAM` splits\n"
        "the state space by hash over N ranks, each with its own --threads and\n"
        "--memory; rank 0 prints the answers. StateSpace, UpperBounds,\n"
        "Reachability*, ReachabilityDeadlock, OneSafe, QuasiLiveness and\n"
        "StableMarking explore on every rank; CTL*, LTL*, Liveness and --trace run\n"
        "on rank 0 alone. A rank that dies ends the run with CANNOT_COMPUTE.\n"
        "\n"
        "Exit status: 0 when the examination ran (answers not proven are printed as\n"
        "CANNOT_COMPUTE), 2 for bad usage or a malformed model/formula file, 1 for\n"
        "any other failure.\n",
        f);
}

/* `petrel properties --help`: its own options only. */
static void cli_usage_properties(FILE *f)
{
    fputs(
        "Usage: petrel properties [options] MODEL\n"
        "Computes the MCC's generic properties of MODEL (an MCC instance folder or a\n"
        ".pnml file): ORDINARY, SIMPLE_FREE_CHOICE, ..., SAFE, DEADLOCK, REVERSIBLE,\n"
        "QUASI_LIVE, LIVE, DEAD_PLACES, DEAD_TRANSITIONS; prints each beside the\n"
        "verdict of the model's GenericPropertiesVerdict.xml: agree, disagree or not\n"
        "decided. The behavioural ones share the --timeout and stay unknown when it\n"
        "runs out.\n"
        "\n"
        "Options:\n"
        "      --timeout SECONDS   wall-clock budget, 0 or inf for no limit (default:\n"
        "                          $BK_TIME_CONFINEMENT, else none)\n"
        "      --memory SIZE       memory budget of the whole process, e.g. 512M, 16G\n"
        "      --threads N         worker threads (default: the cores this process may use)\n"
        "      --verdict-xml FILE  also write the properties as an MCC properties-verdict\n"
        "                          document\n"
        "      --use-verdicts      check the SAFE and CONSERVATIVE verdicts against what\n"
        "                          Petrel proves and say so on stderr\n"
        "  -q, --quiet             less on stderr\n"
        "  -v, --verbose           more detail on stderr\n"
        "  -h, --help              this text\n"
        "  -V, --version           the version\n"
        "\n"
        "Exit status: 0 when it ran, 2 for bad usage or a malformed model, 1 otherwise.\n",
        f);
}

static int cli_bad(const char *fmt, const char *arg)
{
    fputs("petrel: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'petrel --help'.\n", stderr);
    return 2;
}

static int cli_env_defaults(cli_options *o)
{
    const char *v = getenv("BK_EXAMINATION");
    if (v != NULL && *v) {
        o->exam_name = v;
        o->exam_from_env = true;
    }
    v = getenv("BK_TIME_CONFINEMENT");
    if (v != NULL && *v && pn_parse_seconds(v, &o->timeout_s) != 0)
        return cli_bad("BK_TIME_CONFINEMENT is not a number of seconds: '%s'", v);
    v = getenv("BK_MEMORY_CONFINEMENT");
    if (v != NULL && *v && (o->memory = pn_parse_size(v)) == 0)
        return cli_bad("BK_MEMORY_CONFINEMENT is not a size in MB: '%s'", v);
    return 0;
}

enum { OPT_TIMEOUT = 256, OPT_MEMORY, OPT_THREADS, OPT_ENGINE, OPT_PROGRESS, OPT_TRACE, OPT_FULL_STORE, OPT_STORE,
       OPT_NO_REDUCE, OPT_NO_SKELETON, OPT_WRITE_REDUCED, OPT_NO_POR, OPT_NO_SMT, OPT_NO_DD, OPT_DD_ONLY, OPT_VERDICT_XML, OPT_USE_VERDICTS,
       OPT_STATS_FD };

static int cli_option(int c, const char *arg, cli_options *o)
{
    switch (c) {
    case 'e': o->exam_name = arg; o->exam_from_env = false; return 0;
    case OPT_TIMEOUT:
        return pn_parse_seconds(arg, &o->timeout_s) ? cli_bad("bad --timeout '%s'", arg) : 0;
    case OPT_MEMORY:
        return (o->memory = pn_parse_size(arg)) == 0 ? cli_bad("bad --memory '%s' (" PN_SIZE_HELP ")", arg) : 0;
    case OPT_THREADS: {
        char *end;
        long n = strtol(arg, &end, 10);
        if (*arg == '\0' || *end != '\0' || n < 1 || n > 4096)
            return cli_bad("bad --threads '%s' (1..4096)", arg);
        o->threads = (uint32_t)n;
        return 0;
    }
    case OPT_ENGINE:
        if (strcmp(arg, "auto") == 0) o->engine = CLI_ENGINE_AUTO;
        else if (strcmp(arg, "cpu") == 0) o->engine = CLI_ENGINE_CPU;
        else if (strcmp(arg, "gpu") == 0) o->engine = CLI_ENGINE_GPU;
        else return cli_bad("bad --engine '%s' (auto, cpu or gpu)", arg);
        return 0;
    case 'q': o->quiet = true; return 0;
    case OPT_PROGRESS:
        o->progress = true;
        if (arg == NULL)
            return 0;
        return pn_parse_seconds(arg, &o->progress_s) != 0 || !(o->progress_s >= 0.05)
                   ? cli_bad("bad --progress '%s' (seconds, at least 0.05)", arg)
                   : 0;
    case OPT_TRACE: o->trace = true; return 0;
    case OPT_FULL_STORE: o->store = PN_STORE_FULL; return 0;
    case OPT_STORE:
        if (strcmp(arg, "compact") == 0) o->store = PN_STORE_COMPACT;
        else if (strcmp(arg, "tree") == 0) o->store = PN_STORE_TREE;
        else if (strcmp(arg, "full") == 0) o->store = PN_STORE_FULL;
        else return cli_bad("bad --store '%s' (compact, tree or full)", arg);
        return 0;
    case OPT_NO_REDUCE: o->no_reduce = true; return 0;
    case OPT_NO_SKELETON: o->no_skeleton = true; return 0;
    case OPT_WRITE_REDUCED: o->write_reduced = arg; return 0;
    case OPT_NO_POR: o->no_por = true; return 0;
    case OPT_NO_SMT: o->no_smt = true; return 0;
    case OPT_NO_DD: o->no_dd = true; return 0;
    case OPT_DD_ONLY: o->dd_only = true; return 0;
    case OPT_VERDICT_XML: o->verdict_xml = arg; return 0;
    case OPT_USE_VERDICTS: o->use_verdicts = true; return 0;
    case OPT_STATS_FD: {
        char *end;
        long fd = strtol(arg, &end, 10);
        if (*arg == '\0' || *end != '\0' || fd < 3 || fd > 1023)
            return cli_bad("bad --stats-fd '%s' (3..1023)", arg);
        o->stats_fd = (int)fd;
        return 0;
    }
    case 'v': o->verbose = true; return 0;
    case 'h':
        if (o->command == CLI_CMD_PROPERTIES)
            cli_usage_properties(stdout);
        else
            cli_usage(stdout);
        return 1;
    case 'V':
        printf("petrel %s (commit %s; %s)\n", PETREL_VERSION, PETREL_COMMIT, PETREL_FEATURES);
        return 1;
    default: return cli_bad("%s", "unknown option");
    }
}

int cli_parse(int argc, char **argv, cli_command command, cli_options *o)
{
    static const struct option longs[] = {
        {"examination", required_argument, NULL, 'e'},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"memory", required_argument, NULL, OPT_MEMORY},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"engine", required_argument, NULL, OPT_ENGINE},
        {"quiet", no_argument, NULL, 'q'},
        {"progress", optional_argument, NULL, OPT_PROGRESS},
        {"trace", no_argument, NULL, OPT_TRACE},
        {"full-store", no_argument, NULL, OPT_FULL_STORE},
        {"store", required_argument, NULL, OPT_STORE},
        {"no-por", no_argument, NULL, OPT_NO_POR},
        {"no-smt", no_argument, NULL, OPT_NO_SMT},
        {"no-dd", no_argument, NULL, OPT_NO_DD},
        {"dd-only", no_argument, NULL, OPT_DD_ONLY},
        {"no-reduce", no_argument, NULL, OPT_NO_REDUCE},
        {"no-skeleton", no_argument, NULL, OPT_NO_SKELETON},
        {"write-reduced", required_argument, NULL, OPT_WRITE_REDUCED},
        {"verdict-xml", required_argument, NULL, OPT_VERDICT_XML},
        {"use-verdicts", no_argument, NULL, OPT_USE_VERDICTS},
        {"stats-fd", required_argument, NULL, OPT_STATS_FD},
        {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->command = command;
    o->stats_fd = -1;
    o->exam_name = "StateSpace";
    int r = cli_env_defaults(o);
    if (r != 0)
        return r;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "e:qvhV", longs, NULL)) != -1) {
        if (c == '?')
            return cli_bad("unknown option or missing argument: '%s'", argv[optind - 1]);
        if ((r = cli_option(c, optarg, o)) != 0)
            return r;
    }
    if (optind + 1 != argc)
        return cli_bad("%s", optind == argc ? "no MODEL given" : "more than one MODEL given");
    o->model = argv[optind];
    o->exam = pn_exam_parse(o->exam_name);
    if (o->exam == PN_EXAM_UNKNOWN && o->exam_from_env) {
        /* A BenchKit run of an examination this tool does not know: the
         * contest's answer for that, then the reason. */
        fputs("DO_NOT_COMPETE\n", stdout);
        fprintf(stderr, "petrel: unknown examination '%s' (BK_EXAMINATION)\n", o->exam_name);
        return 2;
    }
    if (o->exam == PN_EXAM_UNKNOWN)
        return cli_bad("unknown examination '%s'", o->exam_name);
    return 0;
}
