/* tc_stats.c — exact median of uint64 durations by selection; median of sorted doubles (see tc_stats.h). */
#include "tc_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t tc_select_u64(uint64_t *a, size_t n, size_t k)
{
    long l = 0, m = (long)n - 1, kk = (long)k;
    while (l < m) {
        uint64_t pivot = a[kk];
        long i = l, j = m;
        do {
            while (a[i] < pivot)
                i++;
            while (pivot < a[j])
                j--;
            if (i <= j) {
                uint64_t tmp = a[i];
                a[i] = a[j];
                a[j] = tmp;
                i++;
                j--;
            }
        } while (i <= j);
        if (j < kk)
            l = i;
        if (kk < i)
            m = j;
    }
    return a[k];
}

double tc_median_u64(const uint64_t *x, size_t n, uint64_t *scratch)
{
    uint64_t *a = scratch, hi, lo;
    if (n == 0)
        return NAN;
    if (a == NULL && (a = malloc(n * sizeof *a)) == NULL)
        return NAN;
    memcpy(a, x, n * sizeof *a);
    hi = tc_select_u64(a, n, n / 2);
    lo = hi;
    if (n % 2 == 0) {
        /* after selecting n/2, everything below it is in a[0 .. n/2): the lower middle is their maximum */
        lo = a[0];
        for (size_t i = 1; i < n / 2; i++)
            if (a[i] > lo)
                lo = a[i];
    }
    if (a != scratch)
        free(a);
    return n % 2 ? (double)hi : ((double)lo + (double)hi) / 2.0;
}

int tc_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double tc_median_sorted(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
