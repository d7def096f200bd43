// The run's budget (host/sys/budget.c): shares of its time.
#include <gtest/gtest.h>

#include "petrel/budget.h"

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
