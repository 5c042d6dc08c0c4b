/* fuzz_import.c — libFuzzer harness for `tunecost import`'s reader (import/import_scan.c, import_formats.c): the
 * input is written to a file, mapped, its header read as a Kernel Tuner cache (first byte even) or T4 results
 * (odd; the byte is dropped), then every entry walked as import's first pass does. Contract: no crash, no
 * sanitizer report; a refusal is one line; every entry handed over has a key, a known status and positive finite
 * times that fit in a trace (< 2^63 ns). Seeds: tests/fuzz/corpus/fuzz_import (small caches and results,
 * truncated and malformed ones). Build and run: tests/fuzz/build.sh, run.sh. */
#include "import.h"
#include "tc_err.h"
#include "trace.h"

#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CHECK(cond)                                                                                            \
    do {                                                                                                       \
        if (!(cond)) {                                                                                         \
            fprintf(stderr, "fuzz_import: contract broken: %s (line %d)\n", #cond, __LINE__);                   \
            abort();                                                                                           \
        }                                                                                                      \
    } while (0)

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "malloc_limit_mb=512:allocator_may_return_null=1";
}

static char g_path[300];

static void cleanup(void)
{
    unlink(g_path);
}

static int check_entry(struct imp *im, int si, const struct entry *e, void *ctx)
{
    (void)im;
    (void)si;
    (*(size_t *)ctx)++;
    CHECK(memchr(e->key, '\0', sizeof e->key) != NULL);
    CHECK(e->status >= 0);
    for (size_t i = 0; i < e->n_times; i++)
        CHECK(e->times_ms[i] > 0 && isfinite(e->times_ms[i]) && e->times_ms[i] * 1e6 < 9.3e18);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (g_path[0] == '\0') {
        snprintf(g_path, sizeof g_path, "%s/tc-fuzz-import.%ld.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
                 (long)getpid());
        atexit(cleanup);
    }
    int t4 = data[0] & 1;
    FILE *fp = fopen(g_path, "wb");
    CHECK(fp != NULL);
    CHECK(fwrite(data + 1, 1, size - 1, fp) == size - 1);
    CHECK(fclose(fp) == 0);
    struct imp im;
    struct src src;
    memset(&im, 0, sizeof im);
    memset(&src, 0, sizeof src);
    src.path = g_path;
    im.fmt = t4 ? FMT_T4 : FMT_KT;
    im.n_src = 1;
    im.src = &src;
    struct json_tokener *tok = json_tokener_new();
    CHECK(tok != NULL);
    size_t n = 0;
    int rc = imp_map_file(&src);
    if (rc == 0)
        rc = t4 ? imp_read_t4_header(tok, &src) : imp_read_kt_header(tok, &src);
    if (rc == 0) {
        CHECK(src.body < src.len);
        rc = imp_walk(&im, tok, 0, check_entry, &n); /* T4: the first result names the parameters */
    }
    if (rc != 0)
        CHECK(tc_errmsg()[0] != '\0' && strchr(tc_errmsg(), '\n') == NULL);
    if (src.buf != NULL)
        munmap((void *)src.buf, src.len);
    for (int p = 0; p < src.n_params; p++)
        free(src.params[p]);
    json_object_put(src.tune_params);
    free(im.cfgs);
    free(im.hash);
    free(im.times);
    json_tokener_free(tok);
    return 0;
}
