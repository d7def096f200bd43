/* libFuzzer target: the PNML reader on arbitrary bytes.
 *
 *   tools/fuzz/run.sh [seconds]        builds, seeds and runs it
 *
 * Malformed input must give an error (never a crash, a leak or undefined
 * behaviour); what it checks beyond that is the reader's contract from
 * petrel/pnml.h and petrel/net.h: on failure *out is NULL and err holds a
 * message, on success the net is consistent (indices in range, weights >= 1,
 * every node named and findable by its id) and compiles (pn_cnet_compile),
 * which may refuse it (weights that overflow) but only with a message. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_common.h"
#include "petrel/cnet.h"
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
