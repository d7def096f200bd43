/* Terms of symmetric nets (ISO/IEC 15909-2: the Booleans, enumerations,
 * finite integer ranges, partitions, multisets and terms modules of the
 * PNML grammar): parsed once into typed trees (every colour and multiset
 * term knows its sort, so evaluation never looks anything up), then
 * evaluated once per binding by the unfolder. */
#include "coloured/hlpn.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Multiplicities stay below this so that sums of two never overflow. */
#define HL_MAX_MULT (INT64_C(1) << 62)

static hl_term *hl_colour(hl_model *m, xmlNode *e, uint32_t expect);
static hl_term *hl_all(hl_model *m, xmlNode *e, uint32_t expect);

static hl_term *hl_new_term(hl_model *m, hl_term_kind kind, uint32_t n, const xmlNode *e)
{
    hl_term *t = calloc(1, sizeof *t);
    if (t != NULL && n > 0 && (t->kids = calloc(n, sizeof *t->kids)) == NULL) {
        free(t);
        t = NULL;
    }
    if (t == NULL) {
        hl_nomem(m);
        return NULL;
    }
    t->kind = kind;
    t->n = n;
    t->sort = HL_NONE;
    t->line = xmlGetLineNo(e);
    return t;
}

void hl_term_free(hl_term *t)
{
    if (t == NULL)
        return;
    for (uint32_t i = 0; i < t->n; i++)
        hl_term_free(t->kids[i]);
    free(t->kids);
    free(t);
}

/* Frees t and returns NULL, for `return hl_drop(t)` after an error. */
static hl_term *hl_drop(hl_term *t)
{
    hl_term_free(t);
    return NULL;
}

bool hl_term_is_multiset(const hl_term *t)
{
    if (t->kind == HL_T_TUPLE) /* <All, b1 + b2>: a product of multisets */
        for (uint32_t i = 0; i < t->n; i++)
            if (hl_term_is_multiset(t->kids[i]))
                return true;
    return t->kind == HL_T_NUMBEROF || t->kind == HL_T_ADD || t->kind == HL_T_SUB ||
           t->kind == HL_T_ALL || t->kind == HL_T_EMPTY || t->kind == HL_T_SUBSET;
}

void hl_term_vars(const hl_term *t, bool *used)
{
    if (t->kind == HL_T_VAR)
        used[t->value] = true;
    for (uint32_t i = 0; i < t->n; i++)
        hl_term_vars(t->kids[i], used);
}

uint64_t hl_term_nodes(const hl_term *t)
{
    uint64_t n = 1;
    for (uint32_t i = 0; i < t->n; i++)
        n += hl_term_nodes(t->kids[i]);
    return n;
}

/* ---- parsing helpers ----------------------------------------------------- */

/* The terms inside e's <subterm> children, at most max of them; other child
 * elements (sorts attached to the operator) are skipped. */
static uint32_t hl_subterms(xmlNode *e, xmlNode **out, uint32_t max)
{
    uint32_t n = 0;
    for (xmlNode *c = hl_elem(e->children); c != NULL; c = hl_elem(c->next)) {
        if (!hl_is(c, "subterm"))
            continue;
        if (n < max)
            out[n] = hl_elem(c->children);
        n++;
    }
    return n;
}

/* Exactly lo..hi subterms, each holding an element. */
static bool hl_arity(hl_model *m, xmlNode *e, uint32_t lo, uint32_t hi, xmlNode **out,
                     uint32_t *n)
{
    *n = hl_subterms(e, out, hi);
    if (*n < lo || *n > hi) {
        if (lo == hi)
            hl_fail(m, PN_ERR_INPUT, e, "needs %u subterm%s, has %u", lo, lo == 1 ? "" : "s", *n);
        else
            hl_fail(m, PN_ERR_INPUT, e, "needs %u to %u subterms, has %u", lo, hi, *n);
        return false;
    }
    for (uint32_t i = 0; i < *n; i++)
        if (out[i] == NULL) {
            hl_fail(m, PN_ERR_INPUT, e, "empty <subterm>");
            return false;
        }
    return true;
}

/* Every subterm of an n-ary operator, in a new array. */
static xmlNode **hl_all_subterms(hl_model *m, xmlNode *e, uint32_t *n)
{
    *n = hl_subterms(e, NULL, 0);
    if (*n == 0) {
        hl_fail(m, PN_ERR_INPUT, e, "needs at least one subterm");
        return NULL;
    }
    xmlNode **kids = malloc((size_t)*n * sizeof *kids);
    if (kids == NULL) {
        hl_nomem(m);
        return NULL;
    }
    uint32_t got;
    if (!hl_arity(m, e, *n, *n, kids, &got)) {
        free(kids);
        return NULL;
    }
    return kids;
}

/* Checks t against the expected sort; frees it on a mismatch. */
static hl_term *hl_expect(hl_model *m, xmlNode *e, hl_term *t, uint32_t expect)
{
    if (t == NULL || expect == HL_NONE || hl_sort_eq(m, t->sort, expect))
        return t;
    hl_fail(m, PN_ERR_INPUT, e, "term of sort %s where sort %s is expected",
            hl_sort_name(m, t->sort), hl_sort_name(m, expect));
    return hl_drop(t);
}

/* The first sort of `kind` structurally equal to what `want` describes, for
 * constants whose sort the context does not say. */
static uint32_t hl_find_sort(const hl_model *m, hl_sort_kind kind, const hl_sort *want)
{
    for (uint32_t s = 0; s < m->n_sorts; s++) {
        const hl_sort *x = &m->sorts[s];
        if (x->kind != kind || x->state != 2)
            continue;
        if (kind == HL_SORT_DOT)
            return s;
        if (kind == HL_SORT_RANGE && x->start == want->start && x->size == want->size)
            return s;
    }
    return HL_NONE;
}

static bool hl_sort_is(const hl_model *m, uint32_t s, hl_sort_kind kind)
{
    return s != HL_NONE && m->sorts[hl_canon(m, s)].kind == kind;
}

/* ---- colour terms -------------------------------------------------------- */

static hl_term *hl_variable(hl_model *m, xmlNode *e)
{
    const char *ref = hl_attr(e, "refvariable");
    int64_t v = ref != NULL ? pn_strmap_get(m->var_index, ref) : -1;
    if (v < 0) {
        hl_fail(m, PN_ERR_INPUT, e, "unknown variable '%.120s'", ref != NULL ? ref : "");
        return NULL;
    }
    hl_term *t = hl_new_term(m, HL_T_VAR, 0, e);
    if (t != NULL) {
        t->value = (uint64_t)v;
        t->sort = m->vars[v].sort;
    }
    return t;
}

static hl_term *hl_constant(hl_model *m, xmlNode *e)
{
    const char *ref = hl_attr(e, "declaration");
    int64_t c = ref != NULL ? pn_strmap_get(m->const_index, ref) : -1;
    if (c < 0) {
        hl_fail(m, PN_ERR_INPUT, e, "unknown constant '%.120s'", ref != NULL ? ref : "");
        return NULL;
    }
    hl_term *t = hl_new_term(m, HL_T_CONST, 0, e);
    if (t != NULL) {
        t->value = m->consts[c].colour;
        t->sort = m->consts[c].sort;
    }
    return t;
}

static hl_term *hl_dotconstant(hl_model *m, xmlNode *e, uint32_t expect)
{
    uint32_t s = hl_sort_is(m, expect, HL_SORT_DOT) ? expect
                                                    : hl_find_sort(m, HL_SORT_DOT, NULL);
    if (s == HL_NONE) {
        hl_fail(m, PN_ERR_INPUT, e, "dotconstant where no dot sort is declared");
        return NULL;
    }
    hl_term *t = hl_new_term(m, HL_T_CONST, 0, e);
    if (t != NULL)
        t->sort = s;
    return t;
}

/* <finiteintrangeconstant value="v"><finiteintrange start end/></...>: the
 * range is matched against the expected sort, else against any declared
 * range with the same bounds. */
static hl_term *hl_rangeconstant(hl_model *m, xmlNode *e, uint32_t expect)
{
    xmlNode *r = hl_elem(e->children);
    const char *vs = hl_attr(e, "value");
    char *end = NULL;
    long long v = vs != NULL ? strtoll(vs, &end, 10) : 0;
    if (vs == NULL || vs[0] == '\0' || *end != '\0')
        return hl_fail(m, PN_ERR_INPUT, e, "needs an integer value attribute"), NULL;
    uint32_t s = hl_sort_is(m, expect, HL_SORT_RANGE) ? hl_canon(m, expect) : HL_NONE;
    if (s == HL_NONE && hl_is(r, "finiteintrange")) {
        const char *a = hl_attr(r, "start"), *b = hl_attr(r, "end");
        hl_sort want = {.start = a ? strtoll(a, NULL, 10) : 0};
        want.size = b ? (uint64_t)(strtoll(b, NULL, 10) - want.start) + 1 : 0;
        s = hl_find_sort(m, HL_SORT_RANGE, &want);
    }
    if (s == HL_NONE)
        return hl_fail(m, PN_ERR_INPUT, e, "cannot tell the range of this constant"), NULL;
    const hl_sort *x = &m->sorts[s];
    if (v < x->start || (uint64_t)(v - x->start) >= x->size)
        return hl_fail(m, PN_ERR_INPUT, e, "value %lld outside its range", v), NULL;
    hl_term *t = hl_new_term(m, HL_T_CONST, 0, e);
    if (t != NULL) {
        t->sort = s;
        t->value = (uint64_t)(v - x->start);
    }
    return t;
}

/* <booleanconstant value="true|false"/> as a colour of the bool sort. */
static hl_term *hl_boolcolour(hl_model *m, xmlNode *e)
{
    const char *v = hl_attr(e, "value");
    if (v == NULL || (strcmp(v, "true") != 0 && strcmp(v, "false") != 0))
        return hl_fail(m, PN_ERR_INPUT, e, "value must be true or false"), NULL;
    uint32_t s = hl_bool_sort(m);
    hl_term *t = s != HL_NONE ? hl_new_term(m, HL_T_CONST, 0, e) : NULL;
    if (t != NULL) {
        t->sort = s;
        t->value = strcmp(v, "true") == 0;
    }
    return t;
}

/* <partitionelementof refpartition="P"> of a colour of P's partitioned
 * sort: the element of P that holds it. */
static hl_term *hl_pelem(hl_model *m, xmlNode *e)
{
    const char *ref = hl_attr(e, "refpartition");
    int64_t s = ref != NULL ? pn_strmap_get(m->sort_index, ref) : -1;
    if (s < 0 || !hl_sort_is(m, (uint32_t)s, HL_SORT_PARTITION))
        return hl_fail(m, PN_ERR_INPUT, e, "refpartition '%.120s' is not a partition",
                       ref != NULL ? ref : ""), NULL;
    uint32_t ps = hl_canon(m, (uint32_t)s);
    xmlNode *k;
    uint32_t n;
    if (!hl_arity(m, e, 1, 1, &k, &n))
        return NULL;
    hl_term *kid = hl_colour(m, k, m->sorts[ps].base);
    hl_term *t = kid != NULL ? hl_new_term(m, HL_T_PELEM, 1, e) : NULL;
    if (t == NULL)
        return hl_drop(kid);
    t->kids[0] = kid;
    t->sort = ps;
    return t;
}

static hl_term *hl_succ_pred(hl_model *m, xmlNode *e, uint32_t expect, hl_term_kind kind)
{
    xmlNode *k;
    uint32_t n;
    if (!hl_arity(m, e, 1, 1, &k, &n))
        return NULL;
    hl_term *kid = hl_colour(m, k, expect);
    if (kid == NULL)
        return NULL;
    if (hl_sort_is(m, kid->sort, HL_SORT_PRODUCT)) {
        hl_fail(m, PN_ERR_INPUT, e, "successor/predecessor of a tuple");
        return hl_drop(kid);
    }
    hl_term *t = hl_new_term(m, kind, 1, e);
    if (t == NULL)
        return hl_drop(kid);
    t->kids[0] = kid;
    t->sort = kid->sort;
    return t;
}

/* The product sort with exactly these component sorts. */
static uint32_t hl_find_product(const hl_model *m, const hl_term *t)
{
    for (uint32_t s = 0; s < m->n_sorts; s++) {
        const hl_sort *x = &m->sorts[s];
        if (x->kind != HL_SORT_PRODUCT || x->state != 2 || x->n != t->n)
            continue;
        uint32_t i = 0;
        while (i < t->n && hl_sort_eq(m, x->comp[i], t->kids[i]->sort))
            i++;
        if (i == t->n)
            return s;
    }
    return HL_NONE;
}

static hl_term *hl_add_sub(hl_model *m, xmlNode *e, uint32_t expect, hl_term_kind kind);

/* A `useroperator` in a multiset context: a constant, or a partition
 * element where its partitioned sort is expected, which stands for the
 * element's colours (ISO/IEC 15909-2: an element denotes a subset of the
 * partitioned sort). */
static hl_term *hl_constant_or_subset(hl_model *m, xmlNode *e, uint32_t expect)
{
    hl_term *c = hl_constant(m, e);
    if (c == NULL || expect == HL_NONE || !hl_sort_is(m, c->sort, HL_SORT_PARTITION) ||
        hl_sort_eq(m, c->sort, expect) ||
        !hl_sort_eq(m, m->sorts[hl_canon(m, c->sort)].base, expect))
        return hl_expect(m, e, c, expect);
    hl_term *t = hl_new_term(m, HL_T_SUBSET, 1, e);
    if (t == NULL)
        return hl_drop(c);
    t->kids[0] = c;
    t->sort = hl_canon(m, m->sorts[hl_canon(m, c->sort)].base);
    return t;
}

/* A tuple component: a colour, or in a multiset context also a multiset of
 * the component's sort (<all>, a partition element's subset, a sum): the
 * tuple stands for every combination, each counted as the product of its
 * components' counts. */
static hl_term *hl_component(hl_model *m, xmlNode *e, uint32_t expect, bool allow_all)
{
    if (allow_all && hl_is(e, "all"))
        return hl_all(m, e, expect);
    if (allow_all && hl_is(e, "add"))
        return hl_add_sub(m, e, expect, HL_T_ADD);
    if (allow_all && hl_is(e, "useroperator"))
        return hl_constant_or_subset(m, e, expect);
    return hl_colour(m, e, expect);
}

/* A one-element tuple over sort S is S's term itself (editors such as
 * GreatSPN's write <tuple> around a single <all> or colour), unless the
 * sort expected, or with none expected some declared sort, is a product of
 * one component. Takes t's only kid and frees t. */
static hl_term *hl_unwrap(hl_term *t)
{
    hl_term *kid = t->kids[0];
    t->kids[0] = NULL;
    hl_term_free(t);
    return kid;
}

static hl_term *hl_tuple(hl_model *m, xmlNode *e, uint32_t expect, bool allow_all)
{
    uint32_t n;
    xmlNode **kids = hl_all_subterms(m, e, &n);
    if (kids == NULL)
        return NULL;
    const hl_sort *ps = hl_sort_is(m, expect, HL_SORT_PRODUCT) ? &m->sorts[hl_canon(m, expect)]
                                                               : NULL;
    if (n == 1 && ps == NULL && expect != HL_NONE) {
        hl_term *kid = hl_component(m, kids[0], expect, allow_all);
        free(kids);
        return kid;
    }
    hl_term *t = NULL;
    if (ps != NULL && ps->n != n)
        hl_fail(m, PN_ERR_INPUT, e, "tuple of %u where sort %s has %u components", n,
                hl_sort_name(m, expect), ps->n);
    else
        t = hl_new_term(m, HL_T_TUPLE, n, e);
    for (uint32_t i = 0; t != NULL && i < n; i++)
        if ((t->kids[i] = hl_component(m, kids[i], ps ? ps->comp[i] : HL_NONE,
                                       allow_all)) == NULL)
            t = hl_drop(t);
    free(kids);
    if (t == NULL)
        return NULL;
    t->sort = ps != NULL ? hl_canon(m, expect) : hl_find_product(m, t);
    if (t->sort == HL_NONE && t->n == 1)
        return hl_unwrap(t);
    if (t->sort == HL_NONE) {
        hl_fail(m, PN_ERR_INPUT, e, "no product sort matches this tuple");
        return hl_drop(t);
    }
    return t;
}

static hl_term *hl_colour(hl_model *m, xmlNode *e, uint32_t expect)
{
    hl_term *t;
    if (hl_is(e, "variable"))
        t = hl_variable(m, e);
    else if (hl_is(e, "useroperator"))
        t = hl_constant(m, e);
    else if (hl_is(e, "dotconstant"))
        t = hl_dotconstant(m, e, expect);
    else if (hl_is(e, "finiteintrangeconstant"))
        t = hl_rangeconstant(m, e, expect);
    else if (hl_is(e, "successor"))
        t = hl_succ_pred(m, e, expect, HL_T_SUCC);
    else if (hl_is(e, "predecessor"))
        t = hl_succ_pred(m, e, expect, HL_T_PRED);
    else if (hl_is(e, "tuple"))
        t = hl_tuple(m, e, expect, false);
    else if (hl_is(e, "booleanconstant"))
        t = hl_boolcolour(m, e);
    else if (hl_is(e, "partitionelementof"))
        t = hl_pelem(m, e);
    else if (hl_is(e, "numberof") || hl_is(e, "add") || hl_is(e, "subtract") ||
             hl_is(e, "all") || hl_is(e, "empty") || hl_is(e, "scalarproduct"))
        return hl_fail(m, PN_ERR_INPUT, e, "a multiset where a colour is expected"), NULL;
    else
        return hl_unknown(m, e, "as a colour term"), NULL;
    return hl_expect(m, e, t, expect);
}

/* ---- multiset terms ------------------------------------------------------ */

/* numberof(n, colour) and scalarproduct(n, multiset) (either operand
 * order: the grammar does not fix it for scalarproduct) are both n times a
 * multiset: a colour is the multiset of one. */
static hl_term *hl_numberof(hl_model *m, xmlNode *e, uint32_t expect)
{
    xmlNode *k[2];
    uint32_t n;
    if (!hl_arity(m, e, 2, 2, k, &n))
        return NULL;
    if (hl_is(e, "scalarproduct") && hl_is(k[1], "numberconstant")) {
        xmlNode *x = k[0];
        k[0] = k[1];
        k[1] = x;
    }
    const char *vs = hl_attr(k[0], "value");
    char *end = NULL;
    unsigned long long v = vs != NULL && vs[0] >= '0' && vs[0] <= '9'
                               ? strtoull(vs, &end, 10) : 0;
    if (!hl_is(k[0], "numberconstant") || end == NULL || *end != '\0' ||
        v >= (uint64_t)HL_MAX_MULT)
        return hl_fail(m, PN_ERR_INPUT, k[0],
                       "the multiplicity of %s must be a <numberconstant> "
                       "with a value in [0, 2^62)", (const char *)e->name), NULL;
    hl_term *kid = hl_parse_multiset(m, k[1], expect);
    hl_term *t = kid != NULL ? hl_new_term(m, HL_T_NUMBEROF, 1, e) : NULL;
    if (t == NULL)
        return hl_drop(kid);
    t->kids[0] = kid;
    t->sort = kid->sort;
    t->value = v;
    return t;
}

/* add (n >= 1 subterms) or subtract (n >= 2): every operand of one sort. */
static hl_term *hl_add_sub(hl_model *m, xmlNode *e, uint32_t expect, hl_term_kind kind)
{
    uint32_t n;
    xmlNode **kids = hl_all_subterms(m, e, &n);
    if (kids == NULL)
        return NULL;
    hl_term *t = NULL;
    if (kind == HL_T_SUB && n < 2)
        hl_fail(m, PN_ERR_INPUT, e, "needs at least 2 subterms, has %u", n);
    else
        t = hl_new_term(m, kind, n, e);
    for (uint32_t i = 0; t != NULL && i < n; i++) {
        t->kids[i] = hl_parse_multiset(m, kids[i], expect);
        if (t->kids[i] == NULL)
            t = hl_drop(t);
        else if (expect == HL_NONE)
            expect = t->kids[i]->sort;
    }
    free(kids);
    if (t != NULL)
        t->sort = t->kids[0]->sort;
    return t;
}

static hl_term *hl_all(hl_model *m, xmlNode *e, uint32_t expect)
{
    xmlNode *sort = hl_elem(e->children);
    if (sort == NULL)
        return hl_fail(m, PN_ERR_INPUT, e, "<%s> without a sort", (const char *)e->name), NULL;
    uint32_t s = hl_sort_of(m, sort);
    hl_term *t = s != HL_NONE ? hl_new_term(m, HL_T_ALL, 0, e) : NULL;
    if (t != NULL)
        t->sort = s;
    return hl_expect(m, e, t, expect);
}

/* <empty><sort/></empty>: the empty multiset of that sort. */
static hl_term *hl_empty(hl_model *m, xmlNode *e, uint32_t expect)
{
    hl_term *t = hl_all(m, e, expect);
    if (t != NULL)
        t->kind = HL_T_EMPTY;
    return t;
}

hl_term *hl_parse_multiset(hl_model *m, xmlNode *e, uint32_t expect)
{
    if (hl_is(e, "numberof") || hl_is(e, "scalarproduct"))
        return hl_numberof(m, e, expect);
    if (hl_is(e, "empty"))
        return hl_empty(m, e, expect);
    if (hl_is(e, "add"))
        return hl_add_sub(m, e, expect, HL_T_ADD);
    if (hl_is(e, "subtract"))
        return hl_add_sub(m, e, expect, HL_T_SUB);
    if (hl_is(e, "all"))
        return hl_all(m, e, expect);
    if (hl_is(e, "tuple"))
        return hl_expect(m, e, hl_tuple(m, e, expect, true), expect);
    if (hl_is(e, "useroperator"))
        return hl_constant_or_subset(m, e, expect);
    return hl_colour(m, e, expect);
}

/* ---- guards -------------------------------------------------------------- */

static const struct {
    const char *name;
    hl_term_kind kind;
} hl_relations[] = {
    {"equality", HL_G_EQ},      {"inequality", HL_G_NE},
    {"lessthan", HL_G_LT},      {"lessthanorequal", HL_G_LE},
    {"greaterthan", HL_G_GT},   {"greaterthanorequal", HL_G_GE},
};

/* Two colour terms of one sort: a tuple takes its sort from the other side,
 * so the side that is not a tuple is read first. */
static hl_term *hl_relation(hl_model *m, xmlNode *e, hl_term_kind kind)
{
    xmlNode *k[2];
    uint32_t n;
    if (!hl_arity(m, e, 2, 2, k, &n))
        return NULL;
    int first = hl_is(k[0], "tuple") && !hl_is(k[1], "tuple") ? 1 : 0;
    hl_term *t = hl_new_term(m, kind, 2, e);
    if (t == NULL)
        return NULL;
    t->kids[first] = hl_colour(m, k[first], HL_NONE);
    if (t->kids[first] != NULL)
        t->kids[1 - first] = hl_colour(m, k[1 - first], t->kids[first]->sort);
    return t->kids[1 - first] != NULL ? t : hl_drop(t);
}

static hl_term *hl_connective(hl_model *m, xmlNode *e, hl_term_kind kind, uint32_t lo,
                              uint32_t hi)
{
    uint32_t n;
    xmlNode **kids = hl_all_subterms(m, e, &n);
    if (kids == NULL)
        return NULL;
    hl_term *t = NULL;
    if (n < lo || n > hi)
        hl_fail(m, PN_ERR_INPUT, e, "wrong number of subterms (%u)", n);
    else
        t = hl_new_term(m, kind, n, e);
    for (uint32_t i = 0; t != NULL && i < n; i++)
        if ((t->kids[i] = hl_parse_guard(m, kids[i])) == NULL)
            t = hl_drop(t);
    free(kids);
    return t;
}

static hl_term *hl_boolconst(hl_model *m, xmlNode *e)
{
    const char *v = hl_attr(e, "value");
    if (v == NULL || (strcmp(v, "true") != 0 && strcmp(v, "false") != 0))
        return hl_fail(m, PN_ERR_INPUT, e, "value must be true or false"), NULL;
    return hl_new_term(m, strcmp(v, "true") == 0 ? HL_G_TRUE : HL_G_FALSE, 0, e);
}

/* ltp / gtp: the order of two elements of one partition. */
static hl_term *hl_partition_order(hl_model *m, xmlNode *e, hl_term_kind kind)
{
    hl_term *t = hl_relation(m, e, kind);
    if (t != NULL && !hl_sort_is(m, t->kids[0]->sort, HL_SORT_PARTITION)) {
        hl_fail(m, PN_ERR_INPUT, e, "compares terms of sort %s, not partition elements",
                hl_sort_name(m, t->kids[0]->sort));
        return hl_drop(t);
    }
    return t;
}

/* A colour term of the bool sort used as a guard (a bool variable, say):
 * the guard `term = true`. */
static hl_term *hl_bool_guard(hl_model *m, xmlNode *e)
{
    uint32_t bs = hl_bool_sort(m);
    hl_term *kid = bs != HL_NONE ? hl_colour(m, e, bs) : NULL;
    hl_term *yes = kid != NULL ? hl_new_term(m, HL_T_CONST, 0, e) : NULL;
    hl_term *t = yes != NULL ? hl_new_term(m, HL_G_EQ, 2, e) : NULL;
    if (t == NULL) {
        hl_term_free(kid);
        hl_term_free(yes);
        return NULL;
    }
    yes->sort = bs;
    yes->value = 1;
    t->kids[0] = kid;
    t->kids[1] = yes;
    return t;
}

hl_term *hl_parse_guard(hl_model *m, xmlNode *e)
{
    for (size_t i = 0; i < sizeof hl_relations / sizeof hl_relations[0]; i++)
        if (hl_is(e, hl_relations[i].name))
            return hl_relation(m, e, hl_relations[i].kind);
    if (hl_is(e, "ltp"))
        return hl_partition_order(m, e, HL_G_LT);
    if (hl_is(e, "gtp"))
        return hl_partition_order(m, e, HL_G_GT);
    if (hl_is(e, "variable"))
        return hl_bool_guard(m, e);
    if (hl_is(e, "and"))
        return hl_connective(m, e, HL_G_AND, 1, UINT32_MAX);
    if (hl_is(e, "or"))
        return hl_connective(m, e, HL_G_OR, 1, UINT32_MAX);
    if (hl_is(e, "not"))
        return hl_connective(m, e, HL_G_NOT, 1, 1);
    if (hl_is(e, "imply"))
        return hl_connective(m, e, HL_G_IMPLY, 2, 2);
    if (hl_is(e, "booleanconstant"))
        return hl_boolconst(m, e);
    return hl_unknown(m, e, "in a guard"), NULL;
}

/* ---- evaluation ---------------------------------------------------------- */

uint64_t hl_eval_colour(const hl_model *m, const hl_term *t, const uint64_t *b)
{
    uint64_t size = m->sorts[t->sort].size, x, acc = 0;
    switch (t->kind) {
    case HL_T_VAR:
        return b[t->value];
    case HL_T_SUCC: /* cyclic on every sort: the oracles unfold it so */
        x = hl_eval_colour(m, t->kids[0], b);
        return x + 1 == size ? 0 : x + 1;
    case HL_T_PRED:
        x = hl_eval_colour(m, t->kids[0], b);
        return x == 0 ? size - 1 : x - 1;
    case HL_T_TUPLE:
        for (uint32_t i = 0; i < t->n; i++)
            acc = acc * m->sorts[hl_canon(m, t->kids[i]->sort)].size +
                  hl_eval_colour(m, t->kids[i], b);
        return acc;
    case HL_T_PELEM:
        return m->sorts[t->sort].comp[hl_eval_colour(m, t->kids[0], b)];
    default:
        return t->value; /* CONST */
    }
}

static bool hl_compare(const hl_model *m, const hl_term *t, const uint64_t *b)
{
    uint64_t x = hl_eval_colour(m, t->kids[0], b), y = hl_eval_colour(m, t->kids[1], b);
    switch (t->kind) {
    case HL_G_EQ: return x == y;
    case HL_G_NE: return x != y;
    case HL_G_LT: return x < y;
    case HL_G_LE: return x <= y;
    case HL_G_GT: return x > y;
    default: return x >= y;
    }
}

bool hl_eval_guard(const hl_model *m, const hl_term *t, const uint64_t *b)
{
    switch (t->kind) {
    case HL_G_TRUE: return true;
    case HL_G_FALSE: return false;
    case HL_G_NOT: return !hl_eval_guard(m, t->kids[0], b);
    case HL_G_IMPLY: return !hl_eval_guard(m, t->kids[0], b) || hl_eval_guard(m, t->kids[1], b);
    case HL_G_AND:
        for (uint32_t i = 0; i < t->n; i++)
            if (!hl_eval_guard(m, t->kids[i], b))
                return false;
        return true;
    case HL_G_OR:
        for (uint32_t i = 0; i < t->n; i++)
            if (hl_eval_guard(m, t->kids[i], b))
                return true;
        return false;
    default:
        return hl_compare(m, t, b);
    }
}

static pn_status hl_bag_fail(hl_model *m, const hl_term *t, const char *what)
{
    return pn_fail(m->err, PN_ERR_INPUT, "%s:%ld: %s: %s", m->label, t->line,
                   t->kind == HL_T_SUB ? "subtract" : "numberof", what);
}

/* Every entry is a step, and the bag is bounded: <add> of many <all> of a
 * big sort would otherwise grow it past any memory before merging. */
static pn_status hl_bag_push(hl_model *m, const hl_term *t, hl_bag *bag, uint64_t colour,
                             int64_t count)
{
    pn_status st = hl_spend(m, NULL, t->line, 1);
    if (st != PN_OK)
        return st;
    if (bag->n >= m->limits.bag)
        return pn_fail(m->err, PN_ERR_UNSUPPORTED, "%s:%ld: a multiset of more than %" PRIu64
                       " entries", m->label, t->line, m->limits.bag);
    if (!hl_bag_reserve(bag, bag->n + 1))
        return hl_nomem(m);
    bag->p[bag->n++] = (hl_pair){colour, count};
    return PN_OK;
}

bool hl_bag_reserve(hl_bag *bag, size_t need)
{
    if (need <= bag->cap)
        return true;
    size_t ncap = bag->cap ? bag->cap : 64;
    while (ncap < need)
        ncap = ncap <= SIZE_MAX / 2 ? ncap * 2 : need;
    hl_pair *p = ncap <= SIZE_MAX / sizeof *p ? realloc(bag->p, ncap * sizeof *p) : NULL;
    if (p == NULL)
        return false;
    bag->p = p;
    bag->cap = ncap;
    return true;
}

static int hl_pair_cmp(const void *a, const void *b)
{
    uint64_t x = ((const hl_pair *)a)->colour, y = ((const hl_pair *)b)->colour;
    return (x > y) - (x < y);
}

bool hl_bag_merge(hl_bag *bag, size_t from)
{
    if (bag->n == from) /* nothing to merge, and bag->p may still be NULL */
        return true;
    qsort(bag->p + from, bag->n - from, sizeof *bag->p, hl_pair_cmp);
    size_t out = from;
    for (size_t i = from; i < bag->n; i++) {
        if (out > from && bag->p[out - 1].colour == bag->p[i].colour) {
            bag->p[out - 1].count += bag->p[i].count; /* |each| < 2^62 */
            if (bag->p[out - 1].count >= HL_MAX_MULT || bag->p[out - 1].count <= -HL_MAX_MULT)
                return false;
        } else {
            bag->p[out++] = bag->p[i];
        }
        if (bag->p[out - 1].count == 0)
            out--;
    }
    bag->n = out;
    return true;
}

static pn_status hl_bag_add(hl_model *m, const hl_term *t, const uint64_t *b, int64_t coef,
                            hl_bag *bag);

/* a - b - ...: computed on its own and checked, since multiset subtraction
 * is only defined when every operand after the first is included in it. */
static pn_status hl_bag_sub(hl_model *m, const hl_term *t, const uint64_t *b, int64_t coef,
                            hl_bag *bag)
{
    size_t from = bag->n;
    pn_status st = PN_OK;
    for (uint32_t i = 0; i < t->n && st == PN_OK; i++)
        st = hl_bag_add(m, t->kids[i], b, i == 0 ? coef : -coef, bag);
    if (st != PN_OK)
        return st;
    if (!hl_bag_merge(bag, from))
        return hl_bag_fail(m, t, "multiplicity beyond 2^62");
    for (size_t i = from; i < bag->n; i++)
        if ((bag->p[i].count < 0) != (coef < 0))
            return hl_bag_fail(m, t, "removes more tokens of a colour than there are "
                                     "(negative multiset)");
    return PN_OK;
}

/* Components k.. of a tuple with <all> components; acc is the colour index
 * of the components before k. */
static pn_status hl_bag_tuple(hl_model *m, const hl_term *t, const uint64_t *b, int64_t coef,
                              uint32_t k, uint64_t acc, hl_bag *bag)
{
    if (k == t->n)
        return hl_bag_push(m, t, bag, acc, coef);
    const hl_term *kid = t->kids[k];
    uint64_t size = m->sorts[hl_canon(m, kid->sort)].size;
    if (!hl_term_is_multiset(kid))
        return hl_bag_tuple(m, t, b, coef, k + 1, acc * size + hl_eval_colour(m, kid, b), bag);
    pn_status st = PN_OK;
    if (kid->kind == HL_T_ALL) {
        for (uint64_t c = 0; c < size && st == PN_OK; c++)
            st = hl_bag_tuple(m, t, b, coef, k + 1, acc * size + c, bag);
        return st;
    }
    /* Any other multiset component: its own bag, each colour times its count. */
    hl_bag part = {NULL, 0, 0};
    st = hl_eval_bag(m, kid, b, &part);
    for (size_t i = 0; i < part.n && st == PN_OK; i++) {
        int64_t n = part.p[i].count; /* 0 < n < 2^62 */
        if ((uint64_t)(coef < 0 ? -coef : coef) >= (uint64_t)HL_MAX_MULT / (uint64_t)n)
            st = hl_bag_fail(m, t, "multiplicity beyond 2^62");
        else
            st = hl_bag_tuple(m, t, b, coef * n, k + 1, acc * size + part.p[i].colour, bag);
    }
    free(part.p);
    return st;
}

static pn_status hl_bag_add(hl_model *m, const hl_term *t, const uint64_t *b, int64_t coef,
                            hl_bag *bag)
{
    pn_status st = PN_OK;
    if (t->kind == HL_T_TUPLE && hl_term_is_multiset(t))
        return hl_bag_tuple(m, t, b, coef, 0, 0, bag);
    switch (t->kind) {
    case HL_T_NUMBEROF:
        if (t->value == 0)
            return PN_OK;
        if ((uint64_t)(coef < 0 ? -coef : coef) >= (uint64_t)HL_MAX_MULT / t->value)
            return hl_bag_fail(m, t, "multiplicity beyond 2^62");
        return hl_bag_add(m, t->kids[0], b, coef * (int64_t)t->value, bag);
    case HL_T_ADD:
        for (uint32_t i = 0; i < t->n && st == PN_OK; i++)
            st = hl_bag_add(m, t->kids[i], b, coef, bag);
        return st;
    case HL_T_SUB:
        return hl_bag_sub(m, t, b, coef, bag);
    case HL_T_ALL:
        for (uint64_t c = 0; c < m->sorts[t->sort].size && st == PN_OK; c++)
            st = hl_bag_push(m, t, bag, c, coef);
        return st;
    case HL_T_EMPTY:
        return PN_OK;
    case HL_T_SUBSET: {
        const hl_sort *ps = &m->sorts[hl_canon(m, t->kids[0]->sort)];
        for (uint64_t c = 0; c < m->sorts[t->sort].size && st == PN_OK; c++)
            if (ps->comp[c] == t->kids[0]->value)
                st = hl_bag_push(m, t, bag, c, coef);
        return st;
    }
    default:
        return hl_bag_push(m, t, bag, hl_eval_colour(m, t, b), coef);
    }
}

pn_status hl_eval_bag(hl_model *m, const hl_term *t, const uint64_t *b, hl_bag *bag)
{
    bag->n = 0;
    pn_status st = hl_bag_add(m, t, b, 1, bag);
    if (st == PN_OK && !hl_bag_merge(bag, 0))
        return hl_bag_fail(m, t, "multiplicity beyond 2^62");
    return st;
}
