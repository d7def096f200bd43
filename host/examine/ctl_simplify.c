/* CTL simplification with the linear layer, after TAPAAL's (F. M.
 * Bønneland, J. Dyhr, P. G. Jensen, M. Johannsen, J. Srba, "Simplification
 * of CTL formulae for efficient model checking of Petri nets", Petri Nets
 * 2018): a CTL formula is only ever evaluated at reachable markings, so a
 * sub-formula that holds at no reachable marking is FALSE wherever it is
 * evaluated, and one whose negation holds at none is TRUE.
 *
 * For a state sub-formula phi the questions are E F phi and E F !phi. For a
 * temporal sub-formula psi they are E F req(psi) and E F req(!psi), where
 * req(x) is a state formula that holds at every state where x holds:
 *   req(phi) = phi for a state formula; req(!x) pushes the negation;
 *   req(a & b) = req(a) & req(b); req(a | b) = req(a) | req(b);
 *   req(AG a) = req(EG a) = req(a) (G holds at position 0);
 *   req(!AF a) = req(!EF a) = req(!a) (the duals);
 *   req(E[a U b]) = req(A[a U b]) = req(a) | req(b) (b now, or a now);
 *   req(!E[a U b]) = req(!A[a U b]) = req(!b) (b now would satisfy both);
 *   anything else (EX, AX, EF, AF, ...) says nothing about the state.
 * Each question goes to the linear layer (state equation, traps,
 * invariants; no firing sequences, which would prove only that a marking
 * exists): E F q proven FALSE means no reachable marking has q. The
 * sub-formulas so decided become constants, and pn_fml_ctl_rewrite folds
 * them and applies the CTL rules; a formula may then be a reachability or
 * state formula, which the portfolio routes to those paths. Rounds repeat
 * while one replaced something and time is left.
 *
 * On a net whose runs all end (a linear ranking function,
 * pn_linear_terminates), F and G fold over what holds at the deadlocks
 * every path ends in (formula_finite.c): by structure, or with one more
 * question per F / G node, E F (deadlock & !phi) or E F (deadlock & phi).
 *
 * LTL (pn_ltl_simplify) takes the state-formula part only: every position
 * of a path from m0 is a reachable marking, so a state sub-formula that
 * holds at no reachable marking is FALSE at every position (ITS-Tools and
 * TAPAAL simplify LTL atoms the same way); one round, then the sound
 * rewrites of pn_fml_simplify, never the CTL rules (the finite-run rules
 * hold for LTL's F and G too). */
#include "examine/ctl_simplify.h"

#include <stdlib.h>

#include "petrel/check.h"
#include "petrel/linear.h"

#define CS_QUESTIONS_MAX 512
#define CS_ROUNDS 3
#define CS_FINITE_SECONDS 2.0

typedef struct cs_use {
    const pn_fml_node *node;
    uint32_t q;        /* question: E F req */
    bool neg;          /* req of !node: unsatisfiable makes node TRUE */
} cs_use;

typedef struct cs {
    bool ltl;          /* state sub-formulas only (pn_ltl_simplify) */
    bool finite;       /* every run is finite (pn_linear_terminates) */
    uint32_t folded;   /* nodes pn_fml_fold_finite replaced */
    pn_fml_set aux;    /* the questions, as E F q */
    uint32_t cap;
    cs_use *uses;
    uint32_t n_uses, cap_uses;
    const pn_check *answers;
} cs;

static pn_fml_node *cs_req(const pn_fml_node *n, bool neg);

/* req over the kids of an AND / OR; conj: the result is their conjunction
 * (kids without information drop out), else their disjunction (one kid
 * without information makes it none). */
static pn_fml_node *cs_req_junction(const pn_fml_node *n, bool neg, bool conj)
{
    pn_fml_node **kids = calloc(n->n, sizeof *kids);
    uint32_t k = 0;
    bool ok = kids != NULL;
    for (uint32_t i = 0; ok && i < n->n; i++) {
        pn_fml_node *r = cs_req(n->kids[i], neg);
        if (r != NULL)
            kids[k++] = r;
        else
            ok = conj;
    }
    pn_fml_node *out = NULL;
    if (ok && k > 0)
        out = k == 1 ? kids[0] : pn_fml_nary(conj ? PN_FML_AND : PN_FML_OR, kids, k);
    else
        for (uint32_t i = 0; i < k; i++)
            pn_fml_free(kids[i]);
    free(kids);
    return out;
}

/* A state formula that holds wherever n (neg: !n) holds; NULL: none known
 * (or no memory, which only loses information). */
static pn_fml_node *cs_req(const pn_fml_node *n, bool neg)
{
    if (pn_fml_is_state(n))
        return neg ? pn_fml_unary(PN_FML_NOT, pn_fml_clone(n)) : pn_fml_clone(n);
    switch (n->kind) {
    case PN_FML_NOT: return cs_req(n->kids[0], !neg);
    case PN_FML_AND: return cs_req_junction(n, neg, !neg);
    case PN_FML_OR: return cs_req_junction(n, neg, neg);
    case PN_FML_A:
    case PN_FML_E: break;
    default: return NULL;
    }
    const pn_fml_node *p = n->kids[0];
    switch (p->kind) {
    case PN_FML_G: return neg ? NULL : cs_req(p->kids[0], false);
    case PN_FML_F: return neg ? cs_req(p->kids[0], true) : NULL;
    case PN_FML_U:
        if (neg)
            return cs_req(p->kids[1], true);
        return cs_req_junction(p, false, false);
    default: return NULL;
    }
}

static bool cs_grow(cs *s)
{
    if (s->n_uses == s->cap_uses) {
        uint32_t cap = s->cap_uses ? 2 * s->cap_uses : 32;
        cs_use *u = realloc(s->uses, cap * sizeof *u);
        if (u == NULL)
            return false;
        s->uses = u;
        s->cap_uses = cap;
    }
    if (s->aux.n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 32;
        pn_fml_prop *p = realloc(s->aux.props, cap * sizeof *p);
        if (p == NULL)
            return false;
        s->aux.props = p;
        s->cap = cap;
    }
    return true;
}

/* Asks whether q (taken) holds at some reachable marking, for node. */
static pn_status cs_ask(cs *s, const pn_fml_node *node, bool neg, pn_fml_node *q)
{
    pn_error e = {0};
    if (q == NULL || pn_fml_simplify(&q, &e) != PN_OK || q->kind == PN_FML_TRUE ||
        !cs_grow(s)) {
        pn_fml_free(q);
        return PN_OK; /* nothing to learn, or no memory to learn it */
    }
    uint32_t k = 0;
    while (k < s->aux.n && !pn_fml_equal(s->aux.props[k].root->kids[0]->kids[0], q))
        k++;
    if (k == s->aux.n) {
        if (s->aux.n == CS_QUESTIONS_MAX) {
            pn_fml_free(q);
            return PN_OK;
        }
        pn_fml_node *ef = pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, q));
        if (ef == NULL)
            return PN_OK;
        s->aux.props[s->aux.n++] = (pn_fml_prop){.id = "ctl-sub", .root = ef, .status = PN_OK};
    } else {
        pn_fml_free(q);
    }
    s->uses[s->n_uses++] = (cs_use){.node = node, .q = k, .neg = neg};
    return PN_OK;
}

/* On a net whose runs all end at a deadlock (pn_fml_fold_finite): F phi
 * is TRUE when no reachable deadlock has !phi, G phi FALSE when none has
 * phi; phi read at a deadlock (pn_fml_at_deadlock) may count tokens, which
 * the linear layer judges. */
static void cs_ask_final(cs *s, const pn_fml_node *n)
{
    const pn_fml_node *t = pn_fml_finite_temporal(n, s->ltl);
    if (!s->finite || t == NULL)
        return;
    pn_fml_node *d = pn_fml_at_deadlock(t->kids[0], s->ltl);
    bool f = t->kind == PN_FML_F;
    cs_ask(s, n, f, pn_fml_binary(PN_FML_AND, pn_fml_leaf(PN_FML_DEADLOCK),
                                  f ? pn_fml_unary(PN_FML_NOT, d) : d));
}

/* The questions of every sub-formula of n; top: n is a formula's root
 * (a state formula there is decided at the initial marking anyway). */
static void cs_walk(cs *s, const pn_fml_node *n, bool top)
{
    if (n->kind == PN_FML_TRUE || n->kind == PN_FML_FALSE)
        return;
    if (pn_fml_is_state(n)) {
        if (!top) {
            cs_ask(s, n, false, pn_fml_clone(n));
            cs_ask(s, n, true, pn_fml_unary(PN_FML_NOT, pn_fml_clone(n)));
        }
        return;
    }
    cs_ask_final(s, n);
    if (s->ltl) { /* every kid of a path formula is read at reachable markings */
        for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
            cs_walk(s, n->kids[i], false);
        return;
    }
    cs_ask(s, n, false, cs_req(n, false));
    cs_ask(s, n, true, cs_req(n, true));
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++) {
        const pn_fml_node *k = n->kids[i];
        if (n->kind == PN_FML_A || n->kind == PN_FML_E) /* through the path operator */
            for (uint32_t j = 0; k->kids != NULL && j < k->n; j++)
                cs_walk(s, k->kids[j], false);
        else
            cs_walk(s, k, false);
    }
}

/* The constant the answers prove for node: 1 TRUE, 0 FALSE, -1 none. */
static int cs_value(const cs *s, const pn_fml_node *node)
{
    for (uint32_t u = 0; u < s->n_uses; u++) {
        if (s->uses[u].node != node)
            continue;
        const pn_answer *a = pn_check_answer(s->answers, s->uses[u].q);
        if (a->verdict == PN_VERDICT_FALSE)
            return s->uses[u].neg;
    }
    return -1;
}

/* Replaces the decided sub-formulas of *pp, outermost first. */
static uint32_t cs_replace(const cs *s, pn_fml_node **pp)
{
    pn_fml_node *n = *pp;
    int v = cs_value(s, n);
    if (v >= 0) {
        pn_fml_node *c = pn_fml_leaf(v ? PN_FML_TRUE : PN_FML_FALSE);
        if (c == NULL)
            return 0;
        pn_fml_free(n);
        *pp = c;
        return 1;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        k += cs_replace(s, &n->kids[i]);
    return k;
}

static void cs_clear(cs *s)
{
    for (uint32_t k = 0; k < s->aux.n; k++)
        pn_fml_free(s->aux.props[k].root);
    s->aux.n = 0;
    s->n_uses = 0;
}

/* One round over every formula of set; *replaced counts the constants. */
static pn_status cs_round(cs *s, const pn_cnet *cn, pn_fml_set *set, const pn_linear_opts *lin,
                          FILE *verbose, uint32_t *replaced, pn_error *err)
{
    *replaced = 0;
    for (uint32_t i = 0; i < set->n; i++)
        if (set->props[i].status == PN_OK && set->props[i].root != NULL)
            cs_walk(s, set->props[i].root, true);
    if (s->aux.n == 0)
        return PN_OK;
    pn_check *c = NULL;
    if (pn_check_new(cn, PN_EXAM_REACH_CARDINALITY, &s->aux, 1, &c, err) != PN_OK)
        return err->code;
    pn_linear_opts lo = {.budget = lin->budget, .proofs_only = true, .no_smt = lin->no_smt};
    pn_status st = pn_linear_decide(cn, c, &lo, err);
    pn_check_finish(c, NULL);
    s->answers = c;
    for (uint32_t i = 0; st == PN_OK && i < set->n; i++)
        if (set->props[i].status == PN_OK && set->props[i].root != NULL)
            *replaced += cs_replace(s, &set->props[i].root);
    if (verbose != NULL)
        fprintf(verbose, "petrel: simplification: %u questions, %u sub-formulas constant\n",
                s->aux.n, *replaced);
    s->answers = NULL;
    pn_check_free(c);
    return st;
}

/* X true = true and X false = false in LTL, where a deadlock repeats
 * forever (docs/semantics.md), unlike CTL's EX true at a deadlock; counts
 * the folds. */
static uint32_t cs_ltl_next(pn_fml_node **pp)
{
    pn_fml_node *n = *pp;
    uint32_t k = 0;
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        k += cs_ltl_next(&n->kids[i]);
    if (n->kind != PN_FML_X || (n->kids[0]->kind != PN_FML_TRUE && n->kids[0]->kind != PN_FML_FALSE))
        return k;
    *pp = n->kids[0];
    n->kids[0] = NULL;
    pn_fml_free(n);
    return k + 1;
}

/* The rules of the logic: CTL's rewrite (pn_fml_ctl_rewrite), or for LTL
 * the sound rewrites every logic shares and the folding of X, then, on a
 * net whose runs are all finite, pn_fml_fold_finite; until nothing
 * changes. */
static pn_status cs_rewrite(cs *s, pn_fml_set *set, pn_error *err)
{
    pn_status st = PN_OK;
    for (uint32_t i = 0; st == PN_OK && i < set->n; i++) {
        pn_fml_node **root = &set->props[i].root;
        if (set->props[i].status != PN_OK || *root == NULL)
            continue;
        for (;;) {
            if (!s->ltl)
                st = pn_fml_ctl_rewrite(root, err);
            else
                do
                    st = pn_fml_simplify(root, err);
                while (st == PN_OK && cs_ltl_next(root) > 0);
            /* A fold to a constant may let the rules fold more. */
            uint32_t folded = st == PN_OK && s->finite ? pn_fml_fold_finite(root, s->ltl) : 0;
            s->folded += folded;
            if (folded == 0)
                break;
        }
    }
    return st;
}

/* Whether every run of cn is finite, asked once per simplification with a
 * slice of the budget (a ranking function, or nothing learnt). */
static bool cs_finite(const pn_cnet *cn, const pn_linear_opts *lin, FILE *verbose)
{
    double left = pn_budget_left_s(lin->budget), t0 = pn_clock_now();
    double seconds = left / 8 < CS_FINITE_SECONDS ? left / 8 : CS_FINITE_SECONDS;
    bool finite = false;
    pn_error e = {0};
    pn_budget slice = pn_budget_within(lin->budget, seconds);
    if (seconds > 0.01 && pn_linear_terminates(cn, &slice, &finite, &e) != PN_OK)
        finite = false;
    if (verbose != NULL)
        fprintf(verbose, "petrel: simplification: %s (ranking function, %.3f s)\n",
                finite ? "every run is finite" : "runs may be infinite", pn_clock_now() - t0);
    return finite;
}

/* Rounds of questions to the linear layer, each followed by the rules,
 * until one replaces nothing (LTL: one round). */
static pn_status cs_rounds(cs *s, const pn_cnet *cn, pn_fml_set *copy,
                           const pn_simplify_opts *o, uint32_t *decided, pn_error *err)
{
    pn_linear_opts own = *o->lin;
    pn_budget b = pn_budget_share(o->budget, o->share);
    if (o->budget != NULL)
        own.budget = &b;
    const pn_linear_opts *lin = &own;
    FILE *verbose = o->verbose;
    pn_status st = PN_OK;
    for (int round = 0; st == PN_OK && round < (s->ltl ? 1 : CS_ROUNDS) &&
                        !pn_budget_expired(lin->budget);
         round++) {
        uint32_t replaced = 0;
        st = cs_round(s, cn, copy, lin, verbose, &replaced, err);
        cs_clear(s);
        if (st == PN_OK && replaced > 0)
            st = cs_rewrite(s, copy, err);
        *decided += replaced;
        if (replaced == 0)
            break;
    }
    return st;
}

/* CTL formulas that read "deadlock" where none is reachable: the atoms
 * become FALSE, and the rules and rounds go on with them. */
static pn_status cs_deadlock_free(cs *s, const pn_cnet *cn, pn_fml_set *copy,
                                  const pn_simplify_opts *o, uint32_t *decided, pn_error *err)
{
    if (s->ltl || o->deadlock_free == NULL || pn_ctl_deadlock_atoms(copy, false) == 0 ||
        !o->deadlock_free(o->deadlock_ctx))
        return PN_OK;
    uint32_t atoms = pn_ctl_deadlock_atoms(copy, true);
    *decided += atoms;
    if (o->verbose != NULL)
        fprintf(o->verbose,
                "petrel: CTL simplification: no deadlock is reachable: %u atoms false\n", atoms);
    pn_status st = cs_rewrite(s, copy, err);
    return st == PN_OK ? cs_rounds(s, cn, copy, o, decided, err) : st;
}

static pn_status cs_simplify(const pn_cnet *cn, const pn_fml_set *set, const pn_simplify_opts *o,
                             bool ltl, pn_fml_set **out, uint32_t *decided, pn_error *err)
{
    int known = -1;
    int *finite = o->finite != NULL ? o->finite : &known;
    FILE *verbose = o->verbose;
    if (*finite < 0) {
        pn_linear_opts lin = *o->lin;
        pn_budget b = pn_budget_share(o->budget, o->share);
        if (o->budget != NULL)
            lin.budget = &b;
        *finite = cs_finite(cn, &lin, verbose) ? 1 : 0;
    }
    *out = NULL;
    uint32_t count = 0;
    pn_fml_set *copy = pn_fml_set_clone(set);
    if (copy == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory simplifying formulas");
    cs s = {.ltl = ltl, .aux.net = set->net, .finite = *finite == 1};
    pn_status st = ltl && !s.finite ? PN_OK : cs_rewrite(&s, copy, err);
    if (st == PN_OK)
        st = cs_rounds(&s, cn, copy, o, &count, err);
    if (st == PN_OK)
        st = cs_deadlock_free(&s, cn, copy, o, &count, err);
    count += s.folded;
    if (decided != NULL)
        *decided = count;
    free(s.uses);
    free(s.aux.props);
    if (st != PN_OK) {
        pn_fml_set_free(copy);
        return st;
    }
    for (uint32_t i = 0; verbose != NULL && i < copy->n; i++) {
        fputs("petrel: simplified ", verbose);
        pn_fml_print(verbose, copy, i);
    }
    *out = copy;
    return PN_OK;
}

pn_status pn_ctl_simplify(const pn_cnet *cn, const pn_fml_set *set, const pn_simplify_opts *o,
                          pn_fml_set **out, uint32_t *decided, pn_error *err)
{
    return cs_simplify(cn, set, o, false, out, decided, err);
}

pn_status pn_ltl_simplify(const pn_cnet *cn, const pn_fml_set *set, const pn_simplify_opts *o,
                          pn_fml_set **out, uint32_t *decided, pn_error *err)
{
    return cs_simplify(cn, set, o, true, out, decided, err);
}

static uint32_t cs_deadlocks(pn_fml_node **pp, bool replace)
{
    pn_fml_node *n = *pp;
    if (n->kind == PN_FML_DEADLOCK) {
        pn_fml_node *f = replace ? pn_fml_leaf(PN_FML_FALSE) : NULL;
        if (f != NULL) {
            pn_fml_free(n);
            *pp = f;
        }
        return 1;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        k += cs_deadlocks(&n->kids[i], replace);
    return k;
}

uint32_t pn_ctl_deadlock_atoms(pn_fml_set *set, bool replace)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < set->n; i++)
        if (set->props[i].status == PN_OK && set->props[i].root != NULL)
            k += cs_deadlocks(&set->props[i].root, replace);
    return k;
}
