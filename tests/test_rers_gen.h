// RERS-style parallel systems for the tests and tools/rers/gen.cpp, written
// here independently of Petrel's reader and encoder (host/io/dot_read.c,
// host/net/lts.c):
//   - systems of LTSs: random ones and hand-made families (a token ring
//     with mutual exclusion, a producer/consumer chain, dining philosophers
//     that deadlock);
//   - writers of the two RERS input forms: .dot and PNML (one transition per
//     combination of local choices, named by the label);
//   - the explicit state graph, by breadth-first search over vectors of
//     local states with the seed's synchronisation rule;
//   - random properties in the RERS syntax with their own small trees;
//   - reference evaluators on the explicit graph: CTL by the textbook
//     fixpoints (deadlocks end maximal paths), LTL over infinite action
//     traces by the Vardi-Wolper tableau (M. Y. Vardi and P. Wolper, "An
//     automata-theoretic approach to automatic program verification",
//     LICS 1986): product states are (state, truth assignment of the
//     closure), and a reachable non-trivial SCC that fulfils every until is
//     a counterexample. Nothing here shares code with the GPVW translation
//     (host/logic/ltl_gba.c) or the checkers.
#ifndef PETREL_TEST_RERS_GEN_H
#define PETREL_TEST_RERS_GEN_H

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace rers_test {

constexpr int kInternal = -1; // an empty label

struct Edge {
    int src, dst, label; // label: index into System::labels, or kInternal
};

struct Lts {
    std::string name;
    int states = 1, start = 0;
    std::vector<Edge> edges;
};

struct System {
    std::vector<std::string> labels;
    std::vector<Lts> lts;
    bool shared_node_names = false; // .dot: every cluster names its nodes 0, 1, ...
};

// ---- systems -----------------------------------------------------------------

// 1..4 LTSs of 1..4 states, each on a cycle through all its states;
// an LTS has one or two labels of its own and draws a third of its edges'
// labels from a pool of shared ones (synchronisation), and now and then an
// internal step back to its start (the seed's empty labels).
inline System random_system(std::mt19937 &rng)
{
    System s;
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int n_shared = pick(1, 3), n_lts = pick(1, 4);
    for (int l = 0; l < n_shared; l++)
        s.labels.push_back(std::string(1, char('a' + l)) + (pick(0, 1) ? "_" + std::to_string(l) : ""));
    for (int c = 0; c < n_lts; c++) {
        Lts t;
        t.name = "P" + std::to_string(c);
        t.states = pick(0, 5) == 0 ? 1 : pick(2, 4);
        t.start = pick(0, t.states - 1);
        int own = (int)s.labels.size(), n_own = pick(1, 2);
        for (int l = 0; l < n_own; l++)
            s.labels.push_back("p" + std::to_string(c) + std::string(1, char('x' + l)));
        int n_edges = pick(t.states, t.states + 4);
        for (int e = 0; e < n_edges; e++) { // the first ones: a cycle through every state
            int label = pick(0, 2) == 0 ? pick(0, n_shared - 1) : own + pick(0, n_own - 1);
            int src = e < t.states ? (t.start + e) % t.states : pick(0, t.states - 1);
            int dst = e < t.states ? (src + 1) % t.states : pick(0, t.states - 1);
            Edge ed{src, dst, label};
            if (pick(0, 11) == 0)
                ed = Edge{ed.src, t.start, kInternal};
            t.edges.push_back(ed);
        }
        s.lts.push_back(t);
    }
    s.shared_node_names = pick(0, 1);
    return s;
}

// A token ring: process i goes idle -req_i-> want -enter_i-> crit -exit_i->
// idle; the token LTS is at position i, moves on by pass_i, and takes part
// in enter_i and exit_i (held while i is critical): mutual exclusion.
inline System token_ring(int n)
{
    System s;
    auto label = [&](const std::string &l) {
        s.labels.push_back(l);
        return (int)s.labels.size() - 1;
    };
    Lts token;
    token.name = "token";
    token.states = 2 * n; // 2i: at i, free; 2i+1: at i, held
    for (int i = 0; i < n; i++) {
        int req = label("req_" + std::to_string(i)), enter = label("enter_" + std::to_string(i));
        int exit = label("exit_" + std::to_string(i)), pass = label("pass_" + std::to_string(i));
        Lts p;
        p.name = "proc" + std::to_string(i);
        p.states = 3;
        p.edges = {{0, 1, req}, {1, 2, enter}, {2, 0, exit}};
        s.lts.push_back(p);
        token.edges.push_back({2 * i, 2 * i + 1, enter});
        token.edges.push_back({2 * i + 1, 2 * i, exit});
        token.edges.push_back({2 * i, 2 * ((i + 1) % n), pass});
    }
    s.lts.push_back(token);
    return s;
}

// Producer -> buffer_0 -> stage_1 -> ... -> buffer_{k-1} -> consumer; each
// buffer holds cap items. put_i fills buffer i, get_i empties it.
inline System producer_consumer(int k, int cap)
{
    System s;
    for (int i = 0; i < k; i++) {
        s.labels.push_back("put_" + std::to_string(i));
        s.labels.push_back("get_" + std::to_string(i));
    }
    s.labels.push_back("produce");
    s.labels.push_back("consume");
    int produce = 2 * k, consume = 2 * k + 1;
    Lts prod{"producer", 2, 0, {{0, 1, produce}, {1, 0, 0}}};
    s.lts.push_back(prod);
    for (int i = 0; i < k; i++) {
        Lts b{"buffer" + std::to_string(i), cap + 1, 0, {}};
        for (int j = 0; j < cap; j++) {
            b.edges.push_back({j, j + 1, 2 * i});
            b.edges.push_back({j + 1, j, 2 * i + 1});
        }
        s.lts.push_back(b);
        if (i + 1 < k)
            s.lts.push_back(Lts{"stage" + std::to_string(i + 1), 2, 0,
                                {{0, 1, 2 * i + 1}, {1, 0, 2 * (i + 1)}}});
    }
    s.lts.push_back(Lts{"consumer", 2, 0, {{0, 1, 2 * (k - 1) + 1}, {1, 0, consume}}});
    return s;
}

// Dining philosophers: phil i takes fork i (left) then fork i+1 (right),
// eats, releases both. All taking their left fork is a deadlock.
inline System philosophers(int n)
{
    System s;
    for (int i = 0; i < n; i++) {
        s.labels.push_back("left_" + std::to_string(i));
        s.labels.push_back("right_" + std::to_string(i));
        s.labels.push_back("release_" + std::to_string(i));
    }
    for (int i = 0; i < n; i++)
        s.lts.push_back(Lts{"phil" + std::to_string(i), 3, 0,
                            {{0, 1, 3 * i}, {1, 2, 3 * i + 1}, {2, 0, 3 * i + 2}}});
    for (int j = 0; j < n; j++) { // fork j: left of j, right of j-1
        int prev = (j + n - 1) % n;
        s.lts.push_back(Lts{"fork" + std::to_string(j), 2, 0,
                            {{0, 1, 3 * j}, {1, 0, 3 * j + 2}, {0, 1, 3 * prev + 1},
                             {1, 0, 3 * prev + 2}}});
    }
    return s;
}

// The bundled families (models/rers/) with their sizes, and properties
// whose answers were worked out by hand (models/rers/README.md says why).
struct HandCase {
    const char *text;
    bool want;
};

struct Family {
    const char *name;
    System system;
    std::vector<HandCase> cases;
};

inline std::vector<Family> families()
{
    return {
        {"token-ring", token_ring(3),
         {{"G(enter_0 -> X(!enter_1 U exit_0))", true},
          {"G F enter_0", false},
          {"AG [enter_0] A(!<enter_1> true W <exit_0> true)", true},
          {"AG EF <enter_2> true", true},
          {"EF [] false", false}}},
        {"producer-consumer", producer_consumer(2, 2),
         {{"G F produce", true},
          {"G F consume", true},
          {"AG <> true", true},
          {"AG (<put_0> true | <get_1> true | <produce> true)", false},
          {"F G produce", false}}},
        {"philosophers", philosophers(3),
         {{"EF [] false", true},
          {"AG EF <release_0> true", false},
          {"G F release_0", false},
          {"G(left_0 -> F right_0)", false},
          {"E(true W <left_0> true)", true},
          {"[left_1] <right_1> true", true}}},
    };
}

// ---- writers ---------------------------------------------------------------------

inline std::string node_name(const System &s, int c, int v)
{
    return s.shared_node_names ? std::to_string(v) : std::to_string(c) + "_" + std::to_string(v);
}

inline std::string to_dot(const System &s)
{
    std::ostringstream o;
    o << "digraph system {\n";
    for (size_t c = 0; c < s.lts.size(); c++) {
        const Lts &t = s.lts[c];
        o << "  subgraph cluster_" << t.name << " {\n    label=\"" << t.name << "\";\n";
        for (int v = 0; v < t.states; v++)
            o << "    \"" << node_name(s, (int)c, v) << "\";\n";
        o << "    start_" << t.name << " [shape=point];\n";
        o << "    start_" << t.name << " -> \"" << node_name(s, (int)c, t.start)
          << "\" [label=\"\"];\n";
        for (const Edge &e : t.edges)
            o << "    \"" << node_name(s, (int)c, e.src) << "\" -> \"" << node_name(s, (int)c, e.dst)
              << "\" [label=\"" << (e.label == kInternal ? "" : s.labels[e.label]) << "\"];\n";
        o << "  }\n";
    }
    o << "}\n";
    return o.str();
}

// Each element: the (lts, edge) pairs of one transition of the product.
using Combination = std::vector<std::pair<int, int>>;

inline void label_combinations(const System &s, int label, std::vector<Combination> &out)
{
    std::vector<std::vector<int>> choices; // per participant: its edges
    std::vector<int> who;
    for (size_t c = 0; c < s.lts.size(); c++) {
        std::vector<int> mine;
        for (size_t e = 0; e < s.lts[c].edges.size(); e++)
            if (s.lts[c].edges[e].label == label)
                mine.push_back((int)e);
        if (!mine.empty()) {
            choices.push_back(mine);
            who.push_back((int)c);
        }
    }
    if (choices.empty())
        return;
    std::function<void(size_t, Combination &)> rec = [&](size_t k, Combination &cur) {
        if (k == choices.size()) {
            out.push_back(cur);
            return;
        }
        for (int e : choices[k]) {
            cur.push_back({who[k], e});
            rec(k + 1, cur);
            cur.pop_back();
        }
    };
    Combination cur;
    rec(0, cur);
}

inline std::string to_pnml(const System &s)
{
    std::ostringstream o;
    o << "<?xml version=\"1.0\"?>\n<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">\n"
         "<net id=\"system\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"pg\">\n";
    for (size_t c = 0; c < s.lts.size(); c++)
        for (int v = 0; v < s.lts[c].states; v++) {
            o << "<place id=\"q" << c << "x" << v << "\">";
            if (v == s.lts[c].start)
                o << "<initialMarking><text>1</text></initialMarking>";
            o << "</place>\n";
        }
    int k = 0, a = 0;
    auto transition = [&](const std::string *name, const Combination &comb) {
        o << "<transition id=\"tr" << k << "\">";
        if (name != nullptr)
            o << "<name><text>" << *name << "</text></name>";
        o << "</transition>\n";
        for (auto [c, e] : comb) {
            const Edge &ed = s.lts[c].edges[e];
            o << "<arc id=\"a" << a++ << "\" source=\"q" << c << "x" << ed.src << "\" target=\"tr"
              << k << "\"/>\n";
            o << "<arc id=\"a" << a++ << "\" source=\"tr" << k << "\" target=\"q" << c << "x"
              << ed.dst << "\"/>\n";
        }
        k++;
    };
    for (int l = 0; l < (int)s.labels.size(); l++) {
        std::vector<Combination> combs;
        label_combinations(s, l, combs);
        for (const Combination &comb : combs)
            transition(&s.labels[l], comb);
    }
    for (size_t c = 0; c < s.lts.size(); c++)
        for (size_t e = 0; e < s.lts[c].edges.size(); e++)
            if (s.lts[c].edges[e].label == kInternal)
                transition(nullptr, Combination{{(int)c, (int)e}});
    o << "</page></net></pnml>\n";
    return o.str();
}

// ---- the explicit state graph -----------------------------------------------------

struct Graph {
    struct Out {
        int dst, label;
    };
    std::vector<std::vector<int>> state;    // local states, by id (0: initial)
    std::vector<std::vector<Out>> out;      // labelled steps (duplicates kept)
};

inline Graph explore(const System &s)
{
    Graph g;
    std::map<std::vector<int>, int> ids;
    std::vector<int> init;
    for (const Lts &t : s.lts)
        init.push_back(t.start);
    ids[init] = 0;
    g.state.push_back(init);
    std::vector<std::vector<Combination>> combs(s.labels.size());
    for (int l = 0; l < (int)s.labels.size(); l++)
        label_combinations(s, l, combs[l]);
    for (size_t i = 0; i < g.state.size(); i++) {
        std::vector<Graph::Out> out;
        auto add = [&](const std::vector<int> &next, int label) {
            auto it = ids.find(next);
            int id;
            if (it == ids.end()) {
                id = (int)g.state.size();
                ids[next] = id;
                g.state.push_back(next);
            } else {
                id = it->second;
            }
            out.push_back({id, label});
        };
        for (int l = 0; l < (int)s.labels.size(); l++)
            for (const Combination &comb : combs[l]) {
                std::vector<int> cur = g.state[i];
                bool ok = true;
                for (auto [c, e] : comb)
                    ok = ok && cur[c] == s.lts[c].edges[e].src;
                if (!ok)
                    continue;
                for (auto [c, e] : comb)
                    cur[c] = s.lts[c].edges[e].dst;
                add(cur, l);
            }
        for (size_t c = 0; c < s.lts.size(); c++)
            for (const Edge &e : s.lts[c].edges)
                if (e.label == kInternal && g.state[i][c] == e.src) {
                    std::vector<int> cur = g.state[i];
                    cur[c] = e.dst;
                    add(cur, kInternal);
                }
        g.out.push_back(out);
    }
    return g;
}

// ---- properties -----------------------------------------------------------------------

// Core operators of the references. LTL: TRUE FALSE AP NOT AND OR X U R (the
// surface operators are rewritten on construction); CTL: TRUE FALSE NOT AND
// OR, AX/EX (label = -2: any step), AU EU AW EW.
enum class Op { True, False, Ap, Not, And, Or, X, U, R, AX, EX, AU, EU, AW, EW };

struct Fml {
    Op op;
    int label = -2; // Ap; AX/EX: the step's label, -2 for any
    std::shared_ptr<Fml> a, b;
};
using FmlP = std::shared_ptr<Fml>;

inline FmlP mk(Op op, FmlP a = nullptr, FmlP b = nullptr, int label = -2)
{
    return std::make_shared<Fml>(Fml{op, label, std::move(a), std::move(b)});
}

struct Property {
    std::string text;
    FmlP f;
    bool ctl;
};

// A label to write: one of the system's, or now and then one it lacks.
inline int random_label(std::mt19937 &rng, const System &s)
{
    int n = (int)s.labels.size();
    int l = std::uniform_int_distribution<int>(0, n)(rng);
    return l == n ? -3 : l; // -3: "zz", no such label
}

inline std::string label_text(const System &s, int l, bool quote)
{
    std::string name = l == -3 ? "zz" : s.labels[l];
    return quote ? "\"" + name + "\"" : name;
}

inline Property random_ltl(std::mt19937 &rng, const System &s, int depth)
{
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    if (depth == 0 || pick(0, 4) == 0) {
        if (pick(0, 9) == 0)
            return pick(0, 1) ? Property{"true", mk(Op::True), false}
                              : Property{"false", mk(Op::False), false};
        int l = random_label(rng, s);
        return {label_text(s, l, pick(0, 1)), mk(Op::Ap, nullptr, nullptr, l), false};
    }
    int k = pick(0, 11);
    if (k <= 4) {
        Property a = random_ltl(rng, s, depth - 1);
        static const char *const names[] = {"!", "X ", "F ", "G ", "!"};
        FmlP f = k == 0 || k == 4 ? mk(Op::Not, a.f)
                 : k == 1         ? mk(Op::X, a.f)
                 : k == 2         ? mk(Op::U, mk(Op::True), a.f)
                                  : mk(Op::R, mk(Op::False), a.f);
        return {std::string(names[k]) + "(" + a.text + ")", f, false};
    }
    Property a = random_ltl(rng, s, depth - 1), b = random_ltl(rng, s, depth - 1);
    static const char *const names[] = {"&", "|", "->", "U", "W", "R", "M"};
    int o = k - 5;
    FmlP f;
    switch (o) {
    case 0: f = mk(Op::And, a.f, b.f); break;
    case 1: f = mk(Op::Or, a.f, b.f); break;
    case 2: f = mk(Op::Or, mk(Op::Not, a.f), b.f); break;
    case 3: f = mk(Op::U, a.f, b.f); break;
    case 4: f = mk(Op::R, b.f, mk(Op::Or, a.f, b.f)); break; // a W b = b R (a | b)
    case 5: f = mk(Op::R, a.f, b.f); break;
    default: f = mk(Op::U, b.f, mk(Op::And, a.f, b.f)); break; // a M b = b U (a & b)
    }
    return {"(" + a.text + " " + names[o] + " " + b.text + ")", f, false};
}

inline Property random_ctl(std::mt19937 &rng, const System &s, int depth)
{
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    if (depth == 0 || pick(0, 5) == 0)
        return pick(0, 1) ? Property{"true", mk(Op::True), true} : Property{"false", mk(Op::False), true};
    int k = pick(0, 17);
    if (k <= 10) {
        Property a = random_ctl(rng, s, depth - 1);
        std::string t = "(" + a.text + ")";
        int l = random_label(rng, s);
        switch (k) {
        case 0: return {"!" + t, mk(Op::Not, a.f), true};
        case 1: return {"[] " + t, mk(Op::AX, a.f), true};
        case 2: return {"<> " + t, mk(Op::EX, a.f), true};
        case 3: return {"[" + label_text(s, l, pick(0, 1)) + "] " + t, mk(Op::AX, a.f, nullptr, l), true};
        case 4: return {"<" + label_text(s, l, false) + "> " + t, mk(Op::EX, a.f, nullptr, l), true};
        case 5: return {"AG " + t, mk(Op::Not, mk(Op::EU, mk(Op::True), mk(Op::Not, a.f))), true};
        case 6: return {"EG " + t, mk(Op::EW, a.f, mk(Op::False)), true};
        case 7: return {"AF " + t, mk(Op::AU, mk(Op::True), a.f), true};
        case 8: return {"EF " + t, mk(Op::EU, mk(Op::True), a.f), true};
        case 9: return {"[" + label_text(s, l, false) + "] " + t, mk(Op::AX, a.f, nullptr, l), true};
        default: return {"<" + label_text(s, l, true) + "> " + t, mk(Op::EX, a.f, nullptr, l), true};
        }
    }
    Property a = random_ctl(rng, s, depth - 1), b = random_ctl(rng, s, depth - 1);
    switch (k) {
    case 11: return {"(" + a.text + " & " + b.text + ")", mk(Op::And, a.f, b.f), true};
    case 12: return {"(" + a.text + " | " + b.text + ")", mk(Op::Or, a.f, b.f), true};
    case 13: return {"(" + a.text + " => " + b.text + ")", mk(Op::Or, mk(Op::Not, a.f), b.f), true};
    case 14: return {"A(" + a.text + " U " + b.text + ")", mk(Op::AU, a.f, b.f), true};
    case 15: return {"E(" + a.text + " U " + b.text + ")", mk(Op::EU, a.f, b.f), true};
    case 16: return {"A(" + a.text + " W " + b.text + ")", mk(Op::AW, a.f, b.f), true};
    default: return {"E(" + a.text + " W " + b.text + ")", mk(Op::EW, a.f, b.f), true};
    }
}

// ---- the CTL reference: fixpoints on the explicit graph ----------------------------------

inline std::vector<bool> ctl_sat(const Graph &g, const FmlP &f)
{
    size_t n = g.state.size();
    std::vector<bool> r(n);
    auto next = [&](const std::vector<bool> &z, size_t s, bool all, int label) {
        for (const Graph::Out &o : g.out[s]) {
            if (label != -2 && o.label != label)
                continue;
            if (z[o.dst] != all)
                return !all;
        }
        return all;
    };
    switch (f->op) {
    case Op::True: r.assign(n, true); return r;
    case Op::False: return r;
    case Op::Not: r = ctl_sat(g, f->a); r.flip(); return r;
    case Op::And:
    case Op::Or: {
        auto a = ctl_sat(g, f->a), b = ctl_sat(g, f->b);
        for (size_t s = 0; s < n; s++)
            r[s] = f->op == Op::And ? a[s] && b[s] : a[s] || b[s];
        return r;
    }
    case Op::AX:
    case Op::EX: {
        auto a = ctl_sat(g, f->a);
        for (size_t s = 0; s < n; s++)
            r[s] = next(a, s, f->op == Op::AX, f->label);
        return r;
    }
    default: break;
    }
    // Z = g | (f & step(Z)): least for U, greatest for W; step is AX or EX,
    // where a deadlock ends the path (A: U needs a successor, W holds;
    // E: U fails, W holds).
    auto a = ctl_sat(g, f->a), b = ctl_sat(g, f->b);
    bool all = f->op == Op::AU || f->op == Op::AW, weak = f->op == Op::AW || f->op == Op::EW;
    std::vector<bool> z(n, weak);
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t s = 0; s < n; s++) {
            bool dead = g.out[s].empty();
            bool step = dead ? weak : next(z, s, all, -2);
            bool v = b[s] || (a[s] && step);
            if (v != z[s]) {
                z[s] = v;
                changed = true;
            }
        }
    }
    return z;
}

// ---- the LTL reference: Vardi-Wolper over infinite action traces -----------------------

struct Tableau {
    std::vector<Fml *> cl;             // subformulas, children before parents
    std::vector<int> kid_a, kid_b;     // indices into cl (-1: none)
    std::vector<int> temporal;         // indices of X, U, R
    std::vector<int> aps;              // labels of Ap nodes (may repeat)
    std::vector<uint64_t> assign;      // truth of every subformula, per assignment
    std::vector<int> letter;           // per assignment: the label it reads (-1: none of aps)
    std::vector<std::vector<int>> succ;

    int index(Fml *f)
    {
        for (size_t i = 0; i < cl.size(); i++)
            if (cl[i] == f)
                return (int)i;
        int a = f->a ? index(f->a.get()) : -1, b = f->b ? index(f->b.get()) : -1;
        cl.push_back(f);
        kid_a.push_back(a);
        kid_b.push_back(b);
        if (f->op == Op::X || f->op == Op::U || f->op == Op::R)
            temporal.push_back((int)cl.size() - 1);
        if (f->op == Op::Ap && std::find(aps.begin(), aps.end(), f->label) == aps.end())
            aps.push_back(f->label);
        return (int)cl.size() - 1;
    }

    static bool bit(uint64_t v, int i) { return (v >> i) & 1; }

    // Every assignment: a letter (one of aps, or another) and truth values
    // for the temporal subformulas; the rest follows.
    void assignments()
    {
        std::vector<int> letters = aps;
        letters.push_back(-1);
        for (int l : letters)
            for (uint64_t m = 0; m < (1ULL << temporal.size()); m++) {
                uint64_t v = 0;
                for (size_t i = 0; i < cl.size(); i++) {
                    bool t = false;
                    switch (cl[i]->op) {
                    case Op::True: t = true; break;
                    case Op::False: t = false; break;
                    case Op::Ap: t = cl[i]->label == l && l >= 0; break;
                    case Op::Not: t = !bit(v, kid_a[i]); break;
                    case Op::And: t = bit(v, kid_a[i]) && bit(v, kid_b[i]); break;
                    case Op::Or: t = bit(v, kid_a[i]) || bit(v, kid_b[i]); break;
                    default: {
                        size_t k = std::find(temporal.begin(), temporal.end(), (int)i) - temporal.begin();
                        t = bit(m, (int)k);
                    }
                    }
                    if (t)
                        v |= 1ULL << i;
                }
                // The local half of U and R: a U b needs a or b; a R b needs b.
                bool ok = true;
                for (int i : temporal) {
                    if (!bit(v, i))
                        continue;
                    if (cl[i]->op == Op::U && !bit(v, kid_a[i]) && !bit(v, kid_b[i]))
                        ok = false;
                    if (cl[i]->op == Op::R && !bit(v, kid_b[i]))
                        ok = false;
                }
                if (ok) {
                    assign.push_back(v);
                    letter.push_back(l);
                }
            }
    }

    // B may follow A: X a in A iff a in B; a U b in A iff b in A or (a in A
    // and a U b in B); a R b in A iff b in A and (a in A or a R b in B).
    bool follows(uint64_t A, uint64_t B) const
    {
        for (int i : temporal) {
            bool want;
            if (cl[i]->op == Op::X)
                want = bit(B, kid_a[i]);
            else if (cl[i]->op == Op::U)
                want = bit(A, kid_b[i]) || (bit(A, kid_a[i]) && bit(B, i));
            else
                want = bit(A, kid_b[i]) && (bit(A, kid_a[i]) || bit(B, i));
            if (want != bit(A, i))
                return false;
        }
        return true;
    }

    void build()
    {
        assignments();
        succ.assign(assign.size(), {});
        for (size_t x = 0; x < assign.size(); x++)
            for (size_t y = 0; y < assign.size(); y++)
                if (follows(assign[x], assign[y]))
                    succ[x].push_back((int)y);
    }

    // An eventuality is fulfilled at A: a U b when it is not promised or b
    // holds; a false a R b (that is, !a U !b) when it holds or b fails.
    bool fulfils(int x, int u) const
    {
        if (cl[u]->op == Op::U)
            return !bit(assign[x], u) || bit(assign[x], kid_b[u]);
        return bit(assign[x], u) || !bit(assign[x], kid_b[u]);
    }
};

// Whether every infinite action trace of g satisfies f (an LTL tree).
inline bool ltl_holds(const Graph &g, const FmlP &f)
{
    FmlP neg = mk(Op::Not, f);
    Tableau t;
    int root = t.index(neg.get());
    t.build();
    int A = (int)t.assign.size();
    // The letter of a step in the tableau's terms.
    auto letter_of = [&](int label) {
        return std::find(t.aps.begin(), t.aps.end(), label) != t.aps.end() ? label : -1;
    };
    std::map<std::pair<int, int>, int> id;
    std::vector<std::pair<int, int>> nodes;
    std::vector<std::vector<int>> adj;
    auto get = [&](int s, int x) {
        auto it = id.find({s, x});
        if (it != id.end())
            return it->second;
        int n = (int)nodes.size();
        id[{s, x}] = n;
        nodes.push_back({s, x});
        adj.push_back({});
        return n;
    };
    for (int x = 0; x < A; x++)
        if (Tableau::bit(t.assign[x], root))
            get(0, x);
    for (size_t i = 0; i < nodes.size(); i++) {
        auto [s, x] = nodes[i];
        for (const Graph::Out &o : g.out[s]) {
            if (letter_of(o.label) != t.letter[x])
                continue;
            for (int y : t.succ[x]) {
                int n = get(o.dst, y);
                adj[i].push_back(n);
            }
        }
    }
    // Tarjan's SCCs, iteratively; a non-trivial SCC fulfilling every U is a
    // counterexample.
    int N = (int)nodes.size(), counter = 0;
    std::vector<int> index(N, -1), low(N, 0), stack;
    std::vector<bool> on(N, false);
    std::vector<std::pair<int, size_t>> call;
    for (int r = 0; r < N; r++) {
        if (index[r] >= 0)
            continue;
        call.push_back({r, 0});
        index[r] = low[r] = counter++;
        stack.push_back(r);
        on[r] = true;
        while (!call.empty()) {
            auto &[v, k] = call.back();
            if (k < adj[v].size()) {
                int w = adj[v][k++];
                if (index[w] < 0) {
                    index[w] = low[w] = counter++;
                    stack.push_back(w);
                    on[w] = true;
                    call.push_back({w, 0});
                } else if (on[w]) {
                    low[v] = std::min(low[v], index[w]);
                }
                continue;
            }
            int vv = v;
            call.pop_back();
            if (!call.empty())
                low[call.back().first] = std::min(low[call.back().first], low[vv]);
            if (low[vv] != index[vv])
                continue;
            std::vector<int> scc;
            int w;
            do {
                w = stack.back();
                stack.pop_back();
                on[w] = false;
                scc.push_back(w);
            } while (w != vv);
            bool cycle = scc.size() > 1 ||
                         std::find(adj[vv].begin(), adj[vv].end(), vv) != adj[vv].end();
            if (!cycle)
                continue;
            bool all = true;
            for (int u : t.temporal) {
                if (t.cl[u]->op == Op::X)
                    continue;
                bool met = false;
                for (int m : scc)
                    met = met || t.fulfils(nodes[m].second, u);
                all = all && met;
            }
            if (all)
                return false;
        }
    }
    return true;
}

// The graph of one lasso word: prefix then cycle (labels), for ltl_holds.
inline Graph lasso_graph(const std::vector<int> &labels, size_t prefix)
{
    Graph g;
    size_t n = labels.size();
    g.state.assign(n, {});
    g.out.assign(n, {});
    for (size_t i = 0; i < n; i++)
        g.out[i].push_back({(int)(i + 1 < n ? i + 1 : prefix), labels[i]});
    return g;
}

} // namespace rers_test

#endif
