/* trace.c — under construction */
