/* The behavioural generic properties of the MCC (GenericPropertiesDefinition.xml),
 * each reduced to an examination the driver already answers (examine.c), in
 * an order where earlier answers settle later ones through textbook
 * implications (Murata, "Petri nets: properties, analysis and applications",
 * Proc. IEEE 77(4), 1989, sec. IV): a live net is quasi-live; a net with a
 * reachable deadlock and at least one transition is not live, and not
 * reversible when its initial marking is not that deadlock; a quasi-live net
 * has dead places only among the unmarked places no transition produces
 * into. The steps are a table, each in its turn (petrel/turns.h): an equal
 * share of the time left among the steps still needed, so that a property
 * an earlier answer settled gives its time to the others. */
#include "petrel/props.h"

#include <stdlib.h>
#include <string.h>

#include "petrel/mcc.h"
#include "petrel/turns.h"

typedef struct props_run {
    const pn_cnet *cn;
    pn_examine_opts opts;
    pn_budget *budget;
    pn_props *out;
} props_run;

static void props_decide(pn_props *out, pn_prop p, bool holds, uint32_t techniques)
{
    out->v[p].verdict = holds ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    out->v[p].techniques = techniques;
    if (out->on_decide != NULL)
        out->on_decide(out->on_decide_ctx, p, out->v[p].verdict);
}

static bool props_is(const pn_props *out, pn_prop p, pn_verdict v)
{
    return out->v[p].verdict == v;
}

/* One examination within its step's share; *rep is NULL when it failed for
 * a reason that only leaves the answers unknown. */
static pn_status props_examine(props_run *r, pn_exam exam, const pn_fml_set *set,
                               const pn_budget *share, pn_report **rep, pn_error *err)
{
    *rep = NULL;
    pn_error e = {0};
    pn_budget mine = *share;
    pn_status st = pn_examine(r->cn, exam, set, &r->opts, &mine, rep, &e);
    if (st == PN_OK) {
        r->out->explored = r->out->explored || (*rep)->result.states > 0;
        return PN_OK;
    }
    if (st == PN_ERR_TIMEOUT || st == PN_ERR_CANCELLED || st == PN_ERR_OUT_OF_MEMORY ||
        st == PN_ERR_UNSUPPORTED) {
        if (r->opts.diag != NULL)
            fprintf(r->opts.diag, "petrel: %s: %s\n", pn_exam_name(exam), e.msg);
        return PN_OK;
    }
    *err = e;
    return st;
}

/* The verdict of a global examination's one answer (want: the verdict that
 * makes the property true) with its techniques and, when a reachable
 * marking proves it and traces are kept, the path to that marking. */
static void props_take(props_run *r, const pn_report *rep, pn_prop p, pn_verdict want)
{
    if (rep == NULL || rep->check == NULL || pn_check_count(rep->check) == 0)
        return;
    const pn_answer *a = pn_check_answer(rep->check, 0);
    if (a->verdict != PN_VERDICT_TRUE && a->verdict != PN_VERDICT_FALSE)
        return;
    props_decide(r->out, p, a->verdict == want, a->techniques);
    pn_prop_value *v = &r->out->v[p];
    /* A path is the whole proof only of a reachable deadlock or of an
     * unsafe marking (QuasiLiveness's witness shows one transition). */
    bool evidence = (p == PN_PROP_DEADLOCK && v->verdict == PN_VERDICT_TRUE) ||
                    (p == PN_PROP_SAFE && v->verdict == PN_VERDICT_FALSE);
    /* (traces keep the net unreduced, so the path names its transitions) */
    if (!evidence || !r->opts.explore.keep_parents || rep->reduced != NULL || v->trace != NULL)
        return;
    if (a->lasso != NULL && a->lasso_cycle == 0) { /* a walk's or an item's path */
        uint64_t n = a->lasso_prefix;
        v->trace = malloc((n + 1) * sizeof *v->trace);
        if (v->trace != NULL)
            memcpy(v->trace, a->lasso, n * sizeof *v->trace);
        v->trace_len = v->trace != NULL ? n : 0;
    } else if (a->has_witness &&
               !pn_engine_trace(&rep->result, a->witness, &v->trace, &v->trace_len)) {
        v->trace = NULL;
    }
}

static pn_status props_global(props_run *r, pn_exam exam, pn_prop p, pn_verdict want,
                              const pn_budget *share, pn_error *err)
{
    pn_report *rep = NULL;
    pn_status st = props_examine(r, exam, NULL, share, &rep, err);
    props_take(r, rep, p, want);
    pn_report_free(rep);
    return st;
}

/* An empty set with room for n formulas (props_set_add fills it). */
static pn_fml_set *props_set_new(const pn_cnet *cn, uint32_t n)
{
    pn_fml_set *set = calloc(1, sizeof *set);
    if (set == NULL || (n > 0 && (set->props = calloc(n, sizeof *set->props)) == NULL)) {
        free(set);
        return NULL;
    }
    set->net = cn->net;
    return set;
}

static bool props_set_add(pn_fml_set *set, const char *id, pn_fml_node *root)
{
    pn_fml_prop *p = &set->props[set->n++];
    p->id = strdup(id);
    p->root = root;
    return p->id != NULL && root != NULL;
}

static pn_fml_node *props_tokens(uint32_t p)
{
    return pn_fml_list(PN_FML_TOKENS, &p, 1);
}

/* A G E F (every place holds its initial count). */
static pn_fml_node *props_home_m0(const pn_cnet *cn)
{
    uint32_t P = cn->n_places;
    if (P == 0)
        return pn_fml_leaf(PN_FML_TRUE);
    pn_fml_node **kids = malloc((size_t)P * 2 * sizeof *kids);
    if (kids == NULL)
        return NULL;
    for (uint32_t p = 0; p < P; p++) {
        kids[2 * p] = pn_fml_binary(PN_FML_INT_LE, props_tokens(p), pn_fml_const(cn->m0[p]));
        kids[2 * p + 1] = pn_fml_binary(PN_FML_INT_LE, pn_fml_const(cn->m0[p]), props_tokens(p));
    }
    pn_fml_node *m0 = pn_fml_nary(PN_FML_AND, kids, 2 * P);
    free(kids);
    return pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, pn_fml_unary(PN_FML_E,
                                                                          pn_fml_unary(PN_FML_F, m0))));
}

static pn_status props_nomem(pn_error *err)
{
    return pn_fail(err, PN_ERR_NOMEM, "out of memory building the generic properties");
}

/* The one CTL formula A G E F m0. */
static pn_status props_reversible(props_run *r, const pn_budget *share, pn_error *err)
{
    pn_fml_set *set = props_set_new(r->cn, 1);
    if (set == NULL || !props_set_add(set, "REVERSIBLE", props_home_m0(r->cn))) {
        pn_fml_set_free(set);
        return props_nomem(err);
    }
    pn_status st = pn_fml_set_simplify(set, err);
    pn_report *rep = NULL;
    if (st == PN_OK)
        st = props_examine(r, PN_EXAM_CTL_CARDINALITY, set, share, &rep, err);
    props_take(r, rep, PN_PROP_REVERSIBLE, PN_VERDICT_TRUE);
    pn_report_free(rep);
    pn_fml_set_free(set);
    return st;
}

/* E F (p >= 1) for each candidate place; a FALSE one is a dead place, all
 * TRUE: none. */
static pn_status props_dead_places(props_run *r, const uint8_t *candidate, uint32_t n,
                                   const pn_budget *share, pn_error *err)
{
    const pn_cnet *cn = r->cn;
    pn_fml_set *set = props_set_new(cn, n);
    bool ok = set != NULL;
    for (uint32_t p = 0; ok && p < cn->n_places; p++)
        if (candidate[p])
            ok = props_set_add(set, cn->net->place_id[p],
                               pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, pn_fml_binary(
                                   PN_FML_INT_LE, pn_fml_const(1), props_tokens(p)))));
    if (!ok) {
        pn_fml_set_free(set);
        return props_nomem(err);
    }
    pn_status st = pn_fml_set_simplify(set, err);
    pn_report *rep = NULL;
    if (st == PN_OK)
        st = props_examine(r, PN_EXAM_REACH_CARDINALITY, set, share, &rep, err);
    uint32_t marked = 0;
    for (uint32_t i = 0; rep != NULL && rep->check != NULL && i < pn_check_count(rep->check);
         i++) {
        const pn_answer *a = pn_check_answer(rep->check, i);
        if (a->verdict == PN_VERDICT_FALSE) {
            props_decide(r->out, PN_PROP_DEAD_PLACES, true, a->techniques);
            break;
        }
        marked += a->verdict == PN_VERDICT_TRUE;
    }
    if (marked == n && n > 0)
        props_decide(r->out, PN_PROP_DEAD_PLACES, false,
                     pn_check_answer(rep->check, 0)->techniques);
    pn_report_free(rep);
    pn_fml_set_free(set);
    return st;
}

/* Unmarked places with no producer are dead outright; with every
 * transition quasi-live, the other places are all markable. */
static pn_status props_places(props_run *r, const pn_budget *share, pn_error *err)
{
    const pn_cnet *cn = r->cn;
    uint32_t *off = NULL, *prod = NULL;
    pn_status st = pn_cnet_place_index(cn, true, &off, &prod, err);
    uint8_t *candidate = st == PN_OK ? calloc((size_t)cn->n_places + 1, 1) : NULL;
    if (st == PN_OK && candidate == NULL)
        st = props_nomem(err);
    uint32_t n = 0;
    bool dead = false;
    for (uint32_t p = 0; st == PN_OK && p < cn->n_places; p++) {
        if (cn->m0[p] > 0)
            continue;
        dead = dead || off[p + 1] == off[p];
        candidate[p] = off[p + 1] > off[p];
        n += candidate[p];
    }
    if (st == PN_OK && dead)
        props_decide(r->out, PN_PROP_DEAD_PLACES, true, PN_TECH_TOPOLOGICAL);
    else if (st == PN_OK && (n == 0 || props_is(r->out, PN_PROP_QUASI_LIVE, PN_VERDICT_TRUE)))
        props_decide(r->out, PN_PROP_DEAD_PLACES, false,
                     n == 0 ? PN_TECH_TOPOLOGICAL : r->out->v[PN_PROP_QUASI_LIVE].techniques);
    else if (st == PN_OK)
        st = props_dead_places(r, candidate, n, share, err);
    free(off);
    free(prod);
    free(candidate);
    return st;
}

/* What the unfolding already proved: it drops transitions that consume
 * from a place no binding ever marks, and those places. */
static void props_from_unfolding(const pn_cnet *cn, pn_props *out)
{
    const pn_unfold_info *u = cn->net != NULL ? &cn->net->unfold : NULL;
    if (u == NULL || !u->unfolded)
        return;
    if (u->dropped_transitions > 0) {
        props_decide(out, PN_PROP_QUASI_LIVE, false, PN_TECH_TOPOLOGICAL);
        props_decide(out, PN_PROP_LIVE, false, PN_TECH_TOPOLOGICAL);
    }
    if (u->dropped_places > 0)
        props_decide(out, PN_PROP_DEAD_PLACES, true, PN_TECH_TOPOLOGICAL);
}

static bool props_m0_dead(const pn_cnet *cn)
{
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        if (pn_cnet_enabled(cn, cn->m0, t))
            return false;
    return true;
}

/* What the answers so far settle (Murata's implications, above). */
static void props_imply(props_run *r)
{
    pn_props *out = r->out;
    bool stuck = props_is(out, PN_PROP_DEADLOCK, PN_VERDICT_TRUE) && r->cn->n_transitions > 0;
    if (props_is(out, PN_PROP_LIVE, PN_VERDICT_UNKNOWN)) {
        if (props_is(out, PN_PROP_QUASI_LIVE, PN_VERDICT_FALSE))
            props_decide(out, PN_PROP_LIVE, false, out->v[PN_PROP_QUASI_LIVE].techniques);
        else if (stuck)
            props_decide(out, PN_PROP_LIVE, false, out->v[PN_PROP_DEADLOCK].techniques);
    }
    if (props_is(out, PN_PROP_REVERSIBLE, PN_VERDICT_UNKNOWN) &&
        props_is(out, PN_PROP_DEADLOCK, PN_VERDICT_TRUE) && !props_m0_dead(r->cn))
        props_decide(out, PN_PROP_REVERSIBLE, false, out->v[PN_PROP_DEADLOCK].techniques);
}

static pn_status props_deadlock(props_run *r, const pn_budget *share, pn_error *err)
{
    return props_global(r, PN_EXAM_REACH_DEADLOCK, PN_PROP_DEADLOCK, PN_VERDICT_TRUE, share, err);
}

static pn_status props_safe(props_run *r, const pn_budget *share, pn_error *err)
{
    return props_global(r, PN_EXAM_ONE_SAFE, PN_PROP_SAFE, PN_VERDICT_TRUE, share, err);
}

static pn_status props_quasi(props_run *r, const pn_budget *share, pn_error *err)
{
    return props_global(r, PN_EXAM_QUASI_LIVENESS, PN_PROP_QUASI_LIVE, PN_VERDICT_TRUE, share,
                        err);
}

static pn_status props_live(props_run *r, const pn_budget *share, pn_error *err)
{
    return props_global(r, PN_EXAM_LIVENESS, PN_PROP_LIVE, PN_VERDICT_TRUE, share, err);
}

/* The steps in order: each one decides its property while it is unknown,
 * and the earlier ones settle later ones (props_imply). */
typedef struct props_step {
    pn_prop prop;
    pn_status (*run)(props_run *r, const pn_budget *share, pn_error *err);
} props_step;

static const props_step props_steps[] = {
    {PN_PROP_DEADLOCK, props_deadlock}, {PN_PROP_SAFE, props_safe},
    {PN_PROP_QUASI_LIVE, props_quasi},  {PN_PROP_LIVE, props_live},
    {PN_PROP_REVERSIBLE, props_reversible}, {PN_PROP_DEAD_PLACES, props_places}};
#define PROPS_STEPS (sizeof props_steps / sizeof props_steps[0])

static bool props_needed(void *ctx, uint32_t k)
{
    const props_run *r = ctx;
    return props_is(r->out, props_steps[k].prop, PN_VERDICT_UNKNOWN);
}

static pn_status props_run_steps(props_run *r, pn_error *err)
{
    pn_turns *t = NULL;
    pn_status st = pn_turns_new(r->budget, PROPS_STEPS, 1, PN_TURNS_ONCE, props_needed, r, &t,
                                err);
    uint32_t k;
    int pass;
    pn_budget share;
    while (st == PN_OK && pn_turns_next(t, &k, &share, &pass)) {
        st = props_steps[k].run(r, &share, err);
        props_imply(r);
        pn_turns_end(t, k);
    }
    pn_turns_free(t);
    return st;
}

pn_status pn_props_behavioural(const pn_cnet *cn, const pn_examine_opts *opts,
                               pn_budget *budget, pn_props *out, pn_error *err)
{
    props_run r = {.cn = cn, .opts = *opts, .budget = budget, .out = out};
    r.opts.pt_globals = true;
    r.opts.on_decide = NULL;
    r.opts.write_reduced = NULL;
    for (int p = PN_PROP_FIRST_BEHAVIOURAL; p < PN_PROP_COUNT; p++)
        out->v[p].verdict = PN_VERDICT_UNKNOWN;
    out->threads = opts->explore.threads ? opts->explore.threads : 1;
    props_from_unfolding(cn, out);
    pn_status st = props_run_steps(&r, err);
    if (!props_is(out, PN_PROP_QUASI_LIVE, PN_VERDICT_UNKNOWN))
        props_decide(out, PN_PROP_DEAD_TRANSITIONS,
                     props_is(out, PN_PROP_QUASI_LIVE, PN_VERDICT_FALSE),
                     out->v[PN_PROP_QUASI_LIVE].techniques);
    return st;
}
