// petrel batch, run as a process: the JSON Lines records (checked with
// python3's json module), --resume adding nothing, a batch killed mid-way
// and resumed ending with the same records as one never interrupted, a cut
// last line run again, and a model that does not parse recorded as an error
// while the batch goes on.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace {

const std::string kCli = PETREL_CLI_PATH;
const std::string kSrc = PETREL_SOURCE_DIR;

std::string quote(const std::string &s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string slurp(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

size_t count_lines(const std::string &s)
{
    size_t n = 0;
    for (char c : s)
        n += c == '\n';
    return n;
}

class Batch : public ::testing::Test {
protected:
    std::string dir;
    // Three hand-checked models (models/README.md), two examinations.
    std::string models = quote(kSrc + "/models/dining3") + " " + quote(kSrc + "/models/mutex2") +
                         " " + quote(kSrc + "/models/producer-consumer");
    std::string exams = "-e StateSpace,ReachabilityDeadlock";
    std::string limits = "--jobs 1 --threads 1 --memory 1G --timeout 30 -q";

    void SetUp() override
    {
        char tmpl[] = "/tmp/petrel_batch_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir = tmpl;
    }
    void TearDown() override
    {
        if (!dir.empty()) {
            EXPECT_EQ(system(("rm -rf " + quote(dir)).c_str()), 0);
        }
    }
    int sh(const std::string &cmd)
    {
        int st = system(cmd.c_str());
        return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    }
    int batch(const std::string &args)
    {
        return sh(quote(kCli) + " batch " + args + " 2>" + quote(dir + "/stderr"));
    }
    // Every line a JSON object (python3 -m json.tool's parser), one printed
    // per line: the fields that do not depend on timing, keys sorted, lines
    // sorted (runs end in any order).
    std::string normalized(const std::string &file)
    {
        std::string py =
            "import json,sys\n"
            "rows=[]\n"
            "for line in open(sys.argv[1]):\n"
            "    r=json.loads(line)\n"
            "    for k in ('time_s','peak_memory_mb','options'): r.pop(k)\n"
            "    rows.append(json.dumps(r,sort_keys=True))\n"
            "print('\\n'.join(sorted(rows)))\n";
        std::string script = dir + "/norm.py", out = dir + "/norm.out";
        std::ofstream(script) << py;
        EXPECT_EQ(sh("python3 " + quote(script) + " " + quote(file) + " >" + quote(out)), 0)
            << slurp(file);
        return slurp(out);
    }
};

TEST_F(Batch, RecordsEveryRunAndResumeAddsNothing)
{
    std::string out = dir + "/r.jsonl", csv = dir + "/r.csv";
    ASSERT_EQ(batch(limits + " " + exams + " --out " + quote(out) + " --csv " + quote(csv) + " " +
                    models),
              0)
        << slurp(dir + "/stderr");
    std::string text = slurp(out);
    ASSERT_EQ(count_lines(text), 6u) << text;
    std::string norm = normalized(out);
    // the hand-counted answers (models/README.md)
    for (const char *want :
         {"\"STATES\": {\"techniques\": [\"EXPLICIT\"", "\"value\": \"14\"", "\"value\": \"8\"",
          "\"value\": \"16\""})
        EXPECT_NE(norm.find(want), std::string::npos) << want << "\n" << norm;
    EXPECT_EQ(norm.find("\"status\": \"error\""), std::string::npos) << norm;
    EXPECT_NE(norm.find("\"ReachabilityDeadlock\": {\"techniques\""), std::string::npos) << norm;
    std::string csv_text = slurp(csv);
    EXPECT_EQ(csv_text.rfind("path,model,examination,formula,value", 0), 0u) << csv_text;
    EXPECT_EQ(count_lines(csv_text), 1u + 3 * 4 + 3 * 1) << csv_text;

    ASSERT_EQ(batch(limits + " " + exams + " --resume --out " + quote(out) + " --csv " +
                    quote(csv) + " " + models),
              0)
        << slurp(dir + "/stderr");
    EXPECT_EQ(slurp(out), text) << "--resume ran something again";
    EXPECT_EQ(slurp(csv), csv_text);
    // without --resume an existing file is never overwritten
    EXPECT_EQ(batch(limits + " " + exams + " --out " + quote(out) + " " + models), 2);
    EXPECT_EQ(slurp(out), text);
}

// The batch is killed (SIGKILL) while a run is in flight: the file holds
// the finished runs only, and --resume completes it to what one
// uninterrupted batch writes.
TEST_F(Batch, KillAndResumeEqualsUninterrupted)
{
    std::string whole = dir + "/whole.jsonl", cut = dir + "/cut.jsonl";
    ASSERT_EQ(batch(limits + " " + exams + " --out " + quote(whole) + " " + models), 0)
        << slurp(dir + "/stderr");

    // A petrel that hangs on mutex2 (the second model), so that the kill
    // lands while that run is in flight.
    std::string slow = dir + "/slow-petrel";
    std::ofstream(slow) << "#!/bin/sh\ncase \"$*\" in *mutex2*) exec sleep 60;; esac\nexec "
                        << quote(kCli) << " \"$@\"\n";
    ASSERT_EQ(chmod(slow.c_str(), 0755), 0);
    std::string pidfile = dir + "/pid";
    std::string cmd = "sh -c 'echo $$ >" + dir + "/pid; exec " + kCli + " batch " + limits +
                      " " + exams + " --petrel " + slow + " --out " + cut + " " + models +
                      "' 2>/dev/null &";
    ASSERT_EQ(sh(cmd), 0);
    auto t0 = std::chrono::steady_clock::now();
    while (count_lines(slurp(cut)) < 2 &&
           std::chrono::steady_clock::now() - t0 < std::chrono::seconds(60))
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::this_thread::sleep_for(std::chrono::milliseconds(300)); /* mutex2 is running */
    pid_t pid = (pid_t)std::stol(slurp(pidfile));
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::string partial = slurp(cut);
    EXPECT_EQ(count_lines(partial), 2u) << partial;
    EXPECT_EQ(partial.back(), '\n');

    ASSERT_EQ(batch(limits + " " + exams + " --resume --out " + quote(cut) + " " + models), 0)
        << slurp(dir + "/stderr");
    EXPECT_EQ(slurp(cut).compare(0, partial.size(), partial), 0) << "resume kept what was there";
    EXPECT_EQ(normalized(cut), normalized(whole));
}

// A write cut short leaves a last line without its newline: --resume cuts
// it off and runs that run again.
TEST_F(Batch, ResumeRunsACutLineAgain)
{
    std::string out = dir + "/r.jsonl";
    ASSERT_EQ(batch(limits + " -e ReachabilityDeadlock --out " + quote(out) + " " + models), 0);
    std::string full = slurp(out);
    ASSERT_EQ(count_lines(full), 3u);
    size_t second = full.find('\n') + 1;
    std::ofstream(out, std::ios::binary | std::ios::trunc)
        << full.substr(0, second) << full.substr(second, 40);
    ASSERT_EQ(batch(limits + " -e ReachabilityDeadlock --resume --out " + quote(out) + " " + models),
              0)
        << slurp(dir + "/stderr");
    EXPECT_EQ(count_lines(slurp(out)), 3u) << slurp(out);
    std::string whole = dir + "/whole.jsonl";
    ASSERT_EQ(batch(limits + " -e ReachabilityDeadlock --out " + quote(whole) + " " + models), 0);
    EXPECT_EQ(normalized(out), normalized(whole));
}

// A model that does not parse is one error record; the others still run.
TEST_F(Batch, MalformedModelIsAnErrorAndTheBatchGoesOn)
{
    std::string bad = dir + "/broken";
    ASSERT_EQ(mkdir(bad.c_str(), 0755), 0);
    std::ofstream(bad + "/model.pnml") << "<pnml><net id=\"x\" type=\"ptnet\"><place id=\"p\"";
    std::string list = dir + "/models.txt";
    std::ofstream(list) << "# a list file\nbroken\n" << kSrc << "/models/mutex2\n";
    std::string out = dir + "/r.jsonl";
    ASSERT_EQ(batch(limits + " -e ReachabilityDeadlock --out " + quote(out) + " " + quote(list)), 0)
        << slurp(dir + "/stderr");
    std::string norm = normalized(out);
    ASSERT_EQ(count_lines(slurp(out)), 2u) << norm;
    EXPECT_NE(norm.find("\"status\": \"error\""), std::string::npos) << norm;
    EXPECT_NE(norm.find("model.pnml"), std::string::npos) << "the message names the file\n" << norm;
    EXPECT_NE(norm.find("\"ReachabilityDeadlock\": {\"techniques\""), std::string::npos) << norm;
    EXPECT_NE(norm.find("\"status\": \"ok\""), std::string::npos) << norm;
}

TEST_F(Batch, UsageErrors)
{
    EXPECT_EQ(batch("--out " + quote(dir + "/r.jsonl")), 2) << "no model";
    EXPECT_EQ(batch(quote(kSrc + "/models/mutex2")), 2) << "no --out";
    EXPECT_EQ(batch("-e NoSuchExam --out " + quote(dir + "/r.jsonl") + " " +
                    quote(kSrc + "/models/mutex2")),
              2);
    EXPECT_EQ(batch("--out " + quote(dir + "/r.jsonl") + " " + quote(dir + "/absent")), 2);
    EXPECT_EQ(sh(quote(kCli) + " batch --help >/dev/null"), 0);
}

} // namespace
