/* PNML writer for P/T nets (the reduced net of --write-reduced): the
 * PNML 2009 P/T grammar the MCC uses and pnml_read.c reads, one page, ids
 * and names XML-escaped. */
#include "petrel/pnml.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/xml_text.h"

static void pnml_node(FILE *f, const char *tag, const char *id, const char *name)
{
    fprintf(f, "      <%s id=\"", tag);
    pn_xml_text(f, id);
    fputs("\"><name><text>", f);
    pn_xml_text(f, name != NULL ? name : id);
    fputs("</text></name>", f);
}

static void pnml_body(FILE *f, const pn_net *net)
{
    for (uint32_t p = 0; p < net->n_places; p++) {
        pnml_node(f, "place", net->place_id[p], net->place_name[p]);
        if (net->m0[p] > 0)
            fprintf(f, "<initialMarking><text>%llu</text></initialMarking>",
                    (unsigned long long)net->m0[p]);
        fputs("</place>\n", f);
    }
    for (uint32_t t = 0; t < net->n_transitions; t++) {
        pnml_node(f, "transition", net->trans_id[t], net->trans_name[t]);
        fputs("</transition>\n", f);
    }
    for (uint32_t a = 0; a < net->n_arcs; a++) {
        const pn_arc *arc = &net->arcs[a];
        const char *p = net->place_id[arc->place], *t = net->trans_id[arc->transition];
        fprintf(f, "      <arc id=\"petrel-arc-%u\" source=\"", a);
        pn_xml_text(f, arc->to_transition ? p : t);
        fputs("\" target=\"", f);
        pn_xml_text(f, arc->to_transition ? t : p);
        fprintf(f, "\"><inscription><text>%llu</text></inscription></arc>\n",
                (unsigned long long)arc->weight);
    }
}

pn_status pn_pnml_write_file(const char *path, const pn_net *net, pn_error *err)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return pn_fail(err, PN_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">\n  <net id=\"", f);
    pn_xml_text(f, net->id != NULL ? net->id : "net");
    fputs("\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\">\n"
          "    <page id=\"page0\">\n", f);
    pnml_body(f, net);
    fputs("    </page>\n  </net>\n</pnml>\n", f);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad)
        return pn_fail(err, PN_ERR_IO, "%s: write failed", path);
    return PN_OK;
}
