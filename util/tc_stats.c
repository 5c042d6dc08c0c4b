/* tc_stats.c — the one exact median of uint64 durations (a histogram pass, then selection among the few values
 * in the middle bins); median of sorted doubles (see tc_stats.h). */
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

/* Room for n values in *buf (capacity *cap); -1 when out of memory. */
static int reserve(uint64_t **buf, size_t *cap, size_t n)
{
    uint64_t *p;
    if (*cap >= n)
        return 0;
    if ((p = realloc(*buf, n * sizeof *p)) == NULL)
        return -1;
    *buf = p;
    *cap = n;
    return 0;
}

#define MIDDLE_BINS 4096
int tc_middle_u64(const uint64_t *x, size_t n, uint64_t **scratch, size_t *cap, uint64_t *lo, uint64_t *hi)
{
    static _Thread_local uint32_t hist[MIDDLE_BINS];
    size_t r_lo = (n - 1) / 2, r_hi = n / 2, cum = 0, base = 0, m = 0, b_lo = 0, b_hi = 0;
    uint64_t mn = x[0], mx = x[0], range;
    int shift = 0, found_lo = 0;
    for (size_t i = 1; i < n; i++) {
        mn = x[i] < mn ? x[i] : mn;
        mx = x[i] > mx ? x[i] : mx;
    }
    if (mn == mx) {
        *lo = *hi = mn;
        return 0;
    }
    range = mx - mn;
    while ((range >> shift) >= MIDDLE_BINS)
        shift++;
    memset(hist, 0, sizeof hist);
    for (size_t i = 0; i < n; i++)
        hist[(x[i] - mn) >> shift]++;
    for (size_t b = 0; b < MIDDLE_BINS; b++) {
        if (!found_lo && cum + hist[b] > r_lo) {
            b_lo = b;
            base = cum;
            found_lo = 1;
        }
        if (cum + hist[b] > r_hi) {
            b_hi = b;
            break;
        }
        cum += hist[b];
    }
    if (shift == 0) { /* one value per bin */
        *lo = mn + b_lo;
        *hi = mn + b_hi;
        return 0;
    }
    if (reserve(scratch, cap, n) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t bin = (size_t)((x[i] - mn) >> shift);
        if (bin >= b_lo && bin <= b_hi)
            (*scratch)[m++] = x[i];
    }
    /* ranks within the gathered values; after the select, [0, k) holds the k smallest of them */
    *hi = tc_select_u64(*scratch, m, r_hi - base);
    *lo = *hi;
    if (r_lo != r_hi) {
        *lo = (*scratch)[0];
        for (size_t i = 1; i < r_hi - base; i++)
            if ((*scratch)[i] > *lo)
                *lo = (*scratch)[i];
    }
    return 0;
}

double tc_median_u64(const uint64_t *x, size_t n, uint64_t *scratch)
{
    uint64_t *buf = scratch, lo, hi;
    size_t cap = scratch != NULL ? n : 0;
    int rc;
    if (n == 0)
        return NAN;
    rc = tc_middle_u64(x, n, &buf, &cap, &lo, &hi);
    if (buf != scratch)
        free(buf);
    if (rc != 0)
        return NAN;
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
