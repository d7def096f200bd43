// The scheduler (host/examine/sched.c) and what it rests on: the budget's
// drop and stop flags, the board's per-answer flags (pn_check_watch), turns
// of time among tasks (petrel/turns.h), and two steps beside each other over
// one check on random nets (the local CTL checker or the LTL product with
// the decision diagrams, each leading in turn), every answer against the
// graph checkers (the reference of ctl_case).
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "examine/tech.h"
#include "petrel/mcc.h"
#include "petrel/turns.h"
#include "test_enum.h"
#include "test_share.h"

TEST(Sched, ABudgetEndsWhenItsDropOrStopFlagIsSet)
{
    int drop = 0, stop = 0;
    pn_budget b = pn_budget_make(60.0, nullptr, 0);
    b.drop = &drop;
    b.stop = &stop;
    pn_budget share = pn_budget_share(&b, 0.5);
    EXPECT_EQ(pn_budget_status(&share), PN_OK);
    __atomic_store_n(&drop, 1, __ATOMIC_RELAXED);
    EXPECT_EQ(pn_budget_status(&b), PN_ERR_CANCELLED);
    EXPECT_EQ(pn_budget_status(&share), PN_ERR_CANCELLED); // a share keeps the flag
    __atomic_store_n(&drop, 0, __ATOMIC_RELAXED);
    EXPECT_EQ(pn_budget_status(&share), PN_OK);
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    EXPECT_EQ(pn_budget_status(&share), PN_ERR_CANCELLED);
    EXPECT_EQ(pn_budget_status(nullptr), PN_OK);
}

namespace {

// A net of one place and one transition, and a set of n state formulas.
struct Board {
    Net net;
    SetPtr set;
    pn_check *c = nullptr;
    explicit Board(uint32_t n)
    {
        RandomNetSpec s;
        s.m0 = {1};
        s.n_trans = 1;
        s.arcs = {{0, 0, true, 1}, {0, 0, false, 1}};
        net = build(s);
        std::vector<pn_fml_node *> roots;
        for (uint32_t i = 0; i < n; i++) // E F !(p0 <= 0): open until decided
            roots.push_back(pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, pn_fml_leaf(PN_FML_TRUE))));
        set = make_set(net.net.get(), roots);
        pn_error err;
        pn_error_clear(&err);
        EXPECT_EQ(pn_check_new(net.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get(), 1, &c, &err),
                  PN_OK)
            << err.msg;
    }
    ~Board() { pn_check_free(c); }
};

} // namespace

// Work on an answer ends the moment the answer is final, whoever decided it:
// a budget watching answer 3 ends when another thread decides 3, not 2.
TEST(Sched, AWatchedAnswerDecidedElsewhereEndsTheWorkOnIt)
{
    Board bd(5);
    ASSERT_NE(bd.c, nullptr);
    pn_budget b = pn_budget_make(60.0, nullptr, 0);
    pn_check_watch(bd.c, 3, &b);
    EXPECT_EQ(pn_budget_status(&b), PN_OK);
    EXPECT_EQ(pn_check_open_count(bd.c), 5u);
    pn_check_decide_target(bd.c, 2, true, PN_TECH_LINEAR_EQUATIONS);
    EXPECT_EQ(pn_budget_status(&b), PN_OK);
    std::thread other([&] {
        pn_check_lock(bd.c);
        pn_check_decide_target(bd.c, 3, false, PN_TECH_LINEAR_EQUATIONS);
        pn_check_unlock(bd.c);
    });
    double t0 = pn_clock_now();
    while (pn_budget_status(&b) == PN_OK && pn_clock_now() - t0 < 30)
        ;
    other.join();
    EXPECT_EQ(pn_budget_status(&b), PN_ERR_CANCELLED);
    EXPECT_LT(pn_clock_now() - t0, 10.0);
    EXPECT_EQ(pn_check_open_count(bd.c), 3u);
    EXPECT_FALSE(pn_check_open(bd.c, 3));
    EXPECT_TRUE(pn_check_open(bd.c, 4));
}

namespace {

struct Tasks {
    std::vector<bool> open;
    static bool is_open(void *ctx, uint32_t i) { return static_cast<Tasks *>(ctx)->open[i]; }
};

} // namespace

// PN_TURNS_GROWING with a deadline: every open task once per pass, in
// three passes (a quarter of an equal share, an equal share, the rest); a
// task closed meanwhile gets no more turns.
TEST(Sched, TurnsGiveEveryOpenTaskItsTurnInEachPass)
{
    Tasks ts{{true, true, true, true}};
    pn_budget b = pn_budget_make(100.0, nullptr, 0);
    pn_turns *t = nullptr;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_turns_new(&b, 4, 1, PN_TURNS_GROWING, Tasks::is_open, &ts, &t, &err), PN_OK);
    std::vector<std::pair<uint32_t, int>> got;
    uint32_t i;
    int pass;
    pn_budget share;
    while (pn_turns_next(t, &i, &share, &pass)) {
        double len = pn_budget_left_s(&share);
        if (pass == 0 && i == 0) {
            EXPECT_NEAR(len, 100.0 / 4 / 4, 1.0);
        }
        if (pass == 2) {
            EXPECT_GT(len, 90.0);
        }
        got.push_back({i, pass});
        if (pass == 0 && i == 1)
            ts.open[1] = false; // decided in its first turn
        pn_turns_end(t, i);
    }
    pn_turns_free(t);
    std::vector<std::pair<uint32_t, int>> want = {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {0, 1},
                                                  {2, 1}, {3, 1}, {0, 2}, {2, 2}, {3, 2}};
    EXPECT_EQ(got, want);
}

// Without a deadline no task keeps the others from their turns: the turns
// are bounded and grow fourfold per pass, and they never end by themselves.
TEST(Sched, UntimedTurnsAreBoundedAndGrow)
{
    Tasks ts{{true, true}};
    pn_turns *t = nullptr;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_turns_new(nullptr, 2, 1, PN_TURNS_GROWING, Tasks::is_open, &ts, &t, &err),
              PN_OK);
    uint32_t i;
    int pass;
    pn_budget share;
    for (int k = 0; k < 6; k++) {
        ASSERT_TRUE(pn_turns_next(t, &i, &share, &pass));
        EXPECT_EQ(i, (uint32_t)(k % 2));
        EXPECT_EQ(pass, k / 2);
        double want = PN_TURNS_FIRST_S * (pass == 0 ? 1 : pass == 1 ? 4 : 16);
        EXPECT_NEAR(pn_budget_left_s(&share), want, 0.5);
        pn_turns_end(t, i);
    }
    pn_turns_free(t);
}

// PN_TURNS_ONCE: one turn per task, an equal share of what is left.
TEST(Sched, OnceGivesEachTaskOneEqualTurn)
{
    Tasks ts{{true, true, true, true}};
    pn_budget b = pn_budget_make(80.0, nullptr, 0);
    pn_turns *t = nullptr;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_turns_new(&b, 4, 1, PN_TURNS_ONCE, Tasks::is_open, &ts, &t, &err), PN_OK);
    uint32_t i, n = 0;
    int pass;
    pn_budget share;
    while (pn_turns_next(t, &i, &share, &pass)) {
        EXPECT_EQ(i, n);
        EXPECT_EQ(pass, 0);
        EXPECT_NEAR(pn_budget_left_s(&share), 80.0 / (4 - n), 1.0);
        n++;
        pn_turns_end(t, i);
    }
    EXPECT_EQ(n, 4u);
    pn_turns_free(t);
}

// The on-the-fly checks and the decision diagrams beside each other over
// one check, as the plans run them with two threads, through the
// scheduler: every answer either gives is the graph checkers' (ctl_case's
// reference). The lead alternates (plans are data), so that both sides
// decide answers and both see the other's (the one that follows stops with
// the lead).
TEST(Sched, StepsSideBySideAgreeWithTheGraphCheckers)
{
    std::mt19937_64 rng(3607);
    uint32_t cases = 0, by_dd = 0, by_explicit = 0, wrong = 0;
    pn_examine_opts opts = {};
    ex_sched s = {};
    s.kind = PN_ENGINE_CPU;
    s.opts = &opts;
    s.engine.threads = 2;
    s.t0 = pn_clock_now();
    for (uint32_t k = 0; k < petrel_test::random_share(240) && wrong == 0; k++) {
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
        pn_engine_result res = {};
        res.threads = 2;
        ex_job j;
        ASSERT_EQ(ex_job_init(&j, &s, "test", cn, cc.exam, set, c, &res, &err), PN_OK);
        const ex_tech *otf = ltl ? &ex_tech_product : &ex_tech_local;
        bool otf_leads = (k / 2) % 2 == 0;
        ex_step steps[2] = {{otf, 1.0, otf_leads ? EX_LEADS : EX_FOLLOWS},
                            {&ex_tech_symbolic, 1.0, EX_ALONE}};
        ex_plan plan = {"test", steps, 2};
        pn_budget b = pn_budget_make(30.0, nullptr, 256u << 20);
        EXPECT_EQ(ex_sched_run(&j, &plan, &b, &err), PN_OK) << err.msg;
        ex_job_free(&j);
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
        pn_engine_result_free(&res);
        pn_check_free(c);
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_GE(cases, petrel_test::random_share(200));
    EXPECT_GE(by_dd, petrel_test::random_share(100));
    EXPECT_GE(by_explicit, petrel_test::random_share(100));
}

namespace {

pn_fml_node *tokens_at_most(uint32_t p, uint64_t c)
{
    return pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, &p, 1), pn_fml_const(c));
}

pn_fml_node *tokens_at_least(uint32_t p, uint64_t c)
{
    return pn_fml_binary(PN_FML_INT_LE, pn_fml_const(c), pn_fml_list(PN_FML_TOKENS, &p, 1));
}

struct Heard {
    std::mutex lock;
    std::vector<uint32_t> decided;
    int stop = 0;
    static void hear(void *ctx, const pn_check *, uint32_t i)
    {
        auto *h = static_cast<Heard *>(ctx);
        std::lock_guard<std::mutex> g(h->lock);
        h->decided.push_back(i);
        if (i == 1)
            __atomic_store_n(&h->stop, 1, __ATOMIC_RELEASE);
    }
};

} // namespace

// Without a deadline no formula starves the others: t0 pumps p1 forever
// from p0, t1 moves p0's token to p2, so E G (p2 <= 0) holds (t0 forever)
// but no search of an infinite space ever proves it, while
// A X (p1 >= 1 | p2 >= 1) holds at once. Listed first, the endless one
// used to keep the other waiting for ever; in turns, the second is decided
// in its first one (the run is then cancelled).
TEST(Sched, UntimedFormulasDoNotStarveEachOther)
{
    RandomNetSpec s;
    s.m0 = {1, 0, 0};
    s.n_trans = 2;
    s.arcs = {{0, 0, true, 1}, {0, 0, false, 1}, {1, 0, false, 1}, // t0: p0 -> p0 + p1
              {0, 1, true, 1}, {2, 1, false, 1}};                  // t1: p0 -> p2
    Net n = build(s);
    std::vector<pn_fml_node *> roots = {
        pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_G, tokens_at_most(2, 0))),
        pn_fml_unary(PN_FML_A,
                     pn_fml_unary(PN_FML_X, pn_fml_binary(PN_FML_OR, tokens_at_least(1, 1),
                                                          tokens_at_least(2, 1))))};
    SetPtr set = make_set(n.net.get(), roots);
    Heard h;
    pn_examine_opts o = {};
    o.explore.threads = 1;
    o.engine = PN_ENGINE_CPU;
    o.on_decide = Heard::hear;
    o.on_decide_ctx = &h;
    pn_budget b = pn_budget_make(0, &h.stop, 1u << 30); // no deadline
    pn_report *rep = nullptr;
    pn_error err;
    pn_error_clear(&err);
    std::atomic<bool> done{false};
    double t0 = pn_clock_now();
    std::thread watchdog([&] { // a bound for the test, not for the run
        while (!done.load() && pn_clock_now() - t0 < 120)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        __atomic_store_n(&h.stop, 1, __ATOMIC_RELEASE);
    });
    pn_status st = pn_examine(n.cn.get(), PN_EXAM_CTL_CARDINALITY, set.get(), &o, &b, &rep, &err);
    double seconds = pn_clock_now() - t0;
    done = true;
    watchdog.join();
    ASSERT_EQ(st, PN_OK) << err.msg;
    ASSERT_NE(rep, nullptr);
    EXPECT_EQ(pn_check_answer(rep->check, 1)->verdict, PN_VERDICT_TRUE);
    EXPECT_EQ(pn_check_answer(rep->check, 0)->verdict, PN_VERDICT_UNKNOWN);
    EXPECT_LT(seconds, 60.0);
    pn_report_free(rep);
}
