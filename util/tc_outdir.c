/* tc_outdir.c — complete-or-absent output directories: a temporary beside the target, one rename to commit. */
#include "tc_outdir.h"
#include "tc_err.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <ftw.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

void tc_rm_tree(const char *path)
{
    nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int split_path(const char *dir, char *parent, char *base)
{
    char copy[PATH_MAX];
    if (dir == NULL || dir[0] == '\0')
        return tc_seterr("expected a directory name, got an empty string");
    if (strlen(dir) >= PATH_MAX - 64)
        return tc_seterr("%s: path too long", dir);
    snprintf(copy, sizeof copy, "%s", dir);
    snprintf(parent, PATH_MAX, "%s", dirname(copy));
    snprintf(copy, sizeof copy, "%s", dir);
    snprintf(base, PATH_MAX, "%s", basename(copy));
    if (strcmp(base, "/") == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
        return tc_seterr("%s: expected a directory name to create or replace", dir);
    return 0;
}

/* Temporaries of earlier runs for the same target whose process is gone: ".BASE.tmp.PID.*", ".BASE.old.PID.*". */
static void remove_stale(const char *parent, const char *base)
{
    char pre_tmp[PATH_MAX], pre_old[PATH_MAX], path[PATH_MAX * 2];
    size_t lt, lo;
    DIR *d = opendir(parent);
    struct dirent *e;
    if (d == NULL)
        return;
    if (snprintf(pre_tmp, sizeof pre_tmp, ".%s.tmp.", base) >= (int)sizeof pre_tmp ||
        snprintf(pre_old, sizeof pre_old, ".%s.old.", base) >= (int)sizeof pre_old) {
        closedir(d);
        return;
    }
    lt = strlen(pre_tmp);
    lo = strlen(pre_old);
    while ((e = readdir(d)) != NULL) {
        const char *rest;
        char *end;
        long pid;
        if (strncmp(e->d_name, pre_tmp, lt) == 0)
            rest = e->d_name + lt;
        else if (strncmp(e->d_name, pre_old, lo) == 0)
            rest = e->d_name + lo;
        else
            continue;
        pid = strtol(rest, &end, 10);
        if (end == rest || *end != '.' || pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if (snprintf(path, sizeof path, "%s/%s", parent, e->d_name) < (int)sizeof path)
            tc_rm_tree(path);
    }
    closedir(d);
}

int tc_outdir_begin(struct tc_outdir *o, const char *dir)
{
    char parent[PATH_MAX], base[PATH_MAX];
    struct stat st;
    memset(o, 0, sizeof *o);
    if (split_path(dir, parent, base) != 0)
        return -1;
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
        return tc_seterr("%s: the parent directory '%s' does not exist", dir, parent);
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
        return tc_seterr("%s: exists and is not a directory", dir);
    remove_stale(parent, base);
    snprintf(o->dir, sizeof o->dir, "%s", dir);
    if (snprintf(o->tmp, sizeof o->tmp, "%s/.%s.tmp.%ld.XXXXXX", parent, base, (long)getpid()) >=
        (int)sizeof o->tmp) {
        o->tmp[0] = '\0';
        return tc_seterr("%s: path too long", dir);
    }
    if (mkdtemp(o->tmp) == NULL) {
        int e = errno;
        o->tmp[0] = '\0';
        return tc_seterr("%s: cannot create a directory in '%s': %s", dir, parent, strerror(e));
    }
    chmod(o->tmp, 0755);
    return 0;
}

int tc_outdir_commit(struct tc_outdir *o)
{
    char parent[PATH_MAX], base[PATH_MAX], old[PATH_MAX * 2];
    struct stat st;
    if (o->tmp[0] == '\0')
        return tc_seterr("%s: nothing to commit", o->dir);
    if (split_path(o->dir, parent, base) != 0)
        return -1;
    if (stat(o->dir, &st) == 0) {
        if (snprintf(old, sizeof old, "%s/.%s.old.%ld.XXXXXX", parent, base, (long)getpid()) >= (int)sizeof old)
            return tc_seterr("%s: path too long", o->dir);
        if (mkdtemp(old) == NULL || rmdir(old) != 0 || rename(o->dir, old) != 0)
            return tc_seterr("%s: cannot move the earlier output aside: %s", o->dir, strerror(errno));
        if (rename(o->tmp, o->dir) != 0) {
            int e = errno;
            (void)rename(old, o->dir);
            return tc_seterr("%s: cannot move the new output into place: %s", o->dir, strerror(e));
        }
        tc_rm_tree(old);
    } else if (rename(o->tmp, o->dir) != 0) {
        return tc_seterr("%s: cannot move the new output into place: %s", o->dir, strerror(errno));
    }
    o->tmp[0] = '\0';
    return 0;
}

void tc_outdir_abort(struct tc_outdir *o)
{
    if (o->tmp[0] != '\0')
        tc_rm_tree(o->tmp);
    o->tmp[0] = '\0';
}

/* The names a marker lists (its lines after the first), as one buffer of NUL-separated lines; NULL when the
 * file cannot be read or lists none. */
static char *marker_list(const char *dir, const char *marker, size_t *len)
{
    char path[PATH_MAX * 2];
    char *buf = NULL, *nl;
    FILE *fp;
    long n;
    *len = 0;
    if (snprintf(path, sizeof path, "%s/%s", dir, marker) >= (int)sizeof path || (fp = fopen(path, "r")) == NULL)
        return NULL;
    if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) > 0 && n < (1L << 20) && fseek(fp, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n + 1)) != NULL && fread(buf, 1, (size_t)n, fp) == (size_t)n) {
        buf[n] = '\0';
        if ((nl = strchr(buf, '\n')) == NULL || nl[1] == '\0') {
            free(buf);
            buf = NULL;
        } else {
            *len = (size_t)n - (size_t)(nl + 1 - buf);
            memmove(buf, nl + 1, *len + 1);
            for (char *p = buf; *p; p++)
                *p = *p == '\n' ? '\0' : *p;
        }
    } else {
        free(buf);
        buf = NULL;
    }
    fclose(fp);
    return buf;
}

static int listed(const char *list, size_t len, const char *name)
{
    for (size_t i = 0; i < len; i += strlen(list + i) + 1)
        if (strcmp(list + i, name) == 0)
            return 1;
    return 0;
}

int tc_outdir_replaceable(const char *dir, const char *what, const char *marker, const char *const *names,
                          int n_names)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char *list = NULL, path[PATH_MAX * 2];
    size_t len = 0;
    int rc = 0, has_marker = 0, n_entries = 0;
    struct stat st;
    if (d == NULL)
        return errno == ENOENT ? 0 : tc_seterr("-o %s: cannot read the directory: %s", dir, strerror(errno));
    if (marker != NULL) {
        has_marker = snprintf(path, sizeof path, "%s/%s", dir, marker) < (int)sizeof path && lstat(path, &st) == 0 &&
                     S_ISREG(st.st_mode);
        list = has_marker ? marker_list(dir, marker, &len) : NULL;
    }
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        n_entries++;
        int known = marker != NULL && strcmp(e->d_name, marker) == 0;
        if (list != NULL)
            known = known || listed(list, len, e->d_name);
        for (int i = 0; i < n_names && !known && list == NULL; i++)
            known = fnmatch(names[i], e->d_name, FNM_PERIOD) == 0;
        if (!known)
            rc = tc_seterr("-o %s: the directory holds '%s', which %s did not write; it is replaced whole (with -f "
                           "too), so choose a new or empty directory or move '%s' out first",
                           dir, e->d_name, what, e->d_name);
    }
    closedir(d);
    free(list);
    if (rc == 0 && marker != NULL && n_entries > 0 && !has_marker)
        rc = tc_seterr("-o %s: the directory is not empty and holds no %s, so %s did not write it; it is replaced "
                       "whole (with -f too), so choose a new or empty directory", dir, marker, what);
    return rc;
}

int tc_outdir_write_marker(const char *dir, const char *marker, const char *first)
{
    char path[PATH_MAX * 2];
    struct dirent *e;
    DIR *d = opendir(dir);
    FILE *fp;
    if (d == NULL)
        return tc_seterr("%s: cannot read the directory: %s", dir, strerror(errno));
    if (snprintf(path, sizeof path, "%s/%s", dir, marker) >= (int)sizeof path || (fp = fopen(path, "w")) == NULL) {
        closedir(d);
        return tc_seterr_env("%s/%s: cannot create: %s", dir, marker, strerror(errno));
    }
    fprintf(fp, "%s\n", first);
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && strcmp(e->d_name, marker) != 0 &&
            strchr(e->d_name, '\n') == NULL)
            fprintf(fp, "%s\n", e->d_name);
    closedir(d);
    if (fflush(fp) != 0 || ferror(fp)) {
        int err = errno;
        fclose(fp);
        return tc_seterr_env("%s: write failed: %s", path, strerror(err));
    }
    if (fclose(fp) != 0)
        return tc_seterr_env("%s: write failed: %s", path, strerror(errno));
    return 0;
}
