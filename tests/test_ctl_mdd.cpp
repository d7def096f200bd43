// Decision diagrams (host/space/mdd.c) and CTL on them (host/logic/ctl_mdd.c)
// against independent methods: the set operations against std::set on
// random sets of markings; the reachable set against breadth-first
// enumeration (count and membership, in three place orders); CTL values
// against the graph checker (pn_examine on the whole state graph) on random
// nets and formulas; the portfolio's step on reachability, bound and
// deadlock answers against enumeration; and the budget: an unbounded net stops on time or
// memory instead of running on.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "examine/forest.h"
#include "examine/tech.h"
#include "logic/ctl_mdd.h"
#include "net/place_order.h"
#include "petrel/examine.h"
#include "space/mdd.h"
#include "test_enum.h"
#include "test_share.h"
#include "test_step.h"

namespace {

using Marking = std::vector<uint64_t>;

struct Forest {
    pn_mdd *d = nullptr;
    pn_budget b;
    // memory: a budget keeps the operation cache small (a sixteenth of it),
    // which a collection clears.
    Forest(const pn_cnet *cn, const uint32_t *order = nullptr, uint64_t memory = 0)
        : b(pn_budget_make(60.0, nullptr, memory))
    {
        pn_error err;
        pn_error_clear(&err);
        EXPECT_EQ(pn_mdd_new(cn, order, &b, &d, &err), PN_OK) << err.msg;
    }
    ~Forest() { pn_mdd_free(d); }
};

pn_mdd_ref set_of(pn_mdd *d, const std::set<Marking> &s)
{
    pn_mdd_ref r = PN_MDD_EMPTY;
    for (const Marking &m : s)
        r = pn_mdd_union(d, r, pn_mdd_marking(d, m.data()));
    return r;
}

// Every marking of `universe`: in r exactly when in want; r holds as many.
void expect_set(pn_mdd *d, pn_mdd_ref r, const std::set<Marking> &want,
                const std::set<Marking> &universe)
{
    ASSERT_NE(r, PN_MDD_STOP);
    EXPECT_EQ(pn_mdd_count(d, r), (double)want.size());
    for (const Marking &m : universe)
        EXPECT_EQ(pn_mdd_member(d, r, m.data()), want.count(m) == 1);
}

} // namespace

TEST(Mdd, SetOperationsAgreeWithStdSet)
{
    std::mt19937_64 rng(77);
    Net n = build(random_bounded_spec(rng, 4, 2));
    Forest f(n.cn.get());
    for (int k = 0; k < 200; k++) {
        std::set<Marking> a, b, universe;
        for (int i = 0; i < 40; i++) {
            Marking m(4);
            for (auto &v : m)
                v = rng() % 4;
            (rng() % 2 ? a : b).insert(m);
            universe.insert(m);
        }
        pn_mdd_ref x = set_of(f.d, a), y = set_of(f.d, b);
        std::set<Marking> u, i, dif;
        for (const Marking &m : universe) {
            if (a.count(m) || b.count(m))
                u.insert(m);
            if (a.count(m) && b.count(m))
                i.insert(m);
            if (a.count(m) && !b.count(m))
                dif.insert(m);
        }
        expect_set(f.d, pn_mdd_union(f.d, x, y), u, universe);
        expect_set(f.d, pn_mdd_inter(f.d, x, y), i, universe);
        expect_set(f.d, pn_mdd_minus(f.d, x, y), dif, universe);
        EXPECT_EQ(pn_mdd_union(f.d, x, y), pn_mdd_union(f.d, y, x)) << "canonical";
        EXPECT_EQ(pn_mdd_minus(f.d, x, x), PN_MDD_EMPTY);
        EXPECT_EQ(set_of(f.d, u), pn_mdd_union(f.d, x, y)) << "equal sets are one node";
    }
    EXPECT_EQ(pn_mdd_status(f.d), PN_OK);
}

// The reachable set, post, pre and enabled on each marking against
// pn_cnet_fire, in the net's order and reversed.
TEST(Mdd, ReachableAndFiringAgreeWithEnumeration)
{
    std::mt19937_64 rng(4242);
    uint32_t nets = 0;
    for (uint32_t k = 0; k < petrel_test::random_share(400); k++) {
        uint32_t P = 2 + (uint32_t)(rng() % 6), T = 1 + (uint32_t)(rng() % 8);
        Net n = build(random_bounded_spec(rng, P, T));
        const pn_cnet *cn = n.cn.get();
        auto states = reachable(cn, 5000);
        if (states.empty())
            continue;
        nets++;
        std::set<Marking> all(states.begin(), states.end());
        std::vector<uint32_t> rev(P), force(P);
        for (uint32_t p = 0; p < P; p++)
            rev[p] = P - 1 - p;
        pn_error err;
        pn_error_clear(&err);
        ASSERT_EQ(pn_place_order(cn, PN_ORDER_TOUCHED, PN_ORDER_BEST_OF_ROUNDS, false, nullptr, force.data(), nullptr, nullptr, &err), PN_OK);
        EXPECT_EQ(std::set<uint32_t>(force.begin(), force.end()).size(), (size_t)P)
            << "a permutation";
        Forest f(cn, k % 3 == 0 ? nullptr : k % 3 == 1 ? rev.data() : force.data());
        pn_mdd_ref r = pn_mdd_reachable(f.d, pn_mdd_marking(f.d, cn->m0));
        expect_set(f.d, r, all, all);
        uint32_t t = (uint32_t)(rng() % T);
        std::set<Marking> en, post, pre;
        for (const Marking &m : all) {
            if (!pn_cnet_enabled(cn, m.data(), t))
                continue;
            en.insert(m);
            Marking out(P);
            ASSERT_TRUE(pn_cnet_fire(cn, m.data(), t, out.data()));
            post.insert(out);
            if (all.count(out))
                pre.insert(m);
        }
        expect_set(f.d, pn_mdd_enabled(f.d, t, r), en, all);
        expect_set(f.d, pn_mdd_post(f.d, t, r), post, all);
        expect_set(f.d, pn_mdd_inter(f.d, r, pn_mdd_pre(f.d, t, r)), pre, all);
        EXPECT_EQ(pn_mdd_status(f.d), PN_OK);
    }
    EXPECT_GE(nets, petrel_test::random_share(300));
}

// The predecessor operations and the backward closure (E[C U A]) against
// pn_cnet_fire on random subsets A, C of the reachable markings, in three
// orders; then a collection keeping two of the sets: they hold the same
// markings after it, and the reachable set rebuilt is the kept node.
TEST(Mdd, PredecessorsBackwardClosureAndCollectionAgreeWithEnumeration)
{
    std::mt19937_64 rng(5150);
    uint32_t nets = 0;
    for (int k = 0; k < 300; k++) {
        uint32_t P = 2 + (uint32_t)(rng() % 6), T = 1 + (uint32_t)(rng() % 8);
        RandomNetSpec spec = random_bounded_spec(rng, P, T);
        if (k % 4 == 0) // a transition without arcs: every marking's self-loop
            spec.n_trans = ++T;
        Net n = build(spec);
        const pn_cnet *cn = n.cn.get();
        auto states = reachable(cn, 5000);
        if (states.size() < 2)
            continue;
        nets++;
        std::set<Marking> all(states.begin(), states.end()), a, c;
        for (const Marking &m : all) {
            if (rng() % 3 == 0)
                a.insert(m);
            if (rng() % 3 != 0)
                c.insert(m);
        }
        auto succ = [&](const Marking &m, uint32_t t, Marking &out) {
            out.resize(P);
            return pn_cnet_enabled(cn, m.data(), t) && pn_cnet_fire(cn, m.data(), t, out.data());
        };
        uint32_t t0 = (uint32_t)(rng() % T);
        std::set<Marking> pre_t, pre_any, until = a;
        for (const Marking &m : c) {
            Marking out;
            for (uint32_t t = 0; t < T; t++)
                if (succ(m, t, out) && a.count(out)) {
                    pre_any.insert(m);
                    if (t == t0)
                        pre_t.insert(m);
                }
        }
        for (bool grew = true; grew;) { // E[c U a], one marking at a time
            grew = false;
            for (const Marking &m : c) {
                Marking out;
                for (uint32_t t = 0; t < T && !until.count(m); t++)
                    if (succ(m, t, out) && until.count(out))
                        grew = until.insert(m).second;
            }
        }
        std::vector<uint32_t> rev(P), force(P);
        for (uint32_t p = 0; p < P; p++)
            rev[p] = P - 1 - p;
        pn_error err;
        pn_error_clear(&err);
        ASSERT_EQ(pn_place_order(cn, PN_ORDER_TOUCHED, PN_ORDER_BEST_OF_ROUNDS, k % 2 == 0, nullptr, force.data(), nullptr, nullptr, &err), PN_OK);
        Forest f(cn, k % 3 == 0 ? nullptr : k % 3 == 1 ? rev.data() : force.data(), 64u << 20);
        pn_mdd_ref r = pn_mdd_reachable(f.d, pn_mdd_marking(f.d, cn->m0));
        pn_mdd_ref x = set_of(f.d, a), y = set_of(f.d, c);
        expect_set(f.d, pn_mdd_pre_within(f.d, t0, x, y), pre_t, all);
        expect_set(f.d, pn_mdd_pre_all(f.d, x, y), pre_any, all);
        pn_mdd_ref u = pn_mdd_backward(f.d, x, y);
        expect_set(f.d, u, until, all);
        uint64_t before = pn_mdd_nodes(f.d);
        pn_mdd_ref roots[2] = {u, r};
        ASSERT_TRUE(pn_mdd_compact(f.d, roots, 2));
        EXPECT_LE(pn_mdd_nodes(f.d), before);
        expect_set(f.d, roots[0], until, all);
        expect_set(f.d, roots[1], all, all);
        EXPECT_EQ(pn_mdd_reachable(f.d, pn_mdd_marking(f.d, cn->m0)), roots[1])
            << "the unique table after collection finds the kept nodes";
        EXPECT_EQ(pn_mdd_status(f.d), PN_OK);
    }
    EXPECT_GE(nets, 200u);
}

// A net listing every reader's idle place, then every semaphore, then every
// reading place (as RwMutex's PNML does), with writers that take all the
// semaphores: classic FORCE keeps the semaphores together in the middle and
// the set does not close in seconds; the order pn_place_order picks
// puts each reader's three places side by side: 2^R + W markings in a
// node count linear in the places.
TEST(Mdd, TheOrderKeepsEachReadersPlacesTogether)
{
    const uint32_t R = 40, W = 4, P = 3 * R + 2 * W;
    RandomNetSpec s;
    s.m0.assign(P, 0);
    auto idle = [](uint32_t i) { return i; };
    auto sem = [&](uint32_t i) { return R + i; };
    auto reading = [&](uint32_t i) { return 2 * R + i; };
    auto wait = [&](uint32_t j) { return 3 * R + j; };
    auto writing = [&](uint32_t j) { return 3 * R + W + j; };
    for (uint32_t i = 0; i < R; i++)
        s.m0[idle(i)] = s.m0[sem(i)] = 1;
    for (uint32_t j = 0; j < W; j++)
        s.m0[wait(j)] = 1;
    auto arc = [&](uint32_t p, uint32_t t, bool to_trans) {
        s.arcs.push_back(RandomArc{p, t, to_trans, 1});
    };
    for (uint32_t i = 0; i < R; i++) { // begin and end reading
        arc(idle(i), s.n_trans, true), arc(sem(i), s.n_trans, true);
        arc(reading(i), s.n_trans++, false);
        arc(reading(i), s.n_trans, true);
        arc(idle(i), s.n_trans, false), arc(sem(i), s.n_trans++, false);
    }
    for (uint32_t j = 0; j < W; j++) { // begin and end writing: every semaphore
        for (uint32_t i = 0; i < R; i++)
            arc(sem(i), s.n_trans, true), arc(sem(i), s.n_trans + 1, false);
        arc(wait(j), s.n_trans, true), arc(writing(j), s.n_trans++, false);
        arc(writing(j), s.n_trans, true), arc(wait(j), s.n_trans++, false);
    }
    Net n = build(s);
    std::vector<uint32_t> order(P);
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_place_order(n.cn.get(), PN_ORDER_TOUCHED, PN_ORDER_BEST_OF_ROUNDS, false, nullptr, order.data(), nullptr, nullptr, &err), PN_OK);
    std::vector<uint32_t> level(P);
    for (uint32_t L = 0; L < P; L++)
        level[order[L]] = L;
    for (uint32_t i = 0; i < R; i++) {
        uint32_t lo = std::min({level[idle(i)], level[sem(i)], level[reading(i)]});
        uint32_t hi = std::max({level[idle(i)], level[sem(i)], level[reading(i)]});
        EXPECT_EQ(hi - lo, 2u) << "reader " << i;
    }
    Forest f(n.cn.get(), order.data());
    pn_budget quick = pn_budget_make(10.0, nullptr, 0);
    pn_mdd_set_budget(f.d, &quick);
    pn_mdd_ref r = pn_mdd_reachable(f.d, pn_mdd_marking(f.d, n.cn->m0));
    ASSERT_NE(r, PN_MDD_STOP) << pn_mdd_status(f.d);
    EXPECT_EQ(pn_mdd_count(f.d, r), std::ldexp(1.0, (int)R) + W);
    EXPECT_LT(pn_mdd_nodes(f.d), 20u * P);
}

// Dining philosophers in a ring, the places listed kind by kind (every
// thinking place, then every fork, ...), out of ring order within a kind
// and the transitions too, as Philosophers-PT's PNML does: FORCE from that
// listing, or from the smallest transitions first, leaves neighbours far
// apart (its rounds move a ring only a little each): without the
// breadth-first start, the set of 300 philosophers does not close in 10 s
// here, nor Philosophers-PT-001000's in 20 s. The breadth-first start puts
// each philosopher beside its neighbours: a few places per transition, and
// the set closes in a node count linear in the places. Its size is the
// transfer-matrix count: philosopher i thinks, holds its left fork or eats
// (both forks), and forks are never held twice: i-1 eating excludes i
// holding its left one.
Net philosophers_by_kind(uint32_t K)
{
    auto at = [&](uint32_t i) { return (i % K) * 7919u % K; }; // out of ring order
    auto think = [&](uint32_t i) { return at(i); };
    auto fork = [&](uint32_t i) { return K + at(i); };
    auto left = [&](uint32_t i) { return 2 * K + at(i); };
    auto eat = [&](uint32_t i) { return 3 * K + at(i); };
    RandomNetSpec s;
    s.m0.assign(4 * K, 0);
    auto arc = [&](uint32_t p, uint32_t t, bool to_trans) {
        s.arcs.push_back(RandomArc{p, t, to_trans, 1});
    };
    for (uint32_t j = 0; j < K; j++) { // the transitions out of ring order too
        const uint32_t i = j * 7907u % K;
        s.m0[think(i)] = s.m0[fork(i)] = 1;
        arc(think(i), s.n_trans, true), arc(fork(i), s.n_trans, true); // take the left fork
        arc(left(i), s.n_trans++, false);
        arc(left(i), s.n_trans, true), arc(fork(i + 1), s.n_trans, true); // the right one
        arc(eat(i), s.n_trans++, false);
        arc(eat(i), s.n_trans, true), arc(think(i), s.n_trans, false); // put both down
        arc(fork(i), s.n_trans, false), arc(fork(i + 1), s.n_trans++, false);
    }
    return build(s);
}

TEST(Mdd, ARingListedKindByKindGetsEachProcessBesideItsNeighbours)
{
    pn_error err;
    pn_error_clear(&err);
    { // 1,500 philosophers: FORCE's 200 rounds leave the kinds apart
        const uint32_t K = 1500;
        Net n = philosophers_by_kind(K);
        std::vector<uint32_t> order(4 * K);
        uint64_t after = 0, classic_after = 0;
        ASSERT_EQ(pn_place_order(n.cn.get(), PN_ORDER_TOUCHED, PN_ORDER_BEST_OF_ROUNDS, false,
                                 nullptr, order.data(), nullptr, &after, &err),
                  PN_OK);
        EXPECT_LE(after, 3ull * K * 8) << "at most 8 places apart per transition";
        ASSERT_EQ(pn_place_order(n.cn.get(), PN_ORDER_TOUCHED, PN_ORDER_BEST_OF_ROUNDS, true,
                                 nullptr, order.data(), nullptr, &classic_after, &err),
                  PN_OK);
        EXPECT_GT(classic_after, 10 * after) << "FORCE alone";
    }
    const uint32_t K = 300, P = 4 * K;
    Net n = philosophers_by_kind(K);
    std::vector<uint32_t> order(P);
    uint64_t after = 0;
    ASSERT_EQ(pn_place_order(n.cn.get(), PN_ORDER_TOUCHED, PN_ORDER_BEST_OF_ROUNDS, false, nullptr,
                             order.data(), nullptr, &after, &err),
              PN_OK);
    EXPECT_LE(after, 3ull * K * 8);
    Forest f(n.cn.get(), order.data());
    pn_budget quick = pn_budget_make(10.0, nullptr, 0);
    pn_mdd_set_budget(f.d, &quick);
    pn_mdd_ref r = pn_mdd_reachable(f.d, pn_mdd_marking(f.d, n.cn->m0));
    ASSERT_NE(r, PN_MDD_STOP) << pn_mdd_status(f.d);
    EXPECT_LT(pn_mdd_nodes(f.d), 40u * P);
    // trace(M^K), M[a][b]: philosopher i-1 in state a, i in b (0 thinks,
    // 1 holds its left fork, 2 eats); a = 2 holds fork i, which b >= 1 needs.
    double m[3][3] = {{1, 1, 1}, {1, 1, 1}, {1, 0, 0}}, pw[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (uint32_t k = 0; k < K; k++) {
        double nx[3][3] = {};
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                for (int c = 0; c < 3; c++)
                    nx[a][c] += pw[a][b] * m[b][c];
        std::copy(&nx[0][0], &nx[0][0] + 9, &pw[0][0]);
    }
    const double want = pw[0][0] + pw[1][1] + pw[2][2];
    EXPECT_NEAR(pn_mdd_count(f.d, r) / want, 1.0, 1e-9) << want;
}

// FORCE keeps to its budget: past it the rounds stop, and the best order so
// far (a permutation of the places, no wider than the net's own) stands.
// 200 rounds of 5 runs over a ring of 20,000 places take seconds; a spent
// budget leaves one round per run.
TEST(CtlMdd, ForceStopsAtItsBudget)
{
    const uint32_t P = 20000;
    RandomNetSpec s;
    s.m0.assign(P, 0);
    s.m0[0] = 1;
    for (uint32_t t = 0; t < P; t++) { // a ring, its places listed out of order
        uint32_t a = (t * 7919u) % P, b = ((t + 1) * 7919u) % P;
        s.arcs.push_back(RandomArc{a, t, true, 1});
        s.arcs.push_back(RandomArc{b, t, false, 1});
    }
    s.n_trans = P;
    Net n = build(s);
    pn_error err;
    pn_error_clear(&err);
    std::vector<uint32_t> order(P);
    uint64_t before = 0, after = 0;
    pn_budget spent = pn_budget_make(1e-9, nullptr, 0);
    double t0 = pn_clock_now();
    ASSERT_EQ(pn_place_order(n.cn.get(), PN_ORDER_TOUCHED, PN_ORDER_BEST_OF_ROUNDS, false, &spent,
                             order.data(), &before, &after, &err),
              PN_OK);
    double quick = pn_clock_now() - t0;
    std::vector<uint32_t> sorted(order);
    std::sort(sorted.begin(), sorted.end());
    for (uint32_t p = 0; p < P; p++)
        ASSERT_EQ(sorted[p], p);
    EXPECT_LE(after, before);
    t0 = pn_clock_now();
    ASSERT_EQ(pn_place_order(n.cn.get(), PN_ORDER_TOUCHED, PN_ORDER_BEST_OF_ROUNDS, false, nullptr,
                             order.data(), nullptr, nullptr, &err),
              PN_OK);
    double full = pn_clock_now() - t0;
    EXPECT_LT(quick * 20, full) << quick << " s with a spent budget, " << full << " s without";
}

// Two places counting down from N and M, one transition each: (N+1)(M+1)
// markings in one saturated node per level, forward and backward. The
// saturations build each level's node in place: a node remade after every
// new value would hold 1 + 2 + ... + N edges (5 * 10^9 here), far past the
// budget.
TEST(Mdd, ACountThatClimbsMakesOneNodePerLevel)
{
    const uint64_t N = 100000, M = 70000;
    RandomNetSpec s;
    s.m0 = {N, M};
    s.n_trans = 2;
    s.arcs.push_back(RandomArc{0, 0, true, 1});
    s.arcs.push_back(RandomArc{1, 1, true, 1});
    Net n = build(s);
    Forest f(n.cn.get(), nullptr, 64u << 20);
    pn_mdd_ref r = pn_mdd_reachable(f.d, pn_mdd_marking(f.d, n.cn->m0));
    ASSERT_NE(r, PN_MDD_STOP) << pn_mdd_status(f.d);
    EXPECT_EQ(pn_mdd_count(f.d, r), (double)(N + 1) * (double)(M + 1));
    EXPECT_LE(pn_mdd_nodes(f.d), 6u); // the terminals, {m0}'s two, the two saturated
    uint64_t corner[2] = {0, M}, outside[2] = {N + 1, 0};
    EXPECT_TRUE(pn_mdd_member(f.d, r, corner));
    EXPECT_FALSE(pn_mdd_member(f.d, r, outside));
    // Backward, the same climb: every marking reaches p0 = 0, within the set.
    const int64_t first[2] = {1, 0};
    pn_mdd_ref zero = pn_mdd_linear(f.d, r, first, 0);
    EXPECT_EQ(pn_mdd_count(f.d, zero), (double)(M + 1));
    EXPECT_EQ(pn_mdd_backward(f.d, zero, r), r);
    EXPECT_LE(pn_mdd_nodes(f.d), 7u);
}

// pn_mdd_linear against evaluating the constraint on each marking.
TEST(Mdd, LinearConstraintsAgreeWithEvaluation)
{
    std::mt19937_64 rng(99);
    for (uint32_t k = 0; k < petrel_test::random_share(200); k++) {
        Net n = build(random_bounded_spec(rng, 5, 4));
        const pn_cnet *cn = n.cn.get();
        auto states = reachable(cn, 5000);
        if (states.empty())
            continue;
        std::set<Marking> all(states.begin(), states.end());
        std::vector<int64_t> coef(5);
        for (auto &c : coef)
            c = (int64_t)(rng() % 5) - 2;
        int64_t bound = (int64_t)(rng() % 9) - 4;
        std::set<Marking> want;
        for (const Marking &m : all) {
            int64_t s = 0;
            for (int p = 0; p < 5; p++)
                s += coef[p] * (int64_t)m[p];
            if (s <= bound)
                want.insert(m);
        }
        Forest f(cn);
        pn_mdd_ref r = pn_mdd_reachable(f.d, pn_mdd_marking(f.d, cn->m0));
        expect_set(f.d, pn_mdd_linear(f.d, r, coef.data(), bound), want, all);
    }
}

// Every random CTL formula's value equals the graph checker's.
TEST(CtlMdd, AgreesWithTheGraphChecker)
{
    std::mt19937_64 rng(9151);
    uint32_t nets = 0, answers = 0;
    for (uint32_t k = 0; k < petrel_test::random_share(600); k++) {
        CtlCase cc;
        if (!ctl_case(rng, 6, &cc))
            continue;
        nets++;
        const pn_cnet *cn = cc.net.cn.get();
        const pn_fml_set *set = cc.set.get();
        pn_error err;
        pn_error_clear(&err);
        pn_budget b = pn_budget_make(60.0, nullptr, 0);
        pn_ctl_mdd *s = nullptr;
        ASSERT_EQ(pn_ctl_mdd_new(cn, &b, &s, &err), PN_OK) << err.msg;
        EXPECT_EQ(pn_ctl_mdd_states(s), (double)cc.states);
        for (uint32_t i = 0; i < set->n; i++) {
            pn_verdict want = cc.want[i];
            bool v = false;
            ASSERT_EQ(pn_ctl_mdd_check(s, set->props[i].root, &b, &v, &err), PN_OK) << err.msg;
            answers++;
            if ((v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE) != want) {
                char *str = pn_fml_to_string(set->props[i].root, nullptr);
                ADD_FAILURE() << str << ": decision diagrams " << v << ", graph " << want;
                free(str);
            }
        }
        pn_ctl_mdd_free(s);
    }
    EXPECT_GE(nets, petrel_test::random_share(500));
    EXPECT_EQ(answers, 6 * nets);
}

// Every random LTL formula's value equals the explicit product's.
TEST(CtlMdd, LtlAgreesWithTheProduct)
{
    std::mt19937_64 rng(2718);
    uint32_t nets = 0, answers = 0;
    for (uint32_t k = 0; k < petrel_test::random_share(400); k++) {
        CtlCase cc;
        if (!ctl_case(rng, 6, &cc, true))
            continue;
        nets++;
        const pn_cnet *cn = cc.net.cn.get();
        const pn_fml_set *set = cc.set.get();
        pn_error err;
        pn_error_clear(&err);
        pn_budget b = pn_budget_make(60.0, nullptr, 0);
        pn_ctl_mdd *s = nullptr;
        ASSERT_EQ(pn_ctl_mdd_new(cn, &b, &s, &err), PN_OK) << err.msg;
        for (uint32_t i = 0; i < set->n; i++) {
            bool v = false;
            ASSERT_EQ(pn_ctl_mdd_ltl(s, set->props[i].root, &b, &v, &err), PN_OK) << err.msg;
            answers++;
            if ((v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE) != cc.want[i]) {
                char *str = pn_fml_to_string(set->props[i].root, nullptr);
                ADD_FAILURE() << str << ": decision diagrams " << v << ", product "
                              << cc.want[i];
                free(str);
            }
        }
        pn_ctl_mdd_free(s);
    }
    EXPECT_GE(nets, petrel_test::random_share(300));
    EXPECT_EQ(answers, 6 * nets);
}

// A source transition fills a place forever: the reachable set never
// closes, and building it stops on the deadline, or on the memory budget,
// with the reason; a forest stopped on time goes on under a new budget.
TEST(CtlMdd, AnUnboundedNetStopsOnItsBudget)
{
    RandomNetSpec spec;
    spec.m0 = {0, 1};
    spec.n_trans = 1;
    spec.arcs.push_back({0, 0, false, 1});
    Net n = build(spec);
    pn_error err;
    pn_error_clear(&err);
    pn_ctl_mdd *s = nullptr;
    pn_budget soon = pn_budget_make(0.2, nullptr, 0);
    EXPECT_EQ(pn_ctl_mdd_new(n.cn.get(), &soon, &s, &err), PN_ERR_TIMEOUT);
    EXPECT_EQ(s, nullptr);
    pn_budget small = pn_budget_make(60.0, nullptr, 8u << 20);
    EXPECT_EQ(pn_ctl_mdd_new(n.cn.get(), &small, &s, &err), PN_ERR_OUT_OF_MEMORY);

    Forest f(n.cn.get());
    pn_budget past = pn_budget_make(1e-9, nullptr, 0);
    pn_mdd_set_budget(f.d, &past);
    pn_mdd_ref m0 = pn_mdd_marking(f.d, n.cn->m0);
    EXPECT_EQ(pn_mdd_reachable(f.d, m0), PN_MDD_STOP);
    EXPECT_EQ(pn_mdd_status(f.d), PN_ERR_TIMEOUT);
    pn_mdd_set_budget(f.d, &f.b);
    EXPECT_EQ(pn_mdd_status(f.d), PN_OK);
    pn_mdd_ref one = pn_mdd_post(f.d, 0, m0);
    uint64_t want[2] = {1, 1};
    EXPECT_TRUE(pn_mdd_member(f.d, one, want));
    EXPECT_EQ(pn_mdd_count(f.d, one), 1.0);
}

// pn_ctl_mdd_check keeps the sets of temporal sub-formulas and fireability
// atoms: a formula equal to one checked before (built apart, so only
// pn_fml_equal relates them) adds none and is answered with a budget
// already spent, as is a Boolean combination of kept parts; a new temporal
// operator over a kept atom adds one.
TEST(CtlMdd, FinishedSubformulasAreKeptForTheNextTurn)
{
    RandomNetSpec spec; // p0 -> t0 -> p1 -> t1 -> p2, one token: three markings
    spec.m0 = {1, 0, 0};
    spec.n_trans = 2;
    spec.arcs = {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}, {2, 1, false, 1}};
    Net n = build(spec);
    uint32_t t1 = 1;
    auto on_t1 = [&](pn_fml_kind q, pn_fml_kind op) { // q op fireable(t1)
        return pn_fml_unary(q, pn_fml_unary(op, pn_fml_list(PN_FML_FIREABLE, &t1, 1)));
    };
    pn_fml_node *first = on_t1(PN_FML_A, PN_FML_F), *again = on_t1(PN_FML_A, PN_FML_F),
                *negated = pn_fml_unary(PN_FML_NOT, on_t1(PN_FML_A, PN_FML_F)),
                *other = on_t1(PN_FML_E, PN_FML_G);
    pn_error err;
    pn_error_clear(&err);
    pn_budget b = pn_budget_make(60.0, nullptr, 0);
    pn_budget spent = pn_budget_make(60.0, nullptr, 0);
    spent.deadline = pn_clock_now() - 1.0;
    pn_ctl_mdd *s = nullptr;
    ASSERT_EQ(pn_ctl_mdd_new(n.cn.get(), &b, &s, &err), PN_OK) << err.msg;
    EXPECT_EQ(pn_ctl_mdd_kept(s), 0u);
    bool v = false;
    ASSERT_EQ(pn_ctl_mdd_check(s, first, &b, &v, &err), PN_OK) << err.msg;
    EXPECT_TRUE(v); // every path from {p0} fires t0 and then has t1 enabled
    EXPECT_EQ(pn_ctl_mdd_kept(s), 2u); // A F fireable(t1), fireable(t1)
    v = false;
    EXPECT_EQ(pn_ctl_mdd_check(s, again, &spent, &v, &err), PN_OK) << err.msg;
    EXPECT_TRUE(v);
    v = true;
    EXPECT_EQ(pn_ctl_mdd_check(s, negated, &spent, &v, &err), PN_OK) << err.msg;
    EXPECT_FALSE(v);
    EXPECT_EQ(pn_ctl_mdd_kept(s), 2u);
    EXPECT_EQ(pn_ctl_mdd_check(s, other, &b, &v, &err), PN_OK) << err.msg;
    EXPECT_FALSE(v); // t1 is not enabled at {p0}
    EXPECT_EQ(pn_ctl_mdd_kept(s), 3u); // E G fireable(t1) joins; the atom is shared
    pn_ctl_mdd_free(s); /* before the formulas: it kept their sub-formulas' sets */
    for (pn_fml_node *f : {first, again, negated, other})
        pn_fml_free(f);
}

// The graph step is skipped when the forest counts more markings than the
// memory holds at EX_GRAPH_MIN_BYTES each or than the threads explore in
// the time left at EX_GRAPH_MAX_RATE each: on the three markings of a chain,
// a budget of 16 bytes or one already spent; never without a forest.
TEST(CtlMdd, TheGraphIsSkippedWhenTheSetIsTooLargeToRecord)
{
    RandomNetSpec spec; // p0 -> t0 -> p1 -> t1 -> p2, one token: three markings
    spec.m0 = {1, 0, 0};
    spec.n_trans = 2;
    spec.arcs = {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}, {2, 1, false, 1}};
    Net n = build(spec);
    pn_error err;
    pn_error_clear(&err);
    pn_budget roomy = pn_budget_make(60.0, nullptr, 256u << 20);
    ex_sym_forest f = {};
    EXPECT_FALSE(ex_sym_hopeless(&f, &roomy, 2)); // no set counted
    ASSERT_EQ(pn_ctl_mdd_new(n.cn.get(), &roomy, &f.s, &err), PN_OK) << err.msg;
    ASSERT_EQ(pn_ctl_mdd_states(f.s), 3.0);
    EXPECT_FALSE(ex_sym_hopeless(&f, &roomy, 2));
    EXPECT_FALSE(ex_sym_hopeless(&f, nullptr, 1)); // no limits
    pn_budget tiny = pn_budget_make(60.0, nullptr, 16); // 3 x 8 bytes do not fit
    EXPECT_TRUE(ex_sym_hopeless(&f, &tiny, 2));
    pn_budget spent = roomy;
    spent.deadline = pn_clock_now() - 1.0;
    EXPECT_TRUE(ex_sym_hopeless(&f, &spent, 2));
    ex_sym_forest_free(&f);
    EXPECT_EQ(f.s, nullptr);
}

// The MCC's maximal-path semantics on a hand-checked net (docs/semantics.md):
// one place p holding a token and one transition emptying it. From {p} the
// only path is {p} -> {} and {} is a deadlock.
TEST(CtlMdd, DeadlocksEndPathsAsTheSemanticsSay)
{
    RandomNetSpec spec;
    spec.m0 = {1};
    spec.n_trans = 1;
    spec.arcs.push_back({0, 0, true, 1});
    Net n = build(spec);
    uint32_t p = 0;
    auto le = [&](uint64_t lo, uint64_t hi) { // lo <= p <= hi
        pn_fml_node *k[2] = {
            pn_fml_binary(PN_FML_INT_LE, pn_fml_const(lo), pn_fml_list(PN_FML_TOKENS, &p, 1)),
            pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, &p, 1), pn_fml_const(hi))};
        return pn_fml_nary(PN_FML_AND, k, 2);
    };
    auto q = [](pn_fml_kind a, pn_fml_kind op, pn_fml_node *x) {
        return pn_fml_unary(a, pn_fml_unary(op, x));
    };
    struct Case {
        pn_fml_node *f;
        bool want;
        const char *why;
    } cases[] = {
        {q(PN_FML_A, PN_FML_F, le(0, 0)), true, "AF p = 0: the only path empties p"},
        {q(PN_FML_E, PN_FML_G, le(1, 1)), false, "EG p = 1: the path goes on to {}"},
        {q(PN_FML_E, PN_FML_G, le(0, 1)), true, "EG p <= 1: a finite maximal path"},
        {q(PN_FML_E, PN_FML_X, q(PN_FML_E, PN_FML_X, pn_fml_leaf(PN_FML_TRUE))), false,
         "EX EX true: {} has no successor"},
        {q(PN_FML_A, PN_FML_X, q(PN_FML_A, PN_FML_X, pn_fml_leaf(PN_FML_FALSE))), true,
         "AX AX false: vacuous at {}"},
        {q(PN_FML_A, PN_FML_X, q(PN_FML_A, PN_FML_F, le(1, 1))), false,
         "AX AF p = 1: from {} no path reaches it"},
        {q(PN_FML_E, PN_FML_F, pn_fml_leaf(PN_FML_DEADLOCK)), true, "EF deadlock"},
    };
    pn_error err;
    pn_error_clear(&err);
    pn_budget b = pn_budget_make(60.0, nullptr, 0);
    pn_ctl_mdd *s = nullptr;
    ASSERT_EQ(pn_ctl_mdd_new(n.cn.get(), &b, &s, &err), PN_OK) << err.msg;
    EXPECT_EQ(pn_ctl_mdd_states(s), 2.0);
    for (const Case &c : cases) {
        bool v = !c.want;
        EXPECT_EQ(pn_ctl_mdd_check(s, c.f, &b, &v, &err), PN_OK) << err.msg;
        EXPECT_EQ(v, c.want) << c.why;
    }
    pn_ctl_mdd_free(s); /* before the formulas: it kept their sub-formulas' sets */
    for (const Case &c : cases)
        pn_fml_free(c.f);
}

// The decision diagrams' step (ex_tech_symbolic) on ReachabilityCardinality /
// Fireability, UpperBounds and ReachabilityDeadlock of random nets: every
// answer decided, equal to enumeration, DECISION_DIAGRAMS among its
// techniques.
TEST(CtlMdd, TheStepAnswersReachabilityBoundsAndDeadlocks)
{
    std::mt19937_64 rng(3141);
    uint32_t cases = 0;
    for (uint32_t k = 0; k < petrel_test::random_share(400); k++) {
        RandomCase rc;
        if (!random_case(rng, 6, 4, 3, &rc))
            continue;
        cases++;
        const pn_cnet *cn = rc.net.cn.get();
        bool dead_case = k % 4 == 0;
        pn_exam exam = dead_case       ? PN_EXAM_REACH_DEADLOCK
                       : rc.kind == 2 ? PN_EXAM_UPPER_BOUNDS
                       : rc.kind == 1 ? PN_EXAM_REACH_FIREABILITY
                                      : PN_EXAM_REACH_CARDINALITY;
        pn_error err;
        pn_error_clear(&err);
        pn_check *c = nullptr;
        ASSERT_EQ(pn_check_new(cn, exam, dead_case ? nullptr : rc.set.get(), 1, &c, &err), PN_OK)
            << err.msg;
        pn_budget b = pn_budget_make(60.0, nullptr, 0);
        EXPECT_EQ(petrel_test::run_step_alone(ex_tech_symbolic, cn, exam,
                                              dead_case ? nullptr : rc.set.get(), c, &b, &err),
                  PN_OK)
            << err.msg;
        for (uint32_t i = 0; i < pn_check_count(c); i++) {
            const pn_answer *a = pn_check_answer(c, i);
            ASSERT_NE(a->verdict, PN_VERDICT_UNKNOWN);
            EXPECT_TRUE(a->techniques & PN_TECH_DECISION_DIAGRAMS);
            if (dead_case) {
                bool dead = false;
                for (const auto &m : rc.states) {
                    bool en = false;
                    for (uint32_t t = 0; t < cn->n_transitions; t++)
                        en |= pn_cnet_enabled(cn, m.data(), t);
                    dead |= !en;
                }
                EXPECT_EQ(a->verdict, dead ? PN_VERDICT_TRUE : PN_VERDICT_FALSE);
                continue;
            }
            pn_answer want = truth(rc.set->props[i].root, cn, rc.states);
            EXPECT_TRUE(agrees(*a, want)) << a->verdict << "/" << a->value << " want "
                                          << want.verdict << "/" << want.value;
        }
        pn_check_free(c);
    }
    EXPECT_GE(cases, petrel_test::random_share(300));
}
