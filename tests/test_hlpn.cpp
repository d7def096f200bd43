// Symmetric nets (host/hlpn_*.c, host/unfold*.c): every term and guard kind
// on hand-written nets checked exactly (places, m0, transitions, arcs),
// coloured ids as formula groups, dead-part pruning, malformed input
// (PN_ERR_INPUT with file:line), and the MCC "col" instances against
// INDEX.tsv (unfolded sizes, StateSpace).
#include <gtest/gtest.h>

#include "test_text.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "petrel/cnet.h"
#include "petrel/engine.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/net.h"
#include "petrel/pnml.h"
#include "test_coloured.h"
#include "test_ptrs.h"

namespace {

struct Result {
    pn_status st;
    pn_error err;
    NetPtr net;
};

Result read_mem(const std::string &xml)
{
    Result r{};
    pn_error_clear(&r.err);
    pn_net *net = nullptr;
    r.st = pn_pnml_read_memory(xml.data(), xml.size(), "mem.pnml", nullptr, &net, &r.err);
    r.net.reset(net);
    return r;
}

// ---- building documents ------------------------------------------------------

std::string us(const std::string &s) { return "<usersort declaration=\"" + s + "\"/>"; }
std::string var(const std::string &v) { return "<variable refvariable=\"" + v + "\"/>"; }
std::string cst(const std::string &c) { return "<useroperator declaration=\"" + c + "\"/>"; }
std::string sub(const std::string &x) { return "<subterm>" + x + "</subterm>"; }
std::string op(const std::string &name, const std::string &kids)
{
    return "<" + name + ">" + kids + "</" + name + ">";
}
std::string num(uint64_t n, const std::string &x)
{
    return op("numberof", sub("<numberconstant value=\"" + std::to_string(n) +
                              "\"><positive/></numberconstant>") +
                              sub(x));
}
std::string all(const std::string &sort) { return op("all", us(sort)); }
std::string rng(int v) { return "<finiteintrangeconstant value=\"" + std::to_string(v) +
                                "\"><finiteintrange start=\"1\" end=\"3\"/></finiteintrangeconstant>"; }

std::string place(const std::string &id, const std::string &sort, const std::string &init = "")
{
    std::string s = "<place id=\"" + id + "\"><type><structure>" + us(sort) +
                    "</structure></type>";
    if (!init.empty())
        s += "<hlinitialMarking><structure>" + init + "</structure></hlinitialMarking>";
    return s + "</place>\n";
}

std::string trans(const std::string &id, const std::string &guard = "")
{
    std::string s = "<transition id=\"" + id + "\">";
    if (!guard.empty())
        s += "<condition><structure>" + guard + "</structure></condition>";
    return s + "</transition>\n";
}

std::string arc(const std::string &src, const std::string &dst, const std::string &ins)
{
    static int n = 0;
    std::string s = "<arc id=\"a" + std::to_string(n++) + "\" source=\"" + src + "\" target=\"" +
                    dst + "\">";
    if (!ins.empty())
        s += "<hlinscription><structure>" + ins + "</structure></hlinscription>";
    return s + "</arc>\n";
}

// C = {a, b, c} (cyclic), F = {u, v} (finite), R = 1..3, CR = C x R, D = dot;
// x, y: C; r: R; d: CR.
const char kDecls[] =
    "<namedsort id=\"C\" name=\"C\"><cyclicenumeration>"
    "<feconstant id=\"ca\" name=\"a\"/><feconstant id=\"cb\" name=\"b\"/>"
    "<feconstant id=\"cc\" name=\"c\"/></cyclicenumeration></namedsort>\n"
    "<namedsort id=\"F\" name=\"F\"><finiteenumeration>"
    "<feconstant id=\"fu\" name=\"u\"/><feconstant id=\"fv\" name=\"v\"/>"
    "</finiteenumeration></namedsort>\n"
    "<namedsort id=\"R\" name=\"R\"><finiteintrange start=\"1\" end=\"3\"/></namedsort>\n"
    "<namedsort id=\"CR\" name=\"CR\"><productsort><usersort declaration=\"C\"/>"
    "<usersort declaration=\"R\"/></productsort></namedsort>\n"
    "<namedsort id=\"D\" name=\"Dot\"><dot/></namedsort>\n"
    "<variabledecl id=\"x\" name=\"x\"><usersort declaration=\"C\"/></variabledecl>\n"
    "<variabledecl id=\"y\" name=\"y\"><usersort declaration=\"C\"/></variabledecl>\n"
    "<variabledecl id=\"r\" name=\"r\"><usersort declaration=\"R\"/></variabledecl>\n"
    "<variabledecl id=\"f\" name=\"f\"><usersort declaration=\"F\"/></variabledecl>\n";

// The declarations start on line 4, the body right after them.
std::string sym_net(const std::string &body, const std::string &decls = kDecls)
{
    return "<?xml version=\"1.0\"?>\n"
           "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">\n"
           "<net id=\"n\" type=\"http://www.pnml.org/version-2009/grammar/symmetricnet\">"
           "<page id=\"pg\"><declaration><structure><declarations>\n" +
           decls + "</declarations></structure></declaration>\n" + body +
           "</page></net></pnml>\n";
}

// ---- reading the result --------------------------------------------------------

uint64_t m0_of(const pn_net *n, const char *id)
{
    int64_t p = pn_net_find_place(n, id);
    EXPECT_GE(p, 0) << id;
    return p >= 0 ? n->m0[p] : UINT64_MAX;
}

// "p->t:w" and "t->p:w" for every arc, weights of parallel arcs added.
std::map<std::string, uint64_t> arcs_of(const pn_net *n)
{
    std::map<std::string, uint64_t> out;
    for (uint32_t i = 0; i < n->n_arcs; i++) {
        const pn_arc &a = n->arcs[i];
        std::string p = n->place_id[a.place], t = n->trans_id[a.transition];
        out[a.to_transition ? p + ">" + t : t + ">" + p] += a.weight;
    }
    return out;
}

std::set<std::string> trans_of(const pn_net *n)
{
    std::set<std::string> out;
    for (uint32_t i = 0; i < n->n_transitions; i++)
        out.insert(n->trans_id[i]);
    return out;
}

void expect_error(const std::string &xml, pn_status code, const std::string &part,
                  const std::string &where = "mem.pnml:")
{
    Result r = read_mem(xml);
    EXPECT_EQ(r.st, code) << r.err.msg;
    EXPECT_EQ(r.net, nullptr);
    std::string msg = r.err.msg;
    EXPECT_NE(msg.find(part), std::string::npos) << msg;
    EXPECT_EQ(msg.rfind(where, 0), 0u) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

} // namespace

// ---- places and initial markings ------------------------------------------------

TEST(HlpnUnfold, PlacesPerColourWithInitialMarking)
{
    std::string body =
        place("P", "C", op("add", sub(num(2, cst("ca"))) + sub(all("C")))) +
        place("Q", "D", num(4, "<dotconstant/>")) + place("S", "R", num(1, rng(2))) +
        place("T", "CR", op("tuple", sub(all("C")) + sub(rng(3)))) + place("U", "F");
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    const pn_net *n = r.net.get();
    EXPECT_TRUE(n->unfold.unfolded);
    EXPECT_EQ(n->unfold.coloured_places, 5u);
    // No transition: every colour that starts empty is never marked and is
    // pruned, except that U keeps one place (a group is never empty).
    EXPECT_EQ(n->n_places, 3u + 1u + 1u + 3u + 1u);
    EXPECT_EQ(n->unfold.dropped_places, 2u + 6u + 1u);
    EXPECT_EQ(m0_of(n, "P_a"), 3u);
    EXPECT_EQ(m0_of(n, "P_b"), 1u);
    EXPECT_EQ(m0_of(n, "P_c"), 1u);
    EXPECT_EQ(m0_of(n, "Q"), 4u); // dot places keep their id
    EXPECT_EQ(m0_of(n, "S_2"), 1u);
    EXPECT_EQ(pn_net_find_place(n, "S_1"), -1);
    EXPECT_EQ(m0_of(n, "T_a_3"), 1u);
    EXPECT_EQ(m0_of(n, "T_c_3"), 1u);
    EXPECT_EQ(m0_of(n, "U_u"), 0u);
    const uint32_t *idx;
    uint32_t len;
    ASSERT_TRUE(pn_net_find_place_group(n, "T", &idx, &len));
    EXPECT_EQ(len, 3u);
    ASSERT_TRUE(pn_net_find_place_group(n, "U", &idx, &len));
    EXPECT_EQ(len, 1u) << "a place group keeps one member";
    EXPECT_FALSE(pn_net_find_place_group(n, "P_a", &idx, &len));
}

// ---- colour terms on arcs -------------------------------------------------------

TEST(HlpnUnfold, VariableSuccessorPredecessorWrap)
{
    std::string body = place("P", "C", all("C")) + trans("t") + trans("u") +
                       arc("P", "t", num(1, var("x"))) +
                       arc("t", "P", num(1, op("successor", sub(var("x"))))) +
                       arc("P", "u", num(1, var("y"))) +
                       arc("u", "P", num(2, op("predecessor", sub(var("y")))));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    const pn_net *n = r.net.get();
    EXPECT_EQ(trans_of(n), (std::set<std::string>{"t_a", "t_b", "t_c", "u_a", "u_b", "u_c"}));
    std::map<std::string, uint64_t> a = arcs_of(n);
    EXPECT_EQ(a["P_a>t_a"], 1u);
    EXPECT_EQ(a["t_a>P_b"], 1u);
    EXPECT_EQ(a["t_c>P_a"], 1u) << "successor wraps";
    EXPECT_EQ(a["u_a>P_c"], 2u) << "predecessor wraps";
    EXPECT_EQ(a.size(), 12u);
    const uint32_t *idx;
    uint32_t len;
    ASSERT_TRUE(pn_net_find_transition_group(n, "t", &idx, &len));
    EXPECT_EQ(len, 3u);
}

TEST(HlpnUnfold, FiniteEnumerationSuccessorAlsoWraps)
{
    std::string body = place("P", "F", all("F")) + trans("t") +
                       arc("P", "t", num(1, var("f"))) +
                       arc("t", "P", num(1, op("successor", sub(var("f")))));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(arcs_of(r.net.get())["t_v>P_u"], 1u);
}

TEST(HlpnUnfold, TuplesConstantsAndNumberofNesting)
{
    std::string body =
        place("P", "C", all("C")) + place("T", "CR", all("CR")) + trans("t") +
        arc("P", "t", num(2, op("add", sub(num(1, var("x"))) + sub(num(1, var("x")))))) +
        arc("t", "T", op("add", sub(num(1, op("tuple", sub(var("x")) + sub(rng(2))))) +
                                  sub(num(3, op("tuple", sub(cst("cb")) + sub(var("r"))))))) +
        arc("T", "t", num(1, op("tuple", sub(var("x")) + sub(var("r")))));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    const pn_net *n = r.net.get();
    // x and r are free: 9 bindings, named in order of appearance.
    EXPECT_EQ(n->n_transitions, 9u);
    std::map<std::string, uint64_t> a = arcs_of(n);
    EXPECT_EQ(a["P_a>t_a_1"], 4u) << "2'(1'x + 1'x)";
    EXPECT_EQ(a["t_a_1>T_a_2"], 1u);
    EXPECT_EQ(a["t_a_1>T_b_1"], 3u);
    EXPECT_EQ(a["t_b_1>T_b_1"], 3u) << "equal colours of an add are merged";
    EXPECT_EQ(a["T_c_3>t_c_3"], 1u);
}

TEST(HlpnUnfold, SubtractAndAll)
{
    std::string body = place("P", "C", all("C")) + trans("t") +
                       arc("P", "t", op("subtract", sub(all("C")) + sub(num(1, var("x"))))) +
                       arc("t", "P", all("C"));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    std::map<std::string, uint64_t> a = arcs_of(r.net.get());
    EXPECT_EQ(a.count("P_a>t_a"), 0u);
    EXPECT_EQ(a["P_b>t_a"], 1u);
    EXPECT_EQ(a["P_c>t_a"], 1u);
    EXPECT_EQ(a["t_b>P_b"], 1u);
    EXPECT_EQ(a.size(), 3u * (2u + 3u));
}

TEST(HlpnUnfold, DotArcsWithoutInscription)
{
    std::string body = place("D1", "D", num(1, "<dotconstant/>")) + place("D2", "D") +
                       trans("t") + arc("D1", "t", "") + arc("t", "D2", "");
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    std::map<std::string, uint64_t> a = arcs_of(r.net.get());
    EXPECT_EQ(a["D1>t"], 1u);
    EXPECT_EQ(a["t>D2"], 1u);
}

// ---- guards ---------------------------------------------------------------------

struct GuardCase {
    const char *name;
    std::string guard;
    size_t bindings; // of x, y in C x C (9 in all)
};

void PrintTo(const GuardCase &g, std::ostream *os) { *os << g.name; }

class HlpnGuard : public ::testing::TestWithParam<GuardCase> {};

TEST_P(HlpnGuard, KeepsExactlyTheSatisfyingBindings)
{
    const GuardCase &g = GetParam();
    std::string body = place("P", "C", all("C")) + trans("t", g.guard) +
                       arc("P", "t", op("add", sub(num(1, var("x"))) + sub(num(1, var("y")))));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(r.net->n_transitions, g.bindings);
    EXPECT_EQ(r.net->unfold.bindings_kept, g.bindings);
}

std::string rel(const char *name, const std::string &a, const std::string &b)
{
    return op(name, sub(a) + sub(b));
}

const GuardCase kGuards[] = {
    {"Eq", rel("equality", var("x"), var("y")), 3},
    {"Ne", rel("inequality", var("x"), var("y")), 6},
    {"Lt", rel("lessthan", var("x"), var("y")), 3},
    {"Le", rel("lessthanorequal", var("x"), var("y")), 6},
    {"Gt", rel("greaterthan", var("x"), var("y")), 3},
    {"Ge", rel("greaterthanorequal", var("x"), var("y")), 6},
    {"EqConst", rel("equality", var("x"), cst("cb")), 3},
    {"EqSucc", rel("equality", var("y"), op("successor", sub(var("x")))), 3},
    {"And", op("and", sub(rel("inequality", var("x"), var("y"))) +
                          sub(rel("lessthan", var("x"), cst("cc")))), 4},
    {"Or", op("or", sub(rel("equality", var("x"), var("y"))) +
                        sub(rel("lessthan", var("x"), var("y")))), 6},
    {"Not", op("not", sub(rel("equality", var("x"), var("y")))), 6},
    {"Imply", op("imply", sub(rel("equality", var("x"), cst("ca"))) +
                              sub(rel("equality", var("y"), cst("ca")))), 7},
    {"False", "<booleanconstant value=\"false\"/>", 0},
    {"TupleEq", rel("equality", op("tuple", sub(var("x")) + sub(rng(1))),
                    op("tuple", sub(var("y")) + sub(rng(1)))), 3},
};

INSTANTIATE_TEST_SUITE_P(Kinds, HlpnGuard, ::testing::ValuesIn(kGuards),
                         [](const ::testing::TestParamInfo<GuardCase> &i) { return i.param.name; });

TEST(HlpnUnfold, RangeOrderIsTheInteger)
{
    std::string body = place("S", "R", all("R")) +
                       trans("t", rel("lessthan", var("r"), rng(3))) +
                       arc("S", "t", num(1, var("r")));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(trans_of(r.net.get()), (std::set<std::string>{"t_1", "t_2"}));
}

// ---- formulas on coloured ids ---------------------------------------------------

TEST(HlpnFormula, ColouredIdsBindToAllTheirNodes)
{
    std::string body = place("P", "C", all("C")) + trans("t") +
                       trans("dead", "<booleanconstant value=\"false\"/>") +
                       arc("P", "t", num(1, var("x"))) + arc("P", "dead", num(1, var("x")));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    std::string xml =
        "<property-set xmlns=\"http://mcc.lip6.fr/\">"
        "<property><id>f0</id><formula><integer-le><tokens-count><place>P</place>"
        "<place>P_a</place></tokens-count><integer-constant>3</integer-constant>"
        "</integer-le></formula></property>"
        "<property><id>f1</id><formula><is-fireable><transition>dead</transition>"
        "</is-fireable></formula></property>"
        "<property><id>f2</id><formula><is-fireable><transition>t</transition>"
        "<transition>dead</transition></is-fireable></formula></property>"
        "<property><id>f3</id><formula><is-fireable><transition>nope</transition>"
        "</is-fireable></formula></property>"
        "</property-set>";
    pn_fml_set *set = nullptr;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_fml_read_memory(xml.data(), xml.size(), "f.xml", r.net.get(), &set, &err), PN_OK)
        << err.msg;
    std::unique_ptr<pn_fml_set, void (*)(pn_fml_set *)> guard(set, pn_fml_set_free);
    ASSERT_EQ(set->n, 4u);
    const pn_fml_node *le = set->props[0].root;
    ASSERT_EQ(le->kind, PN_FML_INT_LE);
    EXPECT_EQ(le->kids[0]->kind, PN_FML_TOKENS);
    EXPECT_EQ(le->kids[0]->n, 4u) << "3 colours of P, then P_a itself";
    EXPECT_EQ(set->props[1].root->kind, PN_FML_FALSE) << "no binding: never fireable";
    ASSERT_EQ(set->props[2].root->kind, PN_FML_FIREABLE);
    EXPECT_EQ(set->props[2].root->n, 3u);
    EXPECT_EQ(set->props[3].status, PN_ERR_INPUT);
}

TEST(HlpnUnfold, StructurallyDeadPartIsPruned)
{
    // Q starts empty and nothing produces into it: Q's colours and every
    // binding of t that consumes from them go; then R is unmarkable too.
    std::string body = place("P", "C", all("C")) + place("Q", "C") + place("R", "C") +
                       trans("t") + trans("u") + arc("P", "t", num(1, var("x"))) +
                       arc("Q", "t", num(1, var("x"))) + arc("t", "R", num(1, var("x"))) +
                       arc("R", "u", num(1, var("x"))) + arc("u", "P", num(1, var("x")));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    const pn_net *n = r.net.get();
    EXPECT_EQ(n->n_places, 3u + 1u + 1u);
    EXPECT_EQ(n->n_transitions, 0u);
    EXPECT_EQ(n->unfold.dropped_places, 4u);
    EXPECT_EQ(n->unfold.dropped_transitions, 6u);
    const uint32_t *idx;
    uint32_t len;
    ASSERT_TRUE(pn_net_find_transition_group(n, "t", &idx, &len));
    EXPECT_EQ(len, 0u);
}

// P holds a only: Q can only ever hold a, so of the 6 places and 3
// bindings of t only P_a, Q_a and t_a are built (host/coloured/
// unfold_reach.c); the others never hold a token or fire, and are counted.
TEST(HlpnUnfold, OnlyWhatTheColourFixpointCanMarkIsBuilt)
{
    std::string body = place("P", "C", num(1, cst("ca"))) + place("Q", "C") + trans("t") +
                       arc("P", "t", num(1, var("x"))) + arc("t", "Q", num(1, var("x")));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(r.net->n_places, 2u);
    EXPECT_EQ(r.net->n_transitions, 1u);
    EXPECT_EQ(r.net->unfold.dropped_places, 4u);
    EXPECT_EQ(r.net->unfold.dropped_transitions, 2u);
    EXPECT_GE(pn_net_find_place(r.net.get(), "Q_a"), 0);
    EXPECT_GE(pn_net_find_transition(r.net.get(), "t_a"), 0);
}

// The fixpoint tests an input arc as soon as its variables are bound, before
// the guard's later clauses: 1'x - 1'a cannot be evaluated for x = b, a
// binding the guard (y = a and x = y) excludes. That refutes nothing, and the
// unfolding is the one binding x = y = a, as when arcs were only evaluated
// for bindings whose guard holds.
TEST(HlpnUnfold, AnArcTheGuardExcludesLaterIsNoError)
{
    std::string guard = op("and", sub(rel("equality", var("y"), cst("ca"))) +
                                      sub(rel("equality", var("x"), var("y"))));
    std::string body = place("P", "C", all("C")) + trans("t", guard) +
                       arc("P", "t", op("subtract", sub(num(1, var("x"))) + sub(num(1, cst("ca"))))) +
                       arc("t", "P", num(1, var("x")));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(r.err.code, PN_OK);
    EXPECT_EQ(r.net->n_transitions, 1u);
    EXPECT_GE(pn_net_find_transition(r.net.get(), "t_a_a"), 0);
}

TEST(HlpnUnfold, NameClashesGetASuffix)
{
    std::string body = place("A", "C", all("C")) + place("A_a", "D", num(1, "<dotconstant/>"));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(m0_of(r.net.get(), "A_a"), 1u);
    EXPECT_EQ(m0_of(r.net.get(), "A_a_u2"), 1u);
    const uint32_t *idx;
    uint32_t len;
    ASSERT_TRUE(pn_net_find_place_group(r.net.get(), "A_a", &idx, &len));
    ASSERT_EQ(len, 1u);
    EXPECT_STREQ(r.net->place_id[idx[0]], "A_a_u2");
}

TEST(HlpnUnfold, HundredThousandBindingsQuickly)
{
    std::string decls = "<namedsort id=\"B\" name=\"B\"><cyclicenumeration>";
    for (int i = 0; i < 320; i++)
        decls += "<feconstant id=\"b" + std::to_string(i) + "\" name=\"" + std::to_string(i) +
                 "\"/>";
    decls += "</cyclicenumeration></namedsort>"
             "<variabledecl id=\"x\" name=\"x\"><usersort declaration=\"B\"/></variabledecl>"
             "<variabledecl id=\"y\" name=\"y\"><usersort declaration=\"B\"/></variabledecl>";
    std::string body = place("P", "B", all("B")) + trans("t") + trans("s",
                       rel("equality", var("y"), op("successor", sub(var("x"))))) +
                       arc("P", "t", op("add", sub(num(1, var("x"))) + sub(num(1, var("y"))))) +
                       arc("P", "s", op("add", sub(num(1, var("x"))) + sub(num(1, var("y")))));
    auto t0 = std::chrono::steady_clock::now();
    Result r = read_mem(sym_net(body, decls));
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(r.net->n_transitions, 320u * 320u + 320u);
    // Each binding is tried twice: by the colour fixpoint (every colour of
    // P is markable, so the join restricts nothing), then by the building.
    EXPECT_EQ(r.net->unfold.bindings_tried, 2u * 2u * (320u + 320u * 320u));
    RecordProperty("seconds", std::to_string(s));
}

namespace {

// A billion bindings of x, y, z in B (1000 colours), 1000 of them kept (x = y = z): without
// a budget the unfolder would run for seconds until HL_MAX_STEPS refuses it.
std::string billion_bindings_net()
{
    std::string decls = billion_bindings_decls();
    std::string same = op("not", sub(op("or", sub(rel("inequality", var("x"), var("y"))) +
                                               sub(rel("inequality", var("y"), var("z"))))));
    std::string body = place("P", "B", all("B")) + trans("t", same) +
                       arc("P", "t", op("add", sub(num(1, var("x"))) + sub(num(1, var("y"))) +
                                                   sub(num(1, var("z")))));
    return sym_net(body, decls);
}

Result read_mem_budget(const std::string &xml, const pn_budget *budget)
{
    Result r{};
    pn_error_clear(&r.err);
    pn_net *net = nullptr;
    r.st = pn_pnml_read_memory(xml.data(), xml.size(), "mem.pnml", budget, &net, &r.err);
    r.net.reset(net);
    return r;
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

TEST(HlpnBudget, ExpiredBudgetStopsAtOnce)
{
    std::string xml = billion_bindings_net();
    pn_budget b = pn_budget_make(1e-9, nullptr, 0);
    auto t0 = std::chrono::steady_clock::now();
    Result r = read_mem_budget(xml, &b);
    EXPECT_EQ(r.st, PN_ERR_TIMEOUT) << r.err.msg;
    EXPECT_EQ(r.err.code, PN_ERR_TIMEOUT);
    EXPECT_EQ(r.net.get(), nullptr);
    EXPECT_LT(seconds_since(t0), 1.0);
}

// The deadline passes while bindings are enumerated: the unfolder notices within
// milliseconds, long before HL_MAX_STEPS would have refused the net.
TEST(HlpnBudget, DeadlineStopsBindingEnumeration)
{
    std::string xml = billion_bindings_net();
    pn_budget b = pn_budget_make(0.2, nullptr, 0);
    auto t0 = std::chrono::steady_clock::now();
    Result r = read_mem_budget(xml, &b);
    double s = seconds_since(t0);
    EXPECT_EQ(r.st, PN_ERR_TIMEOUT) << r.err.msg;
    EXPECT_NE(std::string(r.err.msg).find("time limit"), std::string::npos) << r.err.msg;
    EXPECT_GE(s, 0.2);
    EXPECT_LT(s, 1.5);
}

// The colour fixpoint's join skips the classes outside a variable's domain
// 64 at a time, and those skips are steps the budget sees: here y's domain is
// one class of 2^24 for each of 10^5 values of x (when the skips were not
// counted, the deadline was polled every few hundred values of x, a second
// apart here and far more in instrumented builds: the fuzzer's input took 50 s).
TEST(HlpnBudget, DeadlineStopsTheColourFixpointsSkips)
{
    std::string decls =
        "<namedsort id=\"A\" name=\"A\"><finiteintrange start=\"1\" end=\"100000\"/></namedsort>"
        "<namedsort id=\"B\" name=\"B\"><finiteintrange start=\"1\" end=\"16777216\"/>"
        "</namedsort><variabledecl id=\"x\" name=\"x\"><usersort declaration=\"A\"/>"
        "</variabledecl><variabledecl id=\"y\" name=\"y\"><usersort declaration=\"B\"/>"
        "</variabledecl>";
    std::string one = "<finiteintrangeconstant value=\"7\"><finiteintrange start=\"1\" "
                      "end=\"16777216\"/></finiteintrangeconstant>";
    std::string body = place("PA", "A", all("A")) + place("PB", "B", num(1, one)) + trans("t") +
                       arc("PA", "t", num(1, var("x"))) + arc("PB", "t", num(1, var("y"))) +
                       arc("t", "PA", num(1, var("x"))) + arc("t", "PB", num(1, var("y")));
    pn_budget b = pn_budget_make(0.3, nullptr, UINT64_C(1) << 30); /* 2^24 places allowed */
    auto t0 = std::chrono::steady_clock::now();
    Result r = read_mem_budget(sym_net(body, decls), &b);
    double s = seconds_since(t0);
    EXPECT_EQ(r.st, PN_ERR_TIMEOUT) << r.err.msg;
    EXPECT_LT(s, 1.0); /* 1.3 s when the skips were not steps, 0.3 s since */
}

TEST(HlpnBudget, CancelFlagStopsUnfolding)
{
    volatile int cancel = 1;
    pn_budget b = pn_budget_make(0, &cancel, 0);
    Result r = read_mem_budget(billion_bindings_net(), &b);
    EXPECT_EQ(r.st, PN_ERR_CANCELLED) << r.err.msg;
    EXPECT_EQ(r.net.get(), nullptr);
}

// A budget that does not run out changes nothing.
TEST(HlpnBudget, AmpleBudgetUnfoldsAsWithout)
{
    std::string body = place("P", "C", all("C")) + trans("t", rel("inequality", var("x"), var("y"))) +
                       arc("P", "t", op("add", sub(num(1, var("x"))) + sub(num(1, var("y")))));
    pn_budget b = pn_budget_make(3600, nullptr, 0);
    Result r = read_mem_budget(sym_net(body), &b);
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(r.net->n_transitions, 6u);
    EXPECT_EQ(r.net->unfold.bindings_kept, 6u);
}

// ---- malformed input ---------------------------------------------------------------

TEST(HlpnErrors, UnknownSort)
{
    expect_error(sym_net(place("P", "Nope")), PN_ERR_INPUT,
                 "mem.pnml:14: usersort: unknown sort 'Nope'");
}

TEST(HlpnErrors, UnknownVariable)
{
    expect_error(sym_net(place("P", "C") + trans("t") + arc("P", "t", num(1, var("z")))),
                 PN_ERR_INPUT, "variable: unknown variable 'z'");
}

TEST(HlpnErrors, UnknownConstant)
{
    expect_error(sym_net(place("P", "C", num(1, cst("zz")))), PN_ERR_INPUT,
                 "useroperator: unknown constant 'zz'");
}

TEST(HlpnErrors, BadNumberof)
{
    std::string bad = op("numberof", sub("<numberconstant value=\"-1\"/>") + sub(cst("ca")));
    expect_error(sym_net(place("P", "C", bad)), PN_ERR_INPUT, "multiplicity of numberof");
    std::string one = op("numberof", sub(cst("ca")));
    expect_error(sym_net(place("P", "C", one)), PN_ERR_INPUT, "numberof: needs 2 subterms");
}

TEST(HlpnErrors, NegativeSubtract)
{
    std::string body = place("P", "C", all("C")) + trans("t") +
                       arc("P", "t", op("subtract", sub(num(1, var("x"))) + sub(all("C"))));
    expect_error(sym_net(body), PN_ERR_INPUT, "subtract: removes more tokens");
}

TEST(HlpnErrors, SortMismatchAndCycles)
{
    expect_error(sym_net(place("P", "C", num(1, rng(1)))), PN_ERR_INPUT,
                 "finiteintrangeconstant: term of sort R where sort C is expected");
    expect_error(sym_net(place("P", "C") + trans("t") + arc("P", "t", num(1, var("r")))),
                 PN_ERR_INPUT, "term of sort R where sort C is expected");
    expect_error(sym_net(place("P", "L1"),
                         "<namedsort id=\"L1\"><usersort declaration=\"L2\"/></namedsort>"
                         "<namedsort id=\"L2\"><usersort declaration=\"L1\"/></namedsort>"),
                 PN_ERR_INPUT, "defined in terms of itself");
}

TEST(HlpnErrors, StructureProblems)
{
    expect_error(sym_net("<place id=\"P\"/>"), PN_ERR_INPUT, "place 'P' has no <type>");
    expect_error(sym_net(place("P", "C") + arc("P", "nowhere", num(1, cst("ca")))),
                 PN_ERR_INPUT, "target 'nowhere' is not a place or transition");
    expect_error(sym_net(place("P", "C") + place("P", "C")), PN_ERR_INPUT, "duplicate id 'P'");
    expect_error(sym_net(place("P", "C") + trans("t") + arc("P", "t", "")), PN_ERR_INPUT,
                 "no <hlinscription>");
    expect_error(sym_net(place("P", "C", op("foo", ""))), PN_ERR_INPUT,
                 "unexpected element <foo>");
    expect_error(sym_net(place("P", "C"), "<partition id=\"x\"/>"), PN_ERR_INPUT,
                 "partition without the sort it partitions");
    expect_error(sym_net(place("P", "C"), "<namedsort id=\"I\"><integer/></namedsort>"),
                 PN_ERR_UNSUPPORTED, "<integer>");
    expect_error(sym_net(place("P", "C") + trans("t", "<and/>")), PN_ERR_INPUT,
                 "needs at least one subterm");
}

TEST(HlpnErrors, MalformedXmlAndEveryPrefix)
{
    std::string doc = sym_net(place("P", "C", all("C")) + trans("t") +
                              arc("P", "t", num(1, var("x"))));
    for (size_t len = doc.find("<net"); len < doc.size(); len += 7) {
        Result r = read_mem(doc.substr(0, len));
        ASSERT_NE(r.st, PN_OK) << len;
        ASSERT_EQ(r.net, nullptr);
        ASSERT_EQ(std::string(r.err.msg).find('\n'), std::string::npos);
    }
}

// ---- the MCC coloured instances --------------------------------------------------------

namespace {

const std::string kMcc = std::string(PETREL_SHARED_DIR) + "/mcc";

struct ColRow {
    std::string instance;
    uint64_t places = 0, transitions = 0, states = 0, edges = 0, max_place = 0, max_marking = 0;
};

std::vector<ColRow> col_rows()
{
    std::vector<ColRow> rows;
    std::ifstream in(kMcc + "/INDEX.tsv");
    std::string line;
    if (!std::getline(in, line))
        return rows;
    std::vector<std::string> header = petrel_test::split_tabs(line);
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < header.size(); i++)
        col[header[i]] = i;
    while (std::getline(in, line)) {
        std::vector<std::string> c = petrel_test::split_tabs(line);
        if (c.size() < header.size() || c[col["group"]] != "col")
            continue;
        ColRow r;
        r.instance = c[col["instance"]];
        petrel_test::parse_u64(c[col["unfolded_places"]], &r.places);
        petrel_test::parse_u64(c[col["unfolded_transitions"]], &r.transitions);
        petrel_test::parse_u64(c[col["states"]], &r.states);
        petrel_test::parse_u64(c[col["ss_edges"]], &r.edges);
        petrel_test::parse_u64(c[col["max_tok_place"]], &r.max_place);
        petrel_test::parse_u64(c[col["max_tok_marking"]], &r.max_marking);
        rows.push_back(r);
    }
    return rows;
}

} // namespace

TEST(HlpnMcc, UnfoldedSizesAndStateSpaces)
{
    std::vector<ColRow> rows = col_rows();
    if (rows.empty())
        GTEST_SKIP() << kMcc << "/INDEX.tsv is absent or lists no 'col' instance";
    for (const ColRow &row : rows) {
        SCOPED_TRACE(row.instance);
        pn_error err;
        pn_error_clear(&err);
        pn_net *raw = nullptr;
        std::string path = kMcc + "/" + row.instance + "/model.pnml";
        ASSERT_EQ(pn_pnml_read_file(path.c_str(), nullptr, &raw, &err), PN_OK) << err.msg;
        NetPtr net(raw);
        const pn_unfold_info &u = net->unfold;
        ASSERT_TRUE(u.unfolded);
        // INDEX.tsv counts the MCC's own P/T models: they drop the
        // structurally dead part, except in LamportFastMutEx where the
        // author kept places no arc ever marks. Petrel builds only the
        // classes the colour fixpoint finds markable: there 44 of the 69
        // places and 62 of the 96 transitions (the others never hold a
        // token or fire: the state space below is INDEX.tsv's).
        uint64_t full_p = net->n_places + u.dropped_places;
        uint64_t full_t = net->n_transitions + u.dropped_transitions;
        if (row.instance == "LamportFastMutEx-COL-2") {
            EXPECT_EQ(full_p, row.places);
            EXPECT_EQ(full_t, row.transitions);
            EXPECT_EQ(net->n_places, 44u);
            EXPECT_EQ(net->n_transitions, 62u);
        } else {
            EXPECT_EQ(net->n_places, row.places);
            EXPECT_EQ(net->n_transitions, row.transitions);
        }
        pn_cnet *cn = nullptr;
        ASSERT_EQ(pn_cnet_compile(net.get(), &cn, &err), PN_OK) << err.msg;
        pn_engine_opts o;
        memset(&o, 0, sizeof o);
        o.threads = 2;
        pn_engine_result res;
        memset(&res, 0, sizeof res);
        ASSERT_EQ(pn_explore(cn, &o, &res, &err), PN_OK) << err.msg;
        EXPECT_EQ(res.states, row.states);
        EXPECT_EQ(res.edges, row.edges);
        EXPECT_EQ(res.max_tokens_place, row.max_place);
        EXPECT_EQ(res.max_tokens_marking, row.max_marking);
        pn_engine_result_free(&res);
        pn_cnet_free(cn);
    }
}

// ---- one-element tuples ---------------------------------------------------------

// The GreatSPN editor writes <tuple> around a single term: over a plain sort it is that
// term (no product sort of one component is declared), on markings, arcs and guards.
TEST(HlpnUnfold, OneElementTupleIsItsComponent)
{
    std::string body =
        place("P", "C", op("tuple", sub(all("C")))) +
        place("S", "R", num(2, op("tuple", sub(rng(3))))) + place("Q", "C") + trans("t") +
        arc("P", "t", num(1, op("tuple", sub(var("x"))))) +
        arc("t", "Q", op("tuple", sub(op("successor", sub(var("x"))))));
    Result r = read_mem(sym_net(body));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    const pn_net *n = r.net.get();
    EXPECT_EQ(m0_of(n, "P_a"), 1u);
    EXPECT_EQ(m0_of(n, "P_b"), 1u);
    EXPECT_EQ(m0_of(n, "P_c"), 1u);
    EXPECT_EQ(m0_of(n, "S_3"), 2u);
    EXPECT_EQ(pn_net_find_place(n, "S_1"), -1);
    std::map<std::string, uint64_t> a = arcs_of(n);
    EXPECT_EQ(a["P_a>t_a"], 1u);
    EXPECT_EQ(a["t_a>Q_b"], 1u);
    EXPECT_EQ(a["t_c>Q_a"], 1u);
    EXPECT_EQ(a.size(), 6u);
}

// A declared product of one component still takes the tuple as a tuple.
TEST(HlpnUnfold, OneElementTupleOfAOneComponentProduct)
{
    std::string decls = std::string(kDecls) +
                        "<namedsort id=\"P1\" name=\"P1\"><productsort><usersort declaration=\"C\"/>"
                        "</productsort></namedsort>\n";
    std::string body = place("P", "P1", op("tuple", sub(cst("cb"))));
    Result r = read_mem(sym_net(body, decls));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    const uint32_t *idx;
    uint32_t len;
    ASSERT_TRUE(pn_net_find_place_group(r.net.get(), "P", &idx, &len));
    ASSERT_EQ(len, 1u);
    EXPECT_EQ(r.net->m0[idx[0]], 1u);
}

// ---- partitions, bool, empty, scalarproduct --------------------------------------

namespace {

// C = {a, b, c} partitioned into lo = {a} and hi = {b, c}; B = bool.
std::string partition_decls(const std::string &elements =
                                "<partitionelement id=\"lo\" name=\"lo\">" + cst("ca") +
                                "</partitionelement><partitionelement id=\"hi\" name=\"hi\">" +
                                cst("cb") + cst("cc") + "</partitionelement>")
{
    return std::string(kDecls) + "<partition id=\"PC\" name=\"PC\">" + us("C") + elements +
           "</partition>\n<namedsort id=\"B\" name=\"B\"><bool/></namedsort>\n"
           "<variabledecl id=\"e\" name=\"e\"><usersort declaration=\"PC\"/></variabledecl>\n"
           "<variabledecl id=\"b\" name=\"b\"><usersort declaration=\"B\"/></variabledecl>\n";
}

std::string pelem(const std::string &x)
{
    return "<partitionelementof refpartition=\"PC\">" + sub(x) + "</partitionelementof>";
}

} // namespace

TEST(HlpnUnfold, PartitionElementsAreColoursAndConstants)
{
    // Q holds partition elements: t moves each colour of P to its element.
    std::string body = place("P", "C", all("C")) + place("Q", "PC", num(2, cst("hi"))) +
                       trans("t") + arc("P", "t", num(1, var("x"))) +
                       arc("t", "Q", num(1, pelem(var("x"))));
    Result r = read_mem(sym_net(body, partition_decls()));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    const pn_net *n = r.net.get();
    EXPECT_EQ(m0_of(n, "Q_hi"), 2u);
    std::map<std::string, uint64_t> a = arcs_of(n);
    EXPECT_EQ(a["t_a>Q_lo"], 1u);
    EXPECT_EQ(a["t_b>Q_hi"], 1u);
    EXPECT_EQ(a["t_c>Q_hi"], 1u);
}

// A partition element where its partitioned sort is expected stands for
// its colours (hi = {b, c}), in a marking, an arc and a tuple component,
// where a sum of such terms and colours, <b1 + x, r>, stands for every
// combination.
TEST(HlpnUnfold, PartitionElementsStandForTheirColoursWhereTheSortIsExpected)
{
    std::string body =
        place("P", "C", num(2, cst("hi"))) + place("S", "CR") + trans("t") +
        arc("P", "t", num(1, var("x"))) +
        arc("t", "S", num(1, op("tuple", sub(op("add", sub(cst("hi")) + sub(num(1, var("x"))))) +
                                             sub(rng(1))))) +
        arc("t", "P", cst("lo"));
    Result r = read_mem(sym_net(body, partition_decls()));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    const pn_net *n = r.net.get();
    EXPECT_EQ(m0_of(n, "P_a"), 0u);
    EXPECT_EQ(m0_of(n, "P_b"), 2u);
    EXPECT_EQ(m0_of(n, "P_c"), 2u);
    std::map<std::string, uint64_t> a = arcs_of(n);
    EXPECT_EQ(a["t_b>S_b_1"], 2u); // b from hi, b from x
    EXPECT_EQ(a["t_b>S_c_1"], 1u);
    EXPECT_EQ(a["t_a>S_a_1"], 1u);
    EXPECT_EQ(a["t_a>S_b_1"], 1u);
    EXPECT_EQ(a["t_c>S_c_1"], 2u);
    EXPECT_EQ(a["t_a>P_a"], 1u); // lo = {a}
    EXPECT_EQ(a.count("t_a>S_a_2"), 0u);
}

TEST(HlpnUnfold, PartitionOrderAndMembership)
{
    // ltp: lo < hi in declaration order; x's element compared with a constant.
    std::string guard = op("and", sub(rel("ltp", var("e"), cst("hi"))) +
                                      sub(rel("equality", pelem(var("x")), var("e"))));
    std::string body = place("P", "C", all("C")) + place("Q", "PC", all("PC")) +
                       trans("t", guard) + arc("P", "t", num(1, var("x"))) +
                       arc("Q", "t", num(1, var("e")));
    Result r = read_mem(sym_net(body, partition_decls()));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(trans_of(r.net.get()), (std::set<std::string>{"t_a_lo"}));
    body = place("Q", "PC", all("PC")) + trans("t", rel("gtp", var("e"), cst("lo"))) +
           arc("Q", "t", num(1, var("e")));
    r = read_mem(sym_net(body, partition_decls()));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(trans_of(r.net.get()), (std::set<std::string>{"t_hi"}));
}

TEST(HlpnUnfold, BoolSortConstantsAndVariableGuards)
{
    // A bool variable as the whole guard keeps the bindings where it is true.
    std::string body =
        place("B1", "B", op("add", sub(num(2, "<booleanconstant value=\"true\"/>")) +
                                       sub(num(1, "<booleanconstant value=\"false\"/>")))) +
        trans("t", var("b")) + arc("B1", "t", num(1, var("b")));
    Result r = read_mem(sym_net(body, partition_decls()));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(m0_of(r.net.get(), "B1_true"), 2u);
    EXPECT_EQ(m0_of(r.net.get(), "B1_false"), 1u);
    EXPECT_EQ(trans_of(r.net.get()), (std::set<std::string>{"t_true"}));
}

TEST(HlpnUnfold, EmptyAndScalarProductInEitherOrder)
{
    std::string two = "<numberconstant value=\"2\"><natural/></numberconstant>";
    std::string body =
        place("P", "C", op("scalarproduct", sub(all("C")) + sub(two))) +
        place("S", "C", op("add", sub(op("empty", us("C"))) +
                                      sub(op("scalarproduct", sub(two) + sub(num(3, cst("cb"))))))) +
        place("E", "C", op("empty", us("C"))) + trans("t") + arc("P", "t", num(1, var("x"))) +
        arc("t", "E", op("empty", us("C")));
    Result r = read_mem(sym_net(body, partition_decls()));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    const pn_net *n = r.net.get();
    EXPECT_EQ(m0_of(n, "P_a"), 2u);
    EXPECT_EQ(m0_of(n, "P_c"), 2u);
    EXPECT_EQ(m0_of(n, "S_b"), 6u);
    std::map<std::string, uint64_t> a = arcs_of(n);
    EXPECT_EQ(a.size(), 3u) << "an empty inscription makes no arc";
}

TEST(HlpnErrors, MalformedPartitions)
{
    std::string body = place("Q", "PC");
    expect_error(sym_net(body, partition_decls("<partitionelement id=\"lo\">" + cst("ca") +
                                               "</partitionelement>")),
                 PN_ERR_INPUT, "colour 'b' of sort C is in no partition element");
    expect_error(sym_net(body, partition_decls("<partitionelement id=\"lo\">" + cst("ca") +
                                               cst("cb") + "</partitionelement>"
                                               "<partitionelement id=\"hi\">" + cst("cb") +
                                               cst("cc") + "</partitionelement>")),
                 PN_ERR_INPUT, "constant 'cb' is in two partition elements");
    expect_error(sym_net(body, partition_decls("<partitionelement id=\"lo\">" + cst("fu") +
                                               "</partitionelement>")),
                 PN_ERR_INPUT, "is not of the partitioned sort C");
    std::string cmp = place("P", "C", all("C")) + trans("t", rel("ltp", var("x"), var("y"))) +
                      arc("P", "t", num(1, var("x")));
    expect_error(sym_net(cmp, partition_decls()), PN_ERR_INPUT, "not partition elements");
    std::string bad = place("P", "C", all("C")) + trans("t") +
                      arc("P", "t", num(1, "<partitionelementof refpartition=\"C\">" +
                                               sub(var("x")) + "</partitionelementof>"));
    expect_error(sym_net(bad, partition_decls()), PN_ERR_INPUT, "is not a partition");
}
