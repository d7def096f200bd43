/* libxml2's parse errors in words a user of Petrel reads (see xml_error.h).
 * The codes and their fields are libxml2's (xmlerror.h): a tag left open
 * carries its name in str1 and its line in int1; the nesting limit, an
 * internal error, carries the limit in int1. */
#include "sys/xml_error.h"

#include <stdio.h>
#include <string.h>

/* libxml2's own message on one line: control characters become spaces and
 * the trailing newline goes. */
static void xml_error_own(const xmlError *e, char *buf, size_t n)
{
    snprintf(buf, n, "%s", e->message != NULL ? e->message : "not well-formed XML");
    for (char *p = buf; *p != '\0'; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    size_t len = strlen(buf);
    while (len > 0 && buf[len - 1] == ' ')
        buf[--len] = '\0';
}

void pn_xml_error_words(const xmlError *e, char *buf, size_t n)
{
    if (n == 0)
        return;
    if (e == NULL) {
        snprintf(buf, n, "not well-formed XML");
        return;
    }
    switch (e->code) {
    case XML_ERR_DOCUMENT_EMPTY: snprintf(buf, n, "the file is empty"); return;
    case XML_ERR_DOCUMENT_END:
        snprintf(buf, n, "the file does not end with its root element's end tag: it is "
                         "truncated, or more follows that element");
        return;
    case XML_ERR_TAG_NOT_FINISHED:
        if (e->str1 != NULL) {
            snprintf(buf, n, "the file ends inside <%s> (opened at line %d): it is truncated",
                     e->str1, e->int1);
            return;
        }
        break;
    case XML_ERR_INTERNAL_ERROR:
        if (e->int1 > 0) {
            snprintf(buf, n, "elements nested more than %d deep", e->int1);
            return;
        }
        break;
    default: break;
    }
    xml_error_own(e, buf, n);
}
