#!/usr/bin/env bash
# build.sh — build the libFuzzer harnesses with clang, ASan and UBSan (outside meson: libFuzzer needs clang).
# Usage: tests/fuzz/build.sh OUTDIR [HARNESS...]     (fuzz_opt fuzz_trace fuzz_tracegen fuzz_spool fuzz_import;
#        default all; fuzz_import is left out where json-c is missing)
# Env: CC (default clang). Exit 77 when clang cannot link a libFuzzer binary here (so meson counts a skip).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:?usage: build.sh OUTDIR [HARNESS...]}
shift
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
    harnesses=(fuzz_opt fuzz_trace fuzz_tracegen fuzz_spool)
    pkg-config --exists json-c && harnesses+=(fuzz_import)
fi
CC=${CC:-clang}
mkdir -p "$out"
out=$(cd "$out" && pwd)

flags=(-std=c11 -g -O1 -D_GNU_SOURCE -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined
       -fno-sanitize-recover=undefined -I"$out" -I"$root/util" -I"$root/trace")
probe=$out/.probe.c
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$probe"
if ! command -v "$CC" >/dev/null || ! "$CC" "${flags[@]}" "$probe" -o "$out/.probe" 2>/dev/null; then
    echo "SKIP: $CC cannot build libFuzzer binaries here (install clang)"
    exit 77
fi
rm -f "$probe" "$out/.probe"
echo '#define TC_VERSION "fuzz"' >"$out/tc_version.h"

util=("$root"/util/tc_err.c "$root"/util/tc_opt.c "$root"/util/tc_atomic.c "$root"/util/tc_json.c "$root"/util/tc_stats.c
      "$root"/util/tc_threads.c "$root"/util/tc_paths.c "$root"/util/tc_manifest.c "$root"/util/tc_grow.c "$root"/util/tc_tsv.c)
for h in "${harnesses[@]}"; do
    case $h in
    fuzz_opt)   "$CC" "${flags[@]}" "$here/fuzz_opt.c" "${util[@]}" -lm -o "$out/fuzz_opt" ;;
    fuzz_trace|fuzz_tracegen) # shellcheck disable=SC2046
                "$CC" "${flags[@]}" $(pkg-config --cflags hdf5) "$here/$h.c" "$root"/trace/trace*.c \
                    "${util[@]}" $(pkg-config --libs hdf5) -lm -o "$out/$h" ;;
    fuzz_spool) # shellcheck disable=SC2046
                "$CC" "${flags[@]}" -I"$root/record" $(pkg-config --cflags hdf5) "$here/fuzz_spool.c" \
                    "$root"/record/spool_read.c "$root"/record/reconstruct.c "$root"/record/reconstruct_table.c \
                    "$root"/record/reconstruct_split.c \
                    "${util[@]}" -lm -o "$out/fuzz_spool" ;;
    fuzz_import) # shellcheck disable=SC2046
                "$CC" "${flags[@]}" -I"$root/import" $(pkg-config --cflags json-c hdf5) "$here/fuzz_import.c" \
                    "$root"/import/import_scan.c "$root"/import/import_formats.c "${util[@]}" \
                    $(pkg-config --libs json-c) -lm -o "$out/fuzz_import" ;;
    *) echo "build.sh: unknown harness '$h' (known: fuzz_opt fuzz_trace fuzz_tracegen fuzz_spool fuzz_import)" >&2
       exit 2 ;;
    esac
    echo "built $out/$h"
done
