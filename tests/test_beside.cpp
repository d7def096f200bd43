// Two portfolio steps beside each other (host/examine/beside.c): the
// budget's drop flag, the lead ending the other step, and the local CTL
// checker / the LTL product running beside the decision diagrams over one
// check on random nets, every answer against the graph checkers (the
// reference of ctl_case), in both orders, so that each side decides some.
#include <gtest/gtest.h>

#include <atomic>

#include "examine/beside.h"
#include "examine/otf.h"
#include "examine/symbolic.h"
#include "petrel/mcc.h"
#include "test_enum.h"

TEST(Beside, ABudgetEndsWhenItsDropFlagIsSet)
{
    int flag = 0;
    pn_budget b = pn_budget_make(60.0, nullptr, 0);
    b.drop = &flag;
    pn_budget share = pn_budget_share(&b, 0.5);
    EXPECT_EQ(pn_budget_status(&share), PN_OK);
    __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
    EXPECT_EQ(pn_budget_status(&b), PN_ERR_CANCELLED);
    EXPECT_EQ(pn_budget_status(&share), PN_ERR_CANCELLED); // a share keeps the flag
    EXPECT_EQ(pn_budget_status(nullptr), PN_OK);
}

namespace {

struct Side {
    ex_beside *bs;
    pn_budget budget;
    uint32_t watch = UINT32_MAX; // an answer whose flag the side waits on
    pn_status st = PN_OK;
    double seconds = 0;
};

// Waits until its budget ends (a 60 s deadline: only a flag ends it soon).
void wait_out(void *arg)
{
    auto *s = static_cast<Side *>(arg);
    pn_budget b = s->budget;
    if (s->watch != UINT32_MAX)
        ex_beside_watch(s->bs, s->watch, &b);
    double t0 = pn_clock_now();
    while ((s->st = pn_budget_status(&b)) == PN_OK)
        ;
    s->seconds = pn_clock_now() - t0;
}

// Settles answer 3 (as a step does, under the lock), then returns.
void settle_three(void *arg)
{
    auto *s = static_cast<Side *>(arg);
    ex_beside_lock(s->bs);
    ex_beside_settled(s->bs, 3);
    ex_beside_unlock(s->bs);
}

} // namespace

// The other step's budget follows the lead: when the lead returns, it ends;
// a budget watching an answer ends when that answer is settled.
TEST(Beside, TheLeadsEndEndsTheOtherAndASettledAnswerIsDropped)
{
    pn_error err;
    pn_error_clear(&err);
    ex_beside bs;
    ASSERT_EQ(ex_beside_init(&bs, 5, &err), PN_OK);
    Side lead{&bs, pn_budget_make(60.0, nullptr, 0)}, other{&bs, pn_budget_make(60.0, nullptr, 0)};
    ex_beside_follow(&bs, &other.budget);
    EXPECT_TRUE(ex_beside_run(&bs, settle_three, &lead, wait_out, &other));
    EXPECT_EQ(other.st, PN_ERR_CANCELLED);
    EXPECT_LT(other.seconds, 10.0);
    ex_beside_free(&bs);

    // The lead waits on answer 3, which the other settles.
    ASSERT_EQ(ex_beside_init(&bs, 5, &err), PN_OK);
    Side waiter{&bs, pn_budget_make(60.0, nullptr, 0)}, settler{&bs, pn_budget_make(60.0, nullptr, 0)};
    waiter.watch = 3;
    EXPECT_TRUE(ex_beside_run(&bs, wait_out, &waiter, settle_three, &settler));
    EXPECT_EQ(waiter.st, PN_ERR_CANCELLED);
    EXPECT_LT(waiter.seconds, 10.0);
    ex_beside_free(&bs);
}

namespace {

struct StepRun {
    const pn_cnet *cn;
    const pn_fml_set *set;
    pn_check *c;
    ex_beside *bs;
    pn_budget budget;
    bool ltl;
    pn_engine_opts eo;
    pn_engine_result res;
};

void run_otf(void *arg)
{
    auto *r = static_cast<StepRun *>(arg);
    pn_error err;
    pn_error_clear(&err);
    if (r->ltl)
        EXPECT_EQ(ex_ltl_otf(r->cn, r->set, &r->eo, 1, &r->budget, r->c, r->bs, &r->res, nullptr,
                             &err),
                  PN_OK)
            << err.msg;
    else
        ex_ctl_otf(r->cn, r->set, &r->budget, 1.0, &r->eo, 1, nullptr, r->c, r->bs, &r->res);
}

void run_symbolic(void *arg)
{
    auto *r = static_cast<StepRun *>(arg);
    ex_symbolic(r->cn, r->set, r->ltl ? EX_SYM_LTL : EX_SYM_CTL, &r->budget, 1.0, nullptr, r->c,
                r->bs, nullptr);
}

} // namespace

// The on-the-fly checks and the decision diagrams beside each other over
// one check, as the portfolio runs them with two threads: every answer
// either gives is the graph checkers' (ctl_case's reference). The lead
// alternates, so that both sides decide answers and both see the other's
// (the step that does not lead stops with the lead).
TEST(Beside, StepsSideBySideAgreeWithTheGraphCheckers)
{
    std::mt19937_64 rng(3607);
    uint32_t cases = 0, by_dd = 0, by_explicit = 0, wrong = 0;
    for (int k = 0; k < 240 && wrong == 0; k++) {
        CtlCase cc;
        bool ltl = k % 2 == 1;
        if (!ctl_case(rng, 6, &cc, ltl))
            continue;
        cases++;
        const pn_cnet *cn = cc.net.cn.get();
        const pn_fml_set *set = cc.set.get();
        pn_error err;
        pn_error_clear(&err);
        pn_check *c = nullptr;
        ASSERT_EQ(pn_check_new(cn, cc.exam, set, 2, &c, &err), PN_OK) << err.msg;
        pn_check_finish(c, nullptr); /* state formulas: decided at m0 */
        ex_beside bs;
        ASSERT_EQ(ex_beside_init(&bs, pn_check_count(c), &err), PN_OK);
        StepRun otf{cn, set, c, &bs, pn_budget_make(30.0, nullptr, 256u << 20), ltl, {}, {}};
        StepRun sym = otf;
        bool otf_leads = (k / 2) % 2 == 0;
        ex_beside_follow(&bs, otf_leads ? &sym.budget : &otf.budget);
        if (otf_leads)
            ex_beside_run(&bs, run_otf, &otf, run_symbolic, &sym);
        else
            ex_beside_run(&bs, run_symbolic, &sym, run_otf, &otf);
        ex_beside_free(&bs);
        for (uint32_t i = 0; i < set->n; i++) {
            const pn_answer *a = pn_check_answer(c, i);
            if (a->verdict == PN_VERDICT_UNKNOWN)
                continue;
            by_dd += (a->techniques & PN_TECH_DECISION_DIAGRAMS) != 0;
            by_explicit += (a->techniques & PN_TECH_EXPLICIT) != 0;
            if (a->verdict != cc.want[i]) {
                wrong++;
                char *str = pn_fml_to_string(set->props[i].root, nullptr);
                ADD_FAILURE() << (ltl ? "LTL " : "CTL ") << str << ": " << a->verdict
                              << ", graph " << cc.want[i];
                free(str);
            }
        }
        pn_engine_result_free(&otf.res);
        pn_check_free(c);
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_GE(cases, 200u);
    EXPECT_GE(by_dd, 100u);
    EXPECT_GE(by_explicit, 100u);
}
