/* Reference evaluation of state formulas on one unpacked marking. */
#include "petrel/formula.h"

/* A sum of at most 2^32 counts below 2^64 fits in 96 bits, so a 128-bit sum
 * compares exactly where a saturated one would not (x <= UINT64_MAX). */
__extension__ typedef unsigned __int128 fml_u128;

static fml_u128 fml_sum(const pn_fml_node *e, const uint64_t *m)
{
    if (e->kind == PN_FML_CONST)
        return e->value;
    fml_u128 s = 0;
    for (uint32_t i = 0; i < e->n; i++)
        s += m[e->idx[i]];
    return s;
}

uint64_t pn_fml_eval_int(const pn_fml_node *e, const uint64_t *marking)
{
    fml_u128 s = fml_sum(e, marking);
    return s > UINT64_MAX ? UINT64_MAX : (uint64_t)s;
}

/* Where fireability is read from: the net's arcs at the marking, or a
 * caller's verdict per transition (pn_fml_eval_state_given). */
typedef struct fml_fire {
    const pn_cnet *cn;
    const bool *enabled;
    uint32_t n_transitions;
} fml_fire;

static bool fml_enabled(const fml_fire *f, const uint64_t *m, uint32_t t)
{
    return f->enabled != NULL ? f->enabled[t] : pn_cnet_enabled(f->cn, m, t);
}

static bool fml_any_enabled(const fml_fire *f, const uint64_t *m, const uint32_t *ts,
                            uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (fml_enabled(f, m, ts != NULL ? ts[i] : i))
            return true;
    return false;
}

static bool fml_eval(const pn_fml_node *phi, const fml_fire *f, const uint64_t *marking)
{
    switch (phi->kind) {
    case PN_FML_TRUE: return true;
    case PN_FML_FALSE: return false;
    case PN_FML_DEADLOCK:
        return !fml_any_enabled(f, marking, NULL, f->n_transitions);
    case PN_FML_FIREABLE: return fml_any_enabled(f, marking, phi->idx, phi->n);
    case PN_FML_INT_LE:
        return fml_sum(phi->kids[0], marking) <= fml_sum(phi->kids[1], marking);
    case PN_FML_NOT: return !fml_eval(phi->kids[0], f, marking);
    case PN_FML_AND:
        for (uint32_t i = 0; i < phi->n; i++)
            if (!fml_eval(phi->kids[i], f, marking))
                return false;
        return true;
    case PN_FML_OR:
        for (uint32_t i = 0; i < phi->n; i++)
            if (fml_eval(phi->kids[i], f, marking))
                return true;
        return false;
    default: return false; /* not a state formula: the caller's contract */
    }
}

bool pn_fml_eval_state(const pn_fml_node *phi, const pn_cnet *cn,
                       const uint64_t *marking)
{
    fml_fire f = {cn, NULL, cn->n_transitions};
    return fml_eval(phi, &f, marking);
}

bool pn_fml_eval_state_given(const pn_fml_node *phi, const uint64_t *marking,
                             const bool *enabled, uint32_t n_transitions)
{
    fml_fire f = {NULL, enabled, n_transitions};
    return fml_eval(phi, &f, marking);
}

bool pn_fml_has_action(const pn_fml_node *n)
{
    if (n->kind == PN_FML_ACTION)
        return true;
    for (uint32_t i = 0; n->kids != NULL && i < n->n; i++)
        if (pn_fml_has_action(n->kids[i]))
            return true;
    return false;
}

bool pn_fml_is_action(const pn_fml_node *n)
{
    switch (n->kind) {
    case PN_FML_TRUE:
    case PN_FML_FALSE:
    case PN_FML_ACTION: return true;
    case PN_FML_NOT:
    case PN_FML_AND:
    case PN_FML_OR:
        for (uint32_t i = 0; i < n->n; i++)
            if (!pn_fml_is_action(n->kids[i]))
                return false;
        return true;
    default: return false;
    }
}

bool pn_fml_eval_action(const pn_fml_node *phi, uint32_t t)
{
    switch (phi->kind) {
    case PN_FML_TRUE: return true;
    case PN_FML_ACTION:
        for (uint32_t i = 0; i < phi->n; i++)
            if (phi->idx[i] == t)
                return true;
        return false;
    case PN_FML_NOT: return !pn_fml_eval_action(phi->kids[0], t);
    case PN_FML_AND:
        for (uint32_t i = 0; i < phi->n; i++)
            if (!pn_fml_eval_action(phi->kids[i], t))
                return false;
        return true;
    case PN_FML_OR:
        for (uint32_t i = 0; i < phi->n; i++)
            if (pn_fml_eval_action(phi->kids[i], t))
                return true;
        return false;
    default: return false; /* not an action formula: the caller's contract */
    }
}
