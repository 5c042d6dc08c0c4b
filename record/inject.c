/* inject.c — libtcrecord.so, the CUPTI injection library of `tunecost record`. The CUDA driver loads it into every
 * process of the recorded command (CUDA_INJECTION64_PATH, inherited by child processes) and calls
 * InitializeInjection; NVTX loads it too (NVTX_INJECTION64_PATH) and calls InitializeInjectionNvtx2, which hands
 * NVTX to CUPTI. It appends kernels, memsets, module/library loads, NVTX ranges and markers and the process's
 * start and exit, all on CUPTI's clock, to TC_RECORD_SPOOL/<pid>.spool (record/spool.h). A thread of its own asks
 * CUPTI every second for its buffers whose records are complete (CUPTI's periodic flush returns only full ones),
 * so memory stays bounded and a killed process leaves all but its last second; the forced flush, which also hands
 * over records still incomplete, only at exit. */
#include "spool.h"

#include <cupti.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BUF_BYTES (4u << 20)    /* one CUPTI activity buffer */
#define OUT_BYTES (1u << 16)    /* the spool writer's staging buffer */
#define FLUSH_PERIOD_MS 1000

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_fd = -1;
static unsigned char g_out[OUT_BYTES];
static size_t g_out_n;
static uint64_t g_dropped;
static CUpti_SubscriberHandle g_sub;
static uint64_t g_load_start_ns; /* enter time of the load in progress (loads are rare; one at a time suffices) */
/* the flusher thread: wakes every FLUSH_PERIOD_MS, or at exit */
static pthread_mutex_t g_flush_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_flush_cond;
static pthread_t g_flusher;
static pid_t g_flusher_pid;
static int g_flush_stop;

/* kernel names already written: an open-addressing table of (hash, copy, id) */
struct name_slot {
    uint64_t hash;
    char *text;
    uint32_t id;
};
static struct name_slot *g_names;
static size_t g_names_cap, g_names_n;

static void warn(const char *what)
{
    fprintf(stderr, "tunecost record (pid %d): %s\n", (int)getpid(), what);
}

/* Write the staging buffer to the spool file; on failure stop recording (the program itself goes on). */
static void out_flush(void)
{
    size_t off = 0;
    while (g_fd >= 0 && off < g_out_n) {
        ssize_t w = write(g_fd, g_out + off, g_out_n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            warn("cannot write the spool file; recording stops here");
            close(g_fd);
            g_fd = -1;
            break;
        }
        off += (size_t)w;
    }
    g_out_n = 0;
}

/* Append one record: header, fixed payload, optional NUL-terminated text, padded to 8 bytes. */
static void out_rec(uint16_t type, const void *payload, size_t n, const char *text)
{
    size_t tn = text ? strlen(text) + 1 : 0;
    if (tn > 60000)
        tn = 60000;
    size_t size = (sizeof(struct spool_rec) + n + tn + 7) & ~(size_t)7;
    if (g_fd < 0)
        return;
    if (g_out_n + size > OUT_BYTES)
        out_flush();
    struct spool_rec h = {.type = type, .pad = 0, .size_bytes = (uint32_t)size};
    unsigned char *p = g_out + g_out_n;
    memset(p, 0, size);
    memcpy(p, &h, sizeof h);
    memcpy(p + sizeof h, payload, n);
    if (tn > 0) {
        memcpy(p + sizeof h + n, text, tn - 1);
        p[sizeof h + n + tn - 1] = '\0';
    }
    g_out_n += size;
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The id of kernel name s, writing a SPOOL_NAME record the first time; 0 when memory runs out (name unknown). */
static uint32_t name_id(const char *s)
{
    if (s == NULL)
        return 0;
    if (2 * (g_names_n + 1) > g_names_cap) {
        size_t cap = g_names_cap ? 2 * g_names_cap : 1024;
        struct name_slot *t = calloc(cap, sizeof *t);
        if (t == NULL)
            return 0;
        for (size_t i = 0; i < g_names_cap; i++)
            if (g_names[i].text != NULL) {
                size_t j = g_names[i].hash & (cap - 1);
                while (t[j].text != NULL)
                    j = (j + 1) & (cap - 1);
                t[j] = g_names[i];
            }
        free(g_names);
        g_names = t;
        g_names_cap = cap;
    }
    uint64_t h = fnv1a(s);
    size_t j = h & (g_names_cap - 1);
    while (g_names[j].text != NULL) {
        if (g_names[j].hash == h && strcmp(g_names[j].text, s) == 0)
            return g_names[j].id;
        j = (j + 1) & (g_names_cap - 1);
    }
    char *copy = strdup(s);
    if (copy == NULL)
        return 0;
    g_names[j] = (struct name_slot){.hash = h, .text = copy, .id = (uint32_t)++g_names_n};
    struct spool_name n = {.id = g_names[j].id, .pad = 0};
    out_rec(SPOOL_NAME, &n, sizeof n, s);
    return n.id;
}

static void put_kernel(const CUpti_ActivityKernel10 *k)
{
    struct spool_kernel r = {
        .start_ns = k->start, .end_ns = k->end,
        .grid = {k->gridX, k->gridY, k->gridZ}, .block = {k->blockX, k->blockY, k->blockZ},
        .registers = k->registersPerThread, .static_smem_bytes = k->staticSharedMemory,
        .dynamic_smem_bytes = k->dynamicSharedMemory, .local_bytes_per_thread = k->localMemoryPerThread,
        .device = k->deviceId, .stream = k->streamId, .name_id = name_id(k->name), .pad = 0};
    out_rec(SPOOL_KERNEL, &r, sizeof r, NULL);
}

static void put_record(const CUpti_Activity *rec)
{
    if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
        put_kernel((const CUpti_ActivityKernel10 *)rec);
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
        const CUpti_ActivityMemset4 *m = (const CUpti_ActivityMemset4 *)rec;
        struct spool_memset r = {.start_ns = m->start, .end_ns = m->end, .bytes = m->bytes,
                                 .device = m->deviceId, .stream = m->streamId};
        out_rec(SPOOL_MEMSET, &r, sizeof r, NULL);
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_MARKER) {
        const CUpti_ActivityMarker2 *m = (const CUpti_ActivityMarker2 *)rec;
        struct spool_mark r = {.t_ns = m->timestamp, .id = m->id, .flag = SPOOL_MARK_INSTANT};
        if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START)
            r.flag = SPOOL_MARK_START;
        else if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)
            r.flag = SPOOL_MARK_END;
        out_rec(SPOOL_MARK, &r, sizeof r, m->name ? m->name : "");
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_DEVICE) {
        const CUpti_ActivityDevice5 *d = (const CUpti_ActivityDevice5 *)rec;
        void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        int (*get_version)(int *) = cuda ? (int (*)(int *))dlsym(cuda, "cuDriverGetVersion") : NULL;
        int drv = -1;
        if (get_version == NULL || get_version(&drv) != 0)
            drv = -1;
        struct spool_device r = {.id = (int32_t)d->id,
                                 .cc = (int32_t)(d->computeCapabilityMajor * 10 + d->computeCapabilityMinor),
                                 .sms = (int32_t)d->numMultiprocessors, .driver_version = drv,
                                 .l2_bytes = d->l2CacheSize};
        out_rec(SPOOL_DEVICE, &r, sizeof r, d->name ? d->name : "");
    }
}

static void CUPTIAPI inject_buf_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, BUF_BYTES);
    *size = *buffer ? BUF_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI inject_buf_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    CUpti_Activity *rec = NULL;
    size_t dropped = 0;
    (void)size;
    pthread_mutex_lock(&g_lock);
    while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS)
        put_record(rec);
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
        g_dropped += dropped;
    out_flush();
    pthread_mutex_unlock(&g_lock);
    free(buffer);
}

/* Module and library loads: enter and exit of the driver call, on CUPTI's clock. */
static void CUPTIAPI on_callback(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data)
{
    const CUpti_CallbackData *cb = data;
    uint64_t now = 0;
    (void)user;
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || cuptiGetTimestamp(&now) != CUPTI_SUCCESS)
        return;
    pthread_mutex_lock(&g_lock);
    if (cb->callbackSite == CUPTI_API_ENTER) {
        g_load_start_ns = now;
    } else {
        struct spool_load r = {.start_ns = g_load_start_ns ? g_load_start_ns : now, .end_ns = now,
                               .kind = cbid >= CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData, .pad = 0};
        out_rec(SPOOL_LOAD, &r, sizeof r, NULL);
        g_load_start_ns = 0;
        out_flush();
    }
    pthread_mutex_unlock(&g_lock);
}

static void *flusher(void *arg)
{
    struct timespec next;
    (void)arg;
    pthread_mutex_lock(&g_flush_lock);
    while (!g_flush_stop) {
        clock_gettime(CLOCK_MONOTONIC, &next);
        next.tv_sec += FLUSH_PERIOD_MS / 1000;
        while (!g_flush_stop && pthread_cond_timedwait(&g_flush_cond, &g_flush_lock, &next) == 0)
            ;
        if (g_flush_stop)
            break;
        pthread_mutex_unlock(&g_flush_lock);
        cuptiActivityFlushAll(0); /* complete buffers only: a forced flush hands over unfinished records */
        pthread_mutex_lock(&g_flush_lock);
    }
    pthread_mutex_unlock(&g_flush_lock);
    return NULL;
}

static void start_flusher(void)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&g_flush_cond, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&g_flusher, NULL, flusher, NULL) == 0)
        g_flusher_pid = getpid();
    else
        warn("cannot start the flusher thread; a killed process loses its unflushed records");
}

static void stop_flusher(void)
{
    if (g_flusher_pid != getpid())
        return;
    pthread_mutex_lock(&g_flush_lock);
    g_flush_stop = 1;
    pthread_cond_signal(&g_flush_cond);
    pthread_mutex_unlock(&g_flush_lock);
    pthread_join(g_flusher, NULL);
    g_flusher_pid = 0;
}

static void at_exit(void)
{
    uint64_t now = 0;
    if (g_fd < 0)
        return;
    stop_flusher();
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    cuptiGetTimestamp(&now);
    pthread_mutex_lock(&g_lock);
    struct spool_end e = {.end_ns = now, .dropped_records = g_dropped};
    out_rec(SPOOL_END, &e, sizeof e, NULL);
    out_flush();
    if (g_fd >= 0)
        close(g_fd);
    g_fd = -1;
    pthread_mutex_unlock(&g_lock);
}

/* A child forked without exec shares the parent's CUPTI state and file: it records nothing (CUDA cannot be used
 * there anyway); an exec'd child gets its own spool file from InitializeInjection. */
static void in_forked_child(void)
{
    g_fd = -1;
    g_out_n = 0;
}

static int open_spool(void)
{
    const char *dir = getenv("TC_RECORD_SPOOL");
    char path[4096];
    struct timespec ts;
    if (dir == NULL || dir[0] == '\0')
        return -1;
    snprintf(path, sizeof path, "%s/%d.spool", dir, (int)getpid());
    g_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (g_fd < 0) {
        warn("cannot create the spool file in TC_RECORD_SPOOL; nothing is recorded");
        return -1;
    }
    struct spool_file_header h = {.version = SPOOL_VERSION, .pid = (uint32_t)getpid(), .ppid = (uint32_t)getppid()};
    memcpy(h.magic, SPOOL_MAGIC, 8);
    clock_gettime(CLOCK_REALTIME, &ts);
    cuptiGetTimestamp(&h.start_ns);
    h.realtime_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    if (write(g_fd, &h, sizeof h) != (ssize_t)sizeof h) {
        warn("cannot write the spool file; nothing is recorded");
        close(g_fd);
        g_fd = -1;
        return -1;
    }
    return 0;
}

/* Start recording, once per process, from whichever entry point comes first. Problems are reported on stderr and
 * never stop the program. */
static void setup(void)
{
    static const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMSET,
                                               CUPTI_ACTIVITY_KIND_MARKER, CUPTI_ACTIVITY_KIND_DEVICE};
    static const CUpti_CallbackId loads[] = {
        CUPTI_DRIVER_TRACE_CBID_cuModuleLoad, CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData,
        CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx, CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary,
        CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData, CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile};
    if (open_spool() != 0)
        return;
    pthread_atfork(NULL, NULL, in_forked_child);
    if (cuptiActivityRegisterCallbacks(inject_buf_requested, inject_buf_completed) != CUPTI_SUCCESS) {
        warn("cuptiActivityRegisterCallbacks failed; nothing is recorded");
        return;
    }
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (cuptiActivityEnable(kinds[i]) != CUPTI_SUCCESS)
            warn("a CUPTI activity kind could not be enabled (kernels, memsets, NVTX or device)");
    if (cuptiSubscribe(&g_sub, on_callback, NULL) == CUPTI_SUCCESS) {
        for (size_t i = 0; i < sizeof loads / sizeof loads[0]; i++)
            cuptiEnableCallback(1, g_sub, CUPTI_CB_DOMAIN_DRIVER_API, loads[i]);
    } else {
        warn("cuptiSubscribe failed (another CUPTI client?); module loads are not recorded");
    }
    start_flusher();
    atexit(at_exit);
}

static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* Called by the CUDA driver when it loads this library (CUDA_INJECTION64_PATH). Returns 1 (the driver ignores
 * the value). */
int InitializeInjection(void)
{
    pthread_once(&g_once, setup);
    return 1;
}

/* Called by NVTX (NVTX_INJECTION64_PATH): hand NVTX to CUPTI, whose own entry point does the work, so that NVTX
 * ranges and markers become CUPTI marker records. */
int InitializeInjectionNvtx2(void *get_export_table)
{
    Dl_info info;
    int (*cupti_init)(void *) = NULL;
    pthread_once(&g_once, setup);
    if (dladdr((void *)cuptiActivityEnable, &info) != 0 && info.dli_fname != NULL) {
        void *h = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
        if (h != NULL)
            cupti_init = (int (*)(void *))dlsym(h, "InitializeInjectionNvtx2");
    }
    if (cupti_init == NULL) {
        warn("libcupti's InitializeInjectionNvtx2 was not found; NVTX ranges are not recorded");
        return 0;
    }
    return cupti_init(get_export_table);
}
