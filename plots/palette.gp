# palette.gp — the one palette of tunecost's figures, loaded by common.gp (so by every script): colour-blind-safe
# colours (Okabe-Ito, without its yellow, which is too pale on white) and dash patterns, combined into 28 styles
# of which no two share both colour and dash: style i has colour 1 + (i-1) % 7 and dash 1 + (i-1) / 7 % 4 (solid,
# dashed, dash-dot, dash-dot-dot), so the first seven styles are solid lines of seven colours, the next seven
# dashed, and so on: 28 styles.
# Each tuning policy has its own style, by name (pal_policies; a policy not listed takes the next free style after
# them in the order the data lists it), the same in every figure.
pal_colours = "#000000 #e69f00 #56b4e9 #009e73 #0072b2 #d55e00 #cc79a7"
pal_dashes = "1 2 4 5"
pal_n = words(pal_colours) * words(pal_dashes)
pal_colour(i) = word(pal_colours, 1 + (i - 1) % words(pal_colours))
pal_dash(i) = int(word(pal_dashes, 1 + ((i - 1) / words(pal_colours)) % words(pal_dashes)))
# the built-in policies in the registries' order (simulate/policy_registry.c: tunecost's own, then Kernel Tuner's
# strategies under its names); random search black and solid
pal_policies = "random exhaustive halving anneal costaware hyperband genetic bo-ei pso diff_evo ils-restart " . \
    "basinhopping-grid mls-hamming transfer pattern lfbo random_sample brute_force genetic_algorithm " . \
    "simulated_annealing greedy_ils mls firefly_algorithm"
# the scenarios' colours (fig3-fig5, models): baseline blue, parallel orange, early stop green, per-exec purple,
# pipelined vermilion
c_base = "#0072b2"; c_par = "#e69f00"; c_es = "#009e73"; c_pex = "#cc79a7"; c_pip = "#d55e00"
# CI bands: visible but not hiding the lines under them
band_alpha = 0.3
