// Structural reductions (host/reduce): each rule on a hand-made net with
// its result computed by hand, random nets (with constant places, dead and
// duplicate transitions and sink places planted) whose answers on the
// reduced net are compared with a full enumeration of the original, and the
// reduced net written as PNML and read back.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/examine.h"
#include "petrel/formula.h"
#include "petrel/net.h"
#include "petrel/pnml.h"
#include "petrel/reduce.h"
#include "test_enum.h"
#include "test_share.h"
#include "test_trace.h"

namespace {

struct RedDeleter {
    void operator()(pn_reduced *r) const { pn_reduced_free(r); }
};
using RedPtr = std::unique_ptr<pn_reduced, RedDeleter>;

RedPtr reduce(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set)
{
    pn_error err;
    pn_error_clear(&err);
    pn_reduced *r = nullptr;
    EXPECT_EQ(pn_reduce(cn, exam, set, nullptr, &r, &err), PN_OK) << err.msg;
    return RedPtr(r);
}

// ---- random nets with something to reduce ------------------------------------
// Plants, on a random bounded net: a copy of a transition (duplicate), a
// place only read by self-loops (constant; some tests exceed it: dead
// transitions), a place only consumed from and small (dead transitions),
// and a place only produced into (a sink; may unbound the net: such nets
// are skipped by the enumeration limit).
RandomNetSpec planted_spec(std::mt19937_64 &rng)
{
    uint32_t P = 3 + (uint32_t)(rng() % 4), T = 3 + (uint32_t)(rng() % 4);
    RandomNetSpec s = random_bounded_spec(rng, P, T);
    for (uint32_t d = (uint32_t)(rng() % 3); d > 0; d--) {
        uint32_t t = (uint32_t)(rng() % s.n_trans), u = s.n_trans++;
        std::vector<RandomArc> copy;
        for (const RandomArc &a : s.arcs)
            if (a.trans == t)
                copy.push_back({a.place, u, a.to_trans, a.weight});
        s.arcs.insert(s.arcs.end(), copy.begin(), copy.end());
    }
    auto add_place = [&](uint64_t m0) {
        s.m0.push_back(m0);
        return (uint32_t)s.m0.size() - 1;
    };
    if (rng() % 2) { // constant
        uint32_t p = add_place(rng() % 3);
        for (uint32_t t = 0; t < s.n_trans; t++)
            if (rng() % 3 == 0) {
                uint64_t w = 1 + rng() % 2;
                s.arcs.push_back({p, t, true, w});
                s.arcs.push_back({p, t, false, w});
            }
    }
    if (rng() % 2) { // never increased
        uint32_t p = add_place(rng() % 3);
        s.arcs.push_back({p, (uint32_t)(rng() % s.n_trans), true, 1 + rng() % 3});
    }
    if (rng() % 2) { // an output arc h -> x split into h -> q -> f -> x (post-agglomeration)
        std::vector<size_t> outs;
        for (size_t i = 0; i < s.arcs.size(); i++)
            if (!s.arcs[i].to_trans)
                outs.push_back(i);
        if (!outs.empty()) {
            RandomArc a = s.arcs[outs[rng() % outs.size()]];
            uint32_t q = add_place(0), f = s.n_trans++;
            for (RandomArc &b : s.arcs)
                if (!b.to_trans && b.trans == a.trans && b.place == a.place)
                    b.place = q;
            s.arcs.push_back({q, f, true, 1});
            s.arcs.push_back({a.place, f, false, 1});
            if (rng() % 2) { // a second consumer of q (post-agglomeration with |F| = 2)
                uint32_t f2 = s.n_trans++;
                s.arcs.push_back({q, f2, true, 1});
                s.arcs.push_back({(uint32_t)(rng() % P), f2, false, 1 + rng() % 2});
            } else if (rng() % 2) { // another output of h split the same way: a fan of two
                for (RandomArc &b : s.arcs)
                    if (!b.to_trans && b.trans == a.trans && b.place != q) {
                        uint32_t q2 = add_place(0), f2 = s.n_trans++, x = b.place;
                        b.place = q2;
                        s.arcs.push_back({q2, f2, true, 1});
                        s.arcs.push_back({x, f2, false, 1});
                        break;
                    }
            }
        }
    }
    if (rng() % 2) { // q -h-> r -> t: h alone consumes q, t also needs r (pre-agglomeration)
        uint32_t t = (uint32_t)(rng() % s.n_trans), h = s.n_trans++;
        uint32_t q = add_place(rng() % 3), r = add_place(0);
        s.arcs.push_back({q, h, true, 1 + rng() % 2});
        s.arcs.push_back({r, h, false, 1});
        s.arcs.push_back({r, t, true, 1});
        if (rng() % 2) // refilled by some transition
            s.arcs.push_back({q, (uint32_t)(rng() % s.n_trans), false, 1});
        if (rng() % 4 == 0) { // q also consumed elsewhere: h may be disabled (no fusion)
            uint32_t u = s.n_trans++;
            s.arcs.push_back({q, u, true, 1});
            s.arcs.push_back({(uint32_t)(rng() % P), u, false, 1});
        }
        if (rng() % 2) { // a second consumer of r
            uint32_t u = (uint32_t)(rng() % s.n_trans);
            if (u != h)
                s.arcs.push_back({r, u, true, 1});
        }
    }
    if (rng() % 2) { // needs more tokens than the net holds: dead by the state equation only
        uint64_t total = 0;
        for (uint32_t p = 0; p < P; p++)
            total += s.m0[p];
        uint32_t u = s.n_trans++, a = (uint32_t)(rng() % P), b = (a + 1) % P;
        s.arcs.push_back({a, u, true, total / 2 + 1});
        s.arcs.push_back({b, u, true, total / 2 + 1});
        s.arcs.push_back({a, u, false, 1});
    }
    if (rng() % 2) { // a copy of a place, with other tokens: one of the two may be implicit
        uint32_t src = (uint32_t)(rng() % P);
        uint64_t m = s.m0[src];
        uint32_t c = add_place(rng() % 2 ? m + rng() % 2 : (m > 0 ? m - 1 : 0));
        std::vector<RandomArc> copy;
        for (const RandomArc &a : s.arcs)
            if (a.place == src)
                copy.push_back({c, a.trans, a.to_trans, a.weight});
        s.arcs.insert(s.arcs.end(), copy.begin(), copy.end());
    }
    if (rng() % 2) { // a cycle of empty places a, b: dead by the unmarked siphon {a, b} only
        uint32_t a = add_place(0), b = add_place(0), x = (uint32_t)(rng() % P);
        uint32_t t = s.n_trans, u = t + 1, t2 = t + 2, v = t + 3;
        s.n_trans += 4;
        s.arcs.insert(s.arcs.end(), {{a, t, true, 1}, {b, t, false, 1}, {b, u, true, 1},
                                     {a, u, false, 1}, {a, t2, true, 1}, {x, t2, true, 1},
                                     {a, t2, false, 1}, {b, t2, false, 1}, {x, t2, false, 1},
                                     {a, v, true, 1}, {(uint32_t)(rng() % P), v, false, 1}});
    }
    if (rng() % 2) { // sink
        uint32_t p = add_place(rng() % 2);
        s.arcs.push_back({p, (uint32_t)(rng() % s.n_trans), false, 1});
    }
    return s;
}

// A random firing sequence of r's net, expanded onto the original
// (pn_reduce_expand): the original fires it and ends on the same tokens in
// every place r kept. False on a disagreement.
bool expansion_replays(std::mt19937_64 &rng, const pn_cnet *orig, const pn_reduced *r)
{
    const pn_cnet *rc = r->cn;
    std::vector<uint64_t> m(rc->m0, rc->m0 + rc->n_places), next(rc->n_places);
    std::vector<uint32_t> trace;
    for (int step = 0; step < 12; step++) {
        std::vector<uint32_t> en;
        for (uint32_t t = 0; t < rc->n_transitions; t++)
            if (pn_cnet_enabled(rc, m.data(), t))
                en.push_back(t);
        if (en.empty())
            break;
        trace.push_back(en[rng() % en.size()]);
        EXPECT_TRUE(pn_cnet_fire(rc, m.data(), trace.back(), next.data()));
        m.swap(next);
    }
    pn_error err;
    pn_error_clear(&err);
    uint32_t *full = nullptr;
    uint64_t len = 0;
    EXPECT_EQ(pn_reduce_expand(r, trace.data(), trace.size(), &full, &len, &err), PN_OK);
    std::vector<uint64_t> o(orig->m0, orig->m0 + orig->n_places), onext(orig->n_places);
    bool ok = full != nullptr;
    for (uint64_t i = 0; ok && i < len; i++) {
        ok = pn_cnet_enabled(orig, o.data(), full[i]) &&
             pn_cnet_fire(orig, o.data(), full[i], onext.data());
        o.swap(onext);
    }
    free(full);
    for (uint32_t p = 0; ok && p < rc->n_places; p++)
        ok = o[(size_t)pn_net_find_place(orig->net, r->net->place_id[p])] == m[p];
    return ok;
}

pn_fml_node *ef(pn_fml_node *phi) { return pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, phi)); }

struct Tally {
    uint32_t nets = 0, items = 0, wrong = 0, reduced = 0, unknown = 0;
    uint32_t traced = 0; /* traces on a reduced net replayed on the original */
    uint32_t each = 0;   /* answers on one formula's own reduced net, checked */
    uint32_t removed[PN_RED_RULE_COUNT] = {};
};

// The reduced net answers each formula like the original: by enumerating
// the reduced net, and through pn_examine (which reduces itself).
void one_reach(std::mt19937_64 &rng, pn_exam exam, Tally &t)
{
    Net n = build(planted_spec(rng));
    const pn_cnet *cn = n.cn.get();
    auto states = reachable(cn, 3000);
    if (states.empty())
        return;
    // Half of the nets: formulas read only the first places and transitions,
    // leaving the rest to the rules that need unobserved nodes.
    pn_cnet view = *cn;
    if (rng() % 2) {
        view.n_places = std::min<uint32_t>(cn->n_places, 2);
        view.n_transitions = std::min<uint32_t>(cn->n_transitions, 2);
    }
    std::vector<pn_fml_node *> roots;
    for (int i = 0; i < 4; i++) {
        if (exam == PN_EXAM_UPPER_BOUNDS) {
            roots.push_back(list(PN_FML_PLACE_BOUND, rng, 2, view.n_places));
            continue;
        }
        if (exam == PN_EXAM_REACH_DEADLOCK) { // the global property: E F deadlock
            roots.push_back(ef(pn_fml_leaf(PN_FML_DEADLOCK)));
            continue;
        }
        pn_fml_node *phi = rand_state(rng, &view, exam == PN_EXAM_REACH_FIREABILITY, 3);
        roots.push_back(rng() % 2 ? pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, phi))
                                  : pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, phi)));
    }
    SetPtr set = make_set(n.net.get(), roots);
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_fml_set_simplify(set.get(), &err), PN_OK);
    // ReachabilityDeadlock is global (no set): its formulas here are all
    // E F deadlock, which reads no index, so they evaluate on the reduced net.
    bool rd = exam == PN_EXAM_REACH_DEADLOCK;
    RedPtr red = reduce(cn, exam, rd ? nullptr : set.get());
    ASSERT_NE(red, nullptr);
    const pn_reduced *r = red.get();
    auto rstates = reachable(r->cn, 1000000);
    ASSERT_FALSE(rstates.empty());
    t.nets++;
    t.reduced += pn_reduce_changed(r);
    if (!expansion_replays(rng, cn, r)) {
        t.wrong++;
        ADD_FAILURE() << "an expanded firing sequence does not replay on the original";
    }
    for (int k = 0; k < PN_RED_RULE_COUNT; k++)
        t.removed[k] += r->removed[k];
    pn_examine_opts o;
    memset(&o, 0, sizeof o);
    o.explore.threads = 1;
    o.engine = PN_ENGINE_CPU;
    o.explore.keep_parents = rng() % 2; /* half: witnesses, mapped back and replayed */
    pn_report *report = nullptr;
    ASSERT_EQ(pn_examine(cn, exam, exam == PN_EXAM_REACH_DEADLOCK ? nullptr : set.get(), &o,
                         nullptr, &report, &err),
              PN_OK)
        << err.msg;
    for (uint32_t i = 0; i < set->n; i++) {
        t.items++;
        pn_answer want = truth(set->props[i].root, cn, states);
        const pn_fml_node *rroot = rd ? set->props[i].root : r->set->props[i].root;
        pn_answer got = truth(rroot, r->cn, rstates);
        const pn_answer *ex = pn_check_answer(report->check, exam == PN_EXAM_REACH_DEADLOCK ? 0 : i);
        bool same = got.verdict == want.verdict && got.value == want.value &&
                    ex->verdict == want.verdict && ex->value == want.value;
        if (!same) {
            t.wrong++;
            char *a = pn_fml_to_string(set->props[i].root, nullptr);
            char *b = pn_fml_to_string(rroot, nullptr);
            ADD_FAILURE() << pn_exam_name(exam) << ": " << a << " -> " << b << ": want "
                          << want.verdict << "/" << want.value << " reduced " << got.verdict
                          << "/" << got.value << " examine " << ex->verdict << "/" << ex->value;
            free(a);
            free(b);
            pn_error e2;
            pn_error_clear(&e2);
            pn_pnml_write_file("/tmp/red_fail_orig.pnml", n.net.get(), &e2);
            pn_pnml_write_file("/tmp/red_fail_red.pnml", r->net, &e2);
        }
        /* an answer on the reduced joint net says so; one on an unreduced
         * joint net may still come from the formula's own reduced net */
        if (pn_reduce_changed(red.get())) {
            EXPECT_NE(ex->techniques & PN_TECH_STRUCTURAL_REDUCTION, 0u);
        }
    }
    if (!rd && !o.explore.keep_parents) { /* each formula on its own reduced net */
        o.reduce_each_only = true;
        pn_report *each = nullptr;
        ASSERT_EQ(pn_examine(cn, exam, set.get(), &o, nullptr, &each, &err), PN_OK) << err.msg;
        for (uint32_t i = 0; i < set->n; i++) {
            pn_answer want = truth(set->props[i].root, cn, states);
            const pn_answer *ex = pn_check_answer(each->check, i);
            t.each++;
            if (ex->verdict != want.verdict || ex->value != want.value) {
                t.wrong++;
                char *a = pn_fml_to_string(set->props[i].root, nullptr);
                ADD_FAILURE() << pn_exam_name(exam) << " alone: " << a << ": want "
                              << want.verdict << "/" << want.value << " got " << ex->verdict
                              << "/" << ex->value;
                free(a);
            }
        }
        pn_report_free(each);
    }
    for (uint32_t i = 0; i < pn_check_count(report->check); i++) {
        if (!trace_replays(cn, report, rd ? nullptr : set.get(), i)) {
            t.wrong++;
            ADD_FAILURE() << "formula " << i << ": the witness does not replay on the original";
        }
        t.traced += (pn_check_answer(report->check, i)->has_witness ||
                     pn_check_answer(report->check, i)->lasso != nullptr) &&
                    report->reduced != nullptr;
    }
    pn_report_free(report);
}

// Answer i's path (a CTL witness or lasso, its cycle twice), mapped back
// onto the original cn, fires there. True when there is none.
bool ctl_path_fires(const pn_cnet *cn, const pn_report *rep, uint32_t i)
{
    const pn_answer *a = pn_check_answer(rep->check, i);
    std::vector<uint32_t> steps;
    uint32_t *path = nullptr, *seq = nullptr;
    uint64_t len = 0, n = 0;
    if (a->lasso != nullptr) {
        steps.assign(a->lasso, a->lasso + a->lasso_prefix + a->lasso_cycle);
        steps.insert(steps.end(), a->lasso + a->lasso_prefix,
                     a->lasso + a->lasso_prefix + a->lasso_cycle);
    } else if (a->has_witness && pn_engine_trace(&rep->result, a->witness, &path, &len)) {
        steps.assign(path, path + len);
    } else {
        return true;
    }
    free(path);
    pn_error err;
    pn_error_clear(&err);
    std::vector<uint64_t> m(cn->m0, cn->m0 + cn->n_places);
    bool ok = pn_report_trace(rep, steps.data(), steps.size(), &seq, &n, &err) == PN_OK &&
              replay(cn, m, seq, n);
    free(seq);
    return ok;
}

// LTL and CTL: pn_examine on the reduced net (its default), and on each
// formula's own reduced net, against the original explored completely by
// the same checker without reductions; the lassos and paths behind the
// answers, mapped back, replay on the original. Without next, the formulas
// have no X, and the agglomerations apply.
void one_temporal(std::mt19937_64 &rng, pn_exam exam, bool ltl, bool next, Tally &t)
{
    Net n = build(planted_spec(rng));
    const pn_cnet *cn = n.cn.get();
    if (reachable(cn, 3000).empty())
        return;
    bool fireability = exam == PN_EXAM_LTL_FIREABILITY || exam == PN_EXAM_CTL_FIREABILITY;
    // Without X, the formulas read only the first places and transitions,
    // leaving the rest to the agglomerations, which need unread nodes.
    pn_cnet view = *cn;
    if (!next) {
        view.n_places = std::min<uint32_t>(cn->n_places, 2);
        view.n_transitions = std::min<uint32_t>(cn->n_transitions, 2);
    }
    std::vector<pn_fml_node *> roots;
    for (int i = 0; i < 3; i++)
        roots.push_back(ltl ? pn_fml_unary(PN_FML_A, rand_ltl_path(rng, &view, fireability, 3, next))
                            : rand_ctl_state(rng, &view, fireability, 3, next));
    SetPtr set = make_set(n.net.get(), roots);
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_fml_set_simplify(set.get(), &err), PN_OK);
    RedPtr red = reduce(cn, exam, set.get());
    ASSERT_NE(red, nullptr);
    t.nets++;
    t.reduced += pn_reduce_changed(red.get());
    for (int k = 0; k < PN_RED_RULE_COUNT; k++)
        t.removed[k] += red->removed[k];
    pn_examine_opts o;
    memset(&o, 0, sizeof o);
    o.explore.threads = 1;
    o.engine = PN_ENGINE_CPU;
    pn_report *with = nullptr, *each = nullptr, *without = nullptr;
    o.explore.keep_parents = true; /* lassos and paths, mapped back and replayed */
    ASSERT_EQ(pn_examine(cn, exam, set.get(), &o, nullptr, &with, &err), PN_OK) << err.msg;
    o.explore.keep_parents = false;
    o.reduce_each_only = true; /* each formula on its own reduced net */
    ASSERT_EQ(pn_examine(cn, exam, set.get(), &o, nullptr, &each, &err), PN_OK) << err.msg;
    o.reduce_each_only = false;
    o.no_reduce = true;
    ASSERT_EQ(pn_examine(cn, exam, set.get(), &o, nullptr, &without, &err), PN_OK) << err.msg;
    for (uint32_t i = 0; i < set->n; i++) {
        t.items++;
        t.each++;
        pn_verdict a = pn_check_answer(with->check, i)->verdict,
                   e = pn_check_answer(each->check, i)->verdict,
                   b = pn_check_answer(without->check, i)->verdict;
        t.unknown += a == PN_VERDICT_UNKNOWN || b == PN_VERDICT_UNKNOWN;
        if (ltl ? !trace_replays(cn, with, set.get(), i) : !ctl_path_fires(cn, with, i)) {
            t.wrong++;
            ADD_FAILURE() << "formula " << i << ": the path does not replay on the original";
        }
        t.traced += pn_check_answer(with->check, i)->lasso != nullptr && with->reduced != nullptr;
        if (a != b || e != b) {
            t.wrong++;
            char *str = pn_fml_to_string(set->props[i].root, nullptr);
            ADD_FAILURE() << str << ": reduced " << a << " alone " << e << " original " << b;
            free(str);
        }
    }
    pn_report_free(with);
    pn_report_free(each);
    pn_report_free(without);
}

void expect_rules_used(const Tally &t, bool null_rule, bool agglo, uint32_t min_traced)
{
    EXPECT_EQ(t.wrong, 0u);
    EXPECT_GE(t.nets, petrel_test::random_share(2000));
    EXPECT_GE(t.reduced, t.nets / 2) << t.reduced << " of " << t.nets;
    for (int k = 0; k < PN_RED_RULE_COUNT; k++)
        if (k != PN_RED_NULL_TRANSITION && k != PN_RED_POST_AGGLOMERATION &&
            k != PN_RED_PRE_AGGLOMERATION && k != PN_RED_CONE) {
            EXPECT_GE(t.removed[k], petrel_test::random_share(100)) << "rule " << k;
        }
    if (null_rule) { /* deadlock atoms (fireability) often forbid them */
        EXPECT_GE(t.removed[PN_RED_NULL_TRANSITION], petrel_test::random_share(20));
        EXPECT_GE(t.removed[PN_RED_CONE], petrel_test::random_share(20));
    } else {
        EXPECT_EQ(t.removed[PN_RED_NULL_TRANSITION], 0u);
        EXPECT_EQ(t.removed[PN_RED_CONE], 0u);
    }
    for (int k : {PN_RED_POST_AGGLOMERATION, PN_RED_PRE_AGGLOMERATION}) {
        if (agglo)
            EXPECT_GE(t.removed[k], petrel_test::random_share(10))
                << "rule " << k; /* the cone rule takes some of theirs */
        else
            EXPECT_EQ(t.removed[k], 0u) << "rule " << k;
    }
    EXPECT_GE(t.traced, min_traced); /* most reachability answers come without an engine trace */
    std::printf("reduce: %u nets (%u reduced), %u formulas, %u traces mapped back; removed: %u "
                "constant places, %u dead, %u duplicate, %u sink places, %u null, %u "
                "post-agglomerated, %u dead by the state equation, %u pre-agglomerated, %u dead "
                "by a siphon, %u implicit places, %u outside the cone\n",
                t.nets, t.reduced, t.items, t.traced, t.removed[0], t.removed[1], t.removed[2],
                t.removed[3], t.removed[4], t.removed[5], t.removed[PN_RED_DEAD_LP],
                t.removed[PN_RED_PRE_AGGLOMERATION], t.removed[PN_RED_DEAD_SIPHON],
                t.removed[PN_RED_IMPLICIT_PLACE], t.removed[PN_RED_CONE]);
}

void run_reach(pn_exam exam, uint64_t seed, bool null_rule, bool agglo)
{
    std::mt19937_64 rng(seed);
    Tally t;
    for (uint32_t k = 0; k < 2 * petrel_test::random_share(2000) &&
                       t.nets < petrel_test::random_share(2000) && t.wrong == 0;
         k++)
        one_reach(rng, exam, t);
    expect_rules_used(t, null_rule, agglo, exam == PN_EXAM_UPPER_BOUNDS ? 0 : 1);
    if (exam != PN_EXAM_REACH_DEADLOCK) { /* a global property: one net */
        EXPECT_GE(t.each, t.nets) << "answers on one formula's own net";
    }
}

// ---- hand-made nets ------------------------------------------------------------
Net hand(const std::vector<uint64_t> &m0, uint32_t T, const std::vector<RandomArc> &arcs)
{
    RandomNetSpec s;
    s.m0 = m0;
    s.n_trans = T;
    s.arcs = arcs;
    return build(s);
}

pn_fml_node *tok(uint32_t p) { return pn_fml_list(PN_FML_TOKENS, &p, 1); }
pn_fml_node *fire(uint32_t t) { return pn_fml_list(PN_FML_FIREABLE, &t, 1); }

std::string text(const pn_reduced *r, uint32_t i)
{
    char *s = pn_fml_to_string(r->set->props[i].root, r->net);
    std::string out = s != nullptr ? s : "";
    free(s);
    return out;
}

} // namespace

TEST(Reduce, RandomReachabilityCardinalityAgrees)
{
    run_reach(PN_EXAM_REACH_CARDINALITY, 16001, true, true);
}
TEST(Reduce, RandomReachabilityFireabilityAgrees)
{
    run_reach(PN_EXAM_REACH_FIREABILITY, 16002, true, true);
}
TEST(Reduce, RandomUpperBoundsAgree) { run_reach(PN_EXAM_UPPER_BOUNDS, 16003, true, true); }
TEST(Reduce, RandomDeadlockAgrees) { run_reach(PN_EXAM_REACH_DEADLOCK, 16004, false, true); }

// More seeds of the same comparisons (about a minute).
TEST(Reduce, Big_RandomManySeeds)
{
    for (uint64_t seed = 1; seed <= 5; seed++) {
        run_reach(PN_EXAM_REACH_CARDINALITY, 17000 + seed, true, true);
        run_reach(PN_EXAM_REACH_FIREABILITY, 18000 + seed, true, true);
        run_reach(PN_EXAM_UPPER_BOUNDS, 19000 + seed, true, true);
        run_reach(PN_EXAM_REACH_DEADLOCK, 20000 + seed, false, true);
    }
}

namespace {

// 2,000 random nets with three LTL (ltl) or CTL formulas each, without X
// on half of them: one_temporal.
void run_temporal(uint64_t seed, bool ltl, uint32_t min_traced)
{
    std::mt19937_64 rng(seed);
    Tally t;
    pn_exam card = ltl ? PN_EXAM_LTL_CARDINALITY : PN_EXAM_CTL_CARDINALITY;
    pn_exam fire = ltl ? PN_EXAM_LTL_FIREABILITY : PN_EXAM_CTL_FIREABILITY;
    for (uint32_t k = 0; k < 2 * petrel_test::random_share(2000) &&
                       t.nets < petrel_test::random_share(2000) && t.wrong == 0;
         k++)
        one_temporal(rng, k % 2 ? fire : card, ltl, k % 4 < 2, t);
    expect_rules_used(t, false, true, min_traced);
    EXPECT_EQ(t.unknown, 0u);
    EXPECT_GE(t.each, t.nets) << "answers on one formula's own net";
}

} // namespace

TEST(Reduce, RandomLtlAgrees) { run_temporal(16005, true, petrel_test::random_share(1000)); }

TEST(Reduce, RandomCtlAgrees) { run_temporal(16077, false, petrel_test::random_share(300)); }

// More seeds of the same comparisons (about a minute).
TEST(Reduce, Big_RandomTemporalManySeeds)
{
    for (uint64_t seed = 1; seed <= 2; seed++) {
        run_temporal(21000 + seed, true, petrel_test::random_share(1000));
        run_temporal(22000 + seed, false, petrel_test::random_share(300));
    }
}

// p0 -t0-> p1, p2 (m0 = 1) read by t0 (weight 1) and t1 (weight 2): p2 is
// constant, t1 is dead. EF fireable(t1) is FALSE; EF p2 >= 1 reads the
// isolated constant place.
TEST(Reduce, ConstantPlaceAndDeadTransition)
{
    Net n = hand({1, 0, 1}, 2,
                 {{0, 0, true, 1}, {1, 0, false, 1}, {2, 0, true, 1}, {2, 0, false, 1},
                  {2, 1, true, 2}, {2, 1, false, 2}, {1, 1, true, 1}});
    SetPtr set = make_set(n.net.get(), {ef(fire(1)), ef(pn_fml_binary(PN_FML_INT_LE,
                                                                       pn_fml_const(1), tok(2)))});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_REACH_FIREABILITY, set.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_DEAD_TRANSITION], 1u);
    EXPECT_EQ(r->removed[PN_RED_CONSTANT_PLACE], 1u);
    EXPECT_EQ(r->removed[PN_RED_SINK_PLACE], 1u); // p1, once t1 is gone
    EXPECT_EQ(r->net->n_transitions, 1u);
    EXPECT_EQ(r->net->n_places, 2u); // p0, and p2 kept isolated: a formula reads it
    EXPECT_STREQ(r->net->place_id[1], "p2");
    EXPECT_EQ(r->net->m0[1], 1u);
    EXPECT_EQ(r->net->n_arcs, 1u);   // p0 -> t0 only
    EXPECT_EQ(r->set->props[0].root->kind, PN_FML_FALSE);
    EXPECT_EQ(text(r.get(), 1), "EF(1 <= p2)");
    EXPECT_TRUE(pn_reduce_changed(r.get()));
}

// a + b = 1 (t0: a -> b, t1: b -> a): t2, needing a token in each, is
// never enabled. Both places are raised, so only the state equation sees it.
TEST(Reduce, DeadByStateEquation)
{
    Net n = hand({1, 0}, 3,
                 {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}, {0, 1, false, 1},
                  {0, 2, true, 1}, {1, 2, true, 1}, {0, 2, false, 1}, {1, 2, false, 1}});
    SetPtr set = make_set(n.net.get(), {ef(fire(2)), ef(fire(0))});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_LTL_FIREABILITY, set.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_DEAD_TRANSITION], 0u);
    EXPECT_EQ(r->removed[PN_RED_DEAD_LP], 1u);
    EXPECT_EQ(r->net->n_transitions, 2u);
    EXPECT_EQ(r->set->props[0].root->kind, PN_FML_FALSE);
    EXPECT_EQ(text(r.get(), 1), "EF(fireable(t0))");
}

// As above with a second such transition, t3, and E F fireable(t) for each:
// as QuasiLiveness's items (pn_reduce_opts.one_dead_answers) the rule stops
// at t2, which answers the property; otherwise it removes both.
TEST(Reduce, FireableItemsStopAtTheFirstDeadTransition)
{
    Net n = hand({1, 0}, 4,
                 {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}, {0, 1, false, 1},
                  {0, 2, true, 1}, {1, 2, true, 1}, {0, 2, false, 1}, {1, 2, false, 1},
                  {0, 3, true, 1}, {1, 3, true, 1}});
    SetPtr set = make_set(n.net.get(), {ef(fire(0)), ef(fire(1)), ef(fire(2)), ef(fire(3))});
    for (bool one : {false, true}) {
        pn_reduce_opts o = {};
        o.one_dead_answers = one;
        pn_error err;
        pn_error_clear(&err);
        pn_reduced *raw = nullptr;
        ASSERT_EQ(pn_reduce(n.cn.get(), PN_EXAM_REACH_FIREABILITY, set.get(), &o, &raw, &err),
                  PN_OK)
            << err.msg;
        RedPtr r(raw);
        EXPECT_EQ(r->removed[PN_RED_DEAD_LP], one ? 1u : 2u);
        EXPECT_EQ(r->set->props[2].root->kind, PN_FML_FALSE);
        EXPECT_EQ(r->set->props[3].root->kind == PN_FML_FALSE, !one);
    }
}

namespace {

// Formula 0 of set (NULL: the global ReachabilityDeadlock) through
// pn_examine on one thread, reduced (its default) unless no_reduce.
pn_verdict exam_verdict(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                        bool no_reduce = false)
{
    pn_examine_opts o;
    memset(&o, 0, sizeof o);
    o.explore.threads = 1;
    o.engine = PN_ENGINE_CPU;
    o.no_reduce = no_reduce;
    pn_error err;
    pn_error_clear(&err);
    pn_report *rep = nullptr;
    EXPECT_EQ(pn_examine(cn, exam, set, &o, nullptr, &rep, &err), PN_OK);
    pn_verdict v = rep != nullptr ? pn_check_answer(rep->check, 0)->verdict : PN_VERDICT_UNKNOWN;
    pn_report_free(rep);
    return v;
}

pn_verdict deadlock_verdict(const pn_cnet *cn)
{
    return exam_verdict(cn, PN_EXAM_REACH_DEADLOCK, nullptr);
}

} // namespace

// q (1) -t0-> r, t1: r + s (1) -> a, t5: s -> z, and a cycle t2/t3 on a, b.
// Firing t5 then t0 is a deadlock. t0, q's only consumer, is
// pre-agglomerated into t1. With t4: q -> a as well, t0 must not be: the
// fused t0.t1 would be disabled after t5 while t4 still starts the cycle,
// and the deadlock would be lost.
TEST(Reduce, PreAgglomerationNeedsItsInputsToItself)
{
    std::vector<RandomArc> arcs = {{0, 0, true, 1},  {1, 0, false, 1}, {1, 1, true, 1},
                                   {2, 1, true, 1},  {4, 1, false, 1}, {4, 2, true, 1},
                                   {5, 2, false, 1}, {5, 3, true, 1},  {4, 3, false, 1},
                                   {2, 4, true, 1},  {3, 4, false, 1}};
    Net alone = hand({1, 0, 1, 0, 0, 0}, 5, arcs);
    RedPtr r = reduce(alone.cn.get(), PN_EXAM_REACH_DEADLOCK, nullptr);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_PRE_AGGLOMERATION], 1u);
    EXPECT_EQ(pn_net_find_transition(r->net, "t0"), -1);
    EXPECT_EQ(deadlock_verdict(alone.cn.get()), PN_VERDICT_TRUE);
    arcs.push_back({0, 5, true, 1});
    arcs.push_back({4, 5, false, 1});
    Net shared = hand({1, 0, 1, 0, 0, 0}, 6, arcs);
    r = reduce(shared.cn.get(), PN_EXAM_REACH_DEADLOCK, nullptr);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_PRE_AGGLOMERATION], 0u);
    EXPECT_EQ(deadlock_verdict(shared.cn.get()), PN_VERDICT_TRUE);
}

// p2 has two consumers t2, t3 that need only its token: each producer (t0,
// t1) becomes one transition per consumer, named "h.f"; the reachable
// markings of the observed p0, p1 stay (t4, t5 bring tokens back).
TEST(Reduce, PostAgglomerationWithTwoConsumers)
{
    Net n = hand({1, 1, 0, 0, 0}, 6,
                 {{0, 0, true, 1}, {2, 0, false, 1}, {1, 1, true, 1}, {2, 1, false, 1},
                  {2, 2, true, 1}, {3, 2, false, 1}, {2, 3, true, 1}, {4, 3, false, 1},
                  {3, 4, true, 1}, {0, 4, false, 1}, {4, 5, true, 1}, {1, 5, false, 1}});
    SetPtr set = make_set(n.net.get(),
                          {ef(pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), tok(0))),
                           ef(pn_fml_binary(PN_FML_INT_LE, tok(1), pn_fml_const(0)))});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_POST_AGGLOMERATION], 1u);
    EXPECT_EQ(pn_net_find_place(r->net, "p2"), -1);
    EXPECT_GE(pn_net_find_transition(r->net, "t0.t2"), 0);
    EXPECT_GE(pn_net_find_transition(r->net, "t1.t3"), 0);
    EXPECT_EQ(r->net->n_transitions, 6u);
    auto orig = reachable(n.cn.get(), 1000), red = reachable(r->cn, 1000);
    for (uint32_t i = 0; i < set->n; i++)
        EXPECT_EQ(truth(r->set->props[i].root, r->cn, red).verdict,
                  truth(set->props[i].root, n.cn.get(), orig).verdict);
}

// p0 (1) -t0-> p, whose two consumers t1: p -> a, t2: p -> b lead on to
// t3: a -> c, t4: b -> d. After t0 alone, both c and d can still come:
// E F (p0 = c = d = 0 and E F c >= 1 and E F d >= 1) holds. Fusing p away
// (t0.t1, t0.t2) would choose at t0 and lose that marking, so CTL gets no
// post-agglomeration with two consumers; LTL without X gets it (each run
// keeps its observations up to stuttering), and A F (c >= 1 or d >= 1)
// stays true.
TEST(Reduce, StutterAgglomerationKeepsTheBranchingForCtl)
{
    Net n = hand({1, 0, 0, 0, 0, 0}, 5,
                 {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}, {2, 1, false, 1},
                  {1, 2, true, 1}, {3, 2, false, 1}, {2, 3, true, 1}, {4, 3, false, 1},
                  {3, 4, true, 1}, {5, 4, false, 1}});
    auto zero = [](uint32_t p) { return pn_fml_binary(PN_FML_INT_LE, tok(p), pn_fml_const(0)); };
    auto some = [](uint32_t p) { return pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), tok(p)); };
    pn_fml_node *both[5] = {zero(0), zero(4), zero(5), ef(some(4)), ef(some(5))};
    SetPtr ctl = make_set(n.net.get(), {ef(pn_fml_nary(PN_FML_AND, both, 5))});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_CTL_CARDINALITY, ctl.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_POST_AGGLOMERATION], 0u);
    EXPECT_GE(pn_net_find_place(r->net, "p1"), 0);
    EXPECT_EQ(exam_verdict(n.cn.get(), PN_EXAM_CTL_CARDINALITY, ctl.get()), PN_VERDICT_TRUE);
    EXPECT_EQ(exam_verdict(n.cn.get(), PN_EXAM_CTL_CARDINALITY, ctl.get(), true),
              PN_VERDICT_TRUE);

    pn_fml_node *either[2] = {some(4), some(5)};
    SetPtr ltl = make_set(n.net.get(), {pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_F,
                                            pn_fml_nary(PN_FML_OR, either, 2)))});
    r = reduce(n.cn.get(), PN_EXAM_LTL_CARDINALITY, ltl.get());
    ASSERT_NE(r, nullptr);
    EXPECT_GE(r->removed[PN_RED_POST_AGGLOMERATION], 1u);
    EXPECT_EQ(pn_net_find_place(r->net, "p1"), -1);
    EXPECT_EQ(exam_verdict(n.cn.get(), PN_EXAM_LTL_CARDINALITY, ltl.get()), PN_VERDICT_TRUE);

    pn_fml_node *either2[2] = {some(4), some(5)};
    pn_fml_node *next = pn_fml_unary(PN_FML_X, pn_fml_nary(PN_FML_OR, either2, 2));
    SetPtr with_x = make_set(n.net.get(), {pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_F, next))});
    r = reduce(n.cn.get(), PN_EXAM_LTL_CARDINALITY, with_x.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_POST_AGGLOMERATION], 0u) << "X counts the steps";
}

// t0: p0 -> q1 + q2 + 2 q3, each qi consumed by ti alone (qi -> xi), and
// t4: x1 + x2 + 2 x3 -> p0 closes the cycle. The three places are fused
// into t0 in one pass (t0 t1 t2 t3^2): a producer heads a fan of them.
TEST(Reduce, PostAgglomerationFansOutFromOneProducer)
{
    Net n = hand({1, 0, 0, 0, 0, 0, 0}, 5,
                 {{0, 0, true, 1},  {1, 0, false, 1}, {2, 0, false, 1}, {3, 0, false, 2},
                  {1, 1, true, 1},  {4, 1, false, 1}, {2, 2, true, 1},  {5, 2, false, 1},
                  {3, 3, true, 1},  {6, 3, false, 1}, {4, 4, true, 1},  {5, 4, true, 1},
                  {6, 4, true, 2},  {0, 4, false, 1}});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_REACH_DEADLOCK, nullptr);
    ASSERT_NE(r, nullptr);
    EXPECT_GE(r->removed[PN_RED_POST_AGGLOMERATION], 3u);
    for (const char *q : {"p1", "p2", "p3"})
        EXPECT_EQ(pn_net_find_place(r->net, q), -1) << q;
    int32_t t0 = pn_net_find_transition(r->net, "t0");
    ASSERT_GE(t0, 0);
    uint64_t fired[5] = {0};
    for (uint32_t k = r->word_off[t0]; k < r->word_off[t0 + 1]; k++)
        fired[r->word[k].t] += r->word[k].times;
    EXPECT_EQ(fired[0], 1u);
    EXPECT_EQ(fired[1], 1u);
    EXPECT_EQ(fired[2], 1u);
    EXPECT_EQ(fired[3], 2u);
    EXPECT_EQ(deadlock_verdict(n.cn.get()), PN_VERDICT_FALSE);
}

// a, b empty, t0: a -> b, t1: b -> a, t2: a + x -> a + b + x, t3: a -> y.
// {a, b} is a siphon empty at m0: all four are dead, though each of a, b is
// raised by some transition and the state equation lets t3 fire (x1 = x2 =
// 1 gives a = 1).
TEST(Reduce, DeadByUnmarkedSiphon)
{
    Net n = hand({0, 0, 1, 0}, 4,
                 {{0, 0, true, 1}, {1, 0, false, 1}, {1, 1, true, 1}, {0, 1, false, 1},
                  {0, 2, true, 1}, {2, 2, true, 1}, {0, 2, false, 1}, {1, 2, false, 1},
                  {2, 2, false, 1}, {0, 3, true, 1}, {3, 3, false, 1}});
    SetPtr set = make_set(n.net.get(), {ef(fire(3))});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_LTL_FIREABILITY, set.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_DEAD_TRANSITION], 0u);
    EXPECT_EQ(r->removed[PN_RED_DEAD_SIPHON], 4u);
    EXPECT_EQ(r->removed[PN_RED_DEAD_LP], 0u);
    EXPECT_EQ(r->net->n_transitions, 0u);
    EXPECT_EQ(r->set->props[0].root->kind, PN_FML_FALSE);
}

// p1 has p0's arcs and one token more: it never disables t0 or t1 and goes
// (it is no formula's); p0, with fewer tokens, is not implicit w.r.t. p1.
// With p1 given one token less than p0, p0 goes instead.
TEST(Reduce, ImplicitPlace)
{
    std::vector<RandomArc> arcs = {{0, 0, true, 1}, {2, 0, false, 1}, {2, 1, true, 1},
                                   {0, 1, false, 1}, {1, 0, true, 1}, {1, 1, false, 1}};
    pn_fml_node *phi = pn_fml_binary(PN_FML_INT_LE, pn_fml_const(2), tok(2));
    Net n = hand({2, 3, 0}, 2, arcs);
    SetPtr set = make_set(n.net.get(), {ef(phi)});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_LTL_CARDINALITY, set.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_IMPLICIT_PLACE], 1u);
    EXPECT_EQ(pn_net_find_place(r->net, "p1"), -1);
    EXPECT_GE(pn_net_find_place(r->net, "p0"), 0);
    Net m = hand({2, 1, 0}, 2, arcs);
    SetPtr set2 = make_set(m.net.get(), {ef(pn_fml_binary(PN_FML_INT_LE, pn_fml_const(2), tok(2)))});
    r = reduce(m.cn.get(), PN_EXAM_LTL_CARDINALITY, set2.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_IMPLICIT_PLACE], 1u);
    EXPECT_EQ(pn_net_find_place(r->net, "p0"), -1);
    EXPECT_GE(pn_net_find_place(r->net, "p1"), 0);
}

// t0 and t1 have the same arcs; t2 differs by a weight. fireable(t1)
// becomes fireable(t0).
TEST(Reduce, DuplicateTransitions)
{
    Net n = hand({2, 1}, 3,
                 {{0, 0, true, 1}, {1, 0, false, 1}, {0, 1, true, 1}, {1, 1, false, 1},
                  {0, 2, true, 2}, {1, 2, false, 1}, {1, 0, true, 1}, {0, 0, false, 1},
                  {1, 1, true, 1}, {0, 1, false, 1}});
    SetPtr set = make_set(n.net.get(), {ef(fire(1))});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_REACH_FIREABILITY, set.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_DUPLICATE_TRANS], 1u);
    EXPECT_EQ(r->net->n_transitions, 2u);
    EXPECT_STREQ(r->net->trans_id[0], "t0");
    EXPECT_STREQ(r->net->trans_id[1], "t2");
    EXPECT_EQ(text(r.get(), 0), "EF(fireable(t0))");
}

// p1 only receives tokens and no formula reads it: it goes, and t0 then
// changes nothing kept (p0 self-loop): a null transition for pure
// reachability, but not for deadlock.
TEST(Reduce, SinkPlaceThenNullTransition)
{
    Net n = hand({1, 0, 1}, 2,
                 {{0, 0, true, 1}, {0, 0, false, 1}, {1, 0, false, 1}, {2, 1, true, 1},
                  {0, 1, false, 1}});
    pn_fml_node *phi = pn_fml_binary(PN_FML_INT_LE, pn_fml_const(2), tok(0));
    SetPtr set = make_set(n.net.get(), {ef(phi)});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_SINK_PLACE], 1u);
    EXPECT_EQ(r->removed[PN_RED_NULL_TRANSITION], 1u);
    EXPECT_EQ(r->net->n_places, 2u);
    EXPECT_EQ(r->net->n_transitions, 1u);
    RedPtr d = reduce(n.cn.get(), PN_EXAM_REACH_DEADLOCK, nullptr);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->removed[PN_RED_SINK_PLACE], 1u);
    EXPECT_EQ(d->removed[PN_RED_NULL_TRANSITION], 0u);
    EXPECT_EQ(d->net->n_transitions, 2u);
    // A bounded place is observed: UpperBounds keeps p1, so t0 is no null
    // transition there.
    uint32_t one = 1;
    SetPtr ub = make_set(n.net.get(), {pn_fml_list(PN_FML_PLACE_BOUND, &one, 1)});
    RedPtr u = reduce(n.cn.get(), PN_EXAM_UPPER_BOUNDS, ub.get());
    ASSERT_NE(u, nullptr);
    EXPECT_EQ(u->net->n_places, 3u);
    EXPECT_EQ(u->net->n_transitions, 2u);
    EXPECT_FALSE(pn_reduce_changed(u.get()));
}

// q0 (1) -t0-> q1 is what EF q1 >= 1 reads; t1: r0 -> r1 reads q1 (a
// test arc) and t2: r1 -> r0. Nothing outside {q0, q1, t0} changes q0 or
// q1, so the cone of influence drops r0, r1, t1 and t2 for reachability;
// a deadlock (t1 and t2 keep the net alive) or an LTL formula keeps them
// (other rules may still fold them there: without X, t2 is
// post-agglomerated into t1, a loop that keeps the net alive).
TEST(Reduce, ConeOfInfluence)
{
    Net n = hand({1, 0, 1, 0}, 3,
                 {{0, 0, true, 1}, {1, 0, false, 1}, {2, 1, true, 1}, {3, 1, false, 1},
                  {1, 1, true, 1}, {1, 1, false, 1}, {3, 2, true, 1}, {2, 2, false, 1}});
    pn_fml_node *phi = pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), tok(1));
    SetPtr set = make_set(n.net.get(), {ef(phi)});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->removed[PN_RED_CONE], 4u);
    EXPECT_EQ(r->net->n_places, 2u);
    EXPECT_EQ(r->net->n_transitions, 1u);
    EXPECT_STREQ(r->net->trans_id[0], "t0");
    RedPtr d = reduce(n.cn.get(), PN_EXAM_REACH_DEADLOCK, nullptr);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->removed[PN_RED_CONE], 0u);
    SetPtr ltl = make_set(n.net.get(), {pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_F,
                                            pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), tok(1))))});
    RedPtr l = reduce(n.cn.get(), PN_EXAM_LTL_CARDINALITY, ltl.get());
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(l->removed[PN_RED_CONE], 0u);
    EXPECT_EQ(l->removed[PN_RED_POST_AGGLOMERATION], 1u);
    EXPECT_EQ(l->net->n_transitions, 2u);
    // Reading r0 from t0 pulls r0, and its changers t1 and t2, into the cone.
    Net m = hand({1, 0, 1, 0}, 3,
                 {{0, 0, true, 1}, {1, 0, false, 1}, {2, 0, true, 1}, {2, 0, false, 1},
                  {2, 1, true, 1}, {3, 1, false, 1}, {1, 1, true, 1}, {1, 1, false, 1},
                  {3, 2, true, 1}, {2, 2, false, 1}});
    SetPtr set2 = make_set(m.net.get(), {ef(pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), tok(1)))});
    RedPtr r2 = reduce(m.cn.get(), PN_EXAM_REACH_CARDINALITY, set2.get());
    ASSERT_NE(r2, nullptr);
    EXPECT_EQ(r2->removed[PN_RED_CONE], 0u);
}

// The reduced net written as PNML reads back to the same net, with the same
// answers.
TEST(Reduce, WrittenNetReadsBack)
{
    Net n = hand({1, 0, 1, 0}, 3,
                 {{0, 0, true, 1}, {1, 0, false, 2}, {2, 0, true, 1}, {2, 0, false, 1},
                  {1, 1, true, 2}, {0, 1, false, 1}, {1, 2, true, 2}, {0, 2, false, 1},
                  {3, 1, false, 1}});
    SetPtr set = make_set(n.net.get(), {ef(pn_fml_binary(PN_FML_INT_LE, pn_fml_const(2), tok(1)))});
    RedPtr r = reduce(n.cn.get(), PN_EXAM_REACH_CARDINALITY, set.get());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->net->n_places, 2u);
    EXPECT_EQ(r->net->n_transitions, 2u);
    EXPECT_EQ(r->removed[PN_RED_CONSTANT_PLACE], 1u);
    EXPECT_EQ(r->removed[PN_RED_SINK_PLACE], 1u);
    EXPECT_EQ(r->removed[PN_RED_DUPLICATE_TRANS], 1u);
    char path[] = "/tmp/petrel_reduce_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    close(fd);
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_pnml_write_file(path, r->net, &err), PN_OK) << err.msg;
    pn_net *back = nullptr;
    ASSERT_EQ(pn_pnml_read_file(path, nullptr, &back, &err), PN_OK) << err.msg;
    NetPtr owned(back);
    unlink(path);
    ASSERT_EQ(back->n_places, r->net->n_places);
    ASSERT_EQ(back->n_transitions, r->net->n_transitions);
    ASSERT_EQ(back->n_arcs, r->net->n_arcs);
    for (uint32_t p = 0; p < back->n_places; p++) {
        EXPECT_STREQ(back->place_id[p], r->net->place_id[p]);
        EXPECT_EQ(back->m0[p], r->net->m0[p]);
    }
    pn_cnet *cn = nullptr;
    ASSERT_EQ(pn_cnet_compile(back, &cn, &err), PN_OK);
    CnetPtr bcn(cn);
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        ASSERT_EQ(cn->delta_off[t + 1] - cn->delta_off[t],
                  r->cn->delta_off[t + 1] - r->cn->delta_off[t]);
        for (uint32_t k = cn->delta_off[t]; k < cn->delta_off[t + 1]; k++) {
            EXPECT_EQ(cn->delta[k].place, r->cn->delta[k].place);
            EXPECT_EQ(cn->delta[k].delta, r->cn->delta[k].delta);
        }
    }
    // The original is unbounded (t0 t1 pile tokens into the sink p3); the
    // reduced one is finite. t0 puts 2 tokens into p1: TRUE on both.
    EXPECT_TRUE(reachable(n.cn.get(), 1000).empty());
    auto b = reachable(cn, 1000);
    EXPECT_EQ(b.size(), 2u);
    EXPECT_EQ(truth(r->set->props[0].root, cn, b).verdict, PN_VERDICT_TRUE);
}

namespace {

// The CLI's stdout ("FORMULA id value ..." lines) as id -> value.
std::map<std::string, std::string> cli_answers(const std::string &args, std::string *techniques,
                                               bool with_stderr = false)
{
    std::string cmd = std::string(PETREL_CLI_PATH) + " -q " + args +
                      (with_stderr ? " 2>&1" : " 2>/dev/null");
    FILE *p = popen(cmd.c_str(), "r");
    std::map<std::string, std::string> out;
    if (p == nullptr)
        return out;
    char line[4096];
    while (fgets(line, sizeof line, p) != nullptr) {
        char id[1024], value[64];
        if (sscanf(line, "FORMULA %1023s %63s", id, value) == 2)
            out[id] = value;
        if (techniques != nullptr)
            *techniques += line;
    }
    pclose(p);
    return out;
}

} // namespace

// --write-reduced also writes, per formula, its own reduced net and the
// formula on it as an MCC instance folder. Kanban-PT-00200's 16 RC formulas
// read all 16 places together (the joint net keeps them all); alone, most
// read few. Each folder, read back, answers its formula as the joint run
// and the oracle do.
TEST(Reduce, CliWritesEachFormulasNet)
{
    std::string src = std::string(PETREL_SHARED_DIR) + "/mcc/Kanban-PT-00200";
    if (access((src + "/model.pnml").c_str(), R_OK) != 0)
        GTEST_SKIP() << "no " << src;
    std::map<std::string, std::string> oracle;
    FILE *o = fopen((src + "/Kanban-PT-00200-RC.out").c_str(), "r");
    ASSERT_NE(o, nullptr);
    char line[1024], id[256], value[64];
    while (fgets(line, sizeof line, o) != nullptr)
        if (sscanf(line, "FORMULA %255s %63s", id, value) == 2)
            oracle[id] = value;
    fclose(o);
    ASSERT_EQ(oracle.size(), 16u);
    char tmpl[] = "/tmp/petrel_reduce_each_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    std::string dir = tmpl;
    auto joint = cli_answers("-e ReachabilityCardinality --timeout 60 --threads 1 --write-reduced " +
                                 dir + "/model.pnml " + src,
                             nullptr);
    EXPECT_EQ(joint, oracle);
    int folders = 0, small = 0;
    for (const auto &kv : oracle) {
        std::string folder = dir + "/" + kv.first;
        std::string pnml = folder + "/model.pnml";
        ASSERT_EQ(access(pnml.c_str(), R_OK), 0) << pnml;
        pn_error err;
        pn_error_clear(&err);
        pn_net *raw = nullptr;
        ASSERT_EQ(pn_pnml_read_file(pnml.c_str(), nullptr, &raw, &err), PN_OK) << err.msg;
        uint32_t places = raw->n_places;
        pn_net_free(raw);
        folders++;
        small += places <= 6;
        EXPECT_LE(places, 16u);
        auto alone = cli_answers("-e ReachabilityCardinality --timeout 60 --threads 1 " + folder,
                                 nullptr);
        ASSERT_EQ(alone.size(), 1u) << folder;
        EXPECT_EQ(alone.begin()->first, kv.first);
        EXPECT_EQ(alone.begin()->second, kv.second) << kv.first << " (" << places << " places)";
    }
    EXPECT_EQ(folders, 16);
    EXPECT_GE(small, 4) << "formulas 05, 06, 09 and 12 keep 2 to 6 places";
    EXPECT_EQ(system(("rm -rf '" + dir + "'").c_str()), 0);
}


// --write-reduced on an MCC model, read back: the same answers; the
// answers on the reduced net say STRUCTURAL_REDUCTION; --trace keeps the
// reductions.
TEST(Reduce, CliWrittenNetGivesTheSameAnswers)
{
    std::string mcc = std::string(PETREL_SHARED_DIR) + "/mcc/";
    const std::pair<const char *, const char *> runs[] = {
        {"NeoElection-PT-2", "ReachabilityCardinality"},
        {"Referendum-PT-0010", "ReachabilityDeadlock"},
        {"Kanban-PT-00005", "ReachabilityDeadlock"},
        {"NeoElection-PT-2", "LTLFireability"}};
    int traces = 0;
    for (const auto &run : runs) {
        {
            const char *inst = run.first, *exam = run.second;
            std::string src = mcc + inst;
            if (access((src + "/model.pnml").c_str(), R_OK) != 0)
                GTEST_SKIP() << "no " << src;
            char tmpl[] = "/tmp/petrel_reduce_cli_XXXXXX";
            ASSERT_NE(mkdtemp(tmpl), nullptr);
            std::string dir = tmpl;
            std::string lines;
            auto a = cli_answers(std::string("-e ") + exam + " --timeout 60 --write-reduced " +
                                     dir + "/model.pnml " + src,
                                 &lines);
            ASSERT_FALSE(a.empty()) << inst << " " << exam;
            EXPECT_NE(lines.find("STRUCTURAL_REDUCTION"), std::string::npos) << lines;
            std::string xml = src + "/" + exam + ".xml";
            if (access(xml.c_str(), R_OK) == 0) {
                ASSERT_EQ(symlink(xml.c_str(), (dir + "/" + exam + ".xml").c_str()), 0);
            }
            // A fireability formula may name a transition the reduction
            // removed (dead): its file does not read on the reduced net.
            if (strstr(exam, "Fireability") == nullptr) {
                auto b = cli_answers(std::string("-e ") + exam + " --timeout 60 --no-reduce " +
                                         dir,
                                     nullptr);
                EXPECT_EQ(a, b) << inst << " " << exam;
            }
            std::string traced;
            auto c = cli_answers(std::string("-e ") + exam + " --timeout 60 --trace " + src,
                                 &traced, true);
            EXPECT_NE(traced.find("STRUCTURAL_REDUCTION"), std::string::npos);
            traces += cli_traces_replay(src, exam, traced);
            for (const auto &kv : c) { // what both decided agrees
                bool both = a.count(kv.first) && a[kv.first] != "CANNOT_COMPUTE" &&
                            kv.second != "CANNOT_COMPUTE";
                if (both) {
                    EXPECT_EQ(a[kv.first], kv.second) << kv.first;
                }
            }
            EXPECT_EQ(system(("rm -rf '" + dir + "'").c_str()), 0);
        }
    }
    EXPECT_GE(traces, 3);
}
