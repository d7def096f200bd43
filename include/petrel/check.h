/* Answering an examination on the fly: the formulas (or global property) of
 * one examination, evaluated on every state the engine expands, each decided
 * as soon as a witness proves it; the exploration stops when all are. */
#ifndef PETREL_CHECK_H
#define PETREL_CHECK_H

#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/engine.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/mcc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pn_verdict {
    PN_VERDICT_UNKNOWN = 0, /* not proven: print CANNOT_COMPUTE */
    PN_VERDICT_TRUE,
    PN_VERDICT_FALSE,
    PN_VERDICT_VALUE        /* an integer (UpperBounds) */
} pn_verdict;

typedef struct pn_answer {
    const char *id;         /* formula id, or the examination name */
    pn_verdict verdict;
    uint64_t value;
    bool has_witness;       /* a state proved it (EF found, AG violated, ...) */
    uint64_t witness;       /* its id: pn_engine_trace gives the path */
    /* A firing-sequence witness (pn_check_set_lasso, pn_check_set_path):
     * lasso_prefix transitions from the initial marking, then lasso_cycle
     * ones repeated forever; UINT32_MAX is a deadlock's stuttering step.
     * An LTL counterexample or a CTL path; lasso_cycle 0: a finite path
     * to a marking that proves the answer (a CTL path, or the witness of a
     * random walk or of the linear layer). NULL: none. */
    const uint32_t *lasso;
    uint64_t lasso_prefix, lasso_cycle;
    /* pn_technique bits naming what decided it; 0: the exploration. */
    uint32_t techniques;
} pn_answer;

typedef struct pn_check pn_check;

/* set: the examination's formulas (NULL for global properties); borrowed
 * and must outlive the check. threads: the most workers that will call the
 * visitor. */
pn_status pn_check_new(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                       uint32_t threads, pn_check **out, pn_error *err);
void pn_check_free(pn_check *c);

/* The visitor to pass in pn_engine_opts. */
const pn_visitor *pn_check_visitor(pn_check *c);
/* True when every answer is already known (no exploration needed). */
bool pn_check_decided(const pn_check *c);
/* Turns what the exploration proved into answers: a complete exploration
 * decides everything that has no witness; any other end, or res NULL (no
 * exploration was run), leaves those unknown. */
void pn_check_finish(pn_check *c, const pn_engine_result *res);

/* True when some answer needs the state graph (CTL beyond reachability,
 * Liveness): the caller then explores with record_graph instead of this
 * visitor, finishes with res NULL (keeping what was decided up front) and
 * fills in the rest with pn_check_set. */
bool pn_check_needs_graph(const pn_check *c);
void pn_check_set(pn_check *c, uint32_t i, pn_verdict v);
/* Records what decided answer i (pn_technique bits), for its TECHNIQUES. */
void pn_check_set_techniques(pn_check *c, uint32_t i, uint32_t techniques);
/* Answer i of c, still unknown, becomes answer j of another check over the
 * same formula (on another net: no witness or trace comes along), decided
 * also by the techniques bits; nothing when either is not so. Before or
 * after a job on c: its exploration no longer looks for it. */
void pn_check_take(pn_check *c, uint32_t i, const pn_check *from, uint32_t j,
                   uint32_t techniques);
/* Hands answer i a counterexample lasso (trans: prefix + cycle entries,
 * malloc'ed; the check owns and frees it). */
void pn_check_set_lasso(pn_check *c, uint32_t i, uint32_t *trans, uint64_t prefix,
                        uint64_t cycle);
/* Hands answer i the firing sequence trans[0..n) (malloc'ed; the check
 * owns it) that reaches its witness marking: a lasso without a cycle. */
void pn_check_set_path(pn_check *c, uint32_t i, uint32_t *trans, uint64_t n);
/* Answer i gets what proves answer j of another check over the same net:
 * its witness state and a copy of its path or lasso (a global property
 * decided by one of its items, examine/global.c). */
void pn_check_adopt_proof(pn_check *c, uint32_t i, const pn_check *from, uint32_t j);

/* ---- deciding before the exploration (host/linear) ----------------------
 * What undecided answer i asks, as the classification above read it (top
 * negations peeled off): E F phi or A G phi (*phi, borrowed; the global
 * ReachabilityDeadlock is E F deadlock), or the bound
 * of *places[0..*n_places); PN_TARGET_NONE for anything else. */
typedef enum pn_check_target {
    PN_TARGET_NONE,
    PN_TARGET_EF,
    PN_TARGET_AG,
    PN_TARGET_BOUND
} pn_check_target;
pn_check_target pn_check_target_of(const pn_check *c, uint32_t i, const pn_fml_node **phi,
                                   const uint32_t **places, uint32_t *n_places);
/* A proof that E F phi / A G phi (the target itself, before the peeled
 * negations) holds or not; the exploration no longer looks for it. */
void pn_check_decide_target(pn_check *c, uint32_t i, bool holds, uint32_t techniques);
/* A proven upper bound of bound answer i: the answer is limit once a
 * reachable marking reaches it; reached: the caller already saw one. A
 * bound not reached that is no tighter than one known already is dropped. */
void pn_check_bound_limit(pn_check *c, uint32_t i, uint64_t limit, bool reached,
                          uint32_t techniques);

/* Streaming answers: fn(ctx, c, i) is called once per answer, as soon as
 * it is final (pn_check_answer(c, i) no longer changes), from whichever
 * thread decided it (exploration workers included: fn must be
 * thread-safe). Answers already decided are reported at once. Callers that
 * set techniques do so before the verdict. fn NULL: none. */
typedef void (*pn_check_listener)(void *ctx, const pn_check *c, uint32_t i);
void pn_check_on_decide(pn_check *c, pn_check_listener fn, void *ctx);
/* Every answer told to the listener from now on also carries techniques
 * (e.g. STRUCTURAL_REDUCTION when c runs on a reduced net); an answer with
 * none yet counts as EXPLICIT. Call before pn_check_on_decide. */
void pn_check_add_techniques(pn_check *c, uint32_t techniques);
/* A proof of the whole of formula i (any shape, top negations included),
 * e.g. from its reachability sub-formulas; it no longer needs the graph. */
void pn_check_decide_answer(pn_check *c, uint32_t i, bool holds, uint32_t techniques);
/* The proven upper bound of open bound answer i (*techniques: what proved
 * it); false when none is known or the answer is decided. */
bool pn_check_bound_known(const pn_check *c, uint32_t i, uint64_t *limit,
                          uint32_t *techniques);

/* ---- a distributed exploration (dist.h) ----------------------------------
 * What the visitor learned from this process's states, as `words` 64-bit
 * and `bytes` 8-bit entries (pn_check_shared_size) that merge across the
 * ranks by element-wise maximum: per answer its verdict and its maximum;
 * per transition "seen enabled" and per place "seen moved" where tracked.
 * Called between rounds, with no visitor running. shared_put takes the
 * maxima back: an answer a witness on another rank decided is decided here
 * too (without a witness id: that state is not this process's). Returns
 * true when every answer the exploration can decide is decided. */
void pn_check_shared_size(const pn_check *c, uint32_t *words, uint32_t *bytes);
void pn_check_shared_get(const pn_check *c, uint64_t *words, uint8_t *bytes);
bool pn_check_shared_put(pn_check *c, const uint64_t *words, const uint8_t *bytes);

uint32_t pn_check_count(const pn_check *c);
const pn_answer *pn_check_answer(const pn_check *c, uint32_t i);

/* ---- steps beside each other ----------------------------------------------
 * The check is not thread-safe beyond its visitor: while two steps run at
 * once, each reads and writes the answers between pn_check_lock and
 * pn_check_unlock (uncontended, they cost next to nothing alone).
 * pn_check_open / pn_check_open_count take the lock themselves. */
void pn_check_lock(pn_check *c);
void pn_check_unlock(pn_check *c);
bool pn_check_open(pn_check *c, uint32_t i);
uint32_t pn_check_open_count(pn_check *c);
/* What the answers were asked for is settled (a global property its items
 * decided, examine/global.c): no answer counts as open any more, target_of
 * names none, the visitor stops the exploration, and work on any answer
 * ends (its flag is raised). Safe from any thread, e.g. a listener. */
void pn_check_close(pn_check *c);
/* share, for work on answer i, ends (PN_ERR_CANCELLED) the moment i is
 * final, whoever decided it (pn_budget.drop). */
void pn_check_watch(const pn_check *c, uint32_t i, pn_budget *share);

#ifdef __cplusplus
}
#endif
#endif
