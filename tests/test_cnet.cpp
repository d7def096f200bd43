// Net compiler (host/net/cnet.c): dense incidence, CSR pre/post/delta lists,
// merging of parallel arcs, self-loops, 64-bit weight limits, and firing on
// unpacked markings, all on small hand-built nets with hand-computed values.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/net.h"
#include "test_ptrs.h"

namespace {

// Builds a net from place markings and (place, transition, to_transition,
// weight) arcs; places are p0.., transitions t0...
struct Arc {
    uint32_t place, trans;
    bool to_trans;
    uint64_t weight;
};

NetPtr make_net(const std::vector<uint64_t> &m0, uint32_t n_trans, const std::vector<Arc> &arcs)
{
    pn_error err;
    pn_error_clear(&err);
    NetPtr net(pn_net_new("hand"));
    EXPECT_NE(net, nullptr);
    for (size_t p = 0; p < m0.size(); p++)
        EXPECT_EQ(pn_net_add_place(net.get(), ("p" + std::to_string(p)).c_str(), nullptr,
                                   m0[p], &err),
                  (int64_t)p)
            << err.msg;
    for (uint32_t t = 0; t < n_trans; t++)
        EXPECT_EQ(pn_net_add_transition(net.get(), ("t" + std::to_string(t)).c_str(), nullptr,
                                        &err),
                  (int64_t)t)
            << err.msg;
    for (const Arc &a : arcs)
        EXPECT_EQ(pn_net_add_arc(net.get(), a.place, a.trans, a.to_trans, a.weight, &err), PN_OK)
            << err.msg;
    return net;
}

CnetPtr compile_ok(const pn_net *net)
{
    pn_error err;
    pn_error_clear(&err);
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(net, &cn, &err), PN_OK) << err.msg;
    EXPECT_NE(cn, nullptr);
    return CnetPtr(cn);
}

// The CSR list of transition t as place -> weight; fails on a place listed
// twice (parallel arcs must be merged).
std::map<uint32_t, uint64_t> arcs_of(const uint32_t *off, const pn_cnet_arc *list, uint32_t t)
{
    std::map<uint32_t, uint64_t> out;
    for (uint32_t k = off[t]; k < off[t + 1]; k++) {
        EXPECT_EQ(out.count(list[k].place), 0u) << "place " << list[k].place << " listed twice";
        EXPECT_GE(list[k].weight, 1u);
        out[list[k].place] = list[k].weight;
    }
    return out;
}

std::map<uint32_t, int64_t> deltas_of(const pn_cnet *cn, uint32_t t)
{
    std::map<uint32_t, int64_t> out;
    for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
        EXPECT_EQ(out.count(cn->delta[k].place), 0u);
        EXPECT_NE(cn->delta[k].delta, 0);
        out[cn->delta[k].place] = cn->delta[k].delta;
    }
    return out;
}

using W = std::map<uint32_t, uint64_t>;
using D = std::map<uint32_t, int64_t>;

// p0(2) p1(0) p2(1) p3(5)
//  t0: p0 -1-> t0 -2-> p1
//  t1: p1 -2-> t1 -1-> p0, self-loop on p2 (weight 1 both ways)
//  t2: no input, -3-> p2
//  t3: two parallel p0->t3 arcs (1 + 1), two parallel t3->p1 arcs (3 + 4),
//      p3 -3-> t3 -1-> p3 (net -2)
//  t4: no arcs at all
// Arcs are given in a scrambled order: the compiler must sort them.
NetPtr sample_net()
{
    return make_net({2, 0, 1, 5}, 5,
                    {{3, 3, false, 1}, {1, 3, false, 3}, {0, 3, true, 1}, {2, 1, false, 1},
                     {1, 0, false, 2}, {0, 1, false, 1}, {2, 2, false, 3}, {0, 0, true, 1},
                     {1, 1, true, 2}, {2, 1, true, 1}, {0, 3, true, 1}, {1, 3, false, 4},
                     {3, 3, true, 3}});
}

} // namespace

TEST(Cnet, ShapeAndMarking)
{
    NetPtr net = sample_net();
    CnetPtr cn = compile_ok(net.get());
    ASSERT_NE(cn, nullptr);
    EXPECT_EQ(cn->n_places, 4u);
    EXPECT_EQ(cn->n_transitions, 5u);
    EXPECT_EQ(cn->net, net.get());
    ASSERT_NE(cn->m0, nullptr);
    EXPECT_EQ(cn->m0[0], 2u);
    EXPECT_EQ(cn->m0[1], 0u);
    EXPECT_EQ(cn->m0[2], 1u);
    EXPECT_EQ(cn->m0[3], 5u);
    EXPECT_NE(cn->m0, net->m0) << "the compiled net must own its marking";
    EXPECT_EQ(cn->pre_off[0], 0u);
    EXPECT_EQ(cn->post_off[0], 0u);
    EXPECT_EQ(cn->delta_off[0], 0u);
    // pre: t0 {p0}, t1 {p1,p2}, t2 {}, t3 {p0,p3}, t4 {}
    EXPECT_EQ(cn->pre_off[5], 5u);
    // post: t0 {p1}, t1 {p0,p2}, t2 {p2}, t3 {p1,p3}, t4 {}
    EXPECT_EQ(cn->post_off[5], 6u);
    // delta: t0 {p0,p1}, t1 {p0,p1}, t2 {p2}, t3 {p0,p1,p3}, t4 {}
    EXPECT_EQ(cn->delta_off[5], 8u);
}

TEST(Cnet, DenseIncidence)
{
    NetPtr net = sample_net();
    CnetPtr cn = compile_ok(net.get());
    ASSERT_NE(cn->incidence, nullptr);
    const int64_t expect[4][5] = {
        {-1, 1, 0, -2, 0}, // p0
        {2, -2, 0, 7, 0},  // p1
        {0, 0, 3, 0, 0},   // p2: self-loop on t1 cancels out
        {0, 0, 0, -2, 0},  // p3
    };
    for (uint32_t p = 0; p < 4; p++)
        for (uint32_t t = 0; t < 5; t++)
            EXPECT_EQ(cn->incidence[p * 5 + t], expect[p][t]) << "C[p" << p << "][t" << t << "]";
}

TEST(Cnet, CsrListsMergeParallelArcs)
{
    NetPtr net = sample_net();
    CnetPtr cn = compile_ok(net.get());
    EXPECT_EQ(arcs_of(cn->pre_off, cn->pre, 0), (W{{0, 1}}));
    EXPECT_EQ(arcs_of(cn->pre_off, cn->pre, 1), (W{{1, 2}, {2, 1}}));
    EXPECT_EQ(arcs_of(cn->pre_off, cn->pre, 2), W{});
    EXPECT_EQ(arcs_of(cn->pre_off, cn->pre, 3), (W{{0, 2}, {3, 3}}));
    EXPECT_EQ(arcs_of(cn->pre_off, cn->pre, 4), W{});

    EXPECT_EQ(arcs_of(cn->post_off, cn->post, 0), (W{{1, 2}}));
    EXPECT_EQ(arcs_of(cn->post_off, cn->post, 1), (W{{0, 1}, {2, 1}}));
    EXPECT_EQ(arcs_of(cn->post_off, cn->post, 2), (W{{2, 3}}));
    EXPECT_EQ(arcs_of(cn->post_off, cn->post, 3), (W{{1, 7}, {3, 1}}));
    EXPECT_EQ(arcs_of(cn->post_off, cn->post, 4), W{});

    EXPECT_EQ(deltas_of(cn.get(), 0), (D{{0, -1}, {1, 2}}));
    EXPECT_EQ(deltas_of(cn.get(), 1), (D{{0, 1}, {1, -2}})) << "self-loop on p2 has no delta";
    EXPECT_EQ(deltas_of(cn.get(), 2), (D{{2, 3}}));
    EXPECT_EQ(deltas_of(cn.get(), 3), (D{{0, -2}, {1, 7}, {3, -2}}));
    EXPECT_EQ(deltas_of(cn.get(), 4), D{});
}

TEST(Cnet, OffsetsAreMonotone)
{
    NetPtr net = sample_net();
    CnetPtr cn = compile_ok(net.get());
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        EXPECT_LE(cn->pre_off[t], cn->pre_off[t + 1]);
        EXPECT_LE(cn->post_off[t], cn->post_off[t + 1]);
        EXPECT_LE(cn->delta_off[t], cn->delta_off[t + 1]);
    }
}

TEST(Cnet, SelfLoopOnlyTransitionHasNoDelta)
{
    // t0 reads p0 (weight 3) and puts 3 back: enabled, but changes nothing.
    NetPtr net = make_net({3}, 1, {{0, 0, true, 3}, {0, 0, false, 2}, {0, 0, false, 1}});
    CnetPtr cn = compile_ok(net.get());
    EXPECT_EQ(arcs_of(cn->pre_off, cn->pre, 0), (W{{0, 3}}));
    EXPECT_EQ(arcs_of(cn->post_off, cn->post, 0), (W{{0, 3}}));
    EXPECT_EQ(cn->delta_off[1] - cn->delta_off[0], 0u);
    EXPECT_EQ(cn->incidence[0], 0);
    uint64_t m[1] = {3}, out[1] = {0};
    EXPECT_TRUE(pn_cnet_enabled(cn.get(), m, 0));
    EXPECT_TRUE(pn_cnet_fire(cn.get(), m, 0, out));
    EXPECT_EQ(out[0], 3u);
    m[0] = 2;
    EXPECT_FALSE(pn_cnet_enabled(cn.get(), m, 0));
}

TEST(Cnet, PlacesAndTransitionsWithoutArcs)
{
    NetPtr net = make_net({7, 0}, 2, {});
    CnetPtr cn = compile_ok(net.get());
    for (uint32_t t = 0; t <= 2; t++) {
        EXPECT_EQ(cn->pre_off[t], 0u);
        EXPECT_EQ(cn->post_off[t], 0u);
        EXPECT_EQ(cn->delta_off[t], 0u);
    }
    ASSERT_NE(cn->incidence, nullptr);
    for (int i = 0; i < 4; i++)
        EXPECT_EQ(cn->incidence[i], 0);
    // A transition with no arcs is always enabled and changes nothing.
    uint64_t m[2] = {0, 0}, out[2] = {9, 9};
    EXPECT_TRUE(pn_cnet_enabled(cn.get(), m, 1));
    EXPECT_TRUE(pn_cnet_fire(cn.get(), m, 1, out));
    EXPECT_EQ(out[0], 0u);
    EXPECT_EQ(out[1], 0u);
}

TEST(Cnet, NoTransitions)
{
    NetPtr net = make_net({1, 2, 3}, 0, {});
    CnetPtr cn = compile_ok(net.get());
    EXPECT_EQ(cn->n_transitions, 0u);
    EXPECT_EQ(cn->pre_off[0], 0u);
    EXPECT_EQ(cn->incidence, nullptr) << "a 3 x 0 matrix has no cells";
    EXPECT_EQ(cn->m0[2], 3u);
}

TEST(Cnet, ParallelWeightsSummingToMaxAreAccepted)
{
    // pre = (2^64-2) + 1 = 2^64-1 and post the same: fits, no delta.
    NetPtr net = make_net({0}, 1,
                          {{0, 0, true, UINT64_MAX - 1}, {0, 0, true, 1},
                           {0, 0, false, UINT64_MAX}});
    CnetPtr cn = compile_ok(net.get());
    EXPECT_EQ(arcs_of(cn->pre_off, cn->pre, 0), (W{{0, UINT64_MAX}}));
    EXPECT_EQ(arcs_of(cn->post_off, cn->post, 0), (W{{0, UINT64_MAX}}));
    EXPECT_EQ(cn->delta_off[1], 0u);
}

TEST(Cnet, ParallelInputWeightsOverflowIsInputError)
{
    NetPtr net = make_net({0}, 1, {{0, 0, true, UINT64_MAX}, {0, 0, true, 1}});
    pn_error err;
    pn_error_clear(&err);
    pn_cnet *cn = reinterpret_cast<pn_cnet *>(0x1);
    EXPECT_EQ(pn_cnet_compile(net.get(), &cn, &err), PN_ERR_INPUT);
    EXPECT_EQ(cn, nullptr);
    EXPECT_EQ(err.code, PN_ERR_INPUT);
    std::string msg = err.msg;
    EXPECT_NE(msg.find("p0"), std::string::npos) << msg;
    EXPECT_NE(msg.find("t0"), std::string::npos) << msg;
}

TEST(Cnet, ParallelOutputWeightsOverflowIsInputError)
{
    // 2^63 + 2^63 = 2^64: one past the limit, on output arcs.
    NetPtr net = make_net({0, 0}, 2,
                          {{1, 0, true, 1}, {0, 1, false, 1ULL << 63}, {0, 1, false, 1ULL << 63}});
    pn_error err;
    pn_error_clear(&err);
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(net.get(), &cn, &err), PN_ERR_INPUT);
    EXPECT_EQ(cn, nullptr);
    std::string msg = err.msg;
    EXPECT_NE(msg.find("t1"), std::string::npos) << msg;
}

TEST(Cnet, ManyParallelArcsOverflowIsInputError)
{
    // 5 arcs of 2^62: the overflow happens on the 5th addition.
    std::vector<Arc> arcs;
    for (int i = 0; i < 5; i++)
        arcs.push_back({0, 0, false, 1ULL << 62});
    NetPtr net = make_net({0}, 1, arcs);
    pn_error err;
    pn_error_clear(&err);
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(net.get(), &cn, &err), PN_ERR_INPUT);
    EXPECT_EQ(cn, nullptr);
    arcs.pop_back(); // 4 * 2^62 = 2^64: still too much
    NetPtr net4 = make_net({0}, 1, arcs);
    pn_error_clear(&err);
    EXPECT_EQ(pn_cnet_compile(net4.get(), &cn, &err), PN_ERR_INPUT);
    arcs.pop_back(); // 3 * 2^62 fits in 64 bits, but a delta beyond 2^63 does not
    NetPtr net3 = make_net({0}, 1, arcs);
    pn_error_clear(&err);
    EXPECT_EQ(pn_cnet_compile(net3.get(), &cn, &err), PN_ERR_INPUT);
    EXPECT_EQ(cn, nullptr);
}

TEST(Cnet, DeltaLimitIsTwoToThe63)
{
    // |post - pre| = 2^63 - 1 fits in int64_t; 2^63 does not.
    pn_error err;
    pn_error_clear(&err);
    NetPtr ok = make_net({0}, 2, {{0, 0, false, (uint64_t)INT64_MAX}, {0, 1, true, (uint64_t)INT64_MAX}});
    CnetPtr cn = compile_ok(ok.get());
    EXPECT_EQ(deltas_of(cn.get(), 0), (D{{0, INT64_MAX}}));
    EXPECT_EQ(deltas_of(cn.get(), 1), (D{{0, -INT64_MAX}}));
    EXPECT_EQ(cn->incidence[0], INT64_MAX);
    EXPECT_EQ(cn->incidence[1], -INT64_MAX);

    // pre 2^64-1, post 2^63-1: differ by exactly 2^63.
    NetPtr bad = make_net({0}, 1, {{0, 0, true, UINT64_MAX}, {0, 0, false, (uint64_t)INT64_MAX}});
    pn_cnet *out = nullptr;
    EXPECT_EQ(pn_cnet_compile(bad.get(), &out, &err), PN_ERR_INPUT);
    EXPECT_EQ(out, nullptr);
    EXPECT_NE(std::string(err.msg).find("p0"), std::string::npos) << err.msg;

    // A large self-loop with a small net effect is fine.
    NetPtr big = make_net({0}, 1, {{0, 0, true, UINT64_MAX}, {0, 0, false, UINT64_MAX - 5}});
    CnetPtr cb = compile_ok(big.get());
    EXPECT_EQ(deltas_of(cb.get(), 0), (D{{0, -5}}));
}

TEST(Cnet, EnabledAndFire)
{
    NetPtr net = sample_net();
    CnetPtr cn = compile_ok(net.get());
    const pn_cnet *c = cn.get();
    uint64_t m[4] = {2, 0, 1, 5};
    EXPECT_TRUE(pn_cnet_enabled(c, m, 0));
    EXPECT_FALSE(pn_cnet_enabled(c, m, 1)) << "needs 2 in p1";
    EXPECT_TRUE(pn_cnet_enabled(c, m, 2)) << "no inputs";
    EXPECT_TRUE(pn_cnet_enabled(c, m, 3)) << "needs 2 in p0 (merged) and 3 in p3";
    EXPECT_TRUE(pn_cnet_enabled(c, m, 4));

    uint64_t out[4];
    ASSERT_TRUE(pn_cnet_fire(c, m, 0, out));
    EXPECT_EQ(std::vector<uint64_t>(out, out + 4), (std::vector<uint64_t>{1, 2, 1, 5}));
    ASSERT_TRUE(pn_cnet_fire(c, m, 3, out));
    EXPECT_EQ(std::vector<uint64_t>(out, out + 4), (std::vector<uint64_t>{0, 7, 1, 3}));
    ASSERT_TRUE(pn_cnet_fire(c, m, 2, out));
    EXPECT_EQ(std::vector<uint64_t>(out, out + 4), (std::vector<uint64_t>{2, 0, 4, 5}));

    uint64_t m2[4] = {0, 2, 1, 0};
    EXPECT_FALSE(pn_cnet_enabled(c, m2, 0));
    EXPECT_TRUE(pn_cnet_enabled(c, m2, 1));
    EXPECT_FALSE(pn_cnet_enabled(c, m2, 3));
    ASSERT_TRUE(pn_cnet_fire(c, m2, 1, out));
    EXPECT_EQ(std::vector<uint64_t>(out, out + 4), (std::vector<uint64_t>{1, 0, 1, 0}));

    uint64_t m3[4] = {1, 2, 0, 9}; // self-loop input p2 empty: t1 disabled
    EXPECT_FALSE(pn_cnet_enabled(c, m3, 1));
    EXPECT_FALSE(pn_cnet_enabled(c, m3, 3)) << "one arc of weight 1 is not enough";
    // the input is untouched by fire
    EXPECT_EQ(m[0], 2u);
    EXPECT_EQ(m[1], 0u);
}

TEST(Cnet, FireRefusesCountsBeyond64Bits)
{
    // t0: no input, +2 into p0. t1: p1 -> t1 -> p0 (+1), consumes p1.
    NetPtr net = make_net({0, 0}, 2, {{0, 0, false, 2}, {1, 1, true, 1}, {0, 1, false, 1}});
    CnetPtr cn = compile_ok(net.get());
    uint64_t out[2];
    uint64_t m[2] = {UINT64_MAX - 2, 1};
    ASSERT_TRUE(pn_cnet_fire(cn.get(), m, 0, out));
    EXPECT_EQ(out[0], UINT64_MAX);
    m[0] = UINT64_MAX - 1;
    EXPECT_FALSE(pn_cnet_fire(cn.get(), m, 0, out)) << "(2^64-2) + 2 overflows";
    ASSERT_TRUE(pn_cnet_fire(cn.get(), m, 1, out));
    EXPECT_EQ(out[0], UINT64_MAX);
    EXPECT_EQ(out[1], 0u);
    m[0] = UINT64_MAX;
    EXPECT_FALSE(pn_cnet_fire(cn.get(), m, 1, out));
    EXPECT_FALSE(pn_cnet_fire(cn.get(), m, 0, out));
    // Needing (and consuming part of) a full place is fine.
    NetPtr drain = make_net({0}, 1, {{0, 0, true, UINT64_MAX}, {0, 0, false, UINT64_MAX - 5}});
    CnetPtr cd = compile_ok(drain.get());
    uint64_t full[1] = {UINT64_MAX}, res[1] = {1};
    EXPECT_TRUE(pn_cnet_enabled(cd.get(), full, 0));
    ASSERT_TRUE(pn_cnet_fire(cd.get(), full, 0, res));
    EXPECT_EQ(res[0], UINT64_MAX - 5);
    full[0] = UINT64_MAX - 1;
    EXPECT_FALSE(pn_cnet_enabled(cd.get(), full, 0));
}

TEST(Cnet, LargeIndexesKeepTheirPlaces)
{
    // 40 places, a transition touching a few far apart, arcs added backwards.
    std::vector<uint64_t> m0(40, 0);
    m0[39] = 1;
    NetPtr net = make_net(m0, 3,
                          {{39, 2, true, 1}, {0, 2, false, 1}, {20, 2, false, 4}, {39, 0, false, 1},
                           {5, 1, true, 1}});
    CnetPtr cn = compile_ok(net.get());
    EXPECT_EQ(deltas_of(cn.get(), 2), (D{{0, 1}, {20, 4}, {39, -1}}));
    EXPECT_EQ(deltas_of(cn.get(), 0), (D{{39, 1}}));
    EXPECT_EQ(deltas_of(cn.get(), 1), (D{{5, -1}}));
    EXPECT_EQ(cn->incidence[20 * 3 + 2], 4);
    EXPECT_EQ(cn->incidence[39 * 3 + 2], -1);
    EXPECT_EQ(cn->incidence[39 * 3 + 0], 1);
    EXPECT_EQ(cn->incidence[5 * 3 + 1], -1);
    EXPECT_EQ(cn->incidence[5 * 3 + 2], 0);
}
