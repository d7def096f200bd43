// MCMT array-based systems (petrel/mcmt.h, docs/mcmt.md): the reader and
// pn_mcmt_check against the independent evaluator of test_mcmt_eval.h.
// Every instance must get the same answer from both; SAFE and UNKNOWN after
// a full search the same number of states; UNSAFE the same depth, and the
// trace pn_mcmt_check gives must replay on the evaluator: an initial state,
// each step a successor of the one before for its transition and binding,
// the last state unsafe. Random systems (test_mcmt_gen.h) are read from
// text so the reader is exercised on every construct; the bundled models
// (models/mcmt/) must give the answers of models/mcmt/expected.tsv.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "petrel/budget.h"
#include "petrel/mcmt.h"
#include "test_mcmt_eval.h"
#include "test_mcmt_gen.h"

using namespace mcmt_test;

namespace {

struct SysPtr {
    pn_mcmt_sys *s = nullptr;
    ~SysPtr() { pn_mcmt_free(s); }
};

struct ResultPtr {
    pn_mcmt_result r;
    ResultPtr() { std::memset(&r, 0, sizeof r); }
    ~ResultPtr() { pn_mcmt_result_clear(&r); }
};

pn_status read_text(const std::string &text, SysPtr *out, pn_error *err)
{
    return pn_mcmt_read_text(text.data(), text.size(), &out->s, err);
}

Answer of(pn_mcmt_answer a)
{
    return a == PN_MCMT_SAFE ? Answer::Safe : a == PN_MCMT_UNSAFE ? Answer::Unsafe : Answer::Unknown;
}

std::string fmt_bound(const Bound &b)
{
    std::ostringstream o;
    o << "--procs " << b.procs << " --index-from " << b.idx_from << " --int-range " << b.lo << ".."
      << b.hi;
    return o.str();
}

std::string fmt_state(const State &s)
{
    std::string o = "[";
    for (size_t k = 0; k < s.size(); k++)
        o += (k > 0 ? " " : "") + std::to_string(s[k]);
    return o + "]";
}

// pn_mcmt_check's trace replayed on the evaluator; "" when it replays.
std::string replay(const Evaluator &ev, const pn_mcmt_sys *sys, const pn_mcmt_result &r)
{
    if (r.n_vals != ev.n_cells())
        return "trace_vals has " + std::to_string(r.n_vals) + " values a state, the evaluator " +
               std::to_string(ev.n_cells());
    if (r.trace_vals == nullptr || (r.trace_len > 0 && r.trace == nullptr))
        return "no trace";
    auto at = [&](uint32_t k) { return State(r.trace_vals + (size_t)k * r.n_vals,
                                             r.trace_vals + (size_t)(k + 1) * r.n_vals); };
    State cur = at(0);
    if (!ev.is_initial(cur))
        return "the trace's first state " + fmt_state(cur) + " is not initial";
    for (uint32_t k = 0; k < r.trace_len; k++) {
        const pn_mcmt_step &st = r.trace[k];
        if (st.trans >= sys->n_trans)
            return "step " + std::to_string(k) + ": no transition " + std::to_string(st.trans);
        State next;
        unsigned d = 0;
        StepResult sr = ev.step(cur, st.trans, st.x, st.y, &next, &d);
        std::string where = "step " + std::to_string(k) + " (" + sys->trans[st.trans].name +
                            " x=" + std::to_string(st.x) + " y=" + std::to_string(st.y) +
                            ") from " + fmt_state(cur);
        if (sr != StepResult::Ok)
            return where + ": " + (sr == StepResult::Disabled ? "not enabled" : "a defect") +
                   " in the evaluator";
        if (next != at(k + 1))
            return where + ": the evaluator gives " + fmt_state(next) + ", the trace " +
                   fmt_state(at(k + 1));
        cur = next;
    }
    try {
        if (ev.unsafe(cur) == 0)
            return "the trace's last state " + fmt_state(cur) + " is not unsafe";
        if (r.unsafe_cube == 0 || r.unsafe_cube > sys->n_unsafe ||
            !ev.cube_holds(sys->unsafe[r.unsafe_cube - 1], cur))
            return "the trace's last state does not satisfy cube " +
                   std::to_string(r.unsafe_cube);
    } catch (Evaluator::IndexDefect &) {
        return "the unsafe formula reads outside the processes in the trace's last state";
    }
    return "";
}

struct Agreement {
    std::string problem; // "" when both agree
    Outcome ref;
    Answer petrel = Answer::Unknown;
    uint64_t petrel_states = 0;
    uint32_t petrel_depth = 0;
};

// pn_mcmt_check with no limits against the evaluator on one instance.
Agreement agree(const pn_mcmt_sys *sys, const Bound &b)
{
    Agreement a;
    Evaluator ev(sys, b);
    a.ref = ev.explore();
    pn_mcmt_bound pb = {b.procs, b.idx_from, b.lo, b.hi};
    pn_budget budget = pn_budget_make(0, nullptr, 0);
    ResultPtr res;
    pn_error err = {};
    if (pn_mcmt_check(sys, pb, &budget, &res.r, &err) != PN_OK) {
        a.problem = std::string("pn_mcmt_check failed: ") + err.msg;
        return a;
    }
    a.petrel = of(res.r.answer);
    a.petrel_states = res.r.states;
    a.petrel_depth = res.r.trace_len;
    std::ostringstream o;
    if (a.petrel != a.ref.answer) {
        o << "answer: petrel " << answer_name(a.petrel) << " (" << res.r.why << ", states "
          << res.r.states << ", depth " << res.r.trace_len << "), evaluator "
          << answer_name(a.ref.answer) << " (defects " << a.ref.defects << ", states "
          << a.ref.states << ", depth " << a.ref.depth << ")";
    } else if (a.ref.answer == Answer::Unsafe) {
        if (res.r.trace_len != a.ref.depth)
            o << "UNSAFE depth: petrel " << res.r.trace_len << ", evaluator " << a.ref.depth;
        else {
            std::string r = replay(ev, sys, res.r);
            if (!r.empty())
                o << "the trace does not replay: " << r;
        }
    } else if (res.r.states != a.ref.states) {
        // SAFE, and UNKNOWN after a whole search (a defect does not stop it).
        o << answer_name(a.petrel) << " states: petrel " << res.r.states << ", evaluator "
          << a.ref.states;
    }
    a.problem = o.str();
    return a;
}

// The reader's output against what the generator wrote.
std::string structure(const pn_mcmt_sys *s, const Generated &g)
{
    if (s->n_arrays != g.arrays.size())
        return "arrays: " + std::to_string(s->n_arrays);
    for (size_t a = 0; a < g.arrays.size(); a++) {
        const pn_mcmt_array &r = s->arrays[a];
        static const uint8_t base[] = {PN_MCMT_BOOL, PN_MCMT_SUBRANGE, PN_MCMT_NAT, PN_MCMT_INT};
        if (g.arrays[a].name != r.name || g.arrays[a].global != r.global ||
            r.type.base != base[(int)g.arrays[a].ty] ||
            (g.arrays[a].ty == Ty::Sub && (r.type.lo != 1 || r.type.hi != 3)))
            return "array " + g.arrays[a].name + " read differently";
    }
    if (s->n_params != g.params.size())
        return "symbolic constants: " + std::to_string(s->n_params);
    if (s->n_trans != g.trans_vars.size())
        return "transitions: " + std::to_string(s->n_trans);
    for (size_t t = 0; t < g.trans_vars.size(); t++) {
        const pn_mcmt_trans &r = s->trans[t];
        if (r.n_vars != g.trans_vars[t] || r.n_cases != g.trans_cases[t] ||
            r.n_uguard != g.trans_uguards[t] || g.trans_names[t] != r.name)
            return "transition " + std::to_string(t + 1) + " read as " + r.name + " vars " +
                   std::to_string(r.n_vars) + " cases " + std::to_string(r.n_cases) +
                   " uguards " + std::to_string(r.n_uguard);
    }
    if (s->n_unsafe != g.cube_nz.size())
        return "cubes: " + std::to_string(s->n_unsafe);
    for (size_t c = 0; c < g.cube_nz.size(); c++)
        if (s->unsafe[c].nz != g.cube_nz[c])
            return "cube " + std::to_string(c + 1) + " over " + std::to_string(s->unsafe[c].nz) +
                   " z's, written over " + std::to_string(g.cube_nz[c]);
    if (s->n_initial != g.n_initial || s->n_axioms != g.n_axioms)
        return "initial or axiom blocks miscounted";
    if (s->n_notes != g.n_notes)
        return "notes: " + std::to_string(s->n_notes) + ", written " + std::to_string(g.n_notes);
    return "";
}

// ---- the evaluator itself, on systems small enough to count by hand ---------

const char *const kCounter = R"(:local a bool
:global g int
:initial
:var x
:cnj (= a[x] false) (= g 0)
:unsafe
:var z1
:var z2
:cnj (= a[z1] true) (= a[z2] true)
:comment Set
:transition
:var x
:var j
:guard (= a[x] false)
:numcases 2
:case
:val true
:val (+ g 1)
:case
:val a[j]
:val (+ g 1)
)";

} // namespace

// Each process sets its flag once and g counts the sets: with N processes
// the reachable states are the subsets of set flags (g = their number), 2^N
// of them; two set flags are unsafe, two steps from the initial state. The
// evaluator must count that by itself before it judges anything.
TEST(Mcmt, EvaluatorCountsAHandCountedSystem)
{
    SysPtr s;
    pn_error err = {};
    ASSERT_EQ(read_text(kCounter, &s, &err), PN_OK) << err.msg;
    Outcome o = Evaluator(s.s, {1, 1, 0, 3}).explore();
    EXPECT_EQ(o.answer, Answer::Safe);
    EXPECT_EQ(o.states, 2u);
    EXPECT_EQ(o.initial, 1u);
    o = Evaluator(s.s, {3, 1, 0, 3}).explore();
    EXPECT_EQ(o.answer, Answer::Unsafe);
    EXPECT_EQ(o.depth, 2u);
    // g reaches 3 with three processes; --int-range 0..2 cuts that step:
    // the search is not whole, but the unsafe state is two steps away.
    o = Evaluator(s.s, {3, 1, 0, 2}).explore();
    EXPECT_EQ(o.answer, Answer::Unsafe);
    // One process alone, g capped at 0: the only step is cut.
    o = Evaluator(s.s, {1, 1, 0, 0}).explore();
    EXPECT_EQ(o.answer, Answer::Unknown);
    EXPECT_EQ(o.defects, (unsigned)kDefectRange);
    EXPECT_EQ(o.states, 1u);
}

// The hand-counted system through pn_mcmt_check: the same counts, and a
// shortest trace of two steps that sets two different flags.
TEST(Mcmt, CheckAgreesOnTheHandCountedSystem)
{
    SysPtr s;
    pn_error err = {};
    ASSERT_EQ(read_text(kCounter, &s, &err), PN_OK) << err.msg;
    ASSERT_EQ(s.s->n_trans, 1u);
    EXPECT_STREQ(s.s->trans[0].name, "Set");
    const Bound bounds[] = {{1, 1, 0, 3}, {2, 1, 0, 3}, {3, 1, 0, 3}, {3, 0, 0, 2}, {1, 1, 0, 0}};
    for (const Bound &b : bounds) {
        Agreement a = agree(s.s, b);
        EXPECT_EQ(a.problem, "") << fmt_bound(b);
    }
    pn_mcmt_bound pb = {3, 1, 0, 3};
    pn_budget budget = pn_budget_make(0, nullptr, 0);
    ResultPtr r;
    ASSERT_EQ(pn_mcmt_check(s.s, pb, &budget, &r.r, &err), PN_OK) << err.msg;
    ASSERT_EQ(r.r.answer, PN_MCMT_UNSAFE);
    ASSERT_EQ(r.r.trace_len, 2u);
    EXPECT_NE(r.r.trace[0].x, r.r.trace[1].x);
    EXPECT_EQ(r.r.trace[0].y, -1);
    EXPECT_EQ(r.r.unsafe_cube, 1u);
    // The last valuation: two flags set, g = 2, nobody crashed.
    ASSERT_EQ(r.r.n_vals, 3u + 1u + 3u);
    const int64_t *last = r.r.trace_vals + 2 * r.r.n_vals;
    EXPECT_EQ(last[0] + last[1] + last[2], 2);
    EXPECT_EQ(last[3], 2);
    EXPECT_EQ(last[4] + last[5] + last[6], 0);
}

// Cases that miss a process crash it (its flag set, its cells kept); a
// crashed process is never bound to x again and the :uguard leaves it out.
// Transition Drop crashes every process with a false flag; Go needs every
// other live process to have a true flag. N = 2, a = (false, true): Drop
// crashes process 1 (a false) and keeps process 2; then Go with x = 2 is
// enabled only because the crashed process 1 is left out of the :uguard.
TEST(Mcmt, CrashedProcessesLeaveTheUniversalGuard)
{
    const char *text = R"(:local a bool
:global done bool
:initial
:var x
:cnj (= done false)
:unsafe
:cnj (= done true)
:transition
:var j
:guard (= done false)
:numcases 1
:case (= a[j] true)
:val a[j]
:val done
:transition
:var x
:var j
:uguard (= a[j] true)
:numcases 2
:case
:val a[j]
:val true
:case
:val a[j]
:val true
)";
    SysPtr s;
    pn_error err = {};
    ASSERT_EQ(read_text(text, &s, &err), PN_OK) << err.msg;
    Evaluator ev(s.s, {2, 1, 0, 1});
    // a = (false, true), done = false, no crash.
    State init = {0, 1, 0, 0, 0};
    ASSERT_TRUE(ev.is_initial(init));
    State next;
    unsigned d = 0;
    EXPECT_EQ(ev.step(init, 1, 2, -1, &next, &d), StepResult::Disabled);
    ASSERT_EQ(ev.step(init, 0, -1, -1, &next, &d), StepResult::Ok);
    EXPECT_EQ(next, (State{0, 1, 0, 1, 0}));
    State after;
    ASSERT_EQ(ev.step(next, 1, 2, -1, &after, &d), StepResult::Ok);
    EXPECT_EQ(after, (State{0, 1, 1, 1, 0}));
    EXPECT_EQ(ev.step(next, 1, 1, -1, &after, &d), StepResult::Disabled); // 1 crashed
    EXPECT_EQ(d, 0u);
    Outcome o = ev.explore();
    EXPECT_EQ(o.answer, Answer::Unsafe);
    EXPECT_EQ(o.depth, 1u); // a = (true, true): Go at once
    for (uint32_t n = 1; n <= 3; n++) {
        Agreement a = agree(s.s, {n, 1, 0, 1});
        EXPECT_EQ(a.problem, "") << "N = " << n;
    }
}

// Two cases that hold for the same process with different values are a
// defect: UNKNOWN, never SAFE; with the same values they are fine.
TEST(Mcmt, DisagreeingOverlappingCasesAreADefect)
{
    const std::string t = R"(:smt (define-type b01 ( subrange 0 1))
:local a b01
:initial
:var x
:cnj (= a[x] 0)
:unsafe
:var z1
:cnj (= a[z1] 2)
:transition
:var j
:numcases 2
:case (= a[j] 0)
:val 1
:case (< a[j] 5)
)";
    SysPtr bad, good;
    pn_error err = {};
    ASSERT_EQ(read_text(t + ":val 0\n", &bad, &err), PN_OK) << err.msg;
    ASSERT_EQ(read_text(t + ":val 1\n", &good, &err), PN_OK) << err.msg;
    Outcome o = Evaluator(bad.s, {2, 1, 0, 1}).explore();
    EXPECT_EQ(o.answer, Answer::Unknown);
    EXPECT_EQ(o.defects, (unsigned)kDefectCases);
    o = Evaluator(good.s, {2, 1, 0, 1}).explore();
    EXPECT_EQ(o.answer, Answer::Safe);
    EXPECT_EQ(o.states, 2u); // (0,0) and (1,1)
    for (uint32_t n = 1; n <= 3; n++) {
        EXPECT_EQ(agree(bad.s, {n, 1, 0, 1}).problem, "") << "N = " << n;
        EXPECT_EQ(agree(good.s, {n, 1, 0, 1}).problem, "") << "N = " << n;
    }
}

// A read a[I] where I is not a process of the instance is a defect; a
// value past a subrange is no successor at all (not a defect).
TEST(Mcmt, IndexDefectsAndTypeBounds)
{
    const char *text = R"(:smt (define-type s03 ( subrange 0 3))
:local a bool
:global I s03
:initial
:var x
:cnj (= I 0) (= a[x] false)
:unsafe
:var z1
:cnj (= a[z1] true) (= I 3)
:transition
:var j
:guard (= a[I] false)
:numcases 1
:case
:val a[j]
:val (+ I 1)
)";
    SysPtr s;
    pn_error err = {};
    ASSERT_EQ(read_text(text, &s, &err), PN_OK) << err.msg;
    // Processes 0 1 2: I = 0 1 2 read in range, I = 3 reads a[3]: a defect.
    Outcome o = Evaluator(s.s, {3, 0, 0, 3}).explore();
    EXPECT_EQ(o.answer, Answer::Unknown);
    EXPECT_EQ(o.defects, (unsigned)kDefectIndex);
    EXPECT_EQ(o.states, 4u);
    // Processes 0 .. 3: I = 3 passes, I = 4 leaves the subrange: no step.
    o = Evaluator(s.s, {4, 0, 0, 3}).explore();
    EXPECT_EQ(o.answer, Answer::Safe);
    EXPECT_EQ(o.states, 4u);
    EXPECT_EQ(agree(s.s, {3, 0, 0, 3}).problem, "");
    EXPECT_EQ(agree(s.s, {4, 0, 0, 3}).problem, "");
    EXPECT_EQ(agree(s.s, {2, 1, 0, 3}).problem, "");
}

// ---- random systems ----------------------------------------------------------

namespace {

struct RandomRun {
    uint32_t systems = 0, refused = 0, reader = 0, spurious = 0, other = 0;
    std::map<Answer, uint32_t> answers;
    unsigned defects = 0;
    uint64_t states = 0;
    uint32_t big = 0, deep = 0; // systems of 100 states or more; of depth 3 or more
    // Systems of 10 states or more, or UNSAFE past the initial states: most
    // random systems are smaller, so the run goes on until it has enough.
    uint32_t interesting = 0;
    std::vector<std::string> reports; // the first few of each kind, with the text
};

// Systems of generator seed `seed` until `interesting` of them are not
// trivial (or `most` in all), each read from text,
// its reading checked against what was written, then checked by both.
// A disagreement where pn_mcmt_check answers UNKNOWN, the evaluator SAFE
// after the same number of states, having met a successor that does not
// exist but has a defect in it too (kMasked), is counted apart:
// pn_mcmt_check reports a defect for a successor that does not exist (see
// Mcmt.NoSuccessorIsNoDefect below). Both kinds fail the test.
RandomRun run_random(uint32_t seed, uint32_t interesting, uint32_t most)
{
    RandomRun run;
    Gen gen(seed);
    for (uint32_t i = 0; i < most && run.interesting < interesting; i++) {
        Generated g = gen.next();
        run.systems++;
        SysPtr s;
        pn_error err = {};
        if (read_text(g.text, &s, &err) != PN_OK) {
            if (++run.refused <= 3)
                run.reports.push_back("system " + std::to_string(i) + " refused: " + err.msg +
                                      "\n" + g.text);
            continue;
        }
        std::string st = structure(s.s, g);
        if (!st.empty()) {
            if (++run.reader <= 3)
                run.reports.push_back("system " + std::to_string(i) + ": the reader: " + st +
                                      "\n" + g.text);
            continue;
        }
        Agreement a = agree(s.s, g.bound);
        run.answers[a.ref.answer]++;
        run.defects |= a.ref.defects;
        run.states += a.ref.states;
        run.big += a.ref.states >= 100;
        run.deep += a.ref.answer == Answer::Unsafe && a.ref.depth >= 3;
        run.interesting += a.ref.states >= 10 || (a.ref.answer == Answer::Unsafe && a.ref.depth >= 1);
        if (a.problem.empty())
            continue;
        bool spurious = a.petrel == Answer::Unknown && a.ref.answer == Answer::Safe &&
                        a.petrel_states == a.ref.states && a.ref.masked;
        uint32_t &count = spurious ? run.spurious : run.other;
        if (++count <= 3)
            run.reports.push_back("system " + std::to_string(i) + " (" + fmt_bound(g.bound) +
                                  "): " + a.problem + "\n" + g.text);
    }
    return run;
}

} // namespace

// At least 1,000 random systems, read from text, each checked by
// pn_mcmt_check and the evaluator: the reader's output must be what was
// written, and both must agree (answers, counts, depths, traces). Every
// kind of disagreement is printed with the system's text and instance.
TEST(Mcmt, RandomSystemsAgreeWithTheEvaluator)
{
    auto t0 = std::chrono::steady_clock::now();
    RandomRun run = run_random(20240611u, 16000, 800000);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("random MCMT systems: %u (%u not trivial, %llu states, %u of 100 or more, %u "
                "UNSAFE at depth 3 or more), SAFE %u, UNSAFE %u, UNKNOWN %u, "
                "refused %u, misread %u, disagreements %u (UNKNOWN for SAFE %u), %.1f s\n",
                run.systems, run.interesting, (unsigned long long)run.states, run.big, run.deep, run.answers[Answer::Safe],
                run.answers[Answer::Unsafe], run.answers[Answer::Unknown], run.refused,
                run.reader, run.spurious + run.other, run.spurious, secs);
    for (const std::string &r : run.reports)
        ADD_FAILURE() << r;
    EXPECT_GE(run.systems, 1000u);
    EXPECT_GE(run.interesting, 2000u);
    EXPECT_EQ(run.refused, 0u);
    EXPECT_EQ(run.reader, 0u);
    EXPECT_EQ(run.other, 0u);
    EXPECT_EQ(run.spurious, 0u);
    // The mix must exercise every answer and every kind of defect.
    EXPECT_GT(run.answers[Answer::Safe], run.systems / 20);
    EXPECT_GT(run.answers[Answer::Unsafe], run.systems / 20);
    EXPECT_GT(run.answers[Answer::Unknown], run.systems / 20);
    EXPECT_EQ(run.defects, (unsigned)(kDefectRange | kDefectIndex | kDefectCases));
}

// ---- what pn_mcmt_check reports as a defect -----------------------------------

namespace {

// pn_mcmt_check's answer, states and reason on one instance.
std::string petrel_line(const pn_mcmt_sys *sys, const Bound &b)
{
    pn_mcmt_bound pb = {b.procs, b.idx_from, b.lo, b.hi};
    pn_budget budget = pn_budget_make(0, nullptr, 0);
    ResultPtr r;
    pn_error err = {};
    if (pn_mcmt_check(sys, pb, &budget, &r.r, &err) != PN_OK)
        return std::string("error: ") + err.msg;
    std::string s = std::string(answer_name(of(r.r.answer))) + " states=" +
                    std::to_string(r.r.states);
    if (r.r.answer == PN_MCMT_UNKNOWN)
        s += std::string(" (") + r.r.why + ")";
    return s;
}

} // namespace

// docs/mcmt.md: "A successor whose value leaves its type's bounds (a
// subrange, a bool, a nat below 0) does not exist"; only a value the type
// allows but --int-range does not is cut. A nat that would become -1 is no
// successor, whatever --int-range says: with --int-range 1..2 the nat cells
// take 1..2, and a = 1 - 2 = -1 is below 0, not merely below 1. The only
// state is the initial one and nothing is cut: SAFE, 1 state. (A nat that
// would become 0 is cut: 0 is a nat, outside 1..2: UNKNOWN.)
TEST(Mcmt, NatBelowZeroIsNoSuccessor)
{
    const std::string text = R"(:local a nat
:initial
:var x
:cnj (= a[x] 1)
:unsafe
:var z1
:cnj (= a[z1] 5)
:transition
:var x
:var j
:numcases 2
:case
)";
    SysPtr minus2, minus1;
    pn_error err = {};
    ASSERT_EQ(read_text(text + ":val (+ a[j] -2)\n:case\n:val a[j]\n", &minus2, &err), PN_OK)
        << err.msg;
    ASSERT_EQ(read_text(text + ":val (+ a[j] -1)\n:case\n:val a[j]\n", &minus1, &err), PN_OK)
        << err.msg;
    Outcome o = Evaluator(minus2.s, {1, 1, 1, 2}).explore();
    EXPECT_EQ(o.answer, Answer::Safe);
    EXPECT_EQ(o.states, 1u);
    o = Evaluator(minus1.s, {1, 1, 1, 2}).explore();
    EXPECT_EQ(o.answer, Answer::Unknown);
    EXPECT_EQ(o.defects, (unsigned)kDefectRange);
    EXPECT_EQ(petrel_line(minus1.s, {1, 1, 1, 2}).substr(0, 16), "UNKNOWN states=1");
    // With --int-range 0..2 both agree already (SAFE); with 1..2 pn_mcmt_check
    // says the -1 is "outside --int-range 1..2" and answers UNKNOWN.
    EXPECT_EQ(petrel_line(minus2.s, {1, 1, 0, 2}), "SAFE states=1");
    EXPECT_EQ(petrel_line(minus2.s, {1, 1, 1, 2}), "SAFE states=1");
    EXPECT_EQ(agree(minus2.s, {1, 1, 1, 2}).problem, "");
}

// A successor with one value outside its type does not exist, so a value
// past --int-range in another cell of it cuts nothing: the unbounded system
// has no such successor either. Here x's a (subrange 1 2) would become 0
// while another process's int b would become 1, past --int-range 0..0: no
// successor, SAFE with the initial state alone, whichever array is declared
// first and whichever process is x. Likewise a successor that breaks a
// system axiom is "not a state" (docs/mcmt.md), so its value past
// --int-range cuts nothing either; and cases that disagree for process 1
// do not matter when x = 2 leaves its subrange in the same successor.
// pn_mcmt_try (host/space/mcmt.c) reports the first defect it meets, the
// globals first, then process by process, before it looks at the other
// cells' types and at the axioms: UNKNOWN for all three.
TEST(Mcmt, NoSuccessorIsNoDefect)
{
    const char *b_first = R"(:smt (define-type s ( subrange 1 2))
:local b int
:local a s
:initial
:var x
:cnj (= a[x] 1) (= b[x] 0)
:unsafe
:var z1
:cnj (= a[z1] 2)
:transition
:var x
:var j
:numcases 2
:case
:val b[j]
:val (+ a[j] -1)
:case
:val (+ b[j] 1)
:val a[j]
)";
    const char *axiom = R"(:local a int
:system_axiom
:var x
:cnj (<= a[x] 1)
:initial
:var x
:cnj (= a[x] 0)
:unsafe
:var z1
:cnj (= a[z1] 2)
:transition
:var x
:var j
:numcases 2
:case
:val (+ a[j] 5)
:case
:val a[j]
)";
    const char *cases = R"(:smt (define-type s ( subrange 1 2))
:local a s
:initial
:var x
:cnj (= a[x] 1)
:unsafe
:var z1
:cnj (= a[z1] 2)
:transition
:var x
:var j
:numcases 3
:case
:val (+ a[j] -1)
:case (= a[j] 1)
:val 1
:case (= a[j] 1)
:val 2
)";
    SysPtr s1, s2, s3;
    pn_error err = {};
    ASSERT_EQ(read_text(b_first, &s1, &err), PN_OK) << err.msg;
    ASSERT_EQ(read_text(axiom, &s2, &err), PN_OK) << err.msg;
    ASSERT_EQ(read_text(cases, &s3, &err), PN_OK) << err.msg;
    Outcome o = Evaluator(s1.s, {2, 1, 0, 0}).explore();
    EXPECT_EQ(o.answer, Answer::Safe);
    EXPECT_EQ(o.states, 1u);
    EXPECT_TRUE(o.masked);
    o = Evaluator(s2.s, {1, 1, 0, 2}).explore();
    EXPECT_EQ(o.answer, Answer::Safe);
    EXPECT_EQ(o.states, 1u);
    EXPECT_TRUE(o.masked);
    o = Evaluator(s3.s, {2, 1, 0, 3}).explore();
    EXPECT_EQ(o.answer, Answer::Safe);
    EXPECT_EQ(o.states, 1u);
    EXPECT_TRUE(o.masked);
    EXPECT_EQ(petrel_line(s1.s, {2, 1, 0, 0}), "SAFE states=1");
    EXPECT_EQ(petrel_line(s2.s, {1, 1, 0, 2}), "SAFE states=1");
    EXPECT_EQ(petrel_line(s3.s, {2, 1, 0, 3}), "SAFE states=1");
}

// ---- the bundled models ----------------------------------------------------------

namespace {

struct Row {
    std::string file;
    Bound b;
    std::string answer;
    int64_t count; // states (SAFE, UNKNOWN) or depth (UNSAFE); -1: not given
};

std::vector<Row> expected_rows(const std::string &dir)
{
    std::vector<Row> rows;
    std::ifstream in(dir + "/expected.tsv");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream f(line);
        Row r;
        long long procs, from, lo, hi, count;
        if (!(f >> r.file >> procs >> from >> lo >> hi >> r.answer >> count))
            continue; // the header, a blank line
        r.b = {(uint32_t)procs, from, lo, hi};
        r.count = count;
        rows.push_back(r);
    }
    return rows;
}

} // namespace

// Every row of models/mcmt/expected.tsv: pn_mcmt_check gives the row's
// answer and count, and the evaluator agrees with it (answers, states,
// depth, the trace replayed) where the instance has at most 400,000 states
// (above that the naive evaluator is too slow for the suite; the rows it
// skips are printed). The guided example at N = 2..5 (--index-from 0,
// --int-range 0..N) is SAFE and always goes through the evaluator. Every
// model file must read; files without a row are printed. Big_: seconds in
// a release build, left out of the sanitizer stage (the random systems
// above take the reader and the module through it).
TEST(Mcmt, Big_BundledModelsGiveTheirExpectedAnswers)
{
    const std::string dir = PETREL_SOURCE_DIR "/models/mcmt";
    std::vector<Row> rows = expected_rows(dir);
    for (uint32_t n = 2; n <= 5; n++) {
        bool have = false;
        for (const Row &r : rows)
            have |= r.file == "guided_example.in" && r.b.procs == n && r.b.idx_from == 0 &&
                    r.b.lo == 0 && r.b.hi == n;
        if (!have)
            rows.push_back({"guided_example.in", {n, 0, 0, n}, "SAFE", -1});
    }
    std::map<std::string, uint32_t> per_file;
    uint32_t guided = 0, by_evaluator = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (const Row &r : rows) {
        std::string path = dir + "/" + r.file;
        if (std::ifstream(path).fail()) {
            std::printf("expected.tsv: %s is not there (yet): skipped\n", r.file.c_str());
            continue;
        }
        per_file[r.file]++;
        SysPtr s;
        pn_error err = {};
        ASSERT_EQ(pn_mcmt_read_file(path.c_str(), &s.s, &err), PN_OK) << err.msg;
        std::string where = r.file + " " + fmt_bound(r.b);
        pn_mcmt_bound pb = {r.b.procs, r.b.idx_from, r.b.lo, r.b.hi};
        pn_budget budget = pn_budget_make(0, nullptr, 0);
        ResultPtr res;
        ASSERT_EQ(pn_mcmt_check(s.s, pb, &budget, &res.r, &err), PN_OK) << where << ": " << err.msg;
        EXPECT_STREQ(answer_name(of(res.r.answer)), r.answer.c_str()) << where << ": " << res.r.why;
        uint64_t got = res.r.answer == PN_MCMT_UNSAFE ? res.r.trace_len : res.r.states;
        if (r.count >= 0) {
            EXPECT_EQ(got, (uint64_t)r.count) << where;
        }
        bool guided_row = r.file == "guided_example.in";
        if (res.r.answer != PN_MCMT_UNSAFE && res.r.states > 400000 && !guided_row) {
            std::printf("%s: %llu states, not run through the evaluator\n", where.c_str(),
                        (unsigned long long)res.r.states);
            continue;
        }
        Agreement a = agree(s.s, r.b);
        EXPECT_EQ(a.problem, "") << where;
        by_evaluator++;
        if (guided_row && r.b.idx_from == 0 && r.b.lo == 0 && r.b.hi == r.b.procs) {
            EXPECT_EQ(a.ref.answer, Answer::Safe) << where;
            guided++;
        }
    }
    // Every model reads; a file without a row is said.
    DIR *d = opendir(dir.c_str());
    ASSERT_NE(d, nullptr);
    uint32_t files = 0;
    while (struct dirent *e = readdir(d)) {
        std::string name = e->d_name;
        if (name.size() < 4 || name.compare(name.size() - 3, 3, ".in") != 0)
            continue;
        files++;
        SysPtr s;
        pn_error err = {};
        EXPECT_EQ(pn_mcmt_read_file((dir + "/" + name).c_str(), &s.s, &err), PN_OK) << err.msg;
        if (per_file.count(name) == 0)
            std::printf("models/mcmt/%s has no row in expected.tsv\n", name.c_str());
    }
    closedir(d);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("bundled MCMT models: %u files, %zu rows, %u through the evaluator, %.1f s\n",
                files, rows.size(), by_evaluator, secs);
    EXPECT_EQ(guided, 4u);
    EXPECT_GE(files, 1u);
}

// ---- the reader ---------------------------------------------------------------------

namespace {

// A valid system; line k of it is kBase[k - 1].
const std::vector<std::string> kBase = {
    ":smt (define-type loc ( subrange 1 3))", // 1
    ":local a loc",                           // 2
    ":global g bool",                         // 3
    ":initial",                               // 4
    ":var x",                                 // 5
    ":cnj (= a[x] 1) (= g false)",            // 6
    ":unsafe",                                // 7
    ":var z1",                                // 8
    ":var z2",                                // 9
    ":cnj (= a[z1] 3) (= a[z2] 3)",           // 10
    ":transition",                            // 11
    ":var x",                                 // 12
    ":var j",                                 // 13
    ":guard (= a[x] 1)",                      // 14
    ":numcases 2",                            // 15
    ":case",                                  // 16
    ":val 2",                                 // 17
    ":val g",                                 // 18
    ":case",                                  // 19
    ":val a[j]",                              // 20
    ":val g",                                 // 21
};

// kBase with lines replaced (line number, new text; "" deletes the line),
// then `extra` lines appended.
std::string base_with(const std::map<uint32_t, std::string> &lines, const std::string &extra = "")
{
    std::string s;
    for (uint32_t k = 0; k < kBase.size(); k++) {
        auto it = lines.find(k + 1);
        if (it == lines.end())
            s += kBase[k] + "\n";
        else if (!it->second.empty())
            s += it->second + "\n";
    }
    return s + extra;
}

std::string base_with(uint32_t line, const std::string &text, const std::string &extra = "")
{
    return line == 0 ? base_with(std::map<uint32_t, std::string>{}, extra)
                     : base_with({{line, text}}, extra);
}

struct Bad {
    std::string text;
    pn_status code;
    uint32_t line; // the line the message must name; 0: any
    const char *what;
};

} // namespace

// The base text reads, with what it says.
TEST(Mcmt, ReaderReadsTheBaseSystem)
{
    SysPtr s;
    pn_error err = {};
    ASSERT_EQ(read_text(base_with(0, ""), &s, &err), PN_OK) << err.msg;
    ASSERT_EQ(s.s->n_arrays, 2u);
    EXPECT_FALSE(s.s->arrays[0].global);
    EXPECT_EQ(s.s->arrays[0].type.base, PN_MCMT_SUBRANGE);
    EXPECT_EQ(s.s->arrays[0].type.lo, 1);
    EXPECT_EQ(s.s->arrays[0].type.hi, 3);
    EXPECT_TRUE(s.s->arrays[1].global);
    EXPECT_EQ(s.s->arrays[1].type.base, PN_MCMT_BOOL);
    ASSERT_EQ(s.s->n_initial, 1u);
    EXPECT_EQ(s.s->initial[0].cnj.n, 2u);
    ASSERT_EQ(s.s->n_unsafe, 1u);
    EXPECT_EQ(s.s->unsafe[0].nz, 2u);
    EXPECT_EQ(s.s->unsafe[0].line, 7u);
    ASSERT_EQ(s.s->n_trans, 1u);
    EXPECT_EQ(s.s->trans[0].n_vars, 1u);
    EXPECT_EQ(s.s->trans[0].n_cases, 2u);
    EXPECT_EQ(s.s->trans[0].line, 11u);
    EXPECT_EQ(s.s->trans[0].cases[1].line, 19u);
    EXPECT_EQ(s.s->n_notes, 0u);
    // N = 2: both processes go 1 -> 2, a state each step: 4 states.
    Agreement a = agree(s.s, {2, 1, 0, 3});
    EXPECT_EQ(a.problem, "");
    EXPECT_EQ(a.ref.answer, Answer::Safe);
    EXPECT_EQ(a.ref.states, 4u);
}

// Malformed text is PN_ERR_INPUT, and the message names the line at fault.
TEST(Mcmt, ReaderRefusesMalformedTextWithTheLine)
{
    const std::vector<Bad> bad = {
        {base_with(14, ":guard (= a[x] 1"), PN_ERR_INPUT, 14, "')' missing"},
        {base_with(14, ":guard (= b[x] 1)"), PN_ERR_INPUT, 14, "an undeclared array"},
        {base_with(14, ":guard (= a[x 1)"), PN_ERR_INPUT, 14, "']' missing"},
        {base_with(14, ":guard (= a[x] 1ab)"), PN_ERR_INPUT, 14, "a malformed number"},
        {base_with(14, ":guard (= a[x] a)"), PN_ERR_INPUT, 14, "a local read bare"},
        {base_with(14, ":guard (= a[j] 1)"), PN_ERR_INPUT, 14, "j in a guard"},
        {base_with(6, ":cnj (= a[j] 1)"), PN_ERR_INPUT, 6, "j in an initial formula"},
        {base_with(8, ":var j"), PN_ERR_INPUT, 8, "j in an unsafe formula"},
        {base_with(12, ":var y"), PN_ERR_INPUT, 12, "y before x"},
        {base_with(1, ":smt (define-type loc ( subrange 3 1))"), PN_ERR_INPUT, 1,
         "an empty subrange"},
        {base_with(2, ":local a location"), PN_ERR_INPUT, 2, "an undeclared type"},
        {base_with(3, ":global a bool"), PN_ERR_INPUT, 3, "a name declared twice"},
        {"hello\n" + base_with(0, ""), PN_ERR_INPUT, 1, "a line outside any directive"},
        {base_with(0, "", ":frobnicate 3\n"), PN_ERR_INPUT, 22, "an unknown directive"},
        {base_with(15, ":numcases 3"), PN_ERR_INPUT, 11, "fewer cases than :numcases"},
        {base_with(15, ":numcases 1"), PN_ERR_INPUT, 19, "more cases than :numcases"},
        {base_with(21, ""), PN_ERR_INPUT, 19, "a :val missing"},
        {base_with(21, ":val (not g)"), PN_ERR_INPUT, 19, "a global updated differently"},
        {base_with(13, ""), PN_ERR_INPUT, 11, "a transition without :var j"},
        {base_with(14, ":guard (- a[x] 1)"), PN_ERR_INPUT, 14, "binary subtraction"},
        {base_with(14, ":guard (not (= a[x] 1) g)"), PN_ERR_INPUT, 14, "not of two"},
        {base_with(4, ":initial_state"), PN_ERR_INPUT, 4, "an unknown directive"},
        {base_with(4, ":var x"), PN_ERR_INPUT, 4, ":var outside a block"},
    };
    for (const Bad &b : bad) {
        SysPtr s;
        pn_error err = {};
        pn_status st = read_text(b.text, &s, &err);
        EXPECT_EQ(st, b.code) << b.what << ": " << err.msg;
        EXPECT_EQ(s.s, nullptr) << b.what;
        std::string want = "line " + std::to_string(b.line) + ":";
        EXPECT_NE(std::string(err.msg).find(want), std::string::npos)
            << b.what << ": '" << err.msg << "' does not name " << want;
    }
    // No :initial at all: refused, whatever the line.
    SysPtr s;
    pn_error err = {};
    std::string no_init = base_with(4, ":unsafe");
    no_init = no_init.substr(0, no_init.find(":var x\n:cnj (= a[x] 1) (= g false)\n")) +
              no_init.substr(no_init.find(":unsafe\n:var z1"));
    EXPECT_EQ(read_text(no_init, &s, &err), PN_ERR_INPUT) << err.msg;
    EXPECT_NE(std::string(err.msg).find("initial"), std::string::npos) << err.msg;
}

// docs/mcmt.md: "Binary subtraction is refused, as in MCMT (2.3: write
// (+ a (* -1 b)))": the message says how to write it.
TEST(Mcmt, ReaderSaysHowToWriteSubtraction)
{
    SysPtr s;
    pn_error err = {};
    ASSERT_EQ(read_text(base_with(14, ":guard (= a[x] (- 2 1))"), &s, &err), PN_ERR_INPUT);
    EXPECT_NE(std::string(err.msg).find("line 14:"), std::string::npos) << err.msg;
    EXPECT_NE(std::string(err.msg).find("(* -1"), std::string::npos) << err.msg;
}

// What Petrel does not explore is PN_ERR_UNSUPPORTED, with the line:
// reals, free function symbols, :eevar, other :smt commands, a global's
// update that reads j.
TEST(Mcmt, ReaderRefusesWhatItDoesNotExploreWithTheLine)
{
    const std::vector<Bad> bad = {
        {base_with(3, ":global g real"), PN_ERR_UNSUPPORTED, 3, "a real array"},
        {":smt (define f::(-> int int))\n" + base_with(0, ""), PN_ERR_UNSUPPORTED, 1,
         "a free function symbol"},
        {":smt (define r::real)\n" + base_with(0, ""), PN_ERR_UNSUPPORTED, 1, "a real constant"},
        {":smt (declare-fun h (int) int)\n" + base_with(0, ""), PN_ERR_UNSUPPORTED, 1,
         "another :smt command"},
        {base_with(0, "", ":eevar e int\n"), PN_ERR_UNSUPPORTED, 22, ":eevar"},
        {base_with(14, ":guard (= a[x] (f 1))"), PN_ERR_UNSUPPORTED, 14, "a function applied"},
        {base_with({{18, ":val (= a[j] 1)"}, {21, ":val (= a[j] 1)"}}), PN_ERR_UNSUPPORTED, 16,
         "a global update reading j"},
    };
    for (const Bad &b : bad) {
        SysPtr s;
        pn_error err = {};
        pn_status st = read_text(b.text, &s, &err);
        EXPECT_EQ(st, b.code) << b.what << ": " << err.msg;
        std::string want = "line " + std::to_string(b.line) + ":";
        EXPECT_NE(std::string(err.msg).find(want), std::string::npos)
            << b.what << ": '" << err.msg << "' does not name " << want;
    }
}

// MCMT's own search options are read and ignored, each with a note that
// names its line; a suggested-invariants block is skipped whole. The
// system is the base one all the same.
TEST(Mcmt, ReaderNotesIgnoredOptions)
{
    std::string extra = ":variable_redundancy_test\n"         // 22
                        ":determine_bounds\n"                 // 23
                        ":index nat\n"                        // 24
                        ":suggested_negated_invariants\n"     // 25
                        ":var z1\n"                           // 26
                        ":cnj (= a[z1] 2)\n"                  // 27
                        ":end_of_suggested_negated_invariants\n" // 28
                        ":max_transitions_number 10\n";       // 29
    SysPtr s;
    pn_error err = {};
    ASSERT_EQ(read_text(base_with(0, "", extra), &s, &err), PN_OK) << err.msg;
    const char *lines[] = {"line 22:", "line 23:", "line 24:", "line 25:", "line 29:"};
    ASSERT_EQ(s.s->n_notes, 5u);
    for (uint32_t k = 0; k < 5; k++)
        EXPECT_EQ(std::string(s.s->notes[k]).rfind(lines[k], 0), 0u) << s.s->notes[k];
    EXPECT_NE(std::string(s.s->notes[0]).find("variable_redundancy_test"), std::string::npos);
    EXPECT_EQ(s.s->n_unsafe, 1u); // the suggested invariant is not a cube
    EXPECT_EQ(s.s->n_trans, 1u);
}

// A :suggested_negated_invariants block without its end marker would
// swallow the rest of the file: here the transition, so the system would
// have none and be SAFE. The reader must refuse it (mcmt_read.c has the
// check, "':end_of_suggested_negated_invariants' missing", in mr_finish,
// but mr_lines ends with mr_block_end, which sets r->block to MR_NONE
// first, so the check never fires and the text reads with no transition).
TEST(Mcmt, ReaderRefusesAnUnterminatedSkippedBlock)
{
    std::string text = base_with(0, "");
    text.insert(text.find(":transition"), ":suggested_negated_invariants\n");
    SysPtr s;
    pn_error err = {};
    pn_status st = read_text(text, &s, &err);
    EXPECT_EQ(st, PN_ERR_INPUT) << (s.s != nullptr ? "read with " + std::to_string(s.s->n_trans) +
                                                        " transitions"
                                                  : std::string(err.msg));
    EXPECT_NE(std::string(err.msg).find("end_of_suggested_negated_invariants"), std::string::npos)
        << err.msg;
}

// The forms the reader rewrites: (/= a b) is (not (= a b)); g[x] of a
// global is g (section 2.3); x and y in an :unsafe are z1 and z2; a line
// that does not start with ':' continues the directive before; a :u_cnj
// cube is over the z's it uses.
TEST(Mcmt, ReaderRewritesTheShorthands)
{
    std::string text = base_with(14, ":guard (/= a[x] 2) (= g[x] false)\n  (< x 3)");
    text = text.replace(text.find(":unsafe\n:var z1\n:var z2\n:cnj (= a[z1] 3) (= a[z2] 3)"),
                        std::string(":unsafe\n:var z1\n:var z2\n:cnj (= a[z1] 3) (= a[z2] 3)").size(),
                        ":unsafe\n:var x\n:var y\n:cnj (= a[x] 3) (= a[y] 3)\n:u_cnj (= a[z3] 2)");
    SysPtr s;
    pn_error err = {};
    ASSERT_EQ(read_text(text, &s, &err), PN_OK) << err.msg << "\n" << text;
    const pn_mcmt_sys *y = s.s;
    const pn_mcmt_trans &t = y->trans[0];
    ASSERT_EQ(t.guard.n, 3u);
    const pn_mcmt_term &ne = y->terms[t.guard.items[0]];
    EXPECT_EQ(ne.kind, PN_MCMT_OP);
    EXPECT_EQ(ne.op, PN_MCMT_NOT);
    ASSERT_EQ(ne.n, 1u);
    EXPECT_EQ(y->terms[y->kids[ne.first]].op, PN_MCMT_EQ);
    const pn_mcmt_term &eq = y->terms[t.guard.items[1]];
    const pn_mcmt_term &gx = y->terms[y->kids[eq.first]];
    EXPECT_EQ(gx.kind, PN_MCMT_READ);
    EXPECT_EQ(gx.value, 1);
    EXPECT_EQ(gx.n, 0u);
    ASSERT_EQ(y->n_unsafe, 2u);
    EXPECT_EQ(y->unsafe[0].nz, 2u);
    const pn_mcmt_term &c0 = y->terms[y->unsafe[0].cnj.items[1]];
    const pn_mcmt_term &read = y->terms[y->kids[c0.first]];
    EXPECT_EQ(y->terms[y->kids[read.first]].kind, PN_MCMT_VAR);
    EXPECT_EQ(y->terms[y->kids[read.first]].value, PN_MCMT_Z1 + 1); // y is z2
    EXPECT_EQ(y->unsafe[1].nz, 3u); // z3 used: three distinct processes
    // a only goes 1 -> 2 (processes 1 and 2: (< x 3)), so the first cube
    // never holds; the :u_cnj needs three processes, one of them at 2:
    // N = 1, 2 SAFE (2 and 4 states), N = 3, 4 UNSAFE after one step.
    const uint64_t states[] = {2, 4};
    for (uint32_t n = 1; n <= 4; n++) {
        Agreement a = agree(y, {n, 1, 0, 3});
        EXPECT_EQ(a.problem, "") << "N = " << n;
        EXPECT_EQ(a.ref.answer, n <= 2 ? Answer::Safe : Answer::Unsafe) << "N = " << n;
        if (n <= 2) {
            EXPECT_EQ(a.ref.states, states[n - 1]) << "N = " << n;
        } else {
            EXPECT_EQ(a.ref.depth, 1u) << "N = " << n;
        }
    }
}

// include/petrel/mcmt.h: pn_mcmt_univ.vars is "bit v for PN_MCMT_X / _Y /
// _J", the variables of the :initial or :system_axiom block. The reader
// must fill it in (mcmt_read.c leaves it 0: mr_block_start and
// mr_block_cnj never set it; host/space/mcmt.c recomputes the variables
// from the terms, so pn_mcmt_check is not affected, but every other user of
// the AST is).
TEST(Mcmt, ReaderRecordsTheVariablesOfUniversalFormulas)
{
    std::string text = base_with(0, "", ":system_axiom\n:var x\n:var y\n:var j\n:cnj true\n");
    text.replace(text.find(":var x\n:cnj (= a[x] 1)"), 6, ":var x\n:var y");
    SysPtr s;
    pn_error err = {};
    ASSERT_EQ(read_text(text, &s, &err), PN_OK) << err.msg;
    ASSERT_EQ(s.s->n_initial, 1u);
    ASSERT_EQ(s.s->n_axioms, 1u);
    EXPECT_EQ(s.s->initial[0].vars, (1u << PN_MCMT_X) | (1u << PN_MCMT_Y));
    EXPECT_EQ(s.s->axioms[0].vars, (1u << PN_MCMT_X) | (1u << PN_MCMT_Y) | (1u << PN_MCMT_J));
}

// docs/mcmt.md: "the comment right before a :transition names it in
// traces"; a transition with none is "t<k>" (mcmt.h). A :comment at the
// top of the file, before the declarations, is not right before the first
// transition and must not name it.
TEST(Mcmt, ReaderNamesTransitionsByTheCommentRightBefore)
{
    std::string text = ":comment A header line\n" + base_with(0, "") +
                       ":comment Second\n:transition\n:var j\n:numcases 1\n:case\n:val a[j]\n"
                       ":val g\n:transition\n:var j\n:numcases 1\n:case\n:val a[j]\n:val g\n";
    SysPtr s;
    pn_error err = {};
    ASSERT_EQ(read_text(text, &s, &err), PN_OK) << err.msg;
    ASSERT_EQ(s.s->n_trans, 3u);
    EXPECT_STREQ(s.s->trans[1].name, "Second");
    EXPECT_STREQ(s.s->trans[2].name, "t3");
    EXPECT_STREQ(s.s->trans[0].name, "t1");
}
