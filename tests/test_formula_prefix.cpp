// LTL on a run's prefix (host/formula/formula_prefix.c): three-valued, a
// definite verdict only where every continuation agrees, exact where the
// prefix ends in a deadlock (the deadlock repeated). The traces here are
// hand-written: one place p whose token count at each step is given, read
// by the atom "1 <= p".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "petrel/formula.h"
#include "petrel/net.h"
#include "test_ptrs.h"

namespace {

struct Trace {
    std::vector<uint64_t> p; // tokens of p at each step
};

bool at(void *ctx, const pn_fml_node *psi, uint32_t k)
{
    const Trace *t = static_cast<const Trace *>(ctx);
    uint64_t m = t->p[k];
    return pn_fml_eval_state_given(psi, &m, nullptr, 0);
}

// The path formula of an LTL property over place p (the <all-paths> taken
// off), on `trace`.
int verdict(const std::string &path_formula, std::vector<uint64_t> trace, bool dead)
{
    pn_error err;
    pn_error_clear(&err);
    NetPtr net(pn_net_new("n"));
    EXPECT_GE(pn_net_add_place(net.get(), "p", nullptr, trace.empty() ? 0 : trace[0], &err), 0);
    std::string xml = "<property-set xmlns=\"http://mcc.lip6.fr/\"><property><id>f</id>"
                      "<description/><formula><all-paths>" +
                      path_formula + "</all-paths></formula></property></property-set>";
    pn_fml_set *raw = nullptr;
    EXPECT_EQ(pn_fml_read_memory(xml.data(), xml.size(), "f.xml", net.get(), &raw, &err), PN_OK)
        << err.msg;
    SetPtr set(raw);
    if (!set)
        return -2;
    const pn_fml_node *root = set->props[0].root;
    EXPECT_EQ(root->kind, PN_FML_A);
    Trace t{trace};
    return pn_fml_eval_prefix(root->kids[0], static_cast<uint32_t>(trace.size()), dead, at, &t);
}

const std::string P = "<integer-le><integer-constant>1</integer-constant><tokens-count>"
                      "<place>p</place></tokens-count></integer-le>";

std::string G(const std::string &f) { return "<globally>" + f + "</globally>"; }
std::string F(const std::string &f) { return "<finally>" + f + "</finally>"; }
std::string X(const std::string &f) { return "<next>" + f + "</next>"; }
std::string N(const std::string &f) { return "<negation>" + f + "</negation>"; }
std::string U(const std::string &a, const std::string &b)
{
    return "<until><before>" + a + "</before><reach>" + b + "</reach></until>";
}

} // namespace

TEST(FormulaPrefix, ABadPrefixRefutesAndAGoodOneConfirms)
{
    EXPECT_EQ(verdict(G(P), {1, 1, 0, 1}, false), 0) << "G p fails at step 2";
    EXPECT_EQ(verdict(G(P), {1, 1, 1}, false), -1) << "G p may still fail later";
    EXPECT_EQ(verdict(F(P), {0, 0, 1}, false), 1) << "F p seen at step 2";
    EXPECT_EQ(verdict(F(P), {0, 0, 0}, false), -1) << "F p may still come";
    EXPECT_EQ(verdict(X(P), {1, 0}, false), 0);
    EXPECT_EQ(verdict(X(X(P)), {1, 0}, false), -1) << "past the prefix's end";
    EXPECT_EQ(verdict(U(P, N(P)), {1, 1, 0}, false), 1);
    EXPECT_EQ(verdict(U(N(P), P), {0, 0, 0}, false), -1);
    EXPECT_EQ(verdict(U(P, P), {0}, false), 0) << "neither operand holds at once";
    EXPECT_EQ(verdict(G(F(P)), {1, 1, 1}, false), -1) << "no prefix settles G F";
}

TEST(FormulaPrefix, ADeadlockEndsTheRunAndRepeatsItsLastState)
{
    EXPECT_EQ(verdict(F(P), {0, 0, 0}, true), 0) << "the deadlock has no p, forever";
    EXPECT_EQ(verdict(G(P), {1, 1, 1}, true), 1);
    EXPECT_EQ(verdict(X(X(X(P))), {0, 1}, true), 1) << "X past the end is the deadlock again";
    EXPECT_EQ(verdict(G(F(P)), {0, 1}, true), 1);
    EXPECT_EQ(verdict(F(G(N(P))), {0, 1}, true), 0);
    EXPECT_EQ(verdict(U(N(P), P), {0, 0, 0}, true), 0) << "strong until: p never comes";
    EXPECT_EQ(verdict(N(U(N(P), P)), {0, 0, 1}, true), 0);
}
