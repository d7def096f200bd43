// Coloured-net text shared by the tests: one copy of the declarations of
// the billion-binding net (x, y, z over a 1000-colour sort) that the
// unfolder's time-limit tests (HlpnBudget.*, Cli.TinyTimeoutWhileUnfolding)
// build on.
#ifndef PETREL_TEST_COLOURED_H
#define PETREL_TEST_COLOURED_H

#include <string>

inline std::string billion_bindings_decls()
{
    std::string decls = "<namedsort id=\"B\" name=\"B\"><cyclicenumeration>";
    for (int i = 0; i < 1000; i++)
        decls += "<feconstant id=\"b" + std::to_string(i) + "\" name=\"" + std::to_string(i) +
                 "\"/>";
    decls += "</cyclicenumeration></namedsort>";
    for (const char *v : {"x", "y", "z"})
        decls += std::string("<variabledecl id=\"") + v + "\" name=\"" + v +
                 "\"><usersort declaration=\"B\"/></variabledecl>";
    return decls;
}

#endif
