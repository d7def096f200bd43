#include "petrel/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

pn_status pn_fail(pn_error *err, pn_status code, const char *fmt, ...)
{
    if (err == NULL || err->code != PN_OK)
        return code;
    err->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

void pn_error_clear(pn_error *err)
{
    if (err == NULL)
        return;
    err->code = PN_OK;
    err->msg[0] = '\0';
}
