/* The property syntax of RERS 2019's parallel tracks (petrel/rers.h), by
 * recursive descent (one function per precedence level):
 *  - LTL in Spot's syntax (A. Duret-Lutz et al., "Spot 2.0", ATVA 2016;
 *    spot.lre.epita.fr/tl.pdf): atoms are labels (identifiers or "quoted"),
 *    ! ~ X F G [] <> bind tightest, then U W R V M (right), & && /\, xor ^,
 *    | || \/, and -> => <-> <=> (right, lowest);
 *  - CTL in RERS's grammar: true false & | => <=> [] <> [a] <a> A(f U f)
 *    E(f U f) A(f W f) E(f W f) AG EG AF EF, plus ! and AX EX, unary
 *    operators binding tightest, then &, |, and => <=> (right).
 * Both build pn_fml trees over ACTION atoms (a label the net lacks is an
 * action that never happens: FALSE); the derived operators are rewritten
 * into the checkers' own: a W b = (a U b) | G a, a R b = !(!a U !b),
 * a M b = b U (a & b), A(a W b) = !E(!b U (!a & !b)),
 * E(a W b) = E(a U b) | EG a. */
#include "petrel/rers_read.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    TK_END, TK_WORD, TK_QUOTED, TK_LP, TK_RP, TK_LB, TK_RB, TK_LT, TK_GT, TK_BOX, TK_DIAMOND,
    TK_NOT, TK_AND, TK_OR, TK_XOR, TK_IMPLIES, TK_EQUIV, TK_BAD
} rp_tok;

typedef struct rp {
    const char *text;
    size_t pos, tok_start, tok_len; /* the current token */
    rp_tok tok;
    bool ctl;
    const pn_net *net;
    pn_error *err;
    uint32_t ops;      /* operators read: bounds the depth of every recursion */
    bool failed;
} rp;

/* Trees are walked recursively (here, by the checkers, by pn_fml_free):
 * a formula of more operators than this is refused rather than risking the
 * stack. RERS formulas have tens. */
#define RP_MAX_OPS 10000

/* ---- tokens ------------------------------------------------------------- */

static bool rp_word_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '.'; }

static size_t rp_match(const char *s, const char *const *ops)
{
    for (; *ops != NULL; ops++)
        if (strncmp(s, *ops, strlen(*ops)) == 0)
            return strlen(*ops);
    return 0;
}

static void rp_next(rp *p)
{
    static const char *const implies[] = {"-->", "->", "=>", NULL};
    static const char *const equiv[] = {"<-->", "<->", "<=>", NULL};
    static const char *const and_ops[] = {"&&", "&", "/\\", NULL};
    static const char *const or_ops[] = {"||", "|", "\\/", NULL};
    const char *s = p->text;
    while (isspace((unsigned char)s[p->pos]))
        p->pos++;
    p->tok_start = p->pos;
    const char *c = s + p->pos;
    size_t n = 0;
    if (*c == '\0') {
        p->tok = TK_END;
    } else if (rp_word_char(*c)) {
        while (rp_word_char(c[n]))
            n++;
        p->tok = TK_WORD;
    } else if (*c == '"') {
        n = 1;
        while (c[n] != '\0' && c[n] != '"')
            n++;
        p->tok = c[n] == '"' ? TK_QUOTED : TK_BAD;
        n += c[n] == '"';
    } else if ((n = rp_match(c, equiv)) > 0) {
        p->tok = TK_EQUIV;
    } else if ((n = rp_match(c, implies)) > 0) {
        p->tok = TK_IMPLIES;
    } else if ((n = rp_match(c, and_ops)) > 0) {
        p->tok = TK_AND;
    } else if ((n = rp_match(c, or_ops)) > 0) {
        p->tok = TK_OR;
    } else {
        n = 1;
        switch (*c) {
        case '(': p->tok = TK_LP; break;
        case ')': p->tok = TK_RP; break;
        case '!':
        case '~': p->tok = TK_NOT; break;
        case '^': p->tok = TK_XOR; break;
        case '>': p->tok = TK_GT; break;
        case '[':
            p->tok = c[1] == ']' ? TK_BOX : TK_LB;
            n = c[1] == ']' ? 2 : 1;
            break;
        case ']': p->tok = TK_RB; break;
        case '<':
            p->tok = c[1] == '>' ? TK_DIAMOND : TK_LT;
            n = c[1] == '>' ? 2 : 1;
            break;
        default: p->tok = TK_BAD;
        }
    }
    p->pos += n;
    p->tok_len = n;
}

static bool rp_is_word(const rp *p, const char *w)
{
    return p->tok == TK_WORD && p->tok_len == strlen(w) &&
           strncmp(p->text + p->tok_start, w, p->tok_len) == 0;
}

static pn_fml_node *rp_error(rp *p, const char *what)
{
    if (!p->failed)
        pn_fail(p->err, PN_ERR_INPUT, "column %zu: %s (at '%.*s')", p->tok_start + 1, what,
                p->tok == TK_END ? 5 : (int)(p->tok_len > 30 ? 30 : p->tok_len),
                p->tok == TK_END ? "end" : p->text + p->tok_start);
    p->failed = true;
    return NULL;
}

static pn_fml_node *rp_nomem(rp *p)
{
    if (!p->failed)
        pn_fail(p->err, PN_ERR_NOMEM, "out of memory reading a property");
    p->failed = true;
    return NULL;
}

/* ---- building ------------------------------------------------------------ */

/* ACTION over the transitions labelled by the current token (a word or a
 * quoted string), FALSE when there are none. */
static pn_fml_node *rp_action(rp *p)
{
    size_t start = p->tok_start + (p->tok == TK_QUOTED);
    size_t len = p->tok_len - (p->tok == TK_QUOTED ? 2 : 0);
    const pn_net *net = p->net;
    uint32_t *idx = malloc(((size_t)net->n_transitions + 1) * sizeof *idx), n = 0;
    if (idx == NULL)
        return rp_nomem(p);
    for (uint32_t t = 0; t < net->n_transitions; t++) {
        const char *l = pn_rers_label(net, t);
        if (l != NULL && strlen(l) == len && strncmp(l, p->text + start, len) == 0)
            idx[n++] = t;
    }
    pn_fml_node *a = n > 0 ? pn_fml_list(PN_FML_ACTION, idx, n) : pn_fml_leaf(PN_FML_FALSE);
    free(idx);
    rp_next(p);
    return a != NULL ? a : rp_nomem(p);
}

static pn_fml_node *rp_not(pn_fml_node *a) { return pn_fml_unary(PN_FML_NOT, a); }

/* n, or the out-of-memory error when a builder failed (NULL kids only come
 * with an error already recorded). */
static pn_fml_node *rp_ok(rp *p, pn_fml_node *n) { return n != NULL ? n : rp_nomem(p); }

/* Counts n operators; false (with the error) past RP_MAX_OPS. */
static bool rp_count_n(rp *p, uint64_t n)
{
    p->ops = p->ops + n > RP_MAX_OPS ? RP_MAX_OPS + 1 : (uint32_t)(p->ops + n);
    if (p->ops <= RP_MAX_OPS)
        return true;
    rp_error(p, "formula too large (more than 10000 operators, derived ones included)");
    return false;
}

static bool rp_count(rp *p) { return rp_count_n(p, 1); }

static uint64_t rp_size(const pn_fml_node *n)
{
    uint64_t k = 1;
    for (uint32_t i = 0; n->kids != NULL && i < n->n && k <= RP_MAX_OPS; i++)
        k += rp_size(n->kids[i]);
    return k;
}

/* Binary connectives; a and b are taken. The rewritings that copy an
 * operand count the copy, so nested ones cannot grow the tree beyond
 * RP_MAX_OPS. */
static pn_fml_node *rp_combine(rp *p, rp_tok op, const char *word, pn_fml_node *a,
                               pn_fml_node *b)
{
    pn_fml_node *r = NULL;
    bool copies = op == TK_EQUIV || op == TK_XOR || strcmp(word, "W") == 0 ||
                  strcmp(word, "M") == 0;
    if (a == NULL || b == NULL ||
        (copies && !rp_count_n(p, rp_size(a) + rp_size(b)))) {
        pn_fml_free(a);
        pn_fml_free(b);
        return NULL;
    }
    if (op == TK_AND || op == TK_OR) {
        r = pn_fml_binary(op == TK_AND ? PN_FML_AND : PN_FML_OR, a, b);
    } else if (op == TK_IMPLIES) {
        r = pn_fml_binary(PN_FML_OR, rp_not(a), b);
    } else if (op == TK_EQUIV || op == TK_XOR) {
        pn_fml_node *na = rp_not(pn_fml_clone(a)), *nb = rp_not(pn_fml_clone(b));
        if (op == TK_XOR) {
            pn_fml_node *t = nb;
            nb = b;
            b = t;
        }
        r = pn_fml_binary(PN_FML_OR, pn_fml_binary(PN_FML_AND, a, b),
                          pn_fml_binary(PN_FML_AND, na, nb));
    } else if (strcmp(word, "U") == 0) {
        r = pn_fml_binary(PN_FML_U, a, b);
    } else if (strcmp(word, "W") == 0) {
        pn_fml_node *ga = pn_fml_unary(PN_FML_G, pn_fml_clone(a));
        r = pn_fml_binary(PN_FML_OR, pn_fml_binary(PN_FML_U, a, b), ga);
    } else if (strcmp(word, "R") == 0 || strcmp(word, "V") == 0) {
        r = rp_not(pn_fml_binary(PN_FML_U, rp_not(a), rp_not(b)));
    } else { /* M */
        pn_fml_node *bb = pn_fml_clone(b);
        r = pn_fml_binary(PN_FML_U, b, pn_fml_binary(PN_FML_AND, a, bb));
    }
    return rp_ok(p, r);
}

/* '(' f ')', f read by the logic's lowest level; the current token is '('. */
static pn_fml_node *rp_group(rp *p, pn_fml_node *(*level)(rp *, int))
{
    rp_next(p);
    pn_fml_node *a = level(p, 0);
    if (a != NULL && p->tok != TK_RP) {
        pn_fml_free(a);
        return rp_error(p, "')' expected");
    }
    rp_next(p);
    return a;
}

/* ---- LTL ------------------------------------------------------------------ */

static pn_fml_node *ltl_level(rp *p, int level);

static bool ltl_keyword(const rp *p)
{
    static const char *const kw[] = {"X", "F", "G", "U", "W", "R", "V", "M", "xor", "true",
                                     "false", NULL};
    for (const char *const *k = kw; *k != NULL; k++)
        if (rp_is_word(p, *k))
            return true;
    return false;
}

static pn_fml_node *ltl_unary(rp *p)
{
    pn_fml_kind k;
    if (!rp_count(p))
        return NULL;
    if (p->tok == TK_NOT) {
        rp_next(p);
        pn_fml_node *a = ltl_unary(p);
        return a == NULL ? NULL : rp_ok(p, rp_not(a));
    }
    if (p->tok == TK_BOX || p->tok == TK_DIAMOND || rp_is_word(p, "X") || rp_is_word(p, "F") ||
        rp_is_word(p, "G")) {
        k = p->tok == TK_BOX ? PN_FML_G : p->tok == TK_DIAMOND ? PN_FML_F
            : rp_is_word(p, "X") ? PN_FML_X : rp_is_word(p, "F") ? PN_FML_F : PN_FML_G;
        rp_next(p);
        pn_fml_node *a = ltl_unary(p);
        return a == NULL ? NULL : rp_ok(p, pn_fml_unary(k, a));
    }
    if (p->tok == TK_LP)
        return rp_group(p, ltl_level);
    if (rp_is_word(p, "true") || rp_is_word(p, "1") || rp_is_word(p, "false") ||
        rp_is_word(p, "0")) {
        bool t = rp_is_word(p, "true") || rp_is_word(p, "1");
        rp_next(p);
        return rp_ok(p, pn_fml_leaf(t ? PN_FML_TRUE : PN_FML_FALSE));
    }
    if ((p->tok == TK_WORD && !ltl_keyword(p)) || p->tok == TK_QUOTED)
        return rp_action(p);
    return rp_error(p, "a label, '(' or a unary operator expected");
}

/* Levels: 0 -> <-> (right), 1 |, 2 xor, 3 &, 4 U W R V M (right), 5 unary. */
static bool ltl_op_at(const rp *p, int level)
{
    switch (level) {
    case 0: return p->tok == TK_IMPLIES || p->tok == TK_EQUIV;
    case 1: return p->tok == TK_OR;
    case 2: return p->tok == TK_XOR || rp_is_word(p, "xor");
    case 3: return p->tok == TK_AND;
    default:
        return rp_is_word(p, "U") || rp_is_word(p, "W") || rp_is_word(p, "R") ||
               rp_is_word(p, "V") || rp_is_word(p, "M");
    }
}

static pn_fml_node *ltl_level(rp *p, int level)
{
    if (level == 5)
        return ltl_unary(p);
    pn_fml_node *a = ltl_level(p, level + 1);
    bool right = level == 0 || level == 4;
    while (a != NULL && ltl_op_at(p, level)) {
        rp_tok op = p->tok == TK_WORD && level == 2 ? TK_XOR : p->tok;
        char word[2] = {p->text[p->tok_start], 0};
        rp_next(p);
        pn_fml_node *b = right ? ltl_level(p, level) : ltl_level(p, level + 1);
        a = rp_combine(p, op, word, a, b);
        if (right)
            break;
    }
    return a;
}

/* ---- CTL ------------------------------------------------------------------ */

static pn_fml_node *ctl_level(rp *p, int level);

static pn_fml_node *ctl_quant(rp *p, pn_fml_kind q, pn_fml_node *path)
{
    return rp_ok(p, path == NULL ? NULL : pn_fml_unary(q, path));
}

/* [a] f = AX(!a | f), <a> f = EX(a & f): a is read on the step. */
static pn_fml_node *ctl_modal(rp *p, bool box)
{
    rp_next(p);
    if (p->tok != TK_WORD && p->tok != TK_QUOTED)
        return rp_error(p, "a label expected");
    pn_fml_node *a = rp_action(p);
    if (a == NULL)
        return NULL;
    if (p->tok != (box ? TK_RB : TK_GT)) {
        pn_fml_free(a);
        return rp_error(p, box ? "']' expected" : "'>' expected");
    }
    rp_next(p);
    pn_fml_node *f = ctl_level(p, 3);
    if (f == NULL) {
        pn_fml_free(a);
        return NULL;
    }
    pn_fml_node *step = box ? pn_fml_binary(PN_FML_OR, rp_not(a), f)
                            : pn_fml_binary(PN_FML_AND, a, f);
    return ctl_quant(p, box ? PN_FML_A : PN_FML_E, pn_fml_unary(PN_FML_X, step));
}

/* A(f U g), E(f U g), A(f W g), E(f W g); the current token is '('. */
static pn_fml_node *ctl_until(rp *p, bool all)
{
    rp_next(p);
    pn_fml_node *f = ctl_level(p, 0);
    if (f == NULL)
        return NULL;
    bool weak = rp_is_word(p, "W");
    if (!weak && !rp_is_word(p, "U")) {
        pn_fml_free(f);
        return rp_error(p, "'U' or 'W' expected");
    }
    rp_next(p);
    pn_fml_node *g = ctl_level(p, 0);
    if (g == NULL) {
        pn_fml_free(f);
        return NULL;
    }
    if (p->tok != TK_RP) {
        pn_fml_free(f);
        pn_fml_free(g);
        return rp_error(p, "')' expected");
    }
    rp_next(p);
    pn_fml_node *r;
    if (!weak) {
        r = pn_fml_unary(all ? PN_FML_A : PN_FML_E, pn_fml_binary(PN_FML_U, f, g));
    } else if (all) { /* A(f W g) = !E(!g U (!f & !g)) */
        pn_fml_node *ng = rp_not(pn_fml_clone(g));
        r = rp_not(pn_fml_unary(PN_FML_E, pn_fml_binary(PN_FML_U, ng,
                   pn_fml_binary(PN_FML_AND, rp_not(f), rp_not(g)))));
    } else { /* E(f W g) = E(f U g) | EG f */
        pn_fml_node *gf = pn_fml_unary(PN_FML_E, pn_fml_unary(PN_FML_G, pn_fml_clone(f)));
        r = pn_fml_binary(PN_FML_OR, pn_fml_unary(PN_FML_E, pn_fml_binary(PN_FML_U, f, g)), gf);
    }
    return rp_ok(p, r);
}

static pn_fml_node *ctl_unary(rp *p)
{
    static const struct { const char *w; pn_fml_kind q, op; } prefix[] = {
        {"AG", PN_FML_A, PN_FML_G}, {"EG", PN_FML_E, PN_FML_G}, {"AF", PN_FML_A, PN_FML_F},
        {"EF", PN_FML_E, PN_FML_F}, {"AX", PN_FML_A, PN_FML_X}, {"EX", PN_FML_E, PN_FML_X}};
    if (!rp_count(p))
        return NULL;
    if (p->tok == TK_NOT) {
        rp_next(p);
        pn_fml_node *a = ctl_unary(p);
        return a == NULL ? NULL : rp_ok(p, rp_not(a));
    }
    if (p->tok == TK_BOX || p->tok == TK_DIAMOND) {
        bool box = p->tok == TK_BOX;
        rp_next(p);
        pn_fml_node *a = ctl_unary(p);
        return a == NULL ? NULL
                         : ctl_quant(p, box ? PN_FML_A : PN_FML_E, pn_fml_unary(PN_FML_X, a));
    }
    if (p->tok == TK_LB || p->tok == TK_LT)
        return ctl_modal(p, p->tok == TK_LB);
    for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++)
        if (rp_is_word(p, prefix[i].w)) {
            rp_next(p);
            pn_fml_node *a = ctl_unary(p);
            return a == NULL ? NULL : ctl_quant(p, prefix[i].q, pn_fml_unary(prefix[i].op, a));
        }
    if (rp_is_word(p, "A") || rp_is_word(p, "E")) {
        bool all = rp_is_word(p, "A");
        rp_next(p);
        if (p->tok != TK_LP)
            return rp_error(p, "'(' expected after A or E");
        return ctl_until(p, all);
    }
    if (p->tok == TK_LP)
        return rp_group(p, ctl_level);
    if (rp_is_word(p, "true") || rp_is_word(p, "false")) {
        bool t = rp_is_word(p, "true");
        rp_next(p);
        return rp_ok(p, pn_fml_leaf(t ? PN_FML_TRUE : PN_FML_FALSE));
    }
    return rp_error(p, "a CTL operator, 'true', 'false' or '(' expected");
}

/* Levels: 0 => <=> (right), 1 |, 2 &, 3 unary. */
static pn_fml_node *ctl_level(rp *p, int level)
{
    if (level == 3)
        return ctl_unary(p);
    pn_fml_node *a = ctl_level(p, level + 1);
    while (a != NULL && (level == 0 ? p->tok == TK_IMPLIES || p->tok == TK_EQUIV
                         : p->tok == (level == 1 ? TK_OR : TK_AND))) {
        rp_tok op = p->tok;
        rp_next(p);
        pn_fml_node *b = ctl_level(p, level == 0 ? 0 : level + 1);
        a = rp_combine(p, op, "", a, b);
        if (level == 0)
            break;
    }
    return a;
}

/* ---- entry ------------------------------------------------------------------ */

/* *stop: where a syntax error was found (how far the text read). */
static pn_fml_node *rp_parse(const char *text, const pn_net *net, bool ctl, pn_error *err,
                             size_t *stop)
{
    rp p = {.text = text, .ctl = ctl, .net = net, .err = err};
    rp_next(&p);
    pn_fml_node *f = ctl ? ctl_level(&p, 0) : ltl_level(&p, 0);
    if (f != NULL && p.tok != TK_END) {
        pn_fml_free(f);
        f = rp_error(&p, "end of the formula expected");
    }
    if (f != NULL && !ctl && (f = pn_fml_unary(PN_FML_A, f)) == NULL)
        rp_nomem(&p);
    *stop = p.tok_start;
    return f;
}

void pn_rers_prop_clear(pn_rers_prop *p)
{
    pn_fml_free(p->root);
    free(p->text);
    memset(p, 0, sizeof *p);
}

pn_status pn_rers_parse(const char *text, const pn_net *net, pn_rers_logic logic,
                        pn_rers_prop *out, pn_error *err)
{
    memset(out, 0, sizeof *out);
    pn_error ctl_err = {0}, ltl_err = {0};
    size_t ctl_stop = 0, ltl_stop = 0;
    out->logic = logic;
    if (logic != PN_RERS_LTL) { /* AUTO: CTL when it parses as CTL */
        out->root = rp_parse(text, net, true, &ctl_err, &ctl_stop);
        out->logic = PN_RERS_CTL;
        if (out->root == NULL && (logic == PN_RERS_CTL || ctl_err.code == PN_ERR_NOMEM)) {
            *err = ctl_err;
            return err->code;
        }
    }
    if (out->root == NULL) {
        out->logic = PN_RERS_LTL;
        out->root = rp_parse(text, net, false, &ltl_err, &ltl_stop);
    }
    if (out->root == NULL) { /* neither: the reading that got further is the likely intent */
        *err = logic == PN_RERS_AUTO && ltl_err.code == PN_ERR_INPUT && ctl_stop > ltl_stop
                   ? ctl_err : ltl_err;
        return err->code;
    }
    if ((out->text = strdup(text)) == NULL) {
        pn_rers_prop_clear(out);
        return pn_fail(err, PN_ERR_NOMEM, "out of memory reading a property");
    }
    return PN_OK;
}
