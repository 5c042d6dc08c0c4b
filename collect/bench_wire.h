/* bench_wire.h — the messages between the coordinator (bench.c) and the benchmarking child (bench_child.c) over
 * their pipes (framing: ipc.h). Both ends are the same executable, so the structs travel as raw bytes. Private to
 * the bench_*.c files. */
#ifndef COLLECT_BENCH_WIRE_H
#define COLLECT_BENCH_WIRE_H

#include <stdint.h>

#include "space.h"
#include "trace.h"

enum { MSG_HELLO = 1, MSG_ERROR, MSG_INPUT, MSG_INPUT_DONE, MSG_RUN, MSG_RUN_DONE, MSG_QUIT };

struct input_wire {
    int32_t input;
    int32_t pad;
    int64_t dims[SPACE_N_DIMS];
};
struct input_done_wire {
    double ref_ms;
    double ready_ms; /* when the child finished its start-up (CLOCK_MONOTONIC) */
    int32_t ok;
    int32_t kernels_per_ref;
    char msg[256];
};
struct run_wire {
    int32_t config;
    int32_t path; /* enum space_path */
    int32_t params[SP_N_PARAMS];
    uint64_t cubin_len;
};
struct run_done_wire {
    struct trace_run run;
    double load_ms;
    int32_t fatal;
    int32_t pad;
    char msg[256];
    uint64_t n_exec;
};

#endif
