/* The P/T net as a pn_space: states packed by net/layout.h, enabledness
 * and firing by kernels/pn_state.h (the same code as the BFS engines'
 * fused expansion in kernels/pn_expand.h), labels by the compiled state
 * formulas of kernels/pn_sformula.h. Widening doubles the flagged fields
 * (pn_layout_widen) and keeps the previous layout for pn_space_repack. */
#include <stdlib.h>
#include <string.h>

#include "formula/sformula.h"
#include "space/pt.h"

static uint32_t pt_words(void *self, pn_space *inner)
{
    (void)inner;
    return ((pn_pt *)self)->lay->prog.words;
}

static void pt_initial(void *self, pn_space *inner, uint64_t *s)
{
    (void)inner;
    pn_pt *pt = self;
    pn_layout_pack(pt->lay, pt->cn->m0, s); /* the initial widths cover m0 */
}

static uint32_t pt_next_all(void *self, pn_space *inner, const uint64_t *s,
                            pn_space_succ_fn fn, void *ctx)
{
    (void)inner;
    pn_pt *pt = self;
    const pn_prog *g = &pt->lay->prog;
    uint32_t n = pn_state_enabled_list(g, s, pt->trans);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t of = pn_state_fire(g, s, pt->trans[k], pt->succ);
        if (of != 0)
            return g->inc[of - 1].place + 1;
        fn(ctx, pt->trans[k], pt->succ);
    }
    return 0;
}

static uint32_t pt_fire(void *self, pn_space *inner, const uint64_t *s, uint32_t t,
                        uint64_t *out)
{
    (void)inner;
    const pn_prog *g = &((pn_pt *)self)->lay->prog;
    uint32_t of = pn_state_fire(g, s, t, out);
    return of != 0 ? g->inc[of - 1].place + 1 : 0;
}

static uint32_t pt_enabled(void *self, pn_space *inner, const uint64_t *s, uint32_t *out)
{
    (void)inner;
    return pn_state_enabled_list(&((pn_pt *)self)->lay->prog, s, out);
}

static void pt_marking(void *self, pn_space *inner, const uint64_t *s, uint64_t *m)
{
    (void)inner;
    pn_state_unpack(&((pn_pt *)self)->lay->prog, s, m);
}

static pn_status pt_widen(void *self, pn_space *inner, const uint32_t *places, uint32_t n,
                          pn_error *err)
{
    (void)inner;
    pn_pt *pt = self;
    for (uint32_t k = 0; k < n; k++)
        pt->flags[places[k]] = 1;
    if (!pn_layout_widen(pt->widths, pt->flags, pt->cn->n_places)) {
        memset(pt->flags, 0, pt->cn->n_places);
        return pn_fail(err, PN_ERR_UNSUPPORTED, "a token count passes 2^64-1");
    }
    pn_layout *nl = NULL;
    pn_status st = pn_layout_new(pt->cn, pt->widths, &nl, err);
    uint64_t *succ = st == PN_OK ? malloc((size_t)nl->prog.words * sizeof *succ) : NULL;
    if (st == PN_OK && succ == NULL)
        st = pn_fail(err, PN_ERR_NOMEM, "out of memory for a wider layout");
    if (st != PN_OK) {
        pn_layout_free(nl);
        return st;
    }
    pn_layout_free(pt->prev);
    free(pt->succ);
    pt->prev = pt->lay;
    pt->lay = nl;
    pt->succ = succ;
    return PN_OK;
}

static void pt_repack(void *self, pn_space *inner, const uint64_t *old_s, uint64_t *s)
{
    (void)inner;
    pn_pt *pt = self;
    pn_state_repack(&pt->prev->prog, &pt->lay->prog, old_s, s);
}

void pn_pt_free(void *self)
{
    pn_pt *pt = self;
    if (pt == NULL)
        return;
    pn_layout_free(pt->lay);
    pn_layout_free(pt->prev);
    free(pt->widths);
    free(pt->flags);
    free(pt->succ);
    free(pt->trans);
    pn_pt_static_free(pt);
    free(pt);
}

const pn_space_ops pn_pt_ops = {
    .words = pt_words,
    .initial = pt_initial,
    .next_all = pt_next_all,
    .fire = pt_fire,
    .enabled = pt_enabled,
    .next_is_enabled = true, /* pt_next_all: pn_state_enabled_list, then pn_state_fire */
    .marking = pt_marking,
    .widen = pt_widen,
    .repack = pt_repack,
    .free = pn_pt_free,
};

static pn_status pt_init(pn_pt *pt, const pn_cnet *cn, pn_error *err)
{
    pt->cn = cn;
    pn_status st = pn_layout_initial_widths(cn, &pt->widths, err);
    if (st == PN_OK)
        st = pn_layout_new(cn, pt->widths, &pt->lay, err);
    if (st != PN_OK)
        return st;
    pt->flags = calloc((size_t)cn->n_places + 1, 1);
    pt->succ = malloc((size_t)pt->lay->prog.words * sizeof *pt->succ);
    pt->trans = malloc(((size_t)cn->n_transitions + 1) * sizeof *pt->trans);
    if (pt->flags == NULL || pt->succ == NULL || pt->trans == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for the state space");
    return pn_pt_static_rw(pt, err);
}

pn_status pn_space_pt_new(const pn_cnet *cn, pn_space **out, pn_error *err)
{
    *out = NULL;
    pn_pt *pt = calloc(1, sizeof *pt);
    pn_space *sp = calloc(1, sizeof *sp);
    pn_status st = pt != NULL && sp != NULL
                       ? pt_init(pt, cn, err)
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory for the state space");
    if (st != PN_OK) {
        pn_pt_free(pt);
        free(sp);
        return st;
    }
    *sp = (pn_space){.ops = &pn_pt_ops, .self = pt, .inner = NULL, .pt = pt};
    *out = sp;
    return PN_OK;
}

/* ---- labels ------------------------------------------------------------- */

struct pn_space_atoms {
    pn_pt *pt;
    pn_sformula_owned **sf;
    uint32_t n, words;
    bool need_enabled;
    bool packed;              /* read the packed state: the atoms read few places */
    uint64_t *mk;             /* one marking, all zero between uses */
    uint32_t *nz;             /* its marked places */
};

void pn_space_atoms_free(pn_space_atoms *a)
{
    if (a == NULL)
        return;
    for (uint32_t i = 0; a->sf != NULL && i < a->n; i++)
        pn_sformula_free(a->sf[i]);
    free(a->sf);
    free(a->mk);
    free(a->nz);
    free(a);
}

static bool atoms_uses_deadlock(const pn_sformula *f)
{
    for (uint32_t i = 0; i < f->len; i++)
        if (f->code[i].op == PN_SF_DEADLOCK)
            return true;
    return false;
}

/* The token counts one evaluation of f may read: a place per term entry,
 * an input arc per transition of a fireable atom. */
static uint64_t atoms_reads(const pn_sformula *f, const pn_cnet *cn)
{
    uint64_t reads = 0;
    for (uint32_t i = 0; i < f->len; i++) {
        const pn_sf_instr *in = &f->code[i];
        if (in->op == PN_SF_LE)
            reads += (uint64_t)in->a.n + in->b.n;
        for (uint32_t k = 0; in->op == PN_SF_FIREABLE && k < in->a.n; k++) {
            uint32_t t = f->list[in->a.off + k];
            reads += cn->pre_off[t + 1] - cn->pre_off[t];
        }
    }
    return reads;
}

/* Unpacking a state costs a pass over its words and a write per marked
 * place, before an atom reads anything: on a net of thousands of places
 * whose formula reads a few dozen, that pass was most of a local CTL
 * check's time (RwMutex-PT-r2000w0010, 6,020 places: 28 % of a run in
 * this function, 4.5 % reading the packed fields). A packed read costs a
 * shift and a mask more than an unpacked one, and on a small net the two
 * cost about the same (BridgeAndVehicles-PT-V80P20N10, 188 places, atoms
 * reading up to a quarter of them: 13 % of a run unpacked, 14 % packed).
 * Atoms that read fewer counts than a sixteenth of the places read them
 * from the packed fields. */
#define ATOMS_PACKED_READS_PER_PLACE 16

static pn_status atoms_compile(pn_space_atoms *a, const pn_fml_node *const *atoms,
                               pn_error *err)
{
    uint64_t reads = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        if (pn_sformula_compile(atoms[i], &a->sf[i], err) != PN_OK)
            return err->code;
        a->need_enabled |= atoms_uses_deadlock(&a->sf[i]->f);
        reads += atoms_reads(&a->sf[i]->f, a->pt->cn);
    }
    a->packed = reads * ATOMS_PACKED_READS_PER_PLACE < a->pt->cn->n_places;
    return PN_OK;
}

pn_status pn_space_atoms_new(pn_space *sp, const pn_fml_node *const *atoms, uint32_t n,
                             pn_space_atoms **out, pn_error *err)
{
    *out = NULL;
    uint32_t P = sp->pt->cn->n_places;
    pn_space_atoms *a = calloc(1, sizeof *a);
    if (a != NULL) {
        *a = (pn_space_atoms){.pt = sp->pt, .n = n, .words = n / 64 + 1};
        a->sf = calloc((size_t)n + 1, sizeof *a->sf);
        a->mk = calloc((size_t)P + 1, sizeof *a->mk);
        a->nz = malloc(((size_t)P + 1) * sizeof *a->nz);
    }
    pn_status st = a != NULL && a->sf != NULL && a->mk != NULL && a->nz != NULL
                       ? atoms_compile(a, atoms, err)
                       : pn_fail(err, PN_ERR_NOMEM, "out of memory for state labels");
    if (st != PN_OK) {
        pn_space_atoms_free(a);
        return st;
    }
    *out = a;
    return PN_OK;
}

uint32_t pn_space_atoms_words(const pn_space_atoms *a) { return a->words; }

bool pn_space_atoms_need_enabled(const pn_space_atoms *a) { return a->need_enabled; }

void pn_space_atoms_eval(pn_space_atoms *a, const uint64_t *s, uint32_t n_enabled,
                         uint64_t *letter)
{
    const pn_prog *g = &a->pt->lay->prog;
    memset(letter, 0, a->words * sizeof *letter);
    if (a->packed) {
        for (uint32_t i = 0; i < a->n; i++)
            if (pn_sf_eval_packed(&a->sf[i]->f, g, s, n_enabled))
                letter[i / 64] |= 1ULL << (i % 64);
        return;
    }
    /* Markings are sparse: unpack and clear only the marked places. */
    uint32_t n = pn_state_unpack_sparse(g, s, a->mk, a->nz);
    for (uint32_t i = 0; i < a->n; i++)
        if (pn_sf_eval(&a->sf[i]->f, g, a->mk, n_enabled, NULL))
            letter[i / 64] |= 1ULL << (i % 64);
    for (uint32_t k = 0; k < n; k++)
        a->mk[a->nz[k]] = 0;
}
