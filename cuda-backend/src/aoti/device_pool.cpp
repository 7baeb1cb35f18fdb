#include "device_pool.h"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

namespace {

constexpr int kMaxDevices = 64;

struct PoolSlot {
  std::atomic<cudaMemPool_t> pool{nullptr}; // read without the lock
  bool failed = false;                      // creation failed once: use the default allocator
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

cudaMemPool_t create_pool(int32_t device) {
  std::lock_guard<std::mutex> lk(pool_mu());
  PoolSlot& s = slots()[device];
  if (s.pool.load() != nullptr || s.failed) return s.pool.load();
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
  s.pool.store(p, std::memory_order_release);
  return p;
}

// The device's pool: one atomic load once it exists.
cudaMemPool_t pool_for(int32_t device) {
  if (device < 0 || device >= kMaxDevices) return nullptr;
  cudaMemPool_t p = slots()[device].pool.load(std::memory_order_acquire);
  return p != nullptr ? p : create_pool(device);
}

// Blocks freed on a delegate's own stream, by rounded size.
constexpr size_t kCacheAlign = 512;
size_t cache_round(size_t n) { return (n + kCacheAlign - 1) / kCacheAlign * kCacheAlign; }

struct StreamCache {
  cudaStream_t stream = nullptr;
  int32_t device = 0;
  size_t bytes = 0; // held in `free`
  std::unordered_map<size_t, std::vector<void*>> free;
};

std::mutex& cache_mu() {
  static auto* m = new std::mutex();
  return *m;
}
std::vector<StreamCache>& caches() {
  static auto* c = new std::vector<StreamCache>();
  return *c;
}
// Under cache_mu(); nullptr when `stream` is not a cached one.
StreamCache* cache_of(cudaStream_t stream) {
  for (StreamCache& c : caches()) {
    if (c.stream == stream) return &c;
  }
  return nullptr;
}

cudaError_t pool_malloc(void** out, size_t nbytes, int32_t device, cudaStream_t stream) {
  cudaMemPool_t p = pool_for(device);
  if (p == nullptr) return cudaMallocAsync(out, nbytes, stream);
  return cudaMallocFromPoolAsync(out, nbytes, p, stream);
}

constexpr size_t kArenaAlign = 256; // what cudaMalloc guarantees

size_t arena_round(size_t n) { return (n + kArenaAlign - 1) / kArenaAlign * kArenaAlign; }

thread_local CaptureArena* tl_arena = nullptr;
thread_local ScopedAllocTally* tl_tally = nullptr;

} // namespace

ScopedCaptureArena::ScopedCaptureArena(CaptureArena* arena) : prev_(tl_arena) { tl_arena = arena; }
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
  // Every block is allocated at the rounded size, so that it can serve any
  // request of that size once cached, whichever stream it was made on.
  const size_t size = cache_round(nbytes);
  {
    std::lock_guard<std::mutex> lk(cache_mu());
    if (StreamCache* c = cache_of(stream)) {
      auto it = c->free.find(size);
      if (it != c->free.end() && !it->second.empty()) {
        *out = it->second.back();
        it->second.pop_back();
        c->bytes -= size;
        return cudaSuccess;
      }
    }
  }
  return pool_malloc(out, size, device, stream);
}

cudaError_t pool_free(void* p, size_t nbytes, cudaStream_t stream) {
  if (p == nullptr) return cudaSuccess;
  const CaptureArena* a = tl_arena;
  if (a != nullptr) {
    const auto at = reinterpret_cast<uintptr_t>(p), base = reinterpret_cast<uintptr_t>(a->base);
    if (at >= base && at - base < a->size) return cudaSuccess;
  }
  {
    std::lock_guard<std::mutex> lk(cache_mu());
    StreamCache* c = cache_of(stream);
    const size_t size = cache_round(nbytes);
    if (c != nullptr && c->bytes + size <= kStreamCacheBytes) {
      c->free[size].push_back(p);
      c->bytes += size;
      return cudaSuccess;
    }
  }
  return cudaFreeAsync(p, stream);
}

void pool_cache_stream(cudaStream_t stream, int32_t device) {
  std::lock_guard<std::mutex> lk(cache_mu());
  if (cache_of(stream) != nullptr) return;
  StreamCache c;
  c.stream = stream;
  c.device = device;
  caches().push_back(std::move(c));
}

void pool_forget_stream(cudaStream_t stream) {
  std::lock_guard<std::mutex> lk(cache_mu());
  std::vector<StreamCache>& all = caches();
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].stream != stream) continue;
    // The device is synchronized: nothing queued uses these blocks.
    for (auto& kv : all[i].free) {
      for (void* p : kv.second) cudaFree(p);
    }
    all.erase(all.begin() + static_cast<std::ptrdiff_t>(i));
    return;
  }
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
  cudaMemPool_t pool = s.pool.load();
  if (s.models > 0 && --s.models == 0 && pool != nullptr) {
    // The caller synchronized the device: nothing queued still uses blocks.
    cudaMemPoolTrimTo(pool, 0);
  }
}

PoolStats pool_stats() {
  PoolStats st;
  for (int d = 0; d < kMaxDevices; ++d) {
    cudaMemPool_t p = slots()[d].pool.load(std::memory_order_acquire);
    if (p == nullptr) continue;
    uint64_t reserved = 0, used = 0;
    if (cudaMemPoolGetAttribute(p, cudaMemPoolAttrReservedMemCurrent, &reserved) == cudaSuccess) {
      st.reserved += reserved;
    }
    if (cudaMemPoolGetAttribute(p, cudaMemPoolAttrUsedMemCurrent, &used) == cudaSuccess) {
      st.used += used;
    }
  }
  std::lock_guard<std::mutex> lk(cache_mu());
  for (const StreamCache& c : caches()) st.cached += c.bytes;
  return st;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
