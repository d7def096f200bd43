/* `petrel batch`: many models and examinations in one command, each run a
 * child petrel process with its own time and memory budget, the results
 * as JSON Lines (and CSV), resumable (docs/batch.md). */
#ifndef PETREL_CLI_BATCH_H
#define PETREL_CLI_BATCH_H

/* argv[0] is "batch". Returns the exit code: 0 when every run was
 * recorded (whatever its status), 2 for bad usage, 1 otherwise. */
int cli_batch_main(int argc, char **argv);

#endif
