#include "graph_replay.h"

#include <atomic>
#include <cstring>
#include <tuple>

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
  ET_LOG(Error, "CudaBackend[%s]: CUDA graph: %s: %s", label.c_str(), what, cudaGetErrorString(e));
  return false;
}

// Device-to-device, host-to-device or device-to-host, by where each side is.
cudaMemcpyKind kind_of(bool src_on_device, bool dst_on_device) {
  return !src_on_device   ? cudaMemcpyHostToDevice
         : !dst_on_device ? cudaMemcpyDeviceToHost
                          : cudaMemcpyDeviceToDevice;
}

// Page-locked host memory for one host tensor's side of the graph (nullptr
// when none can be had: that tensor is then copied outside the graph, from
// or to the caller's pageable memory, as a device tensor would be).
void* pinned_buffer(size_t nbytes) {
  void* p = nullptr;
  if (cudaHostAlloc(&p, nbytes > 0 ? nbytes : 1, cudaHostAllocDefault) != cudaSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return p;
}

} // namespace

size_t graph_launches_total() { return g_launches.load(std::memory_order_relaxed); }

GraphReplay::~GraphReplay() {
  if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
  for (auto* v : {&in_, &out_}) {
    for (IoTensor& t : *v) cudaFree(t.data);
  }
  for (auto* v : {&in_pinned_, &out_pinned_}) {
    for (void* p : *v) cudaFreeHost(p);
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
            cuda_ok(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming), "cudaEventCreate",
                    label),
        MemoryAllocationFailed, "CudaBackend[%s]: CUDA graph setup failed", label.c_str());
    for (auto [src, dst, pinned] :
         {std::tuple{&inputs, &in_, &in_pinned_}, std::tuple{&outputs, &out_, &out_pinned_}}) {
      for (const IoTensor& t : *src) {
        IoTensor s = t;
        s.tensor = nullptr; // staging: fixed shapes, nothing to resize
        s.on_device = true;
        s.data = nullptr;
        if (!cuda_ok(cudaMalloc(&s.data, t.nbytes > 0 ? t.nbytes : 1), "cudaMalloc", label)) {
          return Error::MemoryAllocationFailed;
        }
        dst->push_back(std::move(s));
        pinned->push_back(t.on_device ? nullptr : pinned_buffer(t.nbytes));
      }
    }
    return Error::Ok;
  }
  for (auto [now, then] : {std::pair{&inputs, &in_}, std::pair{&outputs, &out_}}) {
    // Fewer staged than given: the first execute's staging failed part way.
    ET_CHECK_OR_RETURN_ERROR(now->size() == then->size(), MemoryAllocationFailed,
                             "CudaBackend[%s]: CUDA graph: staging incomplete", label.c_str());
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

// What the graph holds: the pinned host inputs to their device staging, the
// model, the device staging of the host outputs to their pinned buffers.
// Run eagerly (the first execute) or under capture.
Error GraphReplay::body(cudaStream_t stream) {
  const std::string& label = model_.label();
  for (size_t i = 0; i < in_.size(); ++i) {
    if (in_pinned_[i] == nullptr || in_[i].nbytes == 0) continue;
    if (!cuda_ok(cudaMemcpyAsync(in_[i].data, in_pinned_[i], in_[i].nbytes, cudaMemcpyHostToDevice,
                                 stream),
                 "copying a pinned input to the device", label)) {
      return Error::Internal;
    }
  }
  const Error e = run_model(model_, in_, out_, stream);
  if (e != Error::Ok) return e;
  for (size_t j = 0; j < out_.size(); ++j) {
    if (out_pinned_[j] == nullptr || out_[j].nbytes == 0) continue;
    if (!cuda_ok(cudaMemcpyAsync(out_pinned_[j], out_[j].data, out_[j].nbytes,
                                 cudaMemcpyDeviceToHost, stream),
                 "copying an output to pinned memory", label)) {
      return Error::Internal;
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
    run_err = body(capture_stream_);
    const cudaError_t end = cudaStreamEndCapture(capture_stream_, &graph);
    if (run_err == Error::Ok && !cuda_ok(end, "cudaStreamEndCapture", label)) {
      run_err = Error::Internal;
    }
  }
  if (run_err == Error::Ok) {
    if (!cuda_ok(
            cudaGraphInstantiateWithFlags(&exec_, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch),
            "cudaGraphInstantiate", label)) {
      exec_ = nullptr;
      run_err = Error::Internal;
    }
  }
  if (graph != nullptr) cudaGraphDestroy(graph);
  (void)cudaGetLastError(); // a failed capture must not poison later calls
  return run_err;
}

// The caller's inputs to the graph's side: its pinned buffer (host inputs
// with a CPU memcpy, once the previous execute no longer reads it) or its
// device staging.
Error GraphReplay::copy_in(const std::vector<IoTensor>& inputs, cudaStream_t stream) {
  const std::string& label = model_.label();
  bool waited = false;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const IoTensor& t = inputs[i];
    if (t.nbytes == 0) continue;
    void* pinned = in_pinned_[i];
    if (pinned != nullptr && !t.on_device) {
      if (!waited && done_recorded_ &&
          !cuda_ok(cudaEventSynchronize(done_), "waiting for the previous execute", label)) {
        return Error::Internal;
      }
      waited = true;
      std::memcpy(pinned, t.data, t.nbytes);
      continue;
    }
    void* dst = pinned != nullptr ? pinned : in_[i].data;
    const cudaMemcpyKind kind = kind_of(t.on_device, pinned == nullptr);
    if (!cuda_ok(cudaMemcpyAsync(dst, t.data, t.nbytes, kind, stream), "copying an input in",
                 label)) {
      return Error::Internal;
    }
  }
  return Error::Ok;
}

// The graph's outputs to the caller's tensors, stream-ordered; the host
// outputs staged in pinned memory are copied once `stream` has finished
// (*synced then says the stream was synchronized).
Error GraphReplay::copy_out(std::vector<IoTensor>& outputs, cudaStream_t stream, bool* synced) {
  const std::string& label = model_.label();
  bool host_from_pinned = false;
  for (size_t j = 0; j < outputs.size(); ++j) {
    const IoTensor& t = outputs[j];
    if (t.nbytes == 0) continue;
    void* pinned = out_pinned_[j];
    if (pinned != nullptr && !t.on_device) {
      host_from_pinned = true;
      continue;
    }
    const void* src = pinned != nullptr ? pinned : out_[j].data;
    const cudaMemcpyKind kind = kind_of(pinned == nullptr, t.on_device);
    if (!cuda_ok(cudaMemcpyAsync(t.data, src, t.nbytes, kind, stream), "copying an output out",
                 label)) {
      return Error::Internal;
    }
  }
  if (!cuda_ok(cudaEventRecord(done_, stream), "cudaEventRecord", label)) {
    return Error::Internal;
  }
  done_recorded_ = true;
  if (!host_from_pinned) return Error::Ok;
  if (!cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize", label)) {
    return Error::Internal;
  }
  *synced = true;
  for (size_t j = 0; j < outputs.size(); ++j) {
    const IoTensor& t = outputs[j];
    if (out_pinned_[j] != nullptr && !t.on_device && t.nbytes > 0) {
      std::memcpy(t.data, out_pinned_[j], t.nbytes);
    }
  }
  return Error::Ok;
}

Error GraphReplay::execute(const std::vector<IoTensor>& inputs, std::vector<IoTensor>& outputs,
                           cudaStream_t stream, bool* synced) {
  std::lock_guard<std::mutex> lk(mu_);
  *synced = false;
  const std::string& label = model_.label();
  if (disabled_) return run_model(model_, inputs, outputs, stream);
  Error e = stage(inputs, outputs);
  if (e != Error::Ok) return e;
  // Staging is shared by every stream: wait for the previous execute.
  if (done_recorded_ && !cuda_ok(cudaStreamWaitEvent(stream, done_, 0), "wait", label)) {
    return Error::Internal;
  }
  e = copy_in(inputs, stream);
  if (e != Error::Ok) return e;
  if (!warmed_up_) {
    aoti::ScopedAllocTally tally;
    e = body(stream);
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
  return copy_out(outputs, stream, synced);
}

} // namespace cuda
} // namespace backends
} // namespace executorch
