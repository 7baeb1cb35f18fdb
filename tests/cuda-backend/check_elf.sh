#!/bin/sh
# ELF checks on the built libraries: SONAMEs, NEEDED (no CUDA library the code
# does not use, no libtorch/libc10), -z nodelete on the backend, exports.
# Usage: check_elf.sh READELF NM RUNTIME_LIB EXTENSION_LIB BACKEND_LIB SHIM_H
set -u
READELF=$1 NM=$2 RUNTIME=$3 EXT=$4 BACKEND=$5 SHIM_H=$6
fail=0
bad() { echo "FAIL: $*"; fail=1; }

needed() { "$READELF" -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
soname() { "$READELF" -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }

[ "$(soname "$RUNTIME")" = libexecutorch.so.1 ] || bad "SONAME of $RUNTIME: $(soname "$RUNTIME")"
[ "$(soname "$EXT")" = libexecutorch_extension_cuda.so.1 ] || bad "SONAME of $EXT: $(soname "$EXT")"
[ "$(soname "$BACKEND")" = libexecutorch_cuda_backend.so.1 ] || bad "SONAME of $BACKEND: $(soname "$BACKEND")"

# A CUDA math library may be NEEDED only when the library calls into it.
uses() { "$NM" -D --undefined-only "$1" | awk '{print $2}' | grep -q "^$2"; }
for lib in "$RUNTIME" "$EXT" "$BACKEND"; do
  for n in $(needed "$lib"); do
    case "$n" in
      libtorch*|libc10*) bad "$lib NEEDs $n" ;;
      # the driver: loading must work on machines without one
      libcuda.so*) bad "$lib NEEDs the driver library $n" ;;
      libcublasLt*) uses "$lib" cublasLt || bad "$lib NEEDs $n but calls no cublasLt*" ;;
      libcublas*) uses "$lib" cublas || bad "$lib NEEDs $n but calls no cublas*" ;;
      libcurand*) uses "$lib" curand || bad "$lib NEEDs $n but calls no curand*" ;;
      libcufft*) uses "$lib" cufft || bad "$lib NEEDs $n but calls no cufft*" ;;
      libcusparse*) uses "$lib" cusparse || bad "$lib NEEDs $n but calls no cusparse*" ;;
      libcusolver*) uses "$lib" cusolver || bad "$lib NEEDs $n but calls no cusolver*" ;;
      libnvrtc*) uses "$lib" nvrtc || bad "$lib NEEDs $n but calls no nvrtc*" ;;
      libcudnn*) uses "$lib" cudnn || bad "$lib NEEDs $n but calls no cudnn*" ;;
    esac
  done
  echo "$lib NEEDED: $(needed "$lib" | tr '\n' ' ')"
done

# The runtime and the caller-stream extension need no CUDA library at all.
needed "$RUNTIME" | grep -q '^libcudart' && bad "$RUNTIME NEEDs libcudart"
needed "$EXT" | grep -q '^libcudart' && bad "$EXT NEEDs libcudart"
needed "$EXT" | grep -q '^libexecutorch' && bad "$EXT NEEDs the runtime"
# The backend needs the runtime (one registry) and the extension (one state).
needed "$BACKEND" | grep -qx 'libexecutorch.so.1' || bad "$BACKEND does not NEED libexecutorch.so.1"
needed "$BACKEND" | grep -qx 'libexecutorch_extension_cuda.so.1' || bad "$BACKEND does not NEED libexecutorch_extension_cuda.so.1"
needed "$BACKEND" | grep -q '^libcudart\.so\.' || bad "$BACKEND does not NEED a shared libcudart"
# cuBLAS is dlopen'ed at its first use (src/aoti/cublas_loader.h).
needed "$BACKEND" | grep -q '^libcublas' && bad "$BACKEND NEEDs cuBLAS, which it loads at first use"

"$READELF" -d "$BACKEND" | grep 'FLAGS_1' | grep -q NODELETE || bad "$BACKEND is not linked with -z nodelete"

# Exports: the extension only executorch::extension::cuda; the backend no C++
# at all (only the shim's C functions under their private names aoti_et_sh_*,
# never libtorch's aoti_torch_*, and the plugin ABI that the runtime's
# plugin loader reads).
ext_syms=$("$NM" -D --defined-only "$EXT" | awk '$2 != "A" {print $3}' | sed 's/@.*//')
for s in $ext_syms; do
  case "$s" in
    _ZN10executorch9extension4cuda*) ;;
    *) bad "$EXT exports $s" ;;
  esac
done
echo "$ext_syms" | grep -q _ZN10executorch9extension4cuda15getCallerStreamEv || bad "$EXT does not export getCallerStream"
be_syms=$("$NM" -D --defined-only "$BACKEND" | awk '$2 != "A" {print $3}' | sed 's/@.*//')
for s in $be_syms; do
  case "$s" in
    aoti_et_sh_*|executorch_backend_plugin_abi) ;;
    *) bad "$BACKEND exports $s" ;;
  esac
done
echo "$be_syms" | grep -qx executorch_backend_plugin_abi || bad "$BACKEND does not export executorch_backend_plugin_abi"
# Every function of aoti/shim.h, under its private name (aoti/shim_symbols.h).
shim_functions=$(grep -oE 'aoti_torch_[A-Za-z0-9_]+\(' "$SHIM_H" | tr -d '(' | sort -u)
[ -n "$shim_functions" ] || bad "no aoti_torch_* declaration in $SHIM_H"
for f in $shim_functions; do
  echo "$be_syms" | grep -qx "aoti_et_sh_${f#aoti_torch_}" || bad "$BACKEND does not export $f as aoti_et_sh_${f#aoti_torch_}"
done
# The one caller-stream state is defined in the extension only.
"$NM" -C "$BACKEND" | grep -q 'tls_caller_stream' && bad "$BACKEND holds its own caller-stream state"

[ $fail = 0 ] && echo "ELF checks passed"
exit $fail
