#!/bin/bash
# On a GPU host: install the .debs from DEBDIR (dpkg -i as root; otherwise
# unpack them with dpkg -x into a private root and point the loader there),
# then run what a distro CI runs from the packages: run-installed-tests
# (CPU and --gpu), the installed executorch-run on every installed CUDA
# fixture against its reference, compute-sanitizer memcheck on the installed
# GPU test binaries, and ldd (no libtorch/libc10). Logs under $OUT.
#   tests/cuda-backend/gpu/run_from_debs.sh DEBDIR
set -u -o pipefail
DEBS=$(cd "${1:?directory with the .deb files}" && pwd)
OUT=${OUT:-/tmp/debs-out}
SRC=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$OUT"
LOG=$OUT/summary-debs.log
: > "$LOG"
say() { echo "$*" | tee -a "$LOG"; }
T0=$(date +%s)
ARCH=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
find "$DEBS" -maxdepth 1 -name '*.deb' -printf '%f\n' | sort >> "$LOG"
: > "$OUT/dpkg-missing.log"
ROOT=
# CUDA from NVIDIA's runfile or a container image is not dpkg-owned: when the
# only unmet dependencies are the CUDA runtime packages, install anyway.
if [ "$(id -u)" = 0 ] && { dpkg -i "$DEBS"/*.deb > "$OUT/dpkg.log" 2>&1 ||
     { grep -E 'depends on (cuda-|libcu)' "$OUT/dpkg.log" | sort -u | head -4 > "$OUT/dpkg-missing.log";
       ! grep -E 'depends on' "$OUT/dpkg.log" | grep -qvE 'depends on (cuda-|libcu|libexecutorch|executorch)' &&
       dpkg -i --force-depends "$DEBS"/*.deb >> "$OUT/dpkg.log" 2>&1; }; }; then
  say "== installed with dpkg -i: $(dpkg -l 'libexecutorch*' 'executorch-*' | grep -c '^i') packages; not dpkg-owned here: $(tr '\n' ' ' < "$OUT/dpkg-missing.log" 2>/dev/null)"
else
  ROOT=$(mktemp -d)
  for d in "$DEBS"/*.deb; do dpkg -x "$d" "$ROOT"; done
  export LD_LIBRARY_PATH=$ROOT/usr/lib/$ARCH${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  say "== dpkg -i not possible ($(tail -2 "$OUT/dpkg.log" 2>/dev/null | tr '\n' ' ')); unpacked into $ROOT"
fi
IT=$ROOT/usr/libexec/executorch/installed-tests
RUN=$ROOT/usr/bin/executorch-run
export PATH=$ROOT/usr/bin:$PATH

for mode in "" --gpu; do
  timeout 300 "$IT/run-installed-tests" $mode > "$OUT/installed${mode}.log" 2>&1
  say "== run-installed-tests $mode rc=$? ($(( $(date +%s) - T0 ))s): $(tail -1 "$OUT/installed${mode}.log")"
  grep -E '^(PASS|FAIL|SKIP)' "$OUT/installed${mode}.log" | tr '\n' ' ' | tee -a "$LOG"; echo | tee -a "$LOG"
done

# Each installed fixture, eagerly and with CUDA-graph replay.
n_ok=0 n_all=0
for d in "$IT"/gpu/models/*/; do
  for mode in eager graph; do
    n_all=$((n_all + 1))
    line=$(bash "$SRC/tests/cuda-backend/gpu/run_and_compare.sh" "$RUN" "$d" $mode "$OUT") &&
      n_ok=$((n_ok + 1))
    say "== $line"
  done
done
say "== executorch-run matched the reference in $n_ok of $n_all runs (installed fixtures x eager/graph)"

CS=/usr/local/cuda/bin/compute-sanitizer
if [ "${MEMCHECK:-1}" != 0 ] && [ -x "$CS" ]; then
  FX=$(find "$IT"/gpu/models -mindepth 1 -maxdepth 1 -type d | sort | tr '\n' ' ')
  for t in bin/cuda_module_test shim_blas_test shim_conv_test shim_sdpa_test; do
    args=()
    case $t in bin/*) read -r -a args <<< "$FX" ;; esac
    timeout 240 "$CS" --tool memcheck --leak-check full --error-exitcode 99 \
      "$IT/gpu/$t" "${args[@]}" > "$OUT/memcheck_$(basename "$t").log" 2>&1 &
  done
  wait
  for t in cuda_module_test shim_blas_test shim_conv_test shim_sdpa_test; do
    say "== memcheck (installed) $t: $(grep -E 'ERROR SUMMARY|LEAK SUMMARY|PASSED|FAILED|passed' "$OUT/memcheck_$t.log" | tail -3 | tr '\n' ' ')"
  done
  say "== memcheck done ($(( $(date +%s) - T0 ))s)"
fi

{ ldd "$RUN"; ldd "$ROOT/usr/lib/$ARCH/libexecutorch_cuda_backend.so.1"; } > "$OUT/ldd-debs.log" 2>&1
say "== ldd: libtorch/libc10 lines: $(grep -Ec 'libtorch|libc10' "$OUT/ldd-debs.log"); executorch libs from: $(grep -o '/[^ ]*libexecutorch[^ ]*' "$OUT/ldd-debs.log" | sort -u | tr '\n' ' ')"
say "== done in $(( $(date +%s) - T0 ))s"
# At most 8 files come back from the device tool: the logs in one archive.
tar -czf /tmp/debs-logs.tar.gz -C "$OUT" --exclude=summary-debs.log . &&
  find "$OUT" -mindepth 1 -maxdepth 1 ! -name summary-debs.log -exec rm -rf {} + &&
  mv /tmp/debs-logs.tar.gz "$OUT/debs-logs.tar.gz"
