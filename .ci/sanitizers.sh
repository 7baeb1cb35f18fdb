#!/usr/bin/env bash
# Sanitizer stage: the runtime, kernels, tools and cuda suites under
# AddressSanitizer + UndefinedBehaviorSanitizer (g++, build-asan), then the
# concurrency, thread-pool and kernel-pool tests under ThreadSanitizer
# (build-tsan). Prints its time.
# The ASan build is -O0 (see below); TSan keeps the default optimization.
# The packaging and consumer suites are left out: they test installed
# artifacts, not sanitized code.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
jobs=${JOBS:-2}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# Suites that exist in this build (meson test fails on an unknown suite).
suites_of() {
  meson test -C "$1" --no-rebuild --list 2>/dev/null | awk '{print $1}' | tr '+' '\n' | sed 's/^.*://' | sort -u
}

echo "== ASan+UBSan build (build-asan)"
# -O0: with ASan+UBSan, g++ compiles the GoogleTest files about 5x faster
# than at the default -O2 (tensor_util_test.cpp: 5.7 s against 33.8 s) and
# the sanitized suites still run in minutes; -O2 warnings are stage 1's.
asan_opts=("-Db_sanitize=address,undefined" -Db_lundef=false -Dwerror=true -Doptimization=0)
if [ -f build-asan/build.ninja ]; then
  meson setup --reconfigure build-asan "${asan_opts[@]}" >/dev/null
else
  meson setup build-asan "${asan_opts[@]}" >/dev/null
fi
ninja -C build-asan -j"$jobs"
args=()
available=$(suites_of build-asan)
for s in runtime kernels tools cuda; do
  if grep -qx "$s" <<<"$available"; then args+=(--suite "$s"); fi
done
if [ ${#args[@]} -gt 0 ]; then
  meson test -C build-asan --print-errorlogs --num-processes "$jobs" "${args[@]}"
else
  echo "no runtime/kernels/tools/cuda tests in build-asan"
fi
echo "== ASan+UBSan done at $(( $(date +%s) - start ))s"

echo "== TSan build (build-tsan): concurrency, thread pool, kernels on the pool"
if [ -f build-tsan/build.ninja ]; then
  meson setup --reconfigure build-tsan -Db_sanitize=thread -Db_lundef=false \
    -Dwerror=true -Dcuda=disabled >/dev/null
else
  meson setup build-tsan -Db_sanitize=thread -Db_lundef=false -Dwerror=true \
    -Dcuda=disabled >/dev/null
fi
tsan_targets=$(ninja -C build-tsan -t targets all)
# The thread pool's own test and optimized kernels racing on the pool; the
# BLAS stays on the calling threads (its own threads are invisible to TSan).
export OPENBLAS_NUM_THREADS=1
tsan_tests=()
for t in tests/runtime/concurrency/concurrency_test:concurrency \
         tests/runtime/extension/threadpool/extension_threadpool_test:threadpool_test \
         tests/runtime/concurrency/kernel_pool_test:kernel_pool; do
  if grep -q "^${t%%:*}:" <<<"$tsan_targets"; then
    ninja -C build-tsan -j"$jobs" "${t%%:*}"
    tsan_tests+=("${t##*:}")
  fi
done
if [ ${#tsan_tests[@]} -gt 0 ]; then
  meson test -C build-tsan --no-rebuild --print-errorlogs "${tsan_tests[@]}"
else
  echo "no TSan tests configured"
fi
echo "== sanitizers.sh total $(( $(date +%s) - start ))s"
