// Owning pointers to the C API's nets, formulas, formula sets and checks for the tests: one copy of the
// deleters instead of one per test file.
#ifndef PETREL_TEST_PTRS_H
#define PETREL_TEST_PTRS_H

#include <memory>

#include "petrel/check.h"
#include "petrel/cnet.h"
#include "petrel/formula.h"
#include "petrel/net.h"

struct NetDeleter {
    void operator()(pn_net *n) const { pn_net_free(n); }
};
struct CnetDeleter {
    void operator()(pn_cnet *c) const { pn_cnet_free(c); }
};
using NetPtr = std::unique_ptr<pn_net, NetDeleter>;
using CnetPtr = std::unique_ptr<pn_cnet, CnetDeleter>;

struct SetDeleter {
    void operator()(pn_fml_set *s) const { pn_fml_set_free(s); }
};
struct CheckDeleter {
    void operator()(pn_check *c) const { pn_check_free(c); }
};
struct NodeDeleter {
    void operator()(pn_fml_node *n) const { pn_fml_free(n); }
};
using SetPtr = std::unique_ptr<pn_fml_set, SetDeleter>;
using NodePtr = std::unique_ptr<pn_fml_node, NodeDeleter>;
using CheckPtr = std::unique_ptr<pn_check, CheckDeleter>;

#endif
