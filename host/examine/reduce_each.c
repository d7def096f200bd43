/* Structural reductions per formula, the way ITS-Tools treats each property
 * of an examination on a net reduced for it alone (Thierry-Mieg,
 * "Structural reductions revisited", Petri Nets 2020): one net for all the
 * formulas must keep every place any of them reads, so sixteen formulas
 * that each read a few places can pin the whole net (Kanban: 16 places,
 * read together, none removable), while each alone lets the rules fold most
 * of it. The rules and their soundness are pn_reduce's; a one-formula set
 * only gives them fewer observed places. */
#include "examine/reduce_each.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "petrel/pnml.h"

/* The share of the caller's time all the reductions may take. */
#define EACH_REDUCE_SHARE (1.0 / 10)

struct pn_each {
    uint32_t n;
    uint32_t *formula;  /* index in the set */
    pn_reduced **red;   /* its net and the one formula on it */
};

static uint64_t each_size(const pn_cnet *cn)
{
    return (uint64_t)cn->n_places + cn->n_transitions;
}

pn_status pn_each_new(const pn_cnet *cn, bool from_joint, pn_exam exam, const pn_fml_set *set,
                      uint64_t joint,
                      const pn_budget *budget, FILE *verbose, pn_each **out, pn_error *err)
{
    *out = NULL;
    if (set == NULL || (set->n < 2 && joint != PN_EACH_ALL) || !pn_reduce_applies(exam))
        return PN_OK;
    pn_each *e = calloc(1, sizeof *e);
    if (e == NULL || (e->formula = calloc(set->n, sizeof *e->formula)) == NULL ||
        (e->red = calloc(set->n, sizeof *e->red)) == NULL) {
        pn_each_free(e);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory for per-formula reductions");
    }
    pn_budget all = pn_budget_share(budget, EACH_REDUCE_SHARE);
    double t0 = pn_clock_now();
    uint32_t tried = 0;
    for (uint32_t i = 0; i < set->n && !pn_budget_expired(&all); i++) {
        if (set->props[i].status != PN_OK)
            continue;
        /* an equal slice of what is left for each formula still to come: a
         * net the rules take long on must not starve the later formulas */
        pn_budget b = pn_budget_share(&all, 1.0 / (set->n - i));
        pn_reduce_opts ro = {.budget = &b, .verbose = NULL, .no_dead_tests = from_joint};
        tried++;
        pn_fml_set one = {.n = 1, .props = &set->props[i], .net = set->net};
        pn_reduced *red = NULL;
        pn_error ignored = {0}; /* a formula whose reduction fails keeps the joint net */
        if (pn_reduce(cn, exam, &one, &ro, &red, &ignored) != PN_OK)
            continue;
        if (joint != PN_EACH_ALL && (!pn_reduce_changed(red) || 2 * each_size(red->cn) > joint)) {
            pn_reduced_free(red);
            continue;
        }
        if (verbose != NULL)
            fprintf(verbose, "petrel: reduction for %s alone: %u places, %u transitions\n",
                    set->props[i].id, red->cn->n_places, red->cn->n_transitions);
        e->formula[e->n] = i;
        e->red[e->n++] = red;
    }
    if (verbose != NULL)
        fprintf(verbose, "petrel: reduction per formula: %u of %u formulas reduced, %u with a "
                         "net of their own, in %.3f s\n",
                tried, set->n, e->n, pn_clock_now() - t0);
    if (e->n == 0) {
        pn_each_free(e);
        return PN_OK;
    }
    *out = e;
    return PN_OK;
}

uint32_t pn_each_count(const pn_each *e) { return e == NULL ? 0 : e->n; }

uint32_t pn_each_formula(const pn_each *e, uint32_t k) { return e->formula[k]; }

const pn_reduced *pn_each_reduced(const pn_each *e, uint32_t k) { return e->red[k]; }

/* a + "/" + b; with sanitize, b's '/' become '_' and "." or ".." gets a
 * '_' first letter. NULL: no memory. */
static char *each_join(const char *a, const char *b, bool sanitize)
{
    size_t la = strlen(a), n = la + strlen(b) + 2;
    char *p = malloc(n);
    if (p == NULL)
        return NULL;
    snprintf(p, n, "%s/%s", a, b);
    for (char *c = p + la + 1; sanitize && *c; c++)
        if (*c == '/')
            *c = '_';
    if (sanitize && (strcmp(b, ".") == 0 || strcmp(b, "..") == 0))
        p[la + 1] = '_';
    return p;
}

/* One formula's folder: its net and its formula file. */
static pn_status each_write_one(const pn_reduced *red, const char *xml, const char *dir,
                                pn_error *err)
{
    char *folder = each_join(dir, red->set->props[0].id, true);
    if (folder == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory");
    if (mkdir(folder, 0777) != 0 && errno != EEXIST) {
        pn_status st = pn_fail(err, PN_ERR_IO, "%s: cannot make the folder: %s", folder,
                               strerror(errno));
        free(folder);
        return st;
    }
    char *net = each_join(folder, "model.pnml", false), *fml = each_join(folder, xml, false);
    pn_status st = net == NULL || fml == NULL ? pn_fail(err, PN_ERR_NOMEM, "out of memory")
                                              : pn_pnml_write_file(net, red->net, err);
    if (st == PN_OK)
        st = pn_fml_write_file(fml, red->set, red->net, err);
    free(net);
    free(fml);
    free(folder);
    return st;
}

pn_status pn_each_write(const pn_each *e, pn_exam exam, const char *dir, pn_error *err)
{
    const char *xml = pn_exam_formula_file(exam);
    for (uint32_t k = 0; k < pn_each_count(e) && xml != NULL; k++) {
        pn_status st = each_write_one(e->red[k], xml, dir, err);
        if (st != PN_OK)
            return st;
    }
    return PN_OK;
}

void pn_each_free(pn_each *e)
{
    if (e == NULL)
        return;
    for (uint32_t k = 0; e->red != NULL && k < e->n; k++)
        pn_reduced_free(e->red[k]);
    free(e->red);
    free(e->formula);
    free(e);
}
