// Comparing a method with full enumeration on small nets (test_linear.cpp,
// test_walk.cpp, test_reduce.cpp): the net builder, formula sets, the reachable markings,
// random reachability formulas and their true answers, in one copy.
#ifndef PETREL_TEST_ENUM_H
#define PETREL_TEST_ENUM_H

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/examine.h"
#include "petrel/formula.h"
#include "petrel/net.h"
#include "test_ptrs.h"
#include "test_random_net.h"

struct Net {
    NetPtr net;
    CnetPtr cn;
};

inline Net build(const RandomNetSpec &s)
{
    pn_error err;
    pn_error_clear(&err);
    Net n;
    n.net.reset(pn_net_new("linear"));
    for (size_t p = 0; p < s.m0.size(); p++)
        EXPECT_GE(pn_net_add_place(n.net.get(), ("p" + std::to_string(p)).c_str(), nullptr,
                                   s.m0[p], &err),
                  0);
    for (uint32_t t = 0; t < s.n_trans; t++)
        EXPECT_GE(pn_net_add_transition(n.net.get(), ("t" + std::to_string(t)).c_str(), nullptr,
                                        &err),
                  0);
    for (const RandomArc &a : s.arcs)
        EXPECT_EQ(pn_net_add_arc(n.net.get(), a.place, a.trans, a.to_trans, a.weight, &err), PN_OK);
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(n.net.get(), &cn, &err), PN_OK) << err.msg;
    n.cn.reset(cn);
    return n;
}

inline SetPtr make_set(const pn_net *net, const std::vector<pn_fml_node *> &roots)
{
    pn_fml_set *s = (pn_fml_set *)calloc(1, sizeof *s);
    s->props = (pn_fml_prop *)calloc(roots.size() + 1, sizeof *s->props);
    s->net = net;
    for (size_t i = 0; i < roots.size(); i++) {
        EXPECT_NE(roots[i], nullptr);
        s->props[i].id = strdup(("f" + std::to_string(i)).c_str());
        s->props[i].root = roots[i];
        s->props[i].status = PN_OK;
    }
    s->n = (uint32_t)roots.size();
    return SetPtr(s);
}

// Every reachable marking (breadth first); empty when there are more than
// limit.
inline std::vector<std::vector<uint64_t>> reachable(const pn_cnet *cn, size_t limit)
{
    std::set<std::vector<uint64_t>> seen;
    std::deque<std::vector<uint64_t>> queue;
    std::vector<uint64_t> m0(cn->m0, cn->m0 + cn->n_places);
    seen.insert(m0);
    queue.push_back(m0);
    while (!queue.empty()) {
        std::vector<uint64_t> m = queue.front();
        queue.pop_front();
        for (uint32_t t = 0; t < cn->n_transitions; t++) {
            if (!pn_cnet_enabled(cn, m.data(), t))
                continue;
            std::vector<uint64_t> out(cn->n_places);
            EXPECT_TRUE(pn_cnet_fire(cn, m.data(), t, out.data()));
            if (seen.insert(out).second)
                queue.push_back(out);
            if (seen.size() > limit)
                return {};
        }
    }
    return std::vector<std::vector<uint64_t>>(seen.begin(), seen.end());
}

// Fires seq[0..n) on cn from *m; false when a step is not enabled. A
// lasso's deadlock step (UINT32_MAX) needs m to be a deadlock.
inline bool replay(const pn_cnet *cn, std::vector<uint64_t> &m, const uint32_t *seq, uint64_t n)
{
    std::vector<uint64_t> next(cn->n_places);
    for (uint64_t i = 0; i < n; i++) {
        if (seq[i] == UINT32_MAX) {
            for (uint32_t t = 0; t < cn->n_transitions; t++)
                if (pn_cnet_enabled(cn, m.data(), t))
                    return false;
            continue;
        }
        if (!pn_cnet_enabled(cn, m.data(), seq[i]) || !pn_cnet_fire(cn, m.data(), seq[i], next.data()))
            return false;
        m.swap(next);
    }
    return true;
}

// An LTL counterexample (trans[0..prefix) then trans[prefix..prefix +
// cycle) forever) replays on cn from m0, every stutter at a deadlock, and
// its cycle comes back to the marking it left.
inline bool lasso_replays(const pn_cnet *cn, const uint32_t *trans, uint64_t prefix,
                          uint64_t cycle)
{
    std::vector<uint64_t> m(cn->m0, cn->m0 + cn->n_places);
    if (cycle == 0 || !replay(cn, m, trans, prefix))
        return false;
    std::vector<uint64_t> loop = m;
    return replay(cn, m, trans + prefix, cycle) && m == loop;
}

// ---- formulas ---------------------------------------------------------------
inline pn_fml_node *list(pn_fml_kind k, std::mt19937_64 &rng, uint32_t n_max, uint32_t range)
{
    uint32_t n = 1 + (uint32_t)(rng() % n_max);
    std::vector<uint32_t> v(n);
    for (auto &x : v)
        x = (uint32_t)(rng() % range);
    return pn_fml_list(k, v.data(), n);
}

inline pn_fml_node *rand_atom(std::mt19937_64 &rng, const pn_cnet *cn, bool fireability)
{
    uint32_t P = cn->n_places, T = cn->n_transitions;
    uint32_t k = (uint32_t)(rng() % 10);
    if (fireability && k < 7)
        return k == 6 && rng() % 3 == 0 ? pn_fml_leaf(PN_FML_DEADLOCK)
                                        : list(PN_FML_FIREABLE, rng, 2, T);
    if (k < 4)
        return pn_fml_binary(PN_FML_INT_LE, list(PN_FML_TOKENS, rng, 3, P),
                             pn_fml_const(rng() % 7));
    if (k < 7)
        return pn_fml_binary(PN_FML_INT_LE, pn_fml_const(rng() % 7),
                             list(PN_FML_TOKENS, rng, 3, P));
    return pn_fml_binary(PN_FML_INT_LE, list(PN_FML_TOKENS, rng, 2, P),
                         list(PN_FML_TOKENS, rng, 2, P));
}

inline pn_fml_node *rand_state(std::mt19937_64 &rng, const pn_cnet *cn, bool fireability, int depth)
{
    if (depth == 0 || rng() % 3 == 0)
        return rand_atom(rng, cn, fireability);
    uint32_t k = (uint32_t)(rng() % 5);
    if (k == 0)
        return pn_fml_unary(PN_FML_NOT, rand_state(rng, cn, fireability, depth - 1));
    uint32_t n = 2 + (uint32_t)(rng() % 2);
    std::vector<pn_fml_node *> kids(n);
    for (auto &c : kids)
        c = rand_state(rng, cn, fireability, depth - 1);
    return pn_fml_nary(k < 3 ? PN_FML_AND : PN_FML_OR, kids.data(), n);
}

// An LTL path formula: state formulas under F, G, X (F instead when not
// next), U, negation and boolean connectives, nested up to depth.
inline pn_fml_node *rand_ltl_path(std::mt19937_64 &rng, const pn_cnet *cn, bool fireability,
                                  int depth, bool next = true)
{
    if (depth == 0 || rng() % 4 == 0)
        return rand_state(rng, cn, fireability, 1);
    auto sub = [&]() { return rand_ltl_path(rng, cn, fireability, depth - 1, next); };
    switch (rng() % 6) {
    case 0: return pn_fml_unary(PN_FML_F, sub());
    case 1: return pn_fml_unary(PN_FML_G, sub());
    case 2: return pn_fml_unary(next ? PN_FML_X : PN_FML_F, sub());
    case 3: return pn_fml_unary(PN_FML_NOT, sub());
    case 4: {
        pn_fml_node *a = sub();
        return pn_fml_binary(PN_FML_U, a, sub());
    }
    default: {
        pn_fml_node *k[2] = {sub(), sub()};
        return pn_fml_nary(rng() % 2 ? PN_FML_AND : PN_FML_OR, k, 2);
    }
    }
}

// A CTL state formula: state formulas under A/E with X (F instead when not
// next), F, G, U, negation and boolean connectives, nested up to depth.
inline pn_fml_node *rand_ctl_state(std::mt19937_64 &rng, const pn_cnet *cn, bool fireability,
                                   int depth, bool next = true)
{
    if (depth == 0 || rng() % 4 == 0)
        return rand_state(rng, cn, fireability, 1);
    auto sub = [&]() { return rand_ctl_state(rng, cn, fireability, depth - 1, next); };
    pn_fml_kind quant = rng() % 2 ? PN_FML_A : PN_FML_E;
    switch (rng() % 6) {
    case 0: return pn_fml_unary(quant, pn_fml_unary(PN_FML_F, sub()));
    case 1: return pn_fml_unary(quant, pn_fml_unary(PN_FML_G, sub()));
    case 2: return pn_fml_unary(quant, pn_fml_unary(next ? PN_FML_X : PN_FML_F, sub()));
    case 3: return pn_fml_unary(PN_FML_NOT, sub());
    case 4: {
        pn_fml_node *a = sub();
        return pn_fml_unary(quant, pn_fml_binary(PN_FML_U, a, sub()));
    }
    default: {
        pn_fml_node *k[2] = {sub(), sub()};
        return pn_fml_nary(rng() % 2 ? PN_FML_AND : PN_FML_OR, k, 2);
    }
    }
}

inline pn_fml_node *rand_root(std::mt19937_64 &rng, const pn_cnet *cn, uint32_t kind)
{
    if (kind == 2)
        return list(PN_FML_PLACE_BOUND, rng, 2, cn->n_places);
    pn_fml_node *phi = rand_state(rng, cn, kind == 1, 3);
    pn_fml_node *r = rng() % 2 ? pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, phi))
                               : pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, phi));
    return rng() % 4 == 0 ? pn_fml_unary(PN_FML_NOT, r) : r;
}

// The answer by enumeration: TRUE/FALSE, or the bound.
inline pn_answer truth(const pn_fml_node *root, const pn_cnet *cn,
                const std::vector<std::vector<uint64_t>> &states)
{
    pn_answer a;
    memset(&a, 0, sizeof a);
    bool neg = false;
    while (root->kind == PN_FML_NOT) {
        neg = !neg;
        root = root->kids[0];
    }
    if (root->kind == PN_FML_TRUE || root->kind == PN_FML_FALSE) { // simplified
        a.verdict = (root->kind == PN_FML_TRUE) != neg ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
        return a;
    }
    if (root->kind == PN_FML_PLACE_BOUND) {
        a.verdict = PN_VERDICT_VALUE;
        for (const auto &m : states)
            a.value = std::max(a.value, pn_fml_eval_int(root, m.data()));
        return a;
    }
    const pn_fml_node *phi = nullptr;
    pn_fml_reach shape = pn_fml_reach_shape(root, &phi);
    if (shape == PN_FML_REACH_NONE) { // a state formula the simplifier left: at m0
        a.verdict = pn_fml_eval_state(root, cn, cn->m0) != neg ? PN_VERDICT_TRUE
                                                               : PN_VERDICT_FALSE;
        return a;
    }
    bool ef = shape == PN_FML_REACH_EF, any = false, all = true;
    for (const auto &m : states) {
        bool v = pn_fml_eval_state(phi, cn, m.data());
        any |= v;
        all &= v;
    }
    bool v = (ef ? any : all) != neg;
    a.verdict = v ? PN_VERDICT_TRUE : PN_VERDICT_FALSE;
    return a;
}

// A random bounded net of 2 .. max_places places and 1 .. 8 transitions with
// its reachable markings (at most 5000), and n random formulas of a random
// kind below `kinds` (0 cardinality, 1 fireability, 2 bounds: rand_root).
// False when the net has more markings than that.
struct RandomCase {
    Net net;
    std::vector<std::vector<uint64_t>> states;
    uint32_t kind = 0;
    SetPtr set;
};

inline bool random_case(std::mt19937_64 &rng, uint32_t max_places, int n, uint32_t kinds,
                        RandomCase *out)
{
    uint32_t P = 2 + (uint32_t)(rng() % (max_places - 1)), T = 1 + (uint32_t)(rng() % 8);
    out->net = build(random_bounded_spec(rng, P, T));
    out->states = reachable(out->net.cn.get(), 5000);
    if (out->states.empty())
        return false;
    out->kind = (uint32_t)(rng() % kinds);
    std::vector<pn_fml_node *> roots;
    for (int i = 0; i < n; i++)
        roots.push_back(rand_root(rng, out->net.cn.get(), out->kind));
    out->set = make_set(out->net.net.get(), roots);
    return true;
}

// A random bounded net of 2 .. 6 places and 1 .. 8 transitions (at most
// 5000 markings, else false) with n random CTL (ltl: LTL) formulas,
// cardinality or fireability, and their values by pn_examine on one
// thread without reductions (CTL: the graph checker over the whole state
// graph; LTL: the product): the reference of the CTL and LTL methods'
// tests.
struct CtlCase {
    Net net;
    size_t states = 0;
    pn_exam exam = PN_EXAM_CTL_CARDINALITY;
    SetPtr set;
    std::vector<pn_verdict> want;
};

inline bool ctl_case(std::mt19937_64 &rng, int n, CtlCase *out, bool ltl = false)
{
    uint32_t P = 2 + (uint32_t)(rng() % 5), T = 1 + (uint32_t)(rng() % 8);
    out->net = build(random_bounded_spec(rng, P, T));
    const pn_cnet *cn = out->net.cn.get();
    out->states = reachable(cn, 5000).size();
    if (out->states == 0)
        return false;
    bool fire = rng() % 2;
    out->exam = ltl ? (fire ? PN_EXAM_LTL_FIREABILITY : PN_EXAM_LTL_CARDINALITY)
                    : (fire ? PN_EXAM_CTL_FIREABILITY : PN_EXAM_CTL_CARDINALITY);
    std::vector<pn_fml_node *> roots;
    for (int i = 0; i < n; i++)
        roots.push_back(ltl ? pn_fml_unary(PN_FML_A, rand_ltl_path(rng, cn, fire, 3))
                            : rand_ctl_state(rng, cn, fire, 3));
    out->set = make_set(out->net.net.get(), roots);
    pn_error err;
    pn_error_clear(&err);
    pn_examine_opts o;
    memset(&o, 0, sizeof o);
    o.explore.threads = 1;
    o.engine = PN_ENGINE_CPU;
    o.no_reduce = true;
    pn_report *ref = nullptr;
    pn_status st = pn_examine(cn, out->exam, out->set.get(), &o, nullptr, &ref, &err);
    EXPECT_EQ(st, PN_OK) << err.msg;
    out->want.clear();
    for (uint32_t i = 0; st == PN_OK && i < out->set->n; i++) {
        out->want.push_back(pn_check_answer(ref->check, i)->verdict);
        EXPECT_NE(out->want.back(), PN_VERDICT_UNKNOWN);
    }
    pn_report_free(ref);
    return st == PN_OK;
}

inline bool agrees(const pn_answer &got, const pn_answer &want)
{
    if (got.verdict == PN_VERDICT_UNKNOWN)
        return true;
    if (got.verdict != want.verdict)
        return false;
    return got.verdict != PN_VERDICT_VALUE || got.value == want.value;
}

#endif
