/* Streaming PNML reader. MCC models reach hundreds of MB, so the file is read
 * with xmlTextReader (constant memory apart from the net itself) and never
 * built into a DOM. A coloured net type stops the stream at its <net> and
 * the file is handed to the symmetric-net reader and unfolder (hlpn.h). Arcs and reference nodes may name nodes that appear later
 * in the file, so they are collected and resolved once the whole file is in. */
#include "petrel/pnml.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>

#include "coloured/hlpn.h"
#include "sys/xml_error.h"
#include "sys/xml_guard.h"
#include "net/strmap.h"

/* NONET: a model must never make us fetch anything. No NOENT/DTDLOAD, so
 * entities are not expanded from outside the file. HUGE: lift the 10 MB text
 * and depth limits that large MCC models hit. BIG_LINES: correct line
 * numbers past 65535 in error messages. */
#define PNML_XML_OPTIONS (XML_PARSE_NONET | XML_PARSE_HUGE | XML_PARSE_BIG_LINES)

/* Quoted user text is cut so that one bad value cannot flood the message. */
#define PNML_QUOTE_MAX 40

/* XML nodes (and deferred arcs) between two polls of the budget: reading a
 * node takes well under a microsecond, so the clock is read rarely and a
 * deadline is still noticed within milliseconds. */
#define PNML_POLL_NODES 4096u

#if LIBXML_VERSION >= 21200
typedef const xmlError *pnml_xml_error_ptr;
#else
typedef xmlErrorPtr pnml_xml_error_ptr;
#endif

/* Strings of deferred arcs and references live in one growing buffer and are
 * referred to by offset: a big model has millions of arcs and one malloc per
 * string would dominate the reading time. */
typedef struct pnml_arena {
    char *data;
    size_t len, cap;
} pnml_arena;

typedef struct pnml_arc {
    size_t id, source, target; /* arena offsets */
    uint64_t weight;
    long line;
} pnml_arc;

typedef struct pnml_ref {
    size_t id, ref; /* arena offsets */
    long line;
    bool is_place;
    /* filled in by resolve_refs */
    bool target_is_place;
    uint32_t target;
} pnml_ref;

typedef struct pnml_reader {
    xmlTextReaderPtr xr;
    const char *label;
    pn_error err; /* private: the caller's may already hold an old error */
    pn_net *net;
    long net_line;
    pnml_arena strs;
    pnml_arc *arcs;
    size_t n_arcs, cap_arcs;
    pnml_ref *refs;
    size_t n_refs, cap_refs;
    pn_strmap *ref_index;
    bool coloured; /* a coloured net type: hlpn_read.c reads it instead */
    const pn_budget *budget; /* NULL: no limit */
    unsigned poll;           /* nodes read since the budget was polled */
} pnml_reader;

/* The labels a place, transition or arc may carry. */
typedef struct pnml_labels {
    const char *value_tag; /* "initialMarking", "inscription" or NULL */
    char *name;
    bool has_value; /* the label is there, maybe without a <text> */
    char *value;
    long value_line;
} pnml_labels;

/* ---- errors -------------------------------------------------------------- */

/* Whom an error is about: "place 'p1'", or "place" while the id is unknown.
 * Kept in parts so that the success path never formats a string. */
typedef struct pnml_who {
    const char *kind;
    const char *id;
} pnml_who;

#define WHO(kind, id) ((pnml_who){(kind), (const char *)(id)})

static pn_status fail_at(pnml_reader *r, pn_status code, long line,
                         pnml_who who, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static pn_status fail_at(pnml_reader *r, pn_status code, long line,
                         pnml_who who, const char *fmt, ...)
{
    char problem[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(problem, sizeof problem, fmt, ap);
    va_end(ap);
    if (who.id == NULL)
        return pn_fail(&r->err, code, "%s:%ld: %s: %s", r->label, line,
                       who.kind, problem);
    return pn_fail(&r->err, code, "%s:%ld: %s '%.120s': %s", r->label, line,
                   who.kind, who.id, problem);
}

static pn_status fail_nomem(pnml_reader *r)
{
    return pn_fail(&r->err, PN_ERR_NOMEM, "%s: out of memory reading the net",
                   r->label);
}

/* Messages must stay on one line: libxml2 ends its own with a newline, and
 * ids or values may contain any character. */
static void one_line(char *msg)
{
    size_t n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    for (char *p = msg; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
}

static void on_xml_error(void *ctx, pnml_xml_error_ptr e)
{
    pnml_reader *r = ctx;
    if (e == NULL || e->level < XML_ERR_ERROR)
        return; /* warnings (e.g. a relative namespace URI) are harmless */
    pn_status code = e->domain == XML_FROM_IO ? PN_ERR_IO : PN_ERR_INPUT;
    char msg[300];
    pn_xml_error_words(e, msg, sizeof msg);
    pn_fail(&r->err, code, "%s:%d: malformed XML: %s", r->label, e->line, msg);
}

/* ---- small containers ---------------------------------------------------- */

static int grow(void **items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : 64;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return -1;
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / elem)
        return -1;
    void *p = realloc(*items, ncap * elem);
    if (p == NULL)
        return -1;
    *items = p;
    *cap = ncap;
    return 0;
}

/* Offset of a copy of s, or SIZE_MAX when out of memory. */
static size_t arena_push(pnml_arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    if (n > SIZE_MAX - a->len ||
        grow((void **)&a->data, &a->cap, a->len + n, 1) != 0)
        return SIZE_MAX;
    memcpy(a->data + a->len, s, n);
    a->len += n;
    return a->len - n;
}

static const char *arena_str(const pnml_reader *r, size_t off)
{
    return r->strs.data + off;
}

/* ---- numbers ------------------------------------------------------------- */

static bool is_xml_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Strict decimal: surrounding whitespace, then digits only. Anything laxer
 * (strtoull accepts signs, hex with base 0, and wraps negatives) would turn a
 * typo into a wrong model. Returns NULL or what is wrong with the value. */
static const char *parse_u64(const char *s, size_t n, uint64_t *out)
{
    if (n == 0)
        return "is empty";
    if (s[0] == '-' && n > 1 && s[1] >= '0' && s[1] <= '9')
        return "is negative";
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return "is not a decimal number";
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return "does not fit in 64 bits";
        v = v * 10 + d;
    }
    *out = v;
    return NULL;
}

static pn_status parse_value(pnml_reader *r, const char *text, long line,
                             pnml_who who, const char *label, uint64_t *out)
{
    while (is_xml_space(*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && is_xml_space(text[n - 1]))
        n--;
    const char *problem = parse_u64(text, n, out);
    if (problem == NULL)
        return PN_OK;
    int shown = n > PNML_QUOTE_MAX ? PNML_QUOTE_MAX : (int)n;
    return fail_at(r, PN_ERR_INPUT, line, who, "%s: value '%.*s%s' %s", label,
                   shown, text, n > PNML_QUOTE_MAX ? "..." : "", problem);
}

/* ---- reader primitives --------------------------------------------------- */

static long cur_line(pnml_reader *r)
{
    /* The parser runs ahead of the reader by up to a chunk, so the node's own
     * line is the accurate one; the parser's is a fallback. */
    xmlNodePtr node = xmlTextReaderCurrentNode(r->xr);
    long line = node != NULL ? xmlGetLineNo(node) : -1;
    return line > 0 ? line : xmlTextReaderGetParserLineNumber(r->xr);
}

/* 1: on a node, 0: end of document, -1: error recorded. */
/* Counts against the budget: PN_ERR_TIMEOUT / PN_ERR_CANCELLED /
 * PN_ERR_OUT_OF_MEMORY in r->err (and non-zero) once it has run out. The
 * net being built, the deferred arcs and libxml2's buffers all count, as
 * the process's resident size. */
static int budget_spent(pnml_reader *r)
{
    if (r->budget == NULL || ++r->poll < PNML_POLL_NODES)
        return 0;
    r->poll = 0;
    return pn_budget_fail(r->budget, &r->err, r->label) != PN_OK ||
           pn_budget_fail_memory(r->budget, &r->err, r->label) != PN_OK;
}

static int read_raw(pnml_reader *r)
{
    if (budget_spent(r))
        return -1;
    int rc = xmlTextReaderRead(r->xr);
    if (r->err.code != PN_OK)
        return -1; /* the error handler saw a problem (maybe recoverable) */
    if (rc < 0) {
        pn_fail(&r->err, PN_ERR_INPUT, "%s:%d: malformed XML", r->label,
                xmlTextReaderGetParserLineNumber(r->xr));
        return -1;
    }
    return rc;
}

/* Next node inside an element: the end of the document there is an error. */
static pn_status advance(pnml_reader *r)
{
    int rc = read_raw(r);
    if (rc > 0)
        return PN_OK;
    if (rc == 0)
        pn_fail(&r->err, PN_ERR_INPUT, "%s:%d: malformed XML: unexpected end of file",
                r->label, xmlTextReaderGetParserLineNumber(r->xr));
    return r->err.code;
}

static const char *local_name(pnml_reader *r)
{
    const xmlChar *name = xmlTextReaderConstLocalName(r->xr);
    return name != NULL ? (const char *)name : "";
}

static bool is_end_of(pnml_reader *r, int depth)
{
    return xmlTextReaderNodeType(r->xr) == XML_READER_TYPE_END_ELEMENT &&
           xmlTextReaderDepth(r->xr) == depth;
}

/* From an element's start tag to its end tag, ignoring the content. */
static pn_status skip_element(pnml_reader *r)
{
    if (xmlTextReaderIsEmptyElement(r->xr))
        return PN_OK;
    int depth = xmlTextReaderDepth(r->xr);
    do {
        pn_status st = advance(r);
        if (st != PN_OK)
            return st;
    } while (!is_end_of(r, depth));
    return PN_OK;
}

typedef pn_status (*child_fn)(pnml_reader *r, const char *name, void *ctx);

/* Calls visit on each child element; visit must consume the child up to its
 * end tag. Ends on this element's end tag. */
static pn_status each_child(pnml_reader *r, child_fn visit, void *ctx)
{
    if (xmlTextReaderIsEmptyElement(r->xr))
        return PN_OK;
    int depth = xmlTextReaderDepth(r->xr);
    for (;;) {
        pn_status st = advance(r);
        if (st != PN_OK)
            return st;
        if (is_end_of(r, depth))
            return PN_OK;
        if (xmlTextReaderNodeType(r->xr) != XML_READER_TYPE_ELEMENT)
            continue;
        st = visit(r, local_name(r), ctx);
        if (st != PN_OK)
            return st;
    }
}

/* ---- labels: <name>, <initialMarking>, <inscription> --------------------- */

static bool is_text_node(int type)
{
    return type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA ||
           type == XML_READER_TYPE_WHITESPACE ||
           type == XML_READER_TYPE_SIGNIFICANT_WHITESPACE;
}

static pn_status buf_append(pnml_reader *r, pnml_arena *buf, const char *s)
{
    size_t n = strlen(s);
    if (n >= SIZE_MAX - buf->len ||
        grow((void **)&buf->data, &buf->cap, buf->len + n + 1, 1) != 0)
        return fail_nomem(r);
    memcpy(buf->data + buf->len, s, n + 1);
    buf->len += n;
    return PN_OK;
}

/* The character content of a <text> element (comments and stray child
 * elements are dropped); *out is a malloc'd string. */
static pn_status read_text(pnml_reader *r, char **out)
{
    pnml_arena buf = {0};
    pn_status st = buf_append(r, &buf, "");
    int depth = xmlTextReaderDepth(r->xr);
    bool empty = xmlTextReaderIsEmptyElement(r->xr);
    while (st == PN_OK && !empty) {
        st = advance(r);
        if (st != PN_OK || is_end_of(r, depth))
            break;
        const xmlChar *v = xmlTextReaderConstValue(r->xr);
        if (is_text_node(xmlTextReaderNodeType(r->xr)) && v != NULL)
            st = buf_append(r, &buf, (const char *)v);
    }
    if (st != PN_OK) {
        free(buf.data);
        return st;
    }
    *out = buf.data;
    return PN_OK;
}

typedef struct pnml_text_slot {
    char **text;
    long *line;
} pnml_text_slot;

static pn_status visit_label(pnml_reader *r, const char *name, void *ctx)
{
    pnml_text_slot *slot = ctx;
    if (strcmp(name, "text") != 0)
        return skip_element(r); /* <graphics>, <toolspecific>, ... */
    *slot->line = cur_line(r);
    char *text = NULL;
    pn_status st = read_text(r, &text);
    if (st != PN_OK)
        return st;
    free(*slot->text); /* with several <text>s the last one wins */
    *slot->text = text;
    return PN_OK;
}

static pn_status read_label(pnml_reader *r, char **text, long *line)
{
    long ignored;
    pnml_text_slot slot = {text, line != NULL ? line : &ignored};
    return each_child(r, visit_label, &slot);
}

static pn_status visit_node_child(pnml_reader *r, const char *name, void *ctx)
{
    pnml_labels *lab = ctx;
    if (strcmp(name, "name") == 0)
        return read_label(r, &lab->name, NULL);
    if (lab->value_tag == NULL || strcmp(name, lab->value_tag) != 0)
        return skip_element(r);
    free(lab->value);
    lab->value = NULL;
    lab->has_value = true;
    lab->value_line = cur_line(r);
    return read_label(r, &lab->value, &lab->value_line);
}

/* Node names are display strings: the layout whitespace around them goes,
 * and an empty name counts as none (the id is shown instead). */
static const char *display_name(char *s)
{
    if (s == NULL)
        return NULL;
    char *start = s;
    while (is_xml_space(*start))
        start++;
    size_t n = strlen(start);
    while (n > 0 && is_xml_space(start[n - 1]))
        n--;
    memmove(s, start, n);
    s[n] = '\0';
    return n > 0 ? s : NULL;
}

/* ---- nodes and arcs ------------------------------------------------------ */

/* A value label without <text> counts as empty text, which is rejected. */
static const char *label_text(const pnml_labels *lab)
{
    return lab->value != NULL ? lab->value : "";
}

/* An attribute that must be present and non-empty; *out is xmlFree'd by the
 * caller. */
static pn_status required_attr(pnml_reader *r, const char *attr,
                               pnml_who who, long line, xmlChar **out)
{
    *out = xmlTextReaderGetAttribute(r->xr, (const xmlChar *)attr);
    if (*out == NULL)
        return fail_at(r, PN_ERR_INPUT, line, who, "missing %s attribute", attr);
    if ((*out)[0] == '\0') {
        xmlFree(*out);
        *out = NULL;
        return fail_at(r, PN_ERR_INPUT, line, who, "empty %s attribute", attr);
    }
    return PN_OK;
}

/* Adds the error from pn_net_* with the file position in front. */
static pn_status net_error(pnml_reader *r, long line, pnml_who who,
                           const pn_error *e)
{
    return fail_at(r, e->code, line, who, "%s", e->msg);
}

static pn_status add_place(pnml_reader *r, const char *id, long line,
                           pnml_labels *lab)
{
    pnml_who who = WHO("place", id);
    uint64_t m0 = 0;
    if (lab->has_value) {
        pn_status st = parse_value(r, label_text(lab), lab->value_line, who,
                                   "initial marking", &m0);
        if (st != PN_OK)
            return st;
    }
    pn_error e = {PN_OK, ""};
    if (pn_net_add_place(r->net, id, display_name(lab->name), m0, &e) < 0)
        return net_error(r, line, who, &e);
    return PN_OK;
}

static pn_status add_transition(pnml_reader *r, const char *id, long line,
                                pnml_labels *lab)
{
    pn_error e = {PN_OK, ""};
    if (pn_net_add_transition(r->net, id, display_name(lab->name), &e) < 0)
        return net_error(r, line, WHO("transition", id), &e);
    return PN_OK;
}

static pn_status read_node(pnml_reader *r, bool is_place)
{
    const char *kind = is_place ? "place" : "transition";
    long line = cur_line(r);
    xmlChar *id = NULL;
    pn_status st = required_attr(r, "id", WHO(kind, NULL), line, &id);
    pnml_labels lab = {is_place ? "initialMarking" : NULL, NULL, false, NULL, 0};
    if (st == PN_OK)
        st = each_child(r, visit_node_child, &lab);
    if (st == PN_OK && is_place)
        st = add_place(r, (const char *)id, line, &lab);
    else if (st == PN_OK)
        st = add_transition(r, (const char *)id, line, &lab);
    free(lab.name);
    free(lab.value);
    xmlFree(id);
    return st;
}

static pn_status arc_weight(pnml_reader *r, pnml_who who,
                            const pnml_labels *lab, uint64_t *weight)
{
    *weight = 1; /* PNML's default when there is no inscription */
    if (!lab->has_value)
        return PN_OK;
    pn_status st = parse_value(r, label_text(lab), lab->value_line, who,
                               "inscription", weight);
    if (st == PN_OK && *weight == 0)
        return fail_at(r, PN_ERR_INPUT, lab->value_line, who,
                       "inscription: weight 0 is not allowed (arc weights are at least 1)");
    return st;
}

static pn_status push_arc(pnml_reader *r, xmlChar *const attrs[3],
                          uint64_t weight, long line)
{
    if (grow((void **)&r->arcs, &r->cap_arcs, r->n_arcs + 1, sizeof *r->arcs) != 0)
        return fail_nomem(r);
    pnml_arc *a = &r->arcs[r->n_arcs];
    a->id = arena_push(&r->strs, (const char *)attrs[0]);
    a->source = arena_push(&r->strs, (const char *)attrs[1]);
    a->target = arena_push(&r->strs, (const char *)attrs[2]);
    if (a->id == SIZE_MAX || a->source == SIZE_MAX || a->target == SIZE_MAX)
        return fail_nomem(r);
    a->weight = weight;
    a->line = line;
    r->n_arcs++;
    return PN_OK;
}

static pn_status read_arc(pnml_reader *r)
{
    long line = cur_line(r);
    static const char *const names[3] = {"id", "source", "target"};
    xmlChar *attrs[3] = {NULL, NULL, NULL};
    pn_status st = PN_OK;
    for (int i = 0; i < 3 && st == PN_OK; i++)
        st = required_attr(r, names[i], WHO("arc", attrs[0]), line, &attrs[i]);
    pnml_labels lab = {"inscription", NULL, false, NULL, 0};
    uint64_t weight = 1;
    if (st == PN_OK)
        st = each_child(r, visit_node_child, &lab);
    if (st == PN_OK)
        st = arc_weight(r, WHO("arc", attrs[0]), &lab, &weight);
    if (st == PN_OK)
        st = push_arc(r, attrs, weight, line);
    free(lab.name);
    free(lab.value);
    for (int i = 0; i < 3; i++)
        xmlFree(attrs[i]);
    return st;
}

static pn_status read_ref(pnml_reader *r, bool is_place)
{
    const char *kind = is_place ? "referencePlace" : "referenceTransition";
    long line = cur_line(r);
    xmlChar *id = NULL, *ref = NULL;
    pn_status st = required_attr(r, "id", WHO(kind, NULL), line, &id);
    if (st == PN_OK)
        st = required_attr(r, "ref", WHO(kind, id), line, &ref);
    if (st == PN_OK &&
        grow((void **)&r->refs, &r->cap_refs, r->n_refs + 1, sizeof *r->refs) != 0)
        st = fail_nomem(r);
    if (st == PN_OK) {
        pnml_ref *x = &r->refs[r->n_refs];
        x->id = arena_push(&r->strs, (const char *)id);
        x->ref = arena_push(&r->strs, (const char *)ref);
        x->line = line;
        x->is_place = is_place;
        if (x->id == SIZE_MAX || x->ref == SIZE_MAX)
            st = fail_nomem(r);
        else
            r->n_refs++;
    }
    xmlFree(id);
    xmlFree(ref);
    return st == PN_OK ? skip_element(r) : st;
}

/* ---- net, pages, document ------------------------------------------------ */

static pn_status read_net_element(pnml_reader *r, const char *name)
{
    if (strcmp(name, "place") == 0)
        return read_node(r, true);
    if (strcmp(name, "transition") == 0)
        return read_node(r, false);
    if (strcmp(name, "arc") == 0)
        return read_arc(r);
    if (strcmp(name, "referencePlace") == 0)
        return read_ref(r, true);
    if (strcmp(name, "referenceTransition") == 0)
        return read_ref(r, false);
    if (strcmp(name, "toolspecific") == 0) {
        /* The unit structure itself is not read: only that it is there. */
        xmlChar *tool = xmlTextReaderGetAttribute(r->xr, (const xmlChar *)"tool");
        if (tool != NULL && strcmp((const char *)tool, "nupn") == 0)
            r->net->nupn = true;
        xmlFree(tool);
    }
    return skip_element(r); /* names, declarations, toolspecific, graphics */
}

/* Pages only group nodes, so they are read through rather than recursed
 * into: nesting depth costs nothing. */
static pn_status read_net_body(pnml_reader *r)
{
    if (xmlTextReaderIsEmptyElement(r->xr))
        return PN_OK;
    int depth = xmlTextReaderDepth(r->xr);
    for (;;) {
        pn_status st = advance(r);
        if (st != PN_OK)
            return st;
        if (is_end_of(r, depth))
            return PN_OK;
        if (xmlTextReaderNodeType(r->xr) != XML_READER_TYPE_ELEMENT)
            continue; /* text, comments, and the end tags of pages */
        const char *name = local_name(r);
        if (strcmp(name, "page") == 0)
            continue;
        st = read_net_element(r, name);
        if (st != PN_OK)
            return st;
    }
}

static bool contains(const char *s, const char *part)
{
    return strstr(s, part) != NULL;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

static pn_status check_net_type(pnml_reader *r, pnml_who who, const char *type)
{
    static const char *const coloured[] = {"symmetricnet", "highlevelnet", "hlpn"};
    if (type == NULL)
        return fail_at(r, PN_ERR_INPUT, r->net_line, who, "missing type attribute");
    for (size_t i = 0; i < sizeof coloured / sizeof coloured[0]; i++)
        if (contains(type, coloured[i])) {
            r->coloured = true; /* stops the stream; the entry point redirects */
            return fail_at(r, PN_ERR_UNSUPPORTED, r->net_line, who, "coloured net");
        }
    if (!ends_with(type, "ptnet"))
        return fail_at(r, PN_ERR_INPUT, r->net_line, who,
                       "unknown net type '%.200s'", type);
    return PN_OK;
}

static pn_status read_net(pnml_reader *r)
{
    long line = cur_line(r);
    if (r->net != NULL)
        return fail_at(r, PN_ERR_INPUT, line, WHO("net", NULL),
                       "more than one <net> in the file (the first is '%.120s' at line %ld); "
                       "Petrel reads one net per file", r->net->id, r->net_line);
    r->net_line = line;
    xmlChar *id = xmlTextReaderGetAttribute(r->xr, (const xmlChar *)"id");
    xmlChar *type = xmlTextReaderGetAttribute(r->xr, (const xmlChar *)"type");
    pn_status st = check_net_type(r, WHO("net", id), (const char *)type);
    if (st == PN_OK) {
        r->net = pn_net_new((const char *)id);
        st = r->net != NULL ? read_net_body(r) : fail_nomem(r);
    }
    xmlFree(id);
    xmlFree(type);
    return st;
}

static pn_status read_top_element(pnml_reader *r)
{
    const char *name = local_name(r);
    int depth = xmlTextReaderDepth(r->xr);
    if (depth == 0 && strcmp(name, "pnml") != 0)
        return fail_at(r, PN_ERR_INPUT, cur_line(r), WHO("document", NULL),
                       "root element is <%.60s>, expected <pnml>", name);
    if (depth == 0)
        return PN_OK; /* step into <pnml> */
    if (strcmp(name, "net") == 0)
        return read_net(r);
    return skip_element(r);
}

/* ---- resolution ---------------------------------------------------------- */

typedef struct pnml_node {
    bool is_place;
    uint32_t index;
} pnml_node;

static bool find_node(const pnml_reader *r, const char *id, pnml_node *node)
{
    int64_t i = pn_net_find_place(r->net, id);
    node->is_place = i >= 0;
    if (i < 0)
        i = pn_net_find_transition(r->net, id);
    node->index = (uint32_t)i;
    return i >= 0;
}

static const char *ref_kind(const pnml_ref *x)
{
    return x->is_place ? "referencePlace" : "referenceTransition";
}

static pn_status index_refs(pnml_reader *r)
{
    r->ref_index = pn_strmap_new();
    if (r->ref_index == NULL)
        return fail_nomem(r);
    for (size_t i = 0; i < r->n_refs; i++) {
        const pnml_ref *x = &r->refs[i];
        const char *id = arena_str(r, x->id);
        pnml_who who = WHO(ref_kind(x), id);
        pnml_node node;
        if (find_node(r, id, &node))
            return fail_at(r, PN_ERR_INPUT, x->line, who, "duplicate id '%.120s'", id);
        int rc = pn_strmap_put(r->ref_index, id, (int64_t)i);
        if (rc < 0)
            return fail_nomem(r);
        if (rc == 0)
            return fail_at(r, PN_ERR_INPUT, x->line, who, "duplicate id '%.120s'", id);
    }
    return PN_OK;
}

/* Follows a chain of references to a real node. A chain longer than the
 * number of references must revisit one: that is a cycle. */
static pn_status resolve_ref(pnml_reader *r, pnml_ref *x)
{
    pnml_who who = WHO(ref_kind(x), arena_str(r, x->id));
    const char *target = arena_str(r, x->ref);
    pnml_node node;
    for (size_t steps = 0; !find_node(r, target, &node); steps++) {
        int64_t next = pn_strmap_get(r->ref_index, target);
        if (next < 0)
            return fail_at(r, PN_ERR_INPUT, x->line, who,
                           "refers to '%.120s', which is not a node of the net", target);
        if (steps >= r->n_refs)
            return fail_at(r, PN_ERR_INPUT, x->line, who,
                           "reference cycle through '%.120s'", target);
        target = arena_str(r, r->refs[next].ref);
    }
    if (node.is_place != x->is_place)
        return fail_at(r, PN_ERR_INPUT, x->line, who, "refers to %s '%.120s'",
                       node.is_place ? "place" : "transition", target);
    x->target_is_place = node.is_place;
    x->target = node.index;
    return PN_OK;
}

static pn_status resolve_refs(pnml_reader *r)
{
    pn_status st = index_refs(r);
    for (size_t i = 0; i < r->n_refs && st == PN_OK; i++)
        st = resolve_ref(r, &r->refs[i]);
    return st;
}

static pn_status arc_end(pnml_reader *r, const pnml_arc *a, pnml_who who,
                         bool source, pnml_node *node)
{
    const char *id = arena_str(r, source ? a->source : a->target);
    if (find_node(r, id, node))
        return PN_OK;
    int64_t i = pn_strmap_get(r->ref_index, id);
    if (i >= 0) {
        node->is_place = r->refs[i].target_is_place;
        node->index = r->refs[i].target;
        return PN_OK;
    }
    return fail_at(r, PN_ERR_INPUT, a->line, who,
                   "%s '%.120s' is not a place or transition of the net",
                   source ? "source" : "target", id);
}

static pn_status resolve_arc(pnml_reader *r, const pnml_arc *a)
{
    pnml_who who = WHO("arc", arena_str(r, a->id));
    pnml_node src, dst;
    pn_status st = arc_end(r, a, who, true, &src);
    if (st == PN_OK)
        st = arc_end(r, a, who, false, &dst);
    if (st != PN_OK)
        return st;
    if (src.is_place == dst.is_place)
        return fail_at(r, PN_ERR_INPUT, a->line, who,
                       "connects two %s ('%.120s' -> '%.120s')",
                       src.is_place ? "places" : "transitions",
                       arena_str(r, a->source), arena_str(r, a->target));
    pn_error e = {PN_OK, ""};
    uint32_t place = src.is_place ? src.index : dst.index;
    uint32_t trans = src.is_place ? dst.index : src.index;
    if (pn_net_add_arc(r->net, place, trans, src.is_place, a->weight, &e) != PN_OK)
        return net_error(r, a->line, who, &e);
    return PN_OK;
}

static pn_status finish_net(pnml_reader *r)
{
    if (r->net == NULL)
        return pn_fail(&r->err, PN_ERR_INPUT, "%s: no <net> element in the file",
                       r->label);
    if (r->net->n_places == 0 && r->net->n_transitions == 0)
        return fail_at(r, PN_ERR_INPUT, r->net_line, WHO("net", r->net->id), "net has no places");
    pn_status st = resolve_refs(r);
    for (size_t i = 0; i < r->n_arcs && st == PN_OK; i++)
        st = budget_spent(r) ? r->err.code : resolve_arc(r, &r->arcs[i]);
    return st;
}

static pn_status read_document(pnml_reader *r)
{
    bool seen_root = false;
    for (;;) {
        int rc = read_raw(r);
        if (rc < 0)
            return r->err.code;
        if (rc == 0)
            break;
        if (xmlTextReaderNodeType(r->xr) != XML_READER_TYPE_ELEMENT)
            continue;
        seen_root = true;
        pn_status st = read_top_element(r);
        if (st != PN_OK)
            return st;
    }
    if (!seen_root) /* libxml2 reports most of these, but not all */
        return pn_fail(&r->err, PN_ERR_INPUT, "%s:1: malformed XML: no root element",
                       r->label);
    return finish_net(r);
}

/* ---- entry points -------------------------------------------------------- */

/* Runs the reader and hands the result or the error over; frees everything
 * but the returned net. *coloured: the net is coloured and nothing was
 * read (err untouched). */
static pn_status read_with(xmlTextReaderPtr xr, const char *label,
                           const pn_budget *budget, pn_net **out, pn_error *err,
                           bool *coloured)
{
    pnml_reader r;
    memset(&r, 0, sizeof r);
    r.xr = xr;
    r.label = label;
    r.budget = budget;
    pn_status st;
    if (xr == NULL) {
        st = fail_nomem(&r);
    } else {
        xmlTextReaderSetStructuredErrorHandler(xr, on_xml_error, &r);
        st = read_document(&r);
        xmlFreeTextReader(xr);
    }
    pn_strmap_free(r.ref_index);
    free(r.strs.data);
    free(r.arcs);
    free(r.refs);
    if (st == PN_OK) {
        *out = r.net;
        return PN_OK;
    }
    pn_net_free(r.net);
    *coloured = r.coloured;
    if (r.coloured)
        return st;
    one_line(r.err.msg);
    return pn_fail(err, st, "%s", r.err.msg);
}

/* The document tree libxml2 builds of a coloured net, per byte of its text:
 * 17 measured (81 MB for Philosophers-COL-100000's 4.7 MB). */
#define PNML_TREE_BYTES_PER_BYTE 18

/* The coloured reader's error goes through a private pn_error so that, as
 * for P/T nets, an error already in the caller's is kept. It parses the
 * whole document before it can poll the budget: a document whose tree
 * would not fit the memory left is not parsed. */
static pn_status read_coloured(const char *buf, size_t len, const char *path,
                               const pn_budget *budget, const pn_pnml_opts *opts,
                               pn_net **out, pn_error *err)
{
    struct stat sb;
    uint64_t size = buf != NULL ? len : stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    uint64_t room = pn_budget_memory(budget), tree = size * PNML_TREE_BYTES_PER_BYTE;
    if (room != 0 && tree > room)
        return pn_fail(err, PN_ERR_OUT_OF_MEMORY,
                       "%s: a coloured net whose document takes about %.0f MB to read; "
                       "%.0f MB are left", path, (double)tree / 1e6, (double)room / 1e6);
    pn_error e = {PN_OK, ""};
    hl_shape shape = opts == NULL          ? HL_SHAPE_PLAIN
                     : opts->skeleton      ? HL_SHAPE_SKELETON
                     : opts->merge_colours ? HL_SHAPE_MERGED
                                           : HL_SHAPE_PLAIN;
    pn_status st = buf != NULL ? pn_hlpn_read_memory(buf, len, path, budget, shape, out, &e)
                               : pn_hlpn_read_file(path, budget, shape, out, &e);
    if (st == PN_OK)
        return PN_OK;
    one_line(e.msg);
    return pn_fail(err, st, "%s", e.msg);
}

pn_status pn_pnml_read_memory(const char *buf, size_t len, const char *label,
                              const pn_budget *budget, pn_net **out,
                              pn_error *err)
{
    return pn_pnml_read_memory_opts(buf, len, label, budget, NULL, out, err);
}

pn_status pn_pnml_read_memory_opts(const char *buf, size_t len, const char *label,
                                   const pn_budget *budget, const pn_pnml_opts *opts,
                                   pn_net **out, pn_error *err)
{
    *out = NULL;
    if (label == NULL)
        label = "<memory>";
    if (len > INT_MAX) /* xmlReaderForMemory takes an int */
        return pn_fail(err, PN_ERR_UNSUPPORTED,
                       "%s: in-memory model larger than 2 GiB; read it from a file",
                       label);
    if (buf == NULL || len == 0)
        return pn_fail(err, PN_ERR_INPUT, "%s:1: malformed XML: empty input", label);
    if (pn_xml_guard_memory(buf, len, label, err) != PN_OK)
        return err->code;
    xmlTextReaderPtr xr = xmlReaderForMemory(buf, (int)len, label, NULL,
                                             PNML_XML_OPTIONS);
    bool coloured = false;
    pn_status st = read_with(xr, label, budget, out, err, &coloured);
    return coloured ? read_coloured(buf, len, label, budget, opts, out, err) : st;
}

pn_status pn_pnml_read_file(const char *path, const pn_budget *budget,
                            pn_net **out, pn_error *err)
{
    return pn_pnml_read_file_opts(path, budget, NULL, out, err);
}

pn_status pn_pnml_read_file_opts(const char *path, const pn_budget *budget,
                                 const pn_pnml_opts *opts, pn_net **out, pn_error *err)
{
    *out = NULL;
    /* Opening the file ourselves gives a plain errno message instead of
     * libxml2's, which goes to stderr before any handler can be installed. */
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return pn_fail(err, PN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    int e = fstat(fd, &sb) != 0 ? errno : S_ISDIR(sb.st_mode) ? EISDIR : 0;
    if (e != 0) {
        close(fd);
        return pn_fail(err, PN_ERR_IO, "%s: cannot read: %s", path, strerror(e));
    }
    if (S_ISREG(sb.st_mode) && sb.st_size == 0) {
        close(fd);
        return pn_fail(err, PN_ERR_INPUT, "%s: empty file", path);
    }
    if (pn_xml_guard_fd(fd, path, err) != PN_OK) {
        close(fd);
        return err->code;
    }
    xmlTextReaderPtr xr = xmlReaderForFd(fd, path, NULL, PNML_XML_OPTIONS);
    bool coloured = false;
    pn_status st = read_with(xr, path, budget, out, err, &coloured);
    close(fd);
    return coloured ? read_coloured(NULL, 0, path, budget, opts, out, err) : st;
}
