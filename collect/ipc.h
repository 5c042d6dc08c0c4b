/* ipc.h — framed messages over pipes between the collector's processes (coordinator, compile workers, the
 * benchmarking child). A message is a header {type, len} followed by len payload bytes. */
#ifndef COLLECT_IPC_H
#define COLLECT_IPC_H

#include <stddef.h>
#include <stdint.h>

struct ipc_hdr {
    uint32_t type;
    uint32_t pad;
    uint64_t len;
};

/* Write/read exactly n bytes (retrying on EINTR and short transfers). read returns 0, -1 on error, and 1 on a
 * clean end of file before the first byte. */
int ipc_write_all(int fd, const void *buf, size_t n);
int ipc_read_all(int fd, void *buf, size_t n);
/* Send a header and up to two payload parts (len = n1 + n2). */
int ipc_send(int fd, uint32_t type, const void *p1, size_t n1, const void *p2, size_t n2);
/* Receive one message: header into *h, payload (h->len bytes) into a malloc'ed *payload (NULL if empty).
 * Returns 0, 1 on end of file, -1 on error. */
int ipc_recv(int fd, struct ipc_hdr *h, void **payload);
/* In a freshly forked child: close every descriptor >= 3 except those in keep[0..n). */
void ipc_close_others(const int *keep, int n);

#endif
