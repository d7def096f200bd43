/* The MCC property language (the grammar formula_read.c reads) written
 * back: one <property-set> with the properties of a set, for the formulas
 * of a reduced net (--write-reduced). Place and transition names are the
 * net's ids. A temporal operator right under A or E is written inside
 * <all-paths>/<exists-path>; nested ones without a quantifier (LTL) as
 * they are: the reader takes both back to the same tree. */
#include "petrel/formula.h"

#include <errno.h>
#include <string.h>

#include "io/xml_text.h"

static const char *fw_tag(pn_fml_kind k)
{
    switch (k) {
    case PN_FML_NOT: return "negation";
    case PN_FML_AND: return "conjunction";
    case PN_FML_OR: return "disjunction";
    case PN_FML_A: return "all-paths";
    case PN_FML_E: return "exists-path";
    case PN_FML_X: return "next";
    case PN_FML_F: return "finally";
    case PN_FML_G: return "globally";
    case PN_FML_INT_LE: return "integer-le";
    case PN_FML_TOKENS: return "tokens-count";
    case PN_FML_PLACE_BOUND: return "place-bound";
    case PN_FML_FIREABLE: return "is-fireable";
    default: return NULL;
    }
}

static bool fw_node(FILE *f, const pn_fml_node *n, const pn_net *net)
{
    switch (n->kind) {
    case PN_FML_TRUE: fputs("<true/>", f); return true;
    case PN_FML_FALSE: fputs("<false/>", f); return true;
    case PN_FML_DEADLOCK: fputs("<deadlock/>", f); return true;
    case PN_FML_CONST:
        fprintf(f, "<integer-constant>%llu</integer-constant>", (unsigned long long)n->value);
        return true;
    case PN_FML_U:
        fputs("<until><before>", f);
        if (!fw_node(f, n->kids[0], net))
            return false;
        fputs("</before><reach>", f);
        if (!fw_node(f, n->kids[1], net))
            return false;
        fputs("</reach></until>", f);
        return true;
    case PN_FML_TOKENS:
    case PN_FML_PLACE_BOUND:
    case PN_FML_FIREABLE: {
        bool places = n->kind != PN_FML_FIREABLE;
        fprintf(f, "<%s>", fw_tag(n->kind));
        for (uint32_t i = 0; i < n->n; i++) {
            fputs(places ? "<place>" : "<transition>", f);
            pn_xml_text(f, places ? net->place_id[n->idx[i]] : net->trans_id[n->idx[i]]);
            fputs(places ? "</place>" : "</transition>", f);
        }
        fprintf(f, "</%s>", fw_tag(n->kind));
        return true;
    }
    default: {
        const char *tag = fw_tag(n->kind);
        if (tag == NULL) /* PN_FML_ACTION: no MCC element */
            return false;
        fprintf(f, "<%s>", tag);
        for (uint32_t i = 0; i < n->n; i++)
            if (!fw_node(f, n->kids[i], net))
                return false;
        fprintf(f, "</%s>", tag);
        return true;
    }
    }
}

pn_status pn_fml_write_file(const char *path, const pn_fml_set *set, const pn_net *net,
                            pn_error *err)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return pn_fail(err, PN_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<property-set xmlns=\"http://mcc.lip6.fr/\">\n", f);
    bool ok = true;
    for (uint32_t i = 0; i < set->n && ok; i++) {
        const pn_fml_prop *p = &set->props[i];
        if (p->status != PN_OK || p->root == NULL)
            continue; /* nothing to write: it did not bind */
        fputs("  <property>\n    <id>", f);
        pn_xml_text(f, p->id);
        fputs("</id>\n    <description>written by petrel</description>\n    <formula>", f);
        ok = fw_node(f, p->root, net);
        fputs("</formula>\n  </property>\n", f);
    }
    fputs("</property-set>\n", f);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        return pn_fail(err, PN_ERR_IO, "%s: write failed", path);
    if (!ok)
        return pn_fail(err, PN_ERR_UNSUPPORTED,
                       "%s: an action formula has no MCC form", path);
    return PN_OK;
}
