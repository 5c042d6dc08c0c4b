/* cmd_merge.c — placeholder until the stage lands. */
#include "tunecost.h"
#include <stdio.h>
int cmd_merge(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "tunecost %s: not built yet\n", argv[0]);
    return 2;
}
