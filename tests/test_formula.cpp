// Formula reader, printer, simplifier, classification and evaluator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

extern "C" {
#include "petrel/cnet.h"
#include "petrel/formula.h"
#include "petrel/net.h"
#include "petrel/pnml.h"
}
#include "test_ptrs.h"

namespace {

namespace fs = std::filesystem;

// p1(1) -t1-> p2(0) -t2-> p1; p3(2) -3-> t3 (disabled at m0).
NetPtr TinyNet()
{
    pn_error err{};
    NetPtr net(pn_net_new("tiny"));
    EXPECT_NE(net, nullptr);
    EXPECT_EQ(pn_net_add_place(net.get(), "p1", nullptr, 1, &err), 0);
    EXPECT_EQ(pn_net_add_place(net.get(), "p2", nullptr, 0, &err), 1);
    EXPECT_EQ(pn_net_add_place(net.get(), "p3", nullptr, 2, &err), 2);
    EXPECT_EQ(pn_net_add_transition(net.get(), "t1", nullptr, &err), 0);
    EXPECT_EQ(pn_net_add_transition(net.get(), "t2", nullptr, &err), 1);
    EXPECT_EQ(pn_net_add_transition(net.get(), "t3", nullptr, &err), 2);
    EXPECT_EQ(pn_net_add_arc(net.get(), 0, 0, true, 1, &err), PN_OK);
    EXPECT_EQ(pn_net_add_arc(net.get(), 1, 0, false, 1, &err), PN_OK);
    EXPECT_EQ(pn_net_add_arc(net.get(), 1, 1, true, 1, &err), PN_OK);
    EXPECT_EQ(pn_net_add_arc(net.get(), 0, 1, false, 1, &err), PN_OK);
    EXPECT_EQ(pn_net_add_arc(net.get(), 2, 2, true, 3, &err), PN_OK);
    return net;
}

std::string Prop(const std::string &id, const std::string &formula)
{
    return "<property><id>" + id + "</id><description>d</description><formula>" +
           formula + "</formula></property>";
}

std::string Doc(const std::string &props)
{
    return "<?xml version=\"1.0\"?>\n<property-set xmlns=\"http://mcc.lip6.fr/\">\n" +
           props + "\n</property-set>\n";
}

struct ReadResult {
    pn_status st;
    SetPtr set;
    std::string msg;
};

ReadResult Read(const std::string &xml, const pn_net *net)
{
    pn_error err{};
    pn_fml_set *set = nullptr;
    pn_status st = pn_fml_read_memory(xml.data(), xml.size(), "mem.xml", net, &set, &err);
    return ReadResult{st, SetPtr(set), err.msg};
}

// Reads one formula and returns its root, detached from the set.
NodePtr ReadOne(const std::string &formula, const pn_net *net)
{
    ReadResult r = Read(Doc(Prop("f", formula)), net);
    EXPECT_EQ(r.st, PN_OK) << r.msg;
    if (r.st != PN_OK || r.set->n != 1 || r.set->props[0].status != PN_OK)
        return nullptr;
    pn_fml_node *root = r.set->props[0].root;
    r.set->props[0].root = nullptr;
    return NodePtr(root);
}

std::string Str(const pn_fml_node *n, const pn_net *net)
{
    char *s = pn_fml_to_string(n, net);
    EXPECT_NE(s, nullptr);
    std::string out = s != nullptr ? s : "";
    free(s);
    return out;
}

const char *kTok12 = "<tokens-count><place>p1</place><place>p2</place></tokens-count>";

// ---- reading --------------------------------------------------------------

TEST(FmlRead, EveryElementKind)
{
    NetPtr net = TinyNet();
    std::string f =
        "<all-paths><globally><conjunction>"
        "<exists-path><finally><deadlock/></finally></exists-path>"
        "<exists-path><next><true/></next></exists-path>"
        "<all-paths><until><before><false/></before>"
        "<reach><is-fireable><transition>t1</transition><transition>t3</transition>"
        "</is-fireable></reach></until></all-paths>"
        "<negation><disjunction><integer-le><integer-constant>3</integer-constant>"
        "<tokens-count><place>p1</place><place>p3</place><place>p1</place></tokens-count>"
        "</integer-le></disjunction></negation>"
        "</conjunction></globally></all-paths>";
    NodePtr root = ReadOne(f, net.get());
    ASSERT_NE(root, nullptr);
    ASSERT_EQ(root->kind, PN_FML_A);
    const pn_fml_node *g = root->kids[0];
    ASSERT_EQ(g->kind, PN_FML_G);
    const pn_fml_node *c = g->kids[0];
    ASSERT_EQ(c->kind, PN_FML_AND);
    ASSERT_EQ(c->n, 4u);
    EXPECT_EQ(c->kids[0]->kind, PN_FML_E);
    EXPECT_EQ(c->kids[0]->kids[0]->kind, PN_FML_F);
    EXPECT_EQ(c->kids[0]->kids[0]->kids[0]->kind, PN_FML_DEADLOCK);
    EXPECT_EQ(c->kids[1]->kids[0]->kind, PN_FML_X);
    EXPECT_EQ(c->kids[1]->kids[0]->kids[0]->kind, PN_FML_TRUE);
    const pn_fml_node *u = c->kids[2]->kids[0];
    ASSERT_EQ(u->kind, PN_FML_U);
    EXPECT_EQ(u->kids[0]->kind, PN_FML_FALSE);
    ASSERT_EQ(u->kids[1]->kind, PN_FML_FIREABLE);
    ASSERT_EQ(u->kids[1]->n, 2u);
    EXPECT_EQ(u->kids[1]->idx[0], 0u);
    EXPECT_EQ(u->kids[1]->idx[1], 2u);
    const pn_fml_node *neg = c->kids[3];
    ASSERT_EQ(neg->kind, PN_FML_NOT);
    ASSERT_EQ(neg->kids[0]->kind, PN_FML_OR);
    ASSERT_EQ(neg->kids[0]->n, 1u);
    const pn_fml_node *le = neg->kids[0]->kids[0];
    ASSERT_EQ(le->kind, PN_FML_INT_LE);
    EXPECT_EQ(le->kids[0]->kind, PN_FML_CONST);
    EXPECT_EQ(le->kids[0]->value, 3u);
    ASSERT_EQ(le->kids[1]->kind, PN_FML_TOKENS);
    // Listed places are kept as listed, duplicates included.
    ASSERT_EQ(le->kids[1]->n, 3u);
    EXPECT_EQ(le->kids[1]->idx[0], 0u);
    EXPECT_EQ(le->kids[1]->idx[1], 2u);
    EXPECT_EQ(le->kids[1]->idx[2], 0u);
}

TEST(FmlRead, PlaceBoundAndIdsAndTrimming)
{
    NetPtr net = TinyNet();
    std::string xml = Doc(
        "<property><id>  UB-00 \n</id><formula><place-bound><place> p3 </place>"
        "<place>\n\tp2</place></place-bound></formula></property>"
        "<property><formula><integer-le><integer-constant> 18446744073709551615 "
        "</integer-constant><tokens-count><place>p1</place></tokens-count></integer-le>"
        "</formula><id>second</id></property>");
    ReadResult r = Read(xml, net.get());
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    ASSERT_EQ(r.set->n, 2u);
    EXPECT_STREQ(r.set->props[0].id, "UB-00");
    EXPECT_EQ(r.set->props[0].status, PN_OK);
    EXPECT_EQ(r.set->props[0].error, nullptr);
    const pn_fml_node *b = r.set->props[0].root;
    ASSERT_EQ(b->kind, PN_FML_PLACE_BOUND);
    ASSERT_EQ(b->n, 2u);
    EXPECT_EQ(b->idx[0], 2u);
    EXPECT_EQ(b->idx[1], 1u);
    EXPECT_STREQ(r.set->props[1].id, "second");
    EXPECT_EQ(r.set->props[1].root->kids[0]->value, UINT64_MAX);
    EXPECT_EQ(r.set->net, net.get());
}

// An id is printed as one field of one answer line: a newline inside it
// would forge a second answer ("FORMULA F-00 FALSE ..."), a space would split
// it in batch records. Such bytes become '_'.
TEST(FmlRead, IdsCannotForgeAnswerLines)
{
    NetPtr net = TinyNet();
    std::string xml = Doc(
        "<property><id>F-01\nFORMULA F-00 FALSE TECHNIQUES FORGED</id><formula>"
        "<place-bound><place>p1</place></place-bound></formula></property>"
        "<property><id>a b\tc&#127;e</id><formula>"
        "<place-bound><place>p1</place></place-bound></formula></property>");
    ReadResult r = Read(xml, net.get());
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    ASSERT_EQ(r.set->n, 2u);
    EXPECT_STREQ(r.set->props[0].id, "F-01_FORMULA_F-00_FALSE_TECHNIQUES_FORGED");
    EXPECT_STREQ(r.set->props[1].id, "a_b_c_e");
}

TEST(FmlRead, UntilChildrenInEitherOrderAndNoNamespace)
{
    NetPtr net = TinyNet();
    std::string xml =
        "<property-set><property><id>u</id><formula><exists-path><until>"
        "<reach><true/></reach><!-- a comment --><before><deadlock/></before>"
        "</until></exists-path></formula></property></property-set>";
    ReadResult r = Read(xml, net.get());
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    const pn_fml_node *u = r.set->props[0].root->kids[0];
    ASSERT_EQ(u->kind, PN_FML_U);
    EXPECT_EQ(u->kids[0]->kind, PN_FML_DEADLOCK);
    EXPECT_EQ(u->kids[1]->kind, PN_FML_TRUE);
}

TEST(FmlRead, EmptyPropertySet)
{
    ReadResult r = Read(Doc(""), TinyNet().get());
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    EXPECT_EQ(r.set->n, 0u);
}

// Every case must refuse the whole file, naming file, line and formula.
struct BadCase {
    const char *what;
    std::string formula;
    const char *expect;   // a substring of the message
};

TEST(FmlRead, StructuralErrorsRefuseTheirFormulaOnly)
{
    NetPtr net = TinyNet();
    const std::vector<BadCase> cases = {
        {"unknown element", "<eventually><true/></eventually>", "<eventually>"},
        {"negation arity 2", "<negation><true/><false/></negation>", "needs 1 child"},
        {"negation arity 0", "<negation/>", "needs 1 child"},
        {"empty conjunction", "<conjunction/>", "at least 1"},
        {"integer-le arity", "<integer-le><integer-constant>1</integer-constant></integer-le>",
         "needs 2 child elements, has 1"},
        {"until without reach", "<exists-path><until><before><true/></before>"
                                "<before><true/></before></until></exists-path>",
         "<before> and one <reach>"},
        {"until arity", "<exists-path><until><before><true/></before></until></exists-path>",
         "needs 2 child elements, has 1"},
        {"reach arity", "<exists-path><until><before><true/></before><reach/></until>"
                        "</exists-path>", "<reach> needs 1 child"},
        {"true with child", "<true><false/></true>", "needs 0 child elements"},
        {"negative constant", "<integer-le><integer-constant>-1</integer-constant>"
                              "<integer-constant>2</integer-constant></integer-le>",
         "bad integer constant '-1'"},
        {"constant overflow", "<integer-le><integer-constant>18446744073709551616"
                              "</integer-constant><integer-constant>2</integer-constant>"
                              "</integer-le>", "bad integer constant"},
        {"empty constant", "<integer-le><integer-constant/><integer-constant>2"
                           "</integer-constant></integer-le>", "bad integer constant"},
        {"boolean in integer slot", "<integer-le><true/><integer-constant>2"
                                    "</integer-constant></integer-le>",
         "not an integer expression"},
        {"integer in boolean slot", kTok12, "<tokens-count>"},
        {"nested place-bound", "<integer-le><place-bound><place>p1</place></place-bound>"
                               "<integer-constant>2</integer-constant></integer-le>",
         "only allowed as a whole formula"},
        {"empty tokens-count", "<integer-le><tokens-count/><integer-constant>2"
                               "</integer-constant></integer-le>", "at least 1"},
        {"transition in tokens-count", "<integer-le><tokens-count><transition>t1"
                                       "</transition></tokens-count><integer-constant>2"
                                       "</integer-constant></integer-le>", "expected <place>"},
        {"place in is-fireable", "<is-fireable><place>p1</place></is-fireable>",
         "expected <transition>"},
        {"text in operator", "<negation>oops<true/></negation>", "unexpected text"},
        {"element in name", "<is-fireable><transition><b>t1</b></transition></is-fireable>",
         "text only"},
        {"two formulas", "<true/><false/>", "<formula> needs 1 child"},
        {"foreign namespace", "<x:true xmlns:x=\"urn:other\"/>", "<true>"},
    };
    // The formula alone is refused (it answers CANNOT_COMPUTE), with the
    // file, line, id and what is wrong; its neighbours are read.
    for (const BadCase &c : cases) {
        std::string xml = Doc(Prop("ok", "<true/>") + "\n" + Prop("bad-id", c.formula) + "\n" +
                              Prop("after", "<false/>"));
        ReadResult r = Read(xml, net.get());
        ASSERT_EQ(r.st, PN_OK) << c.what << ": " << r.msg;
        ASSERT_EQ(r.set->n, 3u) << c.what;
        EXPECT_EQ(r.set->props[0].status, PN_OK) << c.what;
        EXPECT_EQ(r.set->props[2].status, PN_OK) << c.what;
        EXPECT_STREQ(r.set->props[2].id, "after");
        const pn_fml_prop &bad = r.set->props[1];
        EXPECT_EQ(bad.status, PN_ERR_INPUT) << c.what;
        EXPECT_EQ(bad.root, nullptr) << c.what;
        ASSERT_NE(bad.error, nullptr) << c.what;
        std::string msg = bad.error;
        EXPECT_NE(msg.find(c.expect), std::string::npos) << c.what << ": " << msg;
        EXPECT_NE(msg.find("mem.xml:4:"), std::string::npos) << c.what << ": " << msg;
        EXPECT_NE(msg.find("'bad-id'"), std::string::npos) << c.what << ": " << msg;
    }
}

TEST(FmlRead, PropertyStructureErrors)
{
    NetPtr net = TinyNet();
    const std::vector<std::pair<std::string, const char *>> cases = {
        {Doc("<property><formula><true/></formula></property>"), "without <id>"},
        {Doc("<property><id>a</id></property>"), "without <formula>"},
        {Doc("<property><id>a</id><id>b</id><formula><true/></formula></property>"),
         "repeated <id>"},
        {Doc("<property><id>a</id><tag/><formula><true/></formula></property>"),
         "unknown element <tag>"},
        {Doc("<property><id> </id><formula><true/></formula></property>"), "empty <id>"},
        {Doc("<formula/>"), "unknown element <formula> in <property-set>"},
        {"<pnml><net/></pnml>", "not <property-set>"},
    };
    for (const auto &c : cases) {
        ReadResult r = Read(c.first, net.get());
        EXPECT_EQ(r.st, PN_ERR_INPUT) << c.first;
        EXPECT_EQ(r.set, nullptr);
        EXPECT_NE(r.msg.find(c.second), std::string::npos) << r.msg;
        EXPECT_EQ(r.msg.rfind("mem.xml:", 0), 0u) << r.msg;
    }
}

TEST(FmlRead, MalformedXml)
{
    NetPtr net = TinyNet();
    std::string xml = Doc(Prop("a", "<true/>") + "\n<property><id>b</id><formula><true>");
    ReadResult r = Read(xml, net.get());
    EXPECT_EQ(r.st, PN_ERR_INPUT);
    EXPECT_EQ(r.set, nullptr);
    EXPECT_EQ(r.msg.rfind("mem.xml:", 0), 0u) << r.msg;
    EXPECT_NE(r.msg.find("malformed XML"), std::string::npos) << r.msg;
    // Said in terms of the file, never as libxml2's "Premature end of data"
    // or its parser options (sys/xml_error.h).
    EXPECT_NE(r.msg.find("the file ends inside <"), std::string::npos) << r.msg;
    EXPECT_NE(r.msg.find("(opened at line 4): it is truncated"), std::string::npos) << r.msg;
    ReadResult empty = Read("", net.get());
    EXPECT_EQ(empty.st, PN_ERR_INPUT);
    EXPECT_NE(empty.msg.find("the file is empty"), std::string::npos) << empty.msg;
    ReadResult two = Read(Doc("") + "<property-set/>", net.get());
    EXPECT_NE(two.msg.find("truncated, or more follows that element"), std::string::npos)
        << two.msg;
    std::string deep = "<?xml version=\"1.0\"?><property-set>";
    for (int i = 0; i < 300; i++)
        deep += "<x>";
    ReadResult nested = Read(deep, net.get());
    EXPECT_EQ(nested.st, PN_ERR_INPUT);
    EXPECT_NE(nested.msg.find("elements nested more than 256 deep"), std::string::npos)
        << nested.msg;
    EXPECT_EQ(nested.msg.find("XML_PARSE"), std::string::npos) << nested.msg;
}

TEST(FmlRead, UnknownNamesMarkOnlyTheirProperty)
{
    NetPtr net = TinyNet();
    std::string xml = Doc(
        Prop("good-1", "<is-fireable><transition>t2</transition></is-fireable>") +
        Prop("bad-place", "<negation><integer-le><integer-constant>1</integer-constant>"
                          "<tokens-count><place>p1</place><place>nowhere</place>"
                          "<place>p9</place></tokens-count></integer-le></negation>") +
        Prop("bad-trans", "<exists-path><finally><is-fireable><transition>p1"
                          "</transition></is-fireable></finally></exists-path>") +
        Prop("bad-bound", "<place-bound><place>t1</place></place-bound>") +
        Prop("good-2", "<deadlock/>"));
    ReadResult r = Read(xml, net.get());
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    ASSERT_EQ(r.set->n, 5u);
    const pn_fml_prop *p = r.set->props;
    EXPECT_EQ(p[0].status, PN_OK);
    EXPECT_EQ(p[0].root->kind, PN_FML_FIREABLE);
    EXPECT_EQ(p[4].status, PN_OK);
    EXPECT_EQ(p[4].root->kind, PN_FML_DEADLOCK);
    const char *names[] = {"place 'nowhere'", "transition 'p1'", "place 't1'"};
    for (int i = 1; i <= 3; i++) {
        EXPECT_EQ(p[i].status, PN_ERR_INPUT);
        EXPECT_EQ(p[i].root, nullptr);
        ASSERT_NE(p[i].error, nullptr);
        std::string msg = p[i].error;
        EXPECT_NE(msg.find(std::string("'") + p[i].id + "'"), std::string::npos) << msg;
        EXPECT_NE(msg.find(names[i - 1]), std::string::npos) << msg;
        EXPECT_EQ(msg.rfind("mem.xml:", 0), 0u) << msg;
    }
}

TEST(FmlRead, StructuralErrorWinsOverUnknownName)
{
    NetPtr net = TinyNet();
    std::string xml = Doc(Prop("x", "<conjunction><is-fireable><transition>zz"
                                    "</transition></is-fireable><bogus/></conjunction>"));
    ReadResult r = Read(xml, net.get());
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    ASSERT_EQ(r.set->n, 1u);
    EXPECT_EQ(r.set->props[0].status, PN_ERR_INPUT);
    ASSERT_NE(r.set->props[0].error, nullptr);
    EXPECT_NE(std::string(r.set->props[0].error).find("<bogus>"), std::string::npos)
        << r.set->props[0].error;
}

TEST(FmlRead, Files)
{
    NetPtr net = TinyNet();
    pn_error err{};
    pn_fml_set *set = nullptr;
    EXPECT_EQ(pn_fml_read_file("/nonexistent/dir/f.xml", net.get(), &set, &err), PN_ERR_IO);
    EXPECT_EQ(set, nullptr);
    EXPECT_NE(std::string(err.msg).find("/nonexistent/dir/f.xml"), std::string::npos);

    fs::path path = fs::temp_directory_path() /
                    ("petrel_fml_" + std::to_string(::getpid()) + ".xml");
    {
        std::ofstream out(path);
        out << Doc(Prop("a", "<true/>") + "\n" + Prop("b", "<nonsense/>"));
    }
    pn_error err2{};
    ASSERT_EQ(pn_fml_read_file(path.c_str(), net.get(), &set, &err2), PN_OK) << err2.msg;
    EXPECT_EQ(err2.code, PN_OK) << err2.msg; // the refused formula leaves no file error
    ASSERT_EQ(set->n, 2u);
    EXPECT_NE(std::string(set->props[1].error).find(path.string() + ":4:"), std::string::npos)
        << set->props[1].error;
    pn_fml_set_free(set);
    set = nullptr;
    {
        std::ofstream out(path);
        out << Doc(Prop("a", "<true/>"));
    }
    pn_error err3{};
    ASSERT_EQ(pn_fml_read_file(path.c_str(), net.get(), &set, &err3), PN_OK) << err3.msg;
    SetPtr owned(set);
    EXPECT_EQ(set->n, 1u);
    fs::remove(path);
}

// ---- building and classification ------------------------------------------

TEST(FmlAst, BuildersConsumeArgumentsAndRejectBadKinds)
{
    EXPECT_EQ(pn_fml_leaf(PN_FML_AND), nullptr);
    uint32_t idx[] = {0};
    EXPECT_EQ(pn_fml_list(PN_FML_NOT, idx, 1), nullptr);
    EXPECT_EQ(pn_fml_list(PN_FML_TOKENS, idx, 0), nullptr);
    // The leaf is freed by the failing builders (leak check under ASan).
    EXPECT_EQ(pn_fml_unary(PN_FML_AND, pn_fml_leaf(PN_FML_TRUE)), nullptr);
    EXPECT_EQ(pn_fml_binary(PN_FML_NOT, pn_fml_leaf(PN_FML_TRUE), pn_fml_const(1)), nullptr);
    EXPECT_EQ(pn_fml_binary(PN_FML_AND, pn_fml_leaf(PN_FML_TRUE), nullptr), nullptr);
    pn_fml_node *kids[] = {pn_fml_leaf(PN_FML_TRUE), pn_fml_leaf(PN_FML_FALSE)};
    EXPECT_EQ(pn_fml_nary(PN_FML_U, kids, 2), nullptr);
    EXPECT_EQ(pn_fml_nary(PN_FML_AND, nullptr, 0), nullptr);
}

TEST(FmlAst, CloneAndEqual)
{
    NetPtr net = TinyNet();
    NodePtr a = ReadOne("<exists-path><until><before><integer-le>"
                        "<integer-constant>2</integer-constant>" +
                            std::string(kTok12) +
                            "</integer-le></before><reach><is-fireable><transition>t1"
                            "</transition></is-fireable></reach></until></exists-path>",
                        net.get());
    ASSERT_NE(a, nullptr);
    NodePtr b(pn_fml_clone(a.get()));
    ASSERT_NE(b, nullptr);
    EXPECT_NE(a.get(), b.get());
    EXPECT_TRUE(pn_fml_equal(a.get(), b.get()));
    b->kids[0]->kids[0]->kids[0]->value = 3;
    EXPECT_FALSE(pn_fml_equal(a.get(), b.get()));
    uint32_t i12[] = {0, 1}, i21[] = {1, 0};
    NodePtr t12(pn_fml_list(PN_FML_TOKENS, i12, 2)), t21(pn_fml_list(PN_FML_TOKENS, i21, 2));
    NodePtr f12(pn_fml_list(PN_FML_FIREABLE, i12, 2));
    EXPECT_FALSE(pn_fml_equal(t12.get(), t21.get()));
    EXPECT_FALSE(pn_fml_equal(t12.get(), f12.get()));
}

TEST(FmlAst, IsStateAndReachShape)
{
    NetPtr net = TinyNet();
    const char *atom = "<is-fireable><transition>t1</transition></is-fireable>";
    struct Case {
        std::string f;
        bool state;
        pn_fml_reach reach;
    };
    const std::vector<Case> cases = {
        {atom, true, PN_FML_REACH_NONE},
        {std::string("<negation><conjunction><deadlock/>") + atom + "</conjunction></negation>",
         true, PN_FML_REACH_NONE},
        {std::string("<exists-path><finally>") + atom + "</finally></exists-path>", false,
         PN_FML_REACH_EF},
        {std::string("<all-paths><globally><negation>") + atom +
             "</negation></globally></all-paths>", false, PN_FML_REACH_AG},
        {std::string("<exists-path><globally>") + atom + "</globally></exists-path>", false,
         PN_FML_REACH_NONE},
        {std::string("<all-paths><finally>") + atom + "</finally></all-paths>", false,
         PN_FML_REACH_NONE},
        {std::string("<exists-path><finally><exists-path><next>") + atom +
             "</next></exists-path></finally></exists-path>", false, PN_FML_REACH_NONE},
        {std::string("<negation><exists-path><finally>") + atom +
             "</finally></exists-path></negation>", false, PN_FML_REACH_NONE},
    };
    for (const Case &c : cases) {
        NodePtr n = ReadOne(c.f, net.get());
        ASSERT_NE(n, nullptr);
        EXPECT_EQ(pn_fml_is_state(n.get()), c.state) << c.f;
        const pn_fml_node *phi = n.get();
        EXPECT_EQ(pn_fml_reach_shape(n.get(), &phi), c.reach) << c.f;
        const pn_fml_node *want = c.reach == PN_FML_REACH_NONE ? nullptr : n->kids[0]->kids[0];
        EXPECT_EQ(phi, want);
    }
    NodePtr c(pn_fml_const(3));
    EXPECT_TRUE(pn_fml_is_int(c.get()));
    EXPECT_FALSE(pn_fml_is_state(c.get()));
}

// ---- printing -------------------------------------------------------------

TEST(FmlPrint, InfixForms)
{
    NetPtr net = TinyNet();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"<all-paths><globally><disjunction><integer-le>" + std::string(kTok12) +
             "<integer-constant>3</integer-constant></integer-le><negation><is-fireable>"
             "<transition>t1</transition></is-fireable></negation></disjunction>"
             "</globally></all-paths>",
         "AG((p1 + p2 <= 3) | !fireable(t1))"},
        {"<exists-path><until><before><deadlock/></before><reach><conjunction><true/>"
         "<false/><is-fireable><transition>t1</transition><transition>t2</transition>"
         "</is-fireable></conjunction></reach></until></exists-path>",
         "E(deadlock U (true & false & fireable(t1, t2)))"},
        {"<place-bound><place>p1</place><place>p3</place></place-bound>", "bound(p1, p3)"},
        {"<exists-path><finally><exists-path><next><deadlock/></next></exists-path>"
         "</finally></exists-path>",
         "EFEX(deadlock)"},
        {"<negation><exists-path><globally><conjunction><deadlock/></conjunction>"
         "</globally></exists-path></negation>",
         "!EG(deadlock)"},
        {"<all-paths><next><negation><negation><true/></negation></negation></next>"
         "</all-paths>",
         "AX(!!true)"},
    };
    for (const auto &c : cases) {
        NodePtr n = ReadOne(c.first, net.get());
        ASSERT_NE(n, nullptr);
        EXPECT_EQ(Str(n.get(), net.get()), c.second);
    }
    uint32_t idx[] = {4, 1};
    NodePtr noname(pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, idx, 2),
                                 pn_fml_const(7)));
    EXPECT_EQ(Str(noname.get(), nullptr), "(p#4 + p#1 <= 7)");
    EXPECT_EQ(Str(noname.get(), net.get()), "(p#4 + p2 <= 7)");
}

TEST(FmlPrint, PropertyLines)
{
    NetPtr net = TinyNet();
    ReadResult r = Read(Doc(Prop("ok", "<deadlock/>") +
                            Prop("bad", "<is-fireable><transition>zz</transition>"
                                        "</is-fireable>")),
                        net.get());
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    char *buf = nullptr;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ASSERT_NE(f, nullptr);
    pn_fml_print(f, r.set.get(), 0);
    pn_fml_print(f, r.set.get(), 1);
    fclose(f);
    std::string out(buf, len);
    free(buf);
    EXPECT_EQ(out.substr(0, out.find('\n') + 1), "ok: deadlock\n");
    EXPECT_NE(out.find("bad: error: mem.xml:"), std::string::npos) << out;
    EXPECT_NE(out.find("unknown transition 'zz'"), std::string::npos) << out;
}

// ---- simplifying ----------------------------------------------------------

// Reads `in`, simplifies it and returns the printed result.
std::string Simp(const std::string &in, const pn_net *net)
{
    NodePtr n = ReadOne(in, net);
    if (n == nullptr)
        return "<read failed>";
    pn_fml_node *root = n.release();
    pn_error err{};
    EXPECT_EQ(pn_fml_simplify(&root, &err), PN_OK);
    n.reset(root);
    return Str(root, net);
}

const std::string kA = "<is-fireable><transition>t1</transition></is-fireable>";
const std::string kB = "<is-fireable><transition>t2</transition></is-fireable>";
const std::string kT = "<true/>", kF = "<false/>";

std::string Tag(const std::string &tag, const std::string &body)
{
    return "<" + tag + ">" + body + "</" + tag + ">";
}

std::string Until(const std::string &a, const std::string &b)
{
    return Tag("until", Tag("before", a) + Tag("reach", b));
}

std::string Le(const std::string &a, const std::string &b)
{
    return Tag("integer-le", a + b);
}

std::string K(uint64_t v)
{
    return Tag("integer-constant", std::to_string(v));
}

TEST(FmlSimplify, NotOfConstants)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Tag("negation", kT), net.get()), "false");
    EXPECT_EQ(Simp(Tag("negation", kF), net.get()), "true");
}

TEST(FmlSimplify, DoubleNegation)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Tag("negation", Tag("negation", kA)), net.get()), "fireable(t1)");
    EXPECT_EQ(Simp(Tag("negation", Tag("negation", Tag("negation", kA))), net.get()),
              "!fireable(t1)");
}

TEST(FmlSimplify, AndOrAbsorbingConstant)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Tag("conjunction", kA + kF + kB), net.get()), "false");
    EXPECT_EQ(Simp(Tag("disjunction", kA + kT + kB), net.get()), "true");
}

TEST(FmlSimplify, AndOrNeutralConstantDropped)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Tag("conjunction", kA + kT + kB), net.get()), "(fireable(t1) & fireable(t2))");
    EXPECT_EQ(Simp(Tag("disjunction", kF + kA + kB), net.get()), "(fireable(t1) | fireable(t2))");
    EXPECT_EQ(Simp(Tag("conjunction", kT + kT), net.get()), "true");
    EXPECT_EQ(Simp(Tag("disjunction", kF + kF), net.get()), "false");
}

TEST(FmlSimplify, SingleChildAndOrIsTheChild)
{
    NetPtr net = TinyNet();
    NodePtr n = ReadOne(Tag("conjunction", kA), net.get());
    pn_fml_node *root = n.release();
    ASSERT_EQ(pn_fml_simplify(&root, nullptr), PN_OK);
    n.reset(root);
    EXPECT_EQ(root->kind, PN_FML_FIREABLE);
    EXPECT_EQ(Simp(Tag("disjunction", kB), net.get()), "fireable(t2)");
}

TEST(FmlSimplify, Flattening)
{
    NetPtr net = TinyNet();
    std::string c = "<deadlock/>";
    EXPECT_EQ(Simp(Tag("conjunction", kA + Tag("conjunction", kB + Tag("conjunction", c + kA))),
                   net.get()),
              "(fireable(t1) & fireable(t2) & deadlock & fireable(t1))");
    EXPECT_EQ(Simp(Tag("disjunction", Tag("disjunction", kA + kB) + c), net.get()),
              "(fireable(t1) | fireable(t2) | deadlock)");
    // Different connectives are not merged.
    EXPECT_EQ(Simp(Tag("disjunction", Tag("conjunction", kA + kB) + c), net.get()),
              "((fireable(t1) & fireable(t2)) | deadlock)");
    // A child that folds to a one-child AND is spliced too.
    EXPECT_EQ(Simp(Tag("conjunction", kA + Tag("conjunction", kB + kT)), net.get()),
              "(fireable(t1) & fireable(t2))");
}

// x & !x is false and x | !x true whatever x reads (SharedMemory-PT-000010
// RF 2025-03: E F (fireable(L) & (!fireable(L) & fireable(R))) is FALSE).
TEST(FmlSimplify, ComplementaryKidsDecide)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Tag("conjunction", kA + Tag("conjunction", Tag("negation", kA) + kB)),
                   net.get()),
              "false");
    EXPECT_EQ(Simp(Tag("disjunction", Tag("negation", kB) + kA + kB), net.get()), "true");
    std::string u = Until(kA, kB); // a path formula
    EXPECT_EQ(Simp(Tag("conjunction", Tag("negation", u) + u), net.get()), "false");
    // Different atoms, or the same atom twice, decide nothing.
    EXPECT_EQ(Simp(Tag("conjunction", kA + Tag("negation", kB)), net.get()),
              "(fireable(t1) & !fireable(t2))");
    EXPECT_EQ(Simp(Tag("disjunction", Tag("negation", kA) + Tag("negation", kA)), net.get()),
              "(!fireable(t1) | !fireable(t1))");
}

TEST(FmlSimplify, IntLeOfConstants)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Le(K(3), K(5)), net.get()), "true");
    EXPECT_EQ(Simp(Le(K(5), K(5)), net.get()), "true");
    EXPECT_EQ(Simp(Le(K(6), K(5)), net.get()), "false");
}

TEST(FmlSimplify, IntLeZeroBelowAnything)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Le(K(0), kTok12), net.get()), "true");
    // x <= 0 says something: left alone.
    EXPECT_EQ(Simp(Le(kTok12, K(0)), net.get()), "(p1 + p2 <= 0)");
    EXPECT_EQ(Simp(Le(K(1), kTok12), net.get()), "(1 <= p1 + p2)");
}

TEST(FmlSimplify, IntLeSameExpression)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Le(kTok12, kTok12), net.get()), "true");
    std::string t21 = "<tokens-count><place>p2</place><place>p1</place></tokens-count>";
    EXPECT_EQ(Simp(Le(kTok12, t21), net.get()), "(p1 + p2 <= p2 + p1)");
}

TEST(FmlSimplify, QuantifierOverStateFormula)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Tag("all-paths", kA), net.get()), "fireable(t1)");
    EXPECT_EQ(Simp(Tag("exists-path", Tag("negation", kA)), net.get()), "!fireable(t1)");
    // A over a quantified formula: A EF a = EF a.
    EXPECT_EQ(Simp(Tag("all-paths", Tag("exists-path", Tag("finally", kA))), net.get()),
              "EF(fireable(t1))");
    EXPECT_EQ(Simp(Tag("all-paths", Tag("conjunction", kB + Tag("exists-path",
                                                              Tag("finally", kA)))),
                   net.get()),
              "(fireable(t2) & EF(fireable(t1)))");
    // A path formula keeps its quantifier.
    EXPECT_EQ(Simp(Tag("all-paths", Tag("conjunction", kB + Tag("finally", kA))), net.get()),
              "A(fireable(t2) & F(fireable(t1)))");
}

TEST(FmlSimplify, FinallyGloballyOfConstants)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Tag("exists-path", Tag("finally", kT)), net.get()), "true");   // EF true
    EXPECT_EQ(Simp(Tag("all-paths", Tag("globally", kF)), net.get()), "false");   // AG false
    EXPECT_EQ(Simp(Tag("all-paths", Tag("finally", kF)), net.get()), "false");
    EXPECT_EQ(Simp(Tag("exists-path", Tag("globally", kT)), net.get()), "true");
    EXPECT_EQ(Simp(Tag("exists-path", Tag("finally", Tag("negation", kF))), net.get()), "true");
}

TEST(FmlSimplify, FinallyFinallyGloballyGlobally)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Tag("all-paths", Tag("finally", Tag("finally", kA))), net.get()),
              "AF(fireable(t1))");
    EXPECT_EQ(Simp(Tag("all-paths", Tag("globally", Tag("globally", kA))), net.get()),
              "AG(fireable(t1))");
    EXPECT_EQ(Simp(Tag("all-paths", Tag("globally", Tag("finally", kA))), net.get()),
              "AGF(fireable(t1))");
}

TEST(FmlSimplify, UntilRules)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Tag("exists-path", Until(kA, kT)), net.get()), "true");
    EXPECT_EQ(Simp(Tag("exists-path", Until(kA, kF)), net.get()), "false");
    EXPECT_EQ(Simp(Tag("exists-path", Until(kF, kB)), net.get()), "fireable(t2)");
    EXPECT_EQ(Simp(Tag("all-paths", Until(kT, kB)), net.get()), "AF(fireable(t2))");
    EXPECT_EQ(Simp(Tag("all-paths", Until(kT, Tag("finally", kB))), net.get()),
              "AF(fireable(t2))");
    EXPECT_EQ(Simp(Tag("exists-path", Until(kA, kB)), net.get()),
              "E(fireable(t1) U fireable(t2))");
}

TEST(FmlSimplify, NextIsNeverFolded)
{
    NetPtr net = TinyNet();
    // EX true is false at a deadlock, AX false is true there.
    EXPECT_EQ(Simp(Tag("exists-path", Tag("next", kT)), net.get()), "EX(true)");
    EXPECT_EQ(Simp(Tag("all-paths", Tag("next", kF)), net.get()), "AX(false)");
    EXPECT_EQ(Simp(Tag("all-paths", Tag("globally", Tag("next", kT))), net.get()),
              "AGX(true)");
}

TEST(FmlSimplify, Cascades)
{
    NetPtr net = TinyNet();
    EXPECT_EQ(Simp(Tag("negation", Tag("conjunction", kT + Tag("negation", kF) +
                                                          Le(K(0), kTok12))),
                   net.get()),
              "false");
    EXPECT_EQ(Simp(Tag("all-paths", Tag("globally", Tag("disjunction",
                                                        kA + Le(K(9), K(2)) + kF))),
                   net.get()),
              "AG(fireable(t1))");
}

TEST(FmlSimplify, SetSkipsUnboundProperties)
{
    NetPtr net = TinyNet();
    ReadResult r = Read(Doc(Prop("a", Tag("exists-path", Tag("finally", kT))) +
                            Prop("b", "<is-fireable><transition>zz</transition>"
                                      "</is-fireable>")),
                        net.get());
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    pn_error err{};
    ASSERT_EQ(pn_fml_set_simplify(r.set.get(), &err), PN_OK);
    EXPECT_EQ(r.set->props[0].root->kind, PN_FML_TRUE);
    EXPECT_EQ(r.set->props[1].root, nullptr);
}

// ---- evaluating -----------------------------------------------------------

CnetPtr Compile(const pn_net *net)
{
    pn_error err{};
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(net, &cn, &err), PN_OK) << err.msg;
    return CnetPtr(cn);
}

bool Eval(const std::string &f, const pn_net *net, const pn_cnet *cn,
          const std::vector<uint64_t> &m)
{
    NodePtr n = ReadOne(f, net);
    EXPECT_NE(n, nullptr);
    EXPECT_TRUE(pn_fml_is_state(n.get()));
    return n != nullptr && pn_fml_eval_state(n.get(), cn, m.data());
}

TEST(FmlEval, AtomsAndConnectives)
{
    NetPtr net = TinyNet();
    CnetPtr cn = Compile(net.get());
    ASSERT_NE(cn, nullptr);
    const std::vector<uint64_t> m0 = {1, 0, 2}, m1 = {0, 1, 3}, dead = {0, 0, 2};
    const pn_net *n = net.get();
    const pn_cnet *c = cn.get();
    EXPECT_TRUE(Eval(kT, n, c, m0));
    EXPECT_FALSE(Eval(kF, n, c, m0));
    EXPECT_TRUE(Eval(kA, n, c, m0));
    EXPECT_FALSE(Eval(kA, n, c, m1));
    EXPECT_TRUE(Eval(kB, n, c, m1));
    std::string t3 = "<is-fireable><transition>t3</transition></is-fireable>";
    EXPECT_FALSE(Eval(t3, n, c, m0));
    EXPECT_TRUE(Eval(t3, n, c, m1));  // weight 3 on p3
    std::string any = "<is-fireable><transition>t3</transition><transition>t2"
                      "</transition></is-fireable>";
    EXPECT_FALSE(Eval(any, n, c, m0));
    EXPECT_TRUE(Eval(any, n, c, m1));
    EXPECT_FALSE(Eval("<deadlock/>", n, c, m0));
    EXPECT_TRUE(Eval("<deadlock/>", n, c, dead));
    EXPECT_TRUE(Eval(Le(kTok12, K(1)), n, c, m0));
    EXPECT_FALSE(Eval(Le(kTok12, K(0)), n, c, m0));
    std::string p3twice = "<tokens-count><place>p3</place><place>p3</place></tokens-count>";
    EXPECT_TRUE(Eval(Le(K(4), p3twice), n, c, m0));   // listed twice: counted twice
    EXPECT_FALSE(Eval(Le(K(5), p3twice), n, c, m0));
    EXPECT_TRUE(Eval(Le(kTok12, p3twice), n, c, m0));
    EXPECT_TRUE(Eval(Tag("negation", kB), n, c, m0));
    EXPECT_FALSE(Eval(Tag("conjunction", kA + kB), n, c, m0));
    EXPECT_TRUE(Eval(Tag("disjunction", kA + kB), n, c, m0));
    EXPECT_TRUE(Eval(Tag("conjunction", kA + Tag("negation", "<deadlock/>")), n, c, m0));
    EXPECT_FALSE(Eval(Tag("disjunction", kF + "<deadlock/>"), n, c, m0));
}

TEST(FmlEval, LargeCountsNeverWrap)
{
    NetPtr net = TinyNet();
    CnetPtr cn = Compile(net.get());
    ASSERT_NE(cn, nullptr);
    const std::vector<uint64_t> big = {UINT64_MAX, UINT64_MAX, 5};
    const pn_net *n = net.get();
    const pn_cnet *c = cn.get();
    EXPECT_FALSE(Eval(Le(kTok12, K(UINT64_MAX)), n, c, big));
    EXPECT_TRUE(Eval(Le(K(UINT64_MAX), kTok12), n, c, big));
    std::string p1 = "<tokens-count><place>p1</place></tokens-count>";
    std::string p12 = "<tokens-count><place>p1</place><place>p3</place></tokens-count>";
    EXPECT_FALSE(Eval(Le(p12, p1), n, c, big));
    EXPECT_TRUE(Eval(Le(p1, p12), n, c, big));
    EXPECT_TRUE(Eval(Le(p1, K(UINT64_MAX)), n, c, big));

    uint32_t i12[] = {0, 1}, i3[] = {2, 2};
    NodePtr sum(pn_fml_list(PN_FML_TOKENS, i12, 2));
    EXPECT_EQ(pn_fml_eval_int(sum.get(), big.data()), UINT64_MAX);  // saturates
    NodePtr p33(pn_fml_list(PN_FML_PLACE_BOUND, i3, 2));
    EXPECT_EQ(pn_fml_eval_int(p33.get(), big.data()), 10u);
    NodePtr k(pn_fml_const(42));
    EXPECT_EQ(pn_fml_eval_int(k.get(), big.data()), 42u);
}

// Random state formulas: simplifying must not change the value anywhere.
struct RandomFormula {
    std::mt19937_64 rng;
    explicit RandomFormula(uint64_t seed) : rng(seed) {}
    uint32_t Pick(uint32_t n) { return static_cast<uint32_t>(rng() % n); }

    pn_fml_node *Int()
    {
        if (Pick(3) == 0)
            return pn_fml_const(Pick(3) == 0 ? 0 : Pick(6));
        uint32_t idx[3] = {Pick(3), Pick(3), Pick(3)};
        return pn_fml_list(PN_FML_TOKENS, idx, 1 + Pick(3));
    }
    pn_fml_node *State(int depth)
    {
        uint32_t k = depth <= 0 ? Pick(4) : Pick(8);
        uint32_t t[2] = {Pick(3), Pick(3)};
        switch (k) {
        case 0: return pn_fml_leaf(Pick(2) ? PN_FML_TRUE : PN_FML_FALSE);
        case 1: return pn_fml_leaf(PN_FML_DEADLOCK);
        case 2: return pn_fml_list(PN_FML_FIREABLE, t, 1 + Pick(2));
        case 3: return pn_fml_binary(PN_FML_INT_LE, Int(), Int());
        case 4: return pn_fml_unary(PN_FML_NOT, State(depth - 1));
        case 5: return pn_fml_unary(Pick(2) ? PN_FML_A : PN_FML_E, State(depth - 1));
        default: {
            pn_fml_node *kids[3];
            uint32_t n = 1 + Pick(3);
            for (uint32_t i = 0; i < n; i++)
                kids[i] = State(depth - 1);
            return pn_fml_nary(k == 6 ? PN_FML_AND : PN_FML_OR, kids, n);
        }
        }
    }
};

// An independent evaluator that also reads A/E over a state formula (true
// on some/every path from m iff true at m: every state starts a path).
uint64_t RefSum(const pn_fml_node *e, const std::vector<uint64_t> &m)
{
    if (e->kind == PN_FML_CONST)
        return e->value;
    uint64_t s = 0;
    for (uint32_t i = 0; i < e->n; i++)
        s += m[e->idx[i]];
    return s;
}

bool RefEval(const pn_fml_node *n, const pn_cnet *cn, const std::vector<uint64_t> &m)
{
    switch (n->kind) {
    case PN_FML_TRUE: return true;
    case PN_FML_FALSE: return false;
    case PN_FML_DEADLOCK:
        for (uint32_t t = 0; t < cn->n_transitions; t++)
            if (pn_cnet_enabled(cn, m.data(), t))
                return false;
        return true;
    case PN_FML_FIREABLE:
        for (uint32_t i = 0; i < n->n; i++)
            if (pn_cnet_enabled(cn, m.data(), n->idx[i]))
                return true;
        return false;
    case PN_FML_INT_LE: return RefSum(n->kids[0], m) <= RefSum(n->kids[1], m);
    case PN_FML_NOT: return !RefEval(n->kids[0], cn, m);
    case PN_FML_A:
    case PN_FML_E: return RefEval(n->kids[0], cn, m);
    case PN_FML_AND:
    case PN_FML_OR: {
        bool is_and = n->kind == PN_FML_AND;
        for (uint32_t i = 0; i < n->n; i++)
            if (RefEval(n->kids[i], cn, m) != is_and)
                return !is_and;
        return is_and;
    }
    default: ADD_FAILURE() << "unexpected kind " << n->kind; return false;
    }
}

TEST(FmlSimplify, RandomStateFormulasKeepTheirValue)
{
    NetPtr net = TinyNet();
    CnetPtr cn = Compile(net.get());
    ASSERT_NE(cn, nullptr);
    RandomFormula gen(12345);
    for (int round = 0; round < 2000; round++) {
        NodePtr orig(gen.State(5));
        ASSERT_NE(orig, nullptr);
        pn_fml_node *s = pn_fml_clone(orig.get());
        ASSERT_NE(s, nullptr);
        ASSERT_EQ(pn_fml_simplify(&s, nullptr), PN_OK);
        NodePtr simp(s);
        // A/E over state formulas must be gone; the rest is a state formula.
        bool has_quant = Str(simp.get(), net.get()).find_first_of("AE") != std::string::npos;
        EXPECT_FALSE(has_quant) << Str(simp.get(), net.get());
        for (int j = 0; j < 8; j++) {
            std::vector<uint64_t> m = {gen.Pick(4), gen.Pick(4), gen.Pick(5)};
            EXPECT_EQ(pn_fml_eval_state(simp.get(), cn.get(), m.data()),
                      RefEval(orig.get(), cn.get(), m))
                << Str(orig.get(), net.get()) << " -> " << Str(simp.get(), net.get());
        }
    }
}

}  // namespace

// ---- the MCC formula files ------------------------------------------------

namespace mcc {

const std::map<std::string, std::string> kExamAbbrev = {
    {"ReachabilityCardinality", "RC"}, {"ReachabilityFireability", "RF"},
    {"CTLCardinality", "CTLC"},        {"CTLFireability", "CTLF"},
    {"LTLCardinality", "LTLC"},        {"LTLFireability", "LTLF"},
    {"UpperBounds", "UB"},
};

std::vector<std::string> SmallPtInstances(const fs::path &index)
{
    std::vector<std::string> out;
    std::ifstream in(index);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> col;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, '\t');)
            col.push_back(c);
        if (col.size() > 2 && col[1] == "PT" && col[2] == "small")
            out.push_back(col[0]);
    }
    return out;
}

// "FORMULA <id> <value> ..." lines by id: the .out files sort ids, the XML
// files do not (Dekker-PT-010 lists -2025-00.. before -2023-12..).
std::map<std::string, std::string> Oracle(const fs::path &out)
{
    std::map<std::string, std::string> v;
    std::ifstream in(out);
    std::string word, id, value, rest;
    std::string line;
    while (std::getline(in, line)) {
        std::stringstream ss(line);
        if (ss >> word >> id >> value && word == "FORMULA")
            v.emplace(id, value);
    }
    return v;
}

struct Stats {
    int files = 0, props = 0, folded = 0, state_checked = 0, walk_checks = 0;
};

// Markings met on a random walk from m0 (back to m0 at a deadlock).
std::vector<std::vector<uint64_t>> Walk(const pn_cnet *cn, int steps, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<std::vector<uint64_t>> out;
    std::vector<uint64_t> m(cn->m0, cn->m0 + cn->n_places), next(cn->n_places);
    for (int s = 0; s < steps; s++) {
        out.push_back(m);
        std::vector<uint32_t> en;
        for (uint32_t t = 0; t < cn->n_transitions; t++)
            if (pn_cnet_enabled(cn, m.data(), t))
                en.push_back(t);
        if (en.empty() || !pn_cnet_fire(cn, m.data(), en[rng() % en.size()], next.data()))
            m.assign(cn->m0, cn->m0 + cn->n_places);
        else
            m = next;
    }
    return out;
}

// The state formula of a Reachability property must keep its value on every
// marking once simplified on its own.
void CheckStateSimplification(const pn_fml_node *phi, const pn_cnet *cn, const pn_net *net,
                              const std::vector<std::vector<uint64_t>> &walk, Stats *stats)
{
    pn_fml_node *s = pn_fml_clone(phi);
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(pn_fml_simplify(&s, nullptr), PN_OK);
    NodePtr simp(s);
    ASSERT_TRUE(pn_fml_is_state(s));
    for (const auto &m : walk) {
        ASSERT_EQ(pn_fml_eval_state(phi, cn, m.data()), pn_fml_eval_state(s, cn, m.data()))
            << Str(phi, net) << " -> " << Str(s, net);
        stats->walk_checks++;
    }
}

// Checks one formula file against its oracle; a simplified formula that no
// longer needs the state space is checked against the oracle verdict.
void CheckFile(const fs::path &xml, const std::string &instance, const pn_net *net,
               const pn_cnet *cn, const std::vector<std::vector<uint64_t>> &walk,
               Stats *stats)
{
    std::string exam = xml.stem().string();
    auto ab = kExamAbbrev.find(exam);
    ASSERT_NE(ab, kExamAbbrev.end()) << "unexpected formula file " << xml;
    auto oracle = Oracle(xml.parent_path() / (instance + "-" + ab->second + ".out"));
    pn_error err{};
    pn_fml_set *raw = nullptr;
    ASSERT_EQ(pn_fml_read_file(xml.c_str(), net, &raw, &err), PN_OK) << err.msg;
    SetPtr set(raw);
    ASSERT_EQ(set->n, 16u) << xml;
    ASSERT_EQ(oracle.size(), 16u) << xml;
    stats->files++;
    std::set<std::string> seen;
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_fml_prop *p = &set->props[i];
        ASSERT_EQ(oracle.count(p->id), 1u) << p->id << " not in the oracle";
        EXPECT_TRUE(seen.insert(p->id).second) << "repeated id " << p->id;
        ASSERT_EQ(p->status, PN_OK) << p->error;
        bool ub = exam == "UpperBounds";
        EXPECT_EQ(p->root->kind == PN_FML_PLACE_BOUND, ub) << p->id;
        if (exam.rfind("Reachability", 0) == 0) {
            const pn_fml_node *phi = nullptr;
            EXPECT_NE(pn_fml_reach_shape(p->root, &phi), PN_FML_REACH_NONE) << p->id;
            if (phi != nullptr)
                CheckStateSimplification(phi, cn, net, walk, stats);
        }
        EXPECT_FALSE(Str(p->root, net).empty());
        stats->props++;
    }
    ASSERT_EQ(pn_fml_set_simplify(set.get(), &err), PN_OK) << err.msg;
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_fml_node *r = set->props[i].root;
        if (r->kind == PN_FML_PLACE_BOUND || !pn_fml_is_state(r))
            continue;
        // Decided by the initial marking alone: must match the oracle.
        bool v = pn_fml_eval_state(r, cn, cn->m0);
        EXPECT_EQ(v ? "TRUE" : "FALSE", oracle[set->props[i].id])
            << set->props[i].id << " simplified to " << Str(r, net);
        stats->state_checked++;
        stats->folded += r->kind == PN_FML_TRUE || r->kind == PN_FML_FALSE;
    }
}

}  // namespace mcc

TEST(FmlMcc, EverySmallPtFormulaFileLoads)
{
    const fs::path root = fs::path(PETREL_SHARED_DIR) / "mcc";
    if (!fs::exists(root / "INDEX.tsv"))
        GTEST_SKIP() << "no MCC data at " << root;
    std::vector<std::string> instances = mcc::SmallPtInstances(root / "INDEX.tsv");
    ASSERT_FALSE(instances.empty());
    mcc::Stats stats;
    for (const std::string &inst : instances) {
        SCOPED_TRACE(inst);
        const fs::path dir = root / inst;
        pn_error err{};
        pn_net *raw = nullptr;
        ASSERT_EQ(pn_pnml_read_file((dir / "model.pnml").c_str(), nullptr, &raw, &err), PN_OK)
            << err.msg;
        NetPtr net(raw);
        CnetPtr cn = Compile(net.get());
        ASSERT_NE(cn, nullptr);
        std::vector<fs::path> files;
        for (const auto &e : fs::directory_iterator(dir))
            if (e.path().extension() == ".xml" &&
                e.path().filename().string().rfind("GenericProperties", 0) != 0)
                files.push_back(e.path());
        EXPECT_EQ(files.size(), mcc::kExamAbbrev.size());
        auto walk = mcc::Walk(cn.get(), 100, 7);
        for (const fs::path &f : files)
            mcc::CheckFile(f, inst, net.get(), cn.get(), walk, &stats);
    }
    std::printf("[ FmlMcc   ] %zu instances, %d files, %d properties; %d decided at m0 "
                "after simplification (%d folded to a constant), checked against the oracle; "
                "%d random-walk checks of simplified state formulas\n",
                instances.size(), stats.files, stats.props, stats.state_checked,
                stats.folded, stats.walk_checks);
}

// ---- writing ----------------------------------------------------------------

namespace {

// Writes set to a temporary file and reads it back over net.
SetPtr WriteAndRead(const pn_fml_set *set, const pn_net *net)
{
    fs::path path = fs::temp_directory_path() /
                    ("petrel_fml_write_" + std::to_string(::getpid()) + ".xml");
    pn_error err{};
    EXPECT_EQ(pn_fml_write_file(path.c_str(), set, net, &err), PN_OK) << err.msg;
    pn_fml_set *back = nullptr;
    EXPECT_EQ(pn_fml_read_file(path.c_str(), net, &back, &err), PN_OK) << err.msg;
    fs::remove(path);
    return SetPtr(back);
}

// Every property that bound reads back to an equal tree with its id.
void ExpectSameFormulas(const pn_fml_set *a, const pn_fml_set *b, const std::string &what)
{
    ASSERT_NE(b, nullptr) << what;
    uint32_t k = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        if (a->props[i].status != PN_OK)
            continue;
        ASSERT_LT(k, b->n) << what;
        EXPECT_STREQ(a->props[i].id, b->props[k].id) << what;
        EXPECT_TRUE(pn_fml_equal(a->props[i].root, b->props[k].root))
            << what << " " << a->props[i].id << ": " << Str(a->props[i].root, nullptr)
            << " read back as " << Str(b->props[k].root, nullptr);
        k++;
    }
    EXPECT_EQ(k, b->n) << what;
}

} // namespace

// The MCC formula files of ../shared/mcc (models under 1 MB), as read and
// simplified, written and read back: the same trees.
TEST(FmlWrite, MccFilesReadBackEqual)
{
    std::string mcc = std::string(PETREL_SHARED_DIR) + "/mcc";
    if (!fs::is_directory(mcc))
        GTEST_SKIP() << "no " << mcc;
    const char *files[] = {"UpperBounds.xml",        "ReachabilityCardinality.xml",
                           "ReachabilityFireability.xml", "CTLCardinality.xml",
                           "CTLFireability.xml",     "LTLCardinality.xml",
                           "LTLFireability.xml"};
    std::vector<fs::path> dirs;
    for (const auto &d : fs::directory_iterator(mcc))
        if (fs::exists(d.path() / "model.pnml") && fs::file_size(d.path() / "model.pnml") < (1u << 20))
            dirs.push_back(d.path());
    std::sort(dirs.begin(), dirs.end());
    uint32_t formulas = 0;
    for (const fs::path &dir : dirs) {
        pn_error err{};
        pn_net *raw = nullptr;
        if (pn_pnml_read_file((dir / "model.pnml").c_str(), nullptr, &raw, &err) != PN_OK)
            continue; /* coloured nets the reader unfolds elsewhere */
        NetPtr net(raw);
        for (const char *file : files) {
            if (!fs::exists(dir / file))
                continue;
            pn_fml_set *set = nullptr;
            ASSERT_EQ(pn_fml_read_file((dir / file).c_str(), net.get(), &set, &err), PN_OK)
                << err.msg;
            SetPtr owned(set);
            std::string what = dir.filename().string() + "/" + file;
            ExpectSameFormulas(set, WriteAndRead(set, net.get()).get(), what);
            ASSERT_EQ(pn_fml_set_simplify(set, &err), PN_OK) << err.msg;
            ExpectSameFormulas(set, WriteAndRead(set, net.get()).get(), what + " simplified");
            formulas += set->n;
        }
    }
    printf("formula writer: %u formulas of %zu instances read back equal\n", formulas,
           dirs.size());
    EXPECT_GE(formulas, 1000u);
}

// Names are escaped; an action formula (RERS) has no MCC form; an
// unwritable path is an I/O error.
TEST(FmlWrite, EscapesNamesAndRefusesActions)
{
    pn_error err{};
    NetPtr net(pn_net_new("odd"));
    ASSERT_EQ(pn_net_add_place(net.get(), "p<&>\"'", nullptr, 1, &err), 0);
    ASSERT_EQ(pn_net_add_transition(net.get(), "t&1", nullptr, &err), 0);
    ASSERT_EQ(pn_net_add_arc(net.get(), 0, 0, true, 1, &err), PN_OK);
    ReadResult r = Read(Doc(Prop("a&amp;b", "<exists-path><finally><conjunction><is-fireable>"
                                         "<transition>t&amp;1</transition></is-fireable>"
                                         "<integer-le><integer-constant>1</integer-constant>"
                                         "<tokens-count><place>p&lt;&amp;&gt;&quot;&apos;</place>"
                                         "</tokens-count></integer-le></conjunction></finally>"
                                         "</exists-path>")),
                        net.get());
    ASSERT_EQ(r.st, PN_OK) << r.msg;
    ExpectSameFormulas(r.set.get(), WriteAndRead(r.set.get(), net.get()).get(), "escaped");
    EXPECT_EQ(pn_fml_write_file("/nonexistent/dir/f.xml", r.set.get(), net.get(), &err),
              PN_ERR_IO);
    uint32_t t = 0;
    pn_fml_node *act = pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, pn_fml_list(PN_FML_ACTION, &t, 1)));
    ASSERT_NE(act, nullptr);
    std::swap(r.set->props[0].root, act);
    fs::path path = fs::temp_directory_path() /
                    ("petrel_fml_action_" + std::to_string(::getpid()) + ".xml");
    EXPECT_EQ(pn_fml_write_file(path.c_str(), r.set.get(), net.get(), &err), PN_ERR_UNSUPPORTED);
    fs::remove(path);
    std::swap(r.set->props[0].root, act);
    pn_fml_free(act);
}
