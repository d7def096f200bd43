// StateSpace counted on decision diagrams (host/examine/space_dd.c): the
// four values against full enumeration on random nets, and exact counts
// beyond 64 bits on nets whose values are known in closed form; the
// maxima's structural bounds (pn_linear_space_maxima) against enumeration.
#include <gtest/gtest.h>

#include <pthread.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "petrel/engine.h"
#include "petrel/linear.h"
#include "test_enum.h"
#include "test_share.h"

#include "examine/space_dd.h"

namespace {

struct Values {
    std::string states, edges;
    uint64_t max_place = 0, max_marking = 0;
};

// The four values of spec's net by enumeration of its reachable markings.
Values enumerated(const RandomNetSpec &spec, const std::vector<std::vector<uint64_t>> &states)
{
    std::vector<std::vector<uint64_t>> need(spec.n_trans, std::vector<uint64_t>(spec.m0.size()));
    for (const RandomArc &a : spec.arcs)
        if (a.to_trans)
            need[a.trans][a.place] += a.weight;
    Values v;
    uint64_t edges = 0;
    for (const auto &m : states) {
        uint64_t sum = 0;
        for (uint64_t x : m) {
            v.max_place = std::max(v.max_place, x);
            sum += x;
        }
        v.max_marking = std::max(v.max_marking, sum);
        for (const auto &n : need) {
            bool on = true;
            for (size_t p = 0; p < m.size(); p++)
                on = on && m[p] >= n[p];
            edges += on;
        }
    }
    v.states = std::to_string(states.size());
    v.edges = std::to_string(edges);
    return v;
}

// ex_space_dd on cn within 60 s; empty strings when it did not count.
Values counted(const pn_cnet *cn)
{
    pn_engine_result res;
    memset(&res, 0, sizeof res);
    pn_error err;
    pn_error_clear(&err);
    pn_budget b = pn_budget_make(60.0, nullptr, 0);
    EXPECT_EQ(ex_space_dd(cn, &b, nullptr, &res, &err), PN_OK) << err.msg;
    Values v;
    if (res.symbolic && res.status == PN_RUN_COMPLETE) {
        v.states = res.states_text;
        v.edges = res.edges_text ? res.edges_text : "";
        v.max_place = res.max_tokens_place;
        v.max_marking = res.max_tokens_marking;
    }
    pn_engine_result_free(&res);
    return v;
}

// fn(spec, net, its reachable markings) on `count` random bounded nets of
// 2 .. 8 places and 1 .. 8 transitions with at most 5,000 markings, until
// it returns false.
template <class F> void each_small_net(uint64_t seed, uint32_t count, F fn)
{
    std::mt19937_64 rng(seed);
    for (uint32_t nets = 0; nets < count;) {
        uint32_t P = 2 + (uint32_t)(rng() % 7), T = 1 + (uint32_t)(rng() % 8);
        RandomNetSpec spec = random_bounded_spec(rng, P, T);
        Net n = build(spec);
        auto states = reachable(n.cn.get(), 5000);
        if (states.empty())
            continue;
        nets++;
        if (!fn(spec, n, states))
            return;
    }
}

} // namespace

// 2,000 random bounded nets of 2 .. 8 places: the four values equal
// enumeration's, each net counted.
TEST(SpaceDd, RandomNetsAgreeWithEnumeration)
{
    uint32_t nets = 0, wrong = 0, edges_over_states = 0;
    each_small_net(9001, petrel_test::random_share(2000), [&](const RandomNetSpec &spec,
                                                               const Net &n, const auto &states) {
        Values want = enumerated(spec, states), got = counted(n.cn.get());
        bool right = got.states == want.states && got.edges == want.edges &&
                     got.max_place == want.max_place && got.max_marking == want.max_marking;
        wrong += !right;
        EXPECT_TRUE(right) << "net " << nets << ": states " << got.states << " / " << want.states
                           << ", edges " << got.edges << " / " << want.edges << ", place "
                           << got.max_place << " / " << want.max_place << ", marking "
                           << got.max_marking << " / " << want.max_marking;
        edges_over_states += std::stoull(want.edges) > std::stoull(want.states);
        nets++;
        return wrong <= 5;
    });
    EXPECT_EQ(nets, petrel_test::random_share(2000));
    EXPECT_EQ(wrong, 0u);
    // the nets are not all trivial: many have more edges than markings
    EXPECT_GE(edges_over_states, petrel_test::random_share(500));
}

// N independent counters of c tokens: (c + 1)^N markings; in each, counter i
// enables one transition per non-empty place of its two. Values past 2^64
// (one limb) and past 2^256 (several), exact to the last digit.
TEST(SpaceDd, CountsBeyondSixtyFourBitsExactly)
{
    Net a = build(counters_spec(70, 1)); // 2^70 markings, each enabling 70 transitions
    Values v = counted(a.cn.get());
    EXPECT_EQ(v.states, "1180591620717411303424");
    EXPECT_EQ(v.edges, "82641413450218791239680");
    EXPECT_EQ(v.max_place, 1u);
    EXPECT_EQ(v.max_marking, 70u);

    Net b = build(counters_spec(200, 2)); // 3^200; edges 4 N 3^(N-1)
    v = counted(b.cn.get());
    EXPECT_EQ(v.states, "265613988875874769338781322035779626829233452653394495974574961739092490"
                        "901302182994384699044001");
    EXPECT_EQ(v.edges, "70830397033566605157008352542874567154462254040905198926553323130424664"
                       "240347248798502586411733600");
    EXPECT_EQ(v.max_place, 2u);
    EXPECT_EQ(v.max_marking, 400u);
}

// A ring of 20,000 places and one token (20,000 markings, each enabling
// one transition), counted from a thread with a 512 KB stack: the forest's
// recursions (a few calls per level) need about 4 MB here, so the count
// runs on a stack of its own (pn_run_deep); on the caller's, it would
// overflow.
namespace {
struct WideCall {
    const pn_cnet *cn;
    Values v;
};
void *count_wide(void *p)
{
    auto *c = static_cast<WideCall *>(p);
    c->v = counted(c->cn);
    return nullptr;
}
} // namespace

TEST(SpaceDd, AWideNetCountsOnItsOwnStack)
{
    const uint32_t N = 20000;
    RandomNetSpec s;
    s.n_trans = N;
    s.m0.assign(N, 0);
    s.m0[0] = 1;
    for (uint32_t i = 0; i < N; i++) {
        s.arcs.push_back({i, i, true, 1});
        s.arcs.push_back({(i + 1) % N, i, false, 1});
    }
    Net n = build(s);
    WideCall c{n.cn.get(), {}};
    pthread_attr_t attr;
    ASSERT_EQ(pthread_attr_init(&attr), 0);
    ASSERT_EQ(pthread_attr_setstacksize(&attr, 512u << 10), 0);
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, &attr, count_wide, &c), 0);
    pthread_join(th, nullptr);
    pthread_attr_destroy(&attr);
    EXPECT_EQ(c.v.states, "20000");
    EXPECT_EQ(c.v.edges, "20000");
    EXPECT_EQ(c.v.max_place, 1u);
    EXPECT_EQ(c.v.max_marking, 1u);
}

// pn_linear_space_maxima on 2,000 random bounded nets against enumeration:
// each {reached, upper} pair brackets the value, and where the upper bound
// meets what was reached or the initial marking (what proves a maximum
// when the exploration does not end) that is the value; a conservative
// net's bounds are both its token count.
TEST(SpaceMaxima, StructuralBoundsHoldAndMeetWhereTheyProve)
{
    uint32_t nets = 0, proven_place = 0, proven_marking = 0, conservative = 0, wrong = 0;
    each_small_net(9002, petrel_test::random_share(2000), [&](const RandomNetSpec &spec,
                                                               const Net &n, const auto &states) {
        nets++;
        Values want = enumerated(spec, states);
        uint64_t place[2], marking[2], m0_max = 0, m0_sum = 0;
        for (uint64_t x : spec.m0)
            m0_max = std::max(m0_max, x), m0_sum += x;
        pn_error err;
        pn_error_clear(&err);
        EXPECT_EQ(pn_linear_space_maxima(n.cn.get(), nullptr, place, marking, &err), PN_OK);
        bool keeps = true; // every transition puts back what it takes
        for (uint32_t t = 0; t < spec.n_trans; t++) {
            int64_t d = 0;
            for (const RandomArc &a : spec.arcs)
                if (a.trans == t)
                    d += a.to_trans ? -(int64_t)a.weight : (int64_t)a.weight;
            keeps = keeps && d == 0;
        }
        bool right = place[0] <= want.max_place && want.max_place <= place[1] &&
                     marking[0] <= want.max_marking && want.max_marking <= marking[1] &&
                     (!keeps || (marking[0] == m0_sum && marking[1] == m0_sum));
        wrong += !right;
        EXPECT_TRUE(right) << "net " << nets << ": place " << place[0] << " .. " << place[1]
                           << " / " << want.max_place << ", marking " << marking[0] << " .. "
                           << marking[1] << " / " << want.max_marking << (keeps ? " (keeps)" : "");
        proven_place += std::max(place[0], m0_max) == place[1];
        proven_marking += std::max(marking[0], m0_sum) == marking[1];
        conservative += keeps;
        return wrong <= 5;
    });
    EXPECT_EQ(wrong, 0u);
    // not vacuous: many nets get each kind of proof, beyond the conservative ones
    EXPECT_GE(proven_place, petrel_test::random_share(600));
    EXPECT_GE(conservative, petrel_test::random_share(100));
    EXPECT_GE(proven_marking, conservative + petrel_test::random_share(300));
}
