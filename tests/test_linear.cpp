// The linear layer (host/linear): hand-made nets whose answers need a
// P-invariant or a trap, and random small nets whose every verdict of the
// layer (and of the examination that runs it before exploring) is compared
// with a full enumeration written here, evaluated with the reference
// evaluator (pn_fml_eval_state).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/examine.h"
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
#include "test_trace.h"

namespace {


pn_linear_opts lopts()
{
    pn_linear_opts o;
    memset(&o, 0, sizeof o);
    o.budget = nullptr; /* no deadline: the layer caps itself at 20 s */
    return o;
}

struct Tally {
    uint32_t items = 0, decided = 0, proofs = 0, witnesses = 0, bounds = 0, wrong = 0;
    uint32_t deadlocks = 0, traces = 0; /* witnesses' paths replayed to their goal */
    uint32_t folds = 0, flows = 0, bounded = 0, constants = 0, siphons = 0;
};

// The P-semiflows against the enumeration: y.m = y.m0, m(p) <= ub(p) and
// constant places constant in every reachable marking.
void check_invariants(const pn_cnet *cn, const std::vector<std::vector<uint64_t>> &states,
                      Tally &tally)
{
    pn_error err;
    pn_error_clear(&err);
    lin_inv *inv = nullptr;
    pn_budget b = pn_budget_make(5.0, nullptr, 0);
    ASSERT_EQ(lin_inv_compute(cn, &b, &inv, &err), PN_OK);
    tally.flows += inv->n_flows;
    for (uint32_t p = 0; p < cn->n_places; p++) {
        tally.bounded += inv->ub[p] != UINT64_MAX;
        tally.constants += inv->constant[p];
    }
    for (const auto &m : states) {
        for (uint32_t f = 0; f < inv->n_flows; f++) {
            int64_t a = 0, b = 0;
            for (uint32_t k = inv->flow_off[f]; k < inv->flow_off[f + 1]; k++) {
                a += inv->flow_weight[k] * (int64_t)m[inv->flow_place[k]];
                b += inv->flow_weight[k] * (int64_t)cn->m0[inv->flow_place[k]];
            }
            if (a != b)
                tally.wrong++;
            EXPECT_EQ(a, b) << "semiflow " << f;
        }
        for (uint32_t p = 0; p < cn->n_places; p++) {
            EXPECT_LE(m[p], inv->ub[p]) << "place " << p;
            if (inv->constant[p]) {
                EXPECT_EQ(m[p], cn->m0[p]) << "place " << p;
            }
            tally.wrong += m[p] > inv->ub[p] || (inv->constant[p] && m[p] != cn->m0[p]);
        }
    }
    lin_inv_free(inv);
}

// A witness (a realised firing sequence or a random walk's) carries its
// path, which replays to a marking where the goal holds (root NULL: a
// deadlock). The semiflows' folds (TOPOLOGICAL: the same value in every
// reachable marking) need none.
void witness_path_ok(const pn_cnet *cn, const pn_answer *a, const pn_fml_node *root,
                     Tally &tally)
{
    if (a->techniques == PN_TECH_TOPOLOGICAL)
        return;
    bool ok = a->lasso != nullptr && a->lasso_cycle == 0 &&
              path_reaches_goal(cn, a->lasso, a->lasso_prefix, root);
    tally.traces += ok;
    tally.wrong += !ok;
    EXPECT_TRUE(ok) << "a linear witness's path does not reach its goal (techniques "
                    << a->techniques << ", path " << (a->lasso != nullptr) << ")";
}

// ReachabilityDeadlock on the same net: the layer alone.
void one_deadlock(const pn_cnet *cn, const std::vector<std::vector<uint64_t>> &states,
                  Tally &tally)
{
    bool dead = false;
    pn_fml_node *d = pn_fml_leaf(PN_FML_DEADLOCK);
    for (const auto &m : states)
        dead |= pn_fml_eval_state(d, cn, m.data());
    pn_fml_free(d);
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(cn, PN_EXAM_REACH_DEADLOCK, nullptr, 1, &c, &err), PN_OK);
    CheckPtr check(c);
    pn_linear_opts lo = lopts();
    lo.trace = true;
    ASSERT_EQ(pn_linear_decide(cn, c, &lo, &err), PN_OK) << err.msg;
    pn_check_finish(c, nullptr);
    const pn_answer *a = pn_check_answer(c, 0);
    if (a->verdict == PN_VERDICT_UNKNOWN)
        return;
    tally.deadlocks++;
    if (a->verdict == PN_VERDICT_TRUE)
        witness_path_ok(cn, a, nullptr, tally);
    tally.siphons += a->techniques == PN_TECH_TOPOLOGICAL && a->verdict == PN_VERDICT_FALSE;
    if (a->verdict != (dead ? PN_VERDICT_TRUE : PN_VERDICT_FALSE)) {
        tally.wrong++;
        ADD_FAILURE() << "deadlock: got " << a->verdict << " want " << dead;
    }
}

// One random net and formula set: the layer alone, then the examination.
void one_random(std::mt19937_64 &rng, Tally &tally)
{
    uint32_t P = 2 + (uint32_t)(rng() % 5), T = 1 + (uint32_t)(rng() % 8);
    Net n = build(random_bounded_spec(rng, P, T));
    const pn_cnet *cn = n.cn.get();
    auto states = reachable(cn, 20000);
    if (states.empty())
        return;
    uint32_t kind = (uint32_t)(rng() % 3); /* cardinality, fireability, bounds */
    std::vector<pn_fml_node *> roots;
    for (int i = 0; i < 4; i++)
        roots.push_back(rand_root(rng, cn, kind));
    SetPtr set = make_set(n.net.get(), roots);
    pn_exam exam = kind == 2 ? PN_EXAM_UPPER_BOUNDS
                   : kind == 1 ? PN_EXAM_REACH_FIREABILITY
                               : PN_EXAM_REACH_CARDINALITY;
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(cn, exam, set.get(), 1, &c, &err), PN_OK) << err.msg;
    CheckPtr check(c);
    pn_linear_opts lo = lopts();
    lo.trace = true;
    ASSERT_EQ(pn_linear_decide(cn, c, &lo, &err), PN_OK) << err.msg;
    pn_check_finish(c, nullptr);
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_answer *a = pn_check_answer(c, i);
        pn_answer want = truth(set->props[i].root, cn, states);
        tally.items++;
        char *text = pn_fml_to_string(set->props[i].root, nullptr);
        if (!agrees(*a, want)) {
            tally.wrong++;
            ADD_FAILURE() << "linear: " << text << ": got " << a->verdict << "/" << a->value
                          << " want " << want.verdict << "/" << want.value;
        }
        free(text);
        if (a->verdict == PN_VERDICT_UNKNOWN)
            continue;
        EXPECT_TRUE(a->techniques &
                    (PN_TECH_LINEAR_EQUATIONS | PN_TECH_RANDOM_WALK | PN_TECH_TOPOLOGICAL));
        tally.decided++;
        tally.folds += a->techniques == PN_TECH_TOPOLOGICAL; /* the semiflows alone */
        if (kind == 2) {
            tally.bounds++;
            continue;
        }
        const pn_fml_node *r = set->props[i].root;
        bool neg = r->kind == PN_FML_NOT;
        bool ef = pn_fml_reach_shape(neg ? r->kids[0] : r, nullptr) == PN_FML_REACH_EF;
        bool target = (a->verdict == PN_VERDICT_TRUE) != neg;
        if (target == ef) {
            tally.witnesses++; /* a marking with phi (EF) or without it (AG) */
            witness_path_ok(cn, a, r, tally);
        } else {
            tally.proofs++;
        }
    }
    // The whole examination: the layer, then the exploration it shortens.
    pn_examine_opts o;
    memset(&o, 0, sizeof o);
    o.explore.threads = 1;
    o.engine = PN_ENGINE_CPU;
    o.explore.keep_parents = tally.items % 8 == 0; /* half: traces, replayed */
    pn_report *report = nullptr;
    ASSERT_EQ(pn_examine(cn, exam, set.get(), &o, nullptr, &report, &err), PN_OK) << err.msg;
    const pn_check *c2 = report->check;
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_answer *a = pn_check_answer(c2, i);
        pn_answer want = truth(set->props[i].root, cn, states);
        EXPECT_NE(a->verdict, PN_VERDICT_UNKNOWN);
        if (!trace_replays(cn, report, set.get(), i)) {
            tally.wrong++;
            ADD_FAILURE() << "examine: formula " << i << ": the trace does not replay";
        }
        if (!agrees(*a, want)) {
            tally.wrong++;
            ADD_FAILURE() << "examine: formula " << i << ": got " << a->verdict << "/" << a->value
                          << " want " << want.verdict << "/" << want.value;
        }
    }
    pn_report_free(report);
    one_deadlock(cn, states, tally);
    check_invariants(cn, states, tally);
}

} // namespace

TEST(Linear, RandomNetsAgreeWithEnumeration)
{
    std::mt19937_64 rng(20261123);
    Tally t;
    for (uint32_t k = 0; k < petrel_test::random_share(2000) && t.wrong == 0; k++)
        one_random(rng, t);
    EXPECT_EQ(t.wrong, 0u);
    // It must decide a real share, by every route: LP proofs, realised
    // witnesses and bounds.
    EXPECT_GE(t.items, petrel_test::random_share(7600));
    EXPECT_GE(t.decided, t.items / 4) << t.decided << " of " << t.items;
    EXPECT_GE(t.proofs, petrel_test::random_share(500));
    EXPECT_GE(t.witnesses, petrel_test::random_share(500));
    EXPECT_GE(t.bounds, petrel_test::random_share(300));
    EXPECT_GE(t.deadlocks, petrel_test::random_share(300));
    EXPECT_GE(t.traces, petrel_test::random_share(500));
    EXPECT_GE(t.folds, petrel_test::random_share(500));
    EXPECT_GE(t.siphons, petrel_test::random_share(40));
    EXPECT_GE(t.flows, petrel_test::random_share(1000));
    EXPECT_GE(t.bounded, petrel_test::random_share(2000));
    std::printf("linear: %u items, %u decided (%u proofs, %u witnesses, %u bounds, %u by "
                "semiflows alone); %u of %u deadlock questions; %u semiflows, %u bounded and "
                "%u constant places; %u deadlock-free by semiflows or siphons\n",
                t.items, t.decided, t.proofs, t.witnesses, t.bounds, t.folds, t.deadlocks, 2000u,
                t.flows, t.bounded, t.constants, t.siphons);
}

namespace {

// Places (m0) and arcs by index; the same builder as the random nets.
Net hand(const std::vector<uint64_t> &m0, uint32_t T, const std::vector<RandomArc> &arcs)
{
    RandomNetSpec s;
    s.m0 = m0;
    s.n_trans = T;
    s.arcs = arcs;
    return build(s);
}

// Two processes and a mutex: idle1, idle2, cs1, cs2, mutex (mutex tokens on
// it); enter1, exit1, enter2, exit2.
Net mutex_net(uint64_t mutex = 1)
{
    return hand({1, 1, 0, 0, mutex}, 4,
                {{0, 0, true, 1}, {4, 0, true, 1}, {2, 0, false, 1},   // enter1
                 {2, 1, true, 1}, {0, 1, false, 1}, {4, 1, false, 1},  // exit1
                 {1, 2, true, 1}, {4, 2, true, 1}, {3, 2, false, 1},   // enter2
                 {3, 3, true, 1}, {1, 3, false, 1}, {4, 3, false, 1}}); // exit2
}

pn_fml_node *tok(uint32_t p) { return pn_fml_list(PN_FML_TOKENS, &p, 1); }
pn_fml_node *ge1(uint32_t p) { return pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), tok(p)); }

// The layer alone on one formula: its answer (UNKNOWN when undecided).
pn_answer linear_only(const Net &n, pn_fml_node *root, const pn_budget *budget = nullptr)
{
    SetPtr set = make_set(n.net.get(), {root});
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    EXPECT_EQ(pn_check_new(n.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get(), 1, &c, &err), PN_OK);
    CheckPtr check(c);
    pn_linear_opts lo = lopts();
    lo.budget = budget;
    EXPECT_EQ(pn_linear_decide(n.cn.get(), c, &lo, &err), PN_OK);
    pn_check_finish(c, nullptr);
    return *pn_check_answer(c, 0);
}

} // namespace

// Two processes and a mutex token: idle1, idle2, cs1, cs2, mutex. Mutual
// exclusion follows from the P-invariant cs1 + cs2 + mutex = 1, which the
// state equation has; the enumeration agrees.
TEST(Linear, MutexNeedsAnInvariant)
{
    Net n = mutex_net();
    pn_fml_node *both = pn_fml_binary(PN_FML_AND, ge1(2), ge1(3));
    pn_answer a = linear_only(
        n, pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, pn_fml_unary(PN_FML_NOT, both))));
    EXPECT_EQ(a.verdict, PN_VERDICT_TRUE);
    EXPECT_TRUE(a.techniques & PN_TECH_LINEAR_EQUATIONS);
    // EF cs1: a realised firing sequence (enter1).
    pn_answer b = linear_only(n, pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, ge1(2))));
    EXPECT_EQ(b.verdict, PN_VERDICT_TRUE);
    // The bound of cs1 + cs2 is 1, reached.
    uint32_t cs[2] = {2, 3};
    pn_answer c = linear_only(n, pn_fml_list(PN_FML_PLACE_BOUND, cs, 2));
    EXPECT_EQ(c.verdict, PN_VERDICT_VALUE);
    EXPECT_EQ(c.value, 1u);
}

// p (1 token), q: t0 takes p and puts 2 on q, t1 takes p + q and gives p
// back. {p, q} is a trap marked initially, so p + q >= 1 always; the state
// equation alone allows p = q = 0 (t0 once, t1 twice), the trap rules it
// out. Reachable: (1,0) and (0,2).
TEST(Linear, TrapCutsASpuriousSolution)
{
    Net n = hand({1, 0}, 2,
                 {{0, 0, true, 1}, {1, 0, false, 2}, {0, 1, true, 1}, {1, 1, true, 1},
                  {0, 1, false, 1}});
    uint32_t pq[2] = {0, 1};
    pn_fml_node *sum = pn_fml_list(PN_FML_TOKENS, pq, 2);
    pn_fml_node *inv = pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), sum);
    pn_answer a = linear_only(n, pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, inv)));
    EXPECT_EQ(a.verdict, PN_VERDICT_TRUE);
    EXPECT_TRUE(a.techniques & PN_TECH_TOPOLOGICAL);
    auto states = reachable(n.cn.get(), 100);
    EXPECT_EQ(states.size(), 2u);
}

// Tokens created without bound: the LP maximum is unbounded and nothing is
// claimed for the bound.
TEST(Linear, UnboundedLpClaimsNothing)
{
    Net n = hand({1, 0}, 1, {{0, 0, true, 1}, {0, 0, false, 1}, {1, 0, false, 1}});
    uint32_t q = 1;
    pn_answer a = linear_only(n, pn_fml_list(PN_FML_PLACE_BOUND, &q, 1));
    EXPECT_EQ(a.verdict, PN_VERDICT_UNKNOWN);
}

// The mutex net again, plus a constant place (3 tokens, no arcs) and a
// transition t4 needing 2 tokens from cs1 (and giving them back). The semiflow cs1 + cs2 + mutex = 1
// bounds cs1 by 1: the fold decides AG (cs1 <= 1) and AG not fireable(t4)
// and the constant place's atoms with no LP (TOPOLOGICAL alone), and the
// bound of cs1 + mutex (1 at m0, structural bound 2) is left to the LP.
TEST(Linear, SemiflowsFoldAtomsWithoutTheLp)
{
    Net n = hand({1, 1, 0, 0, 1, 3}, 5,
                 {{0, 0, true, 1}, {4, 0, true, 1}, {2, 0, false, 1},
                  {2, 1, true, 1}, {0, 1, false, 1}, {4, 1, false, 1},
                  {1, 2, true, 1}, {4, 2, true, 1}, {3, 2, false, 1},
                  {3, 3, true, 1}, {1, 3, false, 1}, {4, 3, false, 1},
                  {2, 4, true, 2}, {2, 4, false, 2}});
    auto ag = [](pn_fml_node *phi) { return pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, phi)); };
    auto ef = [](pn_fml_node *phi) { return pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, phi)); };
    pn_answer a = linear_only(n, ag(pn_fml_binary(PN_FML_INT_LE, tok(2), pn_fml_const(1))));
    EXPECT_EQ(a.verdict, PN_VERDICT_TRUE);
    EXPECT_EQ(a.techniques, (uint32_t)PN_TECH_TOPOLOGICAL);
    uint32_t t4 = 4;
    pn_answer b = linear_only(n, ag(pn_fml_unary(PN_FML_NOT, pn_fml_list(PN_FML_FIREABLE, &t4, 1))));
    EXPECT_EQ(b.verdict, PN_VERDICT_TRUE);
    EXPECT_EQ(b.techniques, (uint32_t)PN_TECH_TOPOLOGICAL);
    // constant place 5: EF (p5 <= 2) is false, E F (p5 >= 3 and cs1 >= 1)
    // is not decided by the fold (cs1 is not constant) but by a witness.
    pn_answer c = linear_only(n, ef(pn_fml_binary(PN_FML_INT_LE, tok(5), pn_fml_const(2))));
    EXPECT_EQ(c.verdict, PN_VERDICT_FALSE);
    EXPECT_EQ(c.techniques, (uint32_t)PN_TECH_TOPOLOGICAL);
    pn_answer d = linear_only(
        n, ef(pn_fml_binary(PN_FML_AND, pn_fml_binary(PN_FML_INT_LE, pn_fml_const(3), tok(5)),
                            ge1(2))));
    EXPECT_EQ(d.verdict, PN_VERDICT_TRUE);
    EXPECT_TRUE(d.techniques & PN_TECH_LINEAR_EQUATIONS);
    // bounds: p5 is exact at m0 (3, TOPOLOGICAL); cs1 + mutex has the
    // structural bound 2 but the LP proves 1.
    uint32_t p5 = 5, cm[2] = {2, 4};
    pn_answer e = linear_only(n, pn_fml_list(PN_FML_PLACE_BOUND, &p5, 1));
    EXPECT_EQ(e.verdict, PN_VERDICT_VALUE);
    EXPECT_EQ(e.value, 3u);
    EXPECT_EQ(e.techniques, (uint32_t)PN_TECH_TOPOLOGICAL);
    pn_answer f = linear_only(n, pn_fml_list(PN_FML_PLACE_BOUND, cm, 2));
    EXPECT_EQ(f.verdict, PN_VERDICT_VALUE);
    EXPECT_EQ(f.value, 1u);
    EXPECT_TRUE(f.techniques & PN_TECH_LINEAR_EQUATIONS);
    auto states = reachable(n.cn.get(), 100);
    for (const auto &m : states) {
        EXPECT_LE(m[2], 1u);
        EXPECT_EQ(m[5], 3u);
    }
}

// A large state machine (a ring of 3000 places and transitions plus 3000
// random shortcuts, every arc weight 1): Farkas' algorithm stops in its
// time; the only minimal semiflow is the sum of all places (one strongly
// connected component), so when it finishes every bound is 1.
TEST(Linear, SemiflowsOnALargeNetStopInTime)
{
    const uint32_t N = 3000;
    std::mt19937_64 rng(7);
    std::vector<RandomArc> arcs;
    for (uint32_t i = 0; i < N; i++) {
        arcs.push_back({i, i, true, 1});
        arcs.push_back({(i + 1) % N, i, false, 1});
        uint32_t a = (uint32_t)(rng() % N), b = (uint32_t)(rng() % N);
        arcs.push_back({a, N + i, true, 1});
        arcs.push_back({b, N + i, false, 1});
    }
    std::vector<uint64_t> m0(N, 0);
    m0[0] = 1;
    Net n = hand(m0, 2 * N, arcs);
    pn_error err;
    pn_error_clear(&err);
    lin_inv *inv = nullptr;
    double t0 = pn_clock_now();
    pn_budget b = pn_budget_make(1.0, nullptr, 0);
    ASSERT_EQ(lin_inv_compute(n.cn.get(), &b, &inv, &err), PN_OK);
    EXPECT_LT(pn_clock_now() - t0, 3.0);
    std::printf("large net: %u semiflows, %s\n", inv->n_flows,
                inv->complete ? "complete" : "gave up");
    for (uint32_t p = 0; inv->complete && p < N; p++)
        EXPECT_EQ(inv->ub[p], 1u);
    lin_inv_free(inv);
}

namespace {

pn_answer deadlock_only(const Net &n)
{
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    EXPECT_EQ(pn_check_new(n.cn.get(), PN_EXAM_REACH_DEADLOCK, nullptr, 1, &c, &err), PN_OK);
    CheckPtr check(c);
    pn_linear_opts lo = lopts();
    EXPECT_EQ(pn_linear_decide(n.cn.get(), c, &lo, &err), PN_OK);
    pn_check_finish(c, nullptr);
    return *pn_check_answer(c, 0);
}

bool has_dead(const Net &n)
{
    bool dead = false;
    pn_fml_node *d = pn_fml_leaf(PN_FML_DEADLOCK);
    for (const auto &m : reachable(n.cn.get(), 1000))
        dead |= pn_fml_eval_state(d, n.cn.get(), m.data());
    pn_fml_free(d);
    return dead;
}

} // namespace

// The mutex net is ordinary and its siphons {idle1, cs1}, {idle2, cs2},
// {cs1, cs2, mutex} are marked traps: Commoner's property proves it
// deadlock-free (TOPOLOGICAL alone, before any LP).
TEST(Linear, SiphonsProveAnOrdinaryNetDeadlockFree)
{
    Net n = mutex_net();
    pn_budget b = pn_budget_make(5.0, nullptr, 0);
    EXPECT_TRUE(lin_siphon_deadlock_free(n.cn.get(), &b));
    pn_answer a = deadlock_only(n);
    EXPECT_EQ(a.verdict, PN_VERDICT_FALSE);
    EXPECT_EQ(a.techniques, (uint32_t)PN_TECH_TOPOLOGICAL);
    EXPECT_FALSE(has_dead(n));
    // Without the mutex token the siphon {cs1, cs2, mutex} is unmarked:
    // nothing is proven, and the net is indeed dead at once.
    Net u = mutex_net(0);
    EXPECT_FALSE(lin_siphon_deadlock_free(u.cn.get(), &b));
    EXPECT_TRUE(has_dead(u));
    EXPECT_NE(deadlock_only(u).verdict, PN_VERDICT_FALSE);
}

// p (1 token) and t taking 2 from p, giving 2 back: {p} is a siphon and a
// marked trap, yet m0 is dead because the input arc has weight 2. The
// siphon rule must not be applied; with weight 1 it holds and proves it.
TEST(Linear, SiphonRuleNotUsedOnNonOrdinaryNets)
{
    Net n = hand({1}, 1, {{0, 0, true, 2}, {0, 0, false, 2}});
    pn_budget b = pn_budget_make(5.0, nullptr, 0);
    EXPECT_FALSE(lin_siphon_deadlock_free(n.cn.get(), &b));
    EXPECT_TRUE(has_dead(n));
    pn_answer a = deadlock_only(n);
    EXPECT_NE(a.verdict, PN_VERDICT_FALSE);
    Net o = hand({1}, 1, {{0, 0, true, 1}, {0, 0, false, 1}});
    EXPECT_TRUE(lin_siphon_deadlock_free(o.cn.get(), &b));
    EXPECT_FALSE(has_dead(o));
}

namespace {

bool count_visit(void *ctx, const uint64_t *)
{
    ++*static_cast<uint32_t *>(ctx);
    return false;
}

} // namespace

// Every step of the layer keeps to its budget's cancel flag and drop flag
// (a step running beside it decided the answer), not only to its deadline:
// with either set, nothing runs and nothing is decided, while the same
// calls with a live budget decide (the mutex net of MutexNeedsAnInvariant).
TEST(Linear, CancelAndDropStopEveryStep)
{
    Net n = mutex_net();
    const pn_cnet *cn = n.cn.get();
    volatile int flag = 1;
    pn_budget live = pn_budget_make(60.0, nullptr, 0);
    pn_budget cancelled = pn_budget_make(60.0, &flag, 0);
    pn_budget dropped = live;
    dropped.drop = &flag;
    for (const pn_budget *stopped : {&cancelled, &dropped}) {
        pn_error err;
        pn_error_clear(&err);
        lin_inv *inv = nullptr;
        ASSERT_EQ(lin_inv_compute(cn, &live, &inv, &err), PN_OK);
        EXPECT_TRUE(inv->complete);
        EXPECT_GE(inv->n_flows, 1u);
        lin_inv_free(inv);
        ASSERT_EQ(lin_inv_compute(cn, stopped, &inv, &err), PN_OK);
        EXPECT_FALSE(inv->complete);
        EXPECT_EQ(inv->n_flows, 0u);
        lin_inv_free(inv);

        EXPECT_TRUE(lin_siphon_deadlock_free(cn, &live));
        EXPECT_FALSE(lin_siphon_deadlock_free(cn, stopped));

        uint32_t seen = 0;
        bool hit = false;
        ASSERT_EQ(lin_path_random(cn, 100, 1, &live, count_visit, &seen, &hit, nullptr, nullptr, &err),
                  PN_OK);
        EXPECT_GT(seen, 1u);
        seen = 0;
        ASSERT_EQ(lin_path_random(cn, 100, 1, stopped, count_visit, &seen, &hit, nullptr, nullptr, &err),
                  PN_OK);
        EXPECT_EQ(seen, 0u);

        lin_smt *smt = nullptr;
        ASSERT_EQ(lin_smt_new(cn, &live, &smt, &err), PN_OK) << err.msg;
        pn_fml_node *dead = pn_fml_leaf(PN_FML_DEADLOCK);
        EXPECT_EQ(lin_smt_solve(smt, dead, false, &live, nullptr), LIN_INFEASIBLE);
        EXPECT_EQ(lin_smt_solve(smt, dead, false, stopped, nullptr), LIN_UNKNOWN);
        pn_fml_free(dead);
        lin_smt_free(smt);

        // cs1 + cs2 <= 1 everywhere: the semiflow proves it, within a live budget only.
        auto mutex = [] {
            uint32_t cs[2] = {2, 3};
            return pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, pn_fml_binary(
                PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, cs, 2), pn_fml_const(1))));
        };
        EXPECT_EQ(linear_only(n, mutex(), &live).verdict, PN_VERDICT_TRUE);
        EXPECT_EQ(linear_only(n, mutex(), stopped).verdict, PN_VERDICT_UNKNOWN);
    }
    // p with 3 tokens, t taking one: every run ends (a ranking function).
    Net ends = hand({3}, 1, {{0, 0, true, 1}});
    bool finite = false;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_linear_terminates(ends.cn.get(), &live, &finite, &err), PN_OK);
    EXPECT_TRUE(finite);
    ASSERT_EQ(pn_linear_terminates(ends.cn.get(), &cancelled, &finite, &err), PN_OK);
    EXPECT_FALSE(finite);
}

// GLPK and Z3 allocate on their own: an LP or an SMT context whose estimate
// does not fit the budget's memory is not built (PN_ERR_OUT_OF_MEMORY), and
// the layer then decides nothing it needed them for, where it decides with
// the memory to spare (the mutex net of MutexNeedsAnInvariant).
TEST(Linear, SolversThatWouldNotFitTheMemoryAreNotStarted)
{
    Net n = mutex_net();
    const pn_cnet *cn = n.cn.get();
    pn_budget small = pn_budget_make(60.0, nullptr, 4 << 10);
    pn_budget ample = pn_budget_make(60.0, nullptr, 1ull << 30);
    pn_error err;
    pn_error_clear(&err);
    lin_lp *lp = nullptr;
    EXPECT_EQ(lin_lp_new(cn, &small, &lp, &err), PN_ERR_OUT_OF_MEMORY);
    EXPECT_EQ(lp, nullptr);
    ASSERT_EQ(lin_lp_new(cn, &ample, &lp, &err), PN_OK) << err.msg;
    lin_lp_free(lp);
    lin_smt *smt = nullptr;
    EXPECT_EQ(lin_smt_new(cn, &small, &smt, &err), PN_ERR_OUT_OF_MEMORY);
    EXPECT_EQ(smt, nullptr);
    ASSERT_EQ(lin_smt_new(cn, &ample, &smt, &err), PN_OK) << err.msg;
    pn_fml_node *dead = pn_fml_leaf(PN_FML_DEADLOCK);
    EXPECT_EQ(lin_smt_solve(smt, dead, false, &ample, nullptr), LIN_INFEASIBLE);
    EXPECT_EQ(lin_smt_solve(smt, dead, false, &small, nullptr), LIN_UNKNOWN);
    EXPECT_EQ(lin_smt_solve(smt, dead, false, &ample, nullptr), LIN_INFEASIBLE);
    pn_fml_free(dead);
    lin_smt_free(smt);
    auto mutex = [] {
        pn_fml_node *both = pn_fml_binary(PN_FML_AND, ge1(2), ge1(3));
        return pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, pn_fml_unary(PN_FML_NOT, both)));
    };
    EXPECT_EQ(linear_only(n, mutex(), &ample).verdict, PN_VERDICT_TRUE);
    EXPECT_EQ(linear_only(n, mutex(), &small).verdict, PN_VERDICT_UNKNOWN);
}
