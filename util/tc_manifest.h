/* tc_manifest.h — the list of shipped traces (data/manifest.tsv): for each file its role (the default it is), GPU,
 * kernel family, what it lacks and how to collect it again. A pure reader: util/tc_paths finds the file and turns
 * a role into a path; nothing else in the tree types the name of a shipped trace.
 *
 *     struct tc_manifest *m = tc_manifest_read("data/manifest.tsv");
 *     const struct tc_manifest_row *r = m ? tc_manifest_role(m, "reference") : NULL;   r->file: "gemm-h200.h5"
 */
#ifndef TC_MANIFEST_H
#define TC_MANIFEST_H

/* One shipped trace. Strings live as long as the manifest. */
struct tc_manifest_row {
    const char *file;          /* below the data folder: "gemm-h200.h5" */
    const char *role;          /* "reference", "full-space", "cross-gpu", "triton-protocol", "second-family",
                                  "compile" */
    const char *gpu;           /* as the trace's device_name says: "NVIDIA H200" */
    const char *kernel_family; /* "wgmma-tma", "mma-sync" (docs/trace-format.md, kernel_family) */
    const char *created_utc;   /* the trace's created_utc attribute: with gpu, which file a trace is */
    const char *missing;       /* what the trace lacks, which simulate imputes; "-" nothing */
    const char *collect;       /* how to collect it again */
};
struct tc_manifest; /* opaque */

/* The manifest at path: NULL with "PATH: ..." (unreadable, a missing column, an empty field, one file twice). */
struct tc_manifest *tc_manifest_read(const char *path);
void tc_manifest_free(struct tc_manifest *m);
int tc_manifest_n(const struct tc_manifest *m);
const struct tc_manifest_row *tc_manifest_at(const struct tc_manifest *m, int i);
/* The first row of role, or NULL. */
const struct tc_manifest_row *tc_manifest_role(const struct tc_manifest *m, const char *role);
/* The row of file (a name below the data folder), or NULL. */
const struct tc_manifest_row *tc_manifest_file(const struct tc_manifest *m, const char *file);
/* The row of the trace written at created_utc on gpu (its root attributes), or NULL: a shipped trace wherever it
 * lies and whatever its name. */
const struct tc_manifest_row *tc_manifest_trace(const struct tc_manifest *m, const char *gpu, const char *created_utc);

#endif
