// Small text helpers shared by the tests that read ../shared/mcc files
// (INDEX.tsv rows, oracle values, test names built from instance names).
#ifndef PETREL_TEST_TEXT_H
#define PETREL_TEST_TEXT_H

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace petrel_test {

// Under CI (CI=true) the MCC oracle data must be there: a missing
// ../shared/mcc fails the oracle tests instead of skipping them, so that a
// broken checkout cannot pass by running nothing.
inline bool ci_requires_data()
{
    const char *ci = std::getenv("CI");
    return ci != nullptr && std::string(ci) == "true";
}

// One INDEX.tsv row split on tabs; a trailing tab gives a trailing empty cell.
inline std::vector<std::string> split_tabs(const std::string &line)
{
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, '\t'))
        out.push_back(cell);
    if (!line.empty() && line.back() == '\t')
        out.push_back("");
    return out;
}

// Strict decimal: digits only, within 64 bits.
inline bool parse_u64(const std::string &s, uint64_t *out)
{
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        return false;
    errno = 0;
    char *end = nullptr;
    unsigned long long v = strtoull(s.c_str(), &end, 10);
    if (errno != 0 || *end != '\0')
        return false;
    *out = v;
    return true;
}

// A gtest-safe name: [A-Za-z0-9_] only.
inline std::string sanitize(const std::string &s)
{
    std::string out;
    for (char c : s)
        out += (isalnum((unsigned char)c) ? c : '_');
    return out.empty() ? "_" : out;
}

} // namespace petrel_test

#endif
