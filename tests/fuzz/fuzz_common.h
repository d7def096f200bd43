/* Shared by the fuzz targets (tests/fuzz/fuzz_*.c) and the regression test
 * that replays saved inputs through them (tests/test_fuzz_regressions.cpp,
 * which includes the targets with PETREL_FUZZ_NO_ENTRY defined). The targets
 * are written in the common subset of C11 and C++17 for that reason. */
#ifndef PETREL_FUZZ_COMMON_H
#define PETREL_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>

/* A broken contract of the code under test (not a malformed input, which is
 * fine). The fuzzer aborts so that libFuzzer saves the input; the regression
 * test defines its own PETREL_FUZZ_FAIL to record a test failure instead. */
#ifndef PETREL_FUZZ_FAIL
#define PETREL_FUZZ_FAIL(what)                                              \
    do {                                                                    \
        fprintf(stderr, "fuzz: contract broken: %s (%s:%d)\n", (what),      \
                __FILE__, __LINE__);                                        \
        abort();                                                            \
    } while (0)
#endif

#define PETREL_FUZZ_CHECK(cond)                                             \
    do {                                                                    \
        if (!(cond))                                                        \
            PETREL_FUZZ_FAIL(#cond);                                        \
    } while (0)

#endif
