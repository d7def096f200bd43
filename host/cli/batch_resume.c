/* petrel batch --resume (batch_int.h): the keys of the records a JSON Lines
 * results file already holds, read with a minimal scanner of the top-level
 * string fields (the records are petrel batch's own, RFC 8259 objects one
 * per line), and the CSV rows (RFC 4180) kept to match. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch_int.h"

/* ---- resuming ------------------------------------------------------------ */

/* Past a JSON string starting at p (at its opening quote); NULL if cut. */
static const char *bt_skip_string(const char *p)
{
    for (p++; *p; p++) {
        if (*p == '\\' && p[1] != '\0')
            p++;
        else if (*p == '"')
            return p + 1;
    }
    return NULL;
}

/* The raw text (quotes included) of top-level string field key of the
 * object on line, into out; false when absent or not a string. */
static bool bt_field(const char *line, const char *key, bt_buf *out)
{
    const char *p = line;
    int depth = 0;
    size_t klen = strlen(key);
    while (p != NULL && *p) {
        if (*p == '"') {
            const char *end = bt_skip_string(p);
            if (end == NULL)
                return false;
            bool is_key = depth == 1 && (size_t)(end - p) == klen + 2 &&
                          strncmp(p + 1, key, klen) == 0 && end[0] == ':';
            if (is_key && end[1] == '"') {
                const char *vend = bt_skip_string(end + 1);
                if (vend == NULL)
                    return false;
                bt_buf_add(out, end + 1, (size_t)(vend - end - 1));
                return true;
            }
            p = end;
            continue;
        }
        depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
        p++;
    }
    return false;
}

static int bt_done_add(bt_done *d, const char *path_json, const char *exam_json)
{
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? 2 * d->cap : 64;
        char **k = realloc(d->key, (size_t)cap * sizeof *k);
        if (k == NULL)
            return 1;
        d->key = k;
        d->cap = cap;
    }
    size_t n = strlen(path_json) + strlen(exam_json) + 2;
    if ((d->key[d->n] = malloc(n)) == NULL)
        return 1;
    snprintf(d->key[d->n++], n, "%s\t%s", path_json, exam_json);
    return 0;
}

static int bt_done_line(bt_done *d, const char *line)
{
    bt_buf path = {0}, exam = {0};
    int rc = 0;
    if (line[0] == '{' && bt_field(line, "path", &path) && bt_field(line, "examination", &exam))
        rc = path.failed || exam.failed || bt_done_add(d, path.s, exam.s);
    bt_buf_free(&path);
    bt_buf_free(&exam);
    return rc;
}

static char *bt_slurp(const char *path, size_t *len, bool *absent)
{
    FILE *f = fopen(path, "rb");
    *absent = f == NULL;
    if (f == NULL)
        return NULL;
    bt_buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        bt_buf_add(&b, chunk, n);
    bool bad = ferror(f) || b.failed;
    fclose(f);
    if (bad) {
        bt_buf_free(&b);
        return NULL;
    }
    *len = b.len;
    return b.s != NULL ? b.s : strdup("");
}

int bt_done_read(const char *path, bt_done *d)
{
    size_t len = 0;
    bool absent = false;
    char *text = bt_slurp(path, &len, &absent);
    if (text == NULL) {
        if (absent)
            return 0;
        fprintf(stderr, "petrel batch: %s: cannot read\n", path);
        return 1;
    }
    size_t whole = len;
    while (whole > 0 && text[whole - 1] != '\n')
        whole--; /* a line cut short: run again */
    int rc = 0;
    if (whole < len && truncate(path, (off_t)whole) != 0) {
        fprintf(stderr, "petrel batch: %s: cannot cut off its unfinished last line\n", path);
        rc = 1;
    }
    text[whole] = '\0';
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); rc == 0 && line != NULL;
         line = strtok_r(NULL, "\n", &save))
        if (bt_done_line(d, line) != 0) {
            fputs("petrel batch: out of memory\n", stderr);
            rc = 1;
        }
    free(text);
    return rc;
}

bool bt_done_has(const bt_done *d, const char *path, pn_exam exam)
{
    bt_buf key = {0};
    bt_buf_json(&key, path);
    bt_buf_str(&key, "\t");
    bt_buf_json(&key, pn_exam_name(exam));
    bool found = false;
    for (uint32_t i = 0; !found && !key.failed && i < d->n; i++)
        found = strcmp(d->key[i], key.s) == 0;
    bt_buf_free(&key);
    return found;
}

void bt_done_free(bt_done *d)
{
    for (uint32_t i = 0; i < d->n; i++)
        free(d->key[i]);
    free(d->key);
    memset(d, 0, sizeof *d);
}

/* The first quoted CSV field at *p, unquoted into out; *p moves past it
 * and its comma. */
static bool bt_csv_field(const char **p, bt_buf *out)
{
    const char *s = *p;
    if (*s != '"')
        return false;
    for (s++; *s; s++) {
        if (*s == '"' && s[1] == '"') {
            bt_buf_add(out, "\"", 1);
            s++;
        } else if (*s == '"') {
            *p = s[1] == ',' ? s + 2 : s + 1;
            if (out->s == NULL)
                bt_buf_add(out, "", 0);
            return true;
        } else {
            bt_buf_add(out, s, 1);
        }
    }
    return false;
}

static bool bt_csv_row_done(const char *line, const bt_done *d)
{
    bt_buf path = {0}, model = {0}, exam = {0};
    const char *p = line;
    bool keep = false;
    if (bt_csv_field(&p, &path) && bt_csv_field(&p, &model) && bt_csv_field(&p, &exam)) {
        pn_exam e = pn_exam_parse(exam.s);
        keep = e != PN_EXAM_UNKNOWN && bt_done_has(d, path.s, e);
    }
    bt_buf_free(&path);
    bt_buf_free(&model);
    bt_buf_free(&exam);
    return keep;
}

int bt_csv_keep(const char *path, const bt_done *d)
{
    size_t len = 0;
    bool absent = false;
    char *text = bt_slurp(path, &len, &absent);
    if (text == NULL)
        return absent ? 0 : (fprintf(stderr, "petrel batch: %s: cannot read\n", path), 1);
    bt_buf kept = {0};
    bt_buf_str(&kept, bt_csv_header);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save))
        if (line + strlen(line) < text + len && bt_csv_row_done(line, d)) {
            bt_buf_str(&kept, line);
            bt_buf_str(&kept, "\n");
        }
    free(text);
    size_t n = strlen(path) + 8;
    char *tmp = malloc(n);
    FILE *f = NULL;
    if (tmp != NULL) {
        snprintf(tmp, n, "%s.tmp", path);
        f = fopen(tmp, "wb");
    }
    bool ok = f != NULL && !kept.failed && fwrite(kept.s, 1, kept.len, f) == kept.len;
    ok = f != NULL && fclose(f) == 0 && ok && rename(tmp, path) == 0;
    if (!ok)
        fprintf(stderr, "petrel batch: %s: cannot rewrite\n", path);
    free(tmp);
    bt_buf_free(&kept);
    return ok ? 0 : 1;
}
