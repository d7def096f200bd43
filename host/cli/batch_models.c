/* The models of a petrel batch (batch_int.h): instance folders, folders of
 * them, .pnml files and list files, in the order given (a folder's
 * instances sorted by name). */
#include "batch_int.h"
#include "path.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool bt_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool bt_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool bt_ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static int bt_nomem(void)
{
    fputs("petrel batch: out of memory\n", stderr);
    return 1;
}

/* path exists; name: the instance folder's name (the folder a model.pnml
 * sits in, else the .pnml file's name without its extension). */
static int bt_push(bt_models *ms, const char *path)
{
    char *abs = realpath(path, NULL);
    if (abs == NULL)
        return bt_nomem();
    const char *base = strrchr(abs, '/') ? strrchr(abs, '/') + 1 : abs;
    char *name;
    if (bt_is_dir(abs)) {
        name = strdup(base);
    } else if (strcmp(base, "model.pnml") == 0 && base - abs >= 2) {
        const char *end = base - 1, *start = end;
        while (start > abs && start[-1] != '/')
            start--;
        name = strndup(start, (size_t)(end - start));
    } else {
        name = strndup(base, bt_ends_with(base, ".pnml") ? strlen(base) - 5 : strlen(base));
    }
    if (name == NULL || (ms->n == ms->cap && ms->cap > UINT32_MAX / 2)) {
        free(abs);
        free(name);
        return bt_nomem();
    }
    if (ms->n == ms->cap) {
        uint32_t cap = ms->cap ? 2 * ms->cap : 32;
        bt_model *m = realloc(ms->m, (size_t)cap * sizeof *m);
        if (m == NULL) {
            free(abs);
            free(name);
            return bt_nomem();
        }
        ms->m = m;
        ms->cap = cap;
    }
    ms->m[ms->n++] = (bt_model){.path = abs, .name = name};
    return 0;
}

static int bt_name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder without model.pnml: its subfolders that have one, sorted. */
static int bt_add_folder_of_folders(bt_models *ms, const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "petrel batch: %s: cannot read the folder\n", dir);
        return 2;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] == '.')
            continue;
        char *sub = cli_path_join(dir, e->d_name), *pnml = sub ? cli_path_join(sub, "model.pnml") : NULL;
        bool keep = pnml != NULL && bt_is_dir(sub) && bt_is_file(pnml);
        free(pnml);
        if (keep && n == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, cap * sizeof *grown);
            if (grown == NULL) {
                free(sub);
                rc = bt_nomem();
                break;
            }
            names = grown;
        }
        if (keep)
            names[n++] = sub;
        else
            free(sub);
        if (sub == NULL)
            rc = bt_nomem();
    }
    closedir(d);
    if (rc == 0 && n == 0) {
        fprintf(stderr, "petrel batch: %s: no model.pnml in it or in its subfolders\n", dir);
        rc = 2;
    }
    if (n > 1)
        qsort(names, n, sizeof *names, bt_name_cmp);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = bt_push(ms, names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

static int bt_add_list(bt_models *ms, const char *list)
{
    FILE *f = fopen(list, "r");
    if (f == NULL) {
        fprintf(stderr, "petrel batch: %s: cannot open the list\n", list);
        return 2;
    }
    const char *slash = strrchr(list, '/');
    char *dir = slash ? strndup(list, (size_t)(slash - list)) : strdup(".");
    char line[PATH_MAX + 2];
    long lineno = 0;
    int rc = dir == NULL ? bt_nomem() : 0;
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        char *s = line + strspn(line, " \t");
        s[strcspn(s, "\r\n#")] = '\0';
        for (size_t n = strlen(s); n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'); n--)
            s[n - 1] = '\0';
        if (*s == '\0')
            continue;
        char *path = s[0] == '/' ? strdup(s) : cli_path_join(dir, s);
        if (path == NULL) {
            rc = bt_nomem();
            break;
        }
        if (!bt_is_dir(path) && !bt_is_file(path)) {
            fprintf(stderr, "petrel batch: %s:%ld: %s: no such file or folder\n", list, lineno, s);
            rc = 2;
        } else {
            rc = bt_models_add(ms, path, true);
        }
        free(path);
    }
    fclose(f);
    free(dir);
    return rc;
}

int bt_models_add(bt_models *ms, const char *arg, bool from_list)
{
    if (bt_is_dir(arg)) {
        char *pnml = cli_path_join(arg, "model.pnml");
        if (pnml == NULL)
            return bt_nomem();
        bool instance = bt_is_file(pnml);
        free(pnml);
        return instance ? bt_push(ms, arg) : bt_add_folder_of_folders(ms, arg);
    }
    if (!bt_is_file(arg)) {
        fprintf(stderr, "petrel batch: %s: no such file or folder\n", arg);
        return 2;
    }
    if (bt_ends_with(arg, ".pnml"))
        return bt_push(ms, arg);
    if (from_list) {
        fprintf(stderr, "petrel batch: %s: a list may name folders and .pnml files, "
                        "not other lists\n", arg);
        return 2;
    }
    return bt_add_list(ms, arg);
}

void bt_models_free(bt_models *ms)
{
    for (uint32_t i = 0; i < ms->n; i++) {
        free(ms->m[i].path);
        free(ms->m[i].name);
    }
    free(ms->m);
    memset(ms, 0, sizeof *ms);
}
