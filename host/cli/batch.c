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

/* ---- setting up ---------------------------------------------------------- */

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
 * its share of the cores (cpus, unless NULL), the pipes on 1, 2 and 3, no
 * BenchKit variables (the command line says everything) and the signals
 * the batch blocked unblocked. */
static void bt_exec_child(int (*p)[2], pid_t parent, char **argv, const char *petrel,
                          const cpu_set_t *cpus)
{
    setpgid(0, 0);
    if (cpus != NULL)
        (void)sched_setaffinity(0, sizeof *cpus, cpus); /* refused: placed by the system */
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
    char *argv[24]; /* the most options below, the path and NULL: 20 */
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
    if (b->s.no_dd)
        argv[n++] = (char *)"--no-dd";
    if (b->s.dd_only)
        argv[n++] = (char *)"--dd-only";
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
        bt_exec_child(p, parent, argv, b->s.petrel,
                      b->slot_cpus != NULL ? &b->slot_cpus[k - b->kids] : NULL);
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
                        "in %s; %u at a time, each %gs, %lu MB, %u thread(s)%s\n",
                b->models.n, b->n_exams, b->n_runs, b->skipped, b->out_path, b->jobs,
                b->s.timeout_s, (unsigned long)(b->s.memory >> 20), b->s.threads,
                b->slot_cpus != NULL ? " on cores of its own" : "");
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
    free(b.slot_cpus);
    free(b.runs);
    bt_models_free(&b.models);
    return rc < 0 ? 0 : rc;
}
