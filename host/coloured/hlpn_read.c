/* Symmetric-net PNML reader. Coloured models are small next to their
 * unfolding, so the document is read into a DOM (which the term parser
 * needs anyway: terms are trees) and walked twice: first the declarations
 * and the node ids (sorts and nodes may be referred to before they appear),
 * then the typed labels. */
#include "coloured/hlpn.h"

#include <stdlib.h>

/* node_index values: places as is, transitions with this bit. */
#define HL_TRANS_BIT (INT64_C(1) << 32)

/* The first child element named `name`, or NULL. */
static xmlNode *hl_child(xmlNode *e, const char *name)
{
    for (xmlNode *c = hl_elem(e->children); c != NULL; c = hl_elem(c->next))
        if (hl_is(c, name))
            return c;
    return NULL;
}

/* The single element inside a label's <structure>. */
static xmlNode *hl_structure(hl_model *m, xmlNode *label)
{
    xmlNode *s = hl_child(label, "structure");
    xmlNode *body = s != NULL ? hl_elem(s->children) : NULL;
    if (body == NULL)
        hl_fail(m, PN_ERR_INPUT, label, "no <structure> with a term inside");
    return body;
}

static pn_status hl_required_id(hl_model *m, xmlNode *e, const char *attr,
                                const char **out)
{
    *out = hl_attr(e, attr);
    if (*out == NULL)
        return hl_fail(m, PN_ERR_INPUT, e, "missing %s attribute", attr);
    if ((*out)[0] == '\0')
        return hl_fail(m, PN_ERR_INPUT, e, "empty %s attribute", attr);
    return PN_OK;
}

/* ---- pass 1: declarations and node ids ----------------------------------- */

static pn_status hl_register_node(hl_model *m, xmlNode *e, bool place)
{
    const char *id;
    pn_status st = hl_required_id(m, e, "id", &id);
    if (st != PN_OK)
        return st;
    if (pn_strmap_get(m->node_index, id) >= 0)
        return hl_fail(m, PN_ERR_INPUT, e, "duplicate id '%.120s'", id);
    int64_t key;
    if (place) {
        if (hl_grow((void **)&m->places, &m->cap_places, m->n_places + 1, sizeof *m->places))
            return hl_nomem(m);
        m->places[m->n_places] = (hl_place){id, e, HL_NONE, NULL};
        key = m->n_places++;
    } else {
        if (hl_grow((void **)&m->trans, &m->cap_trans, m->n_trans + 1, sizeof *m->trans))
            return hl_nomem(m);
        m->trans[m->n_trans] = (hl_trans){id, e, NULL, 0, 0};
        key = HL_TRANS_BIT | m->n_trans++;
    }
    return pn_strmap_put(m->node_index, id, key) < 0 ? hl_nomem(m) : PN_OK;
}

static pn_status hl_register_arc(hl_model *m, xmlNode *e)
{
    if (hl_grow((void **)&m->arcs, &m->cap_arcs, m->n_arcs + 1, sizeof *m->arcs))
        return hl_nomem(m);
    m->arcs[m->n_arcs++] = (hl_arc){hl_attr(e, "id"), e, 0, 0, false, NULL};
    return PN_OK;
}

static pn_status hl_declaration(hl_model *m, xmlNode *e)
{
    xmlNode *s = hl_child(e, "structure");
    xmlNode *d = s != NULL ? hl_child(s, "declarations") : NULL;
    if (d == NULL)
        return hl_fail(m, PN_ERR_INPUT, e, "no <structure><declarations> inside");
    return hl_declare(m, d);
}

/* Pages only group nodes; their nesting is bounded by libxml2's depth
 * limit, so recursion is safe. */
static pn_status hl_collect(hl_model *m, xmlNode *parent)
{
    pn_status st = PN_OK;
    for (xmlNode *c = hl_elem(parent->children); c != NULL && st == PN_OK;
         c = hl_elem(c->next)) {
        if (hl_is(c, "page"))
            st = hl_collect(m, c);
        else if (hl_is(c, "declaration"))
            st = hl_declaration(m, c);
        else if (hl_is(c, "place") || hl_is(c, "transition"))
            st = hl_register_node(m, c, hl_is(c, "place"));
        else if (hl_is(c, "arc"))
            st = hl_register_arc(m, c);
        else if (hl_is(c, "referencePlace") || hl_is(c, "referenceTransition"))
            st = hl_fail(m, PN_ERR_UNSUPPORTED, c,
                         "reference nodes in coloured nets are not supported");
    }
    return st;
}

/* ---- pass 2: typed labels ------------------------------------------------ */

static pn_status hl_read_place(hl_model *m, hl_place *p)
{
    xmlNode *type = hl_child(p->node, "type");
    if (type == NULL)
        return hl_fail(m, PN_ERR_INPUT, p->node, "place '%.120s' has no <type>", p->id);
    xmlNode *sort = hl_structure(m, type);
    if (sort == NULL)
        return m->err->code;
    p->sort = hl_sort_of(m, sort);
    if (p->sort == HL_NONE)
        return m->err->code;
    xmlNode *init = hl_child(p->node, "hlinitialMarking");
    if (init == NULL)
        return PN_OK;
    xmlNode *term = hl_structure(m, init);
    p->m0 = term != NULL ? hl_parse_multiset(m, term, p->sort) : NULL;
    return p->m0 != NULL ? PN_OK : m->err->code;
}

static pn_status hl_read_guard(hl_model *m, hl_trans *t)
{
    xmlNode *cond = hl_child(t->node, "condition");
    if (cond == NULL)
        return PN_OK;
    xmlNode *term = hl_structure(m, cond);
    t->guard = term != NULL ? hl_parse_guard(m, term) : NULL;
    return t->guard != NULL ? PN_OK : m->err->code;
}

/* Resolves one end of an arc: *index, and whether it is a place. */
static pn_status hl_arc_end(hl_model *m, xmlNode *e, const char *attr,
                            uint32_t *index, bool *place)
{
    const char *id;
    pn_status st = hl_required_id(m, e, attr, &id);
    if (st != PN_OK)
        return st;
    int64_t v = pn_strmap_get(m->node_index, id);
    if (v < 0)
        return hl_fail(m, PN_ERR_INPUT, e, "%s '%.120s' is not a place or transition",
                       attr, id);
    *place = (v & HL_TRANS_BIT) == 0;
    *index = (uint32_t)(v & ~HL_TRANS_BIT);
    return PN_OK;
}

/* An arc without inscription carries one token, which only means something
 * for a place of sort dot. */
static pn_status hl_default_inscription(hl_model *m, hl_arc *a)
{
    uint32_t s = m->places[a->place].sort;
    if (m->sorts[s].kind != HL_SORT_DOT)
        return hl_fail(m, PN_ERR_INPUT, a->node,
                       "no <hlinscription> on an arc of place '%.120s' (sort %s)",
                       m->places[a->place].id, hl_sort_name(m, s));
    a->ins = calloc(1, sizeof *a->ins);
    if (a->ins == NULL)
        return hl_nomem(m);
    *a->ins = (hl_term){HL_T_ALL, s, 0, NULL, 0, xmlGetLineNo(a->node)};
    return PN_OK;
}

static pn_status hl_read_arc(hl_model *m, hl_arc *a)
{
    uint32_t src, dst;
    bool src_place, dst_place;
    pn_status st = hl_arc_end(m, a->node, "source", &src, &src_place);
    if (st == PN_OK)
        st = hl_arc_end(m, a->node, "target", &dst, &dst_place);
    if (st != PN_OK)
        return st;
    if (src_place == dst_place)
        return hl_fail(m, PN_ERR_INPUT, a->node, "arc connects two %s",
                       src_place ? "places" : "transitions");
    a->to_trans = src_place;
    a->place = src_place ? src : dst;
    a->trans = src_place ? dst : src;
    xmlNode *ins = hl_child(a->node, "hlinscription");
    if (ins == NULL)
        return hl_default_inscription(m, a);
    xmlNode *term = hl_structure(m, ins);
    a->ins = term != NULL ? hl_parse_multiset(m, term, m->places[a->place].sort) : NULL;
    return a->ins != NULL ? PN_OK : m->err->code;
}

/* Groups the arcs by transition (counting sort): the unfolder walks one
 * transition's arcs per binding. */
static pn_status hl_index_arcs(hl_model *m)
{
    m->by_trans = malloc(((size_t)m->n_arcs + 1) * sizeof *m->by_trans);
    if (m->by_trans == NULL)
        return hl_nomem(m);
    for (uint32_t i = 0; i < m->n_arcs; i++)
        m->trans[m->arcs[i].trans].arc_count++;
    uint32_t off = 0;
    for (uint32_t t = 0; t < m->n_trans; t++) {
        m->trans[t].arc_first = off;
        off += m->trans[t].arc_count;
        m->trans[t].arc_count = 0;
    }
    for (uint32_t i = 0; i < m->n_arcs; i++) {
        hl_trans *t = &m->trans[m->arcs[i].trans];
        m->by_trans[t->arc_first + t->arc_count++] = i;
    }
    return PN_OK;
}

pn_status hl_read_net(hl_model *m, xmlNode *net)
{
    pn_status st = hl_collect(m, net);
    if (st == PN_OK)
        st = hl_resolve_declarations(m);
    if (st == PN_OK && m->n_places == 0)
        return hl_fail(m, PN_ERR_INPUT, net, "net has no places");
    for (uint32_t i = 0; i < m->n_places && st == PN_OK; i++)
        st = hl_read_place(m, &m->places[i]);
    for (uint32_t i = 0; i < m->n_trans && st == PN_OK; i++)
        st = hl_read_guard(m, &m->trans[i]);
    for (uint32_t i = 0; i < m->n_arcs && st == PN_OK; i++)
        st = hl_read_arc(m, &m->arcs[i]);
    return st == PN_OK ? hl_index_arcs(m) : st;
}

void hl_model_free(hl_model *m)
{
    for (uint32_t i = 0; i < m->n_sorts; i++) {
        free(m->sorts[i].comp);
        free(m->sorts[i].labels);
    }
    for (uint32_t i = 0; i < m->n_places; i++)
        hl_term_free(m->places[i].m0);
    for (uint32_t i = 0; i < m->n_trans; i++)
        hl_term_free(m->trans[i].guard);
    for (uint32_t i = 0; i < m->n_arcs; i++)
        hl_term_free(m->arcs[i].ins);
    hl_classes_free(m);
    free(m->sorts);
    free(m->consts);
    free(m->vars);
    free(m->places);
    free(m->trans);
    free(m->arcs);
    free(m->by_trans);
    pn_strmap_free(m->sort_index);
    pn_strmap_free(m->const_index);
    pn_strmap_free(m->var_index);
    pn_strmap_free(m->node_index);
}

/* ---- the net in the document --------------------------------------------- */

pn_status hl_find_net(hl_model *m, xmlDoc *doc, xmlNode **net)
{
    xmlNode *root = xmlDocGetRootElement(doc);
    if (root == NULL || !hl_is(root, "pnml"))
        return hl_fail(m, PN_ERR_INPUT, root, "the root element is not <pnml>");
    *net = hl_child(root, "net");
    if (*net == NULL)
        return pn_fail(m->err, PN_ERR_INPUT, "%s: no <net> element in the file", m->label);
    for (xmlNode *c = hl_elem((*net)->next); c != NULL; c = hl_elem(c->next))
        if (hl_is(c, "net"))
            return hl_fail(m, PN_ERR_INPUT, c, "more than one <net> in the file; "
                           "Petrel reads one net per file");
    return PN_OK;
}
