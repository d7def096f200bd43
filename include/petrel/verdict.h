/* The MCC's properties-verdict XML (GenericPropertiesVerdict.xml beside
 * each model: <toolspecific tool="propertiesverdict">, one <verdict> per
 * property or formula): read, to compare Petrel's answers with a model's
 * known verdicts, and written, to hand Petrel's own verdicts (with their
 * techniques and traces) to other tools. The grammar, as far as the MCC's
 * description goes, is tools/mcc/propertiesverdict.rng (docs/verdicts.md). */
#ifndef PETREL_VERDICT_H
#define PETREL_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_verdict_entry {
    char *category;     /* GENERIC, or an examination name (StateSpace, ...) */
    char *reference;    /* property name, formula id or STATE_SPACE key */
    char *value;        /* true / false / unknown, or a value's text */
    char *techniques;   /* space-separated TECHNIQUES keywords; NULL: none */
    char *explanation;  /* NULL: none */
    /* Evidence: the transitions fired from the initial marking; a NULL
     * entry is a deadlock's stuttering step. cycle: entries from this index
     * on repeat forever (an LTL lasso); trace_len when there is no cycle. */
    char **trace;
    uint64_t trace_len, cycle;
} pn_verdict_entry;

typedef struct pn_verdicts {
    char *model;        /* <modelreference modelname="..."> */
    uint32_t n, cap;
    pn_verdict_entry *v;
} pn_verdicts;

/* NULL when out of memory. */
pn_verdicts *pn_verdicts_new(const char *model);
void pn_verdicts_free(pn_verdicts *v);

/* Appends a verdict (strings copied; techniques and explanation may be
 * NULL). Returns its index, or -1 when out of memory. */
int64_t pn_verdicts_add(pn_verdicts *v, const char *category, const char *reference,
                        const char *value, const char *techniques, const char *explanation);
/* Gives verdict i its evidence (ids copied; NULL entries stay NULL);
 * cycle as in pn_verdict_entry. False when out of memory. */
bool pn_verdicts_set_trace(pn_verdicts *v, uint32_t i, const char *const *ids, uint64_t n,
                           uint64_t cycle);
/* The value of (category, reference), or NULL when the file has none. */
const char *pn_verdicts_value(const pn_verdicts *v, const char *category, const char *reference);

/* Reads a verdict file: PN_ERR_IO when it cannot be read, PN_ERR_INPUT
 * (naming file, line and element) when it is not a propertiesverdict
 * document or a verdict lacks category, reference or value. */
pn_status pn_verdicts_read(const char *path, pn_verdicts **out, pn_error *err);

/* Who stated the verdicts: <statedby tool version date>. */
typedef struct pn_verdict_tool {
    const char *tool, *version;
    const char *date;   /* ISO 8601; NULL: none */
} pn_verdict_tool;

/* Writes the verdicts as a propertiesverdict document to path (through a
 * temporary file renamed at the end, so path is never left half-written). */
pn_status pn_verdicts_write_file(const char *path, const pn_verdicts *v,
                                 const pn_verdict_tool *by, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
