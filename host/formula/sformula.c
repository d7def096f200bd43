/* Compiling a state formula to the short-circuit program of
 * kernels/pn_sformula.h: && and || lowered to conditional jumps as in any
 * compiler ("Compilers: Principles, Techniques, and Tools", Aho, Lam, Sethi,
 * Ullman, section 6.6, jumping code), with jumps to jumps threaded. */
#include "formula/sformula.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    pn_sformula_owned *sf;
    uint32_t cap_code, cap_list, n_list;
} sf_builder;

static bool sf_push_code(sf_builder *b, pn_sf_instr in)
{
    pn_sformula_owned *sf = b->sf;
    if (sf->f.len == b->cap_code) {
        uint32_t cap = b->cap_code ? b->cap_code * 2 : 16;
        pn_sf_instr *c = realloc(sf->code, cap * sizeof *c);
        if (c == NULL)
            return false;
        sf->code = c;
        b->cap_code = cap;
    }
    sf->code[sf->f.len++] = in;
    return true;
}

/* Appends idx[0..n) to the shared list; *off gets where. */
static bool sf_push_list(sf_builder *b, const uint32_t *idx, uint32_t n, uint32_t *off)
{
    pn_sformula_owned *sf = b->sf;
    while (b->n_list + n > b->cap_list) {
        uint32_t cap = b->cap_list ? b->cap_list * 2 : 16;
        uint32_t *l = realloc(sf->list, cap * sizeof *l);
        if (l == NULL)
            return false;
        sf->list = l;
        b->cap_list = cap;
    }
    memcpy(sf->list + b->n_list, idx, n * sizeof *idx);
    *off = b->n_list;
    b->n_list += n;
    return true;
}

static bool sf_term(sf_builder *b, const pn_fml_node *e, pn_sf_term *t)
{
    memset(t, 0, sizeof *t);
    if (e->kind == PN_FML_CONST) {
        t->value = e->value;
        return true;
    }
    if (e->kind != PN_FML_TOKENS && e->kind != PN_FML_PLACE_BOUND)
        return false;
    t->n = e->n;
    return sf_push_list(b, e->idx, e->n, &t->off);
}

/* The jumps of one AND/OR are chained through their targets until the
 * end of its operands is known (backpatching): *chain is the last one. */
static pn_status sf_emit(sf_builder *b, const pn_fml_node *n, pn_error *err);

/* What evaluating n costs at most: the places and transitions it reads. */
static uint64_t sf_cost(const pn_fml_node *n)
{
    switch (n->kind) {
    case PN_FML_FIREABLE: return n->n;
    case PN_FML_INT_LE: return 1 + n->kids[0]->n + n->kids[1]->n;
    case PN_FML_NOT: return sf_cost(n->kids[0]);
    case PN_FML_AND:
    case PN_FML_OR: {
        uint64_t c = 0;
        for (uint32_t k = 0; k < n->n; k++)
            c += sf_cost(n->kids[k]);
        return c;
    }
    default: return 1;
    }
}

/* The operands of n, cheapest first (insertion sort: operand lists are
 * short): AND and OR do not depend on the order, and an operand that
 * decides the junction then spares the costlier ones. */
static uint32_t *sf_order(const pn_fml_node *n)
{
    uint32_t *ord = malloc((size_t)n->n * sizeof *ord);
    uint64_t *cost = malloc((size_t)n->n * sizeof *cost);
    if (ord == NULL || cost == NULL) {
        free(ord);
        free(cost);
        return NULL;
    }
    for (uint32_t k = 0; k < n->n; k++) {
        uint64_t c = sf_cost(n->kids[k]);
        uint32_t j = k;
        for (; j > 0 && cost[j - 1] > c; j--) {
            cost[j] = cost[j - 1];
            ord[j] = ord[j - 1];
        }
        cost[j] = c;
        ord[j] = k;
    }
    free(cost);
    return ord;
}

static pn_status sf_emit_junction(sf_builder *b, const pn_fml_node *n, pn_error *err)
{
    bool is_and = n->kind == PN_FML_AND;
    pn_sf_instr in;
    memset(&in, 0, sizeof in);
    if (n->n == 0) { /* the empty AND is true, the empty OR false */
        in.op = is_and ? PN_SF_TRUE : PN_SF_FALSE;
        return sf_push_code(b, in) ? PN_OK
                                   : pn_fail(err, PN_ERR_NOMEM, "out of memory compiling a formula");
    }
    uint32_t *ord = sf_order(n);
    if (ord == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory compiling a formula");
    uint32_t chain = UINT32_MAX;
    pn_status st = PN_OK;
    for (uint32_t k = 0; k < n->n && st == PN_OK; k++) {
        st = sf_emit(b, n->kids[ord[k]], err);
        if (st != PN_OK || k + 1 == n->n)
            break;
        in.op = is_and ? PN_SF_JUMP_FALSE : PN_SF_JUMP_TRUE;
        in.n = chain;
        chain = b->sf->f.len;
        if (!sf_push_code(b, in))
            st = pn_fail(err, PN_ERR_NOMEM, "out of memory compiling a formula");
    }
    free(ord);
    if (st != PN_OK)
        return st;
    uint32_t end = b->sf->f.len;
    while (chain != UINT32_MAX) {
        uint32_t next = b->sf->code[chain].n;
        b->sf->code[chain].n = end;
        chain = next;
    }
    return PN_OK;
}

static pn_status sf_emit(sf_builder *b, const pn_fml_node *n, pn_error *err)
{
    pn_sf_instr in;
    memset(&in, 0, sizeof in);
    switch (n->kind) {
    case PN_FML_TRUE: in.op = PN_SF_TRUE; break;
    case PN_FML_FALSE: in.op = PN_SF_FALSE; break;
    case PN_FML_DEADLOCK: in.op = PN_SF_DEADLOCK; break;
    case PN_FML_FIREABLE:
        in.op = PN_SF_FIREABLE;
        in.a.n = n->n;
        if (!sf_push_list(b, n->idx, n->n, &in.a.off))
            return pn_fail(err, PN_ERR_NOMEM, "out of memory compiling a formula");
        break;
    case PN_FML_INT_LE:
        in.op = PN_SF_LE;
        if (!sf_term(b, n->kids[0], &in.a) || !sf_term(b, n->kids[1], &in.b))
            return pn_fail(err, PN_ERR_INTERNAL, "malformed comparison in a formula");
        break;
    case PN_FML_NOT:
        if (sf_emit(b, n->kids[0], err) != PN_OK)
            return err->code;
        in.op = PN_SF_NOT;
        break;
    case PN_FML_AND:
    case PN_FML_OR:
        return sf_emit_junction(b, n, err);
    case PN_FML_ACTION:
        return pn_fail(err, PN_ERR_UNSUPPORTED,
                       "an action atom where a state formula is expected");
    default:
        return pn_fail(err, PN_ERR_INTERNAL, "not a state formula");
    }
    if (!sf_push_code(b, in))
        return pn_fail(err, PN_ERR_NOMEM, "out of memory compiling a formula");
    return PN_OK;
}

/* A jump that lands on a jump taken under the same condition goes straight
 * to its target; one that lands on the opposite jump (not taken then) goes
 * just past it. Nested ANDs and ORs then cost one jump, not one per level.
 * Targets only point forward, so each walk ends. */
static void sf_thread_jumps(pn_sformula_owned *sf)
{
    for (uint32_t i = 0; i < sf->f.len; i++) {
        uint32_t op = sf->code[i].op;
        if (op != PN_SF_JUMP_FALSE && op != PN_SF_JUMP_TRUE)
            continue;
        uint32_t t = sf->code[i].n;
        while (t < sf->f.len) {
            uint32_t o = sf->code[t].op;
            if (o == op)
                t = sf->code[t].n;
            else if (o == PN_SF_JUMP_FALSE || o == PN_SF_JUMP_TRUE)
                t = t + 1;
            else
                break;
        }
        sf->code[i].n = t;
    }
}

void pn_sformula_free(pn_sformula_owned *sf)
{
    if (sf == NULL)
        return;
    free(sf->code);
    free(sf->list);
    free(sf);
}

pn_status pn_sformula_compile(const pn_fml_node *phi, pn_sformula_owned **out, pn_error *err)
{
    *out = NULL;
    sf_builder b = {0};
    b.sf = calloc(1, sizeof *b.sf);
    if (b.sf == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory compiling a formula");
    if (sf_emit(&b, phi, err) != PN_OK) {
        pn_sformula_free(b.sf);
        return err->code;
    }
    b.sf->f.code = b.sf->code;
    b.sf->f.list = b.sf->list;
    sf_thread_jumps(b.sf);
    *out = b.sf;
    return PN_OK;
}
