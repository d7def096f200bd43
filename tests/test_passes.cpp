// The on-the-fly pass driver (host/examine/passes.c) with scripted
// formulas: each formula needs a given number of turns (it "runs out" of
// time before that), on 1, 2 and 4 workers. Asserted: no formula is held by
// two workers at once, every formula is settled in the turn it needs (the
// third pass gives the rest of the time), turns run in pass order per
// formula, a commit that says stop ends the handing out, and an untimed run
// gives every formula its turn in each pass (turns that grow, with no last
// pass: no formula starves the others). Then the CTL local step on 1, 2 and 4
// workers against the graph checker on random nets and formulas.
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "examine/otf.h"
#include "examine/passes.h"
#include "petrel/examine.h"
#include "test_enum.h"

namespace {

struct Script {
    std::vector<int> need;         // turns formula i needs (1..3)
    std::vector<int> turns, done;  // turns taken; pass it was settled in (-1: open)
    std::vector<int> last_pass;    // pass of its latest turn
    std::vector<std::atomic<int>> holders;
    std::atomic<int> overlaps{0}, order_errors{0};
    int stop_after = -1;           // commit number that says stop
    int commits = 0;
    explicit Script(size_t n) : need(n), turns(n), done(n, -1), last_pass(n, -1), holders(n) {}
};

bool s_open(void *ctx, uint32_t i)
{
    return static_cast<Script *>(ctx)->done[i] < 0;
}

pn_status s_check(void *ctx, uint32_t, pn_lazy *z, uint32_t i, const pn_budget *share,
                  int pass, pn_error *err)
{
    auto *s = static_cast<Script *>(ctx);
    EXPECT_NE(z, nullptr);
    EXPECT_NE(share, nullptr);
    if (s->holders[i].fetch_add(1) != 0)
        s->overlaps++;
    int turn = ++s->turns[i]; // formula i is this worker's alone
    if (pass < s->last_pass[i])
        s->order_errors++;
    s->last_pass[i] = pass;
    s->holders[i].fetch_sub(1);
    if (turn < s->need[i] && pass < 2)
        return pn_fail(err, PN_ERR_TIMEOUT, "scripted: out of time");
    return PN_OK;
}

bool s_commit(void *ctx, uint32_t, const pn_lazy *, uint32_t i, int pass, pn_status st,
              const pn_error *, double)
{
    auto *s = static_cast<Script *>(ctx);
    if (st == PN_OK)
        s->done[i] = pass;
    return ++s->commits != s->stop_after;
}

const ex_passes_ops kOps = {s_open, s_check, s_commit};

Net ring()
{
    RandomNetSpec spec;
    spec.m0 = {1, 0, 0};
    spec.n_trans = 3;
    for (uint32_t t = 0; t < 3; t++) {
        spec.arcs.push_back({t, t, true, 1});
        spec.arcs.push_back({(t + 1) % 3, t, false, 1});
    }
    return build(spec);
}

} // namespace

TEST(Passes, EachFormulaOnceAtATimeInPassOrder)
{
    Net n = ring();
    for (uint32_t workers : {1u, 2u, 4u}) {
        const uint32_t N = 40;
        Script s(N);
        for (uint32_t i = 0; i < N; i++)
            s.need[i] = 1 + (int)(i % 3);
        pn_budget b = pn_budget_make(60.0, nullptr, 0);
        ex_passes_stats st = {};
        pn_error err;
        pn_error_clear(&err);
        ASSERT_EQ(ex_passes_run(n.cn.get(), &b, N, workers, &kOps, &s, &st, &err), PN_OK);
        EXPECT_EQ(st.workers, workers);
        EXPECT_EQ(s.overlaps.load(), 0);
        EXPECT_EQ(s.order_errors.load(), 0);
        for (uint32_t i = 0; i < N; i++) {
            EXPECT_EQ(s.done[i], s.need[i] - 1) << "formula " << i << ", " << workers;
            EXPECT_EQ(s.turns[i], s.need[i]) << "formula " << i << ", " << workers;
        }
    }
}

TEST(Passes, UntimedRunsGiveEveryFormulaItsTurnInEachPass)
{
    Net n = ring();
    Script s(10);
    for (auto &k : s.need)
        k = 3;
    ex_passes_stats st = {};
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(ex_passes_run(n.cn.get(), nullptr, 10, 2, &kOps, &s, &st, &err), PN_OK);
    EXPECT_EQ(s.order_errors.load(), 0);
    for (uint32_t i = 0; i < 10; i++) {
        EXPECT_EQ(s.done[i], 2);
        EXPECT_EQ(s.turns[i], 3);
    }
}

TEST(Passes, CommitCanStopTheHandingOut)
{
    Net n = ring();
    const uint32_t N = 30;
    Script s(N);
    for (auto &k : s.need)
        k = 1;
    s.stop_after = 5;
    pn_budget b = pn_budget_make(60.0, nullptr, 0);
    ex_passes_stats st = {};
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(ex_passes_run(n.cn.get(), &b, N, 1, &kOps, &s, &st, &err), PN_OK);
    EXPECT_EQ(s.commits, 5);
    uint32_t settled = 0;
    for (uint32_t i = 0; i < N; i++)
        settled += s.done[i] >= 0;
    EXPECT_EQ(settled, 5u);
}

// ex_otf_local's workers against pn_examine without a deadline (the probe's
// complete exploration and the graph checker, ctl.c): every answer the
// workers give must be the graph's, and with a minute for a few small
// formulas they give all.
TEST(Passes, CtlWorkersAgreeWithTheGraphChecker)
{
    std::mt19937_64 rng(2533);
    uint32_t nets = 0, answers = 0;
    for (int k = 0; k < 300; k++) {
        CtlCase cc;
        if (!ctl_case(rng, 6, &cc))
            continue;
        nets++;
        const pn_cnet *cn = cc.net.cn.get();
        pn_exam exam = cc.exam;
        const pn_fml_set *set = cc.set.get();
        pn_error err;
        pn_error_clear(&err);
        uint32_t workers = 1u << (k % 3);
        pn_check *c = nullptr;
        ASSERT_EQ(pn_check_new(cn, exam, set, workers, &c, &err), PN_OK) << err.msg;
        pn_examine_opts opts = {};
        ex_sched s = {};
        s.opts = &opts;
        pn_engine_result res;
        memset(&res, 0, sizeof res);
        ex_job j;
        ASSERT_EQ(ex_job_init(&j, &s, "test", cn, exam, set, c, &res, &err), PN_OK);
        pn_budget b = pn_budget_make(60.0, nullptr, 0);
        pn_check_finish(c, nullptr); /* state formulas: decided at m0 */
        /* Once a worker has met every state the step hands the rest to the
         * graph (ex_graph_now): called again, it goes on. */
        for (int round = 0; round < 6 && pn_check_open_count(c) > 0; round++)
            EXPECT_EQ(ex_otf_local(&j, &b, workers), PN_OK);
        ex_job_free(&j);
        for (uint32_t i = 0; i < set->n; i++) {
            pn_verdict want = cc.want[i];
            pn_verdict got = pn_check_answer(c, i)->verdict;
            answers += got != PN_VERDICT_UNKNOWN;
            if (got != PN_VERDICT_UNKNOWN && got != want) {
                char *str = pn_fml_to_string(set->props[i].root, nullptr);
                ADD_FAILURE() << str << ": " << workers << " workers " << got << ", graph "
                              << want;
                free(str);
            }
        }
        pn_check_free(c);
        pn_engine_result_free(&res);
    }
    EXPECT_GE(nets, 250u);
    EXPECT_EQ(answers, 6 * nets);
}

// The workers' spaces share one memory account (pn_lazy_pool): a space
// grows until the pool is full, not to a fixed part of it; another space
// then fits nothing that much, and gets the room back when the first is
// freed; the account returns to zero.
TEST(Passes, SpacesShareOneMemoryAccount)
{
    RandomNetSpec spec; /* one place that a source transition fills forever */
    spec.m0 = {0};
    spec.n_trans = 1;
    spec.arcs.push_back({0, 0, false, 1});
    Net n = build(spec);
    const uint64_t cap = 4u << 20;
    pn_lazy_pool pool = {cap, 0};
    pn_error err;
    pn_error_clear(&err);
    pn_lazy *a = nullptr, *b = nullptr;
    ASSERT_EQ(pn_lazy_new(n.cn.get(), 0, &a, &err), PN_OK);
    ASSERT_EQ(pn_lazy_new(n.cn.get(), 0, &b, &err), PN_OK);
    pn_lazy_join_pool(a, &pool);
    pn_lazy_join_pool(b, &pool);
    uint64_t b_alone = pn_lazy_bytes(b);
    pn_status st = PN_OK;
    for (uint32_t s = 0; st == PN_OK && s < pn_lazy_states(a); s++) {
        const uint32_t *succ;
        uint32_t k;
        st = pn_lazy_succ(a, s, &succ, &k, &err);
    }
    EXPECT_EQ(st, PN_ERR_OUT_OF_MEMORY);
    EXPECT_GT(pn_lazy_bytes(a), cap / 4) << "a space may take more than an equal part";
    EXPECT_LE(pool.used, cap);
    EXPECT_EQ(pool.used, pn_lazy_bytes(a) + b_alone);
    EXPECT_FALSE(pn_lazy_fits(b, cap - pn_lazy_bytes(a)));
    pn_lazy_free(a);
    EXPECT_EQ(pool.used, b_alone);
    EXPECT_TRUE(pn_lazy_fits(b, cap / 2)); /* reserved now */
    EXPECT_EQ(pool.used, b_alone + cap / 2);
    EXPECT_FALSE(pn_lazy_pool_full(&pool));
    /* The earlier reservation settles first (b took nothing), then b
     * reserves all that is left. */
    EXPECT_TRUE(pn_lazy_fits(b, cap - b_alone));
    EXPECT_TRUE(pn_lazy_pool_full(&pool)) << "a new member would not get a byte";
    pn_lazy_free(b);
    EXPECT_EQ(pool.used, 0u);
    EXPECT_FALSE(pn_lazy_pool_full(&pool));
    EXPECT_FALSE(pn_lazy_pool_full(nullptr));
    pn_lazy_pool unlimited = {0, cap};
    EXPECT_FALSE(pn_lazy_pool_full(&unlimited));
}
