/* MCC LTL path formulas to hash-consed negation normal form. */
#include <stdlib.h>
#include <string.h>

#include "logic/ltl_buchi.h"

static int64_t ltl_intern(ltl_formula *f, ltl_kind k, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < f->count; i++)
        if (f->n[i].kind == k && f->n[i].a == a && f->n[i].b == b)
            return i;
    if (f->count == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 32;
        ltl_node *n = realloc(f->n, cap * sizeof *n);
        if (n == NULL)
            return -1;
        f->n = n;
        f->cap = cap;
    }
    f->n[f->count] = (ltl_node){k, a, b};
    return f->count++;
}

static bool ltl_is(const ltl_formula *f, uint32_t i, ltl_kind k) { return f->n[i].kind == k; }

/* F x (true U x) and G x (false R x). */
static bool ltl_is_f(const ltl_formula *f, uint32_t i)
{
    return ltl_is(f, i, LT_U) && ltl_is(f, f->n[i].a, LT_TRUE);
}

static bool ltl_is_g(const ltl_formula *f, uint32_t i)
{
    return ltl_is(f, i, LT_R) && ltl_is(f, f->n[i].a, LT_FALSE);
}

/* Identities of LTL on infinite words (paths are infinite: deadlocks
 * stutter) that shrink the tableau, each returning an existing node:
 * x U true = true, x U false = false, false U x = x, x U x = x, F F x = F x,
 * F G F x = G F x, and dually for R (G G x = G x, G F G x = F G x);
 * X true = true, X false = false. -1: none applies. */
static int64_t ltl_simplify(const ltl_formula *f, ltl_kind k, uint32_t a, uint32_t b)
{
    if (k == LT_X && (ltl_is(f, a, LT_TRUE) || ltl_is(f, a, LT_FALSE)))
        return a;
    if (k != LT_U && k != LT_R)
        return -1;
    ltl_kind unit = k == LT_U ? LT_FALSE : LT_TRUE; /* false U x = x, true R x = x */
    if (ltl_is(f, b, LT_TRUE) || ltl_is(f, b, LT_FALSE) || ltl_is(f, a, unit) || a == b)
        return b;
    bool (*same)(const ltl_formula *, uint32_t) = k == LT_U ? ltl_is_f : ltl_is_g;
    bool (*dual)(const ltl_formula *, uint32_t) = k == LT_U ? ltl_is_g : ltl_is_f;
    bool outer = ltl_is(f, a, k == LT_U ? LT_TRUE : LT_FALSE); /* F or G */
    if (outer && same(f, b))
        return b;
    if (outer && dual(f, b) && same(f, f->n[b].b))
        return b;
    return -1;
}

/* ltl_intern after ltl_simplify. */
static int64_t ltl_make(ltl_formula *f, ltl_kind k, uint32_t a, uint32_t b)
{
    int64_t s = ltl_simplify(f, k, a, b);
    return s >= 0 ? s : ltl_intern(f, k, a, b);
}

static int64_t ltl_atom(ltl_formula *f, const pn_fml_node *phi, bool neg)
{
    if (phi->kind == PN_FML_TRUE || phi->kind == PN_FML_FALSE)
        return ltl_intern(f, (phi->kind == PN_FML_TRUE) != neg ? LT_TRUE : LT_FALSE, 0, 0);
    uint32_t i = 0;
    while (i < f->n_atoms && !pn_fml_equal(f->atoms[i], phi))
        i++;
    if (i == f->n_atoms) {
        if (f->n_atoms == f->cap_atoms) {
            uint32_t cap = f->cap_atoms ? f->cap_atoms * 2 : 8;
            const pn_fml_node **a = realloc(f->atoms, cap * sizeof *a);
            if (a == NULL)
                return -1;
            f->atoms = a;
            f->cap_atoms = cap;
        }
        f->atoms[f->n_atoms++] = phi;
    }
    return ltl_intern(f, neg ? LT_NAP : LT_AP, i, 0);
}

static int64_t ltl_nnf(ltl_formula *f, const pn_fml_node *n, bool neg, pn_error *err);

static int64_t ltl_binary(ltl_formula *f, ltl_kind k, const pn_fml_node *x,
                          const pn_fml_node *y, bool neg, pn_error *err)
{
    int64_t a = ltl_nnf(f, x, neg, err);
    int64_t b = a < 0 ? -1 : ltl_nnf(f, y, neg, err);
    return b < 0 ? -1 : ltl_make(f, k, (uint32_t)a, (uint32_t)b);
}

/* AND/OR of n kids as a right-leaning chain. */
static int64_t ltl_nary(ltl_formula *f, const pn_fml_node *n, bool neg, pn_error *err)
{
    ltl_kind k = (n->kind == PN_FML_AND) != neg ? LT_AND : LT_OR;
    int64_t acc = ltl_nnf(f, n->kids[n->n - 1], neg, err);
    for (uint32_t i = n->n - 1; acc >= 0 && i > 0; i--) {
        int64_t x = ltl_nnf(f, n->kids[i - 1], neg, err);
        acc = x < 0 ? -1 : ltl_intern(f, k, (uint32_t)x, (uint32_t)acc);
    }
    return acc;
}

static int64_t ltl_nnf(ltl_formula *f, const pn_fml_node *n, bool neg, pn_error *err)
{
    /* Negations go down to the atoms first, so that p and !p share one atom
     * and the tableau can drop nodes that need both. */
    if (n->kind == PN_FML_NOT)
        return ltl_nnf(f, n->kids[0], !neg, err);
    if (pn_fml_is_state(n))
        return ltl_atom(f, n, neg);
    int64_t a, t;
    switch (n->kind) {
    case PN_FML_AND:
    case PN_FML_OR: return ltl_nary(f, n, neg, err);
    case PN_FML_X:
        /* Paths are infinite (deadlocks stutter), so !X a = X !a. */
        a = ltl_nnf(f, n->kids[0], neg, err);
        return a < 0 ? -1 : ltl_make(f, LT_X, (uint32_t)a, 0);
    case PN_FML_F: /* F a = true U a; !F a = false R !a */
    case PN_FML_G: /* G a = false R a; !G a = true U !a */
        a = ltl_nnf(f, n->kids[0], neg, err);
        t = ltl_intern(f, (n->kind == PN_FML_F) != neg ? LT_TRUE : LT_FALSE, 0, 0);
        if (a < 0 || t < 0)
            return -1;
        return ltl_make(f, (n->kind == PN_FML_F) != neg ? LT_U : LT_R, (uint32_t)t,
                        (uint32_t)a);
    case PN_FML_U: /* !(a U b) = !a R !b */
        return ltl_binary(f, neg ? LT_R : LT_U, n->kids[0], n->kids[1], neg, err);
    default:
        pn_fail(err, PN_ERR_UNSUPPORTED, "not an LTL path formula (a nested path quantifier)");
        return -1;
    }
}

pn_status ltl_from_fml(const pn_fml_node *psi, bool negate, ltl_formula *f, pn_error *err)
{
    memset(f, 0, sizeof *f);
    int64_t r = ltl_nnf(f, psi, negate, err);
    if (r < 0) {
        ltl_formula_free(f);
        return err->code != PN_OK ? err->code
                                  : pn_fail(err, PN_ERR_NOMEM, "out of memory translating LTL");
    }
    f->root = (uint32_t)r;
    return PN_OK;
}

void ltl_formula_free(ltl_formula *f)
{
    free(f->n);
    free(f->atoms);
    memset(f, 0, sizeof *f);
}
