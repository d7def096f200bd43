// The distributed engine (petrel/dist.h, host/engine/dist.c) run by
// mpirun: the ctest tests DistMpi_1, DistMpi_2 and DistMpi_4 start
// `mpirun -np N petrel_tests --gtest_filter=Dist.*:-Dist.Big_*`
// (tools/check-mpi.sh the Big_ ones); run alone, every Dist test skips. Each rank runs the same
// explorations in the same order (their collectives must match), so a test
// never leaves between two of them: EXPECT, not ASSERT, after the first.
//   - random bounded nets (test_random_net.h) against full enumeration
//     (test_enum.h): StateSpace's four values, E F / A G / bound formulas,
//     deadlock, quasi-liveness, one-safety and stable places;
//   - the "small" MCC instances: StateSpace against the oracle, and every
//     on-the-fly answer of UB, RC, RF, RD, OS, QL, SM against the
//     single-process engine on the same net.
#include <gtest/gtest.h>

#include "test_enum.h"
#include "test_text.h"

#include <algorithm>
#include <iostream>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "petrel/dist.h"
#include "petrel/engine.h"
#include "petrel/mcc.h"
#include "petrel/pnml.h"

namespace {

// The job this test process joined (once, before the first test), or NULL
// when it was not started by mpirun.
pn_dist *g_dist = nullptr;

class DistEnv : public ::testing::Environment {
public:
    void SetUp() override
    {
        if (!pn_dist_launched())
            return;
        pn_error err;
        pn_error_clear(&err);
        if (pn_dist_init(nullptr, nullptr, nullptr, nullptr, &g_dist, &err) != PN_OK)
            ADD_FAILURE() << "cannot join the MPI job: " << err.msg;
    }
    void TearDown() override
    {
        pn_dist_end(g_dist, false);
        g_dist = nullptr;
    }
};

::testing::Environment *const kEnv = ::testing::AddGlobalTestEnvironment(new DistEnv);

#define DIST_OR_SKIP()                                                                         \
    do {                                                                                       \
        if (g_dist == nullptr)                                                                 \
            GTEST_SKIP() << "run by mpirun only (ctest DistMpi_N; this build "                 \
                         << (pn_dist_built() ? "has" : "has no") << " MPI)";                   \
    } while (0)

pn_engine_opts opts(uint32_t threads)
{
    pn_engine_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    return o;
}

// StateSpace's values and the global properties, by enumeration.
struct Truth {
    uint64_t states = 0, edges = 0, max_place = 0, max_marking = 0;
    bool deadlock = false, quasi_live = true, one_safe = true, stable = false;
};

Truth enumerate(const pn_cnet *cn, const std::vector<std::vector<uint64_t>> &states)
{
    Truth t;
    t.states = states.size();
    std::vector<bool> fired(cn->n_transitions, false), moved(cn->n_places, false);
    for (const auto &m : states) {
        uint32_t enabled = 0;
        uint64_t sum = 0;
        for (uint32_t tr = 0; tr < cn->n_transitions; tr++)
            if (pn_cnet_enabled(cn, m.data(), tr)) {
                enabled++;
                fired[tr] = true;
            }
        for (uint32_t p = 0; p < cn->n_places; p++) {
            t.max_place = std::max(t.max_place, m[p]);
            sum += m[p];
            t.one_safe = t.one_safe && m[p] <= 1;
            moved[p] = moved[p] || m[p] != cn->m0[p];
        }
        t.max_marking = std::max(t.max_marking, sum);
        t.edges += enabled;
        t.deadlock = t.deadlock || enabled == 0;
    }
    for (bool f : fired)
        t.quasi_live = t.quasi_live && f;
    for (bool mv : moved)
        t.stable = t.stable || !mv;
    return t;
}

// One global property through the distributed engine: its verdict.
pn_verdict dist_global(const pn_cnet *cn, pn_exam exam, uint32_t threads)
{
    pn_error err;
    pn_error_clear(&err);
    pn_check *craw = nullptr;
    EXPECT_EQ(pn_check_new(cn, exam, nullptr, threads, &craw, &err), PN_OK) << err.msg;
    CheckPtr c(craw);
    pn_engine_opts o = opts(threads);
    o.visitor = pn_check_visitor(c.get());
    pn_engine_result res;
    EXPECT_EQ(pn_dist_explore(g_dist, cn, &o, c.get(), &res, &err), PN_OK) << err.msg;
    pn_check_finish(c.get(), &res);
    pn_engine_result_free(&res);
    return pn_check_answer(c.get(), 0)->verdict;
}

pn_verdict verdict(bool v) { return v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE; }

// The same random nets on every rank (one seed), many of them widening
// their fields (up to 20 tokens gather in a place whose field started at 3
// bits): every rank restarts with the union of the overflowed places.
void random_nets_match_enumeration(uint64_t seed, int nets)
{
    std::mt19937_64 rng(seed);
    pn_error err;
    pn_error_clear(&err);
    uint64_t restarted = 0;
    for (int i = 0; i < nets; i++) {
        uint32_t P = 2 + (uint32_t)(rng() % 5), T = 1 + (uint32_t)(rng() % 6);
        Net n = build(random_bounded_spec(rng, P, T));
        const pn_cnet *cn = n.cn.get();
        std::vector<std::vector<uint64_t>> states = reachable(cn, 200000);
        Truth t = enumerate(cn, states);
        uint32_t threads = 1 + (uint32_t)(i % 2);

        pn_engine_opts o = opts(threads);
        o.store = i % 3 == 0 ? PN_STORE_FULL : PN_STORE_AUTO; /* the id table's path too */
        pn_engine_result res;
        EXPECT_EQ(pn_dist_explore(g_dist, cn, &o, nullptr, &res, &err), PN_OK) << err.msg;
        EXPECT_EQ(res.status, PN_RUN_COMPLETE) << "net " << i;
        EXPECT_EQ(res.compact, o.store != PN_STORE_FULL) << "net " << i;
        EXPECT_EQ(res.states, t.states) << "net " << i;
        EXPECT_EQ(res.edges, t.edges) << "net " << i;
        EXPECT_EQ(res.max_tokens_place, t.max_place) << "net " << i;
        EXPECT_EQ(res.max_tokens_marking, t.max_marking) << "net " << i;
        restarted += res.restarts;
        pn_engine_result_free(&res);

        std::vector<pn_fml_node *> roots;
        for (uint32_t k = 0; k < 4; k++)
            roots.push_back(rand_root(rng, cn, (uint32_t)(rng() % 3)));
        SetPtr set = make_set(n.net.get(), roots);
        pn_check *craw = nullptr;
        EXPECT_EQ(pn_check_new(cn, PN_EXAM_REACH_CARDINALITY, set.get(), threads, &craw, &err),
                  PN_OK);
        CheckPtr c(craw);
        o.visitor = pn_check_visitor(c.get());
        EXPECT_EQ(pn_dist_explore(g_dist, cn, &o, c.get(), &res, &err), PN_OK) << err.msg;
        pn_check_finish(c.get(), &res);
        EXPECT_TRUE(res.status == PN_RUN_COMPLETE || res.status == PN_RUN_STOPPED);
        for (uint32_t k = 0; k < roots.size(); k++) {
            const pn_answer *a = pn_check_answer(c.get(), k);
            pn_answer want = truth(roots[k], cn, states);
            EXPECT_NE(a->verdict, PN_VERDICT_UNKNOWN) << "net " << i << " formula " << k;
            EXPECT_TRUE(agrees(*a, want)) << "net " << i << " formula " << k << ": got "
                                          << a->verdict << "/" << a->value << ", want "
                                          << want.verdict << "/" << want.value;
        }
        pn_engine_result_free(&res);

        EXPECT_EQ(dist_global(cn, PN_EXAM_REACH_DEADLOCK, threads), verdict(t.deadlock))
            << "net " << i;
        EXPECT_EQ(dist_global(cn, PN_EXAM_QUASI_LIVENESS, threads), verdict(t.quasi_live))
            << "net " << i;
        EXPECT_EQ(dist_global(cn, PN_EXAM_ONE_SAFE, threads), verdict(t.one_safe)) << "net " << i;
        EXPECT_EQ(dist_global(cn, PN_EXAM_STABLE_MARKING, threads), verdict(t.stable))
            << "net " << i;
    }
    EXPECT_GT(restarted, 0u) << "no net widened a field: the restart path went untested";
}

// ---- the small MCC instances ----------------------------------------------------

const char kMcc[] = PETREL_SHARED_DIR "/mcc";

struct SmallRow {
    std::string instance;
    uint64_t states = 0, edges = 0, max_place = 0, max_marking = 0;
};

// INDEX.tsv's "small" rows (P/T nets with StateSpace oracles).
std::vector<SmallRow> small_rows()
{
    std::vector<SmallRow> rows;
    std::ifstream in(std::string(kMcc) + "/INDEX.tsv");
    std::string line;
    if (!std::getline(in, line))
        return rows;
    std::map<std::string, size_t> col;
    std::vector<std::string> header = petrel_test::split_tabs(line);
    for (size_t i = 0; i < header.size(); i++)
        col[header[i]] = i;
    while (std::getline(in, line)) {
        std::vector<std::string> c = petrel_test::split_tabs(line);
        SmallRow r;
        if (c.size() < header.size() || c[col["group"]] != "small" ||
            !petrel_test::parse_u64(c[col["states"]], &r.states) ||
            !petrel_test::parse_u64(c[col["ss_edges"]], &r.edges) ||
            !petrel_test::parse_u64(c[col["max_tok_place"]], &r.max_place) ||
            !petrel_test::parse_u64(c[col["max_tok_marking"]], &r.max_marking))
            continue;
        r.instance = c[col["instance"]];
        rows.push_back(r);
    }
    return rows;
}

// The examination's answers from one check after an exploration with its
// visitor: distributed (g_dist) or on this process alone.
CheckPtr answers(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set, bool distributed)
{
    pn_error err;
    pn_error_clear(&err);
    pn_check *craw = nullptr;
    EXPECT_EQ(pn_check_new(cn, exam, set, 2, &craw, &err), PN_OK) << err.msg;
    CheckPtr c(craw);
    pn_engine_opts o = opts(2);
    o.visitor = pn_check_visitor(c.get());
    pn_engine_result res;
    pn_status st = distributed ? pn_dist_explore(g_dist, cn, &o, c.get(), &res, &err)
                               : pn_explore(cn, &o, &res, &err);
    EXPECT_EQ(st, PN_OK) << err.msg;
    EXPECT_TRUE(res.status == PN_RUN_COMPLETE || res.status == PN_RUN_STOPPED)
        << pn_run_status_name(res.status);
    pn_check_finish(c.get(), &res);
    pn_engine_result_free(&res);
    return c;
}

// Below this many states an instance runs in CI (DistMpi_N: 27 instances,
// seconds); the rest, Philosophers-PT-000010 included, in tools/check-mpi.sh (the
// CLI's StateSpace test runs Philosophers-PT-000010 on 1, 2 and 4 ranks too).
const uint64_t kSmallLimit = 20000;

const char *const kExams[] = {"UpperBounds",         "ReachabilityCardinality",
                              "ReachabilityFireability", "ReachabilityDeadlock",
                              "OneSafe",             "QuasiLiveness",
                              "StableMarking"};

// Every small instance with states in [lo, hi): StateSpace against the
// oracle, then each on-the-fly examination against one process (rank 0
// checks; the others only take part).
void small_instances_match(uint64_t lo, uint64_t hi)
{
    std::vector<SmallRow> rows = small_rows();
    if (rows.empty()) {
        if (petrel_test::ci_requires_data())
            ADD_FAILURE() << kMcc << "/INDEX.tsv is absent and CI=true";
        return;
    }
    bool lead = pn_dist_rank(g_dist) == 0;
    uint32_t done = 0;
    for (const SmallRow &row : rows) {
        if (row.states < lo || row.states >= hi)
            continue;
        std::string dir = std::string(kMcc) + "/" + row.instance;
        pn_error err;
        pn_error_clear(&err);
        pn_net *nraw = nullptr;
        pn_cnet *cnraw = nullptr;
        EXPECT_EQ(pn_pnml_read_file((dir + "/model.pnml").c_str(), nullptr, &nraw, &err), PN_OK);
        NetPtr net(nraw);
        EXPECT_EQ(pn_cnet_compile(net.get(), &cnraw, &err), PN_OK) << err.msg;
        CnetPtr cn(cnraw);
        pn_engine_opts o = opts(2);
        pn_engine_result res;
        EXPECT_EQ(pn_dist_explore(g_dist, cn.get(), &o, nullptr, &res, &err), PN_OK) << err.msg;
        EXPECT_EQ(res.status, PN_RUN_COMPLETE) << row.instance;
        EXPECT_EQ(res.states, row.states) << row.instance;
        EXPECT_EQ(res.edges, row.edges) << row.instance;
        EXPECT_EQ(res.max_tokens_place, row.max_place) << row.instance;
        EXPECT_EQ(res.max_tokens_marking, row.max_marking) << row.instance;
        pn_engine_result_free(&res);
        for (const char *name : kExams) {
            pn_exam exam = pn_exam_parse(name);
            SetPtr set;
            const char *file = pn_exam_formula_file(exam);
            if (file != nullptr) {
                pn_fml_set *sraw = nullptr;
                EXPECT_EQ(pn_fml_read_file((dir + "/" + file).c_str(), net.get(), &sraw, &err),
                          PN_OK) << err.msg;
                set.reset(sraw);
                EXPECT_EQ(pn_fml_set_simplify(set.get(), &err), PN_OK) << err.msg;
            }
            CheckPtr got = answers(cn.get(), exam, set.get(), true);
            if (!lead)
                continue;
            CheckPtr want = answers(cn.get(), exam, set.get(), false);
            for (uint32_t i = 0; i < pn_check_count(want.get()); i++) {
                const pn_answer *a = pn_check_answer(got.get(), i);
                const pn_answer *b = pn_check_answer(want.get(), i);
                EXPECT_EQ(a->verdict, b->verdict) << row.instance << " " << b->id;
                EXPECT_EQ(a->value, b->value) << row.instance << " " << b->id;
            }
        }
        done++;
    }
    std::cout << "[ instances ] " << done << " with " << lo << " <= states < " << hi << " on "
              << pn_dist_ranks(g_dist) << " rank(s)\n";
}

} // namespace

// Without MPI: the check's merge (pn_check_shared_get/put) on its own. Two
// checks each visit half of a random net's reachable markings (as two
// ranks would), take the element-wise maxima of each other's vectors, and
// must then answer as one check that visited them all.
TEST(DistCheck, MergedHalvesAnswerAsOneCheck)
{
    std::mt19937_64 rng(99);
    pn_error err;
    pn_error_clear(&err);
    const pn_exam exams[] = {PN_EXAM_REACH_CARDINALITY, PN_EXAM_REACH_DEADLOCK,
                             PN_EXAM_QUASI_LIVENESS, PN_EXAM_ONE_SAFE, PN_EXAM_STABLE_MARKING};
    for (int i = 0; i < 300; i++) {
        uint32_t P = 2 + (uint32_t)(rng() % 5), T = 1 + (uint32_t)(rng() % 6);
        Net n = build(random_bounded_spec(rng, P, T));
        const pn_cnet *cn = n.cn.get();
        std::vector<std::vector<uint64_t>> states = reachable(cn, 200000);
        pn_exam exam = exams[i % 5];
        std::vector<pn_fml_node *> roots;
        for (uint32_t k = 0; exam == PN_EXAM_REACH_CARDINALITY && k < 4; k++)
            roots.push_back(rand_root(rng, cn, (uint32_t)(rng() % 3)));
        SetPtr set = exam == PN_EXAM_REACH_CARDINALITY ? make_set(n.net.get(), roots) : nullptr;
        CheckPtr part[2], whole;
        for (CheckPtr *c : {&part[0], &part[1], &whole}) {
            pn_check *raw = nullptr;
            ASSERT_EQ(pn_check_new(cn, exam, set.get(), 1, &raw, &err), PN_OK) << err.msg;
            c->reset(raw);
        }
        for (size_t k = 0; k < states.size(); k++) {
            uint32_t enabled = 0;
            for (uint32_t t = 0; t < cn->n_transitions; t++)
                enabled += pn_cnet_enabled(cn, states[k].data(), t);
            for (pn_check *c : {part[k % 2].get(), whole.get()}) {
                const pn_visitor *v = pn_check_visitor(c);
                v->on_state(v->ctx, 0, k, states[k].data(), enabled);
            }
        }
        uint32_t nw = 0, nb = 0;
        pn_check_shared_size(part[0].get(), &nw, &nb);
        std::vector<uint64_t> w[2] = {std::vector<uint64_t>(nw + 1), std::vector<uint64_t>(nw + 1)};
        std::vector<uint8_t> b[2] = {std::vector<uint8_t>(nb + 1), std::vector<uint8_t>(nb + 1)};
        for (int r = 0; r < 2; r++)
            pn_check_shared_get(part[r].get(), w[r].data(), b[r].data());
        for (uint32_t k = 0; k < nw; k++)
            w[0][k] = w[1][k] = std::max(w[0][k], w[1][k]);
        for (uint32_t k = 0; k < nb; k++)
            b[0][k] = b[1][k] = std::max(b[0][k], b[1][k]);
        pn_engine_result done;
        memset(&done, 0, sizeof done);
        done.status = PN_RUN_COMPLETE;
        for (int r = 0; r < 2; r++) {
            pn_check_shared_put(part[r].get(), w[r].data(), b[r].data());
            pn_check_finish(part[r].get(), &done);
        }
        pn_check_finish(whole.get(), &done);
        for (uint32_t k = 0; k < pn_check_count(whole.get()); k++) {
            const pn_answer *want = pn_check_answer(whole.get(), k);
            ASSERT_NE(want->verdict, PN_VERDICT_UNKNOWN) << "net " << i;
            for (int r = 0; r < 2; r++) {
                const pn_answer *got = pn_check_answer(part[r].get(), k);
                EXPECT_EQ(got->verdict, want->verdict) << "net " << i << " answer " << k;
                EXPECT_EQ(got->value, want->value) << "net " << i << " answer " << k;
            }
        }
    }
}

// The visitor's "all decided" (it stops the exploration, here and on
// every rank) counts only what is still open: a witness seen by an earlier
// exploration (the portfolio's probe) followed by a decision of a later step
// (walk, stubborn sets, linear layer) made it stop with an answer open.
TEST(CheckVisitor, StopsOnlyWhenEveryAnswerIsDecided)
{
    RandomNetSpec spec;
    spec.m0 = {0, 0, 0, 0, 0};
    Net n = build(spec);
    std::vector<pn_fml_node *> roots;
    for (uint32_t p = 0; p < 5; p++) { /* f_p: E F (p >= 1) */
        pn_fml_node *tokens = pn_fml_list(PN_FML_TOKENS, &p, 1);
        roots.push_back(pn_fml_unary(
            PN_FML_E, pn_fml_unary(PN_FML_F, pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), tokens))));
    }
    SetPtr set = make_set(n.net.get(), roots);
    pn_error err;
    pn_error_clear(&err);
    pn_check *raw = nullptr;
    ASSERT_EQ(pn_check_new(n.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get(), 1, &raw, &err), PN_OK);
    CheckPtr c(raw);
    const pn_visitor *v = pn_check_visitor(c.get());
    uint64_t m[5][5] = {{1, 0, 0, 0, 0}, {0, 0, 1, 0, 0}, {0, 0, 0, 1, 0}, {0, 0, 0, 0, 1}};
    EXPECT_FALSE(v->on_state(v->ctx, 0, 0, m[0], 0)); /* f0, by an earlier exploration */
    pn_check_decide_target(c.get(), 1, true, 0);      /* f1, by a later step */
    EXPECT_FALSE(v->on_state(v->ctx, 0, 1, m[1], 0)); /* f2 */
    EXPECT_FALSE(v->on_state(v->ctx, 0, 2, m[2], 0)) << "f4 is still open";
    EXPECT_EQ(pn_check_answer(c.get(), 4)->verdict, PN_VERDICT_UNKNOWN);
    EXPECT_TRUE(v->on_state(v->ctx, 0, 3, m[3], 0)); /* f4: now all are */
}

TEST(Dist, RandomNetsMatchEnumeration)
{
    DIST_OR_SKIP();
    random_nets_match_enumeration(2024, 100);
}

TEST(Dist, Big_RandomNetsMatchEnumeration)
{
    DIST_OR_SKIP();
    random_nets_match_enumeration(7, 2000);
}

TEST(Dist, SmallInstancesMatchOneProcess)
{
    DIST_OR_SKIP();
    small_instances_match(0, kSmallLimit);
}

TEST(Dist, Big_SmallInstancesMatchOneProcess)
{
    DIST_OR_SKIP();
    small_instances_match(kSmallLimit, UINT64_MAX);
}
