#!/usr/bin/env bash
# The step_* functions are called through "$fn" (SC2317 cannot see that).
# shellcheck disable=SC2317
# What a distribution does with a release, from a `git archive` tarball:
#
#   tarball    tools/release/make-tarballs.sh REF -> executorch_V.orig.tar.gz
#              (the same bytes as executorch-cuda_V.orig.tar.gz) and the GPU
#              fixtures, executorch-cuda_V.orig-gpufixtures.tar.gz
#   dsc        dpkg-source -b: executorch (debian/, main) and executorch-cuda
#              (debian/contrib/ as debian/, contrib)
#   build-cpu  executorch in a clean bookworm chroot (main contrib non-free)
#              holding build-essential and its Build-Depends only, WITH its
#              tests (dh_auto_test), as an unprivileged user
#   build-profiles executorch again with DEB_BUILD_PROFILES="nocheck
#              noinsttest" (so without GoogleTest): the packages it builds
#              must be identical to build-cpu's, and executorch-tests absent
#   build-cuda executorch-cuda the same way, with Debian's own
#              nvidia-cuda-toolkit 11.8 (non-free), main's packages from a
#              local repository
#   repro      executorch-cuda built again under another build path; every
#              .deb must be bit-identical (diffoscope shows what is not)
#   install    a clean minbase chroot: plain `apt install` of the CUDA set from
#              the local repository plus Debian's archive, the installed tests
#              (the GPU part skips: exit 77) and the autopkgtests of both
#              sources (debian/tests, run the way autopkgtest runs them)
#   piuparts   install/purge of the CPU set and of the CUDA set
#   rpm        rpmbuild -ba (with %check) from the same tarball, Fedora's
#              default (%bcond_with cuda: no CUDA)
#   cross      executorch cross-built for CROSS_ARCH (arm64) in a clean chroot
#              with crossbuild-essential and `apt-get build-dep -a`,
#              profiles cross,nocheck; the test programs it built then run
#              under qemu-user (not in the default STEPS)
#
# Each step prints its time; a summary lists PASS/FAIL/SKIP per step. Steps
# whose input is missing fail saying so. Needs root (chroot, mounts) and
# dpkg-dev, and for the steps asked for: debootstrap (chroots), piuparts,
# diffoscope(-minimal) (build-profiles, repro), rpm.
#
# Environment: STEPS (default: all of the above but cross, space-separated),
# REF (default HEAD), JOBS (2), GPU_ARCHS (default: debian/contrib/rules'),
# MIRROR, SUITE (bookworm; trixie or sid for where new packages go),
# CROSS_ARCH (arm64), CACHE (/var/cache/executorch-ci: base tarballs and
# downloaded .debs), CACHE_DAYS (7: a base tarball this old is made again),
# WORK (default: a new temporary directory; a kept one is reused, so later
# steps can be re-run alone), KEEP=1 keeps WORK.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
root=$PWD
STEPS=${STEPS:-tarball dsc build-cpu build-profiles build-cuda repro install piuparts rpm}
REF=${REF:-HEAD}
JOBS=${JOBS:-2}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
CACHE=${CACHE:-/var/cache/executorch-ci}
CACHE_DAYS=${CACHE_DAYS:-7}
COMPONENTS="main contrib non-free"
SUITE=${SUITE:-bookworm}
[ "$(id -u)" = 0 ] || { echo "distro-check: needs root (chroots, mounts)"; exit 2; }
CROSS_ARCH=${CROSS_ARCH:-arm64}
# The tools of the steps asked for (tool:Debian package).
needs=(dpkg-parsechangelog:dpkg-dev)
for s in $STEPS; do
  case $s in
    tarball) needs+=(git:git) ;;
    dsc) needs+=(dpkg-source:dpkg-dev) ;;
    build-cpu) needs+=(debootstrap:debootstrap) ;;
    cross) needs+=(debootstrap:debootstrap file:file) ;;
    build-profiles | repro) needs+=(debootstrap:debootstrap diffoscope:diffoscope-minimal) ;;
    build-cuda | install) needs+=(debootstrap:debootstrap dpkg-scanpackages:dpkg-dev) ;;
    piuparts) needs+=(debootstrap:debootstrap piuparts:piuparts) ;;
    rpm) needs+=(rpmbuild:rpm) ;;
  esac
done
missing=()
for n in "${needs[@]}"; do
  command -v "${n%%:*}" > /dev/null || [[ " ${missing[*]} " == *" ${n#*:} "* ]] || missing+=("${n#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "distro-check: missing tools for STEPS=\"$STEPS\"; on Debian: apt-get install ${missing[*]}"
  exit 2
fi
mkdir -p "$CACHE/apt-archives/partial"
W=${WORK:-$(mktemp -d /tmp/executorch-distro.XXXXXX)}
mkdir -p "$W"
V=$(dpkg-parsechangelog -l debian/changelog -S Version)
UV=${V%-*}
t0=$(date +%s)
declare -A result
declare -A took
mounted=()

cleanup() {
  local m
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
    m=${mounted[$i]}
    mountpoint -q "$m" && umount -l "$m"
  done
  if [ "${KEEP:-0}" = 1 ] || [ -n "${WORK:-}" ]; then echo "work dir kept: $W"; else rm -rf "$W"; fi
}
trap cleanup EXIT

log() { echo "   $*"; }

# --- chroots ----------------------------------------------------------------

# base_tarball VARIANT: a cached debootstrap of $SUITE (main contrib
# non-free) with an unprivileged "builder" user and no recommends, made
# again once older than CACHE_DAYS (sid moves).
base_tarball() {
  local variant=$1 tb=$CACHE/$SUITE-$1.tar.gz dir
  [ -z "$(find "$tb" -mtime +"$((CACHE_DAYS - 1))" 2> /dev/null)" ] || rm -f "$tb"
  if [ ! -s "$tb" ]; then
    dir=$W/debootstrap-$variant
    rm -rf "$dir"
    debootstrap --variant="$variant" --components="${COMPONENTS// /,}" "$SUITE" "$dir" "$MIRROR" \
      > "$W/debootstrap-$variant.log" 2>&1 || { tail -n 20 "$W/debootstrap-$variant.log"; return 1; }
    chroot "$dir" sh -c 'useradd -m -u 2000 builder 2>/dev/null || true
      echo "APT::Install-Recommends \"false\";" > /etc/apt/apt.conf.d/90norecommends
      apt-get clean; rm -rf /var/lib/apt/lists/*'
    tar -C "$dir" -czf "$tb.tmp" . && mv "$tb.tmp" "$tb"
    rm -rf "$dir"
  fi
  echo "$tb"
}

# new_chroot DIR VARIANT [LOCAL-REPO]: unpack a base tarball, mount what a
# build needs, share the .deb download cache, add the local repository.
new_chroot() {
  local dir=$1 tb
  tb=$(base_tarball "$2") || return 1
  rm -rf "$dir"; mkdir -p "$dir"
  tar -C "$dir" -xzf "$tb"
  chroot "$dir" id builder > /dev/null 2>&1 || chroot "$dir" useradd -m -u 2000 builder
  [ -f "$dir/etc/apt/apt.conf.d/90norecommends" ] ||
    echo 'APT::Install-Recommends "false";' > "$dir/etc/apt/apt.conf.d/90norecommends"
  # A mirror snapshot of trixie or sid can be older than its Release file's
  # Valid-Until; the packages are still the ones to build against.
  [ "$SUITE" = bookworm ] ||
    echo 'Acquire::Check-Valid-Until "false";' > "$dir/etc/apt/apt.conf.d/90snapshot"
  cp /etc/resolv.conf "$dir/etc/resolv.conf"
  mount -t proc proc "$dir/proc"; mounted+=("$dir/proc")
  mount --bind /dev "$dir/dev"; mounted+=("$dir/dev")
  mount -t devpts devpts "$dir/dev/pts" 2>/dev/null && mounted+=("$dir/dev/pts")
  mount --bind "$CACHE/apt-archives" "$dir/var/cache/apt/archives"
  mounted+=("$dir/var/cache/apt/archives")
  if [ -n "${3:-}" ]; then
    mkdir -p "$dir/srv/repo"
    cp "$3"/* "$dir/srv/repo/"
    echo "deb [trusted=yes] file:/srv/repo ./" > "$dir/etc/apt/sources.list.d/local.list"
  fi
  in_chroot "$dir" apt-get update -q > "$dir.apt-update.log" 2>&1 || { cat "$dir.apt-update.log"; return 1; }
}

drop_chroot() {
  local dir=$1 m
  for m in var/cache/apt/archives dev/pts dev proc; do
    mountpoint -q "$dir/$m" && umount -l "$dir/$m"
  done
  rm -rf "$dir"
}

in_chroot() {
  local dir=$1; shift
  chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# make_repo DIR: an apt repository (Packages) of the .debs in DIR.
make_repo() {
  (cd "$1" && dpkg-scanpackages --multiversion . > Packages 2> /dev/null)
}

# --- steps ------------------------------------------------------------------

step_tarball() {
  mkdir -p "$W/src"
  (cd "$root" && tools/release/make-tarballs.sh "$REF" "$UV" "$W/rel") || return 1
  cp "$W/rel/executorch-$UV.tar.gz" "$W/src/executorch_$UV.orig.tar.gz"
  cp "$W/rel/executorch-$UV.tar.gz" "$W/src/executorch-cuda_$UV.orig.tar.gz"
  cp "$W/rel/executorch-gpu-fixtures-$UV.tar.gz" "$W/src/executorch-cuda_$UV.orig-gpufixtures.tar.gz"
  log "$(du -h "$W/src/executorch_$UV.orig.tar.gz" | cut -f1) from $(git -C "$root" rev-parse --short "$REF")"
}

step_dsc() {
  local s
  for s in executorch executorch-cuda; do
    rm -rf "$W/src/$s-$UV"; mkdir -p "$W/src/$s-$UV"
    tar -C "$W/src/$s-$UV" --strip-components=1 -xzf "$W/src/${s}_$UV.orig.tar.gz"
  done
  mkdir -p "$W/src/executorch-cuda-$UV/gpufixtures"
  tar -C "$W/src/executorch-cuda-$UV/gpufixtures" --strip-components=1 \
    -xzf "$W/src/executorch-cuda_$UV.orig-gpufixtures.tar.gz"
  # The contrib source: the same upstream tree, debian/contrib as debian/.
  (cd "$W/src/executorch-cuda-$UV" && mv debian debian.main && mv debian.main/contrib debian &&
     rm -rf debian.main)
  for s in executorch executorch-cuda; do
    (cd "$W/src" && dpkg-source -b "$s-$UV") > "$W/dsc-$s.log" 2>&1 ||
      { cat "$W/dsc-$s.log"; return 1; }
    log "$(ls "$W/src/${s}_$V.dsc")"
  done
}

# build_in_chroot NAME SOURCE [LOCAL-REPO] [BUILD-PATH] [PROFILES]
# [HOST-ARCH]: build SOURCE_V.dsc WITH its tests (unless PROFILES,
# comma-separated, says nocheck) in a clean chroot that gets only
# build-essential and the Build-Depends (of those PROFILES); with HOST-ARCH,
# a cross build from crossbuild-essential-HOST-ARCH and the host's
# Build-Depends. The .debs land in $W/out-NAME.
build_in_chroot() {
  local name=$1 src=$2 repo=${3:-} bpath=${4:-/build/$2} profiles=${5:-} host=${6:-} dir=$W/chroot-$1 dsc rc=0
  local options="parallel=$JOBS"
  [[ ,$profiles, != *,nocheck,* ]] || options="$options nocheck"
  # Bookworm's XNNPACK is too old for the backend: main builds there
  # without it (debian/control's pkg.executorch.noxnnpack).
  if [ "$src" = executorch ] && [ "$SUITE" = bookworm ]; then
    profiles=${profiles:+$profiles,}pkg.executorch.noxnnpack
  fi
  dsc=${src}_$V.dsc
  new_chroot "$dir" buildd "$repo" || return 1
  if [ -n "$host" ]; then
    { in_chroot "$dir" dpkg --add-architecture "$host" && in_chroot "$dir" apt-get update -q &&
      in_chroot "$dir" apt-get install -y -q "crossbuild-essential-$host"; } \
      > "$W/$name-crossbuild-essential.log" 2>&1 ||
      { tail -n 30 "$W/$name-crossbuild-essential.log"; drop_chroot "$dir"; return 1; }
  fi
  mkdir -p "$dir$bpath"
  cp "$W/src/$dsc" "$W/src/${src}_$UV".orig*.tar.gz "$W/src/${src}_$V.debian.tar.xz" "$dir$bpath/"
  in_chroot "$dir" chown -R builder: "$(dirname "$bpath")" "$bpath"
  in_chroot "$dir" apt-get build-dep -y -q ${host:+-a "$host"} ${profiles:+-P "$profiles"} "$bpath/$dsc" \
    > "$W/$name-build-dep.log" 2>&1 ||
    { tail -n 30 "$W/$name-build-dep.log"; drop_chroot "$dir"; return 1; }
  log "Build-Depends installed: $(grep -c '^Setting up' "$W/$name-build-dep.log") packages"
  [ -z "${GPU_ARCHS:-}" ] || export GPU_ARCHS
  in_chroot "$dir" runuser -u builder -- env DEB_BUILD_OPTIONS="$options" \
    ${profiles:+DEB_BUILD_PROFILES="${profiles//,/ }"} ${GPU_ARCHS:+GPU_ARCHS=$GPU_ARCHS} \
    sh -c "cd $bpath && dpkg-source -x $dsc src > /dev/null &&
      cd src && dpkg-buildpackage -us -uc -b ${host:+--host-arch $host}" > "$W/$name-build.log" 2>&1 || rc=$?
  if [ "$rc" != 0 ]; then
    tail -n 60 "$W/$name-build.log"; drop_chroot "$dir"; return 1
  fi
  grep -E '^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout): ' "$W/$name-build.log" | sed 's/^/   tests /'
  grep -E 'WARNING: gpu_archs|dpkg-shlibdeps: warning|dh_missing' "$W/$name-build.log" | sed 's/^/   /'
  rm -rf "$W/out-$name"; mkdir -p "$W/out-$name"
  cp "$dir$bpath"/*.deb "$dir$bpath"/*.changes "$W/out-$name/"
  for d in "$W/out-$name"/*.deb; do
    log "$(basename "$d"): $(dpkg-deb -f "$d" Depends | cut -c1-160)"
    case $(dpkg-deb -f "$d" Package) in
      libexecutorch-cuda-backend1)
        log "   Recommends: $(dpkg-deb -f "$d" Recommends); Suggests: $(dpkg-deb -f "$d" Suggests)" ;;
    esac
  done
  [ -n "${keep_chroot:-}" ] || drop_chroot "$dir"
}

step_build_cpu() {
  local keep_chroot=1 rc=0
  build_in_chroot cpu executorch || return 1
  check_xnnpack cpu || rc=1
  drop_chroot "$W/chroot-cpu"
  return "$rc"
}

# check_xnnpack NAME: where debian/control builds the XNNPACK backend (its
# architectures, not bookworm), build NAME (chroot kept) made its package
# and ran its tests, xnnpack_backend_test included, which passed with no
# case skipped; elsewhere it made no such package.
check_xnnpack() {
  local name=$1 archs deb testlog
  archs=$(awk '/^Package: libexecutorch-xnnpack-backend1$/ { p = 1 }
    p && /^Architecture:/ { sub(/^Architecture:/, ""); print; exit }' "$W/src/executorch-$UV/debian/control")
  deb=$(ls "$W/out-$name"/libexecutorch-xnnpack-backend1_*.deb 2> /dev/null)
  if [ "$SUITE" = bookworm ] || [[ " $archs " != *" $(dpkg --print-architecture) "* ]]; then
    [ -z "$deb" ] || { log "XNNPACK backend built where it should not be: $deb"; return 1; }
    log "XNNPACK backend: not built here, as intended"; return 0
  fi
  [ -n "$deb" ] || { log "XNNPACK backend: no libexecutorch-xnnpack-backend1 package"; return 1; }
  log "XNNPACK backend: $(dpkg-deb -c "$deb" | awk '{ print $6 ($7 ? " " $7 " " $8 : "") }' | grep -v '/$' | tr '\n' ' ')"
  grep -E '[0-9]+/[0-9]+ .*xnnpack' "$W/$name-build.log" | sed 's/^ */   tests /'
  testlog=$(ls "$W/chroot-$name"/build/executorch/src/obj-*/meson-logs/testlog.txt 2> /dev/null)
  [ -n "$testlog" ] || { log "XNNPACK backend: no meson testlog.txt"; return 1; }
  cp "$testlog" "$W/$name-testlog.txt"
  # The test's section of the log: its gtest output.
  awk '/^=+ [0-9]+\/[0-9]+ =+$/ { p = 0 } /^test: .*xnnpack_backend_test$/ { p = 1 } p' "$W/$name-testlog.txt" \
    > "$W/$name-xnnpack-backend-test.log"
  if ! grep -qE '^result: +exit status 0$' "$W/$name-xnnpack-backend-test.log" ||
     ! grep -qE '^\[  PASSED  \] [1-9][0-9]* test' "$W/$name-xnnpack-backend-test.log" ||
     grep -q '^\[  SKIPPED \]' "$W/$name-xnnpack-backend-test.log"; then
    log "XNNPACK backend: xnnpack_backend_test did not run and pass with nothing skipped:"
    tail -n 30 "$W/$name-xnnpack-backend-test.log"; return 1
  fi
  log "XNNPACK backend: xnnpack_backend_test $(grep -E '^\[  PASSED  \]' "$W/$name-xnnpack-backend-test.log")"
}

# A cross build must configure without running host programs and give
# packages of the host architecture (or all). Then the test programs it
# built (nocheck builds them, runs none) run under qemu-user. Tests driven
# by a script or by python3 start the host programs themselves, which needs
# binfmt_misc (not something a chroot can count on): listed as NOT-RUN.
step_cross() {
  local d a fail=0 keep_chroot=1 dir=$W/chroot-cross bdir qemu
  build_in_chroot cross executorch "" /build/executorch cross,nocheck "$CROSS_ARCH" || return 1
  for d in "$W/out-cross"/*.deb; do
    a=$(dpkg-deb -f "$d" Architecture)
    [ "$a" = "$CROSS_ARCH" ] || [ "$a" = all ] || { log "WRONG ARCHITECTURE $a: $(basename "$d")"; fail=1; }
  done
  d=$(ls "$W/out-cross"/libexecutorch1_*.deb)
  log "libexecutorch.so.1: $(dpkg-deb --fsys-tarfile "$d" | tar -xO --wildcards '*/libexecutorch.so.1.*' | file -b - | cut -d, -f1-2)"
  case $CROSS_ARCH in
    arm64) qemu="qemu-aarch64" ;; armhf | armel) qemu="qemu-arm" ;; ppc64el) qemu="qemu-ppc64le" ;;
    riscv64 | s390x | mips64el) qemu="qemu-$CROSS_ARCH" ;; *) qemu="" ;;
  esac
  bdir=$(cd "$dir/build/executorch/src" && ls -d obj-*)
  if [ -z "$qemu" ]; then
    log "no qemu-user mapping for $CROSS_ARCH: tests not run"
  elif ! in_chroot "$dir" apt-get install -y -q qemu-user > "$W/cross-qemu-install.log" 2>&1; then
    tail -n 20 "$W/cross-qemu-install.log"; fail=1
  else
    cat > "$dir/tmp/qemu-tests.py" <<'PY'
import json, os, subprocess, sys
qemu, bdir = sys.argv[1], sys.argv[2]
def machine(path):
    try:
        with open(path, 'rb') as f:
            h = f.read(20)
    except OSError:
        return None
    return h[18:20] if h[:4] == b'\x7fELF' else None
# qemu-user accepts setrlimit(RLIMIT_AS) and does not apply it to the guest.
emulator_limits = {'module_memory_test': 'ModuleMemory.UnderRlimitAsHugeBuffersAreAnErrorNotACrash'}
native, counts = machine('/bin/sh'), {}
for t in json.load(open(os.path.join(bdir, 'meson-info', 'intro-tests.json'))):
    m = machine(t['cmd'][0])
    left_out = emulator_limits.get(t['name'])
    if m is None or m == native:
        r = 'NOT-RUN'
    else:
        cmd = t['cmd'] + (['--gtest_filter=-' + left_out] if left_out else [])
        try:
            p = subprocess.run([qemu] + cmd, cwd=t['workdir'] or bdir,
                               env=dict(os.environ, **t['env']), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, timeout=max(t['timeout'], 30) * 10)
            r = {0: 'OK', 77: 'SKIP'}.get(p.returncode, 'FAIL')
            if r == 'FAIL':
                print(p.stdout.decode(errors='replace')[-4000:])
        except subprocess.TimeoutExpired:
            r = 'TIMEOUT'
    counts[r] = counts.get(r, 0) + 1
    print(r, t['name'], '(left out: %s)' % left_out if left_out and r != 'NOT-RUN' else '', flush=True)
print('summary:', ', '.join('%s %d' % kv for kv in sorted(counts.items())))
sys.exit(1 if counts.get('FAIL') or counts.get('TIMEOUT') else 0)
PY
    if in_chroot "$dir" runuser -u builder -- python3 /tmp/qemu-tests.py "$qemu" \
         "/build/executorch/src/$bdir" > "$W/cross-qemu-tests.log" 2>&1; then
      log "tests under $qemu: $(tail -n 1 "$W/cross-qemu-tests.log" | sed 's/^summary: //')"
      grep -o '(left out: .*)' "$W/cross-qemu-tests.log" | sed 's/^/     /'
    else
      fail=1; log "tests under $qemu:"; grep -E '^(FAIL|TIMEOUT) ' "$W/cross-qemu-tests.log" | sed 's/^/     /'
      tail -n 1 "$W/cross-qemu-tests.log" | sed 's/^summary: /     /'
    fi
  fi
  drop_chroot "$dir"
  return "$fail"
}

# same_debs NAME DIR-A DIR-B [ALLOWED-MISSING-GLOB]: every .deb of DIR-A
# is bit-identical in DIR-B (diffoscope shows what is not); a .deb matching
# the glob may be absent from DIR-B.
same_debs() {
  local name=$1 da=$2 db=$3 allowed=${4:-} a b d fail=0
  for a in "$da"/*.deb; do
    d=$(basename "$a"); b=$db/$d
    if [ ! -f "$b" ]; then
      # shellcheck disable=SC2053 # $allowed is a glob on purpose
      if [ -n "$allowed" ] && [[ $d == $allowed ]]; then log "not built, as intended: $d"
      else fail=1; log "MISSING: $d"; fi
    elif cmp -s "$a" "$b"; then
      log "identical: $d"
    else
      fail=1; log "DIFFERS: $d"
      diffoscope --text "$W/$name-$d.diff" "$a" "$b" > /dev/null 2>&1
      head -n 40 "$W/$name-$d.diff" | sed 's/^/     /'
    fi
  done
  return "$fail"
}

# Debian's build profile rules: a profile may drop packages but must not
# change the ones it still builds.
step_build_profiles() {
  [ -d "$W/out-cpu" ] || { echo "no CPU packages (build-cpu)"; return 1; }
  build_in_chroot cpu-profiles executorch "" /build/executorch nocheck,noinsttest || return 1
  if grep -qE 'Setting up (googletest|libgtest-dev|libgmock-dev)' "$W/cpu-profiles-build-dep.log"; then
    log "GoogleTest was installed although the profiles do not need it"; return 1
  fi
  same_debs profiles "$W/out-cpu" "$W/out-cpu-profiles" 'executorch-tests_*'
}

step_build_cuda() {
  [ -d "$W/out-cpu" ] || { echo "no CPU packages (build-cpu)"; return 1; }
  rm -rf "$W/repo-cpu"; mkdir -p "$W/repo-cpu"
  cp "$W/out-cpu"/*.deb "$W/repo-cpu/"; make_repo "$W/repo-cpu"
  build_in_chroot cuda executorch-cuda "$W/repo-cpu"
}

step_repro() {
  [ -d "$W/out-cuda" ] || { echo "no CUDA packages (build-cuda)"; return 1; }
  build_in_chroot cuda-b executorch-cuda "$W/repo-cpu" /srv/elsewhere/deeper/executorch-cuda || return 1
  same_debs repro "$W/out-cuda" "$W/out-cuda-b"
}

# The autopkgtests of one source, run in the chroot the way autopkgtest's
# chroot runner does: the test Depends installed with apt, each test a
# program run from the root of the unpacked source (bind-mounted at
# /tmp/dep8/src), 77 = skip, allowed for "skippable". A test that needs a
# package of this source that this build did not make (a build profile or
# the architecture left it out) is not run, and says so.
run_autopkgtests() {
  local dir=$1 testsdir=$2 srcdir name deps restr rc dep missing fail=0
  srcdir=${testsdir%/debian/tests}
  rm -rf "$dir/tmp/dep8"; mkdir -p "$dir/tmp/dep8/tmp" "$dir/tmp/dep8/src"
  mount --bind "$srcdir" "$dir/tmp/dep8/src" || return 1
  mounted+=("$dir/tmp/dep8/src")
  while IFS='|' read -r name deps restr; do
    [ -n "$name" ] || continue
    missing=""
    for dep in $deps; do
      if grep -qx "Package: $dep" "$srcdir/debian/control" && ! ls "$W/repo/${dep}"_*.deb > /dev/null 2>&1; then
        missing="$missing $dep"
      fi
    done
    if [ -n "$missing" ]; then log "autopkgtest $name: not run: needs$missing, not built here"; continue; fi
    # shellcheck disable=SC2086 # one word per package
    in_chroot "$dir" apt-get install -y -q $deps > "$W/dep8-$name.log" 2>&1 ||
      { cat "$W/dep8-$name.log"; fail=1; break; }
    rc=0
    # shellcheck disable=SC2016 # $1 is the inner shell's
    in_chroot "$dir" env AUTOPKGTEST_TMP=/tmp/dep8/tmp sh -c 'cd /tmp/dep8/src && exec "debian/tests/$1"' \
      sh "$name" >> "$W/dep8-$name.log" 2>&1 || rc=$?
    case $rc in
      0) log "autopkgtest $name: PASS" ;;
      77) if [[ $restr == *skippable* ]]; then log "autopkgtest $name: SKIP (77)"
          else log "autopkgtest $name: FAIL (77 without skippable)"; tail -n 20 "$W/dep8-$name.log"; fail=1; break; fi ;;
      *) log "autopkgtest $name: FAIL (exit $rc)"; tail -n 30 "$W/dep8-$name.log"; fail=1; break ;;
    esac
  done < <(python3 "$root/.ci/dep8-tests.py" "$testsdir/control")
  umount -l "$dir/tmp/dep8/src"
  return "$fail"
}

step_install() {
  [ -d "$W/out-cuda" ] || { echo "no CUDA packages (build-cuda)"; return 1; }
  local dir=$W/chroot-install
  rm -rf "$W/repo"; mkdir -p "$W/repo"
  cp "$W/out-cpu"/*.deb "$W/out-cuda"/*.deb "$W/repo/"; make_repo "$W/repo"
  new_chroot "$dir" minbase "$W/repo" || return 1
  in_chroot "$dir" apt-get install -y -q libexecutorch-cuda libexecutorch-cuda-dev \
    executorch-cuda-tests > "$W/install-apt.log" 2>&1 || { tail -n 30 "$W/install-apt.log"; drop_chroot "$dir"; return 1; }
  log "apt install: $(grep -c '^Setting up' "$W/install-apt.log") packages"
  # shellcheck disable=SC2016 # dpkg-query's format, not the shell's
  in_chroot "$dir" dpkg-query -W -f '${Package} ${Version}\n' 'libexecutorch*' 'executorch*' 'libcudart*' 'libcublas*' |
    sed 's/^/     /'
  local rc=0
  in_chroot "$dir" /usr/libexec/executorch/installed-tests/run-installed-tests > "$W/installed.log" 2>&1 || rc=$?
  log "run-installed-tests: exit $rc, $(tail -n 1 "$W/installed.log")"
  [ "$rc" = 0 ] || { cat "$W/installed.log"; drop_chroot "$dir"; return 1; }
  rc=0
  in_chroot "$dir" /usr/libexec/executorch/installed-tests/run-installed-tests --gpu > "$W/installed-gpu.log" 2>&1 || rc=$?
  log "run-installed-tests --gpu: exit $rc (77: no GPU here), $(tail -n 1 "$W/installed-gpu.log")"
  [ "$rc" = 0 ] || [ "$rc" = 77 ] || { cat "$W/installed-gpu.log"; drop_chroot "$dir"; return 1; }
  if ! run_autopkgtests "$dir" "$W/src/executorch-$UV/debian/tests" ||
     ! run_autopkgtests "$dir" "$W/src/executorch-cuda-$UV/debian/tests"; then
    drop_chroot "$dir"; return 1
  fi
  drop_chroot "$dir"
}

# piuparts_set NAME PACKAGE...: install and purge from the local repository
# plus Debian's archive in piuparts' own chroot.
piuparts_set() {
  local name=$1 tb; shift
  tb=$(base_tarball minbase) || return 1
  piuparts -b "$tb" -d "$SUITE" -m "$MIRROR $COMPONENTS" \
    --bindmount "$W/repo" --extra-repo "deb [trusted=yes] file://$W/repo ./" \
    -l "$W/piuparts-$name.log" --apt "$@" > /dev/null 2>&1 || {
    grep -E 'FAIL|ERROR' "$W/piuparts-$name.log" | head -n 20; return 1; }
  log "piuparts $name: $(tail -n 1 "$W/piuparts-$name.log")"
}

step_piuparts() {
  [ -f "$W/repo/Packages" ] || { echo "no repository (install step)"; return 1; }
  piuparts_set cpu libexecutorch libexecutorch-dev executorch-tools executorch-tests &&
    piuparts_set cuda libexecutorch-cuda libexecutorch-cuda-dev executorch-cuda-tests
}

step_rpm() {
  local top=$W/rpmbuild
  rm -rf "$top"; mkdir -p "$top/SOURCES"
  cp "$W/rel/executorch-$UV.tar.gz" "$W/rel/executorch-gpu-fixtures-$UV.tar.gz" "$top/SOURCES/"
  tar -xzOf "$W/src/executorch_$UV.orig.tar.gz" "executorch-$UV/rpm/executorch.spec" > "$top/executorch.spec"
  # --nodeps: Debian's rpm has no rpm database of the BuildRequires.
  rpmbuild -ba --nodeps --define "_topdir $top" --define "_smp_mflags -j$JOBS" \
    "$top/executorch.spec" > "$W/rpm.log" 2>&1 || { tail -n 40 "$W/rpm.log"; return 1; }
  grep -E '^(Ok|Fail|Skipped|Timeout): ' "$W/rpm.log" | sed 's/^/   tests /'
  find "$top/RPMS" -name '*.rpm' -printf '   %f\n'
}

# --- run --------------------------------------------------------------------

failed_any=0
for s in $STEPS; do
  echo; echo "-- distro-check: $s"
  start=$(date +%s)
  fn=step_${s//-/_}
  if ! declare -F "$fn" > /dev/null; then echo "unknown step $s"; exit 2; fi
  if "$fn"; then result[$s]=PASS; else result[$s]=FAIL; failed_any=1; fi
  took[$s]=$(( $(date +%s) - start ))
  echo "-- distro-check: $s: ${result[$s]} in ${took[$s]}s"
done

echo; echo "-- distro-check summary (work dir $W)"
for s in $STEPS; do printf '   %-10s %-4s %5ss\n' "$s" "${result[$s]}" "${took[$s]}"; done
echo "   total $(( $(date +%s) - t0 ))s"
exit $failed_any
