// The distance to a state formula (host/formula/formula_distance.c), the
// order of the best-first search: hand-checked values on a small net, and on
// random nets, formulas and markings, 0 exactly where the formula has the
// wanted value.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "petrel/formula.h"
#include "test_enum.h"
#include "test_ptrs.h"
#include "test_random_net.h"

namespace {

uint64_t distance(const pn_fml_node *phi, bool want, const pn_cnet *cn,
                  std::vector<uint64_t> m)
{
    return pn_fml_distance(phi, want, cn, m.data());
}

// Places p0, p1, p2; t0 takes 2 from p0 and 1 from p1; t1 takes nothing.
Net small_net()
{
    RandomNetSpec s;
    s.m0 = {0, 0, 0};
    s.n_trans = 2;
    s.arcs = {{0, 0, true, 2}, {1, 0, true, 1}, {2, 0, false, 1}, {2, 1, false, 1}};
    return build(s);
}

TEST(Distance, HandCheckedValues)
{
    Net net = small_net();
    const pn_cnet *cn = net.cn.get();
    uint32_t t0 = 0, t1 = 1, p0 = 0, p1 = 1;
    NodePtr f0(pn_fml_list(PN_FML_FIREABLE, &t0, 1));
    // t0 lacks 2 tokens of p0 (and none of p1)
    EXPECT_EQ(distance(f0.get(), true, cn, {0, 1, 0}), 2u);
    EXPECT_EQ(distance(f0.get(), true, cn, {2, 1, 0}), 0u);
    // disabling t0 at (3, 1): take 2 from p0 or 1 from p1
    EXPECT_EQ(distance(f0.get(), false, cn, {3, 1, 0}), 1u);
    EXPECT_EQ(distance(f0.get(), false, cn, {3, 0, 0}), 0u);
    // t1 has no input: never disabled
    NodePtr f1(pn_fml_list(PN_FML_FIREABLE, &t1, 1));
    EXPECT_EQ(distance(f1.get(), false, cn, {0, 0, 0}), PN_FML_DISTANCE_MAX);
    EXPECT_EQ(distance(f1.get(), true, cn, {0, 0, 0}), 0u);
    // p0 <= p1 at (5, 2): 3 too many; its negation at (1, 4): 4 short
    NodePtr le(pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, &p0, 1),
                             pn_fml_list(PN_FML_TOKENS, &p1, 1)));
    EXPECT_EQ(distance(le.get(), true, cn, {5, 2, 0}), 3u);
    EXPECT_EQ(distance(le.get(), false, cn, {1, 4, 0}), 4u);
    EXPECT_EQ(distance(le.get(), false, cn, {5, 2, 0}), 0u);
    // a conjunction adds, a disjunction takes the least; NOT swaps them
    pn_fml_node *kids[2] = {pn_fml_clone(f0.get()), pn_fml_clone(le.get())};
    NodePtr conj(pn_fml_nary(PN_FML_AND, kids, 2));
    EXPECT_EQ(distance(conj.get(), true, cn, {5, 2, 0}), 0u + 3u);
    EXPECT_EQ(distance(conj.get(), true, cn, {0, 0, 0}), 3u + 0u);
    NodePtr neg(pn_fml_unary(PN_FML_NOT, pn_fml_clone(conj.get())));
    // !(f0 & le) true at (2, 3): f0 false (take 1 from p0) or le false (2 short)
    EXPECT_EQ(distance(neg.get(), true, cn, {2, 3, 1}), 1u);
    NodePtr dead(pn_fml_leaf(PN_FML_DEADLOCK));
    EXPECT_EQ(distance(dead.get(), true, cn, {0, 0, 0}), 1u); // t1 is always enabled
    EXPECT_EQ(distance(dead.get(), false, cn, {0, 0, 0}), 0u);
}

// 0 exactly where the formula has the wanted value, on random nets,
// cardinality and fireability formulas (with deadlocks) and markings.
TEST(Distance, ZeroExactlyWhereTheFormulaHasTheWantedValue)
{
    std::mt19937_64 rng(4242);
    uint32_t checked = 0, zero = 0;
    for (int i = 0; i < 2000; i++) {
        uint32_t P = 2 + (uint32_t)(rng() % 6), T = 1 + (uint32_t)(rng() % 6);
        Net net = build(random_bounded_spec(rng, P, T));
        const pn_cnet *cn = net.cn.get();
        NodePtr phi(rand_state(rng, cn, rng() % 2 == 0, 3));
        for (int k = 0; k < 10; k++) {
            std::vector<uint64_t> m(P);
            for (auto &x : m)
                x = rng() % 5;
            bool want = rng() % 2 == 0;
            uint64_t d = pn_fml_distance(phi.get(), want, cn, m.data());
            bool holds = pn_fml_eval_state(phi.get(), cn, m.data()) == want;
            ASSERT_EQ(d == 0, holds) << "net " << i << ", marking " << k;
            EXPECT_LE(d, PN_FML_DISTANCE_MAX);
            checked++;
            zero += d == 0;
        }
    }
    EXPECT_EQ(checked, 20000u);
    EXPECT_GT(zero, checked / 5);
    EXPECT_LT(zero, checked - checked / 5);
}

} // namespace
