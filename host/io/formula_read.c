/* MCC property XML -> formula trees (DOM: formula files are small). */
#include "petrel/formula.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "sys/xml_error.h"
#include "sys/xml_guard.h"

#define FML_NS "http://mcc.lip6.fr/"

typedef struct fml_reader {
    const char *label;       /* the file name in messages */
    const pn_net *net;
    const char *prop_id;     /* the property being read, for messages */
    char *bind_error;        /* first name of this property that is unknown */
    bool failed;             /* err holds why the whole file is refused */
    pn_status code;          /* the last failure's code and message, also */
    char msg[600];           /* kept when err is NULL */
    pn_error *err;
} fml_reader;

static char *fml_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

/* Always returns NULL so parse functions can `return fml_fail(...)`. */
static void *fml_fail(fml_reader *r, pn_status code, const xmlNode *at,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void *fml_fail(fml_reader *r, pn_status code, const xmlNode *at,
                      const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    long line = at != NULL ? xmlGetLineNo(at) : 0;
    if (r->prop_id != NULL)
        snprintf(r->msg, sizeof r->msg, "%s:%ld: formula '%s': %s", r->label, line, r->prop_id,
                 what);
    else
        snprintf(r->msg, sizeof r->msg, "%s:%ld: %s", r->label, line, what);
    pn_fail(r->err, code, "%s", r->msg);
    r->code = code;
    r->failed = true;
    return NULL;
}

static void *fml_nomem(fml_reader *r, const xmlNode *at)
{
    return fml_fail(r, PN_ERR_NOMEM, at, "out of memory");
}

/* Elements without a namespace are accepted too: hand-written files often
 * omit xmlns, and the element names alone are unambiguous. */
static bool fml_is(const xmlNode *e, const char *name)
{
    if (e->ns != NULL && xmlStrcmp(e->ns->href, BAD_CAST FML_NS) != 0)
        return false;
    return xmlStrcmp(e->name, BAD_CAST name) == 0;
}

static bool fml_blank(const xmlChar *s)
{
    for (; s != NULL && *s != '\0'; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return false;
    return true;
}

/* The first element at or after c; NULL at the end or on stray content. */
static xmlNode *fml_elem(fml_reader *r, xmlNode *c)
{
    for (; c != NULL; c = c->next) {
        if (c->type == XML_ELEMENT_NODE)
            return c;
        if (c->type == XML_COMMENT_NODE || c->type == XML_PI_NODE)
            continue;
        if ((c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) &&
            fml_blank(c->content))
            continue;
        return fml_fail(r, PN_ERR_INPUT, c, "unexpected text in <%s>",
                        (const char *)c->parent->name);
    }
    return NULL;
}

/* Counts e's element children, checking the rest is blank. */
static bool fml_count(fml_reader *r, xmlNode *e, uint32_t *n)
{
    *n = 0;
    for (xmlNode *c = fml_elem(r, e->children); c != NULL;
         c = fml_elem(r, c->next))
        (*n)++;
    return !r->failed;
}

static bool fml_arity(fml_reader *r, xmlNode *e, uint32_t lo, uint32_t hi,
                      uint32_t *n)
{
    if (!fml_count(r, e, n))
        return false;
    if (*n >= lo && *n <= hi)
        return true;
    if (lo == hi)
        fml_fail(r, PN_ERR_INPUT, e, "<%s> needs %u child element%s, has %u",
                 (const char *)e->name, lo, lo == 1 ? "" : "s", *n);
    else
        fml_fail(r, PN_ERR_INPUT, e, "<%s> needs at least %u child element%s",
                 (const char *)e->name, lo, lo == 1 ? "" : "s");
    return false;
}

/* The text of a leaf element, surrounding white space trimmed, malloc'd. */
static char *fml_text(fml_reader *r, xmlNode *e)
{
    for (const xmlNode *c = e->children; c != NULL; c = c->next)
        if (c->type == XML_ELEMENT_NODE)
            return fml_fail(r, PN_ERR_INPUT, c, "<%s> must hold text only",
                            (const char *)e->name);
    xmlChar *raw = xmlNodeGetContent(e);
    if (raw == NULL)
        return fml_nomem(r, e);
    const char *s = (const char *)raw;
    size_t len = strlen(s);
    while (len > 0 && strchr(" \t\r\n", s[len - 1]) != NULL)
        len--;
    while (len > 0 && strchr(" \t\r\n", *s) != NULL) {
        s++;
        len--;
    }
    char *out = malloc(len + 1);
    if (out != NULL) {
        memcpy(out, s, len);
        out[len] = '\0';
    }
    xmlFree(raw);
    return out != NULL ? out : fml_nomem(r, e);
}

static pn_fml_node *fml_bool(fml_reader *r, xmlNode *e);

static bool fml_parse_u64(const char *s, uint64_t *v)
{
    *v = 0;
    if (*s == '\0')
        return false;
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9')
            return false;
        uint64_t d = (uint64_t)(*s - '0');
        if (*v > (UINT64_MAX - d) / 10)
            return false;
        *v = *v * 10 + d;
    }
    return true;
}

static pn_fml_node *fml_constant(fml_reader *r, xmlNode *e)
{
    char *text = fml_text(r, e);
    if (text == NULL)
        return NULL;
    uint64_t v;
    bool ok = fml_parse_u64(text, &v);
    pn_fml_node *n = NULL;
    if (!ok)
        fml_fail(r, PN_ERR_INPUT, e, "bad integer constant '%s'", text);
    else if ((n = pn_fml_const(v)) == NULL)
        fml_nomem(r, e);
    free(text);
    return n;
}

/* Keeps the first unknown name of the property; the tree gets a placeholder
 * index and is dropped once the property is read. */
static bool fml_unbound(fml_reader *r, xmlNode *e, bool place, const char *name)
{
    if (r->bind_error != NULL)
        return true;
    char buf[600];
    snprintf(buf, sizeof buf, "%s:%ld: formula '%s': unknown %s '%s'",
             r->label, xmlGetLineNo(e), r->prop_id, place ? "place" : "transition",
             name);
    r->bind_error = fml_strdup(buf);
    return r->bind_error != NULL || fml_nomem(r, e) != NULL;
}

/* The indices a <place>/<transition> name stands for. */
typedef struct fml_idx {
    uint32_t *v;
    uint32_t n, cap;
} fml_idx;

static bool fml_push(fml_reader *r, xmlNode *e, fml_idx *out, const uint32_t *idx,
                     uint32_t n)
{
    if (n == 0)
        return true; /* an empty group: nothing to add (and no buffer yet) */
    if (n > UINT32_MAX - out->n) {
        fml_fail(r, PN_ERR_UNSUPPORTED, e, "more than 2^32 names in one list");
        return false;
    }
    if (out->n + n > out->cap) {
        uint64_t cap = out->cap ? out->cap : 8;
        while (cap < (uint64_t)out->n + n)
            cap *= 2;
        cap = cap > UINT32_MAX ? UINT32_MAX : cap;
        uint32_t *v = realloc(out->v, (size_t)cap * sizeof *v);
        if (v == NULL)
            return fml_nomem(r, e) != NULL;
        out->v = v;
        out->cap = (uint32_t)cap;
    }
    memcpy(out->v + out->n, idx, (size_t)n * sizeof *idx);
    out->n += n;
    return true;
}

/* A coloured id (a group of an unfolded net) stands for all its unfolded
 * nodes; any other name for the one node with that id. */
static bool fml_bind(fml_reader *r, xmlNode *e, bool place, fml_idx *out)
{
    char *name = fml_text(r, e);
    if (name == NULL)
        return false;
    const uint32_t *group;
    uint32_t n;
    bool ok;
    if (place ? pn_net_find_place_group(r->net, name, &group, &n)
              : pn_net_find_transition_group(r->net, name, &group, &n)) {
        ok = fml_push(r, e, out, group, n);
    } else {
        /* With colours merged into classes, an unfolded node is a class, not
         * the node of one colour the name would mean. */
        int64_t i = r->net->unfold.merged_sorts > 0 ? -1
                    : place ? pn_net_find_place(r->net, name)
                            : pn_net_find_transition(r->net, name);
        uint32_t idx = i >= 0 ? (uint32_t)i : UINT32_MAX;
        ok = (i >= 0 || fml_unbound(r, e, place, name)) && fml_push(r, e, out, &idx, 1);
    }
    free(name);
    return ok;
}

/* A list of only coloured transitions no binding enables is never
 * fireable; a sum over no place is 0. */
static pn_fml_node *fml_empty_list(fml_reader *r, xmlNode *e, pn_fml_kind kind)
{
    if (kind == PN_FML_PLACE_BOUND)
        return fml_fail(r, PN_ERR_INPUT, e, "<place-bound> names no place");
    pn_fml_node *n = kind == PN_FML_FIREABLE ? pn_fml_leaf(PN_FML_FALSE) : pn_fml_const(0);
    return n != NULL ? n : fml_nomem(r, e);
}

/* <tokens-count>, <place-bound> (<place>s) or <is-fireable> (<transition>s). */
static pn_fml_node *fml_names(fml_reader *r, xmlNode *e, pn_fml_kind kind)
{
    bool place = kind != PN_FML_FIREABLE;
    const char *child = place ? "place" : "transition";
    uint32_t n;
    if (!fml_arity(r, e, 1, UINT32_MAX, &n))
        return NULL;
    fml_idx idx = {NULL, 0, 0};
    for (xmlNode *c = fml_elem(r, e->children); c != NULL && !r->failed;
         c = fml_elem(r, c->next)) {
        if (!fml_is(c, child))
            fml_fail(r, PN_ERR_INPUT, c, "<%s> in <%s>, expected <%s>",
                     (const char *)c->name, (const char *)e->name, child);
        else
            fml_bind(r, c, place, &idx);
    }
    pn_fml_node *node = NULL;
    if (!r->failed)
        node = idx.n == 0 ? fml_empty_list(r, e, kind) : pn_fml_list(kind, idx.v, idx.n);
    free(idx.v);
    return node != NULL || r->failed ? node : fml_nomem(r, e);
}

static pn_fml_node *fml_int(fml_reader *r, xmlNode *e)
{
    if (fml_is(e, "integer-constant"))
        return fml_constant(r, e);
    if (fml_is(e, "tokens-count"))
        return fml_names(r, e, PN_FML_TOKENS);
    if (fml_is(e, "place-bound"))
        return fml_fail(r, PN_ERR_INPUT, e,
                        "<place-bound> is only allowed as a whole formula");
    return fml_fail(r, PN_ERR_INPUT, e, "<%s> is not an integer expression",
                    (const char *)e->name);
}

/* Reads the element children of e (already counted: n) with `one`. */
static bool fml_kids(fml_reader *r, xmlNode *e, uint32_t n, pn_fml_node **kids,
                     pn_fml_node *(*one)(fml_reader *, xmlNode *))
{
    uint32_t k = 0;
    for (xmlNode *c = fml_elem(r, e->children); c != NULL && k < n;
         c = fml_elem(r, c->next)) {
        kids[k] = one(r, c);
        if (kids[k] == NULL)
            break;
        k++;
    }
    if (k == n)
        return true;
    for (uint32_t i = 0; i < k; i++)
        pn_fml_free(kids[i]);
    return false;
}

static pn_fml_node *fml_nary(fml_reader *r, xmlNode *e, pn_fml_kind kind)
{
    uint32_t n;
    if (!fml_arity(r, e, 1, UINT32_MAX, &n))
        return NULL;
    pn_fml_node **kids = malloc((size_t)n * sizeof *kids);
    if (kids == NULL)
        return fml_nomem(r, e);
    pn_fml_node *node = NULL;
    if (fml_kids(r, e, n, kids, fml_bool)) {
        node = pn_fml_nary(kind, kids, n);
        if (node == NULL)
            fml_nomem(r, e);
    }
    free(kids);
    return node;
}

static pn_fml_node *fml_unary(fml_reader *r, xmlNode *e, pn_fml_kind kind)
{
    uint32_t n;
    pn_fml_node *kid;
    if (!fml_arity(r, e, 1, 1, &n) || !fml_kids(r, e, 1, &kid, fml_bool))
        return NULL;
    pn_fml_node *node = pn_fml_unary(kind, kid);
    return node != NULL ? node : fml_nomem(r, e);
}

static pn_fml_node *fml_int_le(fml_reader *r, xmlNode *e)
{
    uint32_t n;
    pn_fml_node *kids[2];
    if (!fml_arity(r, e, 2, 2, &n) || !fml_kids(r, e, 2, kids, fml_int))
        return NULL;
    pn_fml_node *node = pn_fml_binary(PN_FML_INT_LE, kids[0], kids[1]);
    return node != NULL ? node : fml_nomem(r, e);
}

/* The single formula inside <before> or <reach>. */
static pn_fml_node *fml_wrapped(fml_reader *r, xmlNode *e)
{
    uint32_t n;
    pn_fml_node *kid;
    if (!fml_arity(r, e, 1, 1, &n) || !fml_kids(r, e, 1, &kid, fml_bool))
        return NULL;
    return kid;
}

static pn_fml_node *fml_until(fml_reader *r, xmlNode *e)
{
    uint32_t n;
    if (!fml_arity(r, e, 2, 2, &n))
        return NULL;
    xmlNode *a = fml_elem(r, e->children);
    xmlNode *b = fml_elem(r, a->next);
    if (fml_is(a, "reach") && fml_is(b, "before")) {
        xmlNode *t = a;
        a = b;
        b = t;
    }
    if (!fml_is(a, "before") || !fml_is(b, "reach"))
        return fml_fail(r, PN_ERR_INPUT, e,
                        "<until> needs one <before> and one <reach>");
    pn_fml_node *before = fml_wrapped(r, a);
    pn_fml_node *reach = before != NULL ? fml_wrapped(r, b) : NULL;
    if (reach == NULL) {
        pn_fml_free(before);
        return NULL;
    }
    pn_fml_node *node = pn_fml_binary(PN_FML_U, before, reach);
    return node != NULL ? node : fml_nomem(r, e);
}

static pn_fml_node *fml_leaf(fml_reader *r, xmlNode *e, pn_fml_kind kind)
{
    uint32_t n;
    if (!fml_arity(r, e, 0, 0, &n))
        return NULL;
    pn_fml_node *node = pn_fml_leaf(kind);
    return node != NULL ? node : fml_nomem(r, e);
}

static const struct {
    const char *name;
    pn_fml_kind kind;
} fml_unary_ops[] = {
    {"negation", PN_FML_NOT},  {"all-paths", PN_FML_A}, {"exists-path", PN_FML_E},
    {"next", PN_FML_X},        {"finally", PN_FML_F},   {"globally", PN_FML_G},
};

static pn_fml_node *fml_bool(fml_reader *r, xmlNode *e)
{
    for (size_t i = 0; i < sizeof fml_unary_ops / sizeof fml_unary_ops[0]; i++)
        if (fml_is(e, fml_unary_ops[i].name))
            return fml_unary(r, e, fml_unary_ops[i].kind);
    if (fml_is(e, "conjunction"))
        return fml_nary(r, e, PN_FML_AND);
    if (fml_is(e, "disjunction"))
        return fml_nary(r, e, PN_FML_OR);
    if (fml_is(e, "until"))
        return fml_until(r, e);
    if (fml_is(e, "integer-le"))
        return fml_int_le(r, e);
    if (fml_is(e, "is-fireable"))
        return fml_names(r, e, PN_FML_FIREABLE);
    if (fml_is(e, "true"))
        return fml_leaf(r, e, PN_FML_TRUE);
    if (fml_is(e, "false"))
        return fml_leaf(r, e, PN_FML_FALSE);
    if (fml_is(e, "deadlock"))
        return fml_leaf(r, e, PN_FML_DEADLOCK);
    return fml_fail(r, PN_ERR_INPUT, e, "unknown or misplaced element <%s>",
                    (const char *)e->name);
}

/* <formula>: one boolean formula, or a <place-bound> (UpperBounds). */
static pn_fml_node *fml_formula(fml_reader *r, xmlNode *e)
{
    uint32_t n;
    if (!fml_arity(r, e, 1, 1, &n))
        return NULL;
    xmlNode *c = fml_elem(r, e->children);
    if (fml_is(c, "place-bound"))
        return fml_names(r, c, PN_FML_PLACE_BOUND);
    return fml_bool(r, c);
}

/* Finds <id> and <formula> (once each) and checks nothing else is there. */
static bool fml_prop_parts(fml_reader *r, xmlNode *e, xmlNode **id,
                           xmlNode **formula)
{
    xmlNode *desc = NULL;
    *id = *formula = NULL;
    for (xmlNode *c = fml_elem(r, e->children); c != NULL;
         c = fml_elem(r, c->next)) {
        xmlNode **slot = fml_is(c, "id") ? id
                         : fml_is(c, "formula") ? formula
                         : fml_is(c, "description") ? &desc : NULL;
        if (slot == NULL || *slot != NULL) {
            fml_fail(r, PN_ERR_INPUT, c, "%s <%s> in <property>",
                     slot == NULL ? "unknown element" : "repeated",
                     (const char *)c->name);
            return false;
        }
        *slot = c;
    }
    if (!r->failed && (*id == NULL || *formula == NULL))
        fml_fail(r, PN_ERR_INPUT, e, "<property> without <%s>",
                 *id == NULL ? "id" : "formula");
    return !r->failed;
}

/* An answer is one line of space-separated fields ("FORMULA id value
 * TECHNIQUES ..."), and batch records split it so: an id byte that is a
 * space or a control character (a newline would forge a second answer)
 * becomes '_'. Contest ids never hold one. */
static void fml_id_printable(char *id)
{
    for (unsigned char *c = (unsigned char *)id; *c != '\0'; c++)
        if (*c <= ' ' || *c == 0x7f)
            *c = '_';
}

static bool fml_property(fml_reader *r, xmlNode *e, pn_fml_prop *p)
{
    xmlNode *id_el, *formula_el;
    if (!fml_prop_parts(r, e, &id_el, &formula_el))
        return false;
    p->id = fml_text(r, id_el);
    if (p->id == NULL)
        return false;
    if (p->id[0] == '\0')
        return fml_fail(r, PN_ERR_INPUT, id_el, "empty <id>") != NULL;
    fml_id_printable(p->id);
    r->prop_id = p->id;
    r->bind_error = NULL;
    r->code = PN_OK;
    p->root = fml_formula(r, formula_el);
    r->prop_id = NULL;
    if (p->root == NULL && r->code == PN_ERR_INPUT) {
        /* A formula outside the grammar (an unknown element, a bad
         * constant): that property alone answers CANNOT_COMPUTE, as one
         * naming an unknown place does; the file's other properties are
         * read. The message was set with the property's id. */
        free(r->bind_error);
        r->bind_error = fml_strdup(r->msg);
        r->failed = false;
        if (r->err != NULL)
            pn_error_clear(r->err);
        if (r->bind_error == NULL)
            return fml_nomem(r, formula_el) != NULL;
    } else if (p->root == NULL) {
        free(r->bind_error);
        return false;
    }
    if (r->bind_error != NULL) {
        pn_fml_free(p->root);
        p->root = NULL;
        p->status = PN_ERR_INPUT;
        p->error = r->bind_error;
    }
    return true;
}

static pn_fml_set *fml_doc(fml_reader *r, xmlDoc *doc)
{
    xmlNode *root = xmlDocGetRootElement(doc);
    uint32_t n;
    if (root == NULL || !fml_is(root, "property-set"))
        return fml_fail(r, PN_ERR_INPUT, root, "the root element is not <property-set>");
    if (!fml_count(r, root, &n))
        return NULL;
    pn_fml_set *set = calloc(1, sizeof *set);
    if (set == NULL || (n > 0 && (set->props = calloc(n, sizeof *set->props)) == NULL)) {
        free(set);
        return fml_nomem(r, root);
    }
    set->net = r->net;
    for (xmlNode *c = fml_elem(r, root->children); c != NULL && !r->failed;
         c = fml_elem(r, c->next)) {
        if (!fml_is(c, "property"))
            fml_fail(r, PN_ERR_INPUT, c, "unknown element <%s> in <property-set>",
                     (const char *)c->name);
        else if (fml_property(r, c, &set->props[set->n]) || set->props[set->n].id != NULL)
            set->n++; /* a half-read property is counted so it is freed */
    }
    if (!r->failed)
        return set;
    pn_fml_set_free(set);
    return NULL;
}

static void fml_xml_error(fml_reader *r, xmlParserCtxt *ctxt)
{
    const xmlError *e = xmlCtxtGetLastError(ctxt);
    char msg[300];
    pn_xml_error_words(e, msg, sizeof msg);
    pn_fail(r->err, PN_ERR_INPUT, "%s:%d: malformed XML: %s", r->label, e != NULL ? e->line : 0,
            msg);
    r->failed = true;
}

pn_status pn_fml_read_memory(const char *buf, size_t len, const char *label,
                             const pn_net *net, pn_fml_set **out, pn_error *err)
{
    fml_reader r = {.label = label != NULL ? label : "<memory>", .net = net, .err = err};
    *out = NULL;
    if (len > INT_MAX)
        return pn_fail(err, PN_ERR_INPUT, "%s: formula file too large", r.label);
    if (pn_xml_guard_memory(buf, len, r.label, err) != PN_OK)
        return err->code;
    xmlParserCtxt *ctxt = xmlNewParserCtxt();
    if (ctxt == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "%s: out of memory", r.label);
    /* NONET: a formula file never needs the network; BIG_LINES: true line
     * numbers past 65535 in messages. */
    xmlDoc *doc = xmlCtxtReadMemory(ctxt, buf, (int)len, r.label, NULL,
                                    XML_PARSE_NONET | XML_PARSE_NOERROR |
                                        XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
    if (doc == NULL)
        fml_xml_error(&r, ctxt);
    else
        *out = fml_doc(&r, doc);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    if (*out != NULL)
        return PN_OK;
    return err != NULL && err->code != PN_OK ? err->code : PN_ERR_INPUT;
}

/* Reads a whole file: fread in a loop also works for pipes. */
static char *fml_slurp(const char *path, size_t *len, pn_error *err)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        pn_fail(err, PN_ERR_IO, "%s: cannot open the formula file", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *nb = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (nb == NULL)
            free(buf);
        buf = nb;
        cap *= 2;
    }
    bool io_error = ferror(f) != 0;
    fclose(f);
    if (buf == NULL)
        pn_fail(err, PN_ERR_NOMEM, "%s: out of memory reading it", path);
    else if (io_error)
        pn_fail(err, PN_ERR_IO, "%s: read error", path);
    if (io_error) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

pn_status pn_fml_read_file(const char *path, const pn_net *net,
                           pn_fml_set **out, pn_error *err)
{
    size_t len = 0;
    *out = NULL;
    char *buf = fml_slurp(path, &len, err);
    if (buf == NULL)
        return err != NULL && err->code != PN_OK ? err->code : PN_ERR_IO;
    pn_status st = pn_fml_read_memory(buf, len, path, net, out, err);
    free(buf);
    return st;
}

void pn_fml_set_free(pn_fml_set *set)
{
    if (set == NULL)
        return;
    for (uint32_t i = 0; i < set->n; i++) {
        free(set->props[i].id);
        pn_fml_free(set->props[i].root);
        free(set->props[i].error);
    }
    free(set->props);
    free(set);
}

pn_fml_set *pn_fml_set_clone(const pn_fml_set *set)
{
    pn_fml_set *s = calloc(1, sizeof *s);
    if (s == NULL || (s->props = calloc((size_t)set->n + 1, sizeof *s->props)) == NULL) {
        free(s);
        return NULL;
    }
    s->net = set->net;
    for (; s->n < set->n; s->n++) {
        const pn_fml_prop *p = &set->props[s->n];
        pn_fml_prop *q = &s->props[s->n];
        q->status = p->status;
        q->id = fml_strdup(p->id);
        q->error = p->error != NULL ? fml_strdup(p->error) : NULL;
        q->root = pn_fml_clone(p->root);
        if (q->id == NULL || (p->error != NULL && q->error == NULL) ||
            (p->root != NULL && q->root == NULL)) {
            s->n++;
            pn_fml_set_free(s);
            return NULL;
        }
    }
    return s;
}
