#!/bin/bash
# CPU benchmarks: load time/RSS, per-run overhead, footprint. Prints tables.
# Usage: bench/run_cpu.sh [--quick] [BUILD_DIR]   (default build-bench; it is
# configured with -Dbenchmarks=true if missing; the kernel-less footprint
# build goes to BUILD_DIR-core)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=()
if [ "${1:-}" = "--quick" ]; then quick=(--quick); shift; fi
B=${1:-build-bench}
if [ ! -f "$B/build.ninja" ]; then
  meson setup "$B" -Dwerror=true -Dbenchmarks=true >/dev/null
elif ! meson introspect "$B" --buildoptions | grep -q '"name": "benchmarks", "value": true'; then
  meson configure "$B" -Dbenchmarks=true >/dev/null
fi
ninja -C "$B" -j"${JOBS:-2}" >/dev/null
# shellcheck source=/dev/null
echo "== machine: $(nproc) cores, $(uname -sr), $(. /etc/os-release; echo "$PRETTY_NAME"), $(c++ --version | head -1)"
echo "== executorch $(meson introspect "$B" --projectinfo | python3 -c 'import json,sys;print(json.load(sys.stdin)["version"])'), $(date -u +%Y-%m-%dT%H:%MZ)"
"$B/bench/cpu_bench" "${quick[@]}"
echo
bash bench/footprint.sh "$B" "$B-core"
echo
# The same core built for size (-Os), as upstream's size figure is.
CORE_BUILDTYPE=minsize SKIP_SHIPPED=1 bash bench/footprint.sh "$B" "$B-core-minsize"
