#!/usr/bin/env bash
# RPM packages from rpm/executorch.spec: rpmbuild -ba (with %check), rpmlint
# with rpm/executorch.rpmlintrc (+ .cuda), also of the default build's source
# package and shared packages, install into an empty root, check the file
# list and the Provides/Requires, erase, check the root is empty again.
# Prints the time each step took.
#
# Environment: JOBS (default 2), GPU_ARCHS (default 90), CUDA_ROOT
# (default /usr/local/cuda), RPM_CHECK=0 builds with --nocheck, KEEP=1 keeps the work dir, REUSE_WORK=<a kept
# work dir> skips the build and checks the RPMs already there.
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS=${JOBS:-2}
GPU_ARCHS=${GPU_ARCHS:-90}
CUDA_ROOT=${CUDA_ROOT:-/usr/local/cuda}
RPM_CHECK=${RPM_CHECK:-1}
nocheck=()
[ "$RPM_CHECK" = 1 ] || nocheck=(--nocheck)

t0=$(date +%s)
step() { step_name=$1; step_start=$(date +%s); echo; echo "-- rpm: $1"; }
step_done() { echo "-- rpm: $step_name: $(( $(date +%s) - step_start ))s"; }

work=${REUSE_WORK:-$(mktemp -d /tmp/executorch-rpm.XXXXXX)}
cleanup() { if [ "${KEEP:-0}" = 1 ]; then echo "work dir kept: $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT
top=$work/rpmbuild
mkdir -p "$top"/{SOURCES,SPECS,BUILD,RPMS,SRPMS}

version=$(rpmspec -q --qf '%{version}\n' --srpm rpm/executorch.spec 2>/dev/null | head -n1)
: "${version:=$(sed -n 's/^Version: *//p' rpm/executorch.spec)}"

if [ -z "${REUSE_WORK:-}" ]; then
step "Source0, Source1: the release tarballs of the working tree"
# A throw-away index holds HEAD plus the working tree's changes and
# untracked (not ignored) files; the real index is not touched.
GIT_INDEX_FILE=$work/index git read-tree HEAD
GIT_INDEX_FILE=$work/index git add -A .
tree=$(GIT_INDEX_FILE=$work/index git write-tree)
# Source0 and Source1 (the GPU fixtures): tools/release/make-tarballs.sh.
tools/release/make-tarballs.sh "$tree" "$version" "$top/SOURCES"
cp rpm/executorch.spec "$top/SPECS/"
step_done

step "rpmbuild -ba --nodeps --with cuda ${nocheck[*]} (gpu_archs=$GPU_ARCHS; %check runs meson test)"
# --nodeps: the BuildRequires name Fedora/NVIDIA packages; here they come
# from Debian packages and the NVIDIA toolkit under $CUDA_ROOT.
rpmbuild -ba --nodeps --with cuda "${nocheck[@]}" \
  --define "_topdir $top" \
  --define "_smp_build_ncpus $JOBS" \
  --define "gpu_archs $GPU_ARCHS" \
  --define "cuda_root $CUDA_ROOT" \
  "$top/SPECS/executorch.spec" > "$work/rpmbuild.log" 2>&1 || {
  tail -n 80 "$work/rpmbuild.log"; echo "rpmbuild failed"; exit 1; }
grep -E '^(Ok:|Fail:|Skipped:|Expected Fail:|Timeout:)' "$work/rpmbuild.log" | sed 's/^/   /' || true
fi
mapfile -t rpms < <(find "$top/RPMS" -name '*.rpm' | sort)
srpm=$(find "$top/SRPMS" -name '*.src.rpm')
for r in "${rpms[@]}"; do
  echo "== $(basename "$r")"
  rpm -qpl "$r" | sed 's/^/   /'
done
[ -n "${REUSE_WORK:-}" ] || step_done

step "rpmlint (filters: rpm/executorch.rpmlintrc, + rpm/executorch.rpmlintrc.cuda for --with cuda)"
# rpmlint takes one rpmlintrc and reports filters that match nothing
# (unused-rpmlintrc-filter), so each build gets the filters that fit it.
# --with cuda: everything built above, with both files.
cat rpm/executorch.rpmlintrc rpm/executorch.rpmlintrc.cuda > "$work/cuda.rpmlintrc"
echo "== --with cuda: all of the above" > "$work/rpmlint.log"
rpmlint -r "$work/cuda.rpmlintrc" ${srpm:+"$srpm"} "${rpms[@]}" >> "$work/rpmlint.log" 2>&1 || true
# The default build (CUDA off, what Fedora builds): its own source package
# (the BuildRequires differ) and the packages both builds make, with
# rpm/executorch.rpmlintrc alone.
mkdir -p "$work/rpmbuild-default/SRPMS"
rpmbuild -bs --nodeps --define "_topdir $work/rpmbuild-default" --define "_sourcedir $top/SOURCES" \
  "$top/SPECS/executorch.spec" > "$work/rpmbuild-default.log" 2>&1 || {
  cat "$work/rpmbuild-default.log"; echo "rpmbuild -bs (default build) failed"; exit 1; }
default_rpms=("$work"/rpmbuild-default/SRPMS/*.src.rpm)
for r in "${rpms[@]}"; do
  case $(rpm -qp --qf '%{name}' "$r") in executorch|executorch-devel|executorch-tools|executorch-tests) default_rpms+=("$r") ;; esac
done
echo "== default build (CUDA off): $(basename -a "${default_rpms[@]}" | tr '\n' ' ')" >> "$work/rpmlint.log"
rpmlint -r rpm/executorch.rpmlintrc "${default_rpms[@]}" >> "$work/rpmlint.log" 2>&1 || true
cat "$work/rpmlint.log"
if grep -qE ': (E|W): ' "$work/rpmlint.log"; then
  echo "rpmlint reported errors or warnings that are not filtered"; exit 1
fi
step_done

step "install into an empty root"
R=$work/root
rm -rf "$R"; mkdir -p "$R"
rpm --root "$R" --initdb
# --nodeps: the empty root has no glibc, libstdc++ or CUDA runtime packages.
rpm --root "$R" -i --nodeps "${rpms[@]}"
rpm --root "$R" -qa | sort | sed 's/^/   /'
dbdir=$(rpm --root "$R" --eval '%{_dbpath}')
files() { find "$R" \( -path "$R$dbdir" -o -path "$R/var/lib/rpm" -o -path "$R/usr/lib/sysimage" \) -prune -o \( -type f -o -type l \) -print | sed "s|^$R||" | sort; }
files > "$work/installed.txt"
step_done

step "file list, SONAME links, Provides/Requires"
fail=0
need() { grep -qxF "$1" "$work/installed.txt" || { echo "   missing: $1"; fail=1; }; }
lib=/usr/lib64
for l in libexecutorch libexecutorch_extension_cuda libexecutorch_cuda_backend; do
  need $lib/$l.so
  need $lib/$l.so.1
  need $lib/$l.so.1.0.0
  [ "$(readlink "$R$lib/$l.so.1")" = "$l.so.1.0.0" ] || { echo "   $l.so.1 does not point at $l.so.1.0.0"; fail=1; }
  soname=$(readelf -d "$R$lib/$l.so.1.0.0" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  [ "$soname" = "$l.so.1" ] || { echo "   $l: SONAME '$soname'"; fail=1; }
  if readelf -d "$R$lib/$l.so.1.0.0" | grep -qE 'RPATH|RUNPATH'; then echo "   $l has an RPATH/RUNPATH"; fail=1; fi
done
need $lib/pkgconfig/executorch.pc
need $lib/pkgconfig/executorch-cuda.pc
need $lib/pkgconfig/executorch-extension-cuda.pc
grep -q "^$lib/cmake/executorch/.*[Cc]onfig\.cmake$" "$work/installed.txt" || { echo "   no CMake package config"; fail=1; }
need /usr/bin/executorch-run
grep -q '^/usr/share/man/man1/executorch-run\.1' "$work/installed.txt" || { echo "   no man page"; fail=1; }
grep -q '^/usr/include/executorch/' "$work/installed.txt" || { echo "   no headers"; fail=1; }
grep -q '^/usr/libexec/executorch/' "$work/installed.txt" || { echo "   no installed tests"; fail=1; }
need /usr/share/executorch-tests/add.pte
if grep -E '^/usr/lib/|^/usr/local/' "$work/installed.txt" | grep -v '^/usr/lib/\.build-id/'; then echo "   files outside %{_libdir}"; fail=1; fi

rpm -qp --provides "${rpms[@]}" | sort -u > "$work/provides.txt"
rpm -qp --requires "${rpms[@]}" | sort -u > "$work/requires.txt"
echo "   Provides:"; sed 's/^/     /' "$work/provides.txt"
echo "   Requires:"; sed 's/^/     /' "$work/requires.txt"
for p in 'libexecutorch.so.1()(64bit)' 'libexecutorch_cuda_backend.so.1()(64bit)' \
         'libexecutorch_extension_cuda.so.1()(64bit)' 'pkgconfig(executorch)' \
         'pkgconfig(executorch-cuda)' 'pkgconfig(executorch-extension-cuda)'; do
  grep -qF "$p" "$work/provides.txt" || { echo "   not provided: $p"; fail=1; }
done
grep -q '^libcudart\.so\.13()(64bit)' "$work/requires.txt" || { echo "   no requirement on the CUDA runtime (libcudart.so.13)"; fail=1; }
if grep -F '/usr/libexec/executorch' "$work/provides.txt"; then echo "   installed tests leak Provides"; fail=1; fi
[ $fail = 0 ]
step_done

step "rpm -e and check the root is empty again"
mapfile -t names < <(rpm --root "$R" -qa --qf '%{name}\n')
rpm --root "$R" -e --nodeps "${names[@]}"
left=$(files)
if [ -n "$left" ]; then echo "left behind:"; echo "$left"; exit 1; fi
echo "   no files left"
step_done

echo
echo "-- rpm: all steps passed in $(( $(date +%s) - t0 ))s"
