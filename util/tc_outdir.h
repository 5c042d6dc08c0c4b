/* tc_outdir.h — write an output directory so that it appears complete or not at all.
 * Files are written into a fresh temporary directory beside the target (".BASE.tmp.PID.XXXXXX");
 * tc_outdir_commit() swaps it into place in one rename (an earlier directory of that name is moved aside first
 * and removed after). A process killed at any point leaves the earlier directory (or none) untouched; its
 * temporaries are hidden dot-names, removed by the next tc_outdir_begin() for the same target once their
 * process is gone.
 *
 *     struct tc_outdir od;
 *     if (tc_outdir_begin(&od, "sim") != 0) ...     // od.tmp is the directory to write into
 *     ... write od.tmp/points.tsv, od.tmp/frontier.tsv ...
 *     if (tc_outdir_commit(&od) != 0) ...           // or tc_outdir_abort(&od) on an error path
 */
#ifndef TC_OUTDIR_H
#define TC_OUTDIR_H

#include <limits.h>

struct tc_outdir {
    char dir[PATH_MAX]; /* the final name */
    char tmp[PATH_MAX]; /* where to write; "" once committed or aborted */
};

/* Create the temporary directory. Returns 0, or -1 (tc_errmsg names the path and the reason). */
int tc_outdir_begin(struct tc_outdir *o, const char *dir);
/* Swap the temporary into place. Returns 0, or -1 (the earlier directory, if any, is left as it was). */
int tc_outdir_commit(struct tc_outdir *o);
/* Remove the temporary and everything in it; the target is left as it was. Safe to call twice. */
void tc_outdir_abort(struct tc_outdir *o);
/* The one rule for replacing an output directory, -f or not: a command replaces only what it wrote itself.
 * An existing `dir` may be replaced whole when it is absent, empty, or holds only this command's outputs:
 * entries matching the patterns names[0..n_names) (fnmatch: "*.tsv"), or, where the command writes a marker
 * file (marker non-NULL), a directory that holds the marker and only the entries it lists (one per line after
 * its first line; an older marker without a list: the patterns). Else -1 and tc_errmsg() "-o DIR: the
 * directory holds 'X', which <what> did not write; ..." (the caller exits 2). Call before any work. */
int tc_outdir_replaceable(const char *dir, const char *what, const char *marker, const char *const *names,
                          int n_names);
/* Write the marker `dir`/marker: the line `first`, then the name of every entry of dir (but the marker), so that
 * tc_outdir_replaceable knows them as this command's own. Call on the temporary before tc_outdir_commit. */
int tc_outdir_write_marker(const char *dir, const char *marker, const char *first);
/* Remove a directory tree (no error if it is absent). */
void tc_rm_tree(const char *path);

#endif
