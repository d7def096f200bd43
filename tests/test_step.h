// One technique of the scheduler's table (examine/tech.h) run alone on a
// job, outside any plan: what a test of a step needs (a scheduler with
// default options, the job's exploration result kept and freed here).
#ifndef PETREL_TEST_STEP_H
#define PETREL_TEST_STEP_H

#include "examine/tech.h"
#include "petrel/examine.h"

namespace petrel_test {

// t on a job of check c (exam, set: NULL for a global examination) within
// budget; PN_ERR_UNSUPPORTED when t says it has nothing to do there.
inline pn_status run_step_alone(const ex_tech &t, const pn_cnet *cn, pn_exam exam,
                                const pn_fml_set *set, pn_check *c, pn_budget *budget,
                                pn_error *err)
{
    pn_examine_opts opts = {};
    ex_sched s = {};
    s.opts = &opts;
    pn_engine_result res = {};
    ex_job j;
    pn_status st = ex_job_init(&j, &s, "test", cn, exam, set, c, &res, err);
    if (st != PN_OK)
        return st;
    j.budget = budget;
    st = t.applies(&j) ? t.run(&j, budget, err) : PN_ERR_UNSUPPORTED;
    ex_job_free(&j);
    pn_engine_result_free(&res);
    return st;
}

} // namespace petrel_test

#endif
