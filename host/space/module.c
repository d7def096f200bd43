/* What every language module other than the P/T net shares: its base
 * pn_space, and the static relations derived from the places each
 * transition reads and writes. Two transitions with disjoint writes and
 * reads commute (the independence LTSmin's PINS dependency matrices give,
 * Blom, van de Pol and Weber, CAV 2010): t may enable or disable u only
 * where t writes a place u reads. */
#include <stdlib.h>
#include <string.h>

#include "space/pt.h"

pn_status pn_space_module_new(const pn_space_ops *ops, void *self, const pn_space_statics *st,
                              pn_space **out, pn_error *err)
{
    *out = calloc(1, sizeof **out);
    if (*out == NULL) {
        if (ops->free != NULL)
            ops->free(self);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for a state space");
    }
    **out = (pn_space){.ops = ops, .self = self, .inner = NULL, .pt = NULL, .mod = st};
    return PN_OK;
}

/* The transitions u with rd(u) ∩ wr(t) non-empty, per t (CSR). */
static pn_status statics_rel(pn_space_statics *st, uint32_t **off_out, uint32_t **items_out,
                             pn_error *err)
{
    uint32_t T = st->transitions, P = st->places;
    uint32_t *roff = calloc((size_t)P + 2, sizeof *roff); /* readers per place */
    uint32_t *readers = malloc(((size_t)st->rd_off[T] + 1) * sizeof *readers);
    uint32_t *mark = malloc(((size_t)T + 1) * sizeof *mark);
    uint32_t *off = calloc((size_t)T + 2, sizeof *off);
    uint32_t *items = NULL;
    if (roff == NULL || readers == NULL || mark == NULL || off == NULL)
        goto fail;
    for (uint32_t k = 0; k < st->rd_off[T]; k++)
        roff[st->rd[k] + 1]++;
    for (uint32_t p = 0; p < P; p++)
        roff[p + 1] += roff[p];
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t k = st->rd_off[t]; k < st->rd_off[t + 1]; k++)
            readers[roff[st->rd[k]]++] = t;
    for (uint32_t p = P; p > 0; p--)
        roff[p] = roff[p - 1];
    roff[0] = 0;
    for (int pass = 0; pass < 2; pass++) {
        memset(mark, 0xff, ((size_t)T + 1) * sizeof *mark);
        uint64_t n = 0;
        for (uint32_t t = 0; t < T; t++) {
            off[t] = (uint32_t)n;
            for (uint32_t k = st->wr_off[t]; k < st->wr_off[t + 1]; k++) {
                uint32_t p = st->wr[k];
                for (uint32_t r = roff[p]; r < roff[p + 1]; r++)
                    if (mark[readers[r]] != t) {
                        mark[readers[r]] = t;
                        if (pass == 1)
                            items[n] = readers[r];
                        n++;
                    }
            }
        }
        off[T] = (uint32_t)n;
        if (pass == 0 && (n > UINT32_MAX || (items = malloc((n + 1) * sizeof *items)) == NULL))
            goto fail;
    }
    free(roff);
    free(readers);
    free(mark);
    *off_out = off;
    *items_out = items;
    return PN_OK;
fail:
    free(roff);
    free(readers);
    free(mark);
    free(off);
    free(items);
    return pn_fail(err, PN_ERR_NOMEM, "out of memory for the transition relations");
}

pn_status pn_space_statics_derive(pn_space_statics *st, pn_error *err)
{
    pn_status s = statics_rel(st, &st->en_off, &st->en, err);
    if (s == PN_OK)
        s = statics_rel(st, &st->dis_off, &st->dis, err);
    if (s != PN_OK)
        return s;
    st->bit_place = malloc(((size_t)st->words * 64 + 1) * sizeof *st->bit_place);
    if (st->bit_place == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state layout");
    memset(st->bit_place, 0xff, (size_t)st->words * 64 * sizeof *st->bit_place);
    for (uint32_t p = 0; p < st->places; p++)
        for (uint32_t b = 0; b < st->field[p].width; b++)
            st->bit_place[st->field[p].word * 64 + st->field[p].shift + b] = p;
    return PN_OK;
}

void pn_space_statics_free(pn_space_statics *st)
{
    free(st->rd_off);
    free(st->rd);
    free(st->wr_off);
    free(st->wr);
    free(st->en_off);
    free(st->en);
    free(st->dis_off);
    free(st->dis);
    free(st->field);
    free(st->bit_place);
}
