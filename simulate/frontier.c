/* frontier.c — Pareto frontiers (lower time, higher performance) of points, and of points.tsv files grouped by
 * scenario (see frontier.h). O(n log n): sort by time, then sweep keeping the best performance seen. */
#include "frontier.h"
#include "tc_err.h"
#include "tc_grow.h"
#include "tc_tsv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct fpt {
    double time, perf;
    size_t idx;
};

static int fpt_cmp(const void *pa, const void *pb)
{
    const struct fpt *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    if (a->perf != b->perf)
        return a->perf > b->perf ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Sorts the n finite points in p by time ascending, performance descending, and marks on[p.idx]. */
static void mark_sorted(struct fpt *p, size_t n, unsigned char *on)
{
    double best_before = -INFINITY; /* best performance among strictly smaller times */
    size_t g = 0;
    qsort(p, n, sizeof *p, fpt_cmp);
    while (g < n) {
        size_t e = g;
        double top = p[g].perf; /* the group's best: it sorts first */
        while (e < n && p[e].time == p[g].time)
            e++;
        for (size_t q = g; q < e; q++)
            on[p[q].idx] = p[q].perf == top && top > best_before;
        if (top > best_before)
            best_before = top;
        g = e;
    }
}

int frontier_mark(size_t n, const double *time, const double *perf, unsigned char *on)
{
    struct fpt *p = malloc((n ? n : 1) * sizeof *p);
    size_t m = 0;
    if (p == NULL)
        return tc_seterr_env("frontier: out of memory");
    for (size_t i = 0; i < n; i++) {
        on[i] = 0;
        if (isnan(time[i]) || isnan(perf[i]))
            continue;
        p[m].time = time[i];
        p[m].perf = perf[i];
        p[m].idx = i;
        m++;
    }
    mark_sorted(p, m, on);
    free(p);
    return 0;
}

/* ---- tables ------------------------------------------------------------------------------------------- */

struct frontier_table {
    struct tc_tsv *tsv;   /* the reader: comments, header and column names (util/tc_tsv) */
    char **rows;          /* verbatim, without the newline */
    double *time, *perf;
    size_t *group;        /* group index of each row */
    unsigned char *on;
    size_t n_rows, cap_rows;
    char **groups;        /* group names in order of first appearance */
    size_t n_groups, cap_groups;
    size_t n_on;
};

void frontier_table_free(struct frontier_table *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->n_rows; i++)
        free(t->rows[i]);
    for (size_t i = 0; i < t->n_groups; i++)
        free(t->groups[i]);
    tc_tsv_close(t->tsv);
    free(t->rows);
    free(t->time);
    free(t->perf);
    free(t->group);
    free(t->on);
    free(t->groups);
    free(t);
}

static int push_str(char ***arr, size_t *n, size_t *cap, char *s)
{
    char **p = tc_grow(*arr, cap, *n + 1, sizeof *p);
    if (p == NULL)
        return -1;
    *arr = p;
    (*arr)[(*n)++] = s;
    return 0;
}

/* Room for one more row in t's arrays; -1 when out of memory. */
static int grow_rows(struct frontier_table *t)
{
    size_t c = t->cap_rows ? 2 * t->cap_rows : 256;
    double *a, *b;
    size_t *g;
    char **r;
    if (t->n_rows < t->cap_rows)
        return 0;
    if ((a = realloc(t->time, c * sizeof *a)) == NULL)
        return -1;
    t->time = a;
    if ((b = realloc(t->perf, c * sizeof *b)) == NULL)
        return -1;
    t->perf = b;
    if ((g = realloc(t->group, c * sizeof *g)) == NULL)
        return -1;
    t->group = g;
    if ((r = realloc(t->rows, c * sizeof *r)) == NULL)
        return -1;
    t->rows = r;
    t->cap_rows = c;
    return 0;
}

/* The group of the current row (by its `scenario` field; c_group < 0: one group), added when new; -1 on memory. */
static long row_group(struct frontier_table *t, int c_group, size_t *last)
{
    const char *name = c_group >= 0 ? tc_tsv_field(t->tsv, c_group) : "";
    size_t g;
    char *copy;
    if (*last < t->n_groups && strcmp(t->groups[*last], name) == 0)
        return (long)*last;
    for (g = 0; g < t->n_groups; g++)
        if (strcmp(t->groups[g], name) == 0)
            return (long)(*last = g);
    if ((copy = strdup(name)) == NULL || push_str(&t->groups, &t->n_groups, &t->cap_groups, copy) != 0) {
        free(copy);
        return -1;
    }
    return (long)(*last = g);
}

/* Mark the frontier of each group; -1 when out of memory. */
static int mark_groups(struct frontier_table *t)
{
    struct fpt *p = malloc((t->n_rows ? t->n_rows : 1) * sizeof *p);
    if (p == NULL || (t->on = calloc(t->n_rows ? t->n_rows : 1, 1)) == NULL) {
        free(p);
        return -1;
    }
    for (size_t g = 0; g < t->n_groups; g++) {
        size_t m = 0;
        for (size_t i = 0; i < t->n_rows; i++)
            if (t->group[i] == g && !isnan(t->time[i]) && !isnan(t->perf[i])) {
                p[m].time = t->time[i];
                p[m].perf = t->perf[i];
                p[m].idx = i;
                m++;
            }
        mark_sorted(p, m, t->on);
    }
    free(p);
    for (size_t i = 0; i < t->n_rows; i++)
        t->n_on += t->on[i];
    return 0;
}

struct frontier_table *frontier_table_read(FILE *fp, const char *name, const char *time_col, const char *perf_col)
{
    struct frontier_table *t = calloc(1, sizeof *t);
    size_t last_group = 0;
    int c_time, c_perf, c_group, rc;
    long g;

    if (t == NULL) {
        tc_seterr_env("frontier: out of memory");
        return NULL;
    }
    if ((t->tsv = tc_tsv_open(fp, name)) == NULL || (c_time = tc_tsv_col_need(t->tsv, time_col)) < 0 ||
        (c_perf = tc_tsv_col_need(t->tsv, perf_col)) < 0)
        goto fail;
    c_group = tc_tsv_col(t->tsv, "scenario");
    while ((rc = tc_tsv_next(t->tsv)) == 1) {
        if (grow_rows(t) != 0)
            goto oom;
        if (tc_tsv_num(t->tsv, c_time, &t->time[t->n_rows]) != 0 ||
            tc_tsv_num(t->tsv, c_perf, &t->perf[t->n_rows]) != 0)
            goto fail;
        if ((g = row_group(t, c_group, &last_group)) < 0)
            goto oom;
        t->group[t->n_rows] = (size_t)g;
        if ((t->rows[t->n_rows] = strdup(tc_tsv_row(t->tsv))) == NULL)
            goto oom;
        t->n_rows++;
    }
    if (rc < 0)
        goto fail;
    if (mark_groups(t) != 0)
        goto oom;
    return t;
oom:
    tc_seterr_env("%s: out of memory", name);
fail:
    frontier_table_free(t);
    return NULL;
}

size_t frontier_table_n_rows(const struct frontier_table *t)
{
    return t->n_rows;
}
size_t frontier_table_n_frontier(const struct frontier_table *t)
{
    return t->n_on;
}
int frontier_table_on(const struct frontier_table *t, size_t row)
{
    return row < t->n_rows && t->on[row];
}

/* Print the fields `cols` (indices, n_cols of them; all when cols == NULL) of a tab-separated line. */
static void put_fields(FILE *out, const char *line, const int *cols, int n_cols)
{
    if (cols == NULL) {
        fprintf(out, "%s\n", line);
        return;
    }
    for (int k = 0; k < n_cols; k++) {
        const char *f = "";
        size_t len = 0;
        tc_tsv_line_field(line, cols[k], &f, &len);
        fprintf(out, "%s%.*s", k ? "\t" : "", (int)len, f);
    }
    fputc('\n', out);
}

int frontier_table_write_select(const struct frontier_table *t, FILE *out, const char *note, const char *columns,
                                const char *scenario)
{
    struct fpt *p = NULL;
    int cols[64], n_cols = 0, rc = -1;
    size_t only = (size_t)-1;
    if (columns != NULL) {
        char buf[1024], *save = NULL;
        if (strlen(columns) >= sizeof buf)
            return tc_seterr("--columns: list too long"), -2;
        snprintf(buf, sizeof buf, "%s", columns);
        for (char *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
            if (n_cols == 64)
                return tc_seterr("--columns: at most 64 columns"), -2;
            cols[n_cols] = tc_tsv_col(t->tsv, tok);
            if (cols[n_cols] < 0)
                return tc_seterr("--columns: no column '%s' in the header", tok), -2;
            n_cols++;
        }
        if (n_cols == 0)
            return tc_seterr("--columns: expected a comma-separated list of column names, got '%s'", columns), -2;
    }
    if (scenario != NULL) {
        for (only = 0; only < t->n_groups; only++)
            if (strcmp(t->groups[only], scenario) == 0)
                break;
        if (only == t->n_groups)
            return tc_seterr("--scenario: no rows of scenario '%s'", scenario), -2;
    }
    p = malloc((t->n_on ? t->n_on : 1) * sizeof *p);
    if (p == NULL)
        return tc_seterr_env("frontier: out of memory");
    for (size_t i = 0; i < tc_tsv_n_comments(t->tsv); i++)
        fprintf(out, "%s\n", tc_tsv_comment(t->tsv, i));
    if (note != NULL)
        fprintf(out, "# %s\n", note);
    put_fields(out, tc_tsv_header(t->tsv), columns ? cols : NULL, n_cols);
    for (size_t g = 0; g < t->n_groups; g++) {
        size_t m = 0;
        if (scenario != NULL && g != only)
            continue;
        for (size_t i = 0; i < t->n_rows; i++)
            if (t->on[i] && t->group[i] == g) {
                p[m].time = t->time[i];
                p[m].perf = t->perf[i];
                p[m].idx = i;
                m++;
            }
        qsort(p, m, sizeof *p, fpt_cmp);
        for (size_t q = 0; q < m; q++)
            put_fields(out, t->rows[p[q].idx], columns ? cols : NULL, n_cols);
    }
    rc = 0;
    if (ferror(out))
        rc = tc_seterr("write error: %s", strerror(errno));
    free(p);
    return rc;
}

int frontier_table_write(const struct frontier_table *t, FILE *out, const char *note)
{
    return frontier_table_write_select(t, out, note, NULL, NULL);
}
