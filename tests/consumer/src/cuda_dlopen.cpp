// Links libexecutorch only and loads the CUDA backend by SONAME.
#include <cstdio>

#include <dlfcn.h>

#include "count.h"

int main() {
  if (cuda_backend_entries() != 0) {
    return 1;
  }
  void* h = dlopen("libexecutorch_cuda_backend.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    std::fprintf(stderr, "cuda_dlopen: %s\n", dlerror());
    return 1;
  }
  if (cuda_backend_entries() != 1) {
    std::fprintf(stderr, "cuda_dlopen: %zu entries after dlopen\n", cuda_backend_entries());
    return 1;
  }
  dlclose(h);
  void* again = dlopen("libexecutorch_cuda_backend.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (again == nullptr || cuda_backend_entries() != 1) {
    return 1;
  }
  std::puts("cuda_dlopen: ok");
  return 0;
}
