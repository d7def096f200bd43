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

struct pn_space {
    const pn_space_ops *ops;
    void *self;
    pn_space *inner;
    pn_pt *pt;                /* the P/T net at the bottom of the layers */
};

extern const pn_space_ops pn_pt_ops;

void pn_pt_free(void *self);
/* The read and write sets; PN_ERR_NOMEM. */
pn_status pn_pt_static_rw(pn_pt *pt, pn_error *err);
pn_status pn_pt_static_relations(pn_pt *pt, pn_error *err);
void pn_pt_static_free(pn_pt *pt);

#endif
