/* Infix rendering for --explain and tests. Every binary operator brings its
 * own parentheses, so no precedence table is needed to read it back. */
#include "petrel/formula.h"

#include <stdlib.h>

static void fml_print_name(FILE *f, const pn_net *net, bool place, uint32_t i)
{
    uint32_t count = net == NULL ? 0 : place ? net->n_places : net->n_transitions;
    if (i < count)
        fputs(place ? net->place_id[i] : net->trans_id[i], f);
    else
        fprintf(f, "%c#%u", place ? 'p' : 't', i);
}

static void fml_print_list(FILE *f, const pn_fml_node *n, const pn_net *net,
                           const char *sep)
{
    bool place = n->kind != PN_FML_FIREABLE && n->kind != PN_FML_ACTION;
    for (uint32_t i = 0; i < n->n; i++) {
        if (i > 0)
            fputs(sep, f);
        fml_print_name(f, net, place, n->idx[i]);
    }
}

static bool fml_is_prefix(pn_fml_kind k)
{
    return k == PN_FML_A || k == PN_FML_E || k == PN_FML_X || k == PN_FML_F ||
           k == PN_FML_G;
}

/* Nodes whose text starts and ends with their own parentheses. */
static bool fml_self_parens(const pn_fml_node *n)
{
    return (n->kind == PN_FML_AND || n->kind == PN_FML_OR) ? n->n > 1
           : n->kind == PN_FML_INT_LE || n->kind == PN_FML_U;
}

static void fml_print_rec(FILE *f, const pn_fml_node *n, const pn_net *net);

/* Runs of quantifiers and temporal operators read as one word: AG(...). */
static void fml_print_prefix(FILE *f, const pn_fml_node *n, const pn_net *net)
{
    static const char letter[] = {[PN_FML_A] = 'A', [PN_FML_E] = 'E',
                                  [PN_FML_X] = 'X', [PN_FML_F] = 'F',
                                  [PN_FML_G] = 'G'};
    for (; fml_is_prefix(n->kind); n = n->kids[0])
        fputc(letter[n->kind], f);
    if (fml_self_parens(n)) {
        fml_print_rec(f, n, net);
        return;
    }
    fputc('(', f);
    fml_print_rec(f, n, net);
    fputc(')', f);
}

static void fml_print_nary(FILE *f, const pn_fml_node *n, const pn_net *net)
{
    const char *sep = n->kind == PN_FML_AND ? " & " : " | ";
    if (n->n == 1) {
        fml_print_rec(f, n->kids[0], net);
        return;
    }
    fputc('(', f);
    for (uint32_t i = 0; i < n->n; i++) {
        if (i > 0)
            fputs(sep, f);
        fml_print_rec(f, n->kids[i], net);
    }
    fputc(')', f);
}

static void fml_print_rec(FILE *f, const pn_fml_node *n, const pn_net *net)
{
    switch (n->kind) {
    case PN_FML_TRUE: fputs("true", f); break;
    case PN_FML_FALSE: fputs("false", f); break;
    case PN_FML_DEADLOCK: fputs("deadlock", f); break;
    case PN_FML_CONST: fprintf(f, "%llu", (unsigned long long)n->value); break;
    case PN_FML_TOKENS: fml_print_list(f, n, net, " + "); break;
    case PN_FML_FIREABLE:
    case PN_FML_PLACE_BOUND:
    case PN_FML_ACTION:
        fputs(n->kind == PN_FML_FIREABLE ? "fireable("
              : n->kind == PN_FML_ACTION ? "action(" : "bound(", f);
        fml_print_list(f, n, net, ", ");
        fputc(')', f);
        break;
    case PN_FML_INT_LE:
        fputc('(', f);
        fml_print_rec(f, n->kids[0], net);
        fputs(" <= ", f);
        fml_print_rec(f, n->kids[1], net);
        fputc(')', f);
        break;
    case PN_FML_NOT:
        fputc('!', f);
        fml_print_rec(f, n->kids[0], net);
        break;
    case PN_FML_AND:
    case PN_FML_OR: fml_print_nary(f, n, net); break;
    case PN_FML_U:
        fputc('(', f);
        fml_print_rec(f, n->kids[0], net);
        fputs(" U ", f);
        fml_print_rec(f, n->kids[1], net);
        fputc(')', f);
        break;
    default: fml_print_prefix(f, n, net); break;
    }
}

void pn_fml_print_node(FILE *f, const pn_fml_node *n, const pn_net *net)
{
    fml_print_rec(f, n, net);
}

void pn_fml_print(FILE *f, const pn_fml_set *set, uint32_t i)
{
    const pn_fml_prop *p = &set->props[i];
    fprintf(f, "%s: ", p->id);
    if (p->status != PN_OK)
        fprintf(f, "error: %s\n", p->error != NULL ? p->error : "unknown");
    else {
        fml_print_rec(f, p->root, set->net);
        fputc('\n', f);
    }
}

char *pn_fml_to_string(const pn_fml_node *n, const pn_net *net)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == NULL)
        return NULL;
    fml_print_rec(f, n, net);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        free(buf);
        return NULL;
    }
    return buf;
}
