// An independent brute-force evaluator of bounded MCMT instances, written
// from docs/mcmt.md and the AST of petrel/mcmt.h only (not from
// host/space/mcmt.c): the reference pn_mcmt_check is compared against in
// test_mcmt.cpp. Everything is naive on purpose: states are plain vectors
// of values, initial states are every valuation of the cells that the
// initial formulas and the system axioms allow, successors are computed by
// evaluating the transition for every binding, and the search is a plain
// breadth-first search over a hash set.
//
// A state holds, in this order (the order of pn_mcmt_result.trace_vals):
// every array in declaration order (a global one cell, a local one cell per
// process, process K first), the symbolic constants, then one crash flag
// per process.
//
// Where docs/mcmt.md leaves an order of evaluation open, this evaluator
// reads it as follows (the report of the tests names these choices):
//  - a list of literals (a guard, a case condition, a :cnj) is a left to
//    right conjunction that stops at the first false literal, like `and`;
//  - the :guard first, then the :uguard (live j != x in ascending order,
//    the conjunctions in order): a defect in either is a defect;
//  - then every cell of the successor is computed (every case that holds
//    for a process is evaluated, to compare the values); a process or a
//    global whose evaluation met a defect has unknown values;
//  - a known value outside its type's bounds (bool, subrange, nat below 0)
//    means the successor does not exist, whatever else happened: the
//    unbounded system has no such successor, so nothing was cut;
//  - else a defect met above is a defect (no successor);
//  - else a successor that breaks a system axiom does not exist;
//  - else a value past --int-range is a defect (the successor is cut).
#ifndef PETREL_TEST_MCMT_EVAL_H
#define PETREL_TEST_MCMT_EVAL_H

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "petrel/mcmt.h"

namespace mcmt_test {

using State = std::vector<int64_t>;

struct Bound {
    uint32_t procs;
    int64_t idx_from;
    int64_t lo, hi; // --int-range
};

enum class Answer { Unknown, Safe, Unsafe };

inline const char *answer_name(Answer a)
{
    return a == Answer::Safe ? "SAFE" : a == Answer::Unsafe ? "UNSAFE" : "UNKNOWN";
}

// Defects, as a bit set. kMasked is not a defect: a successor that does
// not exist (a value outside its type, a broken axiom) in which a defect
// was met as well (a read outside the processes, disagreeing cases, a
// value past --int-range, a nat below 0 when --int-range starts above 0):
// a search that looks at the cells in some other order reports a defect
// there.
enum : unsigned { kDefectRange = 1, kDefectIndex = 2, kDefectCases = 4, kMasked = 8 };

struct Outcome {
    Answer answer = Answer::Unknown;
    uint64_t states = 0;  // reachable states met; the whole space when explored
    bool explored = false; // every reachable state met (no unsafe stop, no cap)
    uint32_t depth = 0;   // UNSAFE: the BFS depth of the shallowest unsafe state
    unsigned defects = 0;  // kDefect* bits
    bool masked = false;   // some step was kMasked
    uint64_t initial = 0; // initial states
};

enum class StepResult { Ok, Disabled, Defect };

class Evaluator {
  public:
    Evaluator(const pn_mcmt_sys *sys, Bound b) : s_(sys), b_(b)
    {
        uint32_t at = 0;
        for (uint32_t a = 0; a < s_->n_arrays; a++) {
            off_.push_back(at);
            at += s_->arrays[a].global ? 1 : b_.procs;
        }
        param_off_ = at;
        crash_off_ = at + s_->n_params;
        n_cells_ = crash_off_ + b_.procs;
        for (uint32_t a = 0; a < s_->n_arrays; a++)
            for (uint32_t k = 0; k < (s_->arrays[a].global ? 1 : b_.procs); k++)
                type_.push_back(s_->arrays[a].type);
        for (uint32_t k = 0; k < s_->n_params; k++)
            type_.push_back(s_->params[k].type);
        compact_ = true;
        for (uint32_t c = 0; c < crash_off_; c++) {
            int64_t lo, hi;
            domain(type_[c], &lo, &hi);
            if (lo < -127 || hi > 127)
                compact_ = false;
        }
    }

    uint32_t n_cells() const { return n_cells_; }
    uint32_t procs() const { return b_.procs; }
    uint32_t crash_off() const { return crash_off_; }
    uint32_t cell(uint32_t a, uint32_t p) const { return off_[a] + (s_->arrays[a].global ? 0 : p); }

    // The values a cell of type t takes in the instance.
    void domain(const pn_mcmt_type &t, int64_t *lo, int64_t *hi) const
    {
        switch (t.base) {
        case PN_MCMT_BOOL: *lo = 0, *hi = 1; break;
        case PN_MCMT_SUBRANGE: *lo = t.lo, *hi = t.hi; break;
        case PN_MCMT_NAT: *lo = b_.lo < 0 ? 0 : b_.lo, *hi = b_.hi; break;
        default: *lo = b_.lo, *hi = b_.hi; break;
        }
    }
    // Within the type's own bounds (outside: the successor does not exist).
    static bool type_ok(const pn_mcmt_type &t, int64_t v)
    {
        switch (t.base) {
        case PN_MCMT_BOOL: return v == 0 || v == 1;
        case PN_MCMT_SUBRANGE: return v >= t.lo && v <= t.hi;
        case PN_MCMT_NAT: return v >= 0;
        default: return true;
        }
    }
    // Within the instance's bound (outside but type_ok: a cut, a defect).
    bool range_ok(const pn_mcmt_type &t, int64_t v) const
    {
        int64_t lo, hi;
        domain(t, &lo, &hi);
        return v >= lo && v <= hi;
    }

    // ---- terms ----------------------------------------------------------------

    struct IndexDefect {};
    static constexpr int64_t kUnbound = INT64_MIN;

    struct Env {
        const State *s;
        int64_t var[PN_MCMT_VARS];
        Env(const State *st) : s(st)
        {
            for (int64_t &v : var)
                v = kUnbound;
        }
    };

    int64_t eval(uint32_t t, const Env &e) const
    {
        const pn_mcmt_term &m = s_->terms[t];
        auto kid = [&](uint32_t k) { return s_->kids[m.first + k]; };
        switch (m.kind) {
        case PN_MCMT_CONST:
            return m.value;
        case PN_MCMT_VAR:
            if (m.value < 0 || m.value >= PN_MCMT_VARS || e.var[m.value] == kUnbound)
                throw std::logic_error("an unbound index variable");
            return e.var[m.value];
        case PN_MCMT_PARAM:
            return (*e.s)[param_off_ + (uint32_t)m.value];
        case PN_MCMT_READ: {
            uint32_t a = (uint32_t)m.value;
            if (s_->arrays[a].global)
                return (*e.s)[off_[a]];
            if (m.n != 1)
                throw std::logic_error("a local read without an index");
            int64_t i = eval(kid(0), e);
            if (i < b_.idx_from || i >= b_.idx_from + (int64_t)b_.procs)
                throw IndexDefect{};
            return (*e.s)[off_[a] + (uint32_t)(i - b_.idx_from)];
        }
        case PN_MCMT_OP:
            break;
        default:
            throw std::logic_error("a term of unknown kind");
        }
        switch (m.op) {
        case PN_MCMT_EQ: { int64_t a = eval(kid(0), e), b = eval(kid(1), e); return a == b; }
        case PN_MCMT_LT: { int64_t a = eval(kid(0), e), b = eval(kid(1), e); return a < b; }
        case PN_MCMT_LE: { int64_t a = eval(kid(0), e), b = eval(kid(1), e); return a <= b; }
        case PN_MCMT_GT: { int64_t a = eval(kid(0), e), b = eval(kid(1), e); return a > b; }
        case PN_MCMT_GE: { int64_t a = eval(kid(0), e), b = eval(kid(1), e); return a >= b; }
        case PN_MCMT_AND:
            for (uint32_t k = 0; k < m.n; k++)
                if (eval(kid(k), e) == 0)
                    return 0;
            return 1;
        case PN_MCMT_OR:
            for (uint32_t k = 0; k < m.n; k++)
                if (eval(kid(k), e) != 0)
                    return 1;
            return 0;
        case PN_MCMT_NOT:
            return eval(kid(0), e) == 0;
        case PN_MCMT_IMPLIES:
            return eval(kid(0), e) == 0 || eval(kid(1), e) != 0;
        case PN_MCMT_ADD: {
            int64_t v = 0;
            for (uint32_t k = 0; k < m.n; k++)
                v += eval(kid(k), e);
            return v;
        }
        case PN_MCMT_MUL: {
            int64_t v = 1;
            for (uint32_t k = 0; k < m.n; k++)
                v *= eval(kid(k), e);
            return v;
        }
        case PN_MCMT_NEG:
            return -eval(kid(0), e);
        case PN_MCMT_ITE:
            return eval(kid(0), e) != 0 ? eval(kid(1), e) : eval(kid(2), e);
        default:
            throw std::logic_error("an unknown operator");
        }
    }

    bool holds(const pn_mcmt_list &l, const Env &e) const
    {
        for (uint32_t k = 0; k < l.n; k++)
            if (eval(l.items[k], e) == 0)
                return false;
        return true;
    }

    // A universal formula (:initial, :system_axiom): for every process of
    // each declared variable, equal ones too. Throws IndexDefect.
    bool univ_holds(const pn_mcmt_univ &u, const State &s) const
    {
        // The declared variables (u.vars) and, should the reader leave
        // u.vars out, the ones the formula uses: the same universal reading.
        uint32_t used = u.vars;
        for (uint32_t k = 0; k < u.cnj.n; k++)
            used |= vars_of(u.cnj.items[k]);
        int vars[3] = {PN_MCMT_X, PN_MCMT_Y, PN_MCMT_J};
        std::vector<int> bound;
        for (int v : vars)
            if (used & (1u << v))
                bound.push_back(v);
        Env e(&s);
        std::vector<uint32_t> at(bound.size(), 0);
        for (;;) {
            for (size_t k = 0; k < bound.size(); k++)
                e.var[bound[k]] = b_.idx_from + at[k];
            if (!holds(u.cnj, e))
                return false;
            size_t k = 0;
            while (k < at.size() && ++at[k] == b_.procs)
                at[k++] = 0;
            if (k == at.size())
                return true;
        }
    }

    bool axioms_hold(const State &s) const
    {
        for (uint32_t k = 0; k < s_->n_axioms; k++)
            if (!univ_holds(s_->axioms[k], s))
                return false;
        return true;
    }

    // Cube c holds for some distinct z1 .. z_nz (over every process).
    bool cube_holds(const pn_mcmt_cube &c, const State &s) const
    {
        if (c.nz > b_.procs)
            return false;
        Env e(&s);
        std::vector<uint32_t> z(c.nz, 0);
        for (;;) {
            bool distinct = true;
            for (uint32_t a = 0; a < c.nz && distinct; a++)
                for (uint32_t b = a + 1; b < c.nz; b++)
                    if (z[a] == z[b])
                        distinct = false;
            if (distinct) {
                for (uint32_t k = 0; k < c.nz; k++)
                    e.var[PN_MCMT_Z1 + k] = b_.idx_from + z[k];
                if (holds(c.cnj, e))
                    return true;
            }
            uint32_t k = 0;
            while (k < c.nz && ++z[k] == b_.procs)
                z[k++] = 0;
            if (k == c.nz)
                return false;
        }
    }

    // The first cube (index + 1) the state satisfies, 0: none. Throws
    // IndexDefect.
    uint32_t unsafe(const State &s) const
    {
        for (uint32_t c = 0; c < s_->n_unsafe; c++)
            if (cube_holds(s_->unsafe[c], s))
                return c + 1;
        return 0;
    }

    bool crashed(const State &s, uint32_t p) const { return s[crash_off_ + p] != 0; }

    // ---- initial states -------------------------------------------------------

    // Every cell within its domain, no crash, every :initial and axiom holds.
    bool is_initial(const State &s) const
    {
        if (s.size() != n_cells_)
            return false;
        for (uint32_t c = 0; c < crash_off_; c++)
            if (!type_ok(type_[c], s[c]) || !range_ok(type_[c], s[c]))
                return false;
        for (uint32_t p = 0; p < b_.procs; p++)
            if (s[crash_off_ + p] != 0)
                return false;
        try {
            for (uint32_t k = 0; k < s_->n_initial; k++)
                if (!univ_holds(s_->initial[k], s))
                    return false;
            return axioms_hold(s);
        } catch (IndexDefect &) {
            return false;
        }
    }

    // Every initial state: every valuation of the cells (crash flags 0)
    // that satisfies every :initial and :system_axiom literal for every
    // binding of its variables. The valuations are enumerated cell by cell,
    // and each literal, for each binding, is checked as soon as every cell
    // it may read has a value (a plain backtracking enumeration: the
    // product of the domains is too large for the bundled models at N = 5).
    std::vector<State> initial_states(unsigned *defects) const
    {
        std::vector<int64_t> lo(crash_off_), hi(crash_off_);
        for (uint32_t c = 0; c < crash_off_; c++) {
            domain(type_[c], &lo[c], &hi[c]);
            if (lo[c] > hi[c])
                return {};
        }
        // at[c + 1]: the literal instances whose last cell read is c (at[0]:
        // those that read no cell).
        struct Inst {
            uint32_t term;
            int64_t var[3];
        };
        std::vector<std::vector<Inst>> at(crash_off_ + 1);
        auto add = [&](const pn_mcmt_univ &u) {
            uint32_t used = u.vars;
            for (uint32_t k = 0; k < u.cnj.n; k++)
                used |= vars_of(u.cnj.items[k]);
            std::vector<int> bound;
            for (int v : {PN_MCMT_X, PN_MCMT_Y, PN_MCMT_J})
                if (used & (1u << v))
                    bound.push_back(v);
            std::vector<uint32_t> pos(bound.size(), 0);
            for (;;) {
                Inst in = {0, {kUnbound, kUnbound, kUnbound}};
                for (size_t k = 0; k < bound.size(); k++)
                    in.var[bound[k]] = b_.idx_from + pos[k];
                for (uint32_t k = 0; k < u.cnj.n; k++) {
                    in.term = u.cnj.items[k];
                    int64_t last = -1;
                    last_read(in.term, in.var, &last);
                    at[(size_t)(last + 1)].push_back(in);
                }
                size_t k = 0;
                while (k < pos.size() && ++pos[k] == b_.procs)
                    pos[k++] = 0;
                if (k == pos.size())
                    break;
            }
        };
        for (uint32_t k = 0; k < s_->n_initial; k++)
            add(s_->initial[k]);
        for (uint32_t k = 0; k < s_->n_axioms; k++)
            add(s_->axioms[k]);
        State s(n_cells_, 0);
        auto ok = [&](uint32_t level) {
            for (const Inst &in : at[level]) {
                Env e(&s);
                for (int v = 0; v < 3; v++)
                    e.var[v] = in.var[v];
                try {
                    if (eval(in.term, e) == 0)
                        return false;
                } catch (IndexDefect &) {
                    *defects |= kDefectIndex;
                    return false;
                }
            }
            return true;
        };
        std::vector<State> out;
        if (!ok(0))
            return out;
        if (crash_off_ == 0) {
            out.push_back(s);
            return out;
        }
        // Depth-first over the cells: c is the cell being given a value.
        uint32_t c = 0;
        s[0] = lo[0];
        for (;;) {
            bool good = ok(c + 1);
            if (good && c + 1 == crash_off_)
                out.push_back(s);
            else if (good) {
                c++;
                s[c] = lo[c];
                continue;
            }
            // The next value of c, backing up past the cells that are done.
            while (s[c] == hi[c]) {
                if (c == 0)
                    return out;
                c--;
            }
            s[c]++;
        }
    }

    // ---- transitions ----------------------------------------------------------

    // The successor of s by transition t with x and y (-1: not bound):
    // Ok and *out, Disabled (not enabled, or no such successor), or Defect
    // (*defect says which; no successor).
    StepResult step(const State &s, uint32_t t, int64_t x, int64_t y, State *out,
                    unsigned *defect) const
    {
        const pn_mcmt_trans &tr = s_->trans[t];
        bool has_x = tr.n_vars >= 1, has_y = tr.n_vars >= 2;
        auto live = [&](int64_t p) {
            return p >= b_.idx_from && p < b_.idx_from + (int64_t)b_.procs &&
                   !crashed(s, (uint32_t)(p - b_.idx_from));
        };
        if (has_x != (x >= 0 && live(x)) || (!has_x && x != -1))
            return StepResult::Disabled;
        if (has_y != (y >= 0 && live(y)) || (!has_y && y != -1) || (has_y && x == y))
            return StepResult::Disabled;
        Env e(&s);
        if (has_x)
            e.var[PN_MCMT_X] = x;
        if (has_y)
            e.var[PN_MCMT_Y] = y;
        try {
            if (!holds(tr.guard, e))
                return StepResult::Disabled;
            if (tr.n_uguard > 0)
                for (uint32_t p = 0; p < b_.procs; p++) {
                    int64_t j = b_.idx_from + p;
                    if (crashed(s, p) || (has_x && j == x))
                        continue;
                    e.var[PN_MCMT_J] = j;
                    bool any = false;
                    for (uint32_t u = 0; u < tr.n_uguard && !any; u++)
                        any = holds(tr.uguard[u], e);
                    if (!any)
                        return StepResult::Disabled;
                }
            // Every cell of the successor that can be computed. A process
            // (or a global) whose evaluation met a defect has unknown values;
            // a known value that leaves its type still makes the successor
            // not exist, whatever the unknown ones would be.
            State n = s;
            std::vector<bool> known(crash_off_, true);
            unsigned found = 0;
            std::vector<int64_t> first(s_->n_arrays), other(s_->n_arrays);
            for (uint32_t p = 0; p < b_.procs; p++) {
                int64_t j = b_.idx_from + p;
                e.var[PN_MCMT_J] = j;
                int chosen = -1;
                bool disagree = false, unreadable = false;
                try {
                    for (uint32_t c = 0; c < tr.n_cases && !disagree; c++) {
                        const pn_mcmt_case &k = tr.cases[c];
                        if (has_x && (c == 0) != (x == j))
                            continue;
                        if (!holds(k.cond, e))
                            continue;
                        // A process's cells are its local arrays' values;
                        // a global's update is one term, read below.
                        std::vector<int64_t> &v = chosen < 0 ? first : other;
                        for (uint32_t a = 0; a < s_->n_arrays; a++)
                            if (!s_->arrays[a].global)
                                v[a] = eval(k.val[a], e);
                        if (chosen < 0)
                            chosen = (int)c;
                        else if (other != first)
                            disagree = true;
                    }
                } catch (IndexDefect &) {
                    unreadable = true;
                }
                if (disagree || unreadable) {
                    found |= unreadable ? kDefectIndex : kDefectCases;
                    for (uint32_t a = 0; a < s_->n_arrays; a++)
                        if (!s_->arrays[a].global)
                            known[off_[a] + p] = false;
                    continue;
                }
                if (chosen < 0) {
                    n[crash_off_ + p] = 1;
                    continue;
                }
                for (uint32_t a = 0; a < s_->n_arrays; a++)
                    if (!s_->arrays[a].global)
                        n[off_[a] + p] = first[a];
            }
            e.var[PN_MCMT_J] = kUnbound;
            for (uint32_t a = 0; a < s_->n_arrays; a++)
                if (s_->arrays[a].global) {
                    try {
                        n[off_[a]] = eval(tr.cases[0].val[a], e);
                    } catch (IndexDefect &) {
                        found |= kDefectIndex;
                        known[off_[a]] = false;
                    }
                }
            bool past = false; // a known value past --int-range
            for (uint32_t c = 0; c < crash_off_; c++)
                past |= known[c] && !range_ok(type_[c], n[c]);
            for (uint32_t c = 0; c < crash_off_; c++)
                if (known[c] && !type_ok(type_[c], n[c])) {
                    if (found != 0 || past)
                        *defect |= kMasked;
                    return StepResult::Disabled;
                }
            if (found != 0) {
                *defect |= found;
                return StepResult::Defect;
            }
            if (!axioms_hold(n)) {
                if (past)
                    *defect |= kMasked;
                return StepResult::Disabled;
            }
            for (uint32_t c = 0; c < crash_off_; c++)
                if (!range_ok(type_[c], n[c])) {
                    *defect |= kDefectRange;
                    return StepResult::Defect;
                }
            *out = std::move(n);
            return StepResult::Ok;
        } catch (IndexDefect &) {
            *defect |= kDefectIndex;
            return StepResult::Defect;
        }
    }

    struct Succ {
        State s;
        uint32_t trans;
        int64_t x, y;
    };

    // Every successor of s, for every transition and binding.
    void successors(const State &s, std::vector<Succ> *out, unsigned *defects) const
    {
        out->clear();
        for (uint32_t t = 0; t < s_->n_trans; t++) {
            uint32_t nv = s_->trans[t].n_vars;
            std::vector<int64_t> xs, ys;
            if (nv == 0)
                xs.push_back(-1);
            for (uint32_t p = 0; nv >= 1 && p < b_.procs; p++)
                if (!crashed(s, p))
                    xs.push_back(b_.idx_from + p);
            for (int64_t x : xs) {
                ys.clear();
                if (nv < 2)
                    ys.push_back(-1);
                for (uint32_t p = 0; nv >= 2 && p < b_.procs; p++)
                    if (!crashed(s, p) && b_.idx_from + p != x)
                        ys.push_back(b_.idx_from + p);
                for (int64_t y : ys) {
                    Succ n;
                    if (step(s, t, x, y, &n.s, defects) == StepResult::Ok) {
                        n.trans = t, n.x = x, n.y = y;
                        out->push_back(std::move(n));
                    }
                }
            }
        }
    }

    // Breadth-first search from every initial state; stops at the first
    // unsafe state met (the shallowest: states are met in order of depth)
    // or after max_states states (then explored is false).
    Outcome explore(uint64_t max_states = UINT64_MAX) const
    {
        Outcome o = explore_raw(max_states);
        o.masked = (o.defects & kMasked) != 0;
        o.defects &= ~kMasked;
        if (o.explored)
            o.answer = o.defects == 0 ? Answer::Safe : Answer::Unknown;
        return o;
    }

    Outcome explore_raw(uint64_t max_states) const
    {
        Outcome o;
        std::unordered_map<std::string, uint32_t> seen;
        std::vector<State> states;
        std::vector<uint32_t> depth;
        auto meet = [&](State &&s, uint32_t d) -> bool {
            std::string key = pack(s);
            if (!seen.emplace(std::move(key), (uint32_t)states.size()).second)
                return false;
            states.push_back(std::move(s));
            depth.push_back(d);
            return true;
        };
        auto is_unsafe = [&](const State &s) {
            try {
                return unsafe(s) != 0;
            } catch (IndexDefect &) {
                o.defects |= kDefectIndex;
                return false;
            }
        };
        for (State &s : initial_states(&o.defects)) {
            o.initial++;
            if (meet(std::move(s), 0) && is_unsafe(states.back())) {
                o.answer = Answer::Unsafe;
                o.states = states.size();
                return o;
            }
        }
        std::vector<Succ> succ;
        for (size_t at = 0; at < states.size(); at++) {
            if (states.size() > max_states) {
                o.states = states.size();
                return o;
            }
            State cur = states[at];
            successors(cur, &succ, &o.defects);
            for (Succ &n : succ)
                if (meet(std::move(n.s), depth[at] + 1) && is_unsafe(states.back())) {
                    o.answer = Answer::Unsafe;
                    o.depth = depth.back();
                    o.states = states.size();
                    return o;
                }
        }
        o.explored = true;
        o.states = states.size();
        return o;
    }

    // The index variables term t uses (bits).
    uint32_t vars_of(uint32_t t) const
    {
        const pn_mcmt_term &m = s_->terms[t];
        uint32_t v = m.kind == PN_MCMT_VAR ? 1u << m.value : 0;
        for (uint32_t k = 0; k < m.n; k++)
            v |= vars_of(s_->kids[m.first + k]);
        return v;
    }

  private:
    // The last cell (highest index) term t may read with the variables
    // var (X, Y, J) bound, into *last (kept when higher). A read a[t] at an
    // index that is not a variable or a constant may read any cell of a.
    void last_read(uint32_t t, const int64_t var[3], int64_t *last) const
    {
        const pn_mcmt_term &m = s_->terms[t];
        auto see = [&](int64_t c) {
            if (c > *last)
                *last = c;
        };
        if (m.kind == PN_MCMT_PARAM)
            see(param_off_ + m.value);
        if (m.kind == PN_MCMT_READ) {
            uint32_t a = (uint32_t)m.value;
            if (s_->arrays[a].global || m.n == 0) {
                see(off_[a]);
                return;
            }
            const pn_mcmt_term &i = s_->terms[s_->kids[m.first]];
            int64_t p = i.kind == PN_MCMT_CONST                      ? i.value
                        : i.kind == PN_MCMT_VAR && i.value < 3       ? var[i.value]
                                                                     : kUnbound;
            if (p != kUnbound && p >= b_.idx_from && p < b_.idx_from + (int64_t)b_.procs)
                see(off_[a] + (p - b_.idx_from));
            else if (p == kUnbound)
                see(off_[a] + b_.procs - 1);
        }
        for (uint32_t k = 0; k < m.n; k++)
            last_read(s_->kids[m.first + k], var, last);
    }

    std::string pack(const State &s) const
    {
        std::string key;
        if (compact_) {
            key.resize(s.size());
            for (size_t k = 0; k < s.size(); k++)
                key[k] = (char)(int8_t)s[k];
        } else {
            key.resize(s.size() * sizeof(int64_t));
            std::memcpy(&key[0], s.data(), key.size());
        }
        return key;
    }

    const pn_mcmt_sys *s_;
    Bound b_;
    std::vector<uint32_t> off_;
    uint32_t param_off_ = 0, crash_off_ = 0, n_cells_ = 0;
    std::vector<pn_mcmt_type> type_; // per cell, before the crash flags
    bool compact_ = true;
};

} // namespace mcmt_test

#endif
