// Tree compression (kernels/pn_treestore.h) on the CPU: the shape, exact
// round trips, the batched incremental encoding against the plain one, and
// 4 threads encoding overlapping vectors at once (also under TSan).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <vector>

extern "C" {
#include "pn_treestore.h"
}

namespace {

// A tree store over vectors of W words with room for `cap` nodes (at most
// 3/4 of the slots, whose count is no power of two).
struct Store {
    std::vector<uint32_t> kid, up, round_end, lvl, slots, pair;
    std::vector<uint64_t> nodes;
    uint64_t count = 0;
    pn_tstore t;
    Store(uint32_t W, uint64_t cap)
        : kid(2 * W), up(2 * W), round_end(34), lvl(W), slots(cap / 2 * 3 + 9),
          pair(cap / 32 + 1), nodes(cap)
    {
        t = pn_tstore{};
        pn_tstore_shape(&t, W, kid.data(), up.data(), round_end.data(), lvl.data());
        pn_tnodes_reset(&t.nodes, slots.data(), slots.size());
        t.nodes.store = nodes.data();
        t.nodes.pair = pair.data();
        t.nodes.count = &count;
    }
    uint64_t encode(const std::vector<uint64_t> &s)
    {
        std::vector<uint32_t> refs(2 * t.words);
        return pn_tstore_encode(&t, s.data(), refs.data());
    }
    std::vector<uint64_t> decode(uint64_t key)
    {
        std::vector<uint64_t> s(t.words);
        std::vector<uint32_t> refs(2 * t.words);
        pn_tstore_decode(&t, key, refs.data(), s.data());
        return s;
    }
};

// Vectors whose words repeat (as markings' sub-vectors do) and sometimes
// are zero.
std::vector<uint64_t> random_vector(std::mt19937_64 &rng, uint32_t W)
{
    std::vector<uint64_t> s(W);
    for (auto &w : s)
        w = rng() % 4 == 0 ? 0 : rng() % 6;
    return s;
}

} // namespace

TEST(TreeStore, ShapeIsABinaryTreeBuiltBottomUp)
{
    for (uint32_t W = 2; W <= 100; W++) {
        SCOPED_TRACE("W " + std::to_string(W));
        Store st(W, 1);
        const pn_tstore &t = st.t;
        uint32_t depth = 0;
        while ((1u << depth) < W)
            depth++;
        EXPECT_EQ(t.depth, depth);
        std::vector<int> parents(2 * W - 1, 0);
        for (uint32_t i = 0; i + 1 < W; i++)
            for (uint32_t c : {t.kid[2 * i], t.kid[2 * i + 1]}) {
                ASSERT_LT(c, W + i) << "a child after its parent";
                parents[c]++;
                EXPECT_EQ(t.up[c], W + i);
            }
        for (uint32_t p = 0; p + 1 < 2 * W - 1; p++)
            EXPECT_EQ(parents[p], 1) << "position " << p;
        EXPECT_EQ(parents[2 * W - 2], 0) << "the root";
        EXPECT_EQ(t.round_end[0], W);
        EXPECT_EQ(t.round_end[t.depth], 2 * W - 1);
        for (uint32_t r = 1; r <= t.depth; r++) {
            EXPECT_LT(t.round_end[r - 1], t.round_end[r]);
            for (uint32_t p = t.round_end[r - 1]; p < t.round_end[r]; p++) // children earlier
                EXPECT_LT(t.kid[2 * (p - W) + 1], t.round_end[r - 1]);
        }
    }
}

TEST(TreeStore, KeysAreExactAndDecodeBack)
{
    std::mt19937_64 rng(8);
    for (uint32_t W : {2u, 3u, 5u, 8u, 33u}) {
        SCOPED_TRACE("W " + std::to_string(W));
        Store st(W, 200000);
        std::map<std::vector<uint64_t>, uint64_t> key_of;
        std::set<uint64_t> keys;
        for (int i = 0; i < 3000; i++) {
            std::vector<uint64_t> s = random_vector(rng, W);
            uint64_t k = st.encode(s);
            auto it = key_of.find(s);
            if (it != key_of.end()) {
                ASSERT_EQ(it->second, k) << "one vector, two keys";
            } else {
                ASSERT_TRUE(keys.insert(k).second) << "two vectors, one key";
            }
            key_of[s] = k;
            ASSERT_EQ(st.decode(k), s);
        }
        if (W >= 5) { // 7^W vectors to draw from
            EXPECT_GT(key_of.size(), 1500u);
        }
        // Shared sub-vectors: far fewer nodes than words stored.
        EXPECT_LT(st.count, key_of.size() * (2 * W - 2) / 2);
    }
}

TEST(TreeStore, BatchedIncrementalEncodingMatchesThePlainOne)
{
    std::mt19937_64 rng(21);
    uint32_t max_round = 0; // lookups in one round of one batch, at most
    for (uint32_t W : {2u, 3u, 7u, 16u, 45u}) {
        SCOPED_TRACE("W " + std::to_string(W));
        Store st(W, 400000);
        const uint32_t R = 2 * W - 1, D = 2 * W - 2;
        for (int round = 0; round < 200; round++) {
            std::vector<uint64_t> parent = random_vector(rng, W);
            std::vector<uint32_t> prefs(R);
            uint64_t pkey = pn_tstore_encode(&st.t, parent.data(), prefs.data());
            uint32_t n = 1 + (uint32_t)(rng() % PN_TSTORE_BATCH_MAX);
            std::vector<uint64_t> succ((size_t)n * W), keys(n);
            std::vector<uint32_t> refs((size_t)n * R), dirty((size_t)n * D), n_dirty(n);
            std::vector<const uint32_t *> dirty_of(n);
            std::vector<uint32_t> per_round(st.t.depth + 1, 0);
            std::vector<uint8_t> flag(R, 0);
            for (uint32_t i = 0; i < n; i++) {
                uint64_t *s = succ.data() + (size_t)i * W;
                for (uint32_t w = 0; w < W; w++)
                    s[w] = parent[w];
                // 0 to 3 words written (maybe with the value they had: a
                // listed word need not change); on wide markings up to 12,
                // so that a round's lookups can pass one chunk (PN_TSTORE_CHUNK)
                std::vector<uint32_t> written;
                for (uint32_t c = (uint32_t)(rng() % (W >= 16 ? 13 : 4)); c-- > 0;) {
                    written.push_back((uint32_t)(rng() % W));
                    s[written.back()] = rng() % 6;
                }
                uint32_t *d = dirty.data() + (size_t)i * D;
                n_dirty[i] = pn_tstore_above(&st.t, written.data(), (uint32_t)written.size(),
                                             flag.data(), d);
                dirty_of[i] = d;
                for (uint32_t j = 0; j + 1 < R; j++) // the parent's refs, dirty ones too
                    refs[(size_t)i * R + j] = prefs[j];
                for (uint32_t j = 0; j < n_dirty[i]; j++) {
                    const uint32_t p = d[j] & PN_TSTORE_POS;
                    ASSERT_TRUE(j == 0 || (d[j - 1] & PN_TSTORE_POS) < p) << "increasing";
                    ASSERT_LT(p, R - 1) << "the root is the key";
                    uint32_t r = 0;
                    while (p >= st.t.round_end[r])
                        r++;
                    per_round[r]++;
                }
                ASSERT_TRUE(std::all_of(flag.begin(), flag.end(), [](uint8_t f) { return f == 0; }));
            }
            for (uint32_t r : per_round)
                max_round = std::max(max_round, r);
            pn_tstore_encode_batch(&st.t, n, succ.data(), refs.data(), dirty_of.data(),
                                   n_dirty.data(), keys.data());
            for (uint32_t i = 0; i < n; i++) {
                std::vector<uint64_t> s(succ.begin() + (size_t)i * W,
                                        succ.begin() + (size_t)(i + 1) * W);
                ASSERT_EQ(keys[i], st.encode(s)) << "successor " << i;
                if (s == parent) {
                    ASSERT_EQ(keys[i], pkey);
                }
            }
            // Decoding in a batch gives the words and the refs of one at a time.
            std::vector<uint64_t> back((size_t)n * W);
            std::vector<uint32_t> brefs((size_t)n * R);
            pn_tstore_decode_batch(&st.t, n, keys.data(), brefs.data(), back.data());
            ASSERT_EQ(back, succ);
            for (uint32_t i = 0; i < n; i++) {
                std::vector<uint32_t> r1(R);
                std::vector<uint64_t> s1(W);
                pn_tstore_decode(&st.t, keys[i], r1.data(), s1.data());
                for (uint32_t p = 0; p + 1 < R; p++)
                    ASSERT_EQ(brefs[(size_t)i * R + p], r1[p]);
            }
        }
    }
    EXPECT_GT(max_round, (uint32_t)PN_TSTORE_CHUNK) << "no round passed one chunk";
}

TEST(TreeStore, OneWordIsItsOwnKey)
{
    Store st(1, 1);
    uint64_t s = 0x1234;
    uint32_t refs[1];
    EXPECT_EQ(pn_tstore_encode(&st.t, &s, refs), 0x1234u);
    uint64_t back = 0;
    pn_tstore_decode(&st.t, 0x1234, refs, &back);
    EXPECT_EQ(back, 0x1234u);
    EXPECT_EQ(st.count, 0u);
}

TEST(TreeStore, ThreadsEncodingAtOnceAgreeOnEveryKey)
{
    // Four threads encode the same 4000 vectors in different orders; every
    // vector gets one key in all of them, and no node is stored twice.
    const uint32_t W = 6;
    std::mt19937_64 rng(99);
    std::vector<std::vector<uint64_t>> vs;
    for (int i = 0; i < 4000; i++)
        vs.push_back(random_vector(rng, W));
    Store st(W, 100000);
    std::vector<std::vector<uint64_t>> keys(4, std::vector<uint64_t>(vs.size()));
    std::vector<std::thread> th;
    for (uint32_t k = 0; k < 4; k++)
        th.emplace_back([&, k] {
            std::vector<uint32_t> refs(2 * W);
            for (size_t j = 0; j < vs.size(); j++) {
                size_t i = k % 2 ? vs.size() - 1 - j : (j * 7 + k) % vs.size();
                keys[k][i] = pn_tstore_encode(&st.t, vs[i].data(), refs.data());
            }
        });
    for (auto &t : th)
        t.join();
    for (size_t i = 0; i < vs.size(); i++)
        for (uint32_t k = 1; k < 4; k++)
            ASSERT_EQ(keys[k][i], keys[0][i]) << "vector " << i;
    // A value may be stored twice only as nodes of the two kinds.
    std::set<std::pair<uint64_t, uint32_t>> distinct;
    for (uint32_t r = 0; r < st.count; r++)
        distinct.insert({st.nodes[r], pn_tnodes_is_pair(&st.t.nodes, r)});
    EXPECT_EQ(distinct.size(), st.count) << "a node stored twice";
    for (size_t i = 0; i < vs.size(); i++)
        ASSERT_EQ(st.decode(keys[0][i]), vs[i]);
}

TEST(TreeStore, NodeSetKeepsRefsAcrossGrowthAtThreeQuartersLoad)
{
    // The 32-bit-slot node set (pn_tnodes) filled to 3/4 of a slot count
    // that is no power of two, then moved to 3/2 of that as the engine
    // grows it: every value keeps the ref it got, found again by value.
    std::mt19937_64 rng(5);
    for (uint64_t n : {1000ull, 4099ull, 98304ull}) {
        SCOPED_TRACE("slots " + std::to_string(n));
        const uint64_t fill = n / 4 * 3;
        std::vector<uint32_t> slots(n), big(n / 2 * 3);
        std::vector<uint64_t> store(fill), vals;
        std::vector<uint32_t> pair(fill / 32 + 1); // every node found by value
        uint64_t count = 0;
        pn_tnodes t{};
        pn_tnodes_reset(&t, slots.data(), n);
        t.store = store.data();
        t.pair = pair.data();
        t.count = &count;
        EXPECT_GE((uint64_t)t.ref_mask, n - 1);
        EXPECT_LT((uint64_t)t.ref_mask, 2 * n);
        std::map<uint64_t, uint32_t> ref_of;
        while (ref_of.size() < fill) {
            // small values (as leaves are) and pairs of refs (as inner nodes)
            uint64_t v = rng() % 2 ? rng() % (fill * 2) : (rng() % fill) << 32 | (rng() % fill);
            uint32_t r = pn_tnodes_insert(&t, v, pn_tnodes_hash(v), 0);
            auto it = ref_of.find(v);
            if (it != ref_of.end())
                ASSERT_EQ(r, it->second) << "one value, two refs";
            else
                ASSERT_EQ(r, ref_of.size()) << "refs are handed out in order";
            ref_of[v] = r;
        }
        ASSERT_EQ(count, fill);
        for (uint64_t i = 0; i < fill; i++)
            ASSERT_EQ(ref_of.at(store[i]), i);
        pn_tnodes_reset(&t, big.data(), big.size());
        for (uint32_t r = 0; r < fill; r++)
            pn_tnodes_reinsert(&t, r, pn_tnodes_hash_of(&t, r));
        for (const auto &[v, r] : ref_of)
            ASSERT_EQ(pn_tnodes_insert(&t, v, pn_tnodes_hash(v), 0), r);
        EXPECT_EQ(count, fill) << "a value inserted again after the growth";
    }
}

TEST(TreeStore, PairNodesAreFoundByTheirWordsAcrossGrowth)
{
    // Words of 0 .. 5 make leaf words, pairs' stored refs and upper pairs
    // equal values often, so nodes of the two kinds share values. After the
    // slots are rebuilt (each ref reinserted by the hash it is found by),
    // every vector gets the key it had, found again without a new node, by
    // the plain and the batched encoding alike.
    std::mt19937_64 rng(77);
    for (uint32_t W : {3u, 4u, 9u}) {
        SCOPED_TRACE("W " + std::to_string(W));
        Store st(W, 60000);
        std::vector<std::vector<uint64_t>> vs;
        std::vector<uint64_t> keys;
        for (int i = 0; i < 2000; i++) {
            vs.push_back(random_vector(rng, W));
            keys.push_back(st.encode(vs.back()));
        }
        uint32_t pairs = 0, shared_values = 0;
        std::map<uint64_t, uint32_t> kinds; // value -> kinds seen (bit 0 value, bit 1 pair)
        for (uint32_t r = 0; r < st.count; r++) {
            const uint32_t k = pn_tnodes_is_pair(&st.t.nodes, r);
            pairs += k;
            kinds[st.nodes[r]] |= 1u << k;
        }
        for (const auto &[v, k] : kinds)
            shared_values += k == 3;
        EXPECT_GT(pairs, 0u);
        EXPECT_GT(shared_values, 0u) << "no value stored as both kinds: the test proves little";
        const uint64_t nodes = st.count;
        std::vector<uint32_t> big(st.slots.size() * 2 + 1);
        pn_tnodes_reset(&st.t.nodes, big.data(), big.size());
        for (uint32_t r = 0; r < nodes; r++)
            pn_tnodes_reinsert(&st.t.nodes, r, pn_tnodes_hash_of(&st.t.nodes, r));
        const uint32_t R = 2 * W - 1;
        std::vector<uint32_t> all(W), d(R), refs(R);
        std::vector<uint8_t> flag8(R, 0);
        for (uint32_t w = 0; w < W; w++)
            all[w] = w;
        const uint32_t nd = pn_tstore_above(&st.t, all.data(), W, flag8.data(), d.data());
        for (size_t i = 0; i < vs.size(); i++) {
            ASSERT_EQ(st.encode(vs[i]), keys[i]) << "vector " << i;
            const uint32_t *dl = d.data();
            uint64_t key = 0;
            pn_tstore_encode_batch(&st.t, 1, vs[i].data(), refs.data(), &dl, &nd, &key);
            ASSERT_EQ(key, keys[i]) << "vector " << i << ", batched";
        }
        EXPECT_EQ(st.count, nodes) << "a node inserted again after the growth";
    }
}
