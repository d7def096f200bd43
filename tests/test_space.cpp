// The state-space interface (petrel/space.h) on a hand-made P/T net whose
// successors, relations and widening were computed by hand, a layer that
// filters transitions, and the on-demand space (petrel/lazy.h) over it.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

extern "C" {
#include "petrel/lazy.h"
#include "petrel/space.h"
}
#include "test_ptrs.h"

namespace {

struct SpaceDeleter {
    void operator()(pn_space *s) const { pn_space_free(s); }
};
using SpacePtr = std::unique_ptr<pn_space, SpaceDeleter>;

// p0 (2 tokens), p1, p2 (1 token);
// t0: p0 -> p1; t1: p1 + p2 -> 2 p0; t2: p2 -> p2 (a test); t3: -> p1.
// Starting widths: p0 2 bits (an arc of weight 2 into it), p1 and p2 1 bit.
struct Net {
    NetPtr net;
    CnetPtr cn;
    Net()
    {
        pn_error err;
        pn_error_clear(&err);
        net.reset(pn_net_new("space"));
        const uint64_t m0[] = {2, 0, 1};
        for (int p = 0; p < 3; p++)
            EXPECT_GE(pn_net_add_place(net.get(), ("p" + std::to_string(p)).c_str(), nullptr,
                                       m0[p], &err), 0);
        for (int t = 0; t < 4; t++)
            EXPECT_GE(pn_net_add_transition(net.get(), ("t" + std::to_string(t)).c_str(), nullptr,
                                            &err), 0);
        struct A { uint32_t p, t; bool in; uint64_t w; };
        const A arcs[] = {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}, {2, 1, true, 1},
                          {0, 1, false, 2}, {2, 2, true, 1}, {2, 2, false, 1}, {1, 3, false, 1}};
        for (const A &a : arcs)
            EXPECT_EQ(pn_net_add_arc(net.get(), a.p, a.t, a.in, a.w, &err), PN_OK);
        pn_cnet *c = nullptr;
        EXPECT_EQ(pn_cnet_compile(net.get(), &c, &err), PN_OK) << err.msg;
        cn.reset(c);
    }
};

using Mk = std::vector<uint64_t>;
using Succs = std::set<std::pair<uint32_t, Mk>>;

struct Collect {
    pn_space *sp;
    Succs out;
};

void collect(void *ctx, uint32_t t, const uint64_t *s)
{
    Collect *c = static_cast<Collect *>(ctx);
    Mk m(pn_space_places(c->sp));
    pn_space_marking(c->sp, s, m.data());
    c->out.insert({t, m});
}

// The packed state of marking m in sp's current layout.
std::vector<uint64_t> pack(pn_space *sp, const Mk &m)
{
    std::vector<uint64_t> s(pn_space_words(sp), 0);
    for (uint32_t p = 0; p < m.size(); p++) {
        pn_space_field f = pn_space_place_field(sp, p);
        s[f.word] |= m[p] << f.shift;
    }
    return s;
}

uint32_t succs(pn_space *sp, const Mk &m, Succs *out)
{
    Collect c{sp, {}};
    std::vector<uint64_t> s = pack(sp, m);
    uint32_t of = pn_space_next_all(sp, s.data(), collect, &c);
    *out = c.out;
    return of;
}

std::set<uint32_t> row(pn_space_csr r, uint32_t t)
{
    return std::set<uint32_t>(r.items + r.off[t], r.items + r.off[t + 1]);
}

SpacePtr pt_space(const Net &n)
{
    pn_error err;
    pn_error_clear(&err);
    pn_space *sp = nullptr;
    EXPECT_EQ(pn_space_pt_new(n.cn.get(), &sp, &err), PN_OK) << err.msg;
    return SpacePtr(sp);
}

} // namespace

TEST(SpacePt, InitialSuccessorsAndEnabled)
{
    Net n;
    SpacePtr sp = pt_space(n);
    ASSERT_NE(sp, nullptr);
    EXPECT_EQ(pn_space_places(sp.get()), 3u);
    EXPECT_EQ(pn_space_transitions(sp.get()), 4u);
    EXPECT_EQ(pn_space_words(sp.get()), 1u); // 2 + 1 + 1 bits
    std::vector<uint64_t> s0(1);
    pn_space_initial(sp.get(), s0.data());
    EXPECT_EQ(s0, pack(sp.get(), {2, 0, 1}));
    Succs got;
    EXPECT_EQ(succs(sp.get(), {2, 0, 1}, &got), 0u);
    Succs want = {{0, {1, 1, 1}}, {2, {2, 0, 1}}, {3, {2, 1, 1}}};
    EXPECT_EQ(got, want);
    std::vector<uint32_t> en(4);
    uint32_t k = pn_space_enabled(sp.get(), s0.data(), en.data());
    std::sort(en.begin(), en.begin() + k);
    EXPECT_EQ(std::vector<uint32_t>(en.begin(), en.begin() + k), (std::vector<uint32_t>{0, 2, 3}));
    // {0,0,0}: only t3, which has no input place.
    EXPECT_EQ(succs(sp.get(), {0, 0, 0}, &got), 0u);
    EXPECT_EQ(got, (Succs{{3, {0, 1, 0}}}));
    // {2,1,1}: t3 would put a second token on p1 (1 bit): reported.
    EXPECT_EQ(succs(sp.get(), {2, 1, 1}, &got), 2u);
}

// p1 holds 1 bit: t0 from {1,1,1} overflows it. After widening p1 (2
// bits), the old state repacks and every successor comes.
TEST(SpacePt, WideningReportsThePlaceAndRepacks)
{
    Net n;
    SpacePtr sp = pt_space(n);
    Succs got;
    std::vector<uint64_t> old = pack(sp.get(), {1, 1, 1});
    EXPECT_EQ(succs(sp.get(), {1, 1, 1}, &got), 2u); // place 1, + 1
    EXPECT_EQ(pn_space_place_field(sp.get(), 1).width, 1u);
    pn_error err;
    pn_error_clear(&err);
    uint32_t p1 = 1;
    ASSERT_EQ(pn_space_widen(sp.get(), &p1, 1, &err), PN_OK) << err.msg;
    EXPECT_EQ(pn_space_place_field(sp.get(), 1).width, 2u);
    std::vector<uint64_t> now(pn_space_words(sp.get()));
    pn_space_repack(sp.get(), old.data(), now.data());
    EXPECT_EQ(now, pack(sp.get(), {1, 1, 1}));
    EXPECT_EQ(succs(sp.get(), {1, 1, 1}, &got), 0u);
    Succs want = {{0, {0, 2, 1}}, {1, {3, 0, 0}}, {2, {1, 1, 1}}, {3, {1, 2, 1}}};
    EXPECT_EQ(got, want);
    // 2 -> 4 -> 8 -> 16 -> 32 -> 64 bits, then a count would pass 2^64-1.
    for (uint32_t w : {4u, 8u, 16u, 32u, 64u}) {
        ASSERT_EQ(pn_space_widen(sp.get(), &p1, 1, &err), PN_OK);
        EXPECT_EQ(pn_space_place_field(sp.get(), 1).width, w);
    }
    EXPECT_EQ(pn_space_widen(sp.get(), &p1, 1, &err), PN_ERR_UNSUPPORTED);
    // The layout's bits: each place's field maps back to it.
    for (uint32_t p = 0; p < 3; p++) {
        pn_space_field f = pn_space_place_field(sp.get(), p);
        EXPECT_EQ(pn_space_bit_place(sp.get(), f.word, f.shift), p);
        EXPECT_EQ(pn_space_bit_place(sp.get(), f.word, f.shift + f.width - 1), p);
    }
}

// Read sets = input places; write sets = non-zero effect; t may enable u
// when t adds to an input place of u, may disable u when it takes from one.
TEST(SpacePt, StaticRelationsByHand)
{
    Net n;
    SpacePtr sp = pt_space(n);
    pn_space_csr rd = pn_space_reads(sp.get()), wr = pn_space_writes(sp.get());
    using S = std::set<uint32_t>;
    EXPECT_EQ(row(rd, 0), (S{0}));
    EXPECT_EQ(row(rd, 1), (S{1, 2}));
    EXPECT_EQ(row(rd, 2), (S{2}));
    EXPECT_EQ(row(rd, 3), (S{}));
    EXPECT_EQ(row(wr, 0), (S{0, 1}));
    EXPECT_EQ(row(wr, 1), (S{0, 1, 2}));
    EXPECT_EQ(row(wr, 2), (S{})); // a test arc changes nothing
    EXPECT_EQ(row(wr, 3), (S{1}));
    pn_error err;
    pn_error_clear(&err);
    pn_space_csr en, dis;
    ASSERT_EQ(pn_space_may_enable(sp.get(), &en, &err), PN_OK);
    ASSERT_EQ(pn_space_may_disable(sp.get(), &dis, &err), PN_OK);
    EXPECT_EQ(row(en, 0), (S{1}));
    EXPECT_EQ(row(en, 1), (S{0}));
    EXPECT_EQ(row(en, 2), (S{}));
    EXPECT_EQ(row(en, 3), (S{1}));
    EXPECT_EQ(row(dis, 0), (S{0}));
    EXPECT_EQ(row(dis, 1), (S{1, 2}));
    EXPECT_EQ(row(dis, 2), (S{}));
    EXPECT_EQ(row(dis, 3), (S{}));
    // Each list holds every transition once at most.
    for (uint32_t t = 0; t < 4; t++) {
        EXPECT_EQ(row(en, t).size(), en.off[t + 1] - en.off[t]);
        EXPECT_EQ(row(dis, t).size(), dis.off[t + 1] - dis.off[t]);
    }
}

namespace {

// A layer that drops t3 (what a stubborn-set filter does, in miniature):
// it overrides next_all only, choosing among the enabled transitions and
// firing those, so enabled, fire, words and widening forward inward.
uint32_t drop_next_all(void *, pn_space *inner, const uint64_t *s, pn_space_succ_fn fn, void *ctx)
{
    std::vector<uint32_t> en(pn_space_transitions(inner));
    std::vector<uint64_t> out(pn_space_words(inner));
    uint32_t n = pn_space_enabled(inner, s, en.data());
    for (uint32_t k = 0; k < n; k++) {
        if (en[k] == 3)
            continue;
        uint32_t of = pn_space_fire(inner, s, en[k], out.data());
        if (of != 0)
            return of;
        fn(ctx, en[k], out.data());
    }
    return 0;
}

const pn_space_ops drop_ops = {nullptr, nullptr, drop_next_all, nullptr, nullptr, nullptr,
                               nullptr, nullptr, nullptr, false, false, nullptr};

} // namespace

TEST(SpaceLayer, FilterForwardsTheRest)
{
    Net n;
    pn_error err;
    pn_error_clear(&err);
    SpacePtr base = pt_space(n);
    pn_space *sp = nullptr;
    ASSERT_EQ(pn_space_layer_new(&drop_ops, nullptr, base.get(), &sp, &err), PN_OK);
    base.release(); // owned by the layer
    SpacePtr layer(sp);
    Succs got;
    EXPECT_EQ(succs(sp, {2, 0, 1}, &got), 0u);
    EXPECT_EQ(got, (Succs{{0, {1, 1, 1}}, {2, {2, 0, 1}}}));
    std::vector<uint64_t> s0(pn_space_words(sp));
    pn_space_initial(sp, s0.data());
    std::vector<uint32_t> en(4);
    EXPECT_EQ(pn_space_enabled(sp, s0.data(), en.data()), 3u); // the inner space's
    EXPECT_EQ(pn_space_transitions(sp), 4u);
}

// The on-demand space over the filtering layer: reachable without t3 are
// {2,0,1} {1,1,1} {0,2,1} {3,0,0} {2,1,0} {1,2,0} {0,3,0} (p1 widens on
// the way), with 2+3+2+1+1+1+0 = 10 edges; {0,3,0} is a deadlock.
TEST(SpaceLazy, ExploresThroughTheInterface)
{
    Net n;
    pn_error err;
    pn_error_clear(&err);
    pn_space *base = nullptr, *sp = nullptr;
    ASSERT_EQ(pn_space_pt_new(n.cn.get(), &base, &err), PN_OK);
    ASSERT_EQ(pn_space_layer_new(&drop_ops, nullptr, base, &sp, &err), PN_OK);
    pn_lazy *z = nullptr;
    ASSERT_EQ(pn_lazy_new_space(sp, 0, &z, &err), PN_OK) << err.msg;
    std::set<Mk> seen;
    uint32_t dead = UINT32_MAX, s111 = UINT32_MAX, s300 = UINT32_MAX;
    for (uint32_t s = 0; s < pn_lazy_states(z); s++) {
        const uint32_t *succ;
        uint32_t k;
        ASSERT_EQ(pn_lazy_succ(z, s, &succ, &k, &err), PN_OK) << err.msg;
        Mk m(3);
        pn_space_marking(pn_lazy_space(z), pn_lazy_state(z, s), m.data());
        EXPECT_TRUE(seen.insert(m).second);
        if (k == 0)
            dead = s;
        if (m == Mk{1, 1, 1})
            s111 = s;
        if (m == Mk{3, 0, 0})
            s300 = s;
    }
    EXPECT_EQ(seen, (std::set<Mk>{{2, 0, 1}, {1, 1, 1}, {0, 2, 1}, {3, 0, 0}, {2, 1, 0},
                                  {1, 2, 0}, {0, 3, 0}}));
    EXPECT_EQ(pn_lazy_edges(z), 10u);
    EXPECT_EQ(pn_space_place_field(pn_lazy_space(z), 1).width, 2u); // widened once
    ASSERT_NE(dead, UINT32_MAX);
    EXPECT_EQ(pn_lazy_enabled(z, dead), 0u);
    ASSERT_NE(s111, UINT32_MAX);
    ASSERT_NE(s300, UINT32_MAX);
    EXPECT_EQ(pn_lazy_trans(z, s111, s300), 1u);
    EXPECT_EQ(pn_lazy_trans(z, s300, s111), UINT32_MAX);

    // Labels: "p1 >= 2" and deadlock, evaluated into one letter.
    uint32_t p1 = 1;
    pn_fml_node *atoms[2] = {
        pn_fml_binary(PN_FML_INT_LE, pn_fml_const(2), pn_fml_list(PN_FML_TOKENS, &p1, 1)),
        pn_fml_leaf(PN_FML_DEADLOCK)};
    pn_space_atoms *a = nullptr;
    ASSERT_EQ(pn_space_atoms_new(pn_lazy_space(z), atoms, 2, &a, &err), PN_OK) << err.msg;
    EXPECT_TRUE(pn_space_atoms_need_enabled(a));
    ASSERT_EQ(pn_space_atoms_words(a), 1u);
    uint64_t letter = 0;
    pn_space_atoms_eval(a, pn_lazy_state(z, dead), 0, &letter);
    EXPECT_EQ(letter, 3u);
    pn_space_atoms_eval(a, pn_lazy_state(z, s111), pn_lazy_enabled(z, s111), &letter);
    EXPECT_EQ(letter, 0u);
    pn_space_atoms_free(a);
    pn_fml_free(atoms[0]);
    pn_fml_free(atoms[1]);
    pn_lazy_free(z);
}

// Over the P/T net itself (pn_space_defers), an expansion lists the
// enabled transitions and makes a successor's state only when asked for:
// from {2,0,1}, t0, t2 and t3 are enabled; entry 0 (t0) makes {1,1,1},
// entry 1 (t2, a self-loop) finds {2,0,1} again, entry 2 (t3) makes
// {2,1,1}; t3 three times widens p1 on the way (a 1-bit field at first).
TEST(SpaceLazy, DefersEachSuccessorUntilAskedFor)
{
    Net n;
    pn_error err;
    pn_error_clear(&err);
    pn_lazy *z = nullptr;
    ASSERT_EQ(pn_lazy_new(n.cn.get(), 0, &z, &err), PN_OK) << err.msg;
    std::unique_ptr<pn_lazy, void (*)(pn_lazy *)> own(z, pn_lazy_free);
    EXPECT_TRUE(pn_space_defers(pn_lazy_space(z)));
    uint32_t deg = 0, id = 0;
    ASSERT_EQ(pn_lazy_degree(z, 0, &deg, &err), PN_OK);
    EXPECT_EQ(deg, 3u);
    EXPECT_EQ(pn_lazy_states(z), 1u); // listed, nothing fired
    EXPECT_EQ(pn_lazy_edges(z), 0u);
    ASSERT_NE(pn_lazy_succ_trans(z, 0), nullptr);
    EXPECT_EQ(pn_lazy_succ_trans(z, 0)[0], 0u);
    EXPECT_EQ(pn_lazy_succ_trans(z, 0)[1], 2u);
    EXPECT_EQ(pn_lazy_succ_trans(z, 0)[2], 3u);
    auto mk = [&](uint32_t s) {
        Mk m(3);
        pn_space_marking(pn_lazy_space(z), pn_lazy_state(z, s), m.data());
        return m;
    };
    ASSERT_EQ(pn_lazy_succ_at(z, 0, 0, &id, &err), PN_OK);
    EXPECT_EQ(id, 1u);
    EXPECT_EQ(mk(1), (Mk{1, 1, 1}));
    EXPECT_EQ(pn_lazy_states(z), 2u);
    EXPECT_EQ(pn_lazy_edges(z), 1u);
    EXPECT_FALSE(pn_lazy_complete(z));
    ASSERT_EQ(pn_lazy_succ_at(z, 0, 1, &id, &err), PN_OK);
    EXPECT_EQ(id, 0u);
    const uint32_t *succ = nullptr;
    ASSERT_EQ(pn_lazy_succ(z, 0, &succ, &deg, &err), PN_OK);
    ASSERT_EQ(deg, 3u);
    EXPECT_EQ(succ[0], 1u);
    EXPECT_EQ(succ[1], 0u);
    EXPECT_EQ(succ[2], 2u);
    EXPECT_EQ(mk(2), (Mk{2, 1, 1}));
    EXPECT_EQ(pn_lazy_edges(z), 3u);
    uint32_t s = 2;
    for (int k = 0; k < 2; k++) { // t3 is the last entry of {2,p1,1}: t0, t1, t2, t3
        ASSERT_EQ(pn_lazy_degree(z, s, &deg, &err), PN_OK);
        ASSERT_EQ(pn_lazy_succ_trans(z, s)[deg - 1], 3u);
        ASSERT_EQ(pn_lazy_succ_at(z, s, deg - 1, &s, &err), PN_OK) << err.msg;
    }
    EXPECT_EQ(mk(s), (Mk{2, 3, 1}));
    EXPECT_GE(pn_lazy_widenings(z), 1u);
    EXPECT_EQ(mk(1), (Mk{1, 1, 1})); // the stored states survive the repacking
}
