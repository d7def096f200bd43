/* The MCC properties-verdict XML (verdict.h), after L. M. Hillah, "Generic
 * precomputed properties verdicts" (MCC tool submission kit, 2018): a small
 * in-memory list, read with libxml2's tree parser (the files are a few
 * kilobytes) and written with its text writer, which escapes every name and
 * value. */
#include "petrel/verdict.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/xml_error.h"
#include "sys/xml_guard.h"

pn_verdicts *pn_verdicts_new(const char *model)
{
    pn_verdicts *v = calloc(1, sizeof *v);
    if (v != NULL && (v->model = strdup(model != NULL ? model : "")) == NULL) {
        free(v);
        return NULL;
    }
    return v;
}

static void verdict_entry_free(pn_verdict_entry *e)
{
    free(e->category);
    free(e->reference);
    free(e->value);
    free(e->techniques);
    free(e->explanation);
    for (uint64_t k = 0; e->trace != NULL && k < e->trace_len; k++)
        free(e->trace[k]);
    free(e->trace);
}

void pn_verdicts_free(pn_verdicts *v)
{
    if (v == NULL)
        return;
    for (uint32_t i = 0; i < v->n; i++)
        verdict_entry_free(&v->v[i]);
    free(v->v);
    free(v->model);
    free(v);
}

static char *verdict_dup(const char *s)
{
    return s != NULL ? strdup(s) : NULL;
}

int64_t pn_verdicts_add(pn_verdicts *v, const char *category, const char *reference,
                        const char *value, const char *techniques, const char *explanation)
{
    if (v->n == v->cap) {
        uint32_t cap = v->cap ? 2 * v->cap : 32;
        pn_verdict_entry *grown = realloc(v->v, (size_t)cap * sizeof *grown);
        if (grown == NULL)
            return -1;
        v->v = grown;
        v->cap = cap;
    }
    pn_verdict_entry e = {.category = verdict_dup(category), .reference = verdict_dup(reference),
                          .value = verdict_dup(value), .techniques = verdict_dup(techniques),
                          .explanation = verdict_dup(explanation)};
    if (e.category == NULL || e.reference == NULL || e.value == NULL ||
        (techniques != NULL && e.techniques == NULL) ||
        (explanation != NULL && e.explanation == NULL)) {
        verdict_entry_free(&e);
        return -1;
    }
    v->v[v->n] = e;
    return v->n++;
}

bool pn_verdicts_set_trace(pn_verdicts *v, uint32_t i, const char *const *ids, uint64_t n,
                           uint64_t cycle)
{
    pn_verdict_entry *e = &v->v[i];
    char **trace = calloc(n + 1, sizeof *trace);
    if (trace == NULL)
        return false;
    for (uint64_t k = 0; k < n; k++)
        if (ids[k] != NULL && (trace[k] = strdup(ids[k])) == NULL) {
            for (uint64_t j = 0; j < k; j++)
                free(trace[j]);
            free(trace);
            return false;
        }
    for (uint64_t k = 0; e->trace != NULL && k < e->trace_len; k++)
        free(e->trace[k]);
    free(e->trace);
    e->trace = trace;
    e->trace_len = n;
    e->cycle = cycle < n ? cycle : n;
    return true;
}

const char *pn_verdicts_value(const pn_verdicts *v, const char *category, const char *reference)
{
    for (uint32_t i = 0; i < v->n; i++)
        if (strcmp(v->v[i].category, category) == 0 && strcmp(v->v[i].reference, reference) == 0)
            return v->v[i].value;
    return NULL;
}

/* ---- reading ------------------------------------------------------------- */

static bool verdict_is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static char *verdict_attr(const xmlNode *n, const char *name)
{
    xmlChar *a = xmlGetProp(n, (const xmlChar *)name);
    char *s = a != NULL ? strdup((const char *)a) : NULL;
    xmlFree(a);
    return s;
}

static pn_status verdict_read_one(const char *path, const xmlNode *n, pn_verdicts *v,
                                  pn_error *err)
{
    char *cat = verdict_attr(n, "category"), *ref = verdict_attr(n, "reference");
    char *val = verdict_attr(n, "value");
    pn_status st = PN_OK;
    if (cat == NULL || ref == NULL || val == NULL)
        st = pn_fail(err, PN_ERR_INPUT, "%s:%ld: <verdict>: missing %s attribute", path,
                     (long)xmlGetLineNo(n),
                     cat == NULL ? "category" : ref == NULL ? "reference" : "value");
    else if (pn_verdicts_add(v, cat, ref, val, NULL, NULL) < 0)
        st = pn_fail(err, PN_ERR_NOMEM, "%s: out of memory", path);
    free(cat);
    free(ref);
    free(val);
    return st;
}

static pn_status verdict_read_doc(const char *path, const xmlNode *root, pn_verdicts **out,
                                  pn_error *err)
{
    char *tool = root != NULL ? verdict_attr(root, "tool") : NULL;
    bool ok = root != NULL && verdict_is(root, "toolspecific") && tool != NULL &&
              strcmp(tool, "propertiesverdict") == 0;
    free(tool);
    if (!ok)
        return pn_fail(err, PN_ERR_INPUT,
                       "%s:%ld: not a properties-verdict document (expected "
                       "<toolspecific tool=\"propertiesverdict\">)",
                       path, root != NULL ? (long)xmlGetLineNo(root) : 0L);
    char *model = NULL;
    for (const xmlNode *c = root->children; c != NULL && model == NULL; c = c->next)
        if (verdict_is(c, "modelreference"))
            model = verdict_attr(c, "modelname");
    pn_verdicts *v = pn_verdicts_new(model);
    free(model);
    if (v == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "%s: out of memory", path);
    pn_status st = PN_OK;
    for (const xmlNode *c = root->children; c != NULL && st == PN_OK; c = c->next)
        if (verdict_is(c, "verdict"))
            st = verdict_read_one(path, c, v, err);
    if (st != PN_OK) {
        pn_verdicts_free(v);
        return st;
    }
    *out = v;
    return PN_OK;
}

pn_status pn_verdicts_read(const char *path, pn_verdicts **out, pn_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return pn_fail(err, PN_ERR_IO, "%s: cannot open", path);
    fclose(f);
    if (pn_xml_guard_path(path, err) != PN_OK)
        return err->code;
    xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS |
                                              XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (doc == NULL) {
        const xmlError *e = xmlGetLastError();
        char msg[300];
        pn_xml_error_words(e, msg, sizeof msg);
        return pn_fail(err, PN_ERR_INPUT, "%s:%d: malformed XML: %s", path,
                       e != NULL ? e->line : 0, msg);
    }
    pn_status st = verdict_read_doc(path, xmlDocGetRootElement(doc), out, err);
    xmlFreeDoc(doc);
    return st;
}

/* ---- writing ------------------------------------------------------------- */

#define W(call)                                                                             \
    do {                                                                                    \
        if ((call) < 0)                                                                     \
            return false;                                                                   \
    } while (0)

static bool verdict_write_steps(xmlTextWriterPtr w, const pn_verdict_entry *e, uint64_t from,
                                uint64_t to)
{
    for (uint64_t k = from; k < to; k++) {
        if (e->trace[k] == NULL) {
            W(xmlTextWriterStartElement(w, BAD_CAST "deadlock"));
        } else {
            W(xmlTextWriterStartElement(w, BAD_CAST "fire"));
            W(xmlTextWriterWriteAttribute(w, BAD_CAST "transition", BAD_CAST e->trace[k]));
        }
        W(xmlTextWriterEndElement(w));
    }
    return true;
}

/* <trace><fire transition="t"/>... <cycle>...</cycle></trace>: the steps
 * from the initial marking, then (an LTL lasso) the ones that repeat. */
static bool verdict_write_trace(xmlTextWriterPtr w, const pn_verdict_entry *e)
{
    W(xmlTextWriterStartElement(w, BAD_CAST "trace"));
    if (!verdict_write_steps(w, e, 0, e->cycle))
        return false;
    if (e->cycle < e->trace_len) {
        W(xmlTextWriterStartElement(w, BAD_CAST "cycle"));
        if (!verdict_write_steps(w, e, e->cycle, e->trace_len))
            return false;
        W(xmlTextWriterEndElement(w));
    }
    W(xmlTextWriterEndElement(w));
    return true;
}

static bool verdict_write_techniques(xmlTextWriterPtr w, const char *techniques)
{
    const char *s = techniques;
    while (s != NULL && *s != '\0') {
        size_t len = strcspn(s, " ");
        if (len > 0) {
            W(xmlTextWriterStartElement(w, BAD_CAST "technique"));
            W(xmlTextWriterWriteFormatString(w, "%.*s", (int)len, s));
            W(xmlTextWriterEndElement(w));
        }
        s += len;
        s += strspn(s, " ");
    }
    return true;
}

static bool verdict_write_one(xmlTextWriterPtr w, const pn_verdict_entry *e,
                              const pn_verdict_tool *by)
{
    W(xmlTextWriterStartElement(w, BAD_CAST "verdict"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "category", BAD_CAST e->category));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "reference", BAD_CAST e->reference));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "value", BAD_CAST e->value));
    if (e->explanation != NULL)
        W(xmlTextWriterWriteElement(w, BAD_CAST "explanation", BAD_CAST e->explanation));
    W(xmlTextWriterStartElement(w, BAD_CAST "statedby"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "tool", BAD_CAST by->tool));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "version", BAD_CAST by->version));
    if (by->date != NULL)
        W(xmlTextWriterWriteAttribute(w, BAD_CAST "date", BAD_CAST by->date));
    if (!verdict_write_techniques(w, e->techniques))
        return false;
    W(xmlTextWriterEndElement(w));
    if (e->trace != NULL && !verdict_write_trace(w, e))
        return false;
    W(xmlTextWriterEndElement(w));
    return true;
}

static bool verdict_write_doc(xmlTextWriterPtr w, const pn_verdicts *v, const pn_verdict_tool *by)
{
    W(xmlTextWriterSetIndent(w, 1));
    W(xmlTextWriterSetIndentString(w, BAD_CAST "  "));
    W(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL));
    W(xmlTextWriterStartElement(w, BAD_CAST "toolspecific"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "tool", BAD_CAST "propertiesverdict"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "version", BAD_CAST "2.0"));
    W(xmlTextWriterStartElement(w, BAD_CAST "modelreference"));
    W(xmlTextWriterWriteAttribute(w, BAD_CAST "modelname", BAD_CAST v->model));
    W(xmlTextWriterEndElement(w));
    for (uint32_t i = 0; i < v->n; i++)
        if (!verdict_write_one(w, &v->v[i], by))
            return false;
    W(xmlTextWriterEndDocument(w));
    return true;
}

#undef W

pn_status pn_verdicts_write_file(const char *path, const pn_verdicts *v,
                                 const pn_verdict_tool *by, pn_error *err)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (tmp == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    snprintf(tmp, n, "%s.tmp", path);
    xmlTextWriterPtr w = xmlNewTextWriterFilename(tmp, 0);
    bool ok = w != NULL && verdict_write_doc(w, v, by);
    if (w != NULL)
        xmlFreeTextWriter(w); /* flushes and closes the file */
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok)
        remove(tmp);
    free(tmp);
    return ok ? PN_OK : pn_fail(err, PN_ERR_IO, "%s: cannot write the verdict file", path);
}
