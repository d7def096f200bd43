/* The colour-blind skeleton's pass (skeleton_cli.h). */
#include "skeleton_cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/formula.h"
#include "petrel/mcc.h"
#include "petrel/pnml.h"
#include "petrel/rers_read.h"
#include "petrel/sysinfo.h"

/* Names the stream's answers after the file's formulas. */
static bool skeleton_name(cli_stream *out, const pn_fml_set *set, const pn_net *net,
                          uint32_t threads)
{
    const char **ids = calloc((size_t)set->n + 1, sizeof *ids);
    if (ids == NULL)
        return false;
    for (uint32_t i = 0; i < set->n; i++)
        ids[i] = set->props[i].id;
    bool ok = cli_stream_set_ids(out, ids, set->n, net, threads);
    free(ids);
    return ok;
}

/* The pass's share of the budget, its phase announced. */
static pn_budget skeleton_share(pn_budget *budget, const pn_net *net)
{
    pn_budget share = pn_budget_share(budget, CLI_SKELETON_SHARE);
    if (budget->deadline <= 0)
        share = pn_budget_within(&share, CLI_SKELETON_ALONE_S);
    pn_budget_phase(budget, "the colour-blind skeleton (%u places, %u transitions)",
                    net->n_places, net->n_transitions);
    return share;
}

/* The examination's options for the skeleton: its steps and notes are not
 * the examination's. */
static pn_examine_opts skeleton_opts(const pn_examine_opts *xo)
{
    pn_examine_opts o = *xo;
    o.verbose = false;
    o.diag = NULL;
    o.on_decide = NULL;
    return o;
}

/* The answers the skeleton left open, by walks on the coloured net itself:
 * what they prove streamed and decided. */
static void skeleton_walk(const char *pnml, const pn_cnet *cn, const pn_fml_set *set,
                          pn_budget *budget, cli_stream *out, bool verbose, cli_skeleton *sk)
{
    uint32_t open = 0;
    for (uint32_t i = 0; i < set->n; i++)
        open += !sk->decided[i];
    if (open == 0)
        return;
    double t0 = pn_clock_now();
    pn_error err = {0};
    pn_csim *sim = NULL;
    pn_check *c = NULL;
    pn_budget_phase(budget, "random walks on the coloured net itself");
    if (pn_csim_open(pnml, budget, &sim, &err) != PN_OK ||
        pn_check_new(cn, sk->exam, set, 1, &c, &err) != PN_OK) {
        if (verbose)
            fprintf(stderr, "petrel: no walk on the coloured net: %s\n", err.msg);
        pn_csim_free(sim);
        return;
    }
    uint64_t nodes = pn_csim_unfolded_nodes(sim);
    pn_budget share = pn_budget_share(budget, nodes >= CLI_WALK_BIG ? CLI_WALK_BIG_SHARE
                                                                     : CLI_WALK_SHARE);
    if (budget->deadline <= 0)
        share = pn_budget_within(&share, CLI_WALK_ALONE_S);
    uint32_t proven = 0;
    if (pn_skeleton_walk(sim, cn, set, sk->decided, sk->limits, c, &share, &err) == PN_OK) {
        for (uint32_t i = 0; i < set->n; i++) {
            if (sk->decided[i] || pn_check_answer(c, i)->verdict == PN_VERDICT_UNKNOWN)
                continue;
            cli_stream_answer(out, c, i, NULL);
            sk->decided[i] = 1;
            proven++;
        }
    }
    if (verbose)
        fprintf(stderr, "petrel: walks on the coloured net (its unfolding up to %llu nodes): "
                        "%u of %u open answers proven in %.3f s\n",
                (unsigned long long)nodes, proven, open, pn_clock_now() - t0);
    pn_check_free(c);
    pn_csim_free(sim);
}

/* The formulas on the skeleton, within a share of the budget. */
static int skeleton_answer(const char *pnml, const pn_net *net, const char *formulas, pn_exam exam,
                           const pn_examine_opts *xo, pn_budget *budget, cli_stream *out,
                           bool verbose, cli_skeleton *sk)
{
    pn_error err = {0};
    pn_cnet *cn = NULL;
    pn_fml_set *set = NULL;
    pn_status st = pn_cnet_compile(net, &cn, &err);
    if (st == PN_OK)
        st = pn_fml_read_file(formulas, net, &set, &err);
    if (st == PN_OK)
        st = pn_fml_set_simplify(set, &err);
    /* A formula file that fails here fails the unfolding's reading too,
     * which says so: the pass leaves it to that. */
    if (st != PN_OK) {
        pn_fml_set_free(set);
        pn_cnet_free(cn);
        return st == PN_ERR_NOMEM ? 1 : 0;
    }
    double t0 = pn_clock_now();
    sk->n = set->n;
    sk->decided = calloc((size_t)set->n + 1, 1);
    sk->limits = calloc((size_t)set->n + 1, sizeof *sk->limits);
    sk->paths = calloc((size_t)set->n + 1, sizeof *sk->paths);
    sk->exam = exam;
    bool ok = sk->decided != NULL && sk->limits != NULL && sk->paths != NULL;
    int rc = ok && skeleton_name(out, set, NULL, xo->explore.threads) ? 0 : 1;
    pn_budget share = skeleton_share(budget, net);
    pn_examine_opts o = skeleton_opts(xo);
    o.on_decide = cli_stream_on_decide;
    o.on_decide_ctx = out;
    if (rc == 0 &&
        pn_examine_skeleton(cn, exam, set, &o, &share, sk->decided, sk->limits, sk->paths,
                            &err) != PN_OK) {
        fprintf(stderr, "petrel: the colour-blind skeleton: %s\n", err.msg);
        rc = err.code == PN_ERR_NOMEM ? 1 : 0;
    }
    uint32_t proven = 0;
    for (uint32_t i = 0; sk->decided != NULL && i < set->n; i++)
        proven += sk->decided[i];
    if (verbose)
        fprintf(stderr, "petrel: colour-blind skeleton: %u places, %u transitions; %u of %u "
                        "answers proven in %.3f s\n",
                net->n_places, net->n_transitions, proven, set->n, pn_clock_now() - t0);
    if (rc == 0)
        skeleton_walk(pnml, cn, set, budget, out, verbose, sk);
    cli_stream_rebind(out, NULL, xo->explore.threads, NULL); /* no unfolding to speak of */
    pn_fml_set_free(set);
    pn_cnet_free(cn);
    return rc;
}

/* A global property on the skeleton, within a share of the budget: its
 * answer streamed where the skeleton decides it. */
static int skeleton_global(const pn_net *net, pn_exam exam, const pn_examine_opts *xo,
                           pn_budget *budget, cli_stream *out, bool verbose, cli_skeleton *sk)
{
    pn_error err = {0};
    pn_cnet *cn = NULL;
    pn_check *prop = NULL;
    if (pn_cnet_compile(net, &cn, &err) != PN_OK)
        return err.code == PN_ERR_NOMEM ? 1 : 0;
    double t0 = pn_clock_now();
    sk->n = 1;
    sk->decided = calloc(1, 1);
    pn_budget share = skeleton_share(budget, net);
    pn_examine_opts o = skeleton_opts(xo);
    pn_verdict v = PN_VERDICT_UNKNOWN;
    uint32_t tech = 0;
    pn_status st = sk->decided != NULL ? PN_OK : PN_ERR_NOMEM;
    if (st == PN_OK)
        st = pn_examine_skeleton_global(cn, exam, &o, &share, &v, &tech, &err);
    if (st == PN_OK && v != PN_VERDICT_UNKNOWN)
        st = pn_check_new(cn, exam, NULL, 1, &prop, &err);
    if (st == PN_OK && prop != NULL) {
        pn_check_set_techniques(prop, 0, tech);
        pn_check_set(prop, 0, v);
        cli_stream_answer(out, prop, 0, NULL);
        sk->decided[0] = 1;
    }
    if (st != PN_OK && st != PN_ERR_NOMEM)
        fprintf(stderr, "petrel: the colour-blind skeleton: %s\n", err.msg);
    if (verbose)
        fprintf(stderr,
                "petrel: colour-blind skeleton: %u places, %u transitions; %s %s in %.3f s\n",
                net->n_places, net->n_transitions, pn_exam_name(exam),
                v == PN_VERDICT_UNKNOWN ? "not proven" : "proven", pn_clock_now() - t0);
    pn_check_free(prop);
    pn_cnet_free(cn);
    return st == PN_ERR_NOMEM ? 1 : 0;
}

bool cli_skeleton_takes(pn_exam exam)
{
    return pn_examine_skeleton_applies(exam) || exam == PN_EXAM_LTL_CARDINALITY ||
           exam == PN_EXAM_LTL_FIREABILITY;
}

int cli_skeleton_pass(const char *pnml, const char *formulas, pn_exam exam,
                      const pn_examine_opts *xo, pn_budget *budget, cli_stream *out,
                      bool verbose, pn_net **pt, cli_skeleton *sk)
{
    memset(sk, 0, sizeof *sk);
    *pt = NULL;
    pn_pnml_opts opts = {.merge_colours = true, .skeleton = true};
    pn_net *net = NULL;
    pn_error err = {0};
    pn_budget_phase(budget, "reading %s", pnml);
    if (pn_rers_read_system(pnml, budget, &opts, &net, &err) != PN_OK) {
        if (verbose)
            fprintf(stderr, "petrel: no colour-blind skeleton: %s\n", err.msg);
        return 0;
    }
    if (!net->unfold.skeleton) { /* a P/T net: the one to examine */
        *pt = net;
        return 0;
    }
    sk->net = net; /* kept for the replays */
    if (formulas == NULL)
        return skeleton_global(net, exam, xo, budget, out, verbose, sk);
    return skeleton_answer(pnml, net, formulas, exam, xo, budget, out, verbose, sk);
}

/* The skeleton's witnesses replayed on the unfolding: what they prove is
 * streamed and decided. */
static bool skeleton_replay(cli_skeleton *sk, const pn_fml_set *set, cli_stream *out,
                            const pn_cnet *cn, const pn_budget *budget)
{
    bool any = false;
    for (uint32_t i = 0; i < set->n; i++)
        any |= sk->paths[i].trans != NULL;
    if (!any)
        return true;
    pn_error err = {0};
    pn_check *c = NULL;
    if (pn_check_new(cn, sk->exam, set, 1, &c, &err) != PN_OK)
        return err.code != PN_ERR_NOMEM;
    pn_budget_phase(budget, "the skeleton's witnesses replayed on the unfolding");
    pn_budget share = pn_budget_share(budget, CLI_REPLAY_SHARE);
    pn_status st = pn_skeleton_replay(cn, sk->net, set, sk->paths, sk->limits, c, &share, &err);
    for (uint32_t i = 0; st == PN_OK && i < set->n; i++) {
        if (pn_check_answer(c, i)->verdict == PN_VERDICT_UNKNOWN)
            continue;
        cli_stream_answer(out, c, i, NULL);
        sk->decided[i] = 1;
    }
    pn_check_free(c);
    return st != PN_ERR_NOMEM;
}

bool cli_skeleton_rest(cli_skeleton *sk, pn_fml_set *set, cli_stream *out, const pn_cnet *cn,
                       const pn_budget *budget, uint32_t threads)
{
    const pn_net *net = cn->net;
    if (sk->decided == NULL || set->n != sk->n) { /* the same file: never differs */
        free(sk->limits);
        sk->limits = NULL;
        return skeleton_name(out, set, net, threads);
    }
    cli_stream_rebind(out, net, threads, NULL); /* the replays run on the unfolding */
    if (!skeleton_replay(sk, set, out, cn, budget))
        return false;
    sk->slot = calloc((size_t)set->n + 1, sizeof *sk->slot);
    if (sk->slot == NULL)
        return false;
    uint32_t k = 0;
    for (uint32_t i = 0; i < set->n; i++) {
        pn_fml_prop *p = &set->props[i];
        if (sk->decided[i]) {
            free(p->id);
            pn_fml_free(p->root);
            free(p->error);
            continue;
        }
        set->props[k] = *p;
        sk->limits[k] = sk->limits[i];
        sk->slot[k++] = i;
    }
    set->n = k;
    cli_stream_rebind(out, net, threads, sk->slot);
    return true;
}

bool cli_skeleton_all(const cli_skeleton *sk)
{
    if (sk->decided == NULL)
        return false;
    for (uint32_t i = 0; i < sk->n; i++)
        if (!sk->decided[i])
            return false;
    return true;
}

void cli_skeleton_free(cli_skeleton *sk)
{
    for (uint32_t i = 0; sk->paths != NULL && i < sk->n; i++)
        free(sk->paths[i].trans);
    free(sk->paths);
    pn_net_free(sk->net);
    free(sk->decided);
    free(sk->limits);
    free(sk->slot);
    memset(sk, 0, sizeof *sk);
}
