#!/bin/bash
# Footprint: .text of libexecutorch.so built without kernels (a second build
# dir, -Dportable_kernels=false -Dcuda=disabled) against upstream's "< 50 kB"
# core claim, its .text per source layer, and text/data/bss/file size of each
# shipped library of the main build dir.
# Usage: [CORE_BUILDTYPE=minsize] [SKIP_SHIPPED=1] bench/footprint.sh [BUILD_DIR] [CORE_BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build-bench}
C=${2:-build-bench-core}
if [ ! -f "$C/build.ninja" ]; then
  meson setup "$C" -Dwerror=true -Dcuda=disabled -Dportable_kernels=false -Dtests=disabled \
    -Dbenchmarks=false -Dbuildtype="${CORE_BUILDTYPE:-debugoptimized}" >/dev/null
fi
ninja -C "$C" runtime/libexecutorch.so.1.0.0 >/dev/null
text_of() { size -A "$1" | awk '$1==".text"{print $2}'; }
core=$C/runtime/libexecutorch.so.1.0.0
core_text=$(text_of "$core")
bt=$(meson introspect "$C" --buildoptions | python3 -c 'import json,sys;print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="buildtype"))')
echo "== footprint: core libexecutorch.so without kernels ($C, buildtype $bt, $(c++ --version | head -1))"
printf '%-44s %10s\n' "section" "bytes"
size -A "$core" | awk '$1 ~ /^\.(text|rodata|data|data\.rel\.ro|bss|eh_frame|gcc_except_table|dynsym|dynstr)$/ {printf "%-44s %10d\n", $1, $2}'
printf '%-44s %10d  (%.1f kB; target < 50 kB: %s)\n' ".text total" "$core_text" \
  "$(echo "$core_text/1024" | bc -l)" "$([ "$core_text" -lt 51200 ] && echo MET || echo MISSED)"
stripped=$(mktemp); strip -o "$stripped" "$core"; echo "stripped file size: $(stat -c %s "$stripped") bytes"; rm -f "$stripped"
echo
echo "-- .text per layer (object files of the core build)"
objdir=$C/runtime/libexecutorch.so.1.0.0.p
for layer in platform core kernel backend executor extension kernels; do
  t=0
  for o in "$objdir"/src_"$layer"_*.o "$objdir"/"$layer"_*.o; do
    [ -f "$o" ] || continue
    t=$(( t + $(size -A "$o" | awk '$1 ~ /^\.text/ {s+=$2} END {print s+0}') ))
  done
  [ "$t" -gt 0 ] && printf '%-44s %10d\n' "$layer" "$t"
done
echo "(object .text before linking: inline functions counted once per object, so the sum exceeds the library's)"
[ -n "${SKIP_SHIPPED:-}" ] && exit 0
echo
echo "== footprint: shipped libraries ($B)"
printf '%-40s %10s %10s %10s %12s %12s\n' "library" "text" "data" "bss" "file" "stripped"
for lib in runtime/libexecutorch.so.1.0.0 cuda-stream/libexecutorch_extension_cuda.so.1.0.0 \
           cuda-backend/libexecutorch_cuda_backend.so.1.0.0; do
  f=$B/$lib
  if [ ! -f "$f" ]; then printf '%-40s (not built)\n' "$(basename "$lib")"; continue; fi
  read -r t d b _ < <(size "$f" | tail -1)
  s=$(mktemp); strip -o "$s" "$f"; ss=$(stat -c %s "$s"); rm -f "$s"
  printf '%-40s %10d %10d %10d %12d %12d\n' "$(basename "$lib")" "$t" "$d" "$b" "$(stat -c %s "$f")" "$ss"
done
echo "(size(1) text = .text + .rodata + .eh_frame and other read-only sections)"
