/* Local (on-the-fly) CTL model checking over an on-demand state space
 * (petrel/lazy.h): the value of a formula at the initial state, exploring
 * only the states the answer needs. This is the local fixed-point
 * computation of X. Liu and S. A. Smolka, "Simple linear-time algorithms
 * for minimal fixed points" (ICALP 1998), specialised to the dependency
 * graphs of the CTL operators, with the "certain zero" of A. E. Dalsgaard
 * et al., "Extended dependency graphs and efficient distributed fixed-point
 * computation" (Petri Nets 2017), as TAPAAL uses them: a configuration is
 * (net state, subformula) with a value UNKNOWN, TRUE or FALSE, and a value
 * once settled (TRUE or certainly FALSE) is never computed again.
 *
 * Each configuration of E[a U b] depends on b, or on a and one successor
 * (hyper-edges {b} and {a, succ}); of A[a U b] on b, or on a and all
 * successors ({a, succ_1, ..., succ_k}, none at a deadlock, where A[a U b]
 * reduces to b). Instead of a generic hyper-edge queue the two graph shapes
 * are searched depth first from the root configuration:
 *  - E[a U b]: a search through a-states for a b-state; when found, the
 *    configurations on the search stack are TRUE (the witness path) and the
 *    search stops; when the search is exhausted every configuration it met is
 *    certainly FALSE (certain zero: none can reach b through a).
 *  - A[a U b]: a search for a counterexample (a path through a and not b
 *    states that reaches a state with neither, a deadlock, or closes a
 *    cycle). A finished configuration has all successors settled TRUE (by
 *    induction in finishing order), so it is TRUE; when a counterexample is
 *    found the stack is FALSE and the search stops.
 * EF, AF, EG, AG are these with a = true and negation (AG a = !E[true U !a],
 * EG a = !A[true U !a]): a negated subformula is evaluated first and used as
 * a settled value, as TAPAAL's negation edges. EX is FALSE and AX TRUE at a
 * deadlock (docs/semantics.md), as in ctl.c. Boolean operators short-cut.
 *
 * Action-based CTL (RERS): the operand of an X may read the step it takes.
 * An atom made of ACTION formulas (an "edge atom") is decided by the
 * transition of that step, which the on-demand space keeps
 * (pn_lazy_keep_trans): <a> f is E X (ACTION(a) & f) and [a] f is
 * A X (!ACTION(a) | f). An edge atom anywhere else has no step to read and
 * is refused.
 *
 * Memory: one byte per (state, temporal or state subformula) plus the
 * search stacks, declared to the lazy space's budget. Time: the deadline is
 * polled every few hundred steps. */
#include "petrel/ctl.h"

#include <stdlib.h>
#include <string.h>

enum { V_UNKNOWN = 0, V_TRUE = 1, V_FALSE = 2, V_GRAY = 3, V_BLACK = 4 };

typedef struct onode {
    const pn_fml_node *f;
    int kind;           /* 0 atom, 1 not, 2 and, 3 or, 4 EX, 5 AX, 6 EU, 7 AU,
                           8 edge atom */
    uint32_t atom;      /* kind 0 */
    uint32_t *kids, n;  /* indices; EU/AU: kids[0] = a (UINT32_MAX: true), kids[1] = b */
    bool neg_b, neg_out; /* EG/AG: b is !kid, the result is negated */
    uint8_t *val;       /* per state (kinds 0, 4..7) */
} onode;

typedef struct oframe {
    uint32_t s, i;
} oframe;

typedef struct ootf {
    pn_lazy *z;
    const pn_budget *budget;
    pn_error *err;
    onode *nodes;
    uint32_t n_nodes, cap_nodes;
    const pn_fml_node **atoms;
    uint32_t n_atoms;
    pn_space_atoms *sa;
    uint64_t *letter;
    bool need_enabled;
    uint64_t val_cap;   /* states each val array holds */
    oframe *stack;
    uint32_t *visited;
    uint64_t stack_cap, visited_cap;
    uint32_t poll;
    uint32_t edge;      /* the transition of the step an X reads; ONONE */
    uint32_t root;      /* the root node: its E[a U b] search may give a witness */
    uint32_t *witness;  /* with want_witness: the transitions of the witness path */
    uint64_t n_witness;
    bool want_witness;
    bool failed;
} ootf;

#define ONONE UINT32_MAX

/* ---- formula compilation ------------------------------------------------ */

static uint32_t otf_add(ootf *o, const pn_fml_node *f);

static uint32_t otf_new_node(ootf *o, int kind, const pn_fml_node *f)
{
    if (o->n_nodes == o->cap_nodes) {
        uint32_t cap = o->cap_nodes ? o->cap_nodes * 2 : 16;
        onode *n = realloc(o->nodes, cap * sizeof *n);
        if (n == NULL) {
            pn_fail(o->err, PN_ERR_NOMEM, "CTL: out of memory");
            return ONONE;
        }
        o->nodes = n;
        o->cap_nodes = cap;
    }
    onode *n = &o->nodes[o->n_nodes];
    memset(n, 0, sizeof *n);
    n->f = f;
    n->kind = kind;
    return o->n_nodes++;
}

static bool otf_set_kids(ootf *o, uint32_t id, uint32_t n)
{
    uint32_t *k = calloc(n + 1, sizeof *k);
    if (k == NULL) {
        pn_fail(o->err, PN_ERR_NOMEM, "CTL: out of memory");
        return false;
    }
    o->nodes[id].kids = k;
    o->nodes[id].n = n;
    return true;
}

static uint32_t otf_atom(ootf *o, const pn_fml_node *f)
{
    uint32_t id = otf_new_node(o, 0, f);
    if (id == ONONE)
        return ONONE;
    const pn_fml_node **a = realloc(o->atoms, (o->n_atoms + 1) * sizeof *a);
    if (a == NULL) {
        pn_fail(o->err, PN_ERR_NOMEM, "CTL: out of memory");
        return ONONE;
    }
    o->atoms = a;
    a[o->n_atoms] = f;
    o->nodes[id].atom = o->n_atoms++;
    return id;
}

static uint32_t otf_bool(ootf *o, const pn_fml_node *f)
{
    int kind = f->kind == PN_FML_NOT ? 1 : f->kind == PN_FML_AND ? 2 : 3;
    uint32_t id = otf_new_node(o, kind, f);
    if (id == ONONE || !otf_set_kids(o, id, f->n))
        return ONONE;
    for (uint32_t k = 0; k < f->n; k++) {
        uint32_t c = otf_add(o, f->kids[k]);
        if (c == ONONE)
            return ONONE;
        o->nodes[id].kids[k] = c;
    }
    return id;
}

/* A or E over X, F, G, U. */
static uint32_t otf_quantified(ootf *o, const pn_fml_node *f)
{
    bool all = f->kind == PN_FML_A;
    const pn_fml_node *p = f->kids[0];
    if (pn_fml_is_state(p))
        return otf_add(o, p);
    if (p->kind != PN_FML_X && p->kind != PN_FML_F && p->kind != PN_FML_G &&
        p->kind != PN_FML_U) {
        pn_fail(o->err, PN_ERR_UNSUPPORTED, "not a CTL formula (a path formula under %s)",
                all ? "A" : "E");
        return ONONE;
    }
    int kind = p->kind == PN_FML_X ? (all ? 5 : 4) : (p->kind == PN_FML_G) != all ? 7 : 6;
    uint32_t id = otf_new_node(o, kind, f);
    if (id == ONONE || !otf_set_kids(o, id, 2))
        return ONONE;
    uint32_t a = ONONE, b;
    if ((b = otf_add(o, p->kids[0])) == ONONE)
        return ONONE;
    if (p->kind == PN_FML_U) {
        a = b;
        if ((b = otf_add(o, p->kids[1])) == ONONE)
            return ONONE;
    }
    onode *n = &o->nodes[id];
    n->kids[0] = p->kind == PN_FML_X ? b : a;
    n->kids[1] = b;
    n->neg_b = n->neg_out = p->kind == PN_FML_G; /* AG a = !EF !a, EG a = !AF !a */
    return id;
}

static uint32_t otf_add(ootf *o, const pn_fml_node *f)
{
    if (pn_fml_is_state(f) && pn_fml_has_action(f)) {
        if (pn_fml_is_action(f))
            return otf_new_node(o, 8, f);
        pn_fail(o->err, PN_ERR_UNSUPPORTED, "an action atom mixed with a state atom");
        return ONONE;
    }
    if (pn_fml_is_state(f))
        return otf_atom(o, f);
    switch (f->kind) {
    case PN_FML_NOT:
    case PN_FML_AND:
    case PN_FML_OR: return otf_bool(o, f);
    case PN_FML_A:
    case PN_FML_E: return otf_quantified(o, f);
    default:
        pn_fail(o->err, PN_ERR_UNSUPPORTED,
                "not a CTL formula (a temporal operator without a path quantifier)");
        return ONONE;
    }
}

/* ---- memory -------------------------------------------------------------- */

static uint64_t otf_bytes(const ootf *o)
{
    return o->val_cap * o->n_nodes + o->stack_cap * sizeof(oframe) + o->visited_cap * 4;
}

static bool otf_oom(ootf *o)
{
    pn_fail(o->err, PN_ERR_OUT_OF_MEMORY, "CTL: the search exceeds the memory budget");
    o->failed = true;
    return false;
}

/* Value arrays for every state discovered so far. */
static bool otf_room(ootf *o)
{
    uint64_t n = pn_lazy_states(o->z);
    if (n <= o->val_cap)
        return true;
    uint64_t cap = o->val_cap * 2 > n ? o->val_cap * 2 : n;
    if (!pn_lazy_fits(o->z, (cap - o->val_cap) * o->n_nodes))
        return otf_oom(o);
    for (uint32_t i = 0; i < o->n_nodes; i++) {
        onode *d = &o->nodes[i];
        if ((d->kind != 0 && d->kind < 4) || d->kind == 8)
            continue;
        uint8_t *v = realloc(d->val, cap);
        if (v == NULL)
            return otf_oom(o);
        memset(v + o->val_cap, 0, cap - o->val_cap);
        d->val = v;
    }
    o->val_cap = cap;
    pn_lazy_set_other(o->z, otf_bytes(o));
    return true;
}

static bool otf_grow(void **p, uint64_t *cap, uint64_t need, size_t size, ootf *o)
{
    if (need <= *cap)
        return true;
    uint64_t c = *cap ? *cap * 2 : 1024;
    if (!pn_lazy_fits(o->z, (c - *cap) * size))
        return otf_oom(o);
    void *q = realloc(*p, c * size);
    if (q == NULL)
        return otf_oom(o);
    *p = q;
    *cap = c;
    pn_lazy_set_other(o->z, otf_bytes(o));
    return true;
}

static bool otf_tick(ootf *o)
{
    if (++o->poll % 256 == 0 && pn_budget_fail(o->budget, o->err, "CTL") != PN_OK)
        o->failed = true;
    return !o->failed;
}

/* Successors of s, refetched after anything that may expand. */
static bool otf_succ(ootf *o, uint32_t s, const uint32_t **succ, uint32_t *n)
{
    if (pn_lazy_succ(o->z, s, succ, n, o->err) != PN_OK || !otf_room(o)) {
        o->failed = true;
        return false;
    }
    return true;
}

/* ---- evaluation ---------------------------------------------------------- */

/* 1, 0, or -1 on failure (o->err set). */
static int otf_eval(ootf *o, uint32_t id, uint32_t s);

static int otf_atom_value(ootf *o, onode *d, uint32_t s)
{
    if (d->val[s] == V_UNKNOWN) {
        uint32_t en = o->need_enabled ? pn_lazy_enabled(o->z, s) : 0;
        pn_space_atoms_eval(o->sa, pn_lazy_state(o->z, s), en, o->letter);
        for (uint32_t i = 0; i < o->n_nodes; i++) {
            onode *x = &o->nodes[i];
            if (x->kind == 0)
                x->val[s] = (o->letter[x->atom / 64] >> (x->atom % 64)) & 1 ? V_TRUE : V_FALSE;
        }
    }
    return d->val[s] == V_TRUE;
}

/* kid of an EU/AU: ONONE is true; neg negates. */
static int otf_lit(ootf *o, uint32_t kid, bool neg, uint32_t s)
{
    if (kid == ONONE)
        return 1;
    int v = otf_eval(o, kid, s);
    return v < 0 ? v : v ^ neg;
}

static int otf_next(ootf *o, onode *d, uint32_t s, bool all)
{
    const uint32_t *succ;
    uint32_t n;
    if (!otf_succ(o, s, &succ, &n))
        return -1;
    uint32_t kid = d->kids[0];
    for (uint32_t i = 0; i < n; i++) {
        if (!otf_succ(o, s, &succ, &n))
            return -1;
        const uint32_t *trans = pn_lazy_succ_trans(o->z, s);
        o->edge = trans != NULL ? trans[i] : ONONE;
        int v = otf_eval(o, kid, succ[i]);
        o->edge = ONONE;
        if (v < 0)
            return v;
        if (v != all)
            return !all;
    }
    return all; /* at a deadlock: AX TRUE, EX FALSE */
}

/* Settles the configurations a search met: gray (on the stack) and black
 * (finished) ones take the given values (V_UNKNOWN: forget). */
static void otf_settle(ootf *o, uint8_t *val, uint64_t n_visited, uint8_t gray, uint8_t black)
{
    for (uint64_t i = 0; i < n_visited; i++) {
        uint32_t t = o->visited[i];
        if (val[t] == V_GRAY)
            val[t] = gray;
        else if (val[t] == V_BLACK)
            val[t] = black;
    }
}

/* Entering t in a search of d: 1 the search's goal is met at t (EU: b
 * holds; AU: a counterexample), 0 t is settled the other way, 2 t was
 * pushed, -1 failure. */
static int otf_enter(ootf *o, onode *d, bool au, uint32_t t, uint64_t *sp, uint64_t *nv)
{
    int b = otf_lit(o, d->kids[1], d->neg_b, t);
    if (b < 0)
        return -1;
    if (b) {
        d->val[t] = V_TRUE;
        return !au;
    }
    int a = otf_lit(o, d->kids[0], false, t);
    if (a < 0)
        return -1;
    const uint32_t *succ;
    uint32_t n = 0;
    if (a && au && !otf_succ(o, t, &succ, &n))
        return -1;
    if (!a || (au && n == 0)) { /* AU at a deadlock reduces to b */
        d->val[t] = V_FALSE;
        return au;
    }
    if (!otf_grow((void **)&o->stack, &o->stack_cap, *sp + 1, sizeof *o->stack, o) ||
        !otf_grow((void **)&o->visited, &o->visited_cap, *nv + 1, 4, o))
        return -1;
    o->stack[(*sp)++] = (oframe){t, 0};
    o->visited[(*nv)++] = t;
    d->val[t] = V_GRAY;
    return 2;
}

/* The root's E[a U b] search met its goal: the stack is the path from
 * the initial state, each frame's last successor the step to the next
 * (the top's to the b-state). */
static void otf_record_witness(ootf *o, uint64_t sp)
{
    o->witness = malloc((sp + 1) * sizeof *o->witness);
    if (o->witness == NULL)
        return; /* the verdict stands without its witness */
    for (uint64_t k = 0; k < sp; k++) {
        const uint32_t *succ;
        uint32_t n;
        oframe f = o->stack[k];
        const uint32_t *trans = pn_lazy_succ(o->z, f.s, &succ, &n, o->err) == PN_OK
                                    ? pn_lazy_succ_trans(o->z, f.s) : NULL;
        o->witness[k] = trans != NULL ? trans[f.i - 1]
                        : n > 0 ? pn_lazy_trans(o->z, f.s, succ[f.i - 1]) : ONONE;
    }
    o->n_witness = sp;
}

/* E[a U b] (au false) or A[a U b] (au true) at s, depth first. */
static int otf_until(ootf *o, uint32_t id, uint32_t s, bool au)
{
    onode *d = &o->nodes[id];
    uint64_t sp = 0, nv = 0;
    int r = -1;
    /* The search's stack and visited list are local allocations so that
     * nested searches of subformulas cannot disturb them. */
    ootf saved = *o;
    o->stack = NULL;
    o->visited = NULL;
    o->stack_cap = o->visited_cap = 0;
    int e = otf_enter(o, d, au, s, &sp, &nv);
    bool goal = e == 1;
    while (e >= 0 && !goal && sp > 0) {
        if (!otf_tick(o)) {
            e = -1;
            break;
        }
        oframe *f = &o->stack[sp - 1];
        const uint32_t *succ;
        uint32_t n;
        if (!otf_succ(o, f->s, &succ, &n)) {
            e = -1;
            break;
        }
        if (f->i == n) {
            d->val[f->s] = V_BLACK;
            sp--;
            continue;
        }
        uint32_t t = succ[f->i++];
        uint8_t v = d->val[t];
        if (v == V_TRUE)
            goal = !au;
        else if (v == V_FALSE)
            goal = au;
        else if (v == V_GRAY)
            goal = au; /* a cycle through a and not b: A[a U b] fails */
        else if (v == V_UNKNOWN) {
            e = otf_enter(o, d, au, t, &sp, &nv);
            goal = e == 1;
        }
    }
    d = &o->nodes[id];
    if (e >= 0 && goal && !au && id == o->root && o->want_witness && o->witness == NULL)
        otf_record_witness(o, sp);
    if (e < 0) {
        otf_settle(o, d->val, nv, V_UNKNOWN, V_UNKNOWN);
        r = -1;
    } else if (au) {
        otf_settle(o, d->val, nv, V_FALSE, V_TRUE);
        r = !goal;
    } else {
        otf_settle(o, d->val, nv, V_TRUE, goal ? V_UNKNOWN : V_FALSE);
        r = goal;
    }
    free(o->stack);
    free(o->visited);
    o->stack = saved.stack;
    o->visited = saved.visited;
    o->stack_cap = saved.stack_cap;
    o->visited_cap = saved.visited_cap;
    pn_lazy_set_other(o->z, otf_bytes(o));
    return r;
}

static int otf_eval(ootf *o, uint32_t id, uint32_t s)
{
    if (!otf_tick(o))
        return -1;
    onode *d = &o->nodes[id];
    int v;
    switch (d->kind) {
    case 0: return otf_atom_value(o, d, s);
    case 8:
        if (o->edge != ONONE)
            return pn_fml_eval_action(d->f, o->edge);
        pn_fail(o->err, PN_ERR_UNSUPPORTED, "CTL: an action atom outside [a] f or <a> f");
        o->failed = true;
        return -1;
    case 1: v = otf_eval(o, d->kids[0], s); return v < 0 ? v : !v;
    case 2:
    case 3:
        for (uint32_t k = 0; k < d->n; k++) {
            v = otf_eval(o, o->nodes[id].kids[k], s);
            if (v < 0 || v == (o->nodes[id].kind == 3))
                return v;
        }
        return o->nodes[id].kind == 2;
    default: break;
    }
    if (d->val[s] == V_TRUE || d->val[s] == V_FALSE)
        return (d->val[s] == V_TRUE) ^ d->neg_out;
    uint32_t edge = o->edge; /* a temporal operator reads states, not that step */
    o->edge = ONONE;
    if (d->kind == 4 || d->kind == 5)
        v = otf_next(o, d, s, d->kind == 5);
    else
        v = otf_until(o, id, s, d->kind == 7);
    o->edge = edge;
    if (v < 0)
        return v;
    d = &o->nodes[id];
    d->val[s] = v ? V_TRUE : V_FALSE;
    return v ^ d->neg_out;
}

/* ---- entry ---------------------------------------------------------------- */

static void otf_free(ootf *o)
{
    for (uint32_t i = 0; i < o->n_nodes; i++) {
        free(o->nodes[i].kids);
        free(o->nodes[i].val);
    }
    free(o->nodes);
    free(o->atoms);
    free(o->letter);
    free(o->stack);
    free(o->visited);
    pn_space_atoms_free(o->sa);
    pn_lazy_set_other(o->z, 0);
}

static pn_status otf_check(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                           bool *value, pn_ctl_witness *w, pn_error *err)
{
    ootf o = {.z = z, .budget = budget, .err = err, .edge = ONONE, .want_witness = w != NULL};
    pn_status st = PN_OK;
    uint32_t root = o.root = otf_add(&o, phi);
    if (root == ONONE)
        st = err->code != PN_OK ? err->code : pn_fail(err, PN_ERR_INTERNAL, "CTL failed");
    if (st == PN_OK && o.n_atoms > 0) {
        st = pn_space_atoms_new(pn_lazy_space(z), o.atoms, o.n_atoms, &o.sa, err);
        if (st == PN_OK) {
            o.need_enabled = pn_space_atoms_need_enabled(o.sa);
            o.letter = calloc(pn_space_atoms_words(o.sa) + 1, sizeof *o.letter);
            if (o.letter == NULL)
                st = pn_fail(err, PN_ERR_NOMEM, "CTL: out of memory");
        }
    }
    if (st == PN_OK) {
        const uint32_t *succ;
        uint32_t n;
        int v = -1;
        if (pn_lazy_succ(z, 0, &succ, &n, err) == PN_OK && otf_room(&o))
            v = otf_eval(&o, root, 0);
        if (v < 0)
            st = err->code != PN_OK ? err->code : pn_fail(err, PN_ERR_INTERNAL, "CTL failed");
        else
            *value = v == 1;
    }
    if (st == PN_OK && w != NULL && o.witness != NULL) {
        w->trans = o.witness;
        w->n = o.n_witness;
        o.witness = NULL;
    }
    free(o.witness);
    otf_free(&o);
    return st;
}

pn_status pn_ctl_check_otf(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                           bool *value, pn_error *err)
{
    return otf_check(z, phi, budget, value, NULL, err);
}

pn_status pn_ctl_check_otf_witness(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                                   bool *value, pn_ctl_witness *w, pn_error *err)
{
    w->trans = NULL;
    w->n = 0;
    return otf_check(z, phi, budget, value, w, err);
}
