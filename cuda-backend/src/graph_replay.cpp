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
  if (graph_ != nullptr) cudaGraphDestroy(graph_);
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

// Under capture: the device-to-device copies between the caller's device
// tensors and their staging (host tensors are staged through pinned memory
// or copied outside the graph). find_copy_nodes() then finds their nodes.
Error GraphReplay::capture_device_copies(const std::vector<IoTensor>& io, bool inputs) {
  std::vector<IoTensor>& staging = inputs ? in_ : out_;
  const std::vector<void*>& pinned = inputs ? in_pinned_ : out_pinned_;
  std::vector<CopyNode>& nodes = inputs ? in_nodes_ : out_nodes_;
  nodes.assign(io.size(), CopyNode{});
  for (size_t k = 0; k < io.size(); ++k) {
    const IoTensor& t = io[k];
    if (!t.on_device || pinned[k] != nullptr || t.nbytes == 0) continue;
    void* dst = inputs ? staging[k].data : t.data;
    const void* src = inputs ? t.data : staging[k].data;
    if (!cuda_ok(cudaMemcpyAsync(dst, src, t.nbytes, cudaMemcpyDeviceToDevice, capture_stream_),
                 "capturing a device copy", model_.label())) {
      return Error::Internal;
    }
    nodes[k].caller = t.data;
  }
  return Error::Ok;
}

// The memcpy nodes capture_device_copies() made, told apart from the
// model's own by their exact source and destination.
Error GraphReplay::find_copy_nodes(cudaGraph_t graph) {
  const std::string& label = model_.label();
  size_t count = 0;
  if (!cuda_ok(cudaGraphGetNodes(graph, nullptr, &count), "cudaGraphGetNodes", label)) {
    return Error::Internal;
  }
  std::vector<cudaGraphNode_t> all(count);
  if (!cuda_ok(cudaGraphGetNodes(graph, all.data(), &count), "cudaGraphGetNodes", label)) {
    return Error::Internal;
  }
  for (cudaGraphNode_t node : all) {
    cudaGraphNodeType type;
    cudaMemcpy3DParms p{};
    if (cudaGraphNodeGetType(node, &type) != cudaSuccess || type != cudaGraphNodeTypeMemcpy ||
        cudaGraphMemcpyNodeGetParams(node, &p) != cudaSuccess) {
      continue;
    }
    for (size_t i = 0; i < in_nodes_.size(); ++i) {
      if (in_nodes_[i].caller == p.srcPtr.ptr && in_[i].data == p.dstPtr.ptr)
        in_nodes_[i].node = node;
    }
    for (size_t j = 0; j < out_nodes_.size(); ++j) {
      if (out_nodes_[j].caller == p.dstPtr.ptr && out_[j].data == p.srcPtr.ptr) {
        out_nodes_[j].node = node;
      }
    }
  }
  for (auto* nodes : {&in_nodes_, &out_nodes_}) {
    for (const CopyNode& n : *nodes) {
      ET_CHECK_OR_RETURN_ERROR(n.caller == nullptr || n.node != nullptr, Internal,
                               "CudaBackend[%s]: CUDA graph: a captured copy has no memcpy node",
                               label.c_str());
    }
  }
  return Error::Ok;
}

Error GraphReplay::capture(cudaStream_t stream, const std::vector<IoTensor>& inputs,
                           const std::vector<IoTensor>& outputs) {
  const std::string& label = model_.label();
  // The capture stream is not ordered after `stream`: the eager run must
  // have finished with the staging. Once per delegate.
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
    run_err = capture_device_copies(inputs, true);
    if (run_err == Error::Ok) run_err = body(capture_stream_);
    if (run_err == Error::Ok) run_err = capture_device_copies(outputs, false);
    const cudaError_t end = cudaStreamEndCapture(capture_stream_, &graph);
    if (run_err == Error::Ok && !cuda_ok(end, "cudaStreamEndCapture", label)) {
      run_err = Error::Internal;
    }
  }
  if (run_err == Error::Ok) run_err = find_copy_nodes(graph);
  if (run_err == Error::Ok && !cuda_ok(cudaGraphInstantiateWithFlags(
                                           &exec_, graph, cudaGraphInstantiateFlagAutoFreeOnLaunch),
                                       "cudaGraphInstantiate", label)) {
    exec_ = nullptr;
    run_err = Error::Internal;
  }
  if (run_err == Error::Ok) {
    graph_ = graph;
  } else {
    if (graph != nullptr) cudaGraphDestroy(graph);
    in_nodes_.clear();
    out_nodes_.clear();
  }
  (void)cudaGetLastError(); // a failed capture must not poison later calls
  return run_err;
}

// Points each copy node at where its caller tensor is now: a moved device
// tensor updates the node, one now in host memory turns it off (it is then
// copied outside the graph) and one back on the device turns it on.
Error GraphReplay::retarget(const std::vector<IoTensor>& io, bool inputs) {
  std::vector<CopyNode>& nodes = inputs ? in_nodes_ : out_nodes_;
  const std::vector<IoTensor>& staging = inputs ? in_ : out_;
  const std::string& label = model_.label();
  for (size_t k = 0; k < nodes.size(); ++k) {
    CopyNode& n = nodes[k];
    if (n.node == nullptr) continue;
    const IoTensor& t = io[k];
    if (t.on_device != n.enabled) {
      if (!cuda_ok(cudaGraphNodeSetEnabled(exec_, n.node, t.on_device ? 1 : 0),
                   "cudaGraphNodeSetEnabled", label)) {
        return Error::Internal;
      }
      n.enabled = t.on_device;
    }
    if (!t.on_device || t.data == n.caller) continue;
    void* dst = inputs ? staging[k].data : t.data;
    const void* src = inputs ? t.data : staging[k].data;
    if (cudaGraphExecMemcpyNodeSetParams1D(exec_, n.node, dst, src, t.nbytes,
                                           cudaMemcpyDeviceToDevice) == cudaSuccess) {
      n.caller = t.data;
      continue;
    }
    // The driver refuses some moves (the captured memory was freed, or is
    // mapped otherwise): this tensor is copied outside the graph from now on.
    (void)cudaGetLastError();
    ET_LOG(Info, "CudaBackend[%s]: CUDA graph: %s %zu is copied outside the graph from now on",
           label.c_str(), inputs ? "input" : "output", k);
    if (!cuda_ok(cudaGraphNodeSetEnabled(exec_, n.node, 0), "cudaGraphNodeSetEnabled", label)) {
      return Error::Internal;
    }
    n = CopyNode{};
  }
  return Error::Ok;
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
    if (i < in_nodes_.size() && in_nodes_[i].node != nullptr && in_nodes_[i].enabled) continue;
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
    if (j < out_nodes_.size() && out_nodes_[j].node != nullptr && out_nodes_[j].enabled) continue;
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
  done_stream_known_ = aoti::stream_id(stream, &done_stream_id_);
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
  // Staging is shared by every stream: wait for the previous execute (on
  // the same stream, stream order already does; without stream ids, before
  // CUDA 12, every execute waits).
  unsigned long long id = 0;
  const bool same_stream =
      done_stream_known_ && aoti::stream_id(stream, &id) && id == done_stream_id_;
  if (done_recorded_ && !same_stream &&
      !cuda_ok(cudaStreamWaitEvent(stream, done_, 0), "wait", label)) {
    return Error::Internal;
  }
  if (!warmed_up_) {
    e = copy_in(inputs, stream);
    if (e != Error::Ok) return e;
    aoti::ScopedAllocTally tally;
    e = body(stream);
    if (e != Error::Ok) return e;
    arena_bytes_ = tally.bytes();
    warmed_up_ = true;
    return copy_out(outputs, stream, synced);
  }
  if (exec_ == nullptr) {
    e = capture(stream, inputs, outputs);
    if (e != Error::Ok) {
      ET_LOG(Error,
             "CudaBackend[%s]: CUDA graph capture failed (error 0x%x); running eagerly "
             "from now on",
             label.c_str(), static_cast<unsigned>(e));
      disabled_ = true;
      return run_model(model_, inputs, outputs, stream);
    }
  }
  e = retarget(inputs, true);
  if (e == Error::Ok) e = retarget(outputs, false);
  if (e == Error::Ok) e = copy_in(inputs, stream);
  if (e != Error::Ok) return e;
  if (!cuda_ok(cudaGraphLaunch(exec_, stream), "cudaGraphLaunch", label)) {
    return Error::Internal;
  }
  g_launches.fetch_add(1, std::memory_order_relaxed);
  return copy_out(outputs, stream, synced);
}

} // namespace cuda
} // namespace backends
} // namespace executorch
