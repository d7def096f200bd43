/* petrel batch's command line (batch_int.h): its options, the models and
 * examinations, and each run's share of the machine. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch_int.h"
#include "petrel/sysinfo.h"
#include "petrel/topology.h"

/* ---- options ------------------------------------------------------------- */

static void bt_usage(FILE *f)
{
    fputs(
        "Usage: petrel batch [options] --out FILE MODEL...\n"
        "Runs every examination on every model, each run a child petrel with its own\n"
        "time and memory budget, and writes one JSON object per (model, examination)\n"
        "to FILE (JSON Lines): the answer and technique per formula, time, states,\n"
        "peak memory, status (ok, timeout, out of memory, error with its message),\n"
        "the version and the options. A line is written, in one synced write, as each\n"
        "run ends: a killed batch loses only the runs in flight.\n"
        "\n"
        "MODEL is an instance folder (model.pnml and the formula files), a folder of\n"
        "instance folders, a .pnml file, or a list file naming such paths one per line\n"
        "(relative to the list's folder; # starts a comment).\n"
        "\n"
        "Options:\n"
        "  -e, --examination NAMES examinations, comma-separated or repeated, or 'all'\n"
        "                          (default: all 13)\n"
        "  -o, --out FILE          the JSON Lines results (required; must not exist\n"
        "                          unless --resume)\n"
        "      --csv FILE          also one CSV row per answer\n"
        "      --per-formula       one JSON object per (model, examination, formula)\n"
        "                          instead, with the run's fields and 'formula',\n"
        "                          'value', 'techniques' (a run's lines are one write)\n"
        "      --resume            skip the runs FILE already holds and append the rest\n"
        "  -j, --jobs N            runs at the same time (default: 1)\n"
        "      --timeout SECONDS   time budget of each run (default: 60)\n"
        "      --memory SIZE       memory of all runs together, split among the jobs\n"
        "                          (default: the memory available to petrel batch)\n"
        "      --threads N         threads of all runs together, split among the jobs\n"
        "                          (default: the cores petrel batch may use)\n"
        "      --engine KIND       passed to each run (auto, cpu, gpu)\n"
        "      --no-reduce, --no-por, --no-dd, --dd-only  passed to each run\n"
        "      --petrel PATH       the petrel binary the runs use (default: this one;\n"
        "                          another build compares versions)\n"
        "  -q, --quiet             no progress lines on stderr\n"
        "  -h, --help              this text\n"
        "\n"
        "Exit status: 0 when every run was recorded (whatever its status), 2 for bad\n"
        "usage, 1 when the results could not be written, 130 when interrupted.\n",
        f);
}

static int bt_bad(const char *fmt, const char *arg)
{
    fputs("petrel batch: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'petrel batch --help'.\n", stderr);
    return 2;
}

static int bt_add_exams(batch *b, const char *arg)
{
    char *copy = strdup(arg), *save = NULL;
    if (copy == NULL)
        return 1;
    int rc = 0;
    for (char *tok = strtok_r(copy, ",", &save); rc == 0 && tok != NULL;
         tok = strtok_r(NULL, ",", &save)) {
        bool all = strcmp(tok, "all") == 0;
        pn_exam e = all ? PN_EXAM_STATE_SPACE : pn_exam_parse(tok);
        if (e == PN_EXAM_UNKNOWN) {
            rc = bt_bad("unknown examination '%s'", tok);
            break;
        }
        for (int k = all ? 0 : e; k <= (all ? PN_EXAM_COUNT - 1 : (int)e); k++) {
            bool seen = false;
            for (uint32_t i = 0; i < b->n_exams; i++)
                seen = seen || b->exams[i] == (pn_exam)k;
            if (!seen)
                b->exams[b->n_exams++] = (pn_exam)k;
        }
    }
    free(copy);
    return rc;
}

enum { BT_OPT_CSV = 256, BT_OPT_PER_FORMULA, BT_OPT_RESUME, BT_OPT_TIMEOUT, BT_OPT_MEMORY, BT_OPT_THREADS,
       BT_OPT_ENGINE, BT_OPT_NO_REDUCE, BT_OPT_NO_POR, BT_OPT_NO_DD, BT_OPT_DD_ONLY, BT_OPT_PETREL };

static int bt_number(const char *arg, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (*arg == '\0' || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int bt_option(batch *b, int c, const char *arg)
{
    long n;
    switch (c) {
    case 'e': return bt_add_exams(b, arg);
    case 'o': b->out_path = arg; return 0;
    case BT_OPT_CSV: b->csv_path = arg; return 0;
    case BT_OPT_PER_FORMULA: b->s.per_formula = true; return 0;
    case BT_OPT_RESUME: b->resume = true; return 0;
    case 'j':
        if (bt_number(arg, 1, 1024, &n) != 0)
            return bt_bad("bad --jobs '%s' (1..1024)", arg);
        b->jobs = (uint32_t)n;
        return 0;
    case BT_OPT_TIMEOUT:
        return pn_parse_seconds(arg, &b->s.timeout_s) != 0 ? bt_bad("bad --timeout '%s'", arg) : 0;
    case BT_OPT_MEMORY:
        return (b->memory_total = pn_parse_size(arg)) == 0 ? bt_bad("bad --memory '%s' (" PN_SIZE_HELP ")", arg) : 0;
    case BT_OPT_THREADS:
        if (bt_number(arg, 1, 4096, &n) != 0)
            return bt_bad("bad --threads '%s' (1..4096)", arg);
        b->threads_total = (uint32_t)n;
        return 0;
    case BT_OPT_ENGINE:
        if (strcmp(arg, "auto") != 0 && strcmp(arg, "cpu") != 0 && strcmp(arg, "gpu") != 0)
            return bt_bad("bad --engine '%s' (auto, cpu or gpu)", arg);
        b->s.engine = arg;
        return 0;
    case BT_OPT_NO_REDUCE: b->s.no_reduce = true; return 0;
    case BT_OPT_NO_POR: b->s.no_por = true; return 0;
    case BT_OPT_NO_DD: b->s.no_dd = true; return 0;
    case BT_OPT_DD_ONLY: b->s.dd_only = true; return 0;
    case BT_OPT_PETREL: b->s.petrel = arg; return 0;
    case 'q': b->quiet = true; return 0;
    case 'h': bt_usage(stdout); return -1;
    default: return bt_bad("%s", "unknown option");
    }
}

int bt_parse(batch *b, int argc, char **argv)
{
    static const struct option longs[] = {
        {"examination", required_argument, NULL, 'e'},
        {"out", required_argument, NULL, 'o'},
        {"csv", required_argument, NULL, BT_OPT_CSV},
        {"per-formula", no_argument, NULL, BT_OPT_PER_FORMULA},
        {"resume", no_argument, NULL, BT_OPT_RESUME},
        {"jobs", required_argument, NULL, 'j'},
        {"timeout", required_argument, NULL, BT_OPT_TIMEOUT},
        {"memory", required_argument, NULL, BT_OPT_MEMORY},
        {"threads", required_argument, NULL, BT_OPT_THREADS},
        {"engine", required_argument, NULL, BT_OPT_ENGINE},
        {"no-reduce", no_argument, NULL, BT_OPT_NO_REDUCE},
        {"no-por", no_argument, NULL, BT_OPT_NO_POR},
        {"no-dd", no_argument, NULL, BT_OPT_NO_DD},
        {"dd-only", no_argument, NULL, BT_OPT_DD_ONLY},
        {"petrel", required_argument, NULL, BT_OPT_PETREL},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    b->jobs = 1;
    b->s.timeout_s = 60;
    opterr = 0;
    optind = 1;
    int c, rc;
    while ((c = getopt_long(argc, argv, "e:o:j:qh", longs, NULL)) != -1) {
        if (c == '?')
            return bt_bad("unknown option or missing argument: '%s'", argv[optind - 1]);
        if ((rc = bt_option(b, c, optarg)) != 0)
            return rc;
    }
    if (b->out_path == NULL)
        return bt_bad("%s", "no --out FILE given");
    if (optind == argc)
        return bt_bad("%s", "no MODEL given");
    if (b->n_exams == 0)
        bt_add_exams(b, "all");
    for (int i = optind; i < argc; i++)
        if ((rc = bt_models_add(&b->models, argv[i], false)) != 0)
            return rc;
    return 0;
}

/* ---- setting up ---------------------------------------------------------- */

/* The version the children report (petrel --version), for the records. */
static void bt_child_version(batch *b)
{
    snprintf(b->version, sizeof b->version, "%s", PETREL_VERSION);
    size_t n = strlen(b->s.petrel) * 4 + 32;
    char *cmd = malloc(n), *q = cmd;
    if (cmd == NULL)
        return;
    *q++ = '\'';
    for (const char *p = b->s.petrel; *p; p++)
        q += *p == '\'' ? sprintf(q, "'\\''") : sprintf(q, "%c", *p);
    snprintf(q, n - (size_t)(q - cmd), "' --version 2>/dev/null");
    FILE *f = popen(cmd, "r");
    char line[128];
    if (f != NULL && fgets(line, sizeof line, f) != NULL && strncmp(line, "petrel ", 7) == 0) {
        line[strcspn(line, "\r\n")] = '\0';
        snprintf(b->version, sizeof b->version, "%.60s", line + 7);
    }
    if (f != NULL)
        pclose(f);
    free(cmd);
}

/* Several runs at once each pin their workers to the first cores they
 * see: job slot j gets cores j t .. j t + t - 1 of its own (t threads a
 * run) when they all fit, so its run sees those and pins to them. */
static int bt_slot_cpus(batch *b, const pn_topology *t)
{
    const uint32_t cores = pn_topology_cores(t);
    if (b->jobs < 2 || (uint64_t)b->jobs * b->s.threads > cores)
        return 0;
    b->slot_cpus = calloc(b->jobs, sizeof *b->slot_cpus);
    if (b->slot_cpus == NULL) {
        fputs("petrel batch: out of memory\n", stderr);
        return 1;
    }
    uint32_t pus[CPU_SETSIZE];
    for (uint32_t j = 0; j < b->jobs; j++) {
        uint32_t n = pn_topology_core_pus(t, j * b->s.threads, b->s.threads, pus, CPU_SETSIZE);
        CPU_ZERO(&b->slot_cpus[j]);
        for (uint32_t k = 0; k < n; k++)
            CPU_SET(pus[k], &b->slot_cpus[j]);
        if (n == 0) { /* no share to give: the system places the runs */
            free(b->slot_cpus);
            b->slot_cpus = NULL;
            return 0;
        }
    }
    return 0;
}

int bt_settings_make(batch *b)
{
    if (b->s.petrel == NULL) {
        ssize_t n = readlink("/proc/self/exe", b->self, sizeof b->self - 1);
        if (n <= 0) {
            fputs("petrel batch: cannot find its own binary (pass --petrel)\n", stderr);
            return 1;
        }
        b->self[n] = '\0';
        b->s.petrel = b->self;
    }
    if (access(b->s.petrel, X_OK) != 0)
        return bt_bad("--petrel '%s' is not an executable", b->s.petrel);
    pn_topology *t = pn_topology_new();
    if (t == NULL) {
        fputs("petrel batch: out of memory\n", stderr);
        return 1;
    }
    if (b->threads_total == 0)
        b->threads_total = pn_topology_cores(t);
    if (b->memory_total == 0)
        b->memory_total = pn_sys_memory_bytes();
    b->s.threads = b->threads_total / b->jobs > 0 ? b->threads_total / b->jobs : 1;
    int rc = bt_slot_cpus(b, t);
    pn_topology_free(t);
    if (rc != 0)
        return rc;
    b->s.memory = b->memory_total / b->jobs;
    if (b->s.memory < (64ULL << 20))
        b->s.memory = 64ULL << 20;
    bt_child_version(b);
    b->s.version = b->version;
    return 0;
}

