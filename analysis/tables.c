/* tables.c — under construction */
