/* fuzz_trace.c — libFuzzer harness for trace_open(): opening and validating an arbitrary file as a trace.
 * Each input is written to a file and opened. trace_open must either fail with a one-line message naming the
 * file, or succeed with a trace whose every accessor stays in bounds: the harness then reads every value
 * (ASan flags any read outside the loaded arrays) and checks the invariants the validator promises in
 * trace.h (run ranges inside /exec_ns, indices inside /configs and /inputs, valid runs with positive timed
 * executions). Build and run: tests/fuzz/build.sh, tests/fuzz/run.sh (docs/reliability.md). */
#include "tc_err.h"
#include "trace.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(cond)                                                                                            \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            fprintf(stderr, "fuzz_trace: contract broken: %s (line %d)\n", #cond, __LINE__);                    \
            abort();                                                                                           \
        }                                                                                                      \
    } while (0)

static char path[256];

/* Corrupt metadata makes libhdf5 ask malloc for absurd sizes (petabytes). A normal build gets NULL there and
 * HDF5 fails cleanly; ASan would instead abort with allocation-size-too-big. Make ASan behave like libc.
 * Leak checking is off: libhdf5 1.10 leaks small blocks on some error paths of corrupt object headers, and its
 * frames carry no frame pointers, so LSan cannot tell those from ours. Leaks of trace/ are checked instead by
 * the corpus under ASan and valgrind (docs/reliability.md). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1:detect_leaks=0";
}

static void walk(const struct trace *t)
{
    volatile uint64_t sink = 0;
    const struct trace_meta *m = trace_get_meta(t);
    int np = trace_n_params(t), nc = trace_n_configs(t), nd = trace_n_dims(t), ni = trace_n_inputs(t);
    size_t nr = trace_n_runs(t), ne = trace_n_exec(t);

    CHECK(m != NULL);
    CHECK(memchr(m->device_name, '\0', sizeof m->device_name) != NULL);
    CHECK(memchr(m->kernel, '\0', sizeof m->kernel) != NULL);
    CHECK(np >= 0 && nc >= 0 && nd >= 0 && ni >= 0);
    sink += strlen(trace_path(t));
    for (int p = 0; p < np; p++)
        sink += strlen(trace_param_name(t, p));
    for (int d = 0; d < nd; d++)
        sink += strlen(trace_dim_name(t, d));
    for (int c = 0; c < nc; c++) {
        const int32_t *pr = trace_params(t, c);
        for (int p = 0; p < np; p++)
            sink += (uint64_t)pr[p];
        sink += (uint64_t)trace_config(t, c)->status;
        sink += strlen(trace_compile_log(t, c));
    }
    for (int i = 0; i < ni; i++) {
        const int64_t *dm = trace_dims(t, i);
        for (int d = 0; d < nd; d++)
            sink += (uint64_t)dm[d];
        sink += trace_input(t, i)->flops > 0.0; /* flops may be NaN: read it, do not convert it */
        CHECK(trace_find_input(t, dm) >= 0);
    }
    for (int w = 0; w < trace_n_compile_warmup(t); w++)
        sink += trace_compile_warmup(t)[w] > 0.0;
    for (size_t r = 0; r < nr; r++) {
        const struct trace_run *run = trace_run(t, r);
        int64_t n = (int64_t)run->n_estimate + run->n_warmup + run->n_timed;
        CHECK(run->input >= 0 && run->input < ni);
        CHECK(run->config >= 0 && run->config < nc);
        CHECK(run->n_estimate >= 0 && run->n_warmup >= 0 && run->n_timed >= 0);
        CHECK(run->exec_offset >= 0 && (uint64_t)run->exec_offset + (uint64_t)n <= ne);
        const uint64_t *all = trace_run_exec(t, r);
        const uint64_t *timed = trace_run_timed(t, r);
        for (int64_t k = 0; k < n; k++)
            sink += all[k];
        if (trace_run_valid(t, r)) {
            CHECK(run->status == TRACE_OK && run->n_timed > 0);
            for (int k = 0; k < run->n_timed; k++)
                CHECK(timed[k] > 0);
        }
        CHECK(trace_find_run(t, run->input, run->config) >= 0);
    }
    (void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *fp;
    struct trace *t;
    if (path[0] == '\0') {
        const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(path, sizeof path, "%s/fuzz-trace-%ld.h5", dir, (long)getpid());
    }
    fp = fopen(path, "wb");
    if (fp == NULL)
        return 0;
    if (size > 0 && fwrite(data, 1, size, fp) != size) {
        fclose(fp);
        return 0;
    }
    fclose(fp);
    tc_clearerr();
    t = trace_open(path);
    if (t == NULL) {
        const char *msg = tc_errmsg();
        CHECK(msg[0] != '\0');
        CHECK(strchr(msg, '\n') == NULL);
        CHECK(strstr(msg, path) != NULL);
    } else {
        walk(t);
        trace_close(t);
    }
    unlink(path);
    return 0;
}
