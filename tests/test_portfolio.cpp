// The portfolio of examine.c on CTL and LTL examinations: formulas of
// reachability shape (CTL E F / A G and their negations, LTL G p and !F p,
// state formulas) take the linear layer, the walks and the visitor's BFS;
// E X / A X formulas in the same set still need the graph or the LTL
// product. Every answer is compared with full enumeration (test_enum.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "petrel/budget.h"
#include "petrel/check.h"
#include "petrel/ctl.h"
#include "petrel/examine.h"
#include "petrel/ltl.h"
#include "petrel/formula.h"
#include "test_enum.h"
#include "test_share.h"

namespace {

pn_fml_node *un(pn_fml_kind k, pn_fml_node *a) { return pn_fml_unary(k, a); }

struct Case {
    pn_fml_node *root;
    bool want;
    bool reach; /* of reachability shape */
};

// E F / A G over states, with the answer.
bool reach_truth(bool is_ef, const pn_fml_node *phi, const pn_cnet *cn,
                 const std::vector<std::vector<uint64_t>> &states)
{
    bool any = false, all = true;
    for (const auto &m : states) {
        bool v = pn_fml_eval_state(phi, cn, m.data());
        any |= v;
        all &= v;
    }
    return is_ef ? any : all;
}

// E X phi (CTL: false at a deadlock) or A X phi (LTL: a deadlock repeats).
bool next_truth(bool ltl, const pn_fml_node *phi, const pn_cnet *cn)
{
    std::vector<uint64_t> m0(cn->m0, cn->m0 + cn->n_places), out(cn->n_places);
    bool any = false, all = true, enabled = false;
    for (uint32_t t = 0; t < cn->n_transitions; t++) {
        if (!pn_cnet_enabled(cn, m0.data(), t))
            continue;
        enabled = true;
        EXPECT_TRUE(pn_cnet_fire(cn, m0.data(), t, out.data()));
        bool v = pn_fml_eval_state(phi, cn, out.data());
        any |= v;
        all &= v;
    }
    if (!enabled)
        return ltl ? pn_fml_eval_state(phi, cn, m0.data()) : false;
    return ltl ? all : any;
}

Case ctl_one(std::mt19937_64 &rng, const pn_cnet *cn, bool fire,
             const std::vector<std::vector<uint64_t>> &states)
{
    pn_fml_node *phi = rand_state(rng, cn, fire, 2);
    uint32_t k = (uint32_t)(rng() % 5);
    if (k == 4) { /* E X phi: not reachability */
        bool v = next_truth(false, phi, cn);
        return {un(PN_FML_E, un(PN_FML_X, phi)), v, false};
    }
    bool is_ef = k % 2 == 0;
    bool v = reach_truth(is_ef, phi, cn, states);
    pn_fml_node *r = un(is_ef ? PN_FML_E : PN_FML_A, un(is_ef ? PN_FML_F : PN_FML_G, phi));
    if (k >= 2)
        return {un(PN_FML_NOT, r), !v, true};
    return {r, v, true};
}

// One formula, or a boolean combination of two (reachability inside the
// boolean layer: split.c), each a state formula at the initial marking.
Case ctl_case(std::mt19937_64 &rng, const pn_cnet *cn, bool fire,
              const std::vector<std::vector<uint64_t>> &states)
{
    if (rng() % 3 != 0)
        return ctl_one(rng, cn, fire, states);
    Case a = ctl_one(rng, cn, fire, states), b = ctl_one(rng, cn, fire, states);
    bool conj = rng() % 2;
    pn_fml_node *kids[2] = {a.root, b.root};
    Case c = {pn_fml_nary(conj ? PN_FML_AND : PN_FML_OR, kids, 2),
              conj ? a.want && b.want : a.want || b.want, false};
    if (rng() % 3 == 0)
        return {un(PN_FML_NOT, c.root), !c.want, false};
    return c;
}

// A path formula psi under LTL's A, with the answer of A psi.
Case ltl_inner(std::mt19937_64 &rng, const pn_cnet *cn, bool fire,
               const std::vector<std::vector<uint64_t>> &states, uint32_t k)
{
    pn_fml_node *phi = rand_state(rng, cn, fire, 2);
    switch (k) {
    case 0: return {un(PN_FML_G, phi), reach_truth(false, phi, cn, states), true};
    case 1: return {phi, pn_fml_eval_state(phi, cn, cn->m0), true};
    default: return {un(PN_FML_X, phi), next_truth(true, phi, cn), false};
    }
}

Case ltl_case(std::mt19937_64 &rng, const pn_cnet *cn, bool fire,
              const std::vector<std::vector<uint64_t>> &states)
{
    uint32_t k = (uint32_t)(rng() % 7);
    if (k == 3) { /* A !F phi = A G !phi */
        pn_fml_node *phi = rand_state(rng, cn, fire, 2);
        bool v = !reach_truth(true, phi, cn, states);
        return {un(PN_FML_A, un(PN_FML_NOT, un(PN_FML_F, phi))), v, true};
    }
    if (k == 4) { /* !A G phi */
        Case c = ltl_inner(rng, cn, fire, states, 0);
        return {un(PN_FML_NOT, un(PN_FML_A, c.root)), !c.want, true};
    }
    if (k == 5) { /* A (psi1 & psi2) = A psi1 & A psi2 */
        Case a = ltl_inner(rng, cn, fire, states, (uint32_t)(rng() % 3));
        Case b = ltl_inner(rng, cn, fire, states, (uint32_t)(rng() % 3));
        pn_fml_node *kids[2] = {a.root, b.root};
        return {un(PN_FML_A, pn_fml_nary(PN_FML_AND, kids, 2)), a.want && b.want, false};
    }
    if (k == 6) { /* A (p | psi) = p at m0, or A psi */
        Case a = ltl_inner(rng, cn, fire, states, 1);
        Case b = ltl_inner(rng, cn, fire, states, (uint32_t)(rng() % 3));
        pn_fml_node *kids[2] = {b.root, a.root};
        return {un(PN_FML_A, pn_fml_nary(PN_FML_OR, kids, 2)), a.want || b.want, false};
    }
    Case c = ltl_inner(rng, cn, fire, states, k);
    return {un(PN_FML_A, c.root), c.want, c.reach};
}

struct Tally {
    uint32_t nets = 0, reach = 0, reach_early = 0, other = 0, unknown = 0, wrong = 0;
    uint32_t combined_early = 0; /* combinations decided before the graph */
};

void one(std::mt19937_64 &rng, bool timed, Tally &t)
{
    uint32_t P = 2 + (uint32_t)(rng() % 5), T = 1 + (uint32_t)(rng() % 8);
    Net n = build(random_bounded_spec(rng, P, T));
    const pn_cnet *cn = n.cn.get();
    auto states = reachable(cn, 20000);
    if (states.empty())
        return;
    t.nets++;
    bool ltl = rng() % 2, fire = rng() % 2;
    pn_exam exam = ltl ? (fire ? PN_EXAM_LTL_FIREABILITY : PN_EXAM_LTL_CARDINALITY)
                       : (fire ? PN_EXAM_CTL_FIREABILITY : PN_EXAM_CTL_CARDINALITY);
    std::vector<Case> cases;
    std::vector<pn_fml_node *> roots;
    for (int i = 0; i < 4; i++) {
        cases.push_back(ltl ? ltl_case(rng, cn, fire, states) : ctl_case(rng, cn, fire, states));
        roots.push_back(cases.back().root);
    }
    SetPtr set = make_set(n.net.get(), roots);
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_fml_set_simplify(set.get(), &err), PN_OK);
    pn_examine_opts o;
    memset(&o, 0, sizeof o);
    o.explore.threads = 1 + (uint32_t)(rng() % 2);
    o.engine = PN_ENGINE_CPU;
    pn_budget budget = pn_budget_make(2.0, nullptr, 0);
    pn_report *report = nullptr;
    ASSERT_EQ(pn_examine(cn, exam, set.get(), &o, timed ? &budget : nullptr, &report, &err),
              PN_OK)
        << err.msg;
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_answer *a = pn_check_answer(report->check, i);
        if (a->verdict == PN_VERDICT_UNKNOWN) {
            t.unknown++;
            char *text = pn_fml_to_string(set->props[i].root, nullptr);
            if (!timed)
                ADD_FAILURE() << pn_exam_name(exam) << ": " << text << ": unknown";
            free(text);
            continue;
        }
        bool got = a->verdict == PN_VERDICT_TRUE;
        t.reach += cases[i].reach;
        t.other += !cases[i].reach;
        t.reach_early += cases[i].reach && (a->techniques & (PN_TECH_LINEAR_EQUATIONS |
                                                            PN_TECH_TOPOLOGICAL |
                                                            PN_TECH_RANDOM_WALK));
        t.combined_early += !cases[i].reach && (a->techniques & (PN_TECH_LINEAR_EQUATIONS |
                                                                 PN_TECH_TOPOLOGICAL |
                                                                 PN_TECH_RANDOM_WALK));
        if (got != cases[i].want) {
            t.wrong++;
            char *text = pn_fml_to_string(set->props[i].root, nullptr);
            ADD_FAILURE() << pn_exam_name(exam) << ": " << text << ": got " << got << " want "
                          << cases[i].want;
            free(text);
        }
    }
    pn_report_free(report);
}

} // namespace

TEST(Portfolio, CtlLtlReachabilityShapesAgreeWithEnumeration)
{
    std::mt19937_64 rng(1818);
    Tally t;
    for (uint32_t k = 0; k < petrel_test::random_share(2200) && t.wrong == 0; k++)
        one(rng, false, t);
    EXPECT_EQ(t.wrong, 0u);
    EXPECT_GE(t.nets, petrel_test::random_share(2000));
    EXPECT_EQ(t.unknown, 0u); /* no time limit: everything is decided */
    EXPECT_GE(t.other, petrel_test::random_share(1000));
    // The linear layer now sees CTL / LTL formulas of reachability shape.
    EXPECT_GE(t.reach_early, t.reach / 5) << t.reach_early << " of " << t.reach;
    /* through the split; the LTL simplification folds some of them before
     * (252 of 3,902 here, 300+ before it), decided at m0 as constants */
    EXPECT_GE(t.combined_early, petrel_test::random_share(200));
    std::printf("portfolio: %u nets, %u reachability-shaped answers (%u by the linear layer "
                "or walks), %u others (%u of them by their reachability sub-formulas)\n",
                t.nets, t.reach, t.reach_early, t.other, t.combined_early);
}

// Under a time limit the walks run too; a few nets keep it fast.
TEST(Portfolio, TimedRunsWithWalksAgreeWithEnumeration)
{
    std::mt19937_64 rng(1819);
    Tally t;
    for (int k = 0; k < 60 && t.wrong == 0; k++)
        one(rng, true, t);
    EXPECT_EQ(t.wrong, 0u);
    EXPECT_GE(t.nets, 40u);
    EXPECT_EQ(t.unknown, 0u);
}

namespace {

// A path formula over state formulas: X, F, G or U.
pn_fml_node *rand_path(std::mt19937_64 &rng, const pn_cnet *cn, bool fire)
{
    uint32_t k = (uint32_t)(rng() % 4);
    if (k == 3) {
        pn_fml_node *a = rand_state(rng, cn, fire, 1);
        return pn_fml_binary(PN_FML_U, a, rand_state(rng, cn, fire, 1));
    }
    pn_fml_kind kind = k == 0 ? PN_FML_X : k == 1 ? PN_FML_F : PN_FML_G;
    return un(kind, rand_state(rng, cn, fire, 1));
}

// CTL: boolean combinations of E / A over any path formula; LTL: A over a
// boolean combination of path formulas.
pn_fml_node *rand_mixed(std::mt19937_64 &rng, const pn_cnet *cn, bool fire, bool ltl, int depth)
{
    if (depth == 0 || rng() % 3 == 0) {
        if (rng() % 4 == 0)
            return rand_state(rng, cn, fire, 1);
        pn_fml_node *p = rand_path(rng, cn, fire);
        return ltl ? p : un(rng() % 2 ? PN_FML_E : PN_FML_A, p);
    }
    if (rng() % 4 == 0 && !ltl)
        return un(PN_FML_NOT, rand_mixed(rng, cn, fire, ltl, depth - 1));
    pn_fml_node *kids[2] = {rand_mixed(rng, cn, fire, ltl, depth - 1),
                            rand_mixed(rng, cn, fire, ltl, depth - 1)};
    return pn_fml_nary(rng() % 2 ? PN_FML_AND : PN_FML_OR, kids, 2);
}

} // namespace

// The split's folding (reachability leaves, the initial-marking shortcuts
// of X, F, G, U) against the graph checkers on the whole formula.
TEST(Portfolio, SplitAgreesWithGraphCheckers)
{
    std::mt19937_64 rng(1820);
    uint32_t nets = 0, decided = 0, wrong = 0;
    for (uint32_t k = 0; k < petrel_test::random_share(2200) && wrong == 0; k++) {
        uint32_t P = 2 + (uint32_t)(rng() % 5), T = 1 + (uint32_t)(rng() % 8);
        Net n = build(random_bounded_spec(rng, P, T));
        const pn_cnet *cn = n.cn.get();
        if (reachable(cn, 20000).empty())
            continue;
        nets++;
        bool ltl = rng() % 2, fire = rng() % 2;
        std::vector<pn_fml_node *> roots;
        for (int i = 0; i < 4; i++) {
            pn_fml_node *f = rand_mixed(rng, cn, fire, ltl, 2);
            roots.push_back(ltl ? un(PN_FML_A, f) : f);
        }
        SetPtr set = make_set(n.net.get(), roots);
        pn_error err;
        pn_error_clear(&err);
        ASSERT_EQ(pn_fml_set_simplify(set.get(), &err), PN_OK);
        pn_exam exam = ltl ? PN_EXAM_LTL_CARDINALITY : PN_EXAM_CTL_CARDINALITY;
        pn_examine_opts o;
        memset(&o, 0, sizeof o);
        o.explore.threads = 1;
        o.engine = PN_ENGINE_CPU;
        pn_report *report = nullptr;
        ASSERT_EQ(pn_examine(cn, exam, set.get(), &o, nullptr, &report, &err), PN_OK) << err.msg;
        pn_engine_opts eo;
        memset(&eo, 0, sizeof eo);
        eo.threads = 1;
        eo.record_graph = eo.keep_states = true;
        pn_engine_result res;
        memset(&res, 0, sizeof res);
        ASSERT_EQ(pn_explore(cn, &eo, &res, &err), PN_OK) << err.msg;
        for (uint32_t i = 0; i < set->n; i++) {
            const pn_answer *a = pn_check_answer(report->check, i);
            pn_ctl_model m = {cn, res.graph, res.store, res.layout, nullptr};
            bool v = false;
            const pn_fml_node *r = set->props[i].root;
            pn_status st = PN_OK;
            if (pn_fml_is_state(r)) /* simplified to the initial marking */
                v = pn_fml_eval_state(r, cn, cn->m0);
            else
                st = ltl ? pn_ltl_check(&m, r, &v, nullptr, &err) : pn_ctl_check(&m, r, &v, &err);
            ASSERT_EQ(st, PN_OK) << err.msg;
            ASSERT_NE(a->verdict, PN_VERDICT_UNKNOWN);
            decided += a->techniques != 0;
            if ((a->verdict == PN_VERDICT_TRUE) != v) {
                wrong++;
                char *text = pn_fml_to_string(set->props[i].root, nullptr);
                ADD_FAILURE() << pn_exam_name(exam) << ": " << text << ": graph says " << v;
                free(text);
            }
        }
        pn_engine_result_free(&res);
        pn_report_free(report);
    }
    EXPECT_EQ(wrong, 0u);
    EXPECT_GE(nets, petrel_test::random_share(2000));
    EXPECT_GE(decided, petrel_test::random_share(1000)) << "answers decided before the graph";
    std::printf("split: %u nets, %u answers decided before the graph\n", nets, decided);
}
