#!/usr/bin/env bash
# Fuzz stage: a clang build with -Dfuzzers=true under ASan+UBSan (build-fuzz),
# each libFuzzer harness run for FUZZ_SECONDS (default 60) over a temporary
# corpus = committed seeds (tests/fuzz/corpus/<harness>) + writer-built seeds
# (make_seeds, at build time) + the upstream-written programs in tests/data. Any finding fails the stage;
# its input is left in fuzz-findings/ to be committed under
# tests/fuzz/regressions/. Prints its time.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$(date +%s)
jobs=${JOBS:-2}
seconds=${FUZZ_SECONDS:-60}
conformance=$root/tests/data

# clang's ASan runtime is not linked into shared libraries; libexecutorch is
# linked with --no-undefined, so use the shared sanitizer runtime everywhere.
rtdir=$(dirname "$(clang++ -print-file-name=libclang_rt.asan-x86_64.so)")
link="-shared-libsan -Wl,-rpath,$rtdir"
if [ -f build-fuzz/build.ninja ]; then
  meson setup --reconfigure build-fuzz >/dev/null
else
  CC=clang CXX=clang++ meson setup build-fuzz -Dfuzzers=true \
    -Db_sanitize=address,undefined -Db_lundef=false -Dtests=disabled \
    -Dcpp_args=-fsanitize=fuzzer-no-link \
    "-Dcpp_link_args=$link" >/dev/null
fi
harnesses=()
targets=$(ninja -C build-fuzz -t targets all)
for h in fuzz_program fuzz_flat_tensor fuzz_cuda_payload; do
  if grep -q "^tests/fuzz/$h:" <<<"$targets"; then
    harnesses+=("$h")
  fi
done
ninja -C build-fuzz -j"$jobs" tests/fuzz/seeds.stamp \
  "${harnesses[@]/#/tests/fuzz/}"
echo "== fuzz build done at $(( $(date +%s) - start ))s: ${harnesses[*]:-none}"

# libFuzzer's libstdc++ is NEEDED before the shared ASan runtime: that
# order is fine here, so the runtime's link-order check is turned off.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1:verify_asan_link_order=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p fuzz-findings
failed=0
for h in "${harnesses[@]}"; do
  corpus=$tmp/$h
  mkdir -p "$corpus"
  cp "tests/fuzz/corpus/$h"/* "$corpus"/ 2>/dev/null || true
  cp "build-fuzz/tests/fuzz/corpus/$h"/* "$corpus"/ 2>/dev/null || true
  if [ "$h" = fuzz_program ] && [ -d "$conformance" ]; then
    cp "$conformance"/*.pte "$corpus"/ 2>/dev/null || true
  fi
  echo "== $h: $(find "$corpus" -type f | wc -l) seeds, ${seconds}s"
  if ! "build-fuzz/tests/fuzz/$h" "$corpus" -max_total_time="$seconds" \
      -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$root/fuzz-findings/$h-" >"$tmp/$h.log" 2>&1; then
    echo "FINDING in $h:"; tail -60 "$tmp/$h.log"
    failed=1
  else
    grep -E 'stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)|^#[0-9]+.*DONE' "$tmp/$h.log" || tail -3 "$tmp/$h.log"
  fi
  echo "== $h corpus after run: $(find "$corpus" -type f | wc -l) files"
done
rmdir fuzz-findings 2>/dev/null || true
echo "== fuzz.sh total $(( $(date +%s) - start ))s"
exit "$failed"
