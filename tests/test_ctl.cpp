// CTL operators and Liveness on hand-made nets whose state graphs are small
// enough to check by hand, including the deadlock convention of
// docs/semantics.md (EX false and AX true at a deadlock; path operators
// over maximal paths).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "net/layout.h"
#include "petrel/cnet.h"
#include "petrel/ctl.h"
#include "petrel/engine.h"
#include "petrel/formula.h"
#include "petrel/graph.h"
#include "petrel/net.h"

namespace {

// A net, its complete exploration with the graph and states kept.
struct Model {
    pn_net *net = nullptr;
    pn_cnet *cn = nullptr;
    pn_engine_result res;
    Model(const std::vector<uint64_t> &m0, int transitions,
          const std::vector<std::pair<int, int>> &pre, const std::vector<std::pair<int, int>> &post)
    {
        pn_error err = {};
        net = pn_net_new("ctl");
        for (size_t p = 0; p < m0.size(); p++) {
            std::string id = "p" + std::to_string(p);
            EXPECT_GE(pn_net_add_place(net, id.c_str(), nullptr, m0[p], &err), 0);
        }
        for (int t = 0; t < transitions; t++) {
            std::string id = "t" + std::to_string(t);
            EXPECT_GE(pn_net_add_transition(net, id.c_str(), nullptr, &err), 0);
        }
        for (auto [p, t] : pre)
            EXPECT_EQ(pn_net_add_arc(net, p, t, true, 1, &err), PN_OK);
        for (auto [t, p] : post)
            EXPECT_EQ(pn_net_add_arc(net, p, t, false, 1, &err), PN_OK);
        EXPECT_EQ(pn_cnet_compile(net, &cn, &err), PN_OK) << err.msg;
        pn_engine_opts o;
        memset(&o, 0, sizeof o);
        o.threads = 1;
        o.record_graph = true;
        o.keep_states = true;
        EXPECT_EQ(pn_explore(cn, &o, &res, &err), PN_OK) << err.msg;
        EXPECT_EQ(res.status, PN_RUN_COMPLETE);
    }
    ~Model()
    {
        pn_engine_result_free(&res);
        pn_cnet_free(cn);
        pn_net_free(net);
    }
    // Truth of f at the initial marking; f is consumed.
    bool check(pn_fml_node *f)
    {
        pn_ctl_model m = {cn, res.graph, res.store, res.layout, nullptr};
        pn_error err = {};
        bool v = false;
        EXPECT_EQ(pn_ctl_check(&m, f, &v, &err), PN_OK) << err.msg;
        pn_fml_free(f);
        return v;
    }
    bool live()
    {
        pn_ctl_model m = {cn, res.graph, res.store, res.layout, nullptr};
        pn_error err = {};
        bool v = false;
        EXPECT_EQ(pn_ctl_liveness(&m, &v, &err), PN_OK) << err.msg;
        return v;
    }
};

// "place p holds at least one token"
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
pn_fml_node *lnot(pn_fml_node *a) { return pn_fml_unary(PN_FML_NOT, a); }

// p0 -t0-> p1 -t1-> p2, then a deadlock: three states in a line.
Model chain() { return Model({1, 0, 0}, 2, {{0, 0}, {1, 1}}, {{0, 1}, {1, 2}}); }

} // namespace

TEST(Ctl, NextOnAChain)
{
    Model m = chain();
    ASSERT_EQ(m.res.states, 3u);
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_X, has(1))));
    EXPECT_TRUE(m.check(q(PN_FML_A, PN_FML_X, has(1))));
    EXPECT_FALSE(m.check(q(PN_FML_E, PN_FML_X, has(2))));
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_X, q(PN_FML_E, PN_FML_X, has(2)))));
}

TEST(Ctl, DeadlockConvention)
{
    Model m = chain();
    // At the deadlock {p2}: EX true is FALSE, AX false is TRUE.
    EXPECT_FALSE(m.check(q(PN_FML_E, PN_FML_F, pn_fml_binary(PN_FML_AND, has(2),
                                                             q(PN_FML_E, PN_FML_X, tt())))));
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_F, pn_fml_binary(PN_FML_AND, has(2),
                                                            q(PN_FML_A, PN_FML_X, ff())))));
    // Maximal paths end there: EG true holds, EG p0 does not, AF p2 does.
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_G, tt())));
    EXPECT_FALSE(m.check(q(PN_FML_E, PN_FML_G, has(0))));
    EXPECT_TRUE(m.check(q(PN_FML_A, PN_FML_F, has(2))));
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_G, lor(has(0), lor(has(1), has(2))))));
    // At the deadlock, AF and EG reduce to the state formula.
    EXPECT_TRUE(m.check(q(PN_FML_A, PN_FML_G, lor(lnot(has(2)), q(PN_FML_E, PN_FML_G, has(2))))));
}

TEST(Ctl, UntilOnAChain)
{
    Model m = chain();
    EXPECT_TRUE(m.check(qu(PN_FML_E, has(0), has(1))));
    EXPECT_TRUE(m.check(qu(PN_FML_A, has(0), has(1))));
    EXPECT_FALSE(m.check(qu(PN_FML_A, has(0), has(2))));
    EXPECT_TRUE(m.check(qu(PN_FML_A, lor(has(0), has(1)), has(2))));
    // A state where neither holds is not an Until witness.
    EXPECT_FALSE(m.check(qu(PN_FML_E, has(0), has(2))));
}

// s0 = {p0}: t0 -> s1 = {p1} (t2 loops on p1 forever), t1 -> s2 = {p2} (deadlock).
Model forked()
{
    return Model({1, 0, 0}, 3, {{0, 0}, {0, 1}, {1, 2}}, {{0, 1}, {1, 2}, {2, 1}});
}

TEST(Ctl, BranchingQuantifiers)
{
    Model m = forked();
    ASSERT_EQ(m.res.states, 3u);
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_F, has(2))));
    EXPECT_FALSE(m.check(q(PN_FML_A, PN_FML_F, has(2))));
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_G, lor(has(0), has(1)))));
    EXPECT_FALSE(m.check(q(PN_FML_A, PN_FML_G, lor(has(0), has(1)))));
    EXPECT_TRUE(m.check(q(PN_FML_A, PN_FML_X, lor(has(1), has(2)))));
    EXPECT_FALSE(m.check(q(PN_FML_A, PN_FML_X, has(1))));
    EXPECT_TRUE(m.check(q(PN_FML_E, PN_FML_F, q(PN_FML_A, PN_FML_G, has(1)))));
    EXPECT_FALSE(m.check(q(PN_FML_A, PN_FML_F, q(PN_FML_A, PN_FML_G, has(1)))));
    EXPECT_TRUE(m.check(lnot(q(PN_FML_A, PN_FML_F, has(1)))));
}

TEST(Ctl, PathFormulaWithoutQuantifierIsUnsupported)
{
    Model m = chain();
    pn_ctl_model cm = {m.cn, m.res.graph, m.res.store, m.res.layout, nullptr};
    pn_fml_node *f = pn_fml_unary(PN_FML_F, has(1));
    pn_error err = {};
    bool v;
    EXPECT_EQ(pn_ctl_check(&cm, f, &v, &err), PN_ERR_UNSUPPORTED);
    pn_fml_free(f);
}

TEST(Ctl, Liveness)
{
    // The chain deadlocks: not live. The fork's t0, t1 die after one step.
    EXPECT_FALSE(chain().live());
    EXPECT_FALSE(forked().live());
    // p0 -t0-> p1 -t1-> p0: a cycle where both stay fireable forever.
    Model cycle({1, 0}, 2, {{0, 0}, {1, 1}}, {{0, 1}, {1, 0}});
    EXPECT_TRUE(cycle.live());
    // Two cycles and a one-way door between them: t2 moves the token from the
    // first cycle to the second and can never fire again: not live, although
    // no state deadlocks and every transition is enabled somewhere.
    Model door({1, 0, 0, 0}, 5, {{0, 0}, {1, 1}, {1, 2}, {2, 3}, {3, 4}},
               {{0, 1}, {1, 0}, {2, 2}, {3, 3}, {4, 2}});
    EXPECT_FALSE(door.live());
}
