// Hostile and degenerate input for every XML reader (P/T and symmetric-net models,
// formula files): entity declarations (the "billion laughs" expansion) are refused at
// once, before libxml2 expands anything; a prolog of comments, processing
// instructions and a DOCTYPE without an internal subset is still read; an empty model
// file is an input error.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/net.h"
#include "petrel/pnml.h"

// The symmetric-net reader (host/coloured/hlpn.h: a private header that includes
// libxml2, which does not build inside extern "C").
extern "C" {
pn_status pn_hlpn_read_memory(const char *buf, size_t len, const char *label,
                              const pn_budget *budget, int shape, pn_net **out, pn_error *err);
pn_status pn_hlpn_read_file(const char *path, const pn_budget *budget, int shape, pn_net **out,
                            pn_error *err);
}

namespace {

const char kPtBody[] =
    "<pnml xmlns=\"http://www.pnml.org/version-2009/grammar/pnml\">"
    "<net id=\"n\" type=\"http://www.pnml.org/version-2009/grammar/ptnet\"><page id=\"g\">"
    "<place id=\"p\"><name><text>&lol9;</text></name>"
    "<initialMarking><text>1</text></initialMarking></place>"
    "</page></net></pnml>\n";

// Nine levels of ten references each: 10^9 "lol"s if expanded.
std::string laughs()
{
    std::string s = "<!DOCTYPE pnml [\n<!ENTITY lol \"lol\">\n";
    for (int i = 1; i < 10; i++) {
        std::string prev = i == 1 ? "lol" : "lol" + std::to_string(i - 1);
        s += "<!ENTITY lol" + std::to_string(i) + " \"";
        for (int k = 0; k < 10; k++)
            s += "&" + prev + ";";
        s += "\">\n";
    }
    return s + "]>\n";
}

std::string billion_laughs_pnml() { return "<?xml version=\"1.0\"?>\n" + laughs() + kPtBody; }

double since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string temp_file(const std::string &text)
{
    char path[] = "/tmp/petrel_hostile_XXXXXX";
    int fd = mkstemp(path);
    EXPECT_GE(fd, 0);
    if (fd >= 0) {
        EXPECT_EQ(write(fd, text.data(), text.size()), (ssize_t)text.size());
        close(fd);
    }
    return path;
}

} // namespace

TEST(Hostile, BillionLaughsModelIsRefusedAtOnce)
{
    std::string xml = billion_laughs_pnml();
    auto t0 = std::chrono::steady_clock::now();
    pn_error err;
    pn_error_clear(&err);
    pn_net *net = nullptr;
    EXPECT_EQ(pn_pnml_read_memory(xml.data(), xml.size(), "m.pnml", nullptr, &net, &err),
              PN_ERR_INPUT);
    EXPECT_EQ(net, nullptr);
    std::string path = temp_file(xml);
    pn_error_clear(&err);
    EXPECT_EQ(pn_pnml_read_file(path.c_str(), nullptr, &net, &err), PN_ERR_INPUT);
    EXPECT_EQ(net, nullptr);
    pn_error_clear(&err);
    EXPECT_EQ(pn_hlpn_read_file(path.c_str(), nullptr, 0, &net, &err), PN_ERR_INPUT);
    pn_error_clear(&err);
    EXPECT_EQ(pn_hlpn_read_memory(xml.data(), xml.size(), "m.pnml", nullptr, 0, &net, &err),
              PN_ERR_INPUT);
    EXPECT_EQ(net, nullptr);
    unlink(path.c_str());
    EXPECT_LT(since(t0), 1.0);
}

TEST(Hostile, BillionLaughsFormulaFileIsRefused)
{
    std::string xml = "<?xml version=\"1.0\"?>\n" + laughs() +
                      "<property-set xmlns=\"http://mcc.lip6.fr/\"><property><id>&lol9;</id>"
                      "<formula><is-fireable><transition>t</transition></is-fireable></formula>"
                      "</property></property-set>\n";
    pn_error err;
    pn_error_clear(&err);
    pn_net *net = pn_net_new("n");
    ASSERT_NE(net, nullptr);
    pn_fml_set *set = nullptr;
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(pn_fml_read_memory(xml.data(), xml.size(), "f.xml", net, &set, &err), PN_ERR_INPUT);
    EXPECT_EQ(set, nullptr);
    EXPECT_LT(since(t0), 1.0);
    pn_net_free(net);
}

TEST(Hostile, PrologWithoutEntitiesIsRead)
{
    std::string xml = "\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- a [comment] -->\n"
                      "<?editor x=\"[\"?>\n<!DOCTYPE pnml SYSTEM \"pnml[1].dtd\">\n" +
                      std::string(kPtBody);
    xml.replace(xml.find("&lol9;"), 6, "p");
    pn_error err;
    pn_error_clear(&err);
    pn_net *net = nullptr;
    ASSERT_EQ(pn_pnml_read_memory(xml.data(), xml.size(), "m.pnml", nullptr, &net, &err), PN_OK)
        << err.msg;
    EXPECT_EQ(net->n_places, 1u);
    EXPECT_EQ(net->m0[0], 1u);
    pn_net_free(net);
}

TEST(Hostile, EmptyModelFileIsAnInputError)
{
    std::string path = temp_file("");
    pn_error err;
    pn_error_clear(&err);
    pn_net *net = nullptr;
    EXPECT_EQ(pn_pnml_read_file(path.c_str(), nullptr, &net, &err), PN_ERR_INPUT);
    EXPECT_EQ(net, nullptr);
    unlink(path.c_str());
}
