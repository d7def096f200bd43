// Stubborn sets (host/space/stubborn.c): hand-made nets whose reduced state
// counts are known, and random small nets (with read arcs, cycles and
// conflicts) on which the full search must answer as the enumeration of the
// reachable markings does, and the reduced one as the full one, for
// deadlocks and for random reachability goals.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/formula.h"
#include "petrel/lazy.h"
#include "petrel/ltl.h"
#include "petrel/mcc.h"
#include "petrel/net.h"
#include "petrel/pnml.h"
#include "petrel/stubborn.h"
#include "test_ptrs.h"
#include "test_enum.h"
#include "test_ltl_random.h"
#include "test_random_net.h"

namespace {

struct Found {
    bool found;
    uint64_t states;
};

Found search(const pn_cnet *cn, const pn_fml_node *goal, bool want, bool reduce)
{
    pn_error err;
    pn_error_clear(&err);
    Found f = {false, 0};
    uint64_t edges = 0;
    EXPECT_EQ(pn_stubborn_search(cn, goal, want, reduce, nullptr, &f.found, &f.states, &edges,
                                 &err),
              PN_OK)
        << err.msg;
    return f;
}

// n independent transitions p_i -> q_i (places p_0.., then q_0..).
Net independent_transitions(uint32_t n)
{
    RandomNetSpec s;
    s.m0.assign(2 * n, 0);
    s.n_trans = n;
    for (uint32_t i = 0; i < n; i++) {
        s.m0[i] = 1;
        s.arcs.push_back({i, i, true, 1});
        s.arcs.push_back({n + i, i, false, 1});
    }
    return build(s);
}

// 2^n states, a deadlock at the end; one interleaving suffices (n + 1
// states).
TEST(Stubborn, IndependentTransitionsOneInterleaving)
{
    const uint32_t n = 10;
    Net net = independent_transitions(n);
    NodePtr dead(pn_fml_leaf(PN_FML_DEADLOCK));
    Found full = search(net.cn.get(), dead.get(), true, false);
    Found red = search(net.cn.get(), dead.get(), true, true);
    EXPECT_TRUE(full.found);
    EXPECT_TRUE(red.found);
    EXPECT_GT(full.states, n + 1);
    EXPECT_EQ(red.states, n + 1);
    // The whole space: 2^n states; nothing can reach "false", so the
    // reduced search stops at the initial state.
    NodePtr no(pn_fml_leaf(PN_FML_FALSE));
    EXPECT_EQ(search(net.cn.get(), no.get(), true, false).states, 1u << n);
    EXPECT_EQ(search(net.cn.get(), no.get(), true, true).states, 1u);
    // A goal on one place: only its transition is interesting; the others
    // are never fired, so the goal is reached in one step.
    uint32_t q = n + 3;
    NodePtr goal(pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), pn_fml_list(PN_FML_TOKENS, &q, 1)));
    Found g = search(net.cn.get(), goal.get(), true, true);
    EXPECT_TRUE(g.found);
    EXPECT_EQ(g.states, 2u);
    // Unreachable: two tokens there. The reduced search proves it with
    // 2 states instead of 2^n.
    NodePtr two(pn_fml_binary(PN_FML_INT_LE, pn_fml_const(2), pn_fml_list(PN_FML_TOKENS, &q, 1)));
    Found u = search(net.cn.get(), two.get(), true, true);
    EXPECT_FALSE(u.found);
    EXPECT_EQ(u.states, 2u);
}

// A read arc: u tests p, t consumes it. Firing u first and then t works,
// t first disables u: the goal "u fired" needs u before t although t and u
// never take from the same place.
TEST(Stubborn, ReadArcIsAConflict)
{
    RandomNetSpec s;
    s.m0 = {1, 1, 0}; // p, the token of u, u's output
    s.n_trans = 2;
    s.arcs = {{0, 0, true, 1},                   // t consumes p
              {0, 1, true, 1}, {0, 1, false, 1}, // u reads p
              {1, 1, true, 1}, {2, 1, false, 1}};
    Net net = build(s);
    uint32_t out = 2;
    NodePtr goal(pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), pn_fml_list(PN_FML_TOKENS, &out, 1)));
    EXPECT_TRUE(search(net.cn.get(), goal.get(), true, true).found);
    NodePtr dead(pn_fml_leaf(PN_FML_DEADLOCK));
    EXPECT_TRUE(search(net.cn.get(), dead.get(), true, true).found);
}

// ---- random nets --------------------------------------------------------

// The generator's nets plus read arcs (a place in and out with one weight),
// which make conflicts that no shared consumption shows.
RandomNetSpec random_spec(std::mt19937_64 &rng)
{
    uint32_t P = 3 + (uint32_t)(rng() % 8), T = 2 + (uint32_t)(rng() % 9);
    RandomNetSpec s = random_bounded_spec(rng, P, T);
    for (uint32_t t = 0; t < T; t++)
        if (rng() % 3 == 0) {
            uint32_t p = (uint32_t)(rng() % P);
            uint64_t w = 1 + rng() % 2;
            s.arcs.push_back({p, t, true, w});
            s.arcs.push_back({p, t, false, w});
        }
    return s;
}

struct Tally {
    uint32_t runs = 0, found = 0, wrong = 0, enumerated = 0;
    uint64_t full_states = 0, reduced_states = 0;
};

void compare(const pn_cnet *cn, const pn_fml_node *goal, bool want, Tally &t)
{
    Found full = search(cn, goal, want, false);
    if (full.states > 20000)
        return;
    // the full search (best first, or depth first for deadlocks) against
    // the enumeration of every reachable marking
    // (a search that found its goal may have met few of more than 20,000)
    std::vector<std::vector<uint64_t>> all = reachable(cn, 20000);
    bool any = false;
    for (const std::vector<uint64_t> &m : all)
        any = any || pn_fml_eval_state(goal, cn, m.data()) == want;
    if (!all.empty()) {
        EXPECT_EQ(full.found, any);
        t.enumerated++;
    }
    Found red = search(cn, goal, want, true);
    t.runs++;
    t.found += full.found;
    t.full_states += full.states;
    t.reduced_states += red.states;
    if (full.found != red.found) {
        t.wrong++;
        char *text = pn_fml_to_string(goal, nullptr);
        ADD_FAILURE() << "goal " << (want ? "" : "!") << "(" << text << "): full " << full.found
                      << ", reduced " << red.found;
        free(text);
    }
    // A reduced search never stores more states than the full one.
    if (!full.found) {
        EXPECT_LE(red.states, full.states);
    }
}

// n random nets, each with the goal goal_of makes (and the value wanted):
// the reduced search agrees with the full one on every goal, both answers
// occur, and the reduction reduces something.
template <typename GoalOf> Tally random_runs(uint64_t seed, int n, GoalOf goal_of)
{
    std::mt19937_64 rng(seed);
    Tally t;
    for (int i = 0; i < n; i++) {
        Net net = build(random_spec(rng));
        bool want = true;
        NodePtr goal(goal_of(rng, net.cn.get(), &want));
        compare(net.cn.get(), goal.get(), want, t);
    }
    EXPECT_EQ(t.wrong, 0u);
    EXPECT_GE(t.runs, (uint32_t)n * 4 / 5);
    EXPECT_GT(t.found, t.runs / 10);
    EXPECT_LT(t.found, t.runs - t.runs / 10);
    EXPECT_LT(t.reduced_states, t.full_states);
    EXPECT_GE(t.enumerated, t.runs * 9 / 10);
    std::printf("%u goals (%u enumerated), %u reachable, %lu states full, %lu reduced\n", t.runs,
                t.enumerated, t.found, (unsigned long)t.full_states,
                (unsigned long)t.reduced_states);
    return t;
}

TEST(Stubborn, RandomNetsDeadlockAgreesWithFullSearch)
{
    random_runs(17, 10000, [](std::mt19937_64 &, const pn_cnet *, bool *) {
        return pn_fml_leaf(PN_FML_DEADLOCK);
    });
}

// Cardinality and fireability goals (test_enum.h's), wanted true or false.
TEST(Stubborn, RandomNetsReachabilityAgreesWithFullSearch)
{
    random_runs(1717, 10000, [](std::mt19937_64 &rng, const pn_cnet *cn, bool *want) {
        pn_fml_node *goal = rand_state(rng, cn, rng() % 2 == 0, 3);
        *want = rng() % 2 == 0;
        return goal;
    });
}

// The examination hook on random nets: E F / A G answers and bounds whose
// proven limit is the true bound (the search finds a marking at it) or one
// above (none exists: the answer must stay open), against enumeration.
TEST(Stubborn, DecideAgreesWithEnumerationOnTargetsAndBounds)
{
    std::mt19937_64 rng(2016);
    uint32_t nets = 0, decided = 0, bounds = 0, wrong = 0, items = 0;
    for (int r = 0; r < 1500; r++) {
        RandomCase rc;
        if (!random_case(rng, 6, 4, 3, &rc))
            continue;
        nets++;
        const pn_cnet *cn = rc.net.cn.get();
        const auto &states = rc.states;
        uint32_t kind = rc.kind;
        const pn_fml_set *set = rc.set.get();
        pn_exam exam = kind == 2 ? PN_EXAM_UPPER_BOUNDS : PN_EXAM_REACH_CARDINALITY;
        pn_error err;
        pn_error_clear(&err);
        pn_check *c = nullptr;
        ASSERT_EQ(pn_check_new(cn, exam, set, 1, &c, &err), PN_OK) << err.msg;
        CheckPtr check(c);
        std::vector<uint64_t> limit(set->n);
        for (uint32_t i = 0; kind == 2 && i < set->n; i++) {
            uint64_t b = 0;
            for (const auto &m : states)
                b = std::max(b, pn_fml_eval_int(set->props[i].root, m.data()));
            limit[i] = b + (rng() % 4 == 0);
            pn_check_bound_limit(c, i, limit[i], false, PN_TECH_LINEAR_EQUATIONS);
        }
        pn_budget budget = pn_budget_make(60, nullptr, 0);
        pn_engine_result res;
        memset(&res, 0, sizeof res);
        pn_stubborn_decide(cn, c, &budget, &res, nullptr);
        pn_check_finish(c, nullptr);
        for (uint32_t i = 0; i < set->n; i++) {
            const pn_answer *a = pn_check_answer(c, i);
            pn_answer want = truth(set->props[i].root, cn, states);
            items++;
            if (a->verdict == PN_VERDICT_UNKNOWN)
                continue;
            decided++;
            bounds += kind == 2;
            bool bad = !agrees(*a, want) || (kind == 2 && a->value != limit[i]);
            wrong += bad;
            EXPECT_FALSE(bad) << "net " << r << ", answer " << i << ": got " << a->verdict << "/"
                              << a->value << ", want " << want.verdict << "/" << want.value;
        }
    }
    std::printf("stubborn decide: %u nets, %u of %u answers decided (%u bounds)\n", nets, decided,
                items, bounds);
    EXPECT_EQ(wrong, 0u);
    EXPECT_GE(nets, 1000u);
    EXPECT_GT(decided, items / 2);
    EXPECT_GT(bounds, decided / 5);
}

// ---- LTL without next ----------------------------------------------------

struct Ltl {
    pn_status st;
    bool value;
    uint64_t states;     // net states the product met
    uint64_t widenings;  // fields the on-demand space widened
    bool lasso_replays;  // a counterexample replays on the net (true if none)
};

// pn_ltl_check_otf of phi over the plain on-demand space or the reduced one
// (within budget when not NULL: PN_ERR_TIMEOUT is then no failure);
// PN_ERR_UNSUPPORTED where the reduced one cannot reduce.
Ltl ltl(const pn_cnet *cn, const pn_fml_node *phi, bool reduce, const pn_budget *budget = nullptr)
{
    pn_error err;
    pn_error_clear(&err);
    pn_lazy *z = nullptr;
    Ltl r = {PN_OK, false, 0, 0, true};
    r.st = reduce ? pn_ltl_por_lazy_new(cn, phi, 0, &z, &err) : pn_lazy_new(cn, 0, &z, &err);
    if (r.st == PN_ERR_UNSUPPORTED && reduce) // every transition visible
        return r;
    EXPECT_EQ(r.st, PN_OK) << err.msg;
    pn_ltl_lasso lasso = {nullptr, 0, 0};
    if (r.st == PN_OK)
        r.st = pn_ltl_check_otf(z, phi, budget, &r.value, nullptr, &lasso, &err);
    if (budget == nullptr || r.st != PN_ERR_TIMEOUT) {
        EXPECT_EQ(r.st, PN_OK) << err.msg;
    }
    if (r.st == PN_OK && !r.value)
        r.lasso_replays = lasso_replays(cn, lasso.trans, lasso.prefix, lasso.cycle);
    pn_ltl_lasso_free(&lasso);
    r.states = z != nullptr ? pn_lazy_states(z) : 0;
    r.widenings = z != nullptr ? pn_lazy_widenings(z) : 0;
    pn_lazy_free(z);
    return r;
}

NodePtr parse_A(const pn_fml_node *psi) { return NodePtr(pn_fml_unary(PN_FML_A, pn_fml_clone(psi))); }

// n independent transitions p_i -> q_i and A F (q_0 >= 1): only t_0 is
// visible, the others are fired in one order (n + 1 states, not 2^n).
TEST(StubbornLtl, IndependentTransitionsOneInterleaving)
{
    const uint32_t n = 10;
    Net net = independent_transitions(n);
    uint32_t q0 = n;
    NodePtr f(pn_fml_unary(PN_FML_F, pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1),
                                                  pn_fml_list(PN_FML_TOKENS, &q0, 1))));
    NodePtr phi = parse_A(f.get());
    ASSERT_TRUE(pn_ltl_por_applies(phi.get()));
    Ltl full = ltl(net.cn.get(), phi.get(), false), red = ltl(net.cn.get(), phi.get(), true);
    EXPECT_TRUE(full.value);
    EXPECT_TRUE(red.value);
    EXPECT_EQ(full.states, 1u << n);
    EXPECT_EQ(red.states, n + 1);
    // With X the formula is not stutter-invariant: no reduction.
    NodePtr x(pn_fml_unary(PN_FML_X, pn_fml_clone(f.get())));
    EXPECT_FALSE(pn_ltl_por_applies(parse_A(x.get()).get()));
    NodePtr dead(pn_fml_unary(PN_FML_F, pn_fml_leaf(PN_FML_DEADLOCK)));
    EXPECT_FALSE(pn_ltl_por_applies(parse_A(dead.get()).get()));
}

// The ignoring problem: t and u toggle a token between a and b forever,
// independent of v (c -> d), the only visible transition. Without the
// cycle proviso the reduced graph would only follow the toggle and never
// fire v, and A G (d <= 0) would come out TRUE. With one way back (u) the
// layer's order on markings breaks the cycle (u goes down); with two (u,
// u2) most invisible transitions go down and the on-demand space's proviso
// does it instead.
class StubbornLtlIgnoring : public testing::TestWithParam<bool> {};

TEST_P(StubbornLtlIgnoring, CycleProvisoFiresTheIgnoredTransition)
{
    RandomNetSpec s;
    s.m0 = {1, 0, 1, 0}; // a, b, c, d
    s.n_trans = 3;
    s.arcs = {{0, 0, true, 1}, {1, 0, false, 1},  // t: a -> b
              {1, 1, true, 1}, {0, 1, false, 1},  // u: b -> a
              {2, 2, true, 1}, {3, 2, false, 1}}; // v: c -> d
    if (GetParam()) {
        s.n_trans = 4;
        s.arcs.push_back({1, 3, true, 1}); // u2: b -> a
        s.arcs.push_back({0, 3, false, 1});
    }
    Net net = build(s);
    uint32_t d = 3;
    NodePtr g(pn_fml_unary(PN_FML_G, pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, &d, 1),
                                                  pn_fml_const(0))));
    NodePtr phi = parse_A(g.get());
    EXPECT_FALSE(ltl(net.cn.get(), phi.get(), false).value);
    EXPECT_FALSE(ltl(net.cn.get(), phi.get(), true).value);
    // A F d: the toggle may run forever, so FALSE both ways too.
    NodePtr f(pn_fml_unary(PN_FML_F, pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1),
                                                  pn_fml_list(PN_FML_TOKENS, &d, 1))));
    NodePtr phi_f = parse_A(f.get());
    EXPECT_FALSE(ltl(net.cn.get(), phi_f.get(), false).value);
    EXPECT_FALSE(ltl(net.cn.get(), phi_f.get(), true).value);
}

INSTANTIATE_TEST_SUITE_P(OrderOrExpansionProviso, StubbornLtlIgnoring, testing::Bool());

// A step of a lasso past a transition the reduction dropped that would
// overflow a field: q = 2 and p = 7 (3 bits), g: q -> 3 p (visible), u:
// takes 6 from p (invisible). The stubborn set {u} leaves g out, so no
// expansion widens p; the counterexample to A G (2 <= q) starts with u,
// and naming that step must pass g (listed first, p would reach 10) by
// rather than stop there and report a deadlock stutter.
TEST(StubbornLtl, LassoStepPastAnOverflowingDroppedTransition)
{
    RandomNetSpec s;
    s.m0 = {2, 7}; // q, p
    s.n_trans = 2;
    s.arcs = {{0, 0, true, 1}, {1, 0, false, 3}, // g: q -> 3 p
              {1, 1, true, 6}};                  // u: 6 p ->
    Net net = build(s);
    uint32_t q = 0;
    NodePtr g(pn_fml_unary(PN_FML_G, pn_fml_binary(PN_FML_INT_LE, pn_fml_const(2),
                                                  pn_fml_list(PN_FML_TOKENS, &q, 1))));
    NodePtr phi = parse_A(g.get());
    ASSERT_TRUE(pn_ltl_por_applies(phi.get()));
    Ltl full = ltl(net.cn.get(), phi.get(), false), red = ltl(net.cn.get(), phi.get(), true);
    EXPECT_FALSE(full.value);
    EXPECT_FALSE(red.value);
    EXPECT_GT(full.widenings, 0u); // g from the initial marking
    EXPECT_EQ(red.widenings, 0u);  // the reduced graph never fires it there
    EXPECT_TRUE(full.lasso_replays);
    EXPECT_TRUE(red.lasso_replays);
}

// Random nets (read arcs included) and random LTL formulas over three of
// test_enum.h's atoms: where the reduction applies (no X, no deadlock atom)
// the reduced product answers as the full one; the others fall back.
TEST(StubbornLtl, RandomNetsAndFormulasAgreeWithTheFullProduct)
{
    std::mt19937_64 rng(1789);
    uint32_t runs = 0, wrong = 0, trues = 0, fallback = 0, all_visible = 0, widened = 0;
    uint64_t full_states = 0, reduced_states = 0;
    for (int i = 0; i < 20000 && runs < 2500; i++) {
        Net net = build(random_spec(rng));
        std::vector<NodePtr> atoms;
        for (int a = 0; a < 3; a++)
            atoms.emplace_back(rand_atom(rng, net.cn.get(), rng() % 2 == 0));
        NodePtr psi(random_formula(rng, atoms, atoms.size(), 1 + i % 4));
        NodePtr phi = parse_A(psi.get());
        if (!pn_ltl_por_applies(phi.get())) {
            fallback++;
            continue;
        }
        Ltl full = ltl(net.cn.get(), phi.get(), false);
        if (full.states > 5000)
            continue;
        Ltl red = ltl(net.cn.get(), phi.get(), true);
        if (red.st == PN_ERR_UNSUPPORTED) {
            all_visible++;
            continue;
        }
        runs++;
        trues += full.value;
        widened += full.widenings > red.widenings; // POR skipped an overflowing firing
        EXPECT_TRUE(full.lasso_replays) << "net " << i;
        EXPECT_TRUE(red.lasso_replays) << "net " << i;
        if (full.value) { // both saw everything they needed
            full_states += full.states;
            reduced_states += red.states;
            EXPECT_LE(red.states, full.states);
        }
        if (red.value != full.value) {
            wrong++;
            char *text = pn_fml_to_string(phi.get(), nullptr);
            ADD_FAILURE() << "net " << i << ": " << text << ": full " << full.value
                          << ", reduced " << red.value;
            free(text);
        }
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_GE(runs, 2000u);
    EXPECT_GT(trues, runs / 10);
    EXPECT_LT(trues, runs - runs / 10);
    EXPECT_GT(fallback, 0u);
    /* The full product makes only the successors it visits, so it widens
     * less often than a product that fired every enabled transition. */
    EXPECT_GE(widened, runs / 200);
    EXPECT_LT(reduced_states, full_states);
    std::printf("ltl: %u formulas (%u true), %u fell back (X or deadlock), %u with every "
                "transition visible, %u widened less with POR, TRUE answers: %lu states "
                "full, %lu reduced\n",
                runs, trues, fallback, all_visible, widened, (unsigned long)full_states,
                (unsigned long)reduced_states);
}

// ---- MCC instances: states with and without, the oracle's answers ----------

struct Mcc {
    NetPtr net;
    CnetPtr cn;
    SetPtr set;
    std::map<std::string, bool> oracle;
};

// False (and a skip message) when the shared oracle data is absent.
bool load_mcc(const std::string &instance, pn_exam exam, const char *suffix, Mcc &m)
{
    std::string dir = std::string(PETREL_SHARED_DIR) + "/mcc/" + instance;
    std::ifstream out(dir + "/" + instance + "-" + suffix + ".out");
    if (!out)
        return false;
    std::string word, id, value;
    while (out >> word)
        if (word == "FORMULA" && out >> id >> value)
            m.oracle[id] = value == "TRUE";
    pn_error err;
    pn_error_clear(&err);
    pn_net *net = nullptr;
    EXPECT_EQ(pn_pnml_read_file((dir + "/model.pnml").c_str(), nullptr, &net, &err), PN_OK)
        << err.msg;
    m.net.reset(net);
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(net, &cn, &err), PN_OK) << err.msg;
    m.cn.reset(cn);
    const char *file = pn_exam_formula_file(exam);
    if (file != nullptr) {
        pn_fml_set *set = nullptr;
        EXPECT_EQ(pn_fml_read_file((dir + "/" + file).c_str(), net, &set, &err), PN_OK) << err.msg;
        m.set.reset(set);
        EXPECT_EQ(pn_fml_set_simplify(set, &err), PN_OK) << err.msg;
    }
    return true;
}

// Every E F / A G answer of the examination searched with and without the
// layer (each within limit_s): the same answers as the oracle, and the
// states of both summed.
void mcc_states(const std::string &instance, pn_exam exam, const char *suffix, double limit_s,
                uint64_t *full_states, uint64_t *reduced_states)
{
    Mcc m;
    if (!load_mcc(instance, exam, suffix, m))
        GTEST_SKIP() << instance << ": no oracle data";
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(m.cn.get(), exam, m.set.get(), 1, &c, &err), PN_OK) << err.msg;
    CheckPtr check(c);
    *full_states = *reduced_states = 0;
    for (uint32_t i = 0; i < pn_check_count(c); i++) {
        const pn_fml_node *phi = nullptr;
        const uint32_t *places = nullptr;
        uint32_t np = 0;
        pn_check_target tg = pn_check_target_of(c, i, &phi, &places, &np);
        if (tg != PN_TARGET_EF && tg != PN_TARGET_AG)
            continue;
        bool ef = tg == PN_TARGET_EF;
        uint64_t states[2] = {0, 0}, edges = 0;
        bool found[2] = {false, false};
        pn_status st[2];
        for (int reduce = 0; reduce < 2; reduce++) {
            pn_budget b = pn_budget_make(limit_s, nullptr, 0);
            st[reduce] = pn_stubborn_search(m.cn.get(), phi, ef, reduce == 1, &b, &found[reduce],
                                            &states[reduce], &edges, &err);
        }
        const char *id = pn_check_answer(c, i)->id;
        std::printf("%s: full %lu states%s, reduced %lu states%s\n", id,
                    (unsigned long)states[0], st[0] == PN_OK ? "" : " (stopped)",
                    (unsigned long)states[1], st[1] == PN_OK ? "" : " (stopped)");
        *full_states += states[0];
        *reduced_states += states[1];
        // The target's truth, before the negations the check peeled off.
        bool negate = false;
        const pn_fml_node *root = m.set ? m.set->props[i].root : nullptr;
        while (root != nullptr && root->kind == PN_FML_NOT) {
            negate = !negate;
            root = root->kids[0];
        }
        auto it = m.oracle.find(id);
        ASSERT_NE(it, m.oracle.end()) << id;
        for (int reduce = 0; reduce < 2; reduce++)
            if (st[reduce] == PN_OK) {
                bool holds = ef ? found[reduce] : !found[reduce];
                EXPECT_EQ(holds != negate, it->second) << id << (reduce ? " reduced" : " full");
            }
    }
}

// Every LTL formula of the examination that the reduction takes, checked
// with and without it (each within limit_s): the oracle's answers, and the
// states of both summed over the formulas that both decided.
void mcc_ltl_states(const std::string &instance, pn_exam exam, const char *suffix, double limit_s,
                    uint64_t *full_states, uint64_t *reduced_states)
{
    Mcc m;
    if (!load_mcc(instance, exam, suffix, m))
        GTEST_SKIP() << instance << ": no oracle data";
    *full_states = *reduced_states = 0;
    uint32_t taken = 0;
    for (uint32_t i = 0; i < m.set->n; i++) {
        const pn_fml_node *phi = m.set->props[i].root;
        if (m.set->props[i].status != PN_OK || phi == nullptr || !pn_ltl_por_applies(phi))
            continue;
        taken++;
        auto it = m.oracle.find(m.set->props[i].id);
        ASSERT_NE(it, m.oracle.end()) << m.set->props[i].id;
        Ltl r[2];
        for (int reduce = 0; reduce < 2; reduce++) {
            pn_budget b = pn_budget_make(limit_s, nullptr, 0);
            r[reduce] = ltl(m.cn.get(), phi, reduce == 1, &b);
            if (r[reduce].st == PN_ERR_UNSUPPORTED)
                r[reduce].states = r[0].states; // the plain space serves it
            if (r[reduce].st == PN_OK) {
                EXPECT_EQ(r[reduce].value, it->second)
                    << m.set->props[i].id << (reduce ? " reduced" : " full");
            }
        }
        std::printf("%s: %s, full %lu states%s, reduced %lu states%s\n", m.set->props[i].id,
                    it->second ? "TRUE" : "FALSE", (unsigned long)r[0].states,
                    r[0].st == PN_OK ? "" : " (stopped)", (unsigned long)r[1].states,
                    r[1].st == PN_OK ? "" : r[1].st == PN_ERR_UNSUPPORTED ? " (all visible)"
                                                                          : " (stopped)");
        /* TRUE answers only: both products saw everything they needed. A
         * FALSE one stops at its counterexample, which the full product,
         * making only the successors it visits (pn_lazy_succ_at), often
         * meets in fewer states than the reduced one, which makes every
         * successor its stubborn set keeps. */
        if (it->second && r[0].st == PN_OK &&
            (r[1].st == PN_OK || r[1].st == PN_ERR_UNSUPPORTED)) {
            *full_states += r[0].states;
            *reduced_states += r[1].states;
        }
    }
    EXPECT_GT(taken, 0u);
}

TEST(Stubborn, MccPhilosophersDeadlockFiveTimesFewerStates)
{
    uint64_t full = 0, reduced = 0;
    mcc_states("Philosophers-PT-000010", PN_EXAM_REACH_DEADLOCK, "RD", 20, &full, &reduced);
    if (full > 0) {
        EXPECT_LE(reduced * 5, full);
    }
}

TEST(Stubborn, MccPetersonDeadlockFiveTimesFewerStates)
{
    uint64_t full = 0, reduced = 0;
    mcc_states("Peterson-PT-2", PN_EXAM_REACH_DEADLOCK, "RD", 20, &full, &reduced);
    if (full > 0) {
        EXPECT_LE(reduced * 5, full);
    }
}

// Measurements (the reductions are not asserted: Dekker's enter transitions
// test every other process's flag, so every closure takes all of them).
TEST(Stubborn, Big_MccDekkerDeadlockStates)
{
    uint64_t full = 0, reduced = 0;
    mcc_states("Dekker-PT-010", PN_EXAM_REACH_DEADLOCK, "RD", 30, &full, &reduced);
}

TEST(Stubborn, Big_MccSharedMemoryDeadlockFiveTimesFewerStates)
{
    uint64_t full = 0, reduced = 0;
    mcc_states("SharedMemory-PT-000010", PN_EXAM_REACH_DEADLOCK, "RD", 120, &full, &reduced);
    if (full > 0) {
        EXPECT_LE(reduced * 5, full);
    }
}

TEST(StubbornLtl, MccPhilosophersLtlCardinalityAgreesWithTheOracle)
{
    uint64_t full = 0, reduced = 0;
    mcc_ltl_states("Philosophers-PT-000005", PN_EXAM_LTL_CARDINALITY, "LTLC", 20, &full, &reduced);
    EXPECT_LE(reduced, full);
}

// A G (Eat_1 <= 1) on Philosophers-PT-000010 is TRUE and needs every
// state of the product: only Eat_1's two transitions are visible.
TEST(StubbornLtl, Big_MccPhilosophersLocalInvariantStates)
{
    Mcc m;
    if (!load_mcc("Philosophers-PT-000010", PN_EXAM_REACH_DEADLOCK, "RD", m))
        GTEST_SKIP() << "no oracle data";
    int64_t eat1 = pn_net_find_place(m.net.get(), "Eat_1");
    ASSERT_GE(eat1, 0);
    uint32_t p = (uint32_t)eat1;
    NodePtr g(pn_fml_unary(PN_FML_G, pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, &p, 1),
                                                  pn_fml_const(1))));
    NodePtr phi = parse_A(g.get());
    Ltl full = ltl(m.cn.get(), phi.get(), false), red = ltl(m.cn.get(), phi.get(), true);
    EXPECT_TRUE(full.value);
    EXPECT_TRUE(red.value);
    EXPECT_EQ(full.states, 59049u);
    std::printf("A G (Eat_1 <= 1): full %lu states, reduced %lu\n", (unsigned long)full.states,
                (unsigned long)red.states);
}

TEST(StubbornLtl, Big_MccLtlStates)
{
    const char *instances[] = {"Philosophers-PT-000010", "SharedMemory-PT-000010", "Peterson-PT-3",
                               "Dekker-PT-015", "Kanban-PT-00005", "TokenRing-PT-010"};
    for (const char *inst : instances)
        for (int f = 0; f < 2; f++) {
            uint64_t full = 0, reduced = 0;
            mcc_ltl_states(inst, f ? PN_EXAM_LTL_FIREABILITY : PN_EXAM_LTL_CARDINALITY,
                           f ? "LTLF" : "LTLC", 30, &full, &reduced);
            std::printf("%s %s: %lu states full, %lu reduced\n", inst, f ? "LTLF" : "LTLC",
                        (unsigned long)full, (unsigned long)reduced);
        }
}

} // namespace
