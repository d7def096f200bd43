// File and shell helpers for the tests that run the petrel binary or read
// files it wrote (test_cli.cpp, test_batch.cpp, test_props.cpp,
// test_topology.cpp): one copy.
#ifndef PETREL_TEST_FILES_H
#define PETREL_TEST_FILES_H

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>

namespace petrel_test {

inline bool exists(const std::string &path)
{
    struct stat sb;
    return stat(path.c_str(), &sb) == 0;
}

// A single-quoted shell word.
inline std::string quote(const std::string &s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The whole file ("" when it cannot be read).
inline std::string slurp(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// What a shell command writes on stdout ("" when it cannot be started).
inline std::string run_capture(const std::string &cmd)
{
    std::string out;
    FILE *p = popen(cmd.c_str(), "r");
    if (p == nullptr)
        return out;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
        out.append(buf, n);
    pclose(p);
    return out;
}

} // namespace petrel_test

#endif
