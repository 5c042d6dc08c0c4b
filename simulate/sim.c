/* sim.c — under construction */
