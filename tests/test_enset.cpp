// Enabled sets kept across firings (petrel/space.h, host/space/enset.c):
// along random walks on random nets, the kept set equals the enabled
// transitions computed afresh at every state (tested again or listed
// afresh, on half of the nets each way), and a candidate tried and
// turned down (the lasso walks of host/logic/ctl_otf.c) gives the set back.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

extern "C" {
#include "petrel/space.h"
}
#include "test_enum.h"

namespace {

std::set<uint32_t> afresh(pn_space *sp, const std::vector<uint64_t> &s)
{
    std::vector<uint32_t> en(pn_space_transitions(sp) + 1);
    uint32_t n = pn_space_enabled(sp, s.data(), en.data());
    return std::set<uint32_t>(en.begin(), en.begin() + n);
}

std::set<uint32_t> kept(const pn_space_enset &e)
{
    std::set<uint32_t> out(e.list, e.list + e.n);
    EXPECT_EQ(out.size(), e.n) << "a transition listed twice";
    for (uint32_t k = 0; k < e.n; k++)
        EXPECT_EQ(e.pos[e.list[k]], k);
    return out;
}

} // namespace

TEST(SpaceEnset, FollowsRandomWalksAndGivesBackATurnedDownStep)
{
    std::mt19937_64 rng(20261201);
    uint64_t steps = 0, undone = 0, changed = 0;
    for (int net = 0; net < 1000; net++) {
        uint32_t P = 2 + (uint32_t)(rng() % 8), T = 1 + (uint32_t)(rng() % 12);
        Net n = build(random_bounded_spec(rng, P, T));
        pn_error err;
        pn_error_clear(&err);
        pn_space *sp = nullptr;
        ASSERT_EQ(pn_space_pt_new(n.cn.get(), &sp, &err), PN_OK) << err.msg;
        pn_space_enset e;
        ASSERT_EQ(pn_space_enset_init(sp, &e, &err), PN_OK) << err.msg;
        if (net % 2 == 1) // every step tested again, however many it may change
            e.refill_above = UINT32_MAX;
        uint32_t W = pn_space_words(sp);
        std::vector<uint64_t> s(W), next(W);
        pn_space_initial(sp, s.data());
        pn_space_enset_fill(sp, &e, s.data());
        for (int step = 0; step < 60 && e.n > 0; step++) {
            std::set<uint32_t> before = kept(e);
            ASSERT_EQ(before, afresh(sp, s));
            uint32_t t = e.list[rng() % e.n];
            if (pn_space_fire(sp, s.data(), t, next.data()) != 0)
                break; // a field overflows: the walks stop there too
            pn_space_enset_fired(sp, &e, next.data(), t);
            std::set<uint32_t> after = kept(e);
            ASSERT_EQ(after, afresh(sp, next));
            changed += after != before;
            if (rng() % 3 == 0) { // turned down: the same transitions tested on s again
                pn_space_enset_fired(sp, &e, s.data(), t);
                ASSERT_EQ(kept(e), before);
                pn_space_enset_fired(sp, &e, next.data(), t);
                undone++;
            }
            s.swap(next);
            steps++;
        }
        pn_space_enset_free(&e);
        pn_space_free(sp);
    }
    // The walks took steps, some of which changed the set, and some were undone.
    EXPECT_GT(steps, 5000u);
    EXPECT_GT(changed, 1000u);
    EXPECT_GT(undone, 1500u);
}
