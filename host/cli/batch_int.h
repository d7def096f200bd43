/* Internal to petrel batch (batch*.c): the runs, the child's output parsed
 * into a record, and the record written as JSON Lines and CSV. */
#ifndef PETREL_CLI_BATCH_INT_H
#define PETREL_CLI_BATCH_INT_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "petrel/mcc.h"

/* A growable string (the JSON and CSV lines, a child's output). */
typedef struct bt_buf {
    char *s;
    size_t len, cap;
    bool failed;        /* an allocation failed: the content is incomplete */
} bt_buf;

void bt_buf_add(bt_buf *b, const char *s, size_t n);
void bt_buf_str(bt_buf *b, const char *s);
void bt_buf_fmt(bt_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bt_buf_json(bt_buf *b, const char *s);   /* a JSON string literal, quotes included */
void bt_buf_csv(bt_buf *b, const char *s);    /* a CSV field, quoted */
void bt_buf_free(bt_buf *b);

/* One model to run: its folder (or .pnml file) made absolute, and the
 * instance name (the folder's name). */
typedef struct bt_model {
    char *path;
    char *name;
} bt_model;

typedef struct bt_models {
    bt_model *m;
    uint32_t n, cap;
} bt_models;

/* Collects the models named by arg: an instance folder (with model.pnml),
 * a folder of instance folders, a .pnml file, or a list file (one such
 * path per line, relative to the list's folder; # starts a comment).
 * Returns 0, or 2 with a message on stderr. */
int bt_models_add(bt_models *ms, const char *arg, bool from_list);
void bt_models_free(bt_models *ms);

/* What the batch passes to every child (one run's share of the machine). */
typedef struct bt_settings {
    double timeout_s;
    uint64_t memory;        /* bytes per run */
    uint32_t threads;       /* per run */
    const char *engine;     /* NULL: auto */
    bool no_reduce, no_por;
    bool no_dd, dd_only;    /* StateSpace: the explicit engines or the diagrams alone */
    bool per_formula;       /* --per-formula: one JSON line per answer */
    const char *petrel;     /* the binary the children run */
    const char *version;    /* its version, for the records */
} bt_settings;

typedef enum { BT_OK, BT_TIMEOUT, BT_MEMORY, BT_ERROR } bt_status;

/* One finished run, as the record is made from it. */
typedef struct bt_result {
    const bt_model *model;
    pn_exam exam;
    bt_status status;
    char *message;          /* NULL unless an error (or a note on a limit) */
    double seconds;
    bool has_stats;
    uint64_t states;
    uint64_t peak_rss;      /* bytes, of the child (wait4) */
    const char *out;        /* the child's stdout (MCC lines) */
    size_t out_len;
    uint32_t answered, total;   /* set by bt_record_json */
} bt_result;

/* The record's JSON line (newline included; with s->per_formula one line
 * per answer, each a whole record of its own) and CSV rows (one per
 * answer); also counts r->answered and r->total. */
void bt_record_json(bt_buf *b, bt_result *r, const bt_settings *s);
void bt_record_csv(bt_buf *b, const bt_result *r);
extern const char bt_csv_header[];

/* The status from how the child ended: exit status or signal, whether the
 * batch killed it at its hard deadline, its stats line (NULL: none) and its
 * stderr (for the message). */
void bt_classify(bt_result *r, int wait_status, bool killed_by_us, const char *stats,
                 const char *err, const bt_settings *s);

/* --resume: the (path, examination) keys the JSON Lines file holds. A last
 * line without its newline (a write cut short) is cut off the file.
 * Returns 0, or 1 with a message on stderr. */
typedef struct bt_done {
    char **key;             /* "path\texamination" */
    uint32_t n, cap;
} bt_done;

int bt_done_read(const char *path, bt_done *d);
bool bt_done_has(const bt_done *d, const char *path, pn_exam exam);
void bt_done_free(bt_done *d);
/* Drops the CSV rows of runs the JSON Lines file does not hold (a run cut
 * off between its CSV rows and its JSON line is run again). */
int bt_csv_keep(const char *path, const bt_done *d);

/* ---- the scheduler (batch.c) and its command line (batch_options.c) ---- */

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
    /* Per job slot, the CPUs of its share of the cores, when the jobs'
     * threads fit the cores (else NULL: the system places the runs). */
    cpu_set_t *slot_cpus;
    int out_fd, csv_fd, sig_fd;
    char version[64];
    char self[4096];        /* this binary, the children's default */
    /* progress */
    double t0, busy_s;
    uint32_t finished, answered, answers;
} batch;

/* Parses argv (argv[0] is "batch") into b, the models listed: 0, -1 when
 * --help was printed, 2 for bad usage (said on stderr). */
int bt_parse(batch *b, int argc, char **argv);
/* The children's binary, version, and share of threads, cores and memory:
 * 0, or an exit code (said on stderr). */
int bt_settings_make(batch *b);

#endif
