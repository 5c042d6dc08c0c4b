/* cmd_record.c — `tunecost record [options] -o T.h5 -- CMD ARGS...`: run CMD with the CUPTI injection library
 * (libtcrecord, record/inject.c) in every CUDA process it starts, then reconstruct its tuning runs from the spool
 * files (record.h) into a trace. `--from-spool DIR` reconstructs a session recorded earlier (or killed). */
#include "record.h"
#include "tc_atomic.h"
#include "tc_cli.h"
#include "tc_optdecl.h"
#include "tc_err.h"
#include "tc_paths.h"
#include "tc_time.h"
#include "tunecost.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <regex.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct rec_opts {
    const char *out, *spool, *from_spool, *tsv, *flush_re, *flops;
    int triton, helion, force, quiet;
    char **cmd;              /* NULL-terminated */
};

static const struct tc_optdecl record_opts[] = {
    TC_OPT_OUTPUT_REQUIRED(struct rec_opts, out, "T.h5", "the trace to write"),
    {.name = "triton", .arg = TC_ARG_FLAG, .field = offsetof(struct rec_opts, triton),
     .help = "label Triton's autotuner: each candidate's benchmark becomes an NVTX range with its configuration "
             "and key, through a Python start-up hook shipped with tunecost put first on PYTHONPATH (the script "
             "is not edited)", .def_doc = "candidates told apart by their binaries"},
    {.name = "helion", .arg = TC_ARG_FLAG, .field = offsetof(struct rec_opts, helion),
     .help = "label Helion's autotuner the same way: each configuration's benchmark with its kernel, input key "
             "(shapes, dtypes), named parameters, search algorithm and generation, and its phases (compile, "
             "precompile in the workers, accuracy check, rebenchmark) as tc:phase ranges (docs/record.md, Helion)",
     .def_doc = "not labelled"},
    {.name = "spool", .arg = TC_ARG_STRING, .field = offsetof(struct rec_opts, spool), .metavar = "DIR",
     .help = "keep the spool files (one per process) in DIR, an empty or new folder",
     .def_doc = "a temporary folder, removed once the trace is written"},
    {.name = "from-spool", .arg = TC_ARG_STRING, .field = offsetof(struct rec_opts, from_spool), .metavar = "DIR",
     .help = "reconstruct from the spool files of an earlier (or killed) recording; no CMD"},
    {.name = "tsv", .arg = TC_ARG_STRING, .field = offsetof(struct rec_opts, tsv), .metavar = "FILE",
     .help = "also write one row per run: input and configuration labels, status, counts, median, wall, flush, "
             "estimate, compile and load times, and the times CUDA events around each call would see (median and "
             "minimum; docs/record.md)"},
    {.name = "flush-kernels", .arg = TC_ARG_STRING, .field = offsetof(struct rec_opts, flush_re), .metavar = "RE",
     .help = "kernels that are L2 flushes (POSIX extended regular expression, any case; memsets of 1 MiB or more "
             "always are)",
     .def_doc = REC_FLUSH_REGEX},
    {.name = "flops", .arg = TC_ARG_STRING, .field = offsetof(struct rec_opts, flops), .metavar = "EXPR",
     .help = "the work of one execution, a product of numbers and the key's dimension names, e.g. 2*M*N*K for "
             "a GEMM (gives TFLOP/s in info, table and report)", .def_doc = "unknown (NaN)"},
    TC_OPT_FORCE(struct rec_opts, force),
    {.name = "quiet", .letter = 'q', .arg = TC_ARG_FLAG, .field = offsetof(struct rec_opts, quiet),
     .help = "no summary on stdout (errors and warnings still on stderr)"},
    TC_OPT_HELP,
    TC_OPT_END,
};

const struct tc_cmd record_cmd = {
    .name = "record",
    .summary = "run a CUDA program's autotuning under CUPTI and reconstruct it as a trace",
    .synopsis = "[OPTIONS] -o T.h5 -- CMD [ARGS...]   |   --from-spool DIR -o T.h5",
    .description =
        "Run CMD (any CUDA program: a Triton script, torch.compile, a C++ tuner) with tunecost's CUPTI injection\n"
        "library in it and in every process it starts (CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH). Every kernel,\n"
        "memset, module load and NVTX range is recorded on one clock into a spool file per process, flushed every\n"
        "second; then the tuning runs are reconstructed as a trace: each tuning decision (key) an input, each\n"
        "candidate a configuration, its launches classified as Triton's do_bench issues them (first call and\n"
        "estimate, warm-up, timed) with their flushes, the gap before its module load its compile time.\n"
        "What cannot be inferred is stored as unknown. Put -- before CMD so that its options stay its own.\n"
        "The rules and their limits: docs/record.md.\n",
    .operands = "CMD\tthe command to record, with its arguments (after --)\n",
    .opts = record_opts,
    .exit_status = "0 recorded; 1 the command failed or was killed (the trace of what finished is still written), "
                   "nothing was recognised, or the environment failed; 2 usage error or unreadable spool files.",
    .examples = "tunecost record --triton -o tuned.h5 -- python3 my_autotune.py\n"
                "tunecost record --helion --spool sp -o helion.h5 -- python3 helion_matmul.py\n"
                "tunecost record --spool sp -o t.h5 -- ./my_tuner --size 4096   # keep the spool files\n"
                "tunecost record --from-spool sp -o t.h5 -f                     # reconstruct again\n"
                "tunecost record --triton --flops '2*M*N*K' -o gemm.h5 -- python3 bench/record-triton.py --configs "
                "tiny --shape 1024x1024x1024\n",
    .min_operands = 0,
    .max_operands = -1,
    .operand_name = "CMD",
    .stop_at_operand = 1,
};

/* An output that is one of the spool files (through any name or link), or a new ".spool" name in the spool
 * folder, is refused: the folder is the input. */
static int check_not_in_spool(const char *opt, const char *out, const char *spool)
{
    char real_spool[PATH_MAX], parent[PATH_MAX], copy[PATH_MAX], path[PATH_MAX * 2];
    struct stat so, si;
    struct dirent *e;
    size_t n = strlen(out);
    int hit = 0;
    DIR *d;
    if (spool == NULL || realpath(spool, real_spool) == NULL)
        return 0;
    snprintf(copy, sizeof copy, "%s", out);
    if (n > 6 && strcmp(out + n - 6, ".spool") == 0 && realpath(dirname(copy), parent) != NULL &&
        strcmp(parent, real_spool) == 0)
        hit = 1;
    if (!hit && stat(out, &so) == 0 && (d = opendir(spool)) != NULL) {
        while (!hit && (e = readdir(d)) != NULL)
            hit = snprintf(path, sizeof path, "%s/%s", spool, e->d_name) < (int)sizeof path && stat(path, &si) == 0 &&
                  S_ISREG(si.st_mode) && si.st_dev == so.st_dev && si.st_ino == so.st_ino;
        closedir(d);
    }
    return hit ? tc_seterr("%s %s: is a spool file of %s, the input; refusing to write over an input (choose "
                           "another output)", opt, out, spool) : 0;
}

/* -o and --tsv before any work, as every command checks its outputs: not over an existing file without -f, never
 * over an input (a spool file of --from-spool, the folder itself), never one over the other, never a device node or
 * other non-regular file (tc_output_check). */
static int check_outputs(const struct rec_opts *o)
{
    const char *spool = o->from_spool ? o->from_spool : o->spool;
    struct stat a, b;
    if (tc_output_check("-o", o->out, 0, NULL, 0) != 0 || tc_output_clobber_check("-o", o->out, o->force) != 0 ||
        check_not_in_spool("-o", o->out, spool) != 0)
        return -1;
    if (o->tsv == NULL)
        return 0;
    if (tc_output_check("--tsv", o->tsv, 0, NULL, 0) != 0 || tc_output_clobber_check("--tsv", o->tsv, o->force) != 0 ||
        check_not_in_spool("--tsv", o->tsv, spool) != 0)
        return -1;
    if (strcmp(o->tsv, o->out) == 0 || (stat(o->tsv, &a) == 0 && stat(o->out, &b) == 0 && a.st_dev == b.st_dev &&
                                        a.st_ino == b.st_ino))
        return tc_seterr("--tsv %s: is the trace -o writes; give the TSV a name of its own", o->tsv);
    return 0;
}

/* --flops EXPR before any work: a product of factors, each a finite positive number or a name (a dimension of
 * the key, looked up once the spool is read). */
static int check_flops(const char *expr)
{
    const char *p = expr;
    if (expr[0] == '\0')
        return tc_seterr("--flops: expected a product such as 2*M*N*K, got an empty string");
    for (;;) {
        size_t len = strcspn(p, "*");
        char factor[64], *end;
        if (len == 0)
            return tc_seterr("--flops '%s': an empty factor (expected numbers and dimension names joined by *)",
                             expr);
        if (len >= sizeof factor)
            return tc_seterr("--flops '%s': a factor longer than %zu characters", expr, sizeof factor - 1);
        snprintf(factor, sizeof factor, "%.*s", (int)len, p);
        errno = 0;
        double v = strtod(factor, &end);
        if (*end == '\0' && !(isfinite(v) && v > 0 && errno == 0))
            return tc_seterr("--flops '%s': the factor '%s' is not a finite number above 0", expr, factor);
        if (*end != '\0' && (strchr("+-.0123456789", factor[0]) != NULL || strpbrk(factor, " \t\n") != NULL))
            return tc_seterr("--flops '%s': '%s' is neither a number nor a dimension name", expr, factor);
        p += len;
        if (*p == '\0')
            return 0;
        p++; /* the '*' */
    }
}

/* --flush-kernels RE before any work: not empty (it would match every kernel), and a valid expression. */
static int check_flush_re(const char *re)
{
    regex_t r;
    int e;
    if (re[0] == '\0')
        return tc_seterr("--flush-kernels: expected a regular expression, got an empty string (it would make every "
                         "kernel a flush)");
    if ((e = regcomp(&r, re, REG_EXTENDED | REG_ICASE | REG_NOSUB)) != 0) {
        char msg[128];
        regerror(e, &r, msg, sizeof msg);
        return tc_seterr("--flush-kernels '%s': not a regular expression (%s)", re, msg);
    }
    regfree(&r);
    return 0;
}

static int parse_args(int argc, char **argv, struct rec_opts *o)
{
    int first, rc = tc_cli_parse(&record_cmd, argc, argv, o, &first);
    if (rc != TC_CLI_RUN)
        return rc;
    o->cmd = argv + first;
    if (o->from_spool == NULL && o->cmd[0] == NULL)
        return tc_cli_usage_error("record", "expected a command after the options (tunecost record -o T.h5 -- CMD)");
    if (o->from_spool != NULL && (o->cmd[0] != NULL || o->spool != NULL || o->triton || o->helion))
        return tc_cli_usage_error("record", "--from-spool DIR takes no command, --spool, --triton or --helion");
    /* one line naming the option, before any work (the spool is read only after) */
    if ((o->flops != NULL && check_flops(o->flops) != 0) ||
        (o->flush_re != NULL && check_flush_re(o->flush_re) != 0) || check_outputs(o) != 0) {
        fprintf(stderr, "tunecost record: %s\n", tc_errmsg());
        return 2;
    }
    return TC_CLI_RUN;
}

static const char *injection_lib(void)
{
#ifdef TC_HAVE_RECORDER
    const char *c[3] = {getenv("TC_RECORD_LIB"), TC_RECORD_LIB_LOCAL, TC_RECORD_LIB};
    return tc_paths_first(c, 3);
#else
    return NULL;
#endif
}

/* The environment of the recorded command: the injection library for CUDA and NVTX, the spool folder, and with
 * --triton the start-up hook first on PYTHONPATH. Called in the child. */
static int child_env(const struct rec_opts *o, const char *lib, const char *spool)
{
    if (setenv("CUDA_INJECTION64_PATH", lib, 1) || setenv("NVTX_INJECTION64_PATH", lib, 1) ||
        setenv("TC_RECORD_SPOOL", spool, 1))
        return -1;
    if (o->triton || o->helion) {
        const char *c[2] = {TC_RECORD_PY_LOCAL "/sitecustomize.py", TC_RECORD_PY "/sitecustomize.py"};
        const char *hook = tc_paths_first(c, 2), *old = getenv("PYTHONPATH");
        char path[8192];
        if (hook == NULL)
            return -1;
        snprintf(path, sizeof path, "%.*s%s%s", (int)(strrchr(hook, '/') - hook), hook, old && *old ? ":" : "",
                 old && *old ? old : "");
        if (setenv("PYTHONPATH", path, 1) || (o->triton && setenv("TC_RECORD_TRITON", "1", 1)) ||
            (o->helion && setenv("TC_RECORD_HELION", "1", 1)))
            return -1;
    }
    return 0;
}

/* Run the command and wait; Ctrl-C reaches the command (same process group) while tunecost waits it out and then
 * writes what finished. Returns the command's exit status (128 + signal when killed), or -1. */
static int run_command(const struct rec_opts *o, const char *lib, const char *spool, double *wall_ms)
{
    struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_term;
    int status = 0;
    double t0 = tc_now_ms();
    sigemptyset(&ign.sa_mask);
    pid_t pid = fork();
    if (pid < 0)
        return tc_seterr("cannot fork: %s", strerror(errno));
    if (pid == 0) {
        signal(SIGXFSZ, SIG_DFL); /* tunecost ignores it (tunecost.c); the recorded command gets the default */
        if (child_env(o, lib, spool) != 0) {
            fprintf(stderr, "tunecost record: cannot set up the command's environment (the --triton hook?)\n");
            _exit(127);
        }
        execvp(o->cmd[0], o->cmd);
        fprintf(stderr, "tunecost record: cannot run %s: %s\n", o->cmd[0], strerror(errno));
        _exit(127);
    }
    sigaction(SIGINT, &ign, &old_int);
    sigaction(SIGTERM, &ign, &old_term);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    *wall_ms = tc_now_ms() - t0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void meta_of(const struct rec_stream *s, const struct rec_session *r, struct trace_meta *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->kernel, sizeof m->kernel, "%s", r->kernel[0] ? r->kernel : "unknown");
    snprintf(m->device_name, sizeof m->device_name, "%s", s->device_name[0] ? s->device_name : "unknown");
    m->device_cc = s->device_name[0] ? s->device_cc : -1;
    m->device_sms = s->device_name[0] ? s->device_sms : -1;
    m->device_l2_bytes = s->device_name[0] ? s->device_l2_bytes : -1;
    m->driver_version = s->device_name[0] ? s->driver_version : -1;
    m->cuda_version = -1;
    snprintf(m->timer, sizeof m->timer, "cupti");
    snprintf(m->protocol, sizeof m->protocol, "recorded");
    m->warmup_ms = m->rep_ms = NAN;
    /* the size the --triton hook marked, else the largest memset flush (rec_session.flush_bytes); -1: flushes
     * seen, size not known (fill kernels); 0: none */
    m->flush_bytes = r->flush_bytes > 0 ? r->flush_bytes : r->sum.n_flushes > 0 ? -1 : 0;
    m->compile_jobs = -1;
    m->seed = 0;
}

static void print_summary(const struct rec_session *r, const char *out)
{
    const struct rec_summary *s = &r->sum;
    printf("recorded: %zu process(es), %zu kernels, %zu flushes in runs, %zu module loads, %zu tc:bench ranges; "
           "%llu records dropped by CUPTI, %zu incomplete\n", s->n_processes, s->n_kernels, s->n_flushes, s->n_loads,
           s->n_ranges, (unsigned long long)s->dropped, s->n_incomplete);
    printf("reconstructed (%s): %d inputs, %d configurations, %zu runs (%zu not in do_bench's pattern, stored as "
           "all timed; %zu unfinished left out", r->labelled ? "labelled by tc:bench ranges" :
           "from binaries and launch pattern", r->n_inputs, r->n_configs, r->n_runs, s->n_unclassified,
           s->n_unfinished);
    if (!r->labelled)
        printf("; %zu calls in no benchmark", s->n_outside);
    printf(") -> %s\n", out);
    /* each instant once (record.h, rec_summary.wall): the parts add up to the wall time */
    printf("time: %s %.3f s = compile %.3f s + module load %.3f s + benchmarking %.3f s (flushes %.3f s GPU)",
           s->cmd_measured ? "command (wall)" : "session (CUPTI, first to last activity)", s->process_wall_ms * 1e-3,
           s->wall.compile_ms * 1e-3, s->wall.load_ms * 1e-3, s->wall.bench_ms * 1e-3, s->flush_ms * 1e-3);
    for (int k = 0; k < s->n_phases; k++)
        printf(" + phase %s %.3f s", s->phase[k], s->wall.phase_ms[k] * 1e-3);
    printf(" + overlap %.3f s (two or more processes at once) + other %.3f s\n", s->overlap_ms * 1e-3,
           s->other_ms * 1e-3);
    for (size_t i = 0; i < s->n_split_procs && i < REC_MAX_SPLIT_PROCS && (s->n_split_procs > 1 || s->n_phases);
         i++) {
        const struct rec_proc_split *p = &s->proc[i];
        printf("  process %u (parent %u): compile %.3f s, module load %.3f s, benchmarking %.3f s", p->pid, p->ppid,
               p->busy.compile_ms * 1e-3, p->busy.load_ms * 1e-3, p->busy.bench_ms * 1e-3);
        for (int k = 0; k < s->n_phases; k++)
            printf(", phase %s %.3f s", s->phase[k], p->busy.phase_ms[k] * 1e-3);
        printf("\n");
    }
}

static int has_spool_files(const char *dir)
{
    struct dirent *e;
    int found = 0;
    DIR *d = opendir(dir);
    while (d != NULL && !found && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        found = n > 6 && strcmp(e->d_name + n - 6, ".spool") == 0;
    }
    if (d != NULL)
        closedir(d);
    return found;
}

/* Record (unless --from-spool) into the spool folder; returns the command's status through *cmd_status. */
static int record_into(const struct rec_opts *o, char *spool, size_t len, int *made_tmp, int *cmd_status,
                       double *wall_ms)
{
    const char *lib = injection_lib();
    *made_tmp = 0;
    *cmd_status = 0;
    if (o->from_spool != NULL) {
        snprintf(spool, len, "%s", o->from_spool);
        return 0;
    }
    if (lib == NULL)
        return tc_seterr("the injection library libtcrecord.so was not built (CUPTI headers not found: meson "
                         "option -Drecorder) or not found (set TC_RECORD_LIB)");
    if (o->spool != NULL) {
        snprintf(spool, len, "%s", o->spool);
        if (mkdir(spool, 0755) != 0 && errno != EEXIST)
            return tc_seterr("--spool %s: cannot create: %s", spool, strerror(errno));
        if (has_spool_files(spool))
            return tc_seterr("--spool %s: holds spool files of an earlier recording (give an empty folder)", spool);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(spool, len, "%s/tunecost-record.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (mkdtemp(spool) == NULL)
            return tc_seterr("cannot create a spool folder %s: %s", spool, strerror(errno));
        *made_tmp = 1;
    }
    *cmd_status = run_command(o, lib, spool, wall_ms);
    return *cmd_status < 0 ? -1 : 0;
}

int cmd_record(int argc, char **argv)
{
    struct rec_opts o = {0};
    struct rec_stream *s = NULL;
    struct rec_session *r = NULL;
    struct trace_meta meta;
    char spool[PATH_MAX];
    int rc, made_tmp = 0, cmd_status = 0;
    double wall_ms = NAN;
    if ((rc = parse_args(argc, argv, &o)) != TC_CLI_RUN)
        return rc;
    rc = 1;
    if (record_into(&o, spool, sizeof spool, &made_tmp, &cmd_status, &wall_ms) != 0)
        goto out;
    if (cmd_status != 0)
        fprintf(stderr, "tunecost record: %s exited with status %d; writing what finished\n", o.cmd[0], cmd_status);
    if ((s = rec_spool_read(spool)) == NULL) {
        rc = o.from_spool ? 2 : 1;
        goto out;
    }
    if ((r = rec_reconstruct(s, o.flush_re)) == NULL) {
        rc = 2;
        goto out;
    }
    if (o.flops != NULL && rec_session_set_flops(r, o.flops) != 0) {
        rc = 2;
        goto out;
    }
    if (r->n_runs == 0) {
        tc_seterr("no candidate benchmark was found in %zu recorded kernel executions (docs/record.md says what "
                  "is recognised); no trace written", r->sum.n_kernels);
        goto out;
    }
    if (!isnan(wall_ms)) { /* the command's wall time as tunecost saw it, from fork to exit */
        r->sum.process_wall_ms = wall_ms;
        r->sum.cmd_measured = 1;
        r->sum.other_ms = fmax(0.0, wall_ms - rec_split_total(&r->sum)); /* the split counts each instant once */
    }
    meta_of(s, r, &meta);
    if (rec_session_write(r, &meta, o.out, o.force) != 0 ||
        (o.tsv != NULL && rec_session_write_tsv(r, o.tsv, o.force) != 0)) {
        rc = tc_err_exit_code() == 2 && cmd_status == 0 ? 2 : 1; /* 2: another run took the name meanwhile */
        goto out;
    }
    if (!o.quiet)
        print_summary(r, o.out);
    rc = cmd_status != 0;
out:
    if (rc != 0 && tc_errmsg()[0] != '\0')
        fprintf(stderr, "tunecost record: %s\n", tc_errmsg());
    if (made_tmp && (rc == 0 || cmd_status != 0) && r != NULL && r->n_runs > 0)
        nftw(spool, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    else if (made_tmp)
        fprintf(stderr, "tunecost record: the spool files are kept in %s (tunecost record --from-spool)\n", spool);
    rec_session_free(r);
    rec_stream_free(s);
    return rc;
}
