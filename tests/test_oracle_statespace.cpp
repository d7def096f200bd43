// StateSpace against the MCC oracle: every "small" P/T instance of
// ../shared/mcc/INDEX.tsv is read, compiled and explored with 2 threads, and
// the four StateSpace values must equal the oracle columns. One test per
// instance (ctest lists each); instances with more than 1e6 states are named
// Big_<instance> so that slow builds can leave them out (ctest -E Big_).
#include <gtest/gtest.h>

#include "test_text.h"

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "petrel/cnet.h"
#include "petrel/engine.h"
#include "petrel/error.h"
#include "petrel/net.h"
#include "petrel/pnml.h"
#include "test_ptrs.h"

#include "examine/space_dd.h"

namespace {

const char kIndex[] = PETREL_SHARED_DIR "/mcc/INDEX.tsv";

struct OracleRow {
    std::string instance, test_name;
    uint64_t states = 0, edges = 0, max_place = 0, max_marking = 0;
    bool missing = false; // the placeholder used when INDEX.tsv is absent
    std::string problem;  // a row that could not be parsed
};

// What gtest prints for a parameter (a failing test's name already says it).
void PrintTo(const OracleRow &r, std::ostream *os) { *os << (r.missing ? "(missing)" : r.instance); }

using petrel_test::parse_u64;
using petrel_test::sanitize;
using petrel_test::split_tabs;

// Built at static-initialisation time: the test list comes from the file.
std::vector<OracleRow> load_rows(const std::string &group)
{
    std::vector<OracleRow> rows;
    std::ifstream in(kIndex);
    if (!in) {
        OracleRow r;
        r.missing = true;
        r.test_name = "Missing";
        rows.push_back(r);
        return rows;
    }
    std::string line;
    std::getline(in, line);
    std::vector<std::string> header = split_tabs(line);
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < header.size(); i++)
        col[header[i]] = i;
    const char *need[] = {"instance", "group", "states", "ss_edges", "max_tok_place",
                          "max_tok_marking"};
    for (const char *name : need)
        if (!col.count(name)) {
            OracleRow r;
            r.test_name = "BadHeader";
            r.problem = std::string("INDEX.tsv has no column '") + name + "'";
            rows.push_back(r);
            return rows;
        }
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        std::vector<std::string> cells = split_tabs(line);
        if (cells.size() < header.size() || cells[col["group"]] != group)
            continue;
        OracleRow r;
        r.instance = cells[col["instance"]];
        if (!parse_u64(cells[col["states"]], &r.states) ||
            !parse_u64(cells[col["ss_edges"]], &r.edges) ||
            !parse_u64(cells[col["max_tok_place"]], &r.max_place) ||
            !parse_u64(cells[col["max_tok_marking"]], &r.max_marking))
            r.problem = "unparsable oracle values in row: " + line;
        r.test_name = (r.states > 1000000 ? "Big_" : "") + sanitize(r.instance);
        rows.push_back(r);
    }
    if (rows.empty()) {
        OracleRow r;
        r.test_name = "NoRows";
        r.problem = "INDEX.tsv lists no instance of group '" + group + "'";
        rows.push_back(r);
    }
    return rows;
}

const std::vector<OracleRow> kRows = load_rows("small");
const std::vector<OracleRow> kLargeRows = load_rows("large");

} // namespace

// The instance's net compiled into *cn.
static void compile_row(const OracleRow &row, std::unique_ptr<pn_net, NetDeleter> *net,
                 std::unique_ptr<pn_cnet, CnetDeleter> *cn)
{
    if (row.missing && petrel_test::ci_requires_data())
        FAIL() << kIndex << " is absent and CI=true: the MCC oracle data must lie beside the "
               << "checkout (../shared/mcc) for the StateSpace oracle tests to run";
    if (row.missing)
        GTEST_SKIP() << kIndex << " is absent: the MCC oracle data lives beside the checkout "
                     << "(../shared/mcc); no StateSpace oracle test can run";
    ASSERT_TRUE(row.problem.empty()) << row.problem;
    std::string model = std::string(PETREL_SHARED_DIR) + "/mcc/" + row.instance + "/model.pnml";

    pn_error err;
    pn_error_clear(&err);
    pn_net *raw = nullptr;
    ASSERT_EQ(pn_pnml_read_file(model.c_str(), nullptr, &raw, &err), PN_OK) << err.msg;
    net->reset(raw);
    pn_cnet *cnraw = nullptr;
    ASSERT_EQ(pn_cnet_compile(raw, &cnraw, &err), PN_OK) << err.msg;
    cn->reset(cnraw);
}

// Each test on the instance's net, compiled (nothing when the data is
// absent or the row is bad: the test is then skipped or has failed).
class OracleStateSpace : public ::testing::TestWithParam<OracleRow> {
protected:
    void SetUp() override { compile_row(GetParam(), &net, &cn); }
    std::unique_ptr<pn_net, NetDeleter> net;
    std::unique_ptr<pn_cnet, CnetDeleter> cn;
};

TEST_P(OracleStateSpace, MatchesOracle)
{
    const OracleRow &row = GetParam();
    pn_error err;
    pn_error_clear(&err);
    pn_engine_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    pn_engine_result res;
    memset(&res, 0, sizeof res);
    ASSERT_EQ(pn_explore(cn.get(), &o, &res, &err), PN_OK) << err.msg;
    ASSERT_EQ(res.status, PN_RUN_COMPLETE) << pn_run_status_name(res.status);
    EXPECT_EQ(res.states, row.states) << "STATES";
    EXPECT_EQ(res.edges, row.edges) << "TRANSITIONS";
    EXPECT_EQ(res.max_tokens_place, row.max_place) << "MAX_TOKEN_IN_PLACE";
    EXPECT_EQ(res.max_tokens_marking, row.max_marking) << "MAX_TOKEN_PER_MARKING";
    RecordProperty("states", std::to_string(res.states));
    RecordProperty("seconds", std::to_string(res.seconds));
}

// The same four values counted on decision diagrams (one thread), in
// decimal. The sets of the instances under 10^6 states close in seconds;
// of the bigger ones (Big_) some do not in 30 s (Peterson-PT-3 and
// Railroad-PT-010: the order of their levels): their values are checked
// where they close.
// The four values of row counted on decision diagrams within seconds; a
// set that does not close skips when skip_open.
static void expect_dd_matches(const OracleRow &row, const pn_cnet *cn, double seconds,
                              bool skip_open)
{
    pn_error err;
    pn_error_clear(&err);
    pn_engine_result res;
    memset(&res, 0, sizeof res);
    pn_budget b = pn_budget_make(seconds, nullptr, 0);
    ASSERT_EQ(ex_space_dd(cn, &b, nullptr, &res, &err), PN_OK) << err.msg;
    if (!res.symbolic && skip_open)
        GTEST_SKIP() << "the decision diagrams did not count it within " << seconds << " s";
    ASSERT_TRUE(res.symbolic) << "the decision diagrams did not count it within " << seconds
                              << " s";
    EXPECT_EQ(std::string(res.states_text), std::to_string(row.states)) << "STATES";
    ASSERT_NE(res.edges_text, nullptr) << "TRANSITIONS not counted";
    EXPECT_EQ(std::string(res.edges_text), std::to_string(row.edges)) << "TRANSITIONS";
    EXPECT_EQ(res.max_tokens_place, row.max_place) << "MAX_TOKEN_IN_PLACE";
    EXPECT_EQ(res.max_tokens_marking, row.max_marking) << "MAX_TOKEN_PER_MARKING";
    ::testing::Test::RecordProperty("seconds", std::to_string(res.seconds));
    pn_engine_result_free(&res);
}

TEST_P(OracleStateSpace, DecisionDiagramsMatchOracle)
{
    const OracleRow &row = GetParam();
    expect_dd_matches(row, cn.get(), 30.0, row.states > 1000000);
}

// The "large" group (1.1 x 10^7 .. 1.0 x 10^9 states: minutes for the
// explicit engines, whose values there docs/benchmarks.md compares) on
// decision diagrams: nine of the eleven close within 15 s (Dekker-PT-020
// in 12 s), SimpleLoadBal-PT-10 and RERS2020-PT-pb103 do not, and skip.
class OracleStateSpaceLarge : public OracleStateSpace {};

TEST_P(OracleStateSpaceLarge, DecisionDiagramsMatchOracle)
{
    expect_dd_matches(GetParam(), cn.get(), 15.0, true);
}

INSTANTIATE_TEST_SUITE_P(MccLarge, OracleStateSpaceLarge, ::testing::ValuesIn(kLargeRows),
                         [](const ::testing::TestParamInfo<OracleRow> &info) {
                             return info.param.test_name;
                         });

INSTANTIATE_TEST_SUITE_P(Mcc, OracleStateSpace, ::testing::ValuesIn(kRows),
                         [](const ::testing::TestParamInfo<OracleRow> &info) {
                             return info.param.test_name;
                         });
