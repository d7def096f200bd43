/* libFuzzer target: the PNML reader on arbitrary bytes.
 *
 *   tools/fuzz/run.sh [seconds]        builds, seeds and runs it
 *
 * Malformed input must give an error (never a crash, a leak or undefined
 * behaviour); what it checks beyond that is the reader's contract from
 * petrel/pnml.h and petrel/net.h: on failure *out is NULL and err holds a
 * message, on success the net is consistent (indices in range, weights >= 1,
 * every node named and findable by its id) and compiles (pn_cnet_compile),
 * which may refuse it (weights that overflow) but only with a message. A
 * coloured net read as its skeleton is also fired as itself (csim.h). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"
#include "petrel/budget.h"
#include "petrel/cnet.h"
#include "petrel/csim.h"
#include "petrel/error.h"
#include "petrel/net.h"
#include "petrel/pnml.h"

static void petrel_fuzz_pnml_check_net(const pn_net *net)
{
    PETREL_FUZZ_CHECK(net->id != NULL);
    PETREL_FUZZ_CHECK(net->n_places == 0 || (net->place_id != NULL && net->m0 != NULL));
    for (uint32_t p = 0; p < net->n_places; p++) {
        PETREL_FUZZ_CHECK(net->place_id[p] != NULL && net->place_name[p] != NULL);
        PETREL_FUZZ_CHECK(pn_net_find_place(net, net->place_id[p]) == (int64_t)p);
    }
    for (uint32_t t = 0; t < net->n_transitions; t++) {
        PETREL_FUZZ_CHECK(net->trans_id[t] != NULL && net->trans_name[t] != NULL);
        PETREL_FUZZ_CHECK(pn_net_find_transition(net, net->trans_id[t]) == (int64_t)t);
    }
    for (uint32_t a = 0; a < net->n_arcs; a++) {
        PETREL_FUZZ_CHECK(net->arcs[a].place < net->n_places);
        PETREL_FUZZ_CHECK(net->arcs[a].transition < net->n_transitions);
        PETREL_FUZZ_CHECK(net->arcs[a].weight >= 1);
    }
}

/* The coloured net of a skeleton's input fired as itself (petrel/csim.h):
 * every transition's binding search and a few firings, each answering in
 * {-1, 0, 1}, a failure with a message, the token counts those of the
 * colours present. */
static void petrel_fuzz_pnml_walk(const uint8_t *data, size_t size)
{
    pn_budget budget = pn_budget_make(1.0, NULL, 0);
    pn_csim *sim = NULL;
    pn_error err;
    memset(&err, 0, sizeof err);
    if (pn_csim_open_memory((const char *)data, size, "fuzz.pnml", &budget, &sim, &err) !=
        PN_OK) {
        PETREL_FUZZ_CHECK(sim == NULL && err.msg[0] != '\0');
        return;
    }
    for (uint32_t step = 0; step < 8; step++) {
        for (uint32_t t = 0; t < pn_csim_transitions(sim); t++) {
            int e = pn_csim_enabled(sim, t);
            PETREL_FUZZ_CHECK(e >= -1 && e <= 1);
            PETREL_FUZZ_CHECK(e != -1 || pn_csim_error(sim)->msg[0] != '\0');
            int f = e == 1 ? pn_csim_fire(sim, t, step + 1) : e;
            PETREL_FUZZ_CHECK(f == e || f == -1);
        }
        for (uint32_t p = 0; p < pn_csim_places(sim); p++) {
            uint64_t sum = 0;
            for (uint64_t k = 0; k < pn_csim_colours(sim, p); k++) {
                uint64_t c = 0, n = 0;
                pn_csim_colour(sim, p, k, &c, &n);
                PETREL_FUZZ_CHECK(n > 0);
                sum += n;
            }
            PETREL_FUZZ_CHECK(sum == pn_csim_counts(sim)[p]);
        }
    }
    pn_csim_free(sim);
}

/* One input; returns 0 (libFuzzer's convention). */
static int petrel_fuzz_pnml(const uint8_t *data, size_t size)
{
    pn_net *net = NULL;
    pn_error err;
    memset(&err, 0, sizeof err);
    /* Inputs of odd length read coloured nets with their colours merged into
     * classes (host/coloured/hlpn_classes.c), and one length in four as
     * their colour-blind skeleton (host/coloured/skeleton.c), so that every
     * shape gets the fuzzer's inputs. */
    pn_pnml_opts opts = {.merge_colours = (size & 1) != 0, .skeleton = (size & 3) == 2};
    pn_status st = pn_pnml_read_memory_opts((const char *)data, size, "fuzz.pnml", NULL, &opts,
                                            &net, &err);
    if (st == PN_OK) {
        PETREL_FUZZ_CHECK(net != NULL);
        PETREL_FUZZ_CHECK(err.code == PN_OK);
        petrel_fuzz_pnml_check_net(net);
        if (net->unfold.skeleton)
            petrel_fuzz_pnml_walk(data, size);
        pn_cnet *cn = NULL;
        pn_error cerr;
        memset(&cerr, 0, sizeof cerr);
        pn_status cst = pn_cnet_compile(net, &cn, &cerr);
        if (cst == PN_OK) {
            PETREL_FUZZ_CHECK(cn != NULL && cn->n_places == net->n_places &&
                              cn->n_transitions == net->n_transitions);
            pn_cnet_free(cn);
        } else {
            PETREL_FUZZ_CHECK(cn == NULL && cerr.code == cst && cerr.msg[0] != '\0');
        }
        pn_net_free(net);
    } else {
        PETREL_FUZZ_CHECK(net == NULL);
        PETREL_FUZZ_CHECK(err.code == st);
        PETREL_FUZZ_CHECK(memchr(err.msg, '\0', sizeof err.msg) != NULL);
        PETREL_FUZZ_CHECK(err.msg[0] != '\0');
    }
    return 0;
}

#ifndef PETREL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return petrel_fuzz_pnml(data, size);
}
#endif
