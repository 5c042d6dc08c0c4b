/* test-trace-crash.c — the trace library (trace/trace.h) when things go wrong while writing: appends that survive
 * SIGKILL at any point, a full disk that leaves a valid file, and a reader opening a trace while it is being
 * written. The traces are the base trace's runs (test-trace-base.h). TEST_TRACE_KILL_ROUNDS=N sets the number of
 * kills (default 12) for stress runs by hand. */
#include "tc_err.h"
#include "test-common.h"
#include "test-trace-base.h"
#include "trace.h"

#include "tc_time.h"

#include <check.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- SIGKILL: a child appends runs as fast as it can and reports each one; the parent kills it at a point
 * that varies from round to round (often in the middle of an append) and reopens the file. ------------------ */

static int kill_rounds = 12;

static uint64_t kill_value(size_t r, size_t j)
{
    return 5000 + 37 * r + (j % 13);
}

#define KILL_EXEC 3000 /* per run: several runs per /exec_ns chunk, chunks rewritten across appends */

static void child_append_forever(const char *path, int fd)
{
    struct trace *t = write_base_open(path, 0);
    static uint64_t x[KILL_EXEC];
    for (size_t r = 0;; r++) {
        struct trace_run run = base_run((int)(r % 6));
        run.n_estimate = 0;
        run.n_warmup = 1000;
        run.n_timed = KILL_EXEC - 1000;
        run.status = TRACE_OK;
        for (size_t j = 0; j < KILL_EXEC; j++)
            x[j] = kill_value(r, j);
        if (trace_append_run(t, &run, x, KILL_EXEC) != 0)
            _exit(3);
        if (write(fd, &r, sizeof r) != sizeof r)
            _exit(4);
    }
}

START_TEST(test_trace_appends_survive_sigkill)
{
    tt_tmpdir_make("test-trace");
    for (int round = 0; round < kill_rounds; round++) {
        const char *p = tt_path("killed.h5");
        size_t k = 1 + (size_t)round * 3, seen = 0, r = 0;
        int fds[2];
        ck_assert_int_eq(pipe(fds), 0);
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            close(fds[0]);
            child_append_forever(p, fds[1]);
        }
        close(fds[1]);
        while (seen < k && read(fds[0], &r, sizeof r) == sizeof r)
            seen = r + 1;
        ck_assert_uint_eq(seen, k);
        if (round % 2) /* let it get into the next append */
            usleep(200 * (unsigned)round);
        ck_assert_int_eq(kill(pid, SIGKILL), 0);
        int status = 0;
        ck_assert_int_eq(waitpid(pid, &status, 0), pid);
        ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        close(fds[0]);

        struct trace *t = trace_open(p);
        ck_assert_msg(t != NULL, "round %d (killed after %zu appends): %s", round, k, tc_errmsg());
        size_t n = trace_n_runs(t);
        ck_assert_uint_ge(n, k);
        for (size_t q = 0; q < n; q++) {
            const uint64_t *x = trace_run_exec(t, q);
            ck_assert_int_eq(trace_run(t, q)->exec_offset, (int64_t)(q * KILL_EXEC));
            for (size_t j = 0; j < KILL_EXEC; j += 97)
                ck_assert_uint_eq(x[j], kill_value(q, j));
            ck_assert_uint_eq(x[KILL_EXEC - 1], kill_value(q, KILL_EXEC - 1));
        }
        trace_close(t);
        /* and it can be resumed: the next run goes right after the last complete one, over any executions a
         * killed append left behind */
        t = trace_open_append(p);
        ck_assert_msg(t != NULL, "%s", tc_errmsg());
        ck_assert_uint_eq(trace_n_runs(t), n);
        static uint64_t x[KILL_EXEC];
        for (size_t j = 0; j < KILL_EXEC; j++)
            x[j] = kill_value(n, j);
        struct trace_run run = base_run(0);
        run.n_estimate = 0;
        run.n_warmup = 1000;
        run.n_timed = KILL_EXEC - 1000;
        ck_assert_msg(trace_append_run(t, &run, x, KILL_EXEC) == 0, "%s", tc_errmsg());
        ck_assert_int_eq(trace_close(t), 0);
        t = trace_open(p);
        ck_assert_msg(t != NULL, "%s", tc_errmsg());
        ck_assert_uint_eq(trace_n_runs(t), n + 1);
        ck_assert_uint_eq(trace_n_exec(t), (n + 1) * KILL_EXEC);
        ck_assert_uint_eq(trace_run_exec(t, n)[KILL_EXEC - 1], kill_value(n, KILL_EXEC - 1));
        ck_assert_uint_eq(trace_run_exec(t, n - 1)[0], kill_value(n - 1, 0));
        trace_close(t);
    }
    tt_tmpdir_remove();
}
END_TEST

/* Disk full, simulated with RLIMIT_FSIZE in a child: appends start failing with a message, the failed close
 * leaves the uncompressed trace, and that file opens with every run whose append succeeded. */
START_TEST(test_trace_disk_full_keeps_a_valid_file)
{
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("full.h5");
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        signal(SIGXFSZ, SIG_IGN);
        struct trace *t = write_base_open(p, 0);
        struct stat st;
        if (stat(p, &st) != 0)
            _exit(4);
        struct rlimit lim = {(rlim_t)st.st_size + 2000000, (rlim_t)st.st_size + 2000000};
        if (setrlimit(RLIMIT_FSIZE, &lim) != 0)
            _exit(5);
        static uint64_t x[KILL_EXEC];
        size_t ok = 0;
        char msg[1024] = "";
        for (size_t r = 0; r < 1000; r++) {
            struct trace_run run = base_run(0);
            run.n_estimate = 0;
            run.n_warmup = 1000;
            run.n_timed = KILL_EXEC - 1000;
            for (size_t j = 0; j < KILL_EXEC; j++)
                x[j] = kill_value(r, j);
            if (trace_append_run(t, &run, x, KILL_EXEC) != 0) {
                snprintf(msg, sizeof msg, "%s", tc_errmsg());
                break;
            }
            ok++;
        }
        int closed = trace_close(t);
        char close_msg[1024];
        snprintf(close_msg, sizeof close_msg, "%s", tc_errmsg());
        dprintf(fds[1], "%zu %d\n%s\n%s\n", ok, closed, msg, close_msg);
        _exit(0);
    }
    close(fds[1]);
    char buf[4096] = "";
    size_t got = 0;
    ssize_t k;
    while ((k = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)k;
    close(fds[0]);
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    size_t ok = 0;
    int closed = 0;
    ck_assert_int_eq(sscanf(buf, "%zu %d", &ok, &closed), 2);
    char *append_msg = strchr(buf, '\n') + 1, *close_msg = strchr(append_msg, '\n') + 1;
    ck_assert_msg(ok > 0 && ok < 1000, "%zu appends succeeded", ok);
    ck_assert_msg(strstr(append_msg, p) == append_msg, "append failure message: %s", append_msg);
    ck_assert_msg(strstr(append_msg, "nothing was written") != NULL, "append failure message: %s", append_msg);
    if (closed != 0) /* the compressed copy (about 1/6 of the size) fits under this limit; if not: */
        ck_assert_msg(strstr(close_msg, p) == close_msg && strstr(close_msg, "complete, but uncompressed") != NULL,
                      "close message: %s", close_msg);

    struct trace *t = trace_open(p);
    ck_assert_msg(t != NULL, "after disk full: %s", tc_errmsg());
    ck_assert_uint_eq(trace_n_runs(t), ok);
    for (size_t q = 0; q < ok; q++)
        ck_assert_uint_eq(trace_run_exec(t, q)[KILL_EXEC - 1], kill_value(q, KILL_EXEC - 1));
    trace_close(t);
    char cmd[600]; /* the failed compressed copy left nothing behind */
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", tt_tmpdir());
    ck_assert_int_eq(system(cmd), 0);
    tt_tmpdir_remove();
}
END_TEST

/* `tunecost info` during a collection: a reader opens the trace while another process appends to it. The writer
 * appends at intervals of 10 times the time an open takes here (measured first: valgrind slows it 50-fold),
 * as a collector appends a run every 130 ms or more while a load of its trace takes milliseconds. */
#define LIVE_RUNS 40
#define LIVE_EXEC 2000
START_TEST(test_trace_reads_a_trace_being_written)
{
    tt_tmpdir_make("test-trace");
    const char *p = tt_path("live.h5"), *ref = tt_path("ref.h5");
    static uint64_t x[LIVE_EXEC];
    for (size_t j = 0; j < LIVE_EXEC; j++)
        x[j] = kill_value(0, j);
    struct trace_run run = base_run(0);
    run.n_estimate = run.n_warmup = 0;
    run.n_timed = LIVE_EXEC;
    /* how long an open of the finished file takes on this machine, under this tool */
    struct trace *t = write_base_open(ref, 0);
    for (int q = 0; q < LIVE_RUNS; q++)
        ck_assert_int_eq(trace_append_run(t, &run, x, LIVE_EXEC), 0);
    ck_assert_int_eq(trace_close(t), 0);
    double t0 = tc_now_s();
    t = trace_open(ref);
    double open_s = tc_now_s() - t0;
    ck_assert_ptr_nonnull(t);
    trace_close(t);
    useconds_t interval_us = (useconds_t)(open_s * 10 * 1e6) + 2000;

    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        t = write_base_open(p, 0);
        if (write(fds[1], "x", 1) != 1)
            _exit(4);
        for (int q = 0; q < LIVE_RUNS; q++) {
            usleep(interval_us);
            if (trace_append_run(t, &run, x, LIVE_EXEC) != 0)
                _exit(3);
        }
        _exit(trace_close(t) == 0 ? 0 : 5);
    }
    close(fds[1]);
    char c;
    ck_assert_int_eq(read(fds[0], &c, 1), 1);
    close(fds[0]);
    size_t last = 0;
    int opens = 0, status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        t = trace_open(p);
        ck_assert_msg(t != NULL, "open %d while being written: %s", opens, tc_errmsg());
        ck_assert_uint_ge(trace_n_runs(t), last);
        last = trace_n_runs(t);
        if (last > 0)
            ck_assert_uint_eq(trace_run_timed(t, last - 1)[LIVE_EXEC - 1], kill_value(0, LIVE_EXEC - 1));
        trace_close(t);
        opens++;
        usleep(interval_us / 3);
    }
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ck_assert_int_ge(opens, LIVE_RUNS);
    t = trace_open(p);
    ck_assert_msg(t != NULL, "%s", tc_errmsg());
    ck_assert_uint_eq(trace_n_runs(t), LIVE_RUNS);
    trace_close(t);
    tt_tmpdir_remove();
}
END_TEST

int main(void)
{
    if (getenv("TEST_TRACE_KILL_ROUNDS") != NULL) /* for stress runs by hand */
        kill_rounds = atoi(getenv("TEST_TRACE_KILL_ROUNDS"));
    Suite *s = suite_create("trace-crash");
    TCase *tc = tcase_create("crash");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_trace_appends_survive_sigkill);
    tcase_add_test(tc, test_trace_reads_a_trace_being_written);
    tcase_add_test(tc, test_trace_disk_full_keeps_a_valid_file);
    suite_add_tcase(s, tc);
    return tt_run(s);
}
