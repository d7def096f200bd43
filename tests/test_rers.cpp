// RERS parallel problems (petrel/rers.h): the .dot reader, the LTS-to-net
// encoding, the property parser, and action-based LTL and CTL, against the
// independent references of test_rers_gen.h (the explicit graph built from
// the LTSs directly, CTL by fixpoints, LTL by the Vardi-Wolper tableau).
// Every system is read twice, as .dot and as PNML written independently,
// and both must give the reference's answers; every LTL counterexample is
// replayed on the net and must violate the formula. The bundled systems in
// models/rers/ must give their expected answers, through the library and
// through the CLI.
#include <gtest/gtest.h>

#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "petrel/cnet.h"
#include "petrel/ctl.h"
#include "petrel/ltl.h"
#include "petrel/pnml.h"
#include "petrel/rers.h"
#include "test_rers_gen.h"

using namespace rers_test;

namespace {

struct Loaded {
    pn_net *net = nullptr;
    pn_cnet *cn = nullptr;
    pn_lazy *z = nullptr;
    ~Loaded()
    {
        pn_lazy_free(z);
        pn_cnet_free(cn);
        pn_net_free(net);
    }
};

bool finish(Loaded &l, pn_error *err)
{
    return pn_cnet_compile(l.net, &l.cn, err) == PN_OK &&
           pn_rers_space(l.cn, 0, &l.z, err) == PN_OK;
}

std::unique_ptr<Loaded> load_dot(const std::string &text, pn_error *err)
{
    auto l = std::make_unique<Loaded>();
    pn_lts_system *sys = nullptr;
    if (pn_dot_read_memory(text.data(), text.size(), "system.dot", &sys, err) != PN_OK)
        return nullptr;
    pn_status st = pn_lts_to_net(sys, &l->net, err);
    pn_lts_system_free(sys);
    return st == PN_OK && finish(*l, err) ? std::move(l) : nullptr;
}

std::unique_ptr<Loaded> load_pnml(const std::string &text, pn_error *err)
{
    auto l = std::make_unique<Loaded>();
    if (pn_pnml_read_memory(text.data(), text.size(), "system.pnml", nullptr, &l->net, err) != PN_OK)
        return nullptr;
    return finish(*l, err) ? std::move(l) : nullptr;
}

uint64_t count_states(pn_lazy *z)
{
    pn_error err = {};
    for (uint64_t s = 0; s < pn_lazy_states(z); s++) {
        const uint32_t *succ;
        uint32_t n;
        if (pn_lazy_succ(z, (uint32_t)s, &succ, &n, &err) != PN_OK)
            return 0;
    }
    return pn_lazy_states(z);
}

// Replays a lasso on the net: every step enabled, the cycle closes; returns
// the labels (kInternal for tau) by the test system's label indices.
bool replay(const Loaded &l, const System &s, const pn_ltl_lasso &lasso, std::vector<int> *labels)
{
    std::vector<uint64_t> m(l.cn->m0, l.cn->m0 + l.cn->n_places), loop, next(l.cn->n_places);
    for (uint64_t k = 0; k < lasso.prefix + lasso.cycle; k++) {
        if (k == lasso.prefix)
            loop = m;
        uint32_t t = lasso.trans[k];
        if (t >= l.cn->n_transitions || !pn_cnet_enabled(l.cn, m.data(), t) ||
            !pn_cnet_fire(l.cn, m.data(), t, next.data()))
            return false;
        m = next;
        const char *name = pn_rers_label(l.net, t);
        int idx = kInternal;
        for (size_t i = 0; name != nullptr && i < s.labels.size(); i++)
            if (s.labels[i] == name)
                idx = (int)i;
        labels->push_back(idx);
    }
    return lasso.cycle > 0 && m == loop;
}

struct Checked {
    bool ok = false, value = false;
    std::string error;
    std::vector<uint32_t> path; // a CTL witness (pn_rers_check's lasso without a cycle)
    bool has_path = false;
};

Checked check(Loaded &l, const System &s, const Property &p)
{
    Checked c;
    pn_error err = {};
    pn_rers_prop prop;
    // AUTO must see the logic, except for an LTL formula without labels or
    // temporal operators, which is CTL text too (and then means something
    // else: LTL "false" holds on a system without infinite traces).
    if (pn_rers_parse(p.text.c_str(), l.net, PN_RERS_AUTO, &prop, &err) != PN_OK) {
        c.error = "parse: " + std::string(err.msg);
        return c;
    }
    bool label_free = p.text.find_first_not_of("truefals!&|->() ") == std::string::npos;
    if ((prop.logic == PN_RERS_CTL) != p.ctl && !(label_free && !p.ctl)) {
        c.error = "read as the wrong logic";
        pn_rers_prop_clear(&prop);
        return c;
    }
    pn_rers_prop_clear(&prop);
    if (pn_rers_parse(p.text.c_str(), l.net, p.ctl ? PN_RERS_CTL : PN_RERS_LTL, &prop, &err) != PN_OK) {
        c.error = "parse: " + std::string(err.msg);
        return c;
    }
    pn_ltl_lasso lasso = {};
    pn_status st = pn_rers_check(l.z, &prop, nullptr, &c.value, &lasso, &err);
    c.ok = st == PN_OK;
    if (!c.ok)
        c.error = err.msg;
    if (c.ok && prop.logic == PN_RERS_CTL && lasso.trans != nullptr) {
        c.has_path = true;
        c.path.assign(lasso.trans, lasso.trans + lasso.prefix);
    }
    if (c.ok && !c.value && prop.logic == PN_RERS_LTL) {
        std::vector<int> labels;
        if (lasso.trans == nullptr || !replay(l, s, lasso, &labels)) {
            c.ok = false;
            c.error = "the counterexample is not a lasso of the net";
        } else if (ltl_holds(lasso_graph(labels, lasso.prefix), p.f)) {
            c.ok = false;
            c.error = "the counterexample satisfies the formula";
        }
    }
    pn_ltl_lasso_free(&lasso);
    pn_rers_prop_clear(&prop);
    return c;
}

bool reference(const Graph &g, const Property &p)
{
    return p.ctl ? ctl_sat(g, p.f)[0] : ltl_holds(g, p.f);
}

// A CTL witness replayed on the PNML net (places q<c>x<v>, in LTS then
// state order): its markings, as explicit states, must run through a-states
// to a b-state of the root E(a U b), or of the E(true U !a) under a root
// AG a (a NOT over an EU in the reference's tree).
std::string check_witness(const Loaded &l, const System &s, const Graph &g, const Property &p,
                          const std::vector<uint32_t> &path)
{
    const Fml *eu = p.f->op == Op::EU ? p.f.get()
                    : p.f->op == Op::Not && p.f->a->op == Op::EU ? p.f->a.get() : nullptr;
    if (eu == nullptr)
        return "a witness for a root that is not E(a U b) or AG";
    std::map<std::vector<int>, int> id;
    for (size_t i = 0; i < g.state.size(); i++)
        id[g.state[i]] = (int)i;
    auto state_of = [&](const std::vector<uint64_t> &m) {
        std::vector<int> local;
        size_t k = 0;
        for (const Lts &t : s.lts)
            for (int v = 0; v < t.states; v++, k++)
                if (m[k] == 1)
                    local.push_back(v);
        auto it = id.find(local);
        return it == id.end() ? -1 : it->second;
    };
    std::vector<bool> a = ctl_sat(g, eu->a), b = ctl_sat(g, eu->b);
    std::vector<uint64_t> m(l.cn->m0, l.cn->m0 + l.cn->n_places), next(m.size());
    for (uint32_t t : path) {
        int x = state_of(m);
        if (x < 0 || !a[x])
            return "the witness leaves the a-states";
        if (t >= l.cn->n_transitions || !pn_cnet_enabled(l.cn, m.data(), t) ||
            !pn_cnet_fire(l.cn, m.data(), t, next.data()))
            return "the witness is not a path of the net";
        m = next;
    }
    int x = state_of(m);
    return x >= 0 && b[x] ? "" : "the witness does not end in a b-state";
}

} // namespace

TEST(Rers, RandomSystemsBothInputsMatchTheReferences)
{
#ifndef PETREL_HAVE_CGRAPH
    GTEST_SKIP() << "built without Graphviz";
#endif
    std::mt19937 rng(2019);
    int checked = 0, ltl_false = 0, ctl_true = 0, witnesses = 0;
    for (int sys = 0; sys < 250; sys++) {
        System s = random_system(rng);
        Graph g = explore(s);
        pn_error err = {};
        auto dot = load_dot(to_dot(s), &err);
        ASSERT_NE(dot, nullptr) << err.msg << "\n" << to_dot(s);
        auto pnml = load_pnml(to_pnml(s), &err);
        ASSERT_NE(pnml, nullptr) << err.msg;
        // A state without incoming edges whose only edge is an internal one
        // reads as a start arrow in .dot (it is unreachable anyway): the .dot
        // net may have fewer transitions, never more.
        ASSERT_LE(dot->net->n_transitions, pnml->net->n_transitions) << to_dot(s);
        for (int k = 0; k < 6; k++) {
            Property p = k < 3 ? random_ltl(rng, s, 3) : random_ctl(rng, s, 3);
            bool want = reference(g, p);
            Checked a = check(*dot, s, p), b = check(*pnml, s, p);
            ASSERT_TRUE(a.ok) << p.text << ": " << a.error << "\n" << to_dot(s);
            ASSERT_TRUE(b.ok) << p.text << ": " << b.error << "\n" << to_dot(s);
            ASSERT_EQ(a.value, want) << "dot: " << p.text << "\n" << to_dot(s);
            ASSERT_EQ(b.value, want) << "pnml: " << p.text << "\n" << to_dot(s);
            if (b.has_path) {
                EXPECT_EQ(check_witness(*pnml, s, g, p, b.path), "") << p.text << "\n" << to_dot(s);
                witnesses++;
            }
            checked++;
            ltl_false += !p.ctl && !want;
            ctl_true += p.ctl && want;
        }
        ASSERT_EQ(count_states(dot->z), g.state.size()) << to_dot(s);
        ASSERT_EQ(count_states(pnml->z), g.state.size());
    }
    EXPECT_EQ(checked, 1500);
    // Both answers occur often enough for the comparison to mean something.
    EXPECT_GT(ltl_false, 100);
    EXPECT_GT(ctl_true, 100);
    EXPECT_GT(witnesses, 50);
}

TEST(Rers, HandMadeSystemsHaveTheirKnownAnswers)
{
#ifndef PETREL_HAVE_CGRAPH
    GTEST_SKIP() << "built without Graphviz";
#endif
    for (const Family &f : families()) {
        pn_error err = {};
        auto dot = load_dot(to_dot(f.system), &err);
        ASSERT_NE(dot, nullptr) << err.msg;
        auto pnml = load_pnml(to_pnml(f.system), &err);
        ASSERT_NE(pnml, nullptr) << err.msg;
        for (const HandCase &c : f.cases)
            for (Loaded *l : {dot.get(), pnml.get()}) {
                pn_rers_prop p;
                ASSERT_EQ(pn_rers_parse(c.text, l->net, PN_RERS_AUTO, &p, &err), PN_OK) << err.msg;
                bool value = !c.want;
                ASSERT_EQ(pn_rers_check(l->z, &p, nullptr, &value, nullptr, &err), PN_OK) << err.msg;
                EXPECT_EQ(value, c.want) << f.name << ": " << c.text;
                pn_rers_prop_clear(&p);
            }
    }
}

TEST(Rers, DotReaderRejectsWhatItCannotRead)
{
#ifndef PETREL_HAVE_CGRAPH
    GTEST_SKIP() << "built without Graphviz";
#endif
    struct Bad {
        const char *text, *expect;
    };
    const Bad bad[] = {
        {"digraph { a -> ", "not a Graphviz graph"},
        {"graph { a -- b [label=x] }", "not a digraph"},
        {"digraph { subgraph cluster_a { a -> b [label=x]; b -> a [label=y] } }", "no start state"},
        {"digraph { subgraph cluster_a { i -> a [label=\"\"]; a -> b [label=x] } c -> d [label=y] }",
         "is in no LTS"},
        {"digraph { subgraph cluster_a { i -> a [label=\"\"]; j -> b [label=\"\"]; a -> b [label=x] } }",
         "lead to different states"},
    };
    for (const Bad &b : bad) {
        pn_lts_system *sys = nullptr;
        pn_error err = {};
        EXPECT_EQ(pn_dot_read_memory(b.text, strlen(b.text), "x.dot", &sys, &err), PN_ERR_INPUT)
            << b.text;
        EXPECT_NE(std::string(err.msg).find(b.expect), std::string::npos) << err.msg;
        EXPECT_EQ(sys, nullptr);
    }
    // Without subgraphs the graph is one LTS, started at its root.
    const char *one = "digraph { s -> t [label=go]; t -> u [label=back]; u -> t [label=go] }";
    pn_lts_system *sys = nullptr;
    pn_error err = {};
    ASSERT_EQ(pn_dot_read_memory(one, strlen(one), "one.dot", &sys, &err), PN_OK) << err.msg;
    ASSERT_EQ(sys->n_lts, 1u);
    EXPECT_EQ(std::string(sys->lts[0].state[sys->lts[0].start]), "s");
    EXPECT_EQ(sys->n_labels, 2u);
    pn_lts_system_free(sys);
    // Several graphs in one file: their LTSs together, labels shared.
    const char *two = "digraph A { i -> a [label=\"\"]; a -> b [label=x]; b -> a [label=y] }\n"
                      "digraph B { subgraph cluster_1 { j -> a [label=\"\"]; a -> a [label=x] }\n"
                      "            subgraph cluster_2 { k -> c [label=\"\"]; c -> c [label=z] } }";
    ASSERT_EQ(pn_dot_read_memory(two, strlen(two), "two.dot", &sys, &err), PN_OK) << err.msg;
    EXPECT_EQ(sys->n_lts, 3u);
    EXPECT_EQ(sys->n_labels, 3u);
    EXPECT_EQ(sys->lts[0].n_states, 2u); // the start arrow's source is no state
    pn_lts_system_free(sys);
}

TEST(Rers, StateBasedCheckersRefuseActionAtoms)
{
    System s;
    s.labels = {"a"};
    s.lts = {Lts{"P", 1, 0, {{0, 0, 0}}}};
    pn_error err = {};
    auto l = load_pnml(to_pnml(s), &err);
    ASSERT_NE(l, nullptr) << err.msg;
    pn_rers_prop p;
    ASSERT_EQ(pn_rers_parse("G a", l->net, PN_RERS_LTL, &p, &err), PN_OK) << err.msg;
    bool v = false;
    // The state-based product compiles its atoms as state formulas: refused.
    pn_lazy *z = nullptr;
    ASSERT_EQ(pn_lazy_new(l->cn, 0, &z, &err), PN_OK);
    EXPECT_EQ(pn_ltl_check_otf(z, p.root, nullptr, &v, nullptr, nullptr, &err), PN_ERR_UNSUPPORTED);
    pn_lazy_free(z);
    pn_rers_prop_clear(&p);
    // An action atom outside [a] / <a> has no step to read.
    pn_fml_node *a = nullptr;
    uint32_t t = 0;
    a = pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, pn_fml_list(PN_FML_ACTION, &t, 1)));
    ASSERT_NE(a, nullptr);
    err = {};
    EXPECT_EQ(pn_ctl_check_otf(l->z, a, nullptr, &v, &err), PN_ERR_UNSUPPORTED);
    pn_fml_free(a);
}

TEST(Rers, PropertyFilesNumberTheirFormulas)
{
    System s = philosophers(2);
    pn_error err = {};
    auto l = load_pnml(to_pnml(s), &err);
    ASSERT_NE(l, nullptr) << err.msg;
    char tmpl[] = "/tmp/petrel_rers_props_XXXXXX";
    int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    const char *text = "# a comment\nG F left_0\n#3\n\nEF [] false\n#7: AG <> true\n"
                       "9: [left_0] true\n#12:\n  <left_1> true  \nF right_1\n";
    ASSERT_EQ(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    pn_rers_props *props = nullptr;
    ASSERT_EQ(pn_rers_read_props(tmpl, l->net, PN_RERS_AUTO, &props, &err), PN_OK) << err.msg;
    unlink(tmpl);
    const uint32_t numbers[] = {1, 3, 7, 9, 12, 13};
    const uint32_t lines[] = {2, 5, 6, 7, 9, 10};
    const pn_rers_logic logic[] = {PN_RERS_LTL, PN_RERS_CTL, PN_RERS_CTL, PN_RERS_CTL,
                                   PN_RERS_CTL, PN_RERS_LTL};
    ASSERT_EQ(props->n, 6u);
    for (uint32_t i = 0; i < props->n; i++) {
        EXPECT_EQ(props->p[i].number, numbers[i]) << i;
        EXPECT_EQ(props->p[i].line, lines[i]) << i;
        EXPECT_EQ(props->p[i].logic, logic[i]) << i;
    }
    EXPECT_EQ(std::string(props->p[4].text), "<left_1> true");
    pn_rers_props_free(props);
}

TEST(Rers, CliUsageErrorsAndTraces)
{
    auto run = [](const std::string &args, std::string *out) {
        std::string cmd = std::string(PETREL_CLI_PATH) + " " + args + " 2>&1";
        FILE *f = popen(cmd.c_str(), "r");
        out->clear();
        char buf[512];
        while (f != nullptr && fgets(buf, sizeof buf, f) != nullptr)
            *out += buf;
        int st = f != nullptr ? pclose(f) : -1;
        return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    };
    const std::string dir = std::string(PETREL_SOURCE_DIR) + "/models/rers/philosophers/";
    std::string out;
    EXPECT_EQ(run("rers --help", &out), 0);
    EXPECT_NE(out.find("PROPERTIES"), std::string::npos);
    EXPECT_EQ(run("--help", &out), 0);
    EXPECT_NE(out.find("petrel rers"), std::string::npos);
    EXPECT_EQ(run("rers " + dir + "system.pnml", &out), 2);
    EXPECT_EQ(run("rers --bogus " + dir + "system.pnml " + dir + "properties.txt", &out), 2);
    EXPECT_EQ(run("rers /nonexistent.dot " + dir + "properties.txt", &out), 2);
    EXPECT_NE(out.find("/nonexistent.dot"), std::string::npos) << out;
    char tmpl[] = "/tmp/petrel_rers_XXXXXX";
    int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    const char *bad = "G F left_0\n\nAG (<left_0> true\n";
    ASSERT_EQ(write(fd, bad, strlen(bad)), (ssize_t)strlen(bad));
    close(fd);
    EXPECT_EQ(run("rers " + dir + "system.dot " + tmpl, &out), 2);
    EXPECT_NE(out.find(std::string(tmpl) + ":3: column 18"), std::string::npos) << out;
    unlink(tmpl);
#ifdef PETREL_HAVE_CGRAPH
    // Traces: a lasso for a false LTL property, a path for a true EF.
    EXPECT_EQ(run("rers --trace " + dir + "system.dot " + dir + "properties.txt", &out), 0);
    EXPECT_NE(out.find("trace 1 (path, "), std::string::npos) << out;
    EXPECT_NE(out.find("trace 3 (lasso, "), std::string::npos) << out;
    EXPECT_NE(out.find("20 properties") == std::string::npos ? out.find("properties: ") : 0,
              std::string::npos) << out;
#endif
}

TEST(Rers, ParserReadsBothSyntaxesAndNamesTheColumnOfAnError)
{
    // A tiny system from PNML: labels a and b.
    System s;
    s.labels = {"a", "b"};
    s.lts = {Lts{"P", 2, 0, {{0, 1, 0}, {1, 0, 1}}}};
    pn_error err = {};
    auto l = load_pnml(to_pnml(s), &err);
    ASSERT_NE(l, nullptr) << err.msg;
    struct Case {
        const char *text;
        pn_rers_logic logic;
        bool value;
    };
    const Case ok[] = {
        {"G F a", PN_RERS_LTL, true},
        {"[] <> a", PN_RERS_LTL, true},       // not CTL (a label alone): Spot's G F
        {"a U b", PN_RERS_LTL, true},
        {"X X a", PN_RERS_LTL, true},
        {"\"a\" -> X \"b\"", PN_RERS_LTL, true},
        {"a xor b", PN_RERS_LTL, true},
        {"a <-> !b", PN_RERS_LTL, true},
        {"G (a -> X b) && F a", PN_RERS_LTL, true},
        {"b R a", PN_RERS_LTL, false},         // a at position 0 only
        {"a M true", PN_RERS_LTL, true},
        {"<a> <b> true", PN_RERS_CTL, true},
        {"[] <> true", PN_RERS_CTL, true},      // CTL: AX EX
        {"[b] false & <a> true", PN_RERS_CTL, true},
        {"AG (<a> true <=> [b] false)", PN_RERS_CTL, true},
        {"A(true U <b> true) => E(false W <a> true)", PN_RERS_CTL, true},
        {"EF <zz> true", PN_RERS_CTL, false},   // a label the system lacks never fires
        {"G !zz", PN_RERS_LTL, true},
    };
    for (const Case &c : ok) {
        pn_rers_prop p;
        ASSERT_EQ(pn_rers_parse(c.text, l->net, PN_RERS_AUTO, &p, &err), PN_OK) << c.text << ": " << err.msg;
        EXPECT_EQ(p.logic, c.logic) << c.text;
        bool v = !c.value;
        ASSERT_EQ(pn_rers_check(l->z, &p, nullptr, &v, nullptr, &err), PN_OK) << err.msg;
        EXPECT_EQ(v, c.value) << c.text;
        pn_rers_prop_clear(&p);
    }
    struct Bad {
        const char *text;
        pn_rers_logic logic;
        const char *expect;
    };
    const Bad bad[] = {
        {"G (a", PN_RERS_AUTO, "column 5"},
        {"a U", PN_RERS_AUTO, "column 4"},
        {"AG a", PN_RERS_CTL, "column 4"},
        {"A(true X false)", PN_RERS_CTL, "'U' or 'W' expected"},
        {"a $ b", PN_RERS_LTL, "column 3"},
    };
    // Nested rewritings that copy their operands, and long chains, stop at
    // 10000 operators rather than exhausting memory or the stack.
    std::string nested = "G ", chain = "a";
    for (int i = 0; i < 40; i++)
        nested += "(a <-> ";
    nested += "b" + std::string(40, ')');
    for (int i = 0; i < 20000; i++)
        chain += " & a";
    for (const std::string &text : {nested, chain, std::string(50000, '!') + "a"}) {
        pn_rers_prop p;
        pn_error e = {};
        EXPECT_EQ(pn_rers_parse(text.c_str(), l->net, PN_RERS_AUTO, &p, &e), PN_ERR_INPUT);
        EXPECT_NE(std::string(e.msg).find("formula too large"), std::string::npos) << e.msg;
    }
    for (const Bad &b : bad) {
        pn_rers_prop p;
        pn_error e = {};
        EXPECT_EQ(pn_rers_parse(b.text, l->net, b.logic, &p, &e), PN_ERR_INPUT) << b.text;
        EXPECT_NE(std::string(e.msg).find(b.expect), std::string::npos) << b.text << ": " << e.msg;
    }
}

// models/rers/<name>/: system.dot, system.pnml, properties.txt and
// expected.txt ("<number> true|false" lines), through the library on both
// inputs and through the CLI on the .dot.
TEST(Rers, BundledSystemsGiveTheirExpectedAnswers)
{
#ifndef PETREL_HAVE_CGRAPH
    GTEST_SKIP() << "built without Graphviz";
#endif
    const std::string root = std::string(PETREL_SOURCE_DIR) + "/models/rers/";
    int systems = 0;
    for (const char *name : {"token-ring", "producer-consumer", "philosophers", "random"}) {
        std::string dir = root + name + "/";
        std::ifstream in(dir + "expected.txt");
        ASSERT_TRUE(in.good()) << dir;
        std::string expected((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (const char *sys : {"system.dot", "system.pnml"}) {
            pn_error err = {};
            Loaded l;
            ASSERT_EQ(pn_rers_read_system((dir + sys).c_str(), nullptr, nullptr, &l.net, &err), PN_OK) << err.msg;
            ASSERT_TRUE(finish(l, &err)) << err.msg;
            pn_rers_props *props = nullptr;
            ASSERT_EQ(pn_rers_read_props((dir + "properties.txt").c_str(), l.net, PN_RERS_AUTO,
                                         &props, &err), PN_OK) << err.msg;
            std::ostringstream got;
            for (uint32_t i = 0; i < props->n; i++) {
                bool v = false;
                ASSERT_EQ(pn_rers_check(l.z, &props->p[i], nullptr, &v, nullptr, &err), PN_OK)
                    << err.msg;
                got << props->p[i].number << (v ? " true\n" : " false\n");
            }
            pn_rers_props_free(props);
            EXPECT_EQ(got.str(), expected) << dir << sys;
        }
        std::string cmd = std::string(PETREL_CLI_PATH) + " rers -q '" + dir + "system.dot' '" + dir +
                          "properties.txt' 2>/dev/null";
        FILE *f = popen(cmd.c_str(), "r");
        ASSERT_NE(f, nullptr);
        std::string out;
        char buf[256];
        while (fgets(buf, sizeof buf, f) != nullptr)
            out += buf;
        EXPECT_EQ(pclose(f), 0);
        EXPECT_EQ(out, expected) << cmd;
        systems++;
    }
    EXPECT_EQ(systems, 4);
}
