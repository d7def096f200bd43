// The run's budget (host/sys/budget.c): shares of its time, and the
// process's memory cap.
#include <gtest/gtest.h>

#include <string>

#include "petrel/budget.h"
#include "petrel/phase.h"
#include "petrel/sysinfo.h"

// A child with a cap of its own ends at the cap or at the parent's
// deadline, whichever comes first, and keeps the parent's flags.
TEST(Budget, WithinEndsAtTheCapOrTheParentsDeadline)
{
    volatile int cancel = 0;
    pn_budget b = pn_budget_make(10.0, &cancel, 0);
    double now = pn_clock_now();
    pn_budget capped = pn_budget_within(&b, 2.0);
    EXPECT_NEAR(capped.deadline, now + 2.0, 0.5);
    pn_budget parents = pn_budget_within(&b, 100.0);
    EXPECT_DOUBLE_EQ(parents.deadline, b.deadline);
    pn_budget none = pn_budget_within(nullptr, 3.0); // no parent: the cap alone
    EXPECT_NEAR(none.deadline, now + 3.0, 0.5);
    EXPECT_EQ(none.cancel, nullptr);
    pn_budget spent = pn_budget_within(&b, -1.0);
    EXPECT_EQ(pn_budget_status(&spent), PN_ERR_TIMEOUT);
    EXPECT_EQ(pn_budget_status(&capped), PN_OK);
    cancel = 1;
    EXPECT_EQ(pn_budget_status(&capped), PN_ERR_CANCELLED);
    pn_budget unlimited = pn_budget_make(0, nullptr, 0); // no deadline: the cap is one
    pn_budget child = pn_budget_within(&unlimited, 5.0);
    EXPECT_NEAR(child.deadline, now + 5.0, 0.5);
}

// The process's cap: a phase gets what it leaves beside what is resident
// now; past it, the phases that poll fail with PN_ERR_OUT_OF_MEMORY; a
// share keeps it. Unwatched (process 0), only the share's own memory counts.
TEST(Budget, MemoryIsWhatTheProcessCapLeaves)
{
    uint64_t resident = pn_sys_resident();
    ASSERT_GT(resident, 0u);
    pn_budget b = pn_budget_make(0, nullptr, 0);
    EXPECT_EQ(pn_budget_memory(&b), 0u); // unlimited
    pn_error err;
    pn_error_clear(&err);
    EXPECT_EQ(pn_budget_fail_memory(&b, &err, "reading"), PN_OK);

    b.process = resident + (256ull << 20);
    uint64_t room = pn_budget_memory(&b);
    EXPECT_GT(room, 200ull << 20); // the test's own growth meanwhile is small
    EXPECT_LE(room, 256ull << 20);
    EXPECT_EQ(pn_budget_fail_memory(&b, &err, "reading"), PN_OK);
    pn_budget share = pn_budget_share(&b, 0.5);
    EXPECT_EQ(share.process, b.process);
    b.memory = 1ull << 20; // the share's own memory is smaller: it wins
    EXPECT_EQ(pn_budget_memory(&b), 1ull << 20);

    pn_budget spent = pn_budget_make(0, nullptr, 0);
    spent.process = resident / 2;
    EXPECT_EQ(pn_budget_memory(&spent), 1u); // at least 1: spent, not unlimited
    EXPECT_EQ(pn_budget_fail_memory(&spent, &err, "reading"), PN_ERR_OUT_OF_MEMORY);
    EXPECT_EQ(err.code, PN_ERR_OUT_OF_MEMORY);
    EXPECT_EQ(std::string(err.msg).rfind("reading: ", 0), 0u) << err.msg;
    EXPECT_EQ(pn_budget_fail_memory(nullptr, &err, "reading"), PN_OK);
}

// The phase slot a budget carries (phase.h): a phase's name, then its
// detail beside it, cleared by the next phase; shares keep the slot.
TEST(Phase, ShareSaysWhereTheRunIs)
{
    pn_phase *p = pn_phase_new();
    ASSERT_NE(p, nullptr);
    char buf[200];
    EXPECT_EQ(pn_phase_get(p, buf, sizeof buf), 0.0);
    EXPECT_STREQ(buf, "");
    pn_budget b = pn_budget_make(60, nullptr, 0);
    b.phase = p;
    pn_budget share = pn_budget_share(&b, 0.5);
    pn_budget_phase(&share, "step %s", "linear");
    pn_budget_detail(&share, "formula %s", "F-03");
    double since = pn_phase_get(p, buf, sizeof buf);
    EXPECT_STREQ(buf, "step linear: formula F-03");
    EXPECT_GE(since, 0.0);
    EXPECT_LT(since, 5.0);
    pn_budget_phase(&b, "structural reductions");
    pn_phase_get(p, buf, sizeof buf);
    EXPECT_STREQ(buf, "structural reductions");
    pn_phase_get(p, buf, 8); // cut to the buffer
    EXPECT_STREQ(buf, "structu");
    pn_budget none = pn_budget_make(0, nullptr, 0); // no slot: nothing to say, no crash
    pn_budget_phase(&none, "x");
    pn_budget_phase(nullptr, "x");
    pn_phase_free(p);
}
