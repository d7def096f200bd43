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

// The labels of a state (pn_space_atoms_eval) read the packed fields where
// the atoms read few places of a wide net (host/space/pt.c), else the
// unpacked marking: on random walks of random nets of 4 to 160 places, both
// give the reference evaluator's value of every atom.
TEST(SpaceAtoms, PackedAndUnpackedReadsAgreeWithTheEvaluator)
{
    std::mt19937_64 rng(2026120102);
    uint64_t checked[2] = {0, 0}; // atoms read on wide and on narrow nets
    for (int net = 0; net < 1000; net++) {
        bool wide = net % 2 == 0;
        uint32_t P = wide ? 120 + (uint32_t)(rng() % 40) : 4 + (uint32_t)(rng() % 8);
        uint32_t T = wide ? P : 2 + (uint32_t)(rng() % 10);
        Net n = build(random_bounded_spec(rng, P, T));
        const pn_cnet *cn = n.cn.get();
        // Two atoms, each one place's count against a constant or one
        // transition's fireability: a few reads, packed on the wide nets.
        std::vector<pn_fml_node *> atoms;
        for (int a = 0; a < 2; a++) {
            if (rng() % 2 == 0) {
                uint32_t t = (uint32_t)(rng() % T);
                atoms.push_back(pn_fml_list(PN_FML_FIREABLE, &t, 1));
            } else {
                uint32_t p = (uint32_t)(rng() % P);
                atoms.push_back(pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, &p, 1),
                                              pn_fml_const(rng() % 4)));
            }
        }
        pn_error err;
        pn_error_clear(&err);
        pn_space *sp = nullptr;
        ASSERT_EQ(pn_space_pt_new(cn, &sp, &err), PN_OK) << err.msg;
        pn_space_atoms *sa = nullptr;
        ASSERT_EQ(pn_space_atoms_new(sp, atoms.data(), (uint32_t)atoms.size(), &sa, &err), PN_OK)
            << err.msg;
        uint32_t W = pn_space_words(sp);
        std::vector<uint64_t> s(W), next(W), m(P), letter(pn_space_atoms_words(sa));
        std::vector<uint32_t> en(T + 1);
        pn_space_initial(sp, s.data());
        for (int step = 0; step < 40; step++) {
            uint32_t k = pn_space_enabled(sp, s.data(), en.data());
            pn_space_atoms_eval(sa, s.data(), k, letter.data());
            pn_space_marking(sp, s.data(), m.data());
            for (size_t a = 0; a < atoms.size(); a++) {
                bool got = (letter[a / 64] >> (a % 64)) & 1;
                ASSERT_EQ(got, pn_fml_eval_state(atoms[a], cn, m.data())) << "net " << net;
                checked[wide]++;
            }
            if (k == 0 || pn_space_fire(sp, s.data(), en[rng() % k], next.data()) != 0)
                break;
            s.swap(next);
        }
        pn_space_atoms_free(sa);
        pn_space_free(sp);
        for (pn_fml_node *a : atoms)
            pn_fml_free(a);
    }
    EXPECT_GT(checked[1], 1500u);
    EXPECT_GT(checked[0], 1500u);
}
