/* test-common.c — scratch folders and the suite runner for the check-based tests (test-common.h). */
#include "test-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char g_dir[512];

void tt_tmpdir_make(const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/%s.XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp", prefix);
    ck_assert_msg(mkdtemp(g_dir) != NULL, "cannot create a scratch folder %s", g_dir);
}

const char *tt_tmpdir(void)
{
    return g_dir;
}

const char *tt_path(const char *name)
{
    static char path[4][768];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", g_dir, name);
    return p;
}

void tt_tmpdir_remove(void)
{
    char cmd[600];
    if (g_dir[0] == '\0')
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    ck_assert_int_eq(system(cmd), 0);
    g_dir[0] = '\0';
}

int tt_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
