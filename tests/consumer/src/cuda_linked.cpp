// Links the CUDA backend through the package's flags: "CudaBackend" must be
// registered once before main, and stay once after a dlopen by SONAME.
#include <cstdio>
#include <cstring>

#include <dlfcn.h>

#include <executorch/extension/cuda/caller_stream.h>

#include "count.h"

static const size_t at_start = cuda_backend_entries();

int main(int argc, char** argv) {
  if (at_start != 1) {
    std::fprintf(stderr, "cuda_linked: %zu CudaBackend entries at start (want 1)\n", at_start);
    return 1;
  }
  // The extension is usable from the program too.
  executorch::extension::cuda::CallerStreamGuard guard(nullptr);
  if (!executorch::extension::cuda::getCallerStream().has_value()) {
    return 1;
  }
  if (argc > 1 && std::strcmp(argv[1], "dlopen") == 0) {
    void* h = dlopen("libexecutorch_cuda_backend.so.1", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr || cuda_backend_entries() != 1) {
      std::fprintf(stderr, "cuda_linked: after dlopen: %s, %zu entries\n", h ? "loaded" : dlerror(),
                   cuda_backend_entries());
      return 1;
    }
    dlclose(h);
    if (cuda_backend_entries() != 1) {
      return 1;
    }
  }
  std::puts("cuda_linked: ok");
  return 0;
}
