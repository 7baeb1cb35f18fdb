#include "aoti/output_placement.h"

#include <algorithm>
#include <new>
#include <utility>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

namespace {

thread_local ScopedPlacement* tl_scope = nullptr;
thread_local std::vector<bool> tl_lent;
std::atomic<int64_t> g_in_place{0};

// `h` shows exactly the caller's tensor: dtype, sizes, and the strides of
// every dimension that has more than one element.
bool same_layout(const TensorObj& h, const PlacementTarget& t) {
  if (h.dtype != t.dtype || h.sizes.size() != t.ndim) return false;
  for (size_t i = 0; i < t.ndim; ++i) {
    if (h.sizes[i] != t.sizes[i]) return false;
    if (h.sizes[i] != 1 && h.strides[i] != t.strides[i]) return false;
  }
  return true;
}

} // namespace

OutputPlan::~OutputPlan() { delete entries_.load(std::memory_order_acquire); }

void OutputPlan::publish(std::vector<Entry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.alloc < b.alloc; });
  auto* mine = new (std::nothrow) std::vector<Entry>(std::move(entries));
  if (mine == nullptr) return; // not learned: the next run tries again
  const std::vector<Entry>* none = nullptr;
  if (!entries_.compare_exchange_strong(none, mine, std::memory_order_acq_rel)) delete mine;
}

ScopedPlacement::ScopedPlacement(OutputPlan& plan, const PlacementTarget* targets, size_t n)
    : plan_(plan), targets_(targets), n_(n), lent_(tl_lent), prev_(tl_scope) {
  if (targets == nullptr || plan.idle()) return;
  entries_ = plan.entries();
  for (size_t j = 0; j < n && !active_; ++j) active_ = targets[j].data != nullptr;
  if (!active_) return;
  lent_.assign(n, false);
  tl_scope = this;
}

ScopedPlacement::~ScopedPlacement() {
  if (active_) tl_scope = prev_;
}

TensorObj* ScopedPlacement::take(size_t nbytes, int64_t ndim, const int64_t* sizes,
                                 const int64_t* strides, int32_t dtype, int32_t device,
                                 uint32_t* seq) {
  ScopedPlacement* s = tl_scope;
  if (s == nullptr) {
    *seq = kNoSeq;
    return nullptr;
  }
  return s->take_for(nbytes, ndim, sizes, strides, dtype, device, seq);
}

TensorObj* ScopedPlacement::take_for(size_t nbytes, int64_t ndim, const int64_t* sizes,
                                     const int64_t* strides, int32_t dtype, int32_t device,
                                     uint32_t* seq) {
  *seq = count_ == kNoSeq ? kNoSeq : count_++;
  if (entries_ == nullptr || next_ >= entries_->size() || (*entries_)[next_].alloc != *seq)
    return nullptr;
  const uint32_t j = (*entries_)[next_++].output;
  const PlacementTarget& t = targets_[j];
  // The only memory-safety condition: the request fits the caller's
  // buffer. Whether the model then returns it as output j is settle's job.
  if (t.data == nullptr || nbytes == 0 || nbytes > t.nbytes || device != t.device) return nullptr;
  TensorObj* view = make_view(t.data, nbytes, ndim, sizes, strides, dtype, kDevCuda, device);
  if (view != nullptr) lent_[j] = true;
  return view;
}

void ScopedPlacement::tag(TensorObj* made, uint32_t seq) {
  if (made != nullptr && seq != kNoSeq) made->storage->alloc_seq = seq;
}

bool ScopedPlacement::lent(const Storage* s) const {
  if (s->owned) return false;
  for (size_t j = 0; j < n_; ++j) {
    if (lent_[j] && s->data == targets_[j].data) return true;
  }
  return false;
}

void ScopedPlacement::settle(TensorObj* const* outs, OutputFate* fates) {
  std::fill(fates, fates + n_, OutputFate::kCopy);
  if (!active_) return;
  if (entries_ == nullptr) {
    learn(outs);
    return;
  }
  bool held = true;
  int64_t in_place = 0;
  for (size_t j = 0; j < n_; ++j) {
    if (!lent_[j]) continue;
    const TensorObj* h = outs[j];
    const Storage* s = h != nullptr ? h->storage : nullptr;
    if (s != nullptr && !s->owned && s->data == targets_[j].data && h->offset == 0 &&
        same_layout(*h, targets_[j])) {
      fates[j] = OutputFate::kInPlace;
      ++in_place;
    } else {
      held = false;
    }
  }
  if (in_place > 0) g_in_place.fetch_add(in_place, std::memory_order_relaxed);
  if (held) return;
  // A lent buffer holds something else than its output: read every output
  // that lies in one out before any output is written.
  plan_.mark_broken();
  for (size_t j = 0; j < n_; ++j) {
    if (fates[j] != OutputFate::kInPlace && outs[j] != nullptr && lent(outs[j]->storage))
      fates[j] = OutputFate::kStage;
  }
}

void ScopedPlacement::learn(TensorObj* const* outs) {
  std::vector<OutputPlan::Entry> entries;
  for (size_t j = 0; j < n_; ++j) {
    const TensorObj* h = outs[j];
    const PlacementTarget& t = targets_[j];
    if (h == nullptr || t.data == nullptr) continue;
    const Storage* s = h->storage;
    if (!s->owned || s->alloc_seq == kNoSeq || h->offset != 0 || s->nbytes > t.nbytes ||
        s->device_index != t.device || !same_layout(*h, t))
      continue;
    // An allocation that two outputs view serves neither.
    bool shared = false;
    for (size_t k = 0; k < n_; ++k)
      shared = shared || (k != j && outs[k] != nullptr && outs[k]->storage == s);
    if (!shared) entries.push_back({s->alloc_seq, static_cast<uint32_t>(j)});
  }
  plan_.publish(std::move(entries));
}

int64_t outputs_in_place_total() { return g_in_place.load(std::memory_order_relaxed); }

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
