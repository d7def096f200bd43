/* The answers a coloured net's colour-blind skeleton proves (examine.h's
 * pn_examine_skeleton; the skeleton: host/coloured/skeleton.c).
 *
 * Every run of the coloured net projects onto a run of the skeleton (its
 * token counts), and a coloured transition enabled at a marking is enabled
 * in the skeleton at its projection. A sum of tokens over coloured places
 * is then exact at every projected marking, and a fireability atom is
 * over-approximated. Each state formula phi gets two skeleton readings:
 * up(phi), implied by phi (fireable(t) stays fireable(t), not fireable(t)
 * becomes true), and down(phi), which implies phi (fireable(t) becomes
 * false, a skeleton deadlock is a coloured one). Then
 *   - E F phi is FALSE where the skeleton never reaches up(phi), and TRUE
 *     where down(phi) holds at the initial marking;
 *   - A G phi is TRUE where the skeleton always has down(phi), and FALSE
 *     where up(phi) fails at the initial marking;
 *   - a place bound is exact where the skeleton's bound is the initial
 *     marking's count (the coloured bound lies between the two); elsewhere
 *     it is an upper bound, which the unfolding's answer is once one of
 *     its markings reaches it (pn_examine_opts.bound_limits).
 * The skeleton's examination runs on formulas so rewritten, and only its
 * answers in those directions are kept: ITS-Tools' use of the skeleton
 * (its MCC submissions) with the polarity made explicit. The global
 * properties are families of such formulas over the coloured places and
 * transitions (global.h), folded the same way once the kept answers decide
 * them. */
#include "petrel/examine.h"

#include <stdlib.h>
#include <string.h>

#include "examine/global.h"

/* Which of the skeleton's answers hold for the coloured net. */
typedef enum sk_rule {
    SK_NONE,       /* none: its formula is not examined */
    SK_FALSE,      /* FALSE only */
    SK_TRUE,       /* TRUE only */
    SK_BOTH,       /* either (decided at the initial marking) */
    SK_BOUND       /* the bound, where it is the initial marking's count */
} sk_rule;

typedef struct sk_filter {
    sk_rule *rule;
    uint64_t *bound;   /* SK_BOUND: the initial marking's count */
    uint8_t *decided;
    uint64_t *limits;  /* NULL: not asked for */
    void (*inner)(void *ctx, const pn_check *c, uint32_t i);
    void *inner_ctx;
} sk_filter;

/* phi read on the skeleton: implied by phi (up) or implying it (!up). */
static pn_fml_node *sk_read(const pn_fml_node *n, bool up)
{
    switch (n->kind) {
    case PN_FML_FIREABLE: return up ? pn_fml_clone(n) : pn_fml_leaf(PN_FML_FALSE);
    case PN_FML_DEADLOCK: return up ? pn_fml_leaf(PN_FML_TRUE) : pn_fml_clone(n);
    case PN_FML_NOT: return pn_fml_unary(PN_FML_NOT, sk_read(n->kids[0], !up));
    case PN_FML_AND:
    case PN_FML_OR: {
        pn_fml_node **kids = calloc(n->n, sizeof *kids);
        if (kids == NULL)
            return NULL;
        bool ok = true;
        for (uint32_t i = 0; i < n->n; i++)
            ok &= (kids[i] = sk_read(n->kids[i], up)) != NULL;
        pn_fml_node *out = NULL;
        if (ok) /* takes every kid, not the array */
            out = pn_fml_nary(n->kind, kids, n->n);
        for (uint32_t i = 0; !ok && i < n->n; i++)
            pn_fml_free(kids[i]);
        free(kids);
        return out;
    }
    default: return pn_fml_clone(n); /* TRUE, FALSE, comparisons of sums: exact */
    }
}

/* The skeleton's formula for root (E F / A G under negations, a bound or a
 * constant) and the rule for its answers; NULL with SK_NONE otherwise. */
static pn_fml_node *sk_formula(const pn_fml_node *root, const pn_cnet *cn, sk_rule *rule,
                               uint64_t *bound)
{
    *rule = SK_NONE;
    if (root->kind == PN_FML_TRUE || root->kind == PN_FML_FALSE) {
        *rule = SK_BOTH;
        return pn_fml_clone(root);
    }
    if (root->kind == PN_FML_PLACE_BOUND) {
        *rule = SK_BOUND;
        *bound = pn_fml_eval_int(root, cn->m0);
        return pn_fml_clone(root);
    }
    uint32_t nots = 0;
    const pn_fml_node *q = root;
    for (; q->kind == PN_FML_NOT; q = q->kids[0])
        nots++;
    const pn_fml_node *phi = NULL;
    pn_fml_reach shape = pn_fml_reach_shape(q, &phi);
    if (shape == PN_FML_REACH_NONE)
        return NULL;
    bool ef = shape == PN_FML_REACH_EF;
    pn_fml_node *at = sk_read(phi, ef);
    /* Decided at the initial marking: E F phi TRUE, A G phi FALSE. */
    pn_fml_node *m0 = sk_read(phi, !ef);
    bool inner_known = false;
    if (at != NULL && m0 != NULL)
        inner_known = pn_fml_eval_state(m0, cn, cn->m0) == ef;
    pn_fml_free(m0);
    pn_fml_node *out = pn_fml_unary(ef ? PN_FML_E : PN_FML_A,
                                    pn_fml_unary(ef ? PN_FML_F : PN_FML_G, at));
    for (uint32_t k = 0; k < nots; k++)
        out = pn_fml_unary(PN_FML_NOT, out);
    if (out == NULL)
        return NULL;
    /* The inner formula's answer proved by the skeleton: FALSE for E F,
     * TRUE for A G; the negations above flip it. */
    bool proved = !ef;
    if (nots % 2)
        proved = !proved;
    *rule = inner_known ? SK_BOTH : proved ? SK_TRUE : SK_FALSE;
    return out;
}

static bool sk_holds(const sk_filter *f, const pn_answer *a, uint32_t i)
{
    switch (f->rule[i]) {
    case SK_FALSE: return a->verdict == PN_VERDICT_FALSE;
    case SK_TRUE: return a->verdict == PN_VERDICT_TRUE;
    case SK_BOTH: return a->verdict == PN_VERDICT_TRUE || a->verdict == PN_VERDICT_FALSE;
    case SK_BOUND: return a->verdict == PN_VERDICT_VALUE && a->value == f->bound[i];
    default: return false;
    }
}

/* The verdict of answer i that a reached marking shows on the skeleton
 * and that the filter drops: where a replay on the unfolding may prove it. */
static bool sk_witnessed(const sk_filter *f, const pn_answer *a, uint32_t i)
{
    switch (f->rule[i]) {
    case SK_FALSE: return a->verdict == PN_VERDICT_TRUE;
    case SK_TRUE: return a->verdict == PN_VERDICT_FALSE;
    case SK_BOUND: return a->verdict == PN_VERDICT_VALUE && a->value != f->bound[i];
    default: return false;
    }
}

/* The path to answer i's witness on the skeleton as given (through the
 * reductions its check answered on); nothing where it has none. */
static pn_status sk_path(const pn_report *rep, uint32_t i, pn_skeleton_path *out, pn_error *err)
{
    const pn_answer *a = pn_check_answer(rep->check, i);
    uint32_t *path = NULL;
    uint64_t len = 0, cycle = 0;
    bool own = false;
    if (a->lasso != NULL && a->lasso_cycle == 0) {
        path = (uint32_t *)a->lasso;
        len = a->lasso_prefix;
    } else if (a->lasso == NULL && a->has_witness &&
               pn_engine_trace(&rep->result, a->witness, &path, &len)) {
        own = true;
    } else {
        return PN_OK;
    }
    pn_status st = pn_report_lasso(rep, path, len, len, &out->trans, &out->n, &cycle, err);
    if (own)
        free(path);
    return st;
}

static pn_status sk_paths(const sk_filter *f, const pn_report *rep, uint32_t n,
                          pn_skeleton_path *paths, pn_error *err)
{
    for (uint32_t i = 0; paths != NULL && i < n; i++) {
        const pn_answer *a = pn_check_answer(rep->check, i);
        if (f->decided[i] || a == NULL || !sk_witnessed(f, a, i))
            continue;
        if (sk_path(rep, i, &paths[i], err) != PN_OK)
            return err->code;
    }
    return PN_OK;
}

static void sk_on_decide(void *ctx, const pn_check *c, uint32_t i)
{
    sk_filter *f = ctx;
    const pn_answer *a = pn_check_answer(c, i);
    if (f->limits != NULL && a != NULL && a->verdict == PN_VERDICT_VALUE)
        f->limits[i] = a->value;
    if (f->decided[i] || a == NULL || !sk_holds(f, a, i))
        return;
    f->decided[i] = 1;
    if (f->inner != NULL)
        f->inner(f->inner_ctx, c, i);
}

bool pn_examine_skeleton_applies(pn_exam exam)
{
    return exam == PN_EXAM_REACH_CARDINALITY || exam == PN_EXAM_REACH_FIREABILITY ||
           exam == PN_EXAM_UPPER_BOUNDS;
}

/* The formulas of set rewritten for the skeleton, the others made TRUE so
 * that nothing is spent on them. */
static pn_fml_set *sk_rewrite(const pn_cnet *cn, const pn_fml_set *set, sk_filter *f,
                              pn_error *err)
{
    pn_fml_set *tr = pn_fml_set_clone(set);
    if (tr == NULL)
        return NULL;
    for (uint32_t i = 0; i < tr->n; i++) {
        pn_fml_prop *p = &tr->props[i];
        f->rule[i] = SK_NONE;
        if (p->status != PN_OK || p->root == NULL)
            continue;
        pn_fml_node *n = sk_formula(p->root, cn, &f->rule[i], &f->bound[i]);
        if (n == NULL && f->rule[i] != SK_NONE) {
            pn_fail(err, PN_ERR_NOMEM, "out of memory");
            pn_fml_set_free(tr);
            return NULL;
        }
        if (n == NULL && (n = pn_fml_leaf(PN_FML_TRUE)) == NULL) {
            pn_fail(err, PN_ERR_NOMEM, "out of memory");
            pn_fml_set_free(tr);
            return NULL;
        }
        pn_fml_free(p->root);
        p->root = n;
    }
    return tr;
}

pn_status pn_examine_skeleton(const pn_cnet *skeleton, pn_exam exam, const pn_fml_set *set,
                              const pn_examine_opts *opts, pn_budget *budget, uint8_t *decided,
                              uint64_t *limits, pn_skeleton_path *paths, pn_error *err)
{
    for (uint32_t i = 0; limits != NULL && set != NULL && i < set->n; i++)
        limits[i] = UINT64_MAX;
    if (!pn_examine_skeleton_applies(exam) || set == NULL || set->n == 0)
        return PN_OK;
    sk_filter f = {
        .rule = calloc(set->n, sizeof *f.rule),
        .bound = calloc(set->n, sizeof *f.bound),
        .decided = decided,
        .limits = limits,
        .inner = opts->on_decide,
        .inner_ctx = opts->on_decide_ctx,
    };
    pn_fml_set *tr = NULL;
    pn_status st = f.rule != NULL && f.bound != NULL
                       ? PN_OK
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (st == PN_OK && (tr = sk_rewrite(skeleton, set, &f, err)) == NULL)
        st = err->code != PN_OK ? err->code : pn_fail(err, PN_ERR_NOMEM, "out of memory");
    pn_report *rep = NULL;
    if (st == PN_OK) {
        pn_examine_opts o = *opts;
        o.on_decide = sk_on_decide;
        o.on_decide_ctx = &f;
        o.write_reduced = NULL;
        o.explore.keep_parents = paths != NULL; /* the witnesses' paths */
        st = pn_examine(skeleton, exam, tr, &o, budget, &rep, err);
    }
    /* What was decided without being told (the listener sees each final
     * answer once; this pass finds nothing new then). */
    for (uint32_t i = 0; st == PN_OK && i < set->n; i++)
        sk_on_decide(&f, rep->check, i);
    if (st == PN_OK)
        st = sk_paths(&f, rep, set->n, paths, err);
    pn_report_free(rep);
    pn_fml_set_free(tr);
    free(f.rule);
    free(f.bound);
    return st;
}

bool pn_examine_skeleton_global_applies(pn_exam exam)
{
    return exam == PN_EXAM_ONE_SAFE || exam == PN_EXAM_STABLE_MARKING ||
           exam == PN_EXAM_QUASI_LIVENESS || exam == PN_EXAM_LIVENESS;
}

/* The kept answers of the items, as told (from any thread: one entry
 * each), for a check of their own afterwards. */
typedef struct sk_items {
    uint8_t *holds;
    uint32_t *techniques;
} sk_items;

static void sk_item_kept(void *ctx, const pn_check *c, uint32_t i)
{
    sk_items *k = ctx;
    const pn_answer *a = pn_check_answer(c, i);
    k->holds[i] = a->verdict == PN_VERDICT_TRUE;
    k->techniques[i] = a->techniques ? a->techniques : PN_TECH_EXPLICIT;
}

pn_status pn_examine_skeleton_global(const pn_cnet *skeleton, pn_exam exam,
                                     const pn_examine_opts *opts, pn_budget *budget,
                                     pn_verdict *verdict, uint32_t *techniques, pn_error *err)
{
    *verdict = PN_VERDICT_UNKNOWN;
    *techniques = 0;
    if (!pn_examine_skeleton_global_applies(exam))
        return PN_OK;
    /* Each skeleton node is one coloured node: the items over them. */
    pn_fml_set *items = NULL;
    pn_status st = pn_glob_build(skeleton->net, exam, false, &items, err);
    if (st != PN_OK)
        return st;
    pn_exam as = pn_glob_as(exam);
    sk_items k = {calloc((size_t)items->n + 1, 1),
                  calloc((size_t)items->n + 1, sizeof *k.techniques)};
    uint8_t *decided = calloc((size_t)items->n + 1, 1);
    pn_check *kept = NULL;
    if (decided == NULL || k.holds == NULL || k.techniques == NULL)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (st == PN_OK)
        st = pn_check_new(skeleton, as, items, 1, &kept, err);
    if (st == PN_OK) {
        pn_examine_opts o = *opts;
        o.on_decide = sk_item_kept;
        o.on_decide_ctx = &k;
        st = pn_examine_skeleton(skeleton, as, items, &o, budget, decided, NULL, NULL, err);
    }
    for (uint32_t i = 0; st == PN_OK && i < items->n; i++)
        if (decided[i])
            pn_check_decide_answer(kept, i, k.holds[i], k.techniques[i]);
    if (st == PN_OK) /* Liveness's items only refute it */
        *verdict = pn_glob_fold(kept, exam, techniques);
    pn_check_free(kept);
    free(decided);
    free(k.holds);
    free(k.techniques);
    pn_fml_set_free(items);
    return st;
}
