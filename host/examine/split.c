/* Reachability inside the boolean layer of a formula, the way ITS-Tools
 * and TAPAAL simplify CTL / LTL queries with the answers of their
 * reachability sub-queries (Bønneland et al., "Simplification of CTL
 * formulae for efficient model checking of Petri nets", Petri Nets 2018):
 * the E F phi / A G phi sub-formulas reachable through NOT / AND / OR from
 * the root are asked as reachability questions (linear layer, walks, BFS),
 * and the root is evaluated in three-valued logic with the state formulas
 * at the initial marking.
 *
 * CTL: every leaf is a state formula at the initial marking, so Kleene's
 * logic is exact. LTL: the root is A psi and psi's boolean layer mixes path
 * formulas; G phi (A G phi) and state formulas are leaves. A distributes
 * over AND; for OR, one disjunct holding on every path suffices, and when
 * all are false at most one may be a path formula (A(p | psi) = A psi once
 * p is false at the first state, the same on every path); NOT is read on
 * state formulas only. */
#include "examine/split.h"

#include <stdio.h>
#include <stdlib.h>

#include "examine/tech.h"

typedef enum { V_FALSE, V_TRUE, V_UNKNOWN } tri;

struct pn_split {
    pn_exam exam;
    const pn_fml_set *set;
    pn_fml_set leaves;            /* roots: E F / A G nodes (LTL: new A nodes) */
    const pn_fml_node **from;     /* per leaf: the node of the formula */
    uint8_t *owned;               /* per leaf: root is an A node of ours */
    uint32_t cap;
};

static bool split_ltl(pn_exam e)
{
    return e == PN_EXAM_LTL_CARDINALITY || e == PN_EXAM_LTL_FIREABILITY;
}

static pn_status split_add(pn_split *s, const pn_fml_node *n, pn_error *err)
{
    for (uint32_t k = 0; k < s->leaves.n; k++)
        if (s->from[k] == n)
            return PN_OK;
    if (s->leaves.n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 16;
        pn_fml_prop *p = realloc(s->leaves.props, cap * sizeof *p);
        if (p != NULL)
            s->leaves.props = p;
        const pn_fml_node **f = realloc(s->from, cap * sizeof *f);
        if (f != NULL)
            s->from = f;
        uint8_t *o = realloc(s->owned, cap);
        if (o != NULL)
            s->owned = o;
        if (p == NULL || f == NULL || o == NULL)
            return pn_fail(err, PN_ERR_NOMEM, "out of memory splitting formulas");
        s->cap = cap;
    }
    pn_fml_node *root = (pn_fml_node *)n;
    bool own = split_ltl(s->exam);
    if (own) /* G phi under the formula's A: ask A G phi */
        root = pn_fml_unary(PN_FML_A, (pn_fml_node *)n);
    if (root == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory splitting formulas");
    uint32_t k = s->leaves.n++;
    s->leaves.props[k] = (pn_fml_prop){.id = "leaf", .root = root, .status = PN_OK};
    s->from[k] = n;
    s->owned[k] = own;
    return PN_OK;
}

/* The leaves under n (the boolean layer; LTL: below the root's A). */
static pn_status split_walk(pn_split *s, const pn_fml_node *n, pn_error *err)
{
    if (pn_fml_is_state(n))
        return PN_OK;
    if (n->kind == PN_FML_NOT || n->kind == PN_FML_AND || n->kind == PN_FML_OR) {
        for (uint32_t i = 0; i < n->n; i++)
            if (split_walk(s, n->kids[i], err) != PN_OK)
                return err->code;
        return PN_OK;
    }
    bool ltl = split_ltl(s->exam);
    if (ltl && n->kind == PN_FML_G && pn_fml_is_state(n->kids[0]))
        return split_add(s, n, err);
    if (!ltl && pn_fml_reach_shape(n, NULL) != PN_FML_REACH_NONE)
        return split_add(s, n, err);
    return PN_OK;
}

pn_status pn_split_new(pn_exam exam, const pn_fml_set *set, const pn_check *c,
                       pn_split **out, pn_error *err)
{
    *out = NULL;
    pn_split *s = calloc(1, sizeof *s);
    if (s == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory splitting formulas");
    s->exam = exam;
    s->set = set;
    s->leaves.net = set->net;
    pn_status st = PN_OK;
    for (uint32_t i = 0; st == PN_OK && i < set->n; i++) {
        const pn_fml_node *phi;
        const uint32_t *places;
        uint32_t np;
        const pn_fml_node *r = set->props[i].root;
        if (set->props[i].status != PN_OK || r == NULL ||
            pn_check_target_of(c, i, &phi, &places, &np) != PN_TARGET_NONE)
            continue;
        if (split_ltl(exam) && r->kind == PN_FML_A)
            r = r->kids[0];
        else if (split_ltl(exam))
            continue;
        st = split_walk(s, r, err);
    }
    if (st != PN_OK) {
        pn_split_free(s);
        return st;
    }
    *out = s;
    return PN_OK;
}

const pn_fml_set *pn_split_leaves(const pn_split *s) { return &s->leaves; }

void pn_split_free(pn_split *s)
{
    if (s == NULL)
        return;
    for (uint32_t k = 0; k < s->leaves.n; k++) {
        if (!s->owned[k])
            continue;
        pn_fml_node *a = s->leaves.props[k].root;
        a->kids[0] = NULL; /* borrowed */
        pn_fml_free(a);
    }
    free(s->leaves.props);
    free(s->from);
    free(s->owned);
    free(s);
}

typedef struct fold {
    const pn_split *s;
    const pn_check *leaves;
    const pn_cnet *cn;
    uint32_t techniques;
} fold;

static tri fold_state(const fold *f, const pn_fml_node *n)
{
    return pn_fml_eval_state(n, f->cn, f->cn->m0) ? V_TRUE : V_FALSE;
}

/* X phi over the successors of the initial marking: every (all) or some
 * successor; a deadlock has none (CTL), or repeats itself (LTL). */
static tri fold_next(const fold *f, const pn_fml_node *phi, bool all, bool ltl)
{
    const pn_cnet *cn = f->cn;
    uint64_t *m = malloc(((size_t)cn->n_places + 1) * sizeof *m);
    if (m == NULL)
        return V_UNKNOWN;
    bool any = false, every = true, enabled = false;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        if (!pn_cnet_enabled(cn, cn->m0, t))
            continue;
        enabled = true;
        if (!pn_cnet_fire(cn, cn->m0, t, m)) {
            free(m);
            return V_UNKNOWN;
        }
        bool v = pn_fml_eval_state(phi, cn, m);
        any |= v;
        every &= v;
    }
    free(m);
    if (!enabled)
        return ltl ? fold_state(f, phi) : all ? V_TRUE : V_FALSE;
    return (all ? every : any) ? V_TRUE : V_FALSE;
}

/* What the initial marking alone settles of a path formula p (its
 * arguments state formulas), on every path (all) or on some: each path
 * starts there. */
static tri fold_path(const fold *f, const pn_fml_node *p, bool all, bool ltl)
{
    for (uint32_t i = 0; p->kids != NULL && i < p->n; i++)
        if (!pn_fml_is_state(p->kids[i]))
            return V_UNKNOWN;
    switch (p->kind) {
    case PN_FML_X: return fold_next(f, p->kids[0], all, ltl);
    case PN_FML_F: return fold_state(f, p->kids[0]) == V_TRUE ? V_TRUE : V_UNKNOWN;
    case PN_FML_G: return fold_state(f, p->kids[0]) == V_FALSE ? V_FALSE : V_UNKNOWN;
    case PN_FML_U:
        if (fold_state(f, p->kids[1]) == V_TRUE)
            return V_TRUE;
        return fold_state(f, p->kids[0]) == V_FALSE ? V_FALSE : V_UNKNOWN;
    default: return V_UNKNOWN;
    }
}

static tri fold_leaf(fold *f, const pn_fml_node *n, bool ltl)
{
    for (uint32_t k = 0; f->leaves != NULL && k < f->s->leaves.n; k++) {
        if (f->s->from[k] != n)
            continue;
        const pn_answer *a = pn_check_answer(f->leaves, k);
        if (a->verdict != PN_VERDICT_TRUE && a->verdict != PN_VERDICT_FALSE)
            break; /* the initial marking may still settle it */
        f->techniques |= a->techniques ? a->techniques : PN_TECH_EXPLICIT;
        return a->verdict == PN_VERDICT_TRUE ? V_TRUE : V_FALSE;
    }
    tri v = V_UNKNOWN;
    if (ltl)
        v = fold_path(f, n, true, true);
    else if ((n->kind == PN_FML_E || n->kind == PN_FML_A) && n->n == 1)
        v = fold_path(f, n->kids[0], n->kind == PN_FML_A, false);
    if (v != V_UNKNOWN)
        f->techniques |= PN_TECH_EXPLICIT;
    return v;
}

static tri fold_eval(fold *f, const pn_fml_node *n, bool ltl)
{
    if (pn_fml_is_state(n))
        return fold_state(f, n);
    if (n->kind == PN_FML_NOT) {
        if (ltl) /* !psi of a path formula is no A-question */
            return V_UNKNOWN;
        tri v = fold_eval(f, n->kids[0], ltl);
        return v == V_UNKNOWN ? V_UNKNOWN : v == V_TRUE ? V_FALSE : V_TRUE;
    }
    if (n->kind == PN_FML_AND) {
        tri r = V_TRUE;
        for (uint32_t i = 0; i < n->n; i++) {
            tri v = fold_eval(f, n->kids[i], ltl);
            if (v == V_FALSE)
                return V_FALSE;
            if (v == V_UNKNOWN)
                r = V_UNKNOWN;
        }
        return r;
    }
    if (n->kind == PN_FML_OR) {
        tri r = V_FALSE;
        uint32_t paths = 0;
        for (uint32_t i = 0; i < n->n; i++) {
            tri v = fold_eval(f, n->kids[i], ltl);
            if (v == V_TRUE)
                return V_TRUE;
            if (v == V_UNKNOWN)
                r = V_UNKNOWN;
            paths += ltl && !pn_fml_is_state(n->kids[i]);
        }
        /* A(psi1 | psi2) can hold with A psi1 and A psi2 both false. */
        return r == V_FALSE && paths > 1 ? V_UNKNOWN : r;
    }
    return fold_leaf(f, n, ltl);
}

uint32_t pn_split_fold(const pn_split *s, const pn_check *leaves, const pn_cnet *cn,
                       pn_check *c, uint8_t *decided)
{
    uint32_t n = 0;
    bool ltl = split_ltl(s->exam);
    for (uint32_t i = 0; i < s->set->n; i++) {
        const pn_fml_node *phi;
        const uint32_t *places;
        uint32_t np;
        const pn_fml_node *r = s->set->props[i].root;
        if (s->set->props[i].status != PN_OK || r == NULL ||
            pn_check_target_of(c, i, &phi, &places, &np) != PN_TARGET_NONE ||
            (ltl && r->kind != PN_FML_A))
            continue;
        fold f = {.s = s, .leaves = leaves, .cn = cn};
        tri v = fold_eval(&f, ltl ? r->kids[0] : r, ltl);
        if (v == V_UNKNOWN)
            continue;
        f.techniques |= f.techniques == 0 ? PN_TECH_EXPLICIT : 0; /* the initial marking */
        pn_check_decide_answer(c, i, v == V_TRUE, f.techniques);
        if (decided != NULL)
            decided[i] = 1;
        n++;
    }
    return n;
}

/* ---- the technique ---------------------------------------------------------- */

static bool split_applies(ex_job *j)
{
    return j->set != NULL && pn_check_open_count(j->c) > 0;
}

/* The leaves' reachability questions as a job of their own, run by the
 * scheduler on the reachability plan within b, folded back into j. */
static pn_status split_leaves_run(ex_job *j, const pn_split *sp, const pn_budget *b,
                                  pn_check **aux, pn_error *err)
{
    const pn_fml_set *leaves = pn_split_leaves(sp);
    if (leaves->n == 0) /* the initial marking may still settle some */
        return PN_OK;
    pn_engine_result r = {.threads = j->res->threads};
    pn_status st = pn_check_new(j->cn, PN_EXAM_REACH_CARDINALITY, leaves, r.threads, aux, err);
    ex_job sub;
    if (st == PN_OK)
        st = ex_job_init(&sub, j->s, "split", j->cn, PN_EXAM_REACH_CARDINALITY, leaves, *aux, &r,
                         err);
    if (st == PN_OK) {
        st = ex_sched_run(&sub, j->s->plan_of(&sub), b, err);
        ex_job_free(&sub);
    }
    pn_engine_result_free(&r);
    return st;
}

static pn_status split_run(ex_job *j, const pn_budget *b, pn_error *err)
{
    pn_split *sp = NULL;
    pn_check *aux = NULL;
    pn_status st = pn_split_new(j->exam, j->set, j->c, &sp, err);
    if (st == PN_OK)
        st = split_leaves_run(j, sp, b, &aux, err);
    if (st == PN_OK) {
        pn_check_lock(j->c);
        uint32_t n = pn_split_fold(sp, aux, j->cn, j->c, NULL);
        pn_check_unlock(j->c);
        if (j->s->verbose != NULL)
            fprintf(j->s->verbose,
                    "petrel: split: %u reachability sub-formulas decided %u formulas\n",
                    pn_split_leaves(sp)->n, n);
    }
    pn_check_free(aux);
    pn_split_free(sp);
    return st;
}

const ex_tech ex_tech_split = {.name = "split", .applies = split_applies, .run = split_run};
