#include "device_pool.h"

#include "current_stream.h"

#include <atomic>
#include <cstdio>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// Whether `stream` is this thread's ScopedCallerStreamCache stream and may
// be cached; its id then.
bool caller_stream_id(cudaStream_t stream, unsigned long long* id);

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
  cudaStream_t stream = nullptr; // a delegate's own stream; nullptr for a caller's
  unsigned long long id = 0;     // a caller's stream: its cudaStreamGetId
  int32_t device = 0;
  size_t limit = kStreamCacheBytes;
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
  if (stream == nullptr) return nullptr; // the legacy default stream: never a delegate's own
  for (StreamCache& c : caches()) {
    if (c.stream == stream) return &c;
  }
  return nullptr;
}

// Under cache_mu(): a new cache for the caller's stream with this id, when
// there is room for one more.
StreamCache* caller_cache(unsigned long long id, int32_t device) {
  size_t callers = 0;
  for (const StreamCache& c : caches()) callers += c.stream == nullptr;
  if (callers >= kCallerCaches) return nullptr;
  StreamCache c;
  c.id = id;
  c.device = device;
  c.limit = kCallerCacheBytes;
  caches().push_back(std::move(c));
  return &caches().back();
}

// Under cache_mu(): `stream`'s cache, a delegate's own or, inside a
// ScopedCallerStreamCache of that stream, the caller's (made for an
// allocation on `device`; a free, kNoDevice, makes none).
constexpr int32_t kNoDevice = -1;
StreamCache* find_cache(cudaStream_t stream, int32_t device) {
  if (StreamCache* c = cache_of(stream)) return c;
  unsigned long long id = 0;
  if (!caller_stream_id(stream, &id)) return nullptr;
  for (StreamCache& c : caches()) {
    if (c.stream == nullptr && c.id == id) return &c;
  }
  return device == kNoDevice ? nullptr : caller_cache(id, device);
}

thread_local ScopedCallerStreamCache* tl_caller = nullptr;

// The stream's id, when it may be cached now: not being captured, and the
// runtime has ids (CUDA 12+).
bool ask_stream_id(cudaStream_t stream, unsigned long long* id) {
  if (!stream_id(stream, id)) return false;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &status) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return status == cudaStreamCaptureStatusNone;
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

// Asks once per scope; called under cache_mu(), from this scope's thread.
bool caller_stream_id(cudaStream_t stream, unsigned long long* id) {
  ScopedCallerStreamCache* s = tl_caller;
  if (s == nullptr || s->stream_ != stream) return false;
  using State = ScopedCallerStreamCache::State;
  if (s->state_ == State::kUnasked) {
    s->state_ = ask_stream_id(stream, &s->id_) ? State::kCached : State::kUncached;
  }
  *id = s->id_;
  return s->state_ == State::kCached;
}

ScopedCallerStreamCache::ScopedCallerStreamCache(cudaStream_t stream)
    : stream_(stream), prev_(tl_caller) {
  tl_caller = this;
}
ScopedCallerStreamCache::~ScopedCallerStreamCache() { tl_caller = prev_; }

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
    if (StreamCache* c = find_cache(stream, device)) {
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
    const size_t size = cache_round(nbytes);
    StreamCache* c = find_cache(stream, kNoDevice);
    if (c != nullptr && c->bytes + size <= c->limit) {
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

namespace {
// Frees the caller streams' caches on `device`; the device is synchronized.
void drop_caller_caches(int32_t device) {
  std::lock_guard<std::mutex> lk(cache_mu());
  std::vector<StreamCache>& all = caches();
  for (size_t i = all.size(); i-- > 0;) {
    if (all[i].stream != nullptr || all[i].device != device) continue;
    for (auto& kv : all[i].free) {
      for (void* p : kv.second) cudaFree(p);
    }
    all.erase(all.begin() + static_cast<std::ptrdiff_t>(i));
  }
}
} // namespace

void pool_model_destroyed(int32_t device) {
  if (device < 0 || device >= kMaxDevices) return;
  bool last = false;
  {
    std::lock_guard<std::mutex> lk(pool_mu());
    PoolSlot& s = slots()[device];
    last = s.models > 0 && --s.models == 0;
  }
  if (!last) return;
  // The caller synchronized the device: nothing queued still uses blocks.
  drop_caller_caches(device);
  std::lock_guard<std::mutex> lk(pool_mu());
  cudaMemPool_t pool = slots()[device].pool.load();
  if (slots()[device].models == 0 && pool != nullptr) cudaMemPoolTrimTo(pool, 0);
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
