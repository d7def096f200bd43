/* Paths for the CLI's files: one place that joins a folder and a name. */
#ifndef PETREL_CLI_PATH_H
#define PETREL_CLI_PATH_H

/* "dir/name", malloc'd; NULL when out of memory. */
char *cli_path_join(const char *dir, const char *name);

#endif
