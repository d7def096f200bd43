#include "net/strmap.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *key;
    int64_t value;
    uint64_t hash;
} strmap_slot;

struct pn_strmap {
    strmap_slot *slots;
    uint64_t cap;   /* power of two */
    uint64_t count;
};

/* FNV-1a: identifiers are short and this map is off the hot path. */
static uint64_t strmap_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h | 1; /* 0 never marks a used slot */
}

pn_strmap *pn_strmap_new(void)
{
    pn_strmap *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->cap = 64;
    m->slots = calloc(m->cap, sizeof *m->slots);
    if (m->slots == NULL) {
        free(m);
        return NULL;
    }
    return m;
}

void pn_strmap_free(pn_strmap *m)
{
    if (m == NULL)
        return;
    free(m->slots);
    free(m);
}

static strmap_slot *strmap_find(strmap_slot *slots, uint64_t cap,
                                 const char *key, uint64_t h)
{
    for (uint64_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
        strmap_slot *s = &slots[i];
        if (s->hash == 0 || (s->hash == h && strcmp(s->key, key) == 0))
            return s;
    }
}

static int strmap_grow(pn_strmap *m)
{
    uint64_t cap = m->cap * 2;
    strmap_slot *slots = calloc(cap, sizeof *slots);
    if (slots == NULL)
        return -1;
    for (uint64_t i = 0; i < m->cap; i++) {
        strmap_slot *s = &m->slots[i];
        if (s->hash != 0)
            *strmap_find(slots, cap, s->key, s->hash) = *s;
    }
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

int pn_strmap_put(pn_strmap *m, const char *key, int64_t value)
{
    if ((m->count + 1) * 2 > m->cap && strmap_grow(m) != 0)
        return -1;
    uint64_t h = strmap_hash(key);
    strmap_slot *s = strmap_find(m->slots, m->cap, key, h);
    if (s->hash != 0)
        return 0;
    s->key = key;
    s->value = value;
    s->hash = h;
    m->count++;
    return 1;
}

int64_t pn_strmap_get(const pn_strmap *m, const char *key)
{
    uint64_t h = strmap_hash(key);
    const strmap_slot *s = strmap_find(m->slots, m->cap, key, h);
    return s->hash != 0 ? s->value : -1;
}

uint64_t pn_strmap_count(const pn_strmap *m) { return m->count; }
