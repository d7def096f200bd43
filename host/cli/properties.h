/* `petrel properties MODEL`: the MCC's generic properties of the model,
 * each printed beside the verdict of its GenericPropertiesVerdict.xml. */
#ifndef PETREL_CLI_PROPERTIES_H
#define PETREL_CLI_PROPERTIES_H

#include "options.h"
#include "petrel/examine.h"

/* dir: the model's folder (the verdict file lives there). Prints one line
 * per property on stdout and writes --verdict-xml. Returns the exit code. */
int cli_properties_run(const cli_options *o, const char *dir, const pn_cnet *cn,
                       const pn_examine_opts *xo, pn_budget *budget);

/* The model could not be read within the budget, or holds what Petrel
 * does not handle: the table with every property unknown. Returns 0. */
int cli_properties_unread(const cli_options *o, const char *dir);

#endif
