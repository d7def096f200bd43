/* Element and attribute access on the DOM of a symmetric-net document,
 * shared by every coloured file that walks it (and the error messages of
 * hlpn_fail.c); it calls nothing of theirs. */
#include "coloured/hlpn.h"

const char *hl_attr(const xmlNode *e, const char *name)
{
    for (const xmlAttr *a = e->properties; a != NULL; a = a->next) {
        if (xmlStrcmp(a->name, BAD_CAST name) != 0)
            continue;
        if (a->children == NULL)
            return "";
        /* One text node is the normal case; anything else (entity
         * references kept unexpanded) is treated as unreadable. */
        if (a->children->type == XML_TEXT_NODE && a->children->next == NULL)
            return (const char *)a->children->content;
        return NULL;
    }
    return NULL;
}

xmlNode *hl_elem(xmlNode *c)
{
    while (c != NULL && c->type != XML_ELEMENT_NODE)
        c = c->next;
    return c;
}

bool hl_is(const xmlNode *e, const char *name)
{
    return e != NULL && xmlStrcmp(e->name, BAD_CAST name) == 0;
}
