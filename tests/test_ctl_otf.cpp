// The local CTL checker (ctl_otf.c): hand-computed values on small nets,
// including the MCC deadlock convention, and agreement with the recorded
// graph checker (ctl.c) on thousands of random nets and random CTL formulas.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "petrel/cnet.h"
#include "petrel/ctl.h"
#include "petrel/engine.h"
#include "petrel/formula.h"
#include "petrel/graph.h"
#include "petrel/lazy.h"
#include "petrel/ltl.h"
#include "petrel/net.h"
#include "examine/ctl_simplify.h"
#include "test_random_net.h"
#include "test_share.h"
#include "test_ltl_random.h"

namespace {

// A net, its complete exploration (for pn_ctl_check) and an on-demand space
// shared by the on-the-fly checks.
struct Model {
    pn_net *net = nullptr;
    pn_cnet *cn = nullptr;
    pn_lazy *z = nullptr;
    pn_engine_result res;
    bool complete = false;
    explicit Model(const RandomNetSpec &s)
    {
        pn_error err = {};
        net = pn_net_new("ctl_otf");
        for (size_t p = 0; p < s.m0.size(); p++)
            EXPECT_GE(pn_net_add_place(net, ("p" + std::to_string(p)).c_str(), nullptr, s.m0[p],
                                       &err), 0);
        for (uint32_t t = 0; t < s.n_trans; t++)
            EXPECT_GE(pn_net_add_transition(net, ("t" + std::to_string(t)).c_str(), nullptr, &err),
                      0);
        for (const auto &a : s.arcs)
            EXPECT_EQ(pn_net_add_arc(net, a.place, a.trans, a.to_trans, a.weight, &err), PN_OK);
        EXPECT_EQ(pn_cnet_compile(net, &cn, &err), PN_OK) << err.msg;
        pn_engine_opts o;
        memset(&o, 0, sizeof o);
        o.threads = 1;
        o.record_graph = true;
        o.keep_states = true;
        EXPECT_EQ(pn_explore(cn, &o, &res, &err), PN_OK) << err.msg;
        complete = res.status == PN_RUN_COMPLETE;
        EXPECT_EQ(pn_lazy_new(cn, 0, &z, &err), PN_OK) << err.msg;
    }
    ~Model()
    {
        pn_lazy_free(z);
        pn_engine_result_free(&res);
        pn_cnet_free(cn);
        pn_net_free(net);
    }
    bool graph(const pn_fml_node *f)
    {
        pn_ctl_model m = {cn, res.graph, res.store, res.layout, nullptr};
        pn_error err = {};
        bool v = false;
        EXPECT_EQ(pn_ctl_check(&m, f, &v, &err), PN_OK) << err.msg;
        return v;
    }
    // timed: under a (generous) deadline, which evaluates a Boolean root
    // leaf by leaf, each within its share.
    bool otf(const pn_fml_node *f, bool timed = false)
    {
        pn_error err = {};
        bool v = false;
        pn_budget b = pn_budget_make(60.0, nullptr, 0);
        EXPECT_EQ(pn_ctl_check_otf(z, f, timed ? &b : nullptr, &v, &err), PN_OK)
            << err.msg;
        return v;
    }
    // Both checkers must agree with the hand-computed value; f is consumed.
    bool check(pn_fml_node *f)
    {
        bool a = otf(f), b = graph(f);
        EXPECT_EQ(a, b);
        pn_fml_free(f);
        return a;
    }
};

RandomNetSpec spec(const std::vector<uint64_t> &m0, uint32_t T,
                   const std::vector<std::pair<int, int>> &pre,
                   const std::vector<std::pair<int, int>> &post)
{
    RandomNetSpec s;
    s.m0 = m0;
    s.n_trans = T;
    for (auto [p, t] : pre)
        s.arcs.push_back({(uint32_t)p, (uint32_t)t, true, 1});
    for (auto [t, p] : post)
        s.arcs.push_back({(uint32_t)p, (uint32_t)t, false, 1});
    return s;
}

pn_fml_node *has(uint32_t p)
{
    return pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), pn_fml_list(PN_FML_TOKENS, &p, 1));
}
pn_fml_node *tt() { return pn_fml_leaf(PN_FML_TRUE); }
pn_fml_node *ff() { return pn_fml_leaf(PN_FML_FALSE); }
pn_fml_node *q(pn_fml_kind quant, pn_fml_kind temporal, pn_fml_node *a)
{
    return pn_fml_unary(quant, pn_fml_unary(temporal, a));
}
pn_fml_node *qu(pn_fml_kind quant, pn_fml_node *a, pn_fml_node *b)
{
    return pn_fml_unary(quant, pn_fml_binary(PN_FML_U, a, b));
}
pn_fml_node *lor(pn_fml_node *a, pn_fml_node *b) { return pn_fml_binary(PN_FML_OR, a, b); }
pn_fml_node *land(pn_fml_node *a, pn_fml_node *b) { return pn_fml_binary(PN_FML_AND, a, b); }
pn_fml_node *lnot(pn_fml_node *a) { return pn_fml_unary(PN_FML_NOT, a); }

// p0 -t0-> p1 -t1-> p2, then a deadlock.
RandomNetSpec chain() { return spec({1, 0, 0}, 2, {{0, 0}, {1, 1}}, {{0, 1}, {1, 2}}); }
// {p0}: t0 -> {p1} (t2 loops there), t1 -> {p2} (deadlock).
RandomNetSpec forked()
{
    return spec({1, 0, 0}, 3, {{0, 0}, {0, 1}, {1, 2}}, {{0, 1}, {1, 2}, {2, 1}});
}

// ---- random CTL formulas ----

// Constants below max_const: small ones make both values of an atom
// reachable, large ones atoms that the linear layer proves constant.
pn_fml_node *rand_atom(std::mt19937_64 &rng, const pn_cnet *cn, uint64_t max_const)
{
    uint32_t k = (uint32_t)(rng() % 10);
    uint32_t p = (uint32_t)(rng() % cn->n_places), t = (uint32_t)(rng() % cn->n_transitions);
    if (k < 4)
        return pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, &p, 1),
                             pn_fml_const(rng() % max_const));
    if (k < 7)
        return pn_fml_binary(PN_FML_INT_LE, pn_fml_const(rng() % max_const),
                             pn_fml_list(PN_FML_TOKENS, &p, 1));
    if (k < 9)
        return pn_fml_list(PN_FML_FIREABLE, &t, 1);
    return pn_fml_leaf(rng() % 2 ? PN_FML_DEADLOCK : PN_FML_TRUE);
}

pn_fml_node *rand_ctl(std::mt19937_64 &rng, const pn_cnet *cn, int depth,
                      uint64_t max_const = 4)
{
    if (depth == 0 || rng() % 5 == 0)
        return rand_atom(rng, cn, max_const);
    auto sub = [&] { return rand_ctl(rng, cn, depth - 1, max_const); };
    uint32_t k = (uint32_t)(rng() % 11);
    pn_fml_kind quant = rng() % 2 ? PN_FML_A : PN_FML_E;
    switch (k) {
    case 0: return lnot(sub());
    case 1: {
        pn_fml_node *a = sub();
        return land(a, sub());
    }
    case 2: {
        pn_fml_node *a = sub();
        return lor(a, sub());
    }
    case 3:
    case 4: return q(quant, PN_FML_X, sub());
    case 5:
    case 6: return q(quant, PN_FML_F, sub());
    case 7:
    case 8: return q(quant, PN_FML_G, sub());
    default: {
        pn_fml_node *a = sub();
        return qu(quant, a, sub());
    }
    }
}

// Calls each(m) on count random nets (random_bounded_spec, or another
// generator of the same signature) whose exploration completed with at
// most 3,000 states.
template <class Each>
void random_models(std::mt19937_64 &rng, int count, Each each,
                   RandomNetSpec (*gen)(std::mt19937_64 &, uint32_t, uint32_t) =
                       random_bounded_spec)
{
    for (int nets = 0; nets < (int)petrel_test::random_share((uint32_t)count);) {
        uint32_t P = 2 + (uint32_t)(rng() % 5), T = 2 + (uint32_t)(rng() % 6);
        Model m(gen(rng, P, T));
        if (!m.complete || m.res.states > 3000)
            continue;
        nets++;
        each(m);
    }
}

} // namespace

TEST(CtlOtf, NextAndDeadlockConvention)
{
    Model m(chain());
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_X, has(1))));
    EXPECT_TRUE(m.check(q(PN_FML_A, PN_FML_X, has(1))));
    EXPECT_FALSE(m.check(q(PN_FML_E, PN_FML_X, has(2))));
    // At the deadlock {p2}: EX true is FALSE, AX false is TRUE.
    EXPECT_FALSE(m.check(q(PN_FML_E, PN_FML_F, land(has(2), q(PN_FML_E, PN_FML_X, tt())))));
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_F, land(has(2), q(PN_FML_A, PN_FML_X, ff())))));
    // Maximal paths end there: EG true holds, EG p0 does not, AF p2 does.
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_G, tt())));
    EXPECT_FALSE(m.check(q(PN_FML_E, PN_FML_G, has(0))));
    EXPECT_TRUE(m.check(q(PN_FML_A, PN_FML_F, has(2))));
    EXPECT_TRUE(m.check(q(PN_FML_A, PN_FML_G, lor(lnot(has(2)), q(PN_FML_E, PN_FML_G, has(2))))));
    // Until: a state where neither holds is no witness; at the deadlock
    // A[a U b] reduces to b.
    EXPECT_TRUE(m.check(qu(PN_FML_E, has(0), has(1))));
    EXPECT_TRUE(m.check(qu(PN_FML_A, has(0), has(1))));
    EXPECT_FALSE(m.check(qu(PN_FML_A, has(0), has(2))));
    EXPECT_TRUE(m.check(qu(PN_FML_A, lor(has(0), has(1)), has(2))));
    EXPECT_TRUE(m.check(qu(PN_FML_A, tt(), has(0)))); // p0 holds now
    EXPECT_FALSE(m.check(qu(PN_FML_E, has(0), has(2))));
}

TEST(CtlOtf, BranchingAndCycles)
{
    Model m(forked());
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_F, has(2))));
    EXPECT_FALSE(m.check(q(PN_FML_A, PN_FML_F, has(2))));   // the t2 loop avoids p2
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_G, lor(has(0), has(1)))));
    EXPECT_FALSE(m.check(q(PN_FML_A, PN_FML_G, lor(has(0), has(1)))));
    EXPECT_TRUE(m.check(q(PN_FML_A, PN_FML_X, lor(has(1), has(2)))));
    EXPECT_FALSE(m.check(q(PN_FML_A, PN_FML_X, has(1))));
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_F, q(PN_FML_A, PN_FML_G, has(1)))));
    EXPECT_FALSE(m.check(q(PN_FML_A, PN_FML_F, q(PN_FML_A, PN_FML_G, has(1)))));
    // A[p0|p1 U p2]: the cycle on {p1} never reaches p2.
    EXPECT_FALSE(m.check(qu(PN_FML_A, lor(has(0), has(1)), has(2))));
    EXPECT_TRUE(m.check(qu(PN_FML_E, lor(has(0), has(1)), has(2))));
    EXPECT_TRUE(m.check(lnot(q(PN_FML_A, PN_FML_F, has(1)))));
}

// E G by a lasso walk: a depth-first search of this net fires t0 first
// (its input p0 is the first marked place) ten million times down a chain
// before it tries the t1 / t2 cycle, while a random walk through the
// states where p2 or p3 is marked closes that cycle within a few steps.
// The counterexample to A F !(p2 | p3) is the walk: a prefix, then t1 t2.
TEST(CtlOtf, LassoWalkClosesTheCycleTheSearchReachesLast)
{
    RandomNetSpec s = spec({10000000, 0, 1, 0}, 3, {{0, 0}, {2, 1}, {3, 2}},
                           {{0, 1}, {1, 3}, {2, 2}});
    pn_error err = {};
    pn_net *net = pn_net_new("lasso");
    for (size_t p = 0; p < s.m0.size(); p++)
        ASSERT_GE(pn_net_add_place(net, ("p" + std::to_string(p)).c_str(), nullptr, s.m0[p], &err),
                  0);
    for (uint32_t t = 0; t < s.n_trans; t++)
        ASSERT_GE(pn_net_add_transition(net, ("t" + std::to_string(t)).c_str(), nullptr, &err), 0);
    for (const auto &a : s.arcs)
        ASSERT_EQ(pn_net_add_arc(net, a.place, a.trans, a.to_trans, a.weight, &err), PN_OK);
    pn_cnet *cn = nullptr;
    ASSERT_EQ(pn_cnet_compile(net, &cn, &err), PN_OK) << err.msg;
    pn_lazy *z = nullptr;
    ASSERT_EQ(pn_lazy_new(cn, 0, &z, &err), PN_OK) << err.msg;
    pn_fml_node *f = q(PN_FML_E, PN_FML_G, lor(has(2), has(3)));
    pn_budget b = pn_budget_make(2.0, nullptr, 0);
    pn_ltl_lasso l;
    bool v = false;
    ASSERT_EQ(pn_ctl_check_otf_trace(z, f, &b, &v, &l, &err), PN_OK) << err.msg;
    EXPECT_TRUE(v);
    ASSERT_NE(l.trans, nullptr);
    EXPECT_EQ(l.cycle, 2u); // t1 then t2, or t2 then t1
    EXPECT_NE(l.trans[l.prefix], l.trans[l.prefix + 1]);
    EXPECT_LT(pn_lazy_states(z), 1000u); // the search did not go down the chain
    pn_ltl_lasso_free(&l);
    pn_fml_free(f);
    pn_lazy_free(z);
    pn_cnet_free(cn);
    pn_net_free(net);
}

TEST(CtlOtf, MemoryBudgetGivesUp)
{
    // Twenty tokens moving around a ring of five places: 10,626 states, and
    // AG true needs them all.
    RandomNetSpec s = spec({20, 0, 0, 0, 0}, 5, {{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}},
                           {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}});
    Model m(s);
    pn_lazy *z = nullptr;
    pn_error err = {};
    ASSERT_EQ(pn_lazy_new(m.cn, 1 << 18, &z, &err), PN_OK) << err.msg;
    pn_fml_node *f = q(PN_FML_A, PN_FML_G, tt());
    bool v = false;
    EXPECT_EQ(pn_ctl_check_otf(z, f, nullptr, &v, &err), PN_ERR_OUT_OF_MEMORY);
    pn_lazy_free(z);
    EXPECT_TRUE(m.check(f));
}

TEST(CtlOtf, UnsupportedShape)
{
    Model m(chain());
    pn_fml_node *f = pn_fml_unary(PN_FML_F, has(1));
    pn_error err = {};
    bool v;
    EXPECT_EQ(pn_ctl_check_otf(m.z, f, nullptr, &v, &err), PN_ERR_UNSUPPORTED);
    pn_fml_free(f);
}

// 2,000 random nets, sixteen random formulas each on one shared on-demand
// space: the on-the-fly values equal the recorded graph's.
TEST(CtlOtf, RandomNetsAgreeWithTheGraphChecker)
{
    std::mt19937_64 rng(19);
    int nets = 0, formulas = 0, disagree = 0, trues = 0;
    random_models(rng, 2000, [&](Model &m) {
        nets++;
        for (int i = 0; i < 16; i++) {
            pn_fml_node *f = rand_ctl(rng, m.cn, 1 + (int)(rng() % 4));
            bool a = m.otf(f, i % 2 == 1), b = m.graph(f);
            formulas++;
            trues += b;
            if (a != b && ++disagree <= 5) {
                ADD_FAILURE() << "net " << nets << " formula " << i << ": otf " << a
                              << " graph " << b;
            }
            pn_fml_free(f);
        }
    });
    EXPECT_EQ(disagree, 0);
    printf("%d nets, %d formulas, %d true\n", nets, formulas, trues);
    EXPECT_GT(trues, formulas / 10); // both values occur often
    EXPECT_LT(trues, formulas - formulas / 10);
}

// ---- the CTL rewrites (formula_ctl.c) and the linear simplification
// (examine/ctl_simplify.c) ----

namespace {

std::string rewritten(pn_fml_node *f)
{
    pn_error err = {};
    EXPECT_EQ(pn_fml_ctl_rewrite(&f, &err), PN_OK);
    char *t = pn_fml_to_string(f, nullptr);
    std::string s = t != nullptr ? t : "";
    free(t);
    pn_fml_free(f);
    return s;
}

} // namespace

TEST(CtlRewrite, Rules)
{
    auto p0 = [] { return has(0); };
    // Absorption.
    EXPECT_EQ(rewritten(q(PN_FML_E, PN_FML_F, q(PN_FML_E, PN_FML_F, p0()))), "EF(1 <= p#0)");
    EXPECT_EQ(rewritten(q(PN_FML_A, PN_FML_G, q(PN_FML_A, PN_FML_G, p0()))), "AG(1 <= p#0)");
    EXPECT_EQ(rewritten(q(PN_FML_A, PN_FML_F, q(PN_FML_A, PN_FML_F, p0()))), "AF(1 <= p#0)");
    EXPECT_EQ(rewritten(q(PN_FML_E, PN_FML_G, q(PN_FML_E, PN_FML_G, p0()))), "EG(1 <= p#0)");
    EXPECT_EQ(rewritten(q(PN_FML_E, PN_FML_F, q(PN_FML_A, PN_FML_F, p0()))), "EF(1 <= p#0)");
    EXPECT_EQ(rewritten(q(PN_FML_A, PN_FML_F, q(PN_FML_E, PN_FML_F, p0()))), "EF(1 <= p#0)");
    EXPECT_EQ(rewritten(q(PN_FML_A, PN_FML_G, q(PN_FML_E, PN_FML_G, p0()))), "AG(1 <= p#0)");
    EXPECT_EQ(rewritten(q(PN_FML_E, PN_FML_G, q(PN_FML_A, PN_FML_G, p0()))), "AG(1 <= p#0)");
    // Not absorbed: AG EF, EF EG, AF AG.
    EXPECT_EQ(rewritten(q(PN_FML_A, PN_FML_G, q(PN_FML_E, PN_FML_F, p0()))), "AGEF(1 <= p#0)");
    EXPECT_EQ(rewritten(q(PN_FML_E, PN_FML_F, q(PN_FML_E, PN_FML_G, p0()))), "EFEG(1 <= p#0)");
    // Negations move inward, and EF !EF x reads as EF AG !x.
    EXPECT_EQ(rewritten(lnot(q(PN_FML_A, PN_FML_G, p0()))), "EF(!(1 <= p#0))");
    EXPECT_EQ(rewritten(lnot(q(PN_FML_A, PN_FML_X, p0()))), "EX(!(1 <= p#0))");
    EXPECT_EQ(rewritten(q(PN_FML_E, PN_FML_F, lnot(q(PN_FML_A, PN_FML_G, p0())))),
              "EF(!(1 <= p#0))");
    // Next over constants.
    EXPECT_EQ(rewritten(q(PN_FML_E, PN_FML_X, tt())), "!deadlock");
    EXPECT_EQ(rewritten(q(PN_FML_A, PN_FML_X, ff())), "deadlock");
    EXPECT_EQ(rewritten(q(PN_FML_A, PN_FML_X, tt())), "true");
    EXPECT_EQ(rewritten(q(PN_FML_E, PN_FML_X, ff())), "false");
    // E F over a disjunction: the state part, each E F, the rest.
    EXPECT_EQ(rewritten(q(PN_FML_E, PN_FML_F,
                          lor(lor(p0(), q(PN_FML_E, PN_FML_F, has(1))),
                              q(PN_FML_A, PN_FML_X, has(2))))),
              "(EF(1 <= p#0) | EF(1 <= p#1) | EFAX(1 <= p#2))");
    EXPECT_EQ(rewritten(q(PN_FML_A, PN_FML_G, land(p0(), q(PN_FML_E, PN_FML_X, has(2))))),
              "(AG(1 <= p#0) & AGEX(1 <= p#2))");
}

// 2,000 random nets, eight random formulas each: the rewritten formula
// has the value of the original, on the graph and on the fly.
TEST(CtlRewrite, RandomNetsKeepTheValue)
{
    std::mt19937_64 rng(1918);
    int nets = 0, formulas = 0, changed = 0, disagree = 0;
    random_models(rng, 2000, [&](Model &m) {
        nets++;
        for (int i = 0; i < 8; i++) {
            pn_fml_node *f = rand_ctl(rng, m.cn, 1 + (int)(rng() % 5));
            pn_fml_node *g = pn_fml_clone(f);
            pn_error err = {};
            ASSERT_EQ(pn_fml_ctl_rewrite(&g, &err), PN_OK);
            bool want = m.graph(f);
            formulas++;
            changed += !pn_fml_equal(f, g);
            if ((m.graph(g) != want || m.otf(g) != want) && ++disagree <= 5) {
                char *a = pn_fml_to_string(f, nullptr), *b = pn_fml_to_string(g, nullptr);
                ADD_FAILURE() << "net " << nets << ": " << a << " is " << want << ", " << b
                              << " is not";
                free(a);
                free(b);
            }
            pn_fml_free(f);
            pn_fml_free(g);
        }
    });
    EXPECT_EQ(disagree, 0);
    EXPECT_GT(changed, formulas / 4); // the rules do apply
    printf("%d nets, %d formulas, %d rewritten\n", nets, formulas, changed);
}

namespace {

// The simplified copy of props (CTL or LTL rules) with the linear layer's
// defaults and 10 s; *constants counts what was replaced; finite as
// pn_ctl_simplify takes it. NULL on failure.
pn_fml_set *simplified(Model &m, std::vector<pn_fml_prop> &props, bool ltl, uint32_t *constants,
                       int *finite = nullptr)
{
    pn_fml_set set = {};
    set.n = (uint32_t)props.size();
    set.props = props.data();
    pn_budget b = pn_budget_make(10.0, nullptr, 0);
    pn_linear_opts lo = {};
    lo.budget = &b;
    pn_fml_set *out = nullptr;
    pn_error err = {};
    uint32_t decided = 0;
    pn_simplify_opts so = {};
    so.lin = &lo;
    so.finite = finite;
    pn_status st = ltl ? pn_ltl_simplify(m.cn, &set, &so, &out, &decided, &err)
                       : pn_ctl_simplify(m.cn, &set, &so, &out, &decided, &err);
    EXPECT_EQ(st, PN_OK) << err.msg;
    *constants += decided;
    return st == PN_OK ? out : nullptr;
}

void differs(int net, const pn_fml_node *f, bool want, const pn_fml_node *g)
{
    char *a = pn_fml_to_string(f, nullptr), *c = pn_fml_to_string(g, nullptr);
    ADD_FAILURE() << "net " << net << ": " << a << " is " << want << ", " << c << " is not";
    free(a);
    free(c);
}

} // namespace

// Random nets with formulas whose atoms the linear layer often proves
// constant: every simplified formula has the original's value.
TEST(CtlSimplify, RandomNetsKeepTheValue)
{
    std::mt19937_64 rng(2018);
    int nets = 0, formulas = 0, changed = 0, disagree = 0;
    uint32_t constants = 0;
    random_models(rng, 2000, [&](Model &m) {
        nets++;
        const int n = 8;
        std::vector<pn_fml_prop> props(n);
        for (int i = 0; i < n; i++)
            props[i] = {(char *)"f", rand_ctl(rng, m.cn, 1 + (int)(rng() % 4), 9), PN_OK, nullptr};
        pn_fml_set *out = simplified(m, props, false, &constants);
        ASSERT_NE(out, nullptr);
        for (int i = 0; i < n; i++) {
            const pn_fml_node *f = props[i].root, *g = out->props[i].root;
            bool want = m.graph(f);
            formulas++;
            changed += !pn_fml_equal(f, g);
            if ((m.graph(g) != want || m.otf(g) != want) && ++disagree <= 5)
                differs(nets, f, want, g);
            pn_fml_free(props[i].root);
        }
        pn_fml_set_free(out);
    });
    EXPECT_EQ(disagree, 0);
    EXPECT_GT(constants, (uint32_t)nets); // the linear layer does decide sub-formulas
    printf("%d nets, %d formulas, %d simplified, %u sub-formulas constant\n", nets, formulas,
           changed, constants);
}

namespace {

// An LTL property's value on the model's graph: a root the simplifier
// folded to a state formula (TRUE, FALSE, ...) is read at m0; -1 when the
// checker refuses it (an automaton beyond its size limit).
int ltl_value(Model &m, const pn_fml_node *f)
{
    if (pn_fml_is_state(f))
        return pn_fml_eval_state(f, m.cn, m.cn->m0);
    pn_ctl_model g = {m.cn, m.res.graph, m.res.store, m.res.layout, nullptr};
    pn_error err = {};
    bool v = false;
    pn_status st = pn_ltl_check(&g, f, &v, nullptr, &err);
    EXPECT_TRUE(st == PN_OK || st == PN_ERR_UNSUPPORTED) << err.msg;
    return st == PN_OK ? v : -1;
}

} // namespace

// LTL (pn_ltl_simplify): random path formulas over atoms the linear layer
// often proves constant (large constants, dead transitions); every
// simplified property has the original's value on the full graph.
TEST(LtlSimplify, RandomNetsKeepTheValue)
{
    std::mt19937_64 rng(2019);
    int nets = 0, formulas = 0, changed = 0, disagree = 0, folded = 0;
    uint32_t constants = 0;
    random_models(rng, 1000, [&](Model &m) {
        nets++;
        std::vector<NodePtr> atoms;
        for (int k = 0; k < 4; k++)
            atoms.emplace_back(rand_atom(rng, m.cn, 1 + rng() % 6));
        const int n = 8;
        std::vector<pn_fml_prop> props(n);
        for (int i = 0; i < n; i++)
            props[i] = {(char *)"f",
                        pn_fml_unary(PN_FML_A, random_formula(rng, atoms, atoms.size(), 4)),
                        PN_OK, nullptr};
        pn_fml_set *out = simplified(m, props, true, &constants);
        ASSERT_NE(out, nullptr);
        for (int i = 0; i < n; i++) {
            const pn_fml_node *f = props[i].root, *g = out->props[i].root;
            int want = ltl_value(m, f), got = want < 0 ? -1 : ltl_value(m, g);
            if (want >= 0)
                formulas++;
            changed += want >= 0 && !pn_fml_equal(f, g);
            folded += want >= 0 && pn_fml_is_state(g);
            if (got >= 0 && got != want && ++disagree <= 5)
                differs(nets, f, want, g);
            pn_fml_free(props[i].root);
        }
        pn_fml_set_free(out);
    });
    EXPECT_EQ(disagree, 0);
    EXPECT_GT(constants, (uint32_t)nets); // the linear layer does decide atoms
    EXPECT_GT(folded, formulas / 20);     // and whole properties fold
    EXPECT_GT(formulas, (int)petrel_test::random_share(4000));            // most are within the automaton's limit
    printf("%d nets, %d formulas, %d simplified, %d folded to a state formula, %u atoms "
           "constant\n",
           nets, formulas, changed, folded, constants);
}

// ---- traces ----

namespace {

bool dead(const pn_cnet *cn, const std::vector<uint64_t> &m)
{
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        if (pn_cnet_enabled(cn, m.data(), t))
            return false;
    return true;
}

// The markings along trace (prefix, then cycle), or empty when a step is
// not enabled.
std::vector<std::vector<uint64_t>> replay(const pn_cnet *cn, const pn_ltl_lasso &l)
{
    std::vector<std::vector<uint64_t>> ms{std::vector<uint64_t>(cn->m0, cn->m0 + cn->n_places)};
    for (uint64_t k = 0; k < l.prefix + l.cycle; k++) {
        uint32_t t = l.trans[k];
        if (t == UINT32_MAX) // a deadlock ends the path
            return dead(cn, ms.back()) && k + 1 == l.prefix + l.cycle
                       ? ms : std::vector<std::vector<uint64_t>>{};
        std::vector<uint64_t> next(cn->n_places);
        if (!pn_cnet_enabled(cn, ms.back().data(), t) ||
            !pn_cnet_fire(cn, ms.back().data(), t, next.data()))
            return {};
        ms.push_back(next);
    }
    return ms;
}

} // namespace

// E F / E U witnesses and A G / A F / A U counterexamples (E G witnesses):
// replayed on the net, each path proves its answer.
TEST(CtlOtf, TracesAreProofs)
{
    std::mt19937_64 rng(4);
    int nets = 0, traces = 0, cycles = 0, deadlocks = 0;
    random_models(rng, 2000, [&](Model &m) {
        nets++;
        for (int i = 0; i < 8; i++) {
            int shape = (int)(rng() % 6);
            pn_fml_node *a = shape >= 4 ? rand_atom(rng, m.cn, 4) : tt();
            pn_fml_node *b = rand_atom(rng, m.cn, 4);
            // exists: an E U search (EF, E U, A G as !EF!); its goal b.
            bool exists = shape == 0 || shape == 2 || shape == 4, neg = shape == 2 || shape == 3;
            pn_fml_kind quant = exists ? PN_FML_E : PN_FML_A;
            pn_fml_node *goal = neg ? lnot(pn_fml_clone(b)) : pn_fml_clone(b);
            pn_fml_node *f = shape >= 4 ? qu(quant, pn_fml_clone(a), pn_fml_clone(b))
                             : shape == 2 ? q(PN_FML_A, PN_FML_G, pn_fml_clone(b))
                             : shape == 3 ? q(PN_FML_E, PN_FML_G, pn_fml_clone(b))
                                          : q(quant, PN_FML_F, pn_fml_clone(b));
            pn_ltl_lasso l;
            pn_error err = {};
            bool v = false;
            ASSERT_EQ(pn_ctl_check_otf_trace(m.z, f, nullptr, &v, &l, &err), PN_OK) << err.msg;
            bool search_met = exists ? v != neg : v == neg; // E U true / A U false
            EXPECT_EQ(l.trans != nullptr, search_met) << "shape " << shape;
            if (l.trans != nullptr) {
                traces++;
                auto ms = replay(m.cn, l);
                ASSERT_FALSE(ms.empty()) << "shape " << shape << ": not a path of the net";
                size_t last = ms.size() - 1;
                for (size_t k = 0; k < ms.size(); k++) {
                    bool ak = pn_fml_eval_state(a, m.cn, ms[k].data());
                    bool gk = pn_fml_eval_state(goal, m.cn, ms[k].data());
                    if (exists) { // a until the goal, which the last state has
                        EXPECT_EQ(l.cycle, 0u);
                        EXPECT_TRUE(k == last ? gk : ak && !gk) << "shape " << shape;
                    } else if (l.cycle == 0) { // a and not b, until neither
                        EXPECT_TRUE(!gk && (k == last ? !ak : ak)) << "shape " << shape;
                    } else { // a and not b forever
                        EXPECT_TRUE(ak && !gk) << "shape " << shape;
                    }
                }
                bool dl = l.cycle == 1 && l.trans[l.prefix] == UINT32_MAX;
                deadlocks += dl;
                if (l.cycle > 0 && !dl) { // the cycle closes
                    cycles++;
                    EXPECT_EQ(ms[l.prefix], ms[last]);
                }
            }
            pn_ltl_lasso_free(&l);
            pn_fml_free(f);
            pn_fml_free(goal);
            pn_fml_free(a);
            pn_fml_free(b);
        }
    });
    EXPECT_GT(cycles, 100);
    EXPECT_GT(deadlocks, 100);
    printf("%d nets, %d traces (%d cycles, %d ending at a deadlock)\n", nets, traces, cycles,
           deadlocks);
}

// The CLI with --trace checks CTL locally first: the answers stay the
// oracle's, and the formulas decided by a path print it.
TEST(CtlOtf, CliTracePrintsPaths)
{
    std::string dir = std::string(PETREL_SHARED_DIR) + "/mcc/Philosophers-PT-000005";
    FILE *oracle = fopen((dir + "/Philosophers-PT-000005-CTLF.out").c_str(), "r");
    if (oracle == nullptr)
        GTEST_SKIP() << dir << " is absent";
    std::map<std::string, std::string> want;
    char id[512], value[64];
    char line[8192];
    while (fgets(line, sizeof line, oracle) != nullptr)
        if (sscanf(line, "FORMULA %511s %63s", id, value) == 2)
            want[id] = value;
    fclose(oracle);
    std::string cmd = std::string(PETREL_CLI_PATH) + " " + dir +
                      " -e CTLFireability --trace --threads 1 --timeout 60 2>&1";
    FILE *p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    int answers = 0, traces = 0;
    while (fgets(line, sizeof line, p) != nullptr) {
        if (sscanf(line, "FORMULA %511s %63s", id, value) == 2) {
            answers++;
            if (want[id] != "?") {
                EXPECT_EQ(want[id], value) << id;
            }
        }
        traces += std::string(line).rfind("petrel: trace ", 0) == 0;
    }
    EXPECT_EQ(pclose(p), 0);
    EXPECT_EQ(answers, 16);
    EXPECT_GE(traces, 4);
}

// ---- nets whose runs are all finite (lin_terminate.c, formula_finite.c) ----

namespace {

// No cycle in the recorded graph (iterative depth-first search).
bool acyclic(const pn_graph *g)
{
    std::vector<uint8_t> colour(g->n_states, 0); // 0 new, 1 on the stack, 2 done
    std::vector<std::pair<uint32_t, uint64_t>> stack;
    for (uint32_t r = 0; r < g->n_states; r++) {
        if (colour[r] != 0)
            continue;
        stack.push_back({r, g->off[r]});
        colour[r] = 1;
        while (!stack.empty()) {
            auto &[s, e] = stack.back();
            if (e == g->off[s + 1]) {
                colour[s] = 2;
                stack.pop_back();
                continue;
            }
            uint32_t d = g->dst[e++];
            if (colour[d] == 1)
                return false;
            if (colour[d] == 0) {
                colour[d] = 1;
                stack.push_back({d, g->off[d]});
            }
        }
    }
    return true;
}

bool terminates(const Model &m)
{
    bool finite = false;
    pn_error err = {};
    pn_budget b = pn_budget_make(10.0, nullptr, 0);
    EXPECT_EQ(pn_linear_terminates(m.cn, &b, &finite, &err), PN_OK) << err.msg;
    return finite;
}

std::string folded(pn_fml_node *f, bool ltl)
{
    uint32_t k = pn_fml_fold_finite(&f, ltl);
    char *t = pn_fml_to_string(f, nullptr);
    std::string s = std::to_string(k) + " " + (t != nullptr ? t : "");
    free(t);
    pn_fml_free(f);
    return s;
}

} // namespace

// By hand: the chain ends at a deadlock, the fork's t2 loops forever.
TEST(Finite, ChainTerminatesForkDoesNot)
{
    Model chained(chain()), fork(forked());
    EXPECT_TRUE(terminates(chained));
    EXPECT_FALSE(terminates(fork));
    uint32_t t0 = 0;
    auto fire0 = [&] { return pn_fml_list(PN_FML_FIREABLE, &t0, 1); };
    // Every path's last state enables nothing.
    EXPECT_EQ(folded(q(PN_FML_E, PN_FML_G, fire0()), false), "1 false");
    EXPECT_EQ(folded(q(PN_FML_A, PN_FML_F, lnot(fire0())), false), "1 true");
    EXPECT_EQ(folded(q(PN_FML_E, PN_FML_F, pn_fml_leaf(PN_FML_DEADLOCK)), false), "1 true");
    // CTL: AX is TRUE at a deadlock, EX FALSE; token counts are unknown.
    EXPECT_EQ(folded(q(PN_FML_A, PN_FML_F, q(PN_FML_A, PN_FML_X, has(1))), false), "1 true");
    EXPECT_EQ(folded(q(PN_FML_A, PN_FML_G, q(PN_FML_E, PN_FML_X, has(1))), false), "1 false");
    EXPECT_EQ(folded(q(PN_FML_E, PN_FML_F, has(1)), false), "0 EF(1 <= p#1)");
    // LTL: X reads the repeated deadlock; G F fireable fails, F G !fireable holds.
    EXPECT_EQ(folded(pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, pn_fml_unary(PN_FML_F, fire0()))),
                     true),
              "1 A(false)");
    EXPECT_EQ(folded(pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_F, pn_fml_unary(PN_FML_X,
                                                                          lnot(fire0())))),
                     true),
              "1 A(true)");
    // pn_ctl_simplify applies them (the linear layer alone cannot: t0 is
    // enabled at m0) on the chain, not on the fork.
    std::vector<pn_fml_prop> props = {{(char *)"f", q(PN_FML_E, PN_FML_G, fire0()), PN_OK,
                                       nullptr}};
    uint32_t k = 0;
    int chain_finite = -1, fork_finite = -1, told = 0;
    pn_fml_set *a = simplified(chained, props, false, &k, &chain_finite),
               *b = simplified(fork, props, false, &k, &fork_finite);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(a->props[0].root->kind, PN_FML_FALSE);
    EXPECT_TRUE(pn_fml_equal(b->props[0].root, props[0].root));
    EXPECT_EQ(chain_finite, 1); // asked once, kept for a second pass
    EXPECT_EQ(fork_finite, 0);
    pn_fml_set_free(a);
    pn_fml_set_free(b);
    // A caller's "not known" is taken as it is: the rules stay off.
    a = simplified(chained, props, false, &k, &told);
    ASSERT_NE(a, nullptr);
    EXPECT_TRUE(pn_fml_equal(a->props[0].root, props[0].root));
    EXPECT_EQ(told, 0);
    pn_fml_set_free(a);
    pn_fml_free(props[0].root);
    // The values agree with the graph.
    EXPECT_FALSE(chained.check(q(PN_FML_E, PN_FML_G, fire0())));
    EXPECT_TRUE(chained.check(q(PN_FML_A, PN_FML_F, q(PN_FML_A, PN_FML_X, has(1)))));
}

// A ranking function is claimed only for nets without a cycle, and found
// for every net built with one (random_terminating_spec).
TEST(Finite, RankingFunctionsOnlyWhereEveryRunEnds)
{
    std::mt19937_64 rng(1989);
    int bounded = 0, claimed = 0, built = 0, found = 0;
    random_models(rng, 1000, [&](Model &m) {
        bounded++;
        if (terminates(m)) {
            claimed++;
            EXPECT_TRUE(acyclic(m.res.graph)) << "net " << bounded;
        }
    });
    random_models(
        rng, 1000,
        [&](Model &m) {
            built++;
            found += terminates(m);
            EXPECT_TRUE(acyclic(m.res.graph));
        },
        random_terminating_spec);
    EXPECT_EQ(found, built);
    EXPECT_GT(claimed, 10);            // some bounded nets terminate too
    EXPECT_LT(claimed, bounded - 100); // most have cycles
    printf("%d bounded nets, %d proven terminating; %d of %d built to terminate\n", bounded,
           claimed, found, built);
}

// Random CTL and LTL formulas on nets that terminate: the simplified
// formula (with the finite-run rules) has the original's value.
TEST(Finite, RandomFormulasKeepTheirValue)
{
    std::mt19937_64 rng(2026);
    int nets = 0, formulas = 0, disagree = 0, constant = 0;
    random_models(
        rng, 1000,
        [&](Model &m) {
            nets++;
            const int n = 8;
            std::vector<pn_fml_prop> ctl(n), ltl(n);
            std::vector<NodePtr> atoms;
            for (int k = 0; k < 4; k++)
                atoms.emplace_back(rand_atom(rng, m.cn, 1 + rng() % 3));
            for (int i = 0; i < n; i++) {
                ctl[i] = {(char *)"f", rand_ctl(rng, m.cn, 1 + (int)(rng() % 4)), PN_OK, nullptr};
                ltl[i] = {(char *)"f",
                          pn_fml_unary(PN_FML_A, random_formula(rng, atoms, atoms.size(), 4)),
                          PN_OK, nullptr};
            }
            uint32_t k = 0;
            pn_fml_set *c = simplified(m, ctl, false, &k), *l = simplified(m, ltl, true, &k);
            ASSERT_NE(c, nullptr);
            ASSERT_NE(l, nullptr);
            for (int i = 0; i < n; i++) {
                const pn_fml_node *f = ctl[i].root, *g = c->props[i].root;
                bool want = m.graph(f);
                formulas++;
                constant += pn_fml_is_state(g) && !pn_fml_is_state(f);
                if ((m.graph(g) != want || m.otf(g) != want) && ++disagree <= 5)
                    differs(nets, f, want, g);
                f = ltl[i].root;
                g = l->props[i].root;
                int lw = ltl_value(m, f), lg = lw < 0 ? -1 : ltl_value(m, g);
                formulas += lw >= 0;
                constant += lw >= 0 && pn_fml_is_state(g);
                if (lg >= 0 && lg != lw && ++disagree <= 5)
                    differs(nets, f, lw, g);
                pn_fml_free(ctl[i].root);
                pn_fml_free(ltl[i].root);
            }
            pn_fml_set_free(c);
            pn_fml_set_free(l);
        },
        random_terminating_spec);
    EXPECT_EQ(disagree, 0);
    EXPECT_GT(constant, formulas / 5); // the rules do fold
    printf("%d nets, %d formulas, %d folded to state formulas\n", nets, formulas, constant);
}
