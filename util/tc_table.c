/* tc_table.c — the generic table behind every characterisation table: cells kept as text plus a numeric value,
 * written aligned (stdout), as TSV (data files, gnuplot), Markdown (summary.md) or HTML (index.html). */
#include "tc_table.h"
#include "tc_atomic.h"
#include "tc_err.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct cell {
    char *text;   /* NULL = unset */
    double num;   /* NaN for text */
    int numeric;
};

struct table {
    char *title;
    int n_cols;
    char **cols;
    int n_rows, cap_rows;
    struct cell *cells; /* n_rows x n_cols */
    int n_notes;
    char **notes;
};

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

struct table *table_new(const char *title, int n_cols, const char *const *cols)
{
    struct table *t = calloc(1, sizeof *t);
    if (t == NULL)
        goto fail;
    t->n_cols = n_cols;
    t->title = dupstr(title);
    t->cols = calloc((size_t)n_cols, sizeof *t->cols);
    if (t->title == NULL || t->cols == NULL)
        goto fail;
    for (int c = 0; c < n_cols; c++)
        if ((t->cols[c] = dupstr(cols[c])) == NULL)
            goto fail;
    return t;
fail:
    table_free(t);
    tc_seterr_env("out of memory building table '%s'", title);
    return NULL;
}

void table_free(struct table *t)
{
    if (t == NULL)
        return;
    for (int c = 0; t->cols != NULL && c < t->n_cols; c++)
        free(t->cols[c]);
    for (long i = 0; i < (long)t->n_rows * t->n_cols; i++)
        free(t->cells[i].text);
    for (int i = 0; i < t->n_notes; i++)
        free(t->notes[i]);
    free(t->notes);
    free(t->cells);
    free(t->cols);
    free(t->title);
    free(t);
}

struct table *table_finish(struct table *t, int ok)
{
    if (ok)
        return t;
    table_free(t);
    return NULL;
}

int table_add_row(struct table *t)
{
    if (t->n_rows == t->cap_rows) {
        int cap = t->cap_rows ? 2 * t->cap_rows : 64;
        struct cell *c = realloc(t->cells, (size_t)cap * t->n_cols * sizeof *c);
        if (c == NULL)
            return tc_seterr_env("out of memory building table '%s'", t->title);
        t->cells = c;
        t->cap_rows = cap;
    }
    for (int c = 0; c < t->n_cols; c++)
        t->cells[(size_t)t->n_rows * t->n_cols + c] = (struct cell){NULL, NAN, 0};
    return t->n_rows++;
}

static struct cell *cell_at(struct table *t, int row, int col)
{
    if (row < 0 || row >= t->n_rows || col < 0 || col >= t->n_cols)
        return NULL;
    return &t->cells[(size_t)row * t->n_cols + col];
}

static const struct cell *cell_get(const struct table *t, int row, int col)
{
    if (row < 0 || row >= t->n_rows || col < 0 || col >= t->n_cols)
        return NULL;
    return &t->cells[(size_t)row * t->n_cols + col];
}

int table_set_str(struct table *t, int row, int col, const char *s)
{
    struct cell *c = cell_at(t, row, col);
    char *d;
    if (c == NULL)
        return tc_seterr("table '%s': no cell (%d, %d)", t->title, row, col);
    if ((d = dupstr(s)) == NULL)
        return tc_seterr_env("out of memory building table '%s'", t->title);
    /* TSV and aligned output are one line per row: no tabs or newlines inside a cell. */
    for (char *p = d; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
    free(c->text);
    c->text = d;
    c->num = NAN;
    c->numeric = 0;
    return 0;
}

int table_set_num(struct table *t, int row, int col, double v, int decimals)
{
    char buf[64];
    if (isnan(v))
        snprintf(buf, sizeof buf, "nan");
    else if (isinf(v))
        snprintf(buf, sizeof buf, v > 0 ? "inf" : "-inf");
    else if (decimals < 0)
        snprintf(buf, sizeof buf, "%g", v);
    else
        snprintf(buf, sizeof buf, "%.*f", decimals, v);
    if (table_set_str(t, row, col, buf) != 0)
        return -1;
    t->cells[(size_t)row * t->n_cols + col].num = v;
    t->cells[(size_t)row * t->n_cols + col].numeric = 1;
    return 0;
}

int table_set_int(struct table *t, int row, int col, long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    if (table_set_str(t, row, col, buf) != 0)
        return -1;
    t->cells[(size_t)row * t->n_cols + col].num = (double)v;
    t->cells[(size_t)row * t->n_cols + col].numeric = 1;
    return 0;
}

int table_add_note(struct table *t, const char *fmt, ...)
{
    char buf[1024];
    char **n;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    n = realloc(t->notes, (size_t)(t->n_notes + 1) * sizeof *n);
    if (n == NULL)
        return tc_seterr_env("out of memory building table '%s'", t->title);
    t->notes = n;
    if ((t->notes[t->n_notes] = dupstr(buf)) == NULL)
        return tc_seterr_env("out of memory building table '%s'", t->title);
    t->n_notes++;
    return 0;
}

const char *table_title(const struct table *t) { return t->title; }
int table_n_rows(const struct table *t) { return t->n_rows; }
int table_n_cols(const struct table *t) { return t->n_cols; }
int table_n_notes(const struct table *t) { return t->n_notes; }

const char *table_note(const struct table *t, int i)
{
    return i >= 0 && i < t->n_notes ? t->notes[i] : "";
}

const char *table_col_name(const struct table *t, int col)
{
    return col >= 0 && col < t->n_cols ? t->cols[col] : "";
}

int table_col_index(const struct table *t, const char *name)
{
    for (int c = 0; c < t->n_cols; c++)
        if (strcmp(t->cols[c], name) == 0)
            return c;
    return -1;
}

int table_col_need(const struct table *t, const char *name)
{
    int c = table_col_index(t, name);
    if (c < 0)
        return tc_seterr("internal: table '%s' has no column '%s'", t->title, name);
    return c;
}

const char *table_cell(const struct table *t, int row, int col)
{
    const struct cell *c = cell_get(t, row, col);
    return c != NULL && c->text != NULL ? c->text : "";
}

double table_num(const struct table *t, int row, int col)
{
    const struct cell *c = cell_get(t, row, col);
    return c != NULL && c->numeric ? c->num : NAN;
}

int table_append_rows(struct table *dst, const struct table *src, const char *first)
{
    if (dst->n_cols != src->n_cols + 1)
        return tc_seterr("table '%s': cannot append '%s' (%d columns, expected %d)", dst->title, src->title,
                         src->n_cols, dst->n_cols - 1);
    for (int c = 0; c < src->n_cols; c++)
        if (strcmp(dst->cols[c + 1], src->cols[c]) != 0)
            return tc_seterr("table '%s': column %d is '%s' in one trace and '%s' in another (traces of different "
                             "kernels cannot share a table)", dst->title, c + 1, dst->cols[c + 1], src->cols[c]);
    for (int r = 0; r < src->n_rows; r++) {
        int row = table_add_row(dst);
        if (row < 0 || table_set_str(dst, row, 0, first) != 0)
            return -1;
        for (int c = 0; c < src->n_cols; c++) {
            const struct cell *s = cell_get(src, r, c);
            struct cell *d = cell_at(dst, row, c + 1);
            if (s->text != NULL && table_set_str(dst, row, c + 1, s->text) != 0)
                return -1;
            d->num = s->num;
            d->numeric = s->numeric;
        }
    }
    for (int i = 0; i < src->n_notes; i++)
        if (table_add_note(dst, "%s: %s", first, src->notes[i]) != 0)
            return -1;
    return 0;
}

static int io_result(FILE *fp)
{
    return tc_stream_check(fp, NULL);
}

int table_write_tsv(const struct table *t, FILE *fp)
{
    for (int c = 0; c < t->n_cols; c++)
        fprintf(fp, "%s%s", c ? "\t" : "", t->cols[c]);
    fputc('\n', fp);
    for (int r = 0; r < t->n_rows; r++) {
        for (int c = 0; c < t->n_cols; c++) {
            /* Full precision in files: a number set with fewer decimals for display is written whole here
             * (15 significant digits: every digit a double carries reliably); whole numbers as displayed. */
            const struct cell *cl = cell_get(t, r, c);
            if (cl != NULL && cl->numeric && isfinite(cl->num) && cl->num != rint(cl->num))
                fprintf(fp, "%s%.15g", c ? "\t" : "", cl->num);
            else
                fprintf(fp, "%s%s", c ? "\t" : "", table_cell(t, r, c));
        }
        fputc('\n', fp);
    }
    return io_result(fp);
}

static int shown_rows(const struct table *t, int max_rows)
{
    return max_rows > 0 && max_rows < t->n_rows ? max_rows : t->n_rows;
}

/* A column is right-aligned when every set cell in it is numeric. */
static int col_numeric(const struct table *t, int col)
{
    int any = 0;
    for (int r = 0; r < t->n_rows; r++) {
        const struct cell *c = cell_get(t, r, col);
        if (c->text == NULL)
            continue;
        if (!c->numeric)
            return 0;
        any = 1;
    }
    return any;
}

int table_print(const struct table *t, FILE *fp, int max_rows)
{
    int n = shown_rows(t, max_rows);
    int *w = calloc((size_t)t->n_cols, sizeof *w);
    if (w == NULL)
        return tc_seterr_env("out of memory printing table '%s'", t->title);
    for (int c = 0; c < t->n_cols; c++) {
        w[c] = (int)strlen(t->cols[c]);
        for (int r = 0; r < n; r++) {
            int l = (int)strlen(table_cell(t, r, c));
            if (l > w[c])
                w[c] = l;
        }
    }
    fprintf(fp, "%s\n", t->title);
    for (int c = 0; c < t->n_cols; c++)
        fprintf(fp, "%s%*s", c ? "  " : "", col_numeric(t, c) ? w[c] : -w[c], t->cols[c]);
    fputc('\n', fp);
    for (int c = 0; c < t->n_cols; c++) {
        fprintf(fp, "%s", c ? "  " : "");
        for (int i = 0; i < w[c]; i++)
            fputc('-', fp);
    }
    fputc('\n', fp);
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < t->n_cols; c++) {
            int num = col_numeric(t, c);
            /* the last column left-aligned needs no padding */
            if (!num && c == t->n_cols - 1)
                fprintf(fp, "%s%s", c ? "  " : "", table_cell(t, r, c));
            else
                fprintf(fp, "%s%*s", c ? "  " : "", num ? w[c] : -w[c], table_cell(t, r, c));
        }
        fputc('\n', fp);
    }
    if (n < t->n_rows)
        fprintf(fp, "... %d more rows (all of them in the TSV: -o FILE.tsv)\n", t->n_rows - n);
    for (int i = 0; i < t->n_notes; i++)
        fprintf(fp, "%s\n", t->notes[i]);
    free(w);
    return io_result(fp);
}

static void md_cell(FILE *fp, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputc('\\', fp);
        fputc(*s, fp);
    }
}

int table_write_markdown(const struct table *t, FILE *fp, int max_rows)
{
    int n = shown_rows(t, max_rows);
    fputc('|', fp);
    for (int c = 0; c < t->n_cols; c++) {
        fputc(' ', fp);
        md_cell(fp, t->cols[c]);
        fputs(" |", fp);
    }
    fputs("\n|", fp);
    for (int c = 0; c < t->n_cols; c++)
        fputs(col_numeric(t, c) ? " ---: |" : " --- |", fp);
    fputc('\n', fp);
    for (int r = 0; r < n; r++) {
        fputc('|', fp);
        for (int c = 0; c < t->n_cols; c++) {
            fputc(' ', fp);
            md_cell(fp, table_cell(t, r, c));
            fputs(" |", fp);
        }
        fputc('\n', fp);
    }
    if (n < t->n_rows)
        fprintf(fp, "\n(%d more rows in the TSV)\n", t->n_rows - n);
    if (t->n_notes > 0)
        fputc('\n', fp);
    for (int i = 0; i < t->n_notes; i++)
        fprintf(fp, "- %s\n", t->notes[i]);
    return io_result(fp);
}

void html_escape(FILE *fp, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", fp); break;
        case '<': fputs("&lt;", fp); break;
        case '>': fputs("&gt;", fp); break;
        case '"': fputs("&quot;", fp); break;
        default: fputc(*s, fp);
        }
    }
}

int table_write_html(const struct table *t, FILE *fp, int max_rows)
{
    int n = shown_rows(t, max_rows);
    fputs("<table>\n<thead><tr>", fp);
    for (int c = 0; c < t->n_cols; c++) {
        fputs("<th>", fp);
        html_escape(fp, t->cols[c]);
        fputs("</th>", fp);
    }
    fputs("</tr></thead>\n<tbody>\n", fp);
    for (int r = 0; r < n; r++) {
        fputs("<tr>", fp);
        for (int c = 0; c < t->n_cols; c++) {
            fputs(col_numeric(t, c) ? "<td class=\"num\">" : "<td>", fp);
            html_escape(fp, table_cell(t, r, c));
            fputs("</td>", fp);
        }
        fputs("</tr>\n", fp);
    }
    fputs("</tbody>\n</table>\n", fp);
    if (n < t->n_rows)
        fprintf(fp, "<p class=\"more\">%d more rows in the TSV.</p>\n", t->n_rows - n);
    if (t->n_notes > 0) {
        fputs("<ul class=\"notes\">\n", fp);
        for (int i = 0; i < t->n_notes; i++) {
            fputs("<li>", fp);
            html_escape(fp, t->notes[i]);
            fputs("</li>\n", fp);
        }
        fputs("</ul>\n", fp);
    }
    return io_result(fp);
}
