/* ipc.c — framed pipe messages (see ipc.h). */
#include "ipc.h"
#include "tc_err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ipc_write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : EIO;
            tc_seterr("pipe write failed: %s", w < 0 ? strerror(e) : "short write");
            errno = e; /* callers tell a peer that is gone (EPIPE) from other failures */
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int ipc_read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, p + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0 && got == 0)
            return 1;
        if (r <= 0)
            return tc_seterr("pipe read failed: %s", r < 0 ? strerror(errno) : "peer closed mid-message");
        got += (size_t)r;
    }
    return 0;
}

int ipc_send(int fd, uint32_t type, const void *p1, size_t n1, const void *p2, size_t n2)
{
    struct ipc_hdr h = {type, 0, n1 + n2};
    if (ipc_write_all(fd, &h, sizeof h) != 0)
        return -1;
    if (n1 > 0 && ipc_write_all(fd, p1, n1) != 0)
        return -1;
    if (n2 > 0 && ipc_write_all(fd, p2, n2) != 0)
        return -1;
    return 0;
}

int ipc_recv(int fd, struct ipc_hdr *h, void **payload)
{
    int r = ipc_read_all(fd, h, sizeof *h);
    *payload = NULL;
    if (r != 0)
        return r;
    if (h->len > ((uint64_t)1 << 32))
        return tc_seterr("pipe message of %llu bytes: corrupt stream", (unsigned long long)h->len);
    if (h->len == 0)
        return 0;
    *payload = malloc(h->len + 1); /* +1: room for a terminating NUL of text payloads */
    if (*payload == NULL)
        return tc_seterr_env("out of memory receiving %llu bytes", (unsigned long long)h->len);
    r = ipc_read_all(fd, *payload, h->len);
    if (r != 0) {
        free(*payload);
        *payload = NULL;
        return r == 1 ? tc_seterr("peer closed mid-message") : -1;
    }
    ((char *)*payload)[h->len] = '\0';
    return 0;
}

void ipc_close_others(const int *keep, int n)
{
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = 3; fd < max; fd++) {
        int k = 0;
        for (int i = 0; i < n; i++)
            k |= keep[i] == fd;
        if (!k)
            close(fd);
    }
}
