/* The .dot reader of RERS parallel systems (petrel/rers.h), on Graphviz's
 * own parser (cgraph; E. R. Gansner and S. C. North, "An open graph
 * visualization system and its applications to software engineering",
 * Software: Practice and Experience 30(11), 2000). cgraph gives the graph,
 * its subgraphs and their edges; this file only decides which subgraph is
 * which LTS, which node starts it and which label each edge carries.
 *
 * cgraph keeps node names global to the file, so two clusters may share a
 * node name: nodes are numbered per LTS (local[] by cgraph's sequence
 * number), and an edge belongs to the subgraph it was written in.
 *
 * cgraph reports syntax errors through its own error channel, which is
 * process-wide: its level is raised for the read (so nothing is printed)
 * and restored after, and the last message is quoted in ours. Like cgraph
 * itself, the reader is for one thread at a time. */
#include "petrel/rers_read.h"

#include <stdlib.h>
#include <string.h>

#ifdef PETREL_HAVE_CGRAPH
#include <graphviz/cgraph.h>

#include "net/strmap.h"

typedef struct dot_reader {
    const char *file;
    Agraph_t *g;
    Agraph_t **comp;
    uint32_t n_comp;
    uint32_t *local;         /* by node sequence number: local state, or UINT32_MAX */
    uint8_t *pseudo;         /* by node sequence number: a start arrow's source */
    uint64_t max_seq;
    pn_strmap *labels;
    pn_lts_system *sys;      /* the LTSs of every graph read so far */
    pn_error *err;
} dot_reader;

static pn_status dot_nomem(dot_reader *r)
{
    return pn_fail(r->err, PN_ERR_NOMEM, "%s: out of memory", r->file);
}

static const char *dot_label(Agedge_t *e)
{
    const char *l = agget(e, "label");
    return l != NULL ? l : "";
}

static bool dot_is_cluster(Agraph_t *sub)
{
    const char *name = agnameof(sub);
    return name != NULL && strncmp(name, "cluster", 7) == 0;
}

/* The LTSs: top-level clusters, else top-level subgraphs, else the root. */
static pn_status dot_components(dot_reader *r)
{
    uint32_t n = 0, clusters = 0;
    for (Agraph_t *s = agfstsubg(r->g); s != NULL; s = agnxtsubg(s)) {
        n++;
        clusters += dot_is_cluster(s);
    }
    r->comp = malloc(((size_t)n + 1) * sizeof *r->comp);
    if (r->comp == NULL)
        return dot_nomem(r);
    for (Agraph_t *s = agfstsubg(r->g); s != NULL; s = agnxtsubg(s))
        if (clusters == 0 || dot_is_cluster(s))
            r->comp[r->n_comp++] = s;
    if (r->n_comp == 0)
        r->comp[r->n_comp++] = r->g;
    return PN_OK;
}

/* Every edge lies in exactly one LTS. */
static pn_status dot_check_edges(dot_reader *r)
{
    for (Agnode_t *n = agfstnode(r->g); n != NULL; n = agnxtnode(r->g, n))
        for (Agedge_t *e = agfstout(r->g, n); e != NULL; e = agnxtout(r->g, e)) {
            uint32_t in = 0;
            for (uint32_t c = 0; c < r->n_comp; c++)
                in += agsubedge(r->comp[c], e, 0) != NULL;
            if (in != 1)
                return pn_fail(r->err, PN_ERR_INPUT, "%s: edge %s -> %s [label=\"%s\"] is in %s",
                               r->file, agnameof(agtail(e)), agnameof(aghead(e)), dot_label(e),
                               in == 0 ? "no LTS (cluster)" : "several LTSs (clusters)");
        }
    return PN_OK;
}

/* RERS's start arrow: an edge with an empty label from a node with no other
 * edge. Marks such sources pseudo (not states); returns the start, NULL
 * when there is no arrow, with *conflict when two arrows disagree. */
static Agnode_t *dot_start_arrow(dot_reader *r, Agraph_t *sub, bool *conflict)
{
    Agnode_t *start = NULL;
    *conflict = false;
    for (Agnode_t *n = agfstnode(sub); n != NULL; n = agnxtnode(sub, n)) {
        Agedge_t *e = agfstout(sub, n);
        if (e == NULL || agnxtout(sub, e) != NULL || agfstin(sub, n) != NULL ||
            dot_label(e)[0] != '\0' || aghead(e) == n)
            continue;
        r->pseudo[AGSEQ(n)] = 1;
        if (start != NULL && start != aghead(e))
            *conflict = true;
        start = aghead(e);
    }
    return start;
}

/* The one node without incoming edges (CodeThorn's rule for RERS files). */
static Agnode_t *dot_root(Agraph_t *sub, bool *several)
{
    Agnode_t *root = NULL;
    *several = false;
    for (Agnode_t *n = agfstnode(sub); n != NULL; n = agnxtnode(sub, n))
        if (agfstin(sub, n) == NULL) {
            *several |= root != NULL;
            root = n;
        }
    return root;
}

static uint32_t dot_label_index(dot_reader *r, const char *l)
{
    if (l[0] == '\0')
        return PN_LTS_INTERNAL;
    int64_t i = pn_strmap_get(r->labels, l);
    if (i >= 0)
        return (uint32_t)i;
    pn_lts_system *s = r->sys;
    char **grown = realloc(s->label, ((size_t)s->n_labels + 1) * sizeof *grown);
    if (grown == NULL)
        return UINT32_MAX - 1;
    s->label = grown;
    if ((grown[s->n_labels] = strdup(l)) == NULL)
        return UINT32_MAX - 1;
    if (pn_strmap_put(r->labels, grown[s->n_labels], s->n_labels) < 0) {
        free(grown[s->n_labels]);
        return UINT32_MAX - 1;
    }
    return s->n_labels++;
}

static pn_status dot_states(dot_reader *r, Agraph_t *sub, pn_lts *l)
{
    uint32_t n = 0;
    for (Agnode_t *v = agfstnode(sub); v != NULL; v = agnxtnode(sub, v))
        n += !r->pseudo[AGSEQ(v)];
    l->state = calloc((size_t)n + 1, sizeof *l->state);
    if (l->state == NULL)
        return dot_nomem(r);
    for (Agnode_t *v = agfstnode(sub); v != NULL; v = agnxtnode(sub, v)) {
        if (r->pseudo[AGSEQ(v)])
            continue;
        r->local[AGSEQ(v)] = l->n_states;
        if ((l->state[l->n_states++] = strdup(agnameof(v))) == NULL)
            return dot_nomem(r);
    }
    return PN_OK;
}

static pn_status dot_edges(dot_reader *r, Agraph_t *sub, pn_lts *l)
{
    uint32_t n = (uint32_t)agnedges(sub);
    l->edge = malloc(((size_t)n + 1) * sizeof *l->edge);
    if (l->edge == NULL)
        return dot_nomem(r);
    for (Agnode_t *v = agfstnode(sub); v != NULL; v = agnxtnode(sub, v)) {
        if (r->pseudo[AGSEQ(v)])
            continue;
        for (Agedge_t *e = agfstout(sub, v); e != NULL; e = agnxtout(sub, e)) {
            uint32_t label = dot_label_index(r, dot_label(e));
            if (label == UINT32_MAX - 1)
                return dot_nomem(r);
            l->edge[l->n_edges++] = (pn_lts_edge){r->local[AGSEQ(v)],
                                                  r->local[AGSEQ(aghead(e))], label};
        }
    }
    return PN_OK;
}

static pn_status dot_lts(dot_reader *r, uint32_t c, pn_lts *l)
{
    Agraph_t *sub = r->comp[c];
    const char *name = sub == r->g ? "lts" : agnameof(sub);
    if ((l->name = strdup(name != NULL ? name : "lts")) == NULL)
        return dot_nomem(r);
    bool bad;
    Agnode_t *start = dot_start_arrow(r, sub, &bad);
    if (bad)
        return pn_fail(r->err, PN_ERR_INPUT, "%s: %s: start arrows (edges with an empty label "
                       "from a node without other edges) lead to different states",
                       r->file, l->name);
    if (start == NULL && ((start = dot_root(sub, &bad)) == NULL || bad))
        return pn_fail(r->err, PN_ERR_INPUT, "%s: %s: no start state (an edge with an empty "
                       "label into it from a node without other edges, or the only node "
                       "without incoming edges)", r->file, l->name);
    pn_status st = dot_states(r, sub, l);
    if (st == PN_OK)
        st = dot_edges(r, sub, l);
    l->start = r->local[AGSEQ(start)];
    for (Agnode_t *v = agfstnode(sub); v != NULL; v = agnxtnode(sub, v))
        r->local[AGSEQ(v)] = UINT32_MAX, r->pseudo[AGSEQ(v)] = 0;
    return st;
}

/* The LTSs of graph r->g, appended to r->sys. */
static pn_status dot_graph(dot_reader *r)
{
    if (!agisdirected(r->g))
        return pn_fail(r->err, PN_ERR_INPUT, "%s: %s is not a digraph", r->file, agnameof(r->g));
    pn_status st = dot_components(r);
    if (st == PN_OK)
        st = dot_check_edges(r);
    if (st != PN_OK)
        return st;
    r->max_seq = 0;
    for (Agnode_t *n = agfstnode(r->g); n != NULL; n = agnxtnode(r->g, n))
        if ((uint64_t)AGSEQ(n) > r->max_seq)
            r->max_seq = AGSEQ(n);
    r->local = malloc((r->max_seq + 1) * sizeof *r->local);
    r->pseudo = calloc(r->max_seq + 1, 1);
    pn_lts *lts = realloc(r->sys->lts, ((size_t)r->sys->n_lts + r->n_comp) * sizeof *lts);
    if (lts != NULL)
        r->sys->lts = lts;
    if (r->local == NULL || r->pseudo == NULL || lts == NULL)
        return dot_nomem(r);
    memset(r->local, 0xff, (r->max_seq + 1) * sizeof *r->local);
    memset(lts + r->sys->n_lts, 0, r->n_comp * sizeof *lts);
    for (uint32_t c = 0; st == PN_OK && c < r->n_comp; c++, r->sys->n_lts++)
        st = dot_lts(r, c, &lts[r->sys->n_lts]);
    return st;
}

/* aglasterr's text is the caller's to free (cgraph 2.42 on). */
static pn_status dot_syntax(const char *file, pn_error *err)
{
    char *msg = aglasterr();
    size_t n = msg != NULL ? strcspn(msg, "\n") : 0;
    pn_fail(err, PN_ERR_INPUT, "%s: not a Graphviz graph%s%.*s", file, n > 0 ? ": " : "",
            (int)(n > 200 ? 200 : n), msg != NULL ? msg : "");
    free(msg);
    return PN_ERR_INPUT;
}

/* Every graph of the stream (a file may hold several, one or more LTSs
 * each). */
static pn_status dot_stream(FILE *f, const char *file, pn_lts_system **out, pn_error *err)
{
    dot_reader r = {.file = file, .err = err};
    r.labels = pn_strmap_new();
    r.sys = calloc(1, sizeof *r.sys);
    pn_status st = r.labels != NULL && r.sys != NULL ? PN_OK : dot_nomem(&r);
    agerrlevel_t level = agseterr(AGMAX);
    agreseterrors();
    uint32_t graphs = 0;
    while (st == PN_OK && (r.g = agread(f, NULL)) != NULL) {
        graphs++;
        st = dot_graph(&r);
        free(r.comp);
        free(r.local);
        free(r.pseudo);
        r.comp = NULL, r.local = NULL, r.pseudo = NULL, r.n_comp = 0;
        agclose(r.g);
    }
    if (st == PN_OK && agerrors() > 0)
        st = dot_syntax(file, err);
    else if (st == PN_OK && graphs == 0)
        st = pn_fail(err, PN_ERR_INPUT, "%s: no graph", file);
    agseterr(level);
    pn_strmap_free(r.labels);
    if (st != PN_OK) {
        pn_lts_system_free(r.sys);
        return st;
    }
    *out = r.sys;
    return PN_OK;
}

pn_status pn_dot_read_file(const char *path, pn_lts_system **out, pn_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return pn_fail(err, PN_ERR_IO, "%s: cannot open", path);
    pn_status st = dot_stream(f, path, out, err);
    fclose(f);
    return st;
}

pn_status pn_dot_read_memory(const char *buf, size_t len, const char *label,
                             pn_lts_system **out, pn_error *err)
{
    *out = NULL;
    if (len == 0)
        return pn_fail(err, PN_ERR_INPUT, "%s: no graph", label);
    FILE *f = fmemopen((void *)buf, len, "r");
    if (f == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "%s: out of memory", label);
    pn_status st = dot_stream(f, label, out, err);
    fclose(f);
    return st;
}

#else /* no Graphviz */

pn_status pn_dot_read_file(const char *path, pn_lts_system **out, pn_error *err)
{
    *out = NULL;
    return pn_fail(err, PN_ERR_UNSUPPORTED, "%s: Petrel was built without Graphviz (cgraph): "
                   "run tools/install-deps.sh and rebuild, or give the PNML form", path);
}

pn_status pn_dot_read_memory(const char *buf, size_t len, const char *label,
                             pn_lts_system **out, pn_error *err)
{
    (void)buf;
    (void)len;
    return pn_dot_read_file(label, out, err);
}

#endif
