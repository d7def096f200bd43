/* The global properties as families of small questions (global.c), the way
 * ITS-Tools and TAPAAL decide them: OneSafe, StableMarking, QuasiLiveness
 * and Liveness are conjunctions or disjunctions over the places or the
 * transitions of the net, each member a reachability or bound question
 * that the plans already decide (the linear layer, walks, stubborn sets,
 * decision diagrams, exploration). An item decided leaves the job at once,
 * and the property is answered the moment the items decide it.
 *
 * On a net unfolded from a coloured one the MCC defines them on the
 * coloured places and transitions (groups, net.h): a coloured place is
 * one-safe (stable) when the sum over its colours is at most 1 (constant),
 * a coloured transition is quasi-live (live) when some binding of it is;
 * on a P/T net each place and transition is its own group. */
#ifndef PETREL_EXAMINE_GLOBAL_H
#define PETREL_EXAMINE_GLOBAL_H

#include "petrel/check.h"
#include "petrel/linear.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The items of exam on net (groups: over its coloured groups, else over its
 * P/T places and transitions), simplified:
 *   OneSafe        per place P: A G (tokens(P) <= 1)
 *   StableMarking  per place P: A G (tokens(P) = m0(P))
 *   QuasiLiveness  per transition T: E F fireable(T)
 *   Liveness       per transition T: E F fireable(T), then E F deadlock: the
 *                  ways it fails (pn_glob_live_items); what proves it is
 *                  pn_glob_build_live's
 * fireable(T) is false for a coloured T without bindings. */
pn_status pn_glob_build(const pn_net *net, pn_exam exam, bool groups, pn_fml_set **out,
                        pn_error *err);
/* Liveness per coloured transition T: A G E F fireable(T). */
pn_status pn_glob_build_live(const pn_net *net, pn_fml_set **out, pn_error *err);
/* The formula examination the items are checked as. */
pn_exam pn_glob_as(pn_exam exam);
/* The property from the items' answers so far: TRUE or FALSE once they
 * decide it (*techniques: what decided the items that did), UNKNOWN while
 * they do not. Liveness items only refute: never TRUE. */
pn_verdict pn_glob_fold(const pn_check *items, pn_exam exam, uint32_t *techniques);
/* Liveness over coloured groups from the A G E F items: every one TRUE. */
pn_verdict pn_glob_fold_live(const pn_check *items, uint32_t *techniques);

/* The same fold as the items are decided, one answer at a time, from any
 * thread (a listener's): n items of exam, counts kept atomically. */
typedef struct pn_glob_tally {
    pn_exam exam;
    uint32_t n;
    uint32_t settled;    /* items decided the way that needs them all */
    uint32_t techniques; /* of those */
} pn_glob_tally;
/* Item i was decided as a: the property's verdict when that decides it
 * (*techniques: what decided it), else UNKNOWN. */
pn_verdict pn_glob_tally_add(pn_glob_tally *t, uint32_t i, const pn_answer *a,
                             uint32_t *techniques);

/* Liveness refuted by a reachable marking from which a transition (over
 * coloured groups: every binding of one coloured transition) can never
 * fire again (pn_dying_at): a walk's probe (pn_walk_opts.probe, ctx a
 * pn_glob_dying). dead: the first such transition (group) found, atomic,
 * UINT32_MAX while none is. */
typedef struct pn_glob_dying {
    const pn_dying *dying;
    const pn_net *net;
    bool groups;
    uint32_t dead;
} pn_glob_dying;
bool pn_glob_dying_probe(void *ctx, const uint64_t *marking);

#ifdef __cplusplus
}
#endif
#endif
