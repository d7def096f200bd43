/* The "petrel rers" subcommand (rers.c). */
#ifndef PETREL_CLI_RERS_H
#define PETREL_CLI_RERS_H

/* argv[0] is "rers"; returns the exit status. */
int cli_rers_main(int argc, char **argv);

#endif
