/* Verdict documents from the CLI's results (verdicts.h). */
#include "verdicts.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "path.h"
#include "petrel/mcc.h"

/* ISO 8601, UTC. */
static void cli_verdict_date(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm) == NULL || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
        snprintf(buf, len, "1970-01-01T00:00:00Z");
}

static int cli_verdict_save(const char *path, const pn_verdicts *v)
{
    char date[32];
    cli_verdict_date(date, sizeof date);
    pn_verdict_tool by = {.tool = "petrel", .version = PETREL_VERSION, .date = date};
    pn_error err = {0};
    if (pn_verdicts_write_file(path, v, &by, &err) != PN_OK) {
        fprintf(stderr, "petrel: %s\n", err.msg);
        return 1;
    }
    return 0;
}

static int cli_verdict_nomem(pn_verdicts *v)
{
    pn_verdicts_free(v);
    fputs("petrel: out of memory writing the verdict file\n", stderr);
    return 1;
}

/* Transition ids of a path; UINT32_MAX (a deadlock's stuttering step)
 * becomes NULL. */
static bool cli_verdict_trace(pn_verdicts *v, uint32_t i, const pn_net *net, const uint32_t *path,
                              uint64_t len, uint64_t cycle)
{
    const char **ids = calloc(len + 1, sizeof *ids);
    if (ids == NULL)
        return false;
    for (uint64_t k = 0; k < len; k++)
        ids[k] = path[k] == UINT32_MAX ? NULL : net->trans_id[path[k]];
    bool ok = pn_verdicts_set_trace(v, i, ids, len, cycle);
    free(ids);
    return ok;
}

static bool cli_verdict_answer(pn_verdicts *v, const char *exam, const pn_net *net,
                               const pn_report *rep, const pn_answer *a)
{
    char tech[160], value[32];
    pn_mcc_techniques(&rep->result, net, a->techniques, tech, sizeof tech);
    const char *val = a->verdict == PN_VERDICT_TRUE    ? "TRUE"
                      : a->verdict == PN_VERDICT_FALSE ? "FALSE"
                                                       : "unknown";
    if (a->verdict == PN_VERDICT_VALUE) {
        snprintf(value, sizeof value, "%lu", (unsigned long)a->value);
        val = value;
    }
    int64_t i = pn_verdicts_add(v, exam, a->id, val,
                                a->verdict == PN_VERDICT_UNKNOWN ? NULL : tech, NULL);
    if (i < 0)
        return false;
    if (a->lasso != NULL) { /* on the original net's transitions */
        uint32_t *full = NULL;
        uint64_t len = 0, at = 0;
        pn_error err = {0};
        if (pn_report_lasso(rep, a->lasso, a->lasso_prefix + a->lasso_cycle, a->lasso_prefix,
                            &full, &len, &at, &err) != PN_OK)
            return err.code != PN_ERR_NOMEM; /* too long: no trace */
        bool ok = cli_verdict_trace(v, (uint32_t)i, net, full, len, at);
        free(full);
        return ok;
    }
    uint32_t *path = NULL;
    uint64_t len = 0;
    if (!a->has_witness || rep->reduced != NULL || !pn_engine_trace(&rep->result, a->witness, &path, &len))
        return true;
    bool ok = cli_verdict_trace(v, (uint32_t)i, net, path, len, len);
    free(path);
    return ok;
}

/* The STATE_SPACE values, as the output prints them (pn_mcc_space_values). */
static bool cli_verdict_state_space(pn_verdicts *v, const pn_net *net, const pn_engine_result *r)
{
    pn_mcc_space_value vals[4];
    pn_mcc_space_values(r, net, vals);
    for (int k = 0; k < 4; k++) {
        char key[48];
        snprintf(key, sizeof key, "STATE_SPACE %s", vals[k].key);
        bool known = vals[k].value != NULL;
        if (pn_verdicts_add(v, "StateSpace", key, known ? vals[k].value : "unknown",
                            known ? vals[k].techniques : NULL, NULL) < 0)
            return false;
    }
    return true;
}

int cli_verdicts_write_exam(const char *path, const pn_net *net, const pn_report *rep)
{
    pn_verdicts *v = pn_verdicts_new(net->id);
    const char *exam = pn_exam_name(rep->exam);
    bool ok = v != NULL;
    if (ok && rep->check == NULL)
        ok = cli_verdict_state_space(v, net, &rep->result);
    for (uint32_t i = 0; ok && rep->check != NULL && i < pn_check_count(rep->check); i++)
        ok = cli_verdict_answer(v, exam, net, rep, pn_check_answer(rep->check, i));
    if (!ok)
        return cli_verdict_nomem(v);
    int rc = cli_verdict_save(path, v);
    pn_verdicts_free(v);
    return rc;
}

static const char *cli_verdict_word(pn_verdict v)
{
    return v == PN_VERDICT_TRUE ? "true" : v == PN_VERDICT_FALSE ? "false" : "unknown";
}

int cli_verdicts_write_props(const char *path, const pn_net *net, const pn_props *p)
{
    pn_verdicts *v = pn_verdicts_new(net->id);
    bool ok = v != NULL;
    pn_engine_result res = {.threads = p->threads};
    for (int k = 0; ok && k < PN_PROP_COUNT; k++) {
        const pn_prop_value *pv = &p->v[k];
        char tech[160];
        pn_mcc_techniques(p->explored ? &res : NULL, net, pv->techniques, tech, sizeof tech);
        /* QUASI_LIVE is no GENERIC property of the MCC: its examination's. */
        bool ql = k == PN_PROP_QUASI_LIVE;
        int64_t i = pn_verdicts_add(v, ql ? "QuasiLiveness" : "GENERIC",
                                    ql ? "QuasiLiveness" : pn_prop_name((pn_prop)k),
                                    cli_verdict_word(pv->verdict),
                                    pv->verdict == PN_VERDICT_UNKNOWN ? NULL : tech, NULL);
        ok = i >= 0 && (pv->trace == NULL ||
                        cli_verdict_trace(v, (uint32_t)i, net, pv->trace, pv->trace_len,
                                          pv->trace_len));
    }
    if (!ok)
        return cli_verdict_nomem(v);
    int rc = cli_verdict_save(path, v);
    pn_verdicts_free(v);
    return rc;
}

pn_verdicts *cli_verdicts_read_model(const char *dir, FILE *diag)
{
    char *path = cli_path_join(dir, "GenericPropertiesVerdict.xml");
    if (path == NULL)
        return NULL;
    pn_verdicts *v = NULL;
    pn_error err = {0};
    if (pn_verdicts_read(path, &v, &err) != PN_OK && err.code != PN_ERR_IO && diag != NULL)
        fprintf(diag, "petrel: %s\n", err.msg);
    free(path);
    return v;
}

static void cli_hint(FILE *diag, const char *prop, const char *said, const char *what)
{
    fprintf(diag, "petrel: verdict hint %s=%s: %s\n", prop, said, what);
}

void cli_verdicts_check_hints(const pn_verdicts *file, const pn_cnet *cn, FILE *diag)
{
    if (diag == NULL)
        return;
    if (file == NULL) {
        fputs("petrel: --use-verdicts: no GenericPropertiesVerdict.xml beside the model\n", diag);
        return;
    }
    const char *cons = pn_verdicts_value(file, "GENERIC", "CONSERVATIVE");
    pn_props s = {0};
    pn_error err = {0};
    if (cons != NULL && strcmp(cons, "unknown") != 0 &&
        pn_props_structural(cn, &s, &err) == PN_OK) {
        pn_verdict v = s.v[PN_PROP_CONSERVATIVE].verdict;
        cli_hint(diag, "CONSERVATIVE", cons,
                 v == PN_VERDICT_UNKNOWN ? "unchecked (the unfolding dropped nodes)"
                 : strcmp(cons, cli_verdict_word(v)) == 0
                     ? "consistent with the arcs (proven; the linear layer finds the same "
                       "invariant itself, so nothing changes)"
                     : "CONTRADICTED by the arcs: ignored");
    }
    const char *safe = pn_verdicts_value(file, "GENERIC", "SAFE");
    if (safe != NULL && strcmp(safe, "true") == 0) {
        bool m0_safe = true;
        for (uint32_t p = 0; p < cn->n_places; p++)
            m0_safe = m0_safe && cn->m0[p] <= 1;
        cli_hint(diag, "SAFE", safe,
                 m0_safe ? "consistent with the initial marking (not proven; the marking "
                           "layout already starts at the bits the initial marking and arcs "
                           "need and widens on overflow, so nothing changes)"
                         : "CONTRADICTED by the initial marking: ignored");
    } else if (safe != NULL) {
        cli_hint(diag, "SAFE", safe, "unchecked (no use for it)");
    }
}
