#!/usr/bin/env bash
# test-kerneltuner-peer.sh — the round trip with Kernel Tuner 1.5 (PyPI kernel_tuner, installed into a venv under
# the build directory): an input of the reference trace exported with `tunecost export`; the T4 file is valid
# against Kernel Tuner's T4 results schema and the autotuning_methodology package's; Kernel Tuner loads the cache in
# simulation mode and its brute force finds tunecost's best configuration; then Kernel Tuner's random_sample,
# genetic_algorithm, simulated_annealing, mls and diff_evo run on the cache and their best-found-vs-time curves are
# compared with tunecost's policies on the imported cache, charged alike (tests/kt-peer.py says how); random search
# must agree within the confidence intervals. The table it prints is the one in docs/simulation.md.
#
# Usage: test-kerneltuner-peer.sh TUNECOST REFERENCE_TRACE VENV_DIR
# Exit: 0 pass, 1 fail, 77 skipped (no network for pip, no venv, import not built).
set -u
TUNECOST=$(realpath "${1:?usage: test-kerneltuner-peer.sh TUNECOST TRACE VENV_DIR}")
REF=$(realpath "${2:?usage}")
VENV=${3:?usage}
HERE=$(dirname "$(realpath "$0")")
INPUT=${KT_PEER_INPUT:-256x256x256}
"$TUNECOST" import --help >/dev/null 2>&1 || { echo "SKIP: tunecost import is not built (json-c missing)"; exit 77; }
PY=$("$HERE/pyvenv.sh" "$VENV" kernel_tuner==1.5.0 autotuning_methodology==1.1.0); rc=$?
[ $rc = 0 ] || exit "$rc"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tc-ktpeer.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
n_fail=0
fail() { n_fail=$((n_fail + 1)); echo "FAIL $*"; }
ok() { echo "ok   $*"; }
T() { "$TUNECOST" "$@"; }

T export kerneltuner "$REF" -i "$INPUT" -o cache.json -q && T export t4 "$REF" -i "$INPUT" -o t4.json -q ||
    { echo "FAIL export"; exit 1; }
"$PY" - t4.json <<'PYEOF' && ok "T4 file valid against both T4 schemas" || fail "T4 schema validation"
import json, sys, importlib.resources as ir
import jsonschema
from autotuning_methodology.validators import validate_T4
d = json.load(open(sys.argv[1]))
schema = json.loads(ir.files("kernel_tuner").joinpath("schema/T4/1.0.0/results-schema.json").read_text())
jsonschema.validate(d, schema)   # Kernel Tuner's copy of the T4 results schema
validate_T4(d)                   # the methodology package's
PYEOF

# Kernel Tuner's brute force over the exported cache (simulation mode) finds tunecost's best configuration
want=$(T info --json "$REF" | "$PY" -c "
import json, sys
for b in json.load(sys.stdin)['best']:
    if 'x'.join(map(str, b['dims'])) == '$INPUT': print(','.join(map(str, b['params'])))")
# (the example of docs/import.md, "Exporting": the restriction to the cache's configurations, run as users would)
got=$("$PY" "$HERE/../docs/kt-simulate.py" cache.json brute_force)
[ -n "$want" ] && [ "${got%% *}" = "$want" ] && ok "Kernel Tuner's brute force: best $want over ${got##* } configurations" ||
    fail "Kernel Tuner's best '$got', tunecost's '$want'"

# tunecost's policies on the imported cache, every timed execution taken (Kernel Tuner charges benchmark_time whole),
# a configuration refused before compiling charged nothing, as Kernel Tuner charges it (--failed-cost none)
T import kerneltuner cache.json -o cache.h5 -q >/dev/null || fail "import of the exported cache"
have=$(T policies --help | awk '/^Policies/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z_-]+ / { print $1 }' |
    tr '\n' ' ')
case " $have " in *" random "*) ;; *) fail "policies --help lists no policies: '$have'" ;; esac
list=random
for p in genetic anneal mls-hamming diff_evo; do case " $have " in *" $p "*) list="$list,$p" ;; esac; done
T policies cache.h5 -p "$list" --rep-ms 100000 --failed-cost none -r 100 --seed 1 -o pol -q || fail "tunecost policies $list"
"$PY" "$HERE/kt-peer.py" cache.json pol/curves.tsv "${KT_PEER_RUNS:-40}" peer.tsv random_sample=random \
    genetic_algorithm=genetic simulated_annealing=anneal mls=mls-hamming diff_evo=diff_evo >peer.txt 2>&1
peer_rc=$?
grep -v -i warn peer.txt
[ "$peer_rc" = 0 ] && ok "random search: Kernel Tuner and tunecost agree within the CIs" ||
    fail "random search: Kernel Tuner and tunecost disagree (peer.tsv above)"
# every pair compared: a tunecost policy missing from curves.tsv leaves its row empty ("at 0/0 times")
grep -q ' at 0/0 times' peer.txt && fail "a tunecost policy was not run (its row compares nothing): $list" ||
    ok "every pair compared ($list)"
[ $n_fail = 0 ] && echo "all passed" || echo "$n_fail failed"
[ $n_fail = 0 ]
