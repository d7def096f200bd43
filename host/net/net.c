#include "petrel/net.h"

#include <stdlib.h>
#include <string.h>

#include "net/strmap.h"

static char *net_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

pn_net *pn_net_new(const char *id)
{
    pn_net *net = calloc(1, sizeof *net);
    if (net == NULL)
        return NULL;
    net->id = net_strdup(id != NULL ? id : "");
    net->place_index = pn_strmap_new();
    net->trans_index = pn_strmap_new();
    if (net->id == NULL || net->place_index == NULL || net->trans_index == NULL) {
        pn_net_free(net);
        return NULL;
    }
    return net;
}

static void net_groups_free(pn_net_groups *g)
{
    for (uint32_t i = 0; i < g->n; i++) {
        free(g->id[i]);
        free(g->idx[i]);
    }
    free(g->id);
    free(g->idx);
    free(g->len);
    pn_strmap_free(g->index);
}

void pn_net_free(pn_net *net)
{
    if (net == NULL)
        return;
    for (uint32_t i = 0; i < net->n_places; i++) {
        free(net->place_id[i]);
        free(net->place_name[i]);
    }
    for (uint32_t i = 0; i < net->n_transitions; i++) {
        free(net->trans_id[i]);
        free(net->trans_name[i]);
    }
    free(net->place_id);
    free(net->place_name);
    free(net->m0);
    free(net->trans_id);
    free(net->trans_name);
    free(net->arcs);
    pn_strmap_free(net->place_index);
    pn_strmap_free(net->trans_index);
    net_groups_free(&net->place_groups);
    net_groups_free(&net->trans_groups);
    free(net->id);
    free(net);
}

/* Grows each array to hold `need` elements of the given sizes. */
static int net_reserve(void **arrays[], const size_t sizes[], int n_arrays,
                       uint32_t *cap, uint32_t need)
{
    if (need <= *cap)
        return 0;
    uint64_t ncap = *cap ? (uint64_t)*cap * 2 : 16;
    if (ncap > UINT32_MAX)
        ncap = UINT32_MAX;
    if (ncap < need)
        return -1;
    for (int i = 0; i < n_arrays; i++) {
        void *p = realloc(*arrays[i], ncap * sizes[i]);
        if (p == NULL)
            return -1;
        *arrays[i] = p;
    }
    *cap = (uint32_t)ncap;
    return 0;
}

static int net_id_taken(const pn_net *net, const char *id)
{
    return pn_strmap_get(net->place_index, id) >= 0 ||
           pn_strmap_get(net->trans_index, id) >= 0;
}

int64_t pn_net_add_place(pn_net *net, const char *id, const char *name,
                         uint64_t m0, pn_error *err)
{
    if (net_id_taken(net, id)) {
        pn_fail(err, PN_ERR_INPUT, "duplicate id '%s'", id);
        return -1;
    }
    if (net->n_places == UINT32_MAX) {
        pn_fail(err, PN_ERR_INPUT, "too many places (at place '%s')", id);
        return -1;
    }
    void **arrays[] = {(void **)&net->place_id, (void **)&net->place_name,
                       (void **)&net->m0};
    const size_t sizes[] = {sizeof(char *), sizeof(char *), sizeof(uint64_t)};
    if (net_reserve(arrays, sizes, 3, &net->cap_places, net->n_places + 1) != 0)
        goto nomem;
    uint32_t i = net->n_places;
    net->place_id[i] = net_strdup(id);
    net->place_name[i] = net_strdup(name != NULL ? name : id);
    if (net->place_id[i] == NULL || net->place_name[i] == NULL) {
        free(net->place_id[i]);
        free(net->place_name[i]);
        goto nomem;
    }
    if (pn_strmap_put(net->place_index, net->place_id[i], i) < 0) {
        free(net->place_id[i]);
        free(net->place_name[i]);
        goto nomem;
    }
    net->m0[i] = m0;
    net->n_places++;
    return i;
nomem:
    pn_fail(err, PN_ERR_NOMEM, "out of memory adding place '%s'", id);
    return -1;
}

int64_t pn_net_add_transition(pn_net *net, const char *id, const char *name,
                              pn_error *err)
{
    if (net_id_taken(net, id)) {
        pn_fail(err, PN_ERR_INPUT, "duplicate id '%s'", id);
        return -1;
    }
    if (net->n_transitions == UINT32_MAX) {
        pn_fail(err, PN_ERR_INPUT, "too many transitions (at '%s')", id);
        return -1;
    }
    void **arrays[] = {(void **)&net->trans_id, (void **)&net->trans_name};
    const size_t sizes[] = {sizeof(char *), sizeof(char *)};
    if (net_reserve(arrays, sizes, 2, &net->cap_transitions,
                    net->n_transitions + 1) != 0)
        goto nomem;
    uint32_t i = net->n_transitions;
    net->trans_id[i] = net_strdup(id);
    net->trans_name[i] = net_strdup(name != NULL ? name : id);
    if (net->trans_id[i] == NULL || net->trans_name[i] == NULL ||
        pn_strmap_put(net->trans_index, net->trans_id[i], i) < 0) {
        free(net->trans_id[i]);
        free(net->trans_name[i]);
        goto nomem;
    }
    net->n_transitions++;
    return i;
nomem:
    pn_fail(err, PN_ERR_NOMEM, "out of memory adding transition '%s'", id);
    return -1;
}

pn_status pn_net_add_arc(pn_net *net, uint32_t place, uint32_t transition,
                         bool to_transition, uint64_t weight, pn_error *err)
{
    if (place >= net->n_places || transition >= net->n_transitions)
        return pn_fail(err, PN_ERR_INTERNAL, "arc to a node index out of range");
    if (weight == 0)
        return pn_fail(err, PN_ERR_INPUT, "arc %s -> %s has weight 0",
                       to_transition ? net->place_id[place] : net->trans_id[transition],
                       to_transition ? net->trans_id[transition] : net->place_id[place]);
    void **arrays[] = {(void **)&net->arcs};
    const size_t sizes[] = {sizeof(pn_arc)};
    if (net_reserve(arrays, sizes, 1, &net->cap_arcs, net->n_arcs + 1) != 0)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory adding an arc");
    pn_arc *a = &net->arcs[net->n_arcs++];
    a->place = place;
    a->transition = transition;
    a->weight = weight;
    a->to_transition = to_transition;
    return PN_OK;
}

int64_t pn_net_find_place(const pn_net *net, const char *id)
{
    return pn_strmap_get(net->place_index, id);
}

int64_t pn_net_find_transition(const pn_net *net, const char *id)
{
    return pn_strmap_get(net->trans_index, id);
}

/* ---- groups (coloured ids) ---------------------------------------------- */

static pn_status net_group_check(const pn_net *net, bool place, const char *id,
                                 const uint32_t *idx, uint32_t n, pn_error *err)
{
    const pn_net_groups *g = place ? &net->place_groups : &net->trans_groups;
    if (g->index != NULL && pn_strmap_get(g->index, id) >= 0)
        return pn_fail(err, PN_ERR_INPUT, "duplicate coloured %s id '%s'",
                       place ? "place" : "transition", id);
    uint32_t limit = place ? net->n_places : net->n_transitions;
    for (uint32_t i = 0; i < n; i++)
        if (idx[i] >= limit)
            return pn_fail(err, PN_ERR_INTERNAL, "group '%s' names a node out of range", id);
    return PN_OK;
}

pn_status pn_net_add_group(pn_net *net, bool place, const char *id,
                           const uint32_t *idx, uint32_t n, pn_error *err)
{
    pn_status st = net_group_check(net, place, id, idx, n, err);
    if (st != PN_OK)
        return st;
    pn_net_groups *g = place ? &net->place_groups : &net->trans_groups;
    void **arrays[] = {(void **)&g->id, (void **)&g->idx, (void **)&g->len};
    const size_t sizes[] = {sizeof(char *), sizeof(uint32_t *), sizeof(uint32_t)};
    if ((g->index == NULL && (g->index = pn_strmap_new()) == NULL) ||
        net_reserve(arrays, sizes, 3, &g->cap, g->n + 1) != 0)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory adding group '%s'", id);
    char *copy = net_strdup(id);
    uint32_t *list = malloc(n > 0 ? (size_t)n * sizeof *list : 1);
    if (copy == NULL || list == NULL || pn_strmap_put(g->index, copy, g->n) < 0) {
        free(copy);
        free(list);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory adding group '%s'", id);
    }
    if (n > 0)
        memcpy(list, idx, (size_t)n * sizeof *list);
    g->id[g->n] = copy;
    g->idx[g->n] = list;
    g->len[g->n] = n;
    g->n++;
    return PN_OK;
}

static bool net_find_group(const pn_net_groups *g, const char *id,
                           const uint32_t **idx, uint32_t *n)
{
    int64_t i = g->index != NULL ? pn_strmap_get(g->index, id) : -1;
    if (i < 0)
        return false;
    *idx = g->idx[i];
    *n = g->len[i];
    return true;
}

bool pn_net_find_place_group(const pn_net *net, const char *id,
                             const uint32_t **idx, uint32_t *n)
{
    return net_find_group(&net->place_groups, id, idx, n);
}

bool pn_net_find_transition_group(const pn_net *net, const char *id,
                                  const uint32_t **idx, uint32_t *n)
{
    return net_find_group(&net->trans_groups, id, idx, n);
}
