/* cmd_info.c — placeholder until the stage lands. */
#include "tunecost.h"
#include <stdio.h>
int cmd_info(int argc, char **argv)
{
    (void)argc;
    fprintf(stderr, "tunecost %s: not built yet\n", argv[0]);
    return 2;
}
