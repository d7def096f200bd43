/* XML text and attribute values as the writers (pnml_write.c,
 * formula_write.c) print them: the five predefined entities escaped. */
#ifndef PETREL_IO_XML_TEXT_H
#define PETREL_IO_XML_TEXT_H

#include <stdio.h>

void pn_xml_text(FILE *f, const char *s);

#endif
