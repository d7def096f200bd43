/* libFuzzer target: the MCC property (formula XML) reader, the printer and
 * the simplifier on arbitrary bytes, against a fixed net built in code.
 *
 *   tools/fuzz/run.sh [seconds]        builds, seeds and runs it
 *
 * The net has places p0..p5 and transitions t0..t5 (ids = names); run.sh
 * rewrites the place and transition names of the MCC seed formulas onto
 * them, so that seeds bind and reach the printer and the simplifier.
 *
 * Beyond "no crash, leak or undefined behaviour" it checks the contracts of
 * petrel/formula.h: on failure no set and a message; per property a root xor
 * an error; a clone equals its original; and the simplifier is sound where
 * that can be decided cheaply: a state formula (the root, or each maximal
 * state subformula simplified on its own) or an integer expression agrees
 * with its simplified form on a few markings; and an answer line printed
 * for any id read is one line with the id as its second field. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"
#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/mcc.h"
#include "petrel/net.h"

#define PETREL_FUZZ_FML_PLACES 6

typedef struct petrel_fuzz_fml_env {
    pn_net *net;
    pn_cnet *cn;
    FILE *sink; /* /dev/null */
} petrel_fuzz_fml_env;

/* p0(1) -t0-> p1 -t1-> p0;  p2(2) -3-> t2 -> p3;  p4(5) -t3-> p4 + p5;
 * p3 + p5 -t4-> p0;  t5 reads p5 (self-loop). Bounded; t2, t4, t5 are
 * disabled at m0. */
static const petrel_fuzz_fml_env *petrel_fuzz_fml_setup(void)
{
    static petrel_fuzz_fml_env env;
    static int ready = 0;
    if (ready)
        return &env;
    static const uint64_t m0[PETREL_FUZZ_FML_PLACES] = {1, 0, 2, 0, 5, 0};
    /* place, transition, to_transition, weight */
    static const struct { uint32_t p, t; int in; uint64_t w; } arcs[] = {
        {0, 0, 1, 1}, {1, 0, 0, 1}, {1, 1, 1, 1}, {0, 1, 0, 1},
        {2, 2, 1, 3}, {3, 2, 0, 1}, {4, 3, 1, 1}, {4, 3, 0, 1},
        {5, 3, 0, 1}, {3, 4, 1, 1}, {5, 4, 1, 1}, {0, 4, 0, 1},
        {5, 5, 1, 1}, {5, 5, 0, 1},
    };
    pn_error err;
    memset(&err, 0, sizeof err);
    env.net = pn_net_new("fuzz");
    PETREL_FUZZ_CHECK(env.net != NULL);
    char id[16];
    for (int i = 0; i < PETREL_FUZZ_FML_PLACES; i++) {
        snprintf(id, sizeof id, "p%d", i);
        PETREL_FUZZ_CHECK(pn_net_add_place(env.net, id, NULL, m0[i], &err) == i);
    }
    for (int i = 0; i < 6; i++) {
        snprintf(id, sizeof id, "t%d", i);
        PETREL_FUZZ_CHECK(pn_net_add_transition(env.net, id, NULL, &err) == i);
    }
    for (size_t i = 0; i < sizeof arcs / sizeof arcs[0]; i++)
        PETREL_FUZZ_CHECK(pn_net_add_arc(env.net, arcs[i].p, arcs[i].t, arcs[i].in != 0,
                                         arcs[i].w, &err) == PN_OK);
    PETREL_FUZZ_CHECK(pn_cnet_compile(env.net, &env.cn, &err) == PN_OK);
    env.sink = fopen("/dev/null", "w");
    PETREL_FUZZ_CHECK(env.sink != NULL);
    ready = 1;
    return &env;
}

/* Markings the simplified formulas are compared on: m0, the empty one,
 * extremes (sums beyond 64 bits) and a few ordinary ones. */
static const uint64_t petrel_fuzz_fml_markings[][PETREL_FUZZ_FML_PLACES] = {
    {1, 0, 2, 0, 5, 0},
    {0, 0, 0, 0, 0, 0},
    {1, 1, 1, 1, 1, 1},
    {0, 1, 3, 1, 0, 2},
    {3, 1, 4, 1, 5, 9},
    {UINT64_MAX, 0, UINT64_MAX, 1, 0, UINT64_MAX},
    {UINT64_C(1) << 63, UINT64_C(1) << 63, 7, 0, 0, 1},
};

static void petrel_fuzz_fml_compare(const petrel_fuzz_fml_env *env, const pn_fml_node *before,
                                    const pn_fml_node *after)
{
    const size_t nm = sizeof petrel_fuzz_fml_markings / sizeof petrel_fuzz_fml_markings[0];
    if (pn_fml_is_state(before) && pn_fml_is_state(after)) {
        for (size_t i = 0; i < nm; i++) {
            const uint64_t *m = petrel_fuzz_fml_markings[i];
            if (pn_fml_eval_state(before, env->cn, m) != pn_fml_eval_state(after, env->cn, m))
                PETREL_FUZZ_FAIL("simplified state formula evaluates differently");
        }
    } else if (pn_fml_is_int(before) && pn_fml_is_int(after)) {
        for (size_t i = 0; i < nm; i++) {
            const uint64_t *m = petrel_fuzz_fml_markings[i];
            if (pn_fml_eval_int(before, m) != pn_fml_eval_int(after, m))
                PETREL_FUZZ_FAIL("simplified integer expression evaluates differently");
        }
    }
}

/* Formula roots are seldom state formulas (MCC ones start with a path
 * quantifier), so the simplifier is also checked on every maximal state
 * subformula of the input: simplified alone, it must evaluate as before. */
static void petrel_fuzz_fml_state_parts(const petrel_fuzz_fml_env *env, const pn_fml_node *n)
{
    if (n == NULL)
        return;
    if (pn_fml_is_state(n) && !pn_fml_is_int(n)) {
        pn_fml_node *c = pn_fml_clone(n);
        if (c == NULL)
            return;
        pn_error err;
        memset(&err, 0, sizeof err);
        pn_status st = pn_fml_simplify(&c, &err);
        PETREL_FUZZ_CHECK(st == PN_OK || st == PN_ERR_NOMEM);
        PETREL_FUZZ_CHECK(c != NULL);
        petrel_fuzz_fml_compare(env, n, c);
        pn_fml_free(c);
        return;
    }
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        petrel_fuzz_fml_state_parts(env, n->kids[i]);
}

/* An answer for this id, printed as Petrel prints it, is one line whose
 * second space-separated field is the id: no id can forge a line or split
 * a batch record (output injection). */
static void petrel_fuzz_fml_answer_line(const char *id)
{
    for (int decided = 0; decided < 2; decided++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        PETREL_FUZZ_CHECK(f != NULL);
        pn_mcc_print_formula(f, id, decided ? "TRUE" : NULL, decided ? "EXPLICIT" : NULL);
        PETREL_FUZZ_CHECK(fclose(f) == 0);
        size_t id_len = strlen(id);
        PETREL_FUZZ_CHECK(len > 8 + id_len && buf[len - 1] == '\n');
        PETREL_FUZZ_CHECK(memchr(buf, '\n', len - 1) == NULL);
        PETREL_FUZZ_CHECK(memcmp(buf, "FORMULA ", 8) == 0);
        PETREL_FUZZ_CHECK(memcmp(buf + 8, id, id_len) == 0 && buf[8 + id_len] == ' ');
        for (size_t k = 0; k + 1 < len; k++)
            PETREL_FUZZ_CHECK((unsigned char)buf[k] > ' ' || buf[k] == ' ');
        free(buf);
    }
}

/* One input; returns 0 (libFuzzer's convention). */
static int petrel_fuzz_formula(const uint8_t *data, size_t size)
{
    const petrel_fuzz_fml_env *env = petrel_fuzz_fml_setup();
    pn_fml_set *set = NULL;
    pn_error err;
    memset(&err, 0, sizeof err);
    pn_status st = pn_fml_read_memory((const char *)data, size, "fuzz.xml", env->net, &set, &err);
    if (st != PN_OK) {
        PETREL_FUZZ_CHECK(set == NULL);
        PETREL_FUZZ_CHECK(err.code == st);
        PETREL_FUZZ_CHECK(memchr(err.msg, '\0', sizeof err.msg) != NULL);
        PETREL_FUZZ_CHECK(err.msg[0] != '\0');
        return 0;
    }
    PETREL_FUZZ_CHECK(set != NULL);
    PETREL_FUZZ_CHECK(set->net == env->net);
    PETREL_FUZZ_CHECK(set->n == 0 || set->props != NULL);

    pn_fml_node **before = NULL;
    if (set->n > 0)
        before = (pn_fml_node **)calloc(set->n, sizeof *before);
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_fml_prop *p = &set->props[i];
        PETREL_FUZZ_CHECK(p->id != NULL);
        petrel_fuzz_fml_answer_line(p->id);
        if (p->status == PN_OK) {
            PETREL_FUZZ_CHECK(p->root != NULL && p->error == NULL);
            char *s = pn_fml_to_string(p->root, env->net);
            free(s);
            if (before != NULL) {
                before[i] = pn_fml_clone(p->root);
                PETREL_FUZZ_CHECK(before[i] == NULL || pn_fml_equal(before[i], p->root));
            }
        } else {
            PETREL_FUZZ_CHECK(p->root == NULL && p->error != NULL);
        }
        pn_fml_print(env->sink, set, i);
    }

    pn_error serr;
    memset(&serr, 0, sizeof serr);
    st = pn_fml_set_simplify(set, &serr);
    PETREL_FUZZ_CHECK(st == PN_OK || st == PN_ERR_NOMEM);
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_fml_prop *p = &set->props[i];
        pn_fml_print(env->sink, set, i);
        if (p->status != PN_OK)
            continue;
        PETREL_FUZZ_CHECK(p->root != NULL);
        const pn_fml_node *phi = NULL;
        (void)pn_fml_reach_shape(p->root, &phi);
        if (before != NULL && before[i] != NULL) {
            petrel_fuzz_fml_compare(env, before[i], p->root);
            petrel_fuzz_fml_state_parts(env, before[i]);
        }
    }
    for (uint32_t i = 0; before != NULL && i < set->n; i++)
        pn_fml_free(before[i]);
    free(before);
    pn_fml_set_free(set);
    return 0;
}

#ifndef PETREL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return petrel_fuzz_formula(data, size);
}
#endif
