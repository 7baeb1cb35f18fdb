#!/bin/sh
# The installed-test runner counts passes, skips and failures and fails the
# run on any failure (or when nothing passed).
set -eu
runner=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$runner" "$work/run-installed-tests"
printf '#!/bin/sh\nexit 0\n' > "$work/a-pass"
printf '#!/bin/sh\nexit 77\n' > "$work/b-skip"
printf 'not executable\n' > "$work/c-data"
chmod +x "$work/run-installed-tests" "$work/a-pass" "$work/b-skip"
out=$("$work/run-installed-tests")
echo "$out" | grep -qx '1 passed, 0 failed, 1 skipped' || { echo "bad summary: $out"; exit 1; }
printf '#!/bin/sh\nexit 3\n' > "$work/d-fail"
chmod +x "$work/d-fail"
if "$work/run-installed-tests" > "$work/out"; then echo "a failing test did not fail the run"; exit 1; fi
grep -qx '1 passed, 1 failed, 1 skipped' "$work/out" || { cat "$work/out"; exit 1; }
mkdir "$work/gpu"
cp "$work/b-skip" "$work/gpu/"
rc=0; "$work/run-installed-tests" --gpu > "$work/out" || rc=$?
[ "$rc" = 77 ] || { echo "all-skipped GPU run exited $rc, want 77"; exit 1; }
grep -qx '0 passed, 0 failed, 1 skipped' "$work/out"
rm "$work/gpu/b-skip"
rc=0; "$work/run-installed-tests" --gpu > "$work/out" || rc=$?
[ "$rc" = 1 ] || { echo "an empty run exited $rc, want 1"; exit 1; }
echo "runner ok"
