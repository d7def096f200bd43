// LTL: the translation to a generalised Büchi automaton (host/logic/ltl_nnf.c,
// host/logic/ltl_gba.c) and the model checker (host/logic/ltl.c), against references
// written here and independent of them:
//   - an evaluator of LTL on lasso words u v^w (fixpoints over the finitely
//     many distinct positions);
//   - an acceptance check of an automaton on a finite structure (a lasso
//     word, or a state graph with deadlocks stuttering): the product, and a
//     reachable SCC with a cycle that meets every acceptance set.
// For 50 hand-written, 200 random and a few long formulas, the automaton of psi must
// accept exactly the lasso words (all with |u| <= 2, |v| <= 2, plus random
// longer ones) that satisfy psi, and the automaton of !psi exactly the
// others. pn_ltl_check runs on hand-made nets with known answers (cycles,
// deadlocks: docs/semantics.md's stuttering convention), against the
// reference product with markings evaluated by pn_fml_eval_state, and
// against CTL where LTL and CTL agree. LtlSizes.MccFormulas prints the
// automaton sizes for the MCC formulas of two instances
// (tools/ltl-sizes.sh, docs/ltl-automata.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <sys/stat.h>
#include <utility>
#include <vector>

#include "logic/ltl_buchi.h"
#include "logic/ltl_otf.h"
#include "petrel/cnet.h"
#include "petrel/ctl.h"
#include "petrel/engine.h"
#include "petrel/error.h"
#include "petrel/formula.h"
#include "petrel/graph.h"
#include "net/layout.h"
#include "petrel/ltl.h"
#include "petrel/net.h"
#include "petrel/pnml.h"
#include "test_ltl_random.h"
#include "test_ptrs.h"

namespace {

using Fml = NodePtr;

std::string show(const pn_fml_node *n)
{
    if (n == nullptr)
        return "(null)";
    char *s = pn_fml_to_string(n, nullptr);
    std::string out = s ? s : "(out of memory)";
    free(s);
    return out;
}

// ---- atoms ------------------------------------------------------------------
// A letter is a bitmask: bit i is the truth of atom i, a state formula (the
// prototype list names them; pn_fml_equal finds a leaf in it).
using Atoms = std::vector<Fml>;

// The letter atoms a, b, c: fireable(t0), fireable(t1), p2 <= 0.
pn_fml_node *letter_atom(int i)
{
    if (i < 2) {
        uint32_t t = (uint32_t)i;
        return pn_fml_list(PN_FML_FIREABLE, &t, 1);
    }
    uint32_t p = 2;
    return pn_fml_binary(PN_FML_INT_LE, pn_fml_list(PN_FML_TOKENS, &p, 1), pn_fml_const(0));
}

const Atoms &letter_atoms()
{
    static Atoms atoms = [] {
        Atoms a;
        for (int i = 0; i < 3; i++)
            a.emplace_back(letter_atom(i));
        return a;
    }();
    return atoms;
}

// ---- formulas from text -------------------------------------------------------
// imp   := or ['->' imp]          (a -> b is !a | b)
// or    := and {'|' and}          (n-ary OR)
// and   := until {'&' until}      (n-ary AND)
// until := unary ['U' until]
// unary := '!' unary | 'X' unary | 'F' unary | 'G' unary | '(' imp ')'
//        | 'true' | 'false' | atom (a lowercase letter or a digit, mapped by
//          the caller)
class Parser {
public:
    Parser(std::string s, std::function<pn_fml_node *(char)> atom)
        : s_(std::move(s)), atom_(std::move(atom))
    {
    }
    pn_fml_node *parse()
    {
        pn_fml_node *n = imp();
        skip();
        if (pos_ != s_.size()) {
            pn_fml_free(n);
            return nullptr;
        }
        return n;
    }

private:
    void skip()
    {
        while (pos_ < s_.size() && s_[pos_] == ' ')
            pos_++;
    }
    bool eat(const char *t)
    {
        skip();
        size_t k = strlen(t);
        if (s_.compare(pos_, k, t) != 0)
            return false;
        pos_ += k;
        return true;
    }
    pn_fml_node *imp()
    {
        pn_fml_node *a = chain(PN_FML_OR, "|");
        if (!eat("->"))
            return a;
        pn_fml_node *b = imp();
        return pn_fml_binary(PN_FML_OR, pn_fml_unary(PN_FML_NOT, a), b);
    }
    pn_fml_node *chain(pn_fml_kind kind, const char *op)
    {
        std::vector<pn_fml_node *> kids;
        kids.push_back(kind == PN_FML_OR ? chain(PN_FML_AND, "&") : until());
        while (eat(op))
            kids.push_back(kind == PN_FML_OR ? chain(PN_FML_AND, "&") : until());
        if (kids.size() == 1)
            return kids[0];
        return pn_fml_nary(kind, kids.data(), (uint32_t)kids.size());
    }
    pn_fml_node *until()
    {
        pn_fml_node *a = unary();
        if (!eat("U"))
            return a;
        pn_fml_node *b = until();
        return pn_fml_binary(PN_FML_U, a, b);
    }
    pn_fml_node *unary()
    {
        if (eat("!"))
            return pn_fml_unary(PN_FML_NOT, unary());
        if (eat("X"))
            return pn_fml_unary(PN_FML_X, unary());
        if (eat("F"))
            return pn_fml_unary(PN_FML_F, unary());
        if (eat("G"))
            return pn_fml_unary(PN_FML_G, unary());
        if (eat("(")) {
            pn_fml_node *n = imp();
            if (eat(")"))
                return n;
            pn_fml_free(n);
            return nullptr;
        }
        if (eat("true"))
            return pn_fml_leaf(PN_FML_TRUE);
        if (eat("false"))
            return pn_fml_leaf(PN_FML_FALSE);
        skip();
        unsigned char c = pos_ < s_.size() ? (unsigned char)s_[pos_] : 0;
        if (islower(c) || isdigit(c)) {
            pos_++;
            return atom_((char)c);
        }
        return nullptr;
    }

    std::string s_;
    std::function<pn_fml_node *(char)> atom_;
    size_t pos_ = 0;
};

Fml parse_letters(const std::string &text)
{
    Fml f(Parser(text, [](char c) -> pn_fml_node * {
              return c >= 'a' && c <= 'c' ? letter_atom(c - 'a') : nullptr;
          }).parse());
    EXPECT_NE(f, nullptr) << "cannot parse " << text;
    return f;
}

// ---- lasso words and the reference evaluator ---------------------------------
struct Lasso {
    std::vector<uint32_t> u, v; // v non-empty
    size_t size() const { return u.size() + v.size(); }
    uint32_t at(size_t i) const { return i < u.size() ? u[i] : v[i - u.size()]; }
    size_t next(size_t i) const { return i + 1 < size() ? i + 1 : u.size(); }
};

std::string show(const Lasso &w, size_t n_atoms)
{
    auto letter = [&](uint32_t l) {
        std::string s = "{";
        for (size_t a = 0; a < n_atoms; a++)
            if (l >> a & 1)
                s += (char)('a' + a);
        return s + "}";
    };
    std::string s = "u=";
    for (uint32_t l : w.u)
        s += letter(l);
    s += " v=";
    for (uint32_t l : w.v)
        s += letter(l);
    return s;
}

// Truth values at the positions of a word: bit i for position i (words have
// at most 64 positions).
using Bits = uint64_t;

int atom_index(const Atoms &atoms, const pn_fml_node *n)
{
    for (size_t i = 0; i < atoms.size(); i++)
        if (pn_fml_equal(atoms[i].get(), n))
            return (int)i;
    return -1;
}

// The truth of f at every position of w (position i: the suffix from i).
Bits eval(const pn_fml_node *f, const Lasso &w, const Atoms &atoms)
{
    size_t n = w.size();
    EXPECT_LE(n, 64u);
    Bits all = n == 64 ? ~0ULL : (1ULL << n) - 1, r = 0;
    auto at = [](Bits x, size_t i) -> bool { return x >> i & 1; };
    switch (f->kind) {
    case PN_FML_TRUE: return all;
    case PN_FML_FALSE: return 0;
    case PN_FML_NOT: return ~eval(f->kids[0], w, atoms) & all;
    case PN_FML_AND:
    case PN_FML_OR:
        r = f->kind == PN_FML_AND ? all : 0;
        for (uint32_t k = 0; k < f->n; k++)
            r = f->kind == PN_FML_AND ? r & eval(f->kids[k], w, atoms)
                                      : r | eval(f->kids[k], w, atoms);
        return r;
    case PN_FML_X: {
        Bits a = eval(f->kids[0], w, atoms);
        for (size_t i = 0; i < n; i++)
            r |= (Bits)at(a, w.next(i)) << i;
        return r;
    }
    case PN_FML_F:
    case PN_FML_G:
    case PN_FML_U: {
        // F b = lfp r. b | X r;  G a = gfp r. a & X r;  a U b = lfp r. b | (a & X r)
        Bits a = all, b = 0;
        if (f->kind == PN_FML_F)
            b = eval(f->kids[0], w, atoms);
        else if (f->kind == PN_FML_G)
            a = eval(f->kids[0], w, atoms);
        else {
            a = eval(f->kids[0], w, atoms);
            b = eval(f->kids[1], w, atoms);
        }
        bool greatest = f->kind == PN_FML_G;
        r = greatest ? all : 0;
        for (Bits old = ~r; old != r;) {
            old = r;
            for (size_t i = n; i-- > 0;) {
                bool x = greatest ? at(a, i) && at(r, w.next(i))
                                  : at(b, i) || (at(a, i) && at(r, w.next(i)));
                r = (r & ~(1ULL << i)) | (Bits)x << i;
            }
        }
        return r;
    }
    default: {
        int k = atom_index(atoms, f);
        if (k < 0) {
            ADD_FAILURE() << "the reference evaluator does not know " << show(f);
            return 0;
        }
        for (size_t i = 0; i < n; i++)
            r |= (Bits)(w.at(i) >> k & 1) << i;
        return r;
    }
    }
}

bool holds(const pn_fml_node *f, const Lasso &w, const Atoms &atoms)
{
    return eval(f, w, atoms) & 1;
}

// ---- automata and the reference acceptance check ------------------------------
// A finite structure: positions with successors (at least one each),
// position 0 initial, and the truth of the automaton's atoms at each.
struct Kripke {
    std::vector<uint32_t> off, dst; // successors of i: dst[off[i] .. off[i + 1])
    std::vector<uint64_t> val;      // bit i: atom i of the automaton
    size_t size() const { return val.size(); }
};

struct Automaton {
    ltl_formula f;
    ltl_buchi *b = nullptr;
    pn_status st = PN_OK;
    std::string msg;
    std::vector<uint64_t> pos, neg; // per state: the literals of its label

    Automaton(const pn_fml_node *psi, bool negate, uint32_t limit = 4096)
    {
        memset(&f, 0, sizeof f);
        pn_error err;
        pn_error_clear(&err);
        st = ltl_from_fml(psi, negate, &f, &err);
        if (st == PN_OK)
            st = ltl_buchi_build(&f, limit, nullptr, &b, &err);
        msg = err.msg;
        if (st != PN_OK || b == nullptr)
            return;
        EXPECT_LE(f.n_atoms, 64u);
        pos.assign(b->n_states, 0);
        neg.assign(b->n_states, 0);
        for (uint32_t q = 0; q < b->n_states; q++)
            for (uint32_t k = b->lit_off[q]; k < b->lit_off[q + 1]; k++) {
                EXPECT_LT(b->lit[k].atom, f.n_atoms);
                (b->lit[k].positive ? pos : neg)[q] |= 1ULL << b->lit[k].atom;
            }
    }
    ~Automaton()
    {
        ltl_buchi_free(b);
        ltl_formula_free(&f);
    }
    Automaton(const Automaton &) = delete;
    Automaton &operator=(const Automaton &) = delete;

    uint32_t edges() const { return b ? b->succ_off[b->n_states] : 0; }
    // The truth of each automaton atom for each letter over atoms.
    std::vector<uint64_t> letter_values(const Atoms &atoms) const
    {
        std::vector<uint64_t> out(1u << atoms.size(), 0);
        for (uint32_t l = 0; l < out.size(); l++) {
            Lasso w{{}, {l}};
            for (uint32_t a = 0; a < f.n_atoms; a++)
                if (holds(f.atoms[a], w, atoms))
                    out[l] |= 1ULL << a;
        }
        return out;
    }
};

// Does some run of b over some path of k (from position 0) visit every
// acceptance set infinitely often? Runs: q0 q1 ... with q0 initial, q(i+1) a
// successor of q(i), and position i satisfying q(i)'s label. The product
// (q, i) is searched by an iterative Tarjan (state graphs make it deep); an
// SCC with a cycle that meets every acceptance set is an accepting lasso.
bool accepts(const ltl_buchi *b, const std::vector<uint64_t> &pos, const std::vector<uint64_t> &neg,
             const Kripke &k)
{
    size_t n = k.size(), Q = b->n_states, N = n * Q;
    const uint64_t *val = k.val.data(), *pm = pos.data(), *nm = neg.data();
    const uint32_t *off = k.off.data(), *dst = k.dst.data();
    auto ok = [&](size_t q, size_t i) {
        return (val[i] & pm[q]) == pm[q] && (val[i] & nm[q]) == 0;
    };
    struct Frame {
        size_t x;
        uint32_t e, j; // cursors: automaton edge, structure successor
        bool self;
    };
    // Reused from call to call (millions of small products, also in -O0
    // sanitizer builds): a product state is unvisited unless its stamp is
    // this call's.
    static thread_local std::vector<uint64_t> stamp_v;
    static thread_local std::vector<size_t> index_v, low_v, stack_v;
    static thread_local std::vector<char> on_v, hit_v;
    static thread_local std::vector<Frame> frames_v;
    static thread_local uint64_t epoch = 0;
    if (stamp_v.size() < N) {
        stamp_v.resize(N, 0);
        index_v.resize(N);
        low_v.resize(N);
        stack_v.resize(N);
        on_v.resize(N);
        frames_v.resize(N);
    }
    hit_v.resize(b->n_acc + 1);
    epoch++;
    uint64_t *stamp = stamp_v.data();
    size_t *index = index_v.data(), *low = low_v.data(), *stack = stack_v.data();
    char *on = on_v.data(), *hit = hit_v.data();
    Frame *frames = frames_v.data();
    size_t counter = 0, sp = 0, fp = 0;
    auto push = [&](size_t x) {
        stamp[x] = epoch;
        index[x] = low[x] = counter++;
        stack[sp++] = x;
        on[x] = 1;
        frames[fp++] = {x, b->succ_off[x / n], 0, false};
    };
    for (size_t q0 = 0; q0 < Q; q0++) {
        if (!b->init[q0] || !ok(q0, 0) || stamp[q0 * n] == epoch)
            continue;
        push(q0 * n);
        while (fp > 0) {
            Frame *f = &frames[fp - 1];
            size_t q = f->x / n, i = f->x % n;
            if (f->e < b->succ_off[q + 1]) {
                uint32_t r = b->succ[f->e];
                uint32_t j = dst[off[i] + f->j];
                if (++f->j == off[i + 1] - off[i]) {
                    f->j = 0;
                    f->e++;
                }
                if (!ok(r, j))
                    continue;
                size_t y = r * n + j;
                f->self |= y == f->x;
                if (stamp[y] != epoch)
                    push(y);
                else if (on[y] && index[y] < low[f->x])
                    low[f->x] = index[y];
                continue;
            }
            size_t x = f->x;
            bool self = f->self;
            fp--;
            if (fp > 0 && low[x] < low[frames[fp - 1].x])
                low[frames[fp - 1].x] = low[x];
            if (low[x] != index[x])
                continue;
            memset(hit, 0, b->n_acc);
            size_t size = 0, y;
            do {
                y = stack[--sp];
                on[y] = 0;
                size++;
                for (uint32_t a = 0; a < b->n_acc; a++)
                    hit[a] |= b->acc[(y / n) * b->n_acc + a];
            } while (y != x);
            uint32_t met = 0;
            for (uint32_t a = 0; a < b->n_acc; a++)
                met += hit[a] != 0;
            if ((size > 1 || self) && met == b->n_acc)
                return true;
        }
    }
    return false;
}

bool accepts(const Automaton &A, const Kripke &k) { return accepts(A.b, A.pos, A.neg, k); }

void lasso_kripke(const Lasso &w, const std::vector<uint64_t> &letter_val, Kripke *k)
{
    k->off.clear();
    k->dst.clear();
    k->val.clear();
    for (size_t i = 0; i < w.size(); i++) {
        k->off.push_back((uint32_t)i);
        k->dst.push_back((uint32_t)w.next(i));
        k->val.push_back(letter_val[w.at(i)]);
    }
    k->off.push_back((uint32_t)w.size());
}

Kripke lasso_kripke(const Lasso &w, const std::vector<uint64_t> &letter_val)
{
    Kripke k;
    lasso_kripke(w, letter_val, &k);
    return k;
}

// ---- words --------------------------------------------------------------------
void all_strings(uint32_t letters, size_t len, std::vector<std::vector<uint32_t>> *out)
{
    std::vector<uint32_t> s(len, 0);
    for (;;) {
        out->push_back(s);
        size_t i = 0;
        while (i < len && ++s[i] == letters)
            s[i++] = 0;
        if (i == len)
            return;
    }
}

// Every u v^w with |u| <= 2 and 1 <= |v| <= 2 over 2^k letters, then n_random
// with |u| <= 5, 1 <= |v| <= 5.
std::vector<Lasso> words(size_t k, size_t n_random, std::mt19937 &rng)
{
    uint32_t letters = 1u << k;
    std::vector<std::vector<uint32_t>> us, vs;
    for (size_t len = 0; len <= 2; len++)
        all_strings(letters, len, &us);
    for (size_t len = 1; len <= 2; len++)
        all_strings(letters, len, &vs);
    std::vector<Lasso> out;
    for (const auto &u : us)
        for (const auto &v : vs)
            out.push_back({u, v});
    for (size_t r = 0; r < n_random; r++) {
        Lasso w;
        w.u.resize(rng() % 6);
        w.v.resize(1 + rng() % 5);
        for (auto &l : w.u)
            l = rng() % letters;
        for (auto &l : w.v)
            l = rng() % letters;
        out.push_back(w);
    }
    return out;
}

struct Tally {
    uint64_t formulas = 0, words = 0, max_states = 0, sum_states = 0;
};

// The automata of psi and of !psi against the reference on every word over
// the first k letter atoms.
void check_translation(const pn_fml_node *psi, size_t k, std::mt19937 &rng, Tally *t)
{
    ASSERT_NE(psi, nullptr);
    Atoms atoms;
    for (size_t i = 0; i < k; i++)
        atoms.emplace_back(pn_fml_clone(letter_atoms()[i].get()));
    Automaton pos(psi, false), neg(psi, true);
    ASSERT_EQ(pos.st, PN_OK) << show(psi) << ": " << pos.msg;
    ASSERT_EQ(neg.st, PN_OK) << "!" << show(psi) << ": " << neg.msg;
    for (uint32_t a = 0; a < pos.f.n_atoms; a++)
        EXPECT_TRUE(pn_fml_is_state(pos.f.atoms[a])) << show(pos.f.atoms[a]);
    // The tableau drops nodes holding a literal and its complement.
    for (const Automaton *A : {&pos, &neg})
        for (uint32_t q = 0; q < A->b->n_states; q++)
            EXPECT_EQ(A->pos[q] & A->neg[q], 0u) << show(psi) << ": state " << q
                                                 << " has a contradictory label";
    std::vector<uint64_t> vp = pos.letter_values(atoms), vn = neg.letter_values(atoms);
    int failures = 0;
    std::vector<Lasso> ws = words(k, 60, rng);
    Kripke kp, kn;
    for (const Lasso &w : ws) {
        bool expect = holds(psi, w, atoms);
        lasso_kripke(w, vp, &kp);
        lasso_kripke(w, vn, &kn);
        bool ap = accepts(pos, kp);
        bool an = accepts(neg, kn);
        if ((ap != expect || an == expect) && failures++ < 3)
            ADD_FAILURE() << "formula " << show(psi) << " on " << show(w, k) << ": holds "
                          << expect << ", automaton of psi (" << pos.b->n_states
                          << " states) accepts " << ap << ", automaton of !psi ("
                          << neg.b->n_states << " states) accepts " << an;
    }
    EXPECT_EQ(failures, 0) << show(psi) << ": " << failures << " of " << ws.size()
                           << " words misjudged";
    t->formulas++;
    t->words += ws.size();
    for (const Automaton *A : {&pos, &neg}) {
        t->max_states = std::max<uint64_t>(t->max_states, A->b->n_states);
        t->sum_states += A->b->n_states;
    }
}

// A random formula over atoms[0..k) with at most depth operators on any
// path; leaves are mostly atoms, sometimes true or false.
size_t atoms_used(const std::string &text)
{
    size_t k = 1;
    for (char c : text)
        if (c >= 'a' && c <= 'c') // "false" has an 'a': harmless
            k = std::max<size_t>(k, (size_t)(c - 'a' + 1));
    return k;
}

// ---- the reference itself ---------------------------------------------------
TEST(LtlReference, EvaluatorOnHandCheckedWords)
{
    const Atoms &at = letter_atoms();
    const uint32_t a = 1, b = 2, c = 4, none = 0;
    struct Case {
        const char *f;
        Lasso w;
        bool expect;
    };
    const Case cases[] = {
        {"a", {{a}, {none}}, true},
        {"a", {{}, {none, a}}, false},
        {"X a", {{none}, {a}}, true},
        {"X a", {{}, {none}}, false},
        {"X X a", {{}, {none, a}}, false},
        {"X X X a", {{}, {none, a}}, true},
        {"F a", {{none, none}, {none, a}}, true},
        {"F a", {{none, b}, {none}}, false},
        {"G a", {{a}, {a, a | b}}, true},
        {"G a", {{a}, {a, b}}, false},
        {"G F a", {{}, {a, none}}, true},
        {"F G a", {{}, {a, none}}, false},
        {"F G a", {{none, b}, {a}}, true},
        {"G F a", {{a, a}, {none}}, false},
        {"a U b", {{a, a}, {b}}, true},
        {"a U b", {{a, none}, {b}}, false},
        {"a U b", {{}, {a}}, false},
        {"a U b", {{b}, {none}}, true},
        {"a U (b U c)", {{a, b}, {c}}, true},
        {"a U (b U c)", {{a, b}, {none}}, false},
        {"!(a U b)", {{}, {a}}, true},
        {"G(a -> F b)", {{}, {a, none, b}}, true},
        {"G(a -> F b)", {{b}, {a, none}}, false},
        {"G(a -> X b)", {{}, {a | b}}, true},
        {"(a | b | c) & !(a & c)", {{}, {b | c}}, true},
    };
    for (const Case &t : cases) {
        Fml f = parse_letters(t.f);
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(holds(f.get(), t.w, at), t.expect) << t.f << " on " << show(t.w, 3);
    }
    // Every position is decided, also those of the loop.
    Fml gfa = parse_letters("F a");
    Bits r = eval(gfa.get(), Lasso{{none, a}, {none, b}}, at);
    EXPECT_EQ(r, 0x3u); // positions 0 and 1
}

// The acceptance check on an automaton built by hand.
TEST(LtlReference, AcceptanceOnHandBuiltAutomata)
{
    // G F a: q0 (any letter), q1 (a), complete, both initial, accepting {q1}.
    uint32_t succ_off[] = {0, 2, 4};
    uint32_t succ[] = {0, 1, 0, 1};
    uint32_t lit_off[] = {0, 0, 1};
    ltl_lit lit[] = {{0, true}};
    uint8_t init[] = {1, 1};
    uint8_t acc[] = {0, 1};
    ltl_buchi gfa = {2, 1, succ_off, succ, lit_off, lit, init, acc};
    std::vector<uint64_t> pos = {0, 1}, neg = {0, 0};
    std::vector<uint64_t> val = {0, 1}; // letter 1 (a): atom 0
    EXPECT_TRUE(accepts(&gfa, pos, neg, lasso_kripke({{}, {0, 1}}, val)));
    EXPECT_TRUE(accepts(&gfa, pos, neg, lasso_kripke({{0, 0}, {1}}, val)));
    EXPECT_FALSE(accepts(&gfa, pos, neg, lasso_kripke({{1, 1}, {0}}, val)));
    // No acceptance set: any infinite run.
    gfa.n_acc = 0;
    EXPECT_TRUE(accepts(&gfa, pos, neg, lasso_kripke({{1, 1}, {0}}, val)));
    // F G a: q0 (any) -> q0, q1; q1 (a) -> q1; q0 initial; accepting {q1}.
    uint32_t succ_off2[] = {0, 2, 3};
    uint32_t succ2[] = {0, 1, 1};
    uint8_t init2[] = {1, 0};
    ltl_buchi fga = {2, 1, succ_off2, succ2, lit_off, lit, init2, acc};
    EXPECT_TRUE(accepts(&fga, pos, neg, lasso_kripke({{0, 0}, {1}}, val)));
    EXPECT_FALSE(accepts(&fga, pos, neg, lasso_kripke({{}, {1, 0}}, val)));
    // q1 initial only, label !a: the first letter must not be a.
    uint8_t init3[] = {0, 1};
    ltl_lit nlit[] = {{0, false}};
    ltl_buchi only = {2, 0, succ_off2, succ2, lit_off, nlit, init3, acc};
    std::vector<uint64_t> pos3 = {0, 0}, neg3 = {0, 1};
    EXPECT_TRUE(accepts(&only, pos3, neg3, lasso_kripke({{}, {0}}, val)));
    EXPECT_FALSE(accepts(&only, pos3, neg3, lasso_kripke({{0}, {0, 1}}, val)));
    // Two acceptance sets, never met in one cycle.
    uint8_t acc2[] = {1, 0, 0, 1}; // q0 in set 0, q1 in set 1
    ltl_buchi two = {2, 2, succ_off2, succ2, lit_off, lit, init2, acc2};
    EXPECT_FALSE(accepts(&two, pos, neg, lasso_kripke({{}, {1}}, val)));
    EXPECT_FALSE(accepts(&two, pos, neg, lasso_kripke({{}, {0, 1}}, val)));
}

// ---- the translation ------------------------------------------------------------
/* A fuzz finding (tests/fuzz/regressions/rers/timeout-df62...):
 * (((a -> b) | (c W a)) W ((b W (c W a)) W ((b W a) | F a) | F a)) with
 * x W y written (x U y) | G x. Merging finished tableau nodes on all of old
 * gave its negation 3,064 states and took 68 s under ASan. */
const char *const kNestedWeakUntil =
    "(((a -> b) | ((c U a) | G c)) U (((((b U ((c U a) | G c)) | G b) U (((b U a) | G b) | F a)) | G ((b U ((c U a) | G c)) | G b)) | F a)) | G ((a -> b) | ((c U a) | G c))";

const char *const kHandFormulas[] = {
    "a",
    "!a",
    "true",
    "false",
    "a & b & c",
    "X a",
    "X X a",
    "X X X b",
    "!X a",
    "X !X a",
    "F a",
    "G a",
    "!F a",
    "!G a",
    "F F a",
    "G G a",
    "G F a",
    "F G a",
    "G F G a",
    "F G F a",
    "G F a & G F b",
    "F G a | F G b",
    "!(G F a -> G F b)",
    "a U b",
    "!(a U b)",
    "a U (b U c)",
    "(a U b) U c",
    "((a U b) U c) U a",
    "true U a",
    "false U a",
    "a U false",
    "a U true",
    "G(a -> F b)",
    "G(a -> X b)",
    "G(a -> (b U c))",
    "F(a & X b)",
    "G(a | X G b)",
    "F a U G b",
    "F(a U G b)",
    "G(F a & F !a)",
    "(a U b) & (!a U c)",
    "X(a U X b)",
    "!(X a U !b)",
    "G(a U b) | F c",
    "F G(a | X b)",
    "G (a & b & c)",
    "X (a | b | c)",
    "!(a -> X F(b & !c))",
    "G(a -> X(!a U b))",
    "(G a -> F b) & (F c | X G !b)",
    kNestedWeakUntil,
};

TEST(LtlTranslation, HandWrittenFormulasAgreeWithTheReference)
{
    std::mt19937 rng(12345);
    Tally t;
    for (const char *text : kHandFormulas) {
        SCOPED_TRACE(text);
        Fml f = parse_letters(text);
        ASSERT_NE(f, nullptr);
        check_translation(f.get(), atoms_used(text), rng, &t);
    }
    RecordProperty("formulas", (int)t.formulas);
    RecordProperty("max_states", (int)t.max_states);
    printf("hand-written: %llu formulas, %llu words each way, automata: max %llu states, "
           "avg %.1f\n",
           (unsigned long long)t.formulas, (unsigned long long)t.words,
           (unsigned long long)t.max_states, (double)t.sum_states / (2.0 * (double)t.formulas));
}

TEST(LtlTranslation, RandomFormulasAgreeWithTheReference)
{
    std::mt19937 rng(20240611);
    Tally t;
    for (int i = 0; i < 200; i++) {
        size_t k = i < 100 ? 2 : 3;
        Fml f(random_formula(rng, letter_atoms(), k, 4));
        ASSERT_NE(f, nullptr);
        SCOPED_TRACE("random formula " + std::to_string(i) + ": " + show(f.get()));
        check_translation(f.get(), k, rng, &t);
        if (HasFatalFailure())
            return;
    }
    printf("random: %llu formulas, %llu words each way, automata: max %llu states, avg %.1f\n",
           (unsigned long long)t.formulas, (unsigned long long)t.words,
           (unsigned long long)t.max_states, (double)t.sum_states / (2.0 * (double)t.formulas));
}

// The tableau merges finished nodes with equal labels, acceptance and next
// (ltl_gba.c): on nested weak untils that keeps the automaton small. The
// language is checked with the hand-written formulas above.
TEST(LtlTranslation, NestedWeakUntilStaysSmall)
{
    Fml f = parse_letters(kNestedWeakUntil);
    ASSERT_NE(f, nullptr);
    Automaton pos(f.get(), false), neg(f.get(), true);
    ASSERT_EQ(pos.st, PN_OK) << pos.msg;
    ASSERT_EQ(neg.st, PN_OK) << neg.msg;
    printf("nested W: %u states, negation %u states\n", pos.b->n_states, neg.b->n_states);
    EXPECT_LE(pos.b->n_states, 200u);
    EXPECT_LE(neg.b->n_states, 1500u);
}

TEST(LtlTranslation, NnfSharesSubformulasAndAtoms)
{
    Fml f = parse_letters("(a U b) & X(a U b) & F(a & b) & G !a & F a");
    ASSERT_NE(f, nullptr);
    ltl_formula l;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(ltl_from_fml(f.get(), false, &l, &err), PN_OK) << err.msg;
    // a, b and the state formula a & b, each once; !a is either the literal
    // of a or (being a state formula) an atom of its own.
    EXPECT_GE(l.n_atoms, 3u);
    EXPECT_LE(l.n_atoms, 4u);
    for (uint32_t i = 0; i < l.n_atoms; i++) {
        EXPECT_TRUE(pn_fml_is_state(l.atoms[i])) << show(l.atoms[i]);
        for (uint32_t j = i + 1; j < l.n_atoms; j++)
            EXPECT_FALSE(pn_fml_equal(l.atoms[i], l.atoms[j])) << "atoms " << i << ", " << j;
    }
    uint32_t untils = 0;
    for (uint32_t i = 0; i < l.count; i++)
        untils += l.n[i].kind == LT_U && l.n[l.n[i].a].kind == LT_AP;
    EXPECT_EQ(untils, 1u); // a U b, shared by both occurrences
    for (uint32_t i = 0; i < l.count; i++)
        for (uint32_t j = i + 1; j < l.count; j++)
            EXPECT_FALSE(l.n[i].kind == l.n[j].kind && l.n[i].a == l.n[j].a && l.n[i].b == l.n[j].b)
                << "nodes " << i << " and " << j << " are equal";
    EXPECT_LT(l.root, l.count);
    ltl_formula_free(&l);
}

TEST(LtlTranslation, NestedPathQuantifiersAreUnsupported)
{
    for (const char *inner : {"E", "A"}) {
        Fml g(pn_fml_unary(inner[0] == 'E' ? PN_FML_E : PN_FML_A,
                           pn_fml_unary(PN_FML_G, letter_atom(0))));
        Fml f(pn_fml_unary(PN_FML_F, g.release()));
        ASSERT_NE(f, nullptr);
        for (bool negate : {false, true}) {
            ltl_formula l;
            pn_error err;
            pn_error_clear(&err);
            EXPECT_EQ(ltl_from_fml(f.get(), negate, &l, &err), PN_ERR_UNSUPPORTED) << show(f.get());
            EXPECT_NE(err.msg[0], '\0');
            ltl_formula_free(&l);
        }
    }
}

// Formulas of more than 64 and 128 NNF nodes (bitsets of several words),
// and one-kid AND / OR nodes.
TEST(LtlTranslation, LongFormulasAndOneKidConnectives)
{
    std::mt19937 rng(99);
    Tally t;
    auto xs = [](int n, const char *a) {
        std::string s;
        for (int i = 0; i < n; i++)
            s += "X ";
        return s + a;
    };
    // Both polarities stay linear in the X chains.
    std::vector<std::string> texts = {
        xs(70, "a") + " | " + xs(69, "b"),
        xs(130, "(a U b)") + " & F " + xs(2, "G b"),
        xs(66, "G a") + " | " + xs(3, "F b"),
    };
    for (const std::string &text : texts) {
        Fml f = parse_letters(text);
        ASSERT_NE(f, nullptr);
        ltl_formula l;
        pn_error err;
        pn_error_clear(&err);
        ASSERT_EQ(ltl_from_fml(f.get(), false, &l, &err), PN_OK) << err.msg;
        EXPECT_GT(l.count, 64u) << text;
        ltl_formula_free(&l);
        SCOPED_TRACE(text.substr(0, 60));
        check_translation(f.get(), 2, rng, &t);
    }
    // Random formulas behind 62 X, and beside them (never under a U or R:
    // the tableau of !h R X^62 g is exponential in the chain).
    for (int i = 0; i < 6; i++) {
        pn_fml_node *g = random_formula(rng, letter_atoms(), 2, 3);
        for (int k = 0; k < 62; k++)
            g = pn_fml_unary(PN_FML_X, g);
        pn_fml_node *h = random_formula(rng, letter_atoms(), 2, 3);
        Fml f(pn_fml_binary(i % 2 ? PN_FML_OR : PN_FML_AND, i % 3 ? g : h, i % 3 ? h : g));
        ASSERT_NE(f, nullptr);
        SCOPED_TRACE(show(f.get()));
        check_translation(f.get(), 2, rng, &t);
    }
    // AND / OR with a single kid.
    for (pn_fml_kind k : {PN_FML_AND, PN_FML_OR}) {
        pn_fml_node *kid = parse_letters("a U X b").release();
        Fml f(pn_fml_unary(PN_FML_G, pn_fml_nary(k, &kid, 1)));
        ASSERT_NE(f, nullptr);
        check_translation(f.get(), 2, rng, &t);
    }
}

TEST(LtlTranslation, StateLimitIsReported)
{
    // G F a & G F b & G F c & F G (a | b): more than 4 tableau nodes.
    Fml f = parse_letters("G F a & G F b & G F c & F G(a | b)");
    ASSERT_NE(f, nullptr);
    ltl_formula l;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(ltl_from_fml(f.get(), false, &l, &err), PN_OK) << err.msg;
    ltl_buchi *b = nullptr;
    EXPECT_EQ(ltl_buchi_build(&l, 4, nullptr, &b, &err), PN_ERR_UNSUPPORTED);
    EXPECT_EQ(b, nullptr);
    ltl_buchi_free(b);
    pn_error_clear(&err);
    EXPECT_EQ(ltl_buchi_build(&l, 4096, nullptr, &b, &err), PN_OK) << err.msg;
    ASSERT_NE(b, nullptr);
    EXPECT_GT(b->n_states, 4u);
    EXPECT_EQ(b->n_acc, 4u); // one per U: three F and the F of F G
    ltl_buchi_free(b);
    ltl_formula_free(&l);
}

// ---- pn_ltl_check on nets ---------------------------------------------------------
struct Arc {
    const char *place, *trans;
    bool to_trans;
    uint64_t weight;
};

struct Model {
    std::unique_ptr<pn_net, NetDeleter> net;
    std::unique_ptr<pn_cnet, CnetDeleter> cn;
    pn_engine_result res;
    Atoms atoms; // the reference's letter atoms for this net
    Model() { memset(&res, 0, sizeof res); }
    ~Model() { pn_engine_result_free(&res); }
    Model(const Model &) = delete;
    Model &operator=(const Model &) = delete;
    // {cn, graph, store, layout}, no memory budget, deadline or cancel flag.
    pn_ctl_model ctl()
    {
        pn_ctl_model m;
        memset(&m, 0, sizeof m);
        m.cn = cn.get();
        m.graph = res.graph;
        m.store = res.store;
        m.layout = res.layout;
        return m;
    }
    uint64_t states() const { return res.graph ? res.graph->n_states : 0; }
};

// Compiles m->net and explores it with the state graph and the states kept.
void explore(Model *m)
{
    pn_error err;
    pn_error_clear(&err);
    pn_cnet *cn = nullptr;
    EXPECT_EQ(pn_cnet_compile(m->net.get(), &cn, &err), PN_OK) << err.msg;
    m->cn.reset(cn);
    if (cn == nullptr)
        return;
    pn_engine_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    o.record_graph = true;
    o.keep_states = true;
    EXPECT_EQ(pn_explore(cn, &o, &m->res, &err), PN_OK) << err.msg;
    EXPECT_EQ(m->res.status, PN_RUN_COMPLETE);
    EXPECT_NE(m->res.graph, nullptr);
    EXPECT_NE(m->res.store, nullptr);
}

// Places (id, initial tokens) and transitions by id, arcs by id; explored
// with the state graph and the states kept. Atoms of the formulas: letter
// 'a' + i is "place i holds a token", digit i is fireable(transition i), z
// is deadlock.
std::unique_ptr<Model> make(const std::vector<std::pair<const char *, uint64_t>> &places,
                            const std::vector<const char *> &transitions,
                            const std::vector<Arc> &arcs)
{
    pn_error err;
    pn_error_clear(&err);
    std::unique_ptr<Model> m(new Model);
    m->net.reset(pn_net_new("ltl"));
    for (const auto &p : places)
        EXPECT_GE(pn_net_add_place(m->net.get(), p.first, nullptr, p.second, &err), 0) << err.msg;
    for (const char *t : transitions)
        EXPECT_GE(pn_net_add_transition(m->net.get(), t, nullptr, &err), 0) << err.msg;
    for (const Arc &a : arcs)
        EXPECT_EQ(pn_net_add_arc(m->net.get(), (uint32_t)pn_net_find_place(m->net.get(), a.place),
                                 (uint32_t)pn_net_find_transition(m->net.get(), a.trans),
                                 a.to_trans, a.weight, &err),
                  PN_OK)
            << err.msg;
    explore(m.get());
    if (m->res.graph == nullptr)
        return m;
    for (uint32_t p = 0; p < places.size() && p < 3; p++)
        m->atoms.emplace_back(pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1),
                                            pn_fml_list(PN_FML_TOKENS, &p, 1)));
    for (uint32_t t = 0; t < transitions.size() && t < 2; t++)
        m->atoms.emplace_back(pn_fml_list(PN_FML_FIREABLE, &t, 1));
    m->atoms.emplace_back(pn_fml_leaf(PN_FML_DEADLOCK));
    return m;
}

pn_fml_node *net_atom(char c)
{
    if (c == 'z')
        return pn_fml_leaf(PN_FML_DEADLOCK);
    uint32_t i = isdigit((unsigned char)c) ? (uint32_t)(c - '0') : (uint32_t)(c - 'a');
    if (isdigit((unsigned char)c))
        return pn_fml_list(PN_FML_FIREABLE, &i, 1);
    return pn_fml_binary(PN_FML_INT_LE, pn_fml_const(1), pn_fml_list(PN_FML_TOKENS, &i, 1));
}

Fml parse_net(const std::string &text)
{
    Fml f(Parser(text, net_atom).parse());
    EXPECT_NE(f, nullptr) << "cannot parse " << text;
    return f;
}

// pn_ltl_check of phi.
pn_status ltl_check(Model &m, const pn_fml_node *phi, bool *value, pn_ltl_stats *stats = nullptr,
                    std::string *msg = nullptr)
{
    pn_ctl_model cm = m.ctl();
    pn_error err;
    pn_error_clear(&err);
    pn_status st = pn_ltl_check(&cm, phi, value, stats, &err);
    if (msg)
        *msg = err.msg;
    return st;
}

// A(text): its value, failing the test when it cannot be checked.
bool A(Model &m, const std::string &text)
{
    Fml phi(pn_fml_unary(PN_FML_A, parse_net(text).release()));
    bool v = false;
    std::string msg;
    EXPECT_EQ(ltl_check(m, phi.get(), &v, nullptr, &msg), PN_OK) << "A(" << text << "): " << msg;
    return v;
}

#define EXPECT_LTL(m, text, v) EXPECT_EQ(A(*(m), text), (v)) << "A(" << (text) << ")"

// The state graph as a structure for the reference: deadlocks stutter; the
// automaton's atoms evaluated by pn_fml_eval_state on the unpacked markings.
Kripke graph_kripke(const Model &m, const ltl_formula &f)
{
    Kripke k;
    const pn_graph *g = m.res.graph;
    const pn_prog *prog = &m.res.layout->prog;
    std::vector<uint64_t> mk(prog->n_places + 1);
    for (uint64_t s = 0; s < g->n_states; s++) {
        k.off.push_back((uint32_t)k.dst.size());
        k.dst.insert(k.dst.end(), g->dst + g->off[s], g->dst + g->off[s + 1]);
        if (g->off[s] == g->off[s + 1])
            k.dst.push_back((uint32_t)s);
        pn_state_unpack(prog, m.res.store + s * prog->words, mk.data());
        uint64_t val = 0;
        for (uint32_t a = 0; a < f.n_atoms; a++)
            if (pn_fml_eval_state(f.atoms[a], m.cn.get(), mk.data()))
                val |= 1ULL << a;
        k.val.push_back(val);
    }
    k.off.push_back((uint32_t)k.dst.size());
    return k;
}

// The reference answer for A(psi): no path violates psi.
bool reference_A(const Model &m, const pn_fml_node *psi)
{
    Automaton neg(psi, true);
    EXPECT_EQ(neg.st, PN_OK) << neg.msg;
    if (neg.st != PN_OK)
        return false;
    return !accepts(neg, graph_kripke(m, neg.f));
}

// The letters (over m.atoms) of every state.
std::vector<uint32_t> state_letters(const Model &m)
{
    const pn_graph *g = m.res.graph;
    const pn_prog *prog = &m.res.layout->prog;
    std::vector<uint64_t> mk(prog->n_places + 1);
    std::vector<uint32_t> out;
    for (uint64_t s = 0; s < g->n_states; s++) {
        pn_state_unpack(prog, m.res.store + s * prog->words, mk.data());
        uint32_t l = 0;
        for (size_t a = 0; a < m.atoms.size(); a++)
            if (pn_fml_eval_state(m.atoms[a].get(), m.cn.get(), mk.data()))
                l |= 1u << a;
        out.push_back(l);
    }
    return out;
}

// The lasso paths of the graph from state 0 (deadlocks stutter) with at most
// max_len states in prefix and loop together, as words over m.atoms.
std::vector<Lasso> graph_lassos(const Model &m, size_t max_len)
{
    const pn_graph *g = m.res.graph;
    std::vector<uint32_t> letters = state_letters(m);
    auto succ = [&](uint32_t s) {
        std::vector<uint32_t> out(g->dst + g->off[s], g->dst + g->off[s + 1]);
        if (out.empty())
            out.push_back(s);
        return out;
    };
    std::vector<Lasso> out;
    std::vector<uint32_t> path = {0};
    std::function<void()> extend = [&] {
        for (uint32_t t : succ(path.back())) {
            for (size_t l = 0; l < path.size(); l++)
                if (path[l] == t) {
                    Lasso w;
                    for (size_t i = 0; i < path.size(); i++)
                        (i < l ? w.u : w.v).push_back(letters[path[i]]);
                    out.push_back(w);
                }
            if (path.size() < max_len) {
                path.push_back(t);
                extend();
                path.pop_back();
            }
        }
    };
    extend();
    return out;
}

std::unique_ptr<Model> cycle2()
{
    return make({{"a", 1}, {"b", 0}}, {"t0", "t1"},
                {{"a", "t0", true, 1}, {"b", "t0", false, 1}, {"b", "t1", true, 1},
                 {"a", "t1", false, 1}});
}

// {a} -t0-> {b}, a deadlock.
std::unique_ptr<Model> chain()
{
    return make({{"a", 1}, {"b", 0}}, {"t0"}, {{"a", "t0", true, 1}, {"b", "t0", false, 1}});
}

// The initial marking is a deadlock: t0 needs a token in a.
std::unique_ptr<Model> dead()
{
    return make({{"a", 0}, {"b", 1}}, {"t0"}, {{"a", "t0", true, 1}, {"b", "t0", false, 1}});
}

// a -t0-> b or a -t1-> c, two deadlocks.
std::unique_ptr<Model> fork()
{
    return make({{"a", 1}, {"b", 0}, {"c", 0}}, {"t0", "t1"},
                {{"a", "t0", true, 1}, {"b", "t0", false, 1}, {"a", "t1", true, 1},
                 {"c", "t1", false, 1}});
}

// a <-> b (t0, t1), b -t2-> c, c <-> d (t3, t4): a cycle that can be left
// for another cycle.
std::unique_ptr<Model> lollipop()
{
    return make({{"a", 1}, {"b", 0}, {"c", 0}, {"d", 0}}, {"t0", "t1", "t2", "t3", "t4"},
                {{"a", "t0", true, 1}, {"b", "t0", false, 1}, {"b", "t1", true, 1},
                 {"a", "t1", false, 1}, {"b", "t2", true, 1}, {"c", "t2", false, 1},
                 {"c", "t3", true, 1}, {"d", "t3", false, 1}, {"d", "t4", true, 1},
                 {"c", "t4", false, 1}});
}

// Two tokens moving a -> b -> c, either one first; c keeps them (a
// deadlock at {c:2}), and t3 puts one of b's back on a.
std::unique_ptr<Model> tokens()
{
    return make({{"a", 2}, {"b", 0}, {"c", 0}}, {"t0", "t1", "t2"},
                {{"a", "t0", true, 1}, {"b", "t0", false, 1}, {"b", "t1", true, 1},
                 {"c", "t1", false, 1}, {"b", "t2", true, 2}, {"a", "t2", false, 1},
                 {"b", "t2", false, 1}});
}

// Every hand-made model above, for the tests that sweep over all of them.
std::vector<std::unique_ptr<Model>> hand_models()
{
    std::vector<std::unique_ptr<Model>> models;
    models.push_back(cycle2());
    models.push_back(chain());
    models.push_back(dead());
    models.push_back(fork());
    models.push_back(lollipop());
    models.push_back(tokens());
    return models;
}

TEST(LtlCheck, CycleOfTwoStates)
{
    auto m = cycle2();
    ASSERT_EQ(m->states(), 2u);
    EXPECT_LTL(m, "G F a", true);
    EXPECT_LTL(m, "G F b", true);
    EXPECT_LTL(m, "F G a", false);
    EXPECT_LTL(m, "F G b", false);
    EXPECT_LTL(m, "G(a | b)", true);
    EXPECT_LTL(m, "G a", false);
    EXPECT_LTL(m, "a", true);
    EXPECT_LTL(m, "b", false);
    EXPECT_LTL(m, "X b", true);
    EXPECT_LTL(m, "X X a", true);
    EXPECT_LTL(m, "X X b", false);
    EXPECT_LTL(m, "a U b", true);
    EXPECT_LTL(m, "b U a", true);
    EXPECT_LTL(m, "X(b U a)", true);
    EXPECT_LTL(m, "X(a U b)", true);
    EXPECT_LTL(m, "X a U b", false); // (X a) U b: neither holds at {a}
    EXPECT_LTL(m, "X b U a", true);
    EXPECT_LTL(m, "G(a -> X b)", true);
    EXPECT_LTL(m, "G(a -> X a)", false);
    EXPECT_LTL(m, "G(0 -> a) & G(a -> 0) & G(1 -> b)", true);
    EXPECT_LTL(m, "G !z", true); // never a deadlock
    EXPECT_LTL(m, "true", true);  // the automaton of the negation is empty
    EXPECT_LTL(m, "false", false);
    EXPECT_LTL(m, "G true", true);
    EXPECT_LTL(m, "F false", false);
    EXPECT_LTL(m, "X true", true);
    EXPECT_LTL(m, "!(G F a)", false);
    EXPECT_LTL(m, "G F a -> G F b", true);
    pn_ltl_stats stats;
    memset(&stats, 0, sizeof stats);
    Fml phi(pn_fml_unary(PN_FML_A, parse_net("G F a").release()));
    bool v = false;
    ASSERT_EQ(ltl_check(*m, phi.get(), &v, &stats), PN_OK);
    EXPECT_TRUE(v);
    EXPECT_GE(stats.automaton_states, 1u);
    EXPECT_EQ(stats.acceptance_sets, 1u);
    EXPECT_EQ(stats.atoms, 1u);
    EXPECT_GE(stats.product_states, 1u);
    EXPECT_LE(stats.product_states, 2u * stats.automaton_states);
}

// docs/semantics.md: a finite maximal path repeats its deadlock forever.
TEST(LtlCheck, DeadlockStutters)
{
    auto m = chain(); // {a} -> {b}, a deadlock
    ASSERT_EQ(m->states(), 2u);
    EXPECT_LTL(m, "X b", true);
    EXPECT_LTL(m, "X X b", true);
    EXPECT_LTL(m, "X X X b", true);
    EXPECT_LTL(m, "X X !a", true);
    EXPECT_LTL(m, "X a", false);
    EXPECT_LTL(m, "!X a", true); // !X a = X !a
    EXPECT_LTL(m, "X !a", true);
    EXPECT_LTL(m, "F G b", true);
    EXPECT_LTL(m, "G F b", true);
    EXPECT_LTL(m, "G F a", false);
    EXPECT_LTL(m, "F(b & X b)", true);
    EXPECT_LTL(m, "F(b & X !b)", false);
    EXPECT_LTL(m, "G(b -> X b)", true);
    EXPECT_LTL(m, "G(b -> G b)", true);
    EXPECT_LTL(m, "a U b", true);
    EXPECT_LTL(m, "a U G b", true);
    EXPECT_LTL(m, "F G z", true); // deadlock from step 1 on
    EXPECT_LTL(m, "X z & !z", true);
    EXPECT_LTL(m, "G z", false);
    EXPECT_LTL(m, "F 0", true);    // t0 fireable at the start
    EXPECT_LTL(m, "X F 0", false);
}

TEST(LtlCheck, InitialDeadlockStutters)
{
    auto m = dead(); // one state: a empty, b marked, nothing enabled
    ASSERT_EQ(m->states(), 1u);
    EXPECT_LTL(m, "X a", false);
    EXPECT_LTL(m, "X b", true);
    EXPECT_LTL(m, "X !a", true);
    EXPECT_LTL(m, "!X a", true);
    EXPECT_LTL(m, "X X b", true);
    EXPECT_LTL(m, "G b", true);
    EXPECT_LTL(m, "G a", false);
    EXPECT_LTL(m, "F a", false);
    EXPECT_LTL(m, "G F b", true);
    EXPECT_LTL(m, "F G b", true);
    EXPECT_LTL(m, "a U b", true);
    EXPECT_LTL(m, "b U a", false);
    EXPECT_LTL(m, "!(b U a)", true);
    EXPECT_LTL(m, "G !0 & G z", true);
    EXPECT_LTL(m, "F !z", false);
}

TEST(LtlCheck, BranchesAndUnsupportedShapes)
{
    auto m = fork();
    ASSERT_EQ(m->states(), 3u);
    EXPECT_LTL(m, "F b", false);
    EXPECT_LTL(m, "F c", false);
    EXPECT_LTL(m, "F(b | c)", true);
    EXPECT_LTL(m, "X(b | c)", true);
    EXPECT_LTL(m, "F G b | F G c", true);
    EXPECT_LTL(m, "G F b", false);
    EXPECT_LTL(m, "!b U (b | c)", true);
    EXPECT_LTL(m, "a U X G(b | c)", true);
    EXPECT_LTL(m, "(0 & 1) U !a", true);

    bool v = true;
    std::string msg;
    Fml ef(pn_fml_unary(PN_FML_E, parse_net("F b").release()));
    EXPECT_EQ(ltl_check(*m, ef.get(), &v, nullptr, &msg), PN_ERR_UNSUPPORTED);
    EXPECT_FALSE(msg.empty());
    Fml state = parse_net("a & !b");
    EXPECT_EQ(ltl_check(*m, state.get(), &v, nullptr, &msg), PN_ERR_UNSUPPORTED);
    Fml g(pn_fml_unary(PN_FML_G, parse_net("b").release()));
    Fml nested(pn_fml_unary(PN_FML_A, pn_fml_unary(PN_FML_F, pn_fml_unary(PN_FML_E, g.release()))));
    EXPECT_EQ(ltl_check(*m, nested.get(), &v, nullptr, &msg), PN_ERR_UNSUPPORTED);
    EXPECT_FALSE(msg.empty());
}

TEST(LtlCheck, LollipopAndTokens)
{
    auto l = lollipop();
    ASSERT_EQ(l->states(), 4u);
    EXPECT_LTL(l, "G F a", false); // a <-> b forever, or leave for c <-> d
    EXPECT_LTL(l, "G F(a | c)", true);
    EXPECT_LTL(l, "F G(c | d)", false);
    EXPECT_LTL(l, "F c -> F G(c | d)", true);
    EXPECT_LTL(l, "G(c -> X d)", true);
    EXPECT_LTL(l, "G(b -> X(a | c))", true);
    EXPECT_LTL(l, "(a | b) U c", false);
    auto t = tokens();
    EXPECT_LTL(t, "F G c", false); // t2 can cycle a token forever
    EXPECT_LTL(t, "G(c -> G c)", true);
    EXPECT_LTL(t, "G F !a | F G !b", true);
}

// A product that does not fit the memory budget is reported, not guessed.
TEST(LtlCheck, MemoryBudgetIsReported)
{
    auto m = lollipop();
    Fml phi(pn_fml_unary(PN_FML_A, parse_net("G F a").release()));
    pn_ctl_model cm = m->ctl();
    pn_budget one_byte = pn_budget_make(0, nullptr, 1), unlimited = pn_budget_make(0, nullptr, 0);
    cm.budget = &one_byte;
    pn_error err;
    pn_error_clear(&err);
    bool v = true;
    EXPECT_EQ(pn_ltl_check(&cm, phi.get(), &v, nullptr, &err), PN_ERR_OUT_OF_MEMORY);
    EXPECT_NE(err.msg[0], '\0');
    cm.budget = &unlimited;
    pn_error_clear(&err);
    EXPECT_EQ(pn_ltl_check(&cm, phi.get(), &v, nullptr, &err), PN_OK) << err.msg;
    EXPECT_FALSE(v);
}

// pn_ltl_check against the reference product (automaton of the code under
// test, verified above; markings by pn_fml_eval_state; the graph's
// successors), and one-sided against short lasso paths of the graph judged
// by the reference evaluator alone: one violating lasso makes A(psi) false.
TEST(LtlCheck, RandomFormulasAgreeWithTheReferenceProduct)
{
    std::mt19937 rng(7);
    std::vector<std::unique_ptr<Model>> models = hand_models();
    uint64_t checks = 0, trues = 0, witnessed = 0;
    for (size_t mi = 0; mi < models.size(); mi++) {
        Model &m = *models[mi];
        ASSERT_NE(m.res.graph, nullptr);
        std::vector<Lasso> lassos = graph_lassos(m, 6);
        for (int i = 0; i < 40; i++) {
            Fml psi(random_formula(rng, m.atoms, m.atoms.size(), 1 + i % 4));
            Fml phi(pn_fml_unary(PN_FML_A, pn_fml_clone(psi.get())));
            ASSERT_NE(phi, nullptr);
            bool v = false;
            std::string msg;
            pn_ltl_stats stats;
            ASSERT_EQ(ltl_check(m, phi.get(), &v, &stats, &msg), PN_OK)
                << show(phi.get()) << ": " << msg;
            bool expect = reference_A(m, psi.get());
            EXPECT_EQ(v, expect) << "model " << mi << ": " << show(phi.get());
            bool violated = false;
            for (const Lasso &w : lassos)
                if (!holds(psi.get(), w, m.atoms)) {
                    violated = true;
                    EXPECT_FALSE(v) << "model " << mi << ": " << show(phi.get())
                                    << " is violated by the path " << show(w, m.atoms.size());
                    break;
                }
            checks++;
            trues += v;
            witnessed += violated;
        }
    }
    printf("%llu checks, %llu true, %llu false with a short lasso witness\n",
           (unsigned long long)checks, (unsigned long long)trues,
           (unsigned long long)witnessed);
}

// A G phi, A F phi and A(phi U psi) for state formulas mean the same in LTL
// (deadlocks stuttering) and CTL (maximal paths).
TEST(LtlCheck, AgreesWithCtlWhereTheyCoincide)
{
    std::vector<std::unique_ptr<Model>> models = hand_models();
    const char *shapes[] = {"G x", "F x", "x U y", "G(x | y)", "F(x & !y)", "!x U y"};
    for (size_t mi = 0; mi < models.size(); mi++) {
        Model &m = *models[mi];
        for (size_t x = 0; x < m.atoms.size(); x++)
            for (size_t y = 0; y < m.atoms.size(); y++)
                for (const char *shape : shapes) {
                    auto atom = [&](char c) -> pn_fml_node * {
                        return pn_fml_clone(m.atoms[c == 'x' ? x : y].get());
                    };
                    Fml psi(Parser(shape, atom).parse());
                    ASSERT_NE(psi, nullptr);
                    Fml phi(pn_fml_unary(PN_FML_A, psi.release()));
                    bool lv = false, cv = false;
                    ASSERT_EQ(ltl_check(m, phi.get(), &lv), PN_OK) << show(phi.get());
                    pn_ctl_model cm = m.ctl();
                    pn_error err;
                    pn_error_clear(&err);
                    ASSERT_EQ(pn_ctl_check(&cm, phi.get(), &cv, &err), PN_OK) << err.msg;
                    EXPECT_EQ(lv, cv) << "model " << mi << ": " << show(phi.get());
                }
    }
}

// ---- automaton sizes of MCC formulas (docs/ltl-automata.md) ---------------------
// For each LTL formula of two small instances, read and simplified as the CLI
// does: the automaton of the negation (what pn_ltl_check builds), one
// tab-separated line "ltl-size instance examination id states edges
// acceptance-sets atoms complementary-atoms nnf-nodes product-states
// verdict" (complementary atoms: atoms that are the negation of another
// atom). The verdict of pn_ltl_check must match the reference product.
// ---- the on-the-fly check (ltl.c, ltl_lazy.c) and the reductions -------------
struct LazyDeleter {
    void operator()(pn_lazy *z) const { pn_lazy_free(z); }
};
using Lazy = std::unique_ptr<pn_lazy, LazyDeleter>;

Lazy lazy_of(const pn_cnet *cn, uint64_t budget = 0)
{
    pn_error err;
    pn_error_clear(&err);
    pn_lazy *z = nullptr;
    EXPECT_EQ(pn_lazy_new(cn, budget, &z, &err), PN_OK) << err.msg;
    return Lazy(z);
}

// pn_ltl_check_otf of A(psi) on a fresh state cache; lasso may be NULL.
pn_status otf_check(const pn_cnet *cn, const pn_fml_node *psi, bool *v, pn_ltl_lasso *lasso,
                    pn_ltl_stats *stats = nullptr, pn_lazy *z = nullptr,
                    std::string *msg = nullptr)
{
    Lazy own;
    if (z == nullptr) {
        own = lazy_of(cn);
        z = own.get();
    }
    Fml phi(pn_fml_unary(PN_FML_A, pn_fml_clone(psi)));
    pn_error err;
    pn_error_clear(&err);
    pn_status st = pn_ltl_check_otf(z, phi.get(), nullptr, v, stats, lasso, &err);
    if (msg)
        *msg = err.msg;
    return st;
}

bool otf_A(const Model &m, const std::string &text)
{
    Fml psi = parse_net(text);
    bool v = false;
    std::string msg;
    EXPECT_EQ(otf_check(m.cn.get(), psi.get(), &v, nullptr, nullptr, nullptr, &msg), PN_OK)
        << text << ": " << msg;
    return v;
}

// Replays a counterexample on the net: each transition enabled where it
// fires, a stuttering step only at a deadlock, and the cycle back at the
// marking it started from. *w gets the letters (over atoms) of the path.
void replay(const pn_cnet *cn, const pn_ltl_lasso &l, const Atoms &atoms, Lasso *w)
{
    ASSERT_GE(l.cycle, 1u);
    std::vector<uint64_t> m(cn->m0, cn->m0 + cn->n_places), next(cn->n_places + 1), loop;
    for (uint64_t k = 0; k < l.prefix + l.cycle; k++) {
        if (k == l.prefix)
            loop = m;
        uint32_t letter = 0;
        for (size_t a = 0; a < atoms.size(); a++)
            if (pn_fml_eval_state(atoms[a].get(), cn, m.data()))
                letter |= 1u << a;
        (k < l.prefix ? w->u : w->v).push_back(letter);
        uint32_t t = l.trans[k];
        if (t == UINT32_MAX) {
            for (uint32_t x = 0; x < cn->n_transitions; x++)
                ASSERT_FALSE(pn_cnet_enabled(cn, m.data(), x)) << "stutter at step " << k;
            continue;
        }
        ASSERT_LT(t, cn->n_transitions);
        ASSERT_TRUE(pn_cnet_enabled(cn, m.data(), t)) << "step " << k;
        ASSERT_TRUE(pn_cnet_fire(cn, m.data(), t, next.data()));
        std::copy(next.begin(), next.begin() + cn->n_places, m.begin());
    }
    EXPECT_EQ(m, loop) << "the cycle does not return to its first marking";
}

// Random formulas: the on-the-fly check agrees with the reference product,
// and every counterexample it gives replays on the net and violates psi.
TEST(LtlOtf, RandomFormulasAgreeAndLassosReplay)
{
    std::mt19937 rng(11);
    std::vector<std::unique_ptr<Model>> models = hand_models();
    uint64_t checks = 0, lassos = 0;
    for (size_t mi = 0; mi < models.size(); mi++) {
        Model &m = *models[mi];
        ASSERT_NE(m.res.graph, nullptr);
        for (int i = 0; i < 60; i++) {
            Fml psi(random_formula(rng, m.atoms, m.atoms.size(), 1 + i % 4));
            bool v = false;
            pn_ltl_lasso l;
            std::string msg;
            ASSERT_EQ(otf_check(m.cn.get(), psi.get(), &v, &l, nullptr, nullptr, &msg), PN_OK)
                << show(psi.get()) << ": " << msg;
            EXPECT_EQ(v, reference_A(m, psi.get())) << "model " << mi << ": " << show(psi.get());
            EXPECT_EQ(l.trans != nullptr, !v);
            if (!v && l.trans != nullptr) {
                Lasso w;
                replay(m.cn.get(), l, m.atoms, &w);
                EXPECT_FALSE(holds(psi.get(), w, m.atoms))
                    << "model " << mi << ": " << show(psi.get()) << ": the lasso "
                    << show(w, m.atoms.size()) << " satisfies psi";
                lassos++;
            }
            pn_ltl_lasso_free(&l);
            checks++;
        }
    }
    printf("%llu checks, %llu lassos replayed\n", (unsigned long long)checks,
           (unsigned long long)lassos);
}

TEST(LtlOtf, DeadlockStutters)
{
    auto c = chain(); // {a} -t0-> {b}, a deadlock
    EXPECT_TRUE(otf_A(*c, "F G b"));
    EXPECT_TRUE(otf_A(*c, "X G b"));
    EXPECT_TRUE(otf_A(*c, "X X b"));
    EXPECT_FALSE(otf_A(*c, "G F a"));
    EXPECT_TRUE(otf_A(*c, "F G z"));
    auto d = dead(); // the initial marking is a deadlock
    EXPECT_TRUE(otf_A(*d, "G b"));
    EXPECT_TRUE(otf_A(*d, "X X X z"));
    Fml psi = parse_net("X a");
    bool v = true;
    pn_ltl_lasso l;
    ASSERT_EQ(otf_check(d->cn.get(), psi.get(), &v, &l), PN_OK);
    EXPECT_FALSE(v);
    ASSERT_NE(l.trans, nullptr);
    EXPECT_GE(l.cycle, 1u);
    for (uint64_t k = 0; k < l.prefix + l.cycle; k++) // the deadlock repeated
        EXPECT_EQ(l.trans[k], UINT32_MAX) << k;
    pn_ltl_lasso_free(&l);
}

// n independent toggles p_i <-> q_i: 2^n states, every one reachable.
std::unique_ptr<pn_net, NetDeleter> toggles(int n, uint64_t first_tokens = 1)
{
    pn_error err;
    pn_error_clear(&err);
    std::unique_ptr<pn_net, NetDeleter> net(pn_net_new("toggles"));
    for (int i = 0; i < n; i++) {
        std::string p = "p" + std::to_string(i), q = "q" + std::to_string(i);
        std::string t = "t" + std::to_string(i), u = "u" + std::to_string(i);
        EXPECT_GE(pn_net_add_place(net.get(), p.c_str(), nullptr, i == 0 ? first_tokens : 1, &err),
                  0);
        EXPECT_GE(pn_net_add_place(net.get(), q.c_str(), nullptr, 0, &err), 0);
        int32_t ti = pn_net_add_transition(net.get(), t.c_str(), nullptr, &err);
        int32_t ui = pn_net_add_transition(net.get(), u.c_str(), nullptr, &err);
        uint32_t pi = (uint32_t)(2 * i), qi = pi + 1;
        EXPECT_EQ(pn_net_add_arc(net.get(), pi, (uint32_t)ti, true, 1, &err), PN_OK);
        EXPECT_EQ(pn_net_add_arc(net.get(), qi, (uint32_t)ti, false, 1, &err), PN_OK);
        EXPECT_EQ(pn_net_add_arc(net.get(), qi, (uint32_t)ui, true, 1, &err), PN_OK);
        EXPECT_EQ(pn_net_add_arc(net.get(), pi, (uint32_t)ui, false, 1, &err), PN_OK);
    }
    return net;
}

// An invariant (TRUE) needs every state; a violation (FALSE) is found
// after a few.
TEST(LtlOtf, TrueExploresEverythingFalseStopsEarly)
{
    auto net = toggles(12);
    pn_error err;
    pn_error_clear(&err);
    pn_cnet *raw = nullptr;
    ASSERT_EQ(pn_cnet_compile(net.get(), &raw, &err), PN_OK) << err.msg;
    std::unique_ptr<pn_cnet, CnetDeleter> cn(raw);
    Fml inv = parse_net("G (a | b)"); // p0 or q0 is marked
    Lazy z = lazy_of(cn.get());
    bool v = false;
    pn_ltl_stats stats;
    ASSERT_EQ(otf_check(cn.get(), inv.get(), &v, nullptr, &stats, z.get()), PN_OK);
    EXPECT_TRUE(v);
    EXPECT_EQ(pn_lazy_states(z.get()), 4096u);
    EXPECT_GE(stats.product_states, 4096u);
    EXPECT_TRUE(pn_lazy_complete(z.get())); // the whole space is known (CTL's graph switch)
    Lazy z2 = lazy_of(cn.get());
    EXPECT_FALSE(pn_lazy_complete(z2.get())); // the initial state, not expanded
    Fml bad = parse_net("G a"); // t0 empties p0
    ASSERT_EQ(otf_check(cn.get(), bad.get(), &v, nullptr, &stats, z2.get()), PN_OK);
    EXPECT_FALSE(v);
    EXPECT_LT(pn_lazy_states(z2.get()), 100u);
    EXPECT_FALSE(pn_lazy_complete(z2.get())); // states met but not expanded
    // The cache is shared: a second formula on z reuses its states.
    ASSERT_EQ(otf_check(cn.get(), bad.get(), &v, nullptr, &stats, z.get()), PN_OK);
    EXPECT_FALSE(v);
    EXPECT_EQ(pn_lazy_states(z.get()), 4096u);
}

// p0 starts with 40 tokens that t0 moves to q0 one at a time: q0's packed
// field must widen (ids and successor lists survive the repacking).
TEST(LtlOtf, PlacesWiden)
{
    auto net = toggles(2, 40);
    pn_error err;
    pn_error_clear(&err);
    pn_cnet *raw = nullptr;
    ASSERT_EQ(pn_cnet_compile(net.get(), &raw, &err), PN_OK) << err.msg;
    std::unique_ptr<pn_cnet, CnetDeleter> cn(raw);
    Lazy z = lazy_of(cn.get());
    Fml inv = parse_net("G (a | b)");
    bool v = false;
    ASSERT_EQ(otf_check(cn.get(), inv.get(), &v, nullptr, nullptr, z.get()), PN_OK);
    EXPECT_TRUE(v);
    EXPECT_EQ(pn_lazy_states(z.get()), 41u * 2u);
    EXPECT_TRUE(pn_lazy_complete(z.get())); // widenings keep the lists
    Fml f = parse_net("G a");
    pn_ltl_lasso l;
    ASSERT_EQ(otf_check(cn.get(), f.get(), &v, &l, nullptr, z.get()), PN_OK);
    EXPECT_FALSE(v);
    pn_ltl_lasso_free(&l);
}

TEST(LtlOtf, TimeAndMemoryLimitsAreReported)
{
    auto net = toggles(12);
    pn_error err;
    pn_error_clear(&err);
    pn_cnet *raw = nullptr;
    ASSERT_EQ(pn_cnet_compile(net.get(), &raw, &err), PN_OK) << err.msg;
    std::unique_ptr<pn_cnet, CnetDeleter> cn(raw);
    Fml phi(pn_fml_unary(PN_FML_A, parse_net("G (a | b)").release()));
    Lazy z = lazy_of(cn.get());
    bool v = true;
    // Typed statuses: the driver decides on the code, never on the text.
    pn_budget past = pn_budget_make(0, nullptr, 0);
    past.deadline = pn_clock_now() - 1;
    EXPECT_EQ(pn_ltl_check_otf(z.get(), phi.get(), &past, &v, nullptr, nullptr, &err),
              PN_ERR_TIMEOUT);
    EXPECT_NE(err.msg[0], '\0');
    volatile int cancel = 1;
    pn_budget stop = pn_budget_make(0, &cancel, 0);
    pn_error_clear(&err);
    EXPECT_EQ(pn_ltl_check_otf(z.get(), phi.get(), &stop, &v, nullptr, nullptr, &err),
              PN_ERR_CANCELLED);
    Lazy small = lazy_of(cn.get(), 64 << 10);
    pn_error_clear(&err);
    EXPECT_EQ(pn_ltl_check_otf(small.get(), phi.get(), nullptr, &v, nullptr, nullptr, &err),
              PN_ERR_OUT_OF_MEMORY);
    pn_error_clear(&err);
    EXPECT_EQ(pn_ltl_check_otf(z.get(), phi.get(), nullptr, &v, nullptr, nullptr, &err), PN_OK)
        << err.msg;
    EXPECT_TRUE(v);
}

// The reduced automaton accepts exactly the words the tableau's accepts.
TEST(LtlReduce, KeepsTheLanguage)
{
    std::mt19937 rng(5);
    const Atoms &letters = letter_atoms();
    Atoms atoms;
    for (size_t i = 0; i < 3; i++)
        atoms.emplace_back(pn_fml_clone(letters[i].get()));
    std::vector<Lasso> ws = words(3, 40, rng);
    uint64_t before = 0, after = 0;
    for (int i = 0; i < 150; i++) {
        Fml psi(random_formula(rng, atoms, 3, 1 + i % 4));
        Automaton A(psi.get(), true);
        ASSERT_EQ(A.st, PN_OK) << A.msg;
        pn_error err;
        pn_error_clear(&err);
        ltl_buchi *r = nullptr;
        ASSERT_EQ(ltl_buchi_reduce(A.b, &r, &err), PN_OK) << err.msg;
        std::vector<uint64_t> pos(r->n_states, 0), neg(r->n_states, 0);
        for (uint32_t q = 0; q < r->n_states; q++)
            for (uint32_t k = r->lit_off[q]; k < r->lit_off[q + 1]; k++)
                (r->lit[k].positive ? pos : neg)[q] |= 1ULL << r->lit[k].atom;
        EXPECT_LE(r->n_states, A.b->n_states);
        before += A.b->n_states;
        after += r->n_states;
        std::vector<uint64_t> vals = A.letter_values(atoms);
        for (const Lasso &w : ws) {
            Kripke k = lasso_kripke(w, vals);
            ASSERT_EQ(accepts(r, pos, neg, k), accepts(A, k))
                << show(psi.get()) << " on " << show(w, 3);
        }
        ltl_buchi_free(r);
    }
    printf("automaton states: %llu before reduction, %llu after\n",
           (unsigned long long)before, (unsigned long long)after);
    EXPECT_LT(after, before);
}

// The CLI prints one counterexample lasso per FALSE LTL formula with --trace.
TEST(LtlOtf, CliTracePrintsLassos)
{
    std::string dir = std::string(PETREL_SHARED_DIR) + "/mcc/Philosophers-PT-000005";
    struct stat sb;
    if (stat((dir + "/LTLFireability.xml").c_str(), &sb) != 0)
        GTEST_SKIP() << dir << " is absent";
    std::string cmd = std::string(PETREL_CLI_PATH) + " " + dir +
                      " -e LTLFireability --trace --threads 1 2>&1";
    FILE *p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    char line[8192];
    int falses = 0, lassos = 0;
    while (fgets(line, sizeof line, p) != nullptr) {
        std::string l(line);
        falses += l.rfind("FORMULA ", 0) == 0 && l.find(" FALSE ") != std::string::npos;
        if (l.find("petrel: trace ") == 0 && l.find("(lasso, ") != std::string::npos) {
            lassos++;
            EXPECT_NE(l.find(" [ "), std::string::npos) << l;
        }
    }
    EXPECT_EQ(pclose(p), 0);
    EXPECT_GT(falses, 0);
    // A formula the simplifier folds to false (A G (x & !x)) is answered
    // without the product: no lasso to print.
    pn_net *raw = nullptr;
    pn_fml_set *s = nullptr;
    pn_error err;
    pn_error_clear(&err);
    ASSERT_EQ(pn_pnml_read_file((dir + "/model.pnml").c_str(), nullptr, &raw, &err), PN_OK);
    NetPtr net(raw);
    ASSERT_EQ(pn_fml_read_file((dir + "/LTLFireability.xml").c_str(), raw, &s, &err), PN_OK);
    SetPtr set(s);
    ASSERT_EQ(pn_fml_set_simplify(s, &err), PN_OK);
    int folded = 0;
    for (uint32_t i = 0; i < s->n; i++)
        folded += s->props[i].status == PN_OK && s->props[i].root->kind == PN_FML_FALSE;
    EXPECT_EQ(lassos, falses - folded);
}

TEST(LtlSizes, MccFormulas)
{
    const char *instances[] = {"Philosophers-PT-000005", "Dekker-PT-010"};
    const char *exams[] = {"LTLCardinality", "LTLFireability"};
    int printed = 0;
    for (const char *inst : instances) {
        std::string dir = std::string(PETREL_SHARED_DIR) + "/mcc/" + inst;
        struct stat sb;
        if (stat((dir + "/model.pnml").c_str(), &sb) != 0)
            continue;
        pn_error err;
        pn_error_clear(&err);
        pn_net *raw = nullptr;
        ASSERT_EQ(pn_pnml_read_file((dir + "/model.pnml").c_str(), nullptr, &raw, &err), PN_OK) << err.msg;
        Model m;
        m.net.reset(raw);
        explore(&m);
        ASSERT_NE(m.res.graph, nullptr);
        for (const char *exam : exams) {
            pn_fml_set *s = nullptr;
            ASSERT_EQ(pn_fml_read_file((dir + "/" + exam + ".xml").c_str(), m.net.get(), &s, &err),
                      PN_OK)
                << err.msg;
            std::unique_ptr<pn_fml_set, SetDeleter> set(s);
            ASSERT_EQ(pn_fml_set_simplify(set.get(), &err), PN_OK) << err.msg;
            for (uint32_t i = 0; i < set->n; i++) {
                const pn_fml_prop &p = set->props[i];
                if (p.status != PN_OK || p.root->kind != PN_FML_A) {
                    printf("ltl-size\t%s\t%s\t%s\t-\t-\t-\t-\t-\t-\t-\t%s\n", inst, exam,
                           p.id, p.status != PN_OK ? "unreadable" : "not-A(psi)");
                    continue;
                }
                Automaton neg(p.root->kids[0], true, 1u << 20);
                EXPECT_EQ(neg.st, PN_OK) << p.id << ": " << neg.msg;
                if (neg.st != PN_OK)
                    continue;
                EXPECT_LE(neg.b->n_states, 4096u) << p.id << ": beyond pn_ltl_check's limit";
                uint32_t compl_atoms = 0;
                for (uint32_t a = 0; a < neg.f.n_atoms; a++)
                    for (uint32_t c = 0; c < neg.f.n_atoms; c++)
                        compl_atoms += neg.f.atoms[a]->kind == PN_FML_NOT &&
                                       pn_fml_equal(neg.f.atoms[a]->kids[0], neg.f.atoms[c]);
                bool v = false;
                pn_ltl_stats stats;
                memset(&stats, 0, sizeof stats);
                std::string msg;
                pn_status st = ltl_check(m, p.root, &v, &stats, &msg);
                EXPECT_EQ(st, PN_OK) << p.id << ": " << msg;
                if (st == PN_OK) {
                    EXPECT_EQ(stats.raw_states, neg.b->n_states) << p.id;
                    EXPECT_EQ(v, !accepts(neg, graph_kripke(m, neg.f))) << p.id;
                }
                // The on-the-fly check: reduced automaton, product and net
                // states it needed (a fresh state cache per formula).
                Lazy z = lazy_of(m.cn.get());
                pn_ltl_stats os;
                memset(&os, 0, sizeof os);
                bool ov = false;
                pn_status ost = otf_check(m.cn.get(), p.root->kids[0], &ov, nullptr, &os, z.get(),
                                          &msg);
                EXPECT_EQ(ost, PN_OK) << p.id << ": " << msg;
                EXPECT_EQ(ov, v) << p.id;
                EXPECT_EQ(os.raw_states, neg.b->n_states) << p.id;
                printf("ltl-size\t%s\t%s\t%s\t%u\t%u\t%u\t%u\t%u\t%u\t%llu\t%s\t%u\t%u"
                       "\t%llu\t%llu\n",
                       inst, exam, p.id, neg.b->n_states, neg.edges(), neg.b->n_acc,
                       neg.f.n_atoms, compl_atoms, neg.f.count,
                       (unsigned long long)stats.product_states,
                       st != PN_OK ? "error" : v ? "TRUE" : "FALSE", os.automaton_states,
                       os.automaton_edges, (unsigned long long)os.product_states,
                       (unsigned long long)pn_lazy_states(z.get()));
                printed++;
            }
        }
    }
    if (printed == 0)
        GTEST_SKIP() << "no MCC instances under " << PETREL_SHARED_DIR << "/mcc";
}

}  // namespace

// ---- letters and acceptance masks of more than one word ------------------------
// 70 tokens move one by one from a to b (states b = 0..70, a deadlock at
// b = 70 that stutters). "b >= i" for i = 1..n as separate atoms: formulas
// with more than 64 atoms (the graph product's old fallback) and, through
// F G, more than 64 acceptance sets in the automaton of the negation.
std::unique_ptr<Model> drain70()
{
    return make({{"a", 70}, {"b", 0}}, {"t0"}, {{"a", "t0", true, 1}, {"b", "t0", false, 1}});
}

// op(b >= 1) & op(b >= 2) & ... & op(b >= n), op = F or F G.
Fml many_atoms(uint32_t n, bool fg)
{
    std::vector<pn_fml_node *> kids;
    uint32_t b = 1;
    for (uint32_t i = 1; i <= n; i++) {
        pn_fml_node *atom =
            pn_fml_binary(PN_FML_INT_LE, pn_fml_const(i), pn_fml_list(PN_FML_TOKENS, &b, 1));
        pn_fml_node *x = fg ? pn_fml_unary(PN_FML_G, atom) : atom;
        kids.push_back(pn_fml_unary(PN_FML_F, x));
    }
    return Fml(pn_fml_nary(PN_FML_AND, kids.data(), n));
}

TEST(LtlWide, MoreThan64Atoms)
{
    auto m = drain70();
    for (uint32_t n : {63u, 64u, 65u, 70u, 71u}) {
        Fml psi = many_atoms(n, false);
        Fml phi(pn_fml_unary(PN_FML_A, pn_fml_clone(psi.get())));
        bool v = false;
        pn_ltl_stats stats;
        memset(&stats, 0, sizeof stats);
        std::string msg;
        ASSERT_EQ(ltl_check(*m, phi.get(), &v, &stats, &msg), PN_OK) << n << ": " << msg;
        EXPECT_EQ(stats.atoms, n);
        EXPECT_EQ(v, n <= 70) << n; // b never passes 70
        // The same through a shared on-demand space, with a counterexample.
        pn_ltl_lasso lasso;
        bool ov = true;
        ASSERT_EQ(otf_check(m->cn.get(), psi.get(), &ov, &lasso), PN_OK);
        EXPECT_EQ(ov, v);
        if (!ov) { // 70 firings of t0, then the deadlock stutters
            EXPECT_EQ(lasso.prefix + lasso.cycle, 71u);
            EXPECT_EQ(lasso.trans[lasso.prefix + lasso.cycle - 1], UINT32_MAX);
        }
        pn_ltl_lasso_free(&lasso);
    }
}

TEST(LtlWide, MoreThan64AcceptanceSets)
{
    auto m = drain70();
    for (uint32_t n : {70u, 71u}) {
        Fml phi(pn_fml_unary(PN_FML_A, many_atoms(n, true).release()));
        bool v = false;
        pn_ltl_stats stats;
        memset(&stats, 0, sizeof stats);
        std::string msg;
        ASSERT_EQ(ltl_check(*m, phi.get(), &v, &stats, &msg), PN_OK) << n << ": " << msg;
        EXPECT_GT(stats.acceptance_sets, 64u) << n;
        EXPECT_EQ(v, n <= 70) << n; // every path ends in b = 70 forever
    }
}
