#!/bin/bash
# docs/characterisation.sh — regenerate every table of docs/characterisation.md from the traces in data/.
#
# usage: bash docs/characterisation.sh [--check] [OUTDIR]   (default OUTDIR: characterisation-out)
#        TUNECOST=build-charact/tunecost bash docs/characterisation.sh /tmp/ch
#   --check   afterwards, compare every block of docs/characterisation.md with what the commands print now
#             (exit 1 on a difference; a block may show fewer lines than the command printed)
#
# Needs a built tunecost (default build/tunecost; set TUNECOST to use another) and, for the two checks that no
# tunecost command prints yet (estimate study summary, per-run timed total), /usr/bin/python3 with h5py/numpy.
# Each section writes OUTDIR/NN-name.txt (the command line, then its output, exactly as the document shows it)
# and, where the table is long, the full TSV beside it. Needs no GPU: Table 7 (compile scaling) is the
# device-side output in data/compile-scaling/, printed as it is (see the document for the command that made it).
# Runs in about 15 s on a 2-core machine.
set -uo pipefail
cd "$(dirname "$0")/.."
T=${TUNECOST:-build/tunecost}
PY=${PYTHON:-/usr/bin/python3}
check=0
if [[ ${1:-} == --check ]]; then check=1; shift; fi
if [[ ${1:-} == -h || ${1:-} == --help ]]; then sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0; fi
if [[ ${1:-} == -* ]]; then echo "characterisation.sh: unknown option '$1' (usage: [--check] [OUTDIR])" >&2; exit 2; fi
OUT=${1:-characterisation-out}
if [[ ! -x $T ]]; then
    echo "characterisation.sh: $T is not an executable tunecost (build it: meson setup build && ninja -C build," \
         "or set TUNECOST)" >&2
    exit 2
fi
for f in data/gemm-h200.h5 data/gemm-h200-mmasync.h5 data/gemm-h200-triton.h5 \
         data/flush-study/gemm-h200-flush-{256M,l2,0}.h5 \
         data/compile-scaling/scaling-100.tsv data/compile-scaling/scaling-full16.tsv \
         data/compile-scaling/configs-100.tsv data/compile-scaling/scaling-full-{bm256,bm32-128,j16}*.tsv; do
    [[ -r $f ]] || { echo "characterisation.sh: $f: missing (the traces ship in data/)" >&2; exit 2; }
done
mkdir -p "$OUT" || exit 1
REF=${REF:-data/gemm-h200-mmasync.h5}   # the trace the tables characterise; REF=data/gemm-h200.h5 for the Hopper family
DEF=data/gemm-h200.h5                   # the default trace: its headline tables are checked too (sections 6x)
TRI=data/gemm-h200-triton.h5
FL=(data/flush-study/gemm-h200-flush-256M.h5 data/flush-study/gemm-h200-flush-l2.h5 data/flush-study/gemm-h200-flush-0.h5)
fail=0

# sec NAME 'COMMAND LINE': run it with bash, write "$ COMMAND" and its output to OUT/NAME.txt
sec() {
    local name=$1 cmd=$2
    printf '$ %s\n' "${cmd//\$T/tunecost}" >"$OUT/$name.txt"
    if ! (eval "$cmd") >>"$OUT/$name.txt" 2>&1; then
        echo "characterisation.sh: section $name failed (see $OUT/$name.txt)" >&2
        fail=1
    fi
    echo "characterisation.sh: $OUT/$name.txt" >&2
}

# ---- reference trace and acceptance -------------------------------------------------------------------------
sec 00-info-reference   '$T info '$REF
sec 01-valid-per-input  '$T table best '$REF' -o '$OUT'/best.tsv -q && awk -F"\t" '"'"'NR > 1 { n[$6]++ } END { for (v in n) printf "%d inputs with %d valid configurations\n", n[v], v }'"'"' '$OUT'/best.tsv'
sec 02-timed-per-run    "$PY - $REF <<'EOF'
# Per-run timed total (sum of the timed executions) of every valid run; no tunecost command prints it yet.
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], 'r') as f:
    r = f['runs'][:]; x = f['exec_ns']
    ok = r['status'] == 0
    tot = []
    for row in r[ok]:
        a = int(row['exec_offset']) + int(row['n_estimate']) + int(row['n_warmup'])
        tot.append(x[a:a + int(row['n_timed'])].sum() / 1e6)
    tot = np.array(tot)
    print(f'{ok.sum()} valid runs; timed total per run: min {tot.min():.3f} ms, median {np.median(tot):.3f} ms, '
          f'max {tot.max():.3f} ms; runs under {f.attrs[\"rep_ms\"]} ms: {(tot < f.attrs[\"rep_ms\"]).sum()}')
EOF"

# ---- Table 1 and Table 7: compilation -----------------------------------------------------------------------
sec 10-table1-compile   '$T table compile '$REF' -n 10 -o '$OUT'/compile.tsv'
sec 11-compile-by-status "awk -F'\t' 'NR>1 { n[\$8]++; s[\$8] += \$9 } END { for (k in n) printf \"%-17s %3d configurations, compile %8.1f s (one worker)\n\", k, n[k], s[k] / 1000 }' data/compile-scaling/configs-100.tsv"
sec 13-compile-extremes "(head -1 $OUT/compile.tsv; grep -v nan $OUT/compile.tsv | tail -n +2 | sort -t\$'\\t' -k9,9g | sed -n '1,3p;56,58p') | cut -f1-7,9,11 | column -t"
sec 12-table7-scaling   'cat data/compile-scaling/scaling-100.tsv; echo; cat data/compile-scaling/scaling-full16.tsv'
sec 14-full-scaling     'for f in data/compile-scaling/scaling-full-{bm256-j1,bm32-128-j1,j16}.tsv; do printf "%s\t" "$f"; sed -n 3p "$f"; done'

# ---- Table 2 and Figure 1: tuning time and its split --------------------------------------------------------
sec 20-table2-tuning    '$T table tuning '$REF
sec 21-fig1-split       '$T table split '$REF' -o '$OUT'/split.tsv | sed -n "/^all inputs/,/^0 of/p" && cut -f2,6-11 '$OUT'/split.tsv | column -t'
sec 22-triton-tuning    '$T table tuning '$TRI

# ---- Tables 3 and 5: the L2 flush study ---------------------------------------------------------------------
sec 30-table5-flush     '$T table flush '"${FL[*]}"
sec 31-flush-best       '$T table best '"${FL[*]}"' -o '$OUT'/flush-best.tsv -q && cut -f1,3,8,10,11,13,14 '$OUT'/flush-best.tsv | sed "s|data/flush-study/||" | column -t -s "$(printf "\t")"'
sec 32-flush-info       'for f in '"${FL[*]}"'; do echo "$f"; $T info "$f" | grep -E "^(protocol|executions|GPU time)"; done'

# ---- Figure 2: the estimation study -------------------------------------------------------------------------
sec 40-fig2-estimate    '$T table estimate '$TRI' -n 8 -o '$OUT'/estimate.tsv'
sec 41-estimate-summary "$PY - $OUT/estimate.tsv <<'EOF'
# Per input, from the estimate table's TSV: medians over the valid runs. flush_per_exec_ms = flush_ms /
# (n_estimate + n_timed): the Triton protocol flushes before the estimate and timed executions, not the
# warm-up. gap = estimate - (cold estimate executions + flush).
import sys, csv, statistics as st
rows = list(csv.DictReader(open(sys.argv[1]), delimiter='\t'))
g = {}
for r in rows:
    g.setdefault(r['label'], []).append(r)
f = lambda r, k: float(r[k])
per = lambda r: f(r, 'flush_per_exec_ms')
print(f\"{'input':15} {'runs':>4} {'estimate':>9} {'cold5':>8} {'warm':>8} {'flush':>7} {'gap':>7} {'est/warm':>8} {'timed_ms':>8} {'err_cold':>8} {'err_wf':>7}\")
allc, allw, allg = [], [], []
for lab, rs in g.items():
    est = [f(r, 'estimate_ms') for r in rs]; cold = [f(r, 'est_exec_mean_ms') for r in rs]
    warm = [f(r, 'warm_median_ms') for r in rs]; fl = [per(r) for r in rs]
    gap = [e - c - x for e, c, x in zip(est, cold, fl)]
    ec = [abs(e - c) / e for e, c in zip(est, cold)]; ew = [abs(e - w - x) / e for e, w, x in zip(est, warm, fl)]
    allc += ec; allw += ew; allg += gap
    m = st.median
    print(f\"{lab:15} {len(rs):4d} {m(est):9.4f} {m(cold):8.4f} {m(warm):8.4f} {m(fl):7.4f} {m(gap):7.4f} \"
          f\"{m(f(r, 'estimate_ratio') for r in rs):8.2f} {m(f(r, 'timed_total_ms') for r in rs):8.2f} {m(ec):8.3f} {m(ew):7.3f}\")
print(f'all {len(rows)} runs: median relative error of the estimate explained as the mean of the 5 cold estimate '
      f'executions {st.median(allc):.3f}; as warm time + flush per flushed execution {st.median(allw):.3f}; '
      f'unexplained gap (estimate - cold - flush): median {st.median(allg)*1000:.1f} us, '
      f'min {min(allg)*1000:.1f} us, max {max(allg)*1000:.1f} us per execution')
cw = [f(r, 'est_exec_mean_ms') / f(r, 'warm_median_ms') for r in rows]
print(f'cold/warm: mean of the 5 estimate executions / warm median: median {st.median(cw):.3f}, '
      f'max {max(cw):.3f}; runs where the cold executions are >10% slower than warm: {sum(c > 1.1 for c in cw)}')
EOF"

# ---- best configuration vs cuBLAS, failures -----------------------------------------------------------------
rm -f "$OUT/best.tsv"   # section 01 wrote it; table refuses an existing output without -f
sec 50-best-vs-cublas   '$T table best '$REF' -o '$OUT'/best.tsv | grep -E "^(best tuned|times)" && cut -f2,7,9,10,12,13 '$OUT'/best.tsv | column -t'
sec 51-best-triton      '$T table best '$TRI' -o '$OUT'/best-triton.tsv -q && cut -f2,7,9,10,12,13 '$OUT'/best-triton.tsv | column -t'
sec 52-failures         '$T table failures '$REF
sec 53-failures-smem    "awk -F'\t' 'NR>1 && \$8 != \"ok\" { n++; if (\$12 > 232448) s++; b = (\$2*\$4 + \$4*\$3) * 2; if ((\$6 - 1) * b > 232448) t++ } END { printf \"%d out of resources; %d of them need more than 227 KiB (232448 B) of shared memory = NUM_STAGES x (BLOCK_M x BLOCK_K + BLOCK_K x BLOCK_N) x 2 B; with (NUM_STAGES - 1) stages buffered, %d would\n\", n, s, t }' data/compile-scaling/configs-100.tsv"

# ---- the default trace (data/gemm-h200.h5, the native family): the same headline tables -------------------------
sec 60-default-info     '$T info '$DEF' | sed -n "4,12p"'
sec 61-default-best     '$T table best '$DEF' -o '$OUT'/best-default.tsv | grep -E "^(best tuned|times)"'
sec 62-default-split    '$T table split '$DEF' -o '$OUT'/split-default.tsv | sed -n "/^all inputs/,/^0 of/p"'
sec 63-default-compile  '$T table compile '$DEF' -n 1 -o '$OUT'/compile-default.tsv | grep "^total"'
sec 64-default-failures '$T table failures '$DEF

if ((fail)); then echo "characterisation.sh: some sections failed" >&2; exit 1; fi
if ((check)); then
    # The document shows OUTDIR as characterisation-out; compare each section with the doc's block that starts
    # with the same command line.
    "$PY" - "$OUT" docs/characterisation.md <<'EOF' || exit 1
import sys, os, re
out, doc = sys.argv[1], open(sys.argv[2]).read()
blocks = re.findall(r'```\n(.*?)\n```', doc, re.S)
bad = 0
for name in sorted(os.listdir(out)):
    if not name.endswith('.txt'):
        continue
    got = open(os.path.join(out, name)).read().rstrip('\n').replace(out.rstrip('/'), 'characterisation-out')
    got = [l.rstrip() for l in got.split('\n')]
    shown = [b.split('\n') for b in blocks if b.split('\n')[0] == got[0]]
    if not shown:
        print(f'characterisation.sh: {name}: no block of the document shows this command'); bad += 1
    elif shown[0] != got[:len(shown[0])]:
        diff = next(i for i, (a, b) in enumerate(zip(shown[0] + [''], got + [''])) if a != b)
        print(f'characterisation.sh: {name}: differs from the document at line {diff + 1}:\n  doc: '
              f'{(shown[0] + [""])[diff]}\n  now: {(got + [""])[diff]}'); bad += 1
print(f'characterisation.sh: --check: {bad} section(s) differ from docs/characterisation.md' if bad else
      'characterisation.sh: --check: every section matches docs/characterisation.md')
sys.exit(1 if bad else 0)
EOF
fi
echo "characterisation.sh: all sections written to $OUT" >&2
