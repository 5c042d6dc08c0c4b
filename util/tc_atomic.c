/* tc_atomic.c — complete-or-absent output files via O_TMPFILE + linkat, or a named temporary + rename. */
#include "tc_atomic.h"
#include "tc_err.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <unistd.h>

static void dir_of(const char *path, char *dir, size_t len)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", path);
    snprintf(dir, len, "%s", dirname(copy));
}

/* 1 if `name` is a temporary of `base` made by a process that is gone: "." + base + ".tmp.PID", or the temporary
 * of such a temporary (".." + base + ".tmp.PID.tmp.PID", a trace's compressed rewrite), every PID dead. */
static int stale_tmp_of(const char *name, const char *base)
{
    size_t lb = strlen(base);
    int dots = 0, n_pid = 0;
    while (name[dots] == '.')
        dots++;
    if (dots == 0 || strncmp(name + dots, base, lb) != 0)
        return 0;
    for (const char *p = name + dots + lb; *p != '\0';) {
        char *end;
        long pid;
        if (strncmp(p, ".tmp.", 5) != 0)
            return 0;
        pid = strtol(p + 5, &end, 10);
        if (end == p + 5 || pid <= 0 || (*end != '\0' && *end != '.'))
            return 0;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            return 0; /* alive (or not ours to ask about): its temporary stays */
        n_pid++;
        p = end;
    }
    return n_pid > 0 && n_pid <= dots;
}

/* Remove the temporaries a killed earlier run left beside `path` (its regular files only, ours only). */
static void sweep_stale(const char *dir, const char *base)
{
    char full[PATH_MAX * 2];
    struct dirent *e;
    struct stat st;
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.' || !stale_tmp_of(e->d_name, base))
            continue;
        if (snprintf(full, sizeof full, "%s/%s", dir, e->d_name) < (int)sizeof full && lstat(full, &st) == 0 &&
            S_ISREG(st.st_mode) && st.st_uid == geteuid())
            (void)unlink(full);
    }
    closedir(d);
}

int tc_atomic_tmpname(const char *path, char *tmp, size_t len)
{
    char dir[PATH_MAX], base[PATH_MAX], copy[PATH_MAX];
    int n;
    dir_of(path, dir, sizeof dir);
    snprintf(copy, sizeof copy, "%s", path);
    snprintf(base, sizeof base, "%s", basename(copy));
    if (base[0] != '.') /* a real output (not a temporary's own temporary): clear what killed runs left */
        sweep_stale(dir, base);
    n = snprintf(tmp, len, "%s/.%s.tmp.%ld", dir, base, (long)getpid());
    if (n < 0 || (size_t)n >= len)
        return tc_seterr("%s: path too long", path);
    return 0;
}

static void fsync_dir(const char *path)
{
    char dir[PATH_MAX];
    int fd;
    dir_of(path, dir, sizeof dir);
    fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        (void)fsync(fd); /* best effort: some file systems refuse fsync on directories */
        close(fd);
    }
}

FILE *tc_atomic_open(struct tc_atomic *a, const char *path)
{
    char dir[PATH_MAX];
    int fd;
    struct stat st;

    memset(a, 0, sizeof *a);
    if (snprintf(a->path, sizeof a->path, "%s", path) >= (int)sizeof a->path) {
        tc_seterr("%s: path too long", path);
        return NULL;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        tc_seterr("%s: is a directory, expected a file name to write", path);
        return NULL;
    }
    dir_of(path, dir, sizeof dir);
#ifdef O_TMPFILE
    fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0)
#endif
    {
        if (tc_atomic_tmpname(path, a->tmp, sizeof a->tmp) != 0)
            return NULL;
        fd = open(a->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) {
            tc_seterr_env("%s: cannot create a file in '%s': %s", path, dir, strerror(errno));
            a->tmp[0] = '\0';
            return NULL;
        }
    }
    a->fp = fdopen(fd, "w");
    if (a->fp == NULL) {
        tc_seterr("%s: %s", path, strerror(errno));
        close(fd);
        tc_atomic_abort(a);
        return NULL;
    }
    return a->fp;
}

int tc_atomic_rename(const char *tmp, const char *path)
{
    int fd = open(tmp, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    if (rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return tc_seterr_env("%s: cannot move the finished file into place: %s", path, strerror(e));
    }
    fsync_dir(path);
    return 0;
}

int tc_atomic_rename_noreplace(const char *tmp, const char *path)
{
    int fd = open(tmp, O_RDONLY | O_CLOEXEC), rc, e;
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    /* One atomic step: the rename fails if path exists, whoever made it and however recently. */
    rc = renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE);
    if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) { /* a file system without it: link fails on EEXIST */
        rc = link(tmp, path);
        if (rc == 0)
            (void)unlink(tmp);
    }
    e = errno;
    if (rc != 0) {
        unlink(tmp);
        if (e == EEXIST)
            return tc_seterr("%s exists: another run created it meanwhile (use --force to replace it)", path);
        return tc_seterr_env("%s: cannot move the finished file into place: %s", path, strerror(e));
    }
    fsync_dir(path);
    return 0;
}

int tc_stream_check(FILE *fp, const char *path)
{
    errno = 0;
    if (fflush(fp) == 0 && !ferror(fp))
        return 0;
    int e = errno != 0 ? errno : EIO; /* an earlier buffered write failed: the stream kept no errno */
    if (path != NULL)
        return tc_seterr_env("%s: write failed: %s", path, strerror(e));
    return tc_seterr_env("write failed: %s", strerror(e));
}

static int commit(struct tc_atomic *a, int noreplace)
{
    int fd, rc = 0;
    char proc[64];

    if (a->fp == NULL)
        return tc_seterr("%s: nothing to commit", a->path);
    if (fflush(a->fp) != 0 || ferror(a->fp)) {
        tc_seterr_env("%s: write failed: %s", a->path, strerror(errno));
        tc_atomic_abort(a);
        return -1;
    }
    fd = fileno(a->fp);
    if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
        tc_seterr_env("%s: fsync failed: %s", a->path, strerror(errno));
        tc_atomic_abort(a);
        return -1;
    }
    if (a->tmp[0] == '\0') {
        /* Unnamed O_TMPFILE: give it a temporary name, then rename over the target (linkat cannot replace). */
        if (tc_atomic_tmpname(a->path, a->tmp, sizeof a->tmp) != 0) {
            tc_atomic_abort(a);
            return -1;
        }
        unlink(a->tmp);
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        if (linkat(AT_FDCWD, proc, AT_FDCWD, a->tmp, AT_SYMLINK_FOLLOW) != 0) {
            tc_seterr_env("%s: cannot name the finished file: %s", a->path, strerror(errno));
            a->tmp[0] = '\0';
            tc_atomic_abort(a);
            return -1;
        }
    }
    if (fclose(a->fp) != 0)
        rc = tc_seterr_env("%s: close failed: %s", a->path, strerror(errno));
    a->fp = NULL;
    if (rc != 0) {
        unlink(a->tmp);
        return rc;
    }
    rc = noreplace ? tc_atomic_rename_noreplace(a->tmp, a->path) : tc_atomic_rename(a->tmp, a->path);
    a->tmp[0] = '\0';
    return rc;
}

int tc_atomic_commit(struct tc_atomic *a)
{
    return commit(a, 0);
}

int tc_atomic_commit_force(struct tc_atomic *a, int force)
{
    return commit(a, !force);
}

void tc_atomic_abort(struct tc_atomic *a)
{
    if (a->fp != NULL) {
        fclose(a->fp);
        a->fp = NULL;
    }
    if (a->tmp[0] != '\0') {
        unlink(a->tmp);
        a->tmp[0] = '\0';
    }
}

/* 1 if `path` names `dir` itself or something below it (both resolved by realpath; dir must exist). */
static int path_within(const char *dir_real, const char *path)
{
    char real[PATH_MAX];
    size_t n = strlen(dir_real);
    if (realpath(path, real) == NULL)
        return 0;
    if (strncmp(real, dir_real, n) != 0)
        return 0;
    return real[n] == '\0' || real[n] == '/' || (n == 1 && dir_real[0] == '/');
}

int tc_output_check(const char *opt, const char *out, int is_dir, const char *const *inputs, int n_inputs)
{
    char parent[PATH_MAX];
    struct stat st_out, st_in, st_parent;
    int out_exists;

    if (out == NULL || out[0] == '\0')
        return tc_seterr("%s: expected a %s name, got an empty string", opt, is_dir ? "directory" : "file");
    if (strlen(out) >= PATH_MAX)
        return tc_seterr("%s %s: path too long", opt, out);
    dir_of(out, parent, sizeof parent);
    if (stat(parent, &st_parent) != 0)
        return tc_seterr("%s %s: the directory %s does not exist (create it first)", opt, out, parent);
    if (!S_ISDIR(st_parent.st_mode))
        return tc_seterr("%s %s: %s is not a directory", opt, out, parent);
    if (access(parent, W_OK | X_OK) != 0) /* before any work, and naming the user's path, not a temporary's */
        return tc_seterr("%s %s: cannot write in the directory %s: %s", opt, out, parent, strerror(errno));
    out_exists = stat(out, &st_out) == 0;
    if (out_exists && !is_dir && S_ISDIR(st_out.st_mode))
        return tc_seterr("%s %s: is a directory, expected a file name to write", opt, out);
    if (out_exists && !is_dir && !S_ISREG(st_out.st_mode)) /* a device node or pipe would be replaced by a file */
        return tc_seterr("%s %s: is not a regular file (a device, pipe or socket); expected a file name to write",
                         opt, out);
    if (out_exists && is_dir && !S_ISDIR(st_out.st_mode))
        return tc_seterr("%s %s: exists and is not a directory", opt, out);
    for (int i = 0; i < n_inputs; i++) {
        if (inputs[i] == NULL || stat(inputs[i], &st_in) != 0)
            continue; /* a missing input is reported by whoever opens it */
        if (out_exists && st_in.st_dev == st_out.st_dev && st_in.st_ino == st_out.st_ino)
            return tc_seterr("%s %s: is the input %s; refusing to write over an input (choose another output)",
                             opt, out, inputs[i]);
        if (out_exists && is_dir) {
            char real[PATH_MAX];
            if (realpath(out, real) != NULL && path_within(real, inputs[i]))
                return tc_seterr("%s %s: the input %s lies inside this directory, which would be replaced; "
                                 "choose another output directory or move the input out first",
                                 opt, out, inputs[i]);
        }
    }
    return 0;
}

int tc_output_clobber_check(const char *opt, const char *out, int force)
{
    struct stat st;
    if (force || lstat(out, &st) != 0)
        return 0;
    return tc_seterr("%s %s: exists (add -f, --force, to replace it)", opt, out);
}
