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
 * polled every 16 steps. A search step makes the one successor it follows
 * (pn_lazy_succ_at: over the P/T net, a state's other successors are only
 * listed until a search reaches them).
 *
 * Random walks: an E[a U b] search whose a and b are state formulas first
 * walks at random from its state through a-states (TAPAAL and ITS-Tools
 * run such walks for reachability; here they serve nested E F / E U and
 * the A G counterexamples under any operator). A walk that meets b is a
 * witness: every state on it is reachable and satisfies a. Walks are cheap
 * per step (no ids, no table), where a depth-first step stores the state
 * it makes and lists the enabled transitions of each state it enters; a
 * node whose walks keep failing stops trying them. Every other walk of a
 * node is directed at the places its b reads (space/walk_aim.h: half its
 * steps fire one of the enabled transitions nearest to them in the net's
 * graph). An A[a U b] search (E G, A F) is preceded the same way by lasso
 * walks, which look for its counterexample: below, "lasso walks".
 *
 * Traces: the search of the root's until operator from the initial state
 * stops with the proof on its stack: the path to a b-state (E U), to a
 * state with neither a nor b or to a deadlock, or the cycle closed at a
 * gray state (A U). */
#include "petrel/ctl.h"

#include <stdlib.h>

#include "petrel/ltl.h"
#include "pn_table.h"
#include "pn_walk.h"
#include "space/walk_aim.h"
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
    bool walkable;      /* EU / AU with state-formula a and b: random (lasso) walks */
    uint32_t walk_win, walk_fail;
    uint32_t walks;     /* begun: every other one is directed at b (walk_aim.h) */
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
    bool failed;
    bool dead_end;      /* otf_enter's last goal was a deadlock (A U) */
    uint32_t top;        /* the root under its negations */
    uint32_t trace_node; /* ONONE: no trace wanted */
    pn_ltl_lasso *trace;
    uint64_t rng;
    uint64_t *walk_s, *walk_next;  /* the walk's state and its successor */
    pn_space_enset walk_en;        /* the walk's state's enabled transitions */
    bool walk_en_made;
    uint32_t *walk_path;           /* the walk so far */
    uint32_t walk_words;
    uint64_t *lasso_slots, *lasso_store; /* a lasso walk's states (pn_table.h) */
    uint64_t lasso_count, lasso_bytes, lasso_mask;
    uint32_t lasso_words;  /* of the store's states; 0: not made */
    pn_walk_aim aim;    /* the distances to one node's b (aim_node; ONONE: none yet) */
    uint32_t aim_node;
    bool aim_failed;    /* no memory for them: uniform walks only */
} ootf;

/* Walks per search and steps per walk; a node stops walking once its
 * failures pass OTF_WALK_PATIENCE plus four per success. The search of
 * the formula's top operator at the initial state runs once: it
 * alternates with walks of OTF_TOP_WALK_STEPS, one after every
 * OTF_TOP_WALK_STEPS steps of the depth-first search, so that the walks
 * cost about what the search costs (nothing much where the search ends
 * soon). */
#define OTF_WALK_TRIES 4
#define OTF_WALK_STEPS 1024
#define OTF_WALK_PATIENCE 16
#define OTF_TOP_WALK_STEPS 16384

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
    return o->val_cap * o->n_nodes + o->stack_cap * sizeof(oframe) + o->visited_cap * 4 +
           o->lasso_bytes;
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
    if (++o->poll % 16 == 0 && pn_budget_fail(o->budget, o->err, "CTL") != PN_OK)
        o->failed = true;
    return !o->failed;
}

/* The number of successor entries of s (expanding it: a deadlock has
 * none), and entry k's state, made when first asked for (petrel/lazy.h):
 * the searches leave most states before their last successor. */
static bool otf_degree(ootf *o, uint32_t s, uint32_t *n)
{
    if (pn_lazy_degree(o->z, s, n, o->err) != PN_OK) {
        o->failed = true;
        return false;
    }
    return true;
}

static bool otf_succ_at(ootf *o, uint32_t s, uint32_t k, uint32_t *t)
{
    if (pn_lazy_succ_at(o->z, s, k, t, o->err) != PN_OK || !otf_room(o)) {
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
    uint32_t n, t;
    if (!otf_degree(o, s, &n))
        return -1;
    uint32_t kid = d->kids[0];
    for (uint32_t i = 0; i < n; i++) {
        if (!otf_succ_at(o, s, i, &t))
            return -1;
        const uint32_t *trans = pn_lazy_succ_trans(o->z, s);
        o->edge = trans != NULL ? trans[i] : ONONE;
        int v = otf_eval(o, kid, t);
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
        o->dead_end = false;
        return !au;
    }
    int a = otf_lit(o, d->kids[0], false, t);
    if (a < 0)
        return -1;
    uint32_t n = 0;
    if (a && au && !otf_degree(o, t, &n))
        return -1;
    if (!a || (au && n == 0)) { /* AU at a deadlock reduces to b */
        d->val[t] = V_FALSE;
        o->dead_end = a;
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

/* ---- random walks ---------------------------------------------------------- */

/* Atoms and Boolean connectives only (ONONE, the a of E F, is true). */
static bool otf_statelike(const ootf *o, uint32_t id)
{
    if (id == ONONE || o->nodes[id].kind == 0)
        return true;
    if (o->nodes[id].kind > 3)
        return false;
    for (uint32_t k = 0; k < o->nodes[id].n; k++)
        if (!otf_statelike(o, o->nodes[id].kids[k]))
            return false;
    return true;
}

/* A state-level subtree's value on o->letter. */
static bool otf_letter(const ootf *o, uint32_t id)
{
    if (id == ONONE)
        return true;
    const onode *d = &o->nodes[id];
    switch (d->kind) {
    case 0: return (o->letter[d->atom / 64] >> (d->atom % 64)) & 1;
    case 1: return !otf_letter(o, d->kids[0]);
    default: break;
    }
    bool any = d->kind == 3;
    for (uint32_t k = 0; k < d->n; k++)
        if (otf_letter(o, d->kids[k]) == any)
            return any;
    return !any;
}

static bool otf_walk_buffers(ootf *o, uint32_t words)
{
    if (o->walk_path == NULL) {
        pn_error quiet = {0}; /* no memory for walks: the searches go on without */
        o->walk_en_made = pn_space_enset_init(pn_lazy_space(o->z), &o->walk_en, &quiet) == PN_OK;
        o->walk_path = malloc(OTF_TOP_WALK_STEPS * sizeof *o->walk_path);
    }
    if (words != o->walk_words) {
        free(o->walk_s);
        free(o->walk_next);
        o->walk_s = malloc((size_t)words * sizeof *o->walk_s);
        o->walk_next = malloc((size_t)words * sizeof *o->walk_next);
        o->walk_words = words;
    }
    return o->walk_en_made && o->walk_path && o->walk_s && o->walk_next;
}

/* Directs a walk of node id at the places its b reads: false when it
 * cannot (no place, no memory), and the walk is uniform. */
static bool otf_aim(ootf *o, uint32_t id)
{
    const onode *d = &o->nodes[id];
    if (o->aim_failed || d->kids[1] == ONONE)
        return false;
    if (o->aim_node == id)
        return true;
    if (o->aim.dist == NULL) {
        pn_error quiet = {0};
        const pn_cnet *cn = pn_space_cnet(pn_lazy_space(o->z));
        if (pn_walk_aim_init(&o->aim, cn, &quiet) != PN_OK) {
            o->aim_failed = true;
            return false;
        }
    }
    o->aim_node = ONONE;
    if (pn_walk_aim_at(&o->aim, o->nodes[d->kids[1]].f, NULL, 0) == 0)
        return false;
    o->aim_node = id;
    return true;
}

/* Up to tries walks of up to steps steps from s (where a holds and b does
 * not) through a-states: 1 and *len steps in o->walk_path when one meets
 * b, 0 when none does (a field that overflows, which only the lazy space
 * may widen, ends the walks too), -1 on failure (o->err). */
static int otf_walk(ootf *o, uint32_t id, uint32_t s, uint32_t tries, uint32_t steps,
                    uint32_t *len)
{
    pn_space *sp = pn_lazy_space(o->z);
    uint32_t words = pn_space_words(sp);
    if (!otf_walk_buffers(o, words))
        return 0; /* no memory for walks: the search goes on without them */
    onode *d = &o->nodes[id];
    for (uint32_t try = 0; try < tries; try++) {
        bool aimed = d->walks++ % 2 == 1 && otf_aim(o, id);
        memcpy(o->walk_s, pn_lazy_state(o->z, s), (size_t)words * sizeof *o->walk_s);
        pn_space_enset_fill(sp, &o->walk_en, o->walk_s);
        for (uint32_t step = 0; step < steps; step++) {
            if (!otf_tick(o))
                return -1;
            uint32_t n = o->walk_en.n;
            if (step > 0) {
                pn_space_atoms_eval(o->sa, o->walk_s, n, o->letter);
                if (otf_letter(o, d->kids[1]) != d->neg_b) {
                    d->walk_win++;
                    *len = step;
                    return 1;
                }
                if (!otf_letter(o, d->kids[0]))
                    break;
            }
            if (n == 0)
                break;
            uint32_t t = aimed ? pn_walk_aim_pick(&o->aim, o->walk_en.list, n, &o->rng)
                               : o->walk_en.list[pn_walk_rand(&o->rng) % n];
            if (pn_space_fire(sp, o->walk_s, t, o->walk_next) != 0) {
                d->walk_fail++;
                return 0;
            }
            uint64_t *tmp = o->walk_s;
            o->walk_s = o->walk_next;
            o->walk_next = tmp;
            pn_space_enset_fired(sp, &o->walk_en, o->walk_s, t);
            o->walk_path[step] = t;
        }
    }
    d->walk_fail++;
    return 0;
}

/* ---- lasso walks (A U) ------------------------------------------------------
 * The random lassos of R. Grosu and S. A. Smolka, "Monte Carlo model
 * checking" (TACAS 2005): a walk that ends when it enters a state it was
 * in before. A[a U b], a and b state formulas, fails at s when a path
 * from s keeps a and not b up to a state with neither, to a deadlock, or
 * round a cycle. A random walk through such states that remembers its own
 * (pn_table.h over the walk's store: full states compared, a state's id
 * its step) closes a cycle when it enters a state it was in before: E G a
 * = !A[true U !a] then holds by a lasso that no depth-first order closed
 * in its time (ShieldPPPt-PT-100B's E G (p5661 <= p6410): TRUE in 6 ms on
 * its net reduced for it, where the search alone ran out of time). Each
 * step tries up to OTF_LASSO_PICKS enabled transitions from a random one
 * on and takes the first whose successor has not b. Every state of the
 * walk is reachable from s, and the counterexample is the walk itself:
 * the verdict is exact. */
#define OTF_LASSO_PICKS 16

static bool otf_lasso_buffers(ootf *o, uint32_t words)
{
    if (!otf_walk_buffers(o, words))
        return false;
    if (o->lasso_words == words)
        return true;
    free(o->lasso_slots);
    free(o->lasso_store);
    o->lasso_slots = o->lasso_store = NULL;
    o->lasso_bytes = 0;
    o->lasso_words = 0;
    uint64_t slots = 4 * (uint64_t)OTF_TOP_WALK_STEPS;
    uint64_t bytes = (slots + ((uint64_t)OTF_TOP_WALK_STEPS + 1) * words) * sizeof(uint64_t);
    if (!pn_lazy_fits(o->z, bytes))
        return false;
    o->lasso_slots = malloc(slots * sizeof *o->lasso_slots);
    o->lasso_store = malloc(((size_t)OTF_TOP_WALK_STEPS + 1) * words * sizeof *o->lasso_store);
    if (o->lasso_slots == NULL || o->lasso_store == NULL)
        return false;
    o->lasso_words = words;
    o->lasso_bytes = bytes;
    pn_lazy_set_other(o->z, otf_bytes(o));
    return true;
}

static pn_table_view otf_lasso_view(ootf *o)
{
    return pn_table_plain(o->lasso_slots, o->lasso_mask, o->lasso_store, &o->lasso_count,
                          o->lasso_words);
}

/* One step of a lasso walk from the last state of the store, whose
 * enabled transitions are in o->walk_en (some): 1 the walk ends a
 * counterexample (*start: the step its cycle starts at, UINT32_MAX: at a
 * state with neither a nor b), 2 it goes on (its new state stored, its
 * enabled transitions in o->walk_en), 0 it is stuck or overflows. A
 * candidate turned down gives its enabled set back (the same transitions
 * tested again on the state before it). */
static int otf_lasso_step(ootf *o, onode *d, uint32_t step, uint32_t *start)
{
    pn_space *sp = pn_lazy_space(o->z);
    pn_space_enset *e = &o->walk_en;
    uint32_t words = o->lasso_words;
    const uint64_t *x = o->lasso_store + (uint64_t)step * words;
    uint32_t cand[OTF_LASSO_PICKS];
    uint32_t first = pn_walk_rand(&o->rng) % e->n;
    uint32_t picks = e->n < OTF_LASSO_PICKS ? e->n : OTF_LASSO_PICKS;
    for (uint32_t k = 0; k < picks; k++) /* the list changes order as candidates are tried */
        cand[k] = e->list[(first + k) % e->n];
    for (uint32_t k = 0; k < picks; k++) {
        uint32_t t = cand[k];
        if (pn_space_fire(sp, x, t, o->walk_next) != 0)
            return 0;
        pn_space_enset_fired(sp, e, o->walk_next, t);
        pn_space_atoms_eval(o->sa, o->walk_next, e->n, o->letter);
        if (otf_letter(o, d->kids[1]) != d->neg_b) {
            pn_space_enset_fired(sp, e, x, t);
            continue; /* b: not this way */
        }
        o->walk_path[step] = t;
        if (!otf_letter(o, d->kids[0])) {
            *start = UINT32_MAX;
            return 1;
        }
        pn_table_view v = otf_lasso_view(o);
        uint64_t id;
        if (pn_table_insert(&v, o->walk_next, pn_space_hash(o->walk_next, words), &id) ==
            PN_INSERT_OLD) {
            *start = (uint32_t)id;
            return 1;
        }
        return 2;
    }
    return 0;
}

/* Up to tries lasso walks of up to steps steps (at most
 * OTF_TOP_WALK_STEPS) from s, where a holds and b does not: 1 when one
 * ends a counterexample to A[a U b] (*len steps in o->walk_path; *start
 * as otf_lasso_step, or *len itself at a deadlock), 0 when none does, -1
 * on failure (o->err). */
static int otf_lasso(ootf *o, uint32_t id, uint32_t s, uint32_t tries, uint32_t steps,
                     uint32_t *len, uint32_t *start)
{
    pn_space *sp = pn_lazy_space(o->z);
    uint32_t words = pn_space_words(sp);
    if (!otf_lasso_buffers(o, words))
        return 0; /* no memory for them: the search goes on without */
    onode *d = &o->nodes[id];
    steps = steps < OTF_TOP_WALK_STEPS ? steps : OTF_TOP_WALK_STEPS;
    for (o->lasso_mask = 1023; o->lasso_mask < 4 * (uint64_t)steps - 1;)
        o->lasso_mask = 2 * o->lasso_mask + 1; /* at most a quarter full: short probes */
    for (uint32_t try = 0; try < tries; try++) {
        memset(o->lasso_slots, 0, (o->lasso_mask + 1) * sizeof *o->lasso_slots);
        o->lasso_count = 0;
        pn_table_view v = otf_lasso_view(o);
        const uint64_t *x = pn_lazy_state(o->z, s);
        uint64_t first;
        pn_table_insert(&v, x, pn_space_hash(x, words), &first);
        pn_space_enset_fill(sp, &o->walk_en, o->lasso_store);
        for (uint32_t step = 0; step < steps; step++) {
            if (!otf_tick(o))
                return -1;
            if (o->walk_en.n == 0) { /* a deadlock with a and not b */
                *len = *start = step;
                d->walk_win++;
                return 1;
            }
            int r = otf_lasso_step(o, d, step, start);
            if (r == 1) {
                *len = step + 1;
                d->walk_win++;
                return 1;
            }
            if (r == 0)
                break;
        }
    }
    d->walk_fail++;
    return 0;
}

/* The root's counterexample by a lasso walk from the initial state: the
 * path, then the cycle back to step start, the deadlock at its end
 * (start == len), or nothing (a state with neither a nor b). */
static void otf_trace_lasso(ootf *o, uint32_t len, uint32_t start)
{
    pn_ltl_lasso *l = o->trace;
    l->trans = malloc(((size_t)len + 2) * sizeof *l->trans);
    if (l->trans == NULL)
        return;
    memcpy(l->trans, o->walk_path, (size_t)len * sizeof *l->trans);
    l->prefix = start < len ? start : len;
    l->cycle = start < len ? len - start : 0;
    if (start == len) {
        l->trans[len] = UINT32_MAX;
        l->cycle = 1;
    }
    o->trace_node = ONONE;
}

/* The trace of a walk from the initial state. */
static void otf_trace_walk(ootf *o, uint32_t len)
{
    pn_ltl_lasso *l = o->trace;
    l->trans = malloc(((size_t)len + 1) * sizeof *l->trans);
    if (l->trans == NULL)
        return;
    memcpy(l->trans, o->walk_path, (size_t)len * sizeof *l->trans);
    l->prefix = len;
    l->cycle = 0;
    o->trace_node = ONONE;
}

/* The root search's proof: the states on the stack (sp frames), then t;
 * cycle: t is on the stack and closes a cycle there; else a deadlock at t
 * (o->dead_end) ends the path. Without memory there is no trace, the
 * verdict stands. */
static void otf_trace(ootf *o, uint64_t sp, uint32_t t, bool cycle)
{
    uint64_t start = sp; /* the cycle's first frame */
    for (uint64_t k = 0; cycle && k < sp; k++)
        if (o->stack[k].s == t) {
            start = k;
            break;
        }
    pn_ltl_lasso *l = o->trace;
    l->trans = malloc((sp + 2) * sizeof *l->trans);
    if (l->trans == NULL)
        return;
    for (uint64_t k = 0; k < sp; k++)
        l->trans[k] = pn_lazy_trans(o->z, o->stack[k].s, k + 1 < sp ? o->stack[k + 1].s : t);
    l->prefix = cycle ? start : sp;
    l->cycle = cycle ? sp - start : 0;
    if (!cycle && o->dead_end) {
        l->trans[sp] = UINT32_MAX;
        l->cycle = 1;
    }
    o->trace_node = ONONE; /* one trace */
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
    uint32_t walked = 0, cycle = 0;
    bool top = s == 0 && id == o->top, by_walk = false;
    if (e == 2 && d->walkable &&
        (top || d->walk_fail <= OTF_WALK_PATIENCE + 4 * d->walk_win)) {
        int w = au ? otf_lasso(o, id, s, OTF_WALK_TRIES, OTF_WALK_STEPS, &walked, &cycle)
                   : otf_walk(o, id, s, OTF_WALK_TRIES, OTF_WALK_STEPS, &walked);
        e = w < 0 ? -1 : e;
        goal = by_walk = w == 1;
    }
    for (uint64_t steps = 1; e >= 0 && !goal && sp > 0; steps++) {
        if (!otf_tick(o)) {
            e = -1;
            break;
        }
        if (top && d->walkable && steps % OTF_TOP_WALK_STEPS == 0) {
            int w = au ? otf_lasso(o, id, s, 1, OTF_TOP_WALK_STEPS, &walked, &cycle)
                       : otf_walk(o, id, s, 1, OTF_TOP_WALK_STEPS, &walked);
            e = w < 0 ? -1 : e;
            goal = by_walk = w == 1;
            continue;
        }
        oframe *f = &o->stack[sp - 1];
        uint32_t n, t;
        if (!otf_degree(o, f->s, &n)) {
            e = -1;
            break;
        }
        if (f->i == n) {
            d->val[f->s] = V_BLACK;
            sp--;
            continue;
        }
        if (!otf_succ_at(o, f->s, f->i++, &t)) {
            e = -1;
            break;
        }
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
        if (goal && id == o->trace_node && s == 0 && (v == V_UNKNOWN || v == V_GRAY))
            otf_trace(o, sp, t, v == V_GRAY);
    }
    if (goal && sp == 0 && id == o->trace_node && s == 0) /* decided at s itself */
        otf_trace(o, 0, s, false);
    d = &o->nodes[id];
    if (by_walk && e >= 0) { /* s reaches b (E U) or fails (A U); what the search met may not */
        otf_settle(o, d->val, nv, V_UNKNOWN, V_UNKNOWN);
        r = !au;
        if (id == o->trace_node && s == 0 && au)
            otf_trace_lasso(o, walked, cycle);
        else if (id == o->trace_node && s == 0)
            otf_trace_walk(o, walked);
    } else if (e < 0) {
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

/* ---- the Boolean layer on top ---------------------------------------------- */

/* Temporal operators reached from id through NOT / AND / OR. */
static uint32_t otf_top_leaves(const ootf *o, uint32_t id)
{
    const onode *d = &o->nodes[id];
    if (d->kind == 0)
        return 0;
    if (d->kind > 3)
        return 1;
    uint32_t n = 0;
    for (uint32_t k = 0; k < d->n; k++)
        n += otf_top_leaves(o, d->kids[k]);
    return n;
}

/* The formula's Boolean layer at the initial state in three-valued logic,
 * each temporal leaf within its own share of the time left (1 / the
 * leaves not tried yet), so that a leaf that needs more than its share
 * cannot keep a decisive sibling from being evaluated: 1, 0, -1 unknown
 * (a leaf ran out of its share), -2 failure (o->err: the budget itself,
 * memory). A leaf that runs out has unwound its searches (settled
 * configurations stay settled, the others are unknown again), so the
 * evaluation goes on. */
static int otf_layer(ootf *o, uint32_t id, uint32_t *left)
{
    onode *d = &o->nodes[id];
    if (d->kind == 1) {
        int v = otf_layer(o, d->kids[0], left);
        return v < 0 ? v : !v;
    }
    if (d->kind == 2 || d->kind == 3) {
        int any = d->kind == 3, r = !any;
        for (uint32_t k = 0; k < d->n; k++) {
            int v = otf_layer(o, o->nodes[id].kids[k], left);
            if (v == -2 || v == any)
                return v;
            r = v < 0 ? -1 : r;
        }
        return r;
    }
    if (d->kind == 0) {
        int v = otf_eval(o, id, 0);
        return v < 0 ? -2 : v;
    }
    const pn_budget *outer = o->budget;
    pn_budget share = pn_budget_share(outer, 1.0 / (*left > 0 ? *left : 1));
    *left -= *left > 0;
    o->budget = &share;
    int v = otf_eval(o, id, 0);
    o->budget = outer;
    if (v >= 0)
        return v;
    if (o->err->code != PN_ERR_TIMEOUT || pn_budget_expired(outer))
        return -2;
    pn_error_clear(o->err);
    o->failed = false;
    return -1;
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
    free(o->walk_s);
    free(o->walk_next);
    pn_space_enset_free(&o->walk_en);
    free(o->walk_path);
    free(o->lasso_slots);
    free(o->lasso_store);
    pn_walk_aim_free(&o->aim);
    pn_space_atoms_free(o->sa);
    pn_lazy_set_other(o->z, 0);
}

pn_status pn_ctl_check_otf_trace(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                                 bool *value, pn_ltl_lasso *trace, pn_error *err)
{
    ootf o = {.z = z, .budget = budget, .err = err, .trace_node = ONONE, .edge = ONONE,
              .rng = 0x9e3779b97f4a7c15ull, .aim_node = ONONE};
    pn_status st = PN_OK;
    uint32_t root = otf_add(&o, phi);
    if (root == ONONE)
        st = err->code != PN_OK ? err->code : pn_fail(err, PN_ERR_INTERNAL, "CTL failed");
    for (uint32_t i = 0; st == PN_OK && i < o.n_nodes; i++) {
        onode *d = &o.nodes[i];
        d->walkable = (d->kind == 6 || d->kind == 7) && otf_statelike(&o, d->kids[0]) &&
                      otf_statelike(&o, d->kids[1]);
    }
    for (o.top = root; st == PN_OK && o.nodes[o.top].kind == 1;)
        o.top = o.nodes[o.top].kids[0];
    if (trace != NULL) {
        memset(trace, 0, sizeof *trace);
        if (st == PN_OK && (o.nodes[o.top].kind == 6 || o.nodes[o.top].kind == 7)) {
            o.trace_node = o.top;
            o.trace = trace;
        }
    }
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
        uint32_t n;
        int v = -1;
        uint32_t leaves = otf_top_leaves(&o, root);
        bool layered = leaves > 1 && budget != NULL && budget->deadline > 0;
        if (pn_lazy_degree(z, 0, &n, err) == PN_OK && otf_room(&o))
            v = layered ? otf_layer(&o, root, &leaves) : otf_eval(&o, root, 0);
        if (v == -1 && layered)
            st = pn_fail(err, PN_ERR_TIMEOUT, "CTL: time limit reached (some operators undecided)");
        else if (v < 0)
            st = err->code != PN_OK ? err->code : pn_fail(err, PN_ERR_INTERNAL, "CTL failed");
        else
            *value = v == 1;
    }
    otf_free(&o);
    if (st != PN_OK && trace != NULL)
        pn_ltl_lasso_free(trace);
    return st;
}

pn_status pn_ctl_check_otf(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                           bool *value, pn_error *err)
{
    return pn_ctl_check_otf_trace(z, phi, budget, value, NULL, err);
}

/* The trace, kept only where it is the witness of a root E[a U b] / E F
 * (TRUE) or the counterexample of a root A G (FALSE): a finite path. */
pn_status pn_ctl_check_otf_witness(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                                   bool *value, pn_ctl_witness *w, pn_error *err)
{
    pn_ltl_lasso l;
    w->trans = NULL;
    w->n = 0;
    pn_status st = pn_ctl_check_otf_trace(z, phi, budget, value, &l, err);
    const pn_fml_node *p = phi->n == 1 && phi->kids != NULL ? phi->kids[0] : NULL;
    bool shape = p != NULL && ((phi->kind == PN_FML_E && (p->kind == PN_FML_F ||
                                                          p->kind == PN_FML_U)) ||
                               (phi->kind == PN_FML_A && p->kind == PN_FML_G));
    if (st == PN_OK && shape && l.trans != NULL && l.cycle == 0) {
        w->trans = l.trans;
        w->n = l.prefix;
        return st;
    }
    pn_ltl_lasso_free(&l);
    return st;
}
