/* The reader of MCMT's input language (MCMT 2.8 user manual, sections 2, 3
 * and 7): one directive a line, ":keyword arguments", a line that does not
 * start with ':' continuing the one before; terms in Yices' prefix syntax
 * with array reads written a[t]. What each directive means is docs/mcmt.md;
 * here it becomes the data of petrel/mcmt.h, checked as the manual asks
 * (a :val per array, :numcases cases, the same update of a global in every
 * case, the variables each formula may use). */
#include "petrel/mcmt.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MR_MAX_DEPTH 200 /* nesting of a term: deeper is refused, never a stack overflow */

/* The directive being read: its line, its arguments. */
typedef struct mr_line {
    uint32_t line;
    char *key;
    char *arg;
} mr_line;

typedef enum mr_block { MR_NONE, MR_INITIAL, MR_UNSAFE, MR_AXIOM, MR_TRANS, MR_SKIP } mr_block;

typedef struct mr {
    pn_mcmt_sys *sys;
    pn_error *err;
    uint32_t line;          /* of the directive being read */
    const char *p;          /* in its arguments */
    uint32_t vars_ok;       /* index variables the formula may use (bits) */
    uint32_t vars_used;
    bool z_from_xy;         /* an old-style unsafe formula: x, y stand for z1, z2 */
    bool flat;              /* reads a[t] only with t a variable (section 3.5) */
    int depth;
    mr_block block;
    uint32_t block_vars;    /* :var lines of the block */
    char *comment;          /* the last :comment (a transition's name) */
    const char *skip_end;   /* MR_SKIP: the keyword that ends the block */
    uint32_t numcases;
} mr;

static pn_status mr_nomem(mr *r)
{
    return pn_fail(r->err, PN_ERR_NOMEM, "out of memory reading the MCMT file");
}

static pn_status mr_fail(mr *r, pn_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static pn_status mr_fail(mr *r, pn_status code, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return pn_fail(r->err, code, "line %u: %s", r->line, msg);
}

/* Grows *items (n used, *cap room, each `size` bytes) to room for one more. */
static bool mr_grow(void **items, uint32_t n, uint32_t *cap, size_t size)
{
    if (n < *cap)
        return true;
    if (*cap > UINT32_MAX / 4)
        return false;
    uint32_t c = *cap == 0 ? 8 : *cap * 2;
    void *p = realloc(*items, (size_t)c * size);
    if (p == NULL)
        return false;
    *items = p;
    *cap = c;
    return true;
}

static char *mr_strdup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d != NULL) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* ---- terms ------------------------------------------------------------------ */

static void mr_space(mr *r)
{
    while (*r->p != '\0' && (isspace((unsigned char)*r->p) || *r->p == ','))
        r->p++;
}

static bool mr_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '\'';
}

static pn_status mr_term_new(mr *r, pn_mcmt_kind kind, int op, int64_t value, uint32_t *out)
{
    pn_mcmt_sys *s = r->sys;
    if (!mr_grow((void **)&s->terms, s->n_terms, &s->cap_terms, sizeof *s->terms))
        return mr_nomem(r);
    s->terms[s->n_terms] = (pn_mcmt_term){(uint8_t)kind, (uint8_t)op, value, 0, 0, r->line};
    *out = s->n_terms++;
    return PN_OK;
}

/* Gives term t the children kids[0 .. n). */
static pn_status mr_term_kids(mr *r, uint32_t t, const uint32_t *kids, uint32_t n)
{
    pn_mcmt_sys *s = r->sys;
    s->terms[t].first = s->n_kids;
    s->terms[t].n = n;
    for (uint32_t k = 0; k < n; k++) {
        if (!mr_grow((void **)&s->kids, s->n_kids, &s->cap_kids, sizeof *s->kids))
            return mr_nomem(r);
        s->kids[s->n_kids++] = kids[k];
    }
    return PN_OK;
}

static int mr_var(const char *name, size_t n)
{
    if (n == 1 && (name[0] == 'x' || name[0] == 'y' || name[0] == 'j'))
        return name[0] == 'x' ? PN_MCMT_X : name[0] == 'y' ? PN_MCMT_Y : PN_MCMT_J;
    if (n >= 2 && n <= 3 && name[0] == 'z' && isdigit((unsigned char)name[1]) &&
        (n == 2 || isdigit((unsigned char)name[2]))) {
        int k = atoi(name + 1);
        if (k >= 1 && k <= 10 && name[1] != '0')
            return PN_MCMT_Z1 + k - 1;
    }
    return -1;
}

static const char *const mr_var_names[PN_MCMT_VARS] = {"x",  "y",  "j",  "z1", "z2", "z3", "z4",
                                                       "z5", "z6", "z7", "z8", "z9", "z10"};

static int mr_array(const pn_mcmt_sys *s, const char *name, size_t n)
{
    for (uint32_t a = 0; a < s->n_arrays; a++)
        if (strlen(s->arrays[a].name) == n && memcmp(s->arrays[a].name, name, n) == 0)
            return (int)a;
    return -1;
}

static int mr_param(const pn_mcmt_sys *s, const char *name, size_t n)
{
    for (uint32_t k = 0; k < s->n_params; k++)
        if (strlen(s->params[k].name) == n && memcmp(s->params[k].name, name, n) == 0)
            return (int)k;
    return -1;
}

static pn_status mr_term(mr *r, uint32_t *out);

static pn_status mr_use_var(mr *r, int v, uint32_t *out)
{
    if (r->z_from_xy && (v == PN_MCMT_X || v == PN_MCMT_Y))
        v = v == PN_MCMT_X ? PN_MCMT_Z1 : PN_MCMT_Z1 + 1;
    if (!(r->vars_ok & (1u << v)))
        return mr_fail(r, PN_ERR_INPUT, "the index variable %s may not occur here",
                       mr_var_names[v]);
    r->vars_used |= 1u << v;
    return mr_term_new(r, PN_MCMT_VAR, 0, v, out);
}

/* name[t] or name: a read, a variable, a constant or a symbolic constant. */
static pn_status mr_atom(mr *r, uint32_t *out)
{
    const char *start = r->p;
    if (*r->p == '-' || *r->p == '+' || isdigit((unsigned char)*r->p)) {
        char *end;
        errno = 0;
        long long v = strtoll(r->p, &end, 10);
        if (end <= r->p + (*r->p == '-' || *r->p == '+') || errno != 0 || mr_ident_char(*end))
            return mr_fail(r, PN_ERR_INPUT, "a malformed number at '%.20s'", start);
        if (v > INT64_C(1) << 40 || v < -(INT64_C(1) << 40))
            return mr_fail(r, PN_ERR_UNSUPPORTED, "the constant %lld is too large", v);
        r->p = end;
        return mr_term_new(r, PN_MCMT_CONST, 0, v, out);
    }
    while (mr_ident_char(*r->p))
        r->p++;
    size_t n = (size_t)(r->p - start);
    if (n == 0)
        return mr_fail(r, PN_ERR_INPUT, "a term expected at '%.20s'", start);
    if (n == 4 && memcmp(start, "true", 4) == 0)
        return mr_term_new(r, PN_MCMT_CONST, 0, 1, out);
    if (n == 5 && memcmp(start, "false", 5) == 0)
        return mr_term_new(r, PN_MCMT_CONST, 0, 0, out);
    int v = mr_var(start, n);
    if (v >= 0 && *r->p != '[')
        return mr_use_var(r, v, out);
    int a = mr_array(r->sys, start, n);
    if (a < 0) {
        int k = mr_param(r->sys, start, n);
        if (k >= 0 && *r->p != '[')
            return mr_term_new(r, PN_MCMT_PARAM, 0, k, out);
        return mr_fail(r, PN_ERR_INPUT, "'%.*s' is not a declared array, constant or variable",
                       (int)n, start);
    }
    pn_status st = mr_term_new(r, PN_MCMT_READ, 0, a, out);
    if (st != PN_OK)
        return st;
    if (*r->p != '[') {
        if (!r->sys->arrays[a].global)
            return mr_fail(r, PN_ERR_INPUT, "the local array %s is read without an index",
                           r->sys->arrays[a].name);
        return PN_OK;
    }
    r->p++;
    mr_space(r);
    uint32_t idx;
    if ((st = mr_term(r, &idx)) != PN_OK)
        return st;
    mr_space(r);
    if (*r->p != ']')
        return mr_fail(r, PN_ERR_INPUT, "']' expected after the index of %s",
                       r->sys->arrays[a].name);
    r->p++;
    if (r->flat && r->sys->terms[idx].kind != PN_MCMT_VAR)
        return mr_fail(r, PN_ERR_INPUT, "%s[...] reads at a term: initial, unsafe and axiom "
                       "formulas are dereference-flat (a[t] with t a variable)",
                       r->sys->arrays[a].name);
    if (r->sys->arrays[a].global)
        return PN_OK; /* v[x] of a global is v (section 2.3) */
    return mr_term_kids(r, *out, &idx, 1);
}

typedef struct mr_opname {
    const char *name;
    int op;
    uint32_t min, max; /* arity */
} mr_opname;

static const mr_opname mr_ops[] = {
    {"=", PN_MCMT_EQ, 2, 2},        {"<", PN_MCMT_LT, 2, 2},   {"<=", PN_MCMT_LE, 2, 2},
    {">", PN_MCMT_GT, 2, 2},        {">=", PN_MCMT_GE, 2, 2},  {"and", PN_MCMT_AND, 1, 64},
    {"or", PN_MCMT_OR, 1, 64},      {"not", PN_MCMT_NOT, 1, 1}, {"=>", PN_MCMT_IMPLIES, 2, 2},
    {"+", PN_MCMT_ADD, 1, 64},      {"*", PN_MCMT_MUL, 1, 64}, {"-", PN_MCMT_NEG, 1, 1},
    {"ite", PN_MCMT_ITE, 3, 3},     {"/=", -1, 2, 2},
};

static pn_status mr_app(mr *r, uint32_t *out)
{
    r->p++; /* '(' */
    mr_space(r);
    const char *start = r->p;
    while (*r->p != '\0' && !isspace((unsigned char)*r->p) && *r->p != '(' && *r->p != ')')
        r->p++;
    size_t n = (size_t)(r->p - start);
    const mr_opname *op = NULL;
    for (size_t k = 0; k < sizeof mr_ops / sizeof mr_ops[0]; k++)
        if (strlen(mr_ops[k].name) == n && memcmp(mr_ops[k].name, start, n) == 0)
            op = &mr_ops[k];
    if (op == NULL)
        return mr_fail(r, PN_ERR_UNSUPPORTED,
                       "'%.*s' is not an operator Petrel evaluates (free function symbols "
                       "are not explored)",
                       (int)(n > 40 ? 40 : n), start);
    uint32_t kids[64], k = 0;
    pn_status st = PN_OK;
    for (mr_space(r); *r->p != ')'; mr_space(r)) {
        if (*r->p == '\0')
            return mr_fail(r, PN_ERR_INPUT, "')' missing after (%s", op->name);
        if (k == op->max && op->op == PN_MCMT_NEG)
            return mr_fail(r, PN_ERR_INPUT, "subtraction is not MCMT's: write (+ a (* -1 b))");
        if (k == op->max)
            return mr_fail(r, PN_ERR_INPUT, "%s takes at most %u arguments", op->name, op->max);
        if ((st = mr_term(r, &kids[k++])) != PN_OK)
            return st;
    }
    r->p++;
    if (k < op->min)
        return mr_fail(r, PN_ERR_INPUT, "%s takes at least %u arguments", op->name, op->min);
    if (op->op < 0) { /* (/= a b): (not (= a b)) */
        uint32_t eq;
        if ((st = mr_term_new(r, PN_MCMT_OP, PN_MCMT_EQ, 0, &eq)) != PN_OK ||
            (st = mr_term_kids(r, eq, kids, 2)) != PN_OK ||
            (st = mr_term_new(r, PN_MCMT_OP, PN_MCMT_NOT, 0, out)) != PN_OK)
            return st;
        return mr_term_kids(r, *out, &eq, 1);
    }
    if ((st = mr_term_new(r, PN_MCMT_OP, op->op, 0, out)) != PN_OK)
        return st;
    return mr_term_kids(r, *out, kids, k);
}

static pn_status mr_term(mr *r, uint32_t *out)
{
    mr_space(r);
    if (++r->depth > MR_MAX_DEPTH)
        return mr_fail(r, PN_ERR_UNSUPPORTED, "a term nested deeper than %d", MR_MAX_DEPTH);
    pn_status st = *r->p == '(' ? mr_app(r, out) : mr_atom(r, out);
    r->depth--;
    return st;
}

/* The terms of the arguments, appended to list l. */
static pn_status mr_list(mr *r, pn_mcmt_list *l)
{
    uint32_t cap = l->n;
    for (mr_space(r); *r->p != '\0'; mr_space(r)) {
        uint32_t t;
        pn_status st = mr_term(r, &t);
        if (st != PN_OK)
            return st;
        if (!mr_grow((void **)&l->items, l->n, &cap, sizeof *l->items))
            return mr_nomem(r);
        l->items[l->n++] = t;
    }
    return PN_OK;
}

/* ---- declarations ----------------------------------------------------------- */

static pn_status mr_word(mr *r, const char **w, size_t *n)
{
    mr_space(r);
    *w = r->p;
    while (*r->p != '\0' && !isspace((unsigned char)*r->p) && *r->p != '(' && *r->p != ')' &&
           *r->p != ':')
        r->p++;
    *n = (size_t)(r->p - *w);
    return *n == 0 ? mr_fail(r, PN_ERR_INPUT, "a name expected at '%.20s'", *w) : PN_OK;
}

static bool mr_is(const char *w, size_t n, const char *s)
{
    return strlen(s) == n && memcmp(w, s, n) == 0;
}

/* Defined types: (define-type NAME (subrange a b)), kept as params of no
 * value would be confusing, so they live apart. */
typedef struct mr_types {
    char **names;
    pn_mcmt_type *types;
    uint32_t n, cap;
} mr_types;

static pn_status mr_type(mr *r, mr_types *ty, pn_mcmt_type *out)
{
    mr_space(r);
    if (*r->p == '(') {
        r->p++;
        const char *w;
        size_t n;
        pn_status st = mr_word(r, &w, &n);
        if (st != PN_OK)
            return st;
        if (mr_is(w, n, "->"))
            return mr_fail(r, PN_ERR_UNSUPPORTED,
                           "a free function symbol (Petrel explores arrays and constants only)");
        if (!mr_is(w, n, "subrange"))
            return mr_fail(r, PN_ERR_UNSUPPORTED, "the type (%.*s ...) is not explored",
                           (int)(n > 30 ? 30 : n), w);
        char *end;
        long long lo = strtoll(r->p, &end, 10);
        r->p = end;
        long long hi = strtoll(r->p, &end, 10);
        if (end == r->p)
            return mr_fail(r, PN_ERR_INPUT, "(subrange LO HI) expected");
        r->p = end;
        mr_space(r);
        if (*r->p != ')' || lo < -(1LL << 40) || hi > (1LL << 40) || lo > hi ||
            hi - lo > (1LL << 30))
            return mr_fail(r, PN_ERR_INPUT, "(subrange LO HI) with LO <= HI expected");
        r->p++;
        *out = (pn_mcmt_type){PN_MCMT_SUBRANGE, lo, hi};
        return PN_OK;
    }
    const char *w;
    size_t n;
    pn_status st = mr_word(r, &w, &n);
    if (st != PN_OK)
        return st;
    if (mr_is(w, n, "bool"))
        *out = (pn_mcmt_type){PN_MCMT_BOOL, 0, 1};
    else if (mr_is(w, n, "nat"))
        *out = (pn_mcmt_type){PN_MCMT_NAT, 0, 0};
    else if (mr_is(w, n, "int"))
        *out = (pn_mcmt_type){PN_MCMT_INT, 0, 0};
    else if (mr_is(w, n, "real"))
        return mr_fail(r, PN_ERR_UNSUPPORTED, "real values are not explored");
    else {
        for (uint32_t k = 0; k < ty->n; k++)
            if (mr_is(w, n, ty->names[k])) {
                *out = ty->types[k];
                return PN_OK;
            }
        return mr_fail(r, PN_ERR_INPUT, "'%.*s' is not a declared type", (int)(n > 40 ? 40 : n),
                       w);
    }
    return PN_OK;
}

static bool mr_name_taken(const pn_mcmt_sys *s, const mr_types *ty, const char *w, size_t n)
{
    if (mr_array(s, w, n) >= 0 || mr_param(s, w, n) >= 0 || mr_var(w, n) >= 0 ||
        mr_is(w, n, "true") || mr_is(w, n, "false"))
        return true;
    for (uint32_t k = 0; k < ty->n; k++)
        if (mr_is(w, n, ty->names[k]))
            return true;
    return false;
}

/* :smt (define-type NAME (subrange a b)) or (define NAME::TYPE). */
static pn_status mr_smt(mr *r, mr_types *ty)
{
    mr_space(r);
    if (*r->p != '(')
        return mr_fail(r, PN_ERR_INPUT, "'(' expected after :smt");
    r->p++;
    const char *w, *name;
    size_t n, nn;
    pn_status st = mr_word(r, &w, &n);
    if (st != PN_OK)
        return st;
    bool is_type = mr_is(w, n, "define-type");
    if (!is_type && !mr_is(w, n, "define"))
        return mr_fail(r, PN_ERR_UNSUPPORTED, ":smt (%.*s ...) is not read",
                       (int)(n > 30 ? 30 : n), w);
    mr_space(r);
    name = r->p;
    while (mr_ident_char(*r->p))
        r->p++;
    nn = (size_t)(r->p - name);
    if (nn == 0)
        return mr_fail(r, PN_ERR_INPUT, "a name expected after %.*s", (int)n, w);
    if (mr_name_taken(r->sys, ty, name, nn))
        return mr_fail(r, PN_ERR_INPUT, "'%.*s' is declared twice or is reserved", (int)nn, name);
    if (!is_type) {
        mr_space(r);
        if (strncmp(r->p, "::", 2) != 0)
            return mr_fail(r, PN_ERR_INPUT, "'::' expected after %.*s", (int)nn, name);
        r->p += 2;
    }
    pn_mcmt_type t;
    if ((st = mr_type(r, ty, &t)) != PN_OK)
        return st;
    mr_space(r);
    if (*r->p != ')')
        return mr_fail(r, PN_ERR_UNSUPPORTED, "a definition with a value or more is not read");
    char *copy = mr_strdup(name, nn);
    if (copy == NULL)
        return mr_nomem(r);
    pn_mcmt_sys *s = r->sys;
    if (is_type) {
        uint32_t cap = ty->cap;
        if (!mr_grow((void **)&ty->names, ty->n, &ty->cap, sizeof *ty->names) ||
            !mr_grow((void **)&ty->types, ty->n, &cap, sizeof *ty->types)) {
            free(copy);
            return mr_nomem(r);
        }
        ty->names[ty->n] = copy;
        ty->types[ty->n++] = t;
        return PN_OK;
    }
    uint32_t cap = s->n_params;
    if (!mr_grow((void **)&s->params, s->n_params, &cap, sizeof *s->params)) {
        free(copy);
        return mr_nomem(r);
    }
    s->params[s->n_params++] = (pn_mcmt_param){copy, t};
    return PN_OK;
}

static pn_status mr_decl_array(mr *r, mr_types *ty, bool global)
{
    const char *w;
    size_t n;
    pn_status st = mr_word(r, &w, &n);
    if (st != PN_OK)
        return st;
    if (r->sys->n_trans + r->sys->n_initial + r->sys->n_unsafe > 0)
        return mr_fail(r, PN_ERR_INPUT, "arrays are declared before the formulas");
    if (mr_name_taken(r->sys, ty, w, n))
        return mr_fail(r, PN_ERR_INPUT, "'%.*s' is declared twice or is reserved", (int)n, w);
    for (size_t k = 0; k < n; k++)
        if (!mr_ident_char(w[k]))
            return mr_fail(r, PN_ERR_INPUT, "'%.*s' is not an array name", (int)n, w);
    pn_mcmt_type t;
    if ((st = mr_type(r, ty, &t)) != PN_OK)
        return st;
    char *copy = mr_strdup(w, n);
    pn_mcmt_sys *s = r->sys;
    uint32_t cap = s->n_arrays;
    if (copy == NULL || !mr_grow((void **)&s->arrays, s->n_arrays, &cap, sizeof *s->arrays)) {
        free(copy);
        return mr_nomem(r);
    }
    s->arrays[s->n_arrays++] = (pn_mcmt_array){copy, t, global};
    return PN_OK;
}

/* ---- blocks ------------------------------------------------------------------- */

static pn_status mr_note(mr *r, const char *what)
{
    char buf[200];
    snprintf(buf, sizeof buf, "line %u: %s", r->line, what);
    pn_mcmt_sys *s = r->sys;
    uint32_t cap = s->n_notes;
    char *copy = mr_strdup(buf, strlen(buf));
    if (copy == NULL || !mr_grow((void **)&s->notes, s->n_notes, &cap, sizeof *s->notes)) {
        free(copy);
        return mr_nomem(r);
    }
    s->notes[s->n_notes++] = copy;
    return PN_OK;
}

static pn_mcmt_trans *mr_cur_trans(mr *r) { return &r->sys->trans[r->sys->n_trans - 1]; }

static pn_status mr_var_line(mr *r)
{
    const char *w;
    size_t n;
    pn_status st = mr_word(r, &w, &n);
    if (st != PN_OK)
        return st;
    int v = mr_var(w, n);
    if (v < 0)
        return mr_fail(r, PN_ERR_INPUT, "'%.*s' is not an index variable", (int)(n > 20 ? 20 : n),
                       w);
    bool z = v >= PN_MCMT_Z1;
    switch (r->block) {
    case MR_UNSAFE:
        if (!z && v == PN_MCMT_J)
            return mr_fail(r, PN_ERR_INPUT, "an unsafe formula is over z1 .. z4");
        if (!z)
            r->z_from_xy = true, v = v == PN_MCMT_X ? PN_MCMT_Z1 : PN_MCMT_Z1 + 1;
        if (v > PN_MCMT_Z1 + 3)
            return mr_fail(r, PN_ERR_INPUT, "an unsafe formula has at most z1 .. z4");
        break;
    case MR_INITIAL:
        if (v != PN_MCMT_X && v != PN_MCMT_Y)
            return mr_fail(r, PN_ERR_INPUT, "an initial formula is over x and y");
        break;
    case MR_AXIOM:
    case MR_TRANS:
        if (z)
            return mr_fail(r, PN_ERR_INPUT, "x, y or j expected");
        break;
    default:
        return mr_fail(r, PN_ERR_INPUT, ":var outside :initial, :unsafe, :system_axiom or "
                                        ":transition");
    }
    r->block_vars |= 1u << v;
    if (r->block == MR_TRANS) {
        pn_mcmt_trans *t = mr_cur_trans(r);
        if (v == PN_MCMT_Y && !(r->block_vars & 1u << PN_MCMT_X))
            return mr_fail(r, PN_ERR_INPUT, ":var y needs :var x before it");
        t->n_vars = (r->block_vars >> PN_MCMT_X & 1u) + (r->block_vars >> PN_MCMT_Y & 1u);
    }
    mr_space(r);
    return *r->p == '\0' ? PN_OK : mr_fail(r, PN_ERR_INPUT, "one variable a :var line");
}

static pn_status mr_cnj(mr *r, pn_mcmt_list *l, uint32_t vars)
{
    r->vars_ok = vars;
    r->vars_used = 0;
    r->flat = r->block != MR_TRANS;
    pn_status st = mr_list(r, l);
    r->flat = false;
    return st;
}

/* The highest z the cube uses or declares. */
static uint32_t mr_cube_nz(uint32_t vars)
{
    uint32_t nz = 0;
    for (uint32_t k = 0; k < 10; k++)
        if (vars & 1u << (PN_MCMT_Z1 + k))
            nz = k + 1;
    return nz;
}

static pn_status mr_block_cnj(mr *r)
{
    pn_mcmt_sys *s = r->sys;
    pn_status st;
    switch (r->block) {
    case MR_INITIAL:
        return mr_cnj(r, &s->initial[s->n_initial - 1].cnj, r->block_vars);
    case MR_AXIOM:
        return mr_cnj(r, &s->axioms[s->n_axioms - 1].cnj, r->block_vars);
    case MR_UNSAFE: {
        pn_mcmt_cube *c = &s->unsafe[s->n_unsafe - 1];
        uint32_t zs = r->block_vars;
        if ((st = mr_cnj(r, &c->cnj, zs)) != PN_OK)
            return st;
        c->nz = mr_cube_nz(zs);
        return PN_OK;
    }
    default:
        return mr_fail(r, PN_ERR_INPUT, ":cnj outside :initial, :unsafe or :system_axiom");
    }
}

/* Appends a zeroed element to a block array. */
static void *mr_push(mr *r, void **items, uint32_t *n, size_t size)
{
    uint32_t cap = *n;
    if (!mr_grow(items, *n, &cap, size)) {
        mr_nomem(r);
        return NULL;
    }
    char *e = (char *)*items + (size_t)(*n)++ * size;
    memset(e, 0, size);
    return e;
}

static pn_status mr_u_cnj(mr *r)
{
    pn_mcmt_sys *s = r->sys;
    pn_mcmt_cube *c = mr_push(r, (void **)&s->unsafe, &s->n_unsafe, sizeof *s->unsafe);
    if (c == NULL)
        return PN_ERR_NOMEM;
    c->line = r->line;
    r->z_from_xy = false;
    uint32_t zs = 0;
    for (uint32_t k = 0; k < 10; k++)
        zs |= 1u << (PN_MCMT_Z1 + k);
    pn_status st = mr_cnj(r, &c->cnj, zs);
    c->nz = mr_cube_nz(r->vars_used);
    r->block = MR_NONE;
    return st;
}

static pn_status mr_trans_line(mr *r, const char *key)
{
    pn_mcmt_trans *t = mr_cur_trans(r);
    uint32_t tv = r->block_vars & ((1u << PN_MCMT_X) | (1u << PN_MCMT_Y));
    uint32_t jv = 1u << PN_MCMT_J;
    if (strcmp(key, "guard") == 0)
        return mr_cnj(r, &t->guard, tv);
    if (strcmp(key, "uguard") == 0) {
        pn_mcmt_list *u = mr_push(r, (void **)&t->uguard, &t->n_uguard, sizeof *t->uguard);
        return u == NULL ? PN_ERR_NOMEM : mr_cnj(r, u, tv | jv);
    }
    if (strcmp(key, "numcases") == 0) {
        char *end;
        long v = strtol(r->p, &end, 10);
        if (end == r->p || v < 1 || v > 1000)
            return mr_fail(r, PN_ERR_INPUT, ":numcases takes a positive number");
        r->numcases = (uint32_t)v;
        return PN_OK;
    }
    if (strcmp(key, "case") == 0) {
        if (t->n_cases == r->numcases)
            return mr_fail(r, PN_ERR_INPUT, "more cases than :numcases %u", r->numcases);
        pn_mcmt_case *c = mr_push(r, (void **)&t->cases, &t->n_cases, sizeof *t->cases);
        if (c == NULL)
            return PN_ERR_NOMEM;
        c->line = r->line;
        c->val = calloc(r->sys->n_arrays + 1, sizeof *c->val);
        if (c->val == NULL)
            return mr_nomem(r);
        c->cond.n = 0;
        c->val[r->sys->n_arrays] = 0; /* vals read so far */
        return mr_cnj(r, &c->cond, tv | jv);
    }
    /* val */
    if (t->n_cases == 0)
        return mr_fail(r, PN_ERR_INPUT, ":val before :case");
    pn_mcmt_case *c = &t->cases[t->n_cases - 1];
    uint32_t *have = &c->val[r->sys->n_arrays];
    if (*have == r->sys->n_arrays)
        return mr_fail(r, PN_ERR_INPUT, "more :val lines than the %u arrays", r->sys->n_arrays);
    r->vars_ok = tv | jv;
    pn_status st = mr_term(r, &c->val[*have]);
    mr_space(r);
    if (st == PN_OK && *r->p != '\0')
        st = mr_fail(r, PN_ERR_INPUT, "one term a :val line");
    (*have)++;
    return st;
}

static bool mr_same_term(const pn_mcmt_sys *s, uint32_t a, uint32_t b)
{
    const pn_mcmt_term *x = &s->terms[a], *y = &s->terms[b];
    if (x->kind != y->kind || x->op != y->op || x->value != y->value || x->n != y->n)
        return false;
    for (uint32_t k = 0; k < x->n; k++)
        if (!mr_same_term(s, s->kids[x->first + k], s->kids[y->first + k]))
            return false;
    return true;
}

static bool mr_reads_var(const pn_mcmt_sys *s, uint32_t t, int v)
{
    const pn_mcmt_term *x = &s->terms[t];
    if (x->kind == PN_MCMT_VAR)
        return x->value == v;
    for (uint32_t k = 0; k < x->n; k++)
        if (mr_reads_var(s, s->kids[x->first + k], v))
            return true;
    return false;
}

/* Whether term t is (= x j) or (= j x). */
static bool mr_is_x_is_j(const pn_mcmt_sys *s, uint32_t t)
{
    const pn_mcmt_term *e = &s->terms[t];
    if (e->kind != PN_MCMT_OP || e->op != PN_MCMT_EQ)
        return false;
    const pn_mcmt_term *a = &s->terms[s->kids[e->first]], *b = &s->terms[s->kids[e->first + 1]];
    return a->kind == PN_MCMT_VAR && b->kind == PN_MCMT_VAR &&
           ((a->value == PN_MCMT_X && b->value == PN_MCMT_J) ||
            (a->value == PN_MCMT_J && b->value == PN_MCMT_X));
}

/* The first case of a transition with x holds (= x j) implicitly: the
 * literal written out is dropped (section 3.3: "the system automatically
 * makes the correction"), so that the condition left is what it adds. */
static void mr_drop_x_is_j(const pn_mcmt_sys *s, pn_mcmt_list *l)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < l->n; k++)
        if (!mr_is_x_is_j(s, l->items[k]))
            l->items[n++] = l->items[k];
    l->n = n;
}

/* The checks of a finished transition (section 3.3). */
static pn_status mr_trans_end(mr *r)
{
    pn_mcmt_sys *s = r->sys;
    pn_mcmt_trans *t = mr_cur_trans(r);
    r->line = t->line;
    if (!(r->block_vars & 1u << PN_MCMT_J))
        return mr_fail(r, PN_ERR_INPUT, "a transition needs :var j");
    if (t->n_cases == 0 || t->n_cases != r->numcases)
        return mr_fail(r, PN_ERR_INPUT, "%u cases where :numcases says %u", t->n_cases,
                       r->numcases);
    if (t->n_vars > 0)
        mr_drop_x_is_j(s, &t->cases[0].cond);
    for (uint32_t c = 0; c < t->n_cases; c++) {
        pn_mcmt_case *k = &t->cases[c];
        if (k->val[s->n_arrays] != s->n_arrays) {
            r->line = k->line;
            return mr_fail(r, PN_ERR_INPUT, "%u :val lines where there are %u arrays",
                           k->val[s->n_arrays], s->n_arrays);
        }
        for (uint32_t a = 0; a < s->n_arrays; a++) {
            if (!s->arrays[a].global)
                continue;
            r->line = k->line;
            if (mr_reads_var(s, k->val[a], PN_MCMT_J))
                return mr_fail(r, PN_ERR_UNSUPPORTED, "the update of the global %s reads j",
                               s->arrays[a].name);
            if (!mr_same_term(s, k->val[a], t->cases[0].val[a]))
                return mr_fail(r, PN_ERR_INPUT,
                               "the global %s is updated differently in two cases",
                               s->arrays[a].name);
        }
    }
    return PN_OK;
}

static pn_status mr_block_end(mr *r)
{
    pn_status st = PN_OK;
    uint32_t line = r->line;
    if (r->block == MR_TRANS)
        st = mr_trans_end(r);
    if (r->block == MR_INITIAL)
        r->sys->initial[r->sys->n_initial - 1].vars = r->block_vars;
    if (r->block == MR_AXIOM)
        r->sys->axioms[r->sys->n_axioms - 1].vars = r->block_vars;
    r->line = line;
    r->block = MR_NONE;
    r->block_vars = 0;
    return st;
}

static pn_status mr_block_start(mr *r, mr_block b)
{
    pn_status st = mr_block_end(r);
    if (st != PN_OK)
        return st;
    pn_mcmt_sys *s = r->sys;
    r->block = b;
    r->z_from_xy = false;
    void *e = NULL;
    if (b == MR_INITIAL)
        e = mr_push(r, (void **)&s->initial, &s->n_initial, sizeof *s->initial);
    else if (b == MR_AXIOM)
        e = mr_push(r, (void **)&s->axioms, &s->n_axioms, sizeof *s->axioms);
    else if (b == MR_UNSAFE)
        e = mr_push(r, (void **)&s->unsafe, &s->n_unsafe, sizeof *s->unsafe);
    else if (b == MR_TRANS)
        e = mr_push(r, (void **)&s->trans, &s->n_trans, sizeof *s->trans);
    if (e == NULL)
        return PN_ERR_NOMEM;
    if (b == MR_INITIAL)
        ((pn_mcmt_univ *)e)->line = r->line;
    else if (b == MR_AXIOM)
        ((pn_mcmt_univ *)e)->line = r->line;
    else if (b == MR_UNSAFE)
        ((pn_mcmt_cube *)e)->line = r->line;
    else {
        pn_mcmt_trans *t = e;
        t->line = r->line;
        char name[32];
        snprintf(name, sizeof name, "t%u", s->n_trans);
        const char *nm = r->comment != NULL ? r->comment : name;
        t->name = mr_strdup(nm, strlen(nm));
        if (t->name == NULL)
            return mr_nomem(r);
        r->numcases = 0;
    }
    return PN_OK;
}

/* Options of MCMT's own search: read, said, and of no effect on an
 * explicit search (sections 4-7). */
static const char *const mr_ignored[] = {
    "determine_bounds", "inv_search_start", "inv_search_max_index_var",
    "inv_search_max_num_nodes", "inv_search_max_num_invariants",
    "inv_search_max_num_cand_invariants", "inv_search_only_candidates",
    "dynamic_signature_abstraction", "max_domain_cardinality", "key_search",
    "no_backward_simplification", "variable_redundancy_test", "max_transitions_number",
    "flex_fix_point_fixed_index_var", "flex_fix_point_active_node_number", "start_reset",
    "reset_ratio", "intensive_reset", "inverse_term_abstraction_synthesis",
    "display_accelerated_transitions", "term_abstraction_list", "no_guard_strengthening",
};

static pn_status mr_directive(mr *r, mr_types *ty, const char *key)
{
    if (r->block == MR_SKIP) {
        if (strcmp(key, r->skip_end) == 0)
            r->block = MR_NONE;
        return PN_OK;
    }
    bool in_trans = r->block == MR_TRANS;
    if (strcmp(key, "comment") != 0 && strcmp(key, "transition") != 0) {
        free(r->comment); /* a name only for the transition right after it */
        r->comment = NULL;
    }
    if (strcmp(key, "comment") == 0) {
        free(r->comment);
        mr_space(r);
        size_t n = strlen(r->p);
        while (n > 0 && isspace((unsigned char)r->p[n - 1]))
            n--;
        r->comment = n > 0 ? mr_strdup(r->p, n > 60 ? 60 : n) : NULL;
        return n > 0 && r->comment == NULL ? mr_nomem(r) : PN_OK;
    }
    if (strcmp(key, "var") == 0)
        return mr_var_line(r);
    if (in_trans && (strcmp(key, "guard") == 0 || strcmp(key, "uguard") == 0 ||
                     strcmp(key, "numcases") == 0 || strcmp(key, "case") == 0 ||
                     strcmp(key, "val") == 0))
        return mr_trans_line(r, key);
    if (strcmp(key, "cnj") == 0 || strcmp(key, "conj") == 0)
        return mr_block_cnj(r);
    pn_status st = mr_block_end(r);
    if (st != PN_OK)
        return st;
    if (strcmp(key, "smt") == 0)
        return mr_smt(r, ty);
    if (strcmp(key, "local") == 0 || strcmp(key, "global") == 0)
        return mr_decl_array(r, ty, key[0] == 'g');
    if (strcmp(key, "initial") == 0)
        return mr_block_start(r, MR_INITIAL);
    if (strcmp(key, "unsafe") == 0)
        return mr_block_start(r, MR_UNSAFE);
    if (strcmp(key, "system_axiom") == 0)
        return mr_block_start(r, MR_AXIOM);
    if (strcmp(key, "transition") == 0) {
        st = mr_block_start(r, MR_TRANS);
        free(r->comment);
        r->comment = NULL;
        return st;
    }
    if (strcmp(key, "u_cnj") == 0)
        return mr_u_cnj(r);
    if (strcmp(key, "index") == 0) {
        const char *w;
        size_t n;
        if ((st = mr_word(r, &w, &n)) != PN_OK)
            return st;
        if (!mr_is(w, n, "nat") && !mr_is(w, n, "int"))
            return mr_fail(r, PN_ERR_UNSUPPORTED, "an index type other than nat or int");
        return mr_note(r, ":index read: processes are numbered from --index-from");
    }
    if (strcmp(key, "eevar") == 0)
        return mr_fail(r, PN_ERR_UNSUPPORTED, "existential data variables (:eevar) are not "
                                              "explored");
    if (strcmp(key, "suggested_negated_invariants") == 0 ||
        strcmp(key, "abstract_signature") == 0) {
        r->block = MR_SKIP;
        r->skip_end = key[0] == 's' ? "end_of_suggested_negated_invariants"
                                    : "end_of_abstract_signature";
        return mr_note(r, key[0] == 's' ? "suggested invariants ignored (the search is explicit)"
                                        : "abstract signature ignored (the search is explicit)");
    }
    for (size_t k = 0; k < sizeof mr_ignored / sizeof mr_ignored[0]; k++)
        if (strcmp(key, mr_ignored[k]) == 0) {
            char what[120];
            snprintf(what, sizeof what, ":%s ignored (an option of MCMT's own search)", key);
            return mr_note(r, what);
        }
    return mr_fail(r, PN_ERR_INPUT, "unknown directive ':%.40s'", key);
}

/* ---- lines ---------------------------------------------------------------------- */

/* Calls mr_directive on the directive in buf ("key\0arguments"). */
static pn_status mr_flush(mr *r, mr_types *ty, char *buf, size_t key_len, size_t n,
                          uint32_t line)
{
    buf[n] = '\0';
    r->line = line;
    r->p = buf + key_len + 1;
    return mr_directive(r, ty, buf);
}

/* Splits text into directives (key and arguments, continuation lines
 * joined) and reads each. */
static pn_status mr_lines(mr *r, const char *text, size_t len, mr_types *ty)
{
    char *buf = malloc(len + 2);
    if (buf == NULL)
        return mr_nomem(r);
    size_t key_len = 0, n = 0;
    bool have = false;
    uint32_t line = 0, start_line = 0;
    pn_status st = PN_OK;
    for (size_t i = 0; i < len && st == PN_OK; line++) {
        size_t e = i, a = i;
        while (e < len && text[e] != '\n')
            e++;
        while (a < e && isspace((unsigned char)text[a]))
            a++;
        if (a < e && text[a] == ':') {
            if (have)
                st = mr_flush(r, ty, buf, key_len, n, start_line);
            for (a++; a < e && (text[a] == ' ' || text[a] == '\t'); a++)
                ;
            size_t k = a;
            while (k < e && (isalnum((unsigned char)text[k]) || text[k] == '_'))
                k++;
            r->line = line + 1;
            if (st == PN_OK && k == a)
                st = mr_fail(r, PN_ERR_INPUT, "a directive name expected after ':'");
            key_len = k - a;
            memcpy(buf, text + a, key_len);
            buf[key_len] = '\0';
            n = key_len + 1;
            a = k;
            have = true;
            start_line = line + 1;
        } else if (a < e && !have) {
            r->line = line + 1;
            st = mr_fail(r, PN_ERR_INPUT, "a line outside any directive");
        }
        for (size_t k = a; have && k < e; k++)
            buf[n++] = text[k] == '\0' || text[k] == '\r' || text[k] == '\t' ? ' ' : text[k];
        if (have)
            buf[n++] = ' ';
        i = e + 1;
    }
    if (st == PN_OK && have)
        st = mr_flush(r, ty, buf, key_len, n, start_line);
    free(buf);
    if (st == PN_OK && r->block == MR_SKIP)
        st = mr_fail(r, PN_ERR_INPUT, "':%s' missing", r->skip_end);
    if (st == PN_OK)
        st = mr_block_end(r);
    return st;
}

static pn_status mr_finish(mr *r)
{
    pn_mcmt_sys *s = r->sys;
    if (s->n_arrays == 0)
        return mr_fail(r, PN_ERR_INPUT, "no :local or :global array");
    if (s->n_initial == 0)
        return mr_fail(r, PN_ERR_INPUT, "no :initial formula");
    return PN_OK;
}

pn_status pn_mcmt_read_text(const char *text, size_t len, pn_mcmt_sys **out, pn_error *err)
{
    *out = NULL;
    pn_mcmt_sys *s = calloc(1, sizeof *s);
    if (s == NULL)
        return pn_fail(err, PN_ERR_NOMEM, "out of memory reading the MCMT file");
    mr r = {.sys = s, .err = err};
    mr_types ty = {0};
    pn_status st = mr_lines(&r, text, len, &ty);
    if (st == PN_OK)
        st = mr_finish(&r);
    for (uint32_t k = 0; k < ty.n; k++)
        free(ty.names[k]);
    free(ty.names);
    free(ty.types);
    free(r.comment);
    if (st != PN_OK) {
        pn_mcmt_free(s);
        return st;
    }
    *out = s;
    return PN_OK;
}

pn_status pn_mcmt_read_file(const char *path, pn_mcmt_sys **out, pn_error *err)
{
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return pn_fail(err, PN_ERR_IO, "%s: %s", path, strerror(errno));
    char *text = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 > cap) {
            cap = cap == 0 ? 65536 : cap * 2;
            char *t = realloc(text, cap);
            if (t == NULL) {
                free(text);
                fclose(f);
                return pn_fail(err, PN_ERR_NOMEM, "%s: out of memory reading it", path);
            }
            text = t;
        }
        size_t got = fread(text + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        free(text);
        return pn_fail(err, PN_ERR_IO, "%s: read error", path);
    }
    pn_status st = pn_mcmt_read_text(text, n, out, err);
    free(text);
    if (st != PN_OK) {
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        size_t n = strlen(path);
        if (n > 200)
            n = 200;
        memcpy(err->msg, path, n);
        memcpy(err->msg + n, ": ", 2);
        memcpy(err->msg + n + 2, msg, sizeof err->msg - n - 3);
        err->msg[sizeof err->msg - 1] = '\0';
    }
    return st;
}

static void mr_list_free(pn_mcmt_list *l) { free(l->items); }

void pn_mcmt_free(pn_mcmt_sys *s)
{
    if (s == NULL)
        return;
    free(s->terms);
    free(s->kids);
    for (uint32_t a = 0; a < s->n_arrays; a++)
        free(s->arrays[a].name);
    free(s->arrays);
    for (uint32_t k = 0; k < s->n_params; k++)
        free(s->params[k].name);
    free(s->params);
    for (uint32_t k = 0; k < s->n_initial; k++)
        mr_list_free(&s->initial[k].cnj);
    free(s->initial);
    for (uint32_t k = 0; k < s->n_axioms; k++)
        mr_list_free(&s->axioms[k].cnj);
    free(s->axioms);
    for (uint32_t k = 0; k < s->n_unsafe; k++)
        mr_list_free(&s->unsafe[k].cnj);
    free(s->unsafe);
    for (uint32_t t = 0; t < s->n_trans; t++) {
        pn_mcmt_trans *tr = &s->trans[t];
        free(tr->name);
        mr_list_free(&tr->guard);
        for (uint32_t k = 0; k < tr->n_uguard; k++)
            mr_list_free(&tr->uguard[k]);
        free(tr->uguard);
        for (uint32_t c = 0; c < tr->n_cases; c++) {
            mr_list_free(&tr->cases[c].cond);
            free(tr->cases[c].val);
        }
        free(tr->cases);
    }
    free(s->trans);
    for (uint32_t k = 0; k < s->n_notes; k++)
        free(s->notes[k]);
    free(s->notes);
    free(s);
}
