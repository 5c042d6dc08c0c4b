/* fuzz_spool.c — libFuzzer harness for `tunecost record --from-spool`: the input is written as the one spool
 * file of a folder, read by the spool reader (record/spool_read.c) and, when it reads, reconstructed into a
 * trace's tables (record/reconstruct*.c, labels split into NAME=VALUE pairs) and given a --flops expression.
 * Contract: no crash, no sanitizer report, no huge allocation (a damaged record is a one-line error naming the
 * file), the stream sorted by start time with every name set, every run pointing at an existing input and
 * configuration. Seeds: tests/fuzz/corpus/fuzz_spool (valid files and the reproducers of damaged name ids,
 * shared-memory overflow and label parts without '='). Build and run: tests/fuzz/build.sh, run.sh. */
#include "record.h"
#include "tc_err.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHECK(cond)                                                                                            \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            fprintf(stderr, "fuzz_spool: contract broken: %s (line %d)\n", #cond, __LINE__);                    \
            abort();                                                                                           \
        }                                                                                                      \
    } while (0)

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    /* an allocation past 256 MiB is a bug here (the inputs are at most a few KiB): report it, do not return NULL */
    return "malloc_limit_mb=256:allocator_may_return_null=0";
}

static char g_dir[256], g_file[300];

static void cleanup(void)
{
    unlink(g_file);
    rmdir(g_dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (g_dir[0] == '\0') {
        snprintf(g_dir, sizeof g_dir, "%s/tc-fuzz-spool.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        CHECK(mkdtemp(g_dir) != NULL);
        snprintf(g_file, sizeof g_file, "%s/1.spool", g_dir);
        atexit(cleanup);
    }
    FILE *fp = fopen(g_file, "wb");
    CHECK(fp != NULL);
    CHECK(fwrite(data, 1, size, fp) == size);
    CHECK(fclose(fp) == 0);
    struct rec_stream *s = rec_spool_read(g_dir);
    if (s == NULL) {
        const char *m = tc_errmsg();
        CHECK(m[0] != '\0' && strchr(m, '\n') == NULL);
        return 0;
    }
    for (size_t i = 0; i < s->n; i++) {
        CHECK(s->ev[i].name != NULL);
        CHECK(i == 0 || s->ev[i - 1].start_ns <= s->ev[i].start_ns);
    }
    struct rec_session *r = rec_reconstruct(s, NULL);
    if (r != NULL) {
        for (size_t i = 0; i < r->n_runs; i++) {
            CHECK(r->runs[i].input >= 0 && r->runs[i].input < r->n_inputs);
            CHECK(r->runs[i].config >= 0 && r->runs[i].config < r->n_configs);
        }
        (void)rec_session_set_flops(r, "2*M*N*K");
        rec_session_free(r);
    } else {
        CHECK(tc_errmsg()[0] != '\0');
    }
    rec_stream_free(s);
    return 0;
}
