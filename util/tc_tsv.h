/* tc_tsv.h — the TSV files tunecost writes and reads back: the column schema of each kind, and the one reader.
 * Format: '#' comment lines, one header line of column names, then rows with exactly as many tab-separated fields
 * as the header. An empty field is a value (""), never merged with its neighbour; lines may be of any length; a
 * trailing '\r' is dropped; blank lines and '#' lines after the header are skipped; `nan` is the one
 * missing-value token.
 *
 *     struct tc_tsv *r = tc_tsv_open(fp, "scaling-100.tsv");
 *     int cj = r ? tc_tsv_col_need(r, "jobs") : -1;
 *     while (cj >= 0 && (rc = tc_tsv_next(r)) == 1) ... tc_tsv_field(r, cj) ...
 *     tc_tsv_close(r);
 */
#ifndef TC_TSV_H
#define TC_TSV_H

#include <stddef.h>
#include <stdio.h>

/* ---- schemas: the columns of each kind, in file order; writers print their header from here (the simulation
 * points have their own column table: simulate/sim_columns.h) ---- */
struct tc_tsv_schema {
    const char *kind;        /* for messages: "simulation points" */
    int n_cols;
    const char *const *cols;
};
/* Tuning-policy curves: `policies`' curves.tsv, the report's policies-curves.tsv. */
extern const struct tc_tsv_schema tc_tsv_curves;
/* Compile scaling: `collect --compile-only -o FILE.tsv` (read by `table scaling` and the report's Table 7). */
extern const struct tc_tsv_schema tc_tsv_scaling;
/* The header line of s (names joined by tabs, then a newline). */
void tc_tsv_write_header(FILE *fp, const struct tc_tsv_schema *s);

/* ---- the reader ---- */
struct tc_tsv; /* opaque */

/* Read the comment lines and the header of fp (name: for messages). NULL with a message naming the file when it
 * has no header or cannot be read. fp stays the caller's. */
struct tc_tsv *tc_tsv_open(FILE *fp, const char *name);
void tc_tsv_close(struct tc_tsv *r);
/* The '#' lines before the header, verbatim ('#' kept, no newline). */
size_t tc_tsv_n_comments(const struct tc_tsv *r);
const char *tc_tsv_comment(const struct tc_tsv *r, size_t i);
/* The header verbatim, its number of columns, one name. */
const char *tc_tsv_header(const struct tc_tsv *r);
int tc_tsv_n_cols(const struct tc_tsv *r);
/* Index of column name, or -1. */
int tc_tsv_col(const struct tc_tsv *r, const char *name);
/* The same, or -1 with "NAME:LINE: no column 'x'; columns: a, b, c". */
int tc_tsv_col_need(const struct tc_tsv *r, const char *name);
/* Read the next row: 1, 0 after the last, -1 with a message (file and line) for a row with another number of
 * fields than the header or a read error. */
int tc_tsv_next(struct tc_tsv *r);
/* The current row verbatim, its line number in the file, field c (NUL-terminated, "" when empty). */
const char *tc_tsv_row(const struct tc_tsv *r);
long tc_tsv_lineno(const struct tc_tsv *r);
const char *tc_tsv_field(const struct tc_tsv *r, int c);
/* Field c of the current row as a number (the whole field; `nan` is NaN). -1 with "NAME:LINE: column 'x':
 * expected a number, got 'v'". */
int tc_tsv_num(const struct tc_tsv *r, int c, double *out);
/* Field c of a row kept as text (tc_tsv_row's copy): its start and length; "" past the last field. The one
 * splitting rule, for code that stores rows and prints some of their columns later. */
void tc_tsv_line_field(const char *line, int c, const char **start, size_t *len);

#endif
