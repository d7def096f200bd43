/* libFuzzer target: the RERS property reader (host/io/rers_parse.c) and the
 * action-based checkers it feeds (pn_rers_check: LTL with letters on steps,
 * CTL with edge atoms) on arbitrary bytes, over a fixed system built in
 * code through the LTS-to-net encoding (host/net/lts.c; no Graphviz).
 *
 *   FUZZ_TARGETS=rers tools/fuzz/run.sh [seconds]
 *
 * Each line of the input is one property, read as AUTO, LTL and CTL. Beyond
 * "no crash, leak or undefined behaviour": a reading gives a formula xor a
 * message; an LTL root is A(psi); the two readings that succeed give the
 * same verdict as AUTO's for its logic; a check answers, or says the
 * formula is unsupported, or stops at the budget, nothing else. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"
#include "petrel/cnet.h"
#include "petrel/rers.h"

typedef struct petrel_fuzz_rers_env {
    pn_net *net;
    pn_cnet *cn;
} petrel_fuzz_rers_env;

/* Two LTSs: P 0 -a-> 1 -b-> 0, 1 -tau-> 0; Q 0 -b-> 1 -c-> 0, 1 -c-> 1.
 * Labels a b c; b synchronises; a deadlock-free system with an internal
 * step. */
static const petrel_fuzz_rers_env *petrel_fuzz_rers_setup(void)
{
    static petrel_fuzz_rers_env env;
    static int ready = 0;
    if (ready)
        return &env;
    static char name_p[] = "P", name_q[] = "Q", s0[] = "0", s1[] = "1";
    static char la[] = "a", lb[] = "b", lc[] = "c";
    static char *states[2] = {s0, s1};
    static char *labels[3] = {la, lb, lc};
    static pn_lts_edge ep[3] = {{0, 1, 0}, {1, 0, 1}, {1, 0, PN_LTS_INTERNAL}};
    static pn_lts_edge eq[3] = {{0, 1, 1}, {1, 0, 2}, {1, 1, 2}};
    static pn_lts lts[2] = {{name_p, 2, 0, states, 3, ep}, {name_q, 2, 0, states, 3, eq}};
    pn_lts_system sys = {2, 3, lts, labels};
    pn_error err = {PN_OK, {0}};
    if (pn_lts_to_net(&sys, &env.net, &err) != PN_OK ||
        pn_cnet_compile(env.net, &env.cn, &err) != PN_OK) {
        fprintf(stderr, "fuzz_rers: setup failed: %s\n", err.msg);
        abort();
    }
    ready = 1;
    return &env;
}

/* 1 true, 0 false, -1 no answer (unsupported, budget). */
static int petrel_fuzz_rers_check(const petrel_fuzz_rers_env *env, const pn_rers_prop *p)
{
    pn_lazy *z = NULL;
    pn_error err = {PN_OK, {0}};
    PETREL_FUZZ_CHECK(pn_rers_space(env->cn, 64u << 20, &z, &err) == PN_OK);
    pn_budget budget = pn_budget_make(5.0, NULL, 64u << 20);
    pn_ltl_lasso lasso;
    bool value = false;
    pn_status st = pn_rers_check(z, p, &budget, &value, &lasso, &err);
    PETREL_FUZZ_CHECK(st == PN_OK || st == PN_ERR_UNSUPPORTED || st == PN_ERR_TIMEOUT ||
                      st == PN_ERR_OUT_OF_MEMORY);
    PETREL_FUZZ_CHECK(st == PN_OK || err.msg[0] != '\0');
    if (st == PN_OK && lasso.trans != NULL)
        for (uint64_t k = 0; k < lasso.prefix + lasso.cycle; k++)
            PETREL_FUZZ_CHECK(lasso.trans[k] < env->net->n_transitions);
    pn_ltl_lasso_free(&lasso);
    pn_lazy_free(z);
    return st == PN_OK ? value : -1;
}

static void petrel_fuzz_rers_line(const petrel_fuzz_rers_env *env, const char *text)
{
    static const pn_rers_logic logics[3] = {PN_RERS_AUTO, PN_RERS_LTL, PN_RERS_CTL};
    int verdict[3] = {-2, -2, -2};
    pn_rers_logic auto_logic = PN_RERS_AUTO;
    for (int i = 0; i < 3; i++) {
        pn_rers_prop p;
        pn_error err = {PN_OK, {0}};
        pn_status st = pn_rers_parse(text, env->net, logics[i], &p, &err);
        PETREL_FUZZ_CHECK(st == PN_OK || st == PN_ERR_INPUT);
        PETREL_FUZZ_CHECK((st == PN_OK) == (p.root != NULL));
        if (st != PN_OK) {
            PETREL_FUZZ_CHECK(err.msg[0] != '\0');
            continue;
        }
        PETREL_FUZZ_CHECK(p.logic == PN_RERS_LTL || p.logic == PN_RERS_CTL);
        PETREL_FUZZ_CHECK(logics[i] == PN_RERS_AUTO || p.logic == logics[i]);
        PETREL_FUZZ_CHECK(p.logic != PN_RERS_LTL || p.root->kind == PN_FML_A);
        if (i == 0)
            auto_logic = p.logic;
        verdict[i] = petrel_fuzz_rers_check(env, &p);
        pn_rers_prop_clear(&p);
    }
    /* AUTO is one of the two forced readings. */
    int same = auto_logic == PN_RERS_LTL ? 1 : 2;
    if (verdict[0] != -2)
        PETREL_FUZZ_CHECK(verdict[same] != -2);
    if (verdict[0] >= 0 && verdict[same] >= 0)
        PETREL_FUZZ_CHECK(verdict[0] == verdict[same]);
}

int petrel_fuzz_rers(const uint8_t *data, size_t size);
int petrel_fuzz_rers(const uint8_t *data, size_t size)
{
    const petrel_fuzz_rers_env *env = petrel_fuzz_rers_setup();
    char *text = (char *)malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (char *line = text; line != NULL;) {
        char *nl = strchr(line, '\n');
        if (nl != NULL)
            *nl = '\0';
        petrel_fuzz_rers_line(env, line);
        line = nl != NULL ? nl + 1 : NULL;
    }
    free(text);
    return 0;
}

#ifndef PETREL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return petrel_fuzz_rers(data, size);
}
#endif
