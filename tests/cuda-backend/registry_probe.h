// Helpers shared by the CudaBackend registration tests: how many registry
// entries carry a name, and what the backend reports as the caller stream.
#pragma once

#include <cstring>
#include <string>

#include <unistd.h>

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/core/device_allocator.h>

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
  if (executorch::runtime::get_option("CudaBackend", view) != executorch::runtime::Error::Ok) {
    return "<error>";
  }
  const auto* text = std::get_if<std::array<char, executorch::runtime::kMaxOptionValueLength>>(
      &view.begin()->value);
  return text == nullptr ? "<error>" : std::string(text->data());
}

// An int diagnostic option of CudaBackend ("live_delegates", ...); -1 on
// an error.
inline int backend_int_option(const char* key) {
  executorch::runtime::BackendOption opt{};
  std::strncpy(opt.key, key, sizeof(opt.key) - 1);
  opt.value = -1;
  executorch::runtime::Span<executorch::runtime::BackendOption> view(&opt, 1);
  if (executorch::runtime::get_option("CudaBackend", view) != executorch::runtime::Error::Ok) {
    return -1;
  }
  const int* v = std::get_if<int>(&opt.value);
  return v == nullptr ? -1 : *v;
}

// The registered CUDA device allocator (one slot per device type: a second
// registration is refused, so "registered once" means this stays the same
// non-null pointer).
inline executorch::runtime::DeviceAllocator* cuda_allocator() {
  return executorch::runtime::get_device_allocator(executorch::runtime::etensor::DeviceType::CUDA);
}

// A stand-in allocator for the duplicate-registration check.
class DummyCudaAllocator final : public executorch::runtime::DeviceAllocator {
 public:
  executorch::runtime::etensor::DeviceType device_type() const override {
    return executorch::runtime::etensor::DeviceType::CUDA;
  }
  executorch::runtime::Result<void*> allocate(size_t, executorch::runtime::etensor::DeviceIndex,
                                              size_t) override {
    return executorch::runtime::Error::NotSupported;
  }
  void deallocate(void*, executorch::runtime::etensor::DeviceIndex) override {}
  executorch::runtime::Error copy_host_to_device(
      void*, const void*, size_t, executorch::runtime::etensor::DeviceIndex) override {
    return executorch::runtime::Error::NotSupported;
  }
  executorch::runtime::Error copy_device_to_host(
      void*, const void*, size_t, executorch::runtime::etensor::DeviceIndex) override {
    return executorch::runtime::Error::NotSupported;
  }
};

// True when this machine has no NVIDIA device node (CI without a GPU).
inline bool no_gpu_node() { return ::access("/dev/nvidia0", F_OK) != 0; }

} // namespace et_test
