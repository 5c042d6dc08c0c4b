/* test-tables-fixture.h — small hand-built traces for the table and report tests, written through the trace
 * library. Every number of the "small" trace is listed in test-tables-fixture.c, where the tests' expected
 * values are worked out by hand. */
#ifndef TEST_TABLES_FIXTURE_H
#define TEST_TABLES_FIXTURE_H

#include <stdint.h>

/* The small fixed-time trace: 3 configurations (one out of resources), 2 inputs, 4 runs (one launch error).
 * variant 0 is the reference; variant 1 is "the same collection without the L2 flush": config 0 faster on input
 * 0 (so the best configuration changes there), every wall time halved, no flush time. Returns 0 or -1. */
int fixture_small(const char *path, int64_t flush_bytes, int variant);
/* A triton-protocol trace with one run whose estimate is the mean of its two (cold) estimate executions. */
int fixture_triton(const char *path);
/* A larger pseudo-random fixed-time trace for the report: 4 inputs (4096x256x4096 among them), 24
 * configurations (one fails to compile), timed executions up to 100 ms (at most 4000) per run, deterministic. */
int fixture_report(const char *path);
/* The same trace with an isolated (1-worker) compile time for every configuration, the failing one included: every
 * compile cost recorded (the report's costs.tsv). */
int fixture_report_costs(const char *path);
/* The paper's full shape, synthetic: 64 inputs (M, N, K in 256, 512, 1024, 4096), 100 configurations (a third out
 * of resources), timed executions up to 100 ms (at most max_timed per run); for timing the report at full size. */
int fixture_full(const char *path, int max_timed);

#endif
