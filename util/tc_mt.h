/* tc_mt.h — the Mersenne Twister MT19937 (Matsumoto & Nishimura, ACM TOMACS 8, 1998) inline, for the inner loops
 * of the replay: from the same seed it draws exactly what GSL's gsl_rng_mt19937 draws (GSL's seeding, its 32-bit
 * outputs, and the rules of gsl_rng_uniform and gsl_rng_uniform_int), so a result computed with either is the same
 * bit for bit (tests/test-util.c compares the streams), without a call through a function pointer and a 64-bit
 * division per draw. */
#ifndef TC_MT_H
#define TC_MT_H

#include <stdint.h>

#define TC_MT_N 624
#define TC_MT_M 397

struct tc_mt {
    uint32_t mt[TC_MT_N];
    int i; /* next word of mt to temper; TC_MT_N: regenerate first */
};

/* Seed as gsl_rng_set does: the low 32 bits of s (0 means 4357), then Knuth's initialisation. */
static inline void tc_mt_seed(struct tc_mt *g, unsigned long s)
{
    uint32_t x = (uint32_t)(s & 0xffffffffUL);
    g->mt[0] = x != 0 ? x : 4357u;
    for (int k = 1; k < TC_MT_N; k++)
        g->mt[k] = 1812433253u * (g->mt[k - 1] ^ (g->mt[k - 1] >> 30)) + (uint32_t)k;
    g->i = TC_MT_N;
}

/* One step of the recurrence: word k from words k, k + 1 and k + M (indices mod N, given). */
static inline uint32_t tc_mt_next(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t y = (a & 0x80000000u) | (b & 0x7fffffffu);
    return c ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

/* The next 624 words of the state (the twist). */
static inline void tc_mt_twist(struct tc_mt *g)
{
    uint32_t *mt = g->mt;
    int k;
    for (k = 0; k < TC_MT_N - TC_MT_M; k++)
        mt[k] = tc_mt_next(mt[k], mt[k + 1], mt[k + TC_MT_M]);
    for (; k < TC_MT_N - 1; k++)
        mt[k] = tc_mt_next(mt[k], mt[k + 1], mt[k + TC_MT_M - TC_MT_N]);
    mt[TC_MT_N - 1] = tc_mt_next(mt[TC_MT_N - 1], mt[0], mt[TC_MT_M - 1]);
    g->i = 0;
}

/* A uniform 32-bit word (gsl_rng_get). */
static inline uint32_t tc_mt_get(struct tc_mt *g)
{
    uint32_t y;
    if (g->i >= TC_MT_N)
        tc_mt_twist(g);
    y = g->mt[g->i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

/* Uniform in [0, 1) with 32 bits (gsl_rng_uniform). */
static inline double tc_mt_uniform(struct tc_mt *g)
{
    return tc_mt_get(g) / 4294967296.0;
}

/* Uniform in {0, ..., n - 1} by GSL's rule (gsl_rng_uniform_int): scale = (2^32 - 1) / n, draws of word / scale
 * until one is below n. n must be in 1 .. 2^32 - 1; 0 returns 0. */
static inline unsigned long tc_mt_uniform_int(struct tc_mt *g, unsigned long n)
{
    uint32_t scale, k;
    if (n == 0 || n > 0xffffffffUL)
        return 0;
    scale = 0xffffffffu / (uint32_t)n;
    do
        k = tc_mt_get(g) / scale;
    while (k >= n);
    return k;
}

#endif
