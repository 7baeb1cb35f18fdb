// Links libexecutorch only: no CudaBackend may be registered. With an
// add.pte argument (upstream's conformance program) it runs forward(3.5,
// -1.25) through Module + TensorPtr, as a user program would, and expects 2.25.
#include <cmath>
#include <cstdio>

#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/platform/runtime.h>

#include "count.h"

int main(int argc, char** argv) {
  executorch::runtime::runtime_init();
  if (cuda_backend_entries() != 0) {
    std::fprintf(stderr, "runtime_only: CudaBackend registered without the backend\n");
    return 1;
  }
  if (argc > 1) {
    executorch::extension::Module module(argv[1]);
    auto a = executorch::extension::make_tensor_ptr({1}, {3.5f});
    auto b = executorch::extension::make_tensor_ptr({1}, {-1.25f});
    auto out = module.forward({a, b});
    if (!out.ok()) {
      std::fprintf(stderr, "runtime_only: forward of %s failed (error 0x%x)\n", argv[1],
                   static_cast<unsigned>(out.error()));
      return 2;
    }
    const float got = out->at(0).toTensor().const_data_ptr<float>()[0];
    if (std::fabs(got - 2.25f) > 1e-6f) {
      std::fprintf(stderr, "runtime_only: %s gave %g, want 2.25\n", argv[1], got);
      return 3;
    }
    std::printf("runtime_only: %s forward(3.5, -1.25) = %g\n", argv[1], got);
  }
  std::puts("runtime_only: ok");
  return 0;
}
