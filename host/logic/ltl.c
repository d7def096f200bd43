/* The on-the-fly LTL check (ltl.h): the product of the generalised Büchi
 * automaton of !psi with the net's states (space/lazy.c), generated while it
 * is searched, and its emptiness by Couvreur's algorithm (J.-M. Couvreur,
 * "On-the-fly verification of linear temporal logic", FM'99, LNCS 1708),
 * made iterative. A depth-first search keeps a stack of roots of the
 * strongly connected parts seen so far, each with the union of the
 * acceptance sets of its states; an edge to a live state closes a cycle and
 * merges the roots above that state, and the first merge whose union holds
 * every set proves an accepting cycle. The search then stops: A psi is
 * FALSE without the rest of the state space. TRUE needs every reachable
 * product state. A deadlock's only successor is itself (docs/semantics.md).
 *
 * Acceptance is on automaton states. Letters and acceptance masks are bit
 * vectors of as many words as the formula needs, so there is no limit on
 * atoms or acceptance sets (one word each in practice). The net states
 * come from the on-demand space (petrel/lazy.h), their labels from the
 * state-space interface (petrel/space.h).
 *
 * pn_ltl_check (the examination's entry for one formula over a model) is
 * this same product over a fresh on-demand space: there is one product.
 *
 * Action-based LTL (RERS, pn_ltl_check_actions) is the same product with
 * letters read on steps instead of states: the letter of a step is that of
 * its transition (atoms are ACTION formulas, evaluated once per
 * transition), the automaton gets a start state that reads nothing
 * (ltl_buchi_with_start), so that its first step reads the first action,
 * and a deadlock has no successor: only infinite traces count, and a finite
 * one violates nothing. */
#include "petrel/ltl.h"

#include <stdlib.h>
#include <string.h>

#include "logic/ltl_otf.h"
#include "petrel/stubborn.h"
#include "pn_state.h"

#define OTF_MAX_AUTOMATON 4096
#define OTF_NONE UINT64_MAX

typedef struct otf_frame {
    uint64_t id;      /* product state */
    uint32_t e, a;    /* cursors: net successor, automaton successor */
} otf_frame;

typedef struct otf {
    pn_lazy *z;
    pn_space_atoms *atoms;
    const ltl_buchi *b;
    uint64_t Q;
    /* A letter (the atoms' values in a net state) has L words: bit a for
     * atom a, bit n_atoms set once it is known. An acceptance mask has AW
     * words. Both are usually 1: the loops below are then one step. */
    uint32_t L, AW, n_atoms;
    uint64_t *lmask, *lval; /* per automaton state, L words each */
    uint64_t *accm, *all;   /* per automaton state, AW words each; all sets */
    bool need_enabled;       /* some atom reads "deadlock" */
    bool actions;            /* letters on steps: tletter, no stuttering */
    uint64_t *tletter;       /* per transition, L words (actions only) */
    uint64_t *letter, letter_cap; /* per net state, L words */
    /* Product states are numbered in visiting order, so a state's number
     * is also its DFS number in Couvreur's algorithm. */
    uint64_t *key;           /* per product state: s * Q + q */
    uint64_t *dead;          /* bit per product state: its SCC is done */
    uint64_t count, cap;
    uint64_t *slots, slot_mask; /* pairs (key, id + 1): one cache miss per probe */
    otf_frame *todo;
    uint64_t *root_id, *root_acc; /* roots: id, AW words of acceptance */
    uint64_t *active;
    uint64_t n_todo, n_roots, n_active;
    const pn_budget *budget; /* deadline and cancel; memory is the lazy space's */
    pn_error *err;
} otf;

/* ---- automaton and letters ------------------------------------------- */

static void otf_set_bit(uint64_t *w, uint32_t i) { w[i / 64] |= 1ULL << (i % 64); }

static bool otf_bit(const uint64_t *w, uint32_t i) { return (w[i / 64] >> (i % 64)) & 1; }

/* q's label as (letter & lmask) == lval. A contradictory label (p and !p)
 * requires the known bit clear, which no letter has: it never holds. */
static void otf_label(otf *o, uint32_t q)
{
    const ltl_buchi *b = o->b;
    uint64_t *mask = o->lmask + q * o->L, *val = o->lval + q * o->L;
    bool never = false;
    for (uint32_t k = b->lit_off[q]; k < b->lit_off[q + 1]; k++) {
        uint32_t a = b->lit[k].atom;
        if (otf_bit(mask, a) && otf_bit(val, a) != b->lit[k].positive)
            never = true;
        otf_set_bit(mask, a);
        if (b->lit[k].positive)
            otf_set_bit(val, a);
    }
    if (never) {
        otf_set_bit(mask, o->n_atoms);
        val[o->n_atoms / 64] &= ~(1ULL << (o->n_atoms % 64));
    }
}

static pn_status otf_automaton(otf *o)
{
    const ltl_buchi *b = o->b;
    o->AW = b->n_acc / 64 + 1;
    o->lmask = calloc(o->Q * o->L + 1, sizeof *o->lmask);
    o->lval = calloc(o->Q * o->L + 1, sizeof *o->lval);
    o->accm = calloc(o->Q * o->AW + 1, sizeof *o->accm);
    o->all = calloc(o->AW, sizeof *o->all);
    if (o->lmask == NULL || o->lval == NULL || o->accm == NULL || o->all == NULL)
        return pn_fail(o->err, PN_ERR_NOMEM, "LTL: out of memory");
    for (uint32_t a = 0; a < b->n_acc; a++)
        otf_set_bit(o->all, a);
    for (uint32_t q = 0; q < o->Q; q++) {
        otf_label(o, q);
        for (uint32_t a = 0; a < b->n_acc; a++)
            if (b->acc[q * b->n_acc + a])
                otf_set_bit(o->accm + q * o->AW, a);
    }
    return PN_OK;
}

/* Action-based letters: one per transition, computed at once. */
static pn_status otf_action_letters(otf *o, const ltl_formula *f)
{
    for (uint32_t a = 0; a < f->n_atoms; a++)
        if (!pn_fml_is_action(f->atoms[a]))
            return pn_fail(o->err, PN_ERR_UNSUPPORTED,
                           "action-based LTL: an atom that is not about the step's action");
    uint32_t T = pn_space_transitions(pn_lazy_space(o->z));
    o->L = f->n_atoms / 64 + 1;
    o->tletter = calloc((size_t)T * o->L + 1, sizeof *o->tletter);
    if (o->tletter == NULL)
        return pn_fail(o->err, PN_ERR_NOMEM, "LTL: out of memory");
    for (uint32_t t = 0; t < T; t++) {
        uint64_t *l = o->tletter + (size_t)t * o->L;
        for (uint32_t a = 0; a < f->n_atoms; a++)
            if (pn_fml_eval_action(f->atoms[a], t))
                otf_set_bit(l, a);
        otf_set_bit(l, o->n_atoms);
    }
    return PN_OK;
}

static pn_status otf_atoms(otf *o, const ltl_formula *f)
{
    o->n_atoms = f->n_atoms;
    if (o->actions)
        return otf_action_letters(o, f);
    pn_status st = pn_space_atoms_new(pn_lazy_space(o->z), f->atoms, f->n_atoms, &o->atoms,
                                      o->err);
    if (st != PN_OK)
        return st;
    o->L = pn_space_atoms_words(o->atoms); /* > n_atoms bits: room for the known bit */
    o->need_enabled = pn_space_atoms_need_enabled(o->atoms);
    return PN_OK;
}

/* Bytes of cap product states: key, dead bit, todo, roots, active, two
 * slots of two words. */
static uint64_t otf_bytes(const otf *o, uint64_t cap)
{
    return cap * (8 + sizeof(otf_frame) + 8 * (1 + o->AW) + 8 + 4 * 8) + cap / 8;
}

static void otf_declare(otf *o)
{
    pn_lazy_set_other(o->z, otf_bytes(o, o->cap) + o->letter_cap * o->L * 8);
}

/* Letters for every net state discovered so far (computed lazily). */
static bool otf_letter_room(otf *o)
{
    uint64_t n = pn_lazy_states(o->z);
    if (n <= o->letter_cap || o->actions)
        return true;
    uint64_t cap = o->letter_cap * 2 > n ? o->letter_cap * 2 : n;
    uint64_t *l = pn_lazy_fits(o->z, (cap - o->letter_cap) * o->L * 8)
                      ? realloc(o->letter, cap * o->L * sizeof *l) : NULL;
    if (l == NULL) {
        pn_fail(o->err, PN_ERR_OUT_OF_MEMORY, "LTL: the product exceeds the memory budget");
        return false;
    }
    memset(l + o->letter_cap * o->L, 0, (cap - o->letter_cap) * o->L * sizeof *l);
    o->letter = l;
    o->letter_cap = cap;
    otf_declare(o);
    return true;
}

static const uint64_t *otf_letter(otf *o, uint32_t s)
{
    uint64_t *l = o->letter + (uint64_t)s * o->L;
    if (otf_bit(l, o->n_atoms))
        return l;
    uint32_t en = o->need_enabled ? pn_lazy_enabled(o->z, s) : 0;
    pn_space_atoms_eval(o->atoms, pn_lazy_state(o->z, s), en, l);
    otf_set_bit(l, o->n_atoms);
    return l;
}

static bool otf_holds(const otf *o, const uint64_t *letter, uint64_t q)
{
    const uint64_t *mask = o->lmask + q * o->L, *val = o->lval + q * o->L;
    for (uint32_t w = 0; w < o->L; w++)
        if ((letter[w] & mask[w]) != val[w])
            return false;
    return true;
}

/* ---- product states -------------------------------------------------- */

static bool otf_realloc(void **p, uint64_t n, size_t size)
{
    void *q = realloc(*p, n * size);
    if (q != NULL)
        *p = q;
    return q != NULL;
}

static bool otf_grow(otf *o)
{
    uint64_t cap = o->cap ? o->cap * 2 : 4096;
    bool ok = pn_lazy_fits(o->z, otf_bytes(o, cap) - otf_bytes(o, o->cap)) &&
              otf_realloc((void **)&o->key, cap, 8) &&
              otf_realloc((void **)&o->dead, cap / 64 + 1, 8) &&
              otf_realloc((void **)&o->todo, cap, sizeof *o->todo) &&
              otf_realloc((void **)&o->root_id, cap, 8) &&
              otf_realloc((void **)&o->root_acc, cap * o->AW, 8) &&
              otf_realloc((void **)&o->active, cap, 8);
    uint64_t *slots = ok ? calloc(cap * 4, sizeof *slots) : NULL;
    if (slots == NULL) {
        pn_fail(o->err, PN_ERR_OUT_OF_MEMORY, "LTL: the product exceeds the memory budget");
        return false;
    }
    memset(o->dead + (o->cap ? o->cap / 64 + 1 : 0), 0,
           (cap / 64 + 1 - (o->cap ? o->cap / 64 + 1 : 0)) * 8);
    free(o->slots);
    o->slots = slots;
    o->slot_mask = cap * 2 - 1;
    for (uint64_t id = 0; id < o->count; id++) {
        uint64_t i = pn_mix64(o->key[id]) & o->slot_mask;
        while (o->slots[2 * i + 1] != 0)
            i = (i + 1) & o->slot_mask;
        o->slots[2 * i] = o->key[id];
        o->slots[2 * i + 1] = id + 1;
    }
    o->cap = cap;
    otf_declare(o);
    return true;
}

static uint64_t otf_find(const otf *o, uint64_t key, uint64_t *slot)
{
    uint64_t i = pn_mix64(key) & o->slot_mask;
    while (o->slots[2 * i + 1] != 0) {
        if (o->slots[2 * i] == key)
            return o->slots[2 * i + 1] - 1;
        i = (i + 1) & o->slot_mask;
    }
    *slot = i;
    return OTF_NONE;
}

static bool otf_dead(const otf *o, uint64_t id)
{
    return (o->dead[id / 64] >> (id % 64)) & 1;
}

/* A new product state: numbered, its own root, on the DFS stack. */
static bool otf_visit(otf *o, uint64_t key)
{
    if (o->count == o->cap && !otf_grow(o))
        return false;
    uint64_t slot = 0;
    otf_find(o, key, &slot);
    uint64_t id = o->count++;
    o->slots[2 * slot] = key;
    o->slots[2 * slot + 1] = id + 1;
    o->key[id] = key;
    memcpy(o->root_acc + o->n_roots * o->AW, o->accm + (key % o->Q) * o->AW, o->AW * 8);
    o->root_id[o->n_roots++] = id;
    o->active[o->n_active++] = id;
    o->todo[o->n_todo++] = (otf_frame){id, 0, 0};
    return true;
}

/* On a successor's first automaton edge: the product slots its edges
 * will probe, requested from memory at once rather than one miss after
 * another. */
static void otf_prefetch(const otf *o, uint32_t t, const uint32_t *bs, uint32_t n_q)
{
    for (uint32_t k = 0; k < n_q && k < 32; k++) {
        uint64_t key = (uint64_t)t * o->Q + bs[k];
        PN_PREFETCH(&o->slots[2 * (pn_mix64(key) & o->slot_mask)]);
    }
}

/* The next product successor of frame f: 1 and *next, 0 when none is
 * left, -1 on error (o->err). */
static int otf_next(otf *o, otf_frame *f, uint64_t *next)
{
    uint64_t key = o->key[f->id];
    uint32_t s = (uint32_t)(key / o->Q), q = (uint32_t)(key % o->Q);
    uint32_t n;
    if (pn_lazy_degree(o->z, s, &n, o->err) != PN_OK)
        return -1;
    const uint32_t *bs = o->b->succ + o->b->succ_off[q];
    uint32_t n_q = o->b->succ_off[q + 1] - o->b->succ_off[q];
    /* A deadlock stutters on states; on actions it ends a finite trace.
     * Each successor's state is made when the search first reaches it
     * (pn_lazy_succ_at): the search often leaves a state early. */
    for (uint32_t n_s = n || o->actions ? n : 1; f->e < n_s; f->e++, f->a = 0) {
        uint32_t t = s;
        if (n > 0 && (pn_lazy_succ_at(o->z, s, f->e, &t, o->err) != PN_OK ||
                      !otf_letter_room(o)))
            return -1;
        const uint32_t *trans = o->actions ? pn_lazy_succ_trans(o->z, s) : NULL;
        const uint64_t *l = o->actions ? o->tletter + (uint64_t)trans[f->e] * o->L
                                       : otf_letter(o, t);
        if (f->a == 0 && !o->actions)
            otf_prefetch(o, t, bs, n_q);
        while (f->a < n_q) {
            uint32_t r = bs[f->a++];
            if (otf_holds(o, l, r)) {
                *next = (uint64_t)t * o->Q + r;
                return 1;
            }
        }
    }
    return 0;
}

/* An edge to live state w closed a cycle: merge the roots above w. True
 * when the merged part meets every acceptance set. */
static bool otf_merge(otf *o, uint64_t w)
{
    uint32_t AW = o->AW;
    uint64_t *top;
    while (o->root_id[o->n_roots - 1] > w) {
        const uint64_t *acc = o->root_acc + --o->n_roots * AW;
        top = o->root_acc + (o->n_roots - 1) * AW;
        for (uint32_t k = 0; k < AW; k++)
            top[k] |= acc[k];
    }
    top = o->root_acc + (o->n_roots - 1) * AW;
    return memcmp(top, o->all, AW * 8) == 0;
}

/* Root v's part is a complete SCC without an accepting cycle: dead. */
static void otf_kill(otf *o, uint64_t v)
{
    uint64_t x;
    do {
        x = o->active[--o->n_active];
        o->dead[x / 64] |= 1ULL << (x % 64);
    } while (x != v);
}

/* From product state key0: 1 accepting cycle found, 0 none reachable,
 * -1 error (o->err), -2 time limit or cancelled. */
static int otf_search(otf *o, uint64_t key0)
{
    if (!otf_visit(o, key0))
        return -1;
    for (uint64_t steps = 1; o->n_todo > 0; steps++) {
        /* Often: a step that expands a net state over a reduced space can
         * take a millisecond (the stubborn-set closure). */
        if ((steps & 0x3f) == 0 && pn_budget_expired(o->budget))
            return -2;
        uint64_t next;
        int r = otf_next(o, &o->todo[o->n_todo - 1], &next);
        if (r < 0)
            return -1;
        if (r == 1) {
            uint64_t slot, w = otf_find(o, next, &slot);
            if (w == OTF_NONE && !otf_visit(o, next))
                return -1;
            if (w != OTF_NONE && !otf_dead(o, w) && otf_merge(o, w))
                return 1;
            continue;
        }
        uint64_t v = o->todo[--o->n_todo].id;
        if (o->root_id[o->n_roots - 1] == v) {
            o->n_roots--;
            otf_kill(o, v);
        }
    }
    return 0;
}

static int otf_nonempty(otf *o)
{
    if (!otf_grow(o) || !otf_letter_room(o))
        return -1;
    int r = 0;
    for (uint32_t q = 0; r == 0 && q < o->Q; q++) {
        uint64_t slot;
        if (o->b->init[q] && (o->actions || otf_holds(o, otf_letter(o, 0), q)) &&
            otf_find(o, q, &slot) == OTF_NONE)
            r = otf_search(o, q);
    }
    return r;
}

/* ---- the counterexample ---------------------------------------------- */

/* Breadth-first inside the accepting part (live, numbered from its root
 * on) from `from` to the first state that meets `want` (an acceptance
 * mask, AW words) or, when want is NULL, to `to`. Appends the path, from excluded, to
 * path; returns where it ended, OTF_NONE on failure. */
typedef struct otf_bfs {
    uint64_t *parent, *queue, *path, n_path;
    uint32_t *seen, epoch;
    uint64_t root;
} otf_bfs;

static bool otf_in_part(const otf *o, const otf_bfs *w, uint64_t id)
{
    return !otf_dead(o, id) && id >= w->root;
}

static bool otf_is_target(const otf *o, uint64_t id, const uint64_t *want, uint64_t to)
{
    if (want == NULL)
        return id == to;
    const uint64_t *acc = o->accm + (o->key[id] % o->Q) * o->AW;
    for (uint32_t k = 0; k < o->AW; k++)
        if (acc[k] & want[k])
            return true;
    return false;
}

static uint64_t otf_path_to(otf *o, otf_bfs *w, uint64_t from, const uint64_t *want,
                            uint64_t to)
{
    uint64_t head = 0, tail = 0, hit = OTF_NONE, last = OTF_NONE;
    w->epoch++;
    w->seen[from] = w->epoch;
    w->queue[tail++] = from;
    while (head < tail && hit == OTF_NONE) {
        uint64_t x = w->queue[head++], next, slot;
        otf_frame f = {x, 0, 0};
        int r = 0;
        while (hit == OTF_NONE && (r = otf_next(o, &f, &next)) == 1) {
            uint64_t y = otf_find(o, next, &slot);
            if (y == OTF_NONE || !otf_in_part(o, w, y))
                continue;
            if (otf_is_target(o, y, want, to)) {
                hit = y;
                last = x;
            } else if (w->seen[y] != w->epoch) {
                w->seen[y] = w->epoch;
                w->parent[y] = x;
                w->queue[tail++] = y;
            }
        }
        if (r < 0)
            return OTF_NONE;
    }
    if (hit == OTF_NONE)
        return OTF_NONE;
    uint64_t n = 1;
    for (uint64_t x = last; x != from; x = w->parent[x])
        n++;
    uint64_t k = w->n_path + n;
    w->path[--k] = hit;
    for (uint64_t x = last; x != from; x = w->parent[x])
        w->path[--k] = x;
    w->n_path += n;
    return hit;
}

/* The cycle through the root of the accepting part, as product states
 * root, ..., root in w->path. */
static bool otf_cycle(otf *o, otf_bfs *w, uint64_t *missing)
{
    uint64_t cur = w->root;
    w->path[w->n_path++] = cur;
    memcpy(missing, o->all, o->AW * 8);
    for (;;) {
        const uint64_t *acc = o->accm + (o->key[cur] % o->Q) * o->AW;
        bool any = false;
        for (uint32_t k = 0; k < o->AW; k++)
            any |= (missing[k] &= ~acc[k]) != 0;
        if (!any)
            break;
        if ((cur = otf_path_to(o, w, cur, missing, 0)) == OTF_NONE)
            return false;
    }
    return otf_path_to(o, w, cur, NULL, w->root) != OTF_NONE;
}

/* A transition from net state s to t whose letter the automaton state q
 * accepts (actions: two steps to t may carry different labels). */
static uint32_t otf_step_trans(otf *o, uint32_t s, uint32_t t, uint32_t q)
{
    if (!o->actions)
        return pn_lazy_trans(o->z, s, t);
    const uint32_t *succ, *trans = NULL;
    uint32_t n = 0;
    if (pn_lazy_succ(o->z, s, &succ, &n, o->err) == PN_OK)
        trans = pn_lazy_succ_trans(o->z, s);
    for (uint32_t e = 0; e < n; e++)
        if (succ[e] == t && otf_holds(o, o->tletter + (uint64_t)trans[e] * o->L, q))
            return trans[e];
    return UINT32_MAX;
}

static pn_status otf_lasso_trans(otf *o, const uint64_t *ids, uint64_t n_pre, uint64_t n_cyc,
                                 pn_ltl_lasso *l)
{
    uint64_t n = n_pre + n_cyc;
    l->trans = malloc((n + 1) * sizeof *l->trans);
    if (l->trans == NULL)
        return pn_fail(o->err, PN_ERR_NOMEM, "LTL: out of memory for the counterexample");
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++) { /* ids[n_pre] is the root, ids[n] the root again */
        uint64_t next = o->key[ids[i + 1]];
        uint32_t s = (uint32_t)(o->key[ids[i]] / o->Q), t = (uint32_t)(next / o->Q);
        l->trans[k++] = otf_step_trans(o, s, t, (uint32_t)(next % o->Q));
    }
    l->prefix = n_pre;
    l->cycle = n_cyc;
    return PN_OK;
}

/* After otf_search found an accepting merge: prefix = the DFS stack down
 * to the top root, cycle = a closed walk through the root's part that
 * meets every acceptance set. */
static pn_status otf_lasso(otf *o, pn_ltl_lasso *l)
{
    otf_bfs w = {.root = o->root_id[o->n_roots - 1]};
    uint64_t pre = 0;
    while (o->todo[pre].id != w.root)
        pre++;
    w.parent = malloc((o->count + 1) * sizeof *w.parent);
    w.queue = malloc((o->count + 1) * sizeof *w.queue);
    w.path = malloc((o->count * (o->b->n_acc + 2ULL) + pre + 2) * sizeof *w.path);
    w.seen = calloc(o->count + 1, sizeof *w.seen);
    uint64_t *missing = malloc(o->AW * sizeof *missing);
    pn_status st = w.parent && w.queue && w.path && w.seen && missing
                       ? PN_OK : pn_fail(o->err, PN_ERR_NOMEM, "LTL: out of memory for the "
                                                                "counterexample");
    for (uint64_t i = 0; st == PN_OK && i < pre; i++)
        w.path[w.n_path++] = o->todo[i].id;
    if (st == PN_OK && !otf_cycle(o, &w, missing))
        st = o->err->code != PN_OK ? o->err->code
                                   : pn_fail(o->err, PN_ERR_INTERNAL, "LTL: no lasso found");
    if (st == PN_OK)
        st = otf_lasso_trans(o, w.path, pre, w.n_path - pre - 1, l);
    free(w.parent);
    free(w.queue);
    free(w.path);
    free(w.seen);
    free(missing);
    return st;
}

/* ---- entry points ---------------------------------------------------- */

static void otf_free(otf *o)
{
    pn_space_atoms_free(o->atoms);
    free(o->letter);
    free(o->tletter);
    free(o->lmask);
    free(o->lval);
    free(o->accm);
    free(o->all);
    free(o->key);
    free(o->dead);
    free(o->slots);
    free(o->todo);
    free(o->root_id);
    free(o->root_acc);
    free(o->active);
    pn_lazy_set_other(o->z, 0);
}

static pn_status otf_run(otf *o, bool *value, pn_ltl_lasso *lasso)
{
    int r = otf_nonempty(o);
    if (r == -2)
        return pn_budget_fail(o->budget, o->err, "LTL");
    if (r < 0)
        return o->err->code;
    *value = r == 0;
    if (r == 1 && lasso != NULL && otf_lasso(o, lasso) != PN_OK) {
        pn_ltl_lasso_free(lasso); /* the verdict stands without its counterexample */
        pn_error_clear(o->err);
    }
    return PN_OK;
}

static void otf_stats(const ltl_buchi *raw, const ltl_buchi *b, const ltl_formula *f,
                      uint64_t product, pn_ltl_stats *stats)
{
    if (stats == NULL)
        return;
    memset(stats, 0, sizeof *stats);
    stats->atoms = f->n_atoms;
    stats->product_states = product;
    if (raw != NULL) {
        stats->raw_states = raw->n_states;
        stats->raw_edges = raw->succ_off[raw->n_states];
    }
    if (b != NULL) {
        stats->automaton_states = b->n_states;
        stats->automaton_edges = b->succ_off[b->n_states];
        stats->acceptance_sets = b->n_acc;
    }
}

pn_status ltl_negation_automaton(const pn_fml_node *phi, uint32_t max_states,
                                 const pn_budget *budget, ltl_formula *f, ltl_buchi **raw,
                                 ltl_buchi **b, pn_error *err)
{
    memset(f, 0, sizeof *f);
    *raw = *b = NULL;
    if (phi->kind != PN_FML_A)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "LTL formula not of the form A(path formula)");
    pn_status st = ltl_from_fml(phi->kids[0], true, f, err);
    if (st == PN_OK)
        st = ltl_buchi_build(f, max_states, budget, raw, err);
    if (st == PN_OK)
        st = ltl_buchi_reduce(*raw, b, err);
    return st;
}

static pn_status otf_check(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                           bool actions, bool *value, pn_ltl_stats *stats,
                           pn_ltl_lasso *lasso, pn_error *err)
{
    if (lasso != NULL)
        memset(lasso, 0, sizeof *lasso);
    ltl_formula f;
    ltl_buchi *raw = NULL, *b = NULL;
    pn_status st = ltl_negation_automaton(phi, OTF_MAX_AUTOMATON, budget, &f, &raw, &b, err);
    if (st == PN_OK && actions) {
        ltl_buchi *started = NULL;
        st = ltl_buchi_with_start(b, &started, err);
        ltl_buchi_free(b);
        b = started;
    }
    if (st == PN_OK && actions && !pn_lazy_keeps_trans(z))
        st = pn_fail(err, PN_ERR_INTERNAL, "action-based LTL over a space without "
                                           "pn_lazy_keep_trans");
    otf o = {.z = z, .b = b, .budget = budget, .err = err, .actions = actions};
    if (st == PN_OK) {
        o.Q = b->n_states;
        if ((st = otf_atoms(&o, &f)) == PN_OK && (st = otf_automaton(&o)) == PN_OK)
            st = otf_run(&o, value, lasso);
    }
    otf_stats(raw, b, &f, o.count, stats);
    otf_free(&o);
    ltl_buchi_free(b);
    ltl_buchi_free(raw);
    ltl_formula_free(&f);
    return st;
}

pn_status pn_ltl_check_otf(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                           bool *value, pn_ltl_stats *stats,
                           pn_ltl_lasso *lasso, pn_error *err)
{
    return otf_check(z, phi, budget, false, value, stats, lasso, err);
}

pn_status pn_ltl_check_actions(pn_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                               bool *value, pn_ltl_stats *stats, pn_ltl_lasso *lasso,
                               pn_error *err)
{
    return otf_check(z, phi, budget, true, value, stats, lasso, err);
}

void pn_ltl_lasso_free(pn_ltl_lasso *l)
{
    if (l == NULL)
        return;
    free(l->trans);
    memset(l, 0, sizeof *l);
}

pn_status pn_ltl_check(pn_ctl_model *m, const pn_fml_node *phi, bool *value,
                       pn_ltl_stats *stats, pn_error *err)
{
    pn_lazy *z = NULL;
    pn_status st = pn_lazy_new(m->cn, pn_budget_memory(m->budget), &z, err);
    if (st == PN_OK)
        st = pn_ltl_check_otf(z, phi, m->budget, value, stats, NULL, err);
    pn_lazy_free(z);
    return st;
}

bool pn_ltl_por_applies(const pn_fml_node *phi)
{
    return phi->kind == PN_FML_A && pn_stubborn_ltl_supported(phi->kids[0]);
}

pn_status pn_ltl_por_lazy_new(const pn_cnet *cn, const pn_fml_node *phi, uint64_t memory_budget,
                              pn_lazy **out, pn_error *err)
{
    *out = NULL;
    if (!pn_ltl_por_applies(phi))
        return pn_fail(err, PN_ERR_UNSUPPORTED, "LTL: no partial-order reduction for this formula");
    pn_space *pt = NULL, *sp = NULL;
    bool proviso = true;
    pn_status st = pn_space_pt_new(cn, &pt, err);
    if (st == PN_OK)
        st = pn_stubborn_ltl_new(cn, pt, phi->kids[0], &sp, &proviso, err);
    if (st == PN_OK)
        st = pn_lazy_new_space(sp, memory_budget, out, err);
    if (st == PN_OK && proviso)
        pn_lazy_cycle_proviso(*out);
    return st;
}
