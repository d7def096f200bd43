/* The "petrel mcmt" subcommand (mcmt_cli.c). */
#ifndef PETREL_CLI_MCMT_H
#define PETREL_CLI_MCMT_H

/* argv[0] is "mcmt"; returns the exit status. */
int cli_mcmt_main(int argc, char **argv);

#endif
