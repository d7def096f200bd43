/* The examination driver: one MCC examination end to end, without I/O, for
 * P/T and coloured (unfolded) nets alike. It chooses the engine (the GPU for
 * StateSpace when usable, else the CPU), runs the on-the-fly checker for
 * what a witness or a complete exploration decides and the state graph with
 * the CTL, LTL or Liveness checkers for the rest, rewrites the global
 * properties of coloured nets into formulas over their coloured groups, and
 * reports every answer with what decided it. The CLI and the tests go
 * through here only. */
#ifndef PETREL_EXAMINE_H
#define PETREL_EXAMINE_H

#include <stdio.h>

#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/csim.h"
#include "petrel/engine.h"
#include "petrel/formula.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pn_engine_kind {
    PN_ENGINE_AUTO = 0,   /* the GPU when usable (StateSpace, the portfolio's
                           * explorations and walks), else the CPU */
    PN_ENGINE_CPU,
    PN_ENGINE_GPU,        /* the GPU only: fails where it cannot run */
    PN_ENGINE_GPU_OR_CPU  /* AUTO resolved to the GPU: the CPU if it fails */
} pn_engine_kind;

struct pn_dist; /* dist.h */

typedef struct pn_examine_opts {
    /* The engine's settings: threads, topology, progress, keep_parents
     * (traces), store; the driver sets budget, visitor, record_graph and
     * keep_states itself. */
    pn_engine_opts explore;
    pn_engine_kind engine;
    /* -v: per step and per answer what decided it and when, on diag. */
    bool verbose;
    /* Streaming: called as each answer of the examination is decided
     * (pn_check_on_decide), from whichever thread decided it; NULL: none. */
    void (*on_decide)(void *ctx, const pn_check *c, uint32_t i);
    void *on_decide_ctx;
    /* Every interleaving explored: no stubborn sets (petrel/stubborn.h). */
    bool no_por;
    /* The linear layer without its SMT check (linear.h). */
    bool no_smt;
    /* StateSpace by the explicit engines alone, without the decision
     * diagrams first (for comparisons and the engines' benchmarks). */
    bool no_dd;
    /* StateSpace by the decision diagrams alone, with the whole time: no
     * engines, no maxima by structure (for comparisons; no_dd wins). */
    bool dd_only;
    /* The MPI job this process is a rank of (dist.h), NULL: none. The
     * examination's first exploration then runs on every rank
     * (pn_dist_explore). */
    struct pn_dist *dist;
    /* One line per formula a checker could not answer (with the reason),
     * and the engine choice's notes; NULL: silent. */
    FILE *diag;
    /* Structural reductions (reduce.h), skipped when no_reduce (traces on
     * the reduced net map back: pn_report_trace); write_reduced (NULL:
     * none) gets the reduced net as PNML. */
    bool no_reduce;
    const char *write_reduced;
    /* Tests: every formula answered on a net reduced for it alone
     * (reduce_each.c), the formulas' joint net given no time; by default a
     * formula gets its own net only where that is at most half the joint
     * one, and the time the joint net leaves. */
    bool reduce_each_only;
    /* OneSafe, StableMarking, QuasiLiveness and Liveness of an unfolded net
     * on its P/T places and transitions rather than its coloured ones (the
     * MCC's generic properties of a coloured model are those of its P/T
     * twin, props.h). */
    bool pt_globals;
    /* UpperBounds: per formula of the set, an upper bound proven elsewhere
     * (a coloured net's skeleton, pn_examine_skeleton), UINT64_MAX for
     * none; NULL: none at all. Each answer is its bound once a reachable
     * marking reaches it (the walks aim at it). */
    const uint64_t *bound_limits;
} pn_examine_opts;

/* What one examination found. check: the answers (pn_check_count,
 * pn_check_answer; each with its techniques); NULL for StateSpace, whose
 * values are result's (pn_mcc_print_state_space). result: the exploration's
 * statistics (states == 0: nothing was explored) and, with keep_parents,
 * the BFS tree for traces (pn_engine_trace). */
typedef struct pn_report {
    pn_exam exam;
    pn_check *check;
    pn_engine_result result;
    struct pn_reduced *reduced; /* the net and formulas check answered on;
                                   NULL: the original ones */
    pn_fml_set *simplified;     /* CTL: the formulas check answered, after
                                   host/examine/ctl_simplify.c; NULL: none */
    const pn_cnet *original;    /* the net pn_examine was given (borrowed) */
} pn_report;

void pn_report_free(pn_report *r);

/* trans[0..n), a firing sequence of the net r's check answered on, as one
 * of the original net (*out malloc'd): expanded when r->reduced
 * (pn_reduce_expand), else copied. A deadlock of a reduced net (where a
 * ReachabilityDeadlock witness ends, or a lasso's deadlock step
 * UINT32_MAX stutters) is a marking of the original where a
 * pre-agglomerated producer may still be enabled (the reduced net fires it
 * only with its consumer): the original's enabled transitions are then
 * fired, lowest first, until a deadlock (at most 2^16 steps; the trace is
 * left as expanded when none is met), while r->original is still alive.
 * Those firings change nothing a formula reads (reduce_agglo.c). */
pn_status pn_report_trace(const pn_report *r, const uint32_t *trans, uint64_t n, uint32_t **out,
                          uint64_t *n_out, pn_error *err);
/* The same for a lasso (trans[0..n), its cycle from step cycle; n or more:
 * none): prefix and cycle expanded apart, *out holding both, the cycle
 * from step *cycle_out (*n_out when none); a run to a deadlock before a
 * cycle that stutters there is the prefix's. */
pn_status pn_report_lasso(const pn_report *r, const uint32_t *trans, uint64_t n, uint64_t cycle,
                          uint32_t **out, uint64_t *n_out, uint64_t *cycle_out, pn_error *err);

/* Resolves *kind before anything is read (so that a bad request fails
 * early): AUTO becomes GPU_OR_CPU on a usable GPU, else CPU (with a note to
 * diag). Every examination takes the GPU (what it cannot run there is host
 * work on the CPU); PN_ERR_UNSUPPORTED ("no usable GPU: <reason>"): GPU
 * asked for and none is usable. pn_examine calls it for AUTO. */
pn_status pn_examine_engine(pn_exam exam, pn_engine_kind *kind, FILE *diag, pn_error *err);

/* cn: the compiled net (cn->net names its coloured groups when it was
 * unfolded). set: the examination's formulas, simplified (NULL for
 * StateSpace and the global properties). budget (may be NULL: no limits)
 * bounds the whole examination; the driver charges what it keeps (the state
 * graph) and gives each formula a share of the time. On PN_OK, *out is a
 * new report (pn_report_free). An exploration that ran out of time or
 * memory is not an error: its answers stay UNKNOWN. */
pn_status pn_examine(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                     const pn_examine_opts *opts, pn_budget *budget, pn_report **out,
                     pn_error *err);

/* ---- a coloured net's colour-blind skeleton (host/examine/skeleton.c) ----
 * Whether pn_examine_skeleton answers anything of exam: ReachabilityCardinality,
 * ReachabilityFireability and UpperBounds. */
bool pn_examine_skeleton_applies(pn_exam exam);
/* The answers of set (read on skeleton, a net read with
 * pn_pnml_opts.skeleton) that the skeleton proves for the coloured net:
 * E F phi FALSE where the skeleton never reaches phi read upwards
 * (fireability over-approximated), A G phi TRUE where it always has phi
 * read downwards, either where the initial marking decides it, a bound
 * where the skeleton's equals the initial count. Each such answer sets
 * decided[i] (set->n entries, zeroed by the caller) and goes to
 * opts->on_decide once; the rest of the skeleton's answers say nothing of
 * the coloured net and are dropped. limits (NULL: not wanted; else
 * set->n entries): the skeleton's bound of each bound formula, an upper
 * bound of the coloured one (for pn_examine_opts.bound_limits), UINT64_MAX
 * where it found none. Within budget (the examination's whole machinery
 * runs on the skeleton). */
/* A firing sequence of a skeleton (its transitions: the coloured ones). */
typedef struct pn_skeleton_path {
    uint32_t *trans;  /* malloc'd; NULL: none */
    uint64_t n;
} pn_skeleton_path;
/* paths (NULL: not wanted; else set->n entries, zeroed): for each answer
 * the skeleton decided the other way, by a marking it reaches (E F phi
 * TRUE, A G phi FALSE, a bound above the initial count), the path to it,
 * for pn_skeleton_replay; the caller frees each trans. */
pn_status pn_examine_skeleton(const pn_cnet *skeleton, pn_exam exam, const pn_fml_set *set,
                              const pn_examine_opts *opts, pn_budget *budget, uint8_t *decided,
                              uint64_t *limits, pn_skeleton_path *paths, pn_error *err);
/* Whether pn_examine_skeleton_global answers anything of exam: OneSafe,
 * StableMarking, QuasiLiveness and Liveness (ReachabilityDeadlock: a
 * coloured deadlock may be no skeleton one). */
bool pn_examine_skeleton_global_applies(pn_exam exam);
/* The global property exam of the coloured net, from its items over the
 * coloured places and transitions (examine/global.h) on the skeleton,
 * each kept only where pn_examine_skeleton keeps it: *verdict TRUE or
 * FALSE where the kept items decide it (*techniques: theirs), else
 * UNKNOWN; Liveness only FALSE (a coloured transition that never fires).
 * Within budget. */
pn_status pn_examine_skeleton_global(const pn_cnet *skeleton, pn_exam exam,
                                     const pn_examine_opts *opts, pn_budget *budget,
                                     pn_verdict *verdict, uint32_t *techniques, pn_error *err);
/* Replays each path of the skeleton skel on cn, an unfolding of the same
 * coloured net (its transition groups named as skel's transitions): each
 * step fires an enabled unfolded transition of its coloured one, chosen
 * at random, a few times over. Where a replay gets through, the unfolded
 * marking it ends in has the skeleton's token counts, and it decides
 * answer i of c (over set on cn) where it proves it: E F phi TRUE, A G phi
 * FALSE where phi holds or fails there (phi as set has it, fireability
 * exact), a bound equal to limits[i] (the skeleton's, an upper bound).
 * Within budget. */
pn_status pn_skeleton_replay(const pn_cnet *cn, const pn_net *skel, const pn_fml_set *set,
                             const pn_skeleton_path *paths, const uint64_t *limits, pn_check *c,
                             const pn_budget *budget, pn_error *err);
/* Random walks on the coloured net sim itself, whose skeleton skel is (the
 * same places and transitions in the same order; else nothing is done):
 * each marking reached decides answer i of c (over set on skel, skip[i]
 * unset) where it proves it: E F phi TRUE, A G phi FALSE where phi holds
 * or fails there (token counts and fireability of the coloured net), a
 * bound equal to limits[i] (the skeleton's). Until every answer is decided,
 * the budget ends or the coloured net cannot be fired further (a binding
 * search past its bound). */
pn_status pn_skeleton_walk(pn_csim *sim, const pn_cnet *skel, const pn_fml_set *set,
                           const uint8_t *skip, const uint64_t *limits, pn_check *c,
                           const pn_budget *budget, pn_error *err);

#ifdef __cplusplus
}
#endif
#endif
