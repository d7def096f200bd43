/* The "moves" goals of the random walks (see walk_moves.h). The argument is
 * the one that refutes StableMarking by a transition that changes a place
 * (Thierry-Mieg, "Symbolic and structural model-checking", Fundamenta
 * Informaticae 183, 2021, on deciding the global properties by walks): a
 * reachable marking enabling t, where sum_P C(p, t) != 0, has a successor
 * whose sum over P differs from its own, so the two cannot both equal c. */
#include "walk_moves.h"

#include <stdlib.h>
#include <string.h>

static bool moves_same_places(const pn_fml_node *a, const pn_fml_node *b)
{
    return a->kind == PN_FML_TOKENS && b->kind == PN_FML_TOKENS && a->n == b->n &&
           memcmp(a->idx, b->idx, a->n * sizeof *a->idx) == 0;
}

/* le is tokens(P) <= c (upper) or c <= tokens(P) (!upper): P's node. */
static const pn_fml_node *moves_side(const pn_fml_node *le, bool upper, uint64_t *c)
{
    if (le->kind != PN_FML_INT_LE || le->n != 2)
        return NULL;
    const pn_fml_node *tok = le->kids[upper ? 0 : 1], *k = le->kids[upper ? 1 : 0];
    if (tok->kind != PN_FML_TOKENS || k->kind != PN_FML_CONST)
        return NULL;
    *c = k->value;
    return tok;
}

const pn_fml_node *pn_walk_moves_sum(const pn_cnet *cn, pn_check_target k,
                                     const pn_fml_node *phi)
{
    if (k != PN_TARGET_AG || phi == NULL || phi->kind != PN_FML_AND || phi->n != 2)
        return NULL;
    for (int first = 0; first < 2; first++) {
        uint64_t hi = 0, lo = 0;
        const pn_fml_node *a = moves_side(phi->kids[first], true, &hi);
        const pn_fml_node *b = moves_side(phi->kids[1 - first], false, &lo);
        if (a == NULL || b == NULL || hi != lo || !moves_same_places(a, b))
            continue;
        uint64_t sum = 0;
        for (uint32_t i = 0; i < a->n; i++) {
            uint64_t v = cn->m0[a->idx[i]];
            if (v > UINT64_MAX - sum)
                return NULL;
            sum += v;
        }
        return sum == hi ? a : NULL;
    }
    return NULL;
}

/* CSR of the moves goals (indexes into sums) per place. */
typedef struct moves_index {
    uint32_t *off, *item;
} moves_index;

static pn_status moves_by_place(const pn_cnet *cn, const pn_fml_node *const *sums, uint32_t n,
                                moves_index *ix, pn_error *err)
{
    uint32_t P = cn->n_places;
    ix->off = calloc((size_t)P + 2, sizeof *ix->off);
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += sums[i]->n;
    ix->item = malloc((total + 1) * sizeof *ix->item);
    if (ix->off == NULL || ix->item == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for random walks");
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < sums[i]->n; j++)
            ix->off[sums[i]->idx[j] + 2]++;
    for (uint32_t p = 0; p < P; p++)
        ix->off[p + 2] += ix->off[p + 1];
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < sums[i]->n; j++)
            ix->item[ix->off[sums[i]->idx[j] + 1]++] = i;
    return PN_OK;
}

static bool moves_push(pn_walk_moves *m, size_t *cap, size_t len, uint32_t g)
{
    if (len == *cap) {
        size_t grown = *cap ? *cap * 2 : 1024;
        uint32_t *more = realloc(m->goal, grown * sizeof *more);
        if (more == NULL)
            return false;
        m->goal = more;
        *cap = grown;
    }
    m->goal[len] = g;
    return true;
}

pn_status pn_walk_moves_build(const pn_cnet *cn, const pn_fml_node *const *sums,
                              const uint32_t *goal_of, uint32_t n, pn_walk_moves *out,
                              pn_error *err)
{
    memset(out, 0, sizeof *out);
    moves_index ix = {0};
    __int128 *acc = calloc((size_t)n + 1, sizeof *acc);
    uint32_t *touched = malloc(((size_t)n + 1) * sizeof *touched);
    uint8_t *seen = calloc((size_t)n + 1, 1);
    out->off = calloc((size_t)cn->n_transitions + 1, sizeof *out->off);
    pn_status st = acc && touched && seen && out->off
                       ? moves_by_place(cn, sums, n, &ix, err)
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory for random walks");
    size_t cap = 0, len = 0;
    for (uint32_t t = 0; st == PN_OK && t < cn->n_transitions; t++) {
        uint32_t nt = 0;
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
            uint32_t p = cn->delta[k].place;
            for (uint32_t j = ix.off[p]; j < ix.off[p + 1]; j++) {
                uint32_t i = ix.item[j];
                if (!seen[i])
                    touched[nt++] = i;
                seen[i] = 1;
                acc[i] += cn->delta[k].delta;
            }
        }
        for (uint32_t j = 0; st == PN_OK && j < nt; j++) {
            uint32_t i = touched[j];
            if (acc[i] != 0 && !moves_push(out, &cap, len++, goal_of[i]))
                st = pn_fail(err, PN_ERR_NOMEM, "out of memory for random walks");
            acc[i] = 0;
            seen[i] = 0;
        }
        out->off[t + 1] = (uint32_t)len;
    }
    free(acc);
    free(touched);
    free(seen);
    free(ix.off);
    free(ix.item);
    if (st != PN_OK)
        pn_walk_moves_free(out);
    return st;
}

void pn_walk_moves_free(pn_walk_moves *m)
{
    free(m->off);
    free(m->goal);
    memset(m, 0, sizeof *m);
}
