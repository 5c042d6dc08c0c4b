/* bench-trace.c — size and speed of trace I/O on realistic synthetic executions (results: docs/performance.md).
 * Writes a trace the way the collector does (one durable append per run, then close, which compresses), then
 * loads it in fresh processes (`--load`) to measure trace_open's wall time and peak RSS without the writer's
 * memory in the way. Synthetic model, per run: duration d log-uniform in [3, 300] us; (warm-up + repetition)
 * 125 ms / d executions (the Triton defaults 25 + 100 ms); Gaussian noise of sd d * U(0.2%, PCT%) with PCT = 2
 * unless --noise says otherwise; 1% outliers
 * d * U(1, 1.5); 5 estimate executions. */
#include "tc_err.h"
#include "tc_opt.h"
#include "tc_time.h"
#include "trace.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static long maxrss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* xorshift64* and Box-Muller: the bench needs reproducible noise, not GSL. */
static uint64_t rng_state;
static double urand(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ull) >> 11) * 0x1.0p-53;
}
static double nrand(void)
{
    double u = urand(), v = urand();
    return sqrt(-2.0 * log(u > 0 ? u : 1e-300)) * cos(2.0 * M_PI * v);
}

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: bench-trace [--exec N] [--noise PCT] [--seed S] [--loads K] [--out FILE] [--keep]\n"
            "\n"
            "Write a synthetic trace of about N executions through the trace library (durable appends, then the\n"
            "compressing close), report bytes per execution, then load it K times in fresh processes and report\n"
            "trace_open's wall time and peak RSS.\n"
            "\n"
            "  --exec N     executions to write (default 10000000)\n"
            "  --noise PCT  largest per-run noise sd, %% of the duration (default 2: sd ~ U(0.2%%, 2%%))\n"
            "  --seed S     noise seed (default 1)\n"
            "  --loads K    fresh-process loads to time (default 3)\n"
            "  --out FILE   trace to write (default bench-trace.h5 in the current directory)\n"
            "  --keep       keep FILE afterwards (default: remove it)\n"
            "  --load FILE  (internal) load FILE once and print 'load_s maxrss_kb base_kb n_exec'\n"
            "\n"
            "Environment: TC_TRACE_THREADS=N inflates /exec_ns with N threads (0: HDF5's H5Dread alone).\n"
            "\n"
            "Examples:\n"
            "  build/bench/bench-trace\n"
            "  build/bench/bench-trace --exec 40000000 --loads 1     # the size of the reference trace\n");
}

/* --load: one trace_open in this (fresh) process. */
static int load_once(const char *path)
{
    long base = maxrss_kb();
    double t0 = tc_now_s();
    struct trace *t = trace_open(path);
    double t1 = tc_now_s();
    if (t == NULL) {
        fprintf(stderr, "bench-trace: %s\n", tc_errmsg());
        return 1;
    }
    printf("%.4f %ld %ld %zu\n", t1 - t0, maxrss_kb(), base, trace_n_exec(t));
    trace_close(t);
    return 0;
}

enum { N_CONFIGS = 100, N_INPUTS = 64 }; /* the synthetic trace's shape: the paper's 100 configurations, 64 inputs */

/* Runs of synthetic executions appended to t until it holds n_target of them (3-300 us, noise_pct spread, 1%
 * outliers); *total executions in *runs runs, *append_s spent in trace_append_run. 0, or 1 after a message. */
static int append_runs(struct trace *t, long n_target, double noise_pct, size_t *total_out, size_t *runs_out,
                       double *append_s_out)
{
    size_t cap = 1 << 20, total = 0, runs = 0;
    uint64_t *x = malloc(cap * sizeof *x);
    double append_s = 0;
    if (x == NULL) {
        fprintf(stderr, "bench-trace: out of memory\n");
        return 1;
    }
    while (total < (size_t)n_target) {
        double d = exp(log(3000.0) + urand() * log(100.0)); /* 3 .. 300 us */
        double sd = d * (0.002 + (noise_pct - 0.2) * 0.01 * urand());
        size_t n = (size_t)(125e6 / d) + 5;
        if (n > (size_t)n_target - total)
            n = (size_t)n_target - total;
        if (n > cap)
            n = cap;
        for (size_t j = 0; j < n; j++) {
            double v = d + sd * nrand();
            if (urand() < 0.01)
                v *= 1.0 + 0.5 * urand();
            x[j] = v < 1 ? 1 : (uint64_t)llround(v);
        }
        int n_est = n > 5 ? 5 : 0, n_warm = (int)((n - (size_t)n_est) / 5);
        struct trace_run run = {(int)(runs % N_INPUTS), (int)(runs / N_INPUTS % N_CONFIGS), TRACE_OK, n_est, n_warm,
                                (int)(n - (size_t)n_est - (size_t)n_warm), 0, 130.0, 0, 0, NAN, 0, NAN, NAN};
        double a = tc_now_s();
        if (trace_append_run(t, &run, x, n) < 0) {
            fprintf(stderr, "bench-trace: %s\n", tc_errmsg());
            free(x);
            return 1;
        }
        append_s += tc_now_s() - a;
        total += n;
        runs++;
    }
    free(x);
    *total_out = total;
    *runs_out = runs;
    *append_s_out = append_s;
    return 0;
}

/* trace_open of out timed `loads` times, each in a fresh process (this program with --load), with its peak RSS.
 * 0, or 1 after a message. */
static int measure_loads(const char *argv0, const char *out, long loads)
{
    for (long k = 0; k < loads; k++) {
        int fds[2];
        if (pipe(fds) != 0)
            return 1;
        pid_t pid = fork();
        if (pid == 0) {
            dup2(fds[1], 1);
            close(fds[0]);
            execl("/proc/self/exe", argv0, "--load", out, (char *)NULL);
            _exit(127);
        }
        close(fds[1]);
        char buf[256] = "";
        ssize_t got = read(fds[0], buf, sizeof buf - 1);
        close(fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        double load_s = 0;
        long rss = 0, base = 0;
        size_t n = 0;
        if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
            sscanf(buf, "%lf %ld %ld %zu", &load_s, &rss, &base, &n) != 4) {
            fprintf(stderr, "bench-trace: load %ld failed\n", k + 1);
            return 1;
        }
        printf("load %ld: trace_open %.3f s, peak RSS %.1f MiB (%.1f MiB before open; the executions alone are "
               "%.1f MiB)\n",
               k + 1, load_s, (double)rss / 1024.0, (double)base / 1024.0, (double)n * 8.0 / 1048576.0);
    }
    return 0;
}

/* A new trace at out with the synthetic configurations and inputs (no runs yet); NULL after a message. */
static struct trace *create_synthetic(const char *out, uint64_t seed)
{
    static const char *const pnames[] = {"BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "NUM_STAGES", "NUM_WARPS"};
    static const char *const dnames[] = {"M", "N", "K"};
    int32_t params[N_CONFIGS * 6];
    struct trace_config configs[N_CONFIGS];
    int64_t dims[N_INPUTS * 3];
    struct trace_input inputs[N_INPUTS];
    for (int c = 0; c < N_CONFIGS; c++) {
        for (int p = 0; p < 6; p++)
            params[c * 6 + p] = 16 << ((c + p) % 4);
        configs[c] = (struct trace_config){TRACE_OK, 300.0, 2.0, 128, 65536, 0, 0, NAN};
    }
    for (int i = 0; i < N_INPUTS; i++) {
        dims[i * 3] = 256 << (i % 5), dims[i * 3 + 1] = 256 << (i / 5 % 5), dims[i * 3 + 2] = 4096;
        inputs[i] = (struct trace_input){2.0 * (double)dims[i * 3] * (double)dims[i * 3 + 1] * 4096.0, NAN};
    }
    struct trace_meta meta = {.kernel = "gemm_f16_f32acc", .device_name = "synthetic (bench-trace)",
                              .timer = "cupti", .protocol = "fixed-time", .warmup_ms = 25, .rep_ms = 100,
                              .compile_jobs = 1, .seed = seed};
    rng_state = seed * 0x9E3779B97F4A7C15ull + 1;

    struct trace *t = trace_create(out, &meta, pnames, 6, dnames, 3);
    if (t == NULL || trace_write_configs(t, N_CONFIGS, params, configs) < 0 ||
        trace_write_inputs(t, N_INPUTS, dims, inputs) < 0) {
        fprintf(stderr, "bench-trace: %s\n", tc_errmsg());
        if (t != NULL)
            trace_close(t);
        return NULL;
    }
    return t;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"exec", required_argument, NULL, 'n'}, {"seed", required_argument, NULL, 's'},
        {"loads", required_argument, NULL, 'k'}, {"out", required_argument, NULL, 'o'},
        {"keep", no_argument, NULL, 'K'},       {"load", required_argument, NULL, 'L'},
        {"noise", required_argument, NULL, 'N'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    long n_target = 10000000, loads = 3;
    double noise_pct = 2.0;
    uint64_t seed = 1;
    const char *out = "bench-trace.h5";
    int keep = 0, opt;
    while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (opt) {
        case 'n':
            if (tc_parse_long("--exec", optarg, 1, 1000000000L, &n_target) < 0)
                goto bad;
            break;
        case 's':
            if (tc_parse_u64("--seed", optarg, &seed) < 0)
                goto bad;
            break;
        case 'k':
            if (tc_parse_long("--loads", optarg, 0, 100, &loads) < 0)
                goto bad;
            break;
        case 'N':
            if (tc_parse_double("--noise", optarg, 0.2, 50, &noise_pct) < 0)
                goto bad;
            break;
        case 'o': out = optarg; break;
        case 'K': keep = 1; break;
        case 'L': return load_once(optarg);
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc) {
        usage(stderr);
        return 2;
    }
    printf("bench-trace: --exec %ld --noise %g --seed %llu --loads %ld --out %s; TC_TRACE_THREADS=%s\n", n_target,
           noise_pct, (unsigned long long)seed, loads, out,
           getenv("TC_TRACE_THREADS") != NULL ? getenv("TC_TRACE_THREADS") : "(unset: one per CPU, at most 16)");

    double t0 = tc_now_s();
    struct trace *t = create_synthetic(out, seed);
    if (t == NULL)
        return 1;
    size_t total = 0, runs = 0;
    double append_s = 0;
    if (append_runs(t, n_target, noise_pct, &total, &runs, &append_s) != 0)
        return 1;
    struct stat st;
    off_t live_bytes = stat(out, &st) == 0 ? st.st_size : -1;
    double c0 = tc_now_s();
    if (trace_close(t) < 0) {
        fprintf(stderr, "bench-trace: %s\n", tc_errmsg());
        return 1;
    }
    double close_s = tc_now_s() - c0, write_s = tc_now_s() - t0;
    if (stat(out, &st) != 0) {
        perror(out);
        return 1;
    }
    printf("wrote %zu executions in %zu runs (mean %.0f per run) in %.2f s: appends %.2f s (%.2f ms per run), "
           "compressing close %.2f s\n",
           total, runs, (double)total / (double)runs, write_s, append_s, 1e3 * append_s / (double)runs, close_s);
    printf("file while appending: %.1f MB (%.2f bytes/execution, unfiltered)\n", (double)live_bytes * 1e-6,
           (double)live_bytes / (double)total);
    printf("file after close:     %.1f MB (%.3f bytes/execution); raw uint64 would be %.1f MB\n",
           (double)st.st_size * 1e-6, (double)st.st_size / (double)total, (double)total * 8e-6);
    printf("projection: 4e7 executions -> %.1f MiB\n", (double)st.st_size / (double)total * 4e7 / 1048576.0);

    if (measure_loads(argv[0], out, loads) != 0)
        return 1;
    if (!keep)
        unlink(out);
    return 0;
bad:
    fprintf(stderr, "bench-trace: %s\n", tc_errmsg());
    usage(stderr);
    return 2;
}
