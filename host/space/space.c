/* The pn_space dispatch: each operation goes to the first space in the
 * chain of layers that implements it (LTSmin's PINS wrappers work the same
 * way). The static information always comes from the P/T net at the
 * bottom. */
#include "petrel/space.h"

#include <stdlib.h>

#include "space/pt.h"

/* The first space, from sp inwards, whose ops implement field f. */
#define SPACE_FIND(sp, f)                    \
    while ((sp)->ops->f == NULL)             \
        (sp) = (sp)->inner

pn_status pn_space_layer_new(const pn_space_ops *ops, void *self, pn_space *inner,
                             pn_space **out, pn_error *err)
{
    *out = calloc(1, sizeof **out);
    if (*out == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for a state space layer");
    (*out)->ops = ops;
    (*out)->self = self;
    (*out)->inner = inner;
    (*out)->pt = inner->pt;
    (*out)->mod = inner->mod;
    return PN_OK;
}

void pn_space_free(pn_space *sp)
{
    while (sp != NULL) {
        pn_space *inner = sp->inner;
        if (sp->ops->free != NULL)
            sp->ops->free(sp->self);
        free(sp);
        sp = inner;
    }
}

uint32_t pn_space_words(pn_space *sp)
{
    SPACE_FIND(sp, words);
    return sp->ops->words(sp->self, sp->inner);
}

void pn_space_initial(pn_space *sp, uint64_t *s)
{
    SPACE_FIND(sp, initial);
    sp->ops->initial(sp->self, sp->inner, s);
}

uint32_t pn_space_next_all(pn_space *sp, const uint64_t *s, pn_space_succ_fn fn, void *ctx)
{
    SPACE_FIND(sp, next_all);
    return sp->ops->next_all(sp->self, sp->inner, s, fn, ctx);
}

bool pn_space_defers(pn_space *sp)
{
    pn_space *next = sp, *en = sp, *fire = sp;
    SPACE_FIND(next, next_all);
    SPACE_FIND(en, enabled);
    SPACE_FIND(fire, fire);
    return next->ops->next_is_enabled && next == en && next == fire;
}

uint32_t pn_space_next_all_unreduced(pn_space *sp, const uint64_t *s, pn_space_succ_fn fn,
                                     void *ctx)
{
    while (sp->ops->next_all == NULL || sp->ops->reduces)
        sp = sp->inner;
    return sp->ops->next_all(sp->self, sp->inner, s, fn, ctx);
}

bool pn_space_reduces(const pn_space *sp)
{
    for (; sp != NULL; sp = sp->inner)
        if (sp->ops->reduces)
            return true;
    return false;
}

uint32_t pn_space_fire(pn_space *sp, const uint64_t *s, uint32_t t, uint64_t *out)
{
    SPACE_FIND(sp, fire);
    return sp->ops->fire(sp->self, sp->inner, s, t, out);
}

uint32_t pn_space_enabled(pn_space *sp, const uint64_t *s, uint32_t *out)
{
    SPACE_FIND(sp, enabled);
    return sp->ops->enabled(sp->self, sp->inner, s, out);
}

bool pn_space_enabled_one(pn_space *sp, const uint64_t *s, uint32_t t)
{
    for (pn_space *x = sp; x != NULL; x = x->inner)
        if (x->ops->enabled_one != NULL)
            return x->ops->enabled_one(x->self, x->inner, s, t);
    uint32_t T = pn_space_transitions(sp);
    uint32_t *en = malloc(((size_t)T + 1) * sizeof *en);
    bool found = false;
    uint32_t n = en != NULL ? pn_space_enabled(sp, s, en) : 0;
    for (uint32_t k = 0; k < n && !found; k++)
        found = en[k] == t;
    free(en);
    return found;
}

void pn_space_marking(pn_space *sp, const uint64_t *s, uint64_t *m)
{
    SPACE_FIND(sp, marking);
    sp->ops->marking(sp->self, sp->inner, s, m);
}

pn_status pn_space_widen(pn_space *sp, const uint32_t *places, uint32_t n, pn_error *err)
{
    SPACE_FIND(sp, widen);
    return sp->ops->widen(sp->self, sp->inner, places, n, err);
}

void pn_space_repack(pn_space *sp, const uint64_t *old_s, uint64_t *s)
{
    SPACE_FIND(sp, repack);
    sp->ops->repack(sp->self, sp->inner, old_s, s);
}

uint64_t pn_space_hash(const uint64_t *s, uint32_t words) { return pn_state_hash(s, words); }

uint32_t pn_space_places(const pn_space *sp)
{
    return sp->pt != NULL ? sp->pt->cn->n_places : sp->mod->places;
}

uint32_t pn_space_transitions(const pn_space *sp)
{
    return sp->pt != NULL ? sp->pt->cn->n_transitions : sp->mod->transitions;
}

const pn_cnet *pn_space_cnet(const pn_space *sp) { return sp->pt != NULL ? sp->pt->cn : NULL; }

pn_space_csr pn_space_reads(const pn_space *sp)
{
    if (sp->pt == NULL)
        return (pn_space_csr){sp->mod->rd_off, sp->mod->rd};
    return (pn_space_csr){sp->pt->rd_off, sp->pt->rd};
}

pn_space_csr pn_space_writes(const pn_space *sp)
{
    if (sp->pt == NULL)
        return (pn_space_csr){sp->mod->wr_off, sp->mod->wr};
    return (pn_space_csr){sp->pt->wr_off, sp->pt->wr};
}

pn_status pn_space_may_enable(pn_space *sp, pn_space_csr *out, pn_error *err)
{
    if (sp->pt == NULL) {
        *out = (pn_space_csr){sp->mod->en_off, sp->mod->en};
        return PN_OK;
    }
    pn_status st = pn_pt_static_relations(sp->pt, err);
    *out = (pn_space_csr){sp->pt->en_off, sp->pt->en};
    return st;
}

pn_status pn_space_may_disable(pn_space *sp, pn_space_csr *out, pn_error *err)
{
    if (sp->pt == NULL) {
        *out = (pn_space_csr){sp->mod->dis_off, sp->mod->dis};
        return PN_OK;
    }
    pn_status st = pn_pt_static_relations(sp->pt, err);
    *out = (pn_space_csr){sp->pt->dis_off, sp->pt->dis};
    return st;
}

pn_space_field pn_space_place_field(pn_space *sp, uint32_t place)
{
    if (sp->pt == NULL)
        return sp->mod->field[place];
    const pn_op *f = &sp->pt->lay->prog.field[place];
    return (pn_space_field){f->word, f->shift, sp->pt->lay->width[place]};
}

uint32_t pn_space_bit_place(pn_space *sp, uint32_t w, uint32_t b)
{
    if (sp->pt == NULL)
        return sp->mod->bit_place[w * 64 + b];
    return sp->pt->lay->prog.bit_place[w * 64 + b]; /* UINT32_MAX for unused bits */
}
