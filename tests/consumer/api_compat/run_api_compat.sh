#!/bin/sh
# The api_compat suite: user programs written the way upstream's docs and
# examples write them (an executor runner, a Module + TensorPtr app, a
# custom backend using BackendOptions, a custom kernel using tensor_util.h
# and ET_SWITCH, a platform (PAL) override, an app using the CPU thread
# pool) are built against an INSTALLED tree through pkg-config and through
# CMake, then run.
# Usage: run_api_compat.sh BUILD_ROOT PREFIX LIBDIR ADD_PTE
set -eu
BUILD_ROOT=$1 PREFIX=$2 LIBDIR=$3 PTE=$4
HERE=$(cd "$(dirname "$0")" && pwd)
case "$LIBDIR" in /*) ;; *) LIBDIR=$PREFIX/$LIBDIR ;; esac

command -v cmake >/dev/null || { echo "cmake not found"; exit 77; }
command -v pkg-config >/dev/null || { echo "pkg-config not found"; exit 77; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/et-api-compat.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
STAGE=$WORK/stage
meson install -C "$BUILD_ROOT" --no-rebuild --destdir "$STAGE" >"$WORK/install.log" 2>&1 \
  || { cat "$WORK/install.log"; exit 1; }
export PKG_CONFIG_SYSROOT_DIR="$STAGE"
export PKG_CONFIG_LIBDIR="$STAGE$LIBDIR/pkgconfig"
export PKG_CONFIG_PATH=
export LD_LIBRARY_PATH="$STAGE$LIBDIR"

# Every program must run the same, whichever way it was built.
run_all() {
  dir=$1
  echo "-- $dir/executor_runner"
  "$dir/executor_runner" "$PTE" 2 >"$WORK/runner.out" 2>&1 || { cat "$WORK/runner.out"; exit 1; }
  grep -q 'Output 0: tensor(sizes=\[1\], \[2\.\])' "$WORK/runner.out" \
    || { echo "FAIL: unexpected executor_runner output:"; cat "$WORK/runner.out"; exit 1; }
  echo "-- $dir/module_tensor_app"
  "$dir/module_tensor_app" "$PTE"
  echo "-- $dir/custom_backend"
  "$dir/custom_backend"
  echo "-- $dir/custom_kernel"
  "$dir/custom_kernel"
  echo "-- $dir/custom_pal"
  "$dir/custom_pal"
  echo "-- $dir/threadpool_app"
  "$dir/threadpool_app"
}

echo "== pkg-config ($(pkg-config --modversion executorch))"
mkdir "$WORK/make"
cp "$HERE"/*.cpp "$HERE/Makefile" "$WORK/make/"
make -s -C "$WORK/make" >"$WORK/make.log" 2>&1 || { cat "$WORK/make.log"; exit 1; }
run_all "$WORK/make"

echo "== CMake find_package(executorch)"
CM_DIR=-Dexecutorch_UNUSED=1
case "$LIBDIR" in */lib64) CM_DIR=-Dexecutorch_DIR=$STAGE$LIBDIR/cmake/executorch ;; esac
cmake -S "$HERE" -B "$WORK/cmake" -DCMAKE_PREFIX_PATH="$STAGE$PREFIX" "$CM_DIR" \
  >"$WORK/cmake.log" 2>&1 || { cat "$WORK/cmake.log"; exit 1; }
cmake --build "$WORK/cmake" -j2 >"$WORK/cmake-build.log" 2>&1 \
  || { cat "$WORK/cmake-build.log"; exit 1; }
run_all "$WORK/cmake"
echo "api_compat checks passed"
