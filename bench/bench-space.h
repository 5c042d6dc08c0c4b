/* bench-space.h — a synthetic large search space for bench-policies (bench-space.c). */
#ifndef BENCH_SPACE_H
#define BENCH_SPACE_H

/* Write a synthetic trace of n configurations at path. Returns 0, or -1 (tc_errmsg). */
int bench_space_write(const char *path, int n);

#endif
