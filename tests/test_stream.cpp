// Streamed answers (pn_check_on_decide through pn_examine_opts.on_decide): on real MCC
// instances and every examination, the listener hears each decided answer exactly once,
// with the value the final report gives it, and never an answer the report leaves
// UNKNOWN (whichever path decided it: the initial marking, the linear layer, a
// witness in a 2-thread exploration, the complete run, the graph or LTL passes, the
// coloured global properties).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <sys/stat.h>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/examine.h"
#include "petrel/formula.h"
#include "petrel/mcc.h"
#include "petrel/pnml.h"
#include "test_ptrs.h"

namespace {

const std::string kMcc = std::string(PETREL_SHARED_DIR) + "/mcc";

struct Heard {
    std::mutex lock;
    std::map<uint32_t, int> calls;
    std::map<uint32_t, pn_verdict> verdict;
    std::map<uint32_t, uint64_t> value;
};

void hear(void *ctx, const pn_check *c, uint32_t i)
{
    Heard *h = static_cast<Heard *>(ctx);
    const pn_answer *a = pn_check_answer(c, i);
    std::lock_guard<std::mutex> g(h->lock);
    h->calls[i]++;
    h->verdict[i] = a->verdict;
    h->value[i] = a->value;
}

struct ReportDel {
    void operator()(pn_report *r) const { pn_report_free(r); }
};

void check_stream(const std::string &instance, pn_exam exam)
{
    std::string dir = kMcc + "/" + instance;
    struct stat sb;
    if (stat(dir.c_str(), &sb) != 0)
        GTEST_SKIP() << dir << " is absent";
    SCOPED_TRACE(instance + " " + pn_exam_name(exam));
    pn_error err;
    pn_error_clear(&err);
    pn_net *nraw = nullptr;
    ASSERT_EQ(pn_pnml_read_file((dir + "/model.pnml").c_str(), nullptr, &nraw, &err), PN_OK)
        << err.msg;
    NetPtr net(nraw);
    pn_cnet *cnraw = nullptr;
    ASSERT_EQ(pn_cnet_compile(net.get(), &cnraw, &err), PN_OK) << err.msg;
    CnetPtr cn(cnraw);
    SetPtr set;
    if (const char *file = pn_exam_formula_file(exam)) {
        pn_fml_set *sraw = nullptr;
        ASSERT_EQ(pn_fml_read_file((dir + "/" + file).c_str(), net.get(), &sraw, &err), PN_OK)
            << err.msg;
        set.reset(sraw);
        ASSERT_EQ(pn_fml_set_simplify(set.get(), &err), PN_OK) << err.msg;
    }
    Heard h;
    pn_examine_opts o;
    memset(&o, 0, sizeof o);
    o.explore.threads = 2;
    o.engine = PN_ENGINE_CPU;
    o.on_decide = hear;
    o.on_decide_ctx = &h;
    pn_budget budget = pn_budget_make(60, nullptr, 0);
    pn_report *rraw = nullptr;
    ASSERT_EQ(pn_examine(cn.get(), exam, set.get(), &o, &budget, &rraw, &err), PN_OK) << err.msg;
    std::unique_ptr<pn_report, ReportDel> rep(rraw);
    ASSERT_NE(rep->check, nullptr);
    uint32_t decided = 0;
    for (uint32_t i = 0; i < pn_check_count(rep->check); i++) {
        const pn_answer *a = pn_check_answer(rep->check, i);
        if (a->verdict == PN_VERDICT_UNKNOWN) {
            EXPECT_EQ(h.calls.count(i), 0u) << a->id << " streamed but left UNKNOWN";
            continue;
        }
        decided++;
        ASSERT_EQ(h.calls[i], 1) << a->id;
        EXPECT_EQ(h.verdict[i], a->verdict) << a->id;
        if (a->verdict == PN_VERDICT_VALUE) {
            EXPECT_EQ(h.value[i], a->value) << a->id;
        }
    }
    EXPECT_GT(decided, 0u);
    EXPECT_EQ(h.calls.size(), decided);
}

} // namespace

TEST(Stream, EveryExaminationOnPhilosophers5)
{
    for (int e = 0; e < PN_EXAM_COUNT; e++)
        if (e != PN_EXAM_STATE_SPACE)
            check_stream("Philosophers-PT-000005", (pn_exam)e);
}

TEST(Stream, FormulasOnDekkerAndTokenRing)
{
    for (const char *inst : {"Dekker-PT-010", "TokenRing-PT-005", "ERK-PT-000010"})
        for (pn_exam e : {PN_EXAM_REACH_CARDINALITY, PN_EXAM_REACH_FIREABILITY,
                          PN_EXAM_UPPER_BOUNDS, PN_EXAM_CTL_CARDINALITY, PN_EXAM_LTL_FIREABILITY})
            check_stream(inst, e);
}

TEST(Stream, ColouredGlobalPropertiesStreamTheFoldedAnswer)
{
    for (pn_exam e : {PN_EXAM_ONE_SAFE, PN_EXAM_QUASI_LIVENESS, PN_EXAM_STABLE_MARKING,
                      PN_EXAM_LIVENESS, PN_EXAM_REACH_DEADLOCK})
        check_stream("Philosophers-COL-000005", e);
}
