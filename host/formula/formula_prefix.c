/* LTL on a finite prefix of a run (formula.h's pn_fml_eval_prefix), after
 * the three-valued LTL of runtime verification: A. Bauer, M. Leucker,
 * C. Schallhart, "Runtime Verification for LTL and TLTL", ACM TOSEM 20(4),
 * 2011 (LTL3: a prefix's verdict is TRUE or FALSE only where every infinite
 * extension of it agrees). The verdicts here are the Kleene (strong
 * three-valued) evaluation of the expansion laws, backwards from the
 * prefix's end: F p = p | X F p, G p = p & X G p, p U q = q | (p & X (p U
 * q)), with X unknown past the end. Each step keeps soundness (a definite
 * value holds on every extension), not completeness (nothing is known of
 * what may follow). Where the prefix ends in a deadlock, the run is the
 * prefix with its last state repeated forever (Petrel's reading of LTL at
 * a deadlock, pn_fml_at_deadlock) and the evaluation is exact. */
#include "petrel/formula.h"

#include <stdlib.h>

enum { P_FALSE = 0, P_TRUE = 1, P_UNKNOWN = -1 };

static int8_t k_not(int8_t a) { return a == P_UNKNOWN ? a : (int8_t)!a; }

static int8_t k_and(int8_t a, int8_t b)
{
    if (a == P_FALSE || b == P_FALSE)
        return P_FALSE;
    return a == P_TRUE && b == P_TRUE ? P_TRUE : P_UNKNOWN;
}

static int8_t k_or(int8_t a, int8_t b)
{
    if (a == P_TRUE || b == P_TRUE)
        return P_TRUE;
    return a == P_FALSE && b == P_FALSE ? P_FALSE : P_UNKNOWN;
}

typedef struct prefix {
    uint32_t len;
    bool dead;
    pn_fml_state_at at;
    void *ctx;
} prefix;

static int8_t *pf_eval(const prefix *p, const pn_fml_node *n);

/* The verdicts of a temporal node from its operands' (b: U's right one),
 * backwards; the last position's successor is itself at a deadlock,
 * unknown otherwise. */
static void pf_temporal(const prefix *p, pn_fml_kind kind, const int8_t *a, const int8_t *b,
                        int8_t *v)
{
    uint32_t last = p->len - 1;
    for (uint32_t k = p->len; k-- > 0;) {
        int8_t next = k < last ? v[k + 1] : P_UNKNOWN;
        switch (kind) {
        case PN_FML_X: v[k] = k < last ? a[k + 1] : p->dead ? a[k] : P_UNKNOWN; break;
        case PN_FML_F: v[k] = k == last && p->dead ? a[k] : k_or(a[k], next); break;
        case PN_FML_G: v[k] = k == last && p->dead ? a[k] : k_and(a[k], next); break;
        default: /* U */
            v[k] = k == last && p->dead ? b[k] : k_or(b[k], k_and(a[k], next));
        }
    }
}

/* The verdict of n at every position of the prefix; NULL when out of
 * memory. */
static int8_t *pf_eval(const prefix *p, const pn_fml_node *n)
{
    int8_t *v = malloc(p->len);
    if (v == NULL)
        return NULL;
    if (pn_fml_is_state(n)) {
        for (uint32_t k = 0; k < p->len; k++)
            v[k] = p->at(p->ctx, n, k) ? P_TRUE : P_FALSE;
        return v;
    }
    int8_t *a = NULL, *b = NULL;
    switch (n->kind) {
    case PN_FML_NOT:
    case PN_FML_X:
    case PN_FML_F:
    case PN_FML_G:
        a = pf_eval(p, n->kids[0]);
        if (a == NULL)
            break;
        if (n->kind == PN_FML_NOT)
            for (uint32_t k = 0; k < p->len; k++)
                v[k] = k_not(a[k]);
        else
            pf_temporal(p, n->kind, a, NULL, v);
        free(a);
        return v;
    case PN_FML_U:
        a = pf_eval(p, n->kids[0]);
        b = a != NULL ? pf_eval(p, n->kids[1]) : NULL;
        if (b != NULL)
            pf_temporal(p, PN_FML_U, a, b, v);
        free(a);
        if (b == NULL)
            break;
        free(b);
        return v;
    case PN_FML_AND:
    case PN_FML_OR:
        for (uint32_t k = 0; k < p->len; k++)
            v[k] = n->kind == PN_FML_AND ? P_TRUE : P_FALSE;
        for (uint32_t i = 0; i < n->n; i++) {
            a = pf_eval(p, n->kids[i]);
            if (a == NULL) {
                free(v);
                return NULL;
            }
            for (uint32_t k = 0; k < p->len; k++)
                v[k] = n->kind == PN_FML_AND ? k_and(v[k], a[k]) : k_or(v[k], a[k]);
            free(a);
        }
        return v;
    default: /* a path quantifier or an action below the top: not read here */
        for (uint32_t k = 0; k < p->len; k++)
            v[k] = P_UNKNOWN;
        return v;
    }
    free(v);
    return NULL;
}

int pn_fml_eval_prefix(const pn_fml_node *phi, uint32_t len, bool ends_dead, pn_fml_state_at at,
                       void *ctx)
{
    if (len == 0)
        return P_UNKNOWN;
    prefix p = {len, ends_dead, at, ctx};
    int8_t *v = pf_eval(&p, phi);
    int verdict = v != NULL ? v[0] : P_UNKNOWN;
    free(v);
    return verdict;
}
