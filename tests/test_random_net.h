// Random bounded nets for tests that compare a method with full enumeration
// (test_engine.cpp, test_linear.cpp): one generator instead of a copy each.
#ifndef PETREL_TEST_RANDOM_NET_H
#define PETREL_TEST_RANDOM_NET_H

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

struct RandomArc {
    uint32_t place, trans;
    bool to_trans;
    uint64_t weight;
};

struct RandomNetSpec {
    std::vector<uint64_t> m0;
    uint32_t n_trans = 0;
    std::vector<RandomArc> arcs;
};

// Transitions never produce more tokens than they consume (so the net is
// bounded by the initial token count), with parallel arcs, self-loops and
// weights up to 3.
inline RandomNetSpec random_bounded_spec(std::mt19937_64 &rng, uint32_t P, uint32_t T)
{
    std::uniform_int_distribution<uint32_t> place(0, P - 1), w(1, 3);
    RandomNetSpec s;
    s.m0.resize(P);
    s.n_trans = T;
    for (auto &v : s.m0)
        v = rng() % 5;
    for (uint32_t t = 0; t < T; t++) {
        uint64_t in = 0;
        uint32_t n_in = 1 + (uint32_t)(rng() % 2);
        for (uint32_t i = 0; i < n_in; i++) {
            uint64_t x = w(rng);
            s.arcs.push_back({place(rng), t, true, x});
            in += x;
        }
        while (in > 0 && rng() % 8 != 0) {
            uint64_t x = std::min<uint64_t>(in, w(rng));
            s.arcs.push_back({place(rng), t, false, x});
            in -= x;
        }
    }
    return s;
}

#endif
