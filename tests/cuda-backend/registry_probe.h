// Helpers shared by the CudaBackend registration tests: how many registry
// entries carry a name, and what the backend reports as the caller stream.
#pragma once

#include <cstring>
#include <string>

#include <unistd.h>

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/backend/options.h>

namespace et_test {

inline size_t count_backends_named(const char* name) {
  size_t n = 0;
  const size_t total = executorch::runtime::get_num_registered_backends();
  for (size_t i = 0; i < total; ++i) {
    auto entry = executorch::runtime::get_backend_name(i);
    if (entry.ok() && *entry != nullptr && std::strcmp(*entry, name) == 0) {
      ++n;
    }
  }
  return n;
}

// The "caller_stream" option of CudaBackend: "none", "0x<hex>", or
// "<error>" when the option could not be read.
inline std::string backend_caller_stream() {
  executorch::runtime::BackendOptions<1> opts;
  if (opts.set_option("caller_stream", "") != executorch::runtime::Error::Ok) {
    return "<error>";
  }
  auto view = opts.view();
  if (executorch::runtime::get_option("CudaBackend", view) !=
      executorch::runtime::Error::Ok) {
    return "<error>";
  }
  const auto* text = std::get_if<std::array<char, executorch::runtime::kMaxOptionValueLength>>(
      &view.begin()->value);
  return text == nullptr ? "<error>" : std::string(text->data());
}

// True when this machine has no NVIDIA device node (CI without a GPU).
inline bool no_gpu_node() {
  return ::access("/dev/nvidia0", F_OK) != 0;
}

} // namespace et_test
