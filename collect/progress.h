/* progress.h — what a collection shows while it runs and when it ends: the live progress line (a terminal) or
 * one log line per step (a pipe), and the summary of a trace (configurations, runs, the best configuration per
 * input against cuBLAS, where the wall time went). Reads the trace; writes stderr (progress) and stdout (summary). */
#ifndef COLLECT_PROGRESS_H
#define COLLECT_PROGRESS_H

#include "trace.h"

#include <stddef.h>

/* "m:ss", "h:mm:ss", or "--:--" when unknown (negative, NaN) or absurd. */
void progress_fmt_dur(double s, char *buf, size_t len);

struct progress {
    double t_start;   /* tc_now_ms() when the loop began */
    double last_draw; /* rate limit of the live line */
    int enabled;      /* 0: nothing is drawn */
};

/* The live line on a terminal, at most every 250 ms unless `force`: "[done/total runs] SHAPE WHAT elapsed eta".
 * The ETA assumes the remaining runs go at the rate of those done. Nothing when stderr is not a terminal. */
void progress_draw(struct progress *p, int force, long done, long total, const char *shape, const char *what);

/* Where the wall time of one invocation went (tc_now_ms values; 0 = never reached). */
struct progress_times {
    double t0, hello_ms, submit_ms, first_compiled_ms, ready_ms, first_run_ms;
    long finished; /* runs this invocation measured */
    int restarts;  /* benchmarking processes restarted after faults */
};

/* The summary of trace t (written to `path`) on stdout; `times` NULL leaves out the wall-time lines. */
void progress_summary(const struct trace *t, const char *path, double warmup_ms, double rep_ms,
                      const struct progress_times *times, double wall_ms);

#endif
