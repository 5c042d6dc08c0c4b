/* tc_gnuplot.c — one gnuplot script per child process, logged, with a message that names the script (contract
 * in tc_gnuplot.h). No shell is involved, so paths and expressions need no quoting beyond gnuplot's own. */
#include "tc_gnuplot.h"
#include "tc_err.h"

#include <errno.h>
#include <fcntl.h>
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

/* The last non-empty line the child appended to the log (from offset on), in out ("" if none). */
static void last_line(const char *log, off_t offset, char *out, size_t len)
{
    char buf[4096];
    ssize_t n;
    int fd = open(log, O_RDONLY);
    out[0] = '\0';
    if (fd < 0)
        return;
    {
        off_t end = lseek(fd, 0, SEEK_END), from = end - (off_t)(sizeof buf - 1);
        if (from < offset)
            from = offset;
        n = from < end && lseek(fd, from, SEEK_SET) == from ? read(fd, buf, sizeof buf - 1) : 0;
    }
    close(fd);
    if (n <= 0)
        return;
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    {
        const char *s = strrchr(buf, '\n');
        size_t k;
        s = s != NULL ? s + 1 : buf;
        for (k = 0; k + 1 < len && s[k] != '\0'; k++)
            out[k] = s[k];
        out[k] = '\0';
    }
}

int tc_gnuplot_run(const struct tc_gnuplot_job *j)
{
    char log[PATH_MAX], output[PATH_MAX], said[200];
    struct stat st;
    off_t offset = 0;
    pid_t pid;
    int status;
    if (resolve(j->dir, j->log != NULL ? j->log : "/dev/null", log, sizeof log) != 0 ||
        (j->output != NULL && resolve(j->dir, j->output, output, sizeof output) != 0))
        return -1;
    if (j->log != NULL && stat(log, &st) == 0)
        offset = st.st_size;
    fflush(NULL);
    if ((pid = fork()) < 0)
        return tc_seterr("%s: cannot start gnuplot: %s", j->script, strerror(errno));
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644), nul = open("/dev/null", O_RDONLY);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
        }
        if (nul >= 0)
            dup2(nul, STDIN_FILENO);
        if (j->dir != NULL && chdir(j->dir) != 0)
            _exit(126);
        if (j->expr != NULL)
            execl(j->gnuplot, "gnuplot", "-e", j->expr, j->script, (char *)NULL);
        else
            execl(j->gnuplot, "gnuplot", j->script, (char *)NULL);
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return tc_seterr("%s: waiting for gnuplot: %s", j->script, strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
        (j->output == NULL || (stat(output, &st) == 0 && st.st_size > 0)))
        return 0;
    if (j->output != NULL)
        unlink(output);
    last_line(log, offset, said, sizeof said);
    if (WIFSIGNALED(status))
        return tc_seterr("gnuplot killed by signal %d on %s; see %s", WTERMSIG(status), j->script,
                         j->log != NULL ? j->log : "(no log)");
    if (WEXITSTATUS(status) == 0)
        return tc_seterr("gnuplot ran %s but wrote no %s; see %s", j->script, j->output,
                         j->log != NULL ? j->log : "(no log)");
    if (WEXITSTATUS(status) == 127 || WEXITSTATUS(status) == 126)
        return tc_seterr("could not run %s for %s (exit status %d); see %s", j->gnuplot, j->script,
                         WEXITSTATUS(status), j->log != NULL ? j->log : "(no log)");
    return tc_seterr("gnuplot failed on %s (exit status %d%s%s); see %s", j->script, WEXITSTATUS(status),
                     said[0] != '\0' ? ": " : "", said, j->log != NULL ? j->log : "(no log)");
}
