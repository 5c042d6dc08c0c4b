/* frontier.c — under construction */
