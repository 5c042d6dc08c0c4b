/* tc_stats.h — small statistics shared by the stages: the exact median of durations (uint64 nanoseconds),
 * found by selection rather than a sort, so that runs of thousands of executions cost one pass or two; the
 * comparator and median for sorted doubles. */
#ifndef TC_STATS_H
#define TC_STATS_H

#include <stddef.h>
#include <stdint.h>

/* k-th smallest (0-based) of a[0..n), n > k, reordering a so that a[0..k) <= a[k] <= a(k..n) (Wirth's
 * selection; copes with many equal values, which durations often are). */
uint64_t tc_select_u64(uint64_t *a, size_t n, size_t k);
/* The two middle values of x[0..n), n > 0 (lo == hi when n is odd): the only exact median in tunecost; x is not
 * changed. A histogram of 4096 bins over [min, max] finds the bins of the middle ranks in one pass; only the values
 * in those bins are copied into *scratch (grown to n values when needed, *cap its capacity; the caller frees it)
 * and selected, so runs of thousands of executions that cluster tightly cost one pass and a small select. Returns
 * 0, or -1 when *scratch cannot grow. */
int tc_middle_u64(const uint64_t *x, size_t n, uint64_t **scratch, size_t *cap, uint64_t *lo, uint64_t *hi);
/* Median of x[0..n) (the mean of the two middle values when n is even) by tc_middle_u64; x is not changed.
 * scratch holds n values and is overwritten; with scratch NULL the function allocates what it needs. NaN if n is
 * 0 or the allocation fails. */
double tc_median_u64(const uint64_t *x, size_t n, uint64_t *scratch);

/* qsort comparator: doubles in ascending order. */
int tc_cmp_double(const void *a, const void *b);
/* Median of v[0..n), already sorted ascending, n > 0 (the mean of the two middle values when n is even). */
double tc_median_sorted(const double *v, size_t n);

#endif
