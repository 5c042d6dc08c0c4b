/* trace_int.h — the trace library's private half, for the .c files of trace/ only: the in-memory trace, the
 * compound layouts, the HDF5 error macros and the functions the library's files share. Nothing outside trace/
 * includes it; it and the library's .c files are the only code that includes hdf5.h, apart from the tests that
 * write malformed files with the HDF5 API (meson gives HDF5's headers to no other target: trace/meson.build).
 *   trace.c          the in-memory trace: allocation, run index, validity, the public accessors
 *   trace_h5.c       HDF5 helpers: one-line errors, compound types, attributes
 *   trace_write.c    trace_create and every trace_write_* / trace_update_* / trace_append_run
 *   trace_read.c     trace_open: the file read whole into memory
 *   trace_check.c    validation shared by reading and appending (one definition of a valid /runs row)
 *   trace_inflate.c  the multi-threaded inflate of a compressed /exec_ns
 *   trace_handle.c   open HDF5 handles: appendability, end of file, closing and releasing (tr_release)
 *   trace_file.c     the file's lifecycle: resume (trace_open_append), compressed snapshot, trace_close
 * Floors (a file calls only files on lower floors or its own): trace.c; trace_h5.c; trace_check.c,
 * trace_inflate.c, trace_handle.c; trace_read.c, trace_write.c; trace_file.c. */
#ifndef TRACE_TRACE_INT_H
#define TRACE_TRACE_INT_H

#include "trace.h"
#include "tc_err.h"

#include <hdf5.h>

#include <stddef.h>
#include <stdint.h>

/* Storage. While a writer appends, /runs and /exec_ns are chunked and unfiltered: an unfiltered chunk keeps its
 * place in the file when rewritten, so a process killed in the middle of an append cannot damage what earlier
 * appends flushed (with compression, HDF5 moves a rewritten chunk and may reuse the freed space before the
 * metadata pointing at it is rewritten; tests/test-trace-crash.c caught exactly that). trace_close() then rewrites
 * the trace compressed: /exec_ns in chunks of 32768 values (256 KiB raw), byte shuffle + deflate 4, about 1.2
 * bytes per execution on realistic durations (bench/bench-trace.c, docs/performance.md). */
#define EXEC_CHUNK 32768
#define EXEC_DEFLATE 4
#define RUNS_CHUNK 1024
#define RUNS_DEFLATE 4
#define WARMUP_CHUNK 64
/* Durations from 2^63 ns up are negative numbers stored as unsigned (an importer's int64 -5 is 2^64-5). */
#define EXEC_NS_LIMIT (UINT64_C(1) << 63)

enum member_kind { M_I32, M_I64, M_F64 };
struct member {
    const char *name;
    size_t offset;
    enum member_kind kind;
    int optional; /* added after format v1 first shipped: a file without it reads as 0 (M_I32, M_I64) or NaN (M_F64) */
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

struct layout {
    const char *dataset; /* "/configs" */
    const struct member *members;
    size_t n_members;
    size_t size; /* sizeof the struct */
};

struct trace {
    char *path;
    int writable;
    int compress_on_close; /* a writer rewrites the trace compressed when it closes */
    int append_ready;      /* /runs and /exec_ns can grow in place (chunked, unlimited, unfiltered) */
    int no_run_flush;      /* trace_set_flush_each_run(t, 0): appends go to memory only, trace_close writes them */
    hid_t file, d_configs, d_inputs, d_runs, d_exec, d_log, d_warmup;
    hid_t mt_config, mt_input, mt_run; /* memory compound types */
    struct trace_meta meta;

    int n_params, n_dims;
    char **param_names, **dim_names;

    int n_configs; /* -1 until written */
    int32_t *params; /* n_configs x n_params */
    struct trace_config *configs;
    char **logs; /* n_configs, NULL entries read as "" */

    int n_inputs; /* -1 until written */
    int64_t *dims; /* n_inputs x n_dims */
    struct trace_input *inputs;

    size_t n_runs, cap_runs;
    struct trace_run *runs;
    unsigned char *valid; /* per run, trace_run_valid */
    long *run_index;      /* [input * n_configs + config] -> last run, or -1 */

    size_t n_exec, cap_exec; /* n_exec = end of the last run's executions */
    uint64_t *exec;

    int n_warmup;
    double *warmup_ms;

    char ***vtab; /* NULL, or per parameter NULL or its value table (trace_set_param_values), kept for snapshot */
    int *n_vtab;
};

/* Run an HDF5 call; on a negative result set the message and jump to `out`. Needs `t` in scope. */
#define H5TRY(call, ...)                                                                                         \
    do {                                                                                                         \
        if ((call) < 0) {                                                                                        \
            tr_h5fail(t->path, #call, __VA_ARGS__);                                                              \
            goto out;                                                                                            \
        }                                                                                                        \
    } while (0)
/* A validation failure: message naming the file, jump to `out`. */
#define FAIL(...)                                                                                                \
    do {                                                                                                         \
        tc_seterr(__VA_ARGS__);                                                                                  \
        tc_preferr("%s", t->path);                                                                               \
        goto out;                                                                                                \
    } while (0)
/* The same for a fault of the environment (out of memory): exit 1, not 2 (tc_err.h). */
#define FAIL_ENV(...)                                                                                            \
    do {                                                                                                         \
        tc_seterr_env(__VA_ARGS__);                                                                              \
        tc_preferr("%s", t->path);                                                                               \
        goto out;                                                                                                \
    } while (0)

/* The layouts of /configs, /inputs and /runs (trace_h5.c). */
extern const struct layout tr_config_layout, tr_input_layout, tr_run_layout;

/* ---- trace.c: the in-memory trace ---- */
/* A new, empty trace for path (HDF5 identifiers invalid, sizes -1, HDF5's own error printing off). */
struct trace *tr_alloc(const char *path);
void tr_free_strs(char **s, int n);
char **tr_dup_strs(const char *const *s, int n);
/* Grow runs (and valid) to hold `need` rows, exec to hold `need_exec` values. */
int tr_reserve(struct trace *t, size_t need_runs, size_t need_exec);
/* The (input, config) -> run index, once both sizes are known. */
int tr_build_run_index(struct trace *t);
/* Valid: status 0, n_timed > 0 and every duration > 0. */
unsigned char tr_run_is_valid(const struct trace_run *run, const uint64_t *exec);

/* ---- trace_h5.c: HDF5 helpers ---- */
/* Set "<path>: <what>: <HDF5's innermost message> [<failing call>]" and clear HDF5's error stack. */
void TC_PRINTF(3, 4) tr_h5fail(const char *path, const char *call, const char *fmt, ...);
/* Close any HDF5 identifier (if valid) and set it invalid. */
void tr_close_id(hid_t *id);
void tr_quiet_hdf5(void);
/* The memory type (native, at the struct's offsets) or the file type (packed little-endian) of a layout; with
 * `present` (a dataset's file type), a memory type of the members that type has. */
hid_t tr_layout_type_in(const struct layout *l, int file, hid_t present);
hid_t tr_layout_type(const struct layout *l, int file);
hid_t tr_vlen_str_type(void);
int tr_make_mem_types(struct trace *t);
int tr_attr_write_str(struct trace *t, hid_t loc, const char *name, const char *value);
int tr_attr_write_strs(struct trace *t, hid_t loc, const char *name, char *const *values, int n);
int tr_attr_write_num(struct trace *t, hid_t loc, const char *name, hid_t filetype, hid_t memtype,
                      const void *value);
/* Read a string-typed attribute or dataset (fixed or variable length, any rank) into n malloc'ed strings. */
int tr_read_strs(struct trace *t, hid_t obj, int is_attr, const char *what, char ***out, int *n);
int tr_attr_open(struct trace *t, hid_t loc, const char *objname, const char *name, hid_t *a);
int tr_attr_read_str(struct trace *t, hid_t loc, const char *objname, const char *name, char *buf, size_t len);
int tr_attr_read_num(struct trace *t, hid_t loc, const char *objname, const char *name, hid_t memtype,
                     void *out);

/* ---- trace_write.c ---- */
/* trace_create with the growing datasets compressed (a finished trace) or not (a trace being appended to). */
struct trace *tr_create_storage(const char *path, const struct trace_meta *meta, const char *const *param_names,
                                int n_params, const char *const *dim_names, int n_dims, int compress);
/* Write `count` elements of memtype from buf at [start, start+count) of 1-D dataset d. */
int tr_write_rows(struct trace *t, hid_t d, const char *name, hid_t memtype, hsize_t start, hsize_t count,
                  const void *buf);

/* ---- trace_check.c: validation ---- */
/* Check that compound dataset d has every member of the layout, each numeric (extra members are fine). */
int tr_check_members(struct trace *t, hid_t d, const struct layout *l);
/* Refuse a dataset that declares more rows than its file holds. */
int tr_check_rows_stored(struct trace *t, hid_t d, const char *name, hsize_t rows);
/* Refuse integer members whose stored values HDF5's conversion would change. */
int tr_check_int_members(struct trace *t, hid_t d, const struct layout *l, hsize_t rows);
/* The one definition of an acceptable /runs row, for trace_open and trace_append_run alike. `row` is the row's
 * index in /runs (messages say "/runs row 12"), or -1 for a row being appended ("appended run"). Fields: input
 * and configuration inside their tables, a known status, no negative count (the reader checks exec_offset
 * against /exec_ns, the writer the count of executions given). */
int tr_check_run_row(struct trace *t, long row, const struct trace_run *run);
/* Durations of a status-0 run: wall_ms positive and finite, each of its `count` executions x > 0 and < 2^63 ns
 * (larger values are negative numbers stored as unsigned). Other statuses pass. */
int tr_check_run_durations(struct trace *t, long row, const struct trace_run *run, const uint64_t *x, size_t count);
/* Refuse /runs rows whose executions overlap (a run claiming executions another run owns, or more than it owns):
 * one line naming both rows. Every row must already be in range (tr_check_run_row and the length check). */
int tr_check_exec_ranges(struct trace *t);

/* ---- trace_read.c ---- */
/* Read the file whole into memory; writable: check it can be opened for writing and whether it can be appended
 * to in place (t->append_ready). The file is closed on return. */
struct trace *tr_load(const char *path, int writable);

/* ---- trace_inflate.c ---- */
/* Read /exec_ns[0, end) into t->exec with several threads when it is stored as this library writes it: 1 done,
 * 0 not applicable (the caller reads through H5Dread), -1 failed (message). */
int tr_read_exec_fast(struct trace *t, hsize_t end);

/* ---- trace_handle.c (below trace_read.c, trace_write.c and trace_file.c) ---- */
/* 1 if the dataset can grow in place: chunked, unlimited first dimension, no filters; 0 if not; -1 on error. */
int tr_appendable(struct trace *t, hid_t d, const char *name);
/* Let HDF5 address the whole physical file (chunks a killed writer wrote past its recorded end). */
void tr_cover_eof(struct trace *t);
/* Close the datasets a reader or writer keeps open (each only if open). */
void tr_close_datasets(struct trace *t);
/* Flush (a writable trace), close every handle and free t, without trace_close's compressed snapshot: how the
 * reader and the writer give up a trace they could not finish. 0, or -1 (message) when HDF5 failed. */
int tr_release(struct trace *t);

#endif
