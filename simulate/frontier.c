/* frontier.c — Pareto frontiers (lower time, higher performance) of points, and of points.tsv files grouped by
 * scenario (see frontier.h). O(n log n): sort by time, then sweep keeping the best performance seen. */
#include "frontier.h"
#include "tc_err.h"

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
        return tc_seterr("frontier: out of memory");
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
    char **comments;
    size_t n_comments;
    char *header;
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
    for (size_t i = 0; i < t->n_comments; i++)
        free(t->comments[i]);
    for (size_t i = 0; i < t->n_rows; i++)
        free(t->rows[i]);
    for (size_t i = 0; i < t->n_groups; i++)
        free(t->groups[i]);
    free(t->comments);
    free(t->header);
    free(t->rows);
    free(t->time);
    free(t->perf);
    free(t->group);
    free(t->on);
    free(t->groups);
    free(t);
}

/* The field `col` (0-based) of a tab-separated line: start and length. Returns -1 if there are fewer fields. */
static int field(const char *line, int col, const char **start, size_t *len)
{
    const char *p = line;
    for (int c = 0; c < col; c++) {
        p = strchr(p, '\t');
        if (p == NULL)
            return -1;
        p++;
    }
    *start = p;
    *len = strcspn(p, "\t");
    return 0;
}

static int count_fields(const char *line)
{
    int n = 1;
    for (const char *p = line; *p; p++)
        n += *p == '\t';
    return n;
}

static int parse_num(const char *start, size_t len, double *out)
{
    char buf[64], *end;
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, start, len);
    buf[len] = '\0';
    errno = 0;
    *out = strtod(buf, &end);
    return *end != '\0' || errno == ERANGE ? -1 : 0;
}

static int push_str(char ***arr, size_t *n, size_t *cap, char *s)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        char **p = realloc(*arr, c * sizeof *p);
        if (p == NULL)
            return -1;
        *arr = p;
        *cap = c;
    }
    (*arr)[(*n)++] = s;
    return 0;
}

static int find_col(const char *header, const char *name)
{
    int n = count_fields(header);
    for (int c = 0; c < n; c++) {
        const char *s = NULL;
        size_t len = 0;
        field(header, c, &s, &len);
        if (len == strlen(name) && strncmp(s, name, len) == 0)
            return c;
    }
    return -1;
}

/* "NAME:LINE: no column 'COL'; columns: a, b, c" (the header's columns comma-separated, no raw tabs). -1. */
static int ft_missing_column(const char *header, const char *name, long lineno, const char *col)
{
    char cols[512] = "";
    size_t used = 0;
    int n_fields = count_fields(header);
    for (int c = 0; c < n_fields && used + 4 < sizeof cols; c++) {
        const char *f = NULL;
        size_t len = 0;
        field(header, c, &f, &len);
        int w = snprintf(cols + used, sizeof cols - used, "%s%.*s", c ? ", " : "", (int)len, f);
        if (w < 0 || (size_t)w >= sizeof cols - used)
            break;
        used += (size_t)w;
    }
    return tc_seterr("%s:%ld: no column '%s'; columns: %s", name, lineno, col, cols);
}

/* Room for twice as many rows; -1 on memory (t unchanged in size). */
static int ft_grow(struct frontier_table *t)
{
    size_t c = t->cap_rows ? 2 * t->cap_rows : 256;
    double *a, *b;
    size_t *gg;
    char **r;
    if ((a = realloc(t->time, c * sizeof *a)) == NULL)
        return -1;
    t->time = a;
    if ((b = realloc(t->perf, c * sizeof *b)) == NULL)
        return -1;
    t->perf = b;
    if ((gg = realloc(t->group, c * sizeof *gg)) == NULL)
        return -1;
    t->group = gg;
    if ((r = realloc(t->rows, c * sizeof *r)) == NULL)
        return -1;
    t->rows = r;
    t->cap_rows = c;
    return 0;
}

/* The index of the group named s[0..len) (the last row's first: rows come grouped), added when new; (size_t)-1
 * on memory. */
static size_t ft_group_of(struct frontier_table *t, const char *s, size_t len, size_t last_group)
{
    size_t g;
    char *copy;
    if (last_group < t->n_groups && strlen(t->groups[last_group]) == len && strncmp(t->groups[last_group], s, len) == 0)
        return last_group;
    for (g = 0; g < t->n_groups; g++)
        if (strlen(t->groups[g]) == len && strncmp(t->groups[g], s, len) == 0)
            return g;
    copy = strndup(s, len);
    if (copy == NULL || push_str(&t->groups, &t->n_groups, &t->cap_groups, copy) != 0) {
        free(copy);
        return (size_t)-1;
    }
    return g;
}

/* t->on and t->n_on: the frontier of each group. -1 on memory. */
static int ft_mark(struct frontier_table *t)
{
    struct fpt *p;
    t->on = calloc(t->n_rows ? t->n_rows : 1, 1);
    p = malloc((t->n_rows ? t->n_rows : 1) * sizeof *p);
    if (t->on == NULL || p == NULL) {
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
    char *line = NULL;
    size_t cap = 0, cap_comments = 0;
    ssize_t got;
    long lineno = 0;
    int n_fields = 0, c_time = -1, c_perf = -1, c_group = -1;
    size_t last_group = 0;

    if (t == NULL) {
        tc_seterr("frontier: out of memory");
        return NULL;
    }
    while ((got = getline(&line, &cap, fp)) >= 0) {
        char *copy;
        const char *s = "";
        size_t len = 0, g;
        lineno++;
        while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
            line[--got] = '\0';
        if (got == 0)
            continue;
        if (line[0] == '#') {
            if (t->header == NULL) {
                copy = strdup(line);
                if (copy == NULL || push_str(&t->comments, &t->n_comments, &cap_comments, copy) != 0) {
                    free(copy);
                    goto oom;
                }
            }
            continue;
        }
        if (t->header == NULL) {
            t->header = strdup(line);
            if (t->header == NULL)
                goto oom;
            n_fields = count_fields(line);
            c_time = find_col(line, time_col);
            c_perf = find_col(line, perf_col);
            c_group = find_col(line, "scenario");
            if (c_time < 0 || c_perf < 0) {
                ft_missing_column(line, name, lineno, c_time < 0 ? time_col : perf_col);
                goto fail;
            }
            continue;
        }
        if (count_fields(line) != n_fields) {
            tc_seterr("%s:%ld: expected %d tab-separated fields as in the header, got %d", name, lineno, n_fields,
                      count_fields(line));
            goto fail;
        }
        if (t->n_rows == t->cap_rows && ft_grow(t) != 0)
            goto oom;
        field(line, c_time, &s, &len);
        if (parse_num(s, len, &t->time[t->n_rows]) != 0) {
            tc_seterr("%s:%ld: column '%s': expected a number, got '%.*s'", name, lineno, time_col, (int)len, s);
            goto fail;
        }
        field(line, c_perf, &s, &len);
        if (parse_num(s, len, &t->perf[t->n_rows]) != 0) {
            tc_seterr("%s:%ld: column '%s': expected a number, got '%.*s'", name, lineno, perf_col, (int)len, s);
            goto fail;
        }
        if (c_group >= 0)
            field(line, c_group, &s, &len);
        if ((g = ft_group_of(t, c_group >= 0 ? s : "", c_group >= 0 ? len : 0, last_group)) == (size_t)-1)
            goto oom;
        last_group = g;
        t->group[t->n_rows] = g;
        t->rows[t->n_rows] = strdup(line);
        if (t->rows[t->n_rows] == NULL)
            goto oom;
        t->n_rows++;
    }
    if (ferror(fp)) {
        tc_seterr("%s: read error: %s", name, strerror(errno));
        goto fail;
    }
    if (t->header == NULL) {
        tc_seterr("%s: expected a header line with columns '%s' and '%s', found none", name, time_col, perf_col);
        goto fail;
    }
    free(line);
    line = NULL;

    if (ft_mark(t) != 0)
        goto oom;
    return t;
oom:
    tc_seterr("%s: out of memory", name);
fail:
    free(line);
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
        field(line, cols[k], &f, &len);
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
            cols[n_cols] = find_col(t->header, tok);
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
        return tc_seterr("frontier: out of memory");
    for (size_t i = 0; i < t->n_comments; i++)
        fprintf(out, "%s\n", t->comments[i]);
    if (note != NULL)
        fprintf(out, "# %s\n", note);
    put_fields(out, t->header, columns ? cols : NULL, n_cols);
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
