// Random symmetric nets against an independent unfolding.
//
// Each case draws a well-formed symmetric net over every sort of the
// symmetric-net grammar (dot, bool, cyclic and finite enumerations, a finite
// integer range, a product, a partition) and every term kind (variables,
// constants, successor/predecessor, tuples with and without <all> or a sum
// in a component, partitionelementof, partition elements standing for
// their colours, booleanconstant, numberof, scalarproduct, add,
// subtract, all, empty; guards with every comparison, ltp/gtp, and/or/not/
// imply, bool variables), writes it as PNML, and unfolds it twice: by
// Petrel's reader (host/coloured/) and by this file's own evaluator, which
// enumerates every binding of the variables of each transition, keeps those
// whose guard holds, and evaluates the inscriptions to multisets, sharing no
// code with the reader. The two P/T nets must agree on the marking of every
// place and on the multiset of transitions (each as its pre and post vectors
// over place ids), both cut to their structurally live part (places marked
// at m0 or fed by a live transition; transitions whose inputs are all such
// places): the reader drops a dead part of its own, never a live one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/examine.h"
#include "petrel/formula.h"
#include "petrel/net.h"
#include "petrel/pnml.h"
#include "test_ptrs.h"
#include "test_share.h"

namespace {

// ---- sorts ------------------------------------------------------------------

enum SortId { S_DOT, S_BOOL, S_CYC, S_FIN, S_RNG, S_PROD, S_PART, N_SORTS };

struct Sorts {
    int cyc = 3, fin = 2, rng_lo = 1, rng_n = 3;
    std::vector<int> part_of; // element of each S_CYC colour
    int part_n = 1;

    int size(int s) const
    {
        switch (s) {
        case S_DOT: return 1;
        case S_BOOL: return 2;
        case S_CYC: return cyc;
        case S_FIN: return fin;
        case S_RNG: return rng_n;
        case S_PROD: return cyc * rng_n;
        default: return part_n;
        }
    }
    // The colour's label in unfolded place ids (hlpn.h's naming rule).
    std::string label(int s, int c) const
    {
        switch (s) {
        case S_BOOL: return c ? "true" : "false";
        case S_CYC: return "a" + std::to_string(c);
        case S_FIN: return "f" + std::to_string(c);
        case S_RNG: return std::to_string(rng_lo + c);
        case S_PROD: return label(S_CYC, c / rng_n) + "_" + label(S_RNG, c % rng_n);
        case S_PART: return "q" + std::to_string(c);
        default: return "";
        }
    }
};

const char *const kSortName[N_SORTS] = {"D", "B", "C", "F", "R", "CR", "P"};

std::string us(int s) { return std::string("<usersort declaration=\"") + kSortName[s] + "\"/>"; }
std::string sub(const std::string &x) { return "<subterm>" + x + "</subterm>"; }
std::string op(const std::string &name, const std::string &kids, const std::string &attrs = "")
{
    return "<" + name + attrs + ">" + kids + "</" + name + ">";
}

// Variables: two of each sort but dot (v<sort>_0, v<sort>_1).
int var_count() { return 2 * (N_SORTS - 1); }
int var_sort(int v) { return 1 + v / 2; }
std::string var_id(int v) { return std::string("v") + kSortName[var_sort(v)] + std::to_string(v % 2); }

using Binding = std::vector<int>; // colour of each variable (-1: unbound)
using Bag = std::map<int, int64_t>;

// ---- colour terms -------------------------------------------------------------

struct Colour {
    enum Kind { VAR, CONST, SUCC, PRED, TUPLE, PELEM } kind;
    int sort, value = 0; // VAR: variable, CONST: colour
    std::vector<Colour> kids;

    int eval(const Sorts &so, const Binding &b) const
    {
        int n = so.size(sort);
        switch (kind) {
        case VAR: return b[value];
        case CONST: return value;
        case SUCC: return (kids[0].eval(so, b) + 1) % n;
        case PRED: return (kids[0].eval(so, b) + n - 1) % n;
        case TUPLE: return kids[0].eval(so, b) * so.rng_n + kids[1].eval(so, b);
        default: return so.part_of[kids[0].eval(so, b)];
        }
    }
    std::string xml(const Sorts &so) const
    {
        switch (kind) {
        case VAR: return "<variable refvariable=\"" + var_id(value) + "\"/>";
        case CONST:
            if (sort == S_DOT)
                return "<dotconstant/>";
            if (sort == S_BOOL)
                return std::string("<booleanconstant value=\"") + (value ? "true" : "false") +
                       "\"/>";
            if (sort == S_RNG)
                return "<finiteintrangeconstant value=\"" + std::to_string(so.rng_lo + value) +
                       "\"><finiteintrange start=\"" + std::to_string(so.rng_lo) + "\" end=\"" +
                       std::to_string(so.rng_lo + so.rng_n - 1) + "\"/></finiteintrangeconstant>";
            if (sort == S_PROD)
                return op("tuple", sub(Colour{CONST, S_CYC, value / so.rng_n, {}}.xml(so)) +
                                       sub(Colour{CONST, S_RNG, value % so.rng_n, {}}.xml(so)));
            return "<useroperator declaration=\"" + so.label(sort, value) + "\"/>";
        case SUCC: return op("successor", sub(kids[0].xml(so)));
        case PRED: return op("predecessor", sub(kids[0].xml(so)));
        case TUPLE: return op("tuple", sub(kids[0].xml(so)) + sub(kids[1].xml(so)));
        default:
            return op("partitionelementof", sub(kids[0].xml(so)), " refpartition=\"P\"");
        }
    }
    void vars(std::set<int> &out) const
    {
        if (kind == VAR)
            out.insert(value);
        for (const Colour &k : kids)
            k.vars(out);
    }
};

// ---- multiset terms -----------------------------------------------------------

struct Multi {
    enum Kind { NUMBEROF, SCALAR, ADD, ALL, EMPTY, SUB_ALL, TUPLE_ALL, SUBSET, TUPLE_SUM } kind;
    int sort, count = 1;
    Colour colour{Colour::CONST, S_DOT, 0, {}}; // NUMBEROF, SUB_ALL, TUPLE_ALL and
                                                // TUPLE_SUM (the R part)
    std::vector<Multi> kids;                    // SCALAR (1), ADD (n)
    Colour first{Colour::CONST, S_CYC, 0, {}};  // TUPLE_SUM: <first + elem, colour>
    int elem = 0;                               // SUBSET, TUPLE_SUM: a partition element

    // The colours of partition element e (a subset of C).
    static void subset(const Sorts &so, int e, int64_t coef, Bag &out)
    {
        for (int c = 0; c < so.cyc; c++)
            if (so.part_of[c] == e)
                out[c] += coef;
    }

    void eval(const Sorts &so, const Binding &b, int64_t coef, Bag &out) const
    {
        switch (kind) {
        case NUMBEROF: out[colour.eval(so, b)] += coef * count; break;
        case SCALAR: kids[0].eval(so, b, coef * count, out); break;
        case ADD:
            for (const Multi &k : kids)
                k.eval(so, b, coef, out);
            break;
        case ALL:
            for (int c = 0; c < so.size(sort); c++)
                out[c] += coef;
            break;
        case EMPTY: break;
        case SUB_ALL: // all - 1'x: every colour once but x's
            for (int c = 0; c < so.size(sort); c++)
                out[c] += coef;
            out[colour.eval(so, b)] -= coef;
            break;
        case TUPLE_ALL: // <all C, r>: (c, r) for every c
            for (int c = 0; c < so.cyc; c++)
                out[c * so.rng_n + colour.eval(so, b)] += coef;
            break;
        case SUBSET: subset(so, elem, coef, out); break;
        case TUPLE_SUM: { // <first + elem, r>: (c, r) for each c of the sum
            Bag part;
            part[first.eval(so, b)] += 1;
            subset(so, elem, 1, part);
            for (const auto &[c, k] : part)
                out[c * so.rng_n + colour.eval(so, b)] += coef * k;
            break;
        }
        }
    }
    std::string xml(const Sorts &so) const
    {
        std::string n = "<numberconstant value=\"" + std::to_string(count) +
                        "\"><natural/></numberconstant>";
        std::string all = op("all", us(sort));
        switch (kind) {
        case NUMBEROF: return op("numberof", sub(n) + sub(colour.xml(so)));
        case SCALAR: return op("scalarproduct", sub(n) + sub(kids[0].xml(so)));
        case ADD: {
            std::string s;
            for (const Multi &k : kids)
                s += sub(k.xml(so));
            return op("add", s);
        }
        case ALL: return all;
        case SUBSET: return "<useroperator declaration=\"" + so.label(S_PART, elem) + "\"/>";
        case TUPLE_SUM:
            return op("tuple",
                      sub(op("add", sub(first.xml(so)) +
                                        sub("<useroperator declaration=\"" +
                                            so.label(S_PART, elem) + "\"/>"))) +
                          sub(colour.xml(so)));
        case EMPTY: return op("empty", us(sort));
        case SUB_ALL:
            return op("subtract",
                      sub(all) + sub(op("numberof", sub("<numberconstant value=\"1\">"
                                                            "<natural/></numberconstant>") +
                                                        sub(colour.xml(so)))));
        default:
            return op("tuple", sub(op("all", us(S_CYC))) + sub(colour.xml(so)));
        }
    }
    void vars(std::set<int> &out) const
    {
        if (kind == NUMBEROF || kind == SUB_ALL || kind == TUPLE_ALL || kind == TUPLE_SUM)
            colour.vars(out);
        if (kind == TUPLE_SUM)
            first.vars(out);
        for (const Multi &k : kids)
            k.vars(out);
    }
};

// ---- guards -------------------------------------------------------------------

struct Guard {
    enum Kind { TRUE, FALSE, EQ, NE, LT, LE, GT, GE, LTP, GTP, AND, OR, NOT, IMPLY, BOOLVAR } kind;
    std::vector<Colour> sides;
    std::vector<Guard> kids;
    int var = 0;

    bool eval(const Sorts &so, const Binding &b) const
    {
        int x = sides.empty() ? 0 : sides[0].eval(so, b);
        int y = sides.size() < 2 ? 0 : sides[1].eval(so, b);
        switch (kind) {
        case TRUE: return true;
        case FALSE: return false;
        case EQ: return x == y;
        case NE: return x != y;
        case LT: case LTP: return x < y;
        case LE: return x <= y;
        case GT: case GTP: return x > y;
        case GE: return x >= y;
        case AND: return kids[0].eval(so, b) && kids[1].eval(so, b);
        case OR: return kids[0].eval(so, b) || kids[1].eval(so, b);
        case NOT: return !kids[0].eval(so, b);
        case IMPLY: return !kids[0].eval(so, b) || kids[1].eval(so, b);
        default: return b[var] == 1;
        }
    }
    std::string xml(const Sorts &so) const
    {
        static const char *const names[] = {"", "", "equality", "inequality", "lessthan",
                                            "lessthanorequal", "greaterthan",
                                            "greaterthanorequal", "ltp", "gtp", "and", "or",
                                            "not", "imply"};
        switch (kind) {
        case TRUE: return "<booleanconstant value=\"true\"/>";
        case FALSE: return "<booleanconstant value=\"false\"/>";
        case AND: case OR: case IMPLY:
            return op(names[kind], sub(kids[0].xml(so)) + sub(kids[1].xml(so)));
        case NOT: return op("not", sub(kids[0].xml(so)));
        case BOOLVAR: return "<variable refvariable=\"" + var_id(var) + "\"/>";
        default: return op(names[kind], sub(sides[0].xml(so)) + sub(sides[1].xml(so)));
        }
    }
    void vars(std::set<int> &out) const
    {
        if (kind == BOOLVAR)
            out.insert(var);
        for (const Colour &c : sides)
            c.vars(out);
        for (const Guard &g : kids)
            g.vars(out);
    }
};

// ---- the generator ------------------------------------------------------------

struct Gen {
    std::mt19937 rng;
    Sorts so;

    explicit Gen(uint32_t seed) : rng(seed)
    {
        so.cyc = pick(2, 3);
        so.fin = pick(1, 3);
        so.rng_lo = pick(-1, 2);
        so.rng_n = pick(1, 3);
        so.part_n = pick(1, so.cyc);
        // Every element gets one colour first, the rest at random.
        so.part_of.resize(so.cyc);
        for (int c = 0; c < so.cyc; c++)
            so.part_of[c] = c < so.part_n ? c : pick(0, so.part_n - 1);
        std::shuffle(so.part_of.begin(), so.part_of.end(), rng);
    }
    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    bool coin(int percent) { return pick(0, 99) < percent; }

    Colour colour(int sort, bool closed, int depth = 0)
    {
        int k = pick(0, 9);
        if (sort == S_PROD && k < 4)
            return Colour{Colour::TUPLE, S_PROD, 0, {colour(S_CYC, closed, depth + 1),
                                                     colour(S_RNG, closed, depth + 1)}};
        if (sort == S_PART && k < 4)
            return Colour{Colour::PELEM, S_PART, 0, {colour(S_CYC, closed, depth + 1)}};
        bool cyclic = sort == S_CYC || sort == S_FIN || sort == S_RNG;
        if (cyclic && depth < 2 && k < 3)
            return Colour{k < 2 ? Colour::SUCC : Colour::PRED, sort, 0,
                          {colour(sort, closed, depth + 1)}};
        if (!closed && sort != S_DOT && k < 7)
            return Colour{Colour::VAR, sort, 2 * (sort - 1) + pick(0, 1), {}};
        return Colour{Colour::CONST, sort, pick(0, so.size(sort) - 1), {}};
    }
    Multi multi(int sort, bool closed, int depth = 0)
    {
        int k = pick(0, 13);
        Multi m{Multi::NUMBEROF, sort, pick(1, 3), colour(sort, closed), {}};
        if (k < 5)
            return m;
        if (k == 5 && depth < 2) {
            m.kind = Multi::SCALAR;
            m.kids = {multi(sort, closed, depth + 1)};
        } else if (k <= 7 && depth < 2) {
            m.kind = Multi::ADD;
            for (int i = pick(1, 3); i > 0; i--)
                m.kids.push_back(multi(sort, closed, depth + 1));
        } else if (k == 8) {
            m.kind = Multi::ALL;
        } else if (k == 9) {
            m.kind = Multi::EMPTY;
        } else if (k == 10) {
            m.kind = Multi::SUB_ALL;
        } else if (k == 11 && sort == S_PROD) {
            m.kind = Multi::TUPLE_ALL;
            m.colour = colour(S_RNG, closed);
        } else if (k == 12 && sort == S_CYC) {
            m.kind = Multi::SUBSET;
            m.elem = pick(0, so.part_n - 1);
        } else if (k == 13 && sort == S_PROD) {
            m.kind = Multi::TUPLE_SUM;
            m.first = colour(S_CYC, closed);
            m.colour = colour(S_RNG, closed);
            m.elem = pick(0, so.part_n - 1);
        }
        return m;
    }
    Guard guard(int depth = 0)
    {
        int k = pick(0, 13);
        if (depth < 2 && k < 4) {
            Guard g{k == 0 ? Guard::AND : k == 1 ? Guard::OR : k == 2 ? Guard::NOT : Guard::IMPLY,
                    {}, {guard(depth + 1)}, 0};
            if (g.kind != Guard::NOT)
                g.kids.push_back(guard(depth + 1));
            return g;
        }
        if (k == 4)
            return Guard{coin(80) ? Guard::TRUE : Guard::FALSE, {}, {}, 0};
        if (k == 5)
            return Guard{Guard::BOOLVAR, {}, {}, 2 * (S_BOOL - 1) + pick(0, 1)};
        if (k == 6)
            return Guard{coin(50) ? Guard::LTP : Guard::GTP,
                         {colour(S_PART, false), colour(S_PART, false)}, {}, 0};
        int sort = pick(S_BOOL, S_PART);
        return Guard{static_cast<Guard::Kind>(Guard::EQ + pick(0, 5)),
                     {colour(sort, false), colour(sort, false)}, {}, 0};
    }
};

struct Arc {
    int place;
    bool in;
    Multi ins;
};

struct Net {
    Sorts so;
    std::vector<int> place_sort;
    std::vector<Multi> m0;     // EMPTY kind where unmarked
    std::vector<Guard> guards; // one per transition
    std::vector<std::vector<Arc>> arcs;
};

Net random_net(uint32_t seed)
{
    Gen g(seed);
    Net n;
    n.so = g.so;
    int places = g.pick(2, 4);
    for (int p = 0; p < places; p++) {
        int s = g.pick(S_DOT, S_PART);
        n.place_sort.push_back(s);
        n.m0.push_back(g.coin(70) ? g.multi(s, true) : Multi{Multi::EMPTY, s, 1, {}, {}});
    }
    for (int t = g.pick(1, 3); t > 0; t--) {
        n.guards.push_back(g.coin(50) ? g.guard() : Guard{Guard::TRUE, {}, {}, 0});
        std::vector<Arc> arcs;
        for (int a = g.pick(1, 4); a > 0; a--) {
            int p = g.pick(0, places - 1);
            arcs.push_back(Arc{p, g.coin(50), g.multi(n.place_sort[p], false)});
        }
        n.arcs.push_back(arcs);
    }
    return n;
}

std::string declarations(const Sorts &so)
{
    std::string d = "<namedsort id=\"D\" name=\"D\"><dot/></namedsort>"
                    "<namedsort id=\"B\" name=\"B\"><bool/></namedsort>"
                    "<namedsort id=\"C\" name=\"C\"><cyclicenumeration>";
    for (int c = 0; c < so.cyc; c++)
        d += "<feconstant id=\"" + so.label(S_CYC, c) + "\" name=\"" + so.label(S_CYC, c) + "\"/>";
    d += "</cyclicenumeration></namedsort><namedsort id=\"F\" name=\"F\"><finiteenumeration>";
    for (int c = 0; c < so.fin; c++)
        d += "<feconstant id=\"" + so.label(S_FIN, c) + "\" name=\"" + so.label(S_FIN, c) + "\"/>";
    d += "</finiteenumeration></namedsort><namedsort id=\"R\" name=\"R\"><finiteintrange start=\"" +
         std::to_string(so.rng_lo) + "\" end=\"" + std::to_string(so.rng_lo + so.rng_n - 1) +
         "\"/></namedsort><namedsort id=\"CR\" name=\"CR\"><productsort>" + us(S_CYC) + us(S_RNG) +
         "</productsort></namedsort><partition id=\"P\" name=\"P\">" + us(S_CYC);
    for (int e = 0; e < so.part_n; e++) {
        d += "<partitionelement id=\"" + so.label(S_PART, e) + "\" name=\"" +
             so.label(S_PART, e) + "\">";
        for (int c = 0; c < so.cyc; c++)
            if (so.part_of[c] == e)
                d += "<useroperator declaration=\"" + so.label(S_CYC, c) + "\"/>";
        d += "</partitionelement>";
    }
    d += "</partition>";
    for (int v = 0; v < var_count(); v++)
        d += "<variabledecl id=\"" + var_id(v) + "\" name=\"" + var_id(v) + "\">" +
             us(var_sort(v)) + "</variabledecl>";
    return d;
}

std::string to_pnml(const Net &n)
{
    std::string body;
    for (size_t p = 0; p < n.place_sort.size(); p++) {
        body += "<place id=\"p" + std::to_string(p) + "\"><type><structure>" +
                us(n.place_sort[p]) + "</structure></type>";
        if (n.m0[p].kind != Multi::EMPTY || p % 2 == 0) // an explicit <empty> half the time
            body += "<hlinitialMarking><structure>" + n.m0[p].xml(n.so) +
                    "</structure></hlinitialMarking>";
        body += "</place>";
    }
    int arc_no = 0;
    for (size_t t = 0; t < n.guards.size(); t++) {
        std::string id = "t" + std::to_string(t);
        body += "<transition id=\"" + id + "\"><condition><structure>" + n.guards[t].xml(n.so) +
                "</structure></condition></transition>";
        for (const Arc &a : n.arcs[t]) {
            std::string p = "p" + std::to_string(a.place);
            body += "<arc id=\"a" + std::to_string(arc_no++) + "\" source=\"" +
                    (a.in ? p : id) + "\" target=\"" + (a.in ? id : p) +
                    "\"><hlinscription><structure>" + a.ins.xml(n.so) +
                    "</structure></hlinscription></arc>";
        }
    }
    return "<?xml version=\"1.0\"?><pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">"
           "<net id=\"n\" type=\"http://www.pnml.org/version-2009/grammar/symmetricnet\">"
           "<page id=\"pg\"><declaration><structure><declarations>" +
           declarations(n.so) + "</declarations></structure></declaration>" + body +
           "</page></net></pnml>";
}

// ---- the independent unfolding --------------------------------------------------

using Vec = std::map<std::string, uint64_t>; // place id -> weight
using Sig = std::pair<Vec, Vec>;             // (pre, post)

std::string place_id(const Net &n, int p, int c)
{
    std::string id = "p" + std::to_string(p);
    return n.place_sort[p] == S_DOT ? id : id + "_" + n.so.label(n.place_sort[p], c);
}

void add_bag(const Net &n, int p, const Bag &bag, Vec &out)
{
    for (const auto &[c, k] : bag) {
        EXPECT_GE(k, 0) << "the generator only writes non-negative multisets";
        if (k > 0)
            out[place_id(n, p, c)] += static_cast<uint64_t>(k);
    }
}

// The structurally live part of a P/T net (m0, transitions): places marked
// at m0 or fed by a live transition, and the transitions whose inputs are
// all such places, as a least fixpoint. The reader prunes a part of what
// this removes (it keeps dead cycles that feed themselves), so both nets are
// compared after this cut.
std::multiset<Sig> live_part(const Vec &m0, const std::vector<Sig> &all)
{
    std::set<std::string> markable;
    for (const auto &[id, k] : m0)
        if (k > 0)
            markable.insert(id);
    std::vector<bool> live(all.size(), false);
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < all.size(); i++) {
            if (live[i])
                continue;
            bool ok = true;
            for (const auto &[id, k] : all[i].first)
                ok = ok && markable.count(id) > 0;
            if (!ok)
                continue;
            live[i] = grew = true;
            for (const auto &[id, k] : all[i].second)
                markable.insert(id);
        }
    }
    std::multiset<Sig> out;
    for (size_t i = 0; i < all.size(); i++)
        if (live[i])
            out.insert(all[i]);
    return out;
}

struct Expected {
    Vec m0;
    std::multiset<Sig> trans;
};

// Every binding of the variables of transition t, in any order.
void bindings(const Net &n, const std::vector<int> &vars, size_t i, Binding &b,
              std::vector<Binding> &out)
{
    if (i == vars.size()) {
        out.push_back(b);
        return;
    }
    for (int c = 0; c < n.so.size(var_sort(vars[i])); c++) {
        b[vars[i]] = c;
        bindings(n, vars, i + 1, b, out);
    }
    b[vars[i]] = -1;
}

Expected unfold(const Net &n)
{
    Expected e;
    Binding none(var_count(), -1);
    for (size_t p = 0; p < n.place_sort.size(); p++) {
        Bag bag;
        n.m0[p].eval(n.so, none, 1, bag);
        add_bag(n, static_cast<int>(p), bag, e.m0);
    }
    std::vector<Sig> all;
    for (size_t t = 0; t < n.guards.size(); t++) {
        std::set<int> used;
        n.guards[t].vars(used);
        for (const Arc &a : n.arcs[t])
            a.ins.vars(used);
        std::vector<Binding> bs;
        Binding b(var_count(), -1);
        bindings(n, std::vector<int>(used.begin(), used.end()), 0, b, bs);
        for (const Binding &x : bs) {
            if (!n.guards[t].eval(n.so, x))
                continue;
            Sig s;
            for (const Arc &a : n.arcs[t]) {
                Bag bag;
                a.ins.eval(n.so, x, 1, bag);
                add_bag(n, a.place, bag, a.in ? s.first : s.second);
            }
            all.push_back(s);
        }
    }
    e.trans = live_part(e.m0, all);
    return e;
}

std::multiset<Sig> signatures(const pn_net *net)
{
    std::vector<Sig> sig(net->n_transitions);
    for (uint32_t i = 0; i < net->n_arcs; i++) {
        const pn_arc &a = net->arcs[i];
        Vec &v = a.to_transition ? sig[a.transition].first : sig[a.transition].second;
        v[net->place_id[a.place]] += a.weight;
    }
    Vec m0;
    for (uint32_t p = 0; p < net->n_places; p++)
        m0[net->place_id[p]] = net->m0[p];
    return live_part(m0, sig);
}

std::string show(const Vec &v)
{
    std::string s;
    for (const auto &[id, k] : v)
        s += id + ":" + std::to_string(k) + " ";
    return s;
}

} // namespace

TEST(HlpnRandom, UnfoldingMatchesAnIndependentEvaluation)
{
    const uint32_t kNets = 2000;
    uint32_t transitions = 0;
    for (uint32_t seed = 1; seed <= kNets; seed++) {
        Net n = random_net(seed);
        std::string xml = to_pnml(n);
        SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + xml);
        pn_error err;
        pn_error_clear(&err);
        pn_net *raw = nullptr;
        ASSERT_EQ(pn_pnml_read_memory(xml.data(), xml.size(), "rand.pnml", nullptr, &raw, &err),
                  PN_OK)
            << err.msg;
        NetPtr net(raw);
        Expected e = unfold(n);
        // Every place the reader kept has the expected m0; every marked
        // place was kept.
        for (uint32_t p = 0; p < net->n_places; p++) {
            auto it = e.m0.find(net->place_id[p]);
            EXPECT_EQ(net->m0[p], it == e.m0.end() ? 0u : it->second) << net->place_id[p];
        }
        for (const auto &[id, k] : e.m0)
            EXPECT_GE(pn_net_find_place(net.get(), id.c_str()), 0) << id << " (m0 " << k << ")";
        std::multiset<Sig> got = signatures(net.get());
        EXPECT_EQ(got.size(), e.trans.size());
        if (got != e.trans) {
            std::string g, x;
            for (const Sig &s : got)
                g += "[pre " + show(s.first) + "post " + show(s.second) + "] ";
            for (const Sig &s : e.trans)
                x += "[pre " + show(s.first) + "post " + show(s.second) + "] ";
            ADD_FAILURE() << "transitions differ\n got:      " << g << "\n expected: " << x;
        }
        transitions += static_cast<uint32_t>(got.size());
        if (HasFailure())
            return;
    }
    // The generator must produce work: most nets keep live transitions.
    EXPECT_GT(transitions, kNets);
}

// ---- merged colours -------------------------------------------------------------

namespace {

// A reachable state seen through the coloured ids: the token sum of each
// coloured place and the coloured transitions some binding of which is
// enabled.
using View = std::pair<std::vector<uint64_t>, std::vector<bool>>;
using Edge = std::tuple<View, uint32_t, View>; // (view, coloured transition, view)

struct Graph {
    std::set<View> views;
    std::set<Edge> edges;
    bool complete = false;
};

// Each transition's input and output weights per place.
struct Steps {
    std::vector<std::vector<std::pair<uint32_t, uint64_t>>> pre, post;
    explicit Steps(const pn_net *net) : pre(net->n_transitions), post(net->n_transitions)
    {
        for (uint32_t i = 0; i < net->n_arcs; i++) {
            const pn_arc &a = net->arcs[i];
            (a.to_transition ? pre : post)[a.transition].push_back({a.place, a.weight});
        }
    }
    bool enabled(const std::vector<uint64_t> &m, uint32_t t) const
    {
        std::map<uint32_t, uint64_t> need;
        for (const auto &[p, w] : pre[t])
            need[p] += w;
        for (const auto &[p, w] : need)
            if (m[p] < w)
                return false;
        return true;
    }
    std::vector<uint64_t> fire(std::vector<uint64_t> m, uint32_t t) const
    {
        for (const auto &[p, w] : pre[t])
            m[p] -= w;
        for (const auto &[p, w] : post[t])
            m[p] += w;
        return m;
    }
};

View view(const pn_net *net, const Steps &s, const std::vector<uint64_t> &m)
{
    View v;
    for (uint32_t g = 0; g < net->place_groups.n; g++) {
        uint64_t sum = 0;
        for (uint32_t i = 0; i < net->place_groups.len[g]; i++)
            sum += m[net->place_groups.idx[g][i]];
        v.first.push_back(sum);
    }
    for (uint32_t g = 0; g < net->trans_groups.n; g++) {
        bool any = false;
        for (uint32_t i = 0; i < net->trans_groups.len[g] && !any; i++)
            any = s.enabled(m, net->trans_groups.idx[g][i]);
        v.second.push_back(any);
    }
    return v;
}

// Every reachable marking's view and every step between views, labelled by
// the coloured transition; incomplete past `limit` markings.
Graph explore(const pn_net *net, size_t limit)
{
    Steps s(net);
    std::vector<uint32_t> group(net->n_transitions, UINT32_MAX);
    for (uint32_t g = 0; g < net->trans_groups.n; g++)
        for (uint32_t i = 0; i < net->trans_groups.len[g]; i++)
            group[net->trans_groups.idx[g][i]] = g;
    Graph out;
    std::vector<uint64_t> m0(net->m0, net->m0 + net->n_places);
    std::set<std::vector<uint64_t>> seen{m0};
    std::deque<std::vector<uint64_t>> queue{m0};
    while (!queue.empty()) {
        std::vector<uint64_t> m = queue.front();
        queue.pop_front();
        View from = view(net, s, m);
        out.views.insert(from);
        for (uint32_t t = 0; t < net->n_transitions; t++) {
            if (!s.enabled(m, t))
                continue;
            std::vector<uint64_t> next = s.fire(m, t);
            out.edges.insert(Edge{from, group[t], view(net, s, next)});
            if (seen.insert(next).second) {
                if (seen.size() > limit)
                    return out;
                queue.push_back(next);
            }
        }
    }
    out.complete = true;
    return out;
}

// The net of a PNML text, its colours merged into classes or not; null
// (with a failure) when it does not read.
NetPtr read_net(const std::string &xml, bool merge)
{
    pn_error err;
    pn_error_clear(&err);
    pn_pnml_opts opts = {merge, false};
    pn_net *net = nullptr;
    EXPECT_EQ(pn_pnml_read_memory_opts(xml.data(), xml.size(), "rand.pnml", nullptr, &opts, &net,
                                       &err),
              PN_OK)
        << err.msg;
    return NetPtr(net);
}

} // namespace

// Merging colours into classes (host/coloured/hlpn_classes.c) must keep
// every reachable view through the coloured ids and every step between
// views: the class net is a bisimilar quotient of the unfolding, so both
// graphs seen through the coloured ids are equal (deadlocks included: a view
// with no enabled coloured transition).
TEST(HlpnRandom, MergedColoursKeepWhatTheColouredIdsSee)
{
    const uint32_t kNets = petrel_test::random_share(3000);
    uint32_t merged = 0, compared = 0;
    for (uint32_t seed = 1; seed <= kNets; seed++) {
        Net n = random_net(seed);
        std::string xml = to_pnml(n);
        SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + xml);
        NetPtr plain = read_net(xml, false), classes = read_net(xml, true);
        ASSERT_TRUE(plain && classes);
        ASSERT_EQ(plain->place_groups.n, classes->place_groups.n);
        ASSERT_EQ(plain->trans_groups.n, classes->trans_groups.n);
        if (classes->unfold.merged_sorts == 0)
            continue;
        merged++;
        Graph g1 = explore(plain.get(), 3000), g2 = explore(classes.get(), 3000);
        if (!g1.complete || !g2.complete)
            continue;
        compared++;
        EXPECT_EQ(g1.views, g2.views);
        EXPECT_EQ(g1.edges, g2.edges);
        if (HasFailure())
            return;
    }
    // The generator must reach the merging often, and the comparison too.
    EXPECT_GT(merged, kNets / 10) << "compared " << compared;
    EXPECT_GT(compared, merged / 2);
}

namespace {

// Hand-written nets for HlpnRandom.MergedColoursKeepHandPickedDistinctions:
// sort C = {c0, c1, c2} (cyclic), a partition P of it ({c0, c1}, {c2}),
// variables x, y of C.
std::string hand_net(const std::string &places, const std::string &transitions)
{
    std::string d = "<namedsort id=\"D\" name=\"D\"><dot/></namedsort>"
                    "<namedsort id=\"C\" name=\"C\"><cyclicenumeration>";
    for (int c = 0; c < 3; c++)
        d += "<feconstant id=\"c" + std::to_string(c) + "\" name=\"c" + std::to_string(c) + "\"/>";
    d += "</cyclicenumeration></namedsort><partition id=\"P\" name=\"P\">" + us(S_CYC) +
         "<partitionelement id=\"e0\" name=\"e0\"><useroperator declaration=\"c0\"/>"
         "<useroperator declaration=\"c1\"/></partitionelement><partitionelement id=\"e1\" "
         "name=\"e1\"><useroperator declaration=\"c2\"/></partitionelement></partition>";
    for (const char *v : {"x", "y"})
        d += std::string("<variabledecl id=\"") + v + "\" name=\"" + v + "\">" + us(S_CYC) +
             "</variabledecl>";
    return "<?xml version=\"1.0\"?><pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">"
           "<net id=\"h\" type=\"http://www.pnml.org/version-2009/grammar/symmetricnet\">"
           "<page id=\"pg\"><declaration><structure><declarations>" +
           d + "</declarations></structure></declaration>" + places + transitions +
           "</page></net></pnml>";
}

std::string var(const char *v) { return std::string("<variable refvariable=\"") + v + "\"/>"; }
std::string cst(int c) { return "<useroperator declaration=\"c" + std::to_string(c) + "\"/>"; }
std::string ms(int k, const std::string &colour)
{
    return op("numberof", sub("<numberconstant value=\"" + std::to_string(k) +
                              "\"><natural/></numberconstant>") +
                              sub(colour));
}
std::string cplace(const char *id, const std::string &m0)
{
    return std::string("<place id=\"") + id + "\"><type><structure>" + us(S_CYC) +
           "</structure></type>" +
           (m0.empty() ? "" : "<hlinitialMarking><structure>" + m0 +
                                  "</structure></hlinitialMarking>") +
           "</place>";
}
std::string dplace(const char *id)
{
    return std::string("<place id=\"") + id + "\"><type><structure>" + us(S_DOT) +
           "</structure></type></place>";
}
// A transition with a guard (empty: none) and arcs (place, input?, term).
std::string trans(const char *id, const std::string &guard,
                  const std::vector<std::tuple<const char *, bool, std::string>> &arcs)
{
    static int arc_no = 0;
    std::string s = std::string("<transition id=\"") + id + "\">" +
                    (guard.empty() ? "" : "<condition><structure>" + guard +
                                              "</structure></condition>") +
                    "</transition>";
    for (const auto &[p, in, term] : arcs)
        s += "<arc id=\"h" + std::to_string(arc_no++) + "\" source=\"" + (in ? p : id) +
             "\" target=\"" + (in ? id : p) + "\"><hlinscription><structure>" + term +
             "</structure></hlinscription></arc>";
    return s;
}
std::string dot1() { return ms(1, "<dotconstant/>"); }

} // namespace

// Each net here is one that a coarser merging would get wrong (the rule of
// host/coloured/hlpn_classes.c that keeps it exact is named), and the last
// one merges: the views through the coloured ids must be those of the plain
// unfolding.
TEST(HlpnRandom, MergedColoursKeepHandPickedDistinctions)
{
    struct Case {
        const char *rule;
        std::string xml;
        bool merges;
    };
    std::string ne0 = op("inequality", sub(var("x")) + sub(cst(0)));
    std::vector<Case> cases = {
        {"x++ only where the sort is one class",
         hand_net(cplace("p", ms(1, cst(2))) + cplace("q", "") + dplace("r"),
                  trans("t1", ne0, {{"p", true, ms(1, var("x"))},
                                    {"q", false, ms(1, op("successor", sub(var("x"))))}}) +
                      trans("t2", op("equality", sub(var("y")) + sub(cst(0))),
                            {{"q", true, ms(1, var("y"))}, {"r", false, dot1()}})),
         false},
        {"a variable read twice",
         hand_net(cplace("p", op("add", sub(ms(1, cst(0))) + sub(ms(1, cst(1))))) + dplace("r"),
                  trans("t", "", {{"p", true, ms(2, var("x"))}, {"r", false, dot1()}})),
         false},
        {"x = y",
         hand_net(cplace("p", ms(1, cst(0))) + cplace("q", ms(1, cst(1))) + dplace("r"),
                  trans("t", op("equality", sub(var("x")) + sub(var("y"))),
                        {{"p", true, ms(1, var("x"))}, {"q", true, ms(1, var("y"))},
                         {"r", false, dot1()}})),
         false},
        {"a constant read by an input arc",
         hand_net(cplace("p", ms(1, cst(1))) + dplace("r"),
                  trans("t", "", {{"p", true, ms(1, cst(0))}, {"r", false, dot1()}})),
         true},
        {"<all> read by an input arc",
         hand_net(cplace("p", op("add", sub(ms(2, cst(0))) + sub(ms(1, cst(1))))) + dplace("r"),
                  trans("t", "", {{"p", true, op("all", us(S_CYC))}, {"r", false, dot1()}})),
         false},
        {"partition elements cut their sort",
         hand_net(cplace("p", ms(1, cst(2))) + dplace("r"),
                  trans("t",
                        op("equality", sub(op("partitionelementof", sub(var("x")),
                                              " refpartition=\"P\"")) +
                                           sub("<useroperator declaration=\"e1\"/>")),
                        {{"p", true, ms(1, var("x"))}, {"r", false, dot1()}})),
         true},
        {"colours nothing tells apart",
         hand_net(cplace("p", op("all", us(S_CYC))) + cplace("q", ""),
                  trans("t1", "", {{"p", true, op("add", sub(ms(1, var("x"))) +
                                                             sub(ms(1, var("y"))))},
                                   {"q", false, op("add", sub(ms(1, var("x"))) +
                                                              sub(ms(1, var("y"))))}}) +
                      trans("t2", "", {{"q", true, ms(1, var("x"))},
                                       {"p", false, ms(1, var("x"))}})),
         true},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(std::string(c.rule) + "\n" + c.xml);
        NetPtr plain = read_net(c.xml, false), classes = read_net(c.xml, true);
        ASSERT_TRUE(plain && classes);
        EXPECT_EQ(classes->unfold.merged_sorts > 0, c.merges);
        Graph g1 = explore(plain.get(), 1000), g2 = explore(classes.get(), 1000);
        ASSERT_TRUE(g1.complete && g2.complete);
        EXPECT_EQ(g1.views, g2.views);
        EXPECT_EQ(g1.edges, g2.edges);
    }
}

// ---- the colour-blind skeleton --------------------------------------------------

namespace {

// The skeleton of a PNML text (host/coloured/skeleton.c); null when the net
// has none (an inscription subtracts).
NetPtr read_skeleton(const std::string &xml)
{
    pn_error err;
    pn_error_clear(&err);
    pn_pnml_opts opts = {false, true};
    pn_net *net = nullptr;
    pn_status st =
        pn_pnml_read_memory_opts(xml.data(), xml.size(), "rand.pnml", nullptr, &opts, &net, &err);
    EXPECT_TRUE(st == PN_OK || st == PN_ERR_UNSUPPORTED) << err.msg;
    return NetPtr(st == PN_OK ? net : nullptr);
}

// What the coloured net answers, from its complete graph of views.
struct Truth {
    const Graph &g;
    uint32_t places, transitions;
    bool ef_at_least(uint32_t p, uint64_t k) const
    {
        for (const View &v : g.views)
            if (v.first[p] >= k)
                return true;
        return false;
    }
    bool ef_fireable_and_at_most(uint32_t t, uint32_t p, uint64_t k) const
    {
        for (const View &v : g.views)
            if (v.second[t] && v.first[p] <= k)
                return true;
        return false;
    }
    bool ag_not_fireable_or_marked(uint32_t t, uint32_t p) const
    {
        for (const View &v : g.views)
            if (v.second[t] && v.first[p] < 1)
                return false;
        return true;
    }
    uint64_t bound(uint32_t p) const
    {
        uint64_t b = 0;
        for (const View &v : g.views)
            b = std::max(b, v.first[p]);
        return b;
    }
    bool one_safe() const
    {
        for (uint32_t p = 0; p < places; p++)
            if (bound(p) > 1)
                return false;
        return true;
    }
    bool stable(const std::vector<uint64_t> &m0) const
    {
        for (uint32_t p = 0; p < places; p++) {
            bool same = true;
            for (const View &v : g.views)
                same &= v.first[p] == m0[p];
            if (same)
                return true;
        }
        return false;
    }
    bool quasi_live() const
    {
        for (uint32_t t = 0; t < transitions; t++) {
            bool some = false;
            for (const View &v : g.views)
                some |= v.second[t];
            if (!some)
                return false;
        }
        return true;
    }
    // What refutes Liveness without the graph's components: a coloured
    // transition that never fires, or a reachable deadlock.
    bool plainly_not_live() const
    {
        if (!quasi_live())
            return true;
        for (const View &v : g.views)
            if (std::none_of(v.second.begin(), v.second.end(), [](bool b) { return b; }))
                return true;
        return false;
    }
};

std::string prop(const std::string &id, const std::string &formula)
{
    return "<property><id>" + id + "</id><description/><formula>" + formula +
           "</formula></property>";
}
std::string tokens(const std::string &p)
{
    return "<tokens-count><place>" + p + "</place></tokens-count>";
}
std::string le(const std::string &a, const std::string &b)
{
    return "<integer-le>" + a + b + "</integer-le>";
}
std::string constant(uint64_t k)
{
    return "<integer-constant>" + std::to_string(k) + "</integer-constant>";
}
std::string fireable(const std::string &t)
{
    return "<is-fireable><transition>" + t + "</transition></is-fireable>";
}

struct Asked {
    std::string xml;
    std::vector<std::string> truth; // "TRUE", "FALSE" or a bound
};

// Reachability questions of every polarity: E F over a sum, E F over a
// fireability (over-approximated upwards) and a sum, A G over a negated
// fireability (read downwards), each also negated at the top.
Asked reach_questions(const pn_net *plain, const Truth &tr, std::mt19937 &rng)
{
    Asked a;
    a.xml = "<property-set xmlns=\"http://mcc.lip6.fr/\">";
    for (int q = 0; q < 6; q++) {
        uint32_t p = rng() % tr.places, p2 = rng() % tr.places, t = rng() % tr.transitions;
        uint64_t k = rng() % 4;
        std::string P = plain->place_groups.id[p], P2 = plain->place_groups.id[p2],
                    T = plain->trans_groups.id[t], f;
        bool v = false;
        switch (q % 3) {
        case 0:
            f = "<exists-path><finally>" + le(constant(k), tokens(P)) + "</finally></exists-path>";
            v = tr.ef_at_least(p, k);
            break;
        case 1:
            f = "<exists-path><finally><conjunction>" + fireable(T) + le(tokens(P), constant(k)) +
                "</conjunction></finally></exists-path>";
            v = tr.ef_fireable_and_at_most(t, p, k);
            break;
        default:
            f = "<all-paths><globally><disjunction><negation>" + fireable(T) + "</negation>" +
                le(constant(1), tokens(P2)) + "</disjunction></globally></all-paths>";
            v = tr.ag_not_fireable_or_marked(t, p2);
            break;
        }
        if (q >= 3) {
            f = "<negation>" + f + "</negation>";
            v = !v;
        }
        a.xml += prop("q" + std::to_string(q), f);
        a.truth.push_back(v ? "TRUE" : "FALSE");
    }
    a.xml += "</property-set>";
    return a;
}

Asked bound_questions(const pn_net *plain, const Truth &tr)
{
    Asked a;
    a.xml = "<property-set xmlns=\"http://mcc.lip6.fr/\">";
    for (uint32_t p = 0; p < tr.places; p++) {
        a.xml += prop("b" + std::to_string(p), "<place-bound><place>" +
                                                   std::string(plain->place_groups.id[p]) +
                                                   "</place></place-bound>");
        a.truth.push_back(std::to_string(tr.bound(p)));
    }
    a.xml += "</property-set>";
    return a;
}

struct Told {
    std::vector<std::string> said;
};

void told(void *ctx, const pn_check *c, uint32_t i)
{
    const pn_answer *a = pn_check_answer(c, i);
    auto *t = static_cast<Told *>(ctx);
    t->said[i] = a->verdict == PN_VERDICT_TRUE    ? "TRUE"
                 : a->verdict == PN_VERDICT_FALSE ? "FALSE"
                                                  : std::to_string(a->value);
}

struct Paths {
    std::vector<pn_skeleton_path> p;
    std::vector<uint64_t> limits;
    ~Paths()
    {
        for (pn_skeleton_path &x : p)
            free(x.trans);
    }
};

// The questions of q read on net, and the net compiled; either null (with a
// failure) when that fails.
struct Posed {
    CnetPtr cn;
    SetPtr set;
};

Posed pose(const pn_net *net, const Asked &q)
{
    pn_error err;
    pn_error_clear(&err);
    Posed out;
    pn_cnet *raw = nullptr;
    EXPECT_EQ(pn_cnet_compile(net, &raw, &err), PN_OK) << err.msg;
    out.cn.reset(raw);
    pn_fml_set *rs = nullptr;
    EXPECT_EQ(pn_fml_read_memory(q.xml.data(), q.xml.size(), "q.xml", net, &rs, &err), PN_OK)
        << err.msg;
    out.set.reset(rs);
    if (out.set && pn_fml_set_simplify(out.set.get(), &err) != PN_OK)
        out.set.reset();
    return out;
}

// The examination on one CPU thread.
pn_examine_opts one_cpu()
{
    pn_examine_opts o = {};
    o.engine = PN_ENGINE_CPU;
    o.explore.threads = 1;
    return o;
}

// The skeleton's answers to q: each one given must be the coloured net's.
// Returns how many it gave; *paths gets the witnesses it could not use.
uint32_t skeleton_answers(const pn_net *skel, pn_exam exam, const Asked &q, Paths *paths)
{
    pn_error err;
    pn_error_clear(&err);
    Posed on = pose(skel, q);
    if (!on.cn || !on.set)
        return 0;
    const pn_cnet *cn = on.cn.get();
    const pn_fml_set *set = on.set.get();
    Told t{std::vector<std::string>(set->n)};
    pn_examine_opts o = one_cpu();
    o.on_decide = told;
    o.on_decide_ctx = &t;
    std::vector<uint8_t> decided(set->n, 0);
    // An unbounded skeleton explores until the deadline.
    pn_budget b = pn_budget_make(0.2, nullptr, 0);
    std::vector<uint64_t> &limits = paths->limits;
    limits.assign(set->n, 0);
    paths->p.assign(set->n, pn_skeleton_path{nullptr, 0});
    EXPECT_EQ(pn_examine_skeleton(cn, exam, set, &o, &b, decided.data(), limits.data(),
                                  paths->p.data(), &err),
              PN_OK)
        << err.msg;
    uint32_t given = 0;
    for (uint32_t i = 0; i < set->n; i++) {
        EXPECT_EQ(decided[i] != 0, !t.said[i].empty()) << set->props[i].id;
        if (!decided[i])
            continue;
        given++;
        EXPECT_EQ(t.said[i], q.truth[i]) << set->props[i].id;
    }
    // A bound the skeleton found is at least the coloured one.
    for (uint32_t i = 0; exam == PN_EXAM_UPPER_BOUNDS && i < set->n; i++) {
        if (limits[i] != UINT64_MAX) {
            EXPECT_GE(limits[i], std::stoull(q.truth[i])) << set->props[i].id;
        }
    }
    return given;
}

// The global properties the skeleton decides: each must be the coloured
// net's. Returns how many it decided.
uint32_t skeleton_globals(const pn_net *skel, const Truth &tr, const std::vector<uint64_t> &m0)
{
    pn_error err;
    pn_error_clear(&err);
    pn_cnet *raw = nullptr;
    EXPECT_EQ(pn_cnet_compile(skel, &raw, &err), PN_OK) << err.msg;
    CnetPtr cn(raw);
    if (!cn)
        return 0;
    pn_examine_opts o = one_cpu();
    uint32_t given = 0;
    for (pn_exam e : {PN_EXAM_ONE_SAFE, PN_EXAM_STABLE_MARKING, PN_EXAM_QUASI_LIVENESS,
                      PN_EXAM_LIVENESS}) {
        pn_budget b = pn_budget_make(0.2, nullptr, 0);
        pn_verdict v = PN_VERDICT_UNKNOWN;
        uint32_t tech = 0;
        EXPECT_EQ(pn_examine_skeleton_global(cn.get(), e, &o, &b, &v, &tech, &err), PN_OK)
            << err.msg;
        if (v == PN_VERDICT_UNKNOWN)
            continue;
        given++;
        bool said = v == PN_VERDICT_TRUE;
        switch (e) {
        case PN_EXAM_ONE_SAFE: EXPECT_EQ(said, tr.one_safe()) << "OneSafe"; break;
        case PN_EXAM_STABLE_MARKING: EXPECT_EQ(said, tr.stable(m0)) << "StableMarking"; break;
        case PN_EXAM_QUASI_LIVENESS: EXPECT_EQ(said, tr.quasi_live()) << "QuasiLiveness"; break;
        default:
            EXPECT_FALSE(said) << "Liveness is never proven on the skeleton";
            EXPECT_TRUE(tr.plainly_not_live()) << "Liveness";
        }
    }
    return given;
}

// The answers c decided (over set, posed from q), each checked against
// q's truth; how many there are. how: who gave them, for the messages.
uint32_t agreed(const pn_check *c, const pn_fml_set *set, const Asked &q, const char *how)
{
    uint32_t given = 0;
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_answer *a = pn_check_answer(c, i);
        if (a->verdict == PN_VERDICT_UNKNOWN)
            continue;
        given++;
        std::string said = a->verdict == PN_VERDICT_TRUE    ? "TRUE"
                           : a->verdict == PN_VERDICT_FALSE ? "FALSE"
                                                            : std::to_string(a->value);
        EXPECT_EQ(said, q.truth[i]) << a->id << " (" << how << ")";
    }
    return given;
}

// The skeleton's witnesses replayed on the plain unfolding: each answer
// they give must be the coloured net's. Returns how many they gave.
uint32_t replayed_answers(const pn_net *plain, const pn_net *skel, pn_exam exam, const Asked &q,
                          const Paths &paths)
{
    pn_error err;
    pn_error_clear(&err);
    Posed on = pose(plain, q);
    if (!on.cn || !on.set)
        return 0;
    const pn_cnet *cn = on.cn.get();
    const pn_fml_set *set = on.set.get();
    pn_check *rc = nullptr;
    EXPECT_EQ(pn_check_new(cn, exam, set, 1, &rc, &err), PN_OK) << err.msg;
    CheckPtr c(rc);
    if (!c)
        return 0;
    // what the initial marking decides is an answer from pn_check_new on
    std::vector<bool> at_m0(set->n);
    for (uint32_t i = 0; i < set->n; i++)
        at_m0[i] = pn_check_answer(c.get(), i)->verdict != PN_VERDICT_UNKNOWN;
    pn_budget b = pn_budget_make(1.0, nullptr, 0);
    EXPECT_EQ(pn_skeleton_replay(cn, skel, set, paths.p.data(), paths.limits.data(),
                                 c.get(), &b, &err),
              PN_OK)
        << err.msg;
    for (uint32_t i = 0; i < set->n; i++) {
        if (!at_m0[i] && pn_check_answer(c.get(), i)->verdict != PN_VERDICT_UNKNOWN) {
            EXPECT_NE(paths.p[i].trans, nullptr)
                << "decided without a path: " << pn_check_answer(c.get(), i)->id;
        }
    }
    return agreed(c.get(), set, q, "replayed");
}

} // namespace

// The skeleton over-approximates the coloured net: every step between two
// reachable views of the unfolding (token sums per coloured place) is a
// step of the skeleton by the same coloured transition, enabled there, and
// a coloured transition some binding of which is enabled is enabled in the
// skeleton. pn_examine_skeleton keeps only the answers that follow: on
// random nets explored completely, each answer it gives (reachability of
// every polarity, negated at the top or not, and place bounds) is the
// coloured net's, and it gives many. The witnesses it cannot use, replayed
// on the unfolding (pn_skeleton_replay), give more, each the coloured net's;
// so do the global properties it decides (pn_examine_skeleton_global).
TEST(HlpnRandom, TheSkeletonOverApproximatesAndItsAnswersAreTheColouredNets)
{
    const uint32_t kNets = petrel_test::random_share(1200);
    uint32_t built = 0, compared = 0, given = 0, asked = 0, replayed = 0, globals = 0;
    std::mt19937 rng(7);
    for (uint32_t seed = 1; seed <= kNets; seed++) {
        Net n = random_net(seed);
        std::string xml = to_pnml(n);
        SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + xml);
        NetPtr plain = read_net(xml, false), skel = read_skeleton(xml);
        if (!plain || !skel)
            continue;
        built++;
        ASSERT_TRUE(skel->unfold.skeleton);
        ASSERT_EQ(skel->n_places, plain->place_groups.n);
        ASSERT_EQ(skel->n_transitions, plain->trans_groups.n);
        for (uint32_t p = 0; p < skel->n_places; p++)
            ASSERT_STREQ(skel->place_id[p], plain->place_groups.id[p]);
        for (uint32_t t = 0; t < skel->n_transitions; t++)
            ASSERT_STREQ(skel->trans_id[t], plain->trans_groups.id[t]);
        Graph g = explore(plain.get(), 3000);
        if (!g.complete)
            continue;
        compared++;
        Steps s(skel.get());
        std::vector<uint64_t> m0(skel->m0, skel->m0 + skel->n_places);
        Steps ps(plain.get());
        std::vector<uint64_t> pm0(plain->m0, plain->m0 + plain->n_places);
        EXPECT_EQ(view(plain.get(), ps, pm0).first, m0) << "the initial counts";
        for (const View &v : g.views) {
            for (uint32_t t = 0; t < skel->n_transitions; t++) {
                if (v.second[t]) {
                    EXPECT_TRUE(s.enabled(v.first, t)) << skel->trans_id[t];
                }
            }
        }
        for (const Edge &e : g.edges) {
            const auto &[from, t, to] = e;
            ASSERT_TRUE(s.enabled(from.first, t)) << skel->trans_id[t];
            EXPECT_EQ(s.fire(from.first, t), to.first) << skel->trans_id[t];
        }
        Truth tr{g, skel->n_places, skel->n_transitions};
        Asked rq = reach_questions(plain.get(), tr, rng), bq = bound_questions(plain.get(), tr);
        asked += (uint32_t)(rq.truth.size() + bq.truth.size());
        Paths rp, bp;
        given += skeleton_answers(skel.get(), PN_EXAM_REACH_FIREABILITY, rq, &rp);
        given += skeleton_answers(skel.get(), PN_EXAM_UPPER_BOUNDS, bq, &bp);
        replayed += replayed_answers(plain.get(), skel.get(), PN_EXAM_REACH_FIREABILITY, rq, rp);
        replayed += replayed_answers(plain.get(), skel.get(), PN_EXAM_UPPER_BOUNDS, bq, bp);
        globals += skeleton_globals(skel.get(), tr, m0);
        if (HasFailure())
            return;
    }
    // Most nets have a skeleton (the rest subtract), most of those explore
    // completely, and the skeleton decides a good part of the questions.
    EXPECT_GT(built, kNets / 3);
    EXPECT_GT(compared, built / 2);
    EXPECT_GT(given, asked / 4) << "asked " << asked;
    EXPECT_GT(replayed, asked / 50) << "asked " << asked;
    EXPECT_GT(globals, compared) << "of " << 4 * compared << " global properties";
    std::printf("skeleton: %u nets, %u compared, %u of %u answers given, %u more replayed, "
                "%u of %u global properties\n",
                built, compared, given, asked, replayed, globals, 4 * compared);
}

// ---- the coloured net fired as itself ----------------------------------------

namespace {

using Marking = std::vector<uint64_t>;

// Every reachable marking of a P/T net; empty past `limit`.
std::set<Marking> reachable(const pn_net *net, size_t limit)
{
    Steps s(net);
    Marking m0(net->m0, net->m0 + net->n_places);
    std::set<Marking> seen{m0};
    std::deque<Marking> queue{m0};
    while (!queue.empty()) {
        Marking m = queue.front();
        queue.pop_front();
        for (uint32_t t = 0; t < net->n_transitions; t++) {
            if (!s.enabled(m, t))
                continue;
            Marking next = s.fire(m, t);
            if (seen.insert(next).second) {
                if (seen.size() > limit)
                    return {};
                queue.push_back(next);
            }
        }
    }
    return seen;
}

// The simulator's marking as a marking of the plain unfolding (its places
// named by place_id); a failure where a token lies on a place the unfolding
// dropped as unmarkable.
Marking unfolded(const Net &n, const pn_net *plain, const pn_csim *sim)
{
    Marking m(plain->n_places, 0);
    for (uint32_t p = 0; p < pn_csim_places(sim); p++) {
        uint64_t sum = 0;
        for (uint64_t k = 0; k < pn_csim_colours(sim, p); k++) {
            uint64_t c = 0, count = 0;
            pn_csim_colour(sim, p, k, &c, &count);
            std::string id = place_id(n, static_cast<int>(p), static_cast<int>(c));
            int64_t at = pn_net_find_place(plain, id.c_str());
            EXPECT_GE(at, 0) << "a token on " << id;
            if (at >= 0)
                m[static_cast<size_t>(at)] = count;
            sum += count;
        }
        EXPECT_EQ(pn_csim_counts(sim)[p], sum) << pn_csim_place_id(sim, p);
    }
    return m;
}

struct SimPtr {
    pn_csim *s = nullptr;
    ~SimPtr() { pn_csim_free(s); }
};

// The net of xml opened by the simulator (through a file, as the CLI does).
bool open_sim(const std::string &xml, SimPtr &out)
{
    std::string path = testing::TempDir() + "petrel_csim_" + std::to_string(getpid()) + ".pnml";
    FILE *f = std::fopen(path.c_str(), "w");
    if (f == nullptr || std::fwrite(xml.data(), 1, xml.size(), f) != xml.size()) {
        ADD_FAILURE() << "cannot write " << path;
        if (f != nullptr)
            std::fclose(f);
        return false;
    }
    std::fclose(f);
    pn_error err;
    pn_error_clear(&err);
    pn_status st = pn_csim_open(path.c_str(), nullptr, &out.s, &err);
    std::remove(path.c_str());
    EXPECT_TRUE(st == PN_OK || st == PN_ERR_INPUT) << err.msg;
    return st == PN_OK;
}

// Random walks of the simulator, each step checked against the plain
// unfolding: the marking is one the unfolding reaches, a coloured transition
// is enabled exactly when one of its unfolded transitions is, and a firing
// is a step of one of them. Returns the steps taken.
uint32_t walk_against(const Net &n, const pn_net *plain, pn_csim *sim,
                      const std::set<Marking> &reach, std::mt19937 &rng)
{
    Steps s(plain);
    uint32_t steps = 0;
    for (int w = 0; w < 6; w++) {
        pn_csim_reset(sim);
        for (int k = 0; k < 25; k++) {
            Marking m = unfolded(n, plain, sim);
            EXPECT_TRUE(reach.count(m) > 0) << "a marking the unfolding never reaches";
            std::vector<uint32_t> enabled;
            for (uint32_t t = 0; t < pn_csim_transitions(sim); t++) {
                int e = pn_csim_enabled(sim, t);
                EXPECT_NE(e, -1) << pn_csim_error(sim)->msg;
                bool any = false;
                for (uint32_t i = 0; i < plain->trans_groups.len[t] && !any; i++)
                    any = s.enabled(m, plain->trans_groups.idx[t][i]);
                EXPECT_EQ(e == 1, any) << pn_csim_transition_id(sim, t);
                if (e == 1)
                    enabled.push_back(t);
            }
            if (enabled.empty() || ::testing::Test::HasFailure())
                break;
            uint32_t t = enabled[rng() % enabled.size()];
            EXPECT_EQ(pn_csim_fire(sim, t, rng()), 1) << pn_csim_transition_id(sim, t);
            Marking next = unfolded(n, plain, sim);
            bool step = false;
            for (uint32_t i = 0; i < plain->trans_groups.len[t] && !step; i++) {
                uint32_t u = plain->trans_groups.idx[t][i];
                step = s.enabled(m, u) && s.fire(m, u) == next;
            }
            EXPECT_TRUE(step) << "firing " << pn_csim_transition_id(sim, t)
                              << " is no step of its unfolded transitions";
            steps++;
        }
    }
    return steps;
}

// The walks on the coloured net (pn_skeleton_walk) over the skeleton's
// questions: each answer they give must be the coloured net's.
uint32_t walked_answers(const pn_net *skel, pn_csim *sim, pn_exam exam, const Asked &q,
                        const std::vector<uint64_t> &limits)
{
    pn_error err;
    pn_error_clear(&err);
    Posed on = pose(skel, q);
    if (!on.cn || !on.set)
        return 0;
    const pn_fml_set *set = on.set.get();
    pn_check *rc = nullptr;
    EXPECT_EQ(pn_check_new(on.cn.get(), exam, set, 1, &rc, &err), PN_OK) << err.msg;
    CheckPtr c(rc);
    if (!c)
        return 0;
    pn_budget b = pn_budget_make(0.01, nullptr, 0);
    EXPECT_EQ(pn_skeleton_walk(sim, on.cn.get(), set, nullptr,
                               limits.empty() ? nullptr : limits.data(), c.get(), &b, &err),
              PN_OK)
        << err.msg;
    return agreed(c.get(), set, q, "walked");
}

} // namespace

// The coloured net fired as itself (host/coloured/csim.c), against the plain
// unfolding on random nets explored completely: every marking its walks
// reach is the unfolding's, its binding search finds an enabled binding
// exactly where an unfolded transition of the same coloured one is enabled
// (never "not known" on these small nets), and each firing is a step of one
// of them. The random walks over it (pn_skeleton_walk) answer only what the
// coloured net answers: E F / A G of every polarity, and bounds equal to the
// true one (given as the skeleton's, an upper bound). It fails when a
// pattern is unified with the wrong component order, a successor is not
// inverted, a guard conjunct is dropped or an input multiset is not
// checked.
TEST(HlpnRandom, TheColouredNetFiredAsItselfStepsAsItsUnfolding)
{
    const uint32_t kNets = petrel_test::random_share(1500);
    uint32_t opened = 0, compared = 0, steps = 0, walked = 0, asked = 0;
    std::mt19937 rng(11);
    for (uint32_t seed = 1; seed <= kNets; seed++) {
        Net n = random_net(seed);
        std::string xml = to_pnml(n);
        SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + xml);
        NetPtr plain = read_net(xml, false);
        SimPtr sim;
        if (!plain || !open_sim(xml, sim))
            continue;
        opened++;
        ASSERT_EQ(pn_csim_transitions(sim.s), plain->trans_groups.n);
        for (uint32_t t = 0; t < plain->trans_groups.n; t++)
            ASSERT_STREQ(pn_csim_transition_id(sim.s, t), plain->trans_groups.id[t]);
        EXPECT_GE(pn_csim_unfolded_nodes(sim.s),
                  (uint64_t)plain->n_places + plain->n_transitions);
        std::set<Marking> reach = reachable(plain.get(), 3000);
        if (reach.empty())
            continue;
        compared++;
        steps += walk_against(n, plain.get(), sim.s, reach, rng);
        NetPtr skel = read_skeleton(xml);
        Graph g = explore(plain.get(), 3000);
        if (skel && g.complete) {
            Truth tr{g, skel->n_places, skel->n_transitions};
            Asked rq = reach_questions(plain.get(), tr, rng), bq = bound_questions(plain.get(), tr);
            std::vector<uint64_t> limits;
            for (const std::string &b : bq.truth)
                limits.push_back(std::stoull(b));
            asked += (uint32_t)(rq.truth.size() + bq.truth.size());
            walked += walked_answers(skel.get(), sim.s, PN_EXAM_REACH_FIREABILITY, rq, {});
            walked += walked_answers(skel.get(), sim.s, PN_EXAM_UPPER_BOUNDS, bq, limits);
        }
        if (HasFailure())
            return;
    }
    // Most nets open (the rest fail on a subtraction at m0), most explore
    // completely, the walks take steps and settle a good part of the
    // questions.
    EXPECT_GT(opened, kNets / 2);
    EXPECT_GT(compared, opened / 2);
    EXPECT_GT(steps, compared * 10);
    EXPECT_GT(walked, asked / 3) << "asked " << asked;
    std::printf("coloured net fired as itself: %u nets, %u compared, %u steps checked, %u of %u "
                "answers by walks\n",
                opened, compared, steps, walked, asked);
}

namespace {

// Random LTL questions over the coloured ids: shapes a prefix can refute
// (G, X, U), shapes only a deadlock's whole run can (F, G F, F G), negated
// or not.
Asked ltl_questions(const pn_net *plain, std::mt19937 &rng)
{
    Asked a;
    a.xml = "<property-set xmlns=\"http://mcc.lip6.fr/\">";
    uint32_t places = plain->place_groups.n, transitions = plain->trans_groups.n;
    for (int q = 0; q < 8; q++) {
        std::string T = plain->trans_groups.id[rng() % transitions],
                    T2 = plain->trans_groups.id[rng() % transitions],
                    P = plain->place_groups.id[rng() % places];
        std::string ft = fireable(T), ft2 = fireable(T2),
                    low = le(tokens(P), constant(rng() % 3));
        std::string f;
        switch (q) {
        case 0: f = "<globally>" + ft + "</globally>"; break;
        case 1: f = "<next><next>" + ft + "</next></next>"; break;
        case 2: f = "<until><before>" + ft + "</before><reach>" + low + "</reach></until>"; break;
        case 3: f = "<globally><disjunction>" + ft + low + "</disjunction></globally>"; break;
        case 4: f = "<finally><negation>" + ft + "</negation></finally>"; break;
        case 5: f = "<globally><finally>" + ft + "</finally></globally>"; break;
        case 6: f = "<finally><globally>" + ft2 + "</globally></finally>"; break;
        default:
            f = "<negation><globally><next>" + ft2 + "</next></globally></negation>";
        }
        a.xml += prop("l" + std::to_string(q), "<all-paths>" + f + "</all-paths>");
    }
    a.xml += "</property-set>";
    return a;
}

// The answers of an examination of net (its LTL engine), "" where it
// found none within the budget.
std::vector<std::string> examined(const pn_net *net, pn_exam exam, const Asked &q)
{
    pn_error err;
    pn_error_clear(&err);
    Posed on = pose(net, q);
    if (!on.cn || !on.set)
        return {};
    pn_examine_opts o = one_cpu();
    pn_budget b = pn_budget_make(0.25, nullptr, 0);
    pn_report *rep = nullptr;
    EXPECT_EQ(pn_examine(on.cn.get(), exam, on.set.get(), &o, &b, &rep, &err), PN_OK) << err.msg;
    std::vector<std::string> out(on.set->n);
    for (uint32_t i = 0; rep != nullptr && i < on.set->n; i++) {
        pn_verdict v = pn_check_answer(rep->check, i)->verdict;
        out[i] = v == PN_VERDICT_TRUE ? "TRUE" : v == PN_VERDICT_FALSE ? "FALSE" : "";
    }
    pn_report_free(rep);
    return out;
}

} // namespace

// The walks on the coloured net refute LTL formulas by one run
// (pn_fml_eval_prefix on each walk's first steps, exact on a run that ends
// in a deadlock): on random nets, every formula they refute is one the LTL
// engine refutes on the plain unfolding (an independent method: Büchi
// automata over the state graph), and they refute a good part of those. It
// fails when a prefix's unknown end is read as false, or a deadlock's run
// is not repeated.
TEST(HlpnRandom, WalksOnTheColouredNetRefuteOnlyWhatTheUnfoldingRefutes)
{
    const uint32_t kNets = petrel_test::random_share(400);
    uint32_t walked = 0, refuted = 0, compared = 0;
    std::mt19937 rng(13);
    for (uint32_t seed = 1; seed <= kNets; seed++) {
        Net n = random_net(seed);
        std::string xml = to_pnml(n);
        SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + xml);
        NetPtr plain = read_net(xml, false), skel = read_skeleton(xml);
        SimPtr sim;
        if (!plain || !skel || !open_sim(xml, sim))
            continue;
        Asked q = ltl_questions(plain.get(), rng);
        std::vector<std::string> truth = examined(plain.get(), PN_EXAM_LTL_FIREABILITY, q);
        Posed on = pose(skel.get(), q);
        if (truth.empty() || !on.cn || !on.set)
            continue;
        compared++;
        pn_error err;
        pn_error_clear(&err);
        pn_check *rc = nullptr;
        ASSERT_EQ(pn_check_new(on.cn.get(), PN_EXAM_LTL_FIREABILITY, on.set.get(), 1, &rc, &err),
                  PN_OK)
            << err.msg;
        CheckPtr c(rc);
        pn_budget b = pn_budget_make(0.01, nullptr, 0);
        EXPECT_EQ(pn_skeleton_walk(sim.s, on.cn.get(), on.set.get(), nullptr, nullptr, c.get(), &b,
                                   &err),
                  PN_OK)
            << err.msg;
        for (uint32_t i = 0; i < on.set->n; i++) {
            refuted += truth[i] == "FALSE";
            const pn_answer *a = pn_check_answer(c.get(), i);
            if (a->verdict == PN_VERDICT_UNKNOWN)
                continue;
            EXPECT_EQ(a->verdict, PN_VERDICT_FALSE) << a->id << ": a walk proves no LTL formula";
            if (truth[i].empty()) /* the engine did not finish (an unbounded net) */
                continue;
            walked++;
            EXPECT_EQ(truth[i], "FALSE") << a->id << " (walked)";
        }
        if (HasFailure())
            return;
    }
    EXPECT_GT(compared, kNets / 2);
    EXPECT_GT(walked, refuted / 3) << "of " << refuted << " refuted by the LTL engine";
    std::printf("LTL walks: %u nets, %u of %u refutations found\n", compared, walked, refuted);
}
