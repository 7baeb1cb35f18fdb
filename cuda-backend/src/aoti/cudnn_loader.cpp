#include "cudnn_loader.h"

#include <cstdio>
#include <vector>

#include "aoti/optional_library.h"

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

namespace {

constexpr const char* kLibName = "libcudnn.so.9";

struct Loaded {
  CudnnApi api;
  bool ok = false;
  char why[512] = {0};
};

Loaded load() {
  Loaded l;
  void* lib =
      open_optional_library(kLibName, "cuDNN 9 is required for convolution", l.why, sizeof l.why);
  if (lib == nullptr) return l;
#define AOTI_CUDNN_RESOLVE(name)                                                                  \
  l.api.name = reinterpret_cast<decltype(l.api.name)>(                                            \
      resolve_optional_symbol(lib, kLibName, #name, " (cuDNN 9 expected)", l.why, sizeof l.why)); \
  if (l.api.name == nullptr) return l;
  AOTI_CUDNN_FUNCTIONS(AOTI_CUDNN_RESOLVE)
#undef AOTI_CUDNN_RESOLVE
  l.api.version = l.api.cudnnGetVersion();
  if (l.api.version / 10000 != 9) {
    std::snprintf(l.why, sizeof l.why, "%s reports cuDNN version %zu, expected 9.x", kLibName,
                  l.api.version);
    return l;
  }
  l.ok = true;
  return l;
}

const Loaded& loaded() {
  static const Loaded l = load(); // thread-safe, once
  return l;
}

// Thread-local destructors of the main thread run in exit() before static
// destructors and before the CUDA runtime's own teardown, so cudnnDestroy
// still finds a live runtime (as for the cuBLAS handle).
struct ThreadHandles {
  struct Entry {
    int32_t device;
    cudnnHandle_t h;
  };
  std::vector<Entry> entries;
  ~ThreadHandles() {
    if (entries.empty()) return; // cuDNN never used on this thread
    const Loaded& l = loaded();
    if (!l.ok) return;
    for (const Entry& e : entries) l.api.cudnnDestroy(e.h);
  }
};
thread_local ThreadHandles tl_handles;

} // namespace

const CudnnApi* cudnn_api(const char** why) {
  const Loaded& l = loaded();
  if (!l.ok) {
    if (why != nullptr) *why = l.why;
    return nullptr;
  }
  return &l.api;
}

cudnnHandle_t cudnn_handle(const CudnnApi& api, int32_t device, cudaStream_t stream,
                           cudnnStatus_t* status) {
  ThreadHandles& t = tl_handles;
  cudnnHandle_t h = nullptr;
  for (const ThreadHandles::Entry& e : t.entries) {
    if (e.device == device) h = e.h;
  }
  if (h == nullptr) {
    cudnnStatus_t s = api.cudnnCreate(&h);
    if (s != CUDNN_STATUS_SUCCESS) {
      if (status != nullptr) *status = s;
      return nullptr;
    }
    t.entries.push_back({device, h});
  }
  cudnnStatus_t s = api.cudnnSetStream(h, stream);
  if (status != nullptr) *status = s;
  return s == CUDNN_STATUS_SUCCESS ? h : nullptr;
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
