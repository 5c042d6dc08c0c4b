#!/bin/bash
# collect/measure-mpi.sh — on a machine with 2 GPUs and Open MPI: build, then the same 8-input collection with
# 1 and 2 ranks (wall time, pairs, medians), then a 2-rank collection whose rank 1 is killed midway and
# completed with --resume. Results (logs, TSVs) into OUTDIR. docs/performance.md records a run.
# usage: bash collect/measure-mpi.sh OUTDIR [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
O=${1:?OUTDIR}; B=${2:-build-dev}
mkdir -p "$O"
exec > >(tee "$O/measure.log") 2>&1
if ! command -v mpicc >/dev/null; then
  for d in /opt/hpcx/ompi/bin /usr/mpi/gcc/openmpi*/bin /usr/local/mpi/bin /opt/openmpi/bin; do
    [ -x "$d/mpicc" ] && export PATH=$d:$PATH && break
  done
fi
echo "mpirun: $(command -v mpirun) mpicc: $(command -v mpicc)"; mpirun --version 2>&1 | head -1
command -v mpicc >/dev/null && export LD_LIBRARY_PATH=$(mpicc --showme:libdirs | tr ' ' ':')${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi -L
bash collect/device.sh "$B" || exit 1
. collect/device-env.sh
grep -i "MPI ranks" "$B/meson-logs/meson-log.txt" | tail -1
T=$PWD/$B/tunecost
MPI="mpirun -np 2 --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x PATH"
W=/tmp/mpiw; rm -rf $W; mkdir -p $W
S="--configs 60 --flush-bytes 0 --shape 1024x1024x1024 --shape 1024x1024x4096 --shape 1024x4096x1024 --shape 4096x1024x1024 --shape 2048x2048x2048 --shape 2048x2048x4096 --shape 4096x2048x2048 --shape 4096x4096x1024"
echo "== smoke: 2 ranks, 1 input, 4 configs"
timeout 120 $MPI $T collect --configs 4 --shape 512x512x512 -o $W/smoke.h5 || { echo SMOKE FAILED; exit 1; }
echo "== 1 rank (plain, no mpirun)"
/usr/bin/time -f "wall1 %e s" $T collect $S -o $W/one.h5 | tail -3
echo "== 2 ranks"
/usr/bin/time -f "wall2 %e s" $MPI $T collect $S -o $W/two.h5 | tail -3
echo "== 1 rank under mpirun"
/usr/bin/time -f "wall1mpi %e s" mpirun -np 1 --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH $T collect $S -o $W/one-mpi.h5 | tail -3
for f in one two one-mpi; do $T table heatmap $W/$f.h5 -q -o $O/heat-$f.tsv; $T table best $W/$f.h5 -q -o $O/best-$f.tsv; $T info $W/$f.h5 | head -12 > $O/info-$f.txt; done
echo "== kill rank 1 after 20 s, then --resume"
$MPI $T collect $S -o $W/kill.h5 > $O/kill-first.log 2>&1 &
MP=$!; sleep 20
for p in $(pgrep -P $MP); do grep -qz '^OMPI_COMM_WORLD_RANK=1$' /proc/$p/environ && echo "killing rank 1 pid $p" && kill -9 $p; done
wait $MP; echo "first mpirun exit $?"; tail -5 $O/kill-first.log
ls -la $W/kill.h5* 2>&1
for r in 0 1; do $T info $W/kill.h5.rank-$r 2>&1 | grep -i "runs" | head -2; done
/usr/bin/time -f "wall-resume %e s" $MPI $T collect $S --resume -o $W/kill.h5 2>&1 | tail -4
$T table heatmap $W/kill.h5 -q -o $O/heat-kill.tsv; $T info $W/kill.h5 | head -12 > $O/info-kill.txt
echo done
