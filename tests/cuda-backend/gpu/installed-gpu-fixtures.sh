#!/bin/sh
# Installed GPU test: every CUDA fixture through Module from the system
# libdir (run by run-installed-tests --gpu). Exits 77 without a CUDA device.
here=$(dirname "$(readlink -f "$0")")
set --
for f in mlp conv transformer mlp_host conv_host transformer_host mlp2 \
         conv_aten attn attn32; do
  set -- "$@" "$here/models/$f"
done
exec "$here/bin/cuda_module_test" "$@"
