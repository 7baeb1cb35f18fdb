#!/bin/sh
# Run by `meson install` on the installed GPU fixtures: a file whose bytes
# an earlier fixture (in sorted order) already has becomes a relative
# symlink to that copy, so the host- and device-layout fixtures of one model
# keep one copy of their shared weights and reference data on disk (and the
# packages need no hard links). Argument: the absolute installed models dir.
set -eu
dir=${DESTDIR:-}${1:?installed fixture directory}
[ -d "$dir" ] || exit 0
cd "$dir"
export LC_ALL=C
find . -type f -print | sort | xargs sha256sum | sort -s -k1,1 |
  awk '$1 in first { print first[$1], $2; next } { first[$1] = $2 }' |
  while read -r original duplicate; do
    ln -sfr "$original" "$duplicate"
  done
