/* The static relations of a P/T net between transitions, as a partial-
 * order reduction needs them (Valmari's stubborn sets; LTSmin's PINS
 * dependency matrices): read set = input places, write set = places with
 * a non-zero effect; t may enable u when t adds tokens to an input place
 * of u, t may disable u when t takes tokens from an input place of u. */
#include <stdlib.h>
#include <string.h>

#include "space/pt.h"

static pn_status static_nomem(pn_error *err)
{
    return pn_fail(err, PN_ERR_NOMEM, "out of memory for the transition relations");
}

pn_status pn_pt_static_rw(pn_pt *pt, pn_error *err)
{
    const pn_cnet *cn = pt->cn;
    uint32_t T = cn->n_transitions;
    pt->rd_off = malloc(((size_t)T + 1) * sizeof *pt->rd_off);
    pt->wr_off = malloc(((size_t)T + 1) * sizeof *pt->wr_off);
    pt->rd = malloc(((size_t)cn->pre_off[T] + 1) * sizeof *pt->rd);
    pt->wr = malloc(((size_t)cn->delta_off[T] + 1) * sizeof *pt->wr);
    if (pt->rd_off == NULL || pt->wr_off == NULL || pt->rd == NULL || pt->wr == NULL)
        return static_nomem(err);
    for (uint32_t t = 0; t <= T; t++) {
        pt->rd_off[t] = cn->pre_off[t];
        pt->wr_off[t] = cn->delta_off[t];
    }
    for (uint32_t k = 0; k < cn->pre_off[T]; k++)
        pt->rd[k] = cn->pre[k].place;
    for (uint32_t k = 0; k < cn->delta_off[T]; k++)
        pt->wr[k] = cn->delta[k].place;
    return PN_OK;
}

/* For one sign of effect: off/items of the transitions u reached from t
 * through a place p with sign(delta(t, p)) == sign and p in pre(u). Two
 * passes (count, fill) over the consumers of each place; a mark array
 * drops duplicates. */
static pn_status static_rel(const pn_cnet *cn, const uint32_t *cons_off, const uint32_t *cons,
                            int sign, uint32_t **off_out, uint32_t **items_out, pn_error *err)
{
    uint32_t T = cn->n_transitions;
    uint32_t *off = calloc((size_t)T + 2, sizeof *off);
    uint32_t *mark = malloc(((size_t)T + 1) * sizeof *mark);
    uint32_t *items = NULL;
    if (off == NULL || mark == NULL)
        goto fail;
    for (int pass = 0; pass < 2; pass++) {
        memset(mark, 0xff, ((size_t)T + 1) * sizeof *mark);
        uint64_t n = 0;
        for (uint32_t t = 0; t < T; t++) {
            if (pass == 0)
                off[t] = (uint32_t)n;
            for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
                if ((cn->delta[k].delta > 0 ? 1 : -1) != sign)
                    continue;
                uint32_t p = cn->delta[k].place;
                for (uint32_t j = cons_off[p]; j < cons_off[p + 1]; j++)
                    if (mark[cons[j]] != t) {
                        mark[cons[j]] = t;
                        if (pass == 1)
                            items[n] = cons[j];
                        n++;
                    }
            }
        }
        if (pass == 0) {
            off[T] = (uint32_t)n;
            if (n > UINT32_MAX || (items = malloc((n + 1) * sizeof *items)) == NULL)
                goto fail;
        }
    }
    free(mark);
    *off_out = off;
    *items_out = items;
    return PN_OK;
fail:
    free(off);
    free(mark);
    free(items);
    return static_nomem(err);
}

pn_status pn_pt_static_relations(pn_pt *pt, pn_error *err)
{
    if (pt->en_off != NULL)
        return PN_OK;
    uint32_t *coff = NULL, *cons = NULL;
    pn_status st = pn_cnet_place_index(pt->cn, false, &coff, &cons, err);
    if (st == PN_OK)
        st = static_rel(pt->cn, coff, cons, -1, &pt->dis_off, &pt->dis, err);
    if (st == PN_OK)
        st = static_rel(pt->cn, coff, cons, 1, &pt->en_off, &pt->en, err);
    free(coff);
    free(cons);
    return st;
}

void pn_pt_static_free(pn_pt *pt)
{
    free(pt->rd_off);
    free(pt->rd);
    free(pt->wr_off);
    free(pt->wr);
    free(pt->en_off);
    free(pt->en);
    free(pt->dis_off);
    free(pt->dis);
}
