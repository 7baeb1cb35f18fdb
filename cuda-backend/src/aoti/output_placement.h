// Lets a model allocate an output straight in the caller's device buffer
// for it. When the caller keeps its outputs on the GPU, that saves one
// device-to-device copy per output and execute (torch's own shim hands the
// model's buffer back instead; ExecuTorch's planned buffer cannot be swapped).
//
// Which aoti_torch_empty_strided call of a run makes output j is learned
// from one run (the block the returned handle views) and assumed for the
// runs after it. Every run checks that the assumption held (settle); when it
// did not, the outputs are copied out through temporaries and the model's
// plan is dropped for good, so a wrong guess costs time once, never data.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "aoti/tensor_obj.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// The caller's buffer for one output; `data` null when the output cannot
// take its allocation there (host memory, a graph's staging buffer, ...).
struct PlacementTarget {
  void* data = nullptr;
  size_t nbytes = 0;
  int32_t dtype = 0;
  int32_t device = 0;
  size_t ndim = 0;
  const int64_t* sizes = nullptr;
  const int64_t* strides = nullptr; // in elements
};

// Per model: which allocation of a run (its index among the run's CUDA
// empty_strided calls) becomes which output. Learned once, by the first
// run that can; broken for good by a run that does not follow it.
class OutputPlan {
 public:
  struct Entry {
    uint32_t alloc;
    uint32_t output;
  };
  OutputPlan() = default;
  ~OutputPlan();
  OutputPlan(const OutputPlan&) = delete;
  OutputPlan& operator=(const OutputPlan&) = delete;

  // Null until learned; then fixed (sorted by alloc) for the plan's life.
  const std::vector<Entry>* entries() const { return entries_.load(std::memory_order_acquire); }
  bool broken() const { return broken_.load(std::memory_order_relaxed); }
  // Broken, or learned with nothing to place: runs need no targets.
  bool idle() const {
    const std::vector<Entry>* e = entries();
    return broken() || (e != nullptr && e->empty());
  }
  // The first publication wins (threads learning at once learn the same).
  void publish(std::vector<Entry> entries);
  void mark_broken() { broken_.store(true, std::memory_order_relaxed); }

 private:
  std::atomic<const std::vector<Entry>*> entries_{nullptr};
  std::atomic<bool> broken_{false};
};

// What to do with output j after the run.
enum class OutputFate : uint8_t {
  kCopy,    // copy it into the caller's buffer, as without placement
  kInPlace, // it is already there, in the caller's layout: nothing to do
  kStage,   // it lies in a caller buffer the plan lent: copy it out to a
            // temporary before any output is written
};

// One run on this thread, from before the model's Run to after it. Inactive
// (empty_strided behaves as without it) when the plan is idle, `targets` is
// null, or no target is usable.
class ScopedPlacement {
 public:
  ScopedPlacement(OutputPlan& plan, const PlacementTarget* targets, size_t n);
  ~ScopedPlacement();
  ScopedPlacement(const ScopedPlacement&) = delete;
  ScopedPlacement& operator=(const ScopedPlacement&) = delete;

  // After a successful Run: fates[j] for each of the n outputs. Learns the
  // plan (a first run: every fate kCopy) or checks it.
  void settle(TensorObj* const* outs, OutputFate* fates);

  // For aoti_torch_empty_strided, on the active scope of this thread (none:
  // nullptr, *seq = kNoSeq): the allocation's index in the run, and a view
  // of the caller's buffer when the plan gives that allocation to an
  // output and the request fits it (otherwise nullptr: allocate as usual).
  static constexpr uint32_t kNoSeq = UINT32_MAX;
  static TensorObj* take(size_t nbytes, int64_t ndim, const int64_t* sizes, const int64_t* strides,
                         int32_t dtype, int32_t device, uint32_t* seq);
  // Marks a block empty_strided allocated itself with its index in the run.
  static void tag(TensorObj* made, uint32_t seq);

 private:
  TensorObj* take_for(size_t nbytes, int64_t ndim, const int64_t* sizes, const int64_t* strides,
                      int32_t dtype, int32_t device, uint32_t* seq);
  void learn(TensorObj* const* outs);
  bool lent(const Storage* s) const;

  OutputPlan& plan_;
  const PlacementTarget* targets_;
  size_t n_;
  const std::vector<OutputPlan::Entry>* entries_ = nullptr; // null: learning
  bool active_ = false;
  uint32_t count_ = 0;      // CUDA empty_strided calls so far
  size_t next_ = 0;         // next entry of the plan
  std::vector<bool>& lent_; // per output: its buffer was lent this run
  ScopedPlacement* prev_;
};

// Outputs that a model made straight in the caller's buffer, in this
// process (get_option "outputs_in_place").
int64_t outputs_in_place_total();

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
