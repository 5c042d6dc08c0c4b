/* collect.h — one collection by this process: it forks the compile workers and the benchmarking child, writes
 * the trace (every run durable as soon as it ends) and runs the event loop between them; the progress it shows
 * and the pairs it runs may belong to a larger collection split over MPI ranks (ranks.h, cmd_collect.c).
 * This process never touches CUDA. */
#ifndef COLLECT_COLLECT_H
#define COLLECT_COLLECT_H

#include "options.h"

struct bench_device;

struct collect_share {
    const char *path;         /* the trace to write: the output, or this rank's shard */
    const unsigned char *own; /* n_inputs x n_configs, 1 = this process runs the pair; NULL = every pair */
    int device;               /* CUDA device ordinal */
    long jobs;                /* compile workers */
    int fresh_if_missing;     /* --resume of a path that does not exist starts it (a rank that died early) */
    int summary;              /* print the summary at the end */
    const char *label;        /* "" or e.g. "rank 1: ", before this process's messages */
    /* Called exactly once on every path of collect_run: when the device is known (ok 1) or at the first failure
     * before that (ok 0). A non-zero return stops the collection (another rank failed or has another GPU).
     * NULL: no call. */
    int (*sync)(void *ctx, const struct bench_device *dev, int ok);
    /* Called on each turn of the loop with this process's counts of this invocation; sets the counts the
     * progress line shows (on rank 0: all ranks'). NULL: this process's. */
    void (*tick)(void *ctx, long finished, long total, long *show_finished, long *show_total);
    void *ctx;
};

/* Run the collection. Returns 0, 1 (failure or interrupted: the trace keeps what was measured) or 2 (refused
 * before any GPU work: the path exists without --resume/--force, or is not a trace of these options). */
int collect_run(const struct collect_opts *o, const struct collect_share *sh);
/* How many SIGINT/SIGTERM arrived since collect_run installed its handler. */
int collect_interrupted(void);

#endif
