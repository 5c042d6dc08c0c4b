/* tc_threads.h — the one way the tree shares work over threads: n workers, worker 0 on the calling thread, the
 * others on threads of their own, then join. */
#ifndef TC_THREADS_H
#define TC_THREADS_H

#include <stddef.h>

/* Run fn(args + k * arg_size) for every k in [0, n): worker 0 on the calling thread, workers 1..n-1 on threads
 * started here; returns when all have finished. A worker whose thread cannot be started runs on the calling
 * thread after worker 0, so every worker runs exactly once whatever the system allows: a fixed share per worker
 * is still done, and with one shared argument (arg_size 0) from which workers take work, those run late find none
 * left. n < 1 runs nothing. fn's return value is ignored. */
void tc_run_workers(int n, void *(*fn)(void *), void *args, size_t arg_size);

#endif
