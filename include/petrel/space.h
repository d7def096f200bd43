/* The state-space interface: what every method that walks states plugs
 * into, in the spirit of LTSmin's PINS (Blom, van de Pol and Weber,
 * "LTSmin: distributed and symbolic reachability", CAV 2010): an opaque
 * handle that gives the initial state, the successors of a state with the
 * transition that leads to each, the enabled transitions, the state labels
 * (compiled state formulas), and the static information that reductions
 * need (read and write sets, the may-enable and may-disable relations
 * between transitions, the place <-> bit layout).
 *
 * A state is a vector of pn_space_words() 64-bit words. The P/T net
 * (pn_space_pt_new) is the first implementation; MCMT array-based systems
 * (pn_mcmt_space_new, petrel/mcmt.h) the second, whose places are array
 * cells and whose transitions are transitions with their process
 * variables bound. A layer (a stubborn-set
 * filter, a reduced net, a partition, random walks) wraps a pn_space and is
 * a pn_space: it gives the operations it changes in a pn_space_ops table
 * and leaves the others NULL, which forwards them to the inner space.
 *
 * A filtering layer (which transitions to take) should compute
 * pn_space_enabled and pn_space_fire the chosen ones rather than filter
 * pn_space_next_all: firing a dropped transition can overflow a field for
 * nothing.
 *
 * Packed fields can overflow. A successor call then reports the place
 * (pn_space_next_all / pn_space_fire return its index + 1 and stop); the caller asks for
 * pn_space_widen, after which states of the previous layout are converted
 * with pn_space_repack. Widening happens nowhere else. */
#ifndef PETREL_SPACE_H
#define PETREL_SPACE_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/cnet.h"
#include "petrel/error.h"
#include "petrel/formula.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pn_space pn_space;

/* One successor: the transition and the successor's words (valid during
 * the call only). */
typedef void (*pn_space_succ_fn)(void *ctx, uint32_t trans, const uint64_t *succ);

/* A compressed list: items[off[i] .. off[i + 1]) belong to i. */
typedef struct pn_space_csr {
    const uint32_t *off;
    const uint32_t *items;
} pn_space_csr;

/* Where a place lives in the state vector. */
typedef struct pn_space_field {
    uint32_t word, shift, width;
} pn_space_field;

/* The operations of a space or of a layer. self is the implementation's
 * own data; inner is the wrapped space (NULL for a base implementation).
 * A NULL entry in a layer forwards to inner. */
typedef struct pn_space_ops {
    uint32_t (*words)(void *self, pn_space *inner);
    void (*initial)(void *self, pn_space *inner, uint64_t *s);
    /* Calls fn for each successor of s; 0, or place + 1 of an overflow
     * (the calls made so far stand, the rest are missing). */
    uint32_t (*next_all)(void *self, pn_space *inner, const uint64_t *s, pn_space_succ_fn fn,
                         void *ctx);
    /* The successor of s by t (enabled in s) into out (words words); 0, or
     * place + 1 of an overflow (out unspecified). */
    uint32_t (*fire)(void *self, pn_space *inner, const uint64_t *s, uint32_t t, uint64_t *out);
    /* Writes the enabled transitions (room for n_transitions); how many. */
    uint32_t (*enabled)(void *self, pn_space *inner, const uint64_t *s, uint32_t *out);
    /* The marking of s, one count per place (unpacked). */
    void (*marking)(void *self, pn_space *inner, const uint64_t *s, uint64_t *m);
    pn_status (*widen)(void *self, pn_space *inner, const uint32_t *places, uint32_t n,
                       pn_error *err);
    void (*repack)(void *self, pn_space *inner, const uint64_t *old_s, uint64_t *s);
    void (*free)(void *self);
    /* Set by a layer whose next_all gives only some of the successors (a
     * partial-order reduction): pn_space_next_all_unreduced passes it by. */
    bool reduces;
    /* Set by a module whose next_all fires each of its enabled transitions
     * in enabled's order, by its fire, and nothing else: a consumer may
     * list the transitions and fire each one later (pn_space_defers). */
    bool next_is_enabled;
    /* Whether transition t is enabled in s (optional: a module that has it
     * lets kept enabled sets, pn_space_enset, test one transition; the P/T
     * net's sets test it on the compiled net directly). */
    bool (*enabled_one)(void *self, pn_space *inner, const uint64_t *s, uint32_t t);
} pn_space_ops;

/* The P/T net with its starting layout (net/layout.h); cn is borrowed. */
pn_status pn_space_pt_new(const pn_cnet *cn, pn_space **out, pn_error *err);
/* A layer over inner (owned: freed with the layer); self is freed by
 * ops->free when that is not NULL. */
pn_status pn_space_layer_new(const pn_space_ops *ops, void *self, pn_space *inner,
                             pn_space **out, pn_error *err);
void pn_space_free(pn_space *sp);

/* ---- dynamic: states ---------------------------------------------------- */

uint32_t pn_space_words(pn_space *sp);
void pn_space_initial(pn_space *sp, uint64_t *s);
uint32_t pn_space_next_all(pn_space *sp, const uint64_t *s, pn_space_succ_fn fn, void *ctx);
uint32_t pn_space_fire(pn_space *sp, const uint64_t *s, uint32_t t, uint64_t *out);
/* Whether the successors of a state are exactly its enabled transitions
 * (pn_space_enabled), each fired by pn_space_fire, in that order: the
 * next_all, enabled and fire the chain dispatches to are one module's,
 * and that module says so (next_is_enabled). */
bool pn_space_defers(pn_space *sp);
/* The successors by every enabled transition, the reducing layers passed
 * by (the same as pn_space_next_all where none is in the chain). */
uint32_t pn_space_next_all_unreduced(pn_space *sp, const uint64_t *s, pn_space_succ_fn fn,
                                     void *ctx);
/* Some layer of the chain reduces (ops->reduces). */
bool pn_space_reduces(const pn_space *sp);
uint32_t pn_space_enabled(pn_space *sp, const uint64_t *s, uint32_t *out);
/* Whether t is enabled in s, by the first space of the chain that has
 * enabled_one; where none has, whether t is among pn_space_enabled's. */
bool pn_space_enabled_one(pn_space *sp, const uint64_t *s, uint32_t t);
void pn_space_marking(pn_space *sp, const uint64_t *s, uint64_t *m);
uint64_t pn_space_hash(const uint64_t *s, uint32_t words);

/* Widening: the fields of places[0..n) double (at most 64 bits);
 * PN_ERR_UNSUPPORTED when one is at 64 bits already (a count past
 * 2^64-1). pn_space_words may change; pn_space_repack converts a state of
 * the layout before the last widening. */
pn_status pn_space_widen(pn_space *sp, const uint32_t *places, uint32_t n, pn_error *err);
void pn_space_repack(pn_space *sp, const uint64_t *old_s, uint64_t *s);

/* ---- labels: compiled state formulas ------------------------------------ */

/* A set of state formulas evaluated together into a letter of
 * pn_space_atoms_words() words (bit a = atom a holds). */
typedef struct pn_space_atoms pn_space_atoms;

pn_status pn_space_atoms_new(pn_space *sp, const pn_fml_node *const *atoms, uint32_t n,
                             pn_space_atoms **out, pn_error *err);
void pn_space_atoms_free(pn_space_atoms *a);
uint32_t pn_space_atoms_words(const pn_space_atoms *a);
/* Some atom reads "deadlock": the evaluation needs the enabled count. */
bool pn_space_atoms_need_enabled(const pn_space_atoms *a);
/* n_enabled: the transitions enabled in s (read only when needed). */
void pn_space_atoms_eval(pn_space_atoms *a, const uint64_t *s, uint32_t n_enabled,
                         uint64_t *letter);

/* ---- static information (of the base net; layers may refine) ------------ */

uint32_t pn_space_places(const pn_space *sp);
uint32_t pn_space_transitions(const pn_space *sp);
/* The base net, borrowed (its arcs, e.g. for the distances of directed
 * walks); NULL over a language module other than the P/T net (petrel/mcmt.h),
 * whose "places" are its state variables. */
const pn_cnet *pn_space_cnet(const pn_space *sp);
/* Places a transition tests (its input places). */
pn_space_csr pn_space_reads(const pn_space *sp);
/* Places a transition changes (non-zero effect). */
pn_space_csr pn_space_writes(const pn_space *sp);
/* Per transition t, the transitions u that firing t may enable (t adds to
 * an input place of u) and may disable (t takes from an input place of
 * u), u != t included when it applies. Computed on first use; PN_ERR_NOMEM
 * when that fails. */
pn_status pn_space_may_enable(pn_space *sp, pn_space_csr *out, pn_error *err);
pn_status pn_space_may_disable(pn_space *sp, pn_space_csr *out, pn_error *err);
/* ---- enabled sets kept across firings (walks) ----------------------------
 * The transitions enabled in a state, kept up to date while a walk fires
 * one transition after another: after t, only the transitions t may enable
 * or disable are tested again (pn_space_may_enable / _disable), where
 * pn_space_enabled tests every transition a marked place triggers (on a
 * net of thousands of marked places, most of a walk step's time). */
typedef struct pn_space_enset {
    uint32_t *list;   /* the enabled transitions, n of them, in no order */
    uint32_t *pos;    /* per transition: its index in list, UINT32_MAX: not enabled */
    uint32_t n;
    pn_space_csr en, dis;
    uint32_t refill_above; /* listed afresh after a transition that may change more */
} pn_space_enset;

/* Allocates e for sp's transitions (and the static relations); PN_ERR_NOMEM. */
pn_status pn_space_enset_init(pn_space *sp, pn_space_enset *e, pn_error *err);
/* The list alone, empty, without relations (en, dis): for a caller that
 * tests the transitions itself and records them with pn_space_enset_put. */
pn_status pn_space_enset_alloc(pn_space_enset *e, uint32_t transitions, pn_error *err);
/* Records whether u is enabled (adds or removes it). */
void pn_space_enset_put(pn_space_enset *e, uint32_t u, bool enabled);
/* e becomes the transitions enabled in s. */
void pn_space_enset_fill(pn_space *sp, pn_space_enset *e, const uint64_t *s);
/* e held the transitions enabled before t fired; s is the state after:
 * e becomes the transitions enabled in s (listed afresh where t may enable
 * or disable too many for testing them again to pay). */
void pn_space_enset_fired(pn_space *sp, pn_space_enset *e, const uint64_t *s, uint32_t t);
void pn_space_enset_free(pn_space_enset *e);

/* The layout now (it changes with widening). */
pn_space_field pn_space_place_field(pn_space *sp, uint32_t place);
/* The place owning bit b of word w, UINT32_MAX for an unused bit. */
uint32_t pn_space_bit_place(pn_space *sp, uint32_t w, uint32_t b);

#ifdef __cplusplus
}
#endif
#endif
