// The command-line tool run as a process by the CLI tests: the shell command
// (a clean BenchKit environment, stdout and stderr to files, no stdin) and a
// run that collects its exit status, output and wall time.
#ifndef PETREL_TEST_CLI_RUN_H
#define PETREL_TEST_CLI_RUN_H

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "test_files.h"

namespace petrel_test {

struct CliRun {
    int code = -1; // exit status; -1: killed by a signal
    std::string out, err;
    double seconds = 0;
};

// env -u BK_... ENV LAUNCHER CLI ARGS REDIRECT 2>ERR </dev/null, where args
// and env are already quoted as needed and redirect is the whole stdout
// redirection (">'file'" or ">&-").
inline std::string cli_command(const std::string &cli, const std::string &args,
                               const std::string &env, const std::string &launcher,
                               const std::string &redirect, const std::string &err_path)
{
    return "env -u BK_EXAMINATION -u BK_TIME_CONFINEMENT -u BK_MEMORY_CONFINEMENT " + env + " " +
           launcher + " " + quote(cli) + " " + args + " " + redirect + " 2>" + quote(err_path) +
           " </dev/null";
}

// Runs cmd through the shell; out_path and err_path are where it wrote.
inline CliRun cli_run(const std::string &cmd, const std::string &out_path,
                      const std::string &err_path)
{
    auto t0 = std::chrono::steady_clock::now();
    int st = system(cmd.c_str());
    CliRun r;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (st != -1 && WIFEXITED(st))
        r.code = WEXITSTATUS(st);
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    return r;
}

} // namespace petrel_test

#endif
