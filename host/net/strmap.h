/* String -> index map (open addressing, linear probing). Keys are borrowed:
 * the caller keeps them alive for the map's lifetime. Internal to host/. */
#ifndef PETREL_STRMAP_H
#define PETREL_STRMAP_H

#include <stdint.h>

typedef struct pn_strmap pn_strmap;

pn_strmap *pn_strmap_new(void);
void pn_strmap_free(pn_strmap *m);
/* 1 inserted, 0 key already present (value untouched), -1 no memory. */
int pn_strmap_put(pn_strmap *m, const char *key, int64_t value);
/* The value, or -1 when absent. */
int64_t pn_strmap_get(const pn_strmap *m, const char *key);
uint64_t pn_strmap_count(const pn_strmap *m);

#endif
