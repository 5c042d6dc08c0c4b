/* tc_grow.h — the one array-growth helper: room for `need` elements in a malloc'd array, doubling.
 *
 *     size_t cap = t->cap;
 *     struct row *r = tc_grow(t->rows, &cap, t->n + 1, sizeof *r);
 *     if (r == NULL)
 *         return -1;                    // "out of memory", the environment's fault; t->rows is still valid
 *     t->rows = r;
 *     t->cap = cap;
 */
#ifndef TC_GROW_H
#define TC_GROW_H

#include <stddef.h>

/* p (of *cap elements of elem bytes) when it has room for need elements, else p reallocated to max(need, 2 * *cap,
 * 16) elements with *cap updated. NULL with "out of memory" (tc_seterr_env) when that fails or its size overflows:
 * p is then untouched and still the caller's. */
void *tc_grow(void *p, size_t *cap, size_t need, size_t elem);

#endif
