// Per-backend runtime options handed to Program::load_method.
#pragma once

#include <cstring>

#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/span.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

class LoadBackendOptionsMap final {
 public:
  static constexpr size_t kMaxBackends = 16;

  // Options for backend_id; the spans must outlive this map's use.
  Error set_options(const char* backend_id, Span<const BackendOption> options) {
    for (size_t i = 0; i < size_; ++i) {
      if (std::strcmp(entries_[i].backend_id, backend_id) == 0) {
        entries_[i].options = options;
        return Error::Ok;
      }
    }
    if (size_ >= kMaxBackends) {
      return Error::InvalidArgument;
    }
    entries_[size_].backend_id = backend_id;
    entries_[size_].options = options;
    ++size_;
    return Error::Ok;
  }
  Span<const BackendOption> get_options(const char* backend_id) const {
    for (size_t i = 0; i < size_; ++i) {
      if (std::strcmp(entries_[i].backend_id, backend_id) == 0) {
        return entries_[i].options;
      }
    }
    return {};
  }
  size_t size() const { return size_; }

 private:
  struct Entry {
    const char* backend_id = nullptr;
    Span<const BackendOption> options;
  };
  Entry entries_[kMaxBackends];
  size_t size_ = 0;
};

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
