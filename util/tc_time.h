/* tc_time.h — the monotonic clock for elapsed times (progress lines, wall_ms, compile_ms, benchmarks). */
#ifndef TC_TIME_H
#define TC_TIME_H

double tc_now_ms(void); /* CLOCK_MONOTONIC in milliseconds */
double tc_now_s(void);  /* CLOCK_MONOTONIC in seconds */

#endif
