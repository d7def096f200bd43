/* petrel batch (batch.h): every (model, examination) pair is one child
 * process, this same petrel run on one model and one examination with its
 * share of the machine (--timeout each, --memory and --threads divided
 * among the --jobs children). A child is the contest's own unit: its
 * budget, watchdog and streamed answers are those of a contest run, and a
 * crash or a kill by the system costs that run only. The parent only
 * schedules: it reads each child's MCC lines (stdout), its one statistics
 * line (--stats-fd 3) and its stderr, takes its peak memory from wait4,
 * and appends one JSON line per finished run to the results file (and its
 * rows to the CSV file) in one write, synced; a run still in flight when
 * the batch is killed leaves nothing, so --resume runs it again. See
 * docs/batch.md. */
#include "batch.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch_int.h"
#include "petrel/budget.h"
#include "petrel/sysinfo.h"
#include "petrel/topology.h"

enum { BT_OUT, BT_ERR, BT_STATS, BT_PIPES };

typedef struct bt_child {
    pid_t pid;              /* 0: the slot is free */
    uint32_t run;
    int fd[BT_PIPES];       /* read ends; -1 once at end of file */
    bt_buf buf[BT_PIPES];
    double t0;
    bool term_sent, kill_sent;
    double term_at, kill_at;
} bt_child;

typedef struct bt_run {
    uint32_t model;
    pn_exam exam;
} bt_run;

typedef struct batch {
    bt_settings s;
    bt_models models;
    pn_exam exams[PN_EXAM_COUNT];
    uint32_t n_exams;
    const char *out_path, *csv_path;
    bool resume, quiet;
    uint32_t jobs;
    uint64_t memory_total;
    uint32_t threads_total;
    bt_run *runs;           /* the runs to do (those not already recorded) */
    uint32_t n_runs, next, skipped;
    bt_child *kids;
    int out_fd, csv_fd, sig_fd;
    char version[64];
    char self[4096];        /* this binary, the children's default */
    /* progress */
    double t0, busy_s;
    uint32_t finished, answered, answers;
} batch;

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
        "      --resume            skip the runs FILE already holds and append the rest\n"
        "  -j, --jobs N            runs at the same time (default: 1)\n"
        "      --timeout SECONDS   time budget of each run (default: 60)\n"
        "      --memory SIZE       memory of all runs together, split among the jobs\n"
        "                          (default: the memory available to petrel batch)\n"
        "      --threads N         threads of all runs together, split among the jobs\n"
        "                          (default: the cores petrel batch may use)\n"
        "      --engine KIND       passed to each run (auto, cpu, gpu)\n"
        "      --no-reduce, --no-por  passed to each run\n"
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

enum { BT_OPT_CSV = 256, BT_OPT_RESUME, BT_OPT_TIMEOUT, BT_OPT_MEMORY, BT_OPT_THREADS,
       BT_OPT_ENGINE, BT_OPT_NO_REDUCE, BT_OPT_NO_POR, BT_OPT_PETREL };

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
    char *end;
    switch (c) {
    case 'e': return bt_add_exams(b, arg);
    case 'o': b->out_path = arg; return 0;
    case BT_OPT_CSV: b->csv_path = arg; return 0;
    case BT_OPT_RESUME: b->resume = true; return 0;
    case 'j':
        if (bt_number(arg, 1, 1024, &n) != 0)
            return bt_bad("bad --jobs '%s' (1..1024)", arg);
        b->jobs = (uint32_t)n;
        return 0;
    case BT_OPT_TIMEOUT:
        b->s.timeout_s = strtod(arg, &end);
        return *arg == '\0' || *end != '\0' || !(b->s.timeout_s >= 0) ? bt_bad("bad --timeout '%s'", arg)
                                                                       : 0;
    case BT_OPT_MEMORY:
        return (b->memory_total = pn_parse_size(arg)) == 0 ? bt_bad("bad --memory '%s'", arg) : 0;
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
    case BT_OPT_PETREL: b->s.petrel = arg; return 0;
    case 'q': b->quiet = true; return 0;
    case 'h': bt_usage(stdout); return -1;
    default: return bt_bad("%s", "unknown option");
    }
}

static int bt_parse(batch *b, int argc, char **argv)
{
    static const struct option longs[] = {
        {"examination", required_argument, NULL, 'e'},
        {"out", required_argument, NULL, 'o'},
        {"csv", required_argument, NULL, BT_OPT_CSV},
        {"resume", no_argument, NULL, BT_OPT_RESUME},
        {"jobs", required_argument, NULL, 'j'},
        {"timeout", required_argument, NULL, BT_OPT_TIMEOUT},
        {"memory", required_argument, NULL, BT_OPT_MEMORY},
        {"threads", required_argument, NULL, BT_OPT_THREADS},
        {"engine", required_argument, NULL, BT_OPT_ENGINE},
        {"no-reduce", no_argument, NULL, BT_OPT_NO_REDUCE},
        {"no-por", no_argument, NULL, BT_OPT_NO_POR},
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

static int bt_settings_make(batch *b)
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
    if (b->threads_total == 0) {
        pn_topology *t = pn_topology_new();
        b->threads_total = pn_topology_cores(t);
        pn_topology_free(t);
    }
    if (b->memory_total == 0)
        b->memory_total = pn_sys_memory_bytes();
    b->s.threads = b->threads_total / b->jobs > 0 ? b->threads_total / b->jobs : 1;
    b->s.memory = b->memory_total / b->jobs;
    if (b->s.memory < (64ULL << 20))
        b->s.memory = 64ULL << 20;
    bt_child_version(b);
    b->s.version = b->version;
    return 0;
}

static int bt_open(const char *path, bool resume, bool *empty)
{
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && !resume) {
        fprintf(stderr, "petrel batch: %s exists: pass --resume to continue it, or remove it\n",
                path);
        return -2;
    }
    *empty = !exists || st.st_size == 0;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        fprintf(stderr, "petrel batch: %s: %s\n", path, strerror(errno));
    return fd;
}

/* The runs, model by model, less those the results file holds. */
static int bt_plan(batch *b)
{
    bt_done done = {0};
    if (b->resume && bt_done_read(b->out_path, &done) != 0)
        return 1;
    if (b->resume && b->csv_path != NULL && bt_csv_keep(b->csv_path, &done) != 0) {
        bt_done_free(&done);
        return 1;
    }
    size_t total = (size_t)b->models.n * b->n_exams;
    b->runs = malloc((total + 1) * sizeof *b->runs);
    if (b->runs == NULL) {
        bt_done_free(&done);
        fputs("petrel batch: out of memory\n", stderr);
        return 1;
    }
    for (uint32_t m = 0; m < b->models.n; m++)
        for (uint32_t e = 0; e < b->n_exams; e++) {
            if (bt_done_has(&done, b->models.m[m].path, b->exams[e]))
                b->skipped++;
            else
                b->runs[b->n_runs++] = (bt_run){.model = m, .exam = b->exams[e]};
        }
    bt_done_free(&done);
    return 0;
}

/* ---- children ------------------------------------------------------------ */

static void bt_close_fds(int (*p)[2], int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 2; k++)
            if (p[i][k] >= 0)
                close(p[i][k]);
}

/* fd as descriptor `to`, open across exec (dup2 of a descriptor onto
 * itself would keep its close-on-exec flag). */
static int bt_move_fd(int fd, int to)
{
    return fd == to ? fcntl(to, F_SETFD, 0) : dup2(fd, to);
}

/* In the child, between fork and exec: its own process group (a ^C at the
 * terminal reaches the batch, which ends the runs), death with the batch,
 * the pipes on 1, 2 and 3, no BenchKit variables (the command line says
 * everything) and the signals the batch blocked unblocked. */
static void bt_exec_child(int (*p)[2], pid_t parent, char **argv, const char *petrel)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0 || bt_move_fd(devnull, 0) < 0 || bt_move_fd(p[BT_OUT][1], 1) < 0 ||
        bt_move_fd(p[BT_ERR][1], 2) < 0 || bt_move_fd(p[BT_STATS][1], 3) < 0)
        _exit(127);
    unsetenv("BK_EXAMINATION");
    unsetenv("BK_TIME_CONFINEMENT");
    unsetenv("BK_MEMORY_CONFINEMENT");
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execv(petrel, argv);
    dprintf(2, "petrel: cannot run %s: %s\n", petrel, strerror(errno));
    _exit(127);
}

static int bt_spawn(batch *b, bt_child *k, uint32_t run)
{
    const bt_run *r = &b->runs[run];
    char timeout[32], memory[32], threads[16];
    snprintf(timeout, sizeof timeout, "%g", b->s.timeout_s);
    snprintf(memory, sizeof memory, "%luM", (unsigned long)(b->s.memory >> 20));
    snprintf(threads, sizeof threads, "%u", b->s.threads);
    char *argv[20];
    int n = 0;
    argv[n++] = (char *)"petrel";
    argv[n++] = (char *)"-q";
    argv[n++] = (char *)"-e";
    argv[n++] = (char *)pn_exam_name(r->exam);
    argv[n++] = (char *)"--timeout";
    argv[n++] = timeout;
    argv[n++] = (char *)"--memory";
    argv[n++] = memory;
    argv[n++] = (char *)"--threads";
    argv[n++] = threads;
    argv[n++] = (char *)"--stats-fd";
    argv[n++] = (char *)"3";
    if (b->s.engine != NULL) {
        argv[n++] = (char *)"--engine";
        argv[n++] = (char *)b->s.engine;
    }
    if (b->s.no_reduce)
        argv[n++] = (char *)"--no-reduce";
    if (b->s.no_por)
        argv[n++] = (char *)"--no-por";
    argv[n++] = b->models.m[r->model].path;
    argv[n] = NULL;

    int p[BT_PIPES][2];
    for (int i = 0; i < BT_PIPES; i++)
        p[i][0] = p[i][1] = -1;
    for (int i = 0; i < BT_PIPES; i++)
        if (pipe2(p[i], O_CLOEXEC) != 0) {
            bt_close_fds(p, BT_PIPES);
            fprintf(stderr, "petrel batch: pipe: %s\n", strerror(errno));
            return 1;
        }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        bt_close_fds(p, BT_PIPES);
        fprintf(stderr, "petrel batch: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0)
        bt_exec_child(p, parent, argv, b->s.petrel);
    memset(k, 0, sizeof *k);
    k->pid = pid;
    k->run = run;
    k->t0 = pn_clock_now();
    for (int i = 0; i < BT_PIPES; i++) {
        close(p[i][1]);
        k->fd[i] = p[i][0];
        fcntl(k->fd[i], F_SETFL, O_NONBLOCK);
    }
    if (b->s.timeout_s > 0) {
        double grace = b->s.timeout_s / 10 > 5 ? b->s.timeout_s / 10 : 5;
        k->term_at = k->t0 + b->s.timeout_s + grace;
        k->kill_at = k->term_at + 5;
    }
    return 0;
}

/* Reads what fd i has; closes it at end of file. */
static void bt_drain(bt_child *k, int i)
{
    char chunk[65536];
    for (;;) {
        ssize_t n = read(k->fd[i], chunk, sizeof chunk);
        if (n > 0) {
            /* stderr: only its end matters (the last message) */
            if (i == BT_ERR && k->buf[i].len > (1u << 16)) {
                size_t keep = 1u << 12;
                memmove(k->buf[i].s, k->buf[i].s + k->buf[i].len - keep, keep);
                k->buf[i].len = keep;
            }
            bt_buf_add(&k->buf[i], chunk, (size_t)n);
            continue;
        }
        if (n < 0 && (errno == EINTR))
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        close(k->fd[i]);
        k->fd[i] = -1;
        return;
    }
}

/* ---- recording ----------------------------------------------------------- */

static int bt_write_all(int fd, const char *s, size_t len, const char *path)
{
    while (len > 0) {
        ssize_t n = write(fd, s, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            fprintf(stderr, "petrel batch: %s: %s\n", path, strerror(errno));
            return 1;
        }
        s += n;
        len -= (size_t)n;
    }
    fdatasync(fd);
    return 0;
}

static void bt_duration(char *buf, size_t len, double s)
{
    if (s < 60)
        snprintf(buf, len, "%.0fs", s);
    else if (s < 3600)
        snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
}

static uint32_t bt_running(const batch *b)
{
    uint32_t n = 0;
    for (uint32_t j = 0; j < b->jobs; j++)
        n += b->kids[j].pid != 0;
    return n;
}

static int bt_record(batch *b, bt_child *k, int ws, const struct rusage *ru)
{
    bt_result r = {.model = &b->models.m[b->runs[k->run].model], .exam = b->runs[k->run].exam,
                   .seconds = pn_clock_now() - k->t0, .peak_rss = (uint64_t)ru->ru_maxrss * 1024,
                   .out = k->buf[BT_OUT].s != NULL ? k->buf[BT_OUT].s : "",
                   .out_len = k->buf[BT_OUT].len};
    bt_classify(&r, ws, k->term_sent, k->buf[BT_STATS].s,
                k->buf[BT_ERR].s != NULL ? k->buf[BT_ERR].s : "", &b->s);
    bt_buf json = {0}, csv = {0};
    bt_record_json(&json, &r, &b->s);
    if (b->csv_fd >= 0)
        bt_record_csv(&csv, &r);
    int rc = 0;
    if (json.failed || csv.failed) {
        fputs("petrel batch: out of memory\n", stderr);
        rc = 1;
    }
    if (rc == 0 && b->csv_fd >= 0)
        rc = bt_write_all(b->csv_fd, csv.s, csv.len, b->csv_path);
    if (rc == 0)
        rc = bt_write_all(b->out_fd, json.s, json.len, b->out_path);
    b->finished++;
    b->busy_s += r.seconds;
    b->answered += r.answered;
    b->answers += r.total;
    if (!b->quiet) {
        static const char *const st[] = {"ok", "timeout", "out of memory", "error"};
        uint32_t total = b->n_runs + b->skipped, done = b->finished + b->skipped;
        uint32_t running = bt_running(b) - 1; /* this one is still in its slot */
        uint32_t waiting = b->n_runs - b->next;
        double left = b->busy_s / b->finished * (double)(running + waiting) / b->jobs;
        char el[32], lt[32];
        bt_duration(el, sizeof el, pn_clock_now() - b->t0);
        bt_duration(lt, sizeof lt, left);
        fprintf(stderr, "petrel batch: [%u/%u] %s %s: %s%s%s, %u/%u answered, %.1fs | %u/%u "
                        "answered (%.0f%%), %s elapsed, ~%s left\n",
                done, total, r.model->name, pn_exam_name(r.exam), st[r.status],
                r.message != NULL ? ": " : "", r.message != NULL ? r.message : "", r.answered,
                r.total, r.seconds, b->answered, b->answers,
                b->answers ? 100.0 * b->answered / b->answers : 0.0, el, lt);
    }
    free(r.message);
    bt_buf_free(&json);
    bt_buf_free(&csv);
    return rc;
}

static void bt_child_clear(bt_child *k)
{
    for (int i = 0; i < BT_PIPES; i++) {
        if (k->fd[i] >= 0)
            close(k->fd[i]);
        bt_buf_free(&k->buf[i]);
    }
    memset(k, 0, sizeof *k);
}

/* A child whose pipes are all at end of file has exited or is about to. */
static int bt_reap(batch *b, bt_child *k)
{
    for (int i = 0; i < BT_PIPES; i++)
        if (k->fd[i] >= 0)
            return 0;
    int ws = 0;
    struct rusage ru = {0};
    while (wait4(k->pid, &ws, 0, &ru) < 0 && errno == EINTR)
        ;
    int rc = bt_record(b, k, ws, &ru);
    bt_child_clear(k);
    return rc;
}

/* Past its deadline and grace, a child is asked to stop (it prints its open
 * answers as CANNOT_COMPUTE), then killed. */
static void bt_deadlines(bt_child *k, double now)
{
    if (k->pid == 0 || k->term_at <= 0)
        return;
    if (!k->term_sent && now >= k->term_at) {
        kill(k->pid, SIGTERM);
        k->term_sent = true;
    } else if (k->term_sent && !k->kill_sent && now >= k->kill_at) {
        kill(k->pid, SIGKILL);
        k->kill_sent = true;
    }
}

/* ^C or a kill of the batch: the runs in flight end unrecorded. */
static void bt_stop_all(batch *b)
{
    for (uint32_t j = 0; j < b->jobs; j++)
        if (b->kids[j].pid != 0) {
            kill(b->kids[j].pid, SIGKILL);
            waitpid(b->kids[j].pid, NULL, 0);
            bt_child_clear(&b->kids[j]);
        }
}

static int bt_loop(batch *b)
{
    struct pollfd pfd[1 + 1024 * BT_PIPES];
    int rc = 0;
    while (rc == 0 && (b->next < b->n_runs || bt_running(b) > 0)) {
        for (uint32_t j = 0; rc == 0 && j < b->jobs && b->next < b->n_runs; j++)
            if (b->kids[j].pid == 0)
                rc = bt_spawn(b, &b->kids[j], b->next++);
        nfds_t n = 0;
        pfd[n++] = (struct pollfd){.fd = b->sig_fd, .events = POLLIN};
        for (uint32_t j = 0; j < b->jobs; j++)
            for (int i = 0; b->kids[j].pid != 0 && i < BT_PIPES; i++)
                if (b->kids[j].fd[i] >= 0)
                    pfd[n++] = (struct pollfd){.fd = b->kids[j].fd[i], .events = POLLIN};
        if (rc != 0)
            break;
        if (poll(pfd, n, 1000) < 0 && errno != EINTR) {
            fprintf(stderr, "petrel batch: poll: %s\n", strerror(errno));
            rc = 1;
            break;
        }
        if (pfd[0].revents & POLLIN) {
            fputs("petrel batch: interrupted: the runs in flight are not recorded "
                  "(--resume runs them again)\n", stderr);
            bt_stop_all(b);
            return 130;
        }
        double now = pn_clock_now();
        for (uint32_t j = 0; rc == 0 && j < b->jobs; j++) {
            bt_child *k = &b->kids[j];
            for (int i = 0; k->pid != 0 && i < BT_PIPES; i++)
                if (k->fd[i] >= 0)
                    bt_drain(k, i);
            bt_deadlines(k, now);
            if (k->pid != 0)
                rc = bt_reap(b, k);
        }
    }
    if (rc != 0)
        bt_stop_all(b);
    return rc;
}

/* ---- the command --------------------------------------------------------- */

static int bt_run_all(batch *b)
{
    bool out_empty = true, csv_empty = true;
    if ((b->out_fd = bt_open(b->out_path, b->resume, &out_empty)) < 0)
        return b->out_fd == -2 ? 2 : 1;
    if (b->csv_path != NULL && (b->csv_fd = bt_open(b->csv_path, b->resume, &csv_empty)) < 0)
        return b->csv_fd == -2 ? 2 : 1;
    if (bt_plan(b) != 0)
        return 1;
    if (b->csv_fd >= 0 && csv_empty &&
        bt_write_all(b->csv_fd, bt_csv_header, strlen(bt_csv_header), b->csv_path) != 0)
        return 1;
    b->kids = calloc(b->jobs, sizeof *b->kids);
    if (b->kids == NULL)
        return 1;
    if (!b->quiet)
        fprintf(stderr, "petrel batch: %u models x %u examinations: %u runs to do, %u already "
                        "in %s; %u at a time, each %gs, %lu MB, %u thread(s)\n",
                b->models.n, b->n_exams, b->n_runs, b->skipped, b->out_path, b->jobs,
                b->s.timeout_s, (unsigned long)(b->s.memory >> 20), b->s.threads);
    b->t0 = pn_clock_now();
    return bt_loop(b);
}

int cli_batch_main(int argc, char **argv)
{
    batch b;
    memset(&b, 0, sizeof b);
    b.out_fd = b.csv_fd = b.sig_fd = -1;
    int rc = bt_parse(&b, argc, argv);
    if (rc == 0)
        rc = bt_settings_make(&b);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGHUP);
    if (rc == 0) {
        sigprocmask(SIG_BLOCK, &stop, NULL);
        b.sig_fd = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK);
        if (b.sig_fd < 0) {
            fprintf(stderr, "petrel batch: signalfd: %s\n", strerror(errno));
            rc = 1;
        }
    }
    if (rc == 0)
        rc = bt_run_all(&b);
    if (b.out_fd >= 0)
        close(b.out_fd);
    if (b.csv_fd >= 0)
        close(b.csv_fd);
    if (b.sig_fd >= 0)
        close(b.sig_fd);
    free(b.kids);
    free(b.runs);
    bt_models_free(&b.models);
    return rc < 0 ? 0 : rc;
}
