/* test-trace-base.h — the base trace the trace library's tests start from (test-trace*.c): 3 configurations
 * (configuration 2 out of resources in every run of it), 2 inputs, 20 runs of 8 executions (1 estimate, 2 warm-up,
 * 5 timed), with every field set, and check_base, which checks all of it after a read. Tests edit or cut this file
 * to make malformed ones. */
#ifndef TESTS_TEST_TRACE_BASE_H
#define TESTS_TEST_TRACE_BASE_H

#include "trace.h"

#include <stddef.h>
#include <stdint.h>

#define BASE_RUNS 20
#define BASE_EXEC 8

extern const char *const pnames[6];
extern const char *const dnames[3];
extern const int32_t base_params[3][6];
extern const int64_t base_dims[2][3];

/* The base file's settings, configuration c, input i, run r and the j-th execution of run r (in ns). */
struct trace_meta base_meta(void);
struct trace_config base_config(int c);
struct trace_input base_input(int i);
uint64_t base_value(size_t r, size_t j);
struct trace_run base_run(int r);
/* Create a trace with the base configs and inputs and the first n_runs base runs; returns it open. */
struct trace *write_base_open(const char *path, int n_runs);
/* The whole base file at path: every run, a compile log for configuration 2, the compile warm-up times; closed. */
void write_base(const char *path);
/* Check every field of t against the base file with its first n_runs runs. */
void check_base(const struct trace *t, size_t n_runs);

#endif
