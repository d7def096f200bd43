// petrel_rers_gen: writes a RERS-style parallel system (tests/test_rers_gen.h)
// as system.dot and system.pnml, and optionally properties with the answers
// of the independent references (CTL fixpoints, Vardi-Wolper LTL) on the
// explicit graph, plus a family's hand-checked properties.
//
//   petrel_rers_gen OUTDIR ring N | chain K CAP | phil N | random SEED
//                   [--props N] [--seed S]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>

#include "test_rers_gen.h"

using namespace rers_test;

static int usage()
{
    fputs("usage: petrel_rers_gen OUTDIR ring N | chain K CAP | phil N | random SEED "
          "[--props N] [--seed S]\n", stderr);
    return 2;
}

static bool write(const std::string &path, const std::string &text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
    return out.good();
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return usage();
    std::string dir = argv[1], kind = argv[2], family;
    System s;
    int i = 4;
    if (kind == "ring") {
        s = token_ring(atoi(argv[3]));
        family = "token-ring";
    } else if (kind == "phil") {
        s = philosophers(atoi(argv[3]));
        family = "philosophers";
    } else if (kind == "chain" && argc >= 5) {
        s = producer_consumer(atoi(argv[3]), atoi(argv[4]));
        family = "producer-consumer";
        i = 5;
    } else if (kind == "random") {
        std::mt19937 rng((unsigned)atoi(argv[3]));
        s = random_system(rng);
    } else {
        return usage();
    }
    int props = 0;
    unsigned seed = 1;
    for (; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--props") == 0)
            props = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--seed") == 0)
            seed = (unsigned)atoi(argv[i + 1]);
        else
            return usage();
    }
    if (i != argc)
        return usage();
    if (!write(dir + "/system.dot", to_dot(s)) || !write(dir + "/system.pnml", to_pnml(s)))
        return 1;
    if (props == 0)
        return 0;
    Graph g = explore(s);
    std::mt19937 rng(seed);
    std::string text = "# " + std::to_string(g.state.size()) + " states. Hand-checked properties "
                       "first (models/rers/README.md), then random ones with the answers of the "
                       "test references.\n";
    std::string expected;
    int n = 1;
    for (const Family &f : families())
        if (f.name == family && f.system.lts.size() == s.lts.size())
            for (const HandCase &c : f.cases) {
                text += std::string(c.text) + "\n";
                expected += std::to_string(n++) + (c.want ? " true\n" : " false\n");
            }
    for (int k = 0; k < props; k++) {
        Property p = k % 2 == 0 ? random_ltl(rng, s, 3) : random_ctl(rng, s, 3);
        // An LTL formula of constants only would read as CTL (README: RERS).
        while (!p.ctl && p.text.find_first_not_of("truefals!&|->() ") == std::string::npos)
            p = random_ltl(rng, s, 3);
        bool want = p.ctl ? ctl_sat(g, p.f)[0] : ltl_holds(g, p.f);
        text += "#" + std::to_string(n) + "\n" + p.text + "\n";
        expected += std::to_string(n++) + (want ? " true\n" : " false\n");
    }
    return write(dir + "/properties.txt", text) && write(dir + "/expected.txt", expected) ? 0 : 1;
}
