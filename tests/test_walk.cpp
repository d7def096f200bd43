// Random walks (host/engine/walk.c) and the portfolio of examine.c: a
// hand-made deep deadlock and witness the walks must find, random nets where
// every walk verdict is compared with full enumeration (test_enum.h), and
// CTL / LTL examinations whose reachability-shaped formulas now take the
// reachability steps, compared with enumeration and with the graph
// checkers' answers for the formulas that still need them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/examine.h"
#include "petrel/formula.h"
#include "petrel/walk.h"
#include "test_enum.h"
#include "test_trace.h"

namespace {

pn_fml_node *tokens(uint32_t p) { return pn_fml_list(PN_FML_TOKENS, &p, 1); }
pn_fml_node *at_least(uint32_t p, uint64_t k)
{
    return pn_fml_binary(PN_FML_INT_LE, pn_fml_const(k), tokens(p));
}
pn_fml_node *ef(pn_fml_node *phi) { return pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, phi)); }
pn_fml_node *ag(pn_fml_node *phi) { return pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, phi)); }

// A chain p0 -> p1 -> ... -> pN of one token, each place with a self-loop
// beside its forward step: a walk goes forward with probability 1/2, and
// the only deadlock (the token in pN) lies N steps deep.
Net chain(uint32_t N)
{
    RandomNetSpec s;
    s.m0.assign(N + 1, 0);
    s.m0[0] = 1;
    s.n_trans = 2 * N;
    for (uint32_t i = 0; i < N; i++) {
        s.arcs.push_back({i, 2 * i, true, 1});
        s.arcs.push_back({i + 1, 2 * i, false, 1});
        s.arcs.push_back({i, 2 * i + 1, true, 1});
        s.arcs.push_back({i, 2 * i + 1, false, 1});
    }
    return build(s);
}

pn_walk_opts walk_opts(uint32_t threads, uint64_t walks, uint64_t steps)
{
    pn_walk_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.max_walks = walks;
    o.max_steps = steps;
    return o;
}

// A probe that says stop once the chain's token is at place `at` or
// beyond, counting the markings it was shown (from any walker thread).
struct ChainProbe {
    uint32_t n_places, at;
    uint32_t calls = 0, seen_at = 0;
};

bool chain_probe(void *ctx, const uint64_t *m)
{
    ChainProbe *p = static_cast<ChainProbe *>(ctx);
    __atomic_add_fetch(&p->calls, 1, __ATOMIC_RELAXED);
    for (uint32_t q = p->at; q < p->n_places; q++)
        if (m[q] == 1) {
            __atomic_store_n(&p->seen_at, q, __ATOMIC_RELAXED);
            return true;
        }
    return false;
}

} // namespace

TEST(Walk, FindsDeepDeadlockAndWitness)
{
    const uint32_t N = 300;
    Net n = chain(N);
    const pn_cnet *cn = n.cn.get();
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(cn, PN_EXAM_REACH_DEADLOCK, nullptr, 2, &c, &err), PN_OK);
    CheckPtr dead(c);
    pn_walk_opts o = walk_opts(2, 4, 100000);
    o.trace = true; // the winning walk's prefix: at least N steps to the deadlock
    uint32_t decided = 0;
    ASSERT_EQ(pn_walk_decide(cn, c, &o, &decided, &err), PN_OK) << err.msg;
    pn_check_finish(c, nullptr);
    EXPECT_EQ(decided, 1u);
    const pn_answer *a = pn_check_answer(c, 0);
    EXPECT_EQ(a->verdict, PN_VERDICT_TRUE);
    EXPECT_EQ(a->techniques, (uint32_t)PN_TECH_RANDOM_WALK);
    ASSERT_NE(a->lasso, nullptr);
    EXPECT_EQ(a->lasso_cycle, 0u);
    EXPECT_GE(a->lasso_prefix, (uint64_t)N);
    EXPECT_TRUE(path_reaches_goal(cn, a->lasso, a->lasso_prefix, nullptr));
    o.trace = false;

    // EF pN >= 1 (TRUE), AG pN < 1 (FALSE), AG at most one token (TRUE: no
    // witness exists, so the walks must leave it open), and the bound of pN
    // once its limit 1 is known.
    std::vector<pn_fml_node *> roots = {
        ef(at_least(N, 1)), ag(pn_fml_unary(PN_FML_NOT, at_least(N, 1))),
        ag(pn_fml_unary(PN_FML_NOT, at_least(N / 2, 2))), pn_fml_list(PN_FML_PLACE_BOUND, &N, 1)};
    SetPtr set = make_set(n.net.get(), roots);
    ASSERT_EQ(pn_check_new(cn, PN_EXAM_REACH_CARDINALITY, set.get(), 2, &c, &err), PN_OK);
    CheckPtr check(c);
    pn_check_bound_limit(c, 3, 1, false, PN_TECH_LINEAR_EQUATIONS);
    // A looser bound proven after it (another net's, pn_examine_opts.bound_limits)
    // is dropped: the walks still stop at 1.
    pn_check_bound_limit(c, 3, 5, false, PN_TECH_TOPOLOGICAL);
    ASSERT_EQ(pn_walk_decide(cn, c, &o, &decided, &err), PN_OK) << err.msg;
    pn_check_finish(c, nullptr);
    EXPECT_EQ(decided, 3u);
    EXPECT_EQ(pn_check_answer(c, 0)->verdict, PN_VERDICT_TRUE);
    EXPECT_EQ(pn_check_answer(c, 1)->verdict, PN_VERDICT_FALSE);
    EXPECT_EQ(pn_check_answer(c, 2)->verdict, PN_VERDICT_UNKNOWN);
    EXPECT_EQ(pn_check_answer(c, 3)->verdict, PN_VERDICT_VALUE);
    EXPECT_EQ(pn_check_answer(c, 3)->value, 1u);
    EXPECT_EQ(pn_check_answer(c, 3)->techniques,
              (uint32_t)(PN_TECH_LINEAR_EQUATIONS | PN_TECH_RANDOM_WALK));
    for (uint32_t i = 0; i < 4; i++) // without --trace the walks keep no paths
        EXPECT_EQ(pn_check_answer(c, i)->lasso, nullptr);
}

// The walks' probe (walk.h) sees real markings, at the start, every few
// thousand steps and where a walk ends, and its "stop" ends every walker;
// without any answer to decide (no check) the walks still run for it.
TEST(Walk, ProbeSeesMarkingsAndStopsTheWalks)
{
    const uint32_t N = 300;
    Net n = chain(N);
    const pn_cnet *cn = n.cn.get();
    pn_error err;
    pn_error_clear(&err);
    ChainProbe deep{N + 1, N}; // the deadlock: the token in pN
    pn_walk_opts o = walk_opts(2, 4, 100000);
    o.probe = chain_probe;
    o.probe_ctx = &deep;
    ASSERT_EQ(pn_walk_decide(cn, nullptr, &o, nullptr, &err), PN_OK) << err.msg;
    EXPECT_EQ(deep.seen_at, N); // the walk that reached it ended there and asked
    EXPECT_GE(deep.calls, 1u);
    EXPECT_LE(deep.calls, 2u * (100000 / 4096 + 2)); // stopped: not all 8 walks ran out

    ChainProbe never{N + 1, N + 1}; // never stops: every walk runs, probed each time
    o.max_walks = 2;
    o.max_steps = 10;
    o.probe_ctx = &never;
    ASSERT_EQ(pn_walk_decide(cn, nullptr, &o, nullptr, &err), PN_OK) << err.msg;
    EXPECT_EQ(never.calls, 2u * 2u * 2u); // 2 threads x 2 walks x (step 0 and the end)
}

// Directed walks (walk_aim.c): a token on a line of L places, stepping
// forward or back, beside K two-place toggles that are always enabled. A
// uniform step moves the line's token with probability 2 / (2K + 2), and
// an unbiased walk on the line needs about L * L such moves: 1,000 steps
// take it nowhere near the end. The directed walk (the first of a round)
// steps forward half the time and meets pL within its first walk.
TEST(Walk, DirectedWalkReachesTheEndOfOnePartOfMany)
{
    const uint32_t L = 60, K = 40;
    RandomNetSpec s;
    s.m0.assign(L + 1 + 2 * K, 0);
    s.m0[0] = 1;
    s.n_trans = 2 * L + 2 * K;
    for (uint32_t i = 0; i < L; i++) {
        s.arcs.push_back({i, 2 * i, true, 1}); // forward
        s.arcs.push_back({i + 1, 2 * i, false, 1});
        s.arcs.push_back({i + 1, 2 * i + 1, true, 1}); // back
        s.arcs.push_back({i, 2 * i + 1, false, 1});
    }
    for (uint32_t k = 0; k < K; k++) {
        uint32_t a = L + 1 + 2 * k, b = a + 1, t = 2 * L + 2 * k;
        s.m0[a] = 1;
        s.arcs.push_back({a, t, true, 1});
        s.arcs.push_back({b, t, false, 1});
        s.arcs.push_back({b, t + 1, true, 1});
        s.arcs.push_back({a, t + 1, false, 1});
    }
    Net n = build(s);
    pn_error err;
    pn_error_clear(&err);
    std::vector<pn_fml_node *> roots = {ef(at_least(L, 1)), ef(at_least(L / 2, 2))};
    SetPtr set = make_set(n.net.get(), roots);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(n.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get(), 2, &c, &err), PN_OK);
    CheckPtr check(c);
    pn_walk_opts o = walk_opts(1, 1, 1000);
    o.seed = 7;
    uint32_t decided = 0;
    ASSERT_EQ(pn_walk_decide(n.cn.get(), c, &o, &decided, &err), PN_OK) << err.msg;
    pn_check_finish(c, nullptr);
    EXPECT_EQ(decided, 1u);
    EXPECT_EQ(pn_check_answer(c, 0)->verdict, PN_VERDICT_TRUE);
    EXPECT_EQ(pn_check_answer(c, 1)->verdict, PN_VERDICT_UNKNOWN); // one token: never 2
}

// A walk of 10 steps cannot reach a deadlock 300 steps deep.
TEST(Walk, ShortWalksDecideNothingOutOfReach)
{
    Net n = chain(300);
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(n.cn.get(), PN_EXAM_REACH_DEADLOCK, nullptr, 1, &c, &err), PN_OK);
    CheckPtr check(c);
    pn_walk_opts o = walk_opts(1, 50, 10);
    uint32_t decided = 7;
    ASSERT_EQ(pn_walk_decide(n.cn.get(), c, &o, &decided, &err), PN_OK);
    pn_check_finish(c, nullptr);
    EXPECT_EQ(decided, 0u);
    EXPECT_EQ(pn_check_answer(c, 0)->verdict, PN_VERDICT_UNKNOWN);
}

namespace {

// A G (tokens(P) = c), StableMarking's item over the places P.
pn_fml_node *stays(const std::vector<uint32_t> &P, uint64_t c)
{
    pn_fml_node *lo = pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, P.data(), P.size()),
                                    pn_fml_const(c));
    pn_fml_node *hi = pn_fml_binary(PN_FML_INT_LE, pn_fml_const(c),
                                    pn_fml_list(PN_FML_TOKENS, P.data(), P.size()));
    return ag(pn_fml_binary(PN_FML_AND, lo, hi));
}

bool stop_at_once(void *, const uint64_t *) { return true; }

} // namespace

// p0 (1) -t0-> p1 -t1-> p4 -t3-> p2, and p3 (1) read by t2. A probe that
// stops the walks at their first marking: they meet m0 alone, where every
// item's atom holds, yet A G (p0 = 1) and A G (p1 = 0) fall by t0, enabled
// there (a moves goal, walk_moves.h); p2 moves only by t3, two steps
// further, and p3 never, nor the sum of p0, p1, p4, p2: those stay open.
TEST(Walk, StableMarkingItemsFallByTheTransitionsSeenEnabled)
{
    RandomNetSpec spec;
    spec.m0 = {1, 0, 0, 1, 0};
    spec.n_trans = 4;
    spec.arcs = {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}, {4, 1, false, 1},
                 {3, 2, true, 1}, {3, 2, false, 1}, {4, 3, true, 1}, {2, 3, false, 1}};
    Net n = build(spec);
    SetPtr set = make_set(n.net.get(), {stays({0}, 1), stays({1}, 0), stays({2}, 0),
                                        stays({3}, 1), stays({0, 1, 4, 2}, 1)});
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(n.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get(), 1, &c, &err),
              PN_OK);
    CheckPtr check(c);
    pn_walk_opts o = walk_opts(1, 4, 100);
    o.probe = stop_at_once;
    ASSERT_EQ(pn_walk_decide(n.cn.get(), c, &o, nullptr, &err), PN_OK) << err.msg;
    pn_check_finish(c, nullptr);
    EXPECT_EQ(pn_check_answer(c, 0)->verdict, PN_VERDICT_FALSE);
    EXPECT_EQ(pn_check_answer(c, 1)->verdict, PN_VERDICT_FALSE);
    for (uint32_t i = 2; i < 5; i++)
        EXPECT_EQ(pn_check_answer(c, i)->verdict, PN_VERDICT_UNKNOWN) << i;
}

namespace {

struct WalkTally {
    uint32_t nets = 0, items = 0, decided = 0, bounds = 0, deadlocks = 0, wrong = 0;
    uint32_t traces = 0; /* witnesses' paths replayed to their goal */
};

// With traces, every walk witness of a reach answer carries the walk's
// prefix, which replays to a marking where the goal holds (root NULL: a
// deadlock); without, none.
void walk_trace_ok(const pn_cnet *cn, const pn_answer *a, const pn_fml_node *root, bool traced,
                   WalkTally &t)
{
    if (!traced) {
        EXPECT_EQ(a->lasso, nullptr);
        return;
    }
    bool ok = a->lasso != nullptr && a->lasso_cycle == 0 &&
              path_reaches_goal(cn, a->lasso, a->lasso_prefix, root);
    t.traces += ok;
    t.wrong += !ok;
    EXPECT_TRUE(ok) << "a walk's witness path does not reach its goal";
}

// The true bound of root (a PLACE_BOUND) over states.
uint64_t true_bound(const pn_fml_node *root, const std::vector<std::vector<uint64_t>> &states)
{
    uint64_t b = 0;
    for (const auto &m : states)
        b = std::max(b, pn_fml_eval_int(root, m.data()));
    return b;
}

void walk_random(std::mt19937_64 &rng, WalkTally &t)
{
    uint32_t P = 2 + (uint32_t)(rng() % 5), T = 1 + (uint32_t)(rng() % 8);
    Net n = build(random_bounded_spec(rng, P, T));
    const pn_cnet *cn = n.cn.get();
    auto states = reachable(cn, 20000);
    if (states.empty())
        return;
    t.nets++;
    uint32_t kind = (uint32_t)(rng() % 3);
    std::vector<pn_fml_node *> roots;
    for (int i = 0; i < 4; i++)
        roots.push_back(rand_root(rng, cn, kind));
    if (kind != 2 && rng() % 2 == 0) { // a StableMarking item: a moves goal without traces
        std::vector<uint32_t> P = {(uint32_t)(rng() % cn->n_places)};
        if (rng() % 2 == 0)
            P.push_back((P[0] + 1) % cn->n_places);
        uint64_t c = 0;
        for (uint32_t p : P)
            c += cn->m0[p];
        pn_fml_free(roots.back());
        roots.back() = stays(P, c);
    }
    SetPtr set = make_set(n.net.get(), roots);
    pn_exam exam = kind == 2 ? PN_EXAM_UPPER_BOUNDS : PN_EXAM_REACH_CARDINALITY;
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    uint32_t threads = 1 + (uint32_t)(rng() % 2);
    ASSERT_EQ(pn_check_new(cn, exam, set.get(), threads, &c, &err), PN_OK) << err.msg;
    CheckPtr check(c);
    // Bounds: the true limit as if proven, or one above it (never reached:
    // the walks must not answer).
    std::vector<uint64_t> limit(set->n);
    for (uint32_t i = 0; kind == 2 && i < set->n; i++) {
        limit[i] = true_bound(set->props[i].root, states) + (rng() % 4 == 0);
        pn_check_bound_limit(c, i, limit[i], false, PN_TECH_LINEAR_EQUATIONS);
    }
    pn_walk_opts o = walk_opts(threads, 8, 1 + rng() % 40);
    o.seed = rng();
    o.trace = t.nets % 2 == 0;
    ASSERT_EQ(pn_walk_decide(cn, c, &o, nullptr, &err), PN_OK) << err.msg;
    pn_check_finish(c, nullptr);
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_answer *a = pn_check_answer(c, i);
        pn_answer want = truth(set->props[i].root, cn, states);
        t.items++;
        if (a->verdict == PN_VERDICT_UNKNOWN)
            continue;
        t.decided++;
        t.bounds += kind == 2;
        EXPECT_TRUE(a->techniques & PN_TECH_RANDOM_WALK);
        if (kind != 2)
            walk_trace_ok(cn, a, set->props[i].root, o.trace, t);
        bool bad = !agrees(*a, want) || (kind == 2 && a->value != limit[i]);
        if (bad) {
            t.wrong++;
            char *text = pn_fml_to_string(set->props[i].root, nullptr);
            ADD_FAILURE() << "walk: " << text << ": got " << a->verdict << "/" << a->value
                          << " want " << want.verdict << "/" << want.value;
            free(text);
        }
    }
    // ReachabilityDeadlock by walks alone.
    bool dead = false;
    pn_fml_node *d = pn_fml_leaf(PN_FML_DEADLOCK);
    for (const auto &m : states)
        dead |= pn_fml_eval_state(d, cn, m.data());
    pn_fml_free(d);
    ASSERT_EQ(pn_check_new(cn, PN_EXAM_REACH_DEADLOCK, nullptr, 1, &c, &err), PN_OK);
    CheckPtr dc(c);
    pn_walk_opts od = walk_opts(1, 8, 30);
    od.trace = true;
    ASSERT_EQ(pn_walk_decide(cn, c, &od, nullptr, &err), PN_OK);
    pn_check_finish(c, nullptr);
    pn_verdict v = pn_check_answer(c, 0)->verdict;
    if (v != PN_VERDICT_UNKNOWN) {
        t.deadlocks++;
        walk_trace_ok(cn, pn_check_answer(c, 0), nullptr, true, t);
        EXPECT_TRUE(dead);
        t.wrong += !dead || v != PN_VERDICT_TRUE;
    }
}

} // namespace

TEST(Walk, RandomNetsAgreeWithEnumeration)
{
    std::mt19937_64 rng(18);
    WalkTally t;
    for (int k = 0; k < 2500 && t.wrong == 0; k++)
        walk_random(rng, t);
    EXPECT_EQ(t.wrong, 0u);
    EXPECT_GE(t.nets, 2000u);
    // Walks find witnesses only, but on small nets they find many.
    EXPECT_GE(t.decided, t.items / 4) << t.decided << " of " << t.items;
    EXPECT_GE(t.bounds, 300u);
    EXPECT_GE(t.deadlocks, 200u);
    EXPECT_GE(t.traces, 1000u);
    std::printf("walk: %u nets, %u items, %u decided (%u bounds), %u deadlocks found, %u traces "
                "replayed\n",
                t.nets, t.items, t.decided, t.bounds, t.deadlocks, t.traces);
}

// LTL formulas refuted on a walk's prefix (formula/prefix_goals.h): on the
// chain, A G (p0 >= 1) fails at the first forward step, A G F (p0 >= 1)
// only at the deadlock (the token in pN, repeated forever), and the walks
// leave the TRUE A F (p0 >= 1) and the unrefutable-by-a-prefix
// A F G (p0 >= 1) open.
TEST(Walk, LtlFormulasFallOnAPrefixThatViolatesThem)
{
    const uint32_t N = 6;
    Net n = chain(N);
    const pn_cnet *cn = n.cn.get();
    auto ltl = [](pn_fml_node *path) { return pn_fml_unary(PN_FML_A, path); };
    auto G = [](pn_fml_node *f) { return pn_fml_unary(PN_FML_G, f); };
    auto F = [](pn_fml_node *f) { return pn_fml_unary(PN_FML_F, f); };
    std::vector<pn_fml_node *> roots = {ltl(G(at_least(0, 1))), ltl(G(F(at_least(0, 1)))),
                                        ltl(F(at_least(0, 1))), ltl(F(G(at_least(N, 1))))};
    SetPtr set = make_set(n.net.get(), roots);
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(cn, PN_EXAM_LTL_CARDINALITY, set.get(), 2, &c, &err), PN_OK);
    CheckPtr check(c);
    pn_walk_opts o = walk_opts(2, 64, 1000);
    o.ltl = set.get();
    uint32_t decided = 0;
    ASSERT_EQ(pn_walk_decide(cn, c, &o, &decided, &err), PN_OK) << err.msg;
    EXPECT_EQ(decided, 2u);
    EXPECT_EQ(pn_check_answer(c, 0)->verdict, PN_VERDICT_FALSE);
    EXPECT_EQ(pn_check_answer(c, 0)->techniques, (uint32_t)PN_TECH_RANDOM_WALK);
    EXPECT_EQ(pn_check_answer(c, 1)->verdict, PN_VERDICT_FALSE);
    EXPECT_EQ(pn_check_answer(c, 2)->verdict, PN_VERDICT_UNKNOWN);
    EXPECT_EQ(pn_check_answer(c, 3)->verdict, PN_VERDICT_UNKNOWN);

    // With traces, which ask for a lasso, no prefix is read: only A G p
    // falls, a reachability target whose witness is a path.
    ASSERT_EQ(pn_check_new(cn, PN_EXAM_LTL_CARDINALITY, set.get(), 2, &c, &err), PN_OK);
    CheckPtr traced(c);
    o.trace = true;
    ASSERT_EQ(pn_walk_decide(cn, c, &o, &decided, &err), PN_OK) << err.msg;
    EXPECT_EQ(decided, 1u);
    EXPECT_EQ(pn_check_answer(c, 0)->verdict, PN_VERDICT_FALSE);
    EXPECT_EQ(pn_check_answer(c, 1)->verdict, PN_VERDICT_UNKNOWN);
}

// Random bounded nets with random LTL formulas (test_enum.h's ctl_case:
// the reference is the LTL product over the whole state space): every
// formula the walks refute is FALSE there, and they refute many of the
// FALSE ones.
TEST(Walk, LtlRefutationsAgreeWithTheProductOnRandomNets)
{
    std::mt19937_64 rng(43);
    uint32_t nets = 0, refuted = 0, false_ones = 0, wrong = 0;
    for (int k = 0; k < 3000 && nets < 2000; k++) {
        CtlCase cc;
        if (!ctl_case(rng, 6, &cc, true))
            continue;
        nets++;
        const pn_cnet *cn = cc.net.cn.get();
        pn_error err;
        pn_error_clear(&err);
        pn_check *c = nullptr;
        ASSERT_EQ(pn_check_new(cn, cc.exam, cc.set.get(), 1, &c, &err), PN_OK);
        CheckPtr check(c);
        pn_walk_opts o = walk_opts(1, 40, 200);
        o.ltl = cc.set.get();
        o.seed = (uint64_t)k + 1;
        ASSERT_EQ(pn_walk_decide(cn, c, &o, nullptr, &err), PN_OK) << err.msg;
        for (uint32_t i = 0; i < cc.set->n; i++) {
            const pn_fml_node *phi = nullptr;
            const uint32_t *places = nullptr;
            uint32_t np = 0;
            bool reach = pn_check_target_of(c, i, &phi, &places, &np) != PN_TARGET_NONE;
            false_ones += !reach && cc.want[i] == PN_VERDICT_FALSE;
            pn_verdict got = pn_check_answer(c, i)->verdict;
            if (got == PN_VERDICT_UNKNOWN)
                continue;
            refuted += !reach;
            EXPECT_EQ(got, PN_VERDICT_FALSE) << "net " << k << " formula " << i;
            if (got != cc.want[i]) {
                wrong++;
                ADD_FAILURE() << "net " << k << " formula " << i << ": the walks refute a "
                              << "formula the product holds TRUE";
            }
        }
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_GE(nets, 2000u);
    EXPECT_GE(refuted, false_ones / 3) << refuted << " of " << false_ones;
    std::printf("walk LTL: %u nets, %u of %u FALSE formulas refuted by a prefix\n", nets,
                refuted, false_ones);
}
