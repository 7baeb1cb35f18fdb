#!/bin/bash
# make-tarballs.sh TREE-ISH VERSION OUTDIR: the two release tarballs of a
# tree (a tag, a commit or a tree id), as upstream publishes them:
#   executorch-VERSION.tar.gz              git archive: the source, without
#                                          the GPU fixtures (export-ignore
#                                          in .gitattributes)
#   executorch-gpu-fixtures-VERSION.tar.gz tests/models/cuda/ and
#                                          tests/models/corpus/cuda/ as cuda/
#                                          and corpus/cuda/
# The fixtures hold x86-64 code and GPU code that AOTInductor generated,
# with no source for it, so the main tarball (Debian main, Fedora) leaves
# them out; the CUDA packages add the second tarball (meson -Dgpu_fixtures).
set -euo pipefail
if [ $# != 3 ]; then
  echo "usage: $0 TREE-ISH VERSION OUTDIR" >&2; exit 2
fi
tree=$1 version=$2 out=$3
mkdir -p "$out"
git archive --format=tar.gz --prefix="executorch-$version/" \
  -o "$out/executorch-$version.tar.gz" "$tree"
# Archiving the subtree tests/models: the root .gitattributes (which
# export-ignores these directories) does not apply below it.
git archive --format=tar.gz --prefix="executorch-gpu-fixtures-$version/" \
  -o "$out/executorch-gpu-fixtures-$version.tar.gz" "$tree:tests/models" cuda corpus/cuda
if tar -tzf "$out/executorch-$version.tar.gz" | grep -q -e '/tests/models/cuda/' -e '/tests/models/corpus/cuda/'; then
  echo "$0: the main tarball holds GPU fixtures: is .gitattributes' export-ignore missing?" >&2
  exit 1
fi
