"""PyTorch's side of the "same .so" comparisons (gpu_bench.py, gpu_compare.py):
one AOTInductor .so driven through torch's own aoti_torch_* shim (in
libtorch_cuda.so) by calling the model container's C API through ctypes.
PyTorch's own AOTI loaders crash on the GPU host, hence ctypes; each call
costs a little Python time, which lands on PyTorch's side of the ratio.
"""
import ctypes
import json
import os
import subprocess
import sys
import time


def load_torch_shim(torch):
    """libtorch_cuda.so with the aoti_torch_* calls used here typed; torch's
    libraries go in the global scope first, where the .so looks for them."""
    libdir = os.path.join(os.path.dirname(torch.__file__), "lib")
    for name in ("libc10.so", "libc10_cuda.so", "libtorch_cpu.so", "libtorch_cuda.so",
                 "libtorch.so"):
        if os.path.exists(os.path.join(libdir, name)):
            ctypes.CDLL(os.path.join(libdir, name), mode=ctypes.RTLD_GLOBAL)
    shim = ctypes.CDLL(os.path.join(libdir, "libtorch_cuda.so"))
    shim.aoti_torch_create_tensor_from_blob.argtypes = [
        ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
        ctypes.c_int32, ctypes.c_int32, ctypes.c_int32, ctypes.c_void_p]
    shim.aoti_torch_delete_tensor_object.argtypes = [ctypes.c_void_p]
    shim.aoti_torch_get_data_ptr.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    return shim


class Container:
    """One model container of the .so (its bytes), weights loaded from the
    blob; run() executes it on device tensors `xs` on torch's current stream.
    init_ms: dlopen + create + weights, synchronized."""

    def __init__(self, torch, shim, so_bytes, weights, inputs):
        self.shim = shim
        so_path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"aoti_shim_{os.getpid()}.so")
        with open(so_path, "wb") as f:
            f.write(so_bytes)
        t0 = time.perf_counter()
        lib = ctypes.CDLL(so_path, mode=ctypes.RTLD_LOCAL)
        os.unlink(so_path)
        self.h = ctypes.c_void_p()
        if lib.AOTInductorModelContainerCreateWithDevice(ctypes.byref(self.h), ctypes.c_size_t(1),
                                                         b"cuda", None) != 0:
            raise RuntimeError("AOTInductorModelContainerCreateWithDevice failed")
        self._wbuf = ctypes.create_string_buffer(weights, len(weights)) if weights else None
        if self._wbuf is not None and lib.AOTInductorModelUpdateConstantsFromBlob(
                self.h, self._wbuf) != 0:
            raise RuntimeError("AOTInductorModelUpdateConstantsFromBlob failed")
        torch.cuda.synchronize()
        self.init_ms = (time.perf_counter() - t0) * 1e3
        self.n_in, self.n_out = ctypes.c_size_t(), ctypes.c_size_t()
        lib.AOTInductorModelContainerGetNumInputs(self.h, ctypes.byref(self.n_in))
        lib.AOTInductorModelContainerGetNumOutputs(self.h, ctypes.byref(self.n_out))
        lib.AOTInductorModelContainerRun.argtypes = [
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t,
            ctypes.c_void_p, ctypes.c_void_p]
        self.lib = lib
        codes = {torch.float32: shim.aoti_torch_dtype_float32(),
                 torch.bfloat16: shim.aoti_torch_dtype_bfloat16(),
                 torch.float16: shim.aoti_torch_dtype_float16(),
                 torch.int64: shim.aoti_torch_dtype_int64()}
        self.xs = inputs
        self.codes = [codes[x.dtype] for x in inputs]
        self.dev = shim.aoti_torch_device_type_cuda()
        self.shapes = [((ctypes.c_int64 * x.dim())(*x.shape), (ctypes.c_int64 * x.dim())(*x.stride()))
                       for x in inputs]
        self.ins = (ctypes.c_void_p * self.n_in.value)()
        self.outs = (ctypes.c_void_p * self.n_out.value)()
        self.stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

    def run(self, keep=False):
        """One execute; keep=True leaves the output handles for output_ptr()
        (release them with drop_outputs())."""
        shim = self.shim
        for i, x in enumerate(self.xs):  # Run takes ownership of the input handles
            if shim.aoti_torch_create_tensor_from_blob(
                    ctypes.c_void_p(x.data_ptr()), x.dim(), self.shapes[i][0], self.shapes[i][1],
                    0, self.codes[i], self.dev, 0, ctypes.byref(self.ins, i * 8)) != 0:
                raise RuntimeError("aoti_torch_create_tensor_from_blob failed")
        if self.lib.AOTInductorModelContainerRun(self.h, self.ins, self.n_in, self.outs,
                                                 self.n_out, self.stream, None) != 0:
            raise RuntimeError("AOTInductorModelContainerRun failed")
        if not keep:
            self.drop_outputs()

    def output_ptr(self, j):
        ptr = ctypes.c_void_p()
        self.shim.aoti_torch_get_data_ptr(self.outs[j], ctypes.byref(ptr))
        return ptr.value

    def drop_outputs(self):
        for j in range(self.n_out.value):
            self.shim.aoti_torch_delete_tensor_object(self.outs[j])


# The driver runs in a child process (a crash of the .so or of torch's
# loaders then costs one column, not the run): the child prints one result
# line, the parent reads it.
RESULT_TAG = "AOTI_RESULT "


def report(result):
    """In the child: hand `result` (a dict) to the parent."""
    print(RESULT_TAG + json.dumps(result), flush=True)


def run_child(script, args, timeout=240):
    """In the parent: `python3 script --aoti-child ARGS...`; its result, or
    {"error": ...} saying what went wrong."""
    try:
        p = subprocess.run([sys.executable, os.path.abspath(script), "--aoti-child", *args],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": "timeout"}
    for line in p.stdout.splitlines():
        if line.startswith(RESULT_TAG):
            return json.loads(line[len(RESULT_TAG):])
    tail = (p.stderr.strip().splitlines() or ["?"])[-1]
    return {"error": f"rc {p.returncode}: {tail[:200]}"}
