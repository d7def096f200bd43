/* The on-the-fly LTL check (ltl.h): the product of the generalised Büchi
 * automaton of !psi with the net's states (ltl_lazy.c), generated while it
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
 * Acceptance is on automaton states: at most 64 sets (a bit mask each) and
 * at most 63 atoms (a net state's letter is one word, bit 63 = known). */
#include <stdlib.h>
#include <string.h>

#include "logic/ltl_otf.h"
#include "formula/sformula.h"

#define OTF_MAX_AUTOMATON 4096
#define OTF_NONE UINT64_MAX
#define OTF_KNOWN (1ULL << 63)

typedef struct otf_frame {
    uint64_t id;      /* product state */
    uint32_t e, a;    /* cursors: net successor, automaton successor */
} otf_frame;

typedef struct otf_root {
    uint64_t id, acc;
} otf_root;

typedef struct otf {
    pn_ltl_lazy *z;
    const ltl_buchi *b;
    uint64_t Q;
    uint64_t *lmask, *lval, *accm, all; /* per automaton state */
    pn_sformula_owned **sf;
    uint32_t n_atoms;
    bool need_enabled;       /* some atom reads "deadlock" */
    uint64_t *mk;            /* one marking, all zero between uses */
    uint32_t *nz;            /* its marked places */
    uint64_t *letter, letter_cap; /* per net state */
    /* Product states are numbered in visiting order, so a state's number
     * is also its DFS number in Couvreur's algorithm. */
    uint64_t *key;           /* per product state: s * Q + q */
    uint64_t *dead;          /* bit per product state: its SCC is done */
    uint64_t count, cap;
    uint64_t *slots, slot_mask; /* pairs (key, id + 1): one cache miss per probe */
    otf_frame *todo;
    otf_root *roots;
    uint64_t *active;
    uint64_t n_todo, n_roots, n_active;
    const pn_budget *budget; /* deadline and cancel; memory is the lazy space's */
    pn_error *err;
} otf;

/* ---- automaton and letters ------------------------------------------- */

static pn_status otf_automaton(otf *o)
{
    const ltl_buchi *b = o->b;
    if (b->n_acc > 64 || o->n_atoms > 63)
        return pn_fail(o->err, PN_ERR_UNSUPPORTED, "LTL: too many atoms or acceptance sets");
    o->lmask = calloc(o->Q + 1, sizeof *o->lmask);
    o->lval = calloc(o->Q + 1, sizeof *o->lval);
    o->accm = calloc(o->Q + 1, sizeof *o->accm);
    if (o->lmask == NULL || o->lval == NULL || o->accm == NULL)
        return pn_fail(o->err, PN_ERR_NOMEM, "LTL: out of memory");
    o->all = b->n_acc == 64 ? ~0ULL : (1ULL << b->n_acc) - 1;
    for (uint32_t q = 0; q < o->Q; q++) {
        for (uint32_t k = b->lit_off[q]; k < b->lit_off[q + 1]; k++) {
            uint64_t bit = 1ULL << b->lit[k].atom;
            if ((o->lmask[q] & bit) && ((o->lval[q] & bit) != 0) != b->lit[k].positive)
                o->lval[q] = ~0ULL; /* p and !p: never holds (bit 63 is not in lmask) */
            o->lmask[q] |= bit;
            if (b->lit[k].positive && o->lval[q] != ~0ULL)
                o->lval[q] |= bit;
        }
        for (uint32_t a = 0; a < b->n_acc; a++)
            if (b->acc[q * b->n_acc + a])
                o->accm[q] |= 1ULL << a;
    }
    return PN_OK;
}

static bool otf_uses_deadlock(const pn_sformula *f)
{
    for (uint32_t i = 0; i < f->len; i++)
        if (f->code[i].op == PN_SF_DEADLOCK)
            return true;
    return false;
}

static pn_status otf_atoms(otf *o, const ltl_formula *f)
{
    o->n_atoms = f->n_atoms;
    o->sf = calloc((size_t)f->n_atoms + 1, sizeof *o->sf);
    uint32_t P = ltl_lazy_prog(o->z)->n_places;
    o->mk = calloc((size_t)P + 1, sizeof *o->mk);
    o->nz = malloc(((size_t)P + 1) * sizeof *o->nz);
    if (o->sf == NULL || o->mk == NULL || o->nz == NULL)
        return pn_fail(o->err, PN_ERR_NOMEM, "LTL: out of memory");
    for (uint32_t a = 0; a < f->n_atoms; a++) {
        if (pn_sformula_compile(f->atoms[a], &o->sf[a], o->err) != PN_OK)
            return o->err->code;
        o->need_enabled |= otf_uses_deadlock(&o->sf[a]->f);
    }
    return PN_OK;
}

/* Bytes of cap product states: key, dead bit, todo, roots, active, two
 * slots of two words. */
static uint64_t otf_bytes(uint64_t cap)
{
    return cap * (8 + sizeof(otf_frame) + sizeof(otf_root) + 8 + 4 * 8) + cap / 8;
}

/* Letters for every net state discovered so far (computed lazily). */
static bool otf_letter_room(otf *o)
{
    uint64_t n = ltl_lazy_count(o->z);
    if (n <= o->letter_cap)
        return true;
    uint64_t cap = o->letter_cap * 2 > n ? o->letter_cap * 2 : n;
    uint64_t *l = ltl_lazy_fits(o->z, (cap - o->letter_cap) * 8)
                      ? realloc(o->letter, cap * sizeof *l) : NULL;
    if (l == NULL) {
        pn_fail(o->err, PN_ERR_OUT_OF_MEMORY, "LTL: the product exceeds the memory budget");
        return false;
    }
    memset(l + o->letter_cap, 0, (cap - o->letter_cap) * sizeof *l);
    o->letter = l;
    o->letter_cap = cap;
    ltl_lazy_set_other(o->z, otf_bytes(o->cap) + o->letter_cap * 8);
    return true;
}

static uint64_t otf_letter(otf *o, uint32_t s)
{
    if (o->letter[s] & OTF_KNOWN)
        return o->letter[s];
    /* Markings are sparse: unpack and clear only the marked places. */
    uint32_t n = ltl_lazy_marking_sparse(o->z, s, o->mk, o->nz);
    uint32_t en = o->need_enabled ? ltl_lazy_enabled(o->z, s) : 0;
    uint64_t l = OTF_KNOWN;
    for (uint32_t a = 0; a < o->n_atoms; a++)
        if (pn_sf_eval(&o->sf[a]->f, ltl_lazy_prog(o->z), o->mk, en, NULL))
            l |= 1ULL << a;
    for (uint32_t k = 0; k < n; k++)
        o->mk[o->nz[k]] = 0;
    return o->letter[s] = l;
}

static bool otf_holds(const otf *o, uint64_t letter, uint64_t q)
{
    return (letter & o->lmask[q]) == o->lval[q];
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
    bool ok = ltl_lazy_fits(o->z, otf_bytes(cap) - otf_bytes(o->cap)) &&
              otf_realloc((void **)&o->key, cap, 8) &&
              otf_realloc((void **)&o->dead, cap / 64 + 1, 8) &&
              otf_realloc((void **)&o->todo, cap, sizeof *o->todo) &&
              otf_realloc((void **)&o->roots, cap, sizeof *o->roots) &&
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
    ltl_lazy_set_other(o->z, otf_bytes(cap) + o->letter_cap * 8);
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
    o->roots[o->n_roots++] = (otf_root){id, o->accm[key % o->Q]};
    o->active[o->n_active++] = id;
    o->todo[o->n_todo++] = (otf_frame){id, 0, 0};
    return true;
}

/* On a frame's first step: the letters and product slots that its
 * successors will need, requested from memory at once rather than one
 * miss after another (most successors of a state are already known). */
static void otf_prefetch(const otf *o, const uint32_t *succ, uint32_t n, const uint32_t *bs,
                         uint32_t n_q)
{
    uint32_t budget = 32;
    for (uint32_t e = 0; e < n && budget > 0; e++) {
        PN_PREFETCH(&o->letter[succ[e]]);
        for (uint32_t k = 0; k < n_q && budget > 0; k++, budget--) {
            uint64_t key = (uint64_t)succ[e] * o->Q + bs[k];
            PN_PREFETCH(&o->slots[2 * (pn_mix64(key) & o->slot_mask)]);
        }
    }
}

/* The next product successor of frame f: 1 and *next, 0 when none is
 * left, -1 on error (o->err). */
static int otf_next(otf *o, otf_frame *f, uint64_t *next)
{
    uint64_t key = o->key[f->id];
    uint32_t s = (uint32_t)(key / o->Q), q = (uint32_t)(key % o->Q);
    const uint32_t *succ;
    uint32_t n;
    if (ltl_lazy_succ(o->z, s, &succ, &n, o->err) != PN_OK || !otf_letter_room(o))
        return -1;
    const uint32_t *bs = o->b->succ + o->b->succ_off[q];
    uint32_t n_q = o->b->succ_off[q + 1] - o->b->succ_off[q];
    if (f->e == 0 && f->a == 0)
        otf_prefetch(o, succ, n, bs, n_q);
    for (uint32_t n_s = n ? n : 1; f->e < n_s; f->e++, f->a = 0) {
        uint32_t t = n ? succ[f->e] : s;
        uint64_t l = otf_letter(o, t);
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
    uint64_t acc = 0;
    while (o->roots[o->n_roots - 1].id > w)
        acc |= o->roots[--o->n_roots].acc;
    o->roots[o->n_roots - 1].acc |= acc;
    return o->roots[o->n_roots - 1].acc == o->all;
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
        if ((steps & 0xfff) == 0 && pn_budget_expired(o->budget))
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
        if (o->roots[o->n_roots - 1].id == v) {
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
    uint64_t l0 = otf_letter(o, 0);
    int r = 0;
    for (uint32_t q = 0; r == 0 && q < o->Q; q++) {
        uint64_t slot;
        if (o->b->init[q] && otf_holds(o, l0, q) && otf_find(o, q, &slot) == OTF_NONE)
            r = otf_search(o, q);
    }
    return r;
}

/* ---- the counterexample ---------------------------------------------- */

/* Breadth-first inside the accepting part (live, numbered from its root
 * on) from `from` to the first state that meets `want` (an acceptance
 * mask) or, when want is 0, to `to`. Appends the path, from excluded, to
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

static bool otf_is_target(const otf *o, uint64_t id, uint64_t want, uint64_t to)
{
    return want ? (o->accm[o->key[id] % o->Q] & want) != 0 : id == to;
}

static uint64_t otf_path_to(otf *o, otf_bfs *w, uint64_t from, uint64_t want, uint64_t to)
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
static bool otf_cycle(otf *o, otf_bfs *w)
{
    uint64_t cur = w->root;
    uint64_t missing = o->all & ~o->accm[o->key[cur] % o->Q];
    w->path[w->n_path++] = cur;
    while (missing != 0) {
        cur = otf_path_to(o, w, cur, missing, 0);
        if (cur == OTF_NONE)
            return false;
        missing &= ~o->accm[o->key[cur] % o->Q];
    }
    return otf_path_to(o, w, cur, 0, w->root) != OTF_NONE;
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
        uint32_t s = (uint32_t)(o->key[ids[i]] / o->Q), t = (uint32_t)(o->key[ids[i + 1]] / o->Q);
        l->trans[k++] = ltl_lazy_trans(o->z, s, t);
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
    otf_bfs w = {.root = o->roots[o->n_roots - 1].id};
    uint64_t pre = 0;
    while (o->todo[pre].id != w.root)
        pre++;
    w.parent = malloc((o->count + 1) * sizeof *w.parent);
    w.queue = malloc((o->count + 1) * sizeof *w.queue);
    w.path = malloc((o->count * (o->b->n_acc + 2ULL) + pre + 2) * sizeof *w.path);
    w.seen = calloc(o->count + 1, sizeof *w.seen);
    pn_status st = w.parent && w.queue && w.path && w.seen
                       ? PN_OK : pn_fail(o->err, PN_ERR_NOMEM, "LTL: out of memory for the "
                                                                "counterexample");
    for (uint64_t i = 0; st == PN_OK && i < pre; i++)
        w.path[w.n_path++] = o->todo[i].id;
    if (st == PN_OK && !otf_cycle(o, &w))
        st = o->err->code != PN_OK ? o->err->code
                                   : pn_fail(o->err, PN_ERR_INTERNAL, "LTL: no lasso found");
    if (st == PN_OK)
        st = otf_lasso_trans(o, w.path, pre, w.n_path - pre - 1, l);
    free(w.parent);
    free(w.queue);
    free(w.path);
    free(w.seen);
    return st;
}

/* ---- entry points ---------------------------------------------------- */

static void otf_free(otf *o)
{
    for (uint32_t a = 0; o->sf != NULL && a < o->n_atoms; a++)
        pn_sformula_free(o->sf[a]);
    free(o->sf);
    free(o->mk);
    free(o->nz);
    free(o->letter);
    free(o->lmask);
    free(o->lval);
    free(o->accm);
    free(o->key);
    free(o->dead);
    free(o->slots);
    free(o->todo);
    free(o->roots);
    free(o->active);
    ltl_lazy_set_other(o->z, 0);
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

pn_status pn_ltl_check_otf(pn_ltl_lazy *z, const pn_fml_node *phi, const pn_budget *budget,
                           bool *value, pn_ltl_stats *stats,
                           pn_ltl_lasso *lasso, pn_error *err)
{
    if (lasso != NULL)
        memset(lasso, 0, sizeof *lasso);
    if (phi->kind != PN_FML_A)
        return pn_fail(err, PN_ERR_UNSUPPORTED, "LTL formula not of the form A(path formula)");
    ltl_formula f;
    if (ltl_from_fml(phi->kids[0], true, &f, err) != PN_OK)
        return err->code;
    ltl_buchi *raw = NULL, *b = NULL;
    pn_status st = ltl_buchi_build(&f, OTF_MAX_AUTOMATON, &raw, err);
    if (st == PN_OK)
        st = ltl_buchi_reduce(raw, &b, err);
    otf o = {.z = z, .b = b, .budget = budget, .err = err};
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

void pn_ltl_lasso_free(pn_ltl_lasso *l)
{
    if (l == NULL)
        return;
    free(l->trans);
    memset(l, 0, sizeof *l);
}
