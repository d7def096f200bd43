/* Error reporting shared by every Petrel module: return codes plus a message
 * that names the file, line or element at fault. The library never exits. */
#ifndef PETREL_ERROR_H
#define PETREL_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pn_status {
    PN_OK = 0,
    PN_ERR_INPUT = 2,    /* malformed model or formula file: CLI exit code 2 */
    PN_ERR_NOMEM = 3,    /* an allocation failed */
    PN_ERR_IO = 4,       /* a file could not be opened or read */
    PN_ERR_UNSUPPORTED = 5, /* valid input that Petrel does not handle yet */
    PN_ERR_INTERNAL = 6,
    PN_ERR_TIMEOUT = 7,     /* the budget's deadline passed (budget.h) */
    PN_ERR_CANCELLED = 8,   /* the budget's cancel flag was set (a signal) */
    PN_ERR_OUT_OF_MEMORY = 9 /* the budget's memory account is spent */
} pn_status;

typedef struct pn_error {
    pn_status code;
    char msg[512];
} pn_error;

/* Records the first error only: later calls keep the original message so the
 * root cause is what the user sees. Returns code for `return pn_fail(...)`. */
pn_status pn_fail(pn_error *err, pn_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

void pn_error_clear(pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
