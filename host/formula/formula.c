#include "petrel/formula.h"

#include <stdlib.h>
#include <string.h>

static pn_fml_node *fml_alloc(pn_fml_kind kind)
{
    pn_fml_node *n = calloc(1, sizeof *n);
    if (n != NULL)
        n->kind = kind;
    return n;
}

void pn_fml_free(pn_fml_node *n)
{
    if (n == NULL)
        return;
    for (uint32_t i = 0; i < n->n && n->kids != NULL; i++)
        pn_fml_free(n->kids[i]);
    free(n->kids);
    free(n->idx);
    free(n);
}

pn_fml_node *pn_fml_leaf(pn_fml_kind kind)
{
    if (kind != PN_FML_TRUE && kind != PN_FML_FALSE && kind != PN_FML_DEADLOCK)
        return NULL;
    return fml_alloc(kind);
}

pn_fml_node *pn_fml_const(uint64_t value)
{
    pn_fml_node *n = fml_alloc(PN_FML_CONST);
    if (n != NULL)
        n->value = value;
    return n;
}

pn_fml_node *pn_fml_list(pn_fml_kind kind, const uint32_t *idx, uint32_t n)
{
    if ((kind != PN_FML_FIREABLE && kind != PN_FML_TOKENS &&
         kind != PN_FML_PLACE_BOUND && kind != PN_FML_ACTION) || n == 0)
        return NULL;
    pn_fml_node *node = fml_alloc(kind);
    if (node == NULL)
        return NULL;
    node->idx = malloc((size_t)n * sizeof *node->idx);
    if (node->idx == NULL) {
        free(node);
        return NULL;
    }
    memcpy(node->idx, idx, (size_t)n * sizeof *idx);
    node->n = n;
    return node;
}

static bool fml_kind_is_unary(pn_fml_kind kind)
{
    return kind == PN_FML_NOT || kind == PN_FML_A || kind == PN_FML_E ||
           kind == PN_FML_X || kind == PN_FML_F || kind == PN_FML_G;
}

/* Takes the kids whatever happens, so a failed build leaks nothing. */
static pn_fml_node *fml_op(pn_fml_kind kind, pn_fml_node **kids, uint32_t n)
{
    pn_fml_node *node = NULL;
    bool ok = n > 0;
    for (uint32_t i = 0; i < n; i++)
        ok = ok && kids[i] != NULL;
    if (ok)
        node = fml_alloc(kind);
    if (node != NULL)
        node->kids = malloc((size_t)n * sizeof *node->kids);
    if (node == NULL || node->kids == NULL) {
        for (uint32_t i = 0; i < n; i++)
            pn_fml_free(kids[i]);
        free(node);
        return NULL;
    }
    memcpy(node->kids, kids, (size_t)n * sizeof *kids);
    node->n = n;
    return node;
}

pn_fml_node *pn_fml_unary(pn_fml_kind kind, pn_fml_node *a)
{
    if (!fml_kind_is_unary(kind)) {
        pn_fml_free(a);
        return NULL;
    }
    return fml_op(kind, &a, 1);
}

pn_fml_node *pn_fml_binary(pn_fml_kind kind, pn_fml_node *a, pn_fml_node *b)
{
    pn_fml_node *kids[2] = {a, b};
    if (kind != PN_FML_AND && kind != PN_FML_OR && kind != PN_FML_INT_LE &&
        kind != PN_FML_U) {
        pn_fml_free(a);
        pn_fml_free(b);
        return NULL;
    }
    return fml_op(kind, kids, 2);
}

pn_fml_node *pn_fml_nary(pn_fml_kind kind, pn_fml_node **kids, uint32_t n)
{
    if (kind != PN_FML_AND && kind != PN_FML_OR) {
        for (uint32_t i = 0; i < n; i++)
            pn_fml_free(kids[i]);
        return NULL;
    }
    return fml_op(kind, kids, n);
}

pn_fml_node *pn_fml_clone(const pn_fml_node *n)
{
    if (n == NULL)
        return NULL;
    if (n->idx != NULL)
        return pn_fml_list(n->kind, n->idx, n->n);
    pn_fml_node *c = fml_alloc(n->kind);
    if (c == NULL || n->kids == NULL) {
        if (c != NULL)
            c->value = n->value;
        return c;
    }
    c->kids = calloc(n->n, sizeof *c->kids);
    if (c->kids == NULL) {
        free(c);
        return NULL;
    }
    c->n = n->n;
    for (uint32_t i = 0; i < n->n; i++) {
        c->kids[i] = pn_fml_clone(n->kids[i]);
        if (c->kids[i] == NULL) {
            pn_fml_free(c);
            return NULL;
        }
    }
    return c;
}

bool pn_fml_equal(const pn_fml_node *a, const pn_fml_node *b)
{
    if (a == b)
        return true;
    if (a == NULL || b == NULL || a->kind != b->kind || a->n != b->n ||
        a->value != b->value)
        return false;
    if ((a->idx == NULL) != (b->idx == NULL) ||
        (a->kids == NULL) != (b->kids == NULL))
        return false;
    if (a->idx != NULL && memcmp(a->idx, b->idx, (size_t)a->n * sizeof *a->idx) != 0)
        return false;
    for (uint32_t i = 0; a->kids != NULL && i < a->n; i++)
        if (!pn_fml_equal(a->kids[i], b->kids[i]))
            return false;
    return true;
}

bool pn_fml_is_int(const pn_fml_node *n)
{
    return n->kind == PN_FML_CONST || n->kind == PN_FML_TOKENS ||
           n->kind == PN_FML_PLACE_BOUND;
}

bool pn_fml_is_state(const pn_fml_node *n)
{
    switch (n->kind) {
    case PN_FML_TRUE:
    case PN_FML_FALSE:
    case PN_FML_DEADLOCK:
    case PN_FML_FIREABLE:
    case PN_FML_ACTION:
        return true;
    case PN_FML_INT_LE:
        /* A bound is a maximum over the state space, not a marking's value. */
        return n->kids[0]->kind != PN_FML_PLACE_BOUND &&
               n->kids[1]->kind != PN_FML_PLACE_BOUND;
    case PN_FML_NOT:
    case PN_FML_AND:
    case PN_FML_OR:
        for (uint32_t i = 0; i < n->n; i++)
            if (!pn_fml_is_state(n->kids[i]))
                return false;
        return true;
    default:
        return false;
    }
}

pn_fml_reach pn_fml_reach_shape(const pn_fml_node *n, const pn_fml_node **phi)
{
    pn_fml_reach r = PN_FML_REACH_NONE;
    const pn_fml_node *inner = NULL;
    if (n->kind == PN_FML_E && n->kids[0]->kind == PN_FML_F)
        r = PN_FML_REACH_EF;
    else if (n->kind == PN_FML_A && n->kids[0]->kind == PN_FML_G)
        r = PN_FML_REACH_AG;
    if (r != PN_FML_REACH_NONE)
        inner = n->kids[0]->kids[0];
    if (r != PN_FML_REACH_NONE && !pn_fml_is_state(inner))
        r = PN_FML_REACH_NONE;
    if (phi != NULL)
        *phi = r != PN_FML_REACH_NONE ? inner : NULL;
    return r;
}
