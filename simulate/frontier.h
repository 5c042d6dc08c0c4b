/* frontier.h — Pareto frontiers of (tuning time, performance) points: lower time and higher performance win.
 * A point is on the frontier when no other point is at least as good on both and better on one; points with
 * equal time and performance are all kept. Used by `tunecost simulate` (frontier.tsv) and `tunecost frontier`
 * (any points.tsv), so both give the same rows. */
#ifndef FRONTIER_H
#define FRONTIER_H

#include <stddef.h>
#include <stdio.h>

/* on[i] = 1 when point i is on the frontier of the n points, else 0. Points with a NaN coordinate are never on
 * it and dominate nothing. Returns 0, or -1 when out of memory. */
int frontier_mark(size_t n, const double *time, const double *perf, unsigned char *on);

/* A points table read from TSV by util/tc_tsv (the one reader): leading '#' comment lines, one header line of
 * column names, rows of tab-separated fields. Rows are grouped by the `scenario` column when there is one (else one
 * group), and the frontier is computed per group over the columns `time_col` and `perf_col`. */
struct frontier_table; /* opaque */

/* Read and mark. `name` is for messages (the file name). Errors name the file, the line and what was expected. */
struct frontier_table *frontier_table_read(FILE *fp, const char *name, const char *time_col, const char *perf_col);
size_t frontier_table_n_rows(const struct frontier_table *t);
size_t frontier_table_n_frontier(const struct frontier_table *t);
int frontier_table_on(const struct frontier_table *t, size_t row);
/* The input's comment lines, then `note` (one extra comment line, without '#', or NULL), the header, and the
 * frontier rows verbatim: grouped in order of first appearance, by time ascending, then performance descending.
 * Returns -1 on a write error. */
int frontier_table_write(const struct frontier_table *t, FILE *out, const char *note);
/* The same, keeping only the columns named in `columns` ("time_s,tflops,n_config"; NULL: all) and the rows of
 * one `scenario` (NULL: all). An unknown column or scenario returns -2 before anything is written; a write
 * error -1. */
int frontier_table_write_select(const struct frontier_table *t, FILE *out, const char *note, const char *columns,
                                const char *scenario);
void frontier_table_free(struct frontier_table *t);

#endif
