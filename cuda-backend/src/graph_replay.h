// Optional CUDA-graph replay of one CudaBackend delegate (compile spec or
// runtime option "use_cuda_graph"). The first execute runs eagerly (one-time
// work such as constant folding and handle creation happens there), the
// second is captured on a private stream and every later one replays the
// graph: one launch instead of one per kernel.
//
// The graph reads and writes fixed staging buffers, so the caller's tensors
// may move between executes. The copies between the caller's device tensors
// and the staging are nodes of the graph: a tensor that moved re-points its
// node (cudaGraphExecMemcpyNodeSetParams1D), one now in host memory turns it
// off and is copied outside the graph on the execute stream (the caller
// stream when a CallerStreamGuard is active), ordered after the previous
// execute. The
// tensors that were in host memory at the first execute are staged in
// page-locked buffers and their host-device copies are part of the graph:
// an execute is then a memcpy per host input into pinned memory, one graph
// launch, one synchronize and a memcpy per host output. Shapes
// are fixed: a size or dtype change is an InvalidArgument Error. If the
// capture fails (an op that cannot be captured) the delegate logs why and
// runs eagerly from then on.
#pragma once

#include <mutex>
#include <vector>

#include <cuda_runtime_api.h>

#include <executorch/runtime/core/error.h>

#include "aoti/device_pool.h"
#include "aoti/model.h"
#include "run_model.h"

namespace executorch {
namespace backends {
namespace cuda {

// Graph launches by every GraphReplay of this process (a diagnostic).
size_t graph_launches_total();

class GraphReplay {
 public:
  explicit GraphReplay(const aoti::LoadedModel& model) : model_(model) {}
  ~GraphReplay();
  GraphReplay(const GraphReplay&) = delete;
  GraphReplay& operator=(const GraphReplay&) = delete;

  // One execute on `stream` (already current for the model's device).
  // Host outputs are valid once `stream` reaches the end of this call;
  // *synced says it was synchronized here (they are valid already).
  runtime::Error execute(const std::vector<IoTensor>& inputs, std::vector<IoTensor>& outputs,
                         cudaStream_t stream, bool* synced);

 private:
  // A device-to-device copy between one caller tensor and its staging that
  // is a node of the graph, and the caller address the node holds now.
  struct CopyNode {
    cudaGraphNode_t node = nullptr;
    const void* caller = nullptr;
    bool enabled = true;
  };

  runtime::Error stage(const std::vector<IoTensor>& inputs, const std::vector<IoTensor>& outputs);
  runtime::Error body(cudaStream_t stream);
  runtime::Error capture(cudaStream_t stream, const std::vector<IoTensor>& inputs,
                         const std::vector<IoTensor>& outputs);
  runtime::Error capture_device_copies(const std::vector<IoTensor>& io, bool inputs);
  runtime::Error find_copy_nodes(cudaGraph_t graph);
  runtime::Error retarget(const std::vector<IoTensor>& io, bool inputs);
  runtime::Error copy_in(const std::vector<IoTensor>& inputs, cudaStream_t stream);
  runtime::Error copy_out(std::vector<IoTensor>& outputs, cudaStream_t stream, bool* synced);

  const aoti::LoadedModel& model_;
  std::mutex mu_;
  // Staging memory the graph was captured on, described as the caller's
  // tensors were at the first execute (but on the device).
  std::vector<IoTensor> in_, out_;
  // Per tensor: the page-locked buffer between the caller's host memory and
  // the device staging (nullptr for the tensors on the device at the first
  // execute, or when no pinned memory could be had).
  std::vector<void*> in_pinned_, out_pinned_;
  bool warmed_up_ = false;   // the eager first run happened
  size_t arena_bytes_ = 0;   // what the eager run allocated in all
  aoti::CaptureArena arena_; // the captured run's temporaries
  bool disabled_ = false;
  cudaStream_t capture_stream_ = nullptr;
  cudaGraph_t graph_ = nullptr; // kept: exec_'s copy nodes are its nodes
  cudaGraphExec_t exec_ = nullptr;
  // Per tensor: its copy node (null node: copied outside the graph).
  std::vector<CopyNode> in_nodes_, out_nodes_;
  cudaEvent_t done_ = nullptr; // end of the previous execute
  // The stream done_ was recorded on, by its id: a handle can name another
  // stream later (destroyed and reused, or the per-thread default stream).
  unsigned long long done_stream_id_ = 0;
  bool done_stream_known_ = false;
  bool done_recorded_ = false;
};

} // namespace cuda
} // namespace backends
} // namespace executorch
