/* What comes out of a reduction: the formulas rewritten onto the reduced
 * net (for the builder, reduce_build.c), traces on it expanded back onto
 * the original net, and the result freed. It calls nothing else of
 * host/reduce, so the builder, the agglomeration pass and the driver
 * (reduce_driver.c) all use it without a loop. */
#include "reduce/reduce_work.h"

#include <stdlib.h>
#include <string.h>

/* ---- the formulas ------------------------------------------------------- */

/* The kept transition t stands for (following duplicates), or a marker. */
static uint32_t red_resolve(const red_work *w, uint32_t t)
{
    while (t < RED_T_NULL && w->tmap[t] != t)
        t = w->tmap[t];
    return t;
}

static pn_fml_node *red_map_list(const red_work *w, const red_maps *m, const pn_fml_node *n)
{
    uint32_t *idx = malloc(((size_t)n->n + 1) * sizeof *idx), k = 0;
    if (idx == NULL)
        return NULL;
    bool bad = false;
    for (uint32_t i = 0; i < n->n; i++) {
        if (n->kind != PN_FML_FIREABLE) {
            bad |= m->pnew[n->idx[i]] == UINT32_MAX; /* observed places are kept */
            idx[k++] = m->pnew[n->idx[i]];
            continue;
        }
        uint32_t t = red_resolve(w, n->idx[i]);
        bad |= t == RED_T_NULL; /* observed transitions are never null-removed */
        if (t < RED_T_NULL)
            idx[k++] = m->tnew[t];
    }
    pn_fml_node *r = bad ? NULL : k == 0 ? pn_fml_leaf(PN_FML_FALSE) : pn_fml_list(n->kind, idx, k);
    free(idx);
    return r;
}

/* A copy of n on the reduced net; NULL when out of memory. */
static pn_fml_node *red_map(const red_work *w, const red_maps *m, const pn_fml_node *n)
{
    if (n->idx != NULL)
        return red_map_list(w, m, n);
    pn_fml_node *c = pn_fml_clone(n);
    if (c == NULL)
        return NULL;
    for (uint32_t i = 0; c->kids != NULL && i < c->n; i++) {
        pn_fml_node *k = red_map(w, m, n->kids[i]);
        if (k == NULL) {
            pn_fml_free(c);
            return NULL;
        }
        pn_fml_free(c->kids[i]);
        c->kids[i] = k;
    }
    return c;
}

pn_status red_map_set(const red_work *w, const red_maps *m, const pn_fml_set *set,
                             const pn_net *net, pn_fml_set **out, pn_error *err)
{
    pn_fml_set *s = calloc(1, sizeof *s);
    if (s == NULL || (s->props = calloc((size_t)set->n + 1, sizeof *s->props)) == NULL) {
        free(s);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    }
    *out = s;
    s->net = net;
    for (uint32_t i = 0; i < set->n; i++, s->n++) {
        const pn_fml_prop *p = &set->props[i];
        pn_fml_prop *q = &s->props[i];
        q->status = p->status;
        q->id = strdup(p->id);
        q->error = p->error != NULL ? strdup(p->error) : NULL;
        q->root = p->root != NULL ? red_map(w, m, p->root) : NULL;
        if (q->id == NULL || (p->error != NULL && q->error == NULL) ||
            (p->root != NULL && q->root == NULL))
            return pn_fail(err, PN_ERR_NOMEM, "out of memory rewriting formula %s", p->id);
    }
    return pn_fml_set_simplify(s, err);
}

/* ---- traces and the result --------------------------------------------- */

pn_status pn_reduce_expand(const pn_reduced *r, const uint32_t *trans, uint64_t n,
                           uint32_t **out, uint64_t *n_out, pn_error *err)
{
    *out = NULL;
    *n_out = 0;
    uint64_t len = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (trans[i] == UINT32_MAX && ++len <= PN_RED_EXPAND_MAX)
            continue;
        for (uint32_t k = r->word_off[trans[i]]; k < r->word_off[trans[i] + 1]; k++)
            if (__builtin_add_overflow(len, r->word[k].times, &len) || len > PN_RED_EXPAND_MAX)
                return pn_fail(err, PN_ERR_UNSUPPORTED,
                               "the trace on the original net has over %u steps",
                               (unsigned)PN_RED_EXPAND_MAX);
    }
    uint32_t *o = malloc((len + 1) * sizeof *o);
    if (o == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    uint64_t at = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (trans[i] == UINT32_MAX) { /* a lasso's deadlock step: a deadlock of both nets */
            o[at++] = UINT32_MAX;
            continue;
        }
        for (uint32_t k = r->word_off[trans[i]]; k < r->word_off[trans[i] + 1]; k++)
            for (uint64_t j = 0; j < r->word[k].times; j++)
                o[at++] = r->word[k].t;
    }
    *out = o;
    *n_out = len;
    return PN_OK;
}

bool pn_reduce_changed(const pn_reduced *r)
{
    return r != NULL && (r->net->n_places != r->places_before ||
                         r->net->n_transitions != r->transitions_before ||
                         r->removed[PN_RED_CONSTANT_PLACE] > 0);
}

void pn_reduced_free(pn_reduced *r)
{
    if (r == NULL)
        return;
    pn_fml_set_free(r->set);
    free(r->word_off);
    free(r->word);
    pn_cnet_free(r->cn);
    pn_net_free(r->net);
    free(r);
}
