/* Compiling a state formula tree (formula.h) to the flat program that the
 * engines evaluate (kernels/pn_sformula.h). */
#ifndef PETREL_SFORMULA_H
#define PETREL_SFORMULA_H

#include "petrel/error.h"
#include "petrel/formula.h"
#include "pn_sformula.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_sformula_owned {
    pn_sformula f;      /* views into the arrays below */
    pn_sf_instr *code;
    uint32_t *list;
} pn_sformula_owned;

/* phi must be a state formula (pn_fml_is_state). */
pn_status pn_sformula_compile(const pn_fml_node *phi, pn_sformula_owned **out, pn_error *err);
void pn_sformula_free(pn_sformula_owned *sf);

#ifdef __cplusplus
}
#endif
#endif
