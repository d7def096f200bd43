// The per-state code shared by the CPU engine and the CUDA kernels
// (kernels/pn_state.h, kernels/pn_table.h) and the packing that feeds it
// (host/net/layout.c). This CPU harness stands in for the GPU in CI, so it checks
// the packed operations against the unpacked reference (cnet.c) on random
// nets and markings, and hammers the lock-free table from several threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "petrel/cnet.h"
#include "petrel/error.h"
#include "net/layout.h"
#include "net/place_order.h"
#include "petrel/net.h"
#include "pn_state.h"
#include "pn_table.h"
#include "test_ptrs.h"

namespace {

struct LayoutDeleter {
    void operator()(pn_layout *l) const { pn_layout_free(l); }
};
using LayoutPtr = std::unique_ptr<pn_layout, LayoutDeleter>;

struct Arc {
    uint32_t place, trans;
    bool to_trans;
    uint64_t weight;
};

struct Compiled {
    NetPtr net;
    CnetPtr cn;
};

Compiled compile(const std::vector<uint64_t> &m0, uint32_t n_trans, const std::vector<Arc> &arcs)
{
    pn_error err;
    pn_error_clear(&err);
    Compiled c;
    c.net.reset(pn_net_new("n"));
    for (size_t p = 0; p < m0.size(); p++)
        EXPECT_GE(pn_net_add_place(c.net.get(), ("p" + std::to_string(p)).c_str(), nullptr,
                                   m0[p], &err),
                  0)
            << err.msg;
    for (uint32_t t = 0; t < n_trans; t++)
        EXPECT_GE(pn_net_add_transition(c.net.get(), ("t" + std::to_string(t)).c_str(), nullptr,
                                        &err),
                  0)
            << err.msg;
    for (const Arc &a : arcs)
        EXPECT_EQ(pn_net_add_arc(c.net.get(), a.place, a.trans, a.to_trans, a.weight, &err), PN_OK)
            << err.msg;
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(c.net.get(), &cn, &err), PN_OK) << err.msg;
    c.cn.reset(cn);
    return c;
}

// A random net: some transitions without inputs, parallel arcs, self-loops.
Compiled random_net(std::mt19937_64 &rng, uint32_t P, uint32_t T)
{
    std::uniform_int_distribution<uint32_t> place(0, P - 1), small(0, 3), w(1, 3);
    std::vector<uint64_t> m0(P);
    for (auto &v : m0)
        v = small(rng);
    std::vector<Arc> arcs;
    for (uint32_t t = 0; t < T; t++) {
        uint32_t n_in = t % 5 == 4 ? 0 : 1 + small(rng) % 3;
        uint32_t n_out = small(rng);
        for (uint32_t i = 0; i < n_in; i++)
            arcs.push_back({place(rng), t, true, w(rng)});
        for (uint32_t i = 0; i < n_out; i++)
            arcs.push_back({place(rng), t, false, w(rng)});
        if (t % 3 == 0 && n_in > 0) // a self-loop on the first input
            arcs.push_back({arcs[arcs.size() - n_out - n_in].place, t, false, 1});
        if (t % 4 == 1) { // a parallel arc
            Arc dup = arcs.back();
            arcs.push_back(dup);
        }
    }
    return compile(m0, T, arcs);
}

LayoutPtr make_layout(const pn_cnet *cn, const std::vector<uint8_t> &widths,
                      const uint32_t *order = nullptr)
{
    pn_error err;
    pn_error_clear(&err);
    pn_layout *lay = nullptr;
    EXPECT_EQ(pn_layout_new_ordered(cn, widths.data(), order, &lay, &err), PN_OK) << err.msg;
    return LayoutPtr(lay);
}

uint64_t mask_of(unsigned w) { return w >= 64 ? UINT64_MAX : (1ULL << w) - 1; }

// Widths mixing tiny, mid-size and full-word fields so that words fill up.
std::vector<uint8_t> random_widths(std::mt19937_64 &rng, uint32_t P)
{
    static const uint8_t choices[] = {1, 1, 2, 3, 4, 5, 8, 13, 16, 31, 32, 33, 63, 64};
    std::uniform_int_distribution<size_t> pick(0, sizeof choices - 1);
    std::vector<uint8_t> w(P);
    for (auto &x : w)
        x = choices[pick(rng)];
    return w;
}

// Values that fit each field: mostly small (so transitions are enabled),
// sometimes at or near the top of the field (so productions overflow).
std::vector<uint64_t> random_marking(std::mt19937_64 &rng, const pn_layout *lay)
{
    std::vector<uint64_t> m(lay->prog.n_places);
    for (uint32_t p = 0; p < m.size(); p++) {
        uint64_t mask = lay->field[p].mask;
        switch (rng() % 6) {
        case 0: m[p] = 0; break;
        case 1:
        case 2: m[p] = std::min<uint64_t>(mask, rng() % 5); break;
        case 3: m[p] = mask - std::min<uint64_t>(mask, rng() % 3); break;
        case 4: m[p] = rng() & mask; break;
        default: m[p] = std::min<uint64_t>(mask, 1 + rng() % 3); break;
        }
    }
    return m;
}

std::string describe(const pn_cnet *cn, const pn_layout *lay, const std::vector<uint64_t> &m,
                     const std::vector<uint64_t> &ref, bool fits64, uint32_t t)
{
    std::string d = fits64 ? "" : " (beyond 64 bits)";
    for (uint32_t p = 0; p < m.size(); p++)
        d += "\n  p" + std::to_string(p) + ": width " + std::to_string(lay->width[p]) + " m " +
             std::to_string(m[p]) + " -> " + std::to_string(ref[p]);
    for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
        d += "\n  pre p" + std::to_string(cn->pre[k].place) + " w " + std::to_string(cn->pre[k].weight);
    for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++)
        d += "\n  delta p" + std::to_string(cn->delta[k].place) + " " + std::to_string(cn->delta[k].delta);
    return d;
}

std::vector<uint64_t> pack(const pn_layout *lay, const std::vector<uint64_t> &m)
{
    std::vector<uint64_t> s(lay->prog.words, 0xdeadbeefULL);
    EXPECT_TRUE(pn_layout_pack(lay, m.data(), s.data()));
    return s;
}

} // namespace

// ---- pn_bits_for / initial widths ---------------------------------------------

TEST(Layout, BitsFor)
{
    EXPECT_EQ(pn_bits_for(0), 1);
    EXPECT_EQ(pn_bits_for(1), 1);
    EXPECT_EQ(pn_bits_for(2), 2);
    EXPECT_EQ(pn_bits_for(3), 2);
    EXPECT_EQ(pn_bits_for(4), 3);
    EXPECT_EQ(pn_bits_for(255), 8);
    EXPECT_EQ(pn_bits_for(256), 9);
    EXPECT_EQ(pn_bits_for(1000), 10);
    EXPECT_EQ(pn_bits_for((1ULL << 32) - 1), 32);
    EXPECT_EQ(pn_bits_for(1ULL << 32), 33);
    EXPECT_EQ(pn_bits_for((1ULL << 63) - 1), 63);
    EXPECT_EQ(pn_bits_for(1ULL << 63), 64);
    EXPECT_EQ(pn_bits_for(UINT64_MAX), 64);
    for (unsigned b = 1; b < 64; b++) {
        EXPECT_EQ(pn_bits_for(1ULL << b), b + 1) << b;
        EXPECT_EQ(pn_bits_for((1ULL << b) - 1), b) << b;
    }
}

TEST(Layout, InitialWidthsCoverMarkingAndArcWeights)
{
    // p0 m0=5 (3 bits); p1 m0=0, receives 9 (4 bits); p2 m0=1, receives 1;
    // p3 m0=2^40 and receives 3 (41 bits); p4 only consumed with weight 100.
    Compiled c = compile({5, 0, 1, 1ULL << 40, 0}, 2,
                         {{1, 0, false, 9}, {2, 0, false, 1}, {3, 1, false, 3}, {4, 1, true, 100},
                          {0, 1, true, 1}});
    uint8_t *w = nullptr;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_layout_initial_widths(c.cn.get(), &w, &err), PN_OK);
    EXPECT_EQ(w[0], 3);
    EXPECT_EQ(w[1], 4);
    EXPECT_EQ(w[2], 1);
    EXPECT_EQ(w[3], 41);
    EXPECT_EQ(w[4], 1) << "input weights do not need room";
    free(w);
}

TEST(Layout, WideningDoublesFlaggedPlacesToAFloor)
{
    uint8_t w[5] = {1, 1, 4, 32, 64}, flag[5] = {1, 0, 1, 1, 0};
    ASSERT_TRUE(pn_layout_widen(w, flag, 5));
    EXPECT_EQ(std::vector<uint8_t>(w, w + 5), (std::vector<uint8_t>{2, 1, 8, 64, 64}));
    EXPECT_EQ(std::vector<uint8_t>(flag, flag + 5), std::vector<uint8_t>(5, 0)) << "cleared";
    uint8_t w2[4] = {1, 2, 8, 16}, f2[4] = {1, 1, 1, 0};
    ASSERT_TRUE(pn_layout_widen_to(w2, f2, 4, 8)); // the tree store's floor
    EXPECT_EQ(std::vector<uint8_t>(w2, w2 + 4), (std::vector<uint8_t>{8, 8, 16, 16}));
    uint8_t w3[2] = {64, 1}, f3[2] = {1, 0};
    EXPECT_FALSE(pn_layout_widen_to(w3, f3, 2, 8)) << "a count past 2^64-1";
}

// ---- field placement -------------------------------------------------------

TEST(Layout, FieldPlacementByHand)
{
    // First fit in place order: each field goes into the first word with
    // room for it (widths are clamped to 1..64):
    //  p0 60 -> w0 @0        p1 5  -> w1 @0       p2 64 -> w2 @0
    //  p3 1  -> w0 @60       p4 1  -> w0 @61      p5 32 -> w1 @5
    //  p6 32 -> w3 @0        p7 32 -> w3 @32      p8 33 -> w4 @0
    //  p9 0 (1 bit) -> w0 @62                     p10 200 (64 bits) -> w5 @0
    std::vector<uint64_t> m0(11, 0);
    Compiled c = compile(m0, 0, {});
    std::vector<uint8_t> widths = {60, 5, 64, 1, 1, 32, 32, 32, 33, 0, 200};
    LayoutPtr lay = make_layout(c.cn.get(), widths);
    ASSERT_NE(lay, nullptr);
    const uint32_t word[] = {0, 1, 2, 0, 0, 1, 3, 3, 4, 0, 5};
    const uint32_t shift[] = {0, 0, 0, 60, 61, 5, 0, 32, 0, 62, 0};
    const unsigned width[] = {60, 5, 64, 1, 1, 32, 32, 32, 33, 1, 64};
    EXPECT_EQ(lay->prog.words, 6u);
    EXPECT_EQ(lay->prog.n_places, 11u);
    for (uint32_t p = 0; p < 11; p++) {
        SCOPED_TRACE("p" + std::to_string(p));
        EXPECT_EQ(lay->width[p], width[p]);
        EXPECT_EQ(lay->field[p].word, word[p]);
        EXPECT_EQ(lay->field[p].shift, shift[p]);
        EXPECT_EQ(lay->field[p].mask, mask_of(width[p]));
        EXPECT_EQ(lay->field[p].place, p);
    }
}

TEST(Layout, SinglePlaceAndNoPlaces)
{
    Compiled one = compile({0}, 0, {});
    LayoutPtr l1 = make_layout(one.cn.get(), {7});
    EXPECT_EQ(l1->prog.words, 1u);
    EXPECT_EQ(l1->field[0].mask, 127u);
    EXPECT_EQ(l1->bit_place[6], 0u);
    EXPECT_EQ(l1->bit_place[7], UINT32_MAX);

    // A net without places packs into one (always zero) word.
    pn_net *net = pn_net_new("empty");
    pn_error err;
    pn_error_clear(&err);
    ASSERT_GE(pn_net_add_transition(net, "t", nullptr, &err), 0);
    pn_cnet *cn = nullptr;
    ASSERT_EQ(pn_cnet_compile(net, &cn, &err), PN_OK) << err.msg;
    pn_layout *lay = nullptr;
    uint8_t none = 0;
    ASSERT_EQ(pn_layout_new(cn, &none, &lay, &err), PN_OK);
    EXPECT_EQ(lay->prog.words, 1u);
    EXPECT_EQ(lay->prog.n_free, 1u);
    uint64_t s[1] = {42};
    EXPECT_TRUE(pn_layout_pack(lay, nullptr, s));
    EXPECT_EQ(s[0], 0u);
    pn_layout_free(lay);
    pn_cnet_free(cn);
    pn_net_free(net);
}

// In place order (even iterations) and in a random order of the places.
TEST(Layout, RandomFieldsNeverStraddleAndAreFirstFit)
{
    std::mt19937_64 rng(7);
    for (int iter = 0; iter < 200; iter++) {
        // Every tenth net has hundreds of places, so that many words fill up
        // and the per-width cursors of layout_first_fit move past them.
        uint32_t P = 1 + (uint32_t)(rng() % (iter % 10 == 0 ? 800 : 40));
        Compiled c = compile(std::vector<uint64_t>(P, 0), 0, {});
        std::vector<uint8_t> widths = random_widths(rng, P);
        std::vector<uint32_t> order(P);
        for (uint32_t i = 0; i < P; i++)
            order[i] = i;
        if (iter % 2)
            std::shuffle(order.begin(), order.end(), rng);
        const uint32_t *ord = iter % 2 ? order.data() : nullptr;
        LayoutPtr lay = make_layout(c.cn.get(), widths, ord);
        ASSERT_NE(lay, nullptr);
        const pn_prog &g = lay->prog;
        // Reference first fit.
        std::vector<uint32_t> used;
        for (uint32_t p : order) {
            size_t w = 0;
            while (w < used.size() && used[w] + widths[p] > 64)
                w++;
            if (w == used.size())
                used.push_back(0);
            ASSERT_EQ(lay->field[p].word, w) << "iter " << iter << " p" << p;
            ASSERT_EQ(lay->field[p].shift, used[w]) << "iter " << iter << " p" << p;
            ASSERT_LE(lay->field[p].shift + widths[p], 64u) << "a field straddles two words";
            ASSERT_EQ(lay->field[p].mask, mask_of(widths[p]));
            used[w] += widths[p];
        }
        ASSERT_EQ(g.words, used.size());
        ASSERT_EQ(pn_layout_words(widths.data(), ord, P), used.size()); // without building it
        // No word is wasted: no two words' contents would fit in one.
        for (size_t a = 0; a < used.size(); a++)
            for (size_t b = a + 1; b < used.size(); b++)
                ASSERT_GT(used[a] + used[b], 64u) << "words " << a << " and " << b;
        // bit_place names the owner of every bit, UINT32_MAX for padding.
        std::vector<uint32_t> owner((size_t)g.words * 64, UINT32_MAX);
        for (uint32_t p = 0; p < P; p++)
            for (uint32_t b = 0; b < widths[p]; b++) {
                size_t at = (size_t)lay->field[p].word * 64 + lay->field[p].shift + b;
                ASSERT_EQ(owner[at], UINT32_MAX) << "fields overlap";
                owner[at] = p;
            }
        for (size_t b = 0; b < owner.size(); b++)
            ASSERT_EQ(g.bit_place[b], owner[b]) << "bit " << b;
    }
}

// ---- place order (host/net/place_order.c) --------------------------------------

// The span of an order, computed here: per transition, the distance between
// the first and the last place it changes.
uint64_t span_of(const pn_cnet *cn, const std::vector<uint32_t> &order)
{
    std::vector<uint32_t> pos(cn->n_places);
    for (uint32_t i = 0; i < cn->n_places; i++)
        pos[order[i]] = i;
    uint64_t span = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
            lo = std::min(lo, pos[cn->delta[k].place]);
            hi = std::max(hi, pos[cn->delta[k].place]);
        }
        span += lo < hi ? hi - lo : 0;
    }
    return span;
}

// k processes of two places each, numbered interleaved (process x owns
// places x and k + x), each moving its token back and forth: in place order
// every transition spans k places, so a 1-bit field per place puts most of
// them across two words; FORCE puts each process's places side by side.
Compiled interleaved_processes(uint32_t k)
{
    std::vector<uint64_t> m0(2 * k, 0);
    std::vector<Arc> arcs;
    for (uint32_t x = 0; x < k; x++) {
        m0[x] = 1;
        arcs.push_back({x, 2 * x, true, 1});
        arcs.push_back({k + x, 2 * x, false, 1});
        arcs.push_back({k + x, 2 * x + 1, true, 1});
        arcs.push_back({x, 2 * x + 1, false, 1});
    }
    return compile(m0, 2 * k, arcs);
}

TEST(PlaceOrder, InterleavedProcessesSitSideBySide)
{
    const uint32_t k = 80;
    Compiled c = interleaved_processes(k);
    std::vector<uint32_t> order(2 * k);
    uint64_t before = 0, after = 0;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_place_order(c.cn.get(), PN_ORDER_CHANGED, PN_ORDER_CONVERGE, true, nullptr, order.data(), &before, &after, &err), PN_OK);
    EXPECT_EQ(before, 2ULL * k * k); // 2k transitions, each over k places
    EXPECT_EQ(after, 2ULL * k);      // each over its two neighbours
    EXPECT_EQ(span_of(c.cn.get(), order), after);
    std::vector<uint32_t> pos(2 * k);
    for (uint32_t i = 0; i < 2 * k; i++)
        pos[order[i]] = i;
    for (uint32_t x = 0; x < k; x++)
        EXPECT_EQ(std::max(pos[x], pos[k + x]) - std::min(pos[x], pos[k + x]), 1u) << x;
    // Packed 1 bit a place (three words): the words a firing changes.
    auto words_changed = [&](const uint32_t *ord) {
        LayoutPtr lay = make_layout(c.cn.get(), std::vector<uint8_t>(2 * k, 1), ord);
        EXPECT_EQ(lay->prog.words, 3u);
        uint32_t n = 0;
        for (uint32_t t = 0; t < 2 * k; t++) {
            std::set<uint32_t> w;
            for (uint32_t j = c.cn->delta_off[t]; j < c.cn->delta_off[t + 1]; j++)
                w.insert(lay->field[c.cn->delta[j].place].word);
            n += (uint32_t)w.size();
        }
        return n;
    };
    EXPECT_EQ(words_changed(nullptr), 4 * k); // places x and 80 + x: never one word
    EXPECT_LE(words_changed(order.data()), 2 * k + 4); // a pair across a boundary at most twice
}

// On random nets: a permutation, never a longer span than place order, its
// span the one reported, the same order every time.
TEST(PlaceOrder, RandomNetsGetAPermutationNoLongerSpan)
{
    std::mt19937_64 rng(23);
    int shorter = 0;
    for (int iter = 0; iter < 200; iter++) {
        const uint32_t P = 1 + (uint32_t)(rng() % 60), T = (uint32_t)(rng() % 50) + 1;
        Compiled c = random_net(rng, P, T);
        std::vector<uint32_t> order(P), again(P);
        uint64_t before = 0, after = 0;
        pn_error err;
        pn_error_clear(&err);
        ASSERT_EQ(pn_place_order(c.cn.get(), PN_ORDER_CHANGED, PN_ORDER_CONVERGE, true, nullptr, order.data(), &before, &after, &err), PN_OK);
        ASSERT_EQ(pn_place_order(c.cn.get(), PN_ORDER_CHANGED, PN_ORDER_CONVERGE, true, nullptr, again.data(), nullptr, nullptr, &err), PN_OK);
        EXPECT_EQ(order, again) << "iter " << iter;
        std::vector<uint32_t> sorted = order, identity(P);
        std::sort(sorted.begin(), sorted.end());
        for (uint32_t p = 0; p < P; p++)
            identity[p] = p;
        ASSERT_EQ(sorted, identity) << "iter " << iter;
        EXPECT_EQ(span_of(c.cn.get(), identity), before) << "iter " << iter;
        EXPECT_EQ(span_of(c.cn.get(), order), after) << "iter " << iter;
        EXPECT_LE(after, before) << "iter " << iter;
        shorter += after < before;
    }
    EXPECT_GT(shorter, 100) << "FORCE shortens most random nets' spans";
}

// ---- pack / unpack -------------------------------------------------------------

TEST(Layout, PackUnpackRoundTrip)
{
    std::mt19937_64 rng(11);
    for (int iter = 0; iter < 300; iter++) {
        uint32_t P = 1 + (uint32_t)(rng() % 30);
        Compiled c = compile(std::vector<uint64_t>(P, 0), 0, {});
        LayoutPtr lay = make_layout(c.cn.get(), random_widths(rng, P));
        const pn_prog *g = &lay->prog;
        for (int k = 0; k < 20; k++) {
            std::vector<uint64_t> m = random_marking(rng, lay.get());
            std::vector<uint64_t> s = pack(lay.get(), m);
            std::vector<uint64_t> back(P, 12345);
            pn_state_unpack(g, s.data(), back.data());
            ASSERT_EQ(back, m);
            for (uint32_t p = 0; p < P; p++)
                ASSERT_EQ(pn_field_get(s.data(), &lay->field[p]), m[p]);
            // Padding bits stay zero: equal markings pack to equal words.
            for (uint32_t w = 0; w < g->words; w++)
                for (uint32_t b = 0; b < 64; b++)
                    if (g->bit_place[w * 64 + b] == UINT32_MAX) {
                        ASSERT_EQ((s[w] >> b) & 1, 0u);
                    }
        }
    }
}

TEST(Layout, PackRefusesValuesBeyondTheirField)
{
    Compiled c = compile({0, 0, 0}, 0, {});
    LayoutPtr lay = make_layout(c.cn.get(), {3, 64, 1});
    uint64_t s[2];
    std::vector<uint64_t> m = {7, UINT64_MAX, 1};
    EXPECT_TRUE(pn_layout_pack(lay.get(), m.data(), s));
    m[0] = 8;
    EXPECT_FALSE(pn_layout_pack(lay.get(), m.data(), s));
    m[0] = 0;
    m[2] = 2;
    EXPECT_FALSE(pn_layout_pack(lay.get(), m.data(), s));
}

TEST(Layout, UnpackSparseEqualsFullUnpack)
{
    std::mt19937_64 rng(13);
    for (int iter = 0; iter < 300; iter++) {
        uint32_t P = 1 + (uint32_t)(rng() % 40);
        Compiled c = compile(std::vector<uint64_t>(P, 0), 0, {});
        LayoutPtr lay = make_layout(c.cn.get(), random_widths(rng, P));
        const pn_prog *g = &lay->prog;
        for (int k = 0; k < 20; k++) {
            std::vector<uint64_t> m = random_marking(rng, lay.get());
            if (k == 0)
                std::fill(m.begin(), m.end(), 0);
            if (k == 1) // the top bit of every field
                for (uint32_t p = 0; p < P; p++)
                    m[p] = 1ULL << (lay->width[p] - 1);
            std::vector<uint64_t> s = pack(lay.get(), m);
            std::vector<uint64_t> full(P), sparse(P, 0);
            std::vector<uint32_t> nz(P + 1, UINT32_MAX);
            pn_state_unpack(g, s.data(), full.data());
            uint32_t n = pn_state_unpack_sparse(g, s.data(), sparse.data(), nz.data());
            ASSERT_EQ(sparse, full);
            std::set<uint32_t> listed(nz.begin(), nz.begin() + n);
            ASSERT_EQ(listed.size(), n) << "a place listed twice";
            std::set<uint32_t> expect;
            for (uint32_t p = 0; p < P; p++)
                if (m[p] != 0)
                    expect.insert(p);
            ASSERT_EQ(listed, expect);
        }
    }
}

// ---- compiled operations match the net ------------------------------------------

TEST(Layout, OpsMirrorTheCompiledNet)
{
    std::mt19937_64 rng(17);
    for (int iter = 0; iter < 50; iter++) {
        Compiled c = random_net(rng, 10, 14);
        const pn_cnet *cn = c.cn.get();
        LayoutPtr lay = make_layout(cn, random_widths(rng, 10));
        const pn_prog *g = &lay->prog;
        for (uint32_t t = 0; t < cn->n_transitions; t++) {
            std::map<uint32_t, uint64_t> pre, dec, inc, want_pre, want_dec, want_inc;
            for (uint32_t k = g->pre_off[t]; k < g->pre_off[t + 1]; k++)
                pre[g->pre[k].place] = g->pre[k].value;
            for (uint32_t k = g->dec_off[t]; k < g->dec_off[t + 1]; k++)
                dec[g->dec[k].place] = g->dec[k].value;
            for (uint32_t k = g->inc_off[t]; k < g->inc_off[t + 1]; k++)
                inc[g->inc[k].place] = g->inc[k].value;
            for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
                want_pre[cn->pre[k].place] = cn->pre[k].weight;
            for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
                int64_t d = cn->delta[k].delta;
                if (d < 0)
                    want_dec[cn->delta[k].place] = (uint64_t)-d;
                else
                    want_inc[cn->delta[k].place] = (uint64_t)d;
            }
            ASSERT_EQ(pre, want_pre) << "t" << t;
            ASSERT_EQ(dec, want_dec) << "t" << t;
            ASSERT_EQ(inc, want_inc) << "t" << t;
            // Every op addresses its place's field.
            for (uint32_t k = g->pre_off[t]; k < g->pre_off[t + 1]; k++) {
                const pn_op &op = g->pre[k], &f = g->field[op.place];
                ASSERT_EQ(op.word, f.word);
                ASSERT_EQ(op.shift, f.shift);
                ASSERT_EQ(op.mask, f.mask);
            }
            for (uint32_t k = g->inc_off[t]; k < g->inc_off[t + 1]; k++) {
                const pn_op &op = g->inc[k], &f = g->field[op.place];
                ASSERT_EQ(op.word, f.word);
                ASSERT_EQ(op.shift, f.shift);
                ASSERT_EQ(op.mask, f.mask);
            }
            for (uint32_t k = g->dec_off[t]; k < g->dec_off[t + 1]; k++) {
                const pn_op &op = g->dec[k], &f = g->field[op.place];
                ASSERT_EQ(op.word, f.word);
                ASSERT_EQ(op.shift, f.shift);
                ASSERT_EQ(op.mask, f.mask);
            }
        }
    }
}

TEST(Layout, TriggerListsCoverEveryTransitionOnce)
{
    std::mt19937_64 rng(19);
    for (int iter = 0; iter < 100; iter++) {
        uint32_t P = 2 + (uint32_t)(rng() % 12), T = 1 + (uint32_t)(rng() % 25);
        Compiled c = random_net(rng, P, T);
        const pn_cnet *cn = c.cn.get();
        std::vector<uint8_t> widths(P, 4);
        LayoutPtr lay = make_layout(cn, widths);
        const pn_prog *g = &lay->prog;
        ASSERT_EQ(g->trig_off[0], 0u);
        std::map<uint32_t, int> seen;
        for (uint32_t p = 0; p < P; p++) {
            ASSERT_LE(g->trig_off[p], g->trig_off[p + 1]);
            for (uint32_t k = g->trig_off[p]; k < g->trig_off[p + 1]; k++) {
                uint32_t t = g->trig[k];
                ASSERT_LT(t, T);
                seen[t]++;
                bool is_input = false;
                for (uint32_t j = cn->pre_off[t]; j < cn->pre_off[t + 1]; j++)
                    is_input |= cn->pre[j].place == p;
                ASSERT_TRUE(is_input) << "t" << t << " listed under p" << p
                                      << ", which is not one of its inputs";
            }
        }
        std::set<uint32_t> free_set(g->free_trans, g->free_trans + g->n_free);
        ASSERT_EQ(free_set.size(), g->n_free) << "a free transition listed twice";
        uint32_t with_inputs = 0;
        for (uint32_t t = 0; t < T; t++) {
            bool has_inputs = cn->pre_off[t] != cn->pre_off[t + 1];
            if (has_inputs) {
                with_inputs++;
                ASSERT_EQ(seen[t], 1) << "t" << t;
                ASSERT_EQ(free_set.count(t), 0u);
            } else {
                ASSERT_EQ(seen.count(t), 0u) << "t" << t;
                ASSERT_EQ(free_set.count(t), 1u) << "t" << t;
            }
        }
        ASSERT_EQ(g->trig_off[P], with_inputs);
    }
}

// ---- enabledness and firing against the unpacked reference ---------------------

TEST(State, EnabledAgreesWithReference)
{
    std::mt19937_64 rng(23);
    uint64_t checked = 0, enabled = 0;
    for (int iter = 0; iter < 100; iter++) {
        uint32_t P = 3 + (uint32_t)(rng() % 10), T = 1 + (uint32_t)(rng() % 20);
        Compiled c = random_net(rng, P, T);
        LayoutPtr lay = make_layout(c.cn.get(), random_widths(rng, P));
        const pn_prog *g = &lay->prog;
        for (int k = 0; k < 50; k++) {
            std::vector<uint64_t> m = random_marking(rng, lay.get());
            std::vector<uint64_t> s = pack(lay.get(), m);
            for (uint32_t t = 0; t < T; t++) {
                bool ref = pn_cnet_enabled(c.cn.get(), m.data(), t);
                ASSERT_EQ(pn_state_enabled(g, s.data(), t), ref) << "t" << t;
                ASSERT_EQ(pn_marking_enabled(g, m.data(), t), ref) << "t" << t;
                checked++;
                enabled += ref;
            }
        }
    }
    // The generator must exercise both outcomes substantially.
    EXPECT_GT(enabled, checked / 10);
    EXPECT_LT(enabled, checked - checked / 10);
}

TEST(State, FireAgreesWithReferenceAndReportsOverflow)
{
    std::mt19937_64 rng(29);
    uint64_t fired = 0, overflows = 0;
    for (int iter = 0; iter < 150; iter++) {
        uint32_t P = 3 + (uint32_t)(rng() % 10), T = 1 + (uint32_t)(rng() % 20);
        Compiled c = random_net(rng, P, T);
        const pn_cnet *cn = c.cn.get();
        // The engine's invariant: a field holds at least the largest weight
        // put into it (pn_layout_initial_widths, widening only grows). The
        // case without it is State.FireWeightWiderThanFieldIsAnOverflow.
        std::vector<uint8_t> widths = random_widths(rng, P);
        for (uint32_t k = 0; k < cn->post_off[T]; k++)
            widths[cn->post[k].place] =
                std::max(widths[cn->post[k].place], pn_bits_for(cn->post[k].weight));
        LayoutPtr lay = make_layout(cn, widths);
        const pn_prog *g = &lay->prog;
        for (int k = 0; k < 40; k++) {
            std::vector<uint64_t> m = random_marking(rng, lay.get());
            std::vector<uint64_t> s = pack(lay.get(), m);
            for (uint32_t t = 0; t < T; t++) {
                if (!pn_cnet_enabled(cn, m.data(), t))
                    continue;
                std::vector<uint64_t> ref(P);
                bool fits64 = pn_cnet_fire(cn, m.data(), t, ref.data());
                bool fits = fits64;
                for (uint32_t p = 0; fits && p < P; p++)
                    fits = ref[p] <= lay->field[p].mask;
                std::vector<uint64_t> out(g->words, 0x5a5a5a5aULL);
                uint32_t of = pn_state_fire(g, s.data(), t, out.data());
                fired++;
                if (fits) {
                    ASSERT_EQ(of, 0u) << "t" << t << " reported an overflow that is not there";
                    ASSERT_EQ(out, pack(lay.get(), ref)) << "t" << t;
                    continue;
                }
                overflows++;
                ASSERT_NE(of, 0u) << "t" << t << " overflowed a field silently"
                                  << describe(cn, lay.get(), m, ref, fits64, t);
                ASSERT_GE(of - 1, g->inc_off[t]);
                ASSERT_LT(of - 1, g->inc_off[t + 1]);
                const pn_op &op = g->inc[of - 1];
                // The reported production really overflows its field.
                ASSERT_GT(m[op.place], op.mask - op.value) << "p" << op.place;
                // and is the first one that does (earlier ones fit).
                for (uint32_t j = g->inc_off[t]; j < of - 1; j++)
                    ASSERT_LE(m[g->inc[j].place], g->inc[j].mask - g->inc[j].value);
            }
        }
    }
    EXPECT_GT(fired, 1000u);
    EXPECT_GT(overflows, 50u);
    EXPECT_GT(fired - overflows, 500u);
}

TEST(State, FireAtTheEdgeOfAField)
{
    // p0: 3 bits, p1: 64 bits, p2: 1 bit. t0: +1 p0; t1: p2 -> +1 p1.
    Compiled c = compile({0, 0, 0}, 2, {{0, 0, false, 1}, {2, 1, true, 1}, {1, 1, false, 1}});
    LayoutPtr lay = make_layout(c.cn.get(), {3, 64, 1});
    const pn_prog *g = &lay->prog;
    std::vector<uint64_t> out(g->words);

    std::vector<uint64_t> s = pack(lay.get(), {6, 0, 0});
    EXPECT_EQ(pn_state_fire(g, s.data(), 0, out.data()), 0u);
    EXPECT_EQ(out, pack(lay.get(), {7, 0, 0}));
    s = pack(lay.get(), {7, 0, 0});
    EXPECT_EQ(pn_state_fire(g, s.data(), 0, out.data()), g->inc_off[0] + 1) << "7 + 1 > 3 bits";

    s = pack(lay.get(), {0, UINT64_MAX - 1, 1});
    ASSERT_TRUE(pn_state_enabled(g, s.data(), 1));
    EXPECT_EQ(pn_state_fire(g, s.data(), 1, out.data()), 0u);
    EXPECT_EQ(out, pack(lay.get(), {0, UINT64_MAX, 0}));
    s = pack(lay.get(), {5, UINT64_MAX, 1});
    EXPECT_EQ(pn_state_fire(g, s.data(), 1, out.data()), g->inc_off[1] + 1) << "2^64-1 + 1";
}

TEST(State, FireWeightWiderThanFieldIsAnOverflow)
{
    // A production larger than its field's mask must be reported as an
    // overflow like any other: pn_layout_new accepts any widths, and
    // pn_state_fire's contract is to report "the first production that
    // overflows its field". p0 has 1 bit, t0 puts 3 tokens into it; p1 sits
    // in the next 4 bits of the same word.
    Compiled c = compile({0, 0}, 1, {{0, 0, false, 3}});
    LayoutPtr lay = make_layout(c.cn.get(), {1, 4});
    const pn_prog *g = &lay->prog;
    ASSERT_EQ(g->inc_off[1] - g->inc_off[0], 1u);
    ASSERT_EQ(g->inc[0].value, 3u);
    ASSERT_EQ(g->inc[0].mask, 1u);
    for (uint64_t start : {0, 1}) {
        SCOPED_TRACE("p0 = " + std::to_string(start));
        std::vector<uint64_t> s = pack(lay.get(), {start, 0});
        std::vector<uint64_t> out(g->words, 0);
        uint32_t of = pn_state_fire(g, s.data(), 0, out.data());
        std::vector<uint64_t> m(2);
        pn_state_unpack(g, out.data(), m.data());
        EXPECT_EQ(of, 1u) << "3 tokens do not fit in 1 bit, yet no overflow was reported; "
                          << "the successor silently became p0=" << m[0] << " p1=" << m[1];
    }
}

TEST(State, HashAndEqual)
{
    uint64_t a[3] = {1, 2, 3}, b[3] = {1, 2, 3}, d[3] = {1, 2, 4};
    EXPECT_TRUE(pn_state_equal(a, b, 3));
    EXPECT_FALSE(pn_state_equal(a, d, 3));
    EXPECT_TRUE(pn_state_equal(a, d, 2));
    EXPECT_EQ(pn_state_hash(a, 3), pn_state_hash(b, 3));
    EXPECT_NE(pn_state_hash(a, 3), pn_state_hash(d, 3));
    // Many distinct one-word states: no collisions of the full 64-bit hash
    // and well spread tags (the top 24 bits).
    std::set<uint64_t> hashes, tags;
    for (uint64_t i = 0; i < 100000; i++) {
        uint64_t h = pn_state_hash(&i, 1);
        hashes.insert(h);
        tags.insert(h >> PN_SLOT_ID_BITS);
    }
    EXPECT_EQ(hashes.size(), 100000u);
    EXPECT_GT(tags.size(), 99000u);
}

// ---- the hash table -----------------------------------------------------------------

namespace {

struct Table {
    std::vector<uint64_t> slots, store;
    uint64_t count = 0;
    pn_table_view v{};
    Table(uint64_t n_slots, uint64_t store_states, uint32_t words)
        : slots(n_slots, 0), store(store_states * words, 0)
    {
        v.slots = slots.data();
        v.slot_mask = n_slots - 1;
        v.store = store.data();
        v.count = &count;
        v.words = words;
    }
    const uint64_t *state(uint64_t id) const { return &store[id * v.words]; }
};

// A 3-word state for a key: differs in every word, never all zero.
std::vector<uint64_t> key_state(uint64_t k)
{
    return {k, k * 0x9e3779b97f4a7c15ULL + 1, ~k};
}

uint64_t real_hash(const std::vector<uint64_t> &s)
{
    return pn_state_hash(s.data(), (uint32_t)s.size());
}

// Checks that the slots name exactly ids 0..count-1, once each, none BUSY.
void check_slots(const Table &t)
{
    std::vector<int> named(t.count, 0);
    for (uint64_t x : t.slots) {
        if (x == 0)
            continue;
        uint64_t id = (x & PN_SLOT_ID_MASK);
        ASSERT_NE(id, PN_SLOT_BUSY) << "slot left BUSY";
        ASSERT_GE(id, 1u);
        ASSERT_LE(id, t.count);
        named[id - 1]++;
    }
    for (uint64_t id = 0; id < t.count; id++)
        ASSERT_EQ(named[id], 1) << "id " << id;
}

} // namespace

TEST(Table, InsertNewThenOld)
{
    Table t(64, 40, 3);
    uint64_t id = 99;
    auto s0 = key_state(0), s1 = key_state(1);
    EXPECT_EQ(pn_table_insert(&t.v, s0.data(), real_hash(s0), &id), PN_INSERT_NEW);
    EXPECT_EQ(id, 0u);
    EXPECT_EQ(pn_table_insert(&t.v, s1.data(), real_hash(s1), &id), PN_INSERT_NEW);
    EXPECT_EQ(id, 1u);
    EXPECT_EQ(pn_table_insert(&t.v, s0.data(), real_hash(s0), &id), PN_INSERT_OLD);
    EXPECT_EQ(id, 0u);
    EXPECT_EQ(pn_table_insert(&t.v, s1.data(), real_hash(s1), &id), PN_INSERT_OLD);
    EXPECT_EQ(id, 1u);
    EXPECT_EQ(t.count, 2u);
    EXPECT_TRUE(pn_state_equal(t.state(0), s0.data(), 3));
    EXPECT_TRUE(pn_state_equal(t.state(1), s1.data(), 3));
    check_slots(t);
}

TEST(Table, IdsAreDenseAndStatesDeduplicated)
{
    const uint64_t n = 3000;
    Table t(8192, n, 3);
    std::mt19937_64 rng(31);
    std::map<uint64_t, uint64_t> ids;
    for (int round = 0; round < 3; round++) {
        std::vector<uint64_t> keys(n);
        for (uint64_t k = 0; k < n; k++)
            keys[k] = k;
        std::shuffle(keys.begin(), keys.end(), rng);
        for (uint64_t k : keys) {
            auto s = key_state(k);
            uint64_t id;
            int r = pn_table_insert(&t.v, s.data(), real_hash(s), &id);
            if (round == 0) {
                ASSERT_EQ(r, PN_INSERT_NEW);
                ASSERT_EQ(id, ids.size()) << "ids are handed out in order";
                ids[k] = id;
            } else {
                ASSERT_EQ(r, PN_INSERT_OLD);
                ASSERT_EQ(id, ids[k]);
            }
        }
    }
    EXPECT_EQ(t.count, n);
    for (auto &kv : ids)
        ASSERT_TRUE(pn_state_equal(t.state(kv.second), key_state(kv.first).data(), 3));
    check_slots(t);
}

TEST(Table, ConstantHashStillExact)
{
    // Every state has the same hash: same tag, same home slot, one long
    // probe chain. Only full comparison tells them apart.
    const uint64_t n = 500, h = 0xabcdef0123456789ULL;
    Table t(1024, n + 2, 3);
    for (uint64_t k = 0; k < n; k++) {
        auto s = key_state(k);
        uint64_t id;
        ASSERT_EQ(pn_table_insert(&t.v, s.data(), h, &id), PN_INSERT_NEW) << k;
        ASSERT_EQ(id, k);
    }
    for (uint64_t k = n; k-- > 0;) {
        auto s = key_state(k);
        uint64_t id;
        ASSERT_EQ(pn_table_insert(&t.v, s.data(), h, &id), PN_INSERT_OLD) << k;
        ASSERT_EQ(id, k);
    }
    // States differing only in the last word are still distinct.
    std::vector<uint64_t> a = {5, 5, 5}, b = {5, 5, 6};
    uint64_t ia, ib;
    EXPECT_EQ(pn_table_insert(&t.v, a.data(), h, &ia), PN_INSERT_NEW);
    EXPECT_EQ(pn_table_insert(&t.v, b.data(), h, &ib), PN_INSERT_NEW);
    EXPECT_NE(ia, ib);
    EXPECT_EQ(t.count, n + 2);
    check_slots(t);
}

TEST(Table, SameHomeSlotDifferentTagsAndWrapAround)
{
    // All home slots are the last one (index 255), so probing wraps to 0;
    // tags differ among some keys and agree among others.
    const uint64_t n = 200;
    Table t(256, n, 1);
    for (int round = 0; round < 2; round++)
        for (uint64_t k = 0; k < n; k++) {
            uint64_t s = k * 7 + 3;
            uint64_t h = ((k % 5) << PN_SLOT_ID_BITS) | 255;
            uint64_t id;
            ASSERT_EQ(pn_table_insert(&t.v, &s, h, &id), round == 0 ? PN_INSERT_NEW : PN_INSERT_OLD);
            ASSERT_EQ(id, k);
        }
    EXPECT_EQ(t.count, n);
    EXPECT_NE(t.slots[0], 0u) << "the probe wrapped around";
    check_slots(t);
}

TEST(Table, ReinsertIntoBiggerTable)
{
    const uint64_t n = 700;
    Table small(1024, 4 * n, 2);
    std::vector<std::vector<uint64_t>> states;
    for (uint64_t k = 0; k < n; k++) {
        states.push_back({k, k ^ 0xffff});
        uint64_t id;
        ASSERT_EQ(pn_table_insert(&small.v, states[k].data(), real_hash(states[k]), &id),
                  PN_INSERT_NEW);
    }
    // Grow as the engine does: a bigger slot array, the same store.
    std::vector<uint64_t> big(4096, 0);
    pn_table_view v = small.v;
    v.slots = big.data();
    v.slot_mask = big.size() - 1;
    for (uint64_t id = 0; id < n; id++)
        pn_table_reinsert(&v, id, pn_state_hash(small.state(id), 2));
    for (uint64_t k = 0; k < n; k++) {
        uint64_t id;
        ASSERT_EQ(pn_table_insert(&v, states[k].data(), real_hash(states[k]), &id), PN_INSERT_OLD);
        ASSERT_EQ(id, k);
    }
    std::vector<uint64_t> fresh = {n, 1};
    uint64_t id;
    EXPECT_EQ(pn_table_insert(&v, fresh.data(), real_hash(fresh), &id), PN_INSERT_NEW);
    EXPECT_EQ(id, n);
}

// ---- concurrent inserts: the table as the GPU and the CPU engine use it ------

namespace {

struct Outcome {
    uint64_t key, id;
    int result;
};

// 4 threads insert overlapping key ranges (each key by 2 or 3 threads) in
// their own random order, released together. Afterwards the store must hold
// exactly the union, each key once, every thread must have been given the
// same id for a key, and exactly one insert per key reported NEW.
void concurrent_inserts(uint64_t per_thread, uint64_t stride, uint64_t (*hash)(uint64_t key),
                        uint64_t n_slots, unsigned seed)
{
    const unsigned n_threads = 4;
    const uint64_t n_union = stride * (n_threads - 1) + per_thread;
    Table t(n_slots, n_union, 3);
    std::vector<std::vector<Outcome>> outcomes(n_threads);
    std::atomic<unsigned> ready{0};
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < n_threads; i++)
        threads.emplace_back([&, i] {
            std::vector<uint64_t> keys(per_thread);
            for (uint64_t k = 0; k < per_thread; k++)
                keys[k] = i * stride + k;
            std::mt19937_64 rng(seed * 100 + i);
            std::shuffle(keys.begin(), keys.end(), rng);
            // Each thread inserts its keys twice: later lookups race with
            // other threads' first inserts.
            std::vector<uint64_t> again = keys;
            std::shuffle(again.begin(), again.end(), rng);
            keys.insert(keys.end(), again.begin(), again.end());
            outcomes[i].reserve(keys.size());
            ready.fetch_add(1);
            while (ready.load() < n_threads) {
            }
            for (uint64_t k : keys) {
                auto s = key_state(k);
                uint64_t id = UINT64_MAX;
                int r = pn_table_insert(&t.v, s.data(), hash(k), &id);
                outcomes[i].push_back({k, id, r});
            }
        });
    for (auto &th : threads)
        th.join();

    ASSERT_EQ(t.count, n_union) << "duplicates were inserted (or states lost)";
    // The store is exactly the union, each key once.
    std::vector<uint64_t> id_of(n_union, UINT64_MAX);
    for (uint64_t id = 0; id < t.count; id++) {
        const uint64_t *s = t.state(id);
        uint64_t k = s[0];
        ASSERT_LT(k, n_union) << "garbage in the store at id " << id;
        ASSERT_TRUE(pn_state_equal(s, key_state(k).data(), 3)) << "torn state at id " << id;
        ASSERT_EQ(id_of[k], UINT64_MAX) << "key " << k << " stored twice";
        id_of[k] = id;
    }
    std::vector<unsigned> news(n_union, 0);
    for (unsigned i = 0; i < n_threads; i++)
        for (const Outcome &o : outcomes[i]) {
            ASSERT_EQ(o.id, id_of[o.key]) << "thread " << i << " key " << o.key;
            if (o.result == PN_INSERT_NEW)
                news[o.key]++;
            else
                ASSERT_EQ(o.result, PN_INSERT_OLD);
        }
    for (uint64_t k = 0; k < n_union; k++)
        ASSERT_EQ(news[k], 1u) << "key " << k;
    check_slots(t);
    // And a single-threaded pass finds everything again.
    for (uint64_t k = 0; k < n_union; k++) {
        auto s = key_state(k);
        uint64_t id;
        ASSERT_EQ(pn_table_insert(&t.v, s.data(), hash(k), &id), PN_INSERT_OLD);
        ASSERT_EQ(id, id_of[k]);
    }
}

uint64_t good_hash(uint64_t k)
{
    auto s = key_state(k);
    return real_hash(s);
}

// 16 home slots, 4 tags: long, heavily shared probe chains.
uint64_t clustered_hash(uint64_t k) { return ((k % 4) << PN_SLOT_ID_BITS) | (k % 16); }

uint64_t constant_hash(uint64_t) { return 0x123456789abcdefULL; }

} // namespace

TEST(TableConcurrent, FourThreadsOverlappingKeys)
{
    for (unsigned seed = 1; seed <= 4; seed++) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        concurrent_inserts(60000, 30000, good_hash, 1u << 19, seed);
        if (HasFatalFailure())
            return;
    }
}

TEST(TableConcurrent, FourThreadsSameKeys)
{
    // Every thread inserts the same keys: maximal contention on each slot.
    for (unsigned seed = 1; seed <= 4; seed++) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        concurrent_inserts(50000, 0, good_hash, 1u << 17, seed);
        if (HasFatalFailure())
            return;
    }
}

TEST(TableConcurrent, FourThreadsClusteredHashes)
{
    for (unsigned seed = 1; seed <= 3; seed++) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        concurrent_inserts(1500, 500, clustered_hash, 1u << 13, seed);
        if (HasFatalFailure())
            return;
    }
}

TEST(TableConcurrent, FourThreadsConstantHash)
{
    for (unsigned seed = 1; seed <= 3; seed++) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        concurrent_inserts(800, 300, constant_hash, 1u << 12, seed);
        if (HasFatalFailure())
            return;
    }
}

TEST(TableConcurrent, NearlyFullTable)
{
    // The union fills the table to 3/4, the engine's load limit.
    concurrent_inserts(6144, 2048, good_hash, 1u << 14, 9);
}
