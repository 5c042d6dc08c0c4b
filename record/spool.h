/* spool.h — the per-process spool file the injection library (record/inject.c) appends to while a recorded
 * program runs, and `tunecost record` reads afterwards (spool_read.c). Native byte order (written and read on one
 * machine). Layout: one struct spool_file_header, then records, each a struct spool_rec followed by its payload;
 * a record cut short by a killed process is ignored by the reader. docs/record.md describes the format. */
#ifndef RECORD_SPOOL_H
#define RECORD_SPOOL_H

#include <stdint.h>

#define SPOOL_MAGIC "TCSPOOL1"
#define SPOOL_VERSION 1u

struct spool_file_header {
    char magic[8];          /* SPOOL_MAGIC */
    uint32_t version;       /* SPOOL_VERSION */
    uint32_t pid;
    uint32_t ppid;
    uint32_t pad;
    uint64_t start_ns;      /* the process's injection time, on CUPTI's clock (cuptiGetTimestamp) */
    uint64_t realtime_ns;   /* the same moment, CLOCK_REALTIME */
};

enum spool_type {
    SPOOL_KERNEL = 1,       /* struct spool_kernel */
    SPOOL_MEMSET = 2,       /* struct spool_memset */
    SPOOL_LOAD = 3,         /* struct spool_load: a module or library load (driver API, enter to exit) */
    SPOOL_MARK = 4,         /* struct spool_mark + the NVTX message (NUL-terminated; "" for a range end) */
    SPOOL_NAME = 5,         /* struct spool_name + the kernel name (NUL-terminated) */
    SPOOL_DEVICE = 6,       /* struct spool_device + the device name (NUL-terminated) */
    SPOOL_END = 7,          /* struct spool_end: the process exited normally */
};

struct spool_rec {
    uint16_t type;          /* enum spool_type */
    uint16_t pad;
    uint32_t size_bytes;    /* of the whole record, this header included; a multiple of 8 */
};

struct spool_kernel {
    uint64_t start_ns, end_ns;
    int32_t grid[3], block[3];
    int32_t registers;
    int32_t static_smem_bytes, dynamic_smem_bytes;
    uint32_t local_bytes_per_thread;
    uint32_t device, stream;
    uint32_t name_id;       /* a SPOOL_NAME record earlier in the file */
    uint32_t pad;
};

struct spool_memset {
    uint64_t start_ns, end_ns;
    uint64_t bytes;
    uint32_t device, stream;
};

struct spool_load {
    uint64_t start_ns, end_ns;
    uint32_t kind;          /* 0 module (cuModuleLoad*), 1 library (cuLibraryLoad*) */
    uint32_t pad;
};

enum spool_mark_flag { SPOOL_MARK_INSTANT = 0, SPOOL_MARK_START = 1, SPOOL_MARK_END = 2 };

struct spool_mark {
    uint64_t t_ns;
    uint32_t id;            /* pairs a range's start and end */
    uint32_t flag;          /* enum spool_mark_flag */
};

struct spool_name {
    uint32_t id;
    uint32_t pad;
};

struct spool_device {
    int32_t id, cc;         /* cc: compute capability x10 */
    int32_t sms, driver_version;
    int64_t l2_bytes;
};

struct spool_end {
    uint64_t end_ns;        /* CUPTI's clock, at exit */
    uint64_t dropped_records;
};

#endif
