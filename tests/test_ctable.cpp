// The compact table (kernels/pn_ctable.h): one-word markings stored in the
// slots themselves, any slot count (not only powers of two), lock-free
// inserts. Single-threaded edge cases and a 4-thread exact-union stress
// test that also runs under TSan.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <random>
#include <set>
#include <thread>
#include <vector>

extern "C" {
#include "pn_ctable.h"
#include "pn_state.h"
}

namespace {

uint64_t hash1(uint64_t s) { return pn_state_hash(&s, 1); }

// A table over a vector of slots and its zero flag.
struct Table {
    std::vector<uint64_t> slots;
    uint64_t zero = 0;
    pn_ctable t;
    explicit Table(uint64_t n) : slots(n, 0), t{slots.data(), n, &zero} {}
    int insert(uint64_t s) { return pn_ctable_insert(&t, s, hash1(s)); }
    int insert(uint64_t s, uint64_t h) { return pn_ctable_insert(&t, s, h); }
};

// The markings in the table: every full slot a distinct one, plus zero.
std::set<uint64_t> contents(const Table &t)
{
    std::set<uint64_t> keys;
    for (uint64_t k : t.slots) {
        if (k != 0) {
            EXPECT_TRUE(keys.insert(k).second) << "key stored twice";
        }
    }
    if (t.zero)
        keys.insert(0);
    return keys;
}

} // namespace

TEST(CTable, HomeIsAlwaysInRange)
{
    std::mt19937_64 rng(5);
    for (uint64_t n : {1ULL, 2ULL, 3ULL, 1000ULL, 1237ULL, (1ULL << 40) + 7}) {
        EXPECT_LT(pn_ctable_home(UINT64_MAX, n), n);
        EXPECT_EQ(pn_ctable_home(0, n), 0u);
        for (int i = 0; i < 1000; i++)
            ASSERT_LT(pn_ctable_home(rng(), n), n);
    }
    // The high bits choose the slot: h = 2^63 is the middle of the table.
    EXPECT_EQ(pn_ctable_home(1ULL << 63, 1000), 500u);
}

TEST(CTable, InsertNewThenOldIncludingZeroAndAllOnes)
{
    Table t(37);
    const std::vector<uint64_t> keys = {0, 1, UINT64_MAX, 12345};
    for (uint64_t s : keys)
        EXPECT_EQ(t.insert(s), 1) << s;
    for (uint64_t s : keys)
        EXPECT_EQ(t.insert(s), 0) << s;
    EXPECT_EQ(t.zero, 1u) << "the zero marking lives in the flag";
    EXPECT_EQ(contents(t), std::set<uint64_t>(keys.begin(), keys.end()));
    EXPECT_EQ(std::count(t.slots.begin(), t.slots.end(), 0u), 34) << "3 slots used";
}

TEST(CTable, ProbingWrapsAroundAnOddSizedTable)
{
    // Every key hashes to the last slot of 7: the chain wraps to slot 0.
    Table t(7);
    for (uint64_t s = 1; s <= 6; s++)
        ASSERT_EQ(t.insert(s, UINT64_MAX), 1);
    for (uint64_t s = 1; s <= 6; s++)
        ASSERT_EQ(t.insert(s, UINT64_MAX), 0);
    EXPECT_EQ(t.slots[6], 1u);
    EXPECT_EQ(t.slots[0], 2u);
    EXPECT_EQ(t.slots[5], 0u) << "one slot stays empty";
    EXPECT_EQ(contents(t).size(), 6u);
}

TEST(CTable, ReinsertIntoABiggerTableKeepsEveryKey)
{
    Table small(1000), big(1601);
    big.t.has_zero = small.t.has_zero; // growing keeps the flag
    for (uint64_t s = 0; s < 800; s++)
        ASSERT_EQ(small.insert(s * 977), 1);
    for (uint64_t k : small.slots)
        if (k != 0)
            pn_ctable_reinsert(&big.t, k, hash1(k));
    EXPECT_EQ(std::count(big.slots.begin(), big.slots.end(), 0u), 1601 - 799);
    for (uint64_t s = 0; s < 800; s++)
        ASSERT_EQ(big.insert(s * 977), 0);
    EXPECT_EQ(big.insert(5), 1);
}

namespace {

// 4 threads insert overlapping key ranges twice each, released together:
// the table must end up with exactly the union, and exactly one insert per
// key may report it new.
void concurrent(uint64_t per_thread, uint64_t stride, uint64_t n_slots,
                uint64_t (*hash)(uint64_t), unsigned seed)
{
    const unsigned n_threads = 4;
    const uint64_t n_union = stride * (n_threads - 1) + per_thread;
    Table tab(n_slots);
    std::vector<std::atomic<unsigned>> news(n_union);
    std::atomic<unsigned> ready{0};
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < n_threads; i++)
        threads.emplace_back([&, i] {
            std::vector<uint64_t> keys;
            for (uint64_t k = 0; k < per_thread; k++)
                keys.push_back(i * stride + k);
            std::mt19937_64 rng(seed * 10 + i);
            std::shuffle(keys.begin(), keys.end(), rng);
            std::vector<uint64_t> again = keys;
            std::shuffle(again.begin(), again.end(), rng);
            keys.insert(keys.end(), again.begin(), again.end());
            ready.fetch_add(1);
            while (ready.load() < n_threads) {
            }
            for (uint64_t k : keys)
                if (tab.insert(k, hash(k)))
                    news[k].fetch_add(1);
        });
    for (auto &t : threads)
        t.join();
    std::set<uint64_t> got = contents(tab);
    ASSERT_EQ(got.size(), n_union);
    EXPECT_EQ(*got.rbegin(), n_union - 1);
    for (uint64_t k = 0; k < n_union; k++)
        ASSERT_EQ(news[k].load(), 1u) << "key " << k;
}

uint64_t clustered(uint64_t k) { return (k % 8) << 60; }

} // namespace

TEST(CTableConcurrent, FourThreadsOverlappingKeysAtLoadFourFifths)
{
    // 150000 keys in 187501 slots: the engine's 4/5 load limit.
    for (unsigned seed = 1; seed <= 3; seed++)
        concurrent(60000, 30000, 187501, hash1, seed);
}

TEST(CTableConcurrent, FourThreadsSameKeys)
{
    concurrent(40000, 0, 65537, hash1, 4);
}

TEST(CTableConcurrent, FourThreadsClusteredHashes)
{
    // 8 home slots for every key: long shared probe chains.
    concurrent(1200, 400, 3001, clustered, 7);
}
