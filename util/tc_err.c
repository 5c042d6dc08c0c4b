/* tc_err.c — per-thread error message buffer shared by every tunecost library (see tc_err.h). */
#include "tc_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define TC_ERR_LEN 1024
static _Thread_local char tc_errbuf[TC_ERR_LEN];

int tc_seterr(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tc_errbuf, sizeof tc_errbuf, fmt, ap);
    va_end(ap);
    return -1;
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
}
