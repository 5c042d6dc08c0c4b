/* tc_grow.c — the one array-growth helper (contract in tc_grow.h). */
#include "tc_grow.h"
#include "tc_err.h"

#include <stdint.h>
#include <stdlib.h>

void *tc_grow(void *p, size_t *cap, size_t need, size_t elem)
{
    size_t c = *cap;
    void *q;
    if (p != NULL && need <= c)
        return p;
    c = c > SIZE_MAX / 2 ? SIZE_MAX : 2 * c;
    if (c < need)
        c = need;
    if (c < 16)
        c = 16;
    if (elem != 0 && c > SIZE_MAX / elem) {
        tc_seterr_env("out of memory");
        return NULL;
    }
    if ((q = realloc(p, c * (elem ? elem : 1))) == NULL) {
        tc_seterr_env("out of memory");
        return NULL;
    }
    *cap = c;
    return q;
}
