// An MCMT instance against the 1-safe net it is written as (pn_mcmt_space_net):
// the net's reachable markings, counted by the P/T module under the same
// on-demand space, are the instance's states (one more where a "start"
// transition picks one of several initial states). The net has one
// transition per valuation of what a transition reads or writes, so a read
// or write set that misses a cell shows here as a different count: the
// same sets the module gives partial-order reductions. Then petrel mcmt
// from the command line: its lines, its trace, its errors.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include "petrel/cnet.h"
#include "petrel/lazy.h"
#include "petrel/mcmt.h"
}

#include "test_files.h"

namespace {

std::string models(const std::string &f) { return std::string(PETREL_SOURCE_DIR) + "/" + f; }

// Every state reachable in sp from its initial states (extra: the MCMT
// instance's further initial states), by expanding ids in order.
uint64_t count_states(pn_space *sp, bool mcmt_roots)
{
    pn_error err{};
    pn_lazy *z = nullptr;
    std::vector<uint64_t> s(pn_space_words(sp));
    pn_space *owned = sp;
    if (pn_lazy_new_space(owned, 0, &z, &err) != PN_OK) {
        ADD_FAILURE() << err.msg;
        return 0;
    }
    uint64_t cursor = 1;
    while (mcmt_roots && pn_mcmt_initial_next(sp, &cursor, s.data())) {
        uint32_t id;
        bool is_new;
        EXPECT_EQ(pn_lazy_insert(z, s.data(), &id, &is_new, &err), PN_OK) << err.msg;
    }
    for (uint64_t k = 0; k < pn_lazy_states(z); k++) {
        const uint32_t *succ;
        uint32_t n;
        if (pn_lazy_succ(z, (uint32_t)k, &succ, &n, &err) != PN_OK) {
            ADD_FAILURE() << err.msg;
            break;
        }
        pn_lazy_release(z, (uint32_t)k);
    }
    uint64_t states = pn_lazy_states(z);
    pn_lazy_free(z);
    return states;
}

struct NetCase {
    const char *file;
    uint32_t procs;
    int64_t from, lo, hi;
};

// The instance's states and its net's, the net's "start" state left out.
void expect_net_has_the_states(const pn_mcmt_sys *sys, pn_mcmt_bound b, const std::string &what)
{
    pn_error err{};
    pn_space *sp = nullptr, *sp2 = nullptr;
    ASSERT_EQ(pn_mcmt_space_new(sys, b, &sp, &err), PN_OK) << what << ": " << err.msg;
    ASSERT_EQ(pn_mcmt_space_new(sys, b, &sp2, &err), PN_OK) << what << ": " << err.msg;
    uint64_t roots = 0, cursor = 0;
    std::vector<uint64_t> s(pn_space_words(sp2));
    while (pn_mcmt_initial_next(sp2, &cursor, s.data()))
        roots++;
    pn_net *net = nullptr;
    ASSERT_EQ(pn_mcmt_space_net(sp2, &net, &err), PN_OK) << what << ": " << err.msg;
    pn_space_free(sp2);
    pn_cnet *cn = nullptr;
    ASSERT_EQ(pn_cnet_compile(net, &cn, &err), PN_OK) << what << ": " << err.msg;
    pn_space *pt = nullptr;
    ASSERT_EQ(pn_space_pt_new(cn, &pt, &err), PN_OK) << err.msg;
    uint64_t instance = count_states(sp, true);
    uint64_t in_net = count_states(pt, false);
    EXPECT_GT(instance, 0u) << what;
    EXPECT_EQ(in_net, instance + (roots > 1 ? 1 : 0)) << what << ": " << roots << " roots";
    pn_cnet_free(cn);
    pn_net_free(net);
}

} // namespace

TEST(McmtNet, BundledModelsHaveTheirStatesInTheirNets)
{
    const NetCase cases[] = {
        {"models/mcmt/guided_example.in", 2, 0, 0, 2},
        {"models/mcmt/guided_example.in", 3, 0, 0, 3},
        {"tools/bench/mcmt/counters.in", 3, 1, 0, 4},
    };
    for (const NetCase &c : cases) {
        pn_mcmt_sys *sys = nullptr;
        pn_error err{};
        ASSERT_EQ(pn_mcmt_read_file(models(c.file).c_str(), &sys, &err), PN_OK) << err.msg;
        expect_net_has_the_states(sys, {c.procs, c.from, c.lo, c.hi},
                                  std::string(c.file) + " N=" + std::to_string(c.procs));
        pn_mcmt_free(sys);
    }
}

// Cases that read and write other processes' cells (a universal guard, a
// case on j that changes it, a process that crashes, two bound processes):
// the read and write sets have more to get right than x's own cells.
TEST(McmtNet, SystemsThatReadAndWriteOtherProcessesHaveTheirStatesInTheirNets)
{
    const char *text =
        ":smt (define-type loc (subrange 1 3))\n"
        ":local pc loc\n:local f bool\n:global g nat\n"
        ":initial\n:var x\n:cnj (= pc[x] 1) (= f[x] false) (= g 0)\n"
        ":unsafe\n:var z1\n:cnj (= pc[z1] 4)\n"
        ":comment enter\n:transition\n:var x\n:var j\n:guard (= pc[x] 1)\n"
        ":uguard (= pc[j] 1)\n:uguard (= f[j] true)\n"
        ":numcases 2\n:case (= x j)\n:val 2\n:val true\n:val (ite (< g 3) (+ g 1) 0)\n"
        ":case\n:val pc[j]\n:val f[j]\n:val (ite (< g 3) (+ g 1) 0)\n"
        ":comment kick\n:transition\n:var x\n:var y\n:var j\n:guard (= pc[x] 2) (= pc[y] 1)\n"
        ":numcases 3\n:case\n:val 3\n:val f[j]\n:val g\n"
        ":case (= j y)\n:val 2\n:val false\n:val g\n"
        ":case (not (= j y))\n:val pc[j]\n:val f[j]\n:val g\n"
        ":comment reset\n:transition\n:var x\n:var j\n:guard (= pc[x] 3)\n"
        ":numcases 2\n:case\n:val 1\n:val false\n:val 0\n"
        ":case (= f[j] true)\n:val 1\n:val false\n:val 0\n";
    pn_mcmt_sys *sys = nullptr;
    pn_error err{};
    ASSERT_EQ(pn_mcmt_read_text(text, strlen(text), &sys, &err), PN_OK) << err.msg;
    for (uint32_t n = 1; n <= 3; n++)
        expect_net_has_the_states(sys, {n, 1, 0, 4}, "N=" + std::to_string(n));
    pn_mcmt_free(sys);
}

namespace {

std::string petrel_mcmt(const std::string &args, int *code)
{
    std::string out = petrel_test::run_capture(std::string(PETREL_CLI_PATH) + " mcmt " + args +
                                               " 2>&1; echo rc=$?");
    size_t at = out.rfind("rc=");
    *code = at == std::string::npos ? -1 : std::stoi(out.substr(at + 3));
    return out.substr(0, at);
}

} // namespace

TEST(McmtCli, PrintsALinePerInstanceAndATraceAfterUnsafe)
{
    int code;
    std::string out = petrel_mcmt("--procs 1..3 --index-from 0 --int-range 0..N -q " +
                                      petrel_test::quote(models("models/mcmt/guided_example.in")),
                                  &code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_NE(out.find("procs=1 answer=SAFE states=9 transitions=8 "), std::string::npos) << out;
    EXPECT_NE(out.find("procs=2 answer=SAFE states=88 transitions=84 "), std::string::npos)
        << out;
    EXPECT_NE(out.find("procs=3 answer=SAFE states=1065 transitions=1044 "), std::string::npos)
        << out;
    // One more than N in --int-range lets a_length pass the cells: a[N] is
    // read, and the search says it cannot prove the instance safe.
    out = petrel_mcmt("--procs 2 --index-from 0 --int-range 0..N+1 " +
                          petrel_test::quote(models("models/mcmt/guided_example.in")),
                      &code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_NE(out.find("procs=2 answer=UNKNOWN"), std::string::npos) << out;
    EXPECT_NE(out.find("a[2] is read, outside the processes 0..1"), std::string::npos) << out;

    char tmpl[] = "/tmp/petrel_mcmt_XXXXXX";
    int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    // A lock tested and then set in two steps: both processes pass the test.
    const std::string racy =
        ":smt (define-type loc (subrange 1 3))\n:local pc loc\n:global lock bool\n"
        ":initial\n:var x\n:cnj (= pc[x] 1) (= lock false)\n"
        ":unsafe\n:var z1\n:var z2\n:cnj (= pc[z1] 3) (= pc[z2] 3)\n"
        ":comment test\n:transition\n:var x\n:var j\n:guard (= pc[x] 1) (= lock false)\n"
        ":numcases 2\n:case (= x j)\n:val 2\n:val lock\n:case\n:val pc[j]\n:val lock\n"
        ":comment set\n:transition\n:var x\n:var j\n:guard (= pc[x] 2)\n"
        ":numcases 2\n:case (= x j)\n:val 3\n:val true\n:case\n:val pc[j]\n:val true\n";
    ASSERT_EQ(write(fd, racy.data(), racy.size()), (ssize_t)racy.size());
    close(fd);
    out = petrel_mcmt(std::string("--procs 2 -q ") + tmpl, &code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_NE(out.find("procs=2 answer=UNSAFE states="), std::string::npos) << out;
    EXPECT_NE(out.find(" depth=4\n"), std::string::npos) << out;
    EXPECT_NE(out.find("initial: pc[1]=1 pc[2]=1 lock=0\n"), std::string::npos) << out;
    EXPECT_NE(out.find("\n3: set x="), std::string::npos) << out;
    EXPECT_NE(out.find("\n4: set x="), std::string::npos) << out;
    unlink(tmpl);
}

TEST(McmtCli, RefusesWhatItCannotReadWithTheLine)
{
    char tmpl[] = "/tmp/petrel_mcmt_XXXXXX";
    int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    const std::string bad = ":local a int\n:initial\n:var x\n:cnj (= a[x] 0)\n"
                            ":transition\n:var x\n:var j\n:guard (= (- a[x] 1) 0)\n";
    ASSERT_EQ(write(fd, bad.data(), bad.size()), (ssize_t)bad.size());
    close(fd);
    int code;
    std::string out = petrel_mcmt(std::string("--procs 2 ") + tmpl, &code);
    EXPECT_EQ(code, 2) << out;
    EXPECT_NE(out.find(std::string(tmpl) + ": line 8: subtraction is not MCMT's"),
              std::string::npos)
        << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
    out = petrel_mcmt(std::string("--procs 2..3 --write-pnml /dev/null ") + tmpl, &code);
    EXPECT_EQ(code, 2) << out;
    out = petrel_mcmt("--procs 2 /nonexistent/file.in", &code);
    EXPECT_EQ(code, 2) << out;
    EXPECT_NE(out.find("/nonexistent/file.in: "), std::string::npos) << out;
    unlink(tmpl);
}

// The walks' kept enabled sets (pn_space_enset) over an MCMT instance: after
// each step only the transitions that read a cell the fired one writes (the
// module's may-enable and may-disable relations) are tested again, and the
// set must equal the enabled transitions listed afresh, on every bundled
// model at N = 3 and on walks of a few hundred steps.
TEST(McmtSpace, KeptEnabledSetsFollowRandomWalksOnEveryModel)
{
    const char *files[] = {"bakery_bw.in", "burns.in", "dijkstra.in", "german.in",
                           "hyman.in", "second_attempt.in", "szymanski.in"};
    std::mt19937_64 rng(20261201);
    uint64_t steps = 0, tested_again = 0, every = 0;
    for (const char *f : files) {
        pn_mcmt_sys *sys = nullptr;
        pn_error err{};
        ASSERT_EQ(pn_mcmt_read_file(models(std::string("models/mcmt/") + f).c_str(), &sys, &err),
                  PN_OK)
            << err.msg;
        pn_space *sp = nullptr;
        ASSERT_EQ(pn_mcmt_space_new(sys, {3, 1, 1, 3}, &sp, &err), PN_OK) << f << ": " << err.msg;
        pn_space_enset e;
        ASSERT_EQ(pn_space_enset_init(sp, &e, &err), PN_OK) << err.msg;
        e.refill_above = UINT32_MAX; // every step through the relations
        uint32_t W = pn_space_words(sp), T = pn_space_transitions(sp);
        std::vector<uint64_t> s(W), next(W);
        std::vector<uint32_t> fresh(T + 1);
        for (int walk = 0; walk < 20; walk++) {
            pn_space_initial(sp, s.data());
            pn_space_enset_fill(sp, &e, s.data());
            for (int step = 0; step < 200 && e.n > 0; step++) {
                uint32_t t = e.list[rng() % e.n];
                pn_space_fire(sp, s.data(), t, next.data());
                pn_space_enset_fired(sp, &e, next.data(), t);
                uint32_t n = pn_space_enabled(sp, next.data(), fresh.data());
                std::set<uint32_t> want(fresh.begin(), fresh.begin() + n);
                std::set<uint32_t> have(e.list, e.list + e.n);
                ASSERT_EQ(have, want) << f << ", walk " << walk << ", step " << step;
                tested_again += e.en.off[t + 1] - e.en.off[t] + e.dis.off[t + 1] - e.dis.off[t];
                every += 2 * (uint64_t)T;
                s.swap(next);
                steps++;
            }
        }
        pn_space_enset_free(&e);
        pn_space_free(sp);
        pn_mcmt_free(sys);
    }
    EXPECT_GT(steps, 10000u);
    // The relations are not the whole net: a step tests again fewer
    // transitions than there are (on average, over the models).
    std::printf("kept enabled sets: %llu steps, %llu transitions tested again of %llu\n",
                (unsigned long long)steps, (unsigned long long)tested_again,
                (unsigned long long)every);
    EXPECT_LT(tested_again * 2, every);
}
