// Pinning policy and the cores' shares (petrel/topology.h), checked against
// the process's affinity mask as the system reports it (sched_getaffinity),
// and the CLI's topology line: a run on every allowed core pins its
// workers, one on fewer leaves them to the system.
#include <gtest/gtest.h>

#include <sched.h>
#include <set>
#include <string>
#include <vector>

#include "petrel/topology.h"
#include "test_files.h"

namespace {

const std::string kCli = PETREL_CLI_PATH;
const std::string kSrc = PETREL_SOURCE_DIR;

std::set<uint32_t> allowed_cpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    std::set<uint32_t> cpus;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                cpus.insert((uint32_t)c);
    return cpus;
}

struct Topo {
    pn_topology *t = pn_topology_new();
    ~Topo() { pn_topology_free(t); }
};

TEST(Topology, PinsOnlyARunOnEveryCore)
{
    Topo topo;
    ASSERT_NE(topo.t, nullptr);
    const uint32_t cores = pn_topology_cores(topo.t);
    EXPECT_TRUE(pn_topology_pins(topo.t, cores));
    EXPECT_TRUE(pn_topology_pins(topo.t, cores + 3));
    EXPECT_FALSE(pn_topology_pins(topo.t, cores - 1));
}

// The shares of single cores are disjoint, allowed, and together the
// shares of all cores; a share past the last core is empty.
TEST(Topology, CoreSharesAreDisjointAndAllowed)
{
    Topo topo;
    ASSERT_NE(topo.t, nullptr);
    const uint32_t cores = pn_topology_cores(topo.t);
    const std::set<uint32_t> allowed = allowed_cpus();
    std::vector<uint32_t> pus(CPU_SETSIZE);
    std::set<uint32_t> seen;
    for (uint32_t c = 0; c < cores; c++) {
        uint32_t n = pn_topology_core_pus(topo.t, c, 1, pus.data(), (uint32_t)pus.size());
        ASSERT_GE(n, 1u) << "core " << c;
        for (uint32_t k = 0; k < n; k++) {
            EXPECT_TRUE(allowed.count(pus[k])) << "PU " << pus[k] << " of core " << c;
            EXPECT_TRUE(seen.insert(pus[k]).second) << "PU " << pus[k] << " in two cores";
        }
    }
    uint32_t all = pn_topology_core_pus(topo.t, 0, cores, pus.data(), (uint32_t)pus.size());
    EXPECT_EQ(std::set<uint32_t>(pus.begin(), pus.begin() + all), seen);
    EXPECT_EQ(pn_topology_core_pus(topo.t, cores, 2, pus.data(), (uint32_t)pus.size()), 0u);
    EXPECT_EQ(pn_topology_core_pus(topo.t, 0, cores, pus.data(), 1), 1u) << "cap is kept";
}

// The verbose topology line says whether the workers are pinned.
TEST(Topology, CliPinsOnlyWhenItTakesEveryCore)
{
    Topo topo;
    ASSERT_NE(topo.t, nullptr);
    const uint32_t cores = pn_topology_cores(topo.t);
    std::string model = petrel_test::quote(kSrc + "/models/dining3/model.pnml");
    auto line = [&](uint32_t threads) {
        std::string err = petrel_test::run_capture(kCli + " -v -e StateSpace --engine cpu --threads " +
                                                   std::to_string(threads) + " " + model +
                                                   " 2>&1 >/dev/null");
        size_t at = err.find("petrel: topology:");
        return at == std::string::npos ? err : err.substr(at, err.find('\n', at) - at);
    };
    EXPECT_NE(line(cores).find("worker thread(s), pinned"), std::string::npos) << line(cores);
    if (cores < 2)
        GTEST_SKIP() << "one allowed core: a run on fewer threads cannot be tried";
    EXPECT_NE(line(1).find("1 worker thread(s), not pinned"), std::string::npos) << line(1);
}

} // namespace
