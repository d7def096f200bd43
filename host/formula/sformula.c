#include "formula/sformula.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    pn_sformula_owned *sf;
    uint32_t cap_code, cap_list, n_list, depth;
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

static void sf_note_depth(sf_builder *b, uint32_t sp)
{
    if (sp > b->depth)
        b->depth = sp;
}

/* Post-order emission; sp is the stack height before this node. */
static pn_status sf_emit(sf_builder *b, const pn_fml_node *n, uint32_t sp, pn_error *err)
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
    case PN_FML_AND:
    case PN_FML_OR:
        for (uint32_t k = 0; k < n->n; k++)
            if (sf_emit(b, n->kids[k], sp + k, err) != PN_OK)
                return err->code;
        in.op = n->kind == PN_FML_NOT ? PN_SF_NOT : n->kind == PN_FML_AND ? PN_SF_AND : PN_SF_OR;
        in.n = n->n;
        break;
    default:
        return pn_fail(err, PN_ERR_INTERNAL, "not a state formula");
    }
    sf_note_depth(b, sp + 1);
    if (!sf_push_code(b, in))
        return pn_fail(err, PN_ERR_NOMEM, "out of memory compiling a formula");
    return PN_OK;
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
    if (sf_emit(&b, phi, 0, err) != PN_OK) {
        pn_sformula_free(b.sf);
        return err->code;
    }
    b.sf->f.code = b.sf->code;
    b.sf->f.list = b.sf->list;
    b.sf->f.max_stack = b.depth;
    *out = b.sf;
    return PN_OK;
}
