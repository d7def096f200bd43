/* The answer board's insides (host/answers/check*.c): one item per answer,
 * what decides it, and the answers themselves. Private to answers/. */
#ifndef PETREL_ANSWERS_CHECK_INT_H
#define PETREL_ANSWERS_CHECK_INT_H

#include <pthread.h>

#include "petrel/check.h"
#include "formula/sformula.h"
#include "net/layout.h"

typedef enum {
    ITEM_NONE,     /* outside what the on-the-fly check can prove */
    ITEM_FIXED,    /* decided before exploring */
    ITEM_EF,
    ITEM_AG,
    ITEM_BOUND,
    ITEM_DEADLOCK,
    ITEM_ONESAFE,
    ITEM_QUASI,
    ITEM_STABLE,
    ITEM_LIVE
} item_kind;

typedef struct check_item {
    item_kind kind;
    bool negate;               /* the formula was NOT(...) of this item */
    pn_sformula_owned *sf;
    const pn_fml_node *phi;    /* ITEM_EF, ITEM_AG: borrowed from the set */
    const uint32_t *places;    /* ITEM_BOUND */
    uint32_t n_places;
    bool has_limit;            /* ITEM_BOUND: limit is a proven upper bound */
    uint64_t limit;
    uint32_t techniques;       /* what decided it outside the exploration */
    int decided;               /* 0 or PN_VERDICT_TRUE/FALSE, before negate */
    uint64_t witness;          /* the state that decided it, +1 (0: none) */
    uint64_t max;              /* ITEM_BOUND */
    /* ITEM_EF of fireable(t) alone: t + 1 (0: another formula). The
     * exploration decides it when it first sees t enabled, in the same
     * per-worker candidate lists as QuasiLiveness (a family of thousands
     * of such items costs a state what the candidates left cost). */
    uint32_t fire;
} check_item;

/* Candidates a worker still has to look at: transitions never seen enabled
 * (QuasiLiveness) or places never seen off their initial count (Stable). */
typedef struct check_worker {
    uint32_t *trans, n_trans;
    uint32_t *places, n_places;
    pn_sf_memo memo;           /* transitions tested in the current state */
} check_worker;

struct pn_check {
    const pn_cnet *cn;
    pn_layout *lay;            /* its pn_prog answers enabledness */
    uint32_t n;
    check_item *items;
    pn_answer *answers;
    uint32_t to_decide;        /* open items a witness can decide */
    uint32_t unbounded;        /* open bounds without a proven limit: never stop */
    bool track_quasi, track_stable;
    bool track_fire;           /* some open item has `fire` */
    uint32_t *fire_off, *fire_of; /* per transition: its `fire` items (CSR) */
    uint8_t *seen;             /* per transition: seen enabled */
    uint32_t n_unseen;
    uint8_t *moved;            /* per place: seen off its initial count */
    uint32_t n_still;
    uint32_t threads;
    check_worker *workers;
    pn_visitor visitor;
    pn_fml_node *deadlock;     /* the target of ITEM_DEADLOCK (E F deadlock) */
    pn_check_listener listen;  /* streaming (pn_check_on_decide) */
    void *listen_ctx;
    uint8_t *told;             /* per answer: the listener has it */
    uint32_t extra;            /* techniques every answer carries (pn_check_add_techniques) */
    /* Steps running beside each other read and write the answers under
     * this lock (pn_check_lock); per answer, a flag set the moment it is
     * final, which the budget of work on that answer watches
     * (pn_check_watch): a step drops an answer another one decided. */
    pthread_mutex_t lock;
    bool lock_made;
    int *gone;
    /* What the answers were asked for is settled (pn_check_close): the open
     * ones no longer count, and the work on them stops. */
    int closed;
};


/* The one place an item gets its verdict from a witness or a count (CAS:
 * several workers may race); witness: the deciding state's id + 1, 0 when
 * none is this process's. True when it was the last item a witness could
 * decide. */
bool check_decide(pn_check *c, check_item *it, pn_verdict v, uint64_t witness);
/* Answer i is final (check_tell.c): its flag is raised, and the listener
 * told, once. */
void check_tell(pn_check *c, uint32_t i);
/* Writes item i's answer from what decided it, then check_tell. */
void check_tell_decided(pn_check *c, uint32_t i);
/* Transition t was first seen enabled, at state id (+1; 0: on another
 * rank): its `fire` items are decided. True when that was the last item a
 * witness could decide. */
bool check_fire_seen(pn_check *c, uint32_t t, uint64_t witness);
/* Transitions enabled at the unpacked marking m. */
uint32_t check_enabled_count(const pn_check *c, const uint64_t *m);
/* The visitor (check_visit.c). */
bool check_on_state(void *ctx, uint32_t worker, uint64_t id, const uint64_t *m,
                    uint32_t n_enabled);

#endif
