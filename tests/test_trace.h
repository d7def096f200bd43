// Checking traces (--trace, pn_answer's firing sequences) by replaying them
// on the net (test_reduce.cpp, test_walk.cpp, test_linear.cpp,
// test_cli.cpp): a witness fires from the initial marking and ends where
// its answer's goal is met (E F phi: phi holds; A G phi: phi fails;
// ReachabilityDeadlock: a deadlock); a lasso fires its prefix, then its
// cycle twice. In one copy.
#ifndef PETREL_TEST_TRACE_H
#define PETREL_TEST_TRACE_H

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/examine.h"
#include "petrel/formula.h"
#include "petrel/net.h"
#include "petrel/pnml.h"
#include "test_enum.h"
#include "test_ptrs.h"

// seq[0..n) fires from m0 and ends where root's witness lies: root NULL,
// a deadlock; E F phi (under top negations), phi; A G phi, not phi; any
// other shape: only the firing is checked.
inline bool path_reaches_goal(const pn_cnet *cn, const uint32_t *seq, uint64_t n,
                              const pn_fml_node *root)
{
    std::vector<uint64_t> m(cn->m0, cn->m0 + cn->n_places);
    if (!replay(cn, m, seq, n))
        return false;
    if (root == nullptr)
        return replay(cn, m, std::vector<uint32_t>{UINT32_MAX}.data(), 1);
    while (root->kind == PN_FML_NOT)
        root = root->kids[0];
    const pn_fml_node *phi = nullptr;
    pn_fml_reach shape = pn_fml_reach_shape(root, &phi);
    if (shape == PN_FML_REACH_NONE)
        return true;
    return pn_fml_eval_state(phi, cn, m.data()) == (shape == PN_FML_REACH_EF);
}

// Answer i's trace (a witness from the BFS tree or a walk, or an LTL
// lasso) mapped onto the original cn (pn_report_trace) replays there and
// meets its goal (set NULL: ReachabilityDeadlock, whose trace
// pn_report_trace completes to a deadlock of the original). True when
// there is nothing to check.
inline bool trace_replays(const pn_cnet *cn, const pn_report *rep, const pn_fml_set *set,
                          uint32_t i)
{
    const pn_answer *a = pn_check_answer(rep->check, i);
    pn_error err;
    pn_error_clear(&err);
    uint32_t *seq = nullptr, *path = nullptr;
    uint64_t n = 0, len = 0;
    bool ok = true;
    if (a->lasso != nullptr && a->lasso_cycle > 0) {
        std::vector<uint64_t> m(cn->m0, cn->m0 + cn->n_places);
        uint64_t all = a->lasso_prefix + a->lasso_cycle;
        std::vector<uint32_t> twice(a->lasso, a->lasso + all);
        twice.insert(twice.end(), a->lasso + a->lasso_prefix, a->lasso + all);
        ok = pn_report_trace(rep, twice.data(), twice.size(), &seq, &n, &err) == PN_OK &&
             replay(cn, m, seq, n);
    } else if (a->lasso != nullptr ||
               (a->has_witness && pn_engine_trace(&rep->result, a->witness, &path, &len))) {
        const uint32_t *p = a->lasso != nullptr ? a->lasso : path;
        uint64_t l = a->lasso != nullptr ? a->lasso_prefix : len;
        ok = pn_report_trace(rep, p, l, &seq, &n, &err) == PN_OK &&
             path_reaches_goal(cn, seq, n, set != nullptr ? set->props[i].root : nullptr);
    }
    free(seq);
    free(path);
    return ok;
}

// Every "petrel: trace ID (...): steps" line of a CLI run's out replays on
// the model's original net (dir/model.pnml) and meets the goal of formula
// ID in dir/exam.xml (ReachabilityDeadlock: a deadlock; a lasso, or an
// examination of other formulas: the firing only); their count.
inline int cli_traces_replay(const std::string &dir, const std::string &exam,
                             const std::string &out)
{
    pn_error err;
    pn_error_clear(&err);
    pn_net *raw = nullptr;
    EXPECT_EQ(pn_pnml_read_file((dir + "/model.pnml").c_str(), nullptr, &raw, &err), PN_OK)
        << err.msg;
    NetPtr net(raw);
    pn_cnet *c = nullptr;
    EXPECT_EQ(pn_cnet_compile(raw, &c, &err), PN_OK) << err.msg;
    CnetPtr cn(c);
    bool deadlock = exam == "ReachabilityDeadlock";
    pn_fml_set *fs = nullptr;
    if (exam.rfind("Reachability", 0) == 0 && !deadlock) {
        EXPECT_EQ(pn_fml_read_file((dir + "/" + exam + ".xml").c_str(), raw, &fs, &err), PN_OK)
            << err.msg;
    }
    std::map<std::string, const pn_fml_node *> goal;
    for (uint32_t i = 0; fs != nullptr && i < fs->n; i++)
        goal[fs->props[i].id] = fs->props[i].status == PN_OK ? fs->props[i].root : nullptr;
    int n = 0;
    size_t at = 0;
    while ((at = out.find("petrel: trace ", at)) != std::string::npos) {
        size_t eol = out.find('\n', at);
        std::string line = out.substr(at, eol - at); /* a 0-step trace ends at "):" */
        std::string id = line.substr(14, line.find(" (") - 14);
        std::string steps = line.substr(line.find("):") + 2), tok;
        std::vector<uint32_t> prefix, cycle;
        bool in_cycle = false;
        for (size_t i = 0, j; i < steps.size(); i = j + 1) {
            j = steps.find(' ', i);
            j = j == std::string::npos ? steps.size() : j;
            tok = steps.substr(i, j - i);
            if (tok == "[" || tok == "]" || tok.empty()) {
                in_cycle |= tok == "[";
                continue;
            }
            int64_t t = tok == "(deadlock)" ? UINT32_MAX : pn_net_find_transition(raw, tok.c_str());
            EXPECT_GE(t, 0) << tok;
            (in_cycle ? cycle : prefix).push_back((uint32_t)t);
        }
        bool lasso = !cycle.empty();
        prefix.insert(prefix.end(), cycle.begin(), cycle.end());
        prefix.insert(prefix.end(), cycle.begin(), cycle.end());
        if (lasso || (!deadlock && (goal.count(id) == 0 || goal[id] == nullptr))) {
            std::vector<uint64_t> m(cn->m0, cn->m0 + cn->n_places);
            EXPECT_TRUE(replay(cn.get(), m, prefix.data(), prefix.size())) << line;
        } else {
            EXPECT_TRUE(path_reaches_goal(cn.get(), prefix.data(), prefix.size(),
                                          deadlock ? nullptr : goal[id]))
                << line;
        }
        n++;
        at = eol;
    }
    pn_fml_set_free(fs);
    return n;
}

#endif
