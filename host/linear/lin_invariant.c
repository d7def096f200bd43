/* P-semiflows by Farkas' algorithm (Farkas 1902; for Petri nets Martinez &
 * Silva 1982, Colom & Silva 1991): start from [C | I] (one row per place),
 * eliminate the transitions one column at a time, replacing the rows with
 * a non-zero entry in the column by the positive combinations of every
 * positive with every negative one; a row whose C-part is zero is a
 * semiflow y >= 0 with y C = 0, so y.m = y.m0 in every reachable marking.
 *
 * Bounded: rows are sparse, the column with the fewest new combinations
 * goes first, and the run gives up when the row count, an entry (above
 * 2^40), the entries a step makes (by the budget's memory too) or the
 * budget's time passes its limit. Giving up only loses semiflows:
 * every row kept is a non-negative combination of rows of [C | I] and the
 * rows returned are those with a zero C-part, each checked again against
 * the net in exact 128-bit arithmetic before it is used. */
#include <stdlib.h>
#include <string.h>

#include "linear/lin.h"

__extension__ typedef __int128 inv_i128;

#define INV_ENTRY_MAX ((int64_t)1 << 40)
#define INV_ROWS_BASE 4096u
#define INV_NNZ_MAX (8u << 20)
/* An entry's bytes (index, value) in the rows being replaced and in their
 * replacements, which a step holds at once, with the allocator's share. */
#define INV_ENTRY_BYTES 32u

typedef struct inv_row {
    uint32_t n;
    uint32_t *idx; /* sorted; < T: column of C, >= T: place idx - T */
    int64_t *val;
} inv_row;

typedef struct inv_rows {
    uint32_t n, cap;
    inv_row *r;
    uint64_t nnz;
} inv_rows;

static void inv_row_free(inv_row *r)
{
    free(r->idx);
    free(r->val);
}

static void inv_rows_free(inv_rows *s)
{
    for (uint32_t i = 0; i < s->n; i++)
        inv_row_free(&s->r[i]);
    free(s->r);
    memset(s, 0, sizeof *s);
}

static bool inv_rows_push(inv_rows *s, inv_row r)
{
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 64;
        inv_row *nr = realloc(s->r, (size_t)cap * sizeof *nr);
        if (nr == NULL)
            return false;
        s->r = nr;
        s->cap = cap;
    }
    s->r[s->n++] = r;
    s->nnz += r.n;
    return true;
}

static bool inv_row_alloc(inv_row *r, uint32_t n)
{
    r->n = 0;
    r->idx = malloc(((size_t)n + 1) * sizeof *r->idx);
    r->val = malloc(((size_t)n + 1) * sizeof *r->val);
    if (r->idx != NULL && r->val != NULL)
        return true;
    inv_row_free(r);
    return false;
}

static int64_t inv_gcd(int64_t a, int64_t b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b != 0) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int64_t inv_at(const inv_row *r, uint32_t col)
{
    for (uint32_t k = 0; k < r->n && r->idx[k] <= col; k++)
        if (r->idx[k] == col)
            return r->val[k];
    return 0;
}

/* ma * a + mb * b (ma, mb > 0) divided by the gcd of its entries; false
 * when out of memory or an entry passes INV_ENTRY_MAX (*skip set). */
static bool inv_combine(const inv_row *a, int64_t ma, const inv_row *b, int64_t mb,
                        inv_row *out, bool *skip)
{
    *skip = false;
    if (!inv_row_alloc(out, a->n + b->n))
        return false;
    uint32_t i = 0, j = 0;
    int64_t g = 0;
    while (i < a->n || j < b->n) {
        uint32_t ia = i < a->n ? a->idx[i] : UINT32_MAX, ib = j < b->n ? b->idx[j] : UINT32_MAX;
        uint32_t c = ia < ib ? ia : ib;
        inv_i128 v = 0;
        if (ia == c)
            v += (inv_i128)ma * a->val[i++];
        if (ib == c)
            v += (inv_i128)mb * b->val[j++];
        if (v == 0)
            continue;
        if (v > INV_ENTRY_MAX || v < -INV_ENTRY_MAX) {
            *skip = true;
            inv_row_free(out);
            return true;
        }
        out->idx[out->n] = c;
        out->val[out->n++] = (int64_t)v;
        g = inv_gcd(g, (int64_t)v);
    }
    for (uint32_t k = 0; g > 1 && k < out->n; k++)
        out->val[k] /= g;
    return true;
}

typedef struct inv_run {
    uint32_t T;
    const pn_budget *budget;
    uint32_t max_rows;
    uint64_t max_nnz;   /* entries a step may make: INV_NNZ_MAX, less where memory is short */
    int64_t *pos, *neg; /* per column: rows with a positive / negative entry */
} inv_run;

/* The column whose elimination makes the fewest combinations; false when
 * no row has a C-part left. */
static bool inv_pick(inv_run *u, const inv_rows *s, uint32_t *col)
{
    memset(u->pos, 0, (size_t)u->T * sizeof *u->pos);
    memset(u->neg, 0, (size_t)u->T * sizeof *u->neg);
    bool any = false;
    for (uint32_t i = 0; i < s->n; i++)
        for (uint32_t k = 0; k < s->r[i].n && s->r[i].idx[k] < u->T; k++) {
            any = true;
            (s->r[i].val[k] > 0 ? u->pos : u->neg)[s->r[i].idx[k]]++;
        }
    if (!any)
        return false;
    bool have = false;
    int64_t best = 0;
    for (uint32_t t = 0; t < u->T; t++) {
        if (u->pos[t] + u->neg[t] == 0)
            continue;
        /* rows added minus rows removed */
        int64_t cost = u->pos[t] * u->neg[t] - u->pos[t] - u->neg[t];
        if (!have || cost < best) {
            have = true;
            best = cost;
            *col = t;
        }
    }
    return true;
}

/* Eliminates column col from s; false to give up (limits, memory). */
static bool inv_step(inv_run *u, inv_rows *s, uint32_t col, bool *nomem)
{
    inv_rows out = {0};
    bool ok = true;
    for (uint32_t i = 0; i < s->n && ok; i++) {
        if (inv_at(&s->r[i], col) != 0)
            continue;
        ok = inv_rows_push(&out, s->r[i]);
        if (ok)
            s->r[i].n = UINT32_MAX; /* moved */
        *nomem = !ok;
    }
    for (uint32_t i = 0; i < s->n && ok; i++) {
        int64_t va = s->r[i].n == UINT32_MAX ? 0 : inv_at(&s->r[i], col);
        for (uint32_t j = 0; va > 0 && j < s->n && ok; j++) {
            int64_t vb = s->r[j].n == UINT32_MAX ? 0 : inv_at(&s->r[j], col);
            if (vb >= 0)
                continue;
            if (out.n >= u->max_rows || out.nnz > u->max_nnz || pn_budget_expired(u->budget)) {
                ok = false;
                break;
            }
            int64_t g = inv_gcd(va, vb);
            inv_row r;
            bool skip;
            ok = inv_combine(&s->r[i], -vb / g, &s->r[j], va / g, &r, &skip);
            *nomem = !ok;
            if (ok && !skip && !(ok = inv_rows_push(&out, r))) {
                inv_row_free(&r);
                *nomem = true;
            }
        }
    }
    for (uint32_t i = 0; i < s->n; i++)
        if (s->r[i].n != UINT32_MAX)
            inv_row_free(&s->r[i]);
    free(s->r);
    *s = out;
    return ok;
}

/* y C = 0, checked on the net itself. */
static bool inv_verify(const pn_cnet *cn, const uint32_t *col_off, const uint32_t *col_t,
                       const int64_t *col_c, const inv_row *r, inv_i128 *acc)
{
    uint32_t T = cn->n_transitions;
    bool ok = true;
    for (uint32_t k = 0; k < r->n; k++) {
        if (r->idx[k] < T || r->val[k] <= 0)
            return false;
        uint32_t p = r->idx[k] - T;
        for (uint32_t a = col_off[p]; a < col_off[p + 1]; a++)
            acc[col_t[a]] += (inv_i128)r->val[k] * col_c[a];
    }
    for (uint32_t k = 0; k < r->n; k++) {
        uint32_t p = r->idx[k] - T;
        for (uint32_t a = col_off[p]; a < col_off[p + 1]; a++) {
            ok = ok && acc[col_t[a]] == 0;
            acc[col_t[a]] = 0;
        }
    }
    return ok;
}

void lin_inv_free(lin_inv *inv)
{
    if (inv == NULL)
        return;
    free(inv->flow_off);
    free(inv->flow_place);
    free(inv->flow_weight);
    free(inv->ub);
    free(inv->constant);
    free(inv);
}

/* Per place: C's row as (transition, C[p,t]) sorted by transition. */
typedef struct inv_cols {
    uint32_t *off, *t;
    int64_t *c;
} inv_cols;

static bool inv_cols_build(const pn_cnet *cn, inv_cols *k)
{
    uint32_t P = cn->n_places, T = cn->n_transitions, nd = cn->delta_off[T];
    k->off = calloc((size_t)P + 2, sizeof *k->off);
    k->t = malloc(((size_t)nd + 1) * sizeof *k->t);
    k->c = malloc(((size_t)nd + 1) * sizeof *k->c);
    if (k->off == NULL || k->t == NULL || k->c == NULL)
        return false;
    for (uint32_t a = 0; a < nd; a++)
        k->off[cn->delta[a].place + 2]++;
    for (uint32_t p = 0; p < P; p++)
        k->off[p + 2] += k->off[p + 1];
    for (uint32_t t = 0; t < T; t++)
        for (uint32_t a = cn->delta_off[t]; a < cn->delta_off[t + 1]; a++) {
            uint32_t at = k->off[cn->delta[a].place + 1]++;
            k->t[at] = t;
            k->c[at] = cn->delta[a].delta;
        }
    return true;
}

static void inv_cols_free(inv_cols *k)
{
    free(k->off);
    free(k->t);
    free(k->c);
}

/* The rows of [C | I]; false when out of memory. Weights beyond
 * INV_ENTRY_MAX leave the place out (it is then in no semiflow). */
static bool inv_init(const pn_cnet *cn, const inv_cols *k, inv_rows *s)
{
    uint32_t T = cn->n_transitions;
    for (uint32_t p = 0; p < cn->n_places; p++) {
        bool big = false;
        for (uint32_t a = k->off[p]; a < k->off[p + 1]; a++)
            big |= k->c[a] > INV_ENTRY_MAX || k->c[a] < -INV_ENTRY_MAX;
        if (big)
            continue;
        inv_row r;
        if (!inv_row_alloc(&r, k->off[p + 1] - k->off[p] + 1))
            return false;
        for (uint32_t a = k->off[p]; a < k->off[p + 1]; a++) {
            r.idx[r.n] = k->t[a];
            r.val[r.n++] = k->c[a];
        }
        r.idx[r.n] = T + p;
        r.val[r.n++] = 1;
        if (!inv_rows_push(s, r)) {
            inv_row_free(&r);
            return false;
        }
    }
    return true;
}

/* The structural bounds: min over semiflows y with y(p) > 0 of
 * floor(y.m0 / y(p)). */
static void inv_bounds(const pn_cnet *cn, lin_inv *inv)
{
    for (uint32_t p = 0; p < cn->n_places; p++)
        inv->ub[p] = UINT64_MAX;
    for (uint32_t f = 0; f < inv->n_flows; f++) {
        inv_i128 tot = 0;
        for (uint32_t k = inv->flow_off[f]; k < inv->flow_off[f + 1]; k++)
            tot += (inv_i128)inv->flow_weight[k] * cn->m0[inv->flow_place[k]];
        for (uint32_t k = inv->flow_off[f]; k < inv->flow_off[f + 1]; k++) {
            inv_i128 b = tot / inv->flow_weight[k];
            uint32_t p = inv->flow_place[k];
            if (b < (inv_i128)inv->ub[p])
                inv->ub[p] = (uint64_t)b;
        }
    }
}

static pn_status inv_collect(const pn_cnet *cn, const inv_cols *k, const inv_rows *s,
                             lin_inv *inv, pn_error *err)
{
    uint32_t T = cn->n_transitions;
    inv->flow_off = calloc((size_t)s->n + 1, sizeof *inv->flow_off);
    inv->flow_place = malloc(((size_t)s->nnz + 1) * sizeof *inv->flow_place);
    inv->flow_weight = malloc(((size_t)s->nnz + 1) * sizeof *inv->flow_weight);
    inv_i128 *acc = calloc((size_t)T + 1, sizeof *acc);
    if (!inv->flow_off || !inv->flow_place || !inv->flow_weight || !acc) {
        free(acc);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the P-semiflows");
    }
    uint32_t at = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        const inv_row *r = &s->r[i];
        if (r->n == 0 || r->idx[0] < T || !inv_verify(cn, k->off, k->t, k->c, r, acc))
            continue;
        for (uint32_t j = 0; j < r->n; j++) {
            inv->flow_place[at] = r->idx[j] - T;
            inv->flow_weight[at++] = r->val[j];
        }
        inv->flow_off[++inv->n_flows] = at;
    }
    free(acc);
    return PN_OK;
}

pn_status lin_inv_compute(const pn_cnet *cn, const pn_budget *b, lin_inv **out, pn_error *err)
{
    uint32_t P = cn->n_places, T = cn->n_transitions;
    lin_inv *inv = calloc(1, sizeof *inv);
    inv_cols k = {0};
    inv_rows done = {0}, work = {0};
    inv_run u = {.T = T, .budget = b, .max_rows = INV_ROWS_BASE + 2 * P,
                 .max_nnz = INV_NNZ_MAX};
    uint64_t room = pn_budget_memory(b);
    if (room != 0 && room / INV_ENTRY_BYTES < u.max_nnz)
        u.max_nnz = room / INV_ENTRY_BYTES;
    u.pos = malloc(((size_t)T + 1) * sizeof *u.pos);
    u.neg = malloc(((size_t)T + 1) * sizeof *u.neg);
    bool nomem = inv == NULL || u.pos == NULL || u.neg == NULL || !inv_cols_build(cn, &k);
    if (!nomem) {
        inv->ub = malloc(((size_t)P + 1) * sizeof *inv->ub);
        inv->constant = calloc((size_t)P + 1, 1);
        nomem = inv->ub == NULL || inv->constant == NULL || !inv_init(cn, &k, &work);
    }
    if (inv != NULL)
        inv->complete = !nomem;
    while (!nomem) {
        /* rows with no C-part left are final: set them aside */
        uint32_t w = 0;
        for (uint32_t i = 0; i < work.n && !nomem; i++) {
            if (work.r[i].idx[0] >= T)
                nomem = !inv_rows_push(&done, work.r[i]);
            else
                work.r[w++] = work.r[i];
        }
        work.n = w;
        uint32_t col = 0;
        if (nomem || !inv_pick(&u, &work, &col))
            break;
        if (pn_budget_expired(b) || !inv_step(&u, &work, col, &nomem)) {
            inv->complete = false;
            break;
        }
    }
    pn_status st = PN_OK;
    if (nomem)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory for the P-semiflows");
    else
        st = inv_collect(cn, &k, &done, inv, err);
    if (st == PN_OK) {
        for (uint32_t p = 0; p < P; p++)
            inv->constant[p] = k.off[p + 1] == k.off[p];
        inv_bounds(cn, inv);
    }
    inv_rows_free(&done);
    inv_rows_free(&work);
    inv_cols_free(&k);
    free(u.pos);
    free(u.neg);
    if (st != PN_OK) {
        lin_inv_free(inv);
        return st;
    }
    *out = inv;
    return PN_OK;
}
