/* record.h — `tunecost record`'s library: reading the spool files a recorded session left (spool_read.c) into one
 * activity stream, and reconstructing the tuning runs in it as a trace (reconstruct.c, a pure function of the
 * stream; rec_session_write writes its result). The rules are in docs/record.md. */
#ifndef RECORD_H
#define RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

enum rec_kind {
    REC_KERNEL,   /* a kernel execution (GPU clock start/end) */
    REC_MEMSET,   /* a memset (GPU) */
    REC_LOAD,     /* a module or library load (host: enter to exit of the driver call) */
    REC_RANGE,    /* an NVTX range (host: push to pop; end_ns REC_OPEN when it was never popped) */
    REC_MARK,     /* an NVTX marker (host, start_ns == end_ns) */
};
#define REC_OPEN UINT64_MAX

/* One activity, every time on CUPTI's clock in nanoseconds. */
struct rec_event {
    int kind;                /* enum rec_kind */
    uint32_t pid;            /* the process that issued it */
    uint64_t start_ns, end_ns;
    int32_t grid[3], block[3];
    int32_t registers;       /* per thread */
    int32_t smem_bytes;      /* static + dynamic shared memory per block */
    uint64_t bytes;          /* REC_MEMSET */
    const char *name;        /* kernel name, or the NVTX message; never NULL ("" when unknown) */
};

struct rec_process {
    uint32_t pid, ppid;
    uint64_t start_ns;       /* injection (first CUDA or NVTX use) */
    uint64_t end_ns;         /* normal exit; 0 when the process was killed or its spool ends early */
    uint64_t dropped;        /* activity records CUPTI dropped */
};

/* The whole recorded session: events sorted by start_ns (ties: by process, then kind), the processes, the
 * device. Strings live in the stream. */
struct rec_stream {
    struct rec_event *ev;
    size_t n;
    struct rec_process *proc;
    size_t n_proc;
    char device_name[128];   /* "" when no device record came */
    int32_t device_cc, device_sms, driver_version;
    int64_t device_l2_bytes;
    size_t n_incomplete;     /* kernel and memset records without both timestamps (CUPTI had not finished them
                              * when it handed them over): left out */
    char **strings;          /* owned copies of every name */
    size_t n_strings;
};

/* Read every <pid>.spool file of dir (record/spool.h) into one stream. A record cut short (a killed process) ends
 * that file's reading; a file that is not a spool file is an error naming it. Returns NULL with tc_errmsg(). */
struct rec_stream *rec_spool_read(const char *dir);
void rec_stream_free(struct rec_stream *s);

/* ---- reconstruction (pure: no I/O, no clock) ---- */

/* Label prefixes of the NVTX ranges and markers the --triton hook emits (record/python/sitecustomize.py):
 * "tc:bench kernel=NAME key=K1=V1,K2=V2 config=P1=V1,P2=V2" around one candidate's benchmark, and
 * "tc:failed EXCEPTION" inside it when the candidate did not run, and REC_LABEL_FLUSH_BYTES once. */
#define REC_LABEL_BENCH "tc:bench "
#define REC_LABEL_FAILED "tc:failed"
/* "tc:flush_bytes N": the size of the buffer Triton's do_bench clears between executions (marked once) */
#define REC_LABEL_FLUSH_BYTES "tc:flush_bytes"

/* "tc:phase NAME ..." around a phase of a tuner's work (the --helion hook: precompile, compile, accuracy, benchmark,
 * rebenchmark, ...): its time is counted per process and in the wall split under NAME */
#define REC_LABEL_PHASE "tc:phase "
/* "tc:job bench" around one benchmark job that a tuner runs in a worker process of its own (the --helion hook:
 * Helion 1.4.0's BenchmarkJob in its spawned BenchmarkWorker): the worker's events inside it belong to the
 * parent's tc:bench range that holds the job */
#define REC_LABEL_JOB_BENCH "tc:job bench"
#define REC_MAX_PHASES 8

/* Time by category: the reconstruction's compile gaps, module loads and benchmark windows, and the hook's phases. */
struct rec_split {
    double compile_ms, load_ms, bench_ms;
    double phase_ms[REC_MAX_PHASES]; /* by rec_summary.phase */
};

/* One process's own time by category (each of its instants once; overlapping phases of one process, such as
 * precompile workers waited for together, counted once). */
struct rec_proc_split {
    uint32_t pid, ppid;
    struct rec_split busy;
};

/* Where the session's time went (milliseconds) and what was counted. */
struct rec_summary {
    double process_wall_ms;  /* first process start to last process end (or last event when none ended) */
    double compile_ms;       /* gaps before module loads (compile and framework), failed candidates' ranges */
    double load_ms;          /* module/library loads of candidates */
    double bench_ms;         /* the runs' wall_ms */
    double flush_ms;         /* GPU time of flushes in the runs */
    double other_ms;         /* process_wall_ms - compile - load - bench */
    size_t n_processes, n_kernels, n_flushes, n_loads, n_ranges;
    size_t n_unclassified;   /* runs whose launches did not follow do_bench's pattern: all stored as timed */
    size_t n_unfinished;     /* candidate ranges never closed (killed): left out */
    size_t n_outside;        /* unlabelled: kernel executions in no recognised benchmark */
    uint64_t dropped;        /* records CUPTI dropped */
    size_t n_incomplete;     /* records left out for want of timestamps (rec_stream.n_incomplete) */
    int cmd_measured;        /* process_wall_ms is the command's wall time (tunecost record), not CUPTI's span */
    /* The wall split (reconstruct_split.c): every instant of the session counted once, so that process_wall_ms =
     * wall + overlap_ms + other_ms. An instant when one process was active goes to its category (benchmarking
     * before module load before compile before the hook's phases); one when two or more processes were active is
     * overlap (each process's own time is in proc[]); other_ms is the rest (start-up, imports, gaps), >= 0. */
    struct rec_split wall;
    double overlap_ms;
    int n_phases;
    char phase[REC_MAX_PHASES][32];
    size_t n_split_procs;    /* processes with any activity of a category; proc[] holds the first REC_MAX_SPLIT_PROCS */
#define REC_MAX_SPLIT_PROCS 64
    struct rec_proc_split proc[REC_MAX_SPLIT_PROCS];
};

/* The wall split's categories together with the overlap: process_wall_ms - rec_split_total is other_ms (>= 0 but
 * for clocks that disagree, when it is set to 0). */
double rec_split_total(const struct rec_summary *s);

/* The reconstructed trace: configurations, inputs and runs, ready for rec_session_write. */
struct rec_session {
    int labelled;            /* 1: candidates from --triton's NVTX ranges; 0: from binaries and launch pattern */
    char kernel[64];
    int n_params;
    char **param_names;
    char ***param_values;    /* per parameter: NULL (integer column) or its values table (n_param_values) */
    int *n_param_values;
    int n_configs;
    int32_t *params;         /* n_configs x n_params */
    struct trace_config *configs;
    char **config_labels;
    int n_dims;
    char **dim_names;
    int n_inputs;
    int64_t *dims;           /* n_inputs x n_dims */
    struct trace_input *inputs;
    char **input_labels;
    size_t n_runs;
    struct trace_run *runs;  /* exec_offset into exec_ns */
    uint64_t *exec_ns;       /* each execution's kernel duration (CUPTI), what the trace stores */
    uint64_t *exec_event_ns; /* the same executions as CUDA events around the launch would time them: from the end
                              * of the flush just before it to the kernel's end; 0 for an unflushed execution. Not
                              * in the trace (format v1 has no place for it): rec_session_write_tsv's columns */
    size_t n_exec;
    int64_t flush_bytes;     /* from the tc:flush_bytes marker, else the largest memset that flushed a run (a
                              * fill kernel's size is not recorded); -1 when not known */
    struct rec_summary sum;
};

/* Turn a stream into runs. flush_regex (POSIX extended, case-insensitive; NULL: REC_FLUSH_REGEX) names the
 * kernels that are flushes; memsets of REC_FLUSH_MIN_MEMSET_BYTES or more always are. Returns NULL with
 * tc_errmsg() on a bad regex or no memory; a stream without any candidate gives a session with 0 runs. */
#define REC_FLUSH_REGEX "FillFunctor|fill_kernel|flush|memset"
/* Memsets smaller than this are no flush (nor an execution): 1 MiB, far below any L2 */
#define REC_FLUSH_MIN_MEMSET_BYTES (1u << 20)
struct rec_session *rec_reconstruct(const struct rec_stream *s, const char *flush_regex);
void rec_session_free(struct rec_session *r);

/* Set every input's flops (work of one execution) to expr, a product of numbers and dimension names such as
 * "2*M*N*K". Returns -1 with tc_errmsg() naming the factor that is neither. */
int rec_session_set_flops(struct rec_session *r, const char *expr);

/* Write one row per run to path (complete or absent): labels, status, counts, the median of the timed executions'
 * kernel durations, wall, flush, estimate, compile and load times (as in the trace), then what a tuner that times
 * with CUDA events reports: the median of the timed executions' event intervals (rec_session.exec_event_ns), and
 * the minimum over the flushed executions (estimate and timed) of the kernel duration and of the event interval
 * (Inductor keeps that minimum). NaN where a run has none. */
/* Without force an existing path is never replaced, even one made while this runs (tc_atomic_commit_force). */
int rec_session_write_tsv(const struct rec_session *r, const char *path, int force);

/* Write r as a trace (complete or absent: a temporary renamed into place); meta's device fields and protocol
 * come from the caller. */
int rec_session_write(const struct rec_session *r, const struct trace_meta *meta, const char *path, int force);

#endif
