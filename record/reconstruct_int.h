/* reconstruct_int.h — private to reconstruct.c (candidates from the stream) and reconstruct_table.c (candidates
 * into the trace's tables): the builder both fill. */
#ifndef RECORD_RECONSTRUCT_INT_H
#define RECORD_RECONSTRUCT_INT_H

#include "record.h"

#include <regex.h>

/* The kernels of one call named in an unlabelled configuration's KERNEL (a call may launch more: they are timed,
 * not named). */
#define REC_CALL_MAX 8

/* One candidate's benchmark as found in the stream. */
struct rec_unit {
    uint32_t pid;
    uint64_t start_ns, end_ns;
    const char *kernel, *key, *config;   /* labelled: from the range's label; unlabelled: kernel only */
    const char *failure;                 /* the "tc:failed ..." marker's text, or NULL */
    size_t n_loads;
    uint64_t first_load_ns, load_end_ns;
    double load_ms, compile_ms, wall_ms, flush_ms, estimate_ms;
    const struct rec_event *first_kernel;
    const struct rec_event *call[REC_CALL_MAX]; /* the kernels of its first call (the first REC_CALL_MAX) */
    size_t n_call;
    size_t exec_first, n_exec, n_estimate, n_warmup, n_timed;
    int classified;                      /* its launches followed do_bench's pattern */
};

/* A configuration or an input while they are collected: its canonical label and its name=value pairs. */
struct rec_item {
    char *label;
    int n_kv;
    char **k, **v;
    struct trace_config c;               /* configurations only */
    const struct rec_event *binary;      /* unlabelled configurations: the binary */
};

struct rec_list {
    struct rec_item *it;
    int n, cap;
};

/* Flushes in a row, with no execution between, that end the estimate of a benchmark without warm-up executions:
 * Inductor's benchmark_gpu clears the L2 memory_warmup_iters (100) times before the timed calls. Two in a row are
 * no such boundary: a flush and a tuner's pre-hook that zeroes an output (also a fill kernel). */
#define REC_MEMORY_WARMUP_FLUSHES 3

/* A span of one process's activity on the session's clock, by category (reconstruct_split.c). */
enum { REC_SPAN_BENCH, REC_SPAN_LOAD, REC_SPAN_COMPILE, REC_SPAN_PHASE /* + the phase's index */ };
struct rec_span {
    uint32_t pid;
    int cat;
    uint64_t t0_ns, t1_ns;
};
struct rec_spans {
    struct rec_span *v;
    size_t n, cap;
};

struct rec_builder {
    struct rec_spans spans;              /* the candidates' compile, load and benchmark spans (reconstruct.c) */
    regex_t flush_re;
    int re_ok;
    uint64_t *exec;
    uint64_t *exec_event;                /* per execution: end - end of the flush just before it; 0 unflushed */
    size_t n_exec, cap_exec;
    struct rec_list configs, inputs;
    struct trace_run *runs;
    size_t n_runs, cap_runs;
    char kernel[64];
    int64_t flush_bytes;                 /* 0 until a tc:flush_bytes marker is seen */
    int64_t memset_flush_bytes;          /* the largest memset that was a flush of a run; 0 none */
    /* unlabelled decisions: the binaries benchmarked in the current one */
    const struct rec_event **seen;
    size_t n_seen, cap_seen;
    int decision;
    char **strs;                         /* owned strings */
    size_t n_strs;
    struct rec_summary sum;
};

int rec_builder_init(struct rec_builder *b, const char *flush_regex);
void rec_builder_free(struct rec_builder *b);
/* Builds the session (the builder keeps nothing the session needs). NULL with tc_errmsg() on no memory. */
struct rec_session *rec_builder_finish(struct rec_builder *b, int labelled);
int rec_push_exec(struct rec_builder *b, uint64_t exec_ns, uint64_t event_ns);
char *rec_strndup(struct rec_builder *b, const char *s, size_t n);
/* Append u's run, finding or adding its input and configuration. */
int rec_add_unit(struct rec_builder *b, const struct rec_unit *u);
int rec_classify(struct rec_builder *b, const struct rec_stream *s, const size_t *idx, size_t n, struct rec_unit *u);

/* ---- reconstruct_split.c ---- */
/* Add a span [t0, t1) (nothing when empty). Returns 0, or -1 on out of memory. */
int rec_span_add(struct rec_spans *sp, uint32_t pid, int cat, uint64_t t0_ns, uint64_t t1_ns);
/* Add the stream's closed "tc:phase NAME" ranges as spans, naming the phases in sum (the first REC_MAX_PHASES
 * names; later ones are left out). Then split: sum->wall, overlap_ms, proc[] from every span. Returns 0 or -1. */
int rec_split_session(struct rec_spans *sp, const struct rec_stream *s, struct rec_summary *sum);

#endif
