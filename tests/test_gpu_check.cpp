// The GPU engine's second step, emulated on the CPU (kernels/gpu_emu.cuh: every
// kernel thread run in turn): the check's items evaluated by the expansion
// kernel (kernels/pn_items.h), the compact table on the device, and the random
// walk kernel. Against:
//   - the CPU engine with the check's visitor, on every "small" MCC instance
//     for UB, RC, RF, RD, OS, QL, SM (answers and values equal; the instances
//     above 30 000 states are Big_, which CI leaves out);
//   - full enumeration (tests/test_enum.h) on random nets, for the items and
//     for the walks (a walk's answer is never wrong);
//   - the CPU engine's compact runs (states, edges, maxima, restarts, the
//     compact flag) on nets that grow the table, widen and restart, and hold
//     the all-zero marking;
//   - itself: the same seed gives the same walks.
// What emulation cannot show (races, shuffles, speed) is the device plan's
// (docs/gpu.md, tools/gpu-plan.sh).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "petrel/check.h"
#include "petrel/engine.h"
#include "petrel/examine.h"
#include "petrel/formula.h"
#include "petrel/gpu.h"
#include "petrel/mcc.h"
#include "petrel/pnml.h"
#include "petrel/walk.h"
#include "formula/sformula.h"
#include "test_enum.h"
#include "test_text.h"

// The engine and the walks as host code (static functions only).
#define PN_GPU_EMULATE 1
#include "gpu_kernels.cu"
#include "gpu_device.cu"
#include "gpu_items.cu"
#include "engine/gpu_engine.cu"
#include "engine/gpu_walk.cu"

namespace {

class GpuEmulatedCheck : public ::testing::Test {
  protected:
    void SetUp() override
    {
        gpu_emu_limit = (size_t)1 << 30;
        gpu_emu_used = 0;
        gpu_emu_fail_after = 0;
        gpu_emu_local_max = 128;
    }
    void TearDown() override
    {
        EXPECT_EQ(gpu_emu_used, 0u) << "device memory left allocated after the run";
    }
};

pn_engine_opts engine_opts()
{
    pn_engine_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    return o;
}

struct CheckRun {
    pn_status st = PN_OK;
    std::string msg;
    std::vector<pn_answer> answers;
    std::vector<std::vector<uint32_t>> traces; // per answer with a witness (keep_parents)
    pn_engine_result r;
    CheckRun() { memset(&r, 0, sizeof r); }
    ~CheckRun() { pn_engine_result_free(&r); }
};

enum class Engine { Cpu, Emulated, Device };

// Without a usable device the GpuDevice* tests skip, saying why.
#define REQUIRE_GPU()                                                                      \
    do {                                                                                   \
        char why_[256];                                                                    \
        if (!pn_gpu_available(why_, sizeof why_))                                          \
            GTEST_SKIP() << "no usable GPU: " << why_;                                     \
    } while (0)

// One exploration with a fresh check: the CPU engine runs its visitor, the
// GPU engine (emulated or on the device) evaluates the check's items in its
// kernel.
void run_check(Engine which, const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
               pn_engine_opts o, CheckRun *out)
{
    const bool gpu = which != Engine::Cpu;
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(cn, exam, set, 1, &c, &err), PN_OK) << err.msg;
    CheckPtr check(c);
    o.visitor = pn_check_visitor(c);
    o.check = gpu ? c : nullptr;
    out->st = which == Engine::Cpu        ? pn_explore(cn, &o, &out->r, &err)
              : which == Engine::Emulated ? gpu_explore_impl(cn, &o, &out->r, &err)
                                          : pn_gpu_explore(cn, &o, &out->r, &err);
    out->msg = err.msg;
    pn_check_finish(c, out->st == PN_OK ? &out->r : nullptr);
    for (uint32_t i = 0; i < pn_check_count(c); i++) {
        pn_answer a = *pn_check_answer(c, i);
        a.lasso = nullptr;
        out->answers.push_back(a);
        std::vector<uint32_t> path;
        uint32_t *p = nullptr;
        uint64_t len = 0;
        if (a.has_witness && pn_engine_trace(&out->r, a.witness, &p, &len))
            path.assign(p, p + len);
        free(p);
        out->traces.push_back(path);
    }
}

std::string show(const pn_answer &a)
{
    switch (a.verdict) {
    case PN_VERDICT_UNKNOWN: return "UNKNOWN";
    case PN_VERDICT_TRUE: return "TRUE";
    case PN_VERDICT_FALSE: return "FALSE";
    case PN_VERDICT_VALUE: return std::to_string(a.value);
    }
    return "?";
}

void expect_same_answers(const CheckRun &gpu, const CheckRun &cpu, const std::string &what)
{
    ASSERT_EQ(gpu.st, PN_OK) << what << ": " << gpu.msg;
    ASSERT_EQ(cpu.st, PN_OK) << what << ": " << cpu.msg;
    ASSERT_EQ(gpu.answers.size(), cpu.answers.size()) << what;
    for (size_t i = 0; i < gpu.answers.size(); i++)
        EXPECT_EQ(show(gpu.answers[i]), show(cpu.answers[i]))
            << what << ": answer " << i << " (" << cpu.answers[i].id << ")";
}

// ---- the MCC's small instances ----------------------------------------------------------

const char *const kExams[] = {"UpperBounds",   "ReachabilityCardinality",
                              "ReachabilityFireability", "ReachabilityDeadlock",
                              "OneSafe",       "QuasiLiveness",
                              "StableMarking"};

struct Instance {
    std::string name;
    uint64_t states = 0;
};

std::vector<Instance> small_instances(uint64_t lo, uint64_t hi)
{
    std::vector<Instance> out;
    std::ifstream in(PETREL_SHARED_DIR "/mcc/INDEX.tsv");
    std::string line;
    if (!std::getline(in, line))
        return out;
    std::vector<std::string> head = petrel_test::split_tabs(line);
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < head.size(); i++)
        col[head[i]] = i;
    if (!col.count("instance") || !col.count("group") || !col.count("states"))
        return out;
    while (std::getline(in, line)) {
        std::vector<std::string> c = petrel_test::split_tabs(line);
        Instance i;
        if (c.size() < head.size() || c[col["group"]] != "small" ||
            !petrel_test::parse_u64(c[col["states"]], &i.states))
            continue;
        i.name = c[col["instance"]];
        if (i.states > lo && i.states <= hi)
            out.push_back(i);
    }
    return out;
}

struct Loaded {
    NetPtr net;
    CnetPtr cn;
};

Loaded load(const std::string &instance)
{
    pn_error err;
    pn_error_clear(&err);
    Loaded l;
    std::string model = std::string(PETREL_SHARED_DIR "/mcc/") + instance + "/model.pnml";
    pn_net *net = nullptr;
    EXPECT_EQ(pn_pnml_read_file(model.c_str(), nullptr, &net, &err), PN_OK) << err.msg;
    l.net.reset(net);
    pn_cnet *cn = nullptr;
    if (net != nullptr) {
        EXPECT_EQ(pn_cnet_compile(net, &cn, &err), PN_OK) << err.msg;
    }
    l.cn.reset(cn);
    return l;
}

SetPtr formulas(const std::string &instance, const pn_net *net, pn_exam exam)
{
    const char *file = pn_exam_formula_file(exam);
    if (file == nullptr)
        return SetPtr();
    pn_error err;
    pn_error_clear(&err);
    std::string path = std::string(PETREL_SHARED_DIR "/mcc/") + instance + "/" + file;
    pn_fml_set *s = nullptr;
    EXPECT_EQ(pn_fml_read_file(path.c_str(), net, &s, &err), PN_OK) << path << ": " << err.msg;
    SetPtr set(s);
    if (s != nullptr) {
        EXPECT_EQ(pn_fml_set_simplify(s, &err), PN_OK) << err.msg;
    }
    return set;
}

// Each examination of each instance, on both engines: the same answers.
void instances_agree(Engine which, uint64_t lo, uint64_t hi)
{
    std::vector<Instance> rows = small_instances(lo, hi);
    if (rows.empty())
        GTEST_SKIP() << PETREL_SHARED_DIR "/mcc/INDEX.tsv is absent or lists no such instance";
    uint32_t cases = 0;
    for (const Instance &row : rows) {
        Loaded l = load(row.name);
        if (l.cn == nullptr)
            continue;
        for (const char *name : kExams) {
            pn_exam exam = pn_exam_parse(name);
            SetPtr set = formulas(row.name, l.net.get(), exam);
            if (pn_exam_formula_file(exam) != nullptr && set == nullptr)
                continue;
            CheckRun cpu, gpu;
            run_check(Engine::Cpu, l.cn.get(), exam, set.get(), engine_opts(), &cpu);
            run_check(which, l.cn.get(), exam, set.get(), engine_opts(), &gpu);
            expect_same_answers(gpu, cpu, row.name + " " + name);
            EXPECT_EQ(gpu.r.status, cpu.r.status) << row.name << " " << name;
            cases++;
        }
    }
    ::testing::Test::RecordProperty("cases", std::to_string(cases));
}

} // namespace

TEST_F(GpuEmulatedCheck, SmallInstancesAgreeWithTheCpuEngine)
{
    instances_agree(Engine::Emulated, 0, 30000);
}

// Up to 2.1 M states: the five small instances above (2.5 to 6.1 M states,
// three quarters of the states of this range) made it an 8-minute test; the
// emulator runs the same kernel code on the smaller ones, and
// GpuDeviceCheck and tools/gpu-plan.sh compare every instance on a device.
TEST_F(GpuEmulatedCheck, Big_SmallInstancesAgreeWithTheCpuEngine)
{
    instances_agree(Engine::Emulated, 30000, 2100000);
}

TEST(GpuDeviceCheck, SmallInstancesAgreeWithTheCpuEngine)
{
    REQUIRE_GPU();
    instances_agree(Engine::Device, 0, UINT64_MAX);
}

// --trace: each witness's path replays to a state that decides the item, and
// is as short as the CPU engine's (both take a witness of the first level that
// has one).
TEST_F(GpuEmulatedCheck, WitnessTracesAreShortestAndReplay)
{
    uint32_t traced = 0;
    for (const char *inst : {"Philosophers-PT-000005", "Dekker-PT-010", "Raft-PT-02",
                             "CircularTrains-PT-012", "TokenRing-PT-005"}) {
        Loaded l = load(inst);
        if (l.cn == nullptr)
            GTEST_SKIP() << "the MCC instances are absent";
        for (const char *name : {"ReachabilityCardinality", "ReachabilityFireability",
                                 "ReachabilityDeadlock", "OneSafe"}) {
            pn_exam exam = pn_exam_parse(name);
            SetPtr set = formulas(inst, l.net.get(), exam);
            pn_engine_opts o = engine_opts();
            o.keep_parents = true;
            CheckRun cpu, gpu;
            run_check(Engine::Cpu, l.cn.get(), exam, set.get(), o, &cpu);
            run_check(Engine::Emulated, l.cn.get(), exam, set.get(), o, &gpu);
            expect_same_answers(gpu, cpu, std::string(inst) + " " + name);
            EXPECT_FALSE(gpu.r.compact);
            for (size_t i = 0; i < gpu.answers.size(); i++) {
                ASSERT_EQ(gpu.answers[i].has_witness, cpu.answers[i].has_witness)
                    << inst << " " << name << " " << i;
                if (!gpu.answers[i].has_witness)
                    continue;
                EXPECT_EQ(gpu.traces[i].size(), cpu.traces[i].size()) << inst << " " << name;
                std::vector<uint64_t> m(l.cn->m0, l.cn->m0 + l.cn->n_places), next(m.size());
                for (uint32_t t : gpu.traces[i]) {
                    ASSERT_TRUE(pn_cnet_enabled(l.cn.get(), m.data(), t));
                    ASSERT_TRUE(pn_cnet_fire(l.cn.get(), m.data(), t, next.data()));
                    m.swap(next);
                }
                if (set != nullptr) { // the end state decides the formula
                    const pn_fml_node *root = set->props[i].root, *phi = nullptr;
                    bool neg = false;
                    while (root->kind == PN_FML_NOT) {
                        neg = !neg;
                        root = root->kids[0];
                    }
                    pn_fml_reach shape = pn_fml_reach_shape(root, &phi);
                    ASSERT_NE(shape, PN_FML_REACH_NONE);
                    EXPECT_EQ(pn_fml_eval_state(phi, l.cn.get(), m.data()),
                              shape == PN_FML_REACH_EF);
                }
                traced++;
            }
        }
    }
    EXPECT_GT(traced, 10u);
}

// Random nets, random formulas of every class, against enumeration.
TEST_F(GpuEmulatedCheck, RandomNetsAgreeWithEnumeration)
{
    std::mt19937_64 rng(0x6770756368656bULL);
    uint32_t nets = 0, answers = 0;
    for (int iter = 0; iter < 1500; iter++) {
        RandomCase rc;
        if (!random_case(rng, 6, 5, 3, &rc))
            continue;
        nets++;
        const pn_cnet *cn = rc.net.cn.get();
        const auto &states = rc.states;
        const uint32_t kind = rc.kind;
        const SetPtr &set = rc.set;
        pn_exam exam = kind == 2 ? PN_EXAM_UPPER_BOUNDS
                       : kind == 1 ? PN_EXAM_REACH_FIREABILITY
                                   : PN_EXAM_REACH_CARDINALITY;
        pn_engine_opts o = engine_opts();
        o.store = rng() % 4 == 0 ? PN_STORE_FULL : PN_STORE_AUTO; // mostly the compact table
        CheckRun gpu;
        run_check(Engine::Emulated, cn, exam, set.get(), o, &gpu);
        ASSERT_EQ(gpu.st, PN_OK) << gpu.msg;
        for (uint32_t i = 0; i < set->n; i++) {
            pn_answer want = truth(set->props[i].root, cn, states);
            const pn_answer &got = gpu.answers[i];
            EXPECT_NE(got.verdict, PN_VERDICT_UNKNOWN) << "net " << iter << " formula " << i;
            if (!agrees(got, want)) {
                char *text = pn_fml_to_string(set->props[i].root, nullptr);
                ADD_FAILURE() << "net " << iter << ": " << text << ": got " << show(got)
                              << ", want " << show(want);
                free(text);
            }
            answers++;
        }
        // The global properties by enumeration.
        bool dead = false, unsafe = false;
        std::vector<bool> fired(cn->n_transitions), moved(cn->n_places);
        for (const auto &m : states)
            for (uint32_t t = 0; t < cn->n_transitions; t++)
                fired[t] = fired[t] || pn_cnet_enabled(cn, m.data(), t);
        for (const auto &m : states) {
            bool any = false;
            for (uint32_t t = 0; t < cn->n_transitions; t++)
                any |= pn_cnet_enabled(cn, m.data(), t);
            dead |= !any;
            for (uint32_t p = 0; p < cn->n_places; p++) {
                unsafe |= m[p] > 1;
                moved[p] = moved[p] || m[p] != cn->m0[p];
            }
        }
        bool quasi = true, stable = false;
        for (bool f : fired)
            quasi &= f;
        for (bool mv : moved)
            stable |= !mv;
        const std::pair<pn_exam, bool> globals[] = {{PN_EXAM_REACH_DEADLOCK, dead},
                                                    {PN_EXAM_ONE_SAFE, !unsafe},
                                                    {PN_EXAM_QUASI_LIVENESS, quasi},
                                                    {PN_EXAM_STABLE_MARKING, stable}};
        for (const auto &g : globals) {
            CheckRun r;
            run_check(Engine::Emulated, cn, g.first, nullptr, o, &r);
            ASSERT_EQ(r.st, PN_OK) << r.msg;
            EXPECT_EQ(show(r.answers[0]), g.second ? "TRUE" : "FALSE")
                << "net " << iter << " " << pn_exam_name(g.first);
            answers++;
        }
    }
    EXPECT_GT(nets, 1000u);
    RecordProperty("answers", std::to_string(answers));
}

// ---- the compact table on the device -------------------------------------------------------

namespace {

struct Explored {
    pn_status st;
    std::string msg;
    pn_engine_result r;
};

Explored explore(bool gpu, const pn_cnet *cn, const pn_engine_opts &o)
{
    Explored x;
    pn_error err;
    pn_error_clear(&err);
    memset(&x.r, 0, sizeof x.r);
    x.st = gpu ? gpu_explore_impl(cn, &o, &x.r, &err) : pn_explore(cn, &o, &x.r, &err);
    x.msg = err.msg;
    return x;
}

std::string stats(const pn_engine_result &r)
{
    return std::string(pn_run_status_name(r.status)) + " " + std::to_string(r.states) + " " +
           std::to_string(r.edges) + " " + std::to_string(r.max_tokens_place) + " " +
           std::to_string(r.max_tokens_marking) + " " + std::to_string(r.levels) + " " +
           std::to_string(r.restarts) + " " + std::to_string(r.state_words) + " " +
           (r.compact ? "compact" : "id table");
}

} // namespace

TEST_F(GpuEmulatedCheck, CompactTableMatchesTheCpuEngine)
{
    struct Case {
        const char *what;
        RandomNetSpec spec;
        bool compact;
    };
    RandomNetSpec zero; // a token drains away: the all-zero marking is reachable
    zero.m0 = {3, 0};
    zero.n_trans = 2;
    zero.arcs = {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}};
    RandomNetSpec widen; // 1 -> 1000 tokens: restarts wider, stays one word
    widen.m0 = {1000, 0};
    widen.n_trans = 1;
    widen.arcs = {{0, 0, true, 1}, {1, 0, false, 1}};
    RandomNetSpec two_words; // 41 + 13 + 1 bits; the counter at 16 bits needs a second word
    two_words.m0 = {1ULL << 40, 5000, 0};
    two_words.n_trans = 1;
    two_words.arcs = {{1, 0, true, 1}, {2, 0, false, 1}};
    std::vector<Case> cases = {
        {"8 counters of 2 (6561 states: the table grows from 1024 slots)", counters_spec(8, 2),
         true},
        {"the all-zero marking", zero, true},
        {"widening restarts the compact run", widen, true},
        {"outgrows one word: the id table after the restart", two_words, false},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(c.what);
        Net n = build(c.spec);
        pn_engine_opts o = engine_opts();
        o.store = PN_STORE_COMPACT; // the GPU's rule: no tree store there (yet)
        Explored cpu = explore(false, n.cn.get(), o), gpu = explore(true, n.cn.get(), o);
        ASSERT_EQ(cpu.st, PN_OK) << cpu.msg;
        ASSERT_EQ(gpu.st, PN_OK) << gpu.msg;
        EXPECT_EQ(stats(gpu.r), stats(cpu.r));
        EXPECT_EQ(gpu.r.compact, c.compact);
        pn_engine_opts full = o;
        full.store = PN_STORE_FULL;
        Explored ids = explore(true, n.cn.get(), full);
        ASSERT_EQ(ids.st, PN_OK) << ids.msg;
        EXPECT_FALSE(ids.r.compact);
        EXPECT_EQ(ids.r.states, cpu.r.states);
        EXPECT_EQ(ids.r.edges, cpu.r.edges);
        if (c.compact) { // 8 bytes a slot at load 5/8..4/5, against the id table's store
            EXPECT_LT(gpu.r.bytes, ids.r.bytes);
        }
        pn_engine_result_free(&cpu.r);
        pn_engine_result_free(&gpu.r);
        pn_engine_result_free(&ids.r);
    }
}

// Under a budget too small for 8/5 of the states the table fills up to 9/10
// ("tight", the CPU engine's rule), and below that the run ends out of memory
// within the budget. The GPU plans its launches down to one state when room is
// short, so it completes wherever the CPU engine does (here also at 130 KB,
// where the CPU engine's rounds of 64 states need more room).
TEST_F(GpuEmulatedCheck, CompactTableUnderATightBudget)
{
    Net n = build(counters_spec(8, 2)); // 6561 states, 69984 edges
    Explored ref = explore(false, n.cn.get(), engine_opts());
    ASSERT_EQ(ref.r.status, PN_RUN_COMPLETE);
    uint32_t tight = 0;
    for (uint64_t budget : {200000ull, 130000ull, 90000ull, 60000ull, 20000ull}) {
        SCOPED_TRACE(budget);
        pn_budget b = pn_budget_make(0, nullptr, budget);
        pn_engine_opts o = engine_opts();
        o.budget = &b;
        Explored cpu = explore(false, n.cn.get(), o), gpu = explore(true, n.cn.get(), o);
        ASSERT_EQ(gpu.st, PN_OK) << gpu.msg;
        if (cpu.r.status == PN_RUN_COMPLETE) {
            EXPECT_EQ(gpu.r.status, PN_RUN_COMPLETE) << stats(gpu.r);
        }
        EXPECT_TRUE(gpu.r.status == PN_RUN_COMPLETE || gpu.r.status == PN_RUN_OUT_OF_MEMORY);
        if (gpu.r.status == PN_RUN_COMPLETE) {
            EXPECT_EQ(stats(gpu.r), stats(ref.r));
        }
        EXPECT_LE(gpu.r.bytes, budget) << stats(gpu.r);
        // Growing to 8/5 of the states (84 KB of slots) beside the table before
        // it (5/8 of that) takes 136 KB: a run completed below that was tight.
        tight += gpu.r.status == PN_RUN_COMPLETE && budget < 136000;
        pn_engine_result_free(&cpu.r);
        pn_engine_result_free(&gpu.r);
    }
    EXPECT_GE(tight, 1u) << "no budget exercised the 9/10 load";
    pn_engine_result_free(&ref.r);
}

// Every device allocation of a compact run with formulas fails in turn: the
// run ends out of memory (or with the error), and frees everything.
TEST_F(GpuEmulatedCheck, EveryAllocationFailureEndsCleanly)
{
    Net n = build(counters_spec(6, 3));
    pn_fml_node *d = pn_fml_leaf(PN_FML_DEADLOCK);
    uint32_t p = 1;
    SetPtr set = make_set(n.net.get(), {pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, d)),
                                        pn_fml_list(PN_FML_PLACE_BOUND, &p, 1)});
    for (unsigned k = 1; k < 40; k++) {
        SCOPED_TRACE(k);
        gpu_emu_fail_after = k;
        CheckRun r;
        run_check(Engine::Emulated, n.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get(),
                  engine_opts(), &r);
        EXPECT_TRUE(r.st == PN_OK || r.st == PN_ERR_NOMEM || r.st == PN_ERR_INTERNAL) << r.msg;
        if (r.st == PN_OK && r.r.status == PN_RUN_COMPLETE) {
            EXPECT_EQ(show(r.answers[0]), "FALSE");
            EXPECT_EQ(show(r.answers[1]), "3");
        }
        EXPECT_EQ(gpu_emu_used, 0u);
        gpu_emu_fail_after = 0;
    }
}

// ---- random walks on the device ----------------------------------------------------------------

namespace {

// The check's walk goals (open E F / A G targets, bounds with a limit) as
// kernel items, the way host/engine/walk.c hands them to pn_gpu_walk.
struct Goals {
    std::vector<pn_item> items;
    std::vector<pn_sformula_owned *> sf;
    ~Goals()
    {
        for (pn_sformula_owned *f : sf)
            pn_sformula_free(f);
    }
};

void goals_of(pn_check *c, Goals *g)
{
    pn_error err;
    pn_error_clear(&err);
    for (uint32_t i = 0; i < pn_check_count(c); i++) {
        const pn_fml_node *phi = nullptr;
        const uint32_t *places = nullptr;
        uint32_t np = 0;
        pn_check_target k = pn_check_target_of(c, i, &phi, &places, &np);
        pn_item it;
        memset(&it, 0, sizeof it);
        it.answer = i;
        it.local = UINT32_MAX;
        uint64_t limit = 0;
        uint32_t tech = 0;
        if (k == PN_TARGET_BOUND && pn_check_bound_known(c, i, &limit, &tech)) {
            it.kind = PN_ITEM_BOUND;
            it.places = places;
            it.n_places = np;
            it.has_limit = 1;
            it.limit = limit;
            it.local = (uint32_t)g->items.size() % 3 == 0 ? UINT32_MAX : (uint32_t)g->items.size();
        } else if (k == PN_TARGET_EF || k == PN_TARGET_AG) {
            pn_sformula_owned *f = nullptr;
            ASSERT_EQ(pn_sformula_compile(phi, &f, &err), PN_OK) << err.msg;
            g->sf.push_back(f);
            it.kind = k == PN_TARGET_EF ? PN_ITEM_EF : PN_ITEM_AG;
            it.f = f->f;
        } else {
            continue;
        }
        g->items.push_back(it);
    }
}

pn_walk_opts walk_opts(uint64_t seed, uint64_t walks, uint64_t steps)
{
    pn_walk_opts o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.max_walks = walks;
    o.max_steps = steps;
    return o;
}

} // namespace

// Whatever a GPU walk finds is true (against enumeration), and the same
// seed finds the same.
TEST_F(GpuEmulatedCheck, WalksAreSoundAndReproducible)
{
    std::mt19937_64 rng(0x77616c6b67707521ULL);
    uint32_t nets = 0, found = 0;
    for (int iter = 0; iter < 150; iter++) {
        RandomCase rc;
        if (!random_case(rng, 5, 4, 3, &rc))
            continue;
        nets++;
        const pn_cnet *cn = rc.net.cn.get();
        const auto &states = rc.states;
        const uint32_t kind = rc.kind;
        const SetPtr &set = rc.set;
        pn_error err;
        pn_error_clear(&err);
        pn_check *c = nullptr;
        ASSERT_EQ(pn_check_new(cn, kind == 2 ? PN_EXAM_UPPER_BOUNDS : PN_EXAM_REACH_CARDINALITY,
                               set.get(), 1, &c, &err),
                  PN_OK);
        CheckPtr check(c);
        std::vector<uint64_t> limit(set->n);
        for (uint32_t i = 0; kind == 2 && i < set->n; i++) {
            limit[i] = truth(set->props[i].root, cn, states).value + (rng() % 4 == 0);
            pn_check_bound_limit(c, i, limit[i], false, PN_TECH_LINEAR_EQUATIONS);
        }
        Goals g;
        goals_of(c, &g);
        pn_walk_opts o = walk_opts(rng(), 1, 1 + rng() % 60);
        std::vector<pn_item_found> a(g.items.size() + 1), b(g.items.size() + 1);
        ASSERT_EQ(gpu_walk_impl(cn, g.items.data(), (uint32_t)g.items.size(), &o, a.data(), &err),
                  PN_OK)
            << err.msg;
        ASSERT_EQ(gpu_walk_impl(cn, g.items.data(), (uint32_t)g.items.size(), &o, b.data(), &err),
                  PN_OK);
        for (size_t k = 0; k < g.items.size(); k++) {
            EXPECT_EQ(a[k].witness, b[k].witness) << "the same seed, another walk";
            EXPECT_EQ(a[k].max, b[k].max);
            if (a[k].witness == PN_ITEM_NONE)
                continue;
            found++;
            uint32_t i = g.items[k].answer;
            pn_answer want = truth(set->props[i].root, cn, states);
            if (kind == 2) {
                EXPECT_EQ(want.value, limit[i]) << "a walk reached a bound above the true one";
                EXPECT_EQ(a[k].max, limit[i]);
            } else {
                bool neg = set->props[i].root->kind == PN_FML_NOT;
                // EF found: the target holds; AG violated: it does not.
                bool ef = g.items[k].kind == PN_ITEM_EF;
                EXPECT_EQ(want.verdict, (ef != neg) ? PN_VERDICT_TRUE : PN_VERDICT_FALSE)
                    << "net " << iter << " formula " << i;
            }
        }
    }
    EXPECT_GT(nets, 100u);
    EXPECT_GT(found, 100u);
}

// The walks in the portfolio's step (pn_walk_decide with gpu): without a
// device they fall back to the CPU walkers, with the same answers.
TEST_F(GpuEmulatedCheck, WalkStepFallsBackToTheCpuWithoutADevice)
{
    char why[256];
    if (pn_gpu_available(why, sizeof why))
        GTEST_SKIP() << "a usable GPU: the GPU walks run (GpuDevice tests)";
    RandomNetSpec s = counters_spec(3, 4);
    Net n = build(s);
    uint32_t p = 1;
    pn_fml_node *three = pn_fml_binary(PN_FML_INT_LE, pn_fml_const(3),
                                       pn_fml_list(PN_FML_TOKENS, &p, 1));
    SetPtr set = make_set(n.net.get(), {pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, three))});
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(n.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get(), 1, &c, &err), PN_OK);
    CheckPtr check(c);
    pn_walk_opts o = walk_opts(7, 20, 200);
    o.gpu = true;
    o.threads = 1;
    uint32_t decided = 0;
    ASSERT_EQ(pn_walk_decide(n.cn.get(), c, &o, &decided, &err), PN_OK) << err.msg;
    EXPECT_EQ(decided, 1u);
}

// A walk whose counter outgrows its field: the host widens and the walks
// start over until the bound (600 tokens in p1) is reached.
TEST_F(GpuEmulatedCheck, WalksWidenAndReachTheBound)
{
    RandomNetSpec s;
    s.m0 = {600, 0};
    s.n_trans = 1;
    s.arcs = {{0, 0, true, 1}, {1, 0, false, 1}};
    Net n = build(s);
    pn_item it;
    memset(&it, 0, sizeof it);
    uint32_t p = 1;
    it.kind = PN_ITEM_BOUND;
    it.places = &p;
    it.n_places = 1;
    it.has_limit = 1;
    it.limit = 600;
    it.local = 0;
    pn_item_found f;
    pn_walk_opts o = walk_opts(3, 4, 1000);
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(gpu_walk_impl(n.cn.get(), &it, 1, &o, &f, &err), PN_OK) << err.msg;
    EXPECT_NE(f.witness, PN_ITEM_NONE);
    EXPECT_EQ(f.max, 600u);
}

// The walks on the device: whatever they find is true.
TEST(GpuDeviceCheck, WalksAreSound)
{
    REQUIRE_GPU();
    std::mt19937_64 rng(0x6465766963657721ULL);
    uint32_t found = 0;
    for (int iter = 0; iter < 100; iter++) {
        RandomCase rc;
        if (!random_case(rng, 5, 4, 2, &rc))
            continue;
        const pn_cnet *cn = rc.net.cn.get();
        const auto &states = rc.states;
        const SetPtr &set = rc.set;
        pn_error err;
        pn_error_clear(&err);
        pn_check *c = nullptr;
        ASSERT_EQ(pn_check_new(cn, PN_EXAM_REACH_CARDINALITY, set.get(), 1, &c, &err), PN_OK);
        CheckPtr check(c);
        Goals g;
        goals_of(c, &g);
        pn_walk_opts o = walk_opts(rng(), 1, 50);
        std::vector<pn_item_found> f(g.items.size() + 1);
        ASSERT_EQ(pn_gpu_walk(cn, g.items.data(), (uint32_t)g.items.size(), &o, f.data(), &err),
                  PN_OK)
            << err.msg;
        for (size_t k = 0; k < g.items.size(); k++) {
            if (f[k].witness == PN_ITEM_NONE)
                continue;
            found++;
            uint32_t i = g.items[k].answer;
            bool neg = set->props[i].root->kind == PN_FML_NOT;
            bool ef = g.items[k].kind == PN_ITEM_EF;
            EXPECT_EQ(truth(set->props[i].root, cn, states).verdict,
                      (ef != neg) ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
        }
    }
    EXPECT_GT(found, 50u);
}

// The portfolio under GPU_OR_CPU (auto with a device) on a machine without
// one: every GPU exploration and walk fails and is redone on the CPU, with
// the CPU engine's answers.
TEST(GpuPortfolio, GpuOrCpuFallsBackToTheCpuWithoutADevice)
{
    char why[256];
    if (pn_gpu_available(why, sizeof why))
        GTEST_SKIP() << "a usable GPU: the fallback is not taken";
    for (const char *inst : {"Philosophers-PT-000005", "Dekker-PT-010"}) {
        Loaded l = load(inst);
        if (l.cn == nullptr)
            GTEST_SKIP() << "the MCC instances are absent";
        for (const char *name : {"ReachabilityCardinality", "UpperBounds", "ReachabilityDeadlock",
                                 "QuasiLiveness", "StableMarking"}) {
            pn_exam exam = pn_exam_parse(name);
            SetPtr set = formulas(inst, l.net.get(), exam);
            std::vector<std::string> got[2];
            for (int k = 0; k < 2; k++) {
                pn_examine_opts o;
                memset(&o, 0, sizeof o);
                o.explore.threads = 1;
                o.engine = k == 0 ? PN_ENGINE_CPU : PN_ENGINE_GPU_OR_CPU;
                pn_budget budget = pn_budget_make(60, nullptr, 0);
                pn_error err;
                pn_error_clear(&err);
                pn_report *r = nullptr;
                ASSERT_EQ(pn_examine(l.cn.get(), exam, set.get(), &o, &budget, &r, &err), PN_OK)
                    << err.msg;
                for (uint32_t i = 0; i < pn_check_count(r->check); i++)
                    got[k].push_back(show(*pn_check_answer(r->check, i)));
                pn_report_free(r);
            }
            EXPECT_EQ(got[1], got[0]) << inst << " " << name;
            for (const std::string &a : got[1])
                EXPECT_NE(a, "UNKNOWN") << inst << " " << name;
        }
    }
}
