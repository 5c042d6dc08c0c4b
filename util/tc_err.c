/* tc_err.c — per-thread error message buffer shared by every tunecost library (see tc_err.h). */
#include "tc_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define TC_ERR_LEN 1024
static _Thread_local char tc_errbuf[TC_ERR_LEN];
static _Thread_local int tc_err_env; /* the last message is a fault of the environment (disk, memory, OS) */

int tc_seterr(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tc_errbuf, sizeof tc_errbuf, fmt, ap);
    va_end(ap);
    tc_err_env = strstr(tc_errbuf, "out of memory") != NULL; /* every such message says so: the machine's fault */
    return -1;
}

int tc_seterr_env(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tc_errbuf, sizeof tc_errbuf, fmt, ap);
    va_end(ap);
    tc_err_env = 1;
    return -1;
}

void tc_err_mark_env(void)
{
    tc_err_env = 1;
}

int tc_err_is_env(void)
{
    return tc_err_env;
}

int tc_err_exit_code(void)
{
    return tc_err_env ? 1 : 2;
}

int tc_preferr(const char *fmt, ...)
{
    char prefix[TC_ERR_LEN], old[TC_ERR_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, tc_errbuf, sizeof old);
    /* Reading the result tells GCC the truncation is intended (-Wformat-truncation under -O2 -Werror). */
    if (snprintf(tc_errbuf, sizeof tc_errbuf, "%s: %s", prefix, old) >= (int)sizeof tc_errbuf)
        tc_errbuf[sizeof tc_errbuf - 1] = '\0';
    return -1;
}

const char *tc_errmsg(void)
{
    return tc_errbuf;
}

void tc_clearerr(void)
{
    tc_errbuf[0] = '\0';
    tc_err_env = 0;
}
