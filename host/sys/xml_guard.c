/* Entity declarations are the way into the "billion laughs" attack (nested
 * entities that expand exponentially) and PNML and the MCC formula files
 * never use them; the readers need XML_PARSE_HUGE for big models, which
 * also lifts libxml2's own amplification limit. So the prolog (the part
 * before the root element: XML declaration, comments, processing
 * instructions, DOCTYPE) is scanned first, and a DOCTYPE with an internal
 * subset ("[ ... ]", where entities are declared) is refused. External
 * DTDs are never loaded (no XML_PARSE_DTDLOAD, and XML_PARSE_NONET). */
#include "sys/xml_guard.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GUARD_PROLOG_MAX (1u << 20)

typedef enum { GUARD_OK, GUARD_REFUSE, GUARD_CUT } guard_verdict;

static bool guard_starts(const char *s, size_t n, size_t at, const char *word)
{
    size_t k = strlen(word);
    return at + k <= n && memcmp(s + at, word, k) == 0;
}

/* Index just past the end marker searched from at, or n when absent. */
static size_t guard_past(const char *s, size_t n, size_t at, const char *end)
{
    size_t k = strlen(end);
    for (size_t i = at; i + k <= n; i++)
        if (memcmp(s + i, end, k) == 0)
            return i + k;
    return n;
}

/* The DOCTYPE declaration at at: refused when it opens an internal subset
 * (a '[' outside quotes before its closing '>'). */
static guard_verdict guard_doctype(const char *s, size_t n, size_t at, size_t *next)
{
    char quote = 0;
    for (size_t i = at; i < n; i++) {
        if (quote != 0) {
            quote = s[i] == quote ? 0 : quote;
        } else if (s[i] == '"' || s[i] == '\'') {
            quote = s[i];
        } else if (s[i] == '[') {
            return GUARD_REFUSE;
        } else if (s[i] == '>') {
            *next = i + 1;
            return GUARD_OK;
        }
    }
    return GUARD_CUT;
}

static guard_verdict guard_scan(const char *s, size_t n)
{
    size_t at = guard_starts(s, n, 0, "\xEF\xBB\xBF") ? 3 : 0;
    for (;;) {
        while (at < n && (s[at] == ' ' || s[at] == '\t' || s[at] == '\r' || s[at] == '\n'))
            at++;
        if (at >= n)
            return GUARD_CUT;
        if (guard_starts(s, n, at, "<?"))
            at = guard_past(s, n, at + 2, "?>");
        else if (guard_starts(s, n, at, "<!--"))
            at = guard_past(s, n, at + 4, "-->");
        else if (guard_starts(s, n, at, "<!DOCTYPE")) {
            guard_verdict v = guard_doctype(s, n, at + 9, &at);
            if (v != GUARD_OK)
                return v;
        } else
            return GUARD_OK; /* the root element, or text the parser rejects */
    }
}

static pn_status guard_verdict_status(guard_verdict v, size_t len, const char *label,
                                      pn_error *err)
{
    if (v == GUARD_REFUSE)
        return pn_fail(err, PN_ERR_INPUT,
                       "%s: a DOCTYPE with an internal subset (entity declarations) is "
                       "not accepted (PNML and MCC formula files use none)", label);
    if (v == GUARD_CUT && len >= GUARD_PROLOG_MAX)
        return pn_fail(err, PN_ERR_INPUT, "%s: no root element in the first %u bytes", label,
                       GUARD_PROLOG_MAX);
    return PN_OK;
}

pn_status pn_xml_guard_memory(const char *buf, size_t len, const char *label, pn_error *err)
{
    size_t n = len < GUARD_PROLOG_MAX ? len : GUARD_PROLOG_MAX;
    return guard_verdict_status(guard_scan(buf, n), n, label, err);
}

pn_status pn_xml_guard_fd(int fd, const char *path, pn_error *err)
{
    char *buf = malloc(GUARD_PROLOG_MAX);
    if (buf == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "%s: out of memory", path);
    size_t n = 0;
    while (n < GUARD_PROLOG_MAX) {
        ssize_t got = pread(fd, buf + n, GUARD_PROLOG_MAX - n, (off_t)n);
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    pn_status st = pn_xml_guard_memory(buf, n, path, err);
    free(buf);
    return st;
}

pn_status pn_xml_guard_path(const char *path, pn_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return PN_OK;
    pn_status st = pn_xml_guard_fd(fd, path, err);
    close(fd);
    return st;
}
