// How many registry entries are called "CudaBackend".
#pragma once
#include <cstring>

#include <executorch/runtime/backend/interface.h>

inline size_t cuda_backend_entries() {
  size_t n = 0;
  for (size_t i = 0; i < executorch::runtime::get_num_registered_backends(); ++i) {
    auto name = executorch::runtime::get_backend_name(i);
    if (name.ok() && std::strcmp(*name, "CudaBackend") == 0) {
      ++n;
    }
  }
  return n;
}
