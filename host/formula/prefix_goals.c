/* LTL formulas refuted on a walk's prefix (prefix_goals.h). A run that
 * violates a safety-shaped part of a formula (G p, X X q, p U q with p
 * failing first) shows it on a prefix, which a random walk meets in
 * milliseconds where the LTL product's depth-first search of a net of
 * thousands of transitions takes seconds per formula; ITS-Tools refutes
 * LTL formulas by such memory-less runs before anything else
 * (Thierry-Mieg, "Symbolic and Structural Model-Checking", Fundamenta
 * Informaticae 183, 2021). The reading is formula_prefix.c's three-valued
 * LTL (Bauer, Leucker and Schallhart 2011); this file only gathers the
 * atoms it asks for and answers them from the recorded letters. */
#include "formula/prefix_goals.h"

#include <stdlib.h>

/* Adds n's maximal state sub-formulas to g->atoms (each node once), as
 * pf_eval asks for them: a state node is read whole, the connectives and
 * temporal operators are opened, anything else is never read. */
static bool pg_atoms(pn_prefix_goals *g, const pn_fml_node *n, uint32_t cap)
{
    if (pn_fml_is_state(n)) {
        for (uint32_t a = 0; a < g->n_atoms; a++)
            if (g->atoms[a] == n)
                return true;
        if (g->n_atoms == cap)
            return false;
        g->atoms[g->n_atoms++] = n;
        return true;
    }
    switch (n->kind) {
    case PN_FML_NOT:
    case PN_FML_AND:
    case PN_FML_OR:
    case PN_FML_X:
    case PN_FML_F:
    case PN_FML_G:
    case PN_FML_U:
        for (uint32_t i = 0; i < n->n; i++)
            if (!pg_atoms(g, n->kids[i], cap))
                return false;
        return true;
    default:
        return true;
    }
}

/* The number of nodes below n: a bound on its atoms. */
static uint32_t pg_nodes(const pn_fml_node *n)
{
    uint32_t k = 1;
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        k += pg_nodes(n->kids[i]);
    return k;
}

pn_status pn_prefix_goals_collect(pn_prefix_goals *g, const pn_fml_set *set,
                                  pn_prefix_open open, void *ctx, pn_error *err)
{
    *g = (pn_prefix_goals){0};
    uint32_t cap = 0;
    for (uint32_t i = 0; set != NULL && i < set->n; i++) {
        const pn_fml_node *r = set->props[i].root;
        if (set->props[i].status == PN_OK && r != NULL && r->kind == PN_FML_A && r->n == 1 &&
            !pn_fml_has_action(r) && open(ctx, i)) {
            g->n++;
            cap += pg_nodes(r);
        }
    }
    if (g->n == 0)
        return PN_OK;
    g->answer = malloc((size_t)g->n * sizeof *g->answer);
    g->body = malloc((size_t)g->n * sizeof *g->body);
    g->atoms = malloc((size_t)cap * sizeof *g->atoms);
    if (g->answer == NULL || g->body == NULL || g->atoms == NULL) {
        pn_prefix_goals_free(g);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the walks' LTL formulas");
    }
    uint32_t k = 0;
    for (uint32_t i = 0; k < g->n && i < set->n; i++) {
        const pn_fml_node *r = set->props[i].root;
        if (set->props[i].status != PN_OK || r == NULL || r->kind != PN_FML_A || r->n != 1 ||
            pn_fml_has_action(r) || !open(ctx, i))
            continue;
        g->answer[k] = i;
        g->body[k++] = r->kids[0];
        pg_atoms(g, r->kids[0], cap); /* cap counts every node: never short */
    }
    g->n = k;
    return PN_OK;
}

void pn_prefix_goals_free(pn_prefix_goals *g)
{
    free(g->answer);
    free(g->body);
    free((void *)g->atoms);
    *g = (pn_prefix_goals){0};
}

pn_status pn_prefix_trace_init(pn_prefix_trace *t, uint32_t words, uint32_t base,
                               pn_error *err)
{
    *t = (pn_prefix_trace){.words = words, .base = base};
    t->letters = calloc((size_t)PN_PREFIX_STEPS * words + 1, sizeof *t->letters);
    if (t->letters == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the walks' LTL prefixes");
    return PN_OK;
}

void pn_prefix_trace_free(pn_prefix_trace *t)
{
    free(t->letters);
    *t = (pn_prefix_trace){0};
}

/* The reading's question "does psi hold at step k": psi is one of the
 * atoms; the last one found is remembered, as the reading asks for one
 * atom at every step before the next. */
typedef struct pg_reader {
    const pn_prefix_goals *g;
    const pn_prefix_trace *t;
    const pn_fml_node *last;
    uint32_t last_bit;
} pg_reader;

static bool pg_at(void *ctx, const pn_fml_node *psi, uint32_t k)
{
    pg_reader *r = ctx;
    if (psi != r->last) {
        uint32_t a = 0;
        while (a < r->g->n_atoms && r->g->atoms[a] != psi)
            a++;
        if (a == r->g->n_atoms) /* not an atom: never asked (pg_atoms) */
            return false;
        r->last = psi;
        r->last_bit = r->t->base + a;
    }
    const uint64_t *letter = pn_prefix_trace_step(r->t, k);
    return (letter[r->last_bit / 64] >> (r->last_bit % 64)) & 1;
}

bool pn_prefix_goal_refuted(const pn_prefix_goals *g, uint32_t k, const pn_prefix_trace *t,
                            uint32_t len, bool dead)
{
    if (k >= g->n || len == 0 || len > PN_PREFIX_STEPS)
        return false;
    pg_reader r = {.g = g, .t = t};
    return pn_fml_eval_prefix(g->body[k], len, dead, pg_at, &r) == 0;
}
