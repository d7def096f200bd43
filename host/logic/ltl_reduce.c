/* Language-preserving reductions of the generalised Büchi automata of
 * ltl_gba.c, applied before the on-the-fly product (ltl.c), whose cost
 * grows with the automaton states that a net state pairs with:
 *   1. states whose label needs p and !p can never be entered: dropped;
 *   2. states not reachable from an initial state: dropped;
 *   3. states from which no accepting cycle (a non-trivial SCC meeting
 *      every acceptance set) is reachable accept no run: dropped;
 *   4. the quotient by the coarsest bisimulation that respects labels and
 *      acceptance (naive partition refinement: classes split by the set of
 *      classes their successors fall in, until stable). Every run of the
 *      quotient lifts to a run of the automaton with the same labels and
 *      acceptance (all members of a class have successors in the same
 *      classes), and conversely, so the language is unchanged.
 * Labels are compared as sets of literals, exactly (no implication). */
#include <stdlib.h>
#include <string.h>

#include "logic/ltl_otf.h"

typedef struct red {
    const ltl_buchi *b;
    uint32_t Q;
    uint8_t *keep;
    uint32_t *cls, *ncls;   /* class per state: current, next round */
    uint32_t *tmp;          /* scratch: a successor class list */
} red;

static bool red_contradictory(const ltl_buchi *b, uint32_t q)
{
    for (uint32_t i = b->lit_off[q]; i < b->lit_off[q + 1]; i++)
        for (uint32_t j = i + 1; j < b->lit_off[q + 1]; j++)
            if (b->lit[i].atom == b->lit[j].atom && b->lit[i].positive != b->lit[j].positive)
                return true;
    return false;
}

/* Forward reachability over kept states from the initial ones. */
static void red_reachable(red *r, uint32_t *queue, uint8_t *seen)
{
    const ltl_buchi *b = r->b;
    uint32_t head = 0, tail = 0;
    memset(seen, 0, r->Q);
    for (uint32_t q = 0; q < r->Q; q++)
        if (b->init[q] && r->keep[q]) {
            seen[q] = 1;
            queue[tail++] = q;
        }
    while (head < tail) {
        uint32_t q = queue[head++];
        for (uint32_t k = b->succ_off[q]; k < b->succ_off[q + 1]; k++) {
            uint32_t x = b->succ[k];
            if (r->keep[x] && !seen[x]) {
                seen[x] = 1;
                queue[tail++] = x;
            }
        }
    }
    for (uint32_t q = 0; q < r->Q; q++)
        r->keep[q] &= seen[q];
}

typedef struct red_tarjan {
    uint32_t *index, *low, *stack, *fq, *fk;
    uint8_t *on;
    uint32_t sp, fp, next;
} red_tarjan;

/* Marks the members of the SCC rooted at v as accepting (good[]) when it
 * is non-trivial and meets every acceptance set. */
static void red_pop_scc(red *r, red_tarjan *t, uint32_t v, uint8_t *good, uint8_t *hit)
{
    const ltl_buchi *b = r->b;
    uint32_t start = t->sp, met = 0;
    do
        start--;
    while (t->stack[start] != v);
    memset(hit, 0, b->n_acc + 1);
    bool loop = t->sp - start > 1;
    for (uint32_t k = b->succ_off[v]; k < b->succ_off[v + 1]; k++)
        loop |= b->succ[k] == v;
    for (uint32_t i = start; i < t->sp; i++) {
        uint32_t x = t->stack[i];
        t->on[x] = 0;
        for (uint32_t a = 0; a < b->n_acc; a++)
            if (!hit[a] && b->acc[x * b->n_acc + a]) {
                hit[a] = 1;
                met++;
            }
    }
    for (uint32_t i = start; i < t->sp; i++)
        good[t->stack[i]] = loop && met == b->n_acc;
    t->sp = start;
}

static void red_push(red_tarjan *t, uint32_t q)
{
    t->index[q] = t->low[q] = ++t->next;
    t->on[q] = 1;
    t->stack[t->sp++] = q;
    t->fq[t->fp] = q;
    t->fk[t->fp++] = 0;
}

/* Iterative Tarjan over the kept states from root. */
static void red_scc_from(red *r, red_tarjan *t, uint32_t root, uint8_t *good, uint8_t *hit)
{
    const ltl_buchi *b = r->b;
    red_push(t, root);
    while (t->fp > 0) {
        uint32_t v = t->fq[t->fp - 1];
        uint32_t k = b->succ_off[v] + t->fk[t->fp - 1];
        if (k < b->succ_off[v + 1]) {
            t->fk[t->fp - 1]++;
            uint32_t w = b->succ[k];
            if (!r->keep[w])
                continue;
            if (t->index[w] == 0)
                red_push(t, w);
            else if (t->on[w] && t->index[w] < t->low[v])
                t->low[v] = t->index[w];
            continue;
        }
        t->fp--;
        if (t->fp > 0 && t->low[v] < t->low[t->fq[t->fp - 1]])
            t->low[t->fq[t->fp - 1]] = t->low[v];
        if (t->low[v] == t->index[v])
            red_pop_scc(r, t, v, good, hit);
    }
}

/* Keeps the states that reach an accepting SCC (backward from them). */
static void red_useful(red *r, uint8_t *good)
{
    const ltl_buchi *b = r->b;
    bool changed = true;
    /* Backward closure by sweeps: automata are small (at most a few
     * thousand states), and this needs no predecessor lists. */
    while (changed) {
        changed = false;
        for (uint32_t q = 0; q < r->Q; q++) {
            if (!r->keep[q] || good[q])
                continue;
            for (uint32_t k = b->succ_off[q]; k < b->succ_off[q + 1] && !good[q]; k++)
                if (r->keep[b->succ[k]] && good[b->succ[k]])
                    good[q] = changed = true;
        }
    }
    for (uint32_t q = 0; q < r->Q; q++)
        r->keep[q] &= good[q];
}

static bool red_prune(red *r)
{
    uint32_t Q = r->Q;
    red_tarjan t = {0};
    uint32_t *buf = calloc((size_t)Q * 6 + 1, sizeof *buf);
    uint8_t *bytes = calloc((size_t)Q * 2 + r->b->n_acc + 2, 1);
    if (buf == NULL || bytes == NULL) {
        free(buf);
        free(bytes);
        return false;
    }
    t.index = buf;
    t.low = buf + Q;
    t.stack = buf + 2 * Q;
    t.fq = buf + 3 * Q;
    t.fk = buf + 4 * Q;
    t.on = bytes;
    uint8_t *good = bytes + Q, *hit = bytes + 2 * Q;
    for (uint32_t q = 0; q < Q; q++)
        r->keep[q] = !red_contradictory(r->b, q);
    red_reachable(r, buf + 5 * Q, t.on);
    memset(t.on, 0, Q);
    for (uint32_t q = 0; q < Q; q++)
        if (r->keep[q] && t.index[q] == 0)
            red_scc_from(r, &t, q, good, hit);
    red_useful(r, good);
    free(buf);
    free(bytes);
    return true;
}

/* ---- bisimulation ---------------------------------------------------- */

static int red_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The sorted, duplicate-free classes of q's kept successors in r->tmp;
 * returns how many. */
static uint32_t red_succ_classes(red *r, uint32_t q)
{
    const ltl_buchi *b = r->b;
    uint32_t n = 0;
    for (uint32_t k = b->succ_off[q]; k < b->succ_off[q + 1]; k++)
        if (r->keep[b->succ[k]])
            r->tmp[n++] = r->cls[b->succ[k]];
    qsort(r->tmp, n, sizeof *r->tmp, red_cmp_u32);
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++)
        if (m == 0 || r->tmp[m - 1] != r->tmp[i])
            r->tmp[m++] = r->tmp[i];
    return m;
}

static bool red_same_label(const ltl_buchi *b, uint32_t p, uint32_t q)
{
    if (memcmp(b->acc + (size_t)p * b->n_acc, b->acc + (size_t)q * b->n_acc, b->n_acc) != 0)
        return false;
    uint32_t np = b->lit_off[p + 1] - b->lit_off[p], nq = b->lit_off[q + 1] - b->lit_off[q];
    if (np != nq)
        return false;
    for (uint32_t i = b->lit_off[p]; i < b->lit_off[p + 1]; i++) {
        bool found = false;
        for (uint32_t j = b->lit_off[q]; j < b->lit_off[q + 1] && !found; j++)
            found = b->lit[i].atom == b->lit[j].atom && b->lit[i].positive == b->lit[j].positive;
        if (!found)
            return false;
    }
    return true;
}

/* q (successor classes sq, nq of them) and rep: in the same class now and
 * with successors in the same classes. */
static bool red_same_sig(red *r, uint32_t rep, uint32_t q, const uint32_t *sq, uint32_t nq)
{
    if (r->cls[rep] != r->cls[q])
        return false;
    uint32_t n = red_succ_classes(r, rep);
    return n == nq && memcmp(sq, r->tmp, nq * sizeof *sq) == 0;
}

/* One refinement round; returns the number of classes. reps: one state
 * per class of the new partition. */
static uint32_t red_refine(red *r, uint32_t *reps, uint32_t *sig)
{
    uint32_t n = 0;
    for (uint32_t q = 0; q < r->Q; q++) {
        if (!r->keep[q])
            continue;
        uint32_t np = red_succ_classes(r, q);
        memcpy(sig, r->tmp, np * sizeof *sig);
        uint32_t c = 0;
        while (c < n && !red_same_sig(r, reps[c], q, sig, np))
            c++;
        if (c == n)
            reps[n++] = q;
        r->ncls[q] = c;
    }
    memcpy(r->cls, r->ncls, r->Q * sizeof *r->cls);
    return n;
}

/* Initial partition by label and acceptance. */
static uint32_t red_initial(red *r, uint32_t *reps)
{
    uint32_t n = 0;
    for (uint32_t q = 0; q < r->Q; q++) {
        if (!r->keep[q])
            continue;
        uint32_t c = 0;
        while (c < n && !red_same_label(r->b, reps[c], q))
            c++;
        if (c == n)
            reps[n++] = q;
        r->cls[q] = c;
    }
    return n;
}

/* ---- the quotient automaton ------------------------------------------ */

static pn_status red_alloc(ltl_buchi *o, uint32_t n, uint32_t n_acc, uint32_t edges,
                           uint32_t lits, pn_error *err)
{
    o->n_states = n;
    o->n_acc = n_acc;
    o->succ_off = calloc((size_t)n + 1, sizeof *o->succ_off);
    o->succ = malloc(((size_t)edges + 1) * sizeof *o->succ);
    o->lit_off = calloc((size_t)n + 1, sizeof *o->lit_off);
    o->lit = malloc(((size_t)lits + 1) * sizeof *o->lit);
    o->init = calloc((size_t)n + 1, 1);
    o->acc = calloc((size_t)n * n_acc + 1, 1);
    if (!o->succ_off || !o->succ || !o->lit_off || !o->lit || !o->init || !o->acc)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory reducing the automaton");
    return PN_OK;
}

static pn_status red_quotient(red *r, const uint32_t *reps, uint32_t n, ltl_buchi *o,
                              pn_error *err)
{
    const ltl_buchi *b = r->b;
    uint32_t edges = 0, lits = 0;
    for (uint32_t c = 0; c < n; c++) {
        edges += red_succ_classes(r, reps[c]);
        lits += b->lit_off[reps[c] + 1] - b->lit_off[reps[c]];
    }
    if (red_alloc(o, n, b->n_acc, edges, lits, err) != PN_OK)
        return err->code;
    for (uint32_t c = 0; c < n; c++) {
        uint32_t q = reps[c], m = red_succ_classes(r, q);
        memcpy(o->succ + o->succ_off[c], r->tmp, m * sizeof *r->tmp);
        o->succ_off[c + 1] = o->succ_off[c] + m;
        uint32_t l = b->lit_off[q + 1] - b->lit_off[q];
        memcpy(o->lit + o->lit_off[c], b->lit + b->lit_off[q], l * sizeof *o->lit);
        o->lit_off[c + 1] = o->lit_off[c] + l;
        memcpy(o->acc + (size_t)c * b->n_acc, b->acc + (size_t)q * b->n_acc, b->n_acc);
    }
    for (uint32_t q = 0; q < r->Q; q++)
        if (r->keep[q] && b->init[q])
            o->init[r->cls[q]] = 1;
    return PN_OK;
}

static pn_status red_run(red *r, ltl_buchi *o, pn_error *err)
{
    uint32_t Q = r->Q;
    uint32_t *reps = malloc(((size_t)Q + 1) * sizeof *reps);
    uint32_t *sig = malloc(((size_t)r->b->succ_off[Q] + 1) * sizeof *sig);
    r->tmp = malloc(((size_t)r->b->succ_off[Q] + 1) * sizeof *r->tmp);
    pn_status st = reps && sig && r->tmp && red_prune(r)
                       ? PN_OK : pn_fail(err, PN_ERR_NOMEM, "out of memory reducing the "
                                                            "automaton");
    if (st == PN_OK) {
        uint32_t n = red_initial(r, reps), prev = 0;
        while (n != prev) { /* a round never merges classes: stable when the count is */
            prev = n;
            n = red_refine(r, reps, sig);
        }
        st = red_quotient(r, reps, n, o, err);
    }
    free(reps);
    free(sig);
    free(r->tmp);
    return st;
}

pn_status ltl_buchi_reduce(const ltl_buchi *b, ltl_buchi **out, pn_error *err)
{
    *out = NULL;
    red r = {.b = b, .Q = b->n_states};
    r.keep = calloc((size_t)r.Q + 1, 1);
    r.cls = calloc((size_t)r.Q + 1, sizeof *r.cls);
    r.ncls = calloc((size_t)r.Q + 1, sizeof *r.ncls);
    ltl_buchi *o = calloc(1, sizeof *o);
    pn_status st = r.keep && r.cls && r.ncls && o
                       ? red_run(&r, o, err)
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory reducing the automaton");
    free(r.keep);
    free(r.cls);
    free(r.ncls);
    if (st != PN_OK) {
        ltl_buchi_free(o);
        return st;
    }
    *out = o;
    return PN_OK;
}

/* ---- a start state for action-based letters ---------------------------- */

pn_status ltl_buchi_with_start(const ltl_buchi *b, ltl_buchi **out, pn_error *err)
{
    *out = NULL;
    uint32_t n = b->n_states, n_init = 0;
    for (uint32_t q = 0; q < n; q++)
        n_init += b->init[q];
    ltl_buchi *o = calloc(1, sizeof *o);
    if (o == NULL || red_alloc(o, n + 1, b->n_acc, b->succ_off[n] + n_init, b->lit_off[n],
                               err) != PN_OK) {
        ltl_buchi_free(o);
        return o == NULL ? pn_fail(err, PN_ERR_NOMEM, "out of memory for the automaton")
                         : err->code;
    }
    memcpy(o->succ_off, b->succ_off, ((size_t)n + 1) * sizeof *o->succ_off);
    memcpy(o->succ, b->succ, (size_t)b->succ_off[n] * sizeof *o->succ);
    memcpy(o->lit_off, b->lit_off, ((size_t)n + 1) * sizeof *o->lit_off);
    memcpy(o->lit, b->lit, (size_t)b->lit_off[n] * sizeof *o->lit);
    memcpy(o->acc, b->acc, (size_t)n * b->n_acc);
    uint32_t k = b->succ_off[n];
    for (uint32_t q = 0; q < n; q++)
        if (b->init[q])
            o->succ[k++] = q;
    o->succ_off[n + 1] = k;
    o->lit_off[n + 1] = b->lit_off[n]; /* no literal: it reads no letter */
    o->init[n] = 1;
    *out = o;
    return PN_OK;
}
