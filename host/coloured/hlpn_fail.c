/* How the coloured-net files give up, shared by the reader, sorts, terms
 * and the unfolder: errors located at an element of the document, out of
 * memory, the step bound and budget of one unfolding (hl_spend), and the
 * arrays' growth, which stops at 32-bit counts. It calls none of those
 * files, so each can call it without a loop. */
#include "coloured/hlpn.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "petrel/budget.h"

pn_status hl_fail(hl_model *m, pn_status code, const xmlNode *at,
                  const char *fmt, ...)
{
    char what[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    long line = at != NULL ? xmlGetLineNo(at) : 0;
    const char *elem = at != NULL && at->name != NULL ? (const char *)at->name : "net";
    return pn_fail(m->err, code, "%s:%ld: %s: %s", m->label, line, elem, what);
}

pn_status hl_nomem(hl_model *m)
{
    return pn_fail(m->err, PN_ERR_NOMEM, "%s: out of memory reading the coloured net",
                   m->label);
}

pn_status hl_unknown(hl_model *m, const xmlNode *e, const char *where)
{
    static const char *const later[] = {
        "integer", "natural", "positive", "string", "list",
        "multisetsort", "arbitrarysort", "namedoperator", "addition",
        "subtraction", "mult", "div", "mod", "cardinality", "contains",
        "cardinalityof", "stringconstant",
        "integerconstant", "emptylist", "makelist", "concatenation"};
    for (size_t i = 0; i < sizeof later / sizeof later[0]; i++)
        if (hl_is(e, later[i]))
            return hl_fail(m, PN_ERR_UNSUPPORTED, e,
                           "<%s> %s is not supported (symmetric nets only)",
                           later[i], where);
    return hl_fail(m, PN_ERR_INPUT, e, "unexpected element <%.60s> %s",
                   (const char *)e->name, where);
}

pn_status hl_spend(hl_model *m, const xmlNode *at, long line, uint64_t n)
{
    uint64_t before = m->steps;
    m->steps += n; /* n is a term size or a count below 2^32: no wrap */
    if (m->budget != NULL && before / HL_POLL_STEPS != m->steps / HL_POLL_STEPS) {
        pn_status st = pn_budget_fail(m->budget, m->err, m->label);
        if (st == PN_OK) /* the net being unfolded counts as the process's size */
            st = pn_budget_fail_memory(m->budget, m->err, m->label);
        if (st != PN_OK)
            return st;
    }
    /* Within a budget, its deadline bounds the time (polled above). */
    if (m->steps <= HL_MAX_STEPS || m->limits.budgeted)
        return PN_OK;
    if (at != NULL)
        return hl_fail(m, PN_ERR_UNSUPPORTED, at, "the unfolding needs more than %" PRIu64
                       " steps (bindings tried, terms evaluated)", HL_MAX_STEPS);
    return pn_fail(m->err, PN_ERR_UNSUPPORTED, "%s:%ld: the unfolding needs more than %"
                   PRIu64 " steps (bindings tried, terms evaluated)", m->label, line,
                   HL_MAX_STEPS);
}

int hl_grow(void **items, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    uint64_t ncap = *cap ? (uint64_t)*cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    if (ncap > UINT32_MAX || ncap > SIZE_MAX / elem)
        return -1;
    void *p = realloc(*items, (size_t)ncap * elem);
    if (p == NULL)
        return -1;
    *items = p;
    *cap = (uint32_t)ncap;
    return 0;
}
