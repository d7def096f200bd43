/* LTL model checking (see ltl.h): atoms evaluated once per state, then an
 * iterative Tarjan search of the product of the state graph (deadlocks
 * stutter) with the Büchi automaton of the negated formula, looking for a
 * reachable non-trivial SCC that meets every acceptance set. */
#include "net/layout.h"
#include "petrel/ltl.h"

#include <stdlib.h>
#include <string.h>

#include "logic/ltl_buchi.h"
#include "formula/sformula.h"

#define LTL_MAX_AUTOMATON 4096
#define PROD_NONE UINT64_MAX

typedef struct prod {
    pn_ctl_model *m;
    const ltl_buchi *b;
    uint8_t *atoms;          /* atoms[a * n + s] */
    uint64_t *letter;        /* <= 64 atoms: bit a of letter[s] = atoms[a][s] */
    uint64_t *lmask, *lval;  /* per automaton state: label holds at s iff
                                (letter[s] & lmask) == lval */
    uint64_t n;              /* graph states */
    /* product states, by discovery order */
    uint64_t *key;           /* s * Q + q */
    uint64_t *index, *low;
    uint8_t *on_stack;
    uint64_t count, cap;
    uint64_t *slots;         /* key -> id + 1, open addressing */
    uint64_t slot_mask;
    uint64_t *stack, sp;     /* Tarjan stack */
    uint64_t *fid, *fedge;   /* DFS frames: product id, successor cursor */
    uint32_t *fq;
    uint64_t fp, next_index;
    uint64_t budget, bytes;
    pn_error *err;
} prod;

static pn_status ltl_atoms(prod *p, const ltl_formula *f)
{
    const pn_prog *g = &p->m->layout->prog;
    p->atoms = malloc((size_t)f->n_atoms * p->n + 1);
    uint64_t *mk = calloc((size_t)g->n_places + 1, sizeof *mk);
    pn_sformula_owned **sf = calloc((size_t)f->n_atoms + 1, sizeof *sf);
    pn_status st = p->atoms && mk && sf ? PN_OK
                                        : pn_fail(p->err, PN_ERR_NOMEM, "LTL: out of memory");
    for (uint32_t a = 0; st == PN_OK && a < f->n_atoms; a++)
        st = pn_sformula_compile(f->atoms[a], &sf[a], p->err);
    const pn_graph *gr = p->m->graph;
    for (uint64_t s = 0; st == PN_OK && s < p->n; s++) {
        pn_state_unpack(g, p->m->store + s * g->words, mk);
        uint32_t en = (uint32_t)(gr->off[s + 1] - gr->off[s]);
        for (uint32_t a = 0; a < f->n_atoms; a++)
            p->atoms[a * p->n + s] = pn_sf_eval(&sf[a]->f, g, mk, en, NULL);
    }
    for (uint32_t a = 0; sf != NULL && a < f->n_atoms; a++)
        pn_sformula_free(sf[a]);
    free(sf);
    free(mk);
    return st;
}

static bool ltl_label_holds(const prod *p, uint32_t q, uint64_t s)
{
    if (p->letter != NULL)
        return (p->letter[s] & p->lmask[q]) == p->lval[q];
    for (uint32_t k = p->b->lit_off[q]; k < p->b->lit_off[q + 1]; k++)
        if (p->atoms[p->b->lit[k].atom * p->n + s] != p->b->lit[k].positive)
            return false;
    return true;
}

/* With at most 64 atoms, a state's atoms fit one word and a label check is
 * one mask-and-compare: the product's inner loop. Optional: without it the
 * literal lists are walked. */
static void ltl_letters(prod *p, uint32_t n_atoms)
{
    uint32_t Q = p->b->n_states;
    if (n_atoms > 64)
        return;
    p->letter = calloc(p->n + 1, sizeof *p->letter);
    p->lmask = calloc((size_t)Q + 1, sizeof *p->lmask);
    p->lval = calloc((size_t)Q + 1, sizeof *p->lval);
    if (p->letter == NULL || p->lmask == NULL || p->lval == NULL) {
        free(p->letter);
        p->letter = NULL;
        return;
    }
    for (uint32_t a = 0; a < n_atoms; a++)
        for (uint64_t s = 0; s < p->n; s++)
            p->letter[s] |= (uint64_t)p->atoms[a * p->n + s] << a;
    for (uint32_t q = 0; q < Q; q++)
        for (uint32_t k = p->b->lit_off[q]; k < p->b->lit_off[q + 1]; k++) {
            uint64_t bit = 1ULL << p->b->lit[k].atom;
            if ((p->lmask[q] & bit) && ((p->lval[q] & bit) != 0) != p->b->lit[k].positive)
                p->lval[q] = ~0ULL; /* p and !p: never holds (no letter has all bits) */
            p->lmask[q] |= bit;
            if (p->b->lit[k].positive && p->lval[q] != ~0ULL)
                p->lval[q] |= bit;
        }
}

static bool prod_grow(prod *p)
{
    uint64_t cap = p->cap ? p->cap * 2 : 1024;
    uint64_t bytes = cap * (4 * sizeof(uint64_t) + 1 + 2 * sizeof(uint64_t) + sizeof(uint32_t)) +
                     cap * 2 * sizeof(uint64_t);
    if (p->budget && bytes > p->budget)
        return false;
    uint64_t **arrs[] = {&p->key, &p->index, &p->low, &p->stack, &p->fid, &p->fedge};
    for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++) {
        uint64_t *a = realloc(*arrs[i], cap * sizeof **arrs[i]);
        if (a == NULL)
            return false;
        *arrs[i] = a;
    }
    uint8_t *os = realloc(p->on_stack, cap);
    uint32_t *fq = realloc(p->fq, cap * sizeof *fq);
    if (os != NULL)
        p->on_stack = os;
    if (fq != NULL)
        p->fq = fq;
    uint64_t *slots = calloc(cap * 2, sizeof *slots);
    if (os == NULL || fq == NULL || slots == NULL) {
        free(slots);
        return false;
    }
    free(p->slots);
    p->slots = slots;
    p->slot_mask = cap * 2 - 1;
    for (uint64_t id = 0; id < p->count; id++) {
        uint64_t i = pn_mix64(p->key[id]) & p->slot_mask;
        while (p->slots[i] != 0)
            i = (i + 1) & p->slot_mask;
        p->slots[i] = id + 1;
    }
    p->cap = cap;
    return true;
}

/* The id of product state key, or PROD_NONE when it is new (*slot: where
 * it would go). */
static uint64_t prod_find(const prod *p, uint64_t key, uint64_t *slot)
{
    uint64_t i = pn_mix64(key) & p->slot_mask;
    while (p->slots[i] != 0) {
        if (p->key[p->slots[i] - 1] == key)
            return p->slots[i] - 1;
        i = (i + 1) & p->slot_mask;
    }
    *slot = i;
    return PROD_NONE;
}

/* Starts visiting product state key. False when out of memory. */
static bool prod_push(prod *p, uint64_t key)
{
    if (p->count == p->cap && !prod_grow(p))
        return false;
    uint64_t slot = 0;
    prod_find(p, key, &slot);
    uint64_t id = p->count++;
    p->slots[slot] = id + 1;
    p->key[id] = key;
    p->index[id] = p->low[id] = p->next_index++;
    p->on_stack[id] = 1;
    p->stack[p->sp++] = id;
    p->fid[p->fp] = id;
    p->fedge[p->fp] = 0;
    p->fq[p->fp++] = 0;
    return true;
}

/* The next successor of the frame on top, as a key; PROD_NONE when there
 * is none left. A deadlock state's only successor is itself. */
static uint64_t prod_next_succ(prod *p)
{
    uint64_t f = p->fp - 1;
    uint64_t Q = p->b->n_states, key = p->key[p->fid[f]];
    uint64_t s = key / Q;
    uint32_t q = (uint32_t)(key % Q);
    const pn_graph *g = p->m->graph;
    uint64_t deg = g->off[s + 1] - g->off[s];
    uint64_t n_s = deg ? deg : 1;
    uint32_t n_q = p->b->succ_off[q + 1] - p->b->succ_off[q];
    while (p->fedge[f] < n_s) {
        uint64_t t = deg ? g->dst[g->off[s] + p->fedge[f]] : s;
        while (p->fq[f] < n_q) {
            uint32_t r = p->b->succ[p->b->succ_off[q] + p->fq[f]++];
            if (ltl_label_holds(p, r, t))
                return t * Q + r;
        }
        p->fq[f] = 0;
        p->fedge[f]++;
    }
    return PROD_NONE;
}

static bool prod_self_loop(prod *p, uint64_t id)
{
    uint64_t Q = p->b->n_states, key = p->key[id], s = key / Q;
    uint32_t q = (uint32_t)(key % Q);
    const pn_graph *g = p->m->graph;
    bool to_self = g->off[s] == g->off[s + 1];
    for (uint64_t e = g->off[s]; !to_self && e < g->off[s + 1]; e++)
        to_self = g->dst[e] == s;
    if (!to_self)
        return false;
    for (uint32_t k = p->b->succ_off[q]; k < p->b->succ_off[q + 1]; k++)
        if (p->b->succ[k] == q)
            return true;
    return false;
}

/* Pops the SCC rooted at id; true when it is accepting. */
static bool prod_pop_scc(prod *p, uint64_t id, uint8_t *hit)
{
    uint64_t start = p->sp;
    do
        start--;
    while (p->stack[start] != id);
    uint32_t Q = p->b->n_states, A = p->b->n_acc;
    memset(hit, 0, A + 1);
    uint32_t met = 0;
    for (uint64_t i = start; i < p->sp; i++) {
        uint64_t x = p->stack[i];
        p->on_stack[x] = 0;
        uint32_t q = (uint32_t)(p->key[x] % Q);
        for (uint32_t a = 0; a < A; a++)
            if (!hit[a] && p->b->acc[q * A + a]) {
                hit[a] = 1;
                met++;
            }
    }
    bool nontrivial = p->sp - start > 1 || prod_self_loop(p, id);
    p->sp = start;
    return nontrivial && met == A;
}

/* Depth-first from the product state key; 1: accepting SCC found, 0: none
 * reachable from it, -1: out of memory, -2: time limit. */
static int prod_dfs(prod *p, uint64_t key, uint8_t *hit)
{
    if (!prod_push(p, key))
        return -1;
    for (uint64_t steps = 1; p->fp > 0; steps++) {
        if ((steps & 0xffff) == 0 && pn_budget_expired(&p->m->budget))
            return -2;
        uint64_t v = p->fid[p->fp - 1];
        uint64_t next = prod_next_succ(p);
        if (next != PROD_NONE) {
            uint64_t slot, w = prod_find(p, next, &slot);
            if (w == PROD_NONE) {
                if (!prod_push(p, next))
                    return -1;
            } else if (p->on_stack[w] && p->index[w] < p->low[v]) {
                p->low[v] = p->index[w];
            }
            continue;
        }
        p->fp--;
        if (p->fp > 0) {
            uint64_t u = p->fid[p->fp - 1];
            if (p->low[v] < p->low[u])
                p->low[u] = p->low[v];
        }
        if (p->low[v] == p->index[v] && prod_pop_scc(p, v, hit))
            return 1;
    }
    return 0;
}

/* 1: the product has an accepting run, 0: it has none, < 0: gave up
 * (prod_dfs's codes). */
static int prod_nonempty(prod *p)
{
    uint8_t *hit = malloc(p->b->n_acc + 1);
    if (hit == NULL || !prod_grow(p)) {
        free(hit);
        return -1;
    }
    int r = 0;
    uint64_t Q = p->b->n_states;
    for (uint32_t q = 0; r == 0 && q < Q; q++) {
        uint64_t slot;
        if (p->b->init[q] && ltl_label_holds(p, q, 0) && prod_find(p, q, &slot) == PROD_NONE)
            r = prod_dfs(p, q, hit);
    }
    free(hit);
    return r;
}

static void prod_free(prod *p)
{
    free(p->atoms);
    free(p->letter);
    free(p->lmask);
    free(p->lval);
    free(p->key);
    free(p->index);
    free(p->low);
    free(p->on_stack);
    free(p->slots);
    free(p->stack);
    free(p->fid);
    free(p->fedge);
    free(p->fq);
}

pn_status pn_ltl_check(pn_ctl_model *m, const pn_fml_node *phi, bool *value,
                       pn_ltl_stats *stats, pn_error *err)
{
    if (phi->kind != PN_FML_A)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "LTL formula not of the form A(path formula)");
    ltl_formula f;
    if (ltl_from_fml(phi->kids[0], true, &f, err) != PN_OK)
        return err->code;
    ltl_buchi *b = NULL;
    pn_status st = ltl_buchi_build(&f, LTL_MAX_AUTOMATON, &b, err);
    prod p = {.m = m, .b = b, .n = m->graph->n_states, .budget = pn_budget_memory(&m->budget), .err = err};
    if (st == PN_OK)
        st = ltl_atoms(&p, &f);
    if (st == PN_OK) {
        ltl_letters(&p, f.n_atoms);
        int r = prod_nonempty(&p);
        if (r == -2)
            st = pn_budget_fail(&m->budget, err, "LTL");
        else if (r < 0)
            st = pn_fail(err, PN_ERR_OUT_OF_MEMORY, "LTL: the product exceeds memory");
        else
            *value = r == 0;
    }
    if (stats != NULL && b != NULL) {
        stats->automaton_states = stats->raw_states = b->n_states;
        stats->automaton_edges = stats->raw_edges = b->succ_off[b->n_states];
        stats->acceptance_sets = b->n_acc;
        stats->atoms = f.n_atoms;
        stats->product_states = p.count;
    }
    prod_free(&p);
    ltl_buchi_free(b);
    ltl_formula_free(&f);
    return st;
}
