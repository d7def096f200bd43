/* libxml2's parse errors in words a user of Petrel reads. */
#ifndef PETREL_SYS_XML_ERROR_H
#define PETREL_SYS_XML_ERROR_H

#include <stddef.h>

#include <libxml/xmlerror.h>

/* Writes into buf (n bytes) what went wrong in e, for a message of the form
 * "FILE:LINE: malformed XML: <words>": the common failures of a cut or
 * empty file, or one nested too deep, said in terms of the file (libxml2
 * says "Extra content at the end of the document" for a truncated file
 * read by xmlTextReader, and suggests one of its own parser options when
 * the nesting is too deep); anything else is libxml2's message on one line.
 * Chosen by e's code, never by its text. e may be NULL. */
void pn_xml_error_words(const xmlError *e, char *buf, size_t n);

#endif
