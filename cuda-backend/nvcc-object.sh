#!/bin/sh
# Compiles one .cu file into an object with nvcc, then drops the symbol
# naming nvcc's temporary file (tmpxft_<pid>_...cudafe1.cpp), which would
# otherwise make two builds of the same source differ.
# Usage: nvcc-object.sh OBJCOPY NVCC NVCC-ARGUMENTS... (with -o OUTPUT among them)
set -eu
objcopy=$1 nvcc=$2
shift 2
out=
prev=
for a in "$@"; do
  [ "$prev" = -o ] && out=$a
  prev=$a
done
[ -n "$out" ] || { echo "nvcc-object.sh: no -o OUTPUT in the arguments" >&2; exit 2; }
"$nvcc" "$@"
"$objcopy" --wildcard --strip-symbol='tmpxft_*' "$out"
