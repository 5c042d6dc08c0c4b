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
 * A folder qualifies when it holds its probe file (data: the default trace gemm-h200.h5; plots: common.gp). When
 * none does, the source tree's folder is returned, so that messages say where the file was expected. */
#ifndef TC_PATHS_H
#define TC_PATHS_H

#include <stddef.h>

enum tc_paths_kind {
    TC_PATHS_DATA,  /* the shipped traces and studies (flush-study/, compile-scaling/) */
    TC_PATHS_PLOTS, /* the gnuplot scripts */
};

/* The folder of kind, by the search order above (absolute unless the environment named a missing folder). */
const char *tc_paths_dir(enum tc_paths_kind kind);
/* The shipped reference trace, the default TRACE of every command: <data>/gemm-h200.h5. */
const char *tc_paths_default_trace(void);
/* The reference trace where the configured installation puts it (<prefix>/<datadir>/tunecost/gemm-h200.h5), found
 * or not: what documentation for an installed program names (the man pages). */
const char *tc_paths_installed_trace(void);
/* <data>/name in buf when it exists (a file, or with want_dir a directory); NULL when it does not or does not fit. */
const char *tc_paths_shipped(const char *name, int want_dir, char *buf, size_t len);
/* name in the folder of file (a file, or with want_dir a directory) in buf; NULL when it is not there, does not fit
 * or is file itself. The studies a report takes by default lie beside its trace. */
const char *tc_paths_beside(const char *file, const char *name, int want_dir, char *buf, size_t len);

#endif
