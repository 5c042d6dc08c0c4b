/* tmpdir.h — a scratch folder per test case, for the check-based tests (header-only: each test is an executable of
 * its own). tmpdir_make("test-merge") creates $TMPDIR/test-merge.XXXXXX (/tmp without TMPDIR) in `dir`;
 * tmpdir_path(name) names a file in it (the last four results stay valid); tmpdir_remove() deletes it and all it
 * holds. */
#ifndef TESTS_TMPDIR_H
#define TESTS_TMPDIR_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

static char dir[256];

static inline void tmpdir_make(const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/%s.XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp", prefix);
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static inline void tmpdir_remove(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static inline const char *tmpdir_path(const char *name)
{
    static char path[4][512];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    return p;
}

#endif
