#include "device_pool.h"

#include <cstdio>
#include <mutex>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

namespace {

constexpr int kMaxDevices = 64;

struct PoolSlot {
  cudaMemPool_t pool = nullptr;
  bool failed = false;  // creation failed once: use the default allocator
  int models = 0;
};

// Never destroyed: a pool outlives every model and the CUDA runtime tears
// it down with the context at exit.
std::mutex& pool_mu() {
  static auto* m = new std::mutex();
  return *m;
}
PoolSlot* slots() {
  static auto* s = new PoolSlot[kMaxDevices];
  return s;
}

cudaMemPool_t pool_for(int32_t device) {
  if (device < 0 || device >= kMaxDevices) return nullptr;
  std::lock_guard<std::mutex> lk(pool_mu());
  PoolSlot& s = slots()[device];
  if (s.pool != nullptr || s.failed) return s.pool;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t p = nullptr;
  cudaError_t e = cudaMemPoolCreate(&p, &props);
  if (e != cudaSuccess) {
    std::fprintf(stderr, "[CudaBackend] cudaMemPoolCreate on cuda:%d: %s (using cudaMallocAsync)\n",
                 int(device), cudaGetErrorString(e));
    cudaGetLastError();
    s.failed = true;
    return nullptr;
  }
  // Keep freed blocks reserved across synchronizations: every execute
  // allocates the same temporaries again.
  uint64_t keep = UINT64_MAX;
  cudaMemPoolSetAttribute(p, cudaMemPoolAttrReleaseThreshold, &keep);
  s.pool = p;
  return p;
}

constexpr size_t kArenaAlign = 256;  // what cudaMalloc guarantees

size_t arena_round(size_t n) { return (n + kArenaAlign - 1) / kArenaAlign * kArenaAlign; }

thread_local CaptureArena* tl_arena = nullptr;
thread_local ScopedAllocTally* tl_tally = nullptr;

} // namespace

ScopedCaptureArena::ScopedCaptureArena(CaptureArena* arena) : prev_(tl_arena) {
  tl_arena = arena;
}
ScopedCaptureArena::~ScopedCaptureArena() { tl_arena = prev_; }
ScopedAllocTally::ScopedAllocTally() : prev_(tl_tally) { tl_tally = this; }
ScopedAllocTally::~ScopedAllocTally() { tl_tally = prev_; }

cudaError_t pool_alloc(void** out, size_t nbytes, int32_t device, cudaStream_t stream) {
  *out = nullptr;
  if (nbytes == 0) return cudaSuccess;
  const size_t rounded = arena_round(nbytes);
  if (tl_tally != nullptr) tl_tally->bytes_ += rounded;
  CaptureArena* a = tl_arena;
  if (a != nullptr && a->base != nullptr && rounded <= a->size - a->used) {
    *out = a->base + a->used;
    a->used += rounded;
    return cudaSuccess;
  }
  cudaMemPool_t p = pool_for(device);
  if (p == nullptr) return cudaMallocAsync(out, nbytes, stream);
  return cudaMallocFromPoolAsync(out, nbytes, p, stream);
}

cudaError_t pool_free(void* p, cudaStream_t stream) {
  if (p == nullptr) return cudaSuccess;
  const CaptureArena* a = tl_arena;
  if (a != nullptr) {
    const auto at = reinterpret_cast<uintptr_t>(p), base = reinterpret_cast<uintptr_t>(a->base);
    if (at >= base && at - base < a->size) return cudaSuccess;
  }
  return cudaFreeAsync(p, stream);
}

void pool_model_created(int32_t device) {
  if (device < 0 || device >= kMaxDevices) return;
  std::lock_guard<std::mutex> lk(pool_mu());
  ++slots()[device].models;
}

void pool_model_destroyed(int32_t device) {
  if (device < 0 || device >= kMaxDevices) return;
  std::lock_guard<std::mutex> lk(pool_mu());
  PoolSlot& s = slots()[device];
  if (s.models > 0 && --s.models == 0 && s.pool != nullptr) {
    // The caller synchronized the device: nothing queued still uses blocks.
    cudaMemPoolTrimTo(s.pool, 0);
  }
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
