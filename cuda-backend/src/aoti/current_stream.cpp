#include "aoti/current_stream.h"

#include <unordered_map>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

namespace {

// A flat per-thread table: the lookup runs several times per execute and
// must not hash or allocate. Devices past it (no such host yet) use a map.
constexpr int32_t kTableDevices = 64;
thread_local cudaStream_t tl_streams[kTableDevices] = {};

std::unordered_map<int32_t, cudaStream_t>& overflow() {
  static thread_local std::unordered_map<int32_t, cudaStream_t> m;
  return m;
}

} // namespace

cudaStream_t current_stream(int32_t dev) {
  if (dev >= 0 && dev < kTableDevices) return tl_streams[dev];
  auto& m = overflow();
  auto it = m.find(dev);
  return it == m.end() ? nullptr : it->second;
}

void set_current_stream(int32_t dev, cudaStream_t s) {
  if (dev >= 0 && dev < kTableDevices) {
    tl_streams[dev] = s;
  } else {
    overflow()[dev] = s;
  }
}

bool stream_id(cudaStream_t s, unsigned long long* id) {
#if CUDART_VERSION >= 12000
  if (cudaStreamGetId(s, id) == cudaSuccess) return true;
  (void)cudaGetLastError();
#else
  (void)s;
  (void)id;
#endif
  return false;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
