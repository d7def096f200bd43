// Random small MCMT systems as text (test_mcmt.cpp): every construct of
// docs/mcmt.md that a finite instance explores — locals and globals of
// bool, (subrange 1 3), nat and int, symbolic constants, :initial over x
// (and y), :system_axiom, :unsafe cubes over z1 z2 (and the old x y form),
// :u_cnj, transitions with no, one or two existential variables, :guard,
// :uguard, one to three cases (incomplete ones crash processes, overlapping
// ones may disagree), values that leave their type or --int-range, reads
// a[g] at a data index that may leave the processes, g[x] reads of
// globals, ignored options — with what the reader must make of it, so that
// the reader's output is checked too. Half the systems are shaped like
// protocols (a location pc[x] moved by each transition) so that searches go
// deeper than random terms allow. The instance comes with the text: 1 to 4
// processes numbered from 0, 1 or 2, --int-range of 2 to 4 values from -1,
// 0 or 1; at most 20,000 valuations of the cells, so that the naive
// evaluator of test_mcmt_eval.h can enumerate them.
#ifndef PETREL_TEST_MCMT_GEN_H
#define PETREL_TEST_MCMT_GEN_H

#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_mcmt_eval.h"

namespace mcmt_test {

enum class Ty { Bool, Sub, Nat, Int };

struct GenArray {
    std::string name;
    Ty ty;
    bool global;
};

struct Generated {
    std::string text;
    Bound bound;
    // What the reader must make of the text.
    std::vector<GenArray> arrays;
    std::vector<Ty> params;
    std::vector<uint32_t> trans_vars, trans_cases, trans_uguards;
    std::vector<std::string> trans_names;
    std::vector<uint32_t> cube_nz;
    uint32_t n_initial = 0, n_axioms = 0, n_notes = 0;
};

class Gen {
  public:
    explicit Gen(uint32_t seed) : rng_(seed) {}

    Generated next()
    {
        Generated g;
        out_ = &g;
        // Half the systems are shaped like protocols: a location pc[x]
        // that each transition's guard tests and case 1 moves, the other
        // processes mostly kept: deeper searches than random terms give.
        proto_ = chance(0.5);
        moves_ = 0;
        for (;;) {
            declare();
            if (valuations() <= 20000)
                break;
        }
        std::ostringstream t;
        t << ":smt (define-type sr ( subrange 1 3))\n";
        for (size_t k = 0; k < g.params.size(); k++)
            t << ":smt (define c" << k + 1 << "::" << type_name(g.params[k]) << ")\n";
        for (const GenArray &a : g.arrays)
            t << (a.global ? ":global " : ":local ") << a.name << " " << type_name(a.ty) << "\n";
        if (chance(0.1)) {
            t << ":index int\n";
            g.n_notes++;
        }
        // The initial formula is drawn first (an axiom avoids its values),
        // written before or after the axiom.
        std::ostringstream init;
        initial(init);
        bool ax = chance(0.2), ax_first = chance(0.7);
        if (ax && ax_first)
            axiom(t);
        t << init.str();
        if (ax && !ax_first)
            axiom(t);
        unsafe(t);
        uint32_t nt = range(1, 4);
        for (uint32_t k = 0; k < nt; k++)
            transition(t, k);
        static const char *const opts[] = {":determine_bounds", ":variable_redundancy_test",
                                           ":max_transitions_number 50", ":key_search x"};
        if (chance(0.2)) {
            t << opts[range(0, 3)] << "\n";
            g.n_notes++;
        }
        g.text = t.str();
        return g;
    }

  private:
    // ---- randomness -------------------------------------------------------------
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
    uint32_t range(uint32_t lo, uint32_t hi)
    {
        return std::uniform_int_distribution<uint32_t>(lo, hi)(rng_);
    }
    template <class T> const T &pick(const std::vector<T> &v) { return v[range(0, (uint32_t)v.size() - 1)]; }

    static const char *type_name(Ty t)
    {
        return t == Ty::Bool ? "bool" : t == Ty::Sub ? "sr" : t == Ty::Nat ? "nat" : "int";
    }
    Ty any_type()
    {
        static const Ty all[] = {Ty::Bool, Ty::Sub, Ty::Nat, Ty::Int};
        return all[range(0, 3)];
    }

    // ---- declarations -----------------------------------------------------------
    void declare()
    {
        Generated &g = *out_;
        g.arrays.clear();
        g.params.clear();
        g.bound.procs = chance(0.1) ? 4 : range(1, 3);
        g.bound.idx_from = chance(0.1) ? 2 : range(0, 1);
        static const int64_t los[] = {0, 0, -1, 1};
        g.bound.lo = los[range(0, 3)];
        g.bound.hi = g.bound.lo + (chance(0.1) ? 3 : range(1, 2));
        uint32_t nl = range(1, 3), ng = range(0, 2), np = chance(0.2) ? 1 : 0;
        // Locals and globals interleaved: declaration order is the cell order.
        uint32_t li = 0, gi = 0;
        if (proto_) {
            g.arrays.push_back({"pc", Ty::Sub, false});
            li++;
        }
        while (li < nl || gi < ng) {
            bool global = li == nl || (gi < ng && chance(0.4));
            std::string name = global ? "g" + std::to_string(++gi) : "a" + std::to_string(++li);
            g.arrays.push_back({name, any_type(), global});
        }
        for (uint32_t k = 0; k < np; k++)
            g.params.push_back(chance(0.5) ? Ty::Int : any_type());
    }

    uint64_t dom(Ty t) const
    {
        const Bound &b = out_->bound;
        switch (t) {
        case Ty::Bool: return 2;
        case Ty::Sub: return 3;
        case Ty::Nat: return (uint64_t)(b.hi - (b.lo < 0 ? 0 : b.lo) + 1);
        default: return (uint64_t)(b.hi - b.lo + 1);
        }
    }
    uint64_t valuations() const
    {
        uint64_t v = 1;
        for (const GenArray &a : out_->arrays)
            for (uint32_t p = 0; p < (a.global ? 1 : out_->bound.procs); p++)
                v *= dom(a.ty);
        for (Ty t : out_->params)
            v *= dom(t);
        return v;
    }

    // ---- terms ------------------------------------------------------------------
    struct Ctx {
        std::vector<std::string> idx; // index variables in scope
        bool data_index;              // a[g] with g a numeric global: may leave the processes
    };

    std::vector<const GenArray *> arrays_of(bool global, bool numeric) const
    {
        std::vector<const GenArray *> v;
        for (const GenArray &a : out_->arrays)
            if (a.global == global && (a.ty != Ty::Bool) == numeric)
                v.push_back(&a);
        return v;
    }
    std::vector<std::string> params_of(bool numeric) const
    {
        std::vector<std::string> v;
        for (size_t k = 0; k < out_->params.size(); k++)
            if ((out_->params[k] != Ty::Bool) == numeric)
                v.push_back("c" + std::to_string(k + 1));
        return v;
    }

    std::string constant() { return std::to_string((int)range(0, 4) - 1); }

    // A bare numeric global or constant: the index of a data-indexed read.
    std::string num_atom(const Ctx &c)
    {
        std::vector<std::string> atoms;
        for (const GenArray *a : arrays_of(true, true))
            atoms.push_back(a->name);
        for (const std::string &p : params_of(true))
            atoms.push_back(p);
        (void)c;
        return atoms.empty() ? "" : pick(atoms);
    }

    std::string num(const Ctx &c, int depth)
    {
        for (int tries = 0; tries < 20; tries++) {
            switch (range(0, depth > 0 ? 9 : 4)) {
            case 0:
                return constant();
            case 1:
            case 2: {
                auto ls = arrays_of(false, true);
                if (ls.empty() || c.idx.empty())
                    break;
                return pick(ls)->name + "[" + pick(c.idx) + "]";
            }
            case 3: {
                auto gs = arrays_of(true, true);
                if (gs.empty())
                    break;
                // A global is read bare or, sometimes, as g[x] (section 2.3).
                if (!c.idx.empty() && chance(0.15))
                    return pick(gs)->name + "[" + pick(c.idx) + "]";
                return pick(gs)->name;
            }
            case 4: {
                auto ps = params_of(true);
                if (ps.empty())
                    break;
                return pick(ps);
            }
            case 5:
                return "(+ " + num(c, depth - 1) + (chance(0.5) ? " 1)" : " -1)");
            case 6:
                return chance(0.5) ? "(+ " + num(c, depth - 1) + " " + num(c, depth - 1) + ")"
                                   : "(* -1 " + num(c, depth - 1) + ")";
            case 7:
                return chance(0.5) ? "(- " + num(c, depth - 1) + ")"
                                   : "(* " + num(c, depth - 1) + " " + num(c, depth - 1) + ")";
            case 8:
                return "(ite " + boolean(c, depth - 1) + " " + num(c, depth - 1) + " " +
                       num(c, depth - 1) + ")";
            case 9: {
                auto ls = arrays_of(false, true);
                std::string at = num_atom(c);
                if (!c.data_index || ls.empty() || at.empty())
                    break;
                return pick(ls)->name + "[" + at + "]";
            }
            }
        }
        return constant();
    }

    std::string boolean(const Ctx &c, int depth)
    {
        static const char *const cmp[] = {"=", "<", "<=", ">", ">=", "/="};
        for (int tries = 0; tries < 20; tries++) {
            switch (range(0, depth > 0 ? 11 : 6)) {
            case 0:
                return chance(0.5) ? "true" : "false";
            case 1:
            case 2: {
                auto ls = arrays_of(false, false);
                if (ls.empty() || c.idx.empty())
                    break;
                return pick(ls)->name + "[" + pick(c.idx) + "]";
            }
            case 3: {
                auto gs = arrays_of(true, false);
                auto ps = params_of(false);
                for (const GenArray *a : gs)
                    ps.push_back(a->name);
                if (ps.empty())
                    break;
                return pick(ps);
            }
            case 4:
            case 5:
                return std::string("(") + cmp[range(0, 5)] + " " + num(c, depth > 0 ? 1 : 0) +
                       " " + num(c, 0) + ")";
            case 6:
                if (c.idx.empty())
                    break;
                return std::string("(") + cmp[range(0, 5)] + " " + pick(c.idx) + " " +
                       pick(c.idx) + ")";
            case 7:
                return "(not " + boolean(c, depth - 1) + ")";
            case 8:
                return std::string(chance(0.5) ? "(and " : "(or ") + boolean(c, depth - 1) + " " +
                       boolean(c, depth - 1) + ")";
            case 9:
                return "(=> " + boolean(c, depth - 1) + " " + boolean(c, depth - 1) + ")";
            case 10:
                return "(ite " + boolean(c, depth - 1) + " " + boolean(c, depth - 1) + " " +
                       boolean(c, depth - 1) + ")";
            case 11: {
                // A comparison of a cell with a value of its own type.
                auto &as = out_->arrays;
                const GenArray &a = as[range(0, (uint32_t)as.size() - 1)];
                if (!a.global && c.idx.empty())
                    break;
                std::string rd = a.global ? a.name : a.name + "[" + pick(c.idx) + "]";
                return "(= " + rd + " " + value_of(a.ty) + ")";
            }
            }
        }
        return chance(0.5) ? "true" : "false";
    }

    // A constant of type t (mostly within it).
    std::string value_of(Ty t)
    {
        const Bound &b = out_->bound;
        switch (t) {
        case Ty::Bool: return chance(0.5) ? "true" : "false";
        case Ty::Sub: return std::to_string(range(1, 3));
        default: {
            int64_t lo = t == Ty::Nat && b.lo < 0 ? 0 : b.lo;
            return std::to_string(lo + (int64_t)range(0, (uint32_t)(b.hi - lo)));
        }
        }
    }

    // A cell compared with a value of its type, as protocols' guards and
    // unsafe cubes mostly are (the random terms alone rarely hold).
    std::string cell_literal(const Ctx &c)
    {
        auto &as = out_->arrays;
        for (int tries = 0; tries < 10; tries++) {
            const GenArray &a = as[range(0, (uint32_t)as.size() - 1)];
            if (!a.global && c.idx.empty())
                continue;
            std::string rd = a.global ? a.name : a.name + "[" + pick(c.idx) + "]";
            if (a.ty == Ty::Bool)
                return chance(0.5) ? rd : "(not " + rd + ")";
            static const char *const cmp[] = {"=", "=", "=", "/=", "<", ">="};
            return std::string("(") + cmp[range(0, 5)] + " " + rd + " " + value_of(a.ty) + ")";
        }
        return boolean(c, 0);
    }

    std::string literals(const Ctx &c, uint32_t lo, uint32_t hi, int depth = 1)
    {
        std::string s;
        uint32_t n = range(lo, hi);
        for (uint32_t k = 0; k < n; k++)
            s += (k > 0 ? " " : "") +
                 (chance(0.75) ? cell_literal(c) : boolean(c, (int)range(0, (uint32_t)depth)));
        return s;
    }

    // ---- formulas -----------------------------------------------------------
    void initial(std::ostringstream &t)
    {
        Ctx c{{}, false};
        t << ":initial\n";
        if (proto_ || chance(0.85)) {
            t << ":var x\n";
            c.idx.push_back("x");
            if (chance(0.2)) {
                t << ":var y\n";
                c.idx.push_back("y");
            }
        }
        // Mostly MCMT's usual form: some cells fixed, the others open.
        std::vector<std::string> lits;
        init_.clear();
        for (const GenArray &a : out_->arrays) {
            if (!a.global && c.idx.empty())
                continue;
            if (proto_ && a.name == "pc") {
                lits.push_back("(= pc[x] 1)");
                init_[a.name] = "1";
            } else if (chance(0.8)) {
                std::string v = value_of(a.ty);
                init_[a.name] = v;
                lits.push_back("(= " + (a.global ? a.name : a.name + "[x]") + " " + v + ")");
            }
        }
        if (lits.empty() || chance(0.05))
            lits.push_back(chance(0.7) ? cell_literal(c) : boolean(c, 1));
        t << ":cnj";
        for (const std::string &l : lits)
            t << " " << l;
        t << "\n";
        out_->n_initial++;
    }

    void axiom(std::ostringstream &t)
    {
        Ctx c{{}, false};
        t << ":system_axiom\n";
        if (chance(0.6)) {
            t << ":var x\n";
            c.idx.push_back("x");
        }
        // Mostly a loose constraint (one value, not the initial one,
        // excluded), else any literal.
        std::string l = literals(c, 1, 1);
        auto &as = out_->arrays;
        const GenArray &a = as[range(0, (uint32_t)as.size() - 1)];
        if ((a.global || !c.idx.empty()) && chance(0.8)) {
            std::string v = value_of(a.ty);
            for (int tries = 0; tries < 5 && init_[a.name] == v; tries++)
                v = value_of(a.ty);
            l = "(/= " + (a.global ? a.name : a.name + "[x]") + " " + v + ")";
        }
        t << ":cnj " << l << "\n";
        out_->n_axioms++;
    }

    void unsafe(std::ostringstream &t)
    {
        // Over globals alone only where there are globals.
        uint32_t nz = !arrays_of(true, true).empty() && chance(0.2) ? 0 : range(1, 2);
        bool old = chance(0.15);
        Ctx c{{}, false};
        t << ":unsafe\n";
        for (uint32_t k = 0; k < nz; k++) {
            std::string v = old ? (k == 0 ? "x" : "y") : "z" + std::to_string(k + 1);
            t << ":var " << v << "\n";
            c.idx.push_back(v);
        }
        std::string lits;
        if (proto_ && nz > 0 && chance(0.7)) {
            for (const std::string &v : c.idx)
                lits += "(= pc[" + v + "] " + std::to_string(range(2, 3)) + ") ";
            lits += literals(c, 0, 1);
        } else {
            lits = literals(c, 1, 3);
        }
        t << ":cnj " << lits << "\n";
        out_->cube_nz.push_back(nz);
        if (chance(0.5)) {
            Ctx u{{"z1", "z2"}, false};
            if (chance(0.3))
                u.idx.pop_back();
            std::string l = literals(u, 1, 3);
            t << ":u_cnj " << l << "\n";
            out_->cube_nz.push_back(l.find("z2") != std::string::npos   ? 2
                                    : l.find("z1") != std::string::npos ? 1
                                                                        : 0);
        }
    }

    void transition(std::ostringstream &t, uint32_t k)
    {
        Generated &g = *out_;
        std::string name = "t" + std::to_string(k + 1);
        if (chance(0.5)) {
            name = "Tau" + std::to_string(k + 1);
            t << ":comment " << name << "\n";
        }
        g.trans_names.push_back(name);
        uint32_t nv = range(0, 19);
        nv = nv < (proto_ ? 2 : 4) ? 0 : nv < 14 ? 1 : 2;
        if (proto_ && k == 0)
            nv = 1; // the first move starts from the initial location
        g.trans_vars.push_back(nv);
        t << ":transition\n";
        Ctx guard{{}, true};
        if (nv >= 1) {
            t << ":var x\n";
            guard.idx.push_back("x");
        }
        if (nv >= 2) {
            t << ":var y\n";
            guard.idx.push_back("y");
        }
        t << ":var j\n";
        // The location pc[x] moves from `from` to `to` (protocols).
        bool moves = proto_ && nv >= 1;
        // Mostly a cycle 1 -> 2 -> 3 -> 1 over the transitions in turn.
        uint32_t f = chance(0.8) ? moves_ % 3 + 1 : range(1, 3);
        uint32_t to_v = chance(0.8) ? f % 3 + 1 : range(1, 3);
        std::string from = std::to_string(f), to = std::to_string(to_v);
        if (moves)
            moves_++;
        if (moves)
            t << ":guard (= pc[x] " << from << ")"
              << (chance(0.3) ? " " + literals(guard, 1, 1) : "") << "\n";
        else if (chance(0.85))
            t << ":guard " << literals(guard, 1, 2) << "\n";
        Ctx each = guard;
        each.idx.push_back("j");
        uint32_t nu = chance(0.2) ? range(1, 2) : 0;
        g.trans_uguards.push_back(nu);
        for (uint32_t u = 0; u < nu; u++)
            t << ":uguard " << literals(each, 1, 2) << "\n";
        uint32_t nc = range(1, 3);
        g.trans_cases.push_back(nc);
        t << ":numcases " << nc << "\n";
        // A global's update: one term, in every case, over x and y only.
        std::vector<std::string> gval(g.arrays.size());
        for (size_t a = 0; a < g.arrays.size(); a++)
            if (g.arrays[a].global)
                gval[a] = chance(0.5) ? g.arrays[a].name : val(guard, g.arrays[a]);
        bool complete = chance(0.6);
        for (uint32_t ci = 0; ci < nc; ci++) {
            std::string cond;
            if (ci == 0 && nv >= 1)
                cond = chance(0.7) ? "" : literals(each, 1, 1);
            else if (ci == nc - 1 && complete)
                cond = "";
            else
                cond = literals(each, chance(0.2) ? 0 : 1, 2);
            t << ":case" << (cond.empty() ? "" : " " + cond) << "\n";
            for (size_t a = 0; a < g.arrays.size(); a++) {
                const GenArray &ar = g.arrays[a];
                // Case 1 is mostly x's own update, the others mostly keep.
                double keep = ci == 0 && nv >= 1 ? 0.2 : proto_ ? 0.85 : 0.6;
                std::string v = ar.global                            ? gval[a]
                                : moves && ci == 0 && ar.name == "pc" ? to
                                : chance(keep)                        ? ar.name + "[j]"
                                                                      : val(each, ar);
                t << ":val " << v << "\n";
            }
        }
    }

    // A new value for array a: of its type, mostly.
    std::string val(const Ctx &c, const GenArray &a)
    {
        if (a.ty == Ty::Bool) {
            double r = std::uniform_real_distribution<double>(0, 1)(rng_);
            return r < 0.5 ? value_of(a.ty) : r < 0.8 ? cell_literal(c) : boolean(c, 1);
        }
        std::string self = a.global ? a.name : a.name + "[" + pick(c.idx) + "]";
        switch (range(0, 9)) {
        case 0:
        case 1:
        case 2:
            return value_of(a.ty);
        case 3:
        case 4: {
            // A cell of the same type.
            std::vector<std::string> same;
            for (const GenArray &b : out_->arrays)
                if (b.ty == a.ty)
                    for (const std::string &v : c.idx)
                        same.push_back(b.global ? b.name : b.name + "[" + v + "]");
            return same.empty() ? value_of(a.ty) : pick(same);
        }
        case 5:
        case 6:
            return "(+ " + self + (chance(0.7) ? " 1)" : " -1)");
        case 7:
            return "(ite " + cell_literal(c) + " " + value_of(a.ty) + " " +
                   (chance(0.5) ? self : value_of(a.ty)) + ")";
        case 8:
            return num(c, 0);
        default:
            return num(c, 1);
        }
    }

    std::mt19937 rng_;
    Generated *out_ = nullptr;
    bool proto_ = false;
    uint32_t moves_ = 0; // transitions that moved pc so far
    std::map<std::string, std::string> init_; // the initial value of a cell, where fixed
};

} // namespace mcmt_test

#endif
