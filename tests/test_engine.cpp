// The CPU exploration engine (host/engine/engine_cpu.c): hand-made nets with
// hand-computed state spaces, random nets against a reference BFS written
// here on the unpacked reference (cnet.c), determinism across thread counts,
// widening restarts, and every way a run can end early.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "petrel/cnet.h"
#include "petrel/engine.h"
#include "petrel/error.h"
#include "petrel/graph.h"
#include "petrel/net.h"
#include "petrel/sysinfo.h"
#include "test_ptrs.h"
#include "test_random_net.h"

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
    n.net.reset(pn_net_new("engine"));
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

pn_engine_opts opts(uint32_t threads)
{
    pn_engine_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    return o;
}

pn_engine_result explore(const pn_cnet *cn, const pn_engine_opts &o)
{
    pn_engine_result res;
    memset(&res, 0xff, sizeof res);
    pn_error err;
    pn_error_clear(&err);
    EXPECT_EQ(pn_explore(cn, &o, &res, &err), PN_OK) << err.msg;
    return res;
}

pn_engine_result explore(const pn_cnet *cn, uint32_t threads = 1)
{
    return explore(cn, opts(threads));
}

std::string show(const pn_engine_result &r)
{
    return std::string("status ") + pn_run_status_name(r.status) + ", " + std::to_string(r.states) +
           " states, " + std::to_string(r.edges) + " edges, max place " +
           std::to_string(r.max_tokens_place) + ", max marking " +
           std::to_string(r.max_tokens_marking) + ", " + std::to_string(r.levels) +
           " levels, " + std::to_string(r.restarts) + " restarts";
}

void expect_space(const pn_engine_result &r, uint64_t states, uint64_t edges, uint64_t max_place,
                  uint64_t max_marking)
{
    EXPECT_EQ(r.status, PN_RUN_COMPLETE) << show(r);
    EXPECT_EQ(r.states, states) << show(r);
    EXPECT_EQ(r.edges, edges) << show(r);
    EXPECT_EQ(r.max_tokens_place, max_place) << show(r);
    EXPECT_EQ(r.max_tokens_marking, max_marking) << show(r);
}

// N independent components, each a budget place (c tokens) and a counter
// place: inc moves a token budget -> counter, dec moves it back.
// (c+1)^N states; per component 2c (marking, transition) pairs over its
// c+1 counts, so N * 2c * (c+1)^(N-1) edges; the token sum is N*c always.
// The net of a spec (test_random_net.h).
Net from_spec(const RandomNetSpec &s)
{
    std::vector<Arc> arcs;
    for (const RandomArc &a : s.arcs)
        arcs.push_back({a.place, a.trans, a.to_trans, a.weight});
    return make(s.m0, s.n_trans, arcs);
}

Net counters(uint32_t N, uint64_t c) { return from_spec(counters_spec(N, c)); }

uint64_t ipow(uint64_t b, unsigned e)
{
    uint64_t r = 1;
    while (e--)
        r *= b;
    return r;
}

// Records every visited marking (a state may be visited again after a
// restart: the record is a set) with its enabled count.
struct Recorder {
    std::mutex mu;
    uint32_t n_places = 0, threads = 1;
    std::map<std::vector<uint64_t>, uint32_t> seen;
    std::set<uint64_t> ids;
    bool bad_worker = false, inconsistent = false;
    std::atomic<uint64_t> calls{0};

    static bool on_state(void *ctx, uint32_t worker, uint64_t id, const uint64_t *m,
                         uint32_t n_enabled)
    {
        Recorder *r = static_cast<Recorder *>(ctx);
        r->calls++;
        std::vector<uint64_t> v(m, m + r->n_places);
        std::lock_guard<std::mutex> lock(r->mu);
        if (worker >= r->threads)
            r->bad_worker = true;
        auto it = r->seen.find(v);
        if (it != r->seen.end() && it->second != n_enabled)
            r->inconsistent = true;
        r->seen[v] = n_enabled;
        r->ids.insert(id);
        return false;
    }
};

// Reference: plain BFS over unpacked markings with pn_cnet_enabled/fire.
struct Reference {
    uint64_t states = 0, edges = 0, max_place = 0, max_marking = 0, depth = 0;
    std::map<std::vector<uint64_t>, uint32_t> enabled;
    std::map<std::vector<uint64_t>, uint64_t> distance;
};

Reference reference_bfs(const pn_cnet *cn)
{
    Reference r;
    std::map<std::vector<uint64_t>, uint64_t> level;
    std::deque<std::vector<uint64_t>> queue;
    std::vector<uint64_t> m0(cn->m0, cn->m0 + cn->n_places);
    level[m0] = 0;
    queue.push_back(m0);
    while (!queue.empty()) {
        std::vector<uint64_t> m = queue.front();
        queue.pop_front();
        uint64_t d = level[m], sum = 0;
        r.depth = std::max(r.depth, d);
        for (uint64_t v : m) {
            r.max_place = std::max(r.max_place, v);
            sum += v;
        }
        r.max_marking = std::max(r.max_marking, sum);
        uint32_t n = 0;
        for (uint32_t t = 0; t < cn->n_transitions; t++) {
            if (!pn_cnet_enabled(cn, m.data(), t))
                continue;
            n++;
            std::vector<uint64_t> out(cn->n_places);
            EXPECT_TRUE(pn_cnet_fire(cn, m.data(), t, out.data()));
            if (level.emplace(out, d + 1).second)
                queue.push_back(out);
        }
        r.enabled[m] = n;
        r.edges += n;
    }
    r.states = level.size();
    r.distance = level;
    return r;
}

// A random bounded net (test_random_net.h).
Net random_bounded_net(std::mt19937_64 &rng, uint32_t P, uint32_t T)
{
    return from_spec(random_bounded_spec(rng, P, T));
}

} // namespace

// ---- hand-computed state spaces -------------------------------------------------

TEST(Engine, SinglePlaceNoTransitions)
{
    Net n = make({5}, 0, {});
    pn_engine_result r = explore(n.get());
    expect_space(r, 1, 0, 5, 5);
    EXPECT_EQ(r.levels, 0u);
    EXPECT_EQ(r.restarts, 0u);
    EXPECT_EQ(r.state_words, 1u);
    EXPECT_EQ(r.threads, 1u);
    EXPECT_GT(r.bytes, 0u);
    EXPECT_GE(r.seconds, 0.0);
}

TEST(Engine, TwoStateCycle)
{
    // p0 -> t0 -> p1 -> t1 -> p0 with one token.
    Net n = make({1, 0}, 2, {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}, {0, 1, false, 1}});
    pn_engine_result r = explore(n.get());
    expect_space(r, 2, 2, 1, 1);
    EXPECT_EQ(r.levels, 1u);
}

TEST(Engine, DeadInitialMarking)
{
    // t0 needs 2 tokens in p0, which has 1: a single deadlocked state.
    Net n = make({1, 0}, 1, {{0, 0, true, 2}, {1, 0, false, 1}});
    expect_space(explore(n.get()), 1, 0, 1, 1);
}

TEST(Engine, SelfLoopIsAnEdge)
{
    // t0 reads p0 and gives it back: one state with a self-loop edge; t1,
    // without any arc, is always enabled and also a self-loop.
    Net n = make({2}, 2, {{0, 0, true, 2}, {0, 0, false, 2}});
    expect_space(explore(n.get()), 1, 2, 2, 2);
}

TEST(Engine, NoPlacesOneTransition)
{
    pn_error err;
    pn_error_clear(&err);
    std::unique_ptr<pn_net, NetDeleter> net(pn_net_new("noplaces"));
    ASSERT_GE(pn_net_add_transition(net.get(), "t", nullptr, &err), 0);
    pn_cnet *cn = nullptr;
    ASSERT_EQ(pn_cnet_compile(net.get(), &cn, &err), PN_OK) << err.msg;
    std::unique_ptr<pn_cnet, CnetDeleter> owner(cn);
    expect_space(explore(cn), 1, 1, 0, 0);
}

TEST(Engine, WeightedNet)
{
    // p0=7; t0: p0 -2-> t0 -3-> p1; t1: p1 -3-> t1 -1-> p2.
    // After k firings of t0 and j <= k of t1: p0 = 7-2k, p1 = 3(k-j), p2 = j,
    // k <= 3: 10 states. t0 is enabled when k <= 2 (6 states), t1 when
    // j < k (6 states): 12 edges. Max place p1 = 9 (k=3, j=0); the token sum
    // 7 + k - 2j peaks at 10; the deepest state (3,3) is 6 firings away.
    Net n = make({7, 0, 0}, 2,
                 {{0, 0, true, 2}, {1, 0, false, 3}, {1, 1, true, 3}, {2, 1, false, 1}});
    pn_engine_result r = explore(n.get());
    expect_space(r, 10, 12, 9, 10);
    EXPECT_EQ(r.levels, 6u);
}

TEST(Engine, CounterTo1000WidensSeveralTimes)
{
    // budget (1000) -> t0 -> counter: the counter starts with a 1-bit field
    // and must be widened on the way to 1000.
    Net n = make({1000, 0}, 1, {{0, 0, true, 1}, {1, 0, false, 1}});
    Recorder rec;
    rec.n_places = 2;
    pn_visitor v{Recorder::on_state, &rec};
    pn_engine_opts o = opts(1);
    o.visitor = &v;
    pn_engine_result r = explore(n.get(), o);
    expect_space(r, 1001, 1000, 1000, 1000);
    EXPECT_EQ(r.levels, 1000u);
    EXPECT_GE(r.restarts, 1u);
    EXPECT_EQ(rec.seen.size(), 1001u);
    EXPECT_EQ(rec.seen.count({0, 1000}), 1u) << "the counter reached 1000";
    EXPECT_EQ(rec.seen.at({0, 1000}), 0u) << "the last state is dead";
    EXPECT_EQ(rec.ids.size(), 1001u);
    EXPECT_EQ(*rec.ids.rbegin(), 1000u) << "ids are dense";
}

TEST(Engine, WideningFrom32To64Bits)
{
    // p1 starts at 2^32-1 (a 32-bit field) and gains 3 tokens.
    const uint64_t big = (1ULL << 32) - 1;
    Net n = make({3, big}, 1, {{0, 0, true, 1}, {1, 0, false, 1}});
    pn_engine_result r = explore(n.get(), 2);
    expect_space(r, 4, 3, big + 3, big + 3);
    EXPECT_GE(r.restarts, 1u);
}

TEST(Engine, TokenCountBeyond64BitsIsReported)
{
    // A free transition adds a token to a place at 2^64-2: the second
    // successor would need 2^64 tokens.
    Net n = make({UINT64_MAX - 1}, 1, {{0, 0, false, 1}});
    pn_engine_result r = explore(n.get(), 2);
    EXPECT_EQ(r.status, PN_RUN_TOKEN_OVERFLOW) << show(r);
    EXPECT_EQ(r.states, 2u) << show(r);
    EXPECT_EQ(r.max_tokens_place, UINT64_MAX);
    EXPECT_EQ(r.max_tokens_marking, UINT64_MAX);
}

TEST(Engine, MaxTokensPerMarkingSaturates)
{
    // Two places at 2^63: their sum does not fit; the count saturates.
    Net n = make({1ULL << 63, 1ULL << 63}, 0, {});
    pn_engine_result r = explore(n.get());
    expect_space(r, 1, 0, 1ULL << 63, UINT64_MAX);
}

TEST(Engine, IndependentCounters)
{
    Net n = counters(4, 12);
    pn_engine_result r = explore(n.get(), 2);
    expect_space(r, ipow(13, 4), 4 * 24 * ipow(13, 3), 12, 48);
    EXPECT_EQ(r.levels, 48u);
}

// ---- determinism and agreement with the reference ---------------------------------

TEST(Engine, SameResultWith1To4Threads)
{
    struct Case {
        uint32_t n;
        uint64_t c;
    };
    for (Case k : {Case{4, 12}, Case{2, 200}, Case{6, 5}}) {
        SCOPED_TRACE("counters(" + std::to_string(k.n) + ", " + std::to_string(k.c) + ")");
        Net n = counters(k.n, k.c);
        const uint64_t states = ipow(k.c + 1, k.n);
        const uint64_t edges = k.n * 2 * k.c * ipow(k.c + 1, k.n - 1);
        pn_engine_result base = explore(n.get(), 1);
        expect_space(base, states, edges, k.c, k.n * k.c);
        for (uint32_t threads : {2u, 3u, 4u}) {
            SCOPED_TRACE("threads " + std::to_string(threads));
            pn_engine_result r = explore(n.get(), threads);
            expect_space(r, states, edges, k.c, k.n * k.c);
            EXPECT_EQ(r.threads, threads);
            EXPECT_EQ(r.levels, base.levels);
            EXPECT_EQ(r.restarts, base.restarts);
            EXPECT_EQ(r.state_words, base.state_words);
        }
    }
}

TEST(Engine, RandomNetsMatchReferenceBfs)
{
    std::mt19937_64 rng(37);
    int compared = 0;
    uint64_t biggest = 0;
    for (int iter = 0; iter < 100; iter++) {
        uint32_t P = 2 + (uint32_t)(rng() % 7), T = 1 + (uint32_t)(rng() % 10);
        Net n = random_bounded_net(rng, P, T);
        Reference ref = reference_bfs(n.get());
        SCOPED_TRACE("iter " + std::to_string(iter) + ": " + std::to_string(ref.states) +
                     " states");
        for (uint32_t threads : {1u, 4u}) {
            Recorder rec;
            rec.n_places = P;
            rec.threads = threads;
            pn_visitor v{Recorder::on_state, &rec};
            pn_engine_opts o = opts(threads);
            o.visitor = &v;
            pn_engine_result r = explore(n.get(), o);
            expect_space(r, ref.states, ref.edges, ref.max_place, ref.max_marking);
            EXPECT_EQ(r.levels, ref.depth);
            EXPECT_FALSE(rec.bad_worker);
            EXPECT_FALSE(rec.inconsistent) << "a state reported with two enabled counts";
            EXPECT_EQ(rec.seen, ref.enabled) << "visited markings or enabled counts differ";
            EXPECT_EQ(rec.ids.size(), ref.states);
            if (HasFailure())
                return;
        }
        compared += ref.states > 10;
        biggest = std::max(biggest, ref.states);
    }
    EXPECT_GT(compared, 35) << "the generator makes too many trivial nets";
    EXPECT_GT(biggest, 1000u);
}

// ---- the compact table (one-word markings, no ids kept) ------------------------

namespace {

pn_engine_result explore_store(const pn_cnet *cn, uint32_t threads, bool full_store,
                               pn_store_kind kind = PN_STORE_AUTO)
{
    pn_engine_opts o = opts(threads);
    o.store = full_store ? PN_STORE_FULL : kind;
    return explore(cn, o);
}

void expect_same(const pn_engine_result &a, const pn_engine_result &b)
{
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.states, b.states);
    EXPECT_EQ(a.edges, b.edges);
    EXPECT_EQ(a.max_tokens_place, b.max_tokens_place);
    EXPECT_EQ(a.max_tokens_marking, b.max_tokens_marking);
    EXPECT_EQ(a.levels, b.levels);
}

} // namespace

TEST(EngineCompact, UsedForOneWordMarkingsOnly)
{
    Net small = counters(4, 12); // 4 x 4-bit fields
    pn_engine_result r = explore_store(small.get(), 2, false);
    EXPECT_TRUE(r.compact);
    expect_space(r, ipow(13, 4), 4 * 24 * ipow(13, 3), 12, 48);
    pn_engine_result f = explore_store(small.get(), 2, true);
    EXPECT_FALSE(f.compact) << "full_store asks for the id-indexed store";
    expect_same(r, f);
    pn_engine_opts o = opts(1);
    o.keep_parents = true;
    pn_engine_result t = explore(small.get(), o);
    EXPECT_FALSE(t.compact) << "traces need ids";
    pn_engine_result_free(&r);
    pn_engine_result_free(&f);
    pn_engine_result_free(&t);
}

TEST(EngineCompact, SixtyFourOneSafePlacesFitOneWord)
{
    // A token walks along a ring of P one-safe places (1 bit each): 64 bits
    // fit the compact table, 65 need two words: tree-compressed keys in it.
    for (uint32_t P : {64u, 65u}) {
        std::vector<uint64_t> m0(P, 0);
        m0[0] = 1;
        std::vector<Arc> arcs;
        for (uint32_t t = 0; t < P; t++) {
            arcs.push_back({t, t, true, 1});
            arcs.push_back({(t + 1) % P, t, false, 1});
        }
        Net n = make(m0, P, arcs);
        pn_engine_result r = explore_store(n.get(), 2, false);
        EXPECT_TRUE(r.compact) << P;
        EXPECT_EQ(r.tree, P == 65) << P;
        EXPECT_EQ(r.state_words, P == 64 ? 1u : 2u);
        expect_space(r, P, P, 1, 1);
        pn_engine_result_free(&r);
    }
}

TEST(EngineCompact, TheEmptyMarkingIsAState)
{
    // p0 -t0-> nothing: {1} -> {0} (the all-zero word), then dead.
    Net n = make({2}, 1, {{0, 0, true, 1}});
    for (uint32_t threads : {1u, 2u}) {
        pn_engine_result r = explore_store(n.get(), threads, false);
        EXPECT_TRUE(r.compact);
        expect_space(r, 3, 2, 2, 2);
        pn_engine_result_free(&r);
    }
}

TEST(EngineCompact, WideningRestartsAndStaysExact)
{
    // The counter to 1000 outgrows its 1-bit field several times: the
    // compact run restarts wider each time and ends with the same answers.
    Net n = make({1000, 0}, 1, {{0, 0, true, 1}, {1, 0, false, 1}});
    for (uint32_t threads : {1u, 3u}) {
        pn_engine_result r = explore_store(n.get(), threads, false);
        EXPECT_TRUE(r.compact);
        expect_space(r, 1001, 1000, 1000, 1000);
        EXPECT_GE(r.restarts, 1u);
        EXPECT_EQ(r.levels, 1000u);
        pn_engine_result_free(&r);
    }
}

TEST(EngineCompact, RandomNetsAgreeWithTheFullStore)
{
    std::mt19937_64 rng(91);
    int compact_runs = 0;
    for (int iter = 0; iter < 60; iter++) {
        uint32_t P = 2 + (uint32_t)(rng() % 7), T = 1 + (uint32_t)(rng() % 10);
        Net n = random_bounded_net(rng, P, T);
        Reference ref = reference_bfs(n.get());
        SCOPED_TRACE("iter " + std::to_string(iter));
        pn_engine_result full = explore_store(n.get(), 1, true);
        for (uint32_t threads : {1u, 2u, 4u}) {
            pn_engine_result r = explore_store(n.get(), threads, false);
            expect_same(r, full);
            expect_space(r, ref.states, ref.edges, ref.max_place, ref.max_marking);
            compact_runs += r.compact;
            pn_engine_result_free(&r);
        }
        pn_engine_result_free(&full);
        if (HasFailure())
            return;
    }
    EXPECT_GT(compact_runs, 100) << "the compact table was hardly exercised";
}

TEST(EngineCompact, TableGrowsPastManyResizes)
{
    // 13^5 = 371293 states from a start of 1024 slots.
    Net n = counters(5, 12);
    pn_engine_result r = explore_store(n.get(), 2, false);
    EXPECT_TRUE(r.compact);
    expect_space(r, ipow(13, 5), 5 * 24 * ipow(13, 4), 12, 60);
    EXPECT_LT((double)r.bytes / (double)r.states, 20.0) << show(r);
    pn_engine_result_free(&r);
}

TEST(EngineCompact, TightBudgetRaisesTheLoadInsteadOfFailing)
{
    // The smallest budget (to 16 KB) that still completes 13^5 states: the
    // table must then run above the normal 4/5 load (under 10 bytes/state),
    // and every smaller budget ends as out of memory, never with a count.
    // One thread: where a round ends, and so when the table grows, is then
    // the same in every run.
    Net n = counters(5, 12);
    const uint64_t states = ipow(13, 5);
    uint64_t lo = 1 << 20, hi = 64 << 20; // lo fails, hi completes
    while (hi - lo > (16 << 10)) {
        uint64_t mid = (lo + hi) / 2;
        pn_engine_opts o = opts(1);
        pn_budget b = pn_budget_make(0, nullptr, mid);
        o.budget = &b;
        pn_engine_result r = explore(n.get(), o);
        if (r.status == PN_RUN_COMPLETE) {
            EXPECT_EQ(r.states, states);
            EXPECT_LE(r.bytes, mid);
            hi = mid;
        } else {
            EXPECT_EQ(r.status, PN_RUN_OUT_OF_MEMORY) << show(r);
            EXPECT_LT(r.states, states);
            lo = mid;
        }
    }
    pn_engine_opts o = opts(1);
    pn_budget b = pn_budget_make(0, nullptr, hi);
    o.budget = &b;
    pn_engine_result r = explore(n.get(), o);
    ASSERT_EQ(r.status, PN_RUN_COMPLETE);
    EXPECT_TRUE(r.compact);
    expect_space(r, states, 5 * 24 * ipow(13, 4), 12, 60);
    EXPECT_LT((double)r.bytes / (double)r.states, 10.0) << show(r);
}

// ---- witness traces (keep_parents) ------------------------------------------------

namespace {

// Records id -> marking for every visited state.
struct IdRecorder {
    std::mutex mu;
    uint32_t n_places = 0;
    std::map<uint64_t, std::vector<uint64_t>> marking;
    bool conflict = false;
    static bool on_state(void *ctx, uint32_t, uint64_t id, const uint64_t *m, uint32_t)
    {
        IdRecorder *r = static_cast<IdRecorder *>(ctx);
        std::vector<uint64_t> v(m, m + r->n_places);
        std::lock_guard<std::mutex> lock(r->mu);
        auto it = r->marking.find(id);
        if (it != r->marking.end() && it->second != v)
            r->conflict = true;
        r->marking[id] = v;
        return false;
    }
};

// Every state's trace replays, from the initial marking, to that state's
// marking through enabled transitions, and is a shortest path.
void check_traces(const pn_cnet *cn, uint32_t threads)
{
    Reference ref = reference_bfs(cn);
    IdRecorder rec;
    rec.n_places = cn->n_places;
    pn_visitor v{IdRecorder::on_state, &rec};
    pn_engine_opts o = opts(threads);
    o.visitor = &v;
    o.keep_parents = true;
    pn_engine_result r = explore(cn, o);
    expect_space(r, ref.states, ref.edges, ref.max_place, ref.max_marking);
    ASSERT_FALSE(rec.conflict) << "an id named two markings";
    ASSERT_EQ(rec.marking.size(), r.states);
    ASSERT_NE(r.parent, nullptr);
    ASSERT_NE(r.via, nullptr);
    for (uint64_t id = 0; id < r.states; id++) {
        uint32_t *path = nullptr;
        uint64_t len = 0;
        ASSERT_TRUE(pn_engine_trace(&r, id, &path, &len)) << "id " << id;
        std::vector<uint64_t> m(cn->m0, cn->m0 + cn->n_places), next(cn->n_places);
        bool ok = true;
        for (uint64_t k = 0; ok && k < len; k++) {
            ok = path[k] < cn->n_transitions && pn_cnet_enabled(cn, m.data(), path[k]) &&
                 pn_cnet_fire(cn, m.data(), path[k], next.data());
            m.swap(next);
        }
        free(path);
        ASSERT_TRUE(ok) << "id " << id << ": the trace fires a disabled transition";
        ASSERT_EQ(m, rec.marking[id]) << "id " << id << ": the trace leads elsewhere";
        ASSERT_EQ(len, ref.distance.at(m)) << "id " << id << ": not a shortest path";
    }
    uint32_t *path = nullptr;
    uint64_t len = 7;
    EXPECT_FALSE(pn_engine_trace(&r, r.states, &path, &len)) << "id out of range";
    EXPECT_EQ(path, nullptr);
    pn_engine_result_free(&r);
    EXPECT_EQ(r.parent, nullptr);
    EXPECT_EQ(r.via, nullptr);
}

} // namespace

TEST(EngineTrace, InitialStateHasAnEmptyTrace)
{
    Net n = make({1, 0}, 1, {{0, 0, true, 1}, {1, 0, false, 1}});
    pn_engine_opts o = opts(1);
    o.keep_parents = true;
    pn_engine_result r = explore(n.get(), o);
    uint32_t *path = nullptr;
    uint64_t len = 99;
    ASSERT_TRUE(pn_engine_trace(&r, 0, &path, &len));
    EXPECT_EQ(len, 0u);
    free(path);
    ASSERT_TRUE(pn_engine_trace(&r, 1, &path, &len));
    ASSERT_EQ(len, 1u);
    EXPECT_EQ(path[0], 0u);
    free(path);
    pn_engine_result_free(&r);
}

TEST(EngineTrace, NoParentsNoTrace)
{
    Net n = make({1, 0}, 1, {{0, 0, true, 1}, {1, 0, false, 1}});
    pn_engine_result r = explore(n.get(), 1);
    EXPECT_EQ(r.parent, nullptr);
    uint32_t *path = nullptr;
    uint64_t len = 0;
    EXPECT_FALSE(pn_engine_trace(&r, 1, &path, &len));
    pn_engine_result_free(&r);
}

TEST(EngineTrace, WeightedNet)
{
    Net n = make({7, 0, 0}, 2,
                 {{0, 0, true, 2}, {1, 0, false, 3}, {1, 1, true, 3}, {2, 1, false, 1}});
    check_traces(n.get(), 1);
}

TEST(EngineTrace, CountersWithWideningAndThreads)
{
    // Widening restarts and 4 threads racing on inserts: the tree must
    // still hold one shortest-path parent per id.
    Net n = counters(3, 20);
    check_traces(n.get(), 4);
}

TEST(EngineTrace, RandomNets)
{
    std::mt19937_64 rng(41);
    for (int iter = 0; iter < 30; iter++) {
        SCOPED_TRACE("iter " + std::to_string(iter));
        Net n = random_bounded_net(rng, 2 + (uint32_t)(rng() % 6), 1 + (uint32_t)(rng() % 8));
        check_traces(n.get(), 1 + iter % 4);
        if (HasFatalFailure())
            return;
    }
}

// ---- tree compression (markings of two or more words) ------------------------------

namespace {

// The random bounded net of spec s, each of its places behind `pad` isolated
// one-token places: the markings span several words (tree compression by
// default) while the state space stays the small net's.
Net padded(const RandomNetSpec &s, uint32_t pad)
{
    RandomNetSpec w = s;
    std::vector<uint32_t> at;
    w.m0.clear();
    for (uint64_t v : s.m0) {
        w.m0.insert(w.m0.end(), pad, 1);
        at.push_back((uint32_t)w.m0.size());
        w.m0.push_back(v);
    }
    for (RandomArc &a : w.arcs)
        a.place = at[a.place];
    return from_spec(w);
}

pn_engine_result explore_kind(const pn_cnet *cn, uint32_t threads, pn_store_kind kind,
                              bool parents = false)
{
    pn_engine_opts o = opts(threads);
    o.store = kind;
    o.keep_parents = parents;
    return explore(cn, o);
}

} // namespace

TEST(EngineTree, WideRandomNetsAgreeWithEnumerationAndTheFullStore)
{
    std::mt19937_64 rng(77);
    int tree_runs = 0, widened = 0;
    for (int iter = 0; iter < 60; iter++) {
        uint32_t P = 2 + (uint32_t)(rng() % 7), T = 1 + (uint32_t)(rng() % 10);
        Net n = padded(random_bounded_spec(rng, P, T), 64 / P + (uint32_t)(rng() % 40));
        Reference ref = reference_bfs(n.get());
        SCOPED_TRACE("iter " + std::to_string(iter));
        pn_engine_result full = explore_kind(n.get(), 1, PN_STORE_FULL);
        expect_space(full, ref.states, ref.edges, ref.max_place, ref.max_marking);
        EXPECT_FALSE(full.tree);
        for (uint32_t threads : {1u, 2u, 4u})
            for (bool ids : {false, true}) {
                pn_engine_result r = explore_kind(n.get(), threads, PN_STORE_AUTO, ids);
                expect_same(r, full);
                EXPECT_TRUE(r.tree) << r.state_words << " words";
                EXPECT_EQ(r.compact, !ids);
                tree_runs += r.tree;
                widened += r.restarts > 0;
                pn_engine_result_free(&r);
            }
        pn_engine_result_free(&full);
        if (HasFailure())
            return;
    }
    EXPECT_EQ(tree_runs, 60 * 6);
    EXPECT_GT(widened, 30) << "widening in tree mode was hardly exercised";
}

TEST(EngineTree, CompactStoreKeepsTheIdTableForWideMarkings)
{
    std::mt19937_64 rng(3);
    Net n = padded(random_bounded_spec(rng, 4, 6), 30);
    pn_engine_result c = explore_kind(n.get(), 2, PN_STORE_COMPACT);
    EXPECT_FALSE(c.tree);
    EXPECT_FALSE(c.compact);
    pn_engine_result t = explore_kind(n.get(), 2, PN_STORE_TREE);
    EXPECT_TRUE(t.tree);
    expect_same(c, t);
    pn_engine_result_free(&c);
    pn_engine_result_free(&t);
    // The flat store handed out by id (the CTL model reads it) is never a tree.
    pn_engine_opts o = opts(2);
    o.store = PN_STORE_TREE;
    o.keep_states = true;
    pn_engine_result k = explore(n.get(), o);
    EXPECT_FALSE(k.tree);
    EXPECT_NE(k.store, nullptr);
    pn_engine_result_free(&k);
}

TEST(EngineTree, WideningReencodesEveryKey)
{
    // A counter to 3000 beside 100 one-safe places (two words and more):
    // the counter's field overflows again and again after tree mode began;
    // every widening re-encodes the keys, with the ids (traces) or without.
    std::vector<uint64_t> m0(102, 1);
    m0[100] = 3000;
    m0[101] = 0;
    Net n = make(m0, 1, {{100, 0, true, 1}, {101, 0, false, 1}});
    for (uint32_t threads : {1u, 3u})
        for (bool ids : {false, true}) {
            pn_engine_result r = explore_kind(n.get(), threads, PN_STORE_AUTO, ids);
            EXPECT_TRUE(r.tree);
            expect_space(r, 3001, 3000, 3000, 3000 + 100);
            EXPECT_GE(r.restarts, 2u);
            EXPECT_EQ(r.levels, 3000u);
            pn_engine_result_free(&r);
        }
}

// Three counters to 30 (each fed from its own place of 30 tokens) beside 30
// constant places; the second counter starts after a chain of d = 3 moves,
// the third after 2d, so their fields overflow at different levels. The
// marking fits one word until the second counter needs 4 bits (level 7):
// compact restarts at levels 2, 4 (first counter: 2, 4 bits), 5, 7 (second
// counter); then the tree. At level 8 the third counter overflows: it
// widens to 8 bits, and the first two (4 bits, grown before) with it,
// since the marking keeps two words either way; without that they would
// overflow again at levels 16 and 19, two more re-encodings of every key.
TEST(EngineTree, CountersWidenTogetherWhenTheWordCountStays)
{
    const uint32_t pad = 30, d = 3, src = pad, chain2 = pad + 6, chain3 = chain2 + d + 1;
    std::vector<uint64_t> m0(chain3 + 2 * d + 1, 0);
    for (uint32_t p = 0; p < pad; p++)
        m0[p] = 1;
    std::vector<Arc> arcs;
    uint32_t t = 0;
    for (uint32_t k = 0; k < 3; k++, t++) { /* counter k: source src + 2k -> src + 2k + 1 */
        m0[src + 2 * k] = 30;
        arcs.push_back({src + 2 * k, t, true, 1});
        arcs.push_back({src + 2 * k + 1, t, false, 1});
    }
    m0[chain2] = m0[chain3] = 1;
    for (auto [first, len, counter] : {std::tuple<uint32_t, uint32_t, uint32_t>{chain2, d, 1},
                                       {chain3, 2 * d, 2}}) {
        for (uint32_t i = 0; i < len; i++, t++) { /* the token moves along the chain */
            arcs.push_back({first + i, t, true, 1});
            arcs.push_back({first + i + 1, t, false, 1});
        }
        arcs.push_back({first + len, counter, true, 1}); /* its end enables the counter */
        arcs.push_back({first + len, counter, false, 1});
    }
    Net n = make(m0, t, arcs);
    // Components: counter 1 (31 states, 30 enabling it), chain 2 with
    // counter 2 (d + 31 states, d + 30 enabled pairs), chain 3 with counter 3.
    const uint64_t n1 = 31, e1 = 30, n2 = d + 31, e2 = d + 30, n3 = 2 * d + 31, e3 = 2 * d + 30;
    for (uint32_t threads : {1u, 3u}) {
        pn_engine_result r = explore_kind(n.get(), threads, PN_STORE_AUTO);
        EXPECT_TRUE(r.tree);
        expect_space(r, n1 * n2 * n3, e1 * n2 * n3 + n1 * e2 * n3 + n1 * n2 * e3, 30,
                     pad + 3 * 30 + 2);
        EXPECT_EQ(r.restarts, 5u) << show(r);
        pn_engine_result_free(&r);
    }
}

namespace {

// N counters to c (from counters_spec) with `pad` one-safe places beside
// each place, in the tree store: every count exact with 1 and 4 threads;
// with one thread (more: rounds, so growth points, vary) under
// `bytes_per_state`.
void expect_padded_counters(uint32_t N, uint64_t c, uint32_t pad, uint32_t min_words,
                            double bytes_per_state)
{
    Net n = padded(counters_spec(N, c), pad);
    for (uint32_t threads : {1u, 4u}) {
        pn_engine_result r = explore_kind(n.get(), threads, PN_STORE_AUTO);
        EXPECT_TRUE(r.tree);
        EXPECT_GE(r.state_words, min_words);
        expect_space(r, ipow(c + 1, N), N * 2 * c * ipow(c + 1, N - 1), c,
                     N * c + pad * 2 * N);
        if (threads == 1) {
            EXPECT_LT((double)r.bytes / (double)r.states, bytes_per_state) << show(r);
        }
        pn_engine_result_free(&r);
    }
}

} // namespace

TEST(EngineTree, TablesGrowPastManyResizes)
{
    // 13^5 = 371293 states of five counters spread over three words: the
    // node set and the key table grow from their smallest sizes (11.6
    // bytes a state).
    expect_padded_counters(5, 12, 14, 3, 13.0);
}

TEST(EngineTree, NodeSetCostsLessThanTheIdTableLayout)
{
    // 6^6 = 46656 states of six counters spread over nine words, where the
    // nodes are most of the memory: the node set's 32-bit slots, grown to
    // twice the nodes needed past 3/4 load, and its store grown by 1/8 hold
    // 17.1 bytes a state. Each counter's two places are packed side by side
    // (FORCE order, engine_order), not 40 pad places apart in two words:
    // in place order these held 31.9 bytes a state, and 64-bit slots
    // doubling at 3/4 load with a store grown by 1/4 (the layout before)
    // 45.7.
    expect_padded_counters(6, 5, 40, 9, 20.0);
}

TEST(EngineTree, TracesOnWideNets)
{
    std::mt19937_64 rng(43);
    for (int iter = 0; iter < 12; iter++) {
        SCOPED_TRACE("iter " + std::to_string(iter));
        Net n = padded(random_bounded_spec(rng, 2 + (uint32_t)(rng() % 6),
                                           1 + (uint32_t)(rng() % 8)),
                       20);
        check_traces(n.get(), 1 + iter % 4);
        if (HasFatalFailure())
            return;
    }
}

TEST(EngineTree, RecordedGraphNamesTheRightMarkings)
{
    // Every recorded edge leads to the marking its transition gives: the
    // ids a tree-compressed run hands out are the markings' own.
    std::mt19937_64 rng(12);
    for (int iter = 0; iter < 10; iter++) {
        SCOPED_TRACE("iter " + std::to_string(iter));
        Net n = padded(random_bounded_spec(rng, 3 + (uint32_t)(rng() % 5),
                                           2 + (uint32_t)(rng() % 8)),
                       25);
        const pn_cnet *cn = n.get();
        IdRecorder rec;
        rec.n_places = cn->n_places;
        pn_visitor v{IdRecorder::on_state, &rec};
        pn_engine_opts o = opts(2);
        o.visitor = &v;
        o.record_graph = true;
        pn_engine_result r = explore(cn, o);
        ASSERT_EQ(r.status, PN_RUN_COMPLETE);
        ASSERT_TRUE(r.tree);
        ASSERT_NE(r.graph, nullptr);
        ASSERT_FALSE(rec.conflict);
        std::map<std::vector<uint64_t>, uint64_t> id_of;
        for (const auto &kv : rec.marking)
            id_of[kv.second] = kv.first;
        ASSERT_EQ(id_of.size(), r.states);
        for (uint64_t id = 0; id < r.states; id++) {
            std::multiset<uint64_t> want, got;
            const std::vector<uint64_t> &m = rec.marking.at(id);
            std::vector<uint64_t> next(cn->n_places);
            for (uint32_t t = 0; t < cn->n_transitions; t++)
                if (pn_cnet_enabled(cn, m.data(), t) && pn_cnet_fire(cn, m.data(), t, next.data()))
                    want.insert(id_of.at(next));
            for (uint64_t k = r.graph->off[id]; k < r.graph->off[id + 1]; k++)
                got.insert(r.graph->dst[k]);
            ASSERT_EQ(got, want) << "state " << id;
        }
        pn_engine_result_free(&r);
    }
}

TEST(EngineTree, MemoryBudgetEndsTheRunNeverTheCount)
{
    // Budgets from tiny to ample: a run either completes with the exact
    // count within its budget or says out of memory.
    std::mt19937_64 rng(5);
    Net n = padded(random_bounded_spec(rng, 6, 8), 30);
    Reference ref = reference_bfs(n.get());
    bool completed = false, refused = false;
    for (uint64_t kb : {16u, 64u, 256u, 1024u, 8192u}) {
        pn_engine_opts o = opts(2);
        pn_budget b = pn_budget_make(0, nullptr, kb << 10);
        o.budget = &b;
        pn_engine_result r = explore(n.get(), o);
        if (r.status == PN_RUN_COMPLETE) {
            EXPECT_TRUE(r.tree);
            expect_space(r, ref.states, ref.edges, ref.max_place, ref.max_marking);
            EXPECT_LE(r.bytes, kb << 10);
            completed = true;
        } else {
            EXPECT_EQ(r.status, PN_RUN_OUT_OF_MEMORY) << show(r);
            refused = true;
        }
        pn_engine_result_free(&r);
    }
    EXPECT_TRUE(completed);
    EXPECT_TRUE(refused);
}

// ---- early ends ----------------------------------------------------------------------

TEST(Engine, UnboundedNetNeverCompletes)
{
    // A transition without inputs feeds p0 forever.
    Net n = make({0}, 1, {{0, 0, false, 1}});
    pn_engine_opts o = opts(2);
    pn_budget b = pn_budget_make(1.0, nullptr, 1 << 20);
    o.budget = &b;
    pn_engine_result r = explore(n.get(), o);
    EXPECT_TRUE(r.status == PN_RUN_OUT_OF_MEMORY || r.status == PN_RUN_TIMEOUT) << show(r);
    EXPECT_GT(r.states, 1000u) << show(r);
    EXPECT_LE(r.bytes, 1u << 20) << show(r);
    EXPECT_LT(r.seconds, 10.0);
}

TEST(Engine, VisitorStopsAtAGivenState)
{
    Net n = make({1000, 0}, 1, {{0, 0, true, 1}, {1, 0, false, 1}});
    struct Ctx {
        std::atomic<bool> hit{false};
        static bool on_state(void *ctx, uint32_t, uint64_t, const uint64_t *m, uint32_t)
        {
            if (m[1] != 500)
                return false;
            static_cast<Ctx *>(ctx)->hit = true;
            return true;
        }
    } ctx;
    pn_visitor v{Ctx::on_state, &ctx};
    pn_engine_opts o = opts(2);
    o.visitor = &v;
    pn_engine_result r = explore(n.get(), o);
    EXPECT_EQ(r.status, PN_RUN_STOPPED) << show(r);
    EXPECT_TRUE(ctx.hit.load());
    EXPECT_GE(r.states, 501u) << show(r);
    EXPECT_LT(r.states, 1001u) << show(r);
}

TEST(Engine, VisitorStopsAtTheInitialState)
{
    Net n = counters(3, 5);
    struct Ctx {
        static bool on_state(void *, uint32_t, uint64_t, const uint64_t *, uint32_t)
        {
            return true;
        }
    };
    pn_visitor v{Ctx::on_state, nullptr};
    pn_engine_opts o = opts(4);
    o.visitor = &v;
    pn_engine_result r = explore(n.get(), o);
    EXPECT_EQ(r.status, PN_RUN_STOPPED) << show(r);
    EXPECT_LT(r.states, ipow(6, 3)) << show(r);
}

TEST(Engine, CancelFlagSetBeforehand)
{
    Net n = counters(4, 12);
    volatile int cancel = 1;
    pn_engine_opts o = opts(2);
    pn_budget b = pn_budget_make(0, &cancel, 0);
    o.budget = &b;
    pn_engine_result r = explore(n.get(), o);
    EXPECT_EQ(r.status, PN_RUN_CANCELLED) << show(r);
    EXPECT_LT(r.states, ipow(13, 4)) << show(r);
}

TEST(Engine, CancelFlagRaisedDuringTheRun)
{
    Net n = counters(4, 12);
    struct Ctx {
        volatile int cancel = 0;
        std::atomic<uint64_t> calls{0};
        static bool on_state(void *ctx, uint32_t, uint64_t, const uint64_t *, uint32_t)
        {
            Ctx *c = static_cast<Ctx *>(ctx);
            if (++c->calls == 2000)
                c->cancel = 1;
            return false;
        }
    } ctx;
    pn_visitor v{Ctx::on_state, &ctx};
    pn_engine_opts o = opts(3);
    o.visitor = &v;
    pn_budget b = pn_budget_make(0, &ctx.cancel, 0);
    o.budget = &b;
    pn_engine_result r = explore(n.get(), o);
    EXPECT_EQ(r.status, PN_RUN_CANCELLED) << show(r);
    EXPECT_LT(r.states, ipow(13, 4)) << show(r);
}

TEST(Engine, MemoryBudgetTooSmallForAnything)
{
    Net n = counters(2, 3);
    pn_engine_opts o = opts(1);
    pn_budget b = pn_budget_make(0, nullptr, 100);
    o.budget = &b;
    pn_engine_result r = explore(n.get(), o);
    EXPECT_EQ(r.status, PN_RUN_OUT_OF_MEMORY) << show(r);
}

TEST(Engine, MemoryBudgetReachedMidway)
{
    Net n = counters(4, 12); // 28561 states need more than 256 KB of table
    pn_engine_opts o = opts(2);
    pn_budget b = pn_budget_make(0, nullptr, 256 << 10);
    o.budget = &b;
    pn_engine_result r = explore(n.get(), o);
    EXPECT_EQ(r.status, PN_RUN_OUT_OF_MEMORY) << show(r);
    EXPECT_NE(r.status, PN_RUN_COMPLETE);
    EXPECT_LT(r.states, ipow(13, 4)) << show(r);
    EXPECT_LE(r.bytes, 256u << 10) << show(r);
}

// Where the process is watched, the tables get what its cap leaves beside
// what is resident when the run starts (and once it is set up), however
// much the budget's own memory allows: 13^6 states do not fit 8 MB.
TEST(Engine, MemoryIsWhatTheProcessCapLeaves)
{
    Net n = counters(6, 12);
    pn_engine_opts o = opts(2);
    pn_budget b = pn_budget_make(0, nullptr, 1ull << 30);
    b.process = pn_sys_resident() + (8u << 20);
    o.budget = &b;
    pn_engine_result r = explore(n.get(), o);
    EXPECT_EQ(r.status, PN_RUN_OUT_OF_MEMORY) << show(r);
    EXPECT_GT(r.states, 0u) << show(r);
    EXPECT_LE(r.bytes, 8u << 20) << show(r);
}

TEST(Engine, TimeoutOnAHugeBoundedNetWithProgress)
{
    // 4^12 = 16.7M states: far more than a fraction of a second allows.
    Net n = counters(12, 3);
    struct Ctx {
        std::vector<pn_progress> seen;
        static void on_progress(void *ctx, const pn_progress *p)
        {
            static_cast<Ctx *>(ctx)->seen.push_back(*p);
        }
    } ctx;
    pn_engine_opts o = opts(2);
    pn_budget b = pn_budget_make(0.3, nullptr, 1ULL << 30);
    o.budget = &b;
    o.progress = Ctx::on_progress;
    o.progress_ctx = &ctx;
    o.progress_interval_s = 0.05;
    pn_engine_result r = explore(n.get(), o);
    EXPECT_EQ(r.status, PN_RUN_TIMEOUT) << show(r);
    EXPECT_GE(r.seconds, 0.3);
    EXPECT_LT(r.seconds, 5.0);
    EXPECT_LT(r.states, ipow(4, 12));
    ASSERT_GE(ctx.seen.size(), 1u) << "no progress report in 0.3 s at a 0.05 s interval";
    for (size_t i = 1; i < ctx.seen.size(); i++) {
        EXPECT_GE(ctx.seen[i].states, ctx.seen[i - 1].states);
        EXPECT_GE(ctx.seen[i].seconds, ctx.seen[i - 1].seconds);
    }
    EXPECT_LE(ctx.seen.back().states, r.states);
}

TEST(Engine, RunStatusNames)
{
    EXPECT_STREQ(pn_run_status_name(PN_RUN_COMPLETE), "complete");
    for (int s = PN_RUN_COMPLETE; s <= PN_RUN_TOO_MANY_STATES; s++)
        EXPECT_STRNE(pn_run_status_name((pn_run_status)s), "unknown") << s;
}
