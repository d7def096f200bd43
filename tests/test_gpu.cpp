// The GPU engine (kernels/gpu_engine.cu, include/petrel/gpu.h).
//
// GpuDevice.*: the real API. Without a usable device (no CUDA in the build,
// no GPU, no driver) the tests that need one skip with the reason, and the
// API must say why and fail cleanly. With one, StateSpace must equal
// pn_explore on hand-made nets, the hand-checked models and the MCC oracle.
//
// GpuEmulated.*: gpu_kernels.cu and gpu_engine.cu compiled right here as host code against
// kernels/gpu_emu.cuh (every kernel thread run in turn on the CPU, device
// memory counted against a limit the test sets). They run on every machine
// and cover what a device run would exercise except real concurrency: the
// launch planning, growth and rehash, widening with repacking, the BFS tree,
// budgets, allocation failures, timeout and cancel; results must equal
// pn_explore's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "petrel/cnet.h"
#include "petrel/engine.h"
#include "petrel/error.h"
#include "petrel/gpu.h"
#include "petrel/net.h"
#include "petrel/pnml.h"

// The engine itself, as host code (only static functions: no clash with
// the library's pn_gpu_* symbols): the kernels and their launch glue, then
// the driver.
#define PN_GPU_EMULATE 1
#include "gpu_kernels.cu"
#include "gpu_device.cu"
#include "gpu_items.cu"
#include "engine/gpu_engine.cu"
#include "engine/gpu_walk.cu"
#include "test_ptrs.h"

namespace {

struct Arc {
    uint32_t place, trans;
    bool to_trans;
    uint64_t weight;
};

struct Net {
    std::unique_ptr<pn_net, NetDeleter> net;
    std::unique_ptr<pn_cnet, CnetDeleter> cn;
    const pn_cnet *get() const { return cn.get(); }
};

Net make(const std::vector<uint64_t> &m0, uint32_t n_trans, const std::vector<Arc> &arcs)
{
    pn_error err;
    pn_error_clear(&err);
    Net n;
    n.net.reset(pn_net_new("gpu"));
    for (size_t p = 0; p < m0.size(); p++)
        EXPECT_GE(pn_net_add_place(n.net.get(), ("p" + std::to_string(p)).c_str(), nullptr,
                                   m0[p], &err),
                  0)
            << err.msg;
    for (uint32_t t = 0; t < n_trans; t++)
        EXPECT_GE(pn_net_add_transition(n.net.get(), ("t" + std::to_string(t)).c_str(), nullptr,
                                        &err),
                  0)
            << err.msg;
    for (const Arc &a : arcs)
        EXPECT_EQ(pn_net_add_arc(n.net.get(), a.place, a.trans, a.to_trans, a.weight, &err), PN_OK)
            << err.msg;
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(n.net.get(), &cn, &err), PN_OK) << err.msg;
    n.cn.reset(cn);
    return n;
}

Net load_pnml(const std::string &path)
{
    pn_error err;
    pn_error_clear(&err);
    Net n;
    pn_net *raw = nullptr;
    EXPECT_EQ(pn_pnml_read_file(path.c_str(), nullptr, &raw, &err), PN_OK) << path << ": " << err.msg;
    n.net.reset(raw);
    if (raw == nullptr)
        return n;
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(raw, &cn, &err), PN_OK) << path << ": " << err.msg;
    n.cn.reset(cn);
    return n;
}

// N independent components of c tokens moving between two places:
// (c+1)^N states.
Net counters(uint32_t N, uint64_t c)
{
    std::vector<uint64_t> m0;
    std::vector<Arc> arcs;
    for (uint32_t i = 0; i < N; i++) {
        m0.push_back(c);
        m0.push_back(0);
        arcs.push_back({2 * i, 2 * i, true, 1});
        arcs.push_back({2 * i + 1, 2 * i, false, 1});
        arcs.push_back({2 * i + 1, 2 * i + 1, true, 1});
        arcs.push_back({2 * i, 2 * i + 1, false, 1});
    }
    return make(m0, 2 * N, arcs);
}

// One token going round a ring of P places: P states, P edges.
Net ring(uint32_t P)
{
    std::vector<uint64_t> m0(P, 0);
    m0[0] = 1;
    std::vector<Arc> arcs;
    for (uint32_t i = 0; i < P; i++) {
        arcs.push_back({i, i, true, 1});
        arcs.push_back({(i + 1) % P, i, false, 1});
    }
    return make(m0, P, arcs);
}

// Bounded by the initial token count: no transition produces more than it
// consumes. Parallel arcs, self-loops, weights up to 3.
Net random_bounded_net(std::mt19937_64 &rng, uint32_t P, uint32_t T)
{
    std::uniform_int_distribution<uint32_t> place(0, P - 1), w(1, 3);
    std::vector<uint64_t> m0(P);
    for (auto &v : m0)
        v = rng() % 5;
    std::vector<Arc> arcs;
    for (uint32_t t = 0; t < T; t++) {
        uint64_t in = 0;
        uint32_t n_in = 1 + (uint32_t)(rng() % 2);
        for (uint32_t i = 0; i < n_in; i++) {
            uint64_t x = w(rng);
            arcs.push_back({place(rng), t, true, x});
            in += x;
        }
        while (in > 0 && rng() % 8 != 0) {
            uint64_t x = std::min<uint64_t>(in, w(rng));
            arcs.push_back({place(rng), t, false, x});
            in -= x;
        }
    }
    return make(m0, T, arcs);
}

uint64_t ipow(uint64_t b, unsigned e)
{
    uint64_t r = 1;
    while (e--)
        r *= b;
    return r;
}

pn_engine_opts opts()
{
    pn_engine_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 2;
    return o;
}

std::string show(const pn_engine_result &r)
{
    return std::string("status ") + pn_run_status_name(r.status) + ", " + std::to_string(r.states) +
           " states, " + std::to_string(r.edges) + " edges, max place " +
           std::to_string(r.max_tokens_place) + ", max marking " +
           std::to_string(r.max_tokens_marking) + ", " + std::to_string(r.levels) +
           " levels, " + std::to_string(r.restarts) + " restarts, " +
           std::to_string(r.state_words) + " words, " + std::to_string(r.bytes) + " bytes";
}

struct Result {
    pn_status st = PN_OK;
    std::string msg;
    pn_engine_result r;
    Result() { memset(&r, 0, sizeof r); }
    Result(const Result &) = delete;
    Result &operator=(const Result &) = delete;
    ~Result() { pn_engine_result_free(&r); }
};

enum class Engine { Cpu, Emulated, Device };

void run(Engine which, const pn_cnet *cn, const pn_engine_opts &o, Result *out)
{
    pn_error err;
    pn_error_clear(&err);
    memset(&out->r, 0xff, sizeof out->r);
    out->r.parent = nullptr;
    out->r.via = nullptr;
    switch (which) {
    case Engine::Cpu: out->st = pn_explore(cn, &o, &out->r, &err); break;
    case Engine::Emulated: out->st = gpu_explore_impl(cn, &o, &out->r, &err); break;
    case Engine::Device: out->st = pn_gpu_explore(cn, &o, &out->r, &err); break;
    }
    out->msg = err.msg;
}

// Everything StateSpace prints, and how the run went, must agree.
void expect_same(const pn_engine_result &gpu, const pn_engine_result &cpu)
{
    EXPECT_EQ(gpu.status, cpu.status) << "gpu: " << show(gpu) << "\ncpu: " << show(cpu);
    EXPECT_EQ(gpu.states, cpu.states) << "gpu: " << show(gpu) << "\ncpu: " << show(cpu);
    EXPECT_EQ(gpu.edges, cpu.edges) << "gpu: " << show(gpu) << "\ncpu: " << show(cpu);
    EXPECT_EQ(gpu.max_tokens_place, cpu.max_tokens_place) << show(gpu);
    EXPECT_EQ(gpu.max_tokens_marking, cpu.max_tokens_marking) << show(gpu);
    EXPECT_EQ(gpu.levels, cpu.levels) << show(gpu);
    EXPECT_EQ(gpu.restarts, cpu.restarts) << show(gpu);
    EXPECT_EQ(gpu.state_words, cpu.state_words) << show(gpu);
}

void compare_with_cpu(Engine which, const pn_cnet *cn, pn_engine_opts o = opts())
{
    Result cpu, gpu;
    run(Engine::Cpu, cn, o, &cpu);
    ASSERT_EQ(cpu.st, PN_OK) << cpu.msg;
    run(which, cn, o, &gpu);
    ASSERT_EQ(gpu.st, PN_OK) << gpu.msg;
    expect_same(gpu.r, cpu.r);
    EXPECT_GE(gpu.r.threads, 1u);
    EXPECT_GT(gpu.r.bytes, 0u);
}

// The hand-made nets of both suites, with what they exercise.
struct Case {
    std::string name;
    Net (*build)();
};

std::vector<Case> hand_nets()
{
    return {
        {"single place, no transitions", [] { return make({5}, 0, {}); }},
        {"no places, one transition", [] { return make({}, 1, {}); }},
        {"two-state cycle",
         [] {
             return make({1, 0}, 2,
                         {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}, {0, 1, false, 1}});
         }},
        {"dead initial marking", [] { return make({1, 0}, 1, {{0, 0, true, 2}, {1, 0, false, 1}}); }},
        {"self-loop and a transition without arcs",
         [] { return make({2}, 2, {{0, 0, true, 2}, {0, 0, false, 2}}); }},
        {"weighted",
         [] {
             return make({7, 0, 0}, 2,
                         {{0, 0, true, 2}, {1, 0, false, 3}, {1, 1, true, 3}, {2, 1, false, 1}});
         }},
        {"counter to 1000: widens 1 -> 16 bits",
         [] { return make({1000, 0}, 1, {{0, 0, true, 1}, {1, 0, false, 1}}); }},
        {"widening from 32 to 64 bits",
         [] {
             return make({3, (1ULL << 32) - 1}, 1, {{0, 0, true, 1}, {1, 0, false, 1}});
         }},
        {"token count beyond 64 bits", [] { return make({UINT64_MAX - 1}, 1, {{0, 0, false, 1}}); }},
        {"token sum saturates", [] { return make({1ULL << 63, 1ULL << 63}, 0, {}); }},
        {"independent counters 4 x 12", [] { return counters(4, 12); }},
        {"independent counters 2 x 200", [] { return counters(2, 200); }},
        {"ring of 300 places (5 words)", [] { return ring(300); }},
        {"ring of 1500 places (24 words)", [] { return ring(1500); }},
        {"ring of 5000 places (79 words)", [] { return ring(5000); }},
    };
}

std::string models_dir() { return std::string(PETREL_SOURCE_DIR) + "/models"; }

// "small" rows of the MCC oracle index, with at most max_states states.
struct OracleRow {
    std::string instance;
    uint64_t states = 0, edges = 0, max_place = 0, max_marking = 0;
};

std::vector<OracleRow> oracle_rows(uint64_t max_states)
{
    std::vector<OracleRow> rows;
    std::ifstream in(PETREL_SHARED_DIR "/mcc/INDEX.tsv");
    std::string line;
    if (!std::getline(in, line))
        return rows;
    auto split = [](const std::string &s) {
        std::vector<std::string> out;
        std::string cell;
        std::istringstream is(s);
        while (std::getline(is, cell, '\t'))
            out.push_back(cell);
        return out;
    };
    std::vector<std::string> head = split(line);
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < head.size(); i++)
        col[head[i]] = i;
    for (const char *c : {"instance", "group", "states", "ss_edges", "max_tok_place",
                          "max_tok_marking"})
        if (!col.count(c))
            return rows;
    auto num = [](const std::string &s, uint64_t *v) {
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
            return false;
        errno = 0;
        *v = strtoull(s.c_str(), nullptr, 10);
        return errno == 0;
    };
    while (std::getline(in, line)) {
        std::vector<std::string> c = split(line);
        if (c.size() < head.size() || c[col["group"]] != "small")
            continue;
        OracleRow r;
        r.instance = c[col["instance"]];
        if (num(c[col["states"]], &r.states) && num(c[col["ss_edges"]], &r.edges) &&
            num(c[col["max_tok_place"]], &r.max_place) &&
            num(c[col["max_tok_marking"]], &r.max_marking) && r.states <= max_states)
            rows.push_back(r);
    }
    return rows;
}

void check_oracle(Engine which, const OracleRow &row)
{
    SCOPED_TRACE(row.instance);
    Net n = load_pnml(std::string(PETREL_SHARED_DIR) + "/mcc/" + row.instance + "/model.pnml");
    ASSERT_NE(n.get(), nullptr);
    Result r;
    run(which, n.get(), opts(), &r);
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    ASSERT_EQ(r.r.status, PN_RUN_COMPLETE) << show(r.r);
    EXPECT_EQ(r.r.states, row.states) << "STATES";
    EXPECT_EQ(r.r.edges, row.edges) << "TRANSITIONS";
    EXPECT_EQ(r.r.max_tokens_place, row.max_place) << "MAX_TOKEN_IN_PLACE";
    EXPECT_EQ(r.r.max_tokens_marking, row.max_marking) << "MAX_TOKEN_PER_MARKING";
}

// Replays every state's BFS-tree path from the initial marking: each step
// must be enabled, the paths must end in distinct markings (ids name
// distinct states), and the number of states at each depth must be the
// CPU engine's.
void check_tree(const pn_cnet *cn, const pn_engine_result &gpu, const pn_engine_result &cpu)
{
    ASSERT_EQ(gpu.status, PN_RUN_COMPLETE);
    ASSERT_NE(gpu.parent, nullptr);
    ASSERT_NE(gpu.via, nullptr);
    std::set<std::vector<uint64_t>> ends;
    std::map<uint64_t, uint64_t> depth_gpu, depth_cpu;
    for (uint64_t id = 0; id < gpu.states; id++) {
        uint32_t *path = nullptr;
        uint64_t len = 0;
        ASSERT_TRUE(pn_engine_trace(&gpu, id, &path, &len)) << id;
        std::vector<uint64_t> m(cn->m0, cn->m0 + cn->n_places), next(cn->n_places);
        bool ok = true;
        for (uint64_t k = 0; k < len && ok; k++) {
            ok = path[k] < cn->n_transitions && pn_cnet_enabled(cn, m.data(), path[k]) &&
                 pn_cnet_fire(cn, m.data(), path[k], next.data());
            m.swap(next);
        }
        free(path);
        ASSERT_TRUE(ok) << "state " << id << ": its path fires a disabled transition";
        ends.insert(m);
        depth_gpu[len]++;
    }
    EXPECT_EQ(ends.size(), gpu.states) << "two ids reached by paths to one marking";
    for (uint64_t id = 0; id < cpu.states; id++) {
        uint32_t *path = nullptr;
        uint64_t len = 0;
        ASSERT_TRUE(pn_engine_trace(&cpu, id, &path, &len));
        free(path);
        depth_cpu[len]++;
    }
    EXPECT_EQ(depth_gpu, depth_cpu) << "states per BFS depth differ";
}

// ---- the emulated engine: a fixture that resets the fake device ---------------

class GpuEmulated : public ::testing::Test {
  protected:
    void SetUp() override
    {
        gpu_emu_limit = (size_t)1 << 30;
        gpu_emu_used = 0;
        gpu_emu_peak = 0;
        gpu_emu_fail_after = 0;
        gpu_emu_local_max = 128;
    }
    void TearDown() override
    {
        EXPECT_EQ(gpu_emu_used, 0u) << "device memory left allocated after the run";
        gpu_emu_limit = (size_t)1 << 30;
        gpu_emu_fail_after = 0;
        gpu_emu_local_max = 128;
    }
};

} // namespace

// ---- the real API ------------------------------------------------------------------

TEST(GpuDevice, AvailabilityIsStableAndExplained)
{
    char why[256];
    memset(why, 'x', sizeof why);
    bool ok = pn_gpu_available(why, sizeof why);
    char why2[256] = "";
    EXPECT_EQ(pn_gpu_available(why2, sizeof why2), ok) << "the answer changed";
    EXPECT_EQ(pn_gpu_available(nullptr, 0), ok);
    if (ok) {
        RecordProperty("gpu", "available");
        return;
    }
    ASSERT_NE(memchr(why, '\0', sizeof why), nullptr) << "reason not terminated";
    EXPECT_GT(strlen(why), 0u) << "no reason given";
    EXPECT_STREQ(why, why2);
    char tiny[4];
    EXPECT_FALSE(pn_gpu_available(tiny, sizeof tiny));
    EXPECT_EQ(strlen(tiny), 3u) << "the reason must be truncated to the buffer";
#ifndef PETREL_HAVE_CUDA
    EXPECT_STREQ(why, "this build has no CUDA engine");
#endif
    RecordProperty("gpu", why);
}

TEST(GpuDevice, ExploreWithoutADeviceFailsWithAMessage)
{
    char why[256] = "";
    if (pn_gpu_available(why, sizeof why))
        GTEST_SKIP() << "a usable GPU is present";
    Net n = counters(2, 3);
    Result r;
    run(Engine::Device, n.get(), opts(), &r);
    EXPECT_NE(r.st, PN_OK);
    EXPECT_FALSE(r.msg.empty());
    EXPECT_NE(r.msg.find(why), std::string::npos) << r.msg;
    EXPECT_EQ(r.r.parent, nullptr);
    EXPECT_EQ(r.r.via, nullptr);
}

#define REQUIRE_GPU()                                                                      \
    do {                                                                                   \
        char why_[256] = "";                                                               \
        if (!pn_gpu_available(why_, sizeof why_))                                          \
            GTEST_SKIP() << why_;                                                          \
    } while (0)

TEST(GpuDevice, HandMadeNetsMatchTheCpuEngine)
{
    REQUIRE_GPU();
    for (const Case &c : hand_nets()) {
        SCOPED_TRACE(c.name);
        Net n = c.build();
        compare_with_cpu(Engine::Device, n.get());
    }
}

TEST(GpuDevice, RandomNetsMatchTheCpuEngine)
{
    REQUIRE_GPU();
    std::mt19937_64 rng(41);
    for (int iter = 0; iter < 60 && !HasFailure(); iter++) {
        SCOPED_TRACE("iter " + std::to_string(iter));
        Net n = random_bounded_net(rng, 2 + (uint32_t)(rng() % 7), 1 + (uint32_t)(rng() % 10));
        compare_with_cpu(Engine::Device, n.get());
    }
}

TEST(GpuDevice, LargeStateSpaceMatchesTheCpuEngine)
{
    REQUIRE_GPU();
    Net n = counters(8, 5); // 1.68M states over many launches
    compare_with_cpu(Engine::Device, n.get());
}

TEST(GpuDevice, HandCheckedModels)
{
    REQUIRE_GPU();
    for (const char *m : {"mutex2", "producer-consumer", "dining3"}) {
        SCOPED_TRACE(m);
        Net n = load_pnml(models_dir() + "/" + m + "/model.pnml");
        ASSERT_NE(n.get(), nullptr);
        compare_with_cpu(Engine::Device, n.get());
    }
}

TEST(GpuDevice, MccOracleStateSpace)
{
    REQUIRE_GPU();
    std::vector<OracleRow> rows = oracle_rows(20000000);
    if (rows.empty())
        GTEST_SKIP() << PETREL_SHARED_DIR "/mcc/INDEX.tsv is absent or lists no small instance";
    for (const OracleRow &row : rows)
        check_oracle(Engine::Device, row);
}

TEST(GpuDevice, BfsTreeGivesValidShortestPaths)
{
    REQUIRE_GPU();
    Net n = counters(3, 6);
    pn_engine_opts o = opts();
    o.keep_parents = true;
    Result cpu, gpu;
    run(Engine::Cpu, n.get(), o, &cpu);
    run(Engine::Device, n.get(), o, &gpu);
    ASSERT_EQ(gpu.st, PN_OK) << gpu.msg;
    check_tree(n.get(), gpu.r, cpu.r);
}

TEST(GpuDevice, EarlyEnds)
{
    REQUIRE_GPU();
    Net n = counters(4, 12);
    pn_engine_opts o = opts();
    pn_budget b1 = pn_budget_make(0, nullptr, 256 << 10);
    o.budget = &b1;
    Result small;
    run(Engine::Device, n.get(), o, &small);
    ASSERT_EQ(small.st, PN_OK) << small.msg;
    EXPECT_EQ(small.r.status, PN_RUN_OUT_OF_MEMORY) << show(small.r);
    EXPECT_LE(small.r.bytes, 256u << 10);

    volatile int cancel = 1;
    o = opts();
    pn_budget b5 = pn_budget_make(0, &cancel, 0);
    o.budget = &b5;
    Result cancelled;
    run(Engine::Device, n.get(), o, &cancelled);
    ASSERT_EQ(cancelled.st, PN_OK) << cancelled.msg;
    EXPECT_EQ(cancelled.r.status, PN_RUN_CANCELLED);

    Net unbounded = make({0}, 1, {{0, 0, false, 1}});
    o = opts();
    pn_budget b7 = pn_budget_make(0.5, nullptr, 0);
    o.budget = &b7;
    Result timed;
    run(Engine::Device, unbounded.get(), o, &timed);
    ASSERT_EQ(timed.st, PN_OK) << timed.msg;
    EXPECT_TRUE(timed.r.status == PN_RUN_TIMEOUT || timed.r.status == PN_RUN_OUT_OF_MEMORY)
        << show(timed.r);
    EXPECT_LT(timed.r.seconds, 30.0);
}

TEST(GpuDevice, VisitorIsRefused)
{
    REQUIRE_GPU();
    Net n = counters(2, 3);
    pn_visitor v{[](void *, uint32_t, uint64_t, const uint64_t *, uint32_t) { return false; },
                 nullptr};
    pn_engine_opts o = opts();
    o.visitor = &v;
    Result r;
    run(Engine::Device, n.get(), o, &r);
    EXPECT_EQ(r.st, PN_ERR_UNSUPPORTED);
    EXPECT_FALSE(r.msg.empty());
}

// ---- the emulated engine -------------------------------------------------------------

TEST_F(GpuEmulated, HandMadeNetsMatchTheCpuEngine)
{
    for (const Case &c : hand_nets()) {
        SCOPED_TRACE(c.name);
        Net n = c.build();
        compare_with_cpu(Engine::Emulated, n.get());
    }
}

TEST_F(GpuEmulated, GenericKernelWithScratchInDeviceMemory)
{
    gpu_emu_local_max = 0; // every state "too wide" for the local-array kernels
    for (const Case &c : hand_nets()) {
        SCOPED_TRACE(c.name);
        Net n = c.build();
        compare_with_cpu(Engine::Emulated, n.get());
    }
}

TEST_F(GpuEmulated, StatesWiderThan128Words)
{
    Net n = ring(129 * 64 + 5); // 1-bit fields: 130 words, the generic kernel
    Result cpu, gpu;
    run(Engine::Cpu, n.get(), opts(), &cpu);
    run(Engine::Emulated, n.get(), opts(), &gpu);
    ASSERT_EQ(gpu.st, PN_OK) << gpu.msg;
    EXPECT_EQ(gpu.r.state_words, 130u);
    expect_same(gpu.r, cpu.r);
}

TEST_F(GpuEmulated, RandomNetsMatchTheCpuEngine)
{
    std::mt19937_64 rng(41);
    uint64_t biggest = 0;
    for (int iter = 0; iter < 80 && !HasFailure(); iter++) {
        SCOPED_TRACE("iter " + std::to_string(iter));
        Net n = random_bounded_net(rng, 2 + (uint32_t)(rng() % 7), 1 + (uint32_t)(rng() % 10));
        gpu_emu_local_max = iter % 4 == 3 ? 0 : 128;
        Result cpu, gpu;
        run(Engine::Cpu, n.get(), opts(), &cpu);
        run(Engine::Emulated, n.get(), opts(), &gpu);
        ASSERT_EQ(gpu.st, PN_OK) << gpu.msg;
        expect_same(gpu.r, cpu.r);
        biggest = std::max(biggest, cpu.r.states);
    }
    EXPECT_GT(biggest, 1000u);
}

TEST_F(GpuEmulated, ManyLaunchesPerLevel)
{
    // 6^6 = 46656 states; levels of thousands of states are cut into
    // launches by the headroom rule (256 KB ahead in the emulation).
    Net n = counters(6, 5);
    Result cpu, gpu;
    run(Engine::Cpu, n.get(), opts(), &cpu);
    run(Engine::Emulated, n.get(), opts(), &gpu);
    ASSERT_EQ(gpu.st, PN_OK) << gpu.msg;
    expect_same(gpu.r, cpu.r);
    EXPECT_EQ(gpu.r.states, ipow(6, 6));
    EXPECT_EQ(gpu.r.threads, 1024u) << "the emulated device's resident threads";
}

TEST_F(GpuEmulated, HandCheckedModels)
{
    const std::map<std::string, std::vector<uint64_t>> expected = {
        {"mutex2", {8, 14, 1, 3}}, {"producer-consumer", {16, 26, 3, 6}}, {"dining3", {14, 27, 1, 6}}};
    for (const auto &m : expected) {
        SCOPED_TRACE(m.first);
        Net n = load_pnml(models_dir() + "/" + m.first + "/model.pnml");
        ASSERT_NE(n.get(), nullptr);
        Result r;
        run(Engine::Emulated, n.get(), opts(), &r);
        ASSERT_EQ(r.st, PN_OK) << r.msg;
        EXPECT_EQ(r.r.status, PN_RUN_COMPLETE);
        EXPECT_EQ(std::vector<uint64_t>({r.r.states, r.r.edges, r.r.max_tokens_place,
                                         r.r.max_tokens_marking}),
                  m.second);
    }
}

TEST_F(GpuEmulated, MccOracleStateSpace)
{
    std::vector<OracleRow> rows = oracle_rows(60000);
    if (rows.empty())
        GTEST_SKIP() << PETREL_SHARED_DIR "/mcc/INDEX.tsv is absent or lists no small instance";
    for (const OracleRow &row : rows)
        check_oracle(Engine::Emulated, row);
    RecordProperty("instances", std::to_string(rows.size()));
}

TEST_F(GpuEmulated, BfsTreeGivesValidShortestPaths)
{
    for (bool generic : {false, true}) {
        SCOPED_TRACE(generic ? "generic kernel" : "local-array kernel");
        gpu_emu_local_max = generic ? 0 : 128;
        // The counter widens 3 times: the tree must survive the repacking.
        for (int which = 0; which < 2; which++) {
            Net n = which == 0 ? counters(3, 6)
                               : make({40, 0}, 1, {{0, 0, true, 1}, {1, 0, false, 1}});
            pn_engine_opts o = opts();
            o.keep_parents = true;
            Result cpu, gpu;
            run(Engine::Cpu, n.get(), o, &cpu);
            run(Engine::Emulated, n.get(), o, &gpu);
            ASSERT_EQ(gpu.st, PN_OK) << gpu.msg;
            expect_same(gpu.r, cpu.r);
            check_tree(n.get(), gpu.r, cpu.r);
        }
    }
}

TEST_F(GpuEmulated, VisitorIsRefused)
{
    Net n = counters(2, 3);
    pn_visitor v{[](void *, uint32_t, uint64_t, const uint64_t *, uint32_t) { return false; },
                 nullptr};
    pn_engine_opts o = opts();
    o.visitor = &v;
    Result r;
    run(Engine::Emulated, n.get(), o, &r);
    EXPECT_EQ(r.st, PN_ERR_UNSUPPORTED);
    EXPECT_NE(r.msg.find("CPU engine"), std::string::npos) << r.msg;
}

TEST_F(GpuEmulated, MemoryBudgetTooSmallForAnything)
{
    Net n = counters(2, 3);
    pn_engine_opts o = opts();
    pn_budget b2 = pn_budget_make(0, nullptr, 100);
    o.budget = &b2;
    Result r;
    run(Engine::Emulated, n.get(), o, &r);
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    EXPECT_EQ(r.r.status, PN_RUN_OUT_OF_MEMORY) << show(r.r);
    EXPECT_EQ(r.r.states, 0u);
}

TEST_F(GpuEmulated, MemoryBudgetReachedMidway)
{
    Net n = counters(4, 12);
    for (uint64_t budget : {64u << 10, 256u << 10, 400u << 10}) {
        SCOPED_TRACE(budget);
        pn_engine_opts o = opts();
        pn_budget b3 = pn_budget_make(0, nullptr, budget);
        o.budget = &b3;
        gpu_emu_peak = 0;
        Result r;
        run(Engine::Emulated, n.get(), o, &r);
        ASSERT_EQ(r.st, PN_OK) << r.msg;
        EXPECT_EQ(r.r.status, PN_RUN_OUT_OF_MEMORY) << show(r.r);
        EXPECT_GT(r.r.states, 0u);
        EXPECT_LT(r.r.states, ipow(13, 4));
        EXPECT_LE(r.r.bytes, budget);
        // States, table and the fixed blocks (net, counters, flags) only.
        EXPECT_LE(gpu_emu_peak, budget + (16u << 10)) << "device peak beyond the budget";
    }
}

TEST_F(GpuEmulated, DeviceSmallerThanTheStateSpace)
{
    gpu_emu_limit = 1 << 20; // a 1 MiB "device": the budget comes from its free memory
    Net n = counters(5, 12); // 371293 states: 7 MB at least
    Result r;
    run(Engine::Emulated, n.get(), opts(), &r);
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    EXPECT_EQ(r.r.status, PN_RUN_OUT_OF_MEMORY) << show(r.r);
    EXPECT_LE(gpu_emu_peak, (size_t)1 << 20);
    EXPECT_GT(r.r.states, 1000u);
}

TEST_F(GpuEmulated, WideningNeedsMoreThanTheBudget)
{
    // p0 (2^40 tokens, 41 bits, no arcs), a budget p1 of 5000 (13 bits) and
    // a counter p2 fed from it share one word until the counter passes 255:
    // at 16 bits it needs a second word (the widenings to 2, 4 and 8 bits
    // fit). A 16 KB budget holds the 1-word
    // table (1024 slots, 768 states: 14 KB) but not the 2-word one, so the
    // run ends at that widening, as the CPU engine's does with its id store.
    // Both compact tables restart wider instead and fail at once, with 0.
    Net n = make({1ULL << 40, 5000, 0}, 1, {{1, 0, true, 1}, {2, 0, false, 1}});
    pn_engine_opts o = opts();
    pn_budget b4 = pn_budget_make(0, nullptr, 16 << 10);
    o.budget = &b4;
    Result cpu, r, cpu_compact, compact;
    pn_engine_opts full = o;
    full.store = PN_STORE_FULL;
    run(Engine::Cpu, n.get(), full, &cpu);
    run(Engine::Emulated, n.get(), full, &r);
    run(Engine::Cpu, n.get(), o, &cpu_compact);
    run(Engine::Emulated, n.get(), o, &compact);
    ASSERT_EQ(compact.st, PN_OK) << compact.msg;
    EXPECT_EQ(compact.r.status, PN_RUN_OUT_OF_MEMORY) << show(compact.r);
    EXPECT_EQ(compact.r.status, cpu_compact.r.status) << show(cpu_compact.r);
    EXPECT_EQ(compact.r.states, cpu_compact.r.states);
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    EXPECT_EQ(r.r.status, PN_RUN_OUT_OF_MEMORY) << show(r.r);
    EXPECT_EQ(cpu.r.status, PN_RUN_OUT_OF_MEMORY) << show(cpu.r);
    EXPECT_EQ(r.r.states, cpu.r.states);
    EXPECT_EQ(r.r.state_words, 1u);
    EXPECT_EQ(r.r.states, 256u) << "the counter's 8-bit values 0..255";
    EXPECT_LE(r.r.bytes, 16u << 10);
}

TEST_F(GpuEmulated, EveryAllocationFailureEndsCleanly)
{
    // Fail the k-th device allocation, for every k a run makes: the run
    // must end with OUT_OF_MEMORY (or complete, when k is past its last
    // allocation), give back all device memory (TearDown) and never crash.
    Net n = make({300, 0, 2}, 2,
                 {{0, 0, true, 1}, {1, 0, false, 1}, {2, 1, true, 1}, {2, 1, false, 1}});
    pn_engine_opts o = opts();
    o.keep_parents = true;
    Result cpu;
    run(Engine::Cpu, n.get(), o, &cpu);
    bool completed = false;
    unsigned k = 1;
    for (; k < 200 && !completed; k++) {
        SCOPED_TRACE("failing allocation " + std::to_string(k));
        gpu_emu_fail_after = k;
        Result r;
        run(Engine::Emulated, n.get(), o, &r);
        ASSERT_EQ(r.st, PN_OK) << r.msg;
        ASSERT_EQ(gpu_emu_used, 0u);
        if (r.r.status == PN_RUN_COMPLETE) {
            expect_same(r.r, cpu.r);
            completed = true;
        } else {
            EXPECT_EQ(r.r.status, PN_RUN_OUT_OF_MEMORY) << show(r.r);
        }
    }
    EXPECT_TRUE(completed);
    EXPECT_GE(k, 20u) << "fewer device allocations than the growth and widening steps need";
}

TEST_F(GpuEmulated, CancelAndTimeout)
{
    Net n = counters(4, 12);
    volatile int cancel = 1;
    pn_engine_opts o = opts();
    pn_budget b6 = pn_budget_make(0, &cancel, 0);
    o.budget = &b6;
    Result c;
    run(Engine::Emulated, n.get(), o, &c);
    ASSERT_EQ(c.st, PN_OK) << c.msg;
    EXPECT_EQ(c.r.status, PN_RUN_CANCELLED);
    EXPECT_LT(c.r.states, ipow(13, 4));

    struct Ctx {
        std::vector<pn_progress> seen;
        static void on_progress(void *ctx, const pn_progress *p)
        {
            static_cast<Ctx *>(ctx)->seen.push_back(*p);
        }
    } ctx;
    Net big = counters(12, 3); // 16.7M states: far beyond 0.3 s emulated
    o = opts();
    pn_budget b8 = pn_budget_make(0.3, nullptr, 0);
    o.budget = &b8;
    o.progress = Ctx::on_progress;
    o.progress_ctx = &ctx;
    o.progress_interval_s = 0.05;
    Result t;
    run(Engine::Emulated, big.get(), o, &t);
    ASSERT_EQ(t.st, PN_OK) << t.msg;
    EXPECT_EQ(t.r.status, PN_RUN_TIMEOUT) << show(t.r);
    EXPECT_GE(t.r.seconds, 0.3);
    EXPECT_LT(t.r.seconds, 10.0);
    ASSERT_GE(ctx.seen.size(), 1u);
    for (size_t i = 1; i < ctx.seen.size(); i++)
        EXPECT_GE(ctx.seen[i].states, ctx.seen[i - 1].states);
    EXPECT_LE(ctx.seen.back().states, t.r.states);
}

TEST_F(GpuEmulated, UnboundedNetStopsAtTheBudget)
{
    Net n = make({0}, 1, {{0, 0, false, 1}});
    pn_engine_opts o = opts();
    pn_budget b0 = pn_budget_make(5.0, nullptr, 1 << 20);
    o.budget = &b0;
    Result r;
    run(Engine::Emulated, n.get(), o, &r);
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    EXPECT_TRUE(r.r.status == PN_RUN_OUT_OF_MEMORY || r.r.status == PN_RUN_TIMEOUT)
        << show(r.r);
    EXPECT_GT(r.r.states, 1000u);
    EXPECT_LE(r.r.bytes, 1u << 20);
}
