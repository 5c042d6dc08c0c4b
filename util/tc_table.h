/* tc_table.h — the small generic table behind every characterisation table and the report: a title, named
 * columns, rows of cells (text plus a numeric value) and notes, printed aligned, as TSV, Markdown or HTML.
 * Nothing here knows about traces; it sits in util/ so that every floor (collect, simulate, record as well as
 * analysis) can write its tables with it. Its functions keep the table_ prefix they had in analysis/. */
#ifndef TC_TABLE_H
#define TC_TABLE_H

#include <stdio.h>

struct table; /* opaque: a title, named columns, rows of cells (text + numeric value), notes */

/* A table with n_cols columns named cols[] (copied). NULL on allocation failure. */
struct table *table_new(const char *title, int n_cols, const char *const *cols);
void table_free(struct table *t);
/* A builder's one exit: t when ok, else NULL with t freed (`ok = 1; out: ...free scratch...; return
 * table_finish(tab, ok);`). */
struct table *table_finish(struct table *t, int ok);
/* Append an empty row; returns its index, or -1. */
int table_add_row(struct table *t);
/* Set a cell. Numbers keep their value for table_num(); text cells read back as NaN. NaN prints as "nan".
 * decimals < 0 prints with %g. Out-of-range row/col returns -1. */
int table_set_str(struct table *t, int row, int col, const char *s);
int table_set_num(struct table *t, int row, int col, double v, int decimals);
int table_set_int(struct table *t, int row, int col, long long v);
/* A line shown under the table (totals, what was excluded); not written to TSV, which stays pure data. */
int table_add_note(struct table *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

const char *table_title(const struct table *t);
int table_n_rows(const struct table *t);
int table_n_cols(const struct table *t);
const char *table_col_name(const struct table *t, int col);
int table_col_index(const struct table *t, const char *name);  /* -1 if absent */
/* The index of column `name`, or -1 with a message naming the table and the column. For code that reads another
 * builder's table: a renamed column is then an error, never a silent NaN. */
int table_col_need(const struct table *t, const char *name);
const char *table_cell(const struct table *t, int row, int col); /* "" for unset cells */
double table_num(const struct table *t, int row, int col);       /* NaN for text or unset cells */
int table_n_notes(const struct table *t);
const char *table_note(const struct table *t, int i);

/* Append every row of src to dst, whose first column receives `first` and whose other columns must be src's
 * (same names, same order): how several traces share one table with a leading "trace" column. */
int table_append_rows(struct table *dst, const struct table *src, const char *first);

/* Output. TSV: one header line of column names, then one line per row; tabs and newlines inside cells become
 * spaces. Aligned: title, header, rule, rows (numbers right-aligned), notes; at most max_rows rows (<= 0: all),
 * then a line saying how many were left out. Markdown and HTML: the same, for summary.md and index.html. */
int table_write_tsv(const struct table *t, FILE *fp);
int table_print(const struct table *t, FILE *fp, int max_rows);
int table_write_markdown(const struct table *t, FILE *fp, int max_rows);
int table_write_html(const struct table *t, FILE *fp, int max_rows);
/* Write s with HTML special characters escaped. */
void html_escape(FILE *fp, const char *s);

#endif
