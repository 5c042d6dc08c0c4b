/* test-common.h — what the check-based tests share: a scratch folder per test case, running a suite, and tiny
 * hand-built traces. Link test_common_lib (tests/meson.build); the trace fixtures (tt_meta, tt_trace_*, in
 * test-common-trace.c) also need trace_lib. */
#ifndef TESTS_TEST_COMMON_H
#define TESTS_TEST_COMMON_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* ---- scratch folder ---- */
/* Create $TMPDIR/<prefix>.XXXXXX (/tmp without TMPDIR) as this test case's folder (fails the test if it cannot). */
void tt_tmpdir_make(const char *prefix);
/* The folder, and a file in it: tt_path's last four results stay valid. */
const char *tt_tmpdir(void);
const char *tt_path(const char *name);
/* Delete the folder and all it holds. */
void tt_tmpdir_remove(void);

/* ---- running ---- */
/* Run every test of s (check's normal output) and free it: the process's exit status, 0 if all passed, else 1. */
int tt_run(Suite *s);

/* ---- tiny traces ---- */
/* The paper's six parameter names (BLOCK_M .. NUM_WARPS) and three dimension names (M, N, K). */
extern const char *const tt_param_names[6];
extern const char *const tt_dim_names[3];
/* Settings of a plausible H200 collection written by `generator`: sm_90, 132 SMs, 60 MiB L2, driver and CUDA
 * 13.0, CUPTI timer, fixed-time protocol, warm-up 25 ms, repetition rep_ms, no flush, 16 compile jobs, seed 5. */
struct trace_meta tt_meta(const char *generator, double rep_ms);
/* Create path with tt_param_names / tt_dim_names, n_configs configurations (params: n_configs x 6; each status ok,
 * compile_ms 100 + index, load_ms 0.1, 128 registers, 1000 bytes of shared memory) and n_inputs inputs (dims:
 * n_inputs x 3; flops 2MNK, ref_ms 0.5). Returns the trace open for tt_trace_run (fails the test on error). */
struct trace *tt_trace_create(const char *path, const struct trace_meta *m, int n_configs, const int32_t *params,
                              int n_inputs, const int64_t *dims);
/* Append a status-ok run of (input, config): n_warmup warm-up then n_timed timed executions, exec_ns in that
 * order; wall_ms = their sum + 1 ms, no estimate (fails the test on error). */
void tt_trace_run(struct trace *t, int input, int config, int n_warmup, int n_timed, const uint64_t *exec_ns);

#endif
