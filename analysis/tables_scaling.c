/* tables_scaling.c — the paper's Table 7 (compile time with 1 to N workers) from the TSV files that
 * `tunecost collect --compile-only --jobs LIST -o scaling-X.tsv` writes, and the listing of a study directory.
 * A pass's speedup is the 1-worker wall time over its own: from the same file, or, for a file without a 1-worker
 * pass, from 1-worker-only files whose configurations add up to its own (a long 1-worker pass split in parts). */
#include "tables.h"
#include "tc_err.h"
#include "tc_tsv.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ROWS 64

struct scaling_file {
    const char *path;
    const char *name;     /* base name */
    int configs;          /* from the header line; -1 if not stated */
    char context[128];    /* what follows the count in the header ("sm_90, NVRTC 13.0"): parts must agree */
    int n;                /* passes */
    int jobs[MAX_ROWS];
    double wall_ms[MAX_ROWS];
    double one_ms;        /* this file's 1-worker pass, NaN if none */
};

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int tables_list_dir(const char *dir, const char *prefix, const char *suffix, char ***paths, int *n)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t lp = strlen(prefix), ls = strlen(suffix);
    *paths = NULL;
    *n = 0;
    if (d == NULL)
        return tc_seterr("%s: cannot open directory: %s", dir, strerror(errno));
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        char **grown, *p;
        if (l < lp + ls || strncmp(e->d_name, prefix, lp) != 0 || strcmp(e->d_name + l - ls, suffix) != 0)
            continue;
        grown = realloc(*paths, (size_t)(*n + 1) * sizeof *grown);
        p = malloc(strlen(dir) + l + 2);
        if (grown == NULL || p == NULL) {
            free(p);
            if (grown != NULL)
                *paths = grown;
            closedir(d);
            tables_paths_free(*paths, *n);
            *paths = NULL;
            *n = 0;
            return tc_seterr_env("out of memory");
        }
        sprintf(p, "%s/%s", dir, e->d_name);
        *paths = grown;
        (*paths)[(*n)++] = p;
    }
    closedir(d);
    if (*n > 1)
        qsort(*paths, (size_t)*n, sizeof **paths, by_name);
    return 0;
}

void tables_paths_free(char **paths, int n)
{
    for (int i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

const char *tables_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s != NULL ? s + 1 : path;
}

/* The "# N configurations, CONTEXT; ..." comment of a scaling file into f (configs, context), if it is one. */
static void scaling_comment(const char *line, struct scaling_file *f)
{
    const char *k = strstr(line, " configurations"), *num = k;
    while (num != NULL && num > line && (num[-1] >= '0' && num[-1] <= '9'))
        num--;
    if (k != NULL && num < k) {
        f->configs = atoi(num);
        snprintf(f->context, sizeof f->context, "%.*s", (int)strcspn(k + 15, ";"), k + 15);
    }
}

/* Read one scaling TSV (util/tc_tsv, schema tc_tsv_scaling): an optional '#' line stating "N configurations,
 * CONTEXT; ...", a header naming jobs and wall_ms, then one pass per line. */
static int read_scaling(const char *path, struct scaling_file *f)
{
    struct tc_tsv *r = NULL;
    int cj = -1, cw = -1, rc = -1, got;
    FILE *fp = fopen(path, "r");
    memset(f, 0, sizeof *f);
    f->path = path;
    f->name = tables_base_name(path);
    f->configs = -1;
    f->one_ms = NAN;
    if (fp == NULL)
        return tc_seterr("%s: cannot read: %s", path, strerror(errno));
    if ((r = tc_tsv_open(fp, path)) == NULL || (cj = tc_tsv_col(r, "jobs")) < 0 || (cw = tc_tsv_col(r, "wall_ms")) < 0)
        goto not_scaling;
    for (size_t i = 0; i < tc_tsv_n_comments(r); i++)
        scaling_comment(tc_tsv_comment(r, i), f);
    while ((got = tc_tsv_next(r)) == 1) {
        const char *sj = tc_tsv_field(r, cj), *sw = tc_tsv_field(r, cw);
        char *end;
        long jobs = strtol(sj, &end, 10);
        double wall;
        if (*sj == '\0' || *end != '\0' || jobs < 1 || jobs > 4096)
            jobs = -1;
        wall = strtod(sw, &end);
        if (*sw == '\0' || *end != '\0' || !(wall > 0))
            wall = NAN;
        if (jobs < 0 || isnan(wall) || f->n >= MAX_ROWS) {
            tc_seterr("%s:%ld: expected a worker count (1-4096) and a wall time in ms > 0, at most %d lines", path,
                      tc_tsv_lineno(r), MAX_ROWS);
            goto out;
        }
        f->jobs[f->n] = (int)jobs;
        f->wall_ms[f->n] = wall;
        if (jobs == 1)
            f->one_ms = wall;
        f->n++;
    }
    if (got < 0)
        goto out;
    if (f->n > 0) {
        rc = 0;
        goto out;
    }
not_scaling:
    tc_seterr("%s: not a compile-scaling table (expected a header with the columns jobs and wall_ms and one line per "
              "pass, as `tunecost collect --compile-only --jobs 1,16 -o FILE.tsv` writes)", path);
out:
    tc_tsv_close(r);
    fclose(fp);
    return rc;
}

/* For file k without a 1-worker pass: the 1-worker-only files (other than k, same context) whose configurations
 * add up to k's, as a bit mask over the files; 0 if none. The smallest such set, lowest indices first. */
static unsigned parts_of(const struct scaling_file *f, int n, int k)
{
    unsigned best = 0;
    int cand[16], nc = 0, best_count = 0;
    for (int i = 0; i < n && nc < 16; i++) {
        int only_one = f[i].n > 0;
        for (int r = 0; r < f[i].n; r++)
            only_one &= f[i].jobs[r] == 1;
        if (i != k && only_one && f[i].configs > 0 && strcmp(f[i].context, f[k].context) == 0)
            cand[nc++] = i;
    }
    if (f[k].configs <= 0)
        return 0;
    for (unsigned m = 1; m < (1u << nc); m++) {
        int sum = 0, count = 0;
        for (int b = 0; b < nc; b++)
            if (m & (1u << b)) {
                sum += f[cand[b]].configs;
                count++;
            }
        if (count >= 2 && sum == f[k].configs && (best == 0 || count < best_count)) {
            best = 0;
            for (int b = 0; b < nc; b++)
                if (m & (1u << b))
                    best |= 1u << cand[b];
            best_count = count;
        }
    }
    return best;
}

struct table *tables_scaling(const char *const *paths, int n)
{
    static const char *cols[] = {"file", "configs", "jobs", "wall_s", "speedup", "efficiency", "one_worker_s",
                                 "one_worker_from"};
    struct scaling_file *f = NULL;
    struct table *tab = NULL;
    int ok = 0; /* set when the table is complete; every path leaves through out: */
    if (n < 1) {
        tc_seterr("scaling: needs compile-scaling TSV files (scaling-*.tsv, written by `tunecost collect "
                  "--compile-only --jobs 1,16 -o FILE.tsv`) or a directory of them (shipped: data/compile-scaling/)");
        return NULL;
    }
    if ((f = calloc((size_t)n, sizeof *f)) == NULL) {
        tc_seterr_env("out of memory");
        goto out;
    }
    for (int k = 0; k < n; k++)
        if (read_scaling(paths[k], &f[k]) != 0)
            goto out;
    if ((tab = table_new("Compile time with 1 to N workers (paper Table 7)", 8, cols)) == NULL)
        goto out;
    for (int k = 0; k < n; k++) {
        double one_ms = f[k].one_ms;
        char from[512] = "";
        if (!isnan(one_ms)) {
            snprintf(from, sizeof from, "%s", f[k].name);
        } else {
            unsigned parts = parts_of(f, n, k);
            size_t off = 0;
            for (int i = 0; parts != 0 && i < n; i++)
                if (parts & (1u << i)) {
                    one_ms = isnan(one_ms) ? f[i].one_ms : one_ms + f[i].one_ms;
                    off += (size_t)snprintf(from + off, off < sizeof from ? sizeof from - off : 0, "%s%s",
                                            off ? " + " : "", f[i].name);
                }
        }
        /* passes by worker count, fewest first */
        for (int done = 0; done < f[k].n; done++) {
            int r = -1, row;
            for (int i = 0; i < f[k].n; i++)
                if ((r < 0 || f[k].jobs[i] < f[k].jobs[r]) &&
                    (done == 0 || f[k].jobs[i] > table_num(tab, table_n_rows(tab) - 1, 2)))
                    r = i;
            if (r < 0)
                break;
            double speedup = one_ms / f[k].wall_ms[r];
            if ((row = table_add_row(tab)) < 0)
                goto out;
            table_set_str(tab, row, 0, f[k].name);
            if (f[k].configs > 0)
                table_set_int(tab, row, 1, f[k].configs);
            else
                table_set_num(tab, row, 1, NAN, 0);
            table_set_int(tab, row, 2, f[k].jobs[r]);
            table_set_num(tab, row, 3, f[k].wall_ms[r] / 1e3, 1);
            table_set_num(tab, row, 4, speedup, 2);
            table_set_num(tab, row, 5, speedup / f[k].jobs[r], 2);
            table_set_num(tab, row, 6, one_ms / 1e3, 1);
            if (table_set_str(tab, row, 7, from[0] != '\0' ? from : "nan") != 0)
                goto out;
        }
    }
    table_add_note(tab, "speedup = wall time of the 1-worker pass / wall time of this pass; efficiency = speedup / "
                   "jobs (1 = ideal); a file without a 1-worker pass takes it from 1-worker-only files of the same "
                   "compiler whose configurations add up to its own (one_worker_from), else nan");
    ok = 1;
out:
    free(f);
    return table_finish(tab, ok);
}
