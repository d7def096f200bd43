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

/* An exploration that did not end: the maxima proven by structure, the
 * other values CANNOT_COMPUTE (a bare CANNOT_COMPUTE when none was). */
static void mcc_print_proven_maxima(FILE *out, const pn_engine_result *r, const pn_net *net)
{
    if (!r->proven_max_place && !r->proven_max_marking) {
        fputs("CANNOT_COMPUTE\n", out);
        return;
    }
    char tech[128];
    pn_mcc_techniques(r, net, PN_TECH_TOPOLOGICAL, tech, sizeof tech);
    fputs("STATE_SPACE STATES CANNOT_COMPUTE\nSTATE_SPACE TRANSITIONS CANNOT_COMPUTE\n", out);
    if (r->proven_max_place)
        fprintf(out, "STATE_SPACE MAX_TOKEN_IN_PLACE %lu TECHNIQUES %s\n",
                (unsigned long)r->max_tokens_place, tech);
    else
        fputs("STATE_SPACE MAX_TOKEN_IN_PLACE CANNOT_COMPUTE\n", out);
    if (r->proven_max_marking)
        fprintf(out, "STATE_SPACE MAX_TOKEN_PER_MARKING %lu TECHNIQUES %s\n",
                (unsigned long)r->max_tokens_marking, tech);
    else
        fputs("STATE_SPACE MAX_TOKEN_PER_MARKING CANNOT_COMPUTE\n", out);
}

void pn_mcc_print_state_space(FILE *out, const pn_engine_result *r, const pn_net *net)
{
    if (r->status != PN_RUN_COMPLETE) {
        mcc_print_proven_maxima(out, r, net);
        return;
    }
    char tech[128], states[24], edges[24];
    pn_mcc_techniques(r, net, r->symbolic ? PN_TECH_DECISION_DIAGRAMS : PN_TECH_EXPLICIT, tech,
                      sizeof tech);
    snprintf(states, sizeof states, "%lu", (unsigned long)r->states);
    snprintf(edges, sizeof edges, "%lu", (unsigned long)r->edges);
    fprintf(out, "STATE_SPACE STATES %s TECHNIQUES %s\n", r->symbolic ? r->states_text : states,
            tech);
    if (r->symbolic && r->edges_text == NULL) /* not counted in time */
        fputs("STATE_SPACE TRANSITIONS CANNOT_COMPUTE\n", out);
    else
        fprintf(out, "STATE_SPACE TRANSITIONS %s TECHNIQUES %s\n",
                r->symbolic ? r->edges_text : edges, tech);
    fprintf(out, "STATE_SPACE MAX_TOKEN_IN_PLACE %lu TECHNIQUES %s\n",
            (unsigned long)r->max_tokens_place, tech);
    if (r->max_tokens_marking == UINT64_MAX) /* saturated: not a proven value */
        fputs("STATE_SPACE MAX_TOKEN_PER_MARKING CANNOT_COMPUTE\n", out);
    else
        fprintf(out, "STATE_SPACE MAX_TOKEN_PER_MARKING %lu TECHNIQUES %s\n",
                (unsigned long)r->max_tokens_marking, tech);
}

void pn_mcc_print_formula(FILE *out, const char *id, const char *value,
                          const char *techniques)
{
    if (value == NULL)
        fprintf(out, "FORMULA %s CANNOT_COMPUTE\n", id);
    else
        fprintf(out, "FORMULA %s %s TECHNIQUES %s\n", id, value, techniques);
}
