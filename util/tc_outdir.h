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
/* Whether an existing directory `dir` may be replaced whole by a command whose outputs are names[0..n_names):
 * 0 when it is absent or holds nothing else; else -1 and tc_errmsg() "-o DIR: the directory holds 'X', not only
 * an earlier <what>; it is replaced whole, so choose a new or empty directory (or add -f ...)". Call before any
 * work; a command given -f skips it (the shared meaning of -f). */
int tc_outdir_replaceable(const char *dir, const char *what, const char *const *names, int n_names);
/* Remove a directory tree (no error if it is absent). */
void tc_rm_tree(const char *path);

#endif
