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
#include <sched.h>
#include <set>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "test_files.h"

namespace {

const std::string kCli = PETREL_CLI_PATH;
const std::string kSrc = PETREL_SOURCE_DIR;

using petrel_test::quote;
using petrel_test::slurp;

// The words of the first line of text that starts with first.
std::vector<std::string> row(const std::string &text, const std::string &first)
{
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::vector<std::string> w;
        for (std::string x; words >> x;)
            w.push_back(x);
        if (!w.empty() && w[0] == first)
            return w;
    }
    return {};
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
         {"\"STATES\": {\"techniques\": [\"DECISION_DIAGRAMS\"", "\"value\": \"14\"", "\"value\": \"8\"",
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

// --per-formula: two MCC models, two formula examinations: one JSON object
// per (model, examination, formula), each parsed by python3's json module,
// the answers right against the oracle files; --resume adds nothing.
TEST_F(Batch, PerFormulaLinesOfTwoModelsAndTwoExaminations)
{
    const std::string mcc = std::string(PETREL_SHARED_DIR) + "/mcc";
    const char *const names[] = {"Philosophers-PT-000005", "Dekker-PT-010"};
    std::string two;
    for (const char *n : names) {
        struct stat st;
        if (stat((mcc + "/" + n + "/model.pnml").c_str(), &st) != 0)
            GTEST_SKIP() << mcc << "/" << n << " is absent";
        two += " " + quote(mcc + "/" + n);
    }
    std::string out = dir + "/f.jsonl";
    std::string args = limits + " -e ReachabilityCardinality,UpperBounds --per-formula --out " +
                       quote(out) + two;
    ASSERT_EQ(batch(args), 0) << slurp(dir + "/stderr");
    std::string text = slurp(out);
    EXPECT_EQ(count_lines(text), 2u * (16 + 16)) << text;
    // Each line on its own through json.tool; each answer equal to the
    // oracle's line for that formula.
    std::string py =
        "import json,subprocess,sys\n"
        "bad=0\n"
        "for line in open(sys.argv[1]):\n"
        "    subprocess.run(['python3','-m','json.tool'],input=line.encode(),check=True,\n"
        "                   stdout=subprocess.DEVNULL)\n"
        "    r=json.loads(line)\n"
        "    sfx={'ReachabilityCardinality':'RC','UpperBounds':'UB'}[r['examination']]\n"
        "    want=None\n"
        "    for o in open('%s/'+r['model']+'/'+r['model']+'-'+sfx+'.out'):\n"
        "        w=o.split()\n"
        "        if len(w)>2 and w[0]=='FORMULA' and w[1]==r['formula']: want=w[2]\n"
        "    if r['value'] is not None and want not in (None,'?') and r['value']!=want: bad+=1\n"
        "    if r['status']!='ok' or not r['techniques'] and r['value'] is not None: bad+=1\n"
        "sys.exit(bad)\n";
    char fill[4096];
    snprintf(fill, sizeof fill, py.c_str(), mcc.c_str());
    std::string script = dir + "/check.py";
    std::ofstream(script) << fill;
    EXPECT_EQ(sh("python3 " + quote(script) + " " + quote(out)), 0) << text;
    ASSERT_EQ(batch(args + " --resume"), 0) << slurp(dir + "/stderr");
    EXPECT_EQ(slurp(out), text) << "--resume ran something again";
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

// A formula naming a place the net lacks answers CANNOT_COMPUTE beside the
// others and the child exits 2 (README): the record keeps the run's status
// and answers, with the child's count of unread formulas as its message.
TEST_F(Batch, UnreadableFormulaKeepsTheRunAndSaysSo)
{
    std::string inst = dir + "/mutex2";
    ASSERT_EQ(mkdir(inst.c_str(), 0755), 0);
    ASSERT_EQ(sh("cp " + quote(kSrc + "/models/mutex2/model.pnml") + " " + quote(inst)), 0);
    auto prop = [](const char *id, const char *place) {
        return std::string("<property><id>") + id +
               "</id><formula><exists-path><finally><integer-le><integer-constant>1"
               "</integer-constant><tokens-count><place>" + place +
               "</place></tokens-count></integer-le></finally></exists-path></formula>"
               "</property>\n";
    };
    std::ofstream(inst + "/ReachabilityCardinality.xml")
        << "<?xml version=\"1.0\"?>\n<property-set xmlns=\"http://mcc.lip6.fr/\">\n"
        << prop("M-00", "nosuch") << prop("M-01", "nosuch_either") << "</property-set>\n";
    std::string out = dir + "/r.jsonl";
    ASSERT_EQ(batch(limits + " -e ReachabilityCardinality --out " + quote(out) + " " + quote(inst)),
              0) << slurp(dir + "/stderr");
    std::string norm = normalized(out);
    ASSERT_EQ(count_lines(slurp(out)), 1u) << norm;
    EXPECT_NE(norm.find("\"status\": \"ok\""), std::string::npos) << norm;
    EXPECT_NE(norm.find("\"message\": \"2 of 2 formulas could not be read; they answer "
                        "CANNOT_COMPUTE\""),
              std::string::npos) << norm;
    EXPECT_NE(norm.find("\"M-00\": {\"techniques\": [], \"value\": null}"), std::string::npos)
        << norm;
    EXPECT_NE(norm.find("\"formulas\": 2"), std::string::npos) << norm;
}

// A run that crashes is an error naming its signal; one that outlives its
// time (and its watchdog) is stopped by the batch and recorded as a
// timeout; the batch goes on and records both.
TEST_F(Batch, CrashAndHangAreRecorded)
{
    std::string fake = dir + "/fake-petrel";
    std::ofstream(fake) << "#!/bin/sh\ncase \"$*\" in\n  *dining3*) kill -SEGV $$;;\n"
                           "  *mutex2*) exec sleep 60;;\nesac\nexec "
                        << quote(kCli) << " \"$@\"\n";
    ASSERT_EQ(chmod(fake.c_str(), 0755), 0);
    std::string out = dir + "/r.jsonl";
    auto t0 = std::chrono::steady_clock::now();
    ASSERT_EQ(batch("--jobs 3 --threads 3 --memory 1G --timeout 1 -q -e ReachabilityDeadlock "
                    "--petrel " + quote(fake) + " --out " + quote(out) + " " + models),
              0)
        << slurp(dir + "/stderr");
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::string norm = normalized(out);
    EXPECT_EQ(count_lines(slurp(out)), 3u) << norm;
    EXPECT_NE(norm.find("killed by signal 11"), std::string::npos) << norm;
    EXPECT_NE(norm.find("\"status\": \"timeout\""), std::string::npos) << norm;
    EXPECT_NE(norm.find("killed by petrel batch past its time limit"), std::string::npos) << norm;
    EXPECT_NE(norm.find("\"status\": \"ok\""), std::string::npos) << norm;
    // 1 s budget, 5 s grace, then SIGTERM: not the sleep's 60 s
    EXPECT_LT(s, 30.0);
}

// Runs at once get cores of their own when their threads fit the cores
// (each run pins its workers to the first cores it sees: without shares,
// every run would take core 0), and the whole mask when they do not.
TEST_F(Batch, ConcurrentRunsGetCoresOfTheirOwn)
{
    cpu_set_t mine;
    CPU_ZERO(&mine);
    ASSERT_EQ(sched_getaffinity(0, sizeof mine, &mine), 0);
    const int cpus = CPU_COUNT(&mine);
    std::string fake = dir + "/fake-petrel", aff = dir + "/aff";
    std::ofstream(fake) << "#!/bin/sh\ncase \"$*\" in\n  *--stats-fd*) grep Cpus_allowed_list "
                           "/proc/self/status >>"
                        << quote(aff) << ";;\nesac\nexec " << quote(kCli) << " \"$@\"\n";
    ASSERT_EQ(chmod(fake.c_str(), 0755), 0);
    int runs = 0;
    auto lists = [&](const std::string &share) {
        std::remove(aff.c_str());
        std::string out = dir + "/r" + std::to_string(runs++) + ".jsonl";
        EXPECT_EQ(batch("--jobs 2 " + share + " --memory 1G --timeout 30 -q -e StateSpace "
                        "--petrel " + quote(fake) + " --out " + quote(out) + " " + models),
                  0)
            << slurp(dir + "/stderr");
        std::vector<std::string> got;
        std::istringstream in(slurp(aff));
        for (std::string line; std::getline(in, line);)
            got.push_back(line.substr(line.find(':') + 1));
        return got;
    };
    // 2 jobs of cpus threads each: more than the cores, so the whole mask
    std::string all = row(slurp("/proc/self/status"), "Cpus_allowed_list:").at(1);
    for (const std::string &l : lists("--threads " + std::to_string(2 * cpus)))
        EXPECT_EQ(l.substr(l.find_first_not_of(" \t")), all);
    if (cpus < 2)
        GTEST_SKIP() << "one allowed CPU: no two runs can have cores of their own";
    std::vector<std::string> one = lists("--threads 2");
    ASSERT_EQ(one.size(), 3u);
    std::set<std::string> distinct;
    for (const std::string &l : one) {
        EXPECT_EQ(l.find_first_of(",-"), std::string::npos) << "one core a run: " << l;
        distinct.insert(l);
    }
    EXPECT_EQ(distinct.size(), 2u) << "the first two runs start together, on cores of their own";
}

// The tools on results files: score.py --results against the hand-checked
// models' expected-StateSpace.out (and a planted wrong answer), another
// tool's MCC lines imported, and the cactus plot of both.
TEST_F(Batch, ScoreImportAndPlotResultsFiles)
{
    std::string out = dir + "/r.jsonl", tools = quote(kSrc + "/tools/mcc");
    ASSERT_EQ(batch(limits + " -e StateSpace --out " + quote(out) + " " + models), 0);
    std::string table = dir + "/score.txt";
    EXPECT_EQ(sh("python3 " + tools + "/score.py --results " + quote(out) + " >" + quote(table)), 0)
        << slurp(table);
    // examination, runs, right, wrong
    EXPECT_EQ(row(slurp(table), "StateSpace"),
              (std::vector<std::string>{"StateSpace", "3", "12", "0", "0", "0", "0", "0", "0", "0",
                                        "12", row(slurp(table), "StateSpace").back()}))
        << slurp(table);

    std::string wrong = dir + "/wrong.jsonl";
    ASSERT_EQ(sh("sed 's/\"STATES\":{\"value\":\"8\"/\"STATES\":{\"value\":\"9\"/' " +
                 quote(out) + " >" + quote(wrong)),
              0);
    EXPECT_EQ(sh("python3 " + tools + "/score.py --results " + quote(wrong) + " >" + quote(table)), 1)
        << slurp(table);
    EXPECT_NE(slurp(table).find("WRONG mutex2"), std::string::npos) << slurp(table);

    std::string log = dir + "/other.log", other = dir + "/other.jsonl";
    std::ofstream(log) << "some tool's chatter\nmutex2 StateSpace 0.25\n"
                          "STATE_SPACE STATES 8 TECHNIQUES DECISION_DIAGRAMS\n"
                          "STATE_SPACE TRANSITIONS 14 TECHNIQUES DECISION_DIAGRAMS\n"
                          "STATE_SPACE MAX_TOKEN_IN_PLACE 1 TECHNIQUES DECISION_DIAGRAMS\n"
                          "STATE_SPACE MAX_TOKEN_PER_MARKING CANNOT_COMPUTE\n";
    ASSERT_EQ(sh("python3 " + tools + "/import-mcc.py --tool other --mcc " + quote(kSrc + "/models") +
                 " --out " + quote(other) + " " + quote(log) + " 2>/dev/null"),
              0);
    EXPECT_EQ(sh("python3 " + tools + "/score.py --results " + quote(other) + " >" + quote(table)), 0);
    std::vector<std::string> r = row(slurp(table), "StateSpace");
    ASSERT_GE(r.size(), 6u) << slurp(table);
    EXPECT_EQ(r[1] + " " + r[2] + " " + r[3] + " " + r[4] + " " + r[5], "1 3 0 1 1")
        << "1 run, 3 right, 0 wrong, 1 unanswered (CANNOT_COMPUTE)\n" << slurp(table);

    std::string svg = dir + "/cactus.svg";
    ASSERT_EQ(sh("python3 " + tools + "/cactus.py --svg " + quote(svg) + " " + quote(out) +
                 ":petrel " + quote(other) + " >" + quote(table)),
              0);
    EXPECT_NE(slurp(table).find("12/12"), std::string::npos) << slurp(table);
    EXPECT_NE(slurp(table).find("3/4"), std::string::npos) << slurp(table);
    std::string picture = slurp(svg);
    EXPECT_EQ(picture.rfind("<svg", 0), 0u);
    EXPECT_NE(picture.find("petrel (12)"), std::string::npos) << picture;
    EXPECT_NE(picture.find("other ? (3)"), std::string::npos) << picture;
}

// tools/mcc/check-properties.py on two instances whose verdict files are
// wrong for them: each disagreement is settled by a second method (the
// OneSafe oracle; a Python enumeration of 832 states), none is Petrel's.
TEST_F(Batch, CheckPropertiesSettlesDisagreements)
{
    std::string mcc = std::string(PETREL_SHARED_DIR) + "/mcc";
    if (!petrel_test::exists(mcc + "/SimpleLoadBal-PT-02"))
        GTEST_SKIP() << mcc << " is absent";
    std::string report = dir + "/check.txt";
    EXPECT_EQ(sh("python3 " + quote(kSrc + "/tools/mcc/check-properties.py") + " --petrel " +
                 quote(kCli) + " --timeout 20 --instance PermAdmissibility-PT-01 "
                 "SimpleLoadBal-PT-02 >" + quote(report) + " 2>&1"),
              0)
        << slurp(report);
    std::string r = slurp(report);
    EXPECT_NE(r.find("PermAdmissibility-PT-01 SAFE: petrel true, verdict file false, second "
                     "method true"),
              std::string::npos)
        << r;
    EXPECT_NE(r.find("SimpleLoadBal-PT-02 REVERSIBLE: petrel true, verdict file false, second "
                     "method true"),
              std::string::npos)
        << r;
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

namespace {

// --verdict-xml: one verdict per formula (16 for a formula examination),
// one per generic property for `petrel properties`, each document valid
// against tools/mcc/propertiesverdict.rng; `petrel properties` agrees with
// the model's verdict file.
class VerdictXml : public Batch {};

size_t count(const std::string &s, const std::string &part)
{
    size_t n = 0;
    for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1))
        n++;
    return n;
}

TEST_F(VerdictXml, OnePerFormulaAndValid)
{
    std::string inst = std::string(PETREL_SHARED_DIR) + "/mcc/Dekker-PT-010";
    struct stat st;
    if (stat(inst.c_str(), &st) != 0)
        GTEST_SKIP() << inst << " is absent";
    bool lint = system("xmllint --version >/dev/null 2>&1") == 0;
    std::string rng = quote(kSrc + "/tools/mcc/propertiesverdict.rng");
    std::string ub = dir + "/ub.xml", props = dir + "/props.xml", table = dir + "/props.txt";
    ASSERT_EQ(sh(quote(kCli) + " -q -e UpperBounds --threads 1 --memory 1G --timeout 60 "
                 "--verdict-xml " + quote(ub) + " " + quote(inst) + " >/dev/null"),
              0);
    std::string x = slurp(ub);
    EXPECT_EQ(count(x, "<verdict "), 16u) << x;
    EXPECT_EQ(count(x, "category=\"UpperBounds\""), 16u) << x;
    EXPECT_NE(x.find("reference=\"Dekker-PT-010-UpperBounds-00\" value=\"1\""), std::string::npos)
        << x;
    EXPECT_NE(x.find("<statedby tool=\"petrel\" version=\""), std::string::npos) << x;
    if (lint) {
        EXPECT_EQ(sh("xmllint --noout --relaxng " + rng + " " + quote(ub) + " 2>/dev/null"), 0) << x;
    }

    // LTL with --trace: every FALSE formula carries its counterexample lasso
    std::string phil = std::string(PETREL_SHARED_DIR) + "/mcc/Philosophers-PT-000005";
    std::string ltl = dir + "/ltl.xml";
    if (stat(phil.c_str(), &st) == 0) {
        ASSERT_EQ(sh(quote(kCli) + " -q -e LTLCardinality --trace --threads 1 --memory 1G "
                     "--timeout 60 --verdict-xml " + quote(ltl) + " " + quote(phil) +
                     " >/dev/null 2>&1"),
                  0);
        std::string l = slurp(ltl);
        EXPECT_EQ(count(l, "<verdict "), 16u) << l;
        EXPECT_GT(count(l, "value=\"FALSE\""), 0u) << l;
        EXPECT_EQ(count(l, "<cycle>"), count(l, "value=\"FALSE\"")) << l;
        if (lint) {
            EXPECT_EQ(sh("xmllint --noout --relaxng " + rng + " " + quote(ltl) + " 2>/dev/null"), 0)
                << l;
        }
    }

    ASSERT_EQ(sh(quote(kCli) + " properties -q --threads 1 --memory 1G --timeout 60 --verdict-xml " +
                 quote(props) + " " + quote(inst) + " >" + quote(table)),
              0);
    std::string p = slurp(props), t = slurp(table);
    EXPECT_EQ(count(p, "<verdict "), 22u) << p;
    EXPECT_EQ(count(p, "category=\"GENERIC\""), 21u) << p;
    EXPECT_EQ(count(t, "disagree"), 1u) << "only the summary line says it\n" << t;
    EXPECT_NE(t.find("# 19 agree, 0 disagree"), std::string::npos) << t;
    EXPECT_NE(t.find("SAFE                  true     true     agree"), std::string::npos) << t;
    if (lint) {
        EXPECT_EQ(sh("xmllint --noout --relaxng " + rng + " " + quote(props) + " 2>/dev/null"), 0)
            << p;
    }
}

// petrel properties keeps its --timeout even where a step overruns its
// share (on RERS2020-PT-pb103 the stubborn-set step of DEAD_PLACES once ran
// 4.5 s past a 1.8 s share): its watchdog prints the table at the deadline.
TEST_F(VerdictXml, PropertiesKeepTheDeadline)
{
    std::string inst = std::string(PETREL_SHARED_DIR) + "/mcc/RERS2020-PT-pb103";
    if (!petrel_test::exists(inst))
        GTEST_SKIP() << inst << " is absent";
    std::string table = dir + "/props.txt";
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(sh(quote(kCli) + " properties -q --threads 1 --memory 1G --timeout 2 " + quote(inst) +
                 " >" + quote(table)),
              0);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::string t = slurp(table);
    EXPECT_LT(s, 2 + 1 + 4.0) << t; /* the deadline, the grace, the process's end */
    // header, 22 properties, a note when out of time (in the reading, under
    // the sanitizers), the summary
    size_t lines = count_lines(t);
    EXPECT_TRUE(lines == 24u || (lines == 25u && (t.find("# out of time") != std::string::npos ||
                                                  t.find("# the model could not be read") !=
                                                      std::string::npos)))
        << t;
    EXPECT_NE(t.find("DEAD_TRANSITIONS "), std::string::npos) << t;
}

} // namespace
