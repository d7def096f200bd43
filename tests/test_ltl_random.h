// Random LTL path formulas over given atoms, for the tests that compare an
// LTL method with a reference (test_ltl.cpp: the translation and the
// product; test_stubborn.cpp: the reduced product): one generator.
#ifndef PETREL_TEST_LTL_RANDOM_H
#define PETREL_TEST_LTL_RANDOM_H

#include <cstddef>
#include <vector>

#include "petrel/formula.h"
#include "test_ptrs.h"

// A formula of depth at most depth over atoms[0..k) (cloned), TRUE and
// FALSE; X, F, G, U, NOT and binary / ternary AND, OR. Rng: a standard
// random engine (the sequence only depends on its outputs).
template <typename Rng>
pn_fml_node *random_formula(Rng &rng, const std::vector<NodePtr> &atoms, size_t k, int depth)
{
    if (depth == 0 || rng() % 100 < 15) {
        unsigned r = (unsigned)(rng() % 20);
        if (r == 0)
            return pn_fml_leaf(PN_FML_TRUE);
        if (r == 1)
            return pn_fml_leaf(PN_FML_FALSE);
        return pn_fml_clone(atoms[rng() % k].get());
    }
    auto sub = [&] { return random_formula(rng, atoms, k, depth - 1); };
    switch (rng() % 10) {
    case 0: return pn_fml_unary(PN_FML_NOT, sub());
    case 1: return pn_fml_unary(PN_FML_X, sub());
    case 2: return pn_fml_unary(PN_FML_F, sub());
    case 3: return pn_fml_unary(PN_FML_G, sub());
    case 4:
    case 5: {
        pn_fml_node *a = sub();
        return pn_fml_binary(PN_FML_U, a, sub());
    }
    case 6: {
        pn_fml_node *a = sub();
        return pn_fml_binary(PN_FML_AND, a, sub());
    }
    case 7: {
        pn_fml_node *a = sub();
        return pn_fml_binary(PN_FML_OR, a, sub());
    }
    default: {
        pn_fml_node *kids[3];
        for (auto &x : kids)
            x = sub();
        return pn_fml_nary(rng() % 2 ? PN_FML_AND : PN_FML_OR, kids, 3);
    }
    }
}

#endif
