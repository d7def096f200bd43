/* The coloured-net entry points: the document parsed into a DOM, read into
 * a model (hlpn_read.c), unfolded into a P/T net (unfold.c) or made its
 * colour-blind skeleton (skeleton.c). Its own file
 * so that the reader and the unfolder never call each other: this file
 * calls both, in that order. */
#include "coloured/hlpn.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <libxml/parser.h>

#include "sys/xml_error.h"
#include "sys/xml_guard.h"
#include "petrel/budget.h"

/* Same options as the streaming reader (pnml_read.c): no network, no
 * external entities, big documents, true line numbers; errors come back
 * through the context, never printed. */
#define HL_XML_OPTIONS (XML_PARSE_NONET | XML_PARSE_HUGE | XML_PARSE_BIG_LINES | \
                        XML_PARSE_NOERROR | XML_PARSE_NOWARNING)

/* An empty model over the document's strings; false when out of memory. */
static bool hl_model_init(hl_model *m, const char *label, const pn_budget *budget, bool wide,
                          pn_error *err)
{
    memset(m, 0, sizeof *m);
    m->label = label;
    m->err = err;
    m->budget = budget;
    m->wide = wide;
    /* A watched memory and a deadline bound the unfolding; else the fixed
     * bounds of hlpn.h do. */
    bool watched = pn_budget_memory(budget) != 0 && budget->deadline > 0;
    m->limits = watched ? (hl_limits){HL_MAX_PLACES, HL_MAX_TRANSITIONS, HL_MAX_ARCS,
                                      HL_MAX_BAG, true}
                        : (hl_limits){HL_UNWATCHED_PLACES, HL_UNWATCHED_TRANSITIONS,
                                      HL_UNWATCHED_ARCS, HL_UNWATCHED_BAG, false};
    m->sort_index = pn_strmap_new();
    m->const_index = pn_strmap_new();
    m->var_index = pn_strmap_new();
    m->node_index = pn_strmap_new();
    return m->sort_index && m->const_index && m->var_index && m->node_index;
}

static pn_status hl_read_doc(xmlDoc *doc, const char *label, const pn_budget *budget,
                             hl_shape shape, pn_net **out, pn_error *err)
{
    hl_model m;
    bool ok = hl_model_init(&m, label, budget, shape == HL_SHAPE_SKELETON, err);
    xmlNode *net = NULL;
    pn_status st = ok ? hl_find_net(&m, doc, &net) : hl_nomem(&m);
    if (st == PN_OK)
        st = hl_read_net(&m, net);
    const char *id = st == PN_OK ? hl_attr(net, "id") : NULL;
    if (st == PN_OK && shape == HL_SHAPE_SKELETON)
        st = hl_skeleton(&m, id != NULL ? id : "", out);
    else if (st == PN_OK && (st = hl_classes_build(&m, shape == HL_SHAPE_MERGED)) == PN_OK)
        st = hl_unfold(&m, id != NULL ? id : "", out);
    hl_model_free(&m);
    return st;
}

/* The parser's failure (sys/xml_error.h), as a PN_ERR_INPUT (PN_ERR_IO
 * when the file could not be read). */
static pn_status hl_xml_error(xmlParserCtxt *ctxt, const char *label, pn_error *err)
{
    const xmlError *e = xmlCtxtGetLastError(ctxt);
    char msg[300];
    pn_xml_error_words(e, msg, sizeof msg);
    pn_status code = e != NULL && e->domain == XML_FROM_IO ? PN_ERR_IO : PN_ERR_INPUT;
    return pn_fail(err, code, "%s:%d: malformed XML: %s", label, e != NULL ? e->line : 0, msg);
}

/* Takes the parsed document (or the parse failure) to a net. */
static pn_status hl_finish(xmlParserCtxt *ctxt, xmlDoc *doc, const char *label,
                           const pn_budget *budget, hl_shape shape, double t0, pn_net **out,
                           pn_error *err)
{
    /* Parsing the document cannot be interrupted: its time is checked once
     * it is in, before the unfolding starts. */
    pn_status st = doc == NULL ? hl_xml_error(ctxt, label, err)
                   : pn_budget_status(budget) != PN_OK
                       ? pn_budget_fail(budget, err, label)
                       : hl_read_doc(doc, label, budget, shape, out, err);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    if (st != PN_OK) {
        pn_net_free(*out);
        *out = NULL;
        return st;
    }
    (*out)->unfold.seconds = pn_clock_now() - t0;
    return PN_OK;
}

/* Parses the file path, or buf (path NULL) named label: the document (NULL
 * on a parse failure, which the context *ctxt holds); an error before any
 * parsing (a model too big or refused by the guard, no memory). */
static pn_status hl_parse(const char *path, const char *buf, size_t len, const char *label,
                          xmlParserCtxt **ctxt, xmlDoc **doc, pn_error *err)
{
    *ctxt = NULL;
    *doc = NULL;
    if (path == NULL && len > INT_MAX)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "%s: in-memory model larger than 2 GiB",
                       label);
    if ((path != NULL ? pn_xml_guard_path(path, err) : pn_xml_guard_memory(buf, len, label, err)) !=
        PN_OK)
        return err->code;
    *ctxt = xmlNewParserCtxt();
    if (*ctxt == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "%s: out of memory", label);
    *doc = path != NULL ? xmlCtxtReadFile(*ctxt, path, NULL, HL_XML_OPTIONS)
                        : xmlCtxtReadMemory(*ctxt, buf, (int)len, label, NULL, HL_XML_OPTIONS);
    return PN_OK;
}

pn_status pn_hlpn_read_memory(const char *buf, size_t len, const char *label,
                              const pn_budget *budget, hl_shape shape, pn_net **out,
                              pn_error *err)
{
    *out = NULL;
    double t0 = pn_clock_now();
    xmlParserCtxt *ctxt;
    xmlDoc *doc;
    if (hl_parse(NULL, buf, len, label, &ctxt, &doc, err) != PN_OK)
        return err->code;
    return hl_finish(ctxt, doc, label, budget, shape, t0, out, err);
}

pn_status pn_hlpn_read_file(const char *path, const pn_budget *budget, hl_shape shape,
                            pn_net **out, pn_error *err)
{
    *out = NULL;
    double t0 = pn_clock_now();
    xmlParserCtxt *ctxt;
    xmlDoc *doc;
    if (hl_parse(path, NULL, 0, path, &ctxt, &doc, err) != PN_OK)
        return err->code;
    return hl_finish(ctxt, doc, path, budget, shape, t0, out, err);
}

/* The model of a parsed document (or the parse failure); the document is
 * kept in *doc on success, freed on failure. */
static pn_status hl_model_of(xmlParserCtxt *ctxt, xmlDoc *doc, const char *label,
                             const pn_budget *budget, hl_model *m, xmlDoc **out, pn_error *err)
{
    pn_status st = doc == NULL ? hl_xml_error(ctxt, label, err) : PN_OK;
    xmlFreeParserCtxt(ctxt);
    xmlNode *net = NULL;
    if (st == PN_OK)
        st = hl_model_init(m, label, budget, true, err) ? hl_find_net(m, doc, &net)
                                                        : hl_nomem(m);
    if (st == PN_OK)
        st = hl_read_net(m, net);
    if (st != PN_OK) {
        hl_model_free(m);
        memset(m, 0, sizeof *m);
        xmlFreeDoc(doc);
        doc = NULL;
    }
    *out = doc;
    return st;
}

pn_status hl_model_open(const char *path, const pn_budget *budget, hl_model *m, xmlDoc **doc,
                        pn_error *err)
{
    memset(m, 0, sizeof *m);
    xmlParserCtxt *ctxt;
    xmlDoc *d;
    if (hl_parse(path, NULL, 0, path, &ctxt, &d, err) != PN_OK) {
        *doc = NULL;
        return err->code;
    }
    return hl_model_of(ctxt, d, path, budget, m, doc, err);
}

pn_status hl_model_open_memory(const char *buf, size_t len, const char *label,
                               const pn_budget *budget, hl_model *m, xmlDoc **doc,
                               pn_error *err)
{
    memset(m, 0, sizeof *m);
    xmlParserCtxt *ctxt;
    xmlDoc *d;
    if (hl_parse(NULL, buf, len, label, &ctxt, &d, err) != PN_OK) {
        *doc = NULL;
        return err->code;
    }
    return hl_model_of(ctxt, d, label, budget, m, doc, err);
}
