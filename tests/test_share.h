// How many random nets the long random comparisons run. The release stage runs
// them all; the sanitizer builds (a Debug build under ASan, or TSan: 5 to 20
// times slower) run a quarter, with the same seeds, so that CI's sanitizer
// stages still cross every rule and method on random nets within their time.
// PETREL_TEST_RANDOM_SHARE set at compile time overrides the share (a release
// build with 4 checks that the thresholds hold for the sanitizer stages).
#ifndef PETREL_TEST_SHARE_H
#define PETREL_TEST_SHARE_H

#include <cstdint>

namespace petrel_test {

#if defined(PETREL_TEST_RANDOM_SHARE)
constexpr uint32_t kRandomShare = PETREL_TEST_RANDOM_SHARE;
#elif defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr uint32_t kRandomShare = 4;
#else
constexpr uint32_t kRandomShare = 1;
#endif

// n nets (or a count expected of n nets) in this build: n / kRandomShare, at least 1.
constexpr uint32_t random_share(uint32_t n)
{
    return n / kRandomShare > 0 ? n / kRandomShare : 1;
}

// The examination oracle tests (test_oracle_check.cpp) under ASan: one
// (instance, examination) pair in kOracleShare, rotating with the row so that
// every examination and every instance still runs; the release stage runs them
// all. TSan keeps them all: its stage names its five instances itself.
#if defined(__SANITIZE_ADDRESS__)
constexpr uint32_t kOracleShare = 4;
#else
constexpr uint32_t kOracleShare = 1;
#endif

} // namespace petrel_test

#endif
