/* Refuses XML documents that declare entities before libxml2 sees them. */
#ifndef PETREL_IO_XML_GUARD_H
#define PETREL_IO_XML_GUARD_H

#include <stddef.h>

#include "petrel/error.h"

/* PN_OK, or PN_ERR_INPUT naming label when the document's prolog has an
 * internal DTD subset (where entities are declared) or no root element
 * within its first megabyte. An empty or cut prolog is left to the parser. */
pn_status pn_xml_guard_memory(const char *buf, size_t len, const char *label, pn_error *err);
/* The same on the start of the file at path (read with pread on fd). */
pn_status pn_xml_guard_fd(int fd, const char *path, pn_error *err);
/* The same by path; a file that cannot be opened is left to the parser. */
pn_status pn_xml_guard_path(const char *path, pn_error *err);

#endif
