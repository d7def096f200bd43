// Replays the saved fuzzing inputs (tests/fuzz/regressions/<target>/*) through
// the fuzz targets' own entry points, which are included here (compiled as
// C++, without their LLVMFuzzerTestOneInput). One test per file, so a crash
// names its input; errors from the readers are fine, crashes, sanitizer
// reports and broken contracts are not. Also runs models/*/model.pnml through
// the PNML entry point, and models/mcmt/*.in through the MCMT one, so that
// their success paths are always exercised.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

// A broken contract throws (instead of the fuzzer's abort) and the test
// reports it.
#define PETREL_FUZZ_NO_ENTRY 1
#define PETREL_FUZZ_FAIL(what) throw std::runtime_error(std::string("contract broken: ") + (what))
#include "fuzz/fuzz_formula.c"
#include "fuzz/fuzz_mcmt.c"
#include "fuzz/fuzz_pnml.c"
#include "fuzz/fuzz_rers.c"

namespace {

namespace fs = std::filesystem;

struct Input {
    std::string target; // "pnml", "formula", "rers" or "mcmt"
    std::string path;
    std::string name;   // for the test name
};

// What ctest shows after the test name: the file, relative to the checkout.
void PrintTo(const Input &in, std::ostream *os)
{
    const std::string src = std::string(PETREL_SOURCE_DIR) + "/";
    *os << (in.path.rfind(src, 0) == 0 ? in.path.substr(src.size()) : in.path);
}

std::string TestName(const std::string &target, const fs::path &p)
{
    std::string s = target + "_" + p.filename().string();
    for (char &c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return s;
}

std::vector<Input> ListInputs()
{
    std::vector<Input> out;
    const fs::path root = fs::path(PETREL_SOURCE_DIR) / "tests" / "fuzz" / "regressions";
    for (const char *target : {"pnml", "formula", "rers", "mcmt"}) {
        std::error_code ec;
        for (const auto &e : fs::directory_iterator(root / target, ec)) {
            if (!e.is_regular_file() || e.path().filename().string().rfind("README", 0) == 0)
                continue;
            out.push_back({target, e.path().string(), TestName(target, e.path())});
        }
    }
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(fs::path(PETREL_SOURCE_DIR) / "models", ec)) {
        fs::path p = e.path() / "model.pnml";
        if (fs::is_regular_file(p))
            out.push_back({"pnml", p.string(), TestName("model", e.path())});
    }
    const fs::path mcmt = fs::path(PETREL_SOURCE_DIR) / "models" / "mcmt";
    for (const auto &e : fs::directory_iterator(mcmt, ec))
        if (e.is_regular_file() && e.path().extension() == ".in")
            out.push_back({"mcmt", e.path().string(), TestName("model_mcmt", e.path())});
    std::sort(out.begin(), out.end(),
              [](const Input &a, const Input &b) { return a.name < b.name; });
    // Two files whose names only differ in punctuation: keep names unique.
    for (size_t i = 1; i < out.size(); i++)
        if (out[i].name == out[i - 1].name)
            out[i].name += "_" + std::to_string(i);
    return out;
}

const std::vector<Input> kInputs = ListInputs();

class FuzzRegressions : public ::testing::TestWithParam<Input> {};

TEST_P(FuzzRegressions, Replays)
{
    const Input &in = GetParam();
    std::ifstream f(in.path, std::ios::binary);
    ASSERT_TRUE(f.good()) << "cannot read " << in.path;
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                               std::istreambuf_iterator<char>());
    // libFuzzer hands over exactly these bytes, not NUL-terminated: a copy
    // of the same size (ASan then catches reads past the end).
    uint8_t *buf = static_cast<uint8_t *>(std::malloc(bytes.empty() ? 1 : bytes.size()));
    ASSERT_NE(buf, nullptr);
    std::copy(bytes.begin(), bytes.end(), buf);
    try {
        if (in.target == "pnml")
            EXPECT_EQ(petrel_fuzz_pnml(buf, bytes.size()), 0);
        else if (in.target == "rers")
            EXPECT_EQ(petrel_fuzz_rers(buf, bytes.size()), 0);
        else if (in.target == "mcmt")
            EXPECT_EQ(petrel_fuzz_mcmt(buf, bytes.size()), 0);
        else
            EXPECT_EQ(petrel_fuzz_formula(buf, bytes.size()), 0);
    } catch (const std::exception &e) {
        ADD_FAILURE() << in.path << ": " << e.what();
    }
    std::free(buf);
}

TEST(FuzzRegressionsSetup, InputsFound)
{
    // The folders ship with inputs; none found means a wrong path.
    EXPECT_TRUE(std::any_of(kInputs.begin(), kInputs.end(),
                            [](const Input &i) { return i.target == "pnml"; }));
    EXPECT_TRUE(std::any_of(kInputs.begin(), kInputs.end(),
                            [](const Input &i) { return i.target == "formula"; }));
    EXPECT_TRUE(std::any_of(kInputs.begin(), kInputs.end(),
                            [](const Input &i) { return i.target == "rers"; }));
    EXPECT_TRUE(std::any_of(kInputs.begin(), kInputs.end(),
                            [](const Input &i) { return i.target == "mcmt"; }));
}

INSTANTIATE_TEST_SUITE_P(Saved, FuzzRegressions, ::testing::ValuesIn(kInputs),
                         [](const ::testing::TestParamInfo<Input> &info) {
                             return info.param.name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(FuzzRegressions);

} // namespace
