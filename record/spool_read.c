/* spool_read.c — read the spool files of a recorded session (record/spool.h) into one activity stream: kernel
 * names resolved, NVTX range starts and ends paired into ranges, everything sorted by start time. */
#include "record.h"
#include "spool.h"
#include "tc_err.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_REC_BYTES (1u << 20)

/* What one file's reading needs besides the stream: its kernel names by id and its open ranges. */
struct file_ctx {
    const char *path;
    uint32_t pid;
    const char **names;      /* by id */
    size_t n_names;
    size_t max_names;        /* ids are numbered from 1, one per SPOOL_NAME record: none can exceed the records
                                the file has room for (a larger one is damage, not a reason to allocate) */
    struct rec_event *open;  /* range starts not yet ended, with the marker id in registers */
    size_t n_open, cap_open;
};

static const char *keep_string(struct rec_stream *s, const char *text)
{
    if (s->n_strings % 256 == 0) {
        char **ns = realloc(s->strings, (s->n_strings + 256) * sizeof *ns);
        if (ns == NULL)
            return NULL;
        s->strings = ns;
    }
    char *c = strdup(text);
    if (c == NULL)
        return NULL;
    s->strings[s->n_strings++] = c;
    return c;
}

static struct rec_event *push_event(struct rec_stream *s, size_t *cap)
{
    if (s->n == *cap) {
        size_t nc = *cap ? 2 * *cap : 4096;
        struct rec_event *ne = realloc(s->ev, nc * sizeof *ne);
        if (ne == NULL)
            return NULL;
        s->ev = ne;
        *cap = nc;
    }
    struct rec_event *e = &s->ev[s->n++];
    memset(e, 0, sizeof *e);
    e->name = "";
    return e;
}

static int add_name(struct rec_stream *s, struct file_ctx *f, const struct spool_name *n, const char *text)
{
    if ((uint64_t)n->id >= f->max_names)
        return tc_seterr("%s: damaged name record (id %u; the file has room for %zu names)", f->path, n->id,
                         f->max_names > 0 ? f->max_names - 1 : 0);
    if ((size_t)n->id >= f->n_names) {
        size_t nn = (size_t)n->id + 64; /* in size_t: no wrap; bounded by max_names */
        if (nn > f->max_names)
            nn = f->max_names;
        const char **t = realloc(f->names, nn * sizeof *t);
        if (t == NULL)
            return tc_seterr_env("%s: out of memory", f->path);
        for (size_t i = f->n_names; i < nn; i++)
            t[i] = "";
        f->names = t;
        f->n_names = nn;
    }
    f->names[n->id] = keep_string(s, text);
    return f->names[n->id] ? 0 : tc_seterr_env("%s: out of memory", f->path);
}

/* An NVTX marker: a start waits for its end; an end closes the matching start into a REC_RANGE. */
static int add_mark(struct rec_stream *s, size_t *cap, struct file_ctx *f, const struct spool_mark *m,
                    const char *text)
{
    if (m->flag == SPOOL_MARK_END) {
        for (size_t i = f->n_open; i-- > 0;)
            if ((uint32_t)f->open[i].registers == m->id) {
                struct rec_event *e = push_event(s, cap);
                if (e == NULL)
                    return tc_seterr_env("%s: out of memory", f->path);
                *e = f->open[i];
                e->registers = 0;
                e->end_ns = m->t_ns;
                f->open[i] = f->open[--f->n_open];
                return 0;
            }
        return 0; /* the end of a range that started before recording */
    }
    struct rec_event r = {.kind = m->flag == SPOOL_MARK_START ? REC_RANGE : REC_MARK, .pid = f->pid,
                          .start_ns = m->t_ns, .end_ns = m->flag == SPOOL_MARK_START ? REC_OPEN : m->t_ns,
                          .registers = (int32_t)m->id, .name = keep_string(s, text)};
    if (r.name == NULL)
        return tc_seterr_env("%s: out of memory", f->path);
    if (m->flag == SPOOL_MARK_INSTANT) {
        struct rec_event *e = push_event(s, cap);
        if (e == NULL)
            return tc_seterr_env("%s: out of memory", f->path);
        *e = r;
        e->registers = 0;
        return 0;
    }
    if (f->n_open == f->cap_open) {
        size_t nc = f->cap_open ? 2 * f->cap_open : 64;
        struct rec_event *no = realloc(f->open, nc * sizeof *no);
        if (no == NULL)
            return tc_seterr_env("%s: out of memory", f->path);
        f->open = no;
        f->cap_open = nc;
    }
    f->open[f->n_open++] = r;
    return 0;
}

static int add_gpu(struct rec_stream *s, size_t *cap, struct file_ctx *f, int type, const void *p)
{
    if (type != SPOOL_LOAD) { /* both GPU records start with start_ns, end_ns */
        const struct spool_memset *g = p;
        if (g->start_ns == 0 || g->end_ns < g->start_ns) {
            s->n_incomplete++;
            return 0;
        }
    }
    struct rec_event *e = push_event(s, cap);
    if (e == NULL)
        return tc_seterr_env("%s: out of memory", f->path);
    e->pid = f->pid;
    if (type == SPOOL_KERNEL) {
        const struct spool_kernel *k = p;
        e->kind = REC_KERNEL;
        e->start_ns = k->start_ns;
        e->end_ns = k->end_ns;
        memcpy(e->grid, k->grid, sizeof e->grid);
        memcpy(e->block, k->block, sizeof e->block);
        e->registers = k->registers;
        int64_t smem = (int64_t)k->static_smem_bytes + (int64_t)k->dynamic_smem_bytes; /* no int32 overflow */
        if (k->static_smem_bytes < 0 || k->dynamic_smem_bytes < 0 || smem > INT32_MAX)
            return tc_seterr("%s: damaged kernel record (shared memory %d + %d bytes)", f->path,
                             k->static_smem_bytes, k->dynamic_smem_bytes);
        e->smem_bytes = (int32_t)smem;
        e->name = k->name_id < f->n_names ? f->names[k->name_id] : "";
    } else if (type == SPOOL_MEMSET) {
        const struct spool_memset *m = p;
        e->kind = REC_MEMSET;
        e->start_ns = m->start_ns;
        e->end_ns = m->end_ns;
        e->bytes = m->bytes;
    } else {
        const struct spool_load *l = p;
        e->kind = REC_LOAD;
        e->start_ns = l->start_ns;
        e->end_ns = l->end_ns;
        e->name = l->kind ? "library" : "module";
    }
    return 0;
}

static size_t payload_bytes(int type)
{
    switch (type) {
    case SPOOL_KERNEL: return sizeof(struct spool_kernel);
    case SPOOL_MEMSET: return sizeof(struct spool_memset);
    case SPOOL_LOAD: return sizeof(struct spool_load);
    case SPOOL_MARK: return sizeof(struct spool_mark);
    case SPOOL_NAME: return sizeof(struct spool_name);
    case SPOOL_DEVICE: return sizeof(struct spool_device);
    case SPOOL_END: return sizeof(struct spool_end);
    default: return 0;
    }
}

/* One record's payload (fixed part p, NUL-terminated text after it). */
static int add_record(struct rec_stream *s, size_t *cap, struct file_ctx *f, struct rec_process *pr, int type,
                      const unsigned char *p)
{
    const char *text = (const char *)p + payload_bytes(type);
    switch (type) {
    case SPOOL_KERNEL:
    case SPOOL_MEMSET:
    case SPOOL_LOAD: return add_gpu(s, cap, f, type, p);
    case SPOOL_MARK: return add_mark(s, cap, f, (const struct spool_mark *)p, text);
    case SPOOL_NAME: return add_name(s, f, (const struct spool_name *)p, text);
    case SPOOL_DEVICE: {
        const struct spool_device *d = (const struct spool_device *)p;
        if (s->device_name[0] == '\0') {
            snprintf(s->device_name, sizeof s->device_name, "%s", text);
            s->device_cc = d->cc;
            s->device_sms = d->sms;
            s->driver_version = d->driver_version;
            s->device_l2_bytes = d->l2_bytes;
        }
        return 0;
    }
    case SPOOL_END: {
        const struct spool_end *e = (const struct spool_end *)p;
        pr->end_ns = e->end_ns;
        pr->dropped = e->dropped_records;
        return 0;
    }
    default: return 0; /* a record type of a later version: skipped */
    }
}

/* Read the records of an open spool file after its header; a record cut short ends the file. */
static int read_records(struct rec_stream *s, size_t *cap, struct file_ctx *f, struct rec_process *pr, FILE *fp)
{
    unsigned char *buf = malloc(MAX_REC_BYTES);
    struct spool_rec h;
    int rc = -1;
    if (buf == NULL)
        return tc_seterr_env("%s: out of memory", f->path);
    while (fread(&h, sizeof h, 1, fp) == 1) {
        size_t n = h.size_bytes >= sizeof h ? h.size_bytes - sizeof h : 0;
        if (h.size_bytes < sizeof h || n >= MAX_REC_BYTES || n < payload_bytes(h.type)) {
            tc_seterr("%s: damaged record (type %u, %u bytes)", f->path, h.type, h.size_bytes);
            goto out;
        }
        if (fread(buf, 1, n, fp) != n)
            break; /* cut short by a killed process */
        buf[n] = '\0';
        if (add_record(s, cap, f, pr, h.type, buf) != 0)
            goto out;
    }
    for (size_t i = 0; i < f->n_open; i++) { /* never popped: kept as open ranges */
        struct rec_event *e = push_event(s, cap);
        if (e == NULL) {
            tc_seterr_env("%s: out of memory", f->path);
            goto out;
        }
        *e = f->open[i];
        e->registers = 0;
    }
    rc = 0;
out:
    free(buf);
    return rc;
}

static int read_file(struct rec_stream *s, size_t *cap, const char *path)
{
    struct spool_file_header h;
    struct file_ctx f = {.path = path};
    int rc = -1;
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return tc_seterr("%s: cannot open: %s", path, strerror(errno));
    if (fread(&h, sizeof h, 1, fp) != 1 || memcmp(h.magic, SPOOL_MAGIC, 8) != 0) {
        tc_seterr("%s: not a tunecost spool file (expected the header %s)", path, SPOOL_MAGIC);
        goto out;
    }
    if (h.version != SPOOL_VERSION) {
        tc_seterr("%s: spool version %u, this tunecost reads %u", path, h.version, SPOOL_VERSION);
        goto out;
    }
    struct rec_process *np = realloc(s->proc, (s->n_proc + 1) * sizeof *np);
    if (np == NULL) {
        tc_seterr_env("%s: out of memory", path);
        goto out;
    }
    s->proc = np;
    struct rec_process *pr = &s->proc[s->n_proc++];
    *pr = (struct rec_process){.pid = h.pid, .ppid = h.ppid, .start_ns = h.start_ns};
    f.pid = h.pid;
    struct stat st;
    if (fstat(fileno(fp), &st) != 0) {
        tc_seterr("%s: cannot read: %s", path, strerror(errno));
        goto out;
    }
    /* a name record takes at least a header, its id and a NUL (rounded to 8): 24 bytes; ids start at 1 */
    f.max_names = (size_t)(st.st_size > 0 ? (uint64_t)st.st_size / 16 + 1 : 1);
    rc = read_records(s, cap, &f, pr, fp);
out:
    free(f.names);
    free(f.open);
    fclose(fp);
    return rc;
}

static int cmp_event(const void *a, const void *b)
{
    const struct rec_event *x = a, *y = b;
    if (x->start_ns != y->start_ns)
        return x->start_ns < y->start_ns ? -1 : 1;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    return (x->kind > y->kind) - (x->kind < y->kind);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct rec_stream *rec_spool_read(const char *dir)
{
    struct rec_stream *s = calloc(1, sizeof *s);
    char **names = NULL, path[4096];
    size_t n_names = 0, cap = 0;
    struct dirent *e;
    DIR *d = opendir(dir);
    if (s == NULL || d == NULL) {
        if (s == NULL)
            tc_seterr_env("%s: cannot open the spool folder: out of memory", dir);
        else
            tc_seterr("%s: cannot open the spool folder: %s", dir, strerror(errno));
        goto fail;
    }
    while ((e = readdir(d)) != NULL) { /* file names sorted, so the stream does not depend on readdir's order */
        size_t n = strlen(e->d_name);
        if (n > 6 && strcmp(e->d_name + n - 6, ".spool") == 0) {
            char **nn = realloc(names, (n_names + 1) * sizeof *nn);
            if (nn == NULL || (nn[n_names] = strdup(e->d_name)) == NULL) {
                names = nn ? nn : names;
                tc_seterr_env("%s: out of memory", dir);
                goto fail;
            }
            names = nn;
            n_names++;
        }
    }
    if (n_names > 1) /* never qsort(NULL, 0): an empty folder has no array */
        qsort(names, n_names, sizeof *names, cmp_name);
    for (size_t i = 0; i < n_names; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (read_file(s, &cap, path) != 0)
            goto fail;
    }
    if (s->n > 1)
        qsort(s->ev, s->n, sizeof *s->ev, cmp_event);
    goto done;
fail:
    rec_stream_free(s);
    s = NULL;
done:
    for (size_t i = 0; i < n_names; i++)
        free(names[i]);
    free(names);
    if (d != NULL)
        closedir(d);
    return s;
}

void rec_stream_free(struct rec_stream *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->n_strings; i++)
        free(s->strings[i]);
    free(s->strings);
    free(s->ev);
    free(s->proc);
    free(s);
}
