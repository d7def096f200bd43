// The command-line tool at its edges, run as a process: a limit of
// "forever", a standard output that cannot be written, an affinity mask
// narrower than the machine, and the BenchKit answer for an examination the
// tool does not know.
#include <gtest/gtest.h>

#include <sched.h>
#include <sys/wait.h>

#include <chrono>
#include <string>

#include "test_cli_run.h"
#include "test_files.h"

namespace {

using petrel_test::quote;
using petrel_test::slurp;

const std::string kCli = PETREL_CLI_PATH;
const std::string kDining = std::string(PETREL_SOURCE_DIR) + "/models/dining3";
const std::string kKanban = std::string(PETREL_SHARED_DIR) + "/mcc/Kanban-PT-00010";

using Ran = petrel_test::CliRun;

// sh -c "env CLEAN ENV <launcher> petrel ARGS >OUT 2>ERR" with stdout to
// `out_to` (a file name or "/dev/full" or "&-"), stderr to a scratch file.
Ran run_cli(const std::string &args, const std::string &env, const std::string &launcher,
            const std::string &out_to)
{
    char tmpl[] = "/tmp/petrel_edges_XXXXXX";
    EXPECT_NE(mkdtemp(tmpl), nullptr);
    std::string dir = tmpl, out = dir + "/stdout", err = dir + "/stderr";
    std::string redirect = out_to == "&-" ? ">&-" : ">" + quote(out_to.empty() ? out : out_to);
    Ran r = petrel_test::cli_run(petrel_test::cli_command(kCli, args, env, launcher, redirect, err),
                                 out, err);
    EXPECT_EQ(system(("rm -rf " + quote(dir)).c_str()), 0);
    return r;
}

std::string show(const Ran &r)
{
    return "exit " + std::to_string(r.code) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err;
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

} // namespace

// A limit too far to count (inf, 1e30, BK_TIME_CONFINEMENT=inf) is no limit:
// the run answers and ends. (It used to overflow the watchdog's wait: the
// answers came, then the process spun on a core and ignored SIGTERM.)
TEST(CliEdges, AnInfiniteTimeoutIsNoLimit)
{
    for (const char *how : {"--timeout inf", "--timeout 1e30", "BK"}) {
        SCOPED_TRACE(how);
        bool bk = std::string(how) == "BK";
        Ran r = run_cli(std::string(bk ? "" : how) + " -e StateSpace " + quote(kDining),
                        bk ? "BK_TIME_CONFINEMENT=inf" : "", "timeout -s KILL 60", "");
        EXPECT_EQ(r.code, 0) << show(r);
        EXPECT_TRUE(contains(r.out, "STATE_SPACE STATES 14 ")) << show(r);
        EXPECT_LT(r.seconds, 30.0) << show(r);
    }
}

// ... and SIGTERM still ends such a run, with the open answer.
TEST(CliEdges, SigtermEndsARunWithoutALimit)
{
    if (!petrel_test::exists(kKanban))
        GTEST_SKIP() << kKanban << " is absent";
    Ran r = run_cli("--timeout inf --memory 1G --no-dd -e StateSpace " + quote(kKanban), "",
                    "timeout -k 20 -s TERM 1", "");
    EXPECT_EQ(r.code, 124) << show(r); // timeout(1)'s status: it had to send TERM
    EXPECT_EQ(r.out, "CANNOT_COMPUTE\n") << show(r);
    EXPECT_LT(r.seconds, 15.0) << show(r);
}

// Answers that cannot be written are lost: the status says so.
TEST(CliEdges, AnswersThatCannotBeWrittenFailTheRun)
{
    for (const char *to : {"/dev/full", "&-"}) {
        SCOPED_TRACE(to);
        Ran r = run_cli("-e StateSpace " + quote(kDining), "", "", to);
        EXPECT_NE(r.code, 0) << show(r);
        EXPECT_TRUE(contains(r.err, "cannot write")) << show(r);
    }
}

// Without --threads the workers are as many as the cores the affinity mask
// allows (taskset, a batch slot), not the machine's.
TEST(CliEdges, DefaultThreadsFollowTheAffinityMask)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
        if (CPU_ISSET(c, &set))
            first = c;
    ASSERT_GE(first, 0);
    Ran r = run_cli("-v --no-dd -e StateSpace " + quote(kDining), "", // the engine's workers
                    "taskset -c " + std::to_string(first), "");
    EXPECT_EQ(r.code, 0) << show(r);
    EXPECT_TRUE(contains(r.err, " 1 thread(s)")) << show(r);
    EXPECT_FALSE(contains(r.err, " 2 thread(s)")) << show(r);
}

// A BenchKit run of an examination Petrel does not know answers the
// contest's DO_NOT_COMPETE on stdout, and says why on stderr; -e with an
// unknown name stays a usage error with nothing on stdout.
TEST(CliEdges, AnUnknownBenchKitExaminationDoesNotCompete)
{
    Ran r = run_cli(quote(kDining), "BK_EXAMINATION=NoSuchExamination", "", "");
    EXPECT_EQ(r.code, 2) << show(r);
    EXPECT_EQ(r.out, "DO_NOT_COMPETE\n") << show(r);
    EXPECT_TRUE(contains(r.err, "NoSuchExamination")) << show(r);
    Ran e = run_cli("-e NoSuchExamination " + quote(kDining), "", "", "");
    EXPECT_EQ(e.code, 2) << show(e);
    EXPECT_EQ(e.out, "") << show(e);
}

// A bad --memory says what a size looks like.
TEST(CliEdges, ABadMemorySizeNamesTheUnits)
{
    Ran r = run_cli("--memory 5X -e StateSpace " + quote(kDining), "", "", "");
    EXPECT_EQ(r.code, 2) << show(r);
    EXPECT_TRUE(contains(r.err, "'5X'")) << show(r);
    EXPECT_TRUE(contains(r.err, "G or T")) << show(r);
}
