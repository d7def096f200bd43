// Room in proportion to the states: a ring of N places and N transitions passing one
// token around has N states, each with one successor. The engine used to keep room for
// n_transitions successors of every state in flight before exploring (2 threads x a
// chunk of 26 x 20,000 transitions = 1 M states of 313 words: 2.6 GB), so under a
// 512 MB budget it stopped with "out of memory budget: 0 states"; the room now follows
// the level's states (their marked places' transitions).
#include <gtest/gtest.h>

#include <string>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/engine.h"
#include "petrel/error.h"
#include "petrel/net.h"
#include "test_ptrs.h"

namespace {

NetPtr ring(uint32_t n)
{
    pn_error err;
    pn_error_clear(&err);
    NetPtr net(pn_net_new("ring"));
    for (uint32_t i = 0; i < n; i++)
        EXPECT_GE(pn_net_add_place(net.get(), ("p" + std::to_string(i)).c_str(), nullptr,
                                   i == 0 ? 1 : 0, &err),
                  0)
            << err.msg;
    for (uint32_t i = 0; i < n; i++) {
        EXPECT_GE(pn_net_add_transition(net.get(), ("t" + std::to_string(i)).c_str(), nullptr,
                                        &err),
                  0)
            << err.msg;
        EXPECT_EQ(pn_net_add_arc(net.get(), i, i, true, 1, &err), PN_OK) << err.msg;
        EXPECT_EQ(pn_net_add_arc(net.get(), (i + 1) % n, i, false, 1, &err), PN_OK) << err.msg;
    }
    return net;
}

} // namespace

TEST(EngineRoom, WideRingExploresUnderABudgetFarBelowTransitionsTimesThreads)
{
    const uint32_t n = 20000;
    NetPtr net = ring(n);
    pn_error err;
    pn_error_clear(&err);
    pn_cnet *raw = nullptr;
    ASSERT_EQ(pn_cnet_compile(net.get(), &raw, &err), PN_OK) << err.msg;
    CnetPtr cn(raw);
    pn_budget budget = pn_budget_make(60, nullptr, 512ULL << 20);
    pn_engine_opts o{};
    o.threads = 2;
    o.budget = &budget;
    pn_engine_result res{};
    ASSERT_EQ(pn_explore(cn.get(), &o, &res, &err), PN_OK) << err.msg;
    EXPECT_EQ(res.status, PN_RUN_COMPLETE) << pn_run_status_name(res.status);
    EXPECT_EQ(res.states, n);
    EXPECT_EQ(res.edges, n);
    EXPECT_EQ(res.max_tokens_place, 1u);
    EXPECT_EQ(res.max_tokens_marking, 1u);
    pn_engine_result_free(&res);
}
