/* CTL on the state graph (see ctl.h). Every subformula becomes a byte array
 * over state ids; temporal operators are the textbook backward algorithms:
 * EX/AX by scanning successors, E[a U b] by a backward search from b through
 * a, A[a U b] by counting down each state's successors still outside the
 * set (a state joins when its count reaches 0 and a holds), EF/AG/AF/EG as
 * special cases and duals of those. */
#include "net/layout.h"
#include "petrel/ctl.h"

#include <stdlib.h>
#include <string.h>

#include "formula/sformula.h"

typedef struct ctl {
    pn_ctl_model *m;
    uint64_t n;          /* states */
    uint64_t live_bytes; /* satisfaction arrays alive */
    uint64_t memory;     /* pn_budget_memory at the start (a snapshot); 0: unlimited */
    pn_error *err;
} ctl;

static uint8_t *ctl_alloc(ctl *c)
{
    if (pn_budget_fail(c->m->budget, c->err, "CTL") != PN_OK)
        return NULL;
    if (c->memory && c->live_bytes + c->n > c->memory) {
        pn_fail(c->err, PN_ERR_OUT_OF_MEMORY, "CTL: satisfaction arrays exceed the memory budget");
        return NULL;
    }
    uint8_t *a = malloc(c->n ? c->n : 1);
    if (a == NULL)
        pn_fail(c->err, PN_ERR_NOMEM, "CTL: out of memory");
    else
        c->live_bytes += c->n;
    return a;
}

/* The predecessor lists, built once for the graph and kept with it: as
 * large as the successor lists, so they are counted as the arrays are. */
static bool ctl_reverse(ctl *c)
{
    pn_graph *g = c->m->graph;
    if (g->roff != NULL)
        return true;
    uint64_t need = pn_graph_bytes(g);
    if (c->memory && c->live_bytes + need > c->memory) {
        pn_fail(c->err, PN_ERR_OUT_OF_MEMORY, "CTL: predecessor lists exceed the memory budget");
        return false;
    }
    if (pn_graph_reverse(g, c->err) != PN_OK)
        return false;
    c->live_bytes += need; /* held to the end of the check, and after it */
    return true;
}

static void ctl_release(ctl *c, uint8_t *a)
{
    if (a == NULL)
        return;
    free(a);
    c->live_bytes -= c->n;
}

/* A state formula: one pass over the stored states. */
static uint8_t *ctl_state(ctl *c, const pn_fml_node *phi)
{
    pn_sformula_owned *sf = NULL;
    if (pn_sformula_compile(phi, &sf, c->err) != PN_OK)
        return NULL;
    const pn_prog *g = &c->m->layout->prog;
    uint8_t *sat = ctl_alloc(c);
    uint64_t *mk = calloc((size_t)g->n_places + 1, sizeof *mk);
    if (sat == NULL || mk == NULL) {
        pn_fail(c->err, PN_ERR_NOMEM, "CTL: out of memory");
        ctl_release(c, sat);
        sat = NULL;
    }
    const pn_graph *gr = c->m->graph;
    for (uint64_t s = 0; sat != NULL && s < c->n; s++) {
        pn_state_unpack(g, c->m->store + s * g->words, mk);
        uint32_t en = (uint32_t)(gr->off[s + 1] - gr->off[s]);
        sat[s] = pn_sf_eval(&sf->f, g, mk, en, NULL);
    }
    free(mk);
    pn_sformula_free(sf);
    return sat;
}

static void ctl_not(ctl *c, uint8_t *a)
{
    for (uint64_t s = 0; s < c->n; s++)
        a[s] = !a[s];
}

static void ctl_ex(ctl *c, const uint8_t *a, uint8_t *out)
{
    const pn_graph *g = c->m->graph;
    for (uint64_t s = 0; s < c->n; s++) {
        uint8_t v = 0;
        for (uint64_t e = g->off[s]; e < g->off[s + 1] && !v; e++)
            v = a[g->dst[e]];
        out[s] = v;
    }
}

/* E[a U b]: backward search from b-states through a-states. a NULL: true. */
static bool ctl_eu(ctl *c, const uint8_t *a, const uint8_t *b, uint8_t *out)
{
    const pn_graph *g = c->m->graph;
    uint32_t *queue = malloc((c->n ? c->n : 1) * sizeof *queue);
    if (queue == NULL) {
        pn_fail(c->err, PN_ERR_NOMEM, "CTL: out of memory");
        return false;
    }
    uint64_t head = 0, tail = 0;
    for (uint64_t s = 0; s < c->n; s++) {
        out[s] = b[s];
        if (b[s])
            queue[tail++] = (uint32_t)s;
    }
    while (head < tail) {
        uint32_t t = queue[head++];
        for (uint64_t e = g->roff[t]; e < g->roff[t + 1]; e++) {
            uint32_t p = g->rsrc[e];
            if (!out[p] && (a == NULL || a[p])) {
                out[p] = 1;
                queue[tail++] = p;
            }
        }
    }
    free(queue);
    return true;
}

/* A[a U b]: a state joins when b holds, or when a holds and every one of
 * its (at least one) successors has joined. a NULL: true (AF b). */
static bool ctl_au(ctl *c, const uint8_t *a, const uint8_t *b, uint8_t *out)
{
    const pn_graph *g = c->m->graph;
    uint32_t *queue = malloc((c->n ? c->n : 1) * sizeof *queue);
    uint32_t *left = malloc((c->n ? c->n : 1) * sizeof *left);
    if (queue == NULL || left == NULL) {
        free(queue);
        free(left);
        pn_fail(c->err, PN_ERR_NOMEM, "CTL: out of memory");
        return false;
    }
    uint64_t head = 0, tail = 0;
    for (uint64_t s = 0; s < c->n; s++) {
        left[s] = (uint32_t)(g->off[s + 1] - g->off[s]);
        out[s] = b[s];
        if (b[s])
            queue[tail++] = (uint32_t)s;
    }
    while (head < tail) {
        uint32_t t = queue[head++];
        for (uint64_t e = g->roff[t]; e < g->roff[t + 1]; e++) {
            uint32_t p = g->rsrc[e];
            if (!out[p] && --left[p] == 0 && (a == NULL || a[p])) {
                out[p] = 1;
                queue[tail++] = p;
            }
        }
    }
    free(queue);
    free(left);
    return true;
}

static uint8_t *ctl_eval(ctl *c, const pn_fml_node *n);

/* A or E applied to a temporal operator. */
static uint8_t *ctl_quantified(ctl *c, bool all, const pn_fml_node *path)
{
    if (pn_fml_is_state(path))
        return ctl_eval(c, path);
    const pn_fml_node *k = path->kids != NULL ? path->kids[0] : NULL;
    if (path->kind != PN_FML_X && path->kind != PN_FML_F && path->kind != PN_FML_G &&
        path->kind != PN_FML_U) {
        pn_fail(c->err, PN_ERR_UNSUPPORTED, "not a CTL formula (a path formula under %s)",
                all ? "A" : "E");
        return NULL;
    }
    if (!ctl_reverse(c))
        return NULL;
    uint8_t *a = ctl_eval(c, k);
    uint8_t *b = path->kind == PN_FML_U && a != NULL ? ctl_eval(c, path->kids[1]) : NULL;
    uint8_t *out = a != NULL && (path->kind != PN_FML_U || b != NULL) ? ctl_alloc(c) : NULL;
    bool ok = out != NULL;
    if (ok) {
        switch (path->kind) {
        case PN_FML_X: /* AX a = !EX !a: TRUE at a deadlock */
            if (all)
                ctl_not(c, a);
            ctl_ex(c, a, out);
            if (all)
                ctl_not(c, out);
            break;
        case PN_FML_F: ok = all ? ctl_au(c, NULL, a, out) : ctl_eu(c, NULL, a, out); break;
        case PN_FML_G: /* AG a = !EF !a, EG a = !AF !a */
            ctl_not(c, a);
            ok = all ? ctl_eu(c, NULL, a, out) : ctl_au(c, NULL, a, out);
            ctl_not(c, out);
            break;
        default: ok = all ? ctl_au(c, a, b, out) : ctl_eu(c, a, b, out); break;
        }
    }
    ctl_release(c, a);
    ctl_release(c, b);
    if (!ok) {
        ctl_release(c, out);
        return NULL;
    }
    return out;
}

static uint8_t *ctl_bool(ctl *c, const pn_fml_node *n)
{
    uint8_t *acc = ctl_eval(c, n->kids[0]);
    if (acc == NULL || n->kind == PN_FML_NOT) {
        if (acc != NULL)
            ctl_not(c, acc);
        return acc;
    }
    for (uint32_t k = 1; k < n->n; k++) {
        uint8_t *x = ctl_eval(c, n->kids[k]);
        if (x == NULL) {
            ctl_release(c, acc);
            return NULL;
        }
        for (uint64_t s = 0; s < c->n; s++)
            acc[s] = n->kind == PN_FML_AND ? (acc[s] & x[s]) : (acc[s] | x[s]);
        ctl_release(c, x);
    }
    return acc;
}

static uint8_t *ctl_eval(ctl *c, const pn_fml_node *n)
{
    if (pn_fml_is_state(n))
        return ctl_state(c, n);
    switch (n->kind) {
    case PN_FML_NOT:
    case PN_FML_AND:
    case PN_FML_OR:
        return ctl_bool(c, n);
    case PN_FML_A:
    case PN_FML_E:
        return ctl_quantified(c, n->kind == PN_FML_A, n->kids[0]);
    default:
        pn_fail(c->err, PN_ERR_UNSUPPORTED,
                "not a CTL formula (a temporal operator without a path quantifier)");
        return NULL;
    }
}

pn_status pn_ctl_check(pn_ctl_model *m, const pn_fml_node *phi, bool *value, pn_error *err)
{
    ctl c = {.m = m, .n = m->graph->n_states, .live_bytes = 0,
             .memory = pn_budget_memory(m->budget), .err = err};
    if (c.n == 0)
        return pn_fail(err, PN_ERR_INTERNAL, "CTL: empty state graph");
    uint8_t *sat = ctl_eval(&c, phi);
    if (sat == NULL)
        return err->code != PN_OK ? err->code : pn_fail(err, PN_ERR_INTERNAL, "CTL failed");
    *value = sat[0] != 0;
    ctl_release(&c, sat);
    return PN_OK;
}

/* ---- Liveness ----------------------------------------------------------- */

typedef struct scc {
    const pn_graph *g;
    uint32_t *index, *low, *comp, *stack, *frame_state;
    uint64_t *frame_edge;
    uint64_t sp, fp, next_index, n_comp;
} scc;

#define SCC_NONE UINT32_MAX

/* Every transition enabled in some state of this bottom SCC? stamp[t]
 * holds the last SCC that saw t enabled. */
static bool scc_bottom_live(pn_ctl_model *m, const uint32_t *states, uint64_t n,
                            uint32_t *stamp, uint32_t id, uint64_t *mk, uint32_t *nz)
{
    const pn_prog *g = &m->layout->prog;
    uint32_t seen = 0;
    for (uint64_t i = 0; i < n && seen < g->n_transitions; i++) {
        const uint64_t *s = m->store + (uint64_t)states[i] * g->words;
        uint32_t k = pn_state_unpack_sparse(g, s, mk, nz);
        for (uint32_t j = 0; j < k; j++)
            for (uint32_t x = g->trig_off[nz[j]]; x < g->trig_off[nz[j] + 1]; x++) {
                uint32_t t = g->trig[x];
                if (stamp[t] != id && pn_marking_enabled(g, mk, t)) {
                    stamp[t] = id;
                    seen++;
                }
            }
        for (uint32_t x = 0; x < g->n_free; x++)
            if (stamp[g->free_trans[x]] != id) {
                stamp[g->free_trans[x]] = id;
                seen++;
            }
        for (uint32_t j = 0; j < k; j++)
            mk[nz[j]] = 0;
    }
    return seen == g->n_transitions;
}

static bool scc_is_bottom(const scc *t, const uint32_t *states, uint64_t n, uint32_t id)
{
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t e = t->g->off[states[i]]; e < t->g->off[states[i] + 1]; e++)
            if (t->comp[t->g->dst[e]] != id)
                return false;
    return true;
}

/* Pops the SCC rooted at v; returns false when it is a bottom SCC in which
 * some transition is never enabled (the net is then not live). */
static bool scc_pop(pn_ctl_model *m, scc *t, uint32_t v, uint32_t *stamp, uint64_t *mk,
                    uint32_t *nz)
{
    uint64_t start = t->sp;
    do
        start--;
    while (t->stack[start] != v);
    uint32_t id = (uint32_t)t->n_comp++;
    for (uint64_t i = start; i < t->sp; i++)
        t->comp[t->stack[i]] = id;
    uint64_t n = t->sp - start;
    bool ok = !scc_is_bottom(t, t->stack + start, n, id) ||
              scc_bottom_live(m, t->stack + start, n, stamp, id, mk, nz);
    t->sp = start;
    return ok;
}

static void scc_push(scc *t, uint32_t v)
{
    t->index[v] = t->low[v] = (uint32_t)t->next_index++;
    t->stack[t->sp++] = v;
    t->frame_state[t->fp] = v;
    t->frame_edge[t->fp++] = t->g->off[v];
}

/* Iterative Tarjan from state 0 (every state is reachable from it). */
static bool scc_run(pn_ctl_model *m, scc *t, uint32_t *stamp, uint64_t *mk, uint32_t *nz)
{
    scc_push(t, 0);
    while (t->fp > 0) {
        uint32_t v = t->frame_state[t->fp - 1];
        uint64_t *e = &t->frame_edge[t->fp - 1];
        if (*e < t->g->off[v + 1]) {
            uint32_t w = t->g->dst[(*e)++];
            if (t->index[w] == SCC_NONE)
                scc_push(t, w);
            else if (t->comp[w] == SCC_NONE && t->index[w] < t->low[v])
                t->low[v] = t->index[w];
            continue;
        }
        t->fp--;
        if (t->fp > 0) {
            uint32_t u = t->frame_state[t->fp - 1];
            if (t->low[v] < t->low[u])
                t->low[u] = t->low[v];
        }
        if (t->low[v] == t->index[v] && !scc_pop(m, t, v, stamp, mk, nz))
            return false;
    }
    return true;
}

pn_status pn_ctl_liveness(pn_ctl_model *m, bool *live, pn_error *err)
{
    uint64_t n = m->graph->n_states;
    uint32_t T = m->layout->prog.n_transitions, P = m->layout->prog.n_places;
    uint64_t memory = pn_budget_memory(m->budget);
    if (memory != 0 && n * (5 * sizeof(uint32_t) + sizeof(uint64_t)) > memory)
        return pn_fail(err, PN_ERR_OUT_OF_MEMORY, "Liveness: the SCC arrays exceed the memory budget");
    scc t = {.g = m->graph};
    t.index = malloc(n * sizeof *t.index);
    t.low = malloc(n * sizeof *t.low);
    t.comp = malloc(n * sizeof *t.comp);
    t.stack = malloc(n * sizeof *t.stack);
    t.frame_state = malloc(n * sizeof *t.frame_state);
    t.frame_edge = malloc(n * sizeof *t.frame_edge);
    uint32_t *stamp = malloc(((size_t)T + 1) * sizeof *stamp);
    uint64_t *mk = calloc((size_t)P + 1, sizeof *mk);
    uint32_t *nz = malloc(((size_t)P + 1) * sizeof *nz);
    pn_status st = PN_OK;
    if (!t.index || !t.low || !t.comp || !t.stack || !t.frame_state || !t.frame_edge || !stamp ||
        !mk || !nz || n == 0) {
        st = pn_fail(err, n ? PN_ERR_NOMEM : PN_ERR_INTERNAL, "Liveness: out of memory");
    } else {
        memset(t.index, 0xff, n * sizeof *t.index);
        memset(t.comp, 0xff, n * sizeof *t.comp);
        memset(stamp, 0xff, ((size_t)T + 1) * sizeof *stamp);
        *live = scc_run(m, &t, stamp, mk, nz);
    }
    free(t.index);
    free(t.low);
    free(t.comp);
    free(t.stack);
    free(t.frame_state);
    free(t.frame_edge);
    free(stamp);
    free(mk);
    free(nz);
    return st;
}
