#!/usr/bin/env bash
# Exports make_corpus.py's full-size CNNs (--flow cpu-large: ResNet-18 and
# MobileNet-V2 at 224x224, random weights, seed 0) with upstream's exporter
# kit (../shared/tools/upstream-exporter, copied with /usr/bin/flatc into a
# git-ignored KIT folder), where torch and torchvision are installed. They
# are tens of MB, so they are made where the benchmark runs, never committed.
# Usage: bench/export_large_cnns.sh KIT OUT   (programs land in OUT/cpu-large)
set -euo pipefail
cd "$(dirname "$0")/.."
kit=$(cd "${1:?usage: bench/export_large_cnns.sh KIT OUT}" && pwd)
out=${2:?usage: bench/export_large_cnns.sh KIT OUT}
py=$(mktemp -d)
for pkg in executorch-python torchao-python ruamel-yaml; do
  tar -C "$py" -xzf "$kit"/"$pkg"-*.tar.gz
done
PYTHONPATH=$py FLATC_EXECUTABLE=$kit/flatc TORCHAO_FORCE_SKIP_LOADING_SO_FILES=1 \
  "${PYTHON:-python3}" tools/export/make_corpus.py --out "$out" --flow cpu-large --jobs 2
for name in "$out"/cpu-large/*/; do
  [ -f "$name/model.pte" ] || { echo "export failed: $name (see $out/logs)" >&2; exit 1; }
done
