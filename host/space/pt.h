/* Internal to host/space/: the P/T net as a pn_space (pt.c), its static
 * relations (pt_static.c) and the dispatch (space.c). */
#ifndef PETREL_SPACE_PT_H
#define PETREL_SPACE_PT_H

#include "net/layout.h"
#include "petrel/space.h"

typedef struct pn_pt {
    const pn_cnet *cn;
    pn_layout *lay;
    pn_layout *prev;          /* the layout before the last widening */
    uint8_t *widths, *flags;  /* flags: per place, to widen */
    uint64_t *succ;           /* one successor being built */
    uint32_t *trans;          /* enabled transitions of one state */
    /* static relations, CSR by transition (built on first use) */
    uint32_t *rd_off, *rd, *wr_off, *wr;
    uint32_t *en_off, *en, *dis_off, *dis;
} pn_pt;

/* The static information of a language module other than the P/T net
 * (host/space/mcmt.c): what pn_pt computes from the arcs, built by the
 * module from what its transitions read and write. */
typedef struct pn_space_statics {
    uint32_t places, transitions, words;
    uint32_t *rd_off, *rd, *wr_off, *wr; /* CSR by transition */
    uint32_t *en_off, *en, *dis_off, *dis;
    pn_space_field *field;    /* per place */
    uint32_t *bit_place;      /* per bit of the state, UINT32_MAX: unused */
} pn_space_statics;

struct pn_space {
    const pn_space_ops *ops;
    void *self;
    pn_space *inner;
    pn_pt *pt;                /* the P/T net at the bottom of the layers, or NULL */
    const pn_space_statics *mod; /* where pt is NULL: the module's */
};

/* A base space of a module (ops, self) whose statics st stay owned by
 * self; self is freed by ops->free on failure too. */
pn_status pn_space_module_new(const pn_space_ops *ops, void *self, const pn_space_statics *st,
                              pn_space **out, pn_error *err);
/* st->en / st->dis from rd and wr: t may enable or disable u when t writes
 * a place u reads (the conservative reading of a module's transitions,
 * as LTSmin's PINS dependency matrices); bit_place from field. */
pn_status pn_space_statics_derive(pn_space_statics *st, pn_error *err);
void pn_space_statics_free(pn_space_statics *st);

extern const pn_space_ops pn_pt_ops;

void pn_pt_free(void *self);
/* The read and write sets; PN_ERR_NOMEM. */
pn_status pn_pt_static_rw(pn_pt *pt, pn_error *err);
pn_status pn_pt_static_relations(pn_pt *pt, pn_error *err);
void pn_pt_static_free(pn_pt *pt);

#endif
