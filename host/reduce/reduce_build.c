/* The one builder of a reduced net: every rule describes its output as a
 * plan (the fate of each input place, and each output transition as a word
 * of input transitions fired in sequence), and this file turns the plan
 * into the net, its compiled form, the formulas on it and the words over
 * the original net's transitions that map traces back.
 *
 * A word's arcs are those of the sequence (Berthelot 1986, "Transformations
 * and decompositions of nets": a fused transition fires exactly when its
 * sequence does): per place, with N the tokens the prefix needs and D what
 * it changes, appending u^k (u needs a, changes by d) needs
 * max(N, a + (k-1) max(0, -d) - D) and changes by D + k d. The word is then
 * enabled at m iff m >= N, and leaves m + D. */
#include "reduce/reduce_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest word kept for mapping traces back (steps after merging). */
#define RED_WORD_MAX 4096u

typedef struct red_acc {
    int64_t *need, *chg;     /* per input place: N and D of the word so far */
    uint64_t *spre, *spost;  /* per input place: the current step's arcs */
    uint32_t *touched;
    uint8_t *mark;
    uint32_t n_touched;
} red_acc;

static bool red_mul(int64_t a, uint64_t k, int64_t *out)
{
    return k <= INT64_MAX && !__builtin_mul_overflow(a, (int64_t)k, out);
}

static void red_touch(red_acc *a, uint32_t p)
{
    if (!a->mark[p]) {
        a->mark[p] = 1;
        a->touched[a->n_touched++] = p;
        a->need[p] = a->chg[p] = 0;
    }
}

/* Appends u^k to the word in a; false on overflow. */
static bool red_acc_step(const pn_cnet *cn, red_acc *a, uint32_t u, uint64_t k)
{
    for (uint32_t j = cn->pre_off[u]; j < cn->pre_off[u + 1]; j++) {
        red_touch(a, cn->pre[j].place);
        a->spre[cn->pre[j].place] = cn->pre[j].weight;
    }
    for (uint32_t j = cn->post_off[u]; j < cn->post_off[u + 1]; j++) {
        red_touch(a, cn->post[j].place);
        a->spost[cn->post[j].place] = cn->post[j].weight;
    }
    bool ok = true;
    for (uint32_t i = 0; i < a->n_touched; i++) {
        uint32_t p = a->touched[i];
        uint64_t pre = a->spre[p], post = a->spost[p];
        a->spre[p] = a->spost[p] = 0;
        if ((pre == 0 && post == 0) || !ok)
            continue;
        int64_t d = (int64_t)post - (int64_t)pre, need = (int64_t)pre, total, more, gap;
        ok = pre <= INT64_MAX / 2 && post <= INT64_MAX / 2 && red_mul(d, k, &total);
        if (ok && d < 0)
            ok = red_mul(-d, k - 1, &more) && !__builtin_add_overflow(need, more, &need);
        ok = ok && !__builtin_sub_overflow(need, a->chg[p], &gap) &&
             !__builtin_add_overflow(a->chg[p], total, &a->chg[p]);
        if (ok && gap > a->need[p])
            a->need[p] = gap;
    }
    return ok;
}

static pn_status red_acc_init(red_acc *a, uint32_t np, pn_error *err)
{
    size_t n = (size_t)np + 1;
    a->need = malloc(n * sizeof *a->need);
    a->chg = malloc(n * sizeof *a->chg);
    a->spre = calloc(n, sizeof *a->spre);
    a->spost = calloc(n, sizeof *a->spost);
    a->touched = malloc(n * sizeof *a->touched);
    a->mark = calloc(n, 1);
    a->n_touched = 0;
    if (!a->need || !a->chg || !a->spre || !a->spost || !a->touched || !a->mark)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    return PN_OK;
}

static void red_acc_free(red_acc *a)
{
    free(a->need);
    free(a->chg);
    free(a->spre);
    free(a->spost);
    free(a->touched);
    free(a->mark);
}

/* Output transition o's arcs to kept places. */
static pn_status red_word_arcs(const pn_cnet *cn, const red_plan *pl, red_acc *a, pn_net *net,
                               const red_maps *m, uint32_t o, pn_error *err)
{
    a->n_touched = 0;
    for (uint32_t s = pl->word_off[o]; s < pl->word_off[o + 1]; s++)
        if (!red_acc_step(cn, a, pl->steps[s].t, pl->steps[s].times))
            return pn_fail(err, PN_ERR_UNSUPPORTED, "fused transition %s: weights too large",
                           cn->net->trans_id[pl->head[o]]);
    pn_status st = PN_OK;
    for (uint32_t i = 0; i < a->n_touched; i++) {
        uint32_t p = a->touched[i];
        a->mark[p] = 0;
        uint64_t pre = (uint64_t)a->need[p], post = (uint64_t)(a->need[p] + a->chg[p]);
        if (st != PN_OK || pl->pstate[p] != RED_P_KEEP)
            continue;
        if (pre > 0)
            st = pn_net_add_arc(net, m->pnew[p], o, true, pre, err);
        if (st == PN_OK && post > 0)
            st = pn_net_add_arc(net, m->pnew[p], o, false, post, err);
    }
    return st;
}

/* A transition standing for the pair h, f (one of several from h): id
 * "h.f", with a suffix while that names a node of either net. */
static pn_status red_pair_node(const pn_net *src, pn_net *net, uint32_t h, uint32_t f,
                               pn_error *err)
{
    size_t n = strlen(src->trans_id[h]) + strlen(src->trans_id[f]) + 16;
    char *id = malloc(n);
    if (id == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    snprintf(id, n, "%s.%s", src->trans_id[h], src->trans_id[f]);
    for (uint32_t k = 1; pn_net_find_transition(src, id) >= 0 || pn_net_find_transition(net, id) >= 0 ||
                         pn_net_find_place(src, id) >= 0;
         k++)
        snprintf(id, n, "%s.%s_%u", src->trans_id[h], src->trans_id[f], k);
    pn_status st = pn_net_add_transition(net, id, NULL, err) < 0 ? err->code : PN_OK;
    free(id);
    return st;
}

static pn_status red_nodes(const pn_cnet *cn, const red_plan *pl, pn_net *net, red_maps *m,
                           pn_error *err)
{
    const pn_net *src = cn->net;
    for (uint32_t p = 0; p < cn->n_places; p++) {
        m->pnew[p] = UINT32_MAX;
        if (pl->pstate[p] == RED_P_GONE)
            continue;
        int64_t i = pn_net_add_place(net, src->place_id[p], src->place_name[p], cn->m0[p], err);
        if (i < 0)
            return err->code;
        m->pnew[p] = (uint32_t)i;
    }
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        m->tnew[t] = UINT32_MAX;
    for (uint32_t o = 0; o < pl->n_out; o++) {
        uint32_t h = pl->head[o];
        pn_status st = pl->second[o] == UINT32_MAX
                           ? (pn_net_add_transition(net, src->trans_id[h], src->trans_name[h], err) < 0
                                  ? err->code
                                  : PN_OK)
                           : red_pair_node(src, net, h, pl->second[o], err);
        if (st != PN_OK)
            return st;
        m->tnew[h] = o;
    }
    return PN_OK;
}

/* ---- words over the original net -------------------------------------- */

typedef struct red_words {
    uint32_t *off;
    pn_red_step *step;
    uint32_t n, cap;
} red_words;

static bool red_words_push(red_words *w, uint32_t t, uint64_t k)
{
    if (w->n > 0 && w->step[w->n - 1].t == t &&
        !__builtin_add_overflow(w->step[w->n - 1].times, k, &w->step[w->n - 1].times))
        return true;
    if (w->n == w->cap) {
        uint32_t cap = w->cap ? 2 * w->cap : 64;
        pn_red_step *s = realloc(w->step, (size_t)cap * sizeof *s);
        if (s == NULL)
            return false;
        w->step = s;
        w->cap = cap;
    }
    w->step[w->n++] = (pn_red_step){t, k};
    return true;
}

/* The word of input transition t over the original: t itself when the
 * input is the original net (prev NULL). */
static void red_prev_word(const pn_reduced *prev, uint32_t t, const pn_red_step **s, uint32_t *n,
                          pn_red_step *self)
{
    if (prev == NULL) {
        *self = (pn_red_step){t, 1};
        *s = self;
        *n = 1;
        return;
    }
    *s = prev->word + prev->word_off[t];
    *n = prev->word_off[t + 1] - prev->word_off[t];
}

/* Appends input step (t, k) expanded over the original; PN_ERR_UNSUPPORTED
 * when the word gets longer than RED_WORD_MAX. */
static pn_status red_words_step(red_words *w, const pn_reduced *prev, pn_red_step step,
                                uint32_t start, pn_error *err)
{
    const pn_red_step *s;
    pn_red_step self;
    uint32_t n;
    red_prev_word(prev, step.t, &s, &n, &self);
    if (n == 1) {
        uint64_t k;
        if (__builtin_mul_overflow(s->times, step.times, &k) || !red_words_push(w, s->t, k))
            return pn_fail(err, PN_ERR_UNSUPPORTED, "fused word too long");
        return PN_OK;
    }
    for (uint64_t r = 0; r < step.times; r++)
        for (uint32_t i = 0; i < n; i++)
            if (w->n - start >= RED_WORD_MAX || !red_words_push(w, s[i].t, s[i].times))
                return pn_fail(err, PN_ERR_UNSUPPORTED, "fused word too long");
    return PN_OK;
}

static pn_status red_compose(const red_plan *pl, const pn_reduced *prev, pn_reduced *r,
                             pn_error *err)
{
    red_words w = {calloc((size_t)pl->n_out + 1, sizeof *w.off), NULL, 0, 0};
    pn_status st = w.off != NULL ? PN_OK : pn_fail(err, PN_ERR_NOMEM, "out of memory");
    for (uint32_t o = 0; st == PN_OK && o < pl->n_out; o++) {
        uint32_t start = w.n;
        for (uint32_t s = pl->word_off[o]; st == PN_OK && s < pl->word_off[o + 1]; s++)
            st = red_words_step(&w, prev, pl->steps[s], start, err);
        w.off[o + 1] = w.n;
    }
    if (st != PN_OK) {
        free(w.off);
        free(w.step);
        return st;
    }
    r->word_off = w.off;
    r->word = w.step != NULL ? w.step : malloc(sizeof *r->word);
    return r->word != NULL ? PN_OK : pn_fail(err, PN_ERR_NOMEM, "out of memory");
}

/* ---- the entry point ---------------------------------------------------- */

pn_status red_build(const red_work *w, const red_plan *pl, const pn_fml_set *set,
                    const pn_reduced *prev, pn_reduced *r, pn_error *err)
{
    const pn_cnet *cn = w->cn;
    red_maps m = {malloc(((size_t)cn->n_places + 1) * sizeof *m.pnew),
                  malloc(((size_t)cn->n_transitions + 1) * sizeof *m.tnew)};
    red_acc a = {0};
    r->net = pn_net_new(cn->net->id);
    pn_status st = m.pnew && m.tnew && r->net ? PN_OK : pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (st == PN_OK)
        st = red_acc_init(&a, cn->n_places, err);
    if (st == PN_OK)
        st = red_nodes(cn, pl, r->net, &m, err);
    for (uint32_t o = 0; st == PN_OK && o < pl->n_out; o++)
        st = red_word_arcs(cn, pl, &a, r->net, &m, o, err);
    if (st == PN_OK)
        st = red_compose(pl, prev, r, err);
    if (st == PN_OK)
        st = pn_cnet_compile(r->net, &r->cn, err);
    if (st == PN_OK && set != NULL)
        st = red_map_set(w, &m, set, r->net, &r->set, err);
    red_acc_free(&a);
    free(m.pnew);
    free(m.tnew);
    return st;
}

pn_status red_plan_alloc(red_plan *pl, uint32_t n_out, uint32_t n_steps, pn_error *err)
{
    pl->n_out = 0;
    pl->word_off = calloc((size_t)n_out + 1, sizeof *pl->word_off);
    pl->steps = malloc(((size_t)n_steps + 1) * sizeof *pl->steps);
    pl->head = malloc(((size_t)n_out + 1) * sizeof *pl->head);
    pl->second = malloc(((size_t)n_out + 1) * sizeof *pl->second);
    if (!pl->word_off || !pl->steps || !pl->head || !pl->second)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    return PN_OK;
}

void red_plan_add(red_plan *pl, uint32_t head, uint32_t second, const pn_red_step *steps,
                  uint32_t n)
{
    uint32_t at = pl->word_off[pl->n_out];
    memcpy(pl->steps + at, steps, (size_t)n * sizeof *steps);
    pl->head[pl->n_out] = head;
    pl->second[pl->n_out] = second;
    pl->word_off[++pl->n_out] = at + n;
}

void red_plan_free(red_plan *pl)
{
    free(pl->word_off);
    free(pl->steps);
    free(pl->head);
    free(pl->second);
}
