#!/bin/sh
# Installed GPU test: every CUDA fixture through Module from the system
# libdir (run by run-installed-tests --gpu). Exits 77 without a CUDA device.
here=$(dirname "$(readlink -f "$0")")
exec "$here/bin/cuda_module_test" \
  "$here/models/mlp" "$here/models/conv" "$here/models/transformer" \
  "$here/models/mlp_host" "$here/models/conv_host" "$here/models/transformer_host" \
  "$here/models/mlp2"
