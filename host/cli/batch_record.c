/* petrel batch records (batch_int.h): one run's MCC lines, statistics and
 * end as a JSON Lines record (jsonlines.org: one RFC 8259 object per line)
 * and CSV rows (RFC 4180, every field quoted), and the keys of the records a
 * results file already holds (--resume). */
#include "batch_int.h"

#include <ctype.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- strings ------------------------------------------------------------- */

static bool bt_buf_reserve(bt_buf *b, size_t more)
{
    if (b->failed)
        return false;
    if (b->len + more + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (s == NULL) {
        b->failed = true;
        return false;
    }
    b->s = s;
    b->cap = cap;
    return true;
}

void bt_buf_add(bt_buf *b, const char *s, size_t n)
{
    if (!bt_buf_reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void bt_buf_str(bt_buf *b, const char *s)
{
    bt_buf_add(b, s, strlen(s));
}

void bt_buf_fmt(bt_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        bt_buf_add(b, small, (size_t)n);
        return;
    }
    if (!bt_buf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void bt_buf_json(bt_buf *b, const char *s)
{
    bt_buf_add(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            char esc[2] = {'\\', (char)*p};
            bt_buf_add(b, esc, 2);
        } else if (*p < 0x20) {
            bt_buf_fmt(b, "\\u%04x", *p);
        } else {
            bt_buf_add(b, (const char *)p, 1);
        }
    }
    bt_buf_add(b, "\"", 1);
}

/* Quoted, quotes doubled; control characters (newlines in a message)
 * become spaces, so that every row is one line. */
void bt_buf_csv(bt_buf *b, const char *s)
{
    bt_buf_add(b, "\"", 1);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            bt_buf_add(b, "\"\"", 2);
        else
            bt_buf_add(b, (unsigned char)*p < 0x20 ? " " : p, 1);
    }
    bt_buf_add(b, "\"", 1);
}

void bt_buf_free(bt_buf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

/* ---- the child's MCC lines ----------------------------------------------- */

/* One answer line split into words (in a scratch copy). */
typedef struct bt_line {
    char *word[64];
    int n;
} bt_line;

static void bt_split(char *text, bt_line *l)
{
    char *save = NULL;
    l->n = 0;
    for (char *tok = strtok_r(text, " \t\r", &save); tok != NULL && l->n < 64;
         tok = strtok_r(NULL, " \t\r", &save))
        l->word[l->n++] = tok;
}

static const char *const bt_ss_keys[] = {"STATES", "TRANSITIONS", "MAX_TOKEN_IN_PLACE",
                                         "MAX_TOKEN_PER_MARKING"};

/* Calls fn for every answer of the child's stdout, in order: each FORMULA
 * and STATE_SPACE line (value NULL for CANNOT_COMPUTE; tech: the words
 * after TECHNIQUES), and StateSpace's four values for a bare
 * CANNOT_COMPUTE. False when out of memory. */
typedef void (*bt_answer_fn)(void *ctx, const char *key, const char *value,
                             char *const *tech, int n_tech);

static bool bt_each_answer(const bt_result *r, bt_answer_fn fn, void *ctx)
{
    char *copy = malloc(r->out_len + 1);
    if (copy == NULL)
        return false;
    memcpy(copy, r->out, r->out_len);
    copy[r->out_len] = '\0';
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        bt_line l;
        bt_split(line, &l);
        if (l.n >= 3 &&
            (strcmp(l.word[0], "FORMULA") == 0 || strcmp(l.word[0], "STATE_SPACE") == 0)) {
            bool known = strcmp(l.word[2], "CANNOT_COMPUTE") != 0;
            int at = l.n > 4 && strcmp(l.word[3], "TECHNIQUES") == 0 ? 4 : l.n;
            fn(ctx, l.word[1], known ? l.word[2] : NULL, l.word + at, known ? l.n - at : 0);
        } else if (l.n == 1 && strcmp(l.word[0], "CANNOT_COMPUTE") == 0 &&
                   r->exam == PN_EXAM_STATE_SPACE) {
            for (int k = 0; k < 4; k++)
                fn(ctx, bt_ss_keys[k], NULL, l.word, 0);
        }
    }
    free(copy);
    return true;
}

typedef struct bt_json_answers {
    bt_buf *b;
    bt_result *r;
} bt_json_answers;

/* "key":{"value":...,"techniques":[...]} */
static void bt_json_answer(void *ctx, const char *key, const char *value, char *const *tech,
                           int n_tech)
{
    bt_json_answers *a = ctx;
    bt_buf_str(a->b, a->r->total > 0 ? "," : "");
    bt_buf_json(a->b, key);
    bt_buf_str(a->b, ":{\"value\":");
    if (value != NULL)
        bt_buf_json(a->b, value);
    else
        bt_buf_str(a->b, "null");
    bt_buf_str(a->b, ",\"techniques\":[");
    for (int k = 0; k < n_tech; k++) {
        bt_buf_str(a->b, k > 0 ? "," : "");
        bt_buf_json(a->b, tech[k]);
    }
    bt_buf_str(a->b, "]}");
    a->r->total++;
    a->r->answered += value != NULL;
}

static void bt_answers(bt_buf *b, bt_result *r)
{
    bt_json_answers a = {.b = b, .r = r};
    bt_buf_str(b, "{");
    if (!bt_each_answer(r, bt_json_answer, &a))
        b->failed = true;
    bt_buf_str(b, "}");
}

/* ---- records ------------------------------------------------------------- */

static const char *bt_status_name(bt_status s)
{
    static const char *const names[] = {"ok", "timeout", "out of memory", "error"};
    return names[s];
}

static void bt_options(bt_buf *b, const bt_settings *s)
{
    bt_buf_fmt(b, "{\"timeout_s\":%g,\"memory_mb\":%lu,\"threads\":%u,\"engine\":", s->timeout_s,
               (unsigned long)(s->memory >> 20), s->threads);
    bt_buf_json(b, s->engine != NULL ? s->engine : "auto");
    bt_buf_fmt(b, ",\"no_reduce\":%s,\"no_por\":%s,\"no_dd\":%s,\"dd_only\":%s,\"per_formula\":%s,"
               "\"petrel\":", s->no_reduce ? "true" : "false", s->no_por ? "true" : "false",
               s->no_dd ? "true" : "false", s->dd_only ? "true" : "false",
               s->per_formula ? "true" : "false");
    bt_buf_json(b, s->petrel);
    bt_buf_str(b, "}");
}

static void bt_record_head(bt_buf *b, const bt_result *r)
{
    bt_buf_str(b, "{\"model\":");
    bt_buf_json(b, r->model->name);
    bt_buf_str(b, ",\"path\":");
    bt_buf_json(b, r->model->path);
    bt_buf_str(b, ",\"examination\":");
    bt_buf_json(b, pn_exam_name(r->exam));
    bt_buf_str(b, ",\"status\":");
    bt_buf_json(b, bt_status_name(r->status));
    bt_buf_str(b, ",\"message\":");
    if (r->message != NULL)
        bt_buf_json(b, r->message);
    else
        bt_buf_str(b, "null");
    bt_buf_fmt(b, ",\"time_s\":%.3f,\"states\":", r->seconds);
    if (r->has_stats)
        bt_buf_fmt(b, "%lu", (unsigned long)r->states);
    else
        bt_buf_str(b, "null");
    bt_buf_fmt(b, ",\"peak_memory_mb\":%.1f", (double)r->peak_rss / (1 << 20));
}

static void bt_record_tail(bt_buf *b, const bt_settings *s)
{
    bt_buf_str(b, ",\"version\":");
    bt_buf_json(b, s->version);
    bt_buf_str(b, ",\"options\":");
    bt_options(b, s);
    bt_buf_str(b, "}\n");
}

typedef struct bt_formula_lines {
    bt_buf *b;
    bt_result *r;
    const bt_settings *s;
} bt_formula_lines;

/* --per-formula: the run's record with one answer in place of the map. */
static void bt_formula_line(void *ctx, const char *key, const char *value, char *const *tech,
                            int n_tech)
{
    bt_formula_lines *f = ctx;
    bt_record_head(f->b, f->r);
    bt_buf_str(f->b, ",\"formula\":");
    bt_buf_json(f->b, key);
    bt_buf_str(f->b, ",\"value\":");
    if (value != NULL)
        bt_buf_json(f->b, value);
    else
        bt_buf_str(f->b, "null");
    bt_buf_str(f->b, ",\"techniques\":[");
    for (int k = 0; k < n_tech; k++) {
        bt_buf_str(f->b, k > 0 ? "," : "");
        bt_buf_json(f->b, tech[k]);
    }
    bt_buf_str(f->b, "]");
    bt_record_tail(f->b, f->s);
    f->r->total++;
    f->r->answered += value != NULL;
}

void bt_record_json(bt_buf *b, bt_result *r, const bt_settings *s)
{
    r->answered = r->total = 0;
    if (s->per_formula) {
        bt_formula_lines f = {.b = b, .r = r, .s = s};
        if (!bt_each_answer(r, bt_formula_line, &f))
            b->failed = true;
        if (r->total > 0)
            return;
        /* no answer at all (an error, say): the run's line, formula null */
        bt_record_head(b, r);
        bt_buf_str(b, ",\"formula\":null,\"value\":null,\"techniques\":[]");
        bt_record_tail(b, s);
        return;
    }
    bt_record_head(b, r);
    bt_buf_str(b, ",\"answers\":");
    bt_answers(b, r);
    bt_buf_fmt(b, ",\"formulas\":%u,\"answered\":%u", r->total, r->answered);
    bt_record_tail(b, s);
}

const char bt_csv_header[] = "path,model,examination,formula,value,techniques,status,message,"
                             "time_s,states,peak_memory_mb\n";

typedef struct bt_csv_rows {
    bt_buf *b;
    const bt_result *r;
    bool any;
} bt_csv_rows;

static void bt_csv_row(bt_csv_rows *c, const char *key, const char *value, const char *tech)
{
    const bt_result *r = c->r;
    const char *fields[] = {r->model->path, r->model->name, pn_exam_name(r->exam), key, value,
                            tech, bt_status_name(r->status), r->message ? r->message : ""};
    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
        bt_buf_csv(c->b, fields[k]);
        bt_buf_str(c->b, ",");
    }
    bt_buf_fmt(c->b, "%.3f,%lu,%.1f\n", r->seconds, (unsigned long)r->states,
               (double)r->peak_rss / (1 << 20));
}

static void bt_csv_answer(void *ctx, const char *key, const char *value, char *const *tech,
                          int n_tech)
{
    bt_csv_rows *c = ctx;
    bt_buf words = {0};
    for (int k = 0; k < n_tech; k++) {
        bt_buf_str(&words, k > 0 ? " " : "");
        bt_buf_str(&words, tech[k]);
    }
    bt_csv_row(c, key, value != NULL ? value : "", words.s != NULL ? words.s : "");
    bt_buf_free(&words);
    c->any = true;
}

/* One row per answer, or one with an empty formula when there is none. */
void bt_record_csv(bt_buf *b, const bt_result *r)
{
    bt_csv_rows c = {.b = b, .r = r};
    if (!bt_each_answer(r, bt_csv_answer, &c))
        b->failed = true;
    if (!c.any)
        bt_csv_row(&c, "", "", "");
}

/* ---- how the child ended ------------------------------------------------- */

/* The last non-empty line of the child's stderr, without "petrel: ". */
static char *bt_last_line(const char *err)
{
    const char *end = err + strlen(err);
    while (end > err && isspace((unsigned char)end[-1]))
        end--;
    const char *start = end;
    while (start > err && start[-1] != '\n')
        start--;
    if (strncmp(start, "petrel: ", 8) == 0 && start + 8 <= end)
        start += 8;
    return start < end ? strndup(start, (size_t)(end - start)) : NULL;
}

static char *bt_message(const char *fmt, int n)
{
    char buf[160];
    snprintf(buf, sizeof buf, fmt, n, strsignal(n));
    return strdup(buf);
}

void bt_classify(bt_result *r, int ws, bool killed_by_us, const char *stats, const char *err,
                 const bt_settings *s)
{
    r->has_stats = stats != NULL;
    if (stats != NULL) {
        unsigned long states = 0;
        const char *p = strstr(stats, "states=");
        if (p != NULL && sscanf(p, "states=%lu", &states) == 1)
            r->states = states;
    }
    if (WIFSIGNALED(ws)) {
        int sig = WTERMSIG(ws);
        if (killed_by_us) {
            r->status = BT_TIMEOUT;
            r->message = strdup("killed by petrel batch past its time limit");
        } else if (sig == SIGKILL) {
            r->status = BT_MEMORY;
            r->message = bt_message("killed by signal %d (%s): the system's out-of-memory killer?",
                                    sig);
        } else {
            r->status = BT_ERROR;
            r->message = bt_message("killed by signal %d (%s)", sig);
        }
        return;
    }
    int code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 1;
    if (stats != NULL && (code == 0 || code == 2)) {
        r->status = strstr(stats, "limit=memory") ? BT_MEMORY
                    : strstr(stats, "limit=time") ? BT_TIMEOUT
                                                  : BT_OK;
        /* 2 after the statistics: the examination ran to its end with
         * formulas it could not read (they answer CANNOT_COMPUTE); the
         * child's last line, which counts them, is the message. */
        if (code == 2)
            r->message = bt_last_line(err);
        return;
    }
    if (code != 0) {
        r->status = BT_ERROR;
        r->message = bt_last_line(err);
        if (r->message == NULL)
            r->message = bt_message("exit status %d%.0s", code);
        return;
    }
    /* Exit 0 without statistics: the child's watchdog ended it at its
     * deadline, or the model could not be handled (said on stderr). */
    if (killed_by_us || (s->timeout_s > 0 && r->seconds >= 0.9 * s->timeout_s)) {
        r->status = BT_TIMEOUT;
        return;
    }
    r->status = BT_ERROR;
    r->message = bt_last_line(err);
}
