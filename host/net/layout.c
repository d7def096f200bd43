#include "net/layout.h"

#include <stdlib.h>
#include <string.h>

uint8_t pn_bits_for(uint64_t v)
{
    uint8_t b = 1;
    while (b < 64 && (v >> b) != 0)
        b++;
    return b;
}

bool pn_layout_widen_to(uint8_t *widths, uint8_t *overflowed, uint32_t n_places,
                        uint8_t min_bits)
{
    for (uint32_t p = 0; p < n_places; p++) {
        if (!overflowed[p])
            continue;
        overflowed[p] = 0;
        if (widths[p] >= 64)
            return false;
        widths[p] = widths[p] >= 32 ? 64 : (uint8_t)(widths[p] * 2);
        if (widths[p] < min_bits)
            widths[p] = min_bits;
    }
    return true;
}

bool pn_layout_widen(uint8_t *widths, uint8_t *overflowed, uint32_t n_places)
{
    return pn_layout_widen_to(widths, overflowed, n_places, 0);
}

pn_status pn_layout_initial_widths(const pn_cnet *cn, uint8_t **widths, pn_error *err)
{
    uint8_t *w = malloc((size_t)cn->n_places + 1);
    if (w == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for place widths");
    for (uint32_t p = 0; p < cn->n_places; p++)
        w[p] = pn_bits_for(cn->m0[p]);
    for (uint32_t k = 0; k < cn->post_off[cn->n_transitions]; k++) {
        uint8_t b = pn_bits_for(cn->post[k].weight);
        if (b > w[cn->post[k].place])
            w[cn->post[k].place] = b;
    }
    *widths = w;
    return PN_OK;
}

uint64_t pn_layout_bytes(const pn_cnet *cn)
{
    uint32_t T = cn->n_transitions;
    return ((uint64_t)cn->n_places + T + cn->pre_off[T] + cn->post_off[T] + 1) * 64;
}

void pn_layout_free(pn_layout *lay)
{
    if (lay == NULL)
        return;
    free(lay->width);
    free(lay->field);
    free(lay->pre_off);
    free(lay->dec_off);
    free(lay->inc_off);
    free(lay->pre);
    free(lay->dec);
    free(lay->inc);
    free(lay->trig_off);
    free(lay->trig);
    free(lay->free_trans);
    free(lay->bit_place);
    free(lay);
}

static uint64_t layout_mask(uint8_t width)
{
    return width >= 64 ? UINT64_MAX : (1ULL << width) - 1;
}

/* First fit: each place, in order (NULL: place order), goes into the first
 * word with room for its field, so narrow fields fill the gaps that wide
 * ones leave; into field unless NULL. used: P + 1 entries. Returns the
 * words. Words only fill up, so the first word with room for a width never
 * moves back: one cursor per width makes the search linear overall (it
 * scanned from word 0 for every place, 4 x 10^9 steps for the 500,000
 * one-bit places of Philosophers-COL-100000). */
static uint32_t layout_first_fit(const uint8_t *width, const uint32_t *order, uint32_t P,
                                 uint32_t *used, pn_op *field)
{
    uint32_t words = 1, cursor[65] = {0};
    used[0] = 0;
    for (uint32_t i = 0; i < P; i++) {
        const uint32_t p = order != NULL ? order[i] : i;
        uint8_t w = width[p] < 1 ? 1 : width[p] > 64 ? 64 : width[p];
        uint32_t word = cursor[w];
        while (word < words && used[word] + w > 64)
            word++;
        cursor[w] = word;
        if (word == words)
            used[words++] = 0;
        if (field != NULL)
            field[p] = (pn_op){.word = word, .shift = used[word], .mask = layout_mask(w),
                               .value = 0, .place = p, .pad_ = 0};
        used[word] += w;
    }
    return words;
}

uint32_t pn_layout_words(const uint8_t *widths, const uint32_t *order, uint32_t n_places)
{
    uint32_t *used = malloc(((size_t)n_places + 1) * sizeof *used);
    uint32_t words = used != NULL ? layout_first_fit(widths, order, n_places, used, NULL) : 0;
    free(used);
    return words;
}

static pn_op layout_op(const pn_layout *lay, uint32_t place, uint64_t value)
{
    pn_op op = lay->field[place];
    op.value = value;
    return op;
}

static void layout_ops(pn_layout *lay, const pn_cnet *cn)
{
    uint32_t nd = 0, ni = 0;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        lay->pre_off[t] = cn->pre_off[t];
        for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
            lay->pre[k] = layout_op(lay, cn->pre[k].place, cn->pre[k].weight);
        lay->dec_off[t] = nd;
        lay->inc_off[t] = ni;
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
            const pn_cnet_delta *d = &cn->delta[k];
            if (d->delta < 0)
                lay->dec[nd++] = layout_op(lay, d->place, (uint64_t)(-d->delta));
        }
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
            const pn_cnet_delta *d = &cn->delta[k];
            if (d->delta > 0)
                lay->inc[ni++] = layout_op(lay, d->place, (uint64_t)d->delta);
        }
    }
    uint32_t T = cn->n_transitions;
    lay->pre_off[T] = cn->pre_off[T];
    lay->dec_off[T] = nd;
    lay->inc_off[T] = ni;
}

/* The trigger of a transition is an input place that is empty initially
 * when there is one: places empty at first tend to stay empty more often,
 * so fewer states look at the transition. */
static uint32_t layout_trigger(const pn_cnet *cn, uint32_t t)
{
    for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
        if (cn->m0[cn->pre[k].place] < cn->pre[k].weight)
            return cn->pre[k].place;
    return cn->pre[cn->pre_off[t]].place;
}

static void layout_triggers(pn_layout *lay, const pn_cnet *cn)
{
    uint32_t P = cn->n_places, T = cn->n_transitions, nfree = 0;
    memset(lay->trig_off, 0, ((size_t)P + 1) * sizeof *lay->trig_off);
    for (uint32_t t = 0; t < T; t++)
        if (cn->pre_off[t] != cn->pre_off[t + 1])
            lay->trig_off[layout_trigger(cn, t) + 1]++;
    for (uint32_t p = 0; p < P; p++)
        lay->trig_off[p + 1] += lay->trig_off[p];
    for (uint32_t t = 0; t < T; t++) {
        if (cn->pre_off[t] == cn->pre_off[t + 1]) {
            lay->free_trans[nfree++] = t;
            continue;
        }
        uint32_t p = layout_trigger(cn, t);
        lay->trig[lay->trig_off[p]++] = t;
    }
    for (uint32_t p = P; p > 0; p--)
        lay->trig_off[p] = lay->trig_off[p - 1];
    lay->trig_off[0] = 0;
    lay->prog.n_free = nfree;
}

pn_status pn_layout_new(const pn_cnet *cn, const uint8_t *widths, pn_layout **out,
                        pn_error *err)
{
    return pn_layout_new_ordered(cn, widths, NULL, out, err);
}

pn_status pn_layout_new_ordered(const pn_cnet *cn, const uint8_t *widths, const uint32_t *order,
                                pn_layout **out, pn_error *err)
{
    *out = NULL;
    uint32_t P = cn->n_places, T = cn->n_transitions;
    size_t n_pre = cn->pre_off[T] + 1, n_delta = cn->delta_off[T] + 1;
    pn_layout *lay = calloc(1, sizeof *lay);
    if (lay == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state layout");
    lay->width = malloc((size_t)P + 1);
    lay->field = malloc(((size_t)P + 1) * sizeof *lay->field);
    lay->pre_off = malloc(((size_t)T + 1) * sizeof *lay->pre_off);
    lay->dec_off = malloc(((size_t)T + 1) * sizeof *lay->dec_off);
    lay->inc_off = malloc(((size_t)T + 1) * sizeof *lay->inc_off);
    lay->pre = malloc(n_pre * sizeof *lay->pre);
    lay->dec = malloc(n_delta * sizeof *lay->dec);
    lay->inc = malloc(n_delta * sizeof *lay->inc);
    lay->trig_off = malloc(((size_t)P + 1) * sizeof *lay->trig_off);
    lay->trig = malloc(((size_t)T + 1) * sizeof *lay->trig);
    lay->free_trans = malloc(((size_t)T + 1) * sizeof *lay->free_trans);
    if (!lay->trig_off || !lay->trig || !lay->free_trans || !lay->width || !lay->field || !lay->pre_off || !lay->dec_off || !lay->inc_off ||
        !lay->pre || !lay->dec || !lay->inc) {
        pn_layout_free(lay);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state layout");
    }
    for (uint32_t p = 0; p < P; p++)
        lay->width[p] = widths[p] < 1 ? 1 : widths[p] > 64 ? 64 : widths[p];
    uint32_t *used = malloc(((size_t)P + 1) * sizeof *used);
    if (used == NULL) {
        pn_layout_free(lay);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state layout");
    }
    uint32_t words = layout_first_fit(lay->width, order, P, used, lay->field);
    free(used);
    lay->bit_place = malloc((size_t)words * 64 * sizeof *lay->bit_place);
    if (lay->bit_place == NULL) {
        pn_layout_free(lay);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state layout");
    }
    for (size_t b = 0; b < (size_t)words * 64; b++)
        lay->bit_place[b] = UINT32_MAX;
    for (uint32_t p = 0; p < P; p++)
        for (uint32_t b = 0; b < lay->width[p]; b++)
            lay->bit_place[lay->field[p].word * 64 + lay->field[p].shift + b] = p;
    layout_ops(lay, cn);
    layout_triggers(lay, cn);
    uint32_t n_free = lay->prog.n_free;
    lay->prog = (pn_prog){.n_places = P, .n_transitions = T, .words = words,
                          .field = lay->field, .pre_off = lay->pre_off, .pre = lay->pre,
                          .dec_off = lay->dec_off, .dec = lay->dec,
                          .inc_off = lay->inc_off, .inc = lay->inc,
                          .trig_off = lay->trig_off, .trig = lay->trig,
                          .n_free = n_free, .free_trans = lay->free_trans,
                          .bit_place = lay->bit_place};
    *out = lay;
    return PN_OK;
}

bool pn_layout_pack(const pn_layout *lay, const uint64_t *m, uint64_t *s)
{
    memset(s, 0, (size_t)lay->prog.words * sizeof *s);
    for (uint32_t p = 0; p < lay->prog.n_places; p++) {
        const pn_op *f = &lay->field[p];
        if (m[p] > f->mask)
            return false;
        s[f->word] |= m[p] << f->shift;
    }
    return true;
}
