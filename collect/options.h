/* options.h — `tunecost collect`'s command line: the options with their defaults, --help, and the strict parse
 * (copt_parse). No CUDA, no trace: the coordinator (collect.c) and the rank layer (ranks.c) read the result. */
#ifndef COLLECT_OPTIONS_H
#define COLLECT_OPTIONS_H

#include "space.h"

#include <stdint.h>
#include <stdio.h>

#define COPT_MAX_SHAPES 4096
#define COPT_MAX_JOBS 16

struct collect_opts {
    long n_configs;
    uint64_t seed;
    int space_full;
    struct space space;
    int64_t *dims; /* n_shapes x 3 (malloc'ed; copt_free) */
    int n_shapes;
    const char *shapes_file;
    int shard_i, shard_n;
    int protocol, timer;
    double warmup_ms, rep_ms, tol, timeout_s;
    int64_t flush_bytes; /* -1 = L2 */
    int device;
    int device_given; /* --device was on the command line */
    long jobs[COPT_MAX_JOBS];
    int n_jobs;
    int jobs_given; /* --jobs was on the command line (else jobs[0] = online cores) */
    int compile_only;
    int arch; /* 0 = the device's */
    const char *output;
    const char *configs_tsv;
    int resume, force, quiet, variant;
    int compile_invalid; /* compile configurations that cannot launch (shared memory over the limit) too */
    int compile_isolated; /* compile every configuration once more alone (1 worker): compile_isolated_ms; 2 = every
                           * configuration even under --shard (--compile-isolated-all), 1 = the shard's share */
    int compile_isolated_all; /* --compile-isolated-all given: compile_isolated becomes 2 after parsing */
    int family;          /* enum space_family (--family) */
    int compile_cache;   /* --compile-cache: TC_COMPILE_CACHE=1 is set for the compile workers */
};

/* The kernel a configuration runs on sm_<arch> (enum space_path) and the shared memory it is launched with. */
static inline int copt_path(const struct collect_opts *o, int arch, const int32_t *p)
{
    return space_path(p, arch, o->family);
}

static inline int64_t copt_smem(const struct collect_opts *o, int arch, const int32_t *p)
{
    return space_smem_bytes_on(p, copt_path(o, arch, p));
}

/* Online cores, clamped to [1, 256]. */
int copt_online_cores(void);
/* The command's declaration (options, --help, man page, completions). */
struct tc_cmd;
extern const struct tc_cmd collect_cmd;
/* Parse argv into *o (defaults first). Returns 0 (with *help set after printing the help for -h), or 2 after
 * printing the two-line usage error. The shapes are read and the --shard filter applied here. */
int copt_parse(int argc, char **argv, struct collect_opts *o, int *help);
void copt_free(struct collect_opts *o);

/* The names the trace records for --protocol and --timer. */
const char *copt_protocol_name(int protocol);
const char *copt_timer_name(int timer);

#endif
