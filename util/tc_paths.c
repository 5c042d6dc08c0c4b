/* tc_paths.c — the one locator of shipped files (contract and search order in tc_paths.h). The build gives the
 * source tree, the configured install folders and the way from bindir to datadir (util/meson.build); the result
 * of each search is kept for the life of the process. */
#include "tc_paths.h"
#include "tc_err.h"
#include "tc_manifest.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TC_SOURCE_ROOT
#define TC_SOURCE_ROOT "."
#endif
#ifndef TC_INSTALL_BINDIR /* the configured bindir, absolute */
#define TC_INSTALL_BINDIR "/usr/local/bin"
#endif
#ifndef TC_INSTALL_DATADIR /* the configured <datadir>/tunecost, absolute */
#define TC_INSTALL_DATADIR "/usr/local/share/tunecost"
#endif
#ifndef TC_BIN_TO_DATADIR /* from bindir to <datadir>/tunecost ("../share/tunecost"); "" when either is absolute */
#define TC_BIN_TO_DATADIR ""
#endif

#define MANIFEST "manifest.tsv" /* the list of shipped traces (tc_manifest.h): the data folder's probe */

static const struct {
    const char *env;     /* environment variable */
    const char *sub;     /* below <datadir>/tunecost */
    const char *src;     /* below the source tree */
    const char *probe;   /* a file the folder must hold */
} kinds[] = {
    [TC_PATHS_DATA] = {"TUNECOST_DATA_DIR", "", "data", MANIFEST},
    [TC_PATHS_PLOTS] = {"TUNECOST_PLOTS_DIR", "/plots", "plots", "common.gp"},
};

/* The folder of the running binary in buf; -1 when unknown. */
static int exe_dir(char *buf, size_t len)
{
    char exe[PATH_MAX], *slash;
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    if ((slash = strrchr(exe, '/')) == NULL)
        return -1;
    *slash = '\0';
    return snprintf(buf, len, "%s", exe) < (int)len ? 0 : -1;
}

/* The installation's <datadir>/tunecost for the running binary in buf (canonical); -1 when it has none. */
static int installed_datadir(char *buf, size_t len)
{
    char dir[PATH_MAX], joined[PATH_MAX + 64], bindir[PATH_MAX];
    if (exe_dir(dir, sizeof dir) != 0)
        return -1;
    if (TC_BIN_TO_DATADIR[0] != '\0') {
        if (snprintf(joined, sizeof joined, "%s/%s", dir, TC_BIN_TO_DATADIR) >= (int)sizeof joined ||
            realpath(joined, bindir) == NULL)
            return -1;
        return snprintf(buf, len, "%s", bindir) < (int)len ? 0 : -1;
    }
    if (realpath(TC_INSTALL_BINDIR, bindir) == NULL || strcmp(bindir, dir) != 0)
        return -1;
    return snprintf(buf, len, "%s", TC_INSTALL_DATADIR) < (int)len ? 0 : -1;
}

/* 1 when dir/probe is a readable file. */
static int holds(const char *dir, const char *probe)
{
    char p[PATH_MAX + NAME_MAX + 2];
    return snprintf(p, sizeof p, "%s/%s", dir, probe) < (int)sizeof p && access(p, R_OK) == 0;
}

static void search(enum tc_paths_kind kind, char *out, size_t len)
{
    const char *env = getenv(kinds[kind].env);
    char inst[PATH_MAX];
    if (env != NULL && env[0] != '\0') { /* made absolute when it exists: commands run gnuplot in other folders */
        if (realpath(env, inst) == NULL || snprintf(out, len, "%s", inst) >= (int)len)
            snprintf(out, len, "%s", env);
        return;
    }
    if (installed_datadir(inst, sizeof inst) == 0 &&
        snprintf(out, len, "%s%s", inst, kinds[kind].sub) < (int)len && holds(out, kinds[kind].probe))
        return;
    /* the source tree it was built from; $TUNECOST_SOURCE_ROOT stands for it (tests/test-install.sh points it at
     * an empty folder, so that only the installation can provide the files, without touching the checkout) */
    const char *root = getenv("TUNECOST_SOURCE_ROOT");
    snprintf(out, len, "%s/%s", root != NULL && root[0] != '\0' ? root : TC_SOURCE_ROOT, kinds[kind].src);
}

const char *tc_paths_dir(enum tc_paths_kind kind)
{
    static char dirs[2][PATH_MAX];
    static int found[2];
    if (!found[kind]) {
        search(kind, dirs[kind], sizeof dirs[kind]);
        found[kind] = 1;
    }
    return dirs[kind];
}

const struct tc_manifest *tc_paths_manifest(void)
{
    static struct tc_manifest *m;
    static struct tc_err_saved err;
    char path[PATH_MAX + sizeof MANIFEST + 1];
    if (m == NULL && err.msg[0] == '\0') {
        snprintf(path, sizeof path, "%s/%s", tc_paths_dir(TC_PATHS_DATA), MANIFEST);
        if ((m = tc_manifest_read(path)) == NULL)
            tc_err_save(&err);
    }
    if (m == NULL)
        tc_err_restore(&err);
    return m;
}

const char *tc_paths_role_file(const char *role)
{
    const struct tc_manifest *m = tc_paths_manifest();
    const struct tc_manifest_row *r = m != NULL ? tc_manifest_role(m, role) : NULL;
    return r != NULL ? r->file : "";
}

const char *tc_paths_default_trace(void)
{
    static char buf[2 * PATH_MAX];
    if (buf[0] == '\0') {
        const char *f = tc_paths_role_file("reference");
        snprintf(buf, sizeof buf, "%s/%s", tc_paths_dir(TC_PATHS_DATA), f[0] != '\0' ? f : MANIFEST);
    }
    return buf;
}

const char *tc_paths_installed_trace(void)
{
    static char buf[sizeof TC_INSTALL_DATADIR + PATH_MAX];
    if (buf[0] == '\0')
        snprintf(buf, sizeof buf, "%s/%s", TC_INSTALL_DATADIR, tc_paths_role_file("reference"));
    return buf;
}

const char *tc_paths_role(const char *role, char *buf, size_t len)
{
    const struct tc_manifest *m = tc_paths_manifest();
    const struct tc_manifest_row *r = m != NULL ? tc_manifest_role(m, role) : NULL;
    if (m == NULL)
        return NULL;
    if (r == NULL) {
        tc_seterr("%s/%s lists no %s trace", tc_paths_dir(TC_PATHS_DATA), MANIFEST, role);
        return NULL;
    }
    if (tc_paths_shipped(r->file, 0, buf, len) == NULL) {
        tc_seterr("%s/%s: the %s trace is not there (collect it: %s)", tc_paths_dir(TC_PATHS_DATA), r->file, role,
                  r->collect);
        return NULL;
    }
    return buf;
}

const struct tc_manifest_row *tc_paths_row_of(const char *path)
{
    const struct tc_manifest *m = tc_paths_manifest();
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX], data[PATH_MAX], a[PATH_MAX];
    const struct tc_manifest_row *r;
    if (m == NULL || (r = tc_manifest_file(m, slash != NULL ? slash + 1 : path)) == NULL)
        return NULL;
    if (snprintf(dir, sizeof dir, "%.*s", slash != NULL ? (int)(slash - path) : 1, slash != NULL ? path : ".") >=
            (int)sizeof dir ||
        realpath(dir[0] != '\0' ? dir : "/", a) == NULL || realpath(tc_paths_dir(TC_PATHS_DATA), data) == NULL)
        return NULL;
    return strcmp(a, data) == 0 ? r : NULL;
}

/* 1 when path exists and is a directory (want_dir) or a regular file. */
static int is_kind(const char *path, int want_dir)
{
    struct stat st;
    return stat(path, &st) == 0 && (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

const char *tc_paths_shipped(const char *name, int want_dir, char *buf, size_t len)
{
    if (snprintf(buf, len, "%s/%s", tc_paths_dir(TC_PATHS_DATA), name) >= (int)len || !is_kind(buf, want_dir))
        return NULL;
    return buf;
}

const char *tc_paths_first(const char *const *paths, int n)
{
    struct stat st;
    for (int i = 0; i < n; i++)
        if (paths[i] != NULL && paths[i][0] != '\0' && stat(paths[i], &st) == 0)
            return paths[i];
    return NULL;
}

const char *tc_paths_beside(const char *file, const char *name, int want_dir, char *buf, size_t len)
{
    const char *slash = strrchr(file, '/');
    char a[PATH_MAX], b[PATH_MAX];
    if (snprintf(buf, len, "%.*s%s", slash ? (int)(slash - file + 1) : 0, file, name) >= (int)len ||
        !is_kind(buf, want_dir))
        return NULL;
    if (realpath(buf, a) != NULL && realpath(file, b) != NULL && strcmp(a, b) == 0)
        return NULL;
    return buf;
}
