/* ranks.h — the MPI layer of `tunecost collect`: whether this process is one rank of an MPI job (mpirun, srun),
 * its rank on the job and on its node, and the few messages ranks exchange: a check that all hold the same GPU
 * kind, progress counts for rank 0, and the end of the collection. Only this module includes mpi.h; built
 * without MPI (feature option `mpi`), every process is a job of one rank, and one that a launcher started as
 * one of several is refused. Only the coordinator calls in here: the compile workers and the benchmarking
 * child it forks never call MPI. */
#ifndef COLLECT_RANKS_H
#define COLLECT_RANKS_H

struct ranks {
    int rank, size;             /* in the job */
    int local_rank, local_size; /* on this node (MPI_COMM_TYPE_SHARED) */
    int active;                 /* MPI was initialised */
    long sent;                  /* progress messages sent (ranks > 0) */
    long *finished, *total;     /* rank 0: the latest counts of every rank */
    long *got;                  /* rank 0: progress messages received from every rank */
    double last_send;
};

/* Start MPI when a launcher started this process (Open MPI's or a PMI's environment); else a job of one rank.
 * Returns 0, or -1 (message): launched as one of several ranks by a tunecost built without MPI, or by srun
 * without a PMI. */
int ranks_init(struct ranks *r, int *argc, char ***argv);
/* End MPI (if started). */
void ranks_finalize(struct ranks *r);

/* All ranks: the minimum of v. */
long ranks_min_long(struct ranks *r, long v);
/* All ranks: the maximum of v. */
double ranks_max_double(struct ranks *r, double v);
/* All ranks: every rank's `bytes` bytes of `mine` into all (size x bytes), in rank order. */
int ranks_allgather(struct ranks *r, const void *mine, int bytes, void *all);
/* Element-wise sum of n doubles over the ranks, the result on rank 0 (in `out`). */
int ranks_sum_to_root(struct ranks *r, const double *in, double *out, int n);
/* Rank 0's value of *v on every rank. */
int ranks_bcast_int(struct ranks *r, int *v);

/* Progress: a rank > 0 sends its counts to rank 0 (at most once a second, never blocking); rank 0 takes what
 * arrived and returns the sums over all ranks (its own counts given). */
void ranks_progress(struct ranks *r, long finished, long total, long *all_finished, long *all_total);
/* Collective: every progress message sent is received (call once, after the last ranks_progress). */
void ranks_progress_end(struct ranks *r);

#endif
