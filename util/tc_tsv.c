/* tc_tsv.c — the column schemas of tunecost's TSV files and the one reader (contract in tc_tsv.h). A row is split
 * in place at every tab, so empty fields survive and the length of a line is only bounded by memory. */
#include "tc_tsv.h"
#include "tc_err.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N_OF(a) ((int)(sizeof a / sizeof a[0]))

static const char *const curves_cols[] = {"policy", "time_s", "speedup", "speedup_lo", "speedup_hi", "baseline"};
const struct tc_tsv_schema tc_tsv_curves = {"tuning-policy curves", N_OF(curves_cols), curves_cols};

static const char *const scaling_cols[] = {"jobs", "wall_ms", "speedup", "warmup_ms_mean"};
const struct tc_tsv_schema tc_tsv_scaling = {"compile scaling", N_OF(scaling_cols), scaling_cols};

void tc_tsv_write_header(FILE *fp, const struct tc_tsv_schema *s)
{
    for (int c = 0; c < s->n_cols; c++)
        fprintf(fp, "%s%s", c ? "\t" : "", s->cols[c]);
    fputc('\n', fp);
}

struct tc_tsv {
    FILE *fp;
    const char *name;
    char **comments;
    size_t n_comments;
    char *header;       /* verbatim */
    char *header_split; /* the same, split at tabs */
    char **col_names;
    int n_cols;
    char *line, *row;   /* the current line as read (split in place), and a verbatim copy */
    size_t line_cap, row_cap;
    char **fields;
    long lineno, header_lineno;
};

/* Read the next line that is not blank (and, with skip_comments, not a '#' line); its length, or -1 at the end
 * (-2 on a read error, message set). */
static ssize_t read_line(struct tc_tsv *r, int skip_comments)
{
    ssize_t got;
    while ((got = getline(&r->line, &r->line_cap, r->fp)) >= 0) {
        r->lineno++;
        while (got > 0 && (r->line[got - 1] == '\n' || r->line[got - 1] == '\r'))
            r->line[--got] = '\0';
        if (got == 0 || (skip_comments && r->line[0] == '#'))
            continue;
        return got;
    }
    if (ferror(r->fp))
        return tc_seterr("%s: read error: %s", r->name, strerror(errno)), -2;
    return -1;
}

static int count_fields(const char *line)
{
    int n = 1;
    for (const char *p = line; *p; p++)
        n += *p == '\t';
    return n;
}

/* Split line in place at every tab into out[0..n). */
static void split(char *line, char **out, int n)
{
    int k = 0;
    out[k++] = line;
    for (char *p = line; *p && k < n; p++)
        if (*p == '\t') {
            *p = '\0';
            out[k++] = p + 1;
        }
}

static int read_header(struct tc_tsv *r)
{
    ssize_t got;
    while ((got = read_line(r, 0)) >= 0) {
        if (r->line[0] != '#')
            break;
        char **grown = realloc(r->comments, (r->n_comments + 1) * sizeof *grown);
        if (grown == NULL)
            return tc_seterr_env("%s: out of memory", r->name);
        r->comments = grown;
        if ((r->comments[r->n_comments] = strdup(r->line)) == NULL)
            return tc_seterr_env("%s: out of memory", r->name);
        r->n_comments++;
    }
    if (got == -2)
        return -1;
    if (got < 0)
        return tc_seterr("%s: expected a header line of tab-separated column names, found none", r->name);
    r->header_lineno = r->lineno;
    r->n_cols = count_fields(r->line);
    if ((r->header = strdup(r->line)) == NULL || (r->header_split = strdup(r->line)) == NULL ||
        (r->col_names = malloc((size_t)r->n_cols * sizeof *r->col_names)) == NULL ||
        (r->fields = malloc((size_t)r->n_cols * sizeof *r->fields)) == NULL)
        return tc_seterr_env("%s: out of memory", r->name);
    split(r->header_split, r->col_names, r->n_cols);
    return 0;
}

struct tc_tsv *tc_tsv_open(FILE *fp, const char *name)
{
    struct tc_tsv *r = calloc(1, sizeof *r);
    if (r == NULL) {
        tc_seterr_env("%s: out of memory", name);
        return NULL;
    }
    r->fp = fp;
    r->name = name;
    if (read_header(r) != 0) {
        tc_tsv_close(r);
        return NULL;
    }
    return r;
}

void tc_tsv_close(struct tc_tsv *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->n_comments; i++)
        free(r->comments[i]);
    free(r->comments);
    free(r->header);
    free(r->header_split);
    free(r->col_names);
    free(r->fields);
    free(r->line);
    free(r->row);
    free(r);
}

size_t tc_tsv_n_comments(const struct tc_tsv *r)
{
    return r->n_comments;
}

const char *tc_tsv_comment(const struct tc_tsv *r, size_t i)
{
    return i < r->n_comments ? r->comments[i] : NULL;
}

const char *tc_tsv_header(const struct tc_tsv *r)
{
    return r->header;
}

int tc_tsv_n_cols(const struct tc_tsv *r)
{
    return r->n_cols;
}

int tc_tsv_col(const struct tc_tsv *r, const char *name)
{
    for (int c = 0; c < r->n_cols; c++)
        if (strcmp(r->col_names[c], name) == 0)
            return c;
    return -1;
}

int tc_tsv_col_need(const struct tc_tsv *r, const char *name)
{
    char cols[512] = "";
    size_t used = 0;
    int c = tc_tsv_col(r, name);
    if (c >= 0)
        return c;
    /* name the missing column and list the ones there are, comma-separated (no raw tabs) */
    for (int k = 0; k < r->n_cols; k++) {
        int w = snprintf(cols + used, sizeof cols - used, "%s%s", k ? ", " : "", r->col_names[k]);
        if (w < 0 || (size_t)w >= sizeof cols - used)
            break;
        used += (size_t)w;
    }
    return tc_seterr("%s:%ld: no column '%s'; columns: %s", r->name, r->header_lineno, name, cols);
}

int tc_tsv_next(struct tc_tsv *r)
{
    ssize_t got = read_line(r, 1);
    int n;
    if (got == -2)
        return -1;
    if (got < 0)
        return 0;
    if ((n = count_fields(r->line)) != r->n_cols)
        return tc_seterr("%s:%ld: expected %d tab-separated fields as in the header, got %d", r->name, r->lineno,
                         r->n_cols, n);
    if ((size_t)got + 1 > r->row_cap) {
        char *grown = realloc(r->row, (size_t)got + 1);
        if (grown == NULL)
            return tc_seterr_env("%s: out of memory", r->name);
        r->row = grown;
        r->row_cap = (size_t)got + 1;
    }
    memcpy(r->row, r->line, (size_t)got + 1);
    split(r->line, r->fields, r->n_cols);
    return 1;
}

const char *tc_tsv_row(const struct tc_tsv *r)
{
    return r->row;
}

long tc_tsv_lineno(const struct tc_tsv *r)
{
    return r->lineno;
}

const char *tc_tsv_field(const struct tc_tsv *r, int c)
{
    return c >= 0 && c < r->n_cols ? r->fields[c] : "";
}

int tc_tsv_num(const struct tc_tsv *r, int c, double *out)
{
    const char *s = tc_tsv_field(r, c);
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    if (s[0] == '\0' || *end != '\0' || errno == ERANGE)
        return tc_seterr("%s:%ld: column '%s': expected a number, got '%.40s'", r->name, r->lineno,
                         c >= 0 && c < r->n_cols ? r->col_names[c] : "?", s);
    return 0;
}

void tc_tsv_line_field(const char *line, int c, const char **start, size_t *len)
{
    const char *p = line;
    for (int k = 0; k < c && p != NULL; k++) {
        p = strchr(p, '\t');
        if (p != NULL)
            p++;
    }
    if (p == NULL) {
        *start = "";
        *len = 0;
        return;
    }
    *start = p;
    *len = strcspn(p, "\t");
}
