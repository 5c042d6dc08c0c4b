/* tc_atomic.h — write a whole output file so that it appears complete or not at all.
 * Data goes to an unnamed file (O_TMPFILE) in the target's directory, or where the file system lacks that to
 * ".NAME.tmp.PID" beside it; tc_atomic_commit() flushes, fsyncs and renames it into place. A process killed
 * before commit leaves the old file (if any) untouched and, with O_TMPFILE, no debris at all.
 *
 *     struct tc_atomic a;
 *     FILE *fp = tc_atomic_open(&a, "out/points.tsv");
 *     if (fp == NULL) { fprintf(stderr, "%s\n", tc_errmsg()); ... }
 *     fprintf(fp, ...);
 *     if (tc_atomic_commit(&a) != 0) ...      // or tc_atomic_abort(&a) on an error path
 */
#ifndef TC_ATOMIC_H
#define TC_ATOMIC_H

#include <limits.h>
#include <stdio.h>

struct tc_atomic {
    char path[PATH_MAX];  /* final name */
    char tmp[PATH_MAX];   /* named temporary, "" while the data is in an unnamed O_TMPFILE */
    FILE *fp;
};

/* Returns the stream to write, or NULL (tc_errmsg names the path and the reason). */
FILE *tc_atomic_open(struct tc_atomic *a, const char *path);
/* Flush, fsync and rename into place. Returns 0, or -1 (write errors included) after removing the temporary. */
int tc_atomic_commit(struct tc_atomic *a);
/* The commit of an output with the shared meaning of -f: force replaces an existing file (tc_atomic_commit);
 * without it the file is moved into place only if the name is still free at that moment
 * (tc_atomic_rename_noreplace): of two runs writing one new name, one wins and the other gets -1 with
 * "PATH exists: another run created it meanwhile ..."; a file the user made meanwhile is never replaced. */
int tc_atomic_commit_force(struct tc_atomic *a, int force);
/* Discard everything written; the final path is left as it was. Safe to call twice. */
void tc_atomic_abort(struct tc_atomic *a);

/* A name for a temporary beside `path` (".NAME.tmp.PID" in the same directory), for writers that need a real
 * name, such as HDF5 files: write there, then tc_atomic_rename() it into place. Temporaries of NAME that a killed
 * earlier run left (".NAME.tmp.PID" and ".NAME.tmp.PID"'s own, of processes that are gone) are removed first. */
int tc_atomic_tmpname(const char *path, char *tmp, size_t len);
/* fsync the file, rename tmp -> path and fsync the directory. On failure tmp is removed and -1 returned. */
int tc_atomic_rename(const char *tmp, const char *path);
/* The same, but never replacing an existing path (renameat2 RENAME_NOREPLACE, else link + unlink): a check that
 * path does not exist, made at the start, cannot be raced by another run. An existing path gives -1 with a
 * message saying so (not marked as an environment fault: the user's output is taken). */
int tc_atomic_rename_noreplace(const char *tmp, const char *path);

/* Flush fp and check it for a write error: 0, or -1 with "<path>: write failed: <the OS's reason>" marked as the
 * environment's fault (a full disk, a file size limit). path may be NULL (the message then has no path). */
int tc_stream_check(FILE *fp, const char *path);

/* Check an output path before any work is done, so that a bad -o costs nothing and never destroys an input.
 * `out` is the file (is_dir 0) or directory (is_dir 1) a command will write or replace; inputs[0..n_inputs) are
 * the files it reads (NULL entries skipped). Refused, with a one-line message naming the option and the path:
 * an empty path; a parent directory that does not exist, is not a directory or cannot be written; an output that is an input (the
 * same file, through any name or link); for a directory output, an input that lies inside it (the directory
 * is replaced as a whole). Returns 0, or -1 (tc_errmsg says why; exit 2 is the caller's usual answer). */
int tc_output_check(const char *opt, const char *out, int is_dir, const char *const *inputs, int n_inputs);
/* The shared meaning of -f for a file output: 0 when `out` does not exist or force is set; else -1 and
 * tc_errmsg() "OPT OUT: exists (add -f, --force, to replace it)". Call after tc_output_check, before any work. */
int tc_output_clobber_check(const char *opt, const char *out, int force);

#endif
