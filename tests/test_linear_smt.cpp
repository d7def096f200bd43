// The linear layer's SMT check (host/linear/lin_smt.c): the state equation
// with a whole formula and integer markings. A hand-made Dekker net whose
// deadlock-freedom the cut DNF cannot prove and the SMT check can, and
// random small nets where every "unsatisfiable" is checked against a full
// enumeration (no reachable marking may have the formula).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/formula.h"
#include "petrel/linear.h"
#include "petrel/net.h"
#include "test_ptrs.h"
#include "test_share.h"
extern "C" {
#include "linear/lin.h"
}
#include "test_random_net.h"
#include "test_enum.h"

namespace {

// Dekker's protocol for k processes, as in the MCC's Dekker-PT nets: per
// process i places idle_i, want_i, cs_i, flag0_i, flag1_i and transitions
// try_i, enter_i (every other flag down), exit_i, and withdraw_ij (process
// j's flag is up). flag1_i = want_i + cs_i is an invariant with signs, so
// an integer solution of the state equation where every transition is
// disabled has every process wanting with its flag up, and then withdraw
// is enabled: no deadlock. The rational relaxation has one (every place at
// 1/2), the DNF of "deadlock" is a product of thousands of cubes, and from
// three processes on Commoner's siphon rule does not prove it either.
Net dekker(uint32_t k)
{
    RandomNetSpec s;
    s.n_trans = 0;
    for (uint32_t i = 0; i < k; i++)
        s.m0.insert(s.m0.end(), {1, 0, 0, 1, 0});
    auto arc = [&](uint32_t p, uint32_t t, bool in) { s.arcs.push_back({p, t, in, 1}); };
    for (uint32_t i = 0; i < k; i++) {
        uint32_t idle = 5 * i, want = idle + 1, cs = idle + 2, f0 = idle + 3, f1 = idle + 4;
        uint32_t t = s.n_trans;
        arc(idle, t, true), arc(f0, t, true), arc(want, t, false), arc(f1, t, false); // try
        arc(want, t + 1, true), arc(cs, t + 1, false);                                // enter
        arc(cs, t + 2, true), arc(f1, t + 2, true), arc(idle, t + 2, false), arc(f0, t + 2, false);
        s.n_trans += 3;
        for (uint32_t j = 0; j < k; j++) {
            if (j == i)
                continue;
            arc(5 * j + 3, t + 1, true), arc(5 * j + 3, t + 1, false); // enter reads flag0_j
            uint32_t w = s.n_trans++;                                  // withdraw_ij
            arc(want, w, true), arc(f1, w, true), arc(5 * j + 4, w, true);
            arc(idle, w, false), arc(f0, w, false), arc(5 * j + 4, w, false);
        }
    }
    return build(s);
}

pn_answer deadlock_by_layer(const pn_cnet *cn, bool no_smt)
{
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    EXPECT_EQ(pn_check_new(cn, PN_EXAM_REACH_DEADLOCK, nullptr, 1, &c, &err), PN_OK);
    CheckPtr check(c);
    pn_linear_opts lo;
    memset(&lo, 0, sizeof lo);
    lo.no_smt = no_smt;
    EXPECT_EQ(pn_linear_decide(cn, c, &lo, &err), PN_OK) << err.msg;
    pn_check_finish(c, nullptr);
    return *pn_check_answer(c, 0);
}

} // namespace

TEST(LinearSmt, DekkerIsDeadlockFreeByIntegerMarkings)
{
    Net n = dekker(3);
    const pn_cnet *cn = n.cn.get();
    auto states = reachable(cn, 1000);
    pn_fml_node *dead = pn_fml_leaf(PN_FML_DEADLOCK);
    bool any = false;
    for (const auto &m : states)
        any |= pn_fml_eval_state(dead, cn, m.data());
    EXPECT_FALSE(any);
    EXPECT_GT(states.size(), 10u);
    // The SMT form alone: unsatisfiable with the deadlock.
    lin_smt *s = nullptr;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(lin_smt_new(cn, nullptr, &s, &err), PN_OK) << err.msg;
    pn_budget b = pn_budget_make(10.0, nullptr, 0);
    EXPECT_EQ(lin_smt_solve(s, dead, false, &b, nullptr), LIN_INFEASIBLE);
    // ... while a marking with want_0 and want_1 satisfies it, and is
    // reachable (try_0, try_1).
    uint32_t want0 = 1, want1 = 6; /* want_0, want_1 */
    pn_fml_node *both = pn_fml_binary(
        PN_FML_AND,
        pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), pn_fml_list(PN_FML_TOKENS, &want0, 1)),
        pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), pn_fml_list(PN_FML_TOKENS, &want1, 1)));
    std::vector<double> x(cn->n_transitions);
    EXPECT_EQ(lin_smt_solve(s, both, false, &b, x.data()), LIN_FEASIBLE);
    EXPECT_GE(x[0], 1.0); // try_0 fires at least once
    EXPECT_GE(x[5], 1.0); // try_1 too
    pn_fml_free(both);
    pn_fml_free(dead);
    lin_smt_free(s);
    // The layer: without SMT the cut DNF leaves it open, with it: FALSE.
    EXPECT_EQ(deadlock_by_layer(cn, true).verdict, PN_VERDICT_UNKNOWN);
    pn_answer a = deadlock_by_layer(cn, false);
    EXPECT_EQ(a.verdict, PN_VERDICT_FALSE);
    EXPECT_TRUE(a.techniques & PN_TECH_LINEAR_EQUATIONS);
}

// Building a Z3 context cannot be interrupted: one whose build (10 us per
// place, transition and non-zero effect) would outlast the time left is not
// started, and the same net with time enough gets one.
TEST(LinearSmt, AContextThatWouldOutlastTheTimeLeftIsNotBuilt)
{
    Net n = dekker(40); // 200 places, 1,680 transitions, ~11,000 effects: ~0.13 s
    const pn_cnet *cn = n.cn.get();
    lin_smt *s = nullptr;
    pn_error err;
    pn_error_clear(&err);
    pn_budget tight = pn_budget_make(0.01, nullptr, 0);
    EXPECT_EQ(lin_smt_new(cn, &tight, &s, &err), PN_ERR_TIMEOUT);
    EXPECT_EQ(s, nullptr);
    pn_error_clear(&err);
    pn_budget ample = pn_budget_make(30.0, nullptr, 0);
    ASSERT_EQ(lin_smt_new(cn, &ample, &s, &err), PN_OK) << err.msg;
    lin_smt_free(s);
}

// A check keeps to its budget: when the incremental search gives up the
// answer is unknown at once, never the combined solver's
// non-incremental tactic over the whole context, which keeps to no timeout
// (5.6 s past a 1 ms check on NeoElection-PT-6); and the simple solver of a
// small net, which has no such parameter, keeps its timeout too. Dekker
// nets whose deadlock question takes far longer than the milliseconds
// given: each check ends unknown well within a second.
TEST(LinearSmt, ACheckThatRunsOutOfTimeEndsUnknownAtOnce)
{
    // 60 processes: 300 places, 3,600 transitions (Z3_mk_solver's combined
    // solver); 28: 140 places, 840 transitions (the simple solver).
    for (uint32_t k : {60u, 28u}) {
        Net n = dekker(k);
        const pn_cnet *cn = n.cn.get();
        lin_smt *s = nullptr;
        pn_error err;
        pn_error_clear(&err);
        ASSERT_EQ(lin_smt_new(cn, nullptr, &s, &err), PN_OK) << err.msg;
        pn_fml_node *dead = pn_fml_leaf(PN_FML_DEADLOCK);
        for (double ms : {1.0, 2.0}) {
            pn_budget b = pn_budget_make(ms / 1000.0, nullptr, 0);
            double t0 = pn_clock_now();
            EXPECT_EQ(lin_smt_solve(s, dead, false, &b, nullptr), LIN_UNKNOWN) << k << ", " << ms;
            EXPECT_LT(pn_clock_now() - t0, 1.0) << k << " processes, " << ms << " ms";
        }
        pn_fml_free(dead);
        lin_smt_free(s);
    }
}

// Random bounded nets, random cardinality and fireability formulas and the
// deadlock: whatever the SMT form calls unsatisfiable holds in no reachable
// marking; a satisfiable one is a real solution of the state equation
// (checked on its firing counts). Both outcomes must occur often.
TEST(LinearSmt, UnsatisfiableMeansUnreachable)
{
    std::mt19937_64 rng(20261124);
    uint32_t unsat = 0, sat = 0, wrong = 0, asked = 0;
    for (uint32_t k = 0; k < petrel_test::random_share(2000) && wrong == 0; k++) {
        uint32_t P = 2 + (uint32_t)(rng() % 5), T = 1 + (uint32_t)(rng() % 8);
        Net n = build(random_bounded_spec(rng, P, T));
        const pn_cnet *cn = n.cn.get();
        auto states = reachable(cn, 20000);
        if (states.empty())
            continue;
        lin_smt *s = nullptr;
        pn_error err;
        pn_error_clear(&err);
        ASSERT_EQ(lin_smt_new(cn, nullptr, &s, &err), PN_OK) << err.msg;
        for (int f = 0; f < 5; f++) {
            pn_fml_node *phi = f == 4 ? pn_fml_leaf(PN_FML_DEADLOCK)
                                      : rand_state(rng, cn, rng() % 2 == 0, 3);
            bool neg = f < 4 && rng() % 2 == 0;
            bool reached = false;
            for (const auto &m : states)
                reached |= pn_fml_eval_state(phi, cn, m.data()) != neg;
            std::vector<double> x(cn->n_transitions + 1);
            pn_budget b = pn_budget_make(10.0, nullptr, 0);
            lin_result r = lin_smt_solve(s, phi, neg, &b, x.data());
            asked++;
            if (r == LIN_INFEASIBLE) {
                unsat++;
                if (reached) {
                    wrong++;
                    char *text = pn_fml_to_string(phi, nullptr);
                    ADD_FAILURE() << "unsatisfiable, yet reachable: " << (neg ? "!" : "") << text;
                    free(text);
                }
            } else if (r == LIN_FEASIBLE) {
                sat++;
                // m0 + C x >= 0 (up to the rounding of the model's counts).
                for (uint32_t p = 0; p < cn->n_places; p++) {
                    double m = (double)cn->m0[p];
                    for (uint32_t t = 0; t < cn->n_transitions; t++)
                        for (uint32_t d = cn->delta_off[t]; d < cn->delta_off[t + 1]; d++)
                            if (cn->delta[d].place == p)
                                m += (double)cn->delta[d].delta * x[t];
                    EXPECT_GE(m, -1e-3) << "place " << p;
                }
            }
            pn_fml_free(phi);
        }
        lin_smt_free(s);
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_GE(unsat, asked / 10) << unsat << " of " << asked;
    EXPECT_GE(sat, asked / 4) << sat << " of " << asked;
    std::printf("smt: %u questions, %u unsatisfiable (all unreachable), %u satisfiable\n", asked,
                unsat, sat);
}
