#!/bin/sh
# Builds small programs against an INSTALLED tree: stages `meson install
# --destdir` into a temporary directory, then a CMake project
# (find_package(executorch)) and a Makefile (pkg-config) build and run
# against it. Also checks that a tree without the CUDA libraries defines no
# CUDA targets.
# Usage: run_consumer.sh BUILD_ROOT PREFIX LIBDIR HAVE_CUDA [PTE]
set -eu
BUILD_ROOT=$1 PREFIX=$2 LIBDIR=$3 HAVE_CUDA=$4 PTE=${5:-}
HERE=$(cd "$(dirname "$0")" && pwd)
case "$LIBDIR" in /*) ;; *) LIBDIR=$PREFIX/$LIBDIR ;; esac

command -v cmake >/dev/null || { echo "cmake not found"; exit 77; }
command -v pkg-config >/dev/null || { echo "pkg-config not found"; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/et-consumer.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
STAGE=$WORK/stage
echo "== staging: meson install --destdir $STAGE"
meson install -C "$BUILD_ROOT" --no-rebuild --destdir "$STAGE" >"$WORK/install.log" 2>&1 \
  || { cat "$WORK/install.log"; exit 1; }

S_LIBDIR=$STAGE$LIBDIR
export PKG_CONFIG_SYSROOT_DIR="$STAGE"
export PKG_CONFIG_LIBDIR="$S_LIBDIR/pkgconfig"
export PKG_CONFIG_PATH=
export LD_LIBRARY_PATH="$S_LIBDIR"

# The installed .pc files point into the staged tree through the sysroot.
echo "== pkg-config"
pkg-config --modversion executorch
pkg-config --cflags --libs executorch
# pkgconf prepends the sysroot to paths; without it they are the real ones.
case "$(pkg-config --variable=libdir executorch)" in
  "$LIBDIR"|"$STAGE$LIBDIR") ;;
  *) echo "FAIL: executorch.pc libdir is $(pkg-config --variable=libdir executorch), want $LIBDIR"; exit 1 ;;
esac
if [ "$HAVE_CUDA" = 1 ]; then
  libs=$(pkg-config --libs executorch-cuda)
  echo "executorch-cuda: $libs"
  echo "$libs" | grep -qE -- '-Wl,--push-state,--no-as-needed( -L[^ ]+)? -lexecutorch_cuda_backend -Wl,--pop-state' \
    || { echo "FAIL: executorch-cuda.pc does not keep the backend inside --no-as-needed"; exit 1; }
  pkg-config --cflags executorch-extension-cuda >/dev/null
fi

run() { echo "-- $*"; "$@"; }

echo "== Makefile + pkg-config"
cp -r "$HERE/make" "$HERE/src" "$WORK/"
if [ "$HAVE_CUDA" = 1 ]; then make -s -C "$WORK/make" cuda; else make -s -C "$WORK/make"; fi
run "$WORK/make/runtime_only"
if [ -n "$PTE" ] && [ -f "$PTE" ]; then run "$WORK/make/runtime_only" "$PTE"; fi
if [ "$HAVE_CUDA" = 1 ]; then
  readelf -d "$WORK/make/cuda_linked" | grep -q 'NEEDED.*libexecutorch_cuda_backend.so.1' \
    || { echo "FAIL: cuda_linked lost its NEEDED on the backend"; exit 1; }
  run "$WORK/make/cuda_linked"
  run "$WORK/make/cuda_linked" dlopen
  run "$WORK/make/cuda_dlopen"
fi

# Debian's CMake does not search <prefix>/lib64 (multiarch systems leave
# FIND_LIBRARY_USE_LIB64_PATHS off), so an RPM-style libdir (the %check of
# rpm/executorch.spec) needs the package directory spelled out.
cm_dir() {
  case "$LIBDIR" in
    */lib64) echo "-Dexecutorch_DIR=$1$LIBDIR/cmake/executorch" ;;
    *) echo "-Dexecutorch_UNUSED=1" ;;
  esac
}
echo "== CMake find_package(executorch)"
CM_CUDA=OFF; [ "$HAVE_CUDA" = 1 ] && CM_CUDA=ON
cmake -S "$HERE/cmake" -B "$WORK/cmake-build" -DCMAKE_PREFIX_PATH="$STAGE$PREFIX" "$(cm_dir "$STAGE")" \
  -DWITH_CUDA=$CM_CUDA >"$WORK/cmake.log" 2>&1 || { cat "$WORK/cmake.log"; exit 1; }
grep -- '-- executorch ' "$WORK/cmake.log"
cmake --build "$WORK/cmake-build" -j2 >"$WORK/cmake-build.log" 2>&1 || { cat "$WORK/cmake-build.log"; exit 1; }
run "$WORK/cmake-build/runtime_only"
if [ "$HAVE_CUDA" = 1 ]; then
  run "$WORK/cmake-build/cuda_linked"
  run "$WORK/cmake-build/cuda_linked" dlopen
  run "$WORK/cmake-build/cuda_dlopen"
fi

# The upstream-written conformance program through the installed runtime.
if [ -n "$PTE" ] && [ -f "$PTE" ]; then
  run "$WORK/cmake-build/runtime_only" "$PTE"
fi

echo "== a tree without the CUDA libraries"
rm -f "$S_LIBDIR"/libexecutorch_cuda_backend.so* "$S_LIBDIR"/libexecutorch_extension_cuda.so*
cmake -S "$HERE/cmake" -B "$WORK/cmake-nocuda" -DCMAKE_PREFIX_PATH="$STAGE$PREFIX" "$(cm_dir "$STAGE")" \
  -DEXPECT_NO_CUDA=ON >"$WORK/cmake-nocuda.log" 2>&1 || { cat "$WORK/cmake-nocuda.log"; exit 1; }
grep 'no CUDA targets' "$WORK/cmake-nocuda.log"

# The staged CMake package is relocatable: move the whole tree and reuse it.
echo "== relocated tree"
mv "$STAGE" "$WORK/moved"
cmake -S "$HERE/cmake" -B "$WORK/cmake-moved" -DCMAKE_PREFIX_PATH="$WORK/moved$PREFIX" "$(cm_dir "$WORK/moved")" \
  >"$WORK/cmake-moved.log" 2>&1 || { cat "$WORK/cmake-moved.log"; exit 1; }
echo "consumer checks passed"
