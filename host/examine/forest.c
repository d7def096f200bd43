/* The decision diagrams' forest of a job (see forest.h). */
#include "examine/forest.h"

bool ex_sym_hopeless(const ex_sym_forest *f, const pn_budget *budget, uint32_t threads)
{
    if (f == NULL || f->s == NULL)
        return false;
    double states = pn_ctl_mdd_states(f->s), left = pn_budget_left_s(budget);
    uint64_t memory = pn_budget_memory(budget);
    return (memory != 0 && states * EX_GRAPH_MIN_BYTES > (double)memory) ||
           states > EX_GRAPH_MAX_RATE * (threads ? threads : 1) * (left > 0 ? left : 0);
}

void ex_sym_forest_free(ex_sym_forest *f)
{
    pn_ctl_mdd_free(f->s);
    pn_fml_free(f->live); /* after the forest, whose kept sets name its nodes */
    *f = (ex_sym_forest){0};
}
