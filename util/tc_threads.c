/* tc_threads.c — n workers, worker 0 on the calling thread (see tc_threads.h). */
#include "tc_threads.h"

#include <pthread.h>
#include <stdlib.h>

void tc_run_workers(int n, void *(*fn)(void *), void *args, size_t arg_size)
{
    pthread_t *tids = n > 1 ? malloc((size_t)n * sizeof *tids) : NULL;
    unsigned char *started = n > 1 ? calloc((size_t)n, 1) : NULL;
    char *base = args;
    if (tids == NULL || started == NULL) { /* no memory for the thread table: every worker on this thread */
        free(tids);
        free(started);
        tids = NULL;
        started = NULL;
    }
    for (int k = 1; k < n && started != NULL; k++)
        started[k] = pthread_create(&tids[k], NULL, fn, base + (size_t)k * arg_size) == 0;
    if (n > 0)
        fn(base);
    for (int k = 1; k < n; k++)
        if (started == NULL || !started[k])
            fn(base + (size_t)k * arg_size);
    for (int k = 1; k < n && started != NULL; k++)
        if (started[k])
            pthread_join(tids[k], NULL);
    free(tids);
    free(started);
}
