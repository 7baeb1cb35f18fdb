# shellcheck shell=bash
# Sourced by the GPU-host scripts (bench/*.sh, tests/cuda-backend/gpu/
# run_on_gpu_host.sh); defines functions only.

# The lib directories of pip's nvidia-* wheels (the CUDA libraries torch
# brings: cuBLAS, cuDNN, ...), colon-separated; empty without them.
pip_nvidia_libs() {
  python3 -c "import nvidia,os;print(':'.join(os.path.join(d,x,'lib') for d in nvidia.__path__ for x in os.listdir(d)))" 2>/dev/null
}

# use_build_libs BUILD: LD_LIBRARY_PATH becomes BUILD's three libraries, the
# system libraries a carried build brings (syslib/, pack_carry.sh), the
# toolkit's, pip's nvidia ones, then what it held before.
use_build_libs() {
  local nv sys=""
  nv=$(pip_nvidia_libs)
  [ -d "$1/syslib" ] && sys=:$1/syslib
  export LD_LIBRARY_PATH=$1/runtime:$1/cuda-stream:$1/cuda-backend$sys:/usr/local/cuda/lib64${nv:+:$nv}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
}

# libexecutorch_commit BUILD: the commit BUILD's libexecutorch was built
# from, as executorch-run --version names it (empty if it names none).
libexecutorch_commit() {
  "$1/tools/executorch-run/executorch-run" --version | sed -n 's/.*(libexecutorch \(.*\))$/\1/p'
}
