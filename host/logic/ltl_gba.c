/* The GPVW tableau (Gerth, Peled, Vardi, Wolper, PSTV 1995): nodes hold the
 * subformulas that must hold now (old), are still to be processed (new) and
 * must hold next (next), as bitsets over the formula's node indices. A
 * worklist replaces the paper's recursion. Acceptance: one set per U
 * subformula a U b, holding the nodes where it is not promised (a U b not
 * in old) or is fulfilled (b in old).
 *
 * A finished node's behaviour is fixed by its label (the literals in old),
 * its acceptance vector and next (its successors are built from next
 * alone), so finished nodes merge on that key, not on all of old: two nodes
 * with equal keys accept the same runs. The paper merges on (old, next);
 * on nested U/R formulas that keeps thousands of nodes apart that differ
 * only in subformulas already discharged. The keys are kept in the
 * engines' exact hash set (kernels/pn_table.h), whose ids are the finished
 * nodes' indices (a linear scan made the construction quadratic). */
#include <stdlib.h>
#include <string.h>

#include "logic/ltl_buchi.h"
#include "pn_table.h"

#define GBA_INIT UINT32_MAX

typedef struct gnode {
    uint64_t *old, *new_, *next;   /* words bits each */
    uint32_t *in, n_in, cap_in;    /* predecessors; GBA_INIT: initial */
} gnode;

typedef struct gba {
    const ltl_formula *f;
    uint32_t words;
    gnode *done;                   /* finished nodes: the automaton states */
    uint32_t n_done, cap_done;
    gnode *todo;                   /* worklist */
    uint32_t n_todo, cap_todo;
    uint32_t limit;
    uint64_t *lits;                /* words: the AP/NAP node bits */
    uint32_t key_words;            /* 2 * words + acceptance words */
    uint64_t *key;                 /* scratch: one key */
    uint64_t *keys, key_cap;       /* the finished nodes' keys, by index (pn_table store) */
    uint64_t *slots, n_slots;      /* pn_table slots over keys; n_keys: keys held */
    uint64_t n_keys;
    const pn_budget *budget;       /* may be NULL */
    uint64_t steps;
} gba;

static bool bs_has(const uint64_t *s, uint32_t i) { return (s[i / 64] >> (i % 64)) & 1; }
static void bs_set(uint64_t *s, uint32_t i) { s[i / 64] |= 1ULL << (i % 64); }
static void bs_clr(uint64_t *s, uint32_t i) { s[i / 64] &= ~(1ULL << (i % 64)); }

static int64_t bs_first(const gba *g, const uint64_t *s)
{
    for (uint32_t w = 0; w < g->words; w++)
        if (s[w])
            return (int64_t)w * 64 + __builtin_ctzll(s[w]);
    return -1;
}

static void gnode_free(gnode *n)
{
    free(n->old);
    free(n->in);
}

/* One allocation holds old, new and next. */
static bool gnode_init(gba *g, gnode *n, const gnode *copy)
{
    memset(n, 0, sizeof *n);
    n->old = calloc((size_t)g->words * 3, sizeof(uint64_t));
    if (n->old == NULL)
        return false;
    n->new_ = n->old + g->words;
    n->next = n->old + 2 * g->words;
    if (copy == NULL)
        return true;
    memcpy(n->old, copy->old, (size_t)g->words * 3 * sizeof(uint64_t));
    n->in = malloc(((size_t)copy->n_in + 1) * sizeof *n->in);
    if (n->in == NULL) {
        free(n->old);
        return false;
    }
    memcpy(n->in, copy->in, (size_t)copy->n_in * sizeof *n->in);
    n->n_in = n->cap_in = copy->n_in;
    return true;
}

static bool gnode_add_in(gnode *n, uint32_t q)
{
    for (uint32_t i = 0; i < n->n_in; i++)
        if (n->in[i] == q)
            return true;
    if (n->n_in == n->cap_in) {
        uint32_t cap = n->cap_in ? n->cap_in * 2 : 4;
        uint32_t *in = realloc(n->in, cap * sizeof *in);
        if (in == NULL)
            return false;
        n->in = in;
        n->cap_in = cap;
    }
    n->in[n->n_in++] = q;
    return true;
}

static bool gba_push(gnode **arr, uint32_t *n, uint32_t *cap, const gnode *x)
{
    if (*n == *cap) {
        uint32_t c = *cap ? *cap * 2 : 16;
        gnode *a = realloc(*arr, c * sizeof *a);
        if (a == NULL)
            return false;
        *arr = a;
        *cap = c;
    }
    (*arr)[(*n)++] = *x;
    return true;
}

/* Adds i to new unless it is already in old. */
static void gba_want(gnode *n, uint32_t i)
{
    if (!bs_has(n->old, i))
        bs_set(n->new_, i);
}

/* k gets n's key: the label bits of old, next, and one bit per U
 * subformula a U b: not promised (not in old) or fulfilled (b in old). */
static void gba_key(const gba *g, const gnode *n, uint64_t *k)
{
    memset(k, 0, (size_t)g->key_words * sizeof *k);
    for (uint32_t w = 0; w < g->words; w++) {
        k[w] = n->old[w] & g->lits[w];
        k[g->words + w] = n->next[w];
    }
    uint32_t a = 2 * g->words * 64;
    for (uint32_t i = 0; i < g->f->count; i++)
        if (g->f->n[i].kind == LT_U) {
            if (!bs_has(n->old, i) || bs_has(n->old, g->f->n[i].b))
                bs_set(k, a);
            a++;
        }
}

static pn_table_view gba_view(gba *g)
{
    pn_table_view v;
    memset(&v, 0, sizeof v);
    v.slots = g->slots;
    v.slot_mask = g->n_slots - 1;
    v.store = g->keys;
    v.count = &g->n_keys;
    v.words = g->key_words;
    return v;
}

/* Room for one more key: the store, and the slots at most half full. */
static bool gba_room(gba *g)
{
    if (g->n_keys + 1 > g->key_cap) {
        uint64_t cap = g->key_cap ? 2 * g->key_cap : 64;
        uint64_t *keys = realloc(g->keys, cap * g->key_words * sizeof *keys);
        if (keys == NULL)
            return false;
        g->keys = keys;
        g->key_cap = cap;
    }
    if (2 * (g->n_keys + 1) <= g->n_slots)
        return true;
    uint64_t n = g->n_slots ? 2 * g->n_slots : 128;
    uint64_t *slots = calloc(n, sizeof *slots);
    if (slots == NULL)
        return false;
    free(g->slots);
    g->slots = slots;
    g->n_slots = n;
    pn_table_view v = gba_view(g);
    for (uint64_t id = 0; id < g->n_keys; id++)
        pn_table_reinsert(&v, id, pn_state_hash(g->keys + id * g->key_words, g->key_words));
    return true;
}

/* A node with nothing left to process: merge into a finished node with its
 * key, or finish it and start its successor. Returns a pn_status. */
static pn_status gba_finish(gba *g, gnode *n, pn_error *err)
{
    size_t bytes = (size_t)g->words * sizeof(uint64_t);
    if (!gba_room(g)) {
        gnode_free(n);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
    }
    gba_key(g, n, g->key);
    pn_table_view v = gba_view(g);
    uint64_t found;
    if (pn_table_insert(&v, g->key, pn_state_hash(g->key, g->key_words), &found) ==
        PN_INSERT_OLD) {
        gnode *d = &g->done[found];
        bool ok = true;
        for (uint32_t i = 0; i < n->n_in && ok; i++)
            ok = gnode_add_in(d, n->in[i]);
        gnode_free(n);
        return ok ? PN_OK : pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
    }
    if (g->n_done >= g->limit) {
        gnode_free(n);
        return pn_fail(err, PN_ERR_UNSUPPORTED, "LTL automaton over %u states", g->limit);
    }
    uint32_t id = g->n_done;
    if (!gba_push(&g->done, &g->n_done, &g->cap_done, n)) {
        gnode_free(n);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
    }
    gnode succ;
    if (!gnode_init(g, &succ, NULL))
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
    memcpy(succ.new_, g->done[id].next, bytes);
    if (!gnode_add_in(&succ, id) || !gba_push(&g->todo, &g->n_todo, &g->cap_todo, &succ)) {
        gnode_free(&succ);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
    }
    return PN_OK;
}

/* Splits n on eta: n keeps the first branch, *two gets the second. */
static void gba_split(const ltl_node *e, uint32_t eta, gnode *n, gnode *two)
{
    switch (e->kind) {
    case LT_OR:
        gba_want(n, e->a);
        gba_want(two, e->b);
        break;
    case LT_U: /* a U b: b now, or a now and a U b next */
        gba_want(n, e->a);
        bs_set(n->next, eta);
        gba_want(two, e->b);
        break;
    default: /* LT_R, a R b: a and b now, or b now and a R b next */
        gba_want(n, e->b);
        bs_set(n->next, eta);
        gba_want(two, e->a);
        gba_want(two, e->b);
        break;
    }
}

/* Processes one subformula of n. *keep: n goes back on the worklist. */
static pn_status gba_step(gba *g, gnode *n, uint32_t eta, bool *keep, pn_error *err)
{
    const ltl_node *e = &g->f->n[eta];
    bs_clr(n->new_, eta);
    *keep = true;
    if (e->kind == LT_FALSE) {
        *keep = false;
        return PN_OK;
    }
    if (e->kind == LT_AP || e->kind == LT_NAP) {
        for (uint32_t i = 0; i < g->f->count; i++) /* the complement literal */
            if (g->f->n[i].a == e->a && g->f->n[i].kind == (e->kind == LT_AP ? LT_NAP : LT_AP) &&
                bs_has(n->old, i))
                *keep = false;
    } else if (e->kind == LT_AND) {
        gba_want(n, e->a);
        gba_want(n, e->b);
    } else if (e->kind == LT_X) {
        bs_set(n->next, e->a);
    } else if (e->kind != LT_TRUE) {
        gnode two;
        if (!gnode_init(g, &two, n))
            return pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
        gba_split(e, eta, n, &two);
        bs_set(two.old, eta);
        if (!gba_push(&g->todo, &g->n_todo, &g->cap_todo, &two)) {
            gnode_free(&two);
            return pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
        }
    }
    bs_set(n->old, eta);
    return PN_OK;
}

static pn_status gba_run(gba *g, pn_error *err)
{
    while (g->n_todo > 0) {
        if (++g->steps % 1024 == 0 && pn_budget_fail(g->budget, err, "LTL automaton") != PN_OK)
            return err->code;
        gnode n = g->todo[--g->n_todo];
        int64_t eta = bs_first(g, n.new_);
        pn_status st = PN_OK;
        bool keep = true;
        if (eta < 0)
            st = gba_finish(g, &n, err);
        else if ((st = gba_step(g, &n, (uint32_t)eta, &keep, err)) == PN_OK && keep &&
                 !gba_push(&g->todo, &g->n_todo, &g->cap_todo, &n))
            st = pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
        /* gba_finish owns n either way; after a step, n is ours unless it
         * went back on the worklist. */
        if (eta >= 0 && (st != PN_OK || !keep))
            gnode_free(&n);
        if (st != PN_OK)
            return st;
    }
    return PN_OK;
}

static void gba_free(gba *g)
{
    for (uint32_t i = 0; i < g->n_done; i++)
        gnode_free(&g->done[i]);
    for (uint32_t i = 0; i < g->n_todo; i++)
        gnode_free(&g->todo[i]);
    free(g->done);
    free(g->todo);
    free(g->slots);
    free(g->keys);
    free(g->key);
    free(g->lits);
}

void ltl_buchi_free(ltl_buchi *b)
{
    if (b == NULL)
        return;
    free(b->succ_off);
    free(b->succ);
    free(b->lit_off);
    free(b->lit);
    free(b->init);
    free(b->acc);
    free(b);
}

static uint32_t gba_count_edges(const gba *g)
{
    uint32_t e = 0;
    for (uint32_t q = 0; q < g->n_done; q++)
        for (uint32_t i = 0; i < g->done[q].n_in; i++)
            e += g->done[q].in[i] != GBA_INIT;
    return e;
}

/* Successor lists from the predecessor sets, labels from the literals in
 * old, one acceptance set per U subformula. */
static pn_status gba_export(const gba *g, ltl_buchi *b, pn_error *err)
{
    const ltl_formula *f = g->f;
    uint32_t Q = g->n_done, E = gba_count_edges(g), L = 0;
    for (uint32_t i = 0; i < f->count; i++)
        b->n_acc += f->n[i].kind == LT_U;
    for (uint32_t q = 0; q < Q; q++)
        for (uint32_t i = 0; i < f->count; i++)
            L += (f->n[i].kind == LT_AP || f->n[i].kind == LT_NAP) && bs_has(g->done[q].old, i);
    b->n_states = Q;
    b->succ_off = calloc((size_t)Q + 2, sizeof *b->succ_off);
    b->succ = malloc(((size_t)E + 1) * sizeof *b->succ);
    b->lit_off = calloc((size_t)Q + 1, sizeof *b->lit_off);
    b->lit = malloc(((size_t)L + 1) * sizeof *b->lit);
    b->init = calloc((size_t)Q + 1, 1);
    b->acc = calloc((size_t)Q * b->n_acc + 1, 1);
    if (!b->succ_off || !b->succ || !b->lit_off || !b->lit || !b->init || !b->acc)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
    for (uint32_t q = 0; q < Q; q++)
        for (uint32_t i = 0; i < g->done[q].n_in; i++) {
            uint32_t p = g->done[q].in[i];
            if (p == GBA_INIT)
                b->init[q] = 1;
            else
                b->succ_off[p + 2]++;
        }
    for (uint32_t q = 0; q < Q; q++)
        b->succ_off[q + 2] += b->succ_off[q + 1];
    for (uint32_t q = 0; q < Q; q++)
        for (uint32_t i = 0; i < g->done[q].n_in; i++)
            if (g->done[q].in[i] != GBA_INIT)
                b->succ[b->succ_off[g->done[q].in[i] + 1]++] = q;
    uint32_t nl = 0;
    for (uint32_t q = 0; q < Q; q++) {
        b->lit_off[q] = nl;
        uint32_t a = 0;
        for (uint32_t i = 0; i < f->count; i++) {
            const ltl_node *e = &f->n[i];
            const uint64_t *old = g->done[q].old;
            if ((e->kind == LT_AP || e->kind == LT_NAP) && bs_has(old, i))
                b->lit[nl++] = (ltl_lit){e->a, e->kind == LT_AP};
            if (e->kind == LT_U)
                b->acc[q * b->n_acc + a++] = !bs_has(old, i) || bs_has(old, e->b);
        }
    }
    b->lit_off[Q] = nl;
    return PN_OK;
}

pn_status ltl_buchi_build(const ltl_formula *f, uint32_t max_states, const pn_budget *budget,
                          ltl_buchi **out, pn_error *err)
{
    *out = NULL;
    gba g = {.f = f, .words = (f->count + 63) / 64, .limit = max_states, .budget = budget};
    uint32_t n_u = 0;
    for (uint32_t i = 0; i < f->count; i++)
        n_u += f->n[i].kind == LT_U;
    g.key_words = 2 * g.words + (n_u + 63) / 64;
    g.lits = calloc(g.words, sizeof *g.lits);
    g.key = calloc(g.key_words, sizeof *g.key);
    if (g.lits == NULL || g.key == NULL) {
        gba_free(&g);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
    }
    for (uint32_t i = 0; i < f->count; i++)
        if (f->n[i].kind == LT_AP || f->n[i].kind == LT_NAP)
            bs_set(g.lits, i);
    gnode start;
    if (!gnode_init(&g, &start, NULL)) {
        gba_free(&g);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
    }
    if (!gnode_add_in(&start, GBA_INIT) || !gba_push(&g.todo, &g.n_todo, &g.cap_todo, &start)) {
        gnode_free(&start);
        gba_free(&g);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
    }
    bs_set(start.new_, f->root); /* start's sets are shared with its copy */
    pn_status st = gba_run(&g, err);
    ltl_buchi *b = st == PN_OK ? calloc(1, sizeof *b) : NULL;
    if (st == PN_OK && b == NULL)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory building the automaton");
    if (st == PN_OK && (st = gba_export(&g, b, err)) != PN_OK) {
        ltl_buchi_free(b);
        b = NULL;
    }
    gba_free(&g);
    *out = b;
    return st;
}
