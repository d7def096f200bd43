/* Explicit-state exploration of the reachability graph, breadth-first and
 * level-synchronous, with an exact hash set of packed markings. */
#ifndef PETREL_ENGINE_H
#define PETREL_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pn_run_status {
    PN_RUN_COMPLETE = 0,   /* every reachable state was expanded */
    PN_RUN_STOPPED,        /* the visitor asked to stop: its answers are decided */
    PN_RUN_OUT_OF_MEMORY,  /* the memory budget was reached */
    PN_RUN_TIMEOUT,
    PN_RUN_CANCELLED,      /* the budget's cancel flag was set (a signal) */
    PN_RUN_TOKEN_OVERFLOW, /* a count passed 2^64-1: the net is not representable */
    PN_RUN_TOO_MANY_STATES /* beyond the 2^40 ids a table slot can name */
} pn_run_status;

const char *pn_run_status_name(pn_run_status s);

/* Called once per expanded state with its unpacked marking and the number of
 * transitions it enables, from worker thread `worker` (< threads). Returning
 * true stops the exploration. After a restart (a place was widened) states
 * are visited again, so what a visitor records must not depend on how often
 * a state is seen (maxima, witnesses, flags). */
typedef struct pn_visitor {
    bool (*on_state)(void *ctx, uint32_t worker, uint64_t id, const uint64_t *marking,
                     uint32_t n_enabled);
    void *ctx;
} pn_visitor;

/* The set the states are kept in (docs/architecture.md, "The hash set"). */
typedef enum pn_store_kind {
    /* compact for one-word markings, tree for wider ones, the id table
     * only where the states are handed out by id (keep_states) */
    PN_STORE_AUTO = 0,
    PN_STORE_COMPACT, /* compact where a marking is one word, else full */
    PN_STORE_TREE,    /* tree compression (pn_treestore.h) wherever allowed */
    PN_STORE_FULL     /* the id table over whole markings, always */
} pn_store_kind;

typedef struct pn_progress {
    uint64_t states, edges, level, frontier;
    double seconds;
    uint64_t bytes;
} pn_progress;

struct pn_check; /* check.h */
struct pn_part;  /* host/engine/part.h */

typedef struct pn_engine_opts {
    uint32_t threads;            /* 0: 1 */
    /* Optional (NULL: no limits): the deadline and cancel flag, polled
     * between chunks, and the memory the states and table may take
     * (pn_budget_memory, read once at the start). */
    const pn_budget *budget;
    const pn_visitor *visitor;   /* optional */
    /* The check behind visitor (pn_check_visitor), or NULL. An engine that
     * cannot call host code per state (the GPU's kernels) evaluates its
     * items itself (host/logic/check_items.h); the CPU engine ignores it. */
    struct pn_check *check;
    void (*progress)(void *ctx, const pn_progress *p);
    void *progress_ctx;
    double progress_interval_s;  /* <= 0: no progress calls */
    bool keep_parents;           /* record a BFS tree for witness traces */
    const struct pn_topology *topology; /* optional: pin worker i to core i */
    bool record_graph;           /* build the state graph (CTL, Liveness) */
    bool keep_states;            /* hand the packed states to the result */
    /* Which set keeps the states: AUTO but for tests and benchmarks that
     * compare them. Whatever is asked, runs that need ids (keep_parents,
     * record_graph) never use the compact table (pn_ctable.h: nothing
     * kept by id), and keep_states (the flat store handed out) never the
     * tree. */
    pn_store_kind store;
    /* Set by pn_dist_explore only: this exploration is one rank's part of a
     * distributed one (the states its hash owns; host/engine/part.h). */
    const struct pn_part *part;
} pn_engine_opts;

typedef struct pn_engine_result {
    pn_run_status status;
    uint64_t states;             /* reachable markings stored */
    uint64_t edges;              /* (marking, enabled transition) pairs */
    uint64_t max_tokens_place;
    uint64_t max_tokens_marking; /* saturates at UINT64_MAX */
    uint64_t levels;             /* BFS depth reached */
    uint64_t restarts;           /* explorations redone after widening */
    uint32_t state_words;        /* 64-bit words per packed marking */
    uint32_t threads;
    uint64_t bytes;              /* store + table at the end */
    bool compact;                /* the compact table was used (no ids kept) */
    bool tree;                   /* markings were tree-compressed (keys stored) */
    double seconds;
    /* StateSpace counted on decision diagrams (host/examine/space_dd.c),
     * not enumerated: states and edges are also in decimal, of any size
     * (the 64-bit fields saturate at UINT64_MAX); edges_text NULL: the
     * edges were not counted. Owned: pn_engine_result_free. */
    bool symbolic;
    char *states_text, *edges_text;
    /* A StateSpace run whose exploration did not end (status): the maxima
     * proven by structure (pn_linear_space_maxima, technique TOPOLOGICAL)
     * are in max_tokens_place / max_tokens_marking where these say so. */
    bool proven_max_place, proven_max_marking;
    /* With keep_parents: for each state id > 0, the id it was first reached
     * from and the transition fired (a shortest path back to the initial
     * marking). Owned by the result: pn_engine_result_free. */
    uint64_t *parent;
    uint32_t *via;
    /* With record_graph and a complete run: the graph (graph.h). */
    struct pn_graph *graph;
    /* With keep_states: state id i is store[i * layout->prog.words ...],
     * unpacked with pn_state_unpack(&layout->prog, ...). */
    uint64_t *store;
    struct pn_layout *layout;
} pn_engine_result;

void pn_engine_result_free(pn_engine_result *res);

/* The transitions from the initial marking to state id, in firing order:
 * *len entries in a new array *path (free it). False when parents were not
 * kept or id is out of range, or on allocation failure. */
bool pn_engine_trace(const pn_engine_result *res, uint64_t id, uint32_t **path, uint64_t *len);

pn_status pn_explore(const pn_cnet *cn, const pn_engine_opts *opts,
                     pn_engine_result *res, pn_error *err);

/* Whether a run with these options on states of `words` words uses the
 * compact table (kernels/pn_ctable.h) for the markings themselves: nothing
 * asked for by id afterwards (no BFS tree, graph or store), one-word
 * markings, and not --store full. The one rule, for the CPU and the GPU
 * engine; the CPU engine also keeps the one-word keys of tree-compressed
 * wider markings there (engine_choose_store). */
bool pn_engine_compact(const pn_engine_opts *o, uint32_t words);

#ifdef __cplusplus
}
#endif
#endif
