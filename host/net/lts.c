/* A system of synchronising LTSs as a 1-safe P/T net (petrel/rers.h): the
 * standard encoding of a synchronised product of automata as a Petri net
 * (A. Arnold, "Finite Transition Systems", Prentice Hall 1994, ch. 3, and the
 * "automata network" nets of the MCC), with RERS 2019's synchronisation
 * rule: a label fires when every LTS whose alphabet has it takes one of its
 * local transitions with that label. One place per local state, one
 * transition per combination of such local transitions (the product of the
 * local choices), an internal step (empty label) alone.
 *
 * Labels are grouped once: the labelled edges sorted by (label, LTS) give,
 * per label, its participants and their local choices, which an odometer
 * walks. */
#include "petrel/lts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LTS_MAX_TRANSITIONS (1u << 24)

typedef struct lts_ref {
    uint32_t label, lts, edge;
} lts_ref;

static int lts_ref_cmp(const void *a, const void *b)
{
    const lts_ref *x = a, *y = b;
    if (x->label != y->label)
        return x->label < y->label ? -1 : 1;
    if (x->lts != y->lts)
        return x->lts < y->lts ? -1 : 1;
    return x->edge < y->edge ? -1 : x->edge > y->edge;
}

void pn_lts_system_free(pn_lts_system *s)
{
    if (s == NULL)
        return;
    for (uint32_t c = 0; c < s->n_lts; c++) {
        pn_lts *l = &s->lts[c];
        for (uint32_t i = 0; l->state != NULL && i < l->n_states; i++)
            free(l->state[i]);
        free(l->state);
        free(l->edge);
        free(l->name);
    }
    for (uint32_t i = 0; s->label != NULL && i < s->n_labels; i++)
        free(s->label[i]);
    free(s->label);
    free(s->lts);
    free(s);
}

typedef struct lts_build {
    const pn_lts_system *s;
    pn_net *net;
    uint32_t *place_of;      /* first place of each LTS */
    uint32_t n_trans;
    pn_error *err;
} lts_build;

static pn_status lts_places(lts_build *b)
{
    char id[48];
    uint32_t p = 0;
    for (uint32_t c = 0; c < b->s->n_lts; c++) {
        const pn_lts *l = &b->s->lts[c];
        b->place_of[c] = p;
        for (uint32_t i = 0; i < l->n_states; i++, p++) {
            size_t len = strlen(l->name) + strlen(l->state[i]) + 2;
            char *name = malloc(len);
            if (name == NULL)
                return pn_fail(b->err, PN_ERR_NOMEM, "out of memory building the net");
            snprintf(name, len, "%s.%s", l->name, l->state[i]);
            snprintf(id, sizeof id, "p%u_%u", c, i);
            int64_t r = pn_net_add_place(b->net, id, name, i == l->start, b->err);
            free(name);
            if (r < 0)
                return b->err->code;
        }
    }
    return PN_OK;
}

/* One transition: the local edges edges[0..n) of LTSs lts[0..n). */
static pn_status lts_transition(lts_build *b, uint32_t label, const uint32_t *lts,
                                const uint32_t *edges, uint32_t n)
{
    if (b->n_trans == LTS_MAX_TRANSITIONS)
        return pn_fail(b->err, PN_ERR_UNSUPPORTED,
                       "the system's net has more than %u transitions", LTS_MAX_TRANSITIONS);
    const char *name = label == PN_LTS_INTERNAL ? NULL : b->s->label[label];
    size_t len = 16 + (name ? strlen(name) : 0);
    char *id = malloc(len);
    if (id == NULL)
        return pn_fail(b->err, PN_ERR_NOMEM, "out of memory building the net");
    if (name != NULL)
        snprintf(id, len, "t%u.%s", b->n_trans, name);
    else
        snprintf(id, len, "t%u", b->n_trans);
    int64_t t = pn_net_add_transition(b->net, id, name, b->err);
    free(id);
    if (t < 0)
        return b->err->code;
    b->n_trans++;
    for (uint32_t k = 0; k < n; k++) {
        const pn_lts_edge *e = &b->s->lts[lts[k]].edge[edges[k]];
        uint32_t base = b->place_of[lts[k]];
        if (pn_net_add_arc(b->net, base + e->src, (uint32_t)t, true, 1, b->err) != PN_OK ||
            pn_net_add_arc(b->net, base + e->dst, (uint32_t)t, false, 1, b->err) != PN_OK)
            return b->err->code;
    }
    return PN_OK;
}

/* Every combination of one choice per participant: refs[0..n) is one
 * label's group, sorted by LTS. */
static pn_status lts_label(lts_build *b, const lts_ref *refs, uint32_t n)
{
    uint32_t parts = 0;
    for (uint32_t i = 0; i < n; i++)
        parts += i == 0 || refs[i].lts != refs[i - 1].lts;
    uint32_t *first = malloc(((size_t)parts + 1) * sizeof *first);
    uint32_t *count = calloc((size_t)parts + 1, sizeof *count);
    uint32_t *pick = calloc((size_t)parts + 1, sizeof *pick);
    uint32_t *lts = malloc(((size_t)parts + 1) * sizeof *lts);
    uint32_t *edges = malloc(((size_t)parts + 1) * sizeof *edges);
    pn_status st = first && count && pick && lts && edges
                       ? PN_OK : pn_fail(b->err, PN_ERR_NOMEM, "out of memory building the net");
    for (uint32_t i = 0, k = 0; st == PN_OK && i < n; i++) {
        if (i > 0 && refs[i].lts != refs[i - 1].lts)
            k++;
        if (count[k]++ == 0)
            first[k] = i;
        lts[k] = refs[i].lts;
    }
    /* Refused before anything is built: the product can be astronomic. */
    uint64_t product = 1;
    for (uint32_t k = 0; st == PN_OK && k < parts && product <= LTS_MAX_TRANSITIONS; k++)
        product *= count[k];
    if (st == PN_OK && b->n_trans + product > LTS_MAX_TRANSITIONS)
        st = pn_fail(b->err, PN_ERR_UNSUPPORTED, "label %s: %s%lu ways to fire (one local "
                     "transition of each of %u LTSs) make the net pass %u transitions",
                     b->s->label[refs[0].label], product > LTS_MAX_TRANSITIONS ? "over " : "",
                     (unsigned long)product, parts, LTS_MAX_TRANSITIONS);
    while (st == PN_OK) {
        for (uint32_t k = 0; k < parts; k++)
            edges[k] = refs[first[k] + pick[k]].edge;
        st = lts_transition(b, refs[0].label, lts, edges, parts);
        uint32_t k = 0;
        while (k < parts && ++pick[k] == count[k])
            pick[k++] = 0;
        if (k == parts)
            break;
    }
    free(first);
    free(count);
    free(pick);
    free(lts);
    free(edges);
    return st;
}

static pn_status lts_transitions(lts_build *b)
{
    const pn_lts_system *s = b->s;
    uint64_t n = 0;
    for (uint32_t c = 0; c < s->n_lts; c++)
        n += s->lts[c].n_edges;
    lts_ref *refs = malloc((n + 1) * sizeof *refs);
    if (refs == NULL)
        return pn_fail(b->err, PN_ERR_NOMEM, "out of memory building the net");
    uint64_t k = 0;
    pn_status st = PN_OK;
    for (uint32_t c = 0; c < s->n_lts; c++)
        for (uint32_t e = 0; e < s->lts[c].n_edges; e++)
            refs[k++] = (lts_ref){s->lts[c].edge[e].label, c, e};
    qsort(refs, k, sizeof *refs, lts_ref_cmp);
    for (uint64_t i = 0; st == PN_OK && i < k;) {
        uint64_t j = i + 1;
        if (refs[i].label == PN_LTS_INTERNAL) { /* each on its own, never synchronised */
            st = lts_transition(b, PN_LTS_INTERNAL, &refs[i].lts, &refs[i].edge, 1);
            i = j;
            continue;
        }
        while (j < k && refs[j].label == refs[i].label)
            j++;
        st = lts_label(b, refs + i, (uint32_t)(j - i));
        i = j;
    }
    free(refs);
    return st;
}

pn_status pn_lts_to_net(const pn_lts_system *s, pn_net **out, pn_error *err)
{
    *out = NULL;
    lts_build b = {.s = s, .err = err};
    b.net = pn_net_new("rers");
    b.place_of = malloc(((size_t)s->n_lts + 1) * sizeof *b.place_of);
    pn_status st = b.net && b.place_of
                       ? PN_OK : pn_fail(err, PN_ERR_NOMEM, "out of memory building the net");
    if (st == PN_OK)
        st = lts_places(&b);
    if (st == PN_OK)
        st = lts_transitions(&b);
    free(b.place_of);
    if (st != PN_OK) {
        pn_net_free(b.net);
        return st;
    }
    *out = b.net;
    return PN_OK;
}

const char *pn_rers_label(const pn_net *net, uint32_t t)
{
    const char *name = net->trans_name[t];
    return name == NULL || name[0] == '\0' || strcmp(name, net->trans_id[t]) == 0 ? NULL : name;
}
