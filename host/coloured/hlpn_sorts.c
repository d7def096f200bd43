/* Sorts, enumeration constants and variables of a symmetric net (the sorts
 * of ISO/IEC 15909-2's symmetric nets: dot, bool, cyclic and finite
 * enumerations, finite integer ranges, products and partitions). Named
 * sorts may refer to sorts declared later, so hl_declare only records them
 * and hl_resolve_declarations builds each on first use, with a state flag
 * that turns a cyclic definition into an error instead of a recursion. */
#include "coloured/hlpn.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t hl_new_sort(hl_model *m, const char *id, xmlNode *node)
{
    if (hl_grow((void **)&m->sorts, &m->cap_sorts, m->n_sorts + 1, sizeof *m->sorts)) {
        hl_nomem(m);
        return HL_NONE;
    }
    hl_sort *s = &m->sorts[m->n_sorts];
    memset(s, 0, sizeof *s);
    s->id = id;
    s->node = node;
    s->target = HL_NONE;
    return m->n_sorts++;
}

static pn_status hl_declare_sort(hl_model *m, xmlNode *e)
{
    const char *id = hl_attr(e, "id");
    xmlNode *body = hl_elem(e->children);
    if (id == NULL || id[0] == '\0')
        return hl_fail(m, PN_ERR_INPUT, e, "namedsort without id");
    if (body == NULL)
        return hl_fail(m, PN_ERR_INPUT, e, "namedsort '%.120s' has no sort inside", id);
    if (pn_strmap_get(m->sort_index, id) >= 0)
        return hl_fail(m, PN_ERR_INPUT, e, "duplicate sort id '%.120s'", id);
    uint32_t s = hl_new_sort(m, id, body);
    if (s == HL_NONE)
        return m->err->code;
    return pn_strmap_put(m->sort_index, id, s) < 0 ? hl_nomem(m) : PN_OK;
}

static pn_status hl_declare_var(hl_model *m, xmlNode *e)
{
    const char *id = hl_attr(e, "id");
    if (id == NULL || id[0] == '\0')
        return hl_fail(m, PN_ERR_INPUT, e, "variabledecl without id");
    if (pn_strmap_get(m->var_index, id) >= 0)
        return hl_fail(m, PN_ERR_INPUT, e, "duplicate variable id '%.120s'", id);
    if (hl_grow((void **)&m->vars, &m->cap_vars, m->n_vars + 1, sizeof *m->vars))
        return hl_nomem(m);
    m->vars[m->n_vars] = (hl_var){id, e, HL_NONE};
    return pn_strmap_put(m->var_index, id, m->n_vars++) < 0 ? hl_nomem(m) : PN_OK;
}

/* <partition id> is a sort declaration of its own (a sibling of namedsort):
 * the element itself is the sort's body. */
static pn_status hl_declare_partition(hl_model *m, xmlNode *e)
{
    const char *id = hl_attr(e, "id");
    if (id == NULL || id[0] == '\0')
        return hl_fail(m, PN_ERR_INPUT, e, "partition without id");
    if (pn_strmap_get(m->sort_index, id) >= 0)
        return hl_fail(m, PN_ERR_INPUT, e, "duplicate sort id '%.120s'", id);
    uint32_t s = hl_new_sort(m, id, e);
    if (s == HL_NONE)
        return m->err->code;
    return pn_strmap_put(m->sort_index, id, s) < 0 ? hl_nomem(m) : PN_OK;
}

pn_status hl_declare(hl_model *m, xmlNode *declarations)
{
    pn_status st = PN_OK;
    for (xmlNode *c = hl_elem(declarations->children); c != NULL && st == PN_OK;
         c = hl_elem(c->next)) {
        if (hl_is(c, "namedsort"))
            st = hl_declare_sort(m, c);
        else if (hl_is(c, "partition"))
            st = hl_declare_partition(m, c);
        else if (hl_is(c, "variabledecl"))
            st = hl_declare_var(m, c);
        else
            st = hl_unknown(m, c, "in <declarations>");
    }
    return st;
}

/* ---- building sorts ------------------------------------------------------ */

static uint32_t hl_resolve_named(hl_model *m, uint32_t s, const xmlNode *from);

uint32_t hl_canon(const hl_model *m, uint32_t s)
{
    while (s != HL_NONE && m->sorts[s].kind == HL_SORT_ALIAS)
        s = m->sorts[s].target;
    return s;
}

/* Constant labels name unfolded places, so they must tell colours apart:
 * the names of body's `tag` children (the constants, or the partition
 * elements) when those are distinct and non-empty, else their ids.
 * 1: names used, 0: ids used, -1: no memory. */
static int hl_enum_labels(hl_sort *s, xmlNode *body, const char *tag)
{
    pn_strmap *seen = pn_strmap_new();
    if (seen == NULL)
        return -1;
    bool use_names = true;
    uint32_t k = 0;
    for (xmlNode *c = hl_elem(body->children); c != NULL; c = hl_elem(c->next)) {
        if (!hl_is(c, tag))
            continue;
        const char *name = hl_attr(c, "name");
        int rc = name != NULL && name[0] != '\0' ? pn_strmap_put(seen, name, k) : 0;
        if (rc < 0) {
            pn_strmap_free(seen);
            return -1;
        }
        use_names = use_names && rc == 1;
        s->labels[k++] = name;
    }
    pn_strmap_free(seen);
    if (use_names)
        return 1;
    k = 0;
    for (xmlNode *c = hl_elem(body->children); c != NULL; c = hl_elem(c->next))
        if (hl_is(c, tag))
            s->labels[k++] = hl_attr(c, "id");
    return 0;
}

/* Registers element c (an feconstant, or a partitionelement) as the
 * constant `colour` of `sort`. */
static pn_status hl_add_const(hl_model *m, xmlNode *c, uint32_t sort, uint32_t colour)
{
    const char *id = hl_attr(c, "id");
    if (id == NULL || id[0] == '\0')
        return hl_fail(m, PN_ERR_INPUT, c, "%s without id", (const char *)c->name);
    if (pn_strmap_get(m->const_index, id) >= 0)
        return hl_fail(m, PN_ERR_INPUT, c, "duplicate constant id '%.120s'", id);
    if (hl_grow((void **)&m->consts, &m->cap_consts, m->n_consts + 1, sizeof *m->consts))
        return hl_nomem(m);
    m->consts[m->n_consts] = (hl_const){sort, colour};
    return pn_strmap_put(m->const_index, id, m->n_consts++) < 0 ? hl_nomem(m) : PN_OK;
}

static pn_status hl_build_enum(hl_model *m, uint32_t si, xmlNode *body)
{
    uint32_t n = 0;
    pn_status st = PN_OK;
    for (xmlNode *c = hl_elem(body->children); c != NULL && st == PN_OK; c = hl_elem(c->next))
        st = hl_is(c, "feconstant") ? hl_add_const(m, c, si, n++)
                                    : hl_unknown(m, c, "in an enumeration");
    if (st != PN_OK)
        return st;
    if (n == 0)
        return hl_fail(m, PN_ERR_INPUT, body, "enumeration without constants");
    hl_sort *s = &m->sorts[si];
    s->kind = HL_SORT_ENUM;
    s->n = n;
    s->size = n;
    s->labels = calloc(n, sizeof *s->labels);
    if (s->labels == NULL)
        return hl_nomem(m);
    return hl_enum_labels(s, body, "feconstant") < 0 ? hl_nomem(m) : PN_OK;
}

/* A decimal int64 attribute, strictly. */
static bool hl_int_attr(const xmlNode *e, const char *name, int64_t *v)
{
    const char *s = hl_attr(e, name);
    if (s == NULL || s[0] == '\0')
        return false;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno != 0 || *end != '\0' || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')))
        return false;
    *v = x;
    return true;
}

static pn_status hl_build_range(hl_model *m, uint32_t si, xmlNode *body)
{
    int64_t lo, hi;
    if (!hl_int_attr(body, "start", &lo) || !hl_int_attr(body, "end", &hi))
        return hl_fail(m, PN_ERR_INPUT, body, "needs integer start and end attributes");
    if (hi < lo)
        return hl_fail(m, PN_ERR_INPUT, body, "empty range [%" PRId64 ", %" PRId64 "]", lo, hi);
    if ((uint64_t)(hi - lo) >= HL_MAX_COUNT)
        return hl_fail(m, PN_ERR_UNSUPPORTED, body, "range of more than 2^31 colours");
    m->sorts[si].kind = HL_SORT_RANGE;
    m->sorts[si].start = lo;
    m->sorts[si].size = (uint64_t)(hi - lo) + 1;
    return PN_OK;
}

static pn_status hl_build_product(hl_model *m, uint32_t si, xmlNode *body)
{
    uint32_t n = 0;
    for (xmlNode *c = hl_elem(body->children); c != NULL; c = hl_elem(c->next))
        n++;
    if (n == 0)
        return hl_fail(m, PN_ERR_INPUT, body, "productsort without components");
    uint32_t *comp = malloc((size_t)n * sizeof *comp);
    if (comp == NULL)
        return hl_nomem(m);
    uint64_t size = 1;
    uint32_t k = 0;
    for (xmlNode *c = hl_elem(body->children); c != NULL; c = hl_elem(c->next)) {
        comp[k] = hl_sort_of(m, c);
        if (comp[k] == HL_NONE) {
            free(comp);
            return m->err->code;
        }
        /* Colours are indexed below 2^31; a skeleton only counts them. */
        uint64_t factor = m->sorts[comp[k++]].size, max = m->wide ? HL_WIDE_COUNT : HL_MAX_COUNT;
        if (factor != 0 && size >= max / factor + (max % factor != 0)) {
            free(comp);
            return hl_fail(m, PN_ERR_UNSUPPORTED, body, "product sort of more than 2^%d colours",
                           m->wide ? 62 : 31);
        }
        size *= factor;
    }
    hl_sort *s = &m->sorts[si];
    s->kind = HL_SORT_PRODUCT;
    s->n = n;
    s->comp = comp;
    s->size = size;
    return PN_OK;
}

/* One <partitionelement>: each <useroperator> names a constant of the
 * partitioned sort, which must not be in an earlier element. */
static pn_status hl_partition_element(hl_model *m, hl_sort *s, xmlNode *pe, uint32_t k)
{
    uint32_t members = 0;
    for (xmlNode *c = hl_elem(pe->children); c != NULL; c = hl_elem(c->next)) {
        if (!hl_is(c, "useroperator"))
            return hl_unknown(m, c, "in a partitionelement");
        const char *ref = hl_attr(c, "declaration");
        int64_t ci = ref != NULL ? pn_strmap_get(m->const_index, ref) : -1;
        if (ci < 0)
            return hl_fail(m, PN_ERR_INPUT, c, "unknown constant '%.120s'", ref ? ref : "");
        if (!hl_sort_eq(m, m->consts[ci].sort, s->base))
            return hl_fail(m, PN_ERR_INPUT, c, "constant '%.120s' is not of the partitioned "
                           "sort %s", ref, hl_sort_name(m, s->base));
        uint32_t colour = m->consts[ci].colour;
        if (s->comp[colour] != HL_NONE)
            return hl_fail(m, PN_ERR_INPUT, c, "constant '%.120s' is in two partition "
                           "elements", ref);
        s->comp[colour] = k;
        members++;
    }
    return members > 0 ? PN_OK
                       : hl_fail(m, PN_ERR_INPUT, pe, "partition element without constants");
}

/* <partition><usersort/><partitionelement>...: a sort whose colours are
 * the elements, in order (ltp/gtp compare that order); `comp` maps every
 * colour of the partitioned sort to its element, and each must have one,
 * or partitionelementof would be undefined for it. The elements' ids are
 * constants of the partition sort. */
static pn_status hl_build_partition(hl_model *m, uint32_t si, xmlNode *body)
{
    xmlNode *first = hl_elem(body->children);
    if (first == NULL || hl_is(first, "partitionelement"))
        return hl_fail(m, PN_ERR_INPUT, body, "partition without the sort it partitions");
    uint32_t base = hl_sort_of(m, first);
    if (base == HL_NONE)
        return m->err->code;
    uint32_t n = 0;
    for (xmlNode *c = hl_elem(first->next); c != NULL; c = hl_elem(c->next)) {
        if (!hl_is(c, "partitionelement"))
            return hl_unknown(m, c, "in a partition");
        n++;
    }
    if (n == 0)
        return hl_fail(m, PN_ERR_INPUT, body, "partition without elements");
    uint64_t size = m->sorts[base].size;
    hl_sort *s = &m->sorts[si];
    s->kind = HL_SORT_PARTITION;
    s->base = base;
    s->n = n;
    s->size = n;
    s->comp = malloc(size * sizeof *s->comp);
    s->labels = calloc(n, sizeof *s->labels);
    if (s->comp == NULL || s->labels == NULL)
        return hl_nomem(m);
    for (uint64_t c = 0; c < size; c++)
        s->comp[c] = HL_NONE;
    uint32_t k = 0;
    pn_status st = PN_OK;
    for (xmlNode *c = hl_elem(first->next); c != NULL && st == PN_OK; c = hl_elem(c->next)) {
        st = hl_add_const(m, c, si, k);
        if (st == PN_OK)
            st = hl_partition_element(m, &m->sorts[si], c, k++);
    }
    if (st != PN_OK)
        return st;
    for (uint64_t c = 0; c < size; c++)
        if (m->sorts[si].comp[c] == HL_NONE) {
            char label[256] = "";
            hl_colour_label(m, base, c, label, sizeof label);
            return hl_fail(m, PN_ERR_INPUT, body, "colour '%s' of sort %s is in no partition "
                           "element", label, hl_sort_name(m, base));
        }
    return hl_enum_labels(&m->sorts[si], body, "partitionelement") < 0 ? hl_nomem(m) : PN_OK;
}

/* Fills sorts[si] from a sort element. */
static pn_status hl_build_sort(hl_model *m, uint32_t si, xmlNode *body)
{
    if (hl_is(body, "dot")) {
        m->sorts[si].kind = HL_SORT_DOT;
        m->sorts[si].size = 1;
        return PN_OK;
    }
    if (hl_is(body, "bool")) {
        m->sorts[si].kind = HL_SORT_BOOL;
        m->sorts[si].size = 2;
        return PN_OK;
    }
    if (hl_is(body, "partition"))
        return hl_build_partition(m, si, body);
    if (hl_is(body, "cyclicenumeration") || hl_is(body, "finiteenumeration"))
        return hl_build_enum(m, si, body);
    if (hl_is(body, "finiteintrange"))
        return hl_build_range(m, si, body);
    if (hl_is(body, "productsort"))
        return hl_build_product(m, si, body);
    if (hl_is(body, "usersort")) {
        uint32_t t = hl_sort_of(m, body);
        if (t == HL_NONE)
            return m->err->code;
        m->sorts[si].kind = HL_SORT_ALIAS;
        m->sorts[si].target = t;
        m->sorts[si].size = m->sorts[t].size;
        return PN_OK;
    }
    return hl_unknown(m, body, "as a sort");
}

static uint32_t hl_resolve_named(hl_model *m, uint32_t s, const xmlNode *from)
{
    if (m->sorts[s].state == 2)
        return hl_canon(m, s);
    if (m->sorts[s].state == 1) {
        hl_fail(m, PN_ERR_INPUT, from, "sort '%.120s' is defined in terms of itself",
                m->sorts[s].id);
        return HL_NONE;
    }
    m->sorts[s].state = 1;
    if (hl_build_sort(m, s, m->sorts[s].node) != PN_OK)
        return HL_NONE;
    m->sorts[s].state = 2;
    return hl_canon(m, s);
}

uint32_t hl_sort_of(hl_model *m, xmlNode *e)
{
    if (hl_is(e, "usersort")) {
        const char *ref = hl_attr(e, "declaration");
        int64_t s = ref != NULL ? pn_strmap_get(m->sort_index, ref) : -1;
        if (s < 0) {
            hl_fail(m, PN_ERR_INPUT, e, "unknown sort '%.120s'", ref != NULL ? ref : "");
            return HL_NONE;
        }
        return hl_resolve_named(m, (uint32_t)s, e);
    }
    uint32_t s = hl_new_sort(m, NULL, e);
    if (s == HL_NONE || hl_build_sort(m, s, e) != PN_OK)
        return HL_NONE;
    m->sorts[s].state = 2;
    return hl_canon(m, s);
}

uint32_t hl_bool_sort(hl_model *m)
{
    for (uint32_t s = 0; s < m->n_sorts; s++)
        if (m->sorts[s].kind == HL_SORT_BOOL && m->sorts[s].state == 2)
            return s;
    uint32_t s = hl_new_sort(m, NULL, NULL);
    if (s == HL_NONE)
        return HL_NONE;
    m->sorts[s].kind = HL_SORT_BOOL;
    m->sorts[s].size = 2;
    m->sorts[s].state = 2;
    return s;
}

pn_status hl_resolve_declarations(hl_model *m)
{
    for (uint32_t s = 0; s < m->n_sorts; s++)
        if (m->sorts[s].id != NULL && hl_resolve_named(m, s, m->sorts[s].node) == HL_NONE)
            return m->err->code;
    for (uint32_t v = 0; v < m->n_vars; v++) {
        xmlNode *body = hl_elem(m->vars[v].node->children);
        if (body == NULL)
            return hl_fail(m, PN_ERR_INPUT, m->vars[v].node, "variable '%.120s' has no sort",
                           m->vars[v].id);
        m->vars[v].sort = hl_sort_of(m, body);
        if (m->vars[v].sort == HL_NONE)
            return m->err->code;
    }
    return PN_OK;
}

/* ---- comparing and naming ------------------------------------------------ */

/* Enumerations are equal only to themselves (their constants are); other
 * sorts are compared by structure, so that an inline productsort matches a
 * named one with the same components. */
bool hl_sort_eq(const hl_model *m, uint32_t a, uint32_t b)
{
    a = hl_canon(m, a);
    b = hl_canon(m, b);
    if (a == b)
        return true;
    const hl_sort *x = &m->sorts[a], *y = &m->sorts[b];
    if (x->kind != y->kind)
        return false;
    switch (x->kind) {
    case HL_SORT_DOT:
    case HL_SORT_BOOL:
        return true;
    case HL_SORT_RANGE:
        return x->start == y->start && x->size == y->size;
    case HL_SORT_PRODUCT:
        if (x->n != y->n)
            return false;
        for (uint32_t i = 0; i < x->n; i++)
            if (!hl_sort_eq(m, x->comp[i], y->comp[i]))
                return false;
        return true;
    default:
        return false;
    }
}

const char *hl_sort_name(const hl_model *m, uint32_t s)
{
    const hl_sort *x = &m->sorts[s];
    if (x->id != NULL)
        return x->id;
    switch (hl_canon(m, s) == s ? x->kind : HL_SORT_ALIAS) {
    case HL_SORT_DOT: return "dot";
    case HL_SORT_ENUM: return "enumeration";
    case HL_SORT_RANGE: return "finiteintrange";
    case HL_SORT_PRODUCT: return "productsort";
    case HL_SORT_BOOL: return "bool";
    case HL_SORT_PARTITION: return "partition";
    default: return "sort";
    }
}

static int hl_append(char *buf, size_t len, const char *s)
{
    size_t used = strlen(buf), n = strlen(s);
    if (used + n + 1 > len)
        return -1;
    memcpy(buf + used, s, n + 1);
    return 0;
}

/* Components 0..k-1 of product s for the colour whose prefix index is c. */
static int hl_product_label(const hl_model *m, const hl_sort *s, uint32_t k,
                            uint64_t c, char *buf, size_t len)
{
    if (k == 0)
        return 0;
    uint32_t last = s->comp[k - 1];
    uint64_t size = m->sorts[last].size;
    if (hl_product_label(m, s, k - 1, c / size, buf, len) != 0)
        return -1;
    if (k > 1 && hl_append(buf, len, "_") != 0)
        return -1;
    return hl_colour_label(m, last, c % size, buf, len);
}

int hl_colour_label(const hl_model *m, uint32_t s, uint64_t c, char *buf, size_t len)
{
    const hl_sort *x = &m->sorts[hl_canon(m, s)];
    char num[32];
    switch (x->kind) {
    case HL_SORT_ENUM:
    case HL_SORT_PARTITION:
        return hl_append(buf, len, x->labels[c]);
    case HL_SORT_BOOL:
        return hl_append(buf, len, c ? "true" : "false");
    case HL_SORT_RANGE:
        snprintf(num, sizeof num, "%" PRId64, x->start + (int64_t)c);
        return hl_append(buf, len, num);
    case HL_SORT_PRODUCT:
        return hl_product_label(m, x, x->n, c, buf, len);
    default:
        return 0; /* dot: the place keeps its coloured id */
    }
}
