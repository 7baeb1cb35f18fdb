// Driver for cuda_api_profile_test.sh: with bench/cuda_api_profile.cpp's
// library preloaded, calls the CUDA runtime in two scopes of label "work"
// (3 cudaGetLastError and 1 cudaGetDevice each) and once outside any scope,
// which must not be counted. Exit 2 when the library is not preloaded.
#include <dlfcn.h>

#include <cstdio>

#include <cuda_runtime_api.h>

int main() {
  using Scope = void (*)(const char*);
  const auto scope = reinterpret_cast<Scope>(dlsym(RTLD_DEFAULT, "et_cuda_api_profile_scope"));
  if (scope == nullptr) {
    std::fprintf(stderr, "et_cuda_api_profile_scope not found: preload the library\n");
    return 2;
  }
  (void)cudaGetLastError(); // outside any scope
  for (int execute = 0; execute < 2; ++execute) {
    scope("work");
    for (int i = 0; i < 3; ++i) (void)cudaGetLastError();
    int device = -1;
    (void)cudaGetDevice(&device); // fails without a GPU: still a call
    scope(nullptr);
  }
  return 0;
}
