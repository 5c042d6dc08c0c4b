/* ranks.c — the MPI layer of `tunecost collect` (see ranks.h). Without TC_HAVE_MPI every call is that of a job
 * of one rank. */
#include "ranks.h"

#include "tc_err.h"
#include "tc_time.h"

#include <stdlib.h>
#include <string.h>

#ifdef TC_HAVE_MPI
#include <mpi.h>
#endif

enum { TAG_PROGRESS = 7101 };

static long env_long(const char *name)
{
    const char *s = getenv(name);
    return s != NULL && *s != '\0' ? strtol(s, NULL, 10) : -1;
}

/* Started by a launcher that MPI_Init can talk to: Open MPI's mpirun, or a PMI (srun --mpi=pmix / pmi2). */
static int ranks_launched_by_mpirun(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") != NULL || getenv("PMIX_RANK") != NULL || getenv("PMI_RANK") != NULL;
}

int ranks_init(struct ranks *r, int *argc, char ***argv)
{
    memset(r, 0, sizeof *r);
    r->size = r->local_size = 1;
    if (!ranks_launched_by_mpirun()) {
        if (env_long("SLURM_STEP_NUM_TASKS") > 1)
            return tc_seterr("srun started %ld tasks but no PMI: every one would write the same trace; use "
                             "srun --mpi=pmix (or mpirun)", env_long("SLURM_STEP_NUM_TASKS"));
        return 0;
    }
#ifdef TC_HAVE_MPI
    {
        MPI_Comm node;
        /* This process forks the compile workers and the benchmarking child after MPI_Init; neither calls MPI nor
         * touches MPI's buffers, and the coordinator never uses CUDA: keep Open MPI's CUDA support from loading
         * the driver into it (a forked child must be the first to initialise CUDA). Set by the user: theirs. */
        setenv("OMPI_MCA_opal_cuda_support", "0", 0);
        if (MPI_Init(argc, argv) != MPI_SUCCESS)
            return tc_seterr("MPI_Init failed");
        r->active = 1;
        MPI_Comm_rank(MPI_COMM_WORLD, &r->rank);
        MPI_Comm_size(MPI_COMM_WORLD, &r->size);
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, r->rank, MPI_INFO_NULL, &node);
        MPI_Comm_rank(node, &r->local_rank);
        MPI_Comm_size(node, &r->local_size);
        MPI_Comm_free(&node);
        if (r->rank == 0) {
            r->finished = calloc((size_t)r->size, sizeof *r->finished);
            r->total = calloc((size_t)r->size, sizeof *r->total);
            r->got = calloc((size_t)r->size, sizeof *r->got);
            if (r->finished == NULL || r->total == NULL || r->got == NULL)
                return tc_seterr_env("out of memory");
        }
        return 0;
    }
#else
    (void)argc;
    (void)argv;
    {
        long n = env_long("OMPI_COMM_WORLD_SIZE");
        if (n < 0)
            n = env_long("PMI_SIZE");
        if (n > 1)
            return tc_seterr("started as one of %ld MPI ranks, but this tunecost was built without MPI (meson "
                             "option mpi; Debian: libopenmpi-dev): every rank would write the same trace", n);
    }
    return 0;
#endif
}

void ranks_finalize(struct ranks *r)
{
#ifdef TC_HAVE_MPI
    if (r->active)
        MPI_Finalize();
#endif
    r->active = 0;
    free(r->finished);
    free(r->total);
    free(r->got);
    r->finished = r->total = r->got = NULL;
}

long ranks_min_long(struct ranks *r, long v)
{
#ifdef TC_HAVE_MPI
    long out = v;
    if (r->active)
        MPI_Allreduce(&v, &out, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    return out;
#else
    (void)r;
    return v;
#endif
}

double ranks_max_double(struct ranks *r, double v)
{
#ifdef TC_HAVE_MPI
    double out = v;
    if (r->active)
        MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return out;
#else
    (void)r;
    return v;
#endif
}

int ranks_allgather(struct ranks *r, const void *mine, int bytes, void *all)
{
#ifdef TC_HAVE_MPI
    if (r->active)
        return MPI_Allgather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, MPI_COMM_WORLD) == MPI_SUCCESS
                   ? 0 : tc_seterr("MPI_Allgather failed");
#endif
    (void)r;
    memcpy(all, mine, (size_t)bytes);
    return 0;
}

int ranks_sum_to_root(struct ranks *r, const double *in, double *out, int n)
{
#ifdef TC_HAVE_MPI
    if (r->active)
        return MPI_Reduce(in, out, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD) == MPI_SUCCESS
                   ? 0 : tc_seterr("MPI_Reduce failed");
#endif
    (void)r;
    memcpy(out, in, (size_t)n * sizeof *in);
    return 0;
}

int ranks_bcast_int(struct ranks *r, int *v)
{
#ifdef TC_HAVE_MPI
    if (r->active)
        return MPI_Bcast(v, 1, MPI_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : tc_seterr("MPI_Bcast failed");
#endif
    (void)r;
    (void)v;
    return 0;
}

#ifdef TC_HAVE_MPI
static long g_msg[2];
static MPI_Request g_req = MPI_REQUEST_NULL;
#endif

void ranks_progress(struct ranks *r, long finished, long total, long *all_finished, long *all_total)
{
    *all_finished = finished;
    *all_total = total;
#ifdef TC_HAVE_MPI
    if (!r->active || r->size == 1)
        return;
    if (r->rank > 0) {
        int done = 1;
        double t = tc_now_ms();
        if (g_req != MPI_REQUEST_NULL)
            MPI_Test(&g_req, &done, MPI_STATUS_IGNORE);
        if (done && t - r->last_send >= 1000.0) {
            r->last_send = t;
            g_msg[0] = finished;
            g_msg[1] = total;
            MPI_Isend(g_msg, 2, MPI_LONG, 0, TAG_PROGRESS, MPI_COMM_WORLD, &g_req);
            r->sent++;
        }
        return;
    }
    for (;;) {
        int flag = 0;
        MPI_Status st;
        long m[2];
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_PROGRESS, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            break;
        MPI_Recv(m, 2, MPI_LONG, st.MPI_SOURCE, TAG_PROGRESS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        r->finished[st.MPI_SOURCE] = m[0];
        r->total[st.MPI_SOURCE] = m[1];
        r->got[st.MPI_SOURCE]++;
    }
    for (int k = 1; k < r->size; k++) {
        *all_finished += r->finished[k];
        *all_total += r->total[k];
    }
#else
    (void)r;
#endif
}

void ranks_progress_end(struct ranks *r)
{
#ifdef TC_HAVE_MPI
    long *sent = NULL;
    if (!r->active || r->size == 1)
        return;
    if (g_req != MPI_REQUEST_NULL)
        MPI_Wait(&g_req, MPI_STATUS_IGNORE);
    if (r->rank == 0)
        sent = calloc((size_t)r->size, sizeof *sent);
    MPI_Gather(&r->sent, 1, MPI_LONG, sent, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    if (r->rank == 0 && sent != NULL) /* exactly the messages still on their way: none is left unmatched */
        for (int k = 1; k < r->size; k++)
            for (long j = r->got[k]; j < sent[k]; j++) {
                long m[2];
                MPI_Recv(m, 2, MPI_LONG, k, TAG_PROGRESS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
    free(sent);
#else
    (void)r;
#endif
}
