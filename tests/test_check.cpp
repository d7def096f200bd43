// The on-the-fly examination checker (host/logic/check.c) on hand-made nets whose
// answers are known: when a witness decides early (EF true, AG false,
// deadlock, ...) and when only a complete run can (EF false, AG true,
// UpperBounds, OneSafe true, ...), negations on top, state formulas decided
// on the initial marking, answers left unknown by an incomplete run, the
// global properties, and witness traces replayed on the reference firing
// rule (cnet.c), also on a real MCC instance when ../shared/mcc is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/engine.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/mcc.h"
#include "petrel/net.h"
#include "petrel/pnml.h"
#include "test_ptrs.h"

namespace {


struct Arc {
    const char *place, *trans;
    bool to_trans;
    uint64_t weight;
};

struct Net {
    std::unique_ptr<pn_net, NetDeleter> net;
    std::unique_ptr<pn_cnet, CnetDeleter> cn;
    const pn_cnet *get() const { return cn.get(); }
    uint32_t place(const char *id) const
    {
        int64_t i = pn_net_find_place(net.get(), id);
        EXPECT_GE(i, 0) << id;
        return (uint32_t)i;
    }
    uint32_t trans(const char *id) const
    {
        int64_t i = pn_net_find_transition(net.get(), id);
        EXPECT_GE(i, 0) << id;
        return (uint32_t)i;
    }
};

// Places (id, initial tokens), transition ids, arcs by id.
Net make(const std::vector<std::pair<const char *, uint64_t>> &places,
         const std::vector<const char *> &transitions, const std::vector<Arc> &arcs)
{
    pn_error err;
    pn_error_clear(&err);
    Net n;
    n.net.reset(pn_net_new("check"));
    for (const auto &p : places)
        EXPECT_GE(pn_net_add_place(n.net.get(), p.first, nullptr, p.second, &err), 0) << err.msg;
    for (const char *t : transitions)
        EXPECT_GE(pn_net_add_transition(n.net.get(), t, nullptr, &err), 0) << err.msg;
    for (const Arc &a : arcs)
        EXPECT_EQ(pn_net_add_arc(n.net.get(), n.place(a.place), n.trans(a.trans), a.to_trans,
                                 a.weight, &err),
                  PN_OK)
            << err.msg;
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(n.net.get(), &cn, &err), PN_OK) << err.msg;
    n.cn.reset(cn);
    return n;
}

// b holds `budget` tokens, t moves one to p: a chain of budget + 1 states,
// p = k at BFS depth k, a deadlock at the end.
Net counter(uint64_t budget)
{
    return make({{"b", budget}, {"p", 0}}, {"t"}, {{"b", "t", true, 1}, {"p", "t", false, 1}});
}

// One token cycling a -> b -> c -> a: 3 states, live, safe, no deadlock,
// every place moves. extra: more transitions and arcs.
Net cycle3(const std::vector<std::pair<const char *, uint64_t>> &more_places = {},
           const std::vector<const char *> &more_trans = {}, const std::vector<Arc> &more_arcs = {})
{
    std::vector<std::pair<const char *, uint64_t>> places = {{"a", 1}, {"b", 0}, {"c", 0}};
    std::vector<const char *> trans = {"t0", "t1", "t2"};
    std::vector<Arc> arcs = {{"a", "t0", true, 1}, {"b", "t0", false, 1},
                             {"b", "t1", true, 1}, {"c", "t1", false, 1},
                             {"c", "t2", true, 1}, {"a", "t2", false, 1}};
    places.insert(places.end(), more_places.begin(), more_places.end());
    trans.insert(trans.end(), more_trans.begin(), more_trans.end());
    arcs.insert(arcs.end(), more_arcs.begin(), more_arcs.end());
    return make(places, trans, arcs);
}

// b holds `budget` tokens, l moves one to p, r one to q: (budget+1)(budget+2)/2
// states, deadlock exactly when b is empty (depth budget).
Net fork(uint64_t budget)
{
    return make({{"b", budget}, {"p", 0}, {"q", 0}}, {"l", "r"},
                {{"b", "l", true, 1}, {"p", "l", false, 1}, {"b", "r", true, 1},
                 {"q", "r", false, 1}});
}

// ---- formulas -------------------------------------------------------------
pn_fml_node *C(uint64_t v) { return pn_fml_const(v); }
pn_fml_node *Tok(std::initializer_list<uint32_t> places)
{
    std::vector<uint32_t> v(places);
    return pn_fml_list(PN_FML_TOKENS, v.data(), (uint32_t)v.size());
}
pn_fml_node *Le(pn_fml_node *a, pn_fml_node *b) { return pn_fml_binary(PN_FML_INT_LE, a, b); }
pn_fml_node *Not(pn_fml_node *a) { return pn_fml_unary(PN_FML_NOT, a); }
pn_fml_node *EF(pn_fml_node *phi) { return pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_F, phi)); }
pn_fml_node *AG(pn_fml_node *phi) { return pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_G, phi)); }
pn_fml_node *Bound(std::initializer_list<uint32_t> places)
{
    std::vector<uint32_t> v(places);
    return pn_fml_list(PN_FML_PLACE_BOUND, v.data(), (uint32_t)v.size());
}
pn_fml_node *Fireable(std::initializer_list<uint32_t> trans)
{
    std::vector<uint32_t> v(trans);
    return pn_fml_list(PN_FML_FIREABLE, v.data(), (uint32_t)v.size());
}

// A formula set as the reader would give it, from built trees (ids f0, f1..
// unless named); the set owns the trees.
SetPtr make_set(const pn_net *net, const std::vector<pn_fml_node *> &roots)
{
    pn_fml_set *s = (pn_fml_set *)calloc(1, sizeof *s);
    s->props = (pn_fml_prop *)calloc(roots.size() + 1, sizeof *s->props);
    s->net = net;
    for (size_t i = 0; i < roots.size(); i++) {
        EXPECT_NE(roots[i], nullptr) << "formula " << i << " could not be built";
        s->props[i].id = strdup(("f" + std::to_string(i)).c_str());
        s->props[i].root = roots[i];
        s->props[i].status = PN_OK;
    }
    s->n = (uint32_t)roots.size();
    return SetPtr(s);
}

std::string Prop(const std::string &id, const std::string &formula)
{
    return "<property><id>" + id + "</id><description>d</description><formula>" + formula +
           "</formula></property>";
}

SetPtr read_set(const pn_net *net, const std::string &props, bool simplify)
{
    std::string xml = "<?xml version=\"1.0\"?>\n<property-set xmlns=\"http://mcc.lip6.fr/\">\n" +
                      props + "\n</property-set>\n";
    pn_error err;
    pn_error_clear(&err);
    pn_fml_set *s = nullptr;
    EXPECT_EQ(pn_fml_read_memory(xml.data(), xml.size(), "mem.xml", net, &s, &err), PN_OK)
        << err.msg;
    SetPtr set(s);
    if (set && simplify) {
        EXPECT_EQ(pn_fml_set_simplify(set.get(), &err), PN_OK) << err.msg;
    }
    return set;
}

// ---- running a check ------------------------------------------------------
struct Outcome {
    std::unique_ptr<pn_check, CheckDeleter> check;
    pn_engine_result res;
    bool decided_before = false; // pn_check_decided before exploring
    bool explored = false;
    Outcome() { memset(&res, 0, sizeof res); }
    ~Outcome() { pn_engine_result_free(&res); }
    Outcome(const Outcome &) = delete;
    Outcome &operator=(const Outcome &) = delete;
    const pn_answer &at(uint32_t i) const
    {
        static const pn_answer none = {"(none)", PN_VERDICT_UNKNOWN, 0, false, 0, nullptr, 0, 0, 0};
        const pn_answer *a = check ? pn_check_answer(check.get(), i) : nullptr;
        EXPECT_NE(a, nullptr) << "no answer " << i;
        return a ? *a : none;
    }
    std::string show() const
    {
        return std::string("run ") + (explored ? pn_run_status_name(res.status) : "not explored") +
               ", " + std::to_string(res.states) + " states, " + std::to_string(res.levels) +
               " levels";
    }
};

pn_engine_opts opts(uint32_t threads = 2)
{
    pn_engine_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    return o;
}

// What cli_check does: new, explore unless decided (with the check's
// visitor), finish.
std::unique_ptr<Outcome> run(const pn_cnet *cn, pn_exam exam, const pn_fml_set *set,
                             pn_engine_opts o = opts())
{
    std::unique_ptr<Outcome> out(new Outcome);
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    EXPECT_EQ(pn_check_new(cn, exam, set, o.threads ? o.threads : 1, &c, &err), PN_OK) << err.msg;
    out->check.reset(c);
    if (c == nullptr)
        return out;
    out->decided_before = pn_check_decided(c);
    if (!out->decided_before) {
        o.visitor = pn_check_visitor(c);
        EXPECT_EQ(pn_explore(cn, &o, &out->res, &err), PN_OK) << err.msg;
        out->explored = true;
    }
    pn_check_finish(c, out->explored ? &out->res : nullptr);
    return out;
}

const char *vname(pn_verdict v)
{
    switch (v) {
    case PN_VERDICT_UNKNOWN: return "UNKNOWN";
    case PN_VERDICT_TRUE: return "TRUE";
    case PN_VERDICT_FALSE: return "FALSE";
    case PN_VERDICT_VALUE: return "VALUE";
    }
    return "?";
}

#define EXPECT_VERDICT(out, i, v)                                                                 \
    EXPECT_EQ((out).at(i).verdict, (v))                                                           \
        << "answer " << (i) << " (" << (out).at(i).id << ") is " << vname((out).at(i).verdict) \
        << ", expected " << vname(v) << "; " << (out).show()

// The witness's firing sequence, replayed on the reference firing rule from
// m0: every step must be enabled. Returns the marking reached.
std::vector<uint64_t> replay(const pn_cnet *cn, const pn_engine_result &res, const pn_answer &a,
                             uint64_t *steps = nullptr)
{
    std::vector<uint64_t> m(cn->m0, cn->m0 + cn->n_places);
    EXPECT_TRUE(a.has_witness) << a.id;
    uint32_t *path = nullptr;
    uint64_t len = 0;
    EXPECT_TRUE(pn_engine_trace(&res, a.witness, &path, &len)) << a.id << ": no trace";
    std::vector<uint64_t> next(cn->n_places + 1);
    for (uint64_t k = 0; k < len; k++) {
        uint32_t t = path[k];
        EXPECT_LT(t, cn->n_transitions);
        if (t >= cn->n_transitions)
            break;
        EXPECT_TRUE(pn_cnet_enabled(cn, m.data(), t)) << a.id << ": step " << k << " not enabled";
        EXPECT_TRUE(pn_cnet_fire(cn, m.data(), t, next.data()));
        std::copy(next.begin(), next.begin() + cn->n_places, m.begin());
    }
    free(path);
    if (steps)
        *steps = len;
    return m;
}

bool is_deadlock(const pn_cnet *cn, const std::vector<uint64_t> &m)
{
    for (uint32_t t = 0; t < cn->n_transitions; t++)
        if (pn_cnet_enabled(cn, m.data(), t))
            return false;
    return true;
}

} // namespace

// ---- reachability formulas --------------------------------------------------

TEST(Check, EfTrueIsDecidedEarly)
{
    Net n = counter(999); // 1000 states in a chain; p >= 1 at depth 1
    uint32_t p = n.place("p");
    for (uint32_t threads : {1u, 2u}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        SetPtr set = make_set(n.net.get(), {EF(Le(C(1), Tok({p})))});
        pn_engine_opts o = opts(threads);
        o.keep_parents = true;
        auto out = run(n.get(), PN_EXAM_REACH_CARDINALITY, set.get(), o);
        EXPECT_FALSE(out->decided_before);
        EXPECT_EQ(out->res.status, PN_RUN_STOPPED) << out->show();
        EXPECT_LT(out->res.states, 1000u) << out->show();
        EXPECT_LE(out->res.levels, 3u) << out->show();
        EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
        ASSERT_TRUE(out->at(0).has_witness);
        uint64_t steps = 0;
        std::vector<uint64_t> m = replay(n.get(), out->res, out->at(0), &steps);
        EXPECT_EQ(steps, 1u);
        EXPECT_EQ(m[p], 1u);
    }
}

TEST(Check, EfFalseNeedsACompleteRun)
{
    Net n = counter(999);
    uint32_t p = n.place("p");
    SetPtr set = make_set(n.net.get(), {EF(Le(C(1000), Tok({p})))});
    auto out = run(n.get(), PN_EXAM_REACH_CARDINALITY, set.get());
    EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
    EXPECT_EQ(out->res.states, 1000u);
    EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
    EXPECT_FALSE(out->at(0).has_witness);

    // The same formula on a run that ends early proves nothing.
    pn_engine_opts o = opts();
    pn_budget b1 = pn_budget_make(0, nullptr, 100);
    o.budget = &b1;
    auto cut = run(n.get(), PN_EXAM_REACH_CARDINALITY, set.get(), o);
    EXPECT_EQ(cut->res.status, PN_RUN_OUT_OF_MEMORY) << cut->show();
    EXPECT_VERDICT(*cut, 0, PN_VERDICT_UNKNOWN);
    volatile int cancel = 1;
    o = opts();
    pn_budget b3 = pn_budget_make(0, &cancel, 0);
    o.budget = &b3;
    auto cancelled = run(n.get(), PN_EXAM_REACH_CARDINALITY, set.get(), o);
    EXPECT_EQ(cancelled->res.status, PN_RUN_CANCELLED) << cancelled->show();
    EXPECT_VERDICT(*cancelled, 0, PN_VERDICT_UNKNOWN);
}

TEST(Check, AgFalseIsDecidedEarlyAgTrueNeedsACompleteRun)
{
    Net n = counter(999);
    uint32_t p = n.place("p"), b = n.place("b");
    {
        SetPtr set = make_set(n.net.get(), {AG(Le(Tok({p}), C(0)))});
        pn_engine_opts o = opts();
        o.keep_parents = true;
        auto out = run(n.get(), PN_EXAM_REACH_CARDINALITY, set.get(), o);
        EXPECT_EQ(out->res.status, PN_RUN_STOPPED) << out->show();
        EXPECT_LT(out->res.states, 1000u) << out->show();
        EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
        ASSERT_TRUE(out->at(0).has_witness);
        std::vector<uint64_t> m = replay(n.get(), out->res, out->at(0));
        EXPECT_GE(m[p], 1u); // violates p <= 0
    }
    {
        // p + b = 999 everywhere: an invariant, true only after every state.
        SetPtr set = make_set(n.net.get(), {AG(Le(Tok({p, b}), C(999)))});
        auto out = run(n.get(), PN_EXAM_REACH_CARDINALITY, set.get());
        EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
        EXPECT_EQ(out->res.states, 1000u);
        EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
        EXPECT_FALSE(out->at(0).has_witness);
    }
}

TEST(Check, SeveralFormulasStopOnlyWhenAllAreDecided)
{
    Net n = counter(999);
    uint32_t p = n.place("p");
    SetPtr set = make_set(n.net.get(), {EF(Le(C(1), Tok({p}))), EF(Le(C(500), Tok({p}))),
                                        AG(Le(Tok({p}), C(700)))});
    auto out = run(n.get(), PN_EXAM_REACH_CARDINALITY, set.get());
    EXPECT_EQ(out->res.status, PN_RUN_STOPPED) << out->show();
    // p = 701 is first seen at depth 701: at least that many states.
    EXPECT_GE(out->res.states, 702u) << out->show();
    EXPECT_LT(out->res.states, 1000u) << out->show();
    EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
    EXPECT_VERDICT(*out, 1, PN_VERDICT_TRUE);
    EXPECT_VERDICT(*out, 2, PN_VERDICT_FALSE);
}

TEST(Check, NegationOnTopFlipsTheAnswer)
{
    Net n = counter(999);
    uint32_t p = n.place("p");
    SetPtr set = make_set(n.net.get(),
                          {Not(EF(Le(C(1), Tok({p})))),      // !TRUE
                           Not(AG(Le(Tok({p}), C(0)))),      // !FALSE
                           Not(Not(EF(Le(C(1), Tok({p}))))), // !!TRUE
                           Not(EF(Le(C(1000), Tok({p})))),   // !FALSE (complete run)
                           Not(AG(Le(Tok({p}), C(999))))});  // !TRUE (complete run)
    pn_engine_opts o = opts();
    o.keep_parents = true;
    auto out = run(n.get(), PN_EXAM_REACH_CARDINALITY, set.get(), o);
    EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
    EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
    EXPECT_VERDICT(*out, 1, PN_VERDICT_TRUE);
    EXPECT_VERDICT(*out, 2, PN_VERDICT_TRUE);
    EXPECT_VERDICT(*out, 3, PN_VERDICT_TRUE);
    EXPECT_VERDICT(*out, 4, PN_VERDICT_FALSE);
    // A negated EF still has the state that proved EF as its witness.
    EXPECT_TRUE(out->at(0).has_witness);
    EXPECT_EQ(replay(n.get(), out->res, out->at(0))[p], 1u);

    // The same through the XML reader and the simplifier, as the CLI does.
    const std::string ef =
        "<exists-path><finally><integer-le><integer-constant>1</integer-constant>"
        "<tokens-count><place>p</place></tokens-count></integer-le></finally></exists-path>";
    SetPtr xml = read_set(n.net.get(),
                          Prop("neg", "<negation>" + ef + "</negation>") +
                              Prop("negneg", "<negation><negation>" + ef +
                                                 "</negation></negation>") +
                              Prop("pos", ef),
                          true);
    ASSERT_TRUE(xml);
    auto x = run(n.get(), PN_EXAM_REACH_CARDINALITY, xml.get());
    EXPECT_VERDICT(*x, 0, PN_VERDICT_FALSE);
    EXPECT_VERDICT(*x, 1, PN_VERDICT_TRUE);
    EXPECT_VERDICT(*x, 2, PN_VERDICT_TRUE);
    EXPECT_STREQ(x->at(0).id, "neg");
    EXPECT_STREQ(x->at(1).id, "negneg");
}

TEST(Check, StateFormulasAreDecidedOnTheInitialMarking)
{
    Net n = counter(999);
    uint32_t p = n.place("p"), b = n.place("b"), t = n.trans("t");
    SetPtr set = make_set(n.net.get(), {Le(Tok({p}), C(0)),              // TRUE at m0
                                        Le(C(1), Tok({p})),              // FALSE at m0
                                        Not(Le(C(1), Tok({p}))),         // TRUE
                                        Fireable({t}),                   // TRUE
                                        pn_fml_leaf(PN_FML_DEADLOCK),    // FALSE
                                        Le(C(999), Tok({b}))});          // TRUE
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(n.get(), PN_EXAM_REACH_CARDINALITY, set.get(), 2, &c, &err), PN_OK)
        << err.msg;
    std::unique_ptr<pn_check, CheckDeleter> check(c);
    EXPECT_TRUE(pn_check_decided(c));
    ASSERT_EQ(pn_check_count(c), 6u);
    pn_verdict want[] = {PN_VERDICT_TRUE, PN_VERDICT_FALSE, PN_VERDICT_TRUE,
                         PN_VERDICT_TRUE, PN_VERDICT_FALSE, PN_VERDICT_TRUE};
    // answers from the start: a step would otherwise take them for open
    // (the symbolic step's turns spun on one in a run without a deadline)
    EXPECT_EQ(pn_check_open_count(c), 0u);
    for (uint32_t i = 0; i < 6; i++) {
        EXPECT_EQ(pn_check_answer(c, i)->verdict, want[i]) << "formula " << i;
        EXPECT_FALSE(pn_check_open(c, i)) << "formula " << i;
    }
    pn_check_finish(c, nullptr); // no exploration at all
    for (uint32_t i = 0; i < 6; i++) {
        EXPECT_EQ(pn_check_answer(c, i)->verdict, want[i]) << "formula " << i;
        EXPECT_FALSE(pn_check_answer(c, i)->has_witness) << "formula " << i;
    }

    // A quantifier over a state formula is simplified away: still decided.
    SetPtr xml = read_set(n.net.get(),
                          Prop("A", "<all-paths><integer-le><tokens-count><place>p</place>"
                                    "</tokens-count><integer-constant>0</integer-constant>"
                                    "</integer-le></all-paths>"),
                          true);
    ASSERT_TRUE(xml);
    auto out = run(n.get(), PN_EXAM_REACH_CARDINALITY, xml.get());
    EXPECT_TRUE(out->decided_before);
    EXPECT_FALSE(out->explored);
    EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);

    // Mixed with an EF: exploration is needed, but without a run the state
    // formula keeps its answer and the EF stays unknown.
    SetPtr mixed = make_set(n.net.get(), {Le(Tok({p}), C(0)), EF(Le(C(5), Tok({p})))});
    c = nullptr;
    ASSERT_EQ(pn_check_new(n.get(), PN_EXAM_REACH_CARDINALITY, mixed.get(), 2, &c, &err), PN_OK)
        << err.msg;
    check.reset(c);
    EXPECT_FALSE(pn_check_decided(c));
    pn_check_finish(c, nullptr);
    EXPECT_EQ(pn_check_answer(c, 0)->verdict, PN_VERDICT_TRUE);
    EXPECT_EQ(pn_check_answer(c, 1)->verdict, PN_VERDICT_UNKNOWN);
}

TEST(Check, FormulaOutsideReachabilityIsLeftUnknown)
{
    Net n = counter(3);
    uint32_t p = n.place("p");
    // E X (p >= 1) and A F (p >= 3): not EF / AG, not answered by this checker.
    SetPtr set = make_set(
        n.net.get(), {pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_X, Le(C(1), Tok({p})))),
                      pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_F, Le(C(3), Tok({p})))),
                      EF(Le(C(3), Tok({p})))});
    auto out = run(n.get(), PN_EXAM_CTL_CARDINALITY, set.get());
    EXPECT_VERDICT(*out, 0, PN_VERDICT_UNKNOWN);
    EXPECT_VERDICT(*out, 1, PN_VERDICT_UNKNOWN);
    EXPECT_VERDICT(*out, 2, PN_VERDICT_TRUE);
}

TEST(Check, UnboundNameIsLeftUnknown)
{
    Net n = counter(3);
    SetPtr set = read_set(n.net.get(),
                          Prop("bad", "<exists-path><finally><integer-le><integer-constant>1"
                                      "</integer-constant><tokens-count><place>nope</place>"
                                      "</tokens-count></integer-le></finally></exists-path>") +
                              Prop("good", "<exists-path><finally><integer-le><integer-constant>"
                                           "3</integer-constant><tokens-count><place>p</place>"
                                           "</tokens-count></integer-le></finally></exists-path>"),
                          true);
    ASSERT_TRUE(set);
    ASSERT_EQ(set->n, 2u);
    EXPECT_NE(set->props[0].status, PN_OK);
    auto out = run(n.get(), PN_EXAM_REACH_CARDINALITY, set.get());
    EXPECT_VERDICT(*out, 0, PN_VERDICT_UNKNOWN);
    EXPECT_VERDICT(*out, 1, PN_VERDICT_TRUE);
    EXPECT_STREQ(out->at(0).id, "bad");
}

TEST(Check, DeadlockAndFireableAtomsSeeTheExploredMarkings)
{
    Net n = cycle3({}, {"needs2"}, {{"a", "needs2", true, 2}, {"b", "needs2", false, 1}});
    uint32_t t2 = n.trans("t2"), needs2 = n.trans("needs2");
    SetPtr set = make_set(n.net.get(), {EF(Fireable({t2})),                // TRUE at depth 2
                                        EF(Fireable({needs2})),            // FALSE
                                        AG(Not(Fireable({needs2}))),       // TRUE
                                        EF(pn_fml_leaf(PN_FML_DEADLOCK)),  // FALSE
                                        AG(Fireable({t2, needs2}))});      // FALSE at m0
    auto out = run(n.get(), PN_EXAM_REACH_FIREABILITY, set.get());
    EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
    EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
    EXPECT_VERDICT(*out, 1, PN_VERDICT_FALSE);
    EXPECT_VERDICT(*out, 2, PN_VERDICT_TRUE);
    EXPECT_VERDICT(*out, 3, PN_VERDICT_FALSE);
    EXPECT_VERDICT(*out, 4, PN_VERDICT_FALSE);

    Net f = fork(3);
    SetPtr dl = make_set(f.net.get(), {EF(pn_fml_leaf(PN_FML_DEADLOCK)),
                                       AG(Not(pn_fml_leaf(PN_FML_DEADLOCK)))});
    pn_engine_opts o = opts();
    o.keep_parents = true;
    auto d = run(f.get(), PN_EXAM_REACH_FIREABILITY, dl.get(), o);
    EXPECT_EQ(d->res.status, PN_RUN_STOPPED) << d->show();
    EXPECT_VERDICT(*d, 0, PN_VERDICT_TRUE);
    EXPECT_VERDICT(*d, 1, PN_VERDICT_FALSE);
    for (uint32_t i = 0; i < 2; i++)
        EXPECT_TRUE(is_deadlock(f.get(), replay(f.get(), d->res, d->at(i)))) << "formula " << i;
}

// ---- UpperBounds -------------------------------------------------------------

TEST(Check, UpperBoundsIsTheMaximumOfTheSum)
{
    {
        Net n = cycle3();
        uint32_t a = n.place("a"), b = n.place("b"), c = n.place("c");
        // Each place holds at most 1, never two at once: max of the sum is 1,
        // not the sum of the maxima; a listed twice counts twice.
        SetPtr set = make_set(n.net.get(),
                              {Bound({a}), Bound({a, b}), Bound({a, b, c}), Bound({a, a})});
        auto out = run(n.get(), PN_EXAM_UPPER_BOUNDS, set.get());
        EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
        uint64_t want[] = {1, 1, 1, 2};
        for (uint32_t i = 0; i < 4; i++) {
            EXPECT_VERDICT(*out, i, PN_VERDICT_VALUE);
            EXPECT_EQ(out->at(i).value, want[i]) << "bound " << i;
        }
    }
    {
        // b = 300 tokens, each firing puts 2 in p: p reaches 600, beyond its
        // initial field width (the engine widens and restarts).
        Net n = make({{"b", 300}, {"p", 0}}, {"t"}, {{"b", "t", true, 1}, {"p", "t", false, 2}});
        uint32_t b = n.place("b"), p = n.place("p");
        SetPtr set = make_set(n.net.get(), {Bound({p}), Bound({b}), Bound({b, p}), Bound({p, p})});
        auto out = run(n.get(), PN_EXAM_UPPER_BOUNDS, set.get());
        EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
        EXPECT_EQ(out->res.states, 301u);
        EXPECT_GT(out->res.restarts, 0u) << "expected a widening restart";
        uint64_t want[] = {600, 300, 600, 1200};
        for (uint32_t i = 0; i < 4; i++) {
            EXPECT_VERDICT(*out, i, PN_VERDICT_VALUE);
            EXPECT_EQ(out->at(i).value, want[i]) << "bound " << i;
        }
    }
}

TEST(Check, UpperBoundsCannotBeAnsweredWithoutACompleteRun)
{
    Net n = counter(999);
    uint32_t p = n.place("p");
    SetPtr set = make_set(n.net.get(), {Bound({p})});

    pn_engine_opts o = opts();
    pn_budget b2 = pn_budget_make(0, nullptr, 100);
    o.budget = &b2;
    auto oom = run(n.get(), PN_EXAM_UPPER_BOUNDS, set.get(), o);
    EXPECT_EQ(oom->res.status, PN_RUN_OUT_OF_MEMORY) << oom->show();
    EXPECT_VERDICT(*oom, 0, PN_VERDICT_UNKNOWN);

    o = opts(1);
    pn_budget b7 = pn_budget_make(1e-9, nullptr, 0);
    o.budget = &b7;
    auto late = run(n.get(), PN_EXAM_UPPER_BOUNDS, set.get(), o);
    EXPECT_EQ(late->res.status, PN_RUN_TIMEOUT) << late->show();
    EXPECT_VERDICT(*late, 0, PN_VERDICT_UNKNOWN);

    volatile int cancel = 1;
    o = opts();
    pn_budget b4 = pn_budget_make(0, &cancel, 0);
    o.budget = &b4;
    auto cancelled = run(n.get(), PN_EXAM_UPPER_BOUNDS, set.get(), o);
    EXPECT_EQ(cancelled->res.status, PN_RUN_CANCELLED) << cancelled->show();
    EXPECT_VERDICT(*cancelled, 0, PN_VERDICT_UNKNOWN);

    // Without any exploration.
    pn_error err;
    pn_error_clear(&err);
    pn_check *c = nullptr;
    ASSERT_EQ(pn_check_new(n.get(), PN_EXAM_UPPER_BOUNDS, set.get(), 1, &c, &err), PN_OK);
    std::unique_ptr<pn_check, CheckDeleter> check(c);
    EXPECT_FALSE(pn_check_decided(c));
    pn_check_finish(c, nullptr);
    EXPECT_EQ(pn_check_answer(c, 0)->verdict, PN_VERDICT_UNKNOWN);
}

TEST(Check, WitnessSurvivesAnIncompleteRun)
{
    Net n = counter(999);
    uint32_t p = n.place("p");
    // EF (p <= 0) holds at m0, decided by the first state; the bound keeps the
    // run going until it is cancelled.
    SetPtr set = make_set(n.net.get(), {Bound({p}), EF(Le(Tok({p}), C(0)))});
    volatile int cancel = 1;
    pn_engine_opts o = opts();
    pn_budget b5 = pn_budget_make(0, &cancel, 0);
    o.budget = &b5;
    auto out = run(n.get(), PN_EXAM_UPPER_BOUNDS, set.get(), o);
    EXPECT_EQ(out->res.status, PN_RUN_CANCELLED) << out->show();
    EXPECT_VERDICT(*out, 0, PN_VERDICT_UNKNOWN);
    EXPECT_VERDICT(*out, 1, PN_VERDICT_TRUE);
}

// ---- global properties --------------------------------------------------------

TEST(Check, DeadlockWitnessTraceReplaysToADeadlock)
{
    for (uint32_t threads : {1u, 2u}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        Net n = fork(3);
        pn_engine_opts o = opts(threads);
        o.keep_parents = true;
        auto out = run(n.get(), PN_EXAM_REACH_DEADLOCK, nullptr, o);
        ASSERT_EQ(pn_check_count(out->check.get()), 1u);
        EXPECT_STREQ(out->at(0).id, "ReachabilityDeadlock");
        EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
        EXPECT_EQ(out->res.status, PN_RUN_STOPPED) << out->show();
        ASSERT_TRUE(out->at(0).has_witness);
        uint64_t steps = 0;
        std::vector<uint64_t> m = replay(n.get(), out->res, out->at(0), &steps);
        EXPECT_EQ(steps, 3u); // BFS: a shortest path
        EXPECT_TRUE(is_deadlock(n.get(), m));
        EXPECT_EQ(m[n.place("b")], 0u);
    }
    {
        // Deep witness (depth 300) found across widening restarts.
        Net n = make({{"b", 300}, {"p", 0}, {"q", 0}}, {"l", "r"},
                     {{"b", "l", true, 1}, {"p", "l", false, 2}, {"b", "r", true, 1},
                      {"q", "r", false, 1}});
        pn_engine_opts o = opts();
        o.keep_parents = true;
        auto out = run(n.get(), PN_EXAM_REACH_DEADLOCK, nullptr, o);
        EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
        EXPECT_GT(out->res.restarts, 0u) << "expected a widening restart";
        ASSERT_TRUE(out->at(0).has_witness);
        uint64_t steps = 0;
        std::vector<uint64_t> m = replay(n.get(), out->res, out->at(0), &steps);
        EXPECT_EQ(steps, 300u);
        EXPECT_TRUE(is_deadlock(n.get(), m));
    }
    {
        Net n = cycle3();
        auto out = run(n.get(), PN_EXAM_REACH_DEADLOCK, nullptr);
        EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
        EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
        EXPECT_FALSE(out->at(0).has_witness);
    }
    {
        // No transition: the initial marking is a deadlock.
        Net n = make({{"a", 1}}, {}, {});
        auto out = run(n.get(), PN_EXAM_REACH_DEADLOCK, nullptr);
        EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
    }
}

TEST(Check, OneSafe)
{
    {
        Net n = cycle3();
        auto out = run(n.get(), PN_EXAM_ONE_SAFE, nullptr);
        EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
        EXPECT_STREQ(out->at(0).id, "OneSafe");
        EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
    }
    {
        Net n = fork(3); // p reaches 2 at depth 2
        pn_engine_opts o = opts();
        o.keep_parents = true;
        auto out = run(n.get(), PN_EXAM_ONE_SAFE, nullptr, o);
        EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
        ASSERT_TRUE(out->at(0).has_witness);
        std::vector<uint64_t> m = replay(n.get(), out->res, out->at(0));
        bool unsafe = false;
        for (uint64_t v : m)
            unsafe |= v > 1;
        EXPECT_TRUE(unsafe);
    }
    {
        Net n = cycle3({{"two", 2}}); // unsafe from the start
        auto out = run(n.get(), PN_EXAM_ONE_SAFE, nullptr);
        EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
        EXPECT_EQ(out->at(0).witness, 0u);
    }
}

TEST(Check, QuasiLiveness)
{
    {
        Net n = cycle3();
        auto out = run(n.get(), PN_EXAM_QUASI_LIVENESS, nullptr);
        EXPECT_STREQ(out->at(0).id, "QuasiLiveness");
        EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
    }
    {
        // needs2 wants 2 tokens in a, which never holds more than 1.
        Net n = cycle3({}, {"needs2"}, {{"a", "needs2", true, 2}, {"b", "needs2", false, 1}});
        auto out = run(n.get(), PN_EXAM_QUASI_LIVENESS, nullptr);
        EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
        EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
    }
    {
        // A long chain whose last step is only enabled at the very end.
        Net n = make({{"b", 50}, {"p", 0}, {"done", 0}}, {"t", "last"},
                     {{"b", "t", true, 1}, {"p", "t", false, 1}, {"p", "last", true, 50},
                      {"done", "last", false, 1}});
        auto out = run(n.get(), PN_EXAM_QUASI_LIVENESS, nullptr);
        EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
    }
}

TEST(Check, StableMarking)
{
    {
        Net n = cycle3(); // every place moves
        auto out = run(n.get(), PN_EXAM_STABLE_MARKING, nullptr);
        EXPECT_STREQ(out->at(0).id, "StableMarking");
        EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
    }
    {
        // s is read by t0 (a self-loop): it always holds 1.
        Net n = cycle3({{"s", 1}}, {}, {{"s", "t0", true, 1}, {"s", "t0", false, 1}});
        auto out = run(n.get(), PN_EXAM_STABLE_MARKING, nullptr);
        EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
        EXPECT_VERDICT(*out, 0, PN_VERDICT_TRUE);
    }
    {
        // The place that moves last moves only at depth 50.
        Net n = make({{"b", 50}, {"p", 0}, {"done", 0}}, {"t", "last"},
                     {{"b", "t", true, 1}, {"p", "t", false, 1}, {"p", "last", true, 50},
                      {"done", "last", false, 1}});
        auto out = run(n.get(), PN_EXAM_STABLE_MARKING, nullptr);
        EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
    }
}

TEST(Check, Liveness)
{
    {
        // A dead transition: not live.
        Net n = cycle3({}, {"needs2"}, {{"a", "needs2", true, 2}, {"b", "needs2", false, 1}});
        auto out = run(n.get(), PN_EXAM_LIVENESS, nullptr);
        EXPECT_STREQ(out->at(0).id, "Liveness");
        EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
    }
    {
        // Every transition fires, but a deadlock is reachable: not live.
        Net n = fork(2);
        auto out = run(n.get(), PN_EXAM_LIVENESS, nullptr);
        EXPECT_VERDICT(*out, 0, PN_VERDICT_FALSE);
    }
    {
        // Live, but proving it needs the bottom SCCs: not this checker.
        Net n = cycle3();
        auto out = run(n.get(), PN_EXAM_LIVENESS, nullptr);
        EXPECT_EQ(out->res.status, PN_RUN_COMPLETE) << out->show();
        EXPECT_VERDICT(*out, 0, PN_VERDICT_UNKNOWN);
    }
    {
        // Quasi-live and deadlock-free, yet not live (t0 can fire once): a
        // sound checker must not answer TRUE.
        Net n = make({{"a", 1}, {"b", 0}, {"c", 0}}, {"t0", "t1", "t2"},
                     {{"a", "t0", true, 1}, {"b", "t0", false, 1}, {"b", "t1", true, 1},
                      {"c", "t1", false, 1}, {"c", "t2", true, 1}, {"b", "t2", false, 1}});
        auto out = run(n.get(), PN_EXAM_LIVENESS, nullptr);
        EXPECT_NE(out->at(0).verdict, PN_VERDICT_TRUE);
    }
}

TEST(Check, GlobalAnswersWithoutWitnessNeedACompleteRun)
{
    Net dead = cycle3({}, {"needs2"}, {{"a", "needs2", true, 2}, {"b", "needs2", false, 1}});
    Net stable = cycle3({{"s", 1}}, {}, {{"s", "t0", true, 1}, {"s", "t0", false, 1}});
    Net safe = cycle3();
    struct Case {
        const Net *net;
        pn_exam exam;
        pn_verdict complete; // the answer after a complete run
    } cases[] = {
        {&safe, PN_EXAM_REACH_DEADLOCK, PN_VERDICT_FALSE},
        {&safe, PN_EXAM_ONE_SAFE, PN_VERDICT_TRUE},
        {&dead, PN_EXAM_QUASI_LIVENESS, PN_VERDICT_FALSE},
        {&stable, PN_EXAM_STABLE_MARKING, PN_VERDICT_TRUE},
        {&dead, PN_EXAM_LIVENESS, PN_VERDICT_FALSE},
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(pn_exam_name(c.exam));
        auto full = run(c.net->get(), c.exam, nullptr);
        EXPECT_EQ(full->res.status, PN_RUN_COMPLETE) << full->show();
        EXPECT_VERDICT(*full, 0, c.complete);
        volatile int cancel = 1;
        pn_engine_opts o = opts();
        pn_budget b6 = pn_budget_make(0, &cancel, 0);
        o.budget = &b6;
        auto cut = run(c.net->get(), c.exam, nullptr, o);
        EXPECT_EQ(cut->res.status, PN_RUN_CANCELLED) << cut->show();
        EXPECT_VERDICT(*cut, 0, PN_VERDICT_UNKNOWN);
    }
}

// ---- witness traces on a real instance ------------------------------------------

namespace {

// For every answer proven by a witness, replays its trace from m0 and checks
// that the marking reached is what the verdict claims: EF phi TRUE reaches
// phi, AG phi FALSE reaches !phi. Returns how many EF traces were checked.
uint32_t check_traces(const char *instance, const char *file, pn_exam exam,
                      uint32_t *ag_checked)
{
    std::string dir = std::string(PETREL_SHARED_DIR) + "/mcc/" + instance;
    pn_error err;
    pn_error_clear(&err);
    pn_net *nraw = nullptr;
    EXPECT_EQ(pn_pnml_read_file((dir + "/model.pnml").c_str(), nullptr, &nraw, &err), PN_OK) << err.msg;
    std::unique_ptr<pn_net, NetDeleter> net(nraw);
    if (!net)
        return 0;
    pn_cnet *cnraw = nullptr;
    EXPECT_EQ(pn_cnet_compile(net.get(), &cnraw, &err), PN_OK) << err.msg;
    std::unique_ptr<pn_cnet, CnetDeleter> cn(cnraw);
    pn_fml_set *sraw = nullptr;
    EXPECT_EQ(pn_fml_read_file((dir + "/" + file).c_str(), net.get(), &sraw, &err), PN_OK)
        << err.msg;
    SetPtr set(sraw);
    if (!cn || !set)
        return 0;
    EXPECT_EQ(pn_fml_set_simplify(set.get(), &err), PN_OK) << err.msg;

    pn_engine_opts o = opts(2);
    o.keep_parents = true;
    auto out = run(cn.get(), exam, set.get(), o);
    uint32_t ef = 0;
    for (uint32_t i = 0; i < set->n; i++) {
        const pn_answer &a = out->at(i);
        const pn_fml_node *root = set->props[i].root;
        if (root == nullptr || !a.has_witness)
            continue;
        bool negate = false;
        while (root->kind == PN_FML_NOT) {
            negate = !negate;
            root = root->kids[0];
        }
        const pn_fml_node *phi = nullptr;
        pn_fml_reach shape = pn_fml_reach_shape(root, &phi);
        EXPECT_NE(shape, PN_FML_REACH_NONE) << a.id << ": a witness for a non-reachability formula";
        if (shape == PN_FML_REACH_NONE)
            continue;
        pn_verdict inner = a.verdict;
        if (negate)
            inner = inner == PN_VERDICT_TRUE ? PN_VERDICT_FALSE : PN_VERDICT_TRUE;
        std::vector<uint64_t> m = replay(cn.get(), out->res, a);
        bool holds = pn_fml_eval_state(phi, cn.get(), m.data());
        if (shape == PN_FML_REACH_EF) {
            EXPECT_EQ(inner, PN_VERDICT_TRUE) << a.id;
            EXPECT_TRUE(holds) << a.id << ": the EF witness does not satisfy phi";
            ef++;
        } else {
            EXPECT_EQ(inner, PN_VERDICT_FALSE) << a.id;
            EXPECT_FALSE(holds) << a.id << ": the AG counterexample satisfies phi";
            ++*ag_checked;
        }
    }
    return ef;
}

} // namespace

TEST(Check, WitnessTracesOnMccInstanceReachPhi)
{
    const char *instance = "Philosophers-PT-000005";
    std::string dir = std::string(PETREL_SHARED_DIR) + "/mcc/" + instance;
    FILE *f = fopen((dir + "/model.pnml").c_str(), "rb");
    if (f == nullptr)
        GTEST_SKIP() << dir << " is absent: the MCC data lives beside the checkout (../shared/mcc)";
    fclose(f);
    uint32_t ag = 0;
    uint32_t ef = check_traces(instance, "ReachabilityCardinality.xml",
                               PN_EXAM_REACH_CARDINALITY, &ag);
    ef += check_traces(instance, "ReachabilityFireability.xml", PN_EXAM_REACH_FIREABILITY, &ag);
    EXPECT_GT(ef, 0u) << "no EF witness to check";
    RecordProperty("ef_traces", std::to_string(ef));
    RecordProperty("ag_traces", std::to_string(ag));
}
