/* The CLI's side of the MCC properties-verdict XML (petrel/verdict.h):
 * Petrel's answers or generic properties as a verdict document
 * (--verdict-xml), and the model's own GenericPropertiesVerdict.xml read
 * for `petrel properties` and --use-verdicts. */
#ifndef PETREL_CLI_VERDICTS_H
#define PETREL_CLI_VERDICTS_H

#include <stdbool.h>
#include <stdio.h>

#include "petrel/examine.h"
#include "petrel/props.h"
#include "petrel/verdict.h"

/* The answers of one examination (one verdict per formula, the four
 * STATE_SPACE values, or the global property's one), each with its
 * TECHNIQUES and, where the report kept parents (--trace), its trace.
 * Returns 0, or 1 with a message on stderr. */
int cli_verdicts_write_exam(const char *path, const pn_net *net, const pn_report *rep);

/* The generic properties: one GENERIC verdict per property the MCC defines,
 * plus QUASI_LIVE as the QuasiLiveness category's one verdict. */
int cli_verdicts_write_props(const char *path, const pn_net *net, const pn_props *p);

/* The model's GenericPropertiesVerdict.xml in dir; NULL when absent (or
 * unreadable: said on diag when not NULL). */
pn_verdicts *cli_verdicts_read_model(const char *dir, FILE *diag);

/* --use-verdicts: the file's SAFE and CONSERVATIVE verdicts set against
 * what Petrel proves (the structure for CONSERVATIVE, the initial marking
 * and the arc weights for SAFE), each said on diag as consistent,
 * contradicted or unchecked. Nothing Petrel answers depends on them. */
void cli_verdicts_check_hints(const pn_verdicts *file, const pn_cnet *cn, FILE *diag);

#endif
