/* trace.h — the one library that reads, writes and validates tunecost traces (HDF5, format v1).
 * The format is defined in docs/trace-format.md (the contract between the stages: docs/architecture.md). Nothing outside trace/ calls
 * HDF5. All functions return 0 (or a pointer) on success and -1 (or NULL) on failure with a one-line message in
 * tc_errmsg() that names the file and the failed check. */
#ifndef TRACE_H
#define TRACE_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_FORMAT_NAME "tunecost-trace"
#define TRACE_FORMAT_VERSION 1
/* Documented additions a reader may use; a trace without them still reads (docs/trace-format.md, "Versioning").
 * 1: /configs member compile_isolated_ms. Writers write this value; a file without the attribute reads as 0. */
#define TRACE_FORMAT_MINOR 3

/* /configs.status and /runs.status */
enum trace_status {
    TRACE_OK = 0,
    TRACE_COMPILE_ERROR = 1,
    TRACE_OUT_OF_RESOURCES = 2,
    TRACE_LAUNCH_ERROR = 3,
    TRACE_WRONG_RESULT = 4,
    TRACE_N_STATUS = 5
};
/* "ok", "compile error", "out of resources", "launch error", "wrong result"; "unknown" otherwise. */
const char *trace_status_name(int status);

/* Root attributes. Strings are NUL-terminated; longer attribute values are truncated on read. */
struct trace_meta {
    char generator[64];      /* "tunecost 0.1.0" */
    char created_utc[32];    /* ISO 8601, e.g. "2026-11-22T10:00:00Z" */
    char kernel[64];         /* tuned kernel family, "gemm_f16_f32acc" */
    char device_name[128];
    int32_t device_cc;       /* 90 for sm_90 */
    int32_t device_sms;
    int64_t device_l2_bytes;
    int32_t driver_version;  /* as cuDriverGetVersion reports, e.g. 13000 */
    int32_t cuda_version;    /* toolkit the collector was built with, e.g. 13000 */
    char timer[16];          /* "cupti" | "events" */
    char protocol[16];       /* "fixed-time" | "triton" */
    double warmup_ms;        /* requested */
    double rep_ms;           /* requested */
    int64_t flush_bytes;     /* 0 = no L2 flush */
    int32_t compile_jobs;
    uint64_t seed;
    /* What ranks configurations (root attributes, optional; docs/trace-format.md): "" (or "time") the true time;
     * another name: the metric in /runs.objective, highest first when objective_higher_is_better (an imported
     * Kernel Tuner cache tuned for GFLOP/s, energy, ...). */
    char objective[64];
    int32_t objective_higher_is_better;
    /* The kernels measured (root attribute kernel_family, optional, format_minor 3): "wgmma-tma" (the Hopper-native
     * family: wgmma + TMA where a configuration fits warpgroup MMA, mma.sync otherwise), "mma-sync"; "" when the file
     * has none (trace_kernel_family then asks the manifest of shipped traces). */
    char kernel_family[32];
    int32_t format_minor;    /* as read (0 when the file has no attribute); writers always write TRACE_FORMAT_MINOR */
};

/* One row of /configs. */
struct trace_config {
    int32_t status;          /* enum trace_status */
    double compile_ms;       /* NVRTC, source to cubin */
    double load_ms;          /* cuModuleLoadData */
    int32_t registers;
    int32_t smem_bytes;
    int32_t spill_bytes;
    int32_t path;            /* kernel the configuration ran on: 0 mma.sync (also for traces written without the
                              * member), 1 wgmma (the Hopper kernel); docs/trace-format.md */
    double compile_isolated_ms; /* NVRTC compile time with no other compile running (1 worker); NaN = not measured,
                                 * also for traces written without the member (format_minor 0) */
};

/* One row of /inputs. */
struct trace_input {
    double flops;            /* work of one execution */
    double ref_ms;           /* vendor library's median time (cuBLAS); NaN if none */
};

/* One row of /runs: one measured (input, configuration) pair. Its executions are exec_ns[exec_offset ...
 * exec_offset + n_estimate + n_warmup + n_timed), in launch order: estimate, warm-up, timed. */
struct trace_run {
    int32_t input;
    int32_t config;
    int32_t status;          /* enum trace_status */
    int32_t n_estimate;
    int32_t n_warmup;
    int32_t n_timed;
    int64_t exec_offset;     /* set by trace_append_run */
    double wall_ms;          /* host wall time of the benchmarking, see docs/trace-format.md */
    double flush_ms;         /* GPU time of the L2 flush kernels */
    double verify_ms;
    double estimate_ms;      /* Triton-style per-execution estimate; NaN for fixed-time */
    double rel_error;        /* relative Frobenius error vs the reference library */
    double true_ms;          /* the run's true time as its source recorded it (an imported cache's `time`); 0 or
                              * NaN: not recorded, the median of the timed executions is its true time */
    double objective;        /* the value of the trace's objective metric (meta.objective) when that is not time;
                              * NaN: not recorded (the run is not ranked) */
};

struct trace; /* opaque */

/* ---- writing ------------------------------------------------------------------------------------------ */

/* Create (truncate) `path` and write the root attributes and the parameter/dimension names. The file is valid
 * (if empty) once trace_write_configs and trace_write_inputs have been called. */
struct trace *trace_create(const char *path, const struct trace_meta *meta,
                           const char *const *param_names, int n_params,
                           const char *const *dim_names, int n_dims);
/* Write /params (n_configs x n_params, row-major) and /configs. Call once. */
int trace_write_configs(struct trace *t, int n_configs, const int32_t *params, const struct trace_config *configs);
/* Write /dims (n_inputs x n_dims, row-major) and /inputs. Call once. */
int trace_write_inputs(struct trace *t, int n_inputs, const int64_t *dims, const struct trace_input *inputs);
/* Overwrite one row later (e.g. after compilation or after the reference was timed); durable on return. */
int trace_update_config(struct trace *t, int config, const struct trace_config *c);
int trace_update_input(struct trace *t, int input, const struct trace_input *in);
/* Append a run and its n_exec = n_estimate + n_warmup + n_timed executions. The library sets exec_offset.
 * Durable on return: the file is flushed, and a process killed afterwards leaves a file that opens with this
 * run in it. */
int trace_append_run(struct trace *t, const struct trace_run *run, const uint64_t *exec_ns, size_t n_exec);
/* Optional documented extras: the compile log of a configuration (kept for compile errors), and the
 * first-compile warm-up of each compile worker (ms). */
int trace_set_compile_log(struct trace *t, int config, const char *log);
int trace_write_compile_warmup(struct trace *t, const double *warmup_ms, int n_workers);
/* Optional: parameter p's values are not integers (an imported search space): its /params column holds indices
 * into `values` (the values' text, in order), written as the attribute "values_NAME" of /params
 * (docs/trace-format.md). Call after trace_write_configs. */
int trace_set_param_values(struct trace *t, int p, const char *const *values, int n);
/* A writer that produces a file under a temporary name (import, merge) needs no durable appends: with per_run 0,
 * trace_append_run keeps the run in memory only, and trace_close writes the whole trace, compressed, once (the
 * disk then holds the finished trace and the small uncompressed start of it, never an uncompressed copy of the
 * executions). The file is complete only when trace_close returned 0. The default is 1 (durable on return). */
void trace_set_flush_each_run(struct trace *t, int per_run);

/* Reopen an existing, valid trace to append more runs (collect --resume). Everything already in it is loaded
 * and readable through the accessors below. A compressed (closed) trace is first rewritten uncompressed, the
 * layout in which appends survive a crash. */
struct trace *trace_open_append(const char *path);

/* ---- reading ------------------------------------------------------------------------------------------ */

/* Open, validate completely and load `path` into memory. Validation: format name, version, every required
 * dataset and attribute, shapes that agree, offsets and counts inside /exec_ns, run indices inside /configs and
 * /inputs, every duration of a status-0 run > 0. */
struct trace *trace_open(const char *path);
/* Close (flushing if writable) and free. Returns -1 if the final flush failed. NULL is fine.
 * A writer's close also rewrites the trace compressed (temporary + rename; see docs/trace-format.md, "Storage");
 * if that fails it returns -1 and leaves the complete, uncompressed trace in place. */
int trace_close(struct trace *t);

const char *trace_path(const struct trace *t);
/* The kernel family the trace measured: its kernel_family attribute; for a file without one (written before it)
 * that is a shipped trace (data/manifest.tsv lists its device_name and created_utc; a copy anywhere counts), the
 * family the manifest gives it; else "unknown". */
const char *trace_kernel_family(const struct trace *t);
const struct trace_meta *trace_get_meta(const struct trace *t);

int trace_n_params(const struct trace *t);
const char *trace_param_name(const struct trace *t, int p);
int trace_n_configs(const struct trace *t);
const int32_t *trace_params(const struct trace *t, int config);   /* n_params values */
/* Parameter p of a configuration as a person reads it: the integer, or for a parameter with a value table (an
 * imported search space: strings, booleans, floats) the value itself, a string without its JSON quotes. With
 * `json`, valid JSON instead (the integer, or the value's JSON text: "a", true, 1.5). Returns buf. */
const char *trace_param_text(const struct trace *t, int config, int p, int json, char *buf, size_t len);
/* Parameter p's value table: its n values' JSON text in *values, or 0 (and NULL) for an integer parameter. */
int trace_param_values(const struct trace *t, int p, const char *const **values);
const struct trace_config *trace_config(const struct trace *t, int config);
const char *trace_compile_log(const struct trace *t, int config); /* "" if none */
/* The configuration's compile time measured with no other compile running (collect --compile-isolated), in ms;
 * NaN when it was not measured (or the trace predates the member). compile_ms is the time under compile_jobs
 * concurrent workers. */
double trace_compile_isolated_ms(const struct trace *t, int config);
int trace_n_compile_warmup(const struct trace *t);
const double *trace_compile_warmup(const struct trace *t);
/* The mean of those first-compile warm-ups, ms; NaN when the trace recorded none. */
double trace_compile_warmup_mean(const struct trace *t);

int trace_n_dims(const struct trace *t);
const char *trace_dim_name(const struct trace *t, int d);
int trace_n_inputs(const struct trace *t);
const int64_t *trace_dims(const struct trace *t, int input);      /* n_dims values */
const struct trace_input *trace_input(const struct trace *t, int input);
/* Index of the input with these dims, or -1. */
int trace_find_input(const struct trace *t, const int64_t *dims);
/* The same search space in two traces (trace_match.c), e.g. one kernel on two GPUs, one a subset of the other.
 * trace_match_configs: map[k] (room for trace_n_configs(a)) = the configuration of b with the parameter values of
 * a's configuration k (the first in b's order where b repeats them), or -1; parameters are matched by name, in any
 * order, a parameter with a value table by its values' JSON text. trace_match_inputs: map[i] (room for
 * trace_n_inputs(a)) = b's input with the dimensions of a's input i, or -1; dimensions matched by name. Each
 * returns how many it matched, or -1 (tc_errmsg: the two traces' parameter or dimension names differ, out of
 * memory). */
int trace_match_configs(const struct trace *a, const struct trace *b, int *map);
int trace_match_inputs(const struct trace *a, const struct trace *b, int *map);

size_t trace_n_runs(const struct trace *t);
const struct trace_run *trace_run(const struct trace *t, size_t r);
/* Index of the run of (input, config), or -1 (the last one if a file holds several). */
long trace_find_run(const struct trace *t, int input, int config);
/* The one definition of "best" that every command uses. A pair (input, configuration) measured more than once
 * counts with its LAST run (trace_find_run), whatever the earlier runs gave. The best configuration of an input
 * is the one whose current run is valid and has the lowest true time (trace_run_true_ns) or, in a trace whose
 * objective is another metric, the best value of that metric (runs without one are not ranked); a tie goes to the
 * lower configuration index. Returns that configuration, or -1 when the input has no valid current run (or memory
 * ran out: then tc_errmsg says so). *true_ns (if not NULL) receives its true time, NaN with -1; *n_valid (if not
 * NULL) the number of configurations of the input with a valid current run. */
int trace_best_config(const struct trace *t, int input, double *true_ns, int *n_valid);
/* 1 when the trace ranks configurations by a metric other than time (meta.objective). */
int trace_objective_is_metric(const struct trace *t);
/* The one definition of a run's true time in a trace, in nanoseconds: the true time its source recorded
 * (true_ms, imported traces) or else the median of its timed executions (trace_run_median_ns). */
double trace_run_true_ns(const struct trace *t, size_t r);
/* Median of run r's timed executions in nanoseconds (NaN when it has none): trace_timed_median_ns of the run. */
double trace_run_median_ns(const struct trace *t, size_t r);
/* The median of a run's timed executions in nanoseconds (the mean of the two middle values when n_timed is even),
 * given all its executions in launch order (estimate, warm-up, timed; exec[0] is its first): the true time of a
 * run measured by tunecost. NaN when it has none, or when memory for a copy ran out. For a run in a trace
 * (trace_run_median_ns) or one just measured (the collector's cuBLAS reference). */
double trace_timed_median_ns(const struct trace_run *run, const uint64_t *exec);
/* Pointers into the loaded /exec_ns: all executions of run r, and its timed ones alone. */
const uint64_t *trace_run_exec(const struct trace *t, size_t r);   /* n_estimate + n_warmup + n_timed */
const uint64_t *trace_run_timed(const struct trace *t, size_t r);  /* n_timed */
size_t trace_n_exec(const struct trace *t);
/* 1 if the run is valid: status 0, n_timed > 0 and every duration > 0. */
int trace_run_valid(const struct trace *t, size_t r);

#endif
