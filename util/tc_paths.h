/* tc_paths.h — where tunecost finds the files it ships: the reference traces and studies (data) and the gnuplot
 * scripts (plots). Every command asks here; nothing else in the tree builds such a path. One search order, the
 * first folder that qualifies wins:
 *   1. the environment: $TUNECOST_DATA_DIR, $TUNECOST_PLOTS_DIR (taken even when the file is not there, so that
 *      a message names the folder the user chose; made absolute when the folder exists);
 *   2. the installation the running binary belongs to: <folder of the binary>/<bindir to datadir>/tunecost for data,
 *      .../tunecost/plots for the scripts (relocatable: `meson install --destdir`, a prefix copied elsewhere); with
 *      an absolute bindir or datadir, the configured <datadir>/tunecost when the binary runs from the configured
 *      bindir;
 *   3. the source tree the binary was built from: <source>/data, <source>/plots.
 * A folder qualifies when it holds its probe file (data: manifest.tsv, the list of shipped traces; plots: common.gp).
 * When none does, the source tree's folder is returned, so that messages say where the file was expected.
 * The shipped traces are found through the manifest (tc_manifest.h) by their role, never by a name typed here. */
#ifndef TC_PATHS_H
#define TC_PATHS_H

#include <stddef.h>

struct tc_manifest;
struct tc_manifest_row;

enum tc_paths_kind {
    TC_PATHS_DATA,  /* the shipped traces and studies (flush-study/, compile-scaling/) */
    TC_PATHS_PLOTS, /* the gnuplot scripts */
};

/* The folder of kind, by the search order above (absolute unless the environment named a missing folder). */
const char *tc_paths_dir(enum tc_paths_kind kind);
/* <data>/manifest.tsv, read once; NULL with the reader's message when it cannot be read. */
const struct tc_manifest *tc_paths_manifest(void);
/* The shipped reference trace (the manifest's role "reference"), the default TRACE of every command but policies:
 * <data>/FILE, found or not (<data>/manifest.tsv when the manifest names none, so that opening it fails there). */
const char *tc_paths_default_trace(void);
/* The reference trace where the configured installation puts it (<prefix>/<datadir>/tunecost/FILE), found or not:
 * what documentation for an installed program names (the man pages). */
const char *tc_paths_installed_trace(void);
/* The shipped trace of role in buf when it is there; NULL with a one-line message otherwise: the manifest lists
 * none, or "<data>/FILE: the ROLE trace is not there (collect it: COMMAND)". */
const char *tc_paths_role(const char *role, char *buf, size_t len);
/* The file name (below the data folder) of role in the manifest, or "" when it lists none: for a study taken
 * beside a trace by the name it has in data/. */
const char *tc_paths_role_file(const char *role);
/* The manifest's row when path names a shipped trace (a file the manifest lists, in the data folder), there or
 * not; else NULL. What a message about a missing default says, and the kernel family of an older shipped trace. */
const struct tc_manifest_row *tc_paths_row_of(const char *path);
/* <data>/name in buf when it exists (a file, or with want_dir a directory); NULL when it does not or does not fit. */
const char *tc_paths_shipped(const char *name, int want_dir, char *buf, size_t len);
/* The first of n candidate paths that exists (NULL and "" entries skipped), or NULL: the one search for files
 * found by a fixed list rather than the order above (record's injection library and Python hook: the environment's
 * choice, then the build tree, then the installation). */
const char *tc_paths_first(const char *const *paths, int n);
/* name in the folder of file (a file, or with want_dir a directory) in buf; NULL when it is not there, does not fit
 * or is file itself. The studies a report takes by default lie beside its trace. */
const char *tc_paths_beside(const char *file, const char *name, int want_dir, char *buf, size_t len);

#endif
