/* corpus-open.c — the trace library alone on one file, for the corpus test: trace_open() then every run's
 * executions read back. Prints what it loaded (exit 0) or the library's one-line message (exit 2), like a
 * tunecost command, so tests/test-corpus.sh can tell a library fault from a command's. */
#include "tc_err.h"
#include "trace.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    struct trace *t;
    size_t valid = 0;
    uint64_t sum = 0;
    if (argc != 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(argc == 2 ? stdout : stderr, "usage: corpus-open TRACE\n");
        return argc == 2 ? 0 : 2;
    }
    t = trace_open(argv[1]);
    if (t == NULL) {
        fprintf(stderr, "corpus-open: %s\n", tc_errmsg());
        return 2;
    }
    for (size_t r = 0; r < trace_n_runs(t); r++) {
        const struct trace_run *run = trace_run(t, r);
        const uint64_t *e = trace_run_exec(t, r);
        for (int64_t k = 0; k < (int64_t)run->n_estimate + run->n_warmup + run->n_timed; k++)
            sum += e[k];
        valid += trace_run_valid(t, r) != 0;
    }
    printf("%s: %d configs, %d inputs, %zu runs (%zu valid), %zu executions, sum %llu ns\n", argv[1],
           trace_n_configs(t), trace_n_inputs(t), trace_n_runs(t), valid, trace_n_exec(t), (unsigned long long)sum);
    if (trace_close(t) != 0) {
        fprintf(stderr, "corpus-open: %s\n", tc_errmsg());
        return 1;
    }
    return 0;
}
