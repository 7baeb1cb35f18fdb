#!/usr/bin/env bash
# Debian packages of both source packages (executorch, main; executorch-cuda,
# contrib: docs/packaging.md): .dsc from a git archive of the working tree,
# build (dpkg-buildpackage), lint (lintian --pedantic), then install into a
# clean bookworm minbase chroot, run the installed tests and the
# autopkgtests there, purge, and check that nothing is left behind. Prints
# the time each step took. .ci/distro-check.sh does the clean-chroot builds.
#
# Environment: JOBS (default 2), GPU_ARCHS (default 90: one architecture is
# enough to prove the device code builds), CUDA_ROOT (default /usr/local/cuda),
# DEB_CACHE (where the debootstrap tarball is cached; default
# /var/cache/executorch-ci if writable, else a temp dir), KEEP=1 keeps the
# work dir, REUSE_WORK=<a kept work dir> skips the build and tests the .debs
# already there (for iterating on the later steps).
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS=${JOBS:-2}
export GPU_ARCHS=${GPU_ARCHS:-90}
export CUDA_ROOT=${CUDA_ROOT:-/usr/local/cuda}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
if [ -z "${DEB_CACHE:-}" ]; then
  if mkdir -p /var/cache/executorch-ci 2>/dev/null && [ -w /var/cache/executorch-ci ]; then
    DEB_CACHE=/var/cache/executorch-ci
  else
    DEB_CACHE=$(mktemp -d /tmp/executorch-deb-cache.XXXXXX)
  fi
fi

t0=$(date +%s)
step() { step_name=$1; step_start=$(date +%s); echo; echo "-- deb: $1"; }
step_done() { echo "-- deb: $step_name: $(( $(date +%s) - step_start ))s"; }

work=${REUSE_WORK:-$(mktemp -d /tmp/executorch-deb.XXXXXX)}
chroot_dir=$work/root
cleanup() {
  for m in proc dev/pts dev; do
    if mountpoint -q "$chroot_dir/$m" 2>/dev/null; then umount -l "$chroot_dir/$m"; fi
  done
  if [ "${KEEP:-0}" = 1 ]; then echo "work dir kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

if [ -z "${REUSE_WORK:-}" ]; then
# ---------------------------------------------------------------------------
step "source packages: git archive of the working tree, dpkg-source -b of both"
# A throw-away index holds HEAD plus the working tree's changes and
# untracked (not ignored) files; the real index is not touched. The builds
# below use the trees dpkg-source -x gives back, so a file missing from the
# .dsc fails here, not only in a distribution's build.
v=$(dpkg-parsechangelog -S Version); uv=${v%-*}
GIT_INDEX_FILE=$work/index git read-tree HEAD
GIT_INDEX_FILE=$work/index git add -A .
tree=$(GIT_INDEX_FILE=$work/index git write-tree)
mkdir -p "$work/dsc"
# The release tarballs (tools/release/make-tarballs.sh): the source without
# the GPU fixtures for both, the fixtures as executorch-cuda's component.
tools/release/make-tarballs.sh "$tree" "$uv" "$work/rel"
cp "$work/rel/executorch-$uv.tar.gz" "$work/dsc/executorch_$uv.orig.tar.gz"
cp "$work/rel/executorch-$uv.tar.gz" "$work/dsc/executorch-cuda_$uv.orig.tar.gz"
cp "$work/rel/executorch-gpu-fixtures-$uv.tar.gz" "$work/dsc/executorch-cuda_$uv.orig-gpufixtures.tar.gz"
for s in executorch executorch-cuda; do
  mkdir -p "$work/dsc/$s-$uv"
  tar -C "$work/dsc/$s-$uv" --strip-components=1 -xzf "$work/dsc/${s}_$uv.orig.tar.gz"
done
mkdir -p "$work/dsc/executorch-cuda-$uv/gpufixtures"
tar -C "$work/dsc/executorch-cuda-$uv/gpufixtures" --strip-components=1 \
  -xzf "$work/dsc/executorch-cuda_$uv.orig-gpufixtures.tar.gz"
(cd "$work/dsc/executorch-cuda-$uv" && mv debian debian.main && mv debian.main/contrib debian && rm -rf debian.main)
mkdir -p "$work/src"
for s in executorch executorch-cuda; do
  (cd "$work/dsc" && dpkg-source -b "$s-$uv" > /dev/null &&
    dpkg-source -x "${s}_$v.dsc" "$work/src/$s" > /dev/null) || {
    echo "dpkg-source failed for $s"; exit 1; }
done
printf '   %s\n' "$work"/dsc/*.dsc
step_done

# The two source packages of docs/packaging.md: executorch (main, debian/)
# WITH its tests, then executorch-cuda (contrib, debian/contrib as debian/)
# against the host's toolkit. -d for the latter: the toolkit is not
# dpkg-owned here and libexecutorch-dev is not installed. Its tests are the
# ones the "meson test" stage of .ci/test already ran on this tree with this
# toolkit (nocheck); .ci/distro-check.sh builds both with their tests in
# clean chroots.
# Bookworm's XNNPACK (a 2022 snapshot) lacks the API the XNNPACK backend
# needs: there main builds with the pkg.executorch.noxnnpack profile, which
# drops libexecutorch-xnnpack-backend1 and its Build-Depends.
main_profiles=${DEB_BUILD_PROFILES:-}
if [ "$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release)" = bookworm ]; then
  main_profiles="$main_profiles pkg.executorch.noxnnpack"
fi
step "dpkg-buildpackage -us -uc -b: executorch (main, with its tests; profiles:${main_profiles:- none})"
(cd "$work/src/executorch" &&
  DEB_BUILD_OPTIONS="parallel=$JOBS ${DEB_BUILD_OPTIONS:-}" DEB_BUILD_PROFILES="${main_profiles# }" \
    dpkg-buildpackage -us -uc -b) > "$work/build.log" 2>&1 || {
  tail -n 80 "$work/build.log"; echo "dpkg-buildpackage (executorch) failed"; exit 1; }
grep -E '^(dpkg-shlibdeps|dh_missing|dpkg-gencontrol): warning' "$work/build.log" || true
step_done

step "dpkg-buildpackage -us -uc -b -d: executorch-cuda (contrib, GPU_ARCHS=$GPU_ARCHS, nocheck)"
(cd "$work/src/executorch-cuda" &&
  DEB_BUILD_OPTIONS="parallel=$JOBS nocheck ${DEB_BUILD_OPTIONS:-}" \
    dpkg-buildpackage -us -uc -b -d) > "$work/build-cuda.log" 2>&1 || {
  tail -n 80 "$work/build-cuda.log"; echo "dpkg-buildpackage (executorch-cuda) failed"; exit 1; }
grep -E '^(dpkg-shlibdeps|dh_missing|dpkg-gencontrol): warning|WARNING: gpu_archs' "$work/build-cuda.log" || true
fi
changes=("$work"/src/executorch_*.changes "$work"/src/executorch-cuda_*.changes)
debs=("$work"/src/*.deb)
for d in "${debs[@]}"; do
  echo "== $(basename "$d")"
  dpkg-deb -f "$d" Section Depends Recommends Provides | sed 's/^/   /'
  dpkg-deb -c "$d" | awk '{print "   " $6 ($7 ? " " $7 " " $8 : "")}' | grep -v '/$'
done
[ -n "${REUSE_WORK:-}" ] || step_done

step "lintian --pedantic"
# initial-upload-closes-no-bugs: this CI builds from the repository, not an
# archive upload; the first upload to Debian closes its ITP bug in
# debian/changelog, which has no number yet.
lintian --pedantic -I --display-experimental \
  --suppress-tags initial-upload-closes-no-bugs "${changes[@]}" > "$work/lintian.log" 2>&1 || true
cat "$work/lintian.log"
for sev in E W I P X O; do
  printf '   %s: %s\n' "$sev" "$(grep -c "^$sev: " "$work/lintian.log" || true)"
done
if grep -qE '^(E|W): ' "$work/lintian.log"; then
  echo "lintian reported errors or warnings that are not overridden"; exit 1
fi
step_done

# ---------------------------------------------------------------------------
step "bookworm minbase chroot (cache: $DEB_CACHE)"
tarball=$DEB_CACHE/bookworm-minbase-gxx-pkgconf.tar.gz
if [ ! -s "$tarball" ]; then
  debootstrap --variant=minbase --include=g++,pkgconf bookworm \
    "$work/boot" "$MIRROR" > "$work/debootstrap.log" 2>&1 || {
    tail -n 30 "$work/debootstrap.log"; exit 1; }
  tar -C "$work/boot" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
  rm -rf "${work:?}/boot"
fi
rm -rf "$chroot_dir"; mkdir -p "$chroot_dir"
tar -C "$chroot_dir" -xzf "$tarball"
mount -t proc proc "$chroot_dir/proc"
step_done

in_root() { chroot "$chroot_dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"; }

# What an untouched system holds: the purge check compares against it.
snapshot() {
  in_root find / -xdev \
    \( -path /proc -o -path /tmp -o -path /var/cache -o -path /var/lib/dpkg \
       -o -path /var/lib/apt -o -path /var/log -o -path /root -o -path /etc/ld.so.cache \) -prune \
    -o -print | sort
}

# libexecutorch-cuda-backend1 depends (debian/shlibs.local) on NVIDIA's
# cuda-cudart-13-0 and libcublas-13-0, which bookworm does not have. Local
# stand-in packages of those names hold the host toolkit's libcudart.so.13
# and libcublas{,Lt}.so.13 under /usr/local/cuda/lib64 with an
# ld.so.conf.d entry (NVIDIA's layout), so that the dependencies resolve,
# the backend loads and the purge check sees only dpkg-owned files. They
# are for this test only, never shipped (-Znone: cuBLAS is 600 MB).
step "stand-in CUDA runtime packages"
standin() {  # standin PACKAGE LIBRARY-GLOB...
  local name=$1 sd=$work/standin-$1; shift
  mkdir -p "$sd/DEBIAN" "$sd/usr/local/cuda/lib64" "$sd/etc/ld.so.conf.d"
  # shellcheck disable=SC2086 # $g is a glob
  for g in "$@"; do cp -a "$CUDA_ROOT"/lib64/$g "$sd/usr/local/cuda/lib64/"; done
  echo /usr/local/cuda/lib64 > "$sd/etc/ld.so.conf.d/$name.conf"
  cat > "$sd/DEBIAN/control" <<CTRL
Package: $name
Version: 13.0-0executorchci
Architecture: $(dpkg --print-architecture)
Maintainer: executorch CI <ci@localhost>
Description: stand-in for NVIDIA's $name package (CI only)
CTRL
  printf 'activate-noawait ldconfig\n' > "$sd/DEBIAN/triggers"
  dpkg-deb -Znone --root-owner-group -b "$sd" "$work/standin-$name.deb" > /dev/null
  rm -rf "$sd"
}
standin cuda-cudart-13-0 'libcudart.so.13*'
standin libcublas-13-0 'libcublas.so.13*' 'libcublasLt.so.13*'
step_done

step "install the packages in the chroot"
snapshot > "$work/before.txt"
mkdir -p "$chroot_dir/tmp/debs"
cp "${debs[@]}" "$chroot_dir/tmp/debs/"
cp "$work"/standin-*.deb "$chroot_dir/tmp/"
pkgs=()
for d in "${debs[@]}"; do pkgs+=("$(dpkg-deb -f "$d" Package)"); done
# executorch-tests and the -dbgsym packages are installed too: everything built.
in_root sh -c 'dpkg -i /tmp/standin-*.deb && rm /tmp/standin-*.deb' > /dev/null
in_root sh -c 'dpkg -i /tmp/debs/*.deb' > "$work/install.log" 2>&1 || {
  cat "$work/install.log"
  cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
  in_root apt-get update -qq && in_root apt-get -f install -y -qq
}
in_root dpkg -s "${pkgs[@]}" > /dev/null
step_done

# The autopkgtest scripts of debian/tests, run in the chroot the way
# autopkgtest's "null"/"chroot" runners would: each is a program, 77 = skip.
step "debian/tests of both sources in the chroot"
run_dep8() {  # run_dep8 SOURCE-DIR TEST skippable|no
  local rc=0
  rm -rf "$chroot_dir/tmp/autopkgtest"; mkdir -p "$chroot_dir/tmp/autopkgtest/tmp"
  cp -a "$1/debian/tests" "$chroot_dir/tmp/autopkgtest/"
  in_root env AUTOPKGTEST_TMP=/tmp/autopkgtest/tmp "/tmp/autopkgtest/tests/$2" || rc=$?
  case $rc in
    0) echo "   $(basename "$1") $2: PASS" ;;
    77) echo "   $(basename "$1") $2: SKIP (exit 77)"; [ "$3" = skippable ] || exit 1 ;;
    *) echo "   $(basename "$1") $2: FAIL (exit $rc)"; exit 1 ;;
  esac
}
run_dep8 "$work/src/executorch" installed-tests no
run_dep8 "$work/src/executorch" build-consumer no
# xnnpack-backend needs libexecutorch-xnnpack-backend1, not built on this
# bookworm host; .ci/distro-check.sh runs it where it is built.
run_dep8 "$work/src/executorch-cuda" installed-tests no
run_dep8 "$work/src/executorch-cuda" gpu skippable
run_dep8 "$work/src/executorch-cuda" build-consumer no
rm -rf "$chroot_dir/tmp/autopkgtest"
step_done

step "purge and check that nothing is left"
in_root dpkg --purge "${pkgs[@]}" cuda-cudart-13-0 libcublas-13-0 > /dev/null
# Dependencies apt pulled in (libsentencepiece0 for executorch-tools) go too.
in_root apt-get autoremove --purge -y -qq > /dev/null
snapshot > "$work/after.txt"
if ! diff -u "$work/before.txt" "$work/after.txt"; then
  echo "files left behind after purge (above)"; exit 1
fi
for p in "${pkgs[@]}"; do
  if in_root dpkg -s "$p" > /dev/null 2>&1; then echo "$p still installed"; exit 1; fi
done
echo "   chroot file list identical before install and after purge"
step_done

echo
echo "-- deb: all steps passed in $(( $(date +%s) - t0 ))s"
