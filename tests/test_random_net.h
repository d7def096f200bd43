// Random bounded nets for tests that compare a method with full enumeration
// (test_engine.cpp, test_linear.cpp, test_gpu_check.cpp): one generator instead of a copy each.
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

// Nets whose runs are all finite: places weigh 1 to 3, and each transition
// produces less weight than it consumes, so the weighted token sum is a
// ranking function (pn_linear_terminates must find one, maybe another).
inline RandomNetSpec random_terminating_spec(std::mt19937_64 &rng, uint32_t P, uint32_t T)
{
    std::uniform_int_distribution<uint32_t> place(0, P - 1), w(1, 3);
    std::vector<uint64_t> weight(P);
    RandomNetSpec s;
    s.m0.resize(P);
    s.n_trans = T;
    for (uint32_t p = 0; p < P; p++) {
        weight[p] = w(rng);
        s.m0[p] = rng() % 4;
    }
    for (uint32_t t = 0; t < T; t++) {
        uint64_t in = 0;
        uint32_t n_in = 1 + (uint32_t)(rng() % 2);
        for (uint32_t i = 0; i < n_in; i++) {
            uint32_t p = place(rng);
            uint64_t x = w(rng);
            s.arcs.push_back({p, t, true, x});
            in += x * weight[p];
        }
        uint64_t left = in - 1; // strictly less weight out
        for (int tries = 0; tries < 4 && left > 0; tries++) {
            uint32_t p = place(rng);
            uint64_t x = std::min<uint64_t>(w(rng), left / weight[p]);
            if (x > 0) {
                s.arcs.push_back({p, t, false, x});
                left -= x * weight[p];
            }
        }
    }
    return s;
}

// N independent counters: c tokens move one by one between two places and
// back, (c + 1)^N states.
inline RandomNetSpec counters_spec(uint32_t N, uint64_t c)
{
    RandomNetSpec s;
    s.n_trans = 2 * N;
    for (uint32_t i = 0; i < N; i++) {
        s.m0.push_back(c);
        s.m0.push_back(0);
        s.arcs.push_back({2 * i, 2 * i, true, 1});
        s.arcs.push_back({2 * i + 1, 2 * i, false, 1});
        s.arcs.push_back({2 * i + 1, 2 * i + 1, true, 1});
        s.arcs.push_back({2 * i, 2 * i + 1, false, 1});
    }
    return s;
}

#endif
