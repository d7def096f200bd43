// The global properties as families of small questions (host/examine/global.c)
// against full enumeration: OneSafe, QuasiLiveness, StableMarking and
// Liveness of 2,000 random nets each, through pn_examine (reductions on and
// off, one and two threads); every answer given must be the enumeration's,
// and on nets this small every one must be given. Liveness by enumeration:
// live iff from every reachable marking every transition can still fire;
// some live nets are proven so by Commoner's theorem alone (ordinary
// free-choice nets, lin_siphon.c), and those answers must hold too.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "petrel/examine.h"
#include "petrel/linear.h"
#include "petrel/mcc.h"
#include "test_enum.h"
#include "test_share.h"
#include "test_step.h"

namespace {

// Conservative nets (every transition puts back as many tokens as it
// takes, so cycles and live nets come up) or decreasing ones (deadlocks,
// dead transitions, stable places).
RandomNetSpec random_spec(std::mt19937_64 &rng)
{
    uint32_t P = 2 + (uint32_t)(rng() % 5), T = 1 + (uint32_t)(rng() % 6);
    if (rng() % 2 == 0)
        return random_bounded_spec(rng, P, T);
    std::uniform_int_distribution<uint32_t> place(0, P - 1);
    RandomNetSpec s;
    s.m0.resize(P);
    s.n_trans = T;
    for (auto &v : s.m0)
        v = rng() % 3;
    for (uint32_t t = 0; t < T; t++) {
        uint32_t n = 1 + (uint32_t)(rng() % 2);
        for (uint32_t k = 0; k < n; k++) {
            s.arcs.push_back({place(rng), t, true, 1});
            s.arcs.push_back({place(rng), t, false, 1});
        }
    }
    return s;
}

struct Truth {
    bool one_safe = true, quasi_live = true, stable = false, live = true;
    // per transition u, per state k: some enabling of u is reachable from k
    std::vector<std::vector<bool>> can_fire;
};

// The four properties of cn from its reachable markings (states).
Truth enumerate(const pn_cnet *cn, const std::vector<std::vector<uint64_t>> &states)
{
    const uint32_t P = cn->n_places, T = cn->n_transitions;
    const size_t N = states.size();
    std::map<std::vector<uint64_t>, size_t> id;
    for (size_t k = 0; k < N; k++)
        id[states[k]] = k;
    std::vector<std::vector<size_t>> succ(N);
    std::vector<std::vector<bool>> enabled(N, std::vector<bool>(T));
    Truth t;
    std::vector<bool> seen(T), moved(P);
    std::vector<uint64_t> out(P);
    for (size_t k = 0; k < N; k++) {
        for (uint32_t p = 0; p < P; p++) {
            t.one_safe = t.one_safe && states[k][p] <= 1;
            moved[p] = moved[p] || states[k][p] != cn->m0[p];
        }
        for (uint32_t u = 0; u < T; u++) {
            if (!pn_cnet_enabled(cn, states[k].data(), u))
                continue;
            enabled[k][u] = seen[u] = true;
            EXPECT_TRUE(pn_cnet_fire(cn, states[k].data(), u, out.data()));
            succ[k].push_back(id.at(out));
        }
    }
    for (uint32_t u = 0; u < T; u++)
        t.quasi_live = t.quasi_live && seen[u];
    for (uint32_t p = 0; p < P; p++)
        t.stable = t.stable || !moved[p];
    // Live iff from every state every transition can still fire: the
    // states that reach an enabling of u, backwards, are all of them.
    for (uint32_t u = 0; u < T; u++) {
        std::vector<bool> can(N);
        for (bool grew = true; grew;) {
            grew = false;
            for (size_t k = 0; k < N; k++) {
                bool c = enabled[k][u];
                for (size_t j : succ[k])
                    c = c || can[j];
                if (c && !can[k])
                    can[k] = grew = true;
            }
        }
        t.live = t.live && std::all_of(can.begin(), can.end(), [](bool b) { return b; });
        t.can_fire.push_back(can);
    }
    return t;
}

// check(cn, states, truth, k) on random nets (those with reachable
// markings), net k = 0, 1, ..., until count of them or check says stop
// (false); returns how many were checked.
template <class Check> uint32_t random_nets(uint64_t seed, uint32_t count, Check check)
{
    std::mt19937_64 rng(seed);
    uint32_t nets = 0;
    bool go_on = true;
    while (nets < count && go_on) {
        Net n = build(random_spec(rng));
        const pn_cnet *cn = n.cn.get();
        auto states = reachable(cn, 2000);
        if (states.empty())
            continue;
        Truth t = enumerate(cn, states);
        go_on = check(cn, states, t, nets);
        nets++;
    }
    return nets;
}

pn_verdict examine(const pn_cnet *cn, pn_exam exam, bool reduce, uint32_t threads,
                   uint32_t *techniques)
{
    pn_examine_opts o = {};
    o.explore.threads = threads;
    o.engine = PN_ENGINE_CPU;
    o.no_reduce = !reduce;
    pn_budget b = pn_budget_make(60.0, nullptr, 256u << 20);
    pn_report *rep = nullptr;
    pn_error err;
    pn_error_clear(&err);
    EXPECT_EQ(pn_examine(cn, exam, nullptr, &o, &b, &rep, &err), PN_OK) << err.msg;
    pn_verdict v = rep != nullptr && rep->check != nullptr ? pn_check_answer(rep->check, 0)->verdict
                                                          : PN_VERDICT_UNKNOWN;
    *techniques = v != PN_VERDICT_UNKNOWN ? pn_check_answer(rep->check, 0)->techniques : 0;
    pn_report_free(rep);
    return v;
}

} // namespace

TEST(Global, RandomNetsAgreeWithEnumeration)
{
    const pn_exam exams[] = {PN_EXAM_ONE_SAFE, PN_EXAM_QUASI_LIVENESS, PN_EXAM_STABLE_MARKING,
                             PN_EXAM_LIVENESS};
    uint32_t wrong = 0, unknown = 0, held[4] = {0}, failed[4] = {0}, theorem = 0, dying = 0;
    auto check = [&](const pn_cnet *cn, const std::vector<std::vector<uint64_t>> &,
                     const Truth &t, uint32_t nets) {
        const bool want[] = {t.one_safe, t.quasi_live, t.stable, t.live};
        for (int e = 0; e < 4; e++) {
            uint32_t techniques = 0;
            pn_verdict v = examine(cn, exams[e], nets % 2 == 0, 1 + nets % 3 / 2, &techniques);
            theorem += exams[e] == PN_EXAM_LIVENESS && v == PN_VERDICT_TRUE &&
                       techniques == PN_TECH_TOPOLOGICAL;
            dying += exams[e] == PN_EXAM_LIVENESS && v == PN_VERDICT_FALSE &&
                     techniques == (PN_TECH_TOPOLOGICAL | PN_TECH_RANDOM_WALK);
            if (v == PN_VERDICT_UNKNOWN) {
                unknown++;
                continue;
            }
            if ((v == PN_VERDICT_TRUE) != want[e]) {
                wrong++;
                ADD_FAILURE() << "net " << nets << ": " << pn_exam_name(exams[e]) << " "
                              << (v == PN_VERDICT_TRUE) << ", enumeration " << want[e];
            }
            (want[e] ? held : failed)[e]++;
        }
        return wrong == 0;
    };
    uint32_t nets = random_nets(4711, petrel_test::random_share(2000), check);
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(unknown, 0u);
    EXPECT_EQ(nets, petrel_test::random_share(2000));
    EXPECT_GE(theorem, petrel_test::random_share(20)); // live nets proven so by Commoner's theorem
    EXPECT_GE(dying, petrel_test::random_share(20)); // refuted by a walk's empty siphon
    for (int e = 0; e < 4; e++) { // both values come up for every property
        EXPECT_GE(held[e], petrel_test::random_share(100)) << pn_exam_name(exams[e]);
        EXPECT_GE(failed[e], petrel_test::random_share(100)) << pn_exam_name(exams[e]);
    }
}

// The decision diagrams' step alone (ex_tech_symbolic) on Liveness of 2,000
// random nets: "every transition A G E F fireable" on the reachable set
// decides every one, as enumeration does, and says DECISION_DIAGRAMS.
TEST(Global, TheDecisionDiagramsDecideLiveness)
{
    uint32_t wrong = 0, live = 0, not_live = 0;
    auto check = [&](const pn_cnet *cn, const std::vector<std::vector<uint64_t>> &,
                     const Truth &t, uint32_t) {
        pn_error err;
        pn_error_clear(&err);
        pn_check *c = nullptr;
        EXPECT_EQ(pn_check_new(cn, PN_EXAM_LIVENESS, nullptr, 1, &c, &err), PN_OK) << err.msg;
        if (c == nullptr)
            return false;
        pn_budget b = pn_budget_make(60.0, nullptr, 0);
        EXPECT_EQ(petrel_test::run_step_alone(ex_tech_symbolic, cn, PN_EXAM_LIVENESS, nullptr, c,
                                              &b, &err),
                  PN_OK)
            << err.msg;
        const pn_answer *a = pn_check_answer(c, 0);
        EXPECT_TRUE(a->techniques & PN_TECH_DECISION_DIAGRAMS);
        bool right = a->verdict == (t.live ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
        wrong += !right;
        (t.live ? live : not_live)++;
        pn_check_free(c);
        return right;
    };
    uint32_t nets = random_nets(2718, petrel_test::random_share(2000), check);
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(nets, petrel_test::random_share(2000));
    // both values come up (about 1 net in 20 is live)
    EXPECT_GE(live, petrel_test::random_share(60));
    EXPECT_GE(not_live, petrel_test::random_share(600));
}

// pn_dying_at on every reachable marking of 2,000 random nets: each
// transition it says is dead there has no enabling reachable from there
// (the enumeration's), and it finds some.
TEST(Global, DyingTransitionsNeverFireAgain)
{
    uint32_t dead_found = 0, wrong = 0;
    auto check = [&](const pn_cnet *cn, const std::vector<std::vector<uint64_t>> &states,
                     const Truth &t, uint32_t nets) {
        pn_dying *d = nullptr;
        pn_error err;
        pn_error_clear(&err);
        EXPECT_EQ(pn_dying_new(cn, &d, &err), PN_OK) << err.msg;
        if (d == nullptr)
            return false;
        std::vector<uint8_t> dead(cn->n_transitions + 1);
        for (size_t k = 0; k < states.size(); k++) {
            uint32_t count = pn_dying_at(d, states[k].data(), dead.data());
            EXPECT_NE(count, UINT32_MAX);
            for (uint32_t u = 0; u < cn->n_transitions; u++) {
                if (!dead[u])
                    continue;
                dead_found++;
                if (t.can_fire[u][k]) {
                    wrong++;
                    ADD_FAILURE() << "net " << nets << ": t" << u << " said dead at state " << k;
                }
            }
        }
        pn_dying_free(d);
        return wrong == 0;
    };
    uint32_t nets = random_nets(815, petrel_test::random_share(2000), check);
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(nets, petrel_test::random_share(2000));
    EXPECT_GE(dead_found, petrel_test::random_share(1000));
}
