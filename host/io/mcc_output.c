#include "petrel/mcc.h"

#include <string.h>

void pn_mcc_techniques(const pn_engine_result *r, const pn_net *net, uint32_t techniques,
                       char *buf, size_t len)
{
    static const struct { uint32_t bit; const char *word; } words[] = {
        {PN_TECH_EXPLICIT, "EXPLICIT"},
        {PN_TECH_LINEAR_EQUATIONS, "LINEAR_EQUATIONS"},
        {PN_TECH_TOPOLOGICAL, "TOPOLOGICAL"},
        {PN_TECH_STRUCTURAL_REDUCTION, "STRUCTURAL_REDUCTION"},
        {PN_TECH_STUBBORN_SETS, "STUBBORN_SETS"},
        {PN_TECH_RANDOM_WALK, "RANDOM_WALK"},
        {PN_TECH_DECISION_DIAGRAMS, "DECISION_DIAGRAMS"},
    };
    if (techniques == 0)
        techniques = PN_TECH_EXPLICIT;
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (techniques & words[i].bit)
            at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s", at ? " " : "",
                                   words[i].word);
    if ((techniques & PN_TECH_EXPLICIT) && r != NULL)
        at += (size_t)snprintf(buf + at, at < len ? len - at : 0, " %s",
                               r->threads > 1 ? "PARALLEL_PROCESSING" : "SEQUENTIAL_PROCESSING");
    if (net != NULL && net->unfold.unfolded)
        snprintf(buf + at, at < len ? len - at : 0, " UNFOLDING_TO_PT");
}

/* v's value from a count (UINT64_MAX: saturated, not a proven value). */
static void mcc_space_count(pn_mcc_space_value *v, uint64_t n)
{
    if (n == UINT64_MAX)
        return;
    snprintf(v->text, sizeof v->text, "%lu", (unsigned long)n);
    v->value = v->text;
}

void pn_mcc_space_values(const pn_engine_result *r, const pn_net *net, pn_mcc_space_value v[4])
{
    static const char *const keys[] = {"STATES", "TRANSITIONS", "MAX_TOKEN_IN_PLACE",
                                       "MAX_TOKEN_PER_MARKING"};
    const bool complete = r->status == PN_RUN_COMPLETE;
    uint32_t tech = !complete ? PN_TECH_TOPOLOGICAL
                    : r->symbolic ? PN_TECH_DECISION_DIAGRAMS : PN_TECH_EXPLICIT;
    for (int k = 0; k < 4; k++) {
        memset(&v[k], 0, sizeof v[k]);
        v[k].key = keys[k];
        pn_mcc_techniques(r, net, tech, v[k].techniques, sizeof v[k].techniques);
    }
    if (complete && r->symbolic) { /* any size, in decimal (NULL: not counted in time) */
        v[0].value = r->states_text;
        v[1].value = r->edges_text;
    } else if (complete) {
        mcc_space_count(&v[0], r->states);
        mcc_space_count(&v[1], r->edges);
    }
    if (complete || r->proven_max_place)
        mcc_space_count(&v[2], r->max_tokens_place);
    if (complete || r->proven_max_marking)
        mcc_space_count(&v[3], r->max_tokens_marking);
}

void pn_mcc_print_state_space(FILE *out, const pn_engine_result *r, const pn_net *net)
{
    pn_mcc_space_value v[4];
    pn_mcc_space_values(r, net, v);
    if (!v[0].value && !v[1].value && !v[2].value && !v[3].value) {
        fputs("CANNOT_COMPUTE\n", out);
        return;
    }
    for (int k = 0; k < 4; k++)
        if (v[k].value != NULL)
            fprintf(out, "STATE_SPACE %s %s TECHNIQUES %s\n", v[k].key, v[k].value,
                    v[k].techniques);
        else
            fprintf(out, "STATE_SPACE %s CANNOT_COMPUTE\n", v[k].key);
}

void pn_mcc_print_formula(FILE *out, const char *id, const char *value,
                          const char *techniques)
{
    if (value == NULL)
        fprintf(out, "FORMULA %s CANNOT_COMPUTE\n", id);
    else
        fprintf(out, "FORMULA %s %s TECHNIQUES %s\n", id, value, techniques);
}
