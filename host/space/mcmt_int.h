/* Internal to host/space/: an MCMT instance (mcmt.c) as its translation
 * to a P/T net (mcmt_net.c) reads it. */
#ifndef PETREL_SPACE_MCMT_INT_H
#define PETREL_SPACE_MCMT_INT_H

#include "petrel/mcmt.h"
#include "space/pt.h"

/* A conjunct of :initial or a :system_axiom, by what its truth depends on. */
typedef enum mc_class { MC_GLOBAL, MC_ONE, MC_FULL } mc_class;

typedef struct mc_conj {
    uint32_t term;
    uint8_t cls;
    uint8_t var;      /* MC_ONE: the variable */
    uint32_t vars;    /* variables used (bits) */
    bool initial;     /* of :initial (else an axiom) */
} mc_conj;

typedef struct mc {
    const pn_mcmt_sys *sys;
    pn_mcmt_bound b;
    uint32_t N, words;
    uint32_t n_cells;
    uint32_t *cell0;       /* per array, then per param: the first cell */
    uint32_t crash0;       /* the crash flags' first cell */
    int64_t *lo, *hi;      /* per array then param: the values */
    int64_t *clo, *chi;    /* per cell: the values */
    int64_t *hard_lo, *hard_hi; /* per array then param: the type's own bounds */
    uint64_t *mask;        /* per cell */
    pn_space_statics st;
    uint32_t *tbase;       /* per transition of sys: its first space transition */
    bool *frame;           /* per transition: only x changes (mc_frame) */
    uint64_t *init;
    uint64_t n_init;
    mc_conj *conj;
    uint32_t n_conj;
    int64_t *tmp;          /* per array: the values one case gives */
    char pend_msg[300], cut_msg[300]; /* mc_env.pend, .cut (an env is made per step) */
    uint32_t *over_cell;   /* per cell at most: values past --int-range (mc_env.n_over) */
    int64_t *over_val;
    pn_mcmt_defect defect;
    char defect_msg[300];
} mc;

/* How a defect met while a term is evaluated is taken (mc_env.mode). */
typedef enum mc_mode {
    MC_DIRECT,  /* recorded at once (guards, initial and unsafe formulas) */
    MC_FAST,    /* the update stops and is done again carefully (mc_env.defer) */
    MC_CAREFUL  /* the first is kept (pend) and the update goes on */
} mc_mode;

typedef struct mc_env {
    mc *m;
    const uint64_t *s;
    int64_t v[PN_MCMT_VARS];
    bool bad;            /* a value could not be computed */
    uint8_t mode;        /* mc_mode */
    bool defer;          /* MC_FAST: something irregular, do it again carefully */
    pn_mcmt_defect pend; /* MC_CAREFUL: the first defect met (m->pend_msg) */
    pn_mcmt_defect cut;  /* MC_CAREFUL: a value past --int-range met (m->cut_msg) */
    uint32_t n_put;      /* MC_CAREFUL: cells whose new value has no field (m->over_*) */
    uint32_t n_over;     /* reads of those cells see m->over_val (the axioms, after) */
} mc_env;

/* ---- cells ---------------------------------------------------------------------- */

static inline int64_t mc_get(const mc *m, const uint64_t *s, uint32_t c, int64_t lo)
{
    const pn_space_field *f = &m->st.field[c];
    return lo + (int64_t)((s[f->word] >> f->shift) & m->mask[c]);
}

static inline void mc_set(const mc *m, uint64_t *s, uint32_t c, int64_t lo, int64_t v)
{
    const pn_space_field *f = &m->st.field[c];
    s[f->word] = (s[f->word] & ~(m->mask[c] << f->shift)) | ((uint64_t)(v - lo) << f->shift);
}

static inline uint32_t mc_cell_of(const mc *m, uint32_t a, uint32_t p)
{
    return m->cell0[a] + (m->sys->arrays[a].global ? 0 : p);
}


/* The module under sp's layers; NULL when sp is not an MCMT instance. */
mc *pn_mcmt_of(pn_space *sp);
/* Space transition t as (transition of sys, x, y). */
void pn_mcmt_decode(const mc *m, uint32_t t, uint32_t *ti, int64_t *x, int64_t *y);
/* The successor of s by transition ti with x, y bound, into out; false
 * when it is not enabled there. */
bool pn_mcmt_try(mc *m, const uint64_t *s, uint32_t ti, int64_t x, int64_t y, uint64_t *out);

#endif
