/* tc_manifest.c — data/manifest.tsv read through the one TSV reader (tc_tsv): its rows kept as text, looked up by
 * role or by file (contract in tc_manifest.h). */
#include "tc_manifest.h"
#include "tc_err.h"
#include "tc_grow.h"
#include "tc_tsv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MF_FILE, MF_ROLE, MF_GPU, MF_FAMILY, MF_CREATED, MF_MISSING, MF_COLLECT, MF_N };
static const char *const manifest_cols[MF_N] = {"file",        "role",    "gpu",    "kernel_family",
                                                "created_utc", "missing", "collect"};

struct tc_manifest {
    int n;
    size_t cap;
    struct tc_manifest_row *rows;
};

void tc_manifest_free(struct tc_manifest *m)
{
    if (m == NULL)
        return;
    for (int i = 0; i < m->n; i++) {
        const struct tc_manifest_row *r = &m->rows[i];
        const char *const f[MF_N] = {r->file, r->role, r->gpu, r->kernel_family, r->created_utc, r->missing,
                                     r->collect};
        for (int c = 0; c < MF_N; c++)
            free((char *)f[c]);
    }
    free(m->rows);
    free(m);
}

/* The current row of r into m; -1 with a message naming the file and line. */
static int manifest_add(struct tc_manifest *m, struct tc_tsv *r, const int *col, const char *path)
{
    char *f[MF_N] = {NULL};
    struct tc_manifest_row *rows = tc_grow(m->rows, &m->cap, (size_t)m->n + 1, sizeof *rows);
    if (rows == NULL)
        return tc_preferr("%s", path);
    m->rows = rows;
    for (int c = 0; c < MF_N; c++) {
        const char *v = tc_tsv_field(r, col[c]);
        if (v[0] == '\0') {
            tc_seterr("%s:%ld: column '%s' is empty (write '-' for none)", path, tc_tsv_lineno(r), manifest_cols[c]);
            goto fail;
        }
        if ((f[c] = strdup(v)) == NULL) {
            tc_seterr_env("%s: out of memory", path);
            goto fail;
        }
    }
    if (tc_manifest_file(m, f[MF_FILE]) != NULL) {
        tc_seterr("%s:%ld: %s is listed twice", path, tc_tsv_lineno(r), f[MF_FILE]);
        goto fail;
    }
    m->rows[m->n++] = (struct tc_manifest_row){f[MF_FILE],    f[MF_ROLE],    f[MF_GPU],    f[MF_FAMILY],
                                               f[MF_CREATED], f[MF_MISSING], f[MF_COLLECT]};
    return 0;
fail:
    for (int c = 0; c < MF_N; c++)
        free(f[c]);
    return -1;
}

struct tc_manifest *tc_manifest_read(const char *path)
{
    FILE *fp = fopen(path, "r");
    struct tc_manifest *m = calloc(1, sizeof *m);
    struct tc_tsv *r = NULL;
    int col[MF_N], rc = -1;
    if (fp == NULL || m == NULL) {
        if (fp == NULL)
            tc_seterr("%s: cannot read the list of shipped traces", path);
        else
            tc_seterr_env("%s: out of memory", path);
        goto out;
    }
    if ((r = tc_tsv_open(fp, path)) == NULL)
        goto out;
    for (int c = 0; c < MF_N; c++)
        if ((col[c] = tc_tsv_col_need(r, manifest_cols[c])) < 0)
            goto out;
    while ((rc = tc_tsv_next(r)) == 1)
        if (manifest_add(m, r, col, path) != 0) {
            rc = -1;
            break;
        }
out:
    tc_tsv_close(r);
    if (fp != NULL)
        fclose(fp);
    if (rc != 0) {
        tc_manifest_free(m);
        return NULL;
    }
    return m;
}

int tc_manifest_n(const struct tc_manifest *m)
{
    return m->n;
}

const struct tc_manifest_row *tc_manifest_at(const struct tc_manifest *m, int i)
{
    return i >= 0 && i < m->n ? &m->rows[i] : NULL;
}

const struct tc_manifest_row *tc_manifest_role(const struct tc_manifest *m, const char *role)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->rows[i].role, role) == 0)
            return &m->rows[i];
    return NULL;
}

const struct tc_manifest_row *tc_manifest_file(const struct tc_manifest *m, const char *file)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->rows[i].file, file) == 0)
            return &m->rows[i];
    return NULL;
}

const struct tc_manifest_row *tc_manifest_trace(const struct tc_manifest *m, const char *gpu, const char *created_utc)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->rows[i].gpu, gpu) == 0 && strcmp(m->rows[i].created_utc, created_utc) == 0)
            return &m->rows[i];
    return NULL;
}
