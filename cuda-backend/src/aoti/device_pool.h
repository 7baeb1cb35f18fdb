// Stream-ordered device memory for the shim's temporaries and the fallback
// ops' workspaces: one private cudaMemPool per device (not the device's
// default pool, which the application may tune), kept warm between executes
// instead of returning memory to the driver at every synchronize. On a
// delegate's own stream, freed blocks are also kept on the host side and
// handed back to the next allocation of the same rounded size on that
// stream (stream order makes the reuse safe, as in PyTorch's caching
// allocator): an execute then makes no cudaMallocFromPoolAsync or
// cudaFreeAsync call at all in the steady state.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// cudaMallocFromPoolAsync on this backend's pool for `device`; nbytes 0
// gives nullptr and cudaSuccess.
cudaError_t pool_alloc(void** out, size_t nbytes, int32_t device, cudaStream_t stream);
// cudaFreeAsync (or the stream's block cache): the block returns once
// `stream`'s queued work is done. `nbytes` is what pool_alloc was asked for.
cudaError_t pool_free(void* p, size_t nbytes, cudaStream_t stream);

// A delegate's own stream, for the life of the delegate: blocks allocated
// and freed on it are cached (up to kStreamCacheBytes). Forgetting it frees
// the cached blocks; the caller has synchronized the device first.
constexpr size_t kStreamCacheBytes = size_t{1} << 30;
void pool_cache_stream(cudaStream_t stream, int32_t device);
void pool_forget_stream(cudaStream_t stream);

// A caller's stream, for one execute: blocks allocated and freed on it are
// cached too, keyed by the stream's cudaStreamGetId id (a destroyed
// stream's handle can come back for a new stream; its id does not), at most
// kCallerCaches streams of kCallerCacheBytes each. Not while the stream is
// being captured (an application's CUDA graph would keep the addresses), and
// not with CUDA before 12 (no stream ids). The id and the capture status are
// asked for once per scope, at its first allocation or free, so an execute
// that allocates nothing (a graph replay) makes no extra CUDA call. The
// caches go when the device's last model does (pool_model_destroyed).
constexpr size_t kCallerCaches = 4;
constexpr size_t kCallerCacheBytes = size_t{256} << 20;
class ScopedCallerStreamCache {
 public:
  explicit ScopedCallerStreamCache(cudaStream_t stream);
  ~ScopedCallerStreamCache();
  ScopedCallerStreamCache(const ScopedCallerStreamCache&) = delete;
  ScopedCallerStreamCache& operator=(const ScopedCallerStreamCache&) = delete;

 private:
  friend bool caller_stream_id(cudaStream_t stream, unsigned long long* id);
  enum class State { kUnasked, kCached, kUncached };
  cudaStream_t stream_;
  State state_ = State::kUnasked;
  unsigned long long id_ = 0;
  ScopedCallerStreamCache* prev_;
};

// While a CUDA graph is captured (graph_replay.cpp), this thread's
// allocations come from a preallocated bump arena instead of becoming graph
// allocation nodes (each of which costs time at every replay); frees of
// arena blocks are no-ops. The arena is sized by a tally of the
// allocations an eager run of the same model made (ScopedAllocTally). An
// allocation that does not fit falls back to the pool.
struct CaptureArena {
  char* base = nullptr;
  size_t size = 0;
  size_t used = 0;
};
class ScopedCaptureArena {
 public:
  explicit ScopedCaptureArena(CaptureArena* arena);
  ~ScopedCaptureArena();
  ScopedCaptureArena(const ScopedCaptureArena&) = delete;
  ScopedCaptureArena& operator=(const ScopedCaptureArena&) = delete;

 private:
  CaptureArena* prev_;
};
// Sums this thread's pool_alloc sizes (rounded as the arena rounds them).
class ScopedAllocTally {
 public:
  ScopedAllocTally();
  ~ScopedAllocTally();
  ScopedAllocTally(const ScopedAllocTally&) = delete;
  ScopedAllocTally& operator=(const ScopedAllocTally&) = delete;
  size_t bytes() const { return bytes_; }

 private:
  friend cudaError_t pool_alloc(void**, size_t, int32_t, cudaStream_t);
  size_t bytes_ = 0;
  ScopedAllocTally* prev_;
};

// Models alive on `device` (the pool gives its idle memory back to the
// driver when the last one goes).
void pool_model_created(int32_t device);
void pool_model_destroyed(int32_t device);

// What the shim holds on every device, for telling a leak from a one-time
// growth: `reserved` and `used` are the pools' cudaMemPoolAttrReserved/
// UsedMemCurrent (cached blocks count as used), `cached` what the delegate
// streams' caches hold. Creates no pool and needs no device when none exists.
struct PoolStats {
  uint64_t reserved = 0;
  uint64_t used = 0;
  uint64_t cached = 0;
};
PoolStats pool_stats();

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
