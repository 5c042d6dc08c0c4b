/* tc_err.c — per-thread error message buffer shared by every tunecost library (see tc_err.h). */
#include "tc_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char tc_errbuf[TC_ERR_LEN];
static _Thread_local int tc_err_env; /* the last message is a fault of the environment (disk, memory, OS) */

/* A message is one line: a newline or carriage return that came with a value (a file name, an option's text)
 * is written as \n or \r, like the other control characters as \xHH; a message that no longer fits is cut. */
static void one_line(char *buf, size_t len)
{
    char tmp[TC_ERR_LEN];
    size_t o = 0;
    if (strpbrk(buf, "\n\r") == NULL) {
        int ctl = 0;
        for (const char *p = buf; *p != '\0' && !ctl; p++)
            ctl = (unsigned char)*p < 0x20 && *p != '\t';
        if (!ctl)
            return;
    }
    for (const unsigned char *p = (const unsigned char *)buf; *p != '\0' && o + 5 < sizeof tmp; p++) {
        if (*p == '\n')
            tmp[o++] = '\\', tmp[o++] = 'n';
        else if (*p == '\r')
            tmp[o++] = '\\', tmp[o++] = 'r';
        else if (*p < 0x20 && *p != '\t')
            o += (size_t)snprintf(tmp + o, sizeof tmp - o, "\\x%02x", *p);
        else
            tmp[o++] = (char)*p;
    }
    tmp[o] = '\0';
    snprintf(buf, len, "%s", tmp);
}

void tc_err_one_line(char *buf, size_t len)
{
    one_line(buf, len < TC_ERR_LEN ? len : TC_ERR_LEN);
}

int tc_seterr(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tc_errbuf, sizeof tc_errbuf, fmt, ap);
    va_end(ap);
    one_line(tc_errbuf, sizeof tc_errbuf);
    tc_err_env = 0; /* bad input: a fault of the environment says so through tc_seterr_env */
    return -1;
}

int tc_seterr_env(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tc_errbuf, sizeof tc_errbuf, fmt, ap);
    va_end(ap);
    one_line(tc_errbuf, sizeof tc_errbuf);
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
    one_line(tc_errbuf, sizeof tc_errbuf);
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

void tc_err_save(struct tc_err_saved *s)
{
    s->env = tc_err_env;
    memcpy(s->msg, tc_errbuf, sizeof s->msg);
}

int tc_err_restore(const struct tc_err_saved *s)
{
    memcpy(tc_errbuf, s->msg, sizeof tc_errbuf);
    tc_errbuf[sizeof tc_errbuf - 1] = '\0';
    tc_err_env = s->env;
    return -1;
}
