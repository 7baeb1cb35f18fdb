#!/bin/sh
# The autopkgtest declarations of both Debian source packages (debian/ and
# debian/contrib/) are readable by .ci/dep8-tests.py, and every test they
# name exists, is executable and parses as sh. In the unpacked
# executorch-cuda source, debian/ is the contrib one and there is no
# debian/contrib/: then debian/tests alone is checked.
# Usage: check_dep8.sh SOURCE_ROOT
set -eu
root=$1
fail=0
set -- "$root/debian/tests"
[ ! -d "$root/debian/contrib" ] || set -- "$@" "$root/debian/contrib/tests"
for dir in "$@"; do
  list=$(python3 "$root/.ci/dep8-tests.py" "$dir/control") || { echo "FAIL: cannot read $dir/control"; exit 1; }
  [ -n "$list" ] || { echo "FAIL: $dir/control declares no test"; fail=1; }
  for name in $(echo "$list" | cut -d'|' -f1); do
    t=$dir/$name
    if [ ! -x "$t" ]; then echo "FAIL: $t is missing or not executable"; fail=1; continue; fi
    sh -n "$t" || { echo "FAIL: $t does not parse"; fail=1; }
    echo "ok: $t"
  done
done
exit "$fail"
