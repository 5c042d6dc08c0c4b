/* tc_gnuplot.c — one gnuplot script per child process, logged, with a message that names the script (contract
 * in tc_gnuplot.h). No shell is involved, so paths and expressions need no quoting beyond gnuplot's own. */
#include "tc_gnuplot.h"
#include "tc_err.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int tc_gnuplot_find(char *out, size_t len)
{
    const char *path = getenv("PATH");
    char buf[PATH_MAX];
    while (path != NULL && *path) {
        const char *e = strchr(path, ':');
        size_t n = e ? (size_t)(e - path) : strlen(path);
        snprintf(buf, sizeof buf, "%.*s/gnuplot", (int)n, n ? path : ".");
        if (access(buf, X_OK) == 0) {
            snprintf(out, len, "%s", buf);
            return 0;
        }
        path = e ? e + 1 : NULL;
    }
    return tc_seterr("gnuplot not found on PATH (Debian: apt-get install gnuplot-nox)");
}

void tc_gnuplot_clean(char *s)
{
    for (; *s; s++)
        if (*s == '\'' || *s == '\\' || *s == '"' || *s == ';')
            *s = ' ';
}

/* path relative to dir (unless absolute or dir is NULL), in buf; -1 when it does not fit. */
static int resolve(const char *dir, const char *path, char *buf, size_t len)
{
    int n = dir == NULL || path[0] == '/' ? snprintf(buf, len, "%s", path) : snprintf(buf, len, "%s/%s", dir, path);
    return n < 0 || (size_t)n >= len ? tc_seterr("path too long: '%.60s...'", path) : 0;
}

/* What the child printed (stdout and stderr, through one pipe): appended to the log when there is one, the last
 * non-empty line kept in last (at most len - 1 characters of it). Reading the pipe needs no disk, so the reason
 * survives a log that cannot be written (a full disk). Sets *log_failed when the log could not be written. */
static void drain(int fd, const char *log, char *last, size_t len, int *log_failed)
{
    char buf[4096], line[512];
    size_t n_line = 0;
    ssize_t n;
    int lfd = log != NULL ? open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
    *log_failed = log != NULL && lfd < 0;
    last[0] = '\0';
    while ((n = read(fd, buf, sizeof buf)) != 0) {
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (lfd >= 0 && write(lfd, buf, (size_t)n) != n)
            *log_failed = 1;
        for (ssize_t i = 0; i < n; i++) {
            if (buf[i] != '\n' && buf[i] != '\r') {
                if (n_line + 1 < sizeof line)
                    line[n_line++] = buf[i];
                continue;
            }
            while (n_line > 0 && line[n_line - 1] == ' ')
                n_line--;
            if (n_line > 0)
                snprintf(last, len, "%.*s", (int)n_line, line);
            n_line = 0;
        }
    }
    while (n_line > 0 && line[n_line - 1] == ' ')
        n_line--;
    if (n_line > 0)
        snprintf(last, len, "%.*s", (int)n_line, line);
    if (lfd >= 0 && close(lfd) != 0)
        *log_failed = 1;
}

/* 0 when path (name: as the caller gave it) is a complete PNG (ends with its IEND chunk) or SVG (ends with
 * </svg>), or is non-empty for another extension; else -1 with why ("wrote no x", "x is empty", "x is cut short at
 * N bytes"). gnuplot exits 0 after a write that failed (a full disk, a file-size limit), leaving a truncated
 * figure: only its end tells. */
static int output_complete(const char *path, const char *name, char *why, size_t len)
{
    static const unsigned char iend[8] = {'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
    unsigned char tail[64];
    const char *dot = strrchr(path, '.');
    struct stat st;
    ssize_t n = 0;
    int fd, ok;
    if (stat(path, &st) != 0)
        return snprintf(why, len, "wrote no %s", name), -1;
    if (st.st_size == 0)
        return snprintf(why, len, "%s is empty", name), -1;
    if (dot == NULL || (strcmp(dot, ".png") != 0 && strcmp(dot, ".svg") != 0))
        return 0;
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return snprintf(why, len, "%s: cannot read it back: %s", name, strerror(errno)), -1;
    if (lseek(fd, st.st_size > (off_t)sizeof tail ? st.st_size - (off_t)sizeof tail : 0, SEEK_SET) >= 0)
        n = read(fd, tail, sizeof tail);
    close(fd);
    if (strcmp(dot, ".png") == 0)
        ok = n >= 8 && memcmp(tail + n - 8, iend, 8) == 0;
    else {
        while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == '\r' || tail[n - 1] == ' '))
            n--;
        ok = n >= 6 && memcmp(tail + n - 6, "</svg>", 6) == 0;
    }
    if (!ok)
        snprintf(why, len, "%s is cut short at %lld bytes (a full disk or a file-size limit?)", name,
                 (long long)st.st_size);
    return ok ? 0 : -1;
}

/* Start gnuplot with stdin from /dev/null and stdout and stderr into out_fd, in j->dir: posix_spawn, which does not
 * copy the caller's page tables as fork does (the report holds hundreds of MB when it draws). 0, or an errno. */
static int spawn(const struct tc_gnuplot_job *j, int out_fd, pid_t *pid)
{
    extern char **environ;
    posix_spawn_file_actions_t fa;
    char *const with_expr[] = {"gnuplot", "-e", (char *)j->expr, (char *)j->script, NULL};
    char *const plain[] = {"gnuplot", (char *)j->script, NULL};
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc != 0)
        return rc;
    if ((rc = posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO)) == 0 &&
        (rc = posix_spawn_file_actions_adddup2(&fa, out_fd, STDERR_FILENO)) == 0 &&
        (rc = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0)) == 0 &&
        (j->dir == NULL || (rc = posix_spawn_file_actions_addchdir_np(&fa, j->dir)) == 0))
        rc = posix_spawn(pid, j->gnuplot, &fa, NULL, j->expr != NULL ? with_expr : plain, environ);
    posix_spawn_file_actions_destroy(&fa);
    return rc;
}

int tc_gnuplot_run(const struct tc_gnuplot_job *j)
{
    char log[PATH_MAX], output[PATH_MAX], said[200], why[PATH_MAX + 80];
    pid_t pid;
    int status, fds[2], log_failed = 0, rc;
    if ((j->log != NULL && resolve(j->dir, j->log, log, sizeof log) != 0) ||
        (j->output != NULL && resolve(j->dir, j->output, output, sizeof output) != 0))
        return -1;
    if (pipe2(fds, O_CLOEXEC) != 0)
        return tc_seterr("%s: cannot start gnuplot: %s", j->script, strerror(errno));
    fflush(NULL);
    if ((rc = spawn(j, fds[1], &pid)) != 0) {
        close(fds[0]);
        close(fds[1]);
        if (j->dir != NULL && access(j->dir, X_OK) != 0)
            return tc_seterr("%s: cannot start gnuplot: cannot enter %s: %s", j->script, j->dir, strerror(errno));
        return tc_seterr("could not run %s for %s: %s", j->gnuplot, j->script, strerror(rc));
    }
    close(fds[1]);
    drain(fds[0], j->log != NULL ? log : NULL, said, sizeof said, &log_failed);
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return tc_seterr("%s: waiting for gnuplot: %s", j->script, strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
        (j->output == NULL || output_complete(output, j->output, why, sizeof why) == 0))
        return 0;
    if (j->output != NULL)
        unlink(output);
    if (WIFSIGNALED(status))
        return tc_seterr("gnuplot killed by signal %d (%s) on %s%s%s", WTERMSIG(status), strsignal(WTERMSIG(status)),
                         j->script, said[0] != '\0' ? "; it said: " : "", said);
    if (WEXITSTATUS(status) == 0)
        return tc_seterr("gnuplot ran %s but %s%s%s", j->script, why, said[0] != '\0' ? "; it said: " : "", said);
    if (WEXITSTATUS(status) == 127 || WEXITSTATUS(status) == 126)
        return tc_seterr("could not run %s for %s (exit status %d%s%s)", j->gnuplot, j->script,
                         WEXITSTATUS(status), said[0] != '\0' ? ": " : "", said);
    return tc_seterr("gnuplot failed on %s (exit status %d%s%s)%s", j->script, WEXITSTATUS(status),
                     said[0] != '\0' ? ": " : "", said, log_failed ? "; its log could not be written" : "");
}
