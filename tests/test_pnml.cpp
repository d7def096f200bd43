// PNML reader: a hand-written net checked exactly, every kind of bad input
// (code + message), and the MCC models beside the checkout when present.
#include <gtest/gtest.h>

#include "test_text.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "petrel/error.h"
#include "petrel/net.h"
#include "petrel/pnml.h"
#include "test_ptrs.h"

namespace {

struct Result {
    pn_status st;
    pn_error err;
    NetPtr net;
};

Result read_mem(const std::string &xml, const char *label = "mem.pnml")
{
    Result r{};
    pn_error_clear(&r.err);
    pn_net *net = nullptr;
    r.st = pn_pnml_read_memory(xml.data(), xml.size(), label, nullptr, &net, &r.err);
    r.net.reset(net);
    return r;
}

Result read_file(const std::string &path)
{
    Result r{};
    pn_error_clear(&r.err);
    pn_net *net = nullptr;
    r.st = pn_pnml_read_file(path.c_str(), nullptr, &net, &r.err);
    r.net.reset(net);
    return r;
}

const char kPtType[] = "http://www.pnml.org/version-2009/grammar/ptnet";

// A P/T net document whose body starts on line 2 (errors report lines).
std::string pt_net(const std::string &body)
{
    return std::string("<pnml><net id=\"n\" type=\"") + kPtType +
           "\"><page id=\"g\">\n" + body + "\n</page></net></pnml>\n";
}

// Checks the failure contract: code, no net, one line, "label:" prefix and
// the expected substring.
void expect_error(const Result &r, pn_status code, const std::string &part)
{
    EXPECT_EQ(r.st, code) << r.err.msg;
    EXPECT_EQ(r.err.code, code);
    EXPECT_EQ(r.net, nullptr);
    std::string msg = r.err.msg;
    EXPECT_NE(msg.find(part), std::string::npos)
        << "message '" << msg << "' lacks '" << part << "'";
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
}

void expect_mem_error(const std::string &xml, pn_status code, const std::string &part)
{
    Result r = read_mem(xml);
    expect_error(r, code, part);
    EXPECT_EQ(std::string(r.err.msg).rfind("mem.pnml:", 0), 0u) << r.err.msg;
}

bool is_dir(const std::string &path)
{
    struct stat sb;
    return stat(path.c_str(), &sb) == 0 && S_ISDIR(sb.st_mode);
}

const std::string kMcc = std::string(PETREL_SHARED_DIR) + "/mcc";

const char kTiny[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<pnml xmlns="http://www.pnml.org/version-2009/grammar/pnml">
  <net id="tiny" type="http://www.pnml.org/version-2009/grammar/ptnet">
    <name><text>Tiny net</text></name>
    <page id="outer">
      <name><text>Outer page</text></name>
      <!-- arcs before the nodes they connect -->
      <arc id="a1" source="p1" target="t1">
        <graphics><position x="1" y="1"/></graphics>
        <inscription><graphics><offset x="0" y="0"/></graphics><text> 2 </text></inscription>
      </arc>
      <arc id="a2" source="t1" target="rp2"/>
      <toolspecific tool="other" version="1"><place id="ghost"/><arc id="x" source="a" target="b"/></toolspecific>
      <page id="inner">
        <page id="innermost">
          <place id="p1">
            <name><graphics><offset x="0" y="0"/></graphics><text>First place</text></name>
            <graphics><position x="10" y="20"/></graphics>
            <initialMarking><text>
              3
            </text></initialMarking>
          </place>
        </page>
        <transition id="t1"><name><text>fire</text></name></transition>
      </page>
      <place id="p2"/>
      <referencePlace id="rp2" ref="rr2"/>
      <referencePlace id="rr2" ref="p2"/>
      <referenceTransition id="rt2" ref="t2"><graphics/></referenceTransition>
      <transition id="t2"><unknownThing a="b"><place id="nested"/></unknownThing></transition>
      <arc id="a3" source="rp2" target="rt2"><inscription><text>18446744073709551615</text></inscription></arc>
      <arc id="a4" source="t2" target="p1"/>
    </page>
  </net>
</pnml>
)";

void expect_arc(const pn_net *net, uint32_t i, uint32_t place, uint32_t trans,
                uint64_t weight, bool to_transition)
{
    SCOPED_TRACE("arc " + std::to_string(i));
    ASSERT_LT(i, net->n_arcs);
    EXPECT_EQ(net->arcs[i].place, place);
    EXPECT_EQ(net->arcs[i].transition, trans);
    EXPECT_EQ(net->arcs[i].weight, weight);
    EXPECT_EQ(net->arcs[i].to_transition, to_transition);
}

void check_tiny(const pn_net *net)
{
    EXPECT_STREQ(net->id, "tiny");
    ASSERT_EQ(net->n_places, 2u);
    ASSERT_EQ(net->n_transitions, 2u);
    ASSERT_EQ(net->n_arcs, 4u);
    EXPECT_STREQ(net->place_id[0], "p1");
    EXPECT_STREQ(net->place_name[0], "First place");
    EXPECT_EQ(net->m0[0], 3u);
    EXPECT_STREQ(net->place_id[1], "p2");
    EXPECT_STREQ(net->place_name[1], "p2");
    EXPECT_EQ(net->m0[1], 0u);
    EXPECT_STREQ(net->trans_id[0], "t1");
    EXPECT_STREQ(net->trans_name[0], "fire");
    EXPECT_STREQ(net->trans_id[1], "t2");
    EXPECT_STREQ(net->trans_name[1], "t2");
    expect_arc(net, 0, 0, 0, 2, true);
    expect_arc(net, 1, 1, 0, 1, false);
    expect_arc(net, 2, 1, 1, UINT64_MAX, true);
    expect_arc(net, 3, 0, 1, 1, false);
    EXPECT_EQ(pn_net_find_place(net, "ghost"), -1);
    EXPECT_EQ(pn_net_find_place(net, "nested"), -1);
}

} // namespace

// ---- well-formed nets -------------------------------------------------------

TEST(PnmlRead, TinyNetExactly)
{
    Result r = read_mem(kTiny);
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    ASSERT_NE(r.net, nullptr);
    check_tiny(r.net.get());
}

TEST(PnmlRead, TinyNetFromFile)
{
    char path[] = "/tmp/petrel_pnml_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    ssize_t len = (ssize_t)(sizeof kTiny - 1);
    ASSERT_EQ(write(fd, kTiny, (size_t)len), len);
    close(fd);
    Result r = read_file(path);
    unlink(path);
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    check_tiny(r.net.get());
}

TEST(PnmlRead, PlacesWithoutTransitionsIsValid)
{
    Result r = read_mem(pt_net("<place id=\"p\"><initialMarking><text>1</text></initialMarking></place>"));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(r.net->n_places, 1u);
    EXPECT_EQ(r.net->n_transitions, 0u);
    EXPECT_EQ(r.net->m0[0], 1u);
}

TEST(PnmlRead, ParallelArcsAreKept)
{
    Result r = read_mem(pt_net(
        "<place id=\"p\"/><transition id=\"t\"/>"
        "<arc id=\"a\" source=\"p\" target=\"t\"/>"
        "<arc id=\"b\" source=\"p\" target=\"t\"><inscription><text>4</text></inscription></arc>"));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    ASSERT_EQ(r.net->n_arcs, 2u);
    expect_arc(r.net.get(), 0, 0, 0, 1, true);
    expect_arc(r.net.get(), 1, 0, 0, 4, true);
}

TEST(PnmlRead, NetWithoutPageAndPrefixedNamespace)
{
    // Elements are matched by local name; a prefix does not hide them.
    Result r = read_mem(std::string("<p:pnml xmlns:p=\"http://www.pnml.org/version-2009/grammar/pnml\">"
                                    "<p:net id=\"n\" type=\"") + kPtType + "\">"
                                    "<p:place id=\"x\"/><p:transition id=\"y\"/>"
                                    "<p:arc id=\"a\" source=\"y\" target=\"x\"/></p:net></p:pnml>");
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(r.net->n_places, 1u);
    EXPECT_EQ(r.net->n_transitions, 1u);
    expect_arc(r.net.get(), 0, 0, 0, 1, false);
}

TEST(PnmlRead, NamesAreTrimmedAndEmptyNamesFallBackToIds)
{
    Result r = read_mem(pt_net("<place id=\"p\"><name><text>\n   Ready  \n</text></name></place>"
                               "<transition id=\"t\"><name><text>  </text></name></transition>"));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_STREQ(r.net->place_name[0], "Ready");
    EXPECT_STREQ(r.net->trans_name[0], "t");
}

TEST(PnmlRead, EntitiesAreNotExpanded)
{
    // Billion laughs and an external file: neither may be expanded or read. The
    // internal subset that declares them is refused before libxml2 parses it (the file
    // reader took 76 s and 0.9 GB on this pattern; test_hostile.cpp).
    std::string dtd = "<!DOCTYPE pnml [\n<!ENTITY a0 \"lollollollol\">\n";
    for (int i = 1; i < 10; i++) {
        dtd += "<!ENTITY a" + std::to_string(i) + " \"";
        for (int k = 0; k < 10; k++)
            dtd += "&a" + std::to_string(i - 1) + ";";
        dtd += "\">\n";
    }
    dtd += "<!ENTITY ext SYSTEM \"file:///etc/passwd\">\n]>\n";
    Result r = read_mem(dtd + pt_net("<place id=\"p\"><name><text>&a9;&ext;</text></name></place>"));
    EXPECT_EQ(r.st, PN_ERR_INPUT) << r.err.msg;
    EXPECT_EQ(r.net, nullptr);
}

TEST(PnmlRead, OldErrorIsKept)
{
    // pn_error keeps the first error: a failed read must not overwrite it.
    pn_error err;
    pn_error_clear(&err);
    pn_fail(&err, PN_ERR_IO, "first");
    pn_net *net = nullptr;
    std::string xml = "junk";
    EXPECT_EQ(pn_pnml_read_memory(xml.data(), xml.size(), "m", nullptr, &net, &err), PN_ERR_INPUT);
    EXPECT_EQ(net, nullptr);
    EXPECT_STREQ(err.msg, "first");
}

// ---- malformed input --------------------------------------------------------

TEST(PnmlErrors, NotXmlAtAll)
{
    expect_mem_error("this is not XML, just text\n", PN_ERR_INPUT, "malformed XML");
    expect_mem_error("", PN_ERR_INPUT, "empty input");
    expect_mem_error("<pnml><net></pnml>", PN_ERR_INPUT, "malformed XML");
}

TEST(PnmlErrors, TruncatedFile)
{
    std::string full = kTiny;
    // Said as a cut file (libxml2's reader says "Extra content at the end
    // of the document" there).
    expect_mem_error(full.substr(0, full.size() / 2), PN_ERR_INPUT, "it is truncated");
    expect_mem_error(full.substr(0, full.find("</pnml>")), PN_ERR_INPUT, "it is truncated");
}

TEST(PnmlErrors, EveryPrefixFailsCleanly)
{
    // Never crash, hang or leak whatever the cut point (run under ASan too).
    std::string full = kTiny;
    size_t end = full.find("</pnml>");
    for (size_t n = 0; n < end; n++) {
        Result r = read_mem(full.substr(0, n));
        ASSERT_NE(r.st, PN_OK) << "prefix of " << n << " bytes";
        ASSERT_EQ(r.net, nullptr);
        ASSERT_EQ(std::string(r.err.msg).find('\n'), std::string::npos);
    }
}

TEST(PnmlErrors, ByteMutationsFailCleanly)
{
    // Each byte replaced by XML-significant characters: any outcome is fine
    // as long as it is a net or a clean one-line error.
    const std::string full = kTiny;
    for (size_t i = 0; i < full.size(); i++) {
        for (char c : {'<', '>', '"', '&', '-', '0', 'x', '\0'}) {
            std::string doc = full;
            doc[i] = c;
            Result r = read_mem(doc);
            ASSERT_EQ(r.st == PN_OK, r.net != nullptr) << "byte " << i << ": " << r.err.msg;
            ASSERT_EQ(std::string(r.err.msg).find('\n'), std::string::npos);
        }
    }
}

TEST(PnmlErrors, UnknownNetType)
{
    expect_mem_error("<pnml><net id=\"n\" type=\"http://example.org/petri/timednet\">"
                     "<page id=\"g\"/></net></pnml>",
                     PN_ERR_INPUT, "unknown net type 'http://example.org/petri/timednet'");
    expect_mem_error("<pnml><net id=\"n\"><page id=\"g\"/></net></pnml>",
                     PN_ERR_INPUT, "missing type");
}

TEST(PnmlErrors, ColouredNetsGoToTheUnfolder)
{
    // An empty symmetric net reaches the coloured reader, which refuses it
    // as the P/T reader would; a high-level operator is unsupported.
    expect_mem_error("<pnml><net id=\"c\" type=\"http://www.pnml.org/version-2009/grammar/symmetricnet\">"
                     "<page id=\"g\"/></net></pnml>",
                     PN_ERR_INPUT, "net has no places");
    expect_mem_error("<pnml><net id=\"c\" type=\"http://www.pnml.org/version-2009/grammar/highlevelnet\">"
                     "<declaration><structure><declarations><namedsort id=\"i\"><integer/></namedsort>"
                     "</declarations></structure></declaration></net></pnml>",
                     PN_ERR_UNSUPPORTED, "<integer> as a sort is not supported");
}

TEST(PnmlErrors, ArcToMissingNode)
{
    expect_mem_error(pt_net("<place id=\"p\"/>\n<transition id=\"t\"/>\n"
                            "<arc id=\"a\" source=\"p\" target=\"nowhere\"/>"),
                     PN_ERR_INPUT,
                     "mem.pnml:4: arc 'a': target 'nowhere' is not a place or transition");
    expect_mem_error(pt_net("<place id=\"p\"/><transition id=\"t\"/>"
                            "<arc id=\"a\" source=\"ghost\" target=\"t\"/>"),
                     PN_ERR_INPUT, "source 'ghost' is not a place or transition");
}

TEST(PnmlErrors, ArcPlaceToPlace)
{
    expect_mem_error(pt_net("<place id=\"p\"/><place id=\"q\"/><transition id=\"t\"/>"
                            "<arc id=\"a\" source=\"p\" target=\"q\"/>"),
                     PN_ERR_INPUT, "arc 'a': connects two places ('p' -> 'q')");
}

TEST(PnmlErrors, ArcTransitionToTransition)
{
    expect_mem_error(pt_net("<place id=\"p\"/><transition id=\"t\"/><transition id=\"u\"/>"
                            "<arc id=\"a\" source=\"t\" target=\"u\"/>"),
                     PN_ERR_INPUT, "arc 'a': connects two transitions ('t' -> 'u')");
}

TEST(PnmlErrors, DuplicatePlaceId)
{
    expect_mem_error(pt_net("<place id=\"p\"/>\n<place id=\"p\"/>"), PN_ERR_INPUT,
                     "mem.pnml:3: place 'p': duplicate id 'p'");
}

TEST(PnmlErrors, DuplicateIdBetweenPlaceAndTransition)
{
    expect_mem_error(pt_net("<place id=\"x\"/><transition id=\"x\"/>"), PN_ERR_INPUT,
                     "transition 'x': duplicate id 'x'");
    expect_mem_error(pt_net("<place id=\"p\"/><referencePlace id=\"p\" ref=\"p\"/>"),
                     PN_ERR_INPUT, "duplicate id 'p'");
}

TEST(PnmlErrors, NegativeMarking)
{
    expect_mem_error(pt_net("<place id=\"p\">\n<initialMarking><text> -3 </text></initialMarking></place>"),
                     PN_ERR_INPUT, "mem.pnml:3: place 'p': initial marking: value '-3' is negative");
}

TEST(PnmlErrors, NonNumericMarking)
{
    expect_mem_error(pt_net("<place id=\"p\"><initialMarking><text>three</text></initialMarking></place>"),
                     PN_ERR_INPUT, "value 'three' is not a decimal number");
    expect_mem_error(pt_net("<place id=\"p\"><initialMarking><text>+3</text></initialMarking></place>"),
                     PN_ERR_INPUT, "is not a decimal number");
    expect_mem_error(pt_net("<place id=\"p\"><initialMarking><text>0x10</text></initialMarking></place>"),
                     PN_ERR_INPUT, "is not a decimal number");
    expect_mem_error(pt_net("<place id=\"p\"><initialMarking><text>1 2</text></initialMarking></place>"),
                     PN_ERR_INPUT, "is not a decimal number");
    expect_mem_error(pt_net("<place id=\"p\"><initialMarking><text>  </text></initialMarking></place>"),
                     PN_ERR_INPUT, "is empty");
    expect_mem_error(pt_net("<place id=\"p\"><initialMarking/></place>"), PN_ERR_INPUT, "is empty");
}

TEST(PnmlErrors, NonNumericWeight)
{
    expect_mem_error(pt_net("<place id=\"p\"/><transition id=\"t\"/>\n"
                            "<arc id=\"a\" source=\"p\" target=\"t\">\n"
                            "<inscription><text>2.5</text></inscription></arc>"),
                     PN_ERR_INPUT, "mem.pnml:4: arc 'a': inscription: value '2.5' is not a decimal number");
}

TEST(PnmlErrors, MarkingBeyond64Bits)
{
    expect_mem_error(pt_net("<place id=\"p\"><initialMarking><text>18446744073709551616</text></initialMarking></place>"),
                     PN_ERR_INPUT, "value '18446744073709551616' does not fit in 64 bits");
    expect_mem_error(pt_net("<place id=\"p\"><initialMarking><text>99999999999999999999999999</text></initialMarking></place>"),
                     PN_ERR_INPUT, "does not fit in 64 bits");
    Result r = read_mem(pt_net("<place id=\"p\"><initialMarking><text>18446744073709551615</text></initialMarking></place>"));
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(r.net->m0[0], UINT64_MAX);
}

TEST(PnmlErrors, WeightZero)
{
    expect_mem_error(pt_net("<place id=\"p\"/><transition id=\"t\"/>"
                            "<arc id=\"a\" source=\"t\" target=\"p\"><inscription><text>0</text></inscription></arc>"),
                     PN_ERR_INPUT, "arc 'a': inscription: weight 0");
}

TEST(PnmlErrors, EmptyNet)
{
    expect_mem_error(pt_net(""), PN_ERR_INPUT, "net has no places");
    expect_mem_error(std::string("<pnml><net id=\"n\" type=\"") + kPtType + "\"/></pnml>",
                     PN_ERR_INPUT, "net has no places");
}

TEST(PnmlErrors, MissingId)
{
    expect_mem_error(pt_net("<place/>"), PN_ERR_INPUT, "mem.pnml:2: place: missing id attribute");
    expect_mem_error(pt_net("<place id=\"p\"/><transition><name><text>t</text></name></transition>"),
                     PN_ERR_INPUT, "transition: missing id attribute");
    expect_mem_error(pt_net("<place id=\"p\"/><transition id=\"t\"/><arc source=\"p\" target=\"t\"/>"),
                     PN_ERR_INPUT, "arc: missing id attribute");
    expect_mem_error(pt_net("<place id=\"p\"/><transition id=\"t\"/><arc id=\"a\" target=\"t\"/>"),
                     PN_ERR_INPUT, "arc 'a': missing source attribute");
    expect_mem_error(pt_net("<place id=\"\"/>"), PN_ERR_INPUT, "place: empty id attribute");
}

TEST(PnmlErrors, NonexistentFile)
{
    Result r = read_file("/nonexistent/petrel/model.pnml");
    expect_error(r, PN_ERR_IO, "/nonexistent/petrel/model.pnml");
    Result d = read_file("/tmp");
    expect_error(d, PN_ERR_IO, "/tmp");
}

TEST(PnmlErrors, ReferenceToMissingNode)
{
    expect_mem_error(pt_net("<place id=\"p\"/>\n<referencePlace id=\"r\" ref=\"gone\"/>"),
                     PN_ERR_INPUT, "mem.pnml:3: referencePlace 'r': refers to 'gone', which is not a node");
}

TEST(PnmlErrors, ReferenceCycleAndWrongKind)
{
    expect_mem_error(pt_net("<place id=\"p\"/><referencePlace id=\"r\" ref=\"s\"/>"
                            "<referencePlace id=\"s\" ref=\"r\"/>"),
                     PN_ERR_INPUT, "reference cycle");
    expect_mem_error(pt_net("<place id=\"p\"/><referencePlace id=\"r\" ref=\"r\"/>"),
                     PN_ERR_INPUT, "reference cycle");
    expect_mem_error(pt_net("<place id=\"p\"/><transition id=\"t\"/><referencePlace id=\"r\" ref=\"t\"/>"),
                     PN_ERR_INPUT, "referencePlace 'r': refers to transition 't'");
}

TEST(PnmlErrors, NetCount)
{
    expect_mem_error("<pnml></pnml>", PN_ERR_INPUT, "no <net> element");
    expect_mem_error(std::string("<pnml><net id=\"a\" type=\"") + kPtType + "\"><place id=\"p\"/></net>"
                     "<net id=\"b\" type=\"" + kPtType + "\"/></pnml>",
                     PN_ERR_INPUT, "more than one <net>");
    expect_mem_error("<net id=\"n\"/>", PN_ERR_INPUT, "expected <pnml>");
}

TEST(PnmlErrors, MessageIsOneLineWithFileAndLine)
{
    // An id holding a newline (a character reference survives attribute
    // normalisation) must not break the one-line message.
    Result r = read_mem(pt_net("<place id=\"a&#10;b\"/><place id=\"a&#10;b\"/>"), "one.pnml");
    expect_error(r, PN_ERR_INPUT, "duplicate id");
    EXPECT_EQ(std::string(r.err.msg).rfind("one.pnml:2: ", 0), 0u) << r.err.msg;
}

// ---- MCC models -------------------------------------------------------------

TEST(PnmlMcc, Philosophers5)
{
    if (!is_dir(kMcc))
        GTEST_SKIP() << kMcc << " is absent";
    Result r = read_file(kMcc + "/Philosophers-PT-000005/model.pnml");
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_EQ(r.net->n_places, 25u);
    EXPECT_EQ(r.net->n_transitions, 25u);
    int64_t p = pn_net_find_place(r.net.get(), "Think_1");
    ASSERT_GE(p, 0);
    EXPECT_EQ(r.net->m0[p], 1u);
}

TEST(PnmlMcc, ColouredPhilosophersIsUnfolded)
{
    if (!is_dir(kMcc))
        GTEST_SKIP() << kMcc << " is absent";
    Result r = read_file(kMcc + "/Philosophers-COL-000005/model.pnml");
    ASSERT_EQ(r.st, PN_OK) << r.err.msg;
    EXPECT_TRUE(r.net->unfold.unfolded);
    EXPECT_EQ(r.net->n_places, 25u);
    EXPECT_EQ(r.net->n_transitions, 25u);
    int64_t p = pn_net_find_place(r.net.get(), "Think_1");
    ASSERT_GE(p, 0);
    EXPECT_EQ(r.net->m0[p], 1u);
}

using petrel_test::split_tabs;

TEST(PnmlMcc, SmallInstancesMatchIndex)
{
    std::ifstream index(kMcc + "/INDEX.tsv");
    if (!index)
        GTEST_SKIP() << kMcc << "/INDEX.tsv is absent";
    std::string line;
    ASSERT_TRUE(std::getline(index, line));
    std::map<std::string, size_t> col;
    std::vector<std::string> header = split_tabs(line);
    for (size_t i = 0; i < header.size(); i++)
        col[header[i]] = i;
    for (const char *name : {"instance", "group", "places", "transitions"})
        ASSERT_TRUE(col.count(name)) << "INDEX.tsv has no column " << name;
    int checked = 0;
    while (std::getline(index, line)) {
        std::vector<std::string> row = split_tabs(line);
        if (row.size() < header.size() || row[col["group"]] != "small")
            continue;
        const std::string &inst = row[col["instance"]];
        if (inst.find("-PT-") == std::string::npos)
            continue;
        SCOPED_TRACE(inst);
        Result r = read_file(kMcc + "/" + inst + "/model.pnml");
        ASSERT_EQ(r.st, PN_OK) << r.err.msg;
        EXPECT_EQ(std::to_string(r.net->n_places), row[col["places"]]);
        EXPECT_EQ(std::to_string(r.net->n_transitions), row[col["transitions"]]);
        checked++;
    }
    EXPECT_GT(checked, 0) << "no small P/T instance in INDEX.tsv";
}

// ---- budget ------------------------------------------------------------------------

namespace {

// n places and n transitions in a ring, one token: far more nodes than the reader
// reads between two polls of the budget.
std::string ring_net(int n)
{
    std::string body;
    for (int i = 0; i < n; i++) {
        std::string p = "p" + std::to_string(i), t = "t" + std::to_string(i);
        std::string next = "p" + std::to_string((i + 1) % n);
        body += "<place id=\"" + p + "\">" +
                (i == 0 ? "<initialMarking><text>1</text></initialMarking>" : "") + "</place>";
        body += "<transition id=\"" + t + "\"/>";
        body += "<arc id=\"a" + p + "\" source=\"" + p + "\" target=\"" + t + "\"/>";
        body += "<arc id=\"b" + t + "\" source=\"" + t + "\" target=\"" + next + "\"/>\n";
    }
    return pt_net(body);
}

} // namespace

TEST(PnmlBudget, ExpiredBudgetStopsTheStreamingReader)
{
    std::string xml = ring_net(20000);
    pn_budget b = pn_budget_make(1e-9, nullptr, 0);
    pn_error err;
    pn_error_clear(&err);
    pn_net *net = nullptr;
    EXPECT_EQ(pn_pnml_read_memory(xml.data(), xml.size(), "ring.pnml", &b, &net, &err),
              PN_ERR_TIMEOUT)
        << err.msg;
    EXPECT_EQ(net, nullptr);
    EXPECT_EQ(err.code, PN_ERR_TIMEOUT);
    EXPECT_EQ(std::string(err.msg), "ring.pnml: time limit reached");

    volatile int cancel = 1;
    pn_budget c = pn_budget_make(0, &cancel, 0);
    pn_error_clear(&err);
    EXPECT_EQ(pn_pnml_read_memory(xml.data(), xml.size(), "ring.pnml", &c, &net, &err),
              PN_ERR_CANCELLED)
        << err.msg;
    EXPECT_EQ(net, nullptr);

    // The same document with an ample budget, and with none, reads whole.
    pn_budget ample = pn_budget_make(3600, nullptr, 0);
    for (const pn_budget *bp : {(const pn_budget *)&ample, (const pn_budget *)nullptr}) {
        pn_error_clear(&err);
        ASSERT_EQ(pn_pnml_read_memory(xml.data(), xml.size(), "ring.pnml", bp, &net, &err), PN_OK)
            << err.msg;
        EXPECT_EQ(net->n_places, 20000u);
        EXPECT_EQ(net->n_transitions, 20000u);
        EXPECT_EQ(net->n_arcs, 40000u);
        pn_net_free(net);
        net = nullptr;
    }
}
