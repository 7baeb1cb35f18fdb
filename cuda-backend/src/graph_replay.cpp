#include "graph_replay.h"

#include <atomic>

#include <executorch/runtime/platform/log.h>

#include "aoti/shim_internal.h"

namespace executorch {
namespace backends {
namespace cuda {

using runtime::Error;

namespace {

std::atomic<size_t> g_launches{0};

bool cuda_ok(cudaError_t e, const char* what, const std::string& label) {
  if (e == cudaSuccess) return true;
  ET_LOG(Error, "CudaBackend[%s]: CUDA graph: %s: %s", label.c_str(), what,
         cudaGetErrorString(e));
  return false;
}

// dst[i] = src[i] byte for byte on `stream`; one side is a staging buffer
// (device), the other the caller's tensor (host or device).
bool copy_each(const std::vector<IoTensor>& dst, const std::vector<IoTensor>& src,
               cudaStream_t stream, const char* what, const std::string& label) {
  for (size_t i = 0; i < src.size(); ++i) {
    if (src[i].nbytes == 0) continue;
    const cudaMemcpyKind kind = !src[i].on_device ? cudaMemcpyHostToDevice
                                : !dst[i].on_device ? cudaMemcpyDeviceToHost
                                                    : cudaMemcpyDeviceToDevice;
    if (!cuda_ok(cudaMemcpyAsync(dst[i].data, src[i].data, src[i].nbytes, kind, stream), what,
                 label)) {
      return false;
    }
  }
  return true;
}

} // namespace

size_t graph_launches_total() { return g_launches.load(std::memory_order_relaxed); }

GraphReplay::~GraphReplay() {
  if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
  for (auto* v : {&in_, &out_}) {
    for (IoTensor& t : *v) cudaFree(t.data);
  }
  if (arena_.base != nullptr) cudaFree(arena_.base);
  if (done_ != nullptr) cudaEventDestroy(done_);
  if (capture_stream_ != nullptr) cudaStreamDestroy(capture_stream_);
  // Memory the graph's allocation nodes kept reserved goes back to the driver.
  if (exec_ != nullptr) cudaDeviceGraphMemTrim(model_.device_index());
}

Error GraphReplay::stage(const std::vector<IoTensor>& inputs,
                         const std::vector<IoTensor>& outputs) {
  const std::string& label = model_.label();
  if (in_.empty() && out_.empty()) {
    // First execute: one device buffer per tensor, laid out as the caller's.
    ET_CHECK_OR_RETURN_ERROR(
        cuda_ok(cudaStreamCreateWithFlags(&capture_stream_, cudaStreamNonBlocking),
                "cudaStreamCreate", label) &&
            cuda_ok(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming),
                    "cudaEventCreate", label),
        MemoryAllocationFailed, "CudaBackend[%s]: CUDA graph setup failed", label.c_str());
    for (auto [src, dst] : {std::pair{&inputs, &in_}, std::pair{&outputs, &out_}}) {
      for (const IoTensor& t : *src) {
        IoTensor s = t;
        s.tensor = nullptr;  // staging: fixed shapes, nothing to resize
        s.on_device = true;
        s.data = nullptr;
        if (!cuda_ok(cudaMalloc(&s.data, t.nbytes > 0 ? t.nbytes : 1), "cudaMalloc", label)) {
          return Error::MemoryAllocationFailed;
        }
        dst->push_back(std::move(s));
      }
    }
    return Error::Ok;
  }
  for (auto [now, then] : {std::pair{&inputs, &in_}, std::pair{&outputs, &out_}}) {
    for (size_t i = 0; i < now->size(); ++i) {
      const IoTensor& a = (*now)[i];
      const IoTensor& b = (*then)[i];
      ET_CHECK_OR_RETURN_ERROR(
          a.nbytes == b.nbytes && a.dtype == b.dtype && a.sizes == b.sizes, InvalidArgument,
          "CudaBackend[%s]: CUDA graph: %s %zu changed shape (%zu bytes of dtype %d, "
          "captured with %zu bytes of dtype %d); graphs replay fixed shapes",
          label.c_str(), now == &inputs ? "input" : "output", i, a.nbytes, a.dtype, b.nbytes,
          b.dtype);
    }
  }
  return Error::Ok;
}

Error GraphReplay::capture(cudaStream_t stream) {
  const std::string& label = model_.label();
  // The capture stream is not ordered after `stream`: the staged inputs
  // must have landed. Once per delegate.
  if (!cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize", label)) {
    return Error::Internal;
  }
  if (arena_bytes_ > 0 && arena_.base == nullptr) {
    void* p = nullptr;
    if (!cuda_ok(cudaMalloc(&p, arena_bytes_), "cudaMalloc (capture arena)", label)) {
      return Error::MemoryAllocationFailed;
    }
    arena_.base = static_cast<char*>(p);
    arena_.size = arena_bytes_;
  }
  arena_.used = 0;
  cudaGraph_t graph = nullptr;
  Error run_err;
  {
    aoti::ScopedCurrentStream current(model_.device_index(), capture_stream_);
    aoti::ScopedCaptureArena in_arena(&arena_);
    // Relaxed: a first-use handle creation (cuBLAS, cuDNN) on this thread
    // may allocate during the capture without invalidating it.
    if (!cuda_ok(cudaStreamBeginCapture(capture_stream_, cudaStreamCaptureModeRelaxed),
                 "cudaStreamBeginCapture", label)) {
      return Error::Internal;
    }
    run_err = run_model(model_, in_, out_, capture_stream_);
    const cudaError_t end = cudaStreamEndCapture(capture_stream_, &graph);
    if (run_err == Error::Ok && !cuda_ok(end, "cudaStreamEndCapture", label)) {
      run_err = Error::Internal;
    }
  }
  if (run_err == Error::Ok) {
    if (!cuda_ok(cudaGraphInstantiateWithFlags(&exec_, graph,
                                               cudaGraphInstantiateFlagAutoFreeOnLaunch),
                 "cudaGraphInstantiate", label)) {
      exec_ = nullptr;
      run_err = Error::Internal;
    }
  }
  if (graph != nullptr) cudaGraphDestroy(graph);
  (void)cudaGetLastError();  // a failed capture must not poison later calls
  return run_err;
}

Error GraphReplay::execute(const std::vector<IoTensor>& inputs,
                           std::vector<IoTensor>& outputs, cudaStream_t stream) {
  std::lock_guard<std::mutex> lk(mu_);
  const std::string& label = model_.label();
  if (disabled_) return run_model(model_, inputs, outputs, stream);
  Error e = stage(inputs, outputs);
  if (e != Error::Ok) return e;
  // Staging is shared by every stream: wait for the previous execute.
  if (done_recorded_ && !cuda_ok(cudaStreamWaitEvent(stream, done_, 0), "wait", label)) {
    return Error::Internal;
  }
  if (!copy_each(in_, inputs, stream, "copying an input in", label)) return Error::Internal;
  if (!warmed_up_) {
    aoti::ScopedAllocTally tally;
    e = run_model(model_, in_, out_, stream);
    if (e != Error::Ok) return e;
    arena_bytes_ = tally.bytes();
    warmed_up_ = true;
  } else {
    if (exec_ == nullptr) {
      e = capture(stream);
      if (e != Error::Ok) {
        ET_LOG(Error,
               "CudaBackend[%s]: CUDA graph capture failed (error 0x%x); running eagerly "
               "from now on",
               label.c_str(), static_cast<unsigned>(e));
        disabled_ = true;
        return run_model(model_, inputs, outputs, stream);
      }
    }
    if (!cuda_ok(cudaGraphLaunch(exec_, stream), "cudaGraphLaunch", label)) {
      return Error::Internal;
    }
    g_launches.fetch_add(1, std::memory_order_relaxed);
  }
  if (!copy_each(outputs, out_, stream, "copying an output out", label)) {
    return Error::Internal;
  }
  if (!cuda_ok(cudaEventRecord(done_, stream), "cudaEventRecord", label)) {
    return Error::Internal;
  }
  done_recorded_ = true;
  return Error::Ok;
}

} // namespace cuda
} // namespace backends
} // namespace executorch
