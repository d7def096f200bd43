/* The `properties` subcommand (properties.h): structural properties from
 * the arcs, behavioural ones through the examination driver (props.h),
 * then the comparison with the model's verdict file. */
#include "properties.h"

#include <stdio.h>
#include <string.h>

#include "petrel/props.h"
#include "verdicts.h"

static const char *props_word(pn_verdict v)
{
    return v == PN_VERDICT_TRUE ? "true" : v == PN_VERDICT_FALSE ? "false" : "unknown";
}

/* agree / disagree / not decided: decided means true or false on both sides. */
static const char *props_compare(const char *mine, const char *theirs)
{
    bool decided = theirs != NULL && strcmp(mine, "unknown") != 0 &&
                   (strcmp(theirs, "true") == 0 || strcmp(theirs, "false") == 0);
    if (!decided)
        return "not decided";
    return strcmp(mine, theirs) == 0 ? "agree" : "disagree";
}

static void props_print(const pn_props *p, const pn_verdicts *file)
{
    unsigned agree = 0, disagree = 0;
    printf("%-21s %-8s %-8s %s\n", "property", "petrel", "file", "comparison");
    for (int k = 0; k < PN_PROP_COUNT; k++) {
        const char *name = pn_prop_name((pn_prop)k);
        const char *mine = props_word(p->v[k].verdict);
        const char *theirs = file != NULL ? pn_verdicts_value(file, "GENERIC", name) : NULL;
        const char *cmp = props_compare(mine, theirs);
        agree += strcmp(cmp, "agree") == 0;
        disagree += strcmp(cmp, "disagree") == 0;
        printf("%-21s %-8s %-8s %s\n", name, mine, theirs != NULL ? theirs : "-", cmp);
    }
    if (file == NULL)
        printf("# no GenericPropertiesVerdict.xml beside the model\n");
    else
        printf("# %u agree, %u disagree, %u not decided\n", agree, disagree,
               PN_PROP_COUNT - agree - disagree);
}

int cli_properties_run(const cli_options *o, const char *dir, const pn_cnet *cn,
                       const pn_examine_opts *xo, pn_budget *budget)
{
    FILE *diag = o->quiet ? NULL : stderr;
    pn_verdicts *file = cli_verdicts_read_model(dir, diag);
    if (o->use_verdicts)
        cli_verdicts_check_hints(file, cn, diag);
    pn_props p = {0};
    pn_error err = {0};
    pn_status st = pn_props_structural(cn, &p, &err);
    if (st == PN_OK)
        st = pn_props_behavioural(cn, xo, budget, &p, &err);
    int rc = 0;
    if (st != PN_OK) {
        fprintf(stderr, "petrel: %s\n", err.msg);
        rc = 1;
    } else {
        props_print(&p, file);
        fflush(stdout);
        if (o->verdict_xml != NULL)
            rc = cli_verdicts_write_props(o->verdict_xml, cn->net, &p);
    }
    pn_props_free(&p);
    pn_verdicts_free(file);
    return rc;
}
