/* The cone of influence of what the formulas read (Thierry-Mieg,
 * "Structural reductions revisited", Petri Nets 2020, keeps only the part
 * of the net a property depends on; the cone of influence of model
 * checking, e.g. Clarke, Grumberg, Peled, "Model Checking", 1999).
 *
 * The cone: the observed places and transitions; every live transition
 * that changes a place of the cone (its effect on it is not zero); every
 * kept input place of a transition of the cone; to a fixpoint. A
 * transition outside the cone changes no place of the cone, and one inside
 * needs only places of the cone, so the transitions of the cone fire, and
 * are enabled, whatever the rest holds: the reachable markings projected
 * onto the cone are exactly the cone subnet's reachable markings (a firing
 * sequence of N, its steps outside the cone dropped, fires in the subnet;
 * a sequence of the subnet fires in N as it is). So everything outside
 * can go, for pure reachability and bounds (EF, AG, place bounds,
 * fireability of observed transitions; a witness on the cone fires
 * unchanged on the whole net). Not for deadlocks (a live transition
 * outside would hide every deadlock of the cone), LTL or CTL (its steps
 * are stutter steps there, and X sees them): the caller allows it only
 * where it allows the null-transition rule. Disconnected components that
 * no formula reads are the simplest case. */
#include "reduce/reduce_work.h"

#include <stdlib.h>

typedef struct cone {
    const red_work *w;
    uint8_t *in_p, *in_t;
    uint32_t *queue, n_queue;        /* places whose changers are still to add */
    red_rows rows;                   /* per place: the live transitions that change it */
} cone;

static void cone_add_place(cone *c, uint32_t p)
{
    if (c->w->pstate[p] != RED_P_KEEP || c->in_p[p])
        return;
    c->in_p[p] = 1;
    c->queue[c->n_queue++] = p;
}

static void cone_add_transition(cone *c, uint32_t t)
{
    const pn_cnet *cn = c->w->cn;
    if (c->in_t[t])
        return;
    c->in_t[t] = 1;
    for (uint32_t k = cn->pre_off[t]; k < cn->pre_off[t + 1]; k++)
        cone_add_place(c, cn->pre[k].place);
}

static void cone_free(cone *c)
{
    free(c->in_p);
    free(c->in_t);
    free(c->queue);
    red_rows_free(&c->rows);
}

pn_status red_cone(red_work *w, uint32_t *removed, pn_error *err)
{
    const pn_cnet *cn = w->cn;
    uint32_t P = cn->n_places, T = cn->n_transitions;
    *removed = 0;
    cone c = {.w = w};
    c.in_p = calloc((size_t)P + 1, 1);
    c.in_t = calloc((size_t)T + 1, 1);
    c.queue = malloc(((size_t)P + 1) * sizeof *c.queue);
    pn_status st = c.in_p == NULL || c.in_t == NULL || c.queue == NULL
                       ? pn_fail(err, PN_ERR_NOMEM, "out of memory")
                       : red_rows_build(w, &c.rows, err);
    if (st != PN_OK) {
        cone_free(&c);
        return st;
    }
    bool any = false;
    for (uint32_t p = 0; p < P; p++)
        if (w->pobs[p] && w->pstate[p] == RED_P_KEEP) {
            cone_add_place(&c, p);
            any = true;
        }
    for (uint32_t t = 0; t < T; t++)
        if (w->tobs[t] && red_alive(w, t)) {
            cone_add_transition(&c, t);
            any = true;
        }
    while (c.n_queue > 0) {
        uint32_t p = c.queue[--c.n_queue];
        for (uint32_t k = c.rows.off[p]; k < c.rows.off[p + 1]; k++)
            cone_add_transition(&c, c.rows.t[k]);
    }
    /* Formulas that read nothing are constants: the net stays for them. */
    for (uint32_t p = 0; any && p < P; p++)
        if (w->pstate[p] == RED_P_KEEP && !c.in_p[p]) {
            w->pstate[p] = RED_P_GONE;
            (*removed)++;
        }
    for (uint32_t t = 0; any && t < T; t++)
        if (red_alive(w, t) && !c.in_t[t]) {
            w->tmap[t] = RED_T_NULL;
            (*removed)++;
        }
    cone_free(&c);
    return PN_OK;
}
