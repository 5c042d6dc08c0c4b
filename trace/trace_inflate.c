/* trace_inflate.c — the fast path for reading /exec_ns: compressed chunks read raw, inflated and unshuffled by
 * several threads (with zlib; without it the reader uses H5Dread alone). */
#include "trace_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef TC_HAVE_ZLIB
#include "tc_threads.h"

#include <zlib.h>

struct chunk_job {
    const unsigned char *src; /* the stored (filtered) chunk; NULL: never written, reads as `fill` */
    uint64_t fill;            /* the dataset's fill value */
    size_t src_len;
    uint32_t skipped;         /* HDF5 filter mask: bit 0 shuffle, bit 1 deflate skipped for this chunk */
    uint64_t *dst;            /* where the chunk's first value goes */
    size_t n_keep;            /* values to keep (the last chunk extends past the data) */
    int zerr;                 /* 0, or the zlib error */
};

struct chunk_worker {
    struct chunk_job *jobs;
    size_t n_jobs, first, stride, chunk_values;
    int failed; /* could not allocate its buffer */
};

/* Undo HDF5's byte shuffle of 8-byte little-endian values: byte b of value i is src[b * n + i]. Each value is put
 * together from its eight planes and stored once (whatever the host's byte order): reading eight sequential
 * streams and writing one costs a fraction of scattering each plane over the output in eight passes. */
static void unshuffle8(const unsigned char *src, size_t n, uint64_t *dst, size_t keep)
{
    const unsigned char *p0 = src, *p1 = src + n, *p2 = src + 2 * n, *p3 = src + 3 * n, *p4 = src + 4 * n,
                        *p5 = src + 5 * n, *p6 = src + 6 * n, *p7 = src + 7 * n;
    for (size_t i = 0; i < keep; i++)
        dst[i] = (uint64_t)p0[i] | (uint64_t)p1[i] << 8 | (uint64_t)p2[i] << 16 | (uint64_t)p3[i] << 24 |
                 (uint64_t)p4[i] << 32 | (uint64_t)p5[i] << 40 | (uint64_t)p6[i] << 48 | (uint64_t)p7[i] << 56;
}

static void *chunk_worker_run(void *arg)
{
    struct chunk_worker *w = arg;
    size_t bytes = w->chunk_values * 8;
    unsigned char *buf = malloc(bytes);
    if (buf == NULL) {
        w->failed = 1;
        return NULL;
    }
    for (size_t j = w->first; j < w->n_jobs; j += w->stride) {
        struct chunk_job *job = &w->jobs[j];
        const unsigned char *data = job->src;
        if (data == NULL) {
            for (size_t i = 0; i < job->n_keep; i++)
                job->dst[i] = job->fill;
            continue;
        }
        if (!(job->skipped & 2)) {
            uLongf out = (uLongf)bytes;
            int z = uncompress(buf, &out, job->src, (uLong)job->src_len);
            if (z != Z_OK || out != bytes) {
                job->zerr = z != Z_OK ? z : Z_DATA_ERROR;
                continue;
            }
            data = buf;
        } else if (job->src_len != bytes) {
            job->zerr = Z_DATA_ERROR;
            continue;
        }
        if (!(job->skipped & 1))
            unshuffle8(data, w->chunk_values, job->dst, job->n_keep);
        else
            for (size_t i = 0; i < job->n_keep; i++) { /* stored little-endian */
                uint64_t v = 0;
                for (unsigned b = 0; b < 8; b++)
                    v |= (uint64_t)data[i * 8 + b] << (8 * b);
                job->dst[i] = v;
            }
    }
    free(buf);
    return NULL;
}

/* Read /exec_ns[0, end) into t->exec when it is stored as this library writes it (uint64 LE, 1-D chunks, byte
 * shuffle then deflate): HDF5 reads the stored chunks one by one, then up to 16 threads inflate them (zlib still
 * checks every chunk's Adler-32). About 57% of a load was inflate in one thread (perf, 10^7 executions).
 * Returns 1 when done, 0 when the dataset is stored otherwise (the caller uses H5Dread), -1 on error. */
int tr_read_exec_fast(struct trace *t, hsize_t end)
{
    int rc = -1;
    hid_t dcpl = H5I_INVALID_HID, ft = H5I_INVALID_HID;
    hsize_t chunk = 0;
    unsigned flags = 0;
    size_t nelmts = 0;
    unsigned cd[8];
    unsigned char *arena = NULL;
    struct chunk_job *jobs = NULL;
    struct chunk_worker workers[16];
    H5TRY(dcpl = H5Dget_create_plist(t->d_exec), "cannot read the layout of /exec_ns");
    H5TRY(ft = H5Dget_type(t->d_exec), "cannot read the type of /exec_ns");
    nelmts = N_OF(cd);
    if (H5Pget_layout(dcpl) != H5D_CHUNKED || H5Pget_chunk(dcpl, 1, &chunk) != 1 || chunk < 2 ||
        H5Pget_nfilters(dcpl) != 2 || H5Tequal(ft, H5T_STD_U64LE) <= 0 ||
        H5Pget_filter2(dcpl, 0, &flags, &nelmts, cd, 0, NULL, NULL) != H5Z_FILTER_SHUFFLE ||
        (nelmts = N_OF(cd), H5Pget_filter2(dcpl, 1, &flags, &nelmts, cd, 0, NULL, NULL)) != H5Z_FILTER_DEFLATE ||
        chunk > (hsize_t)(SIZE_MAX / 8 / 64)) {
        (void)H5Eclear2(H5E_DEFAULT);
        rc = 0;
        goto out;
    }
    /* TC_TRACE_THREADS: how many threads inflate (default: the online CPUs, at most 16); 0 reads through
     * H5Dread alone (for comparison and as an escape hatch). */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const char *env = getenv("TC_TRACE_THREADS");
    if (env != NULL && env[0] != '\0') {
        char *e = NULL;
        long v = strtol(env, &e, 10);
        if (*e == '\0' && v >= 0 && v <= 1024)
            cpus = v;
        if (cpus == 0) {
            rc = 0;
            goto out;
        }
    }
    uint64_t fill = 0;
    H5D_fill_value_t fill_state = H5D_FILL_VALUE_DEFAULT;
    H5TRY(H5Pfill_value_defined(dcpl, &fill_state), "cannot read the fill value of /exec_ns");
    if (fill_state == H5D_FILL_VALUE_USER_DEFINED)
        H5TRY(H5Pget_fill_value(dcpl, H5T_NATIVE_UINT64, &fill), "cannot read the fill value of /exec_ns");
    size_t n_threads = cpus < 1 ? 1 : cpus > 16 ? 16 : (size_t)cpus;
    size_t batch = n_threads * 8, chunk_bytes = (size_t)chunk * 8, n_chunks = (size_t)((end + chunk - 1) / chunk);
    size_t max_stored = chunk_bytes + chunk_bytes / 500 + 64; /* deflate may grow incompressible data by 0.1% */
    if ((jobs = calloc(batch, sizeof *jobs)) == NULL || (arena = malloc(batch * max_stored)) == NULL)
        FAIL_ENV("out of memory reading /exec_ns");
    for (size_t first = 0; first < n_chunks; first += batch) {
        size_t n_jobs = n_chunks - first < batch ? n_chunks - first : batch, used = 0;
        for (size_t j = 0; j < n_jobs; j++) {
            hsize_t off = (hsize_t)(first + j) * chunk, stored = 0;
            struct chunk_job *job = &jobs[j];
            memset(job, 0, sizeof *job);
            job->dst = t->exec + off;
            job->n_keep = (size_t)(end - off < chunk ? end - off : chunk);
            haddr_t addr = HADDR_UNDEF;
            unsigned mask = 0;
            /* H5Dget_chunk_storage_size fails on a chunk that was never allocated; this call reports it */
            H5TRY(H5Dget_chunk_info_by_coord(t->d_exec, &off, &mask, &addr, &stored),
                  "cannot read /exec_ns (%llu values)", (unsigned long long)end);
            job->fill = fill;
            if (addr == HADDR_UNDEF || stored == 0)
                continue; /* never written: reads as the fill value, as H5Dread gives it */
            if (stored > max_stored)
                FAIL("cannot read /exec_ns (%llu values): the chunk at value %llu is stored in %llu bytes, more "
                     "than it can hold",
                     (unsigned long long)end, (unsigned long long)off, (unsigned long long)stored);
            H5TRY(H5Dread_chunk(t->d_exec, H5P_DEFAULT, &off, &job->skipped, arena + used),
                  "cannot read /exec_ns (%llu values)", (unsigned long long)end);
            job->src = arena + used;
            job->src_len = (size_t)stored;
            used += (size_t)stored;
        }
        size_t n_w = n_threads < n_jobs ? n_threads : n_jobs;
        for (size_t w = 0; w < n_w; w++)
            workers[w] = (struct chunk_worker){.jobs = jobs, .n_jobs = n_jobs, .first = w, .stride = n_w,
                                               .chunk_values = (size_t)chunk};
        tc_run_workers((int)n_w, chunk_worker_run, workers, sizeof *workers);
        for (size_t w = 0; w < n_w; w++)
            if (workers[w].failed)
                FAIL_ENV("out of memory reading /exec_ns");
        for (size_t j = 0; j < n_jobs; j++)
            if (jobs[j].zerr != 0)
                FAIL("cannot read /exec_ns (%llu values): the chunk at value %llu does not inflate (zlib error %d: "
                     "damaged file)",
                     (unsigned long long)end, (unsigned long long)((first + j) * (size_t)chunk), jobs[j].zerr);
    }
    rc = 1;
out:
    free(arena);
    free(jobs);
    tr_close_id(&ft);
    tr_close_id(&dcpl);
    return rc;
}
#else
int tr_read_exec_fast(struct trace *t, hsize_t end)
{
    (void)t;
    (void)end;
    return 0;
}
#endif
