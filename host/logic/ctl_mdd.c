/* CTL on the MDD of the reachable markings (see ctl_mdd.h). Every set is a
 * subset of the reachable set R; negation is R minus the set. */
#include "logic/ctl_mdd.h"

#include <stdlib.h>
#include <string.h>

#include "logic/ltl_buchi.h"
#include "logic/ltl_otf.h"
#include "net/place_order.h"
#include "space/mdd.h"

#define CTL_MDD_MAX_CONST (1ULL << 62) /* constants beyond: unsupported */
#define CTL_MDD_MAX_MEMO 4096          /* sub-formula sets kept at most */

/* A sub-formula's set, kept while the forest lives: a formula whose turn
 * ran out resumes from its finished sub-formulas in its next turn (a
 * fixed point is not kept half-done), and formulas share the sub-formulas
 * they have in common (the same fireability atoms, often). */
typedef struct sym_memo {
    const pn_fml_node *f; /* borrowed: the caller's formulas outlive the forest */
    pn_mdd_ref set;
} sym_memo;

struct pn_ctl_mdd {
    const pn_cnet *cn;
    pn_mdd *d;
    pn_mdd_ref reach, dead, live; /* live: markings with a successor */
    uint64_t kept;                /* nodes left by the last collection */
    int64_t *coef;                /* per place: an INT_LE atom's */
    sym_memo *memo;               /* CTL_MDD_MAX_MEMO */
    uint32_t n_memo;
};

typedef struct sym {
    pn_ctl_mdd *s;
    pn_error *err;
    bool unsupported; /* err says why */
    bool memo;        /* the formulas outlive the forest: keep their sets */
} sym;

/* The kept set of a sub-formula equal to n; STOP when none. */
static pn_mdd_ref sym_memo_find(const pn_ctl_mdd *s, const pn_fml_node *n)
{
    for (uint32_t i = 0; i < s->n_memo; i++)
        if (s->memo[i].f->kind == n->kind && pn_fml_equal(s->memo[i].f, n))
            return s->memo[i].set;
    return PN_MDD_STOP;
}

static pn_mdd_ref sym_memo_keep(pn_ctl_mdd *s, const pn_fml_node *n, pn_mdd_ref set)
{
    if (set != PN_MDD_STOP && s->n_memo < CTL_MDD_MAX_MEMO)
        s->memo[s->n_memo++] = (sym_memo){n, set};
    return set;
}

static pn_mdd_ref sym_unsupported(sym *y, const char *what)
{
    if (!y->unsupported)
        pn_fail(y->err, PN_ERR_UNSUPPORTED, "CTL on decision diagrams: %s", what);
    y->unsupported = true;
    return PN_MDD_STOP;
}

/* The reachable markings that enable one of ts. */
static pn_mdd_ref sym_fireable(pn_ctl_mdd *s, const uint32_t *ts, uint32_t n)
{
    pn_mdd_ref acc = PN_MDD_EMPTY;
    for (uint32_t i = 0; i < n && acc != PN_MDD_STOP; i++)
        acc = pn_mdd_union(s->d, acc, pn_mdd_enabled(s->d, ts[i], s->reach));
    return acc;
}

/* coef += sign * the tokens of e; *k -= sign * its constant. */
static bool sym_side(pn_ctl_mdd *s, const pn_fml_node *e, int64_t sign, int64_t *k)
{
    if (e->kind == PN_FML_CONST) {
        if (e->value > CTL_MDD_MAX_CONST)
            return false;
        *k -= sign * (int64_t)e->value;
        return true;
    }
    if (e->kind != PN_FML_TOKENS)
        return false;
    for (uint32_t i = 0; i < e->n; i++) {
        if (e->idx[i] >= s->cn->n_places)
            return false;
        s->coef[e->idx[i]] += sign;
    }
    return true;
}

/* kids[0] <= kids[1] as sum_p coef[p] m[p] <= k. */
static pn_mdd_ref sym_le(sym *y, const pn_fml_node *n)
{
    pn_ctl_mdd *s = y->s;
    memset(s->coef, 0, (size_t)s->cn->n_places * sizeof *s->coef);
    int64_t k = 0;
    if (!sym_side(s, n->kids[0], 1, &k) || !sym_side(s, n->kids[1], -1, &k))
        return sym_unsupported(y, "an integer expression other than a constant or a token count");
    return pn_mdd_linear(s->d, s->reach, s->coef, k);
}

/* EX a: the reachable markings with a successor in a. */
static pn_mdd_ref sym_ex(pn_ctl_mdd *s, pn_mdd_ref a) { return pn_mdd_pre_all(s->d, a, s->reach); }

/* AX a = !EX !a: TRUE at a deadlock. */
static pn_mdd_ref sym_ax(pn_ctl_mdd *s, pn_mdd_ref a)
{
    return pn_mdd_minus(s->d, s->reach, sym_ex(s, pn_mdd_minus(s->d, s->reach, a)));
}

/* E[a U b]: b and the a-markings that reach it through a (backward
 * saturation inside a). */
static pn_mdd_ref sym_eu(pn_ctl_mdd *s, pn_mdd_ref a, pn_mdd_ref b)
{
    return pn_mdd_backward(s->d, b, a);
}

/* A[a U b]: b, and the a-markings with a successor, all of whose
 * successors are in the set. A marking joins in the round after one of
 * its successors did, so each round looks only at the predecessors of
 * the last round's newcomers (a round costs its frontier, not the set:
 * AF and EG take hundreds of rounds on a ring of trains). */
static pn_mdd_ref sym_au(pn_ctl_mdd *s, pn_mdd_ref a, pn_mdd_ref b)
{
    pn_mdd *d = s->d;
    pn_mdd_ref z = b, out = pn_mdd_minus(d, s->reach, b), fresh = b;
    pn_mdd_ref open = pn_mdd_minus(d, pn_mdd_inter(d, a, s->live), b);
    while (fresh != PN_MDD_EMPTY && fresh != PN_MDD_STOP) {
        pn_mdd_ref cand = pn_mdd_pre_all(d, fresh, open);
        fresh = pn_mdd_minus(d, cand, pn_mdd_pre_all(d, out, cand));
        z = pn_mdd_union(d, z, fresh);
        out = pn_mdd_minus(d, out, fresh);
        open = pn_mdd_minus(d, open, fresh);
    }
    return fresh == PN_MDD_STOP ? PN_MDD_STOP : z;
}

static pn_mdd_ref sym_eval(sym *y, const pn_fml_node *n);

static pn_mdd_ref sym_quantified(sym *y, bool all, const pn_fml_node *path)
{
    pn_ctl_mdd *s = y->s;
    if (pn_fml_is_state(path))
        return sym_eval(y, path);
    if (path->kind != PN_FML_X && path->kind != PN_FML_F && path->kind != PN_FML_G &&
        path->kind != PN_FML_U)
        return sym_unsupported(y, "a path formula that is not X, F, G or U");
    pn_mdd_ref a = sym_eval(y, path->kids[0]);
    switch (path->kind) {
    case PN_FML_X: return all ? sym_ax(s, a) : sym_ex(s, a);
    case PN_FML_F: return all ? sym_au(s, s->reach, a) : sym_eu(s, s->reach, a);
    case PN_FML_G: { /* AG a = !EF !a, EG a = !AF !a */
        pn_mdd_ref na = pn_mdd_minus(s->d, s->reach, a);
        pn_mdd_ref f = all ? sym_eu(s, s->reach, na) : sym_au(s, s->reach, na);
        return pn_mdd_minus(s->d, s->reach, f);
    }
    default: {
        pn_mdd_ref b = a == PN_MDD_STOP ? PN_MDD_STOP : sym_eval(y, path->kids[1]);
        return all ? sym_au(s, a, b) : sym_eu(s, a, b);
    }
    }
}

static pn_mdd_ref sym_eval_node(sym *y, const pn_fml_node *n);

/* The set of n's markings; temporal sub-formulas and fireability atoms
 * (unions over many transitions) are kept (sym_memo). */
static pn_mdd_ref sym_eval(sym *y, const pn_fml_node *n)
{
    pn_ctl_mdd *s = y->s;
    if (y->unsupported || pn_mdd_status(s->d) != PN_OK)
        return PN_MDD_STOP;
    bool keep = y->memo && (n->kind == PN_FML_A || n->kind == PN_FML_E ||
                            n->kind == PN_FML_FIREABLE);
    pn_mdd_ref r = keep ? sym_memo_find(s, n) : PN_MDD_STOP;
    if (r != PN_MDD_STOP)
        return r;
    r = sym_eval_node(y, n);
    return keep ? sym_memo_keep(s, n, r) : r;
}

static pn_mdd_ref sym_eval_node(sym *y, const pn_fml_node *n)
{
    pn_ctl_mdd *s = y->s;
    switch (n->kind) {
    case PN_FML_TRUE: return s->reach;
    case PN_FML_FALSE: return PN_MDD_EMPTY;
    case PN_FML_DEADLOCK: return s->dead;
    case PN_FML_FIREABLE: return sym_fireable(s, n->idx, n->n);
    case PN_FML_INT_LE: return sym_le(y, n);
    case PN_FML_NOT: return pn_mdd_minus(s->d, s->reach, sym_eval(y, n->kids[0]));
    case PN_FML_AND:
    case PN_FML_OR: {
        pn_mdd_ref acc = sym_eval(y, n->kids[0]);
        for (uint32_t k = 1; k < n->n && acc != PN_MDD_STOP; k++) {
            pn_mdd_ref x = sym_eval(y, n->kids[k]);
            acc = n->kind == PN_FML_AND ? pn_mdd_inter(s->d, acc, x) : pn_mdd_union(s->d, acc, x);
        }
        return acc;
    }
    case PN_FML_A:
    case PN_FML_E: return sym_quantified(y, n->kind == PN_FML_A, n->kids[0]);
    default: return sym_unsupported(y, "an atom without a set (an action or a bound)");
    }
}

/* err from the forest's stop, or from an unsupported formula. */
static pn_status sym_fail(const pn_ctl_mdd *s, bool unsupported, pn_error *err)
{
    if (unsupported)
        return err->code;
    pn_status st = pn_mdd_status(s->d);
    switch (st) {
    case PN_ERR_TIMEOUT: return pn_fail(err, st, "CTL on decision diagrams: time limit reached");
    case PN_ERR_CANCELLED: return pn_fail(err, st, "CTL on decision diagrams: cancelled");
    case PN_ERR_OUT_OF_MEMORY:
        return pn_fail(err, st, "CTL on decision diagrams: memory budget reached (%lu nodes)",
                       (unsigned long)pn_mdd_nodes(s->d));
    case PN_ERR_UNSUPPORTED:
        return pn_fail(err, st, "CTL on decision diagrams: a token count beyond 2^32");
    default:
        return pn_fail(err, st == PN_OK ? PN_ERR_INTERNAL : st, "CTL on decision diagrams failed");
    }
}

/* A collection that keeps reach, dead, live and the kept sub-formula sets
 * (those too after a stop for memory, which it lifts). */
static bool sym_compact(pn_ctl_mdd *s)
{
    if (pn_mdd_status(s->d) == PN_ERR_OUT_OF_MEMORY)
        s->n_memo = 0;
    pn_mdd_ref roots[3 + CTL_MDD_MAX_MEMO] = {s->reach, s->dead, s->live};
    for (uint32_t i = 0; i < s->n_memo; i++)
        roots[3 + i] = s->memo[i].set;
    if (!pn_mdd_compact(s->d, roots, 3 + s->n_memo))
        return false;
    s->reach = roots[0];
    s->dead = roots[1];
    s->live = roots[2];
    for (uint32_t i = 0; i < s->n_memo; i++)
        s->memo[i].set = roots[3 + i];
    s->kept = pn_mdd_nodes(s->d);
    return true;
}

/* Between two formulas only reach, dead, live and the kept sub-formula
 * sets are alive: the nodes of the last formulas' fixed points go once
 * they outnumber the kept ones and the forest holds a quarter of the
 * memory (a forest without collection filled its budget after a few
 * nested formulas). Not sooner: a collection empties the operation cache,
 * which lets a formula whose turn ran out redo its unfinished fixed point
 * cheaply in its next turn. A stop for memory is lifted by it, and then
 * the sub-formula sets go too. */
static void sym_collect(pn_ctl_mdd *s)
{
    uint64_t room = pn_mdd_room(s->d); /* taken when the budget was set on it */
    bool full = pn_mdd_nodes(s->d) >= 2 * s->kept + (1u << 20) &&
                (room == 0 || pn_mdd_bytes(s->d) > room / 4);
    if (full || pn_mdd_status(s->d) != PN_OK)
        sym_compact(s);
}

/* The forest in order, the reachable set, its deadlocks and the rest. */
static pn_status sym_build(pn_ctl_mdd *s, const uint32_t *order, const pn_budget *budget,
                           pn_error *err)
{
    pn_status st = pn_mdd_new(s->cn, order, budget, &s->d, err);
    if (st != PN_OK)
        return st;
    s->reach = pn_mdd_reachable(s->d, pn_mdd_marking(s->d, s->cn->m0));
    /* every successor of a reachable marking is reachable */
    s->live = pn_mdd_pre_all(s->d, s->reach, s->reach);
    s->dead = pn_mdd_minus(s->d, s->reach, s->live);
    if (s->dead == PN_MDD_STOP) {
        st = sym_fail(s, false, err);
        pn_mdd_free(s->d);
        s->d = NULL;
    }
    return st;
}

/* Two level orders (see pn_place_order), each within an eighth of the
 * time (on nets of 10^4-10^5 arcs the full rounds took most of a short
 * step's share): the one of least span gets three quarters of the time
 * left, classic FORCE the rest when they differ (the least span closes
 * most sets; with half, Philosophers-PT-001000's, which closes in 0.4 s,
 * did not in an LTL step's 1.3 s). */
static pn_status sym_reachable(pn_ctl_mdd *s, const pn_budget *budget, pn_error *err)
{
    const uint32_t P = s->cn->n_places;
    uint32_t *order = malloc(2 * ((size_t)P + 1) * sizeof *order);
    if (order == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "CTL on decision diagrams: out of memory");
    uint32_t *classic = order + P + 1;
    pn_budget most = pn_budget_share(budget, 1.0 / 8);
    pn_status st = pn_place_order(s->cn, PN_ORDER_TOUCHED, PN_ORDER_BEST_OF_ROUNDS, false, &most,
                                  order, NULL, NULL, err);
    most = pn_budget_share(budget, 1.0 / 8);
    if (st == PN_OK)
        st = pn_place_order(s->cn, PN_ORDER_TOUCHED, PN_ORDER_BEST_OF_ROUNDS, true, &most,
                            classic, NULL, NULL, err);
    bool two = st == PN_OK && memcmp(order, classic, (size_t)P * sizeof *order) != 0;
    if (st == PN_OK) {
        pn_budget first = pn_budget_share(budget, two ? 0.75 : 1.0);
        st = sym_build(s, order, &first, err);
        if (s->d != NULL)
            pn_mdd_set_budget(s->d, budget); /* first is gone after this call */
    }
    if (two && (st == PN_ERR_TIMEOUT || st == PN_ERR_OUT_OF_MEMORY))
        st = sym_build(s, classic, budget, err);
    free(order);
    return st;
}

pn_status pn_ctl_mdd_new(const pn_cnet *cn, const pn_budget *budget, pn_ctl_mdd **out,
                         pn_error *err)
{
    *out = NULL;
    pn_ctl_mdd *s = calloc(1, sizeof *s);
    if (s == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "CTL on decision diagrams: out of memory");
    s->cn = cn;
    s->coef = calloc((size_t)cn->n_places + 1, sizeof *s->coef);
    s->memo = malloc(CTL_MDD_MAX_MEMO * sizeof *s->memo);
    pn_status st = s->coef == NULL || s->memo == NULL
                       ? pn_fail(err, PN_ERR_NOMEM, "CTL on decision diagrams: out of memory")
                       : sym_reachable(s, budget, err);
    if (st != PN_OK) {
        pn_ctl_mdd_free(s);
        return st;
    }
    sym_collect(s);
    *out = s;
    return PN_OK;
}

pn_status pn_ctl_mdd_check(pn_ctl_mdd *s, const pn_fml_node *phi, const pn_budget *budget,
                           bool *value, pn_error *err)
{
    pn_mdd_set_budget(s->d, budget);
    sym_collect(s);
    sym y = {.s = s, .err = err, .memo = true};
    pn_mdd_ref sat = sym_eval(&y, phi);
    if (sat == PN_MDD_STOP)
        return sym_fail(s, y.unsupported, err);
    *value = pn_mdd_member(s->d, sat, s->cn->m0);
    return PN_OK;
}

pn_status pn_ctl_mdd_reach(pn_ctl_mdd *s, const pn_fml_node *phi, const pn_budget *budget,
                           bool *some, bool *all, pn_error *err)
{
    pn_mdd_set_budget(s->d, budget);
    sym_collect(s);
    sym y = {.s = s, .err = err};
    pn_mdd_ref sat = pn_fml_is_state(phi) ? sym_eval(&y, phi)
                                          : sym_unsupported(&y, "not a state formula");
    if (sat == PN_MDD_STOP)
        return sym_fail(s, y.unsupported, err);
    *some = sat != PN_MDD_EMPTY;
    *all = sat == s->reach; /* canonical: equal sets are equal refs */
    return PN_OK;
}

pn_status pn_ctl_mdd_bound(pn_ctl_mdd *s, const uint32_t *places, uint32_t n, uint64_t *max,
                           pn_error *err)
{
    uint64_t *coef = calloc((size_t)s->cn->n_places + 1, sizeof *coef);
    if (coef == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "CTL on decision diagrams: out of memory");
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        ok = places[i] < s->cn->n_places;
        if (ok)
            coef[places[i]]++;
    }
    ok = ok && pn_mdd_max_sum(s->d, s->reach, coef, max);
    free(coef);
    return ok ? PN_OK : pn_fail(err, PN_ERR_NOMEM, "decision diagrams: no bound computed");
}

/* ---- LTL: the product with a Büchi automaton ----------------------------- */

#define LTL_MDD_MAX_AUTOMATON 4096 /* tableau nodes, as the explicit product */

/* A set of product states: per automaton state, its markings. */
typedef struct sym_ltl {
    pn_ctl_mdd *s;
    const ltl_buchi *b;
    pn_mdd_ref *label;  /* per state: the reachable markings its label admits */
    pn_mdd_ref *pre;    /* scratch: per state, the net predecessors of a set */
} sym_ltl;

/* Net predecessors of x within R, a deadlock being its own successor. */
static pn_mdd_ref ltl_pre_net(pn_ctl_mdd *s, pn_mdd_ref x)
{
    return pn_mdd_union(s->d, sym_ex(s, x), pn_mdd_inter(s->d, s->dead, x));
}

/* out[q] = label(q) ∩ the net predecessors of some in[q'], q' a successor
 * of q: the product's predecessors of in. False when stopped. */
static bool ltl_pre(sym_ltl *l, const pn_mdd_ref *in, pn_mdd_ref *out)
{
    pn_ctl_mdd *s = l->s;
    for (uint32_t q = 0; q < l->b->n_states; q++)
        l->pre[q] = ltl_pre_net(s, in[q]);
    bool ok = true;
    for (uint32_t q = 0; q < l->b->n_states && ok; q++) {
        pn_mdd_ref acc = PN_MDD_EMPTY;
        for (uint32_t k = l->b->succ_off[q]; k < l->b->succ_off[q + 1]; k++)
            acc = pn_mdd_union(s->d, acc, l->pre[l->b->succ[k]]);
        out[q] = pn_mdd_inter(s->d, l->label[q], acc);
        ok = out[q] != PN_MDD_STOP;
    }
    return ok;
}

static bool ltl_same(const sym_ltl *l, const pn_mdd_ref *a, const pn_mdd_ref *b)
{
    for (uint32_t q = 0; q < l->b->n_states; q++)
        if (a[q] != b[q])
            return false;
    return true;
}

/* z ∩ E[z U (z ∩ F_i)] ... : y = z ∩ F_i, then y grows by z ∩ pre(y). */
static bool ltl_until(sym_ltl *l, const pn_mdd_ref *z, uint32_t i, pn_mdd_ref *y,
                      pn_mdd_ref *tmp)
{
    const ltl_buchi *b = l->b;
    for (uint32_t q = 0; q < b->n_states; q++)
        y[q] = b->acc[(uint64_t)q * b->n_acc + i] ? z[q] : PN_MDD_EMPTY;
    for (;;) {
        if (!ltl_pre(l, y, tmp))
            return false;
        bool grew = false;
        for (uint32_t q = 0; q < b->n_states; q++) {
            pn_mdd_ref n = pn_mdd_union(l->s->d, y[q], pn_mdd_inter(l->s->d, z[q], tmp[q]));
            if (n == PN_MDD_STOP)
                return false;
            grew |= n != y[q];
            y[q] = n;
        }
        if (!grew)
            return true;
    }
}

/* The fair product states: the greatest z with, for every acceptance set
 * i, z ⊆ pre(E[z U (z ∩ F_i)]) (with none: z ⊆ pre(z)). */
static bool ltl_fair(sym_ltl *l, pn_mdd_ref *z)
{
    const uint32_t Q = l->b->n_states;
    pn_mdd_ref *old = malloc(3 * (size_t)Q * sizeof *old);
    if (old == NULL)
        return false;
    pn_mdd_ref *y = old + Q, *tmp = y + Q;
    bool ok = true;
    do {
        memcpy(old, z, Q * sizeof *z);
        for (uint32_t i = 0; ok && i < (l->b->n_acc ? l->b->n_acc : 1); i++) {
            if (l->b->n_acc)
                ok = ltl_until(l, z, i, y, tmp);
            else
                memcpy(y, z, Q * sizeof *z);
            ok = ok && ltl_pre(l, y, tmp);
            for (uint32_t q = 0; ok && q < Q; q++)
                ok = (z[q] = pn_mdd_inter(l->s->d, z[q], tmp[q])) != PN_MDD_STOP;
        }
    } while (ok && !ltl_same(l, old, z));
    free(old);
    return ok;
}

/* label[q]: the reachable markings satisfying q's literals. */
static bool ltl_labels(sym *y, sym_ltl *l, const ltl_formula *f)
{
    pn_mdd_ref *atom = malloc(((size_t)f->n_atoms + 1) * sizeof *atom);
    if (atom == NULL)
        return false;
    bool ok = true;
    for (uint32_t a = 0; a < f->n_atoms && ok; a++)
        ok = (atom[a] = sym_eval(y, f->atoms[a])) != PN_MDD_STOP;
    for (uint32_t q = 0; q < l->b->n_states && ok; q++) {
        pn_mdd_ref x = l->s->reach;
        for (uint32_t k = l->b->lit_off[q]; k < l->b->lit_off[q + 1]; k++) {
            const ltl_lit *lit = &l->b->lit[k];
            x = lit->positive ? pn_mdd_inter(l->s->d, x, atom[lit->atom])
                              : pn_mdd_minus(l->s->d, x, atom[lit->atom]);
        }
        ok = (l->label[q] = x) != PN_MDD_STOP;
    }
    free(atom);
    return ok;
}

pn_status pn_ctl_mdd_ltl(pn_ctl_mdd *s, const pn_fml_node *phi, const pn_budget *budget,
                         bool *value, pn_error *err)
{
    pn_mdd_set_budget(s->d, budget);
    sym_collect(s);
    ltl_formula f;
    ltl_buchi *raw = NULL, *b = NULL;
    pn_status st = ltl_negation_automaton(phi, LTL_MDD_MAX_AUTOMATON, budget, &f, &raw, &b, err);
    sym y = {.s = s, .err = err};
    sym_ltl l = {.s = s, .b = b};
    pn_mdd_ref *z = NULL;
    if (st == PN_OK) {
        uint32_t Q = b->n_states;
        l.label = malloc(((size_t)Q + 1) * sizeof *l.label);
        l.pre = malloc(((size_t)Q + 1) * sizeof *l.pre);
        z = malloc(((size_t)Q + 1) * sizeof *z);
        if (l.label == NULL || l.pre == NULL || z == NULL)
            st = pn_fail(err, PN_ERR_NOMEM, "LTL on decision diagrams: out of memory");
    }
    if (st == PN_OK) {
        bool ok = ltl_labels(&y, &l, &f);
        if (ok) {
            memcpy(z, l.label, b->n_states * sizeof *z);
            ok = ltl_fair(&l, z);
        }
        if (!ok) {
            st = sym_fail(s, y.unsupported, err);
        } else {
            bool fair = false; /* an initial product state on a fair path */
            for (uint32_t q = 0; q < b->n_states; q++)
                fair |= b->init[q] && pn_mdd_member(s->d, z[q], s->cn->m0);
            *value = !fair;
        }
    }
    free(l.label);
    free(l.pre);
    free(z);
    ltl_buchi_free(b);
    ltl_buchi_free(raw);
    ltl_formula_free(&f);
    return st;
}

pn_mdd *pn_ctl_mdd_forest(pn_ctl_mdd *s, uint32_t *reach)
{
    *reach = s->reach;
    return s->d;
}


double pn_ctl_mdd_states(pn_ctl_mdd *s) { return pn_mdd_count(s->d, s->reach); }
uint64_t pn_ctl_mdd_nodes(const pn_ctl_mdd *s) { return pn_mdd_nodes(s->d); }

uint32_t pn_ctl_mdd_kept(const pn_ctl_mdd *s) { return s->n_memo; }

void pn_ctl_mdd_set_budget(pn_ctl_mdd *s, const pn_budget *budget)
{
    pn_mdd_set_budget(s->d, budget);
}

void pn_ctl_mdd_free(pn_ctl_mdd *s)
{
    if (s == NULL)
        return;
    pn_mdd_free(s->d);
    free(s->coef);
    free(s->memo);
    free(s);
}
