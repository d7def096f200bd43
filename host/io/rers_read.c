/* RERS inputs (petrel/rers.h): a system file, .dot or PNML, and the
 * properties file, one formula a line (the syntax is rers_parse.c's). */
#include "petrel/rers_read.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "petrel/pnml.h"

static bool rers_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

pn_status pn_rers_read_system(const char *path, const pn_budget *budget,
                              const pn_pnml_opts *opts, pn_net **out, pn_error *err)
{
    *out = NULL;
    if (!rers_ends_with(path, ".dot") && !rers_ends_with(path, ".gv"))
        return pn_pnml_read_file_opts(path, budget, opts, out, err);
    pn_lts_system *sys = NULL;
    pn_status st = pn_dot_read_file(path, &sys, err);
    if (st == PN_OK)
        st = pn_lts_to_net(sys, out, err);
    pn_lts_system_free(sys);
    return st;
}

void pn_rers_props_free(pn_rers_props *p)
{
    if (p == NULL)
        return;
    for (uint32_t i = 0; i < p->n; i++)
        pn_rers_prop_clear(&p->p[i]);
    free(p->p);
    free(p);
}

/* "#N" or "#N:" alone on a line: the number of the next property (*rest
 * is ""); "#N: formula": a numbered property (*rest is the formula). False
 * for any other line. */
static bool rers_header(const char *s, uint32_t *number, const char **rest)
{
    if (*s++ != '#' || !isdigit((unsigned char)*s))
        return false;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    bool colon = *end == ':';
    end += colon;
    while (isspace((unsigned char)*end))
        end++;
    if ((*end != '\0' && !colon) || v > UINT32_MAX)
        return false;
    *number = (uint32_t)v;
    *rest = end;
    return true;
}

/* An "N:" prefix: the property's number. */
static const char *rers_number_prefix(const char *s, uint32_t *number)
{
    const char *d = s;
    while (isdigit((unsigned char)*d))
        d++;
    if (d == s || *d != ':')
        return s;
    unsigned long v = strtoul(s, NULL, 10);
    if (v > UINT32_MAX)
        return s;
    *number = (uint32_t)v;
    return d + 1;
}

static pn_status rers_add(pn_rers_props *ps, const char *text, const pn_net *net,
                          pn_rers_logic logic, uint32_t number, uint32_t line,
                          const char *path, pn_error *err)
{
    pn_rers_prop *grown = realloc(ps->p, ((size_t)ps->n + 1) * sizeof *grown);
    if (grown == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "%s: out of memory", path);
    ps->p = grown;
    pn_error e = {0};
    if (pn_rers_parse(text, net, logic, &grown[ps->n], &e) != PN_OK)
        return e.code == PN_ERR_INPUT
                   ? pn_fail(err, PN_ERR_INPUT, "%s:%u: %s", path, line, e.msg)
                   : pn_fail(err, e.code, "%s", e.msg);
    grown[ps->n].number = number;
    grown[ps->n].line = line;
    ps->n++;
    return PN_OK;
}

static pn_status rers_lines(char *buf, const pn_net *net, pn_rers_logic logic,
                            const char *path, pn_rers_props *ps, pn_error *err)
{
    uint32_t line = 0, number = 1;
    bool numbered = false; /* a header or prefix gave the next number */
    pn_status st = PN_OK;
    for (char *s = buf; st == PN_OK && s != NULL;) {
        char *nl = strchr(s, '\n');
        if (nl != NULL)
            *nl = '\0';
        line++;
        size_t n = strlen(s);
        while (n > 0 && isspace((unsigned char)s[n - 1]))
            s[--n] = '\0';
        while (isspace((unsigned char)*s))
            s++;
        uint32_t v;
        const char *rest;
        if (rers_header(s, &v, &rest) && *rest == '\0') {
            number = v;
            numbered = true;
        } else if (rers_header(s, &v, &rest)) {
            st = rers_add(ps, rest, net, logic, v, line, path, err);
            number = v;
            numbered = false;
        } else if (*s != '\0' && *s != '#') {
            const char *f = rers_number_prefix(s, &number);
            if (!numbered && f == s && ps->n > 0)
                number = ps->p[ps->n - 1].number + 1;
            st = rers_add(ps, f, net, logic, number, line, path, err);
            numbered = false;
        }
        s = nl != NULL ? nl + 1 : NULL;
    }
    return st;
}

pn_status pn_rers_read_props(const char *path, const pn_net *net, pn_rers_logic logic,
                             pn_rers_props **out, pn_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return pn_fail(err, PN_ERR_IO, "%s: cannot open", path);
    size_t cap = 4096, len = 0, got;
    char *buf = malloc(cap);
    while (buf != NULL && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            char *b = realloc(buf, cap * 2);
            if (b == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
            cap *= 2;
        }
    }
    bool bad = ferror(f);
    fclose(f);
    if (buf == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "%s: out of memory", path);
    if (bad) {
        free(buf);
        return pn_fail(err, PN_ERR_IO, "%s: read error", path);
    }
    buf[len] = '\0';
    pn_rers_props *ps = calloc(1, sizeof *ps);
    pn_status st = ps != NULL ? rers_lines(buf, net, logic, path, ps, err)
                              : pn_fail(err, PN_ERR_NOMEM, "%s: out of memory", path);
    free(buf);
    if (st != PN_OK) {
        pn_rers_props_free(ps);
        return st;
    }
    *out = ps;
    return PN_OK;
}
