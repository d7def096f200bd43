/* The colour-blind skeleton's pass (skeleton_cli.c): before a coloured net
 * is unfolded, its skeleton answers what it proves (pn_examine_skeleton),
 * within a share of the time; the unfolding then gets the rest. */
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

typedef struct cli_skeleton {
    uint8_t *decided;  /* per formula of the file; NULL: the pass did not run */
    uint32_t n;
    uint32_t *slot;    /* the unfolding's formula k is the file's slot[k] */
} cli_skeleton;

/* Reads pnml as its skeleton and answers the formulas of `formulas` on it,
 * naming the stream's answers. A P/T model is read once, as itself: *pt
 * gets it, for the caller to examine, and the pass does nothing more. A
 * model without a skeleton (it subtracts) or whose reading fails is left to
 * the caller's reading, which says why. Returns 0, or an exit code. */
int cli_skeleton_pass(const char *pnml, const char *formulas, pn_exam exam,
                      const pn_examine_opts *xo, pn_budget *budget, cli_stream *out,
                      bool verbose, pn_net **pt, cli_skeleton *sk);
/* The unfolding's formulas without those the pass decided (compacted in
 * place; sk->slot maps them back), and the stream told so. False when out
 * of memory. */
bool cli_skeleton_rest(cli_skeleton *sk, pn_fml_set *set, cli_stream *out, const pn_net *net,
                       uint32_t threads);
/* Whether the pass decided every formula. */
bool cli_skeleton_all(const cli_skeleton *sk);
void cli_skeleton_free(cli_skeleton *sk);

#endif
