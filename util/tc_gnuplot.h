/* tc_gnuplot.h — run a gnuplot script as a child process (fork/exec, no shell), its stdout and stderr read through
 * a pipe and appended to a log file, check that the figure it wrote is complete, and say clearly when it fails:
 * which script, how it ended, the last line it printed (kept even when the log cannot be written).
 *
 *     char gp[PATH_MAX];
 *     if (tc_gnuplot_find(gp, sizeof gp) == 0) {
 *         struct tc_gnuplot_job j = {gp, dir, "plots/fig.gp", "fmt='png'; out='fig.png'", "fig.png",
 *                                    "plots/gnuplot.log"};
 *         if (tc_gnuplot_run(&j) != 0) ... tc_errmsg() names plots/fig.gp and gnuplot's reason
 *     }
 */
#ifndef TC_GNUPLOT_H
#define TC_GNUPLOT_H

#include <stddef.h>

struct tc_gnuplot_job {
    const char *gnuplot; /* the executable (tc_gnuplot_find) */
    const char *dir;     /* working directory of the child; NULL = the caller's */
    const char *script;  /* the script, relative to dir or absolute */
    const char *expr;    /* passed as `-e EXPR` before the script; NULL = none */
    const char *output;  /* a file the script must write (relative to dir): checked to exist, be non-empty and,
                          * for .png and .svg, to end as the format ends (gnuplot exits 0 after a failed write);
                          * removed when the run fails; NULL = not checked */
    const char *log;     /* file the child's stdout and stderr are appended to (relative to dir or absolute);
                          * NULL = /dev/null */
};

/* Look gnuplot up on PATH. Returns 0 with its path in out, or -1 with "gnuplot not found on PATH ...". */
int tc_gnuplot_find(char *out, size_t len);
/* Run the job and wait for it. Returns 0 when gnuplot exited 0 and wrote the output whole; else -1 with a one-line
 * message naming the script, the exit status or signal and the last line gnuplot printed (its reason), or the
 * output that is missing or cut short. */
int tc_gnuplot_run(const struct tc_gnuplot_job *j);
/* Make s safe inside a gnuplot string literal in single quotes within a -e expression: quotes, backslashes and
 * semicolons become spaces. */
void tc_gnuplot_clean(char *s);

#endif
