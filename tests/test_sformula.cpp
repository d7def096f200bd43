// The compiled state formulas (host/formula/sformula.c, kernels/pn_sformula.h):
// the short-circuit program, with and without the per-state memo of
// enabledness, must give the value of the reference evaluator
// (host/formula/formula_eval.c) on random nets, formulas and markings, token
// counts near 2^64 included (the 128-bit sums); and the program's shape
// (cheapest operand first, threaded jumps) is checked on hand-made formulas.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "formula/sformula.h"
#include "net/layout.h"
#include "petrel/cnet.h"
#include "petrel/formula.h"
#include "petrel/net.h"
#include "test_ptrs.h"

namespace {

struct SfDeleter {
    void operator()(pn_sformula_owned *s) const { pn_sformula_free(s); }
};
struct LayoutDeleter {
    void operator()(pn_layout *l) const { pn_layout_free(l); }
};
using SfPtr = std::unique_ptr<pn_sformula_owned, SfDeleter>;
using LayoutPtr = std::unique_ptr<pn_layout, LayoutDeleter>;

struct Compiled {
    NetPtr net;
    CnetPtr cn;
    LayoutPtr lay;
};

// P places, T transitions, random arcs with weights up to 2^40 (so that a
// count near 2^64 matters to enabledness), some transitions without input.
Compiled RandomNet(std::mt19937_64 &rng, uint32_t P, uint32_t T)
{
    Compiled c;
    pn_error err{};
    c.net.reset(pn_net_new("random"));
    EXPECT_NE(c.net, nullptr);
    for (uint32_t p = 0; p < P; p++)
        EXPECT_EQ(pn_net_add_place(c.net.get(), ("p" + std::to_string(p)).c_str(), nullptr,
                                   rng() % 3, &err),
                  (int64_t)p);
    for (uint32_t t = 0; t < T; t++) {
        EXPECT_EQ(pn_net_add_transition(c.net.get(), ("t" + std::to_string(t)).c_str(), nullptr,
                                        &err),
                  (int64_t)t);
        uint32_t n_in = (uint32_t)(rng() % 4);
        for (uint32_t k = 0; k < n_in; k++) {
            uint64_t w = rng() % 5 == 0 ? 1 + rng() % (1ULL << 40) : 1 + rng() % 3;
            EXPECT_EQ(pn_net_add_arc(c.net.get(), (uint32_t)(rng() % P), t, true, w, &err),
                      PN_OK);
        }
        if (rng() % 2) {
            EXPECT_EQ(pn_net_add_arc(c.net.get(), (uint32_t)(rng() % P), t, false, 1, &err),
                      PN_OK);
        }
    }
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(c.net.get(), &cn, &err), PN_OK) << err.msg;
    c.cn.reset(cn);
    uint8_t *widths = nullptr;
    pn_layout *lay = nullptr;
    EXPECT_EQ(pn_layout_initial_widths(cn, &widths, &err), PN_OK);
    EXPECT_EQ(pn_layout_new(cn, widths, &lay, &err), PN_OK);
    free(widths);
    c.lay.reset(lay);
    return c;
}

struct Gen {
    std::mt19937_64 rng;
    uint32_t P, T;
    Gen(uint64_t seed, uint32_t p, uint32_t t) : rng(seed), P(p), T(t) {}
    uint32_t Pick(uint32_t n) { return (uint32_t)(rng() % n); }

    pn_fml_node *Int()
    {
        if (Pick(3) == 0) {
            uint64_t big[] = {0, 1, 2, 5, UINT64_MAX, UINT64_MAX - 1, 1ULL << 63};
            return pn_fml_const(big[Pick(7)]);
        }
        std::vector<uint32_t> idx(1 + Pick(4));
        for (auto &p : idx)
            p = Pick(P); // repeats count twice, as in the reference
        return pn_fml_list(PN_FML_TOKENS, idx.data(), (uint32_t)idx.size());
    }
    pn_fml_node *State(int depth)
    {
        uint32_t k = depth <= 0 ? Pick(5) : Pick(9);
        switch (k) {
        case 0: return pn_fml_leaf(Pick(2) ? PN_FML_TRUE : PN_FML_FALSE);
        case 1: return pn_fml_leaf(PN_FML_DEADLOCK);
        case 2:
        case 3: {
            std::vector<uint32_t> t(1 + Pick(5));
            for (auto &x : t)
                x = Pick(T);
            return pn_fml_list(PN_FML_FIREABLE, t.data(), (uint32_t)t.size());
        }
        case 4: return pn_fml_binary(PN_FML_INT_LE, Int(), Int());
        case 5: return pn_fml_unary(PN_FML_NOT, State(depth - 1));
        default: {
            pn_fml_node *kids[5];
            uint32_t n = 1 + Pick(5);
            for (uint32_t i = 0; i < n; i++)
                kids[i] = State(depth - 1);
            return pn_fml_nary(Pick(2) ? PN_FML_AND : PN_FML_OR, kids, n);
        }
        }
    }
    std::vector<uint64_t> Marking()
    {
        std::vector<uint64_t> m(P);
        for (auto &v : m) {
            uint32_t r = Pick(6);
            v = r < 3 ? r : r == 3 ? rng() % (1ULL << 41) : UINT64_MAX - Pick(3);
        }
        return m;
    }
};

uint32_t EnabledCount(const pn_cnet *cn, const std::vector<uint64_t> &m)
{
    uint32_t n = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        n += pn_cnet_enabled(cn, m.data(), t);
    return n;
}

SfPtr CompileSf(const pn_fml_node *phi)
{
    pn_error err{};
    pn_sformula_owned *sf = nullptr;
    EXPECT_EQ(pn_sformula_compile(phi, &sf, &err), PN_OK) << err.msg;
    return SfPtr(sf);
}

// Every jump goes forward to the end or to an instruction that is not a
// jump (threading), and no instruction is an unknown opcode.
void ExpectWellFormed(const pn_sformula &f)
{
    for (uint32_t i = 0; i < f.len; i++) {
        uint32_t op = f.code[i].op;
        ASSERT_LE(op, (uint32_t)PN_SF_JUMP_TRUE);
        if (op != PN_SF_JUMP_FALSE && op != PN_SF_JUMP_TRUE)
            continue;
        uint32_t t = f.code[i].n;
        ASSERT_GT(t, i);
        ASSERT_LE(t, f.len);
        if (t < f.len) {
            EXPECT_NE(f.code[t].op, op) << "jump " << i << " lands on a jump of its kind";
        }
    }
}

} // namespace

// Several formulas share one memo per marking, as the on-the-fly check's
// worker does; each must still read the reference value, with the memo and
// without it.
TEST(FormulaCompiled, RandomFormulasMatchTheReferenceEvaluator)
{
    std::mt19937_64 rng(20261123);
    int checks = 0, true_seen = 0;
    for (int net = 0; net < 60; net++) {
        uint32_t P = 1 + (uint32_t)(rng() % 7), T = 1 + (uint32_t)(rng() % 9);
        Compiled c = RandomNet(rng, P, T);
        ASSERT_NE(c.lay, nullptr);
        Gen gen(rng(), P, T);
        std::vector<NodePtr> phis;
        std::vector<SfPtr> sfs;
        for (int k = 0; k < 12; k++) {
            phis.emplace_back(gen.State(4));
            ASSERT_NE(phis.back(), nullptr);
            sfs.push_back(CompileSf(phis.back().get()));
            ASSERT_NE(sfs.back(), nullptr);
            ExpectWellFormed(sfs.back()->f);
        }
        std::vector<uint64_t> slot(T, 0);
        pn_sf_memo memo{slot.data(), 0};
        for (int s = 0; s < 40; s++) {
            std::vector<uint64_t> m = gen.Marking();
            uint32_t en = EnabledCount(c.cn.get(), m);
            memo.epoch++;
            for (size_t k = 0; k < phis.size(); k++) {
                bool ref = pn_fml_eval_state(phis[k].get(), c.cn.get(), m.data());
                const pn_prog *g = &c.lay->prog;
                ASSERT_EQ(pn_sf_eval(&sfs[k]->f, g, m.data(), en, nullptr), ref)
                    << "net " << net << " marking " << s << " formula " << k;
                ASSERT_EQ(pn_sf_eval(&sfs[k]->f, g, m.data(), en, &memo), ref)
                    << "memo: net " << net << " marking " << s << " formula " << k;
                checks++;
                true_seen += ref;
            }
        }
    }
    // Both values must be common, or the comparison proves little.
    EXPECT_GT(true_seen, checks / 5);
    EXPECT_LT(true_seen, checks * 4 / 5);
}

// OR(fireable(t0..t4), p0 <= 1): the comparison (cost 3) is evaluated
// before the five transitions, and decides alone when it holds.
TEST(FormulaCompiled, CheapestOperandFirst)
{
    std::mt19937_64 rng(7);
    Compiled c = RandomNet(rng, 2, 5);
    ASSERT_NE(c.lay, nullptr);
    uint32_t ts[] = {0, 1, 2, 3, 4}, p0[] = {0};
    pn_fml_node *kids[2] = {pn_fml_list(PN_FML_FIREABLE, ts, 5),
                            pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, p0, 1),
                                          pn_fml_const(1))};
    NodePtr phi(pn_fml_nary(PN_FML_OR, kids, 2));
    SfPtr sf = CompileSf(phi.get());
    ASSERT_NE(sf, nullptr);
    ASSERT_EQ(sf->f.len, 3u);
    EXPECT_EQ(sf->f.code[0].op, (uint32_t)PN_SF_LE);
    EXPECT_EQ(sf->f.code[1].op, (uint32_t)PN_SF_JUMP_TRUE);
    EXPECT_EQ(sf->f.code[1].n, 3u);
    EXPECT_EQ(sf->f.code[2].op, (uint32_t)PN_SF_FIREABLE);
    // The memo shows which transitions were tested: none when p0 <= 1.
    std::vector<uint64_t> slot(5, 0), m = {0, 0};
    pn_sf_memo memo{slot.data(), 1};
    EXPECT_TRUE(pn_sf_eval(&sf->f, &c.lay->prog, m.data(), 0, &memo));
    for (uint64_t s : slot)
        EXPECT_EQ(s, 0u);
}

// AND(AND(a, b), c): when a is false, its jump goes straight to the end
// rather than to the outer AND's jump (threading).
TEST(FormulaCompiled, NestedJunctionsJumpOnce)
{
    uint32_t p[] = {0, 0, 0};
    auto le = [&](uint32_t n, uint64_t k) {
        return pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, p, n), pn_fml_const(k));
    };
    // Costs: the inner AND 2 + 2, c 1 + 3: a tie keeps the written order.
    pn_fml_node *inner[2] = {le(1, 0), le(1, 1)};
    pn_fml_node *outer[2] = {pn_fml_nary(PN_FML_AND, inner, 2), le(3, 2)};
    NodePtr phi(pn_fml_nary(PN_FML_AND, outer, 2));
    SfPtr sf = CompileSf(phi.get());
    ASSERT_NE(sf, nullptr);
    ExpectWellFormed(sf->f);
    // a JF b JF c
    ASSERT_EQ(sf->f.len, 5u);
    EXPECT_EQ(sf->f.code[0].a.n, 1u);
    EXPECT_EQ(sf->f.code[1].op, (uint32_t)PN_SF_JUMP_FALSE);
    EXPECT_EQ(sf->f.code[1].n, 5u);
    EXPECT_EQ(sf->f.code[3].op, (uint32_t)PN_SF_JUMP_FALSE);
    EXPECT_EQ(sf->f.code[3].n, 5u);
    EXPECT_EQ(sf->f.code[4].a.n, 3u);
}
