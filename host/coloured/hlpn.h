/* Symmetric (coloured) nets: the declarations, terms and nodes read from a
 * PNML symmetricnet document, and their unfolding into a P/T pn_net.
 * Internal to host/: hlpn_load.c parses the document and calls the reader
 * then the unfolder, hlpn_read.c walks the document, hlpn_sorts.c owns the
 * sorts, constants and variables, hlpn_term.c parses and evaluates terms,
 * unfold*.c enumerate bindings and build the net; all of them share the
 * DOM access of hlpn_xml.c and the errors and bounds of hlpn_fail.c, which
 * call none of them back.
 *
 * Colours are dense indices: colour c of a sort of size n is 0 <= c < n.
 * Enumerations number their constants in declaration order, a finite
 * integer range [start, end] maps v to v - start, and a product sort uses
 * mixed radix with the last component least significant. Identifiers are
 * borrowed from the document, which lives until the net is built. */
#ifndef PETREL_HLPN_H
#define PETREL_HLPN_H

#include <stdbool.h>
#include <stdint.h>

#include <libxml/tree.h>

#include "petrel/budget.h"
#include "petrel/error.h"
#include "petrel/net.h"
#include "net/strmap.h"

#define HL_NONE UINT32_MAX
/* Colours per sort are kept below this so that every index fits a uint32_t
 * and no product of two sizes overflows. */
#define HL_MAX_COUNT (UINT64_C(1) << 31)
/* A product sort of a skeleton's model (hl_model.wide), whose colours are
 * counted, never indexed, stays below this. */
#define HL_WIDE_COUNT (UINT64_C(1) << 62)

/* Bounds on one unfolding. A coloured model of a few lines can denote an
 * unfolding of billions of nodes: what bounds it is the run's budget, its
 * deadline and its memory, polled every HL_POLL_STEPS steps (one per place
 * built, binding tried, guard-clause node evaluated, arc-inscription node
 * evaluated, multiset entry produced and id clash resolved); the bounds
 * below only keep every index within 32 bits (places are counted before
 * anything is built, transitions and arcs as they are added; HL_MAX_BAG
 * bounds one multiset before its equal colours are merged, 16 bytes an
 * entry). A read whose budget watches no memory or has no deadline (a
 * library caller's, a test's, the fuzzer's) keeps the fixed bounds Petrel
 * refused past before the budget bounded the unfolding: HL_UNWATCHED_* for
 * its size (about 1.2 GB), HL_MAX_STEPS for its time. Fuzzing builds (tools/fuzz/build.sh defines
 * FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, the usual libFuzzer
 * convention) use small bounds, so that the refusals are reached within
 * the fuzzer's time and memory limits and get exercised. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define HL_MAX_PLACES (UINT64_C(1) << 16)
#define HL_MAX_TRANSITIONS (UINT64_C(1) << 16)
#define HL_MAX_ARCS (UINT64_C(1) << 18)
#define HL_MAX_BAG (UINT64_C(1) << 18)
#define HL_MAX_STEPS (UINT64_C(1) << 23)
#define HL_UNWATCHED_PLACES HL_MAX_PLACES
#define HL_UNWATCHED_TRANSITIONS HL_MAX_TRANSITIONS
#define HL_UNWATCHED_ARCS HL_MAX_ARCS
#define HL_UNWATCHED_BAG HL_MAX_BAG
#else
/* About 150 bytes and 2 us a transition (its id, its index entry, its
 * group) and 30 bytes an arc (unfold.c's HL_BYTES). */
#define HL_MAX_PLACES (UINT64_C(1) << 31)
#define HL_MAX_TRANSITIONS (UINT64_C(1) << 31)
#define HL_MAX_ARCS (UINT64_C(1) << 31)
#define HL_MAX_BAG (UINT64_C(1) << 31)
#define HL_MAX_STEPS (UINT64_C(1) << 30)
#define HL_UNWATCHED_PLACES (UINT64_C(1) << 22)
#define HL_UNWATCHED_TRANSITIONS (UINT64_C(1) << 22)
#define HL_UNWATCHED_ARCS (UINT64_C(1) << 24)
#define HL_UNWATCHED_BAG (UINT64_C(1) << 24)
#endif

/* The size bounds of one read (see above). */
typedef struct hl_limits {
    uint64_t places, transitions, arcs, bag;
    bool budgeted;           /* the budget's deadline and memory bound the read */
} hl_limits;

/* Steps between two polls of the budget: a step is well under a microsecond,
 * so a deadline is noticed within about a millisecond. */
#define HL_POLL_STEPS (UINT64_C(1) << 12)

typedef enum hl_sort_kind {
    HL_SORT_DOT,
    HL_SORT_ENUM,     /* cyclicenumeration / finiteenumeration */
    HL_SORT_RANGE,    /* finiteintrange */
    HL_SORT_PRODUCT,
    HL_SORT_BOOL,     /* <bool/>: false = 0, true = 1 */
    HL_SORT_PARTITION,/* <partition>: its elements, in declaration order */
    HL_SORT_ALIAS     /* a namedsort whose body is a usersort */
} hl_sort_kind;

typedef struct hl_sort {
    const char *id;          /* NULL for sorts written inline */
    xmlNode *node;           /* the body element, for messages */
    hl_sort_kind kind;
    int state;               /* 0 unread, 1 being resolved, 2 resolved */
    uint64_t size;           /* colours; valid once resolved */
    uint32_t n;              /* ENUM constants, PRODUCT components or
                                PARTITION elements */
    uint32_t *comp;          /* PRODUCT: component sorts (canonical);
                                PARTITION: the element of each colour of
                                the partitioned sort */
    const char **labels;     /* ENUM, PARTITION: colour names used in
                                unfolded ids */
    uint32_t base;           /* PARTITION: the partitioned sort (canonical) */
    int64_t start;           /* RANGE: the first value */
    uint32_t target;         /* ALIAS: the sort referred to */
} hl_sort;

/* The classes of one sort (hlpn_classes.c): colours merged into intervals
 * that the net cannot tell apart, or every colour single. */
typedef struct hl_classes {
    bool single;             /* every colour its own class */
    uint64_t count;          /* classes of the sort */
    uint32_t key;            /* base sorts: the equal sort holding the cuts */
    uint32_t *cuts;          /* the key's intervals start here (0 first) */
    uint32_t n_cuts, cap_cuts;
} hl_classes;

typedef struct hl_const {
    uint32_t sort;
    uint32_t colour;
} hl_const;

typedef struct hl_var {
    const char *id;
    xmlNode *node;           /* the <variabledecl> */
    uint32_t sort;
} hl_var;

typedef enum hl_term_kind {
    /* colour terms: one colour of `sort` */
    HL_T_VAR, HL_T_CONST, HL_T_SUCC, HL_T_PRED, HL_T_TUPLE,
    HL_T_PELEM,              /* partitionelementof: the element holding kid 0 */
    /* multiset terms over `sort` */
    HL_T_NUMBEROF, HL_T_ADD, HL_T_SUB, HL_T_ALL, HL_T_EMPTY,
    HL_T_SUBSET,             /* a partition element where its partitioned sort
                                is expected: its colours, once each; kid 0
                                is the element (a CONST of the partition) */
    /* guards */
    HL_G_TRUE, HL_G_FALSE, HL_G_AND, HL_G_OR, HL_G_NOT, HL_G_IMPLY,
    HL_G_EQ, HL_G_NE, HL_G_LT, HL_G_LE, HL_G_GT, HL_G_GE
} hl_term_kind;

typedef struct hl_term {
    hl_term_kind kind;
    uint32_t sort;           /* colour and multiset terms; HL_NONE in guards */
    uint32_t n;
    struct hl_term **kids;
    uint64_t value;          /* VAR: variable, CONST: colour, NUMBEROF: count */
    long line;
} hl_term;

typedef struct hl_place {
    const char *id;
    xmlNode *node;
    uint32_t sort;
    hl_term *m0;             /* NULL: empty */
} hl_place;

typedef struct hl_trans {
    const char *id;
    xmlNode *node;
    hl_term *guard;          /* NULL: true */
    uint32_t arc_first, arc_count; /* into hl_model.by_trans */
} hl_trans;

typedef struct hl_arc {
    const char *id;
    xmlNode *node;
    uint32_t place, trans;
    bool to_trans;
    hl_term *ins;
} hl_arc;

typedef struct hl_model {
    const char *label;
    pn_error *err;
    hl_sort *sorts;
    uint32_t n_sorts, cap_sorts;
    hl_const *consts;
    uint32_t n_consts, cap_consts;
    hl_var *vars;
    uint32_t n_vars, cap_vars;
    hl_place *places;
    uint32_t n_places, cap_places;
    hl_trans *trans;
    uint32_t n_trans, cap_trans;
    hl_arc *arcs;
    uint32_t n_arcs, cap_arcs;
    uint32_t *by_trans;      /* arc indices grouped by transition */
    hl_classes *classes;     /* per sort, by hl_classes_build */
    hl_limits limits;        /* by the entry points, from the budget */
    bool wide;               /* read for a skeleton: products below HL_WIDE_COUNT */
    uint64_t steps;          /* unfolding work so far, see HL_MAX_STEPS */
    const pn_budget *budget; /* NULL: no deadline; polled by hl_spend */
    pn_strmap *sort_index, *const_index, *var_index, *node_index;
} hl_model;

/* ---- hlpn_xml.c ---------------------------------------------------------- */
/* An attribute's text, borrowed from the document; NULL when absent. */
const char *hl_attr(const xmlNode *e, const char *name);
/* The first element child at or after c, or NULL. */
xmlNode *hl_elem(xmlNode *c);
bool hl_is(const xmlNode *e, const char *name);

/* ---- hlpn_fail.c --------------------------------------------------------- */
pn_status hl_fail(hl_model *m, pn_status code, const xmlNode *at,
                  const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
pn_status hl_nomem(hl_model *m);
/* An element the grammar does not have here: PN_ERR_UNSUPPORTED for the
 * high-level net operators beyond symmetric nets that Petrel does not unfold
 * (integers, lists, strings, multiset cardinalities), PN_ERR_INPUT for
 * anything else. */
pn_status hl_unknown(hl_model *m, const xmlNode *e, const char *where);
/* Adds n to m->steps; PN_ERR_UNSUPPORTED (at `at`, or at `line` when at is
 * NULL) once they pass HL_MAX_STEPS where the budget bounds nothing
 * (m->limits.budgeted false);
 * PN_ERR_TIMEOUT, PN_ERR_CANCELLED or
 * PN_ERR_OUT_OF_MEMORY when m->budget runs out (polled each time the steps
 * cross a multiple of HL_POLL_STEPS, so the clock and the process's size
 * are read rarely). */
pn_status hl_spend(hl_model *m, const xmlNode *at, long line, uint64_t n);
/* Doubles *cap until need fits; -1 when out of memory. */
int hl_grow(void **items, uint32_t *cap, uint32_t need, size_t elem);

/* ---- hlpn_read.c --------------------------------------------------------- */
/* The one <net> below the <pnml> root of doc; an error when there is none
 * or more than one. */
pn_status hl_find_net(hl_model *m, xmlDoc *doc, xmlNode **net);
/* Reads the net body into m (declarations, nodes, arcs). */
pn_status hl_read_net(hl_model *m, xmlNode *net);
void hl_model_free(hl_model *m);

/* ---- hlpn_sorts.c -------------------------------------------------------- */
/* Registers every namedsort, variable and enumeration constant below
 * `declarations` (forward references are resolved afterwards). */
pn_status hl_declare(hl_model *m, xmlNode *declarations);
/* Resolves every sort and checks the variables; after hl_declare. */
pn_status hl_resolve_declarations(hl_model *m);
/* The sort a <usersort>/<dot>/<productsort>/... element denotes
 * (canonical: never an alias), or HL_NONE with the error set. */
uint32_t hl_sort_of(hl_model *m, xmlNode *e);
uint32_t hl_canon(const hl_model *m, uint32_t s);
/* The bool sort (declared once, on first use: every <bool/> is the same
 * sort), or HL_NONE with the error set. */
uint32_t hl_bool_sort(hl_model *m);
bool hl_sort_eq(const hl_model *m, uint32_t a, uint32_t b);
/* Appends the label of colour c of sort s ("1", "a_b", "" for dot) to buf;
 * -1 when buf is too small. */
int hl_colour_label(const hl_model *m, uint32_t s, uint64_t c, char *buf,
                    size_t len);
const char *hl_sort_name(const hl_model *m, uint32_t s);

/* ---- hlpn_term.c --------------------------------------------------------- */
/* A colour or multiset term of sort `expect` (HL_NONE: infer it). */
hl_term *hl_parse_multiset(hl_model *m, xmlNode *e, uint32_t expect);
hl_term *hl_parse_guard(hl_model *m, xmlNode *e);
void hl_term_free(hl_term *t);
bool hl_term_is_multiset(const hl_term *t);
/* Marks used[v] for every variable in t. */
void hl_term_vars(const hl_term *t, bool *used);
/* The number of nodes of t: what evaluating it once costs, in steps. */
uint64_t hl_term_nodes(const hl_term *t);

typedef struct hl_pair {
    uint64_t colour;
    int64_t count;
} hl_pair;

typedef struct hl_bag {
    hl_pair *p;
    size_t n, cap;
} hl_bag;

uint64_t hl_eval_colour(const hl_model *m, const hl_term *t, const uint64_t *b);
bool hl_eval_guard(const hl_model *m, const hl_term *t, const uint64_t *b);
/* Sets bag to t's multiset under binding b, sorted by colour, merged,
 * every count positive. Fails (PN_ERR_INPUT) on a subtraction that goes negative
 * or a count beyond 2^62. */
pn_status hl_eval_bag(hl_model *m, const hl_term *t, const uint64_t *b,
                      hl_bag *bag);
/* Room for need entries in bag (its capacity doubled as it grows); false
 * when out of memory. */
bool hl_bag_reserve(hl_bag *bag, size_t need);
/* Sorts bag->p[from..n) by colour and adds up equal colours, dropping
 * zeros. False when a sum leaves (-2^62, 2^62). */
bool hl_bag_merge(hl_bag *bag, size_t from);

/* ---- hlpn_classes.c ----------------------------------------------------- */
/* The classes of every sort: with lump, the colours no guard, constant or
 * repeated variable tells apart are merged (see the file); without, every
 * colour is single and the unfolding is the plain one. */
pn_status hl_classes_build(hl_model *m, bool lump);
void hl_classes_free(hl_model *m);
/* Sorts (counted once per group of equal sorts) with a class of two
 * colours or more. */
uint32_t hl_classes_merged(const hl_model *m);
uint64_t hl_class_count(const hl_model *m, uint32_t s);
/* The class of a colour (0 .. count-1), the first colour of a class, and
 * how many colours it has. */
uint64_t hl_class_of(const hl_model *m, uint32_t s, uint64_t colour);
uint64_t hl_class_rep(const hl_model *m, uint32_t s, uint64_t rank);
uint64_t hl_class_size(const hl_model *m, uint32_t s, uint64_t rank);
/* Replaces each colour of bag (of sort `sort`) by its class, sorted, equal
 * classes added up. */
pn_status hl_bag_classes(hl_model *m, uint32_t sort, hl_bag *bag);

/* ---- unfold.c, unfold_bind.c, unfold_reach.c (unfold_int.h) --------------- */
/* Builds the P/T net: one place per (place, class of colours) the place
 * can ever hold, one transition per (transition, binding of classes
 * satisfying the guard whose inputs can all be held), and the coloured ids
 * as groups (net.h); after hl_classes_build (without merging, a class is a
 * colour). */
pn_status hl_unfold(hl_model *m, const char *net_id, pn_net **out);

/* ---- skeleton.c ---------------------------------------------------------- */
/* The colour-blind skeleton (see the file): one place per coloured place,
 * counting its tokens, one transition per coloured transition, guards
 * dropped; net->unfold.skeleton is set. PN_ERR_UNSUPPORTED where an
 * inscription subtracts more tokens than it has. */
pn_status hl_skeleton(hl_model *m, const char *net_id, pn_net **out);

/* ---- entry points (hlpn_load.c), called by pnml_read.c once the streaming
 * reader has seen a coloured net type ------------------------------------ */
/* What a coloured net is read as (pn_pnml_opts). */
typedef enum hl_shape {
    HL_SHAPE_PLAIN = 0,      /* unfolded, every colour single */
    HL_SHAPE_MERGED = 1,     /* unfolded, colours merged into classes */
    HL_SHAPE_SKELETON = 2    /* the colour-blind skeleton, nothing unfolded */
} hl_shape;
pn_status pn_hlpn_read_file(const char *path, const pn_budget *budget, hl_shape shape,
                            pn_net **out, pn_error *err);
pn_status pn_hlpn_read_memory(const char *buf, size_t len, const char *label,
                              const pn_budget *budget, hl_shape shape, pn_net **out,
                              pn_error *err);
/* The model of the coloured net at path, read as for its skeleton (wide
 * products) and kept: for the coloured net fired as itself (csim.c). The
 * model borrows its ids and label from *doc and path (label), which must
 * outlive it; on failure both are empty. */
pn_status hl_model_open(const char *path, const pn_budget *budget, hl_model *m, xmlDoc **doc,
                        pn_error *err);
pn_status hl_model_open_memory(const char *buf, size_t len, const char *label,
                               const pn_budget *budget, hl_model *m, xmlDoc **doc,
                               pn_error *err);

#endif
