/* The colour-blind skeleton's pass (skeleton_cli.c): before a coloured net
 * is unfolded, its skeleton answers what it proves (pn_examine_skeleton, and
 * pn_examine_skeleton_global for the global properties), within a share of
 * the time; the unfolding then gets the rest. */
#ifndef PETREL_CLI_SKELETON_CLI_H
#define PETREL_CLI_SKELETON_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "stream.h"
#include "petrel/examine.h"
#include "petrel/net.h"

/* The pass's share of the time left, and its time without a deadline: the
 * skeleton is as small as the coloured net, so what it proves it proves
 * fast; what it cannot prove it never will. */
#define CLI_SKELETON_SHARE 0.2
#define CLI_SKELETON_ALONE_S 30.0
/* The replays' share of what the unfolding leaves: a path replays in time
 * linear in its length, most of them at once. */
#define CLI_REPLAY_SHARE 0.1
/* The walks on the coloured net itself (pn_skeleton_walk), after the
 * skeleton: their share of the time left, the larger one where the
 * unfolding may pass CLI_WALK_BIG nodes (pn_csim_unfolded_nodes; about what
 * unfolds in a few seconds), which the walks then stand in for; their time
 * without a deadline. */
#define CLI_WALK_SHARE 0.05
#define CLI_WALK_BIG_SHARE 0.5
#define CLI_WALK_BIG (UINT64_C(1) << 22)
#define CLI_WALK_ALONE_S 10.0

typedef struct cli_skeleton {
    uint8_t *decided;  /* per formula of the file; NULL: the pass did not run */
    uint64_t *limits;  /* per formula: the skeleton's bound, UINT64_MAX: none;
                          compacted with the formulas (the unfolding's) */
    uint32_t n;
    uint32_t *slot;    /* the unfolding's formula k is the file's slot[k] */
    pn_net *net;       /* the skeleton, whose paths name its transitions */
    pn_skeleton_path *paths; /* per formula: a witness to replay, or none */
    pn_exam exam;
} cli_skeleton;

/* Whether exam's formulas take the pass: those the skeleton answers
 * (pn_examine_skeleton_applies) and the LTL ones, which only the walks on
 * the coloured net answer (FALSE, by a run). */
bool cli_skeleton_takes(pn_exam exam);
/* Reads pnml as its skeleton and answers the formulas of `formulas` on it,
 * naming the stream's answers; formulas NULL: the global property exam
 * (pn_examine_skeleton_global), whose answer the stream names already. A
 * P/T model is read once, as itself: *pt
 * gets it, for the caller to examine, and the pass does nothing more. A
 * model without a skeleton (it subtracts) or whose reading fails is left to
 * the caller's reading, which says why. Returns 0, or an exit code. */
int cli_skeleton_pass(const char *pnml, const char *formulas, pn_exam exam,
                      const pn_examine_opts *xo, pn_budget *budget, cli_stream *out,
                      bool verbose, pn_net **pt, cli_skeleton *sk);
/* The skeleton's witnesses replayed on the unfolding cn (pn_skeleton_replay)
 * within budget, what they prove streamed; then the unfolding's formulas
 * without those decided (compacted in place; sk->slot maps them back,
 * sk->limits follows them: the bounds to hand the examination), and the
 * stream told so. False when out of memory. */
bool cli_skeleton_rest(cli_skeleton *sk, pn_fml_set *set, cli_stream *out, const pn_cnet *cn,
                       const pn_budget *budget, uint32_t threads);
/* Whether the pass decided every formula. */
bool cli_skeleton_all(const cli_skeleton *sk);
void cli_skeleton_free(cli_skeleton *sk);

#endif
