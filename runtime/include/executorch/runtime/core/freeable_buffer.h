// FreeableBuffer: read-only bytes plus the function that releases them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/platform/assert.h>

namespace executorch {
namespace runtime {

class FreeableBuffer final {
 public:
  using FreeFn = void (*)(void* context, void* data, size_t size);
  using FreeUInt64Fn = void (*)(void* context, uint64_t data, size_t size);

  FreeableBuffer() noexcept = default;
  FreeableBuffer(const void* data, size_t size, FreeFn free_fn,
                 void* free_fn_context = nullptr) noexcept
      : free_fn_(free_fn), free_fn_context_(free_fn_context), data_(data), size_(size) {}
  explicit FreeableBuffer(const uint64_t data_uint64, size_t size, FreeUInt64Fn free_fn,
                          void* free_fn_context = nullptr) noexcept
      : free_uint64_fn_(free_fn),
        free_fn_context_(free_fn_context),
        data_uint64_(data_uint64),
        is_uint64_(true),
        size_(size) {}

  FreeableBuffer(FreeableBuffer&& rhs) noexcept { take(rhs); }
  FreeableBuffer& operator=(FreeableBuffer&& rhs) noexcept {
    if (this != &rhs) {
      Free();
      take(rhs);
    }
    return *this;
  }
  FreeableBuffer(const FreeableBuffer&) = delete;
  FreeableBuffer& operator=(const FreeableBuffer&) = delete;
  ~FreeableBuffer() { Free(); }

  void Free() {
    if (is_uint64_) {
      if (free_uint64_fn_ != nullptr && data_uint64_ != 0) {
        free_uint64_fn_(free_fn_context_, data_uint64_, size_);
      }
      data_uint64_ = 0;
    } else {
      if (free_fn_ != nullptr && data_ != nullptr) {
        free_fn_(free_fn_context_, const_cast<void*>(data_), size_);
      }
      data_ = nullptr;
    }
    free_fn_ = nullptr;
    free_uint64_fn_ = nullptr;
    size_ = 0;
  }

  size_t size() const { return size_; }
  const void* data() const {
    ET_CHECK_MSG(!is_uint64_, "FreeableBuffer holds a uint64 handle");
    return data_;
  }
  Result<const void*> data_safe() const {
    if (is_uint64_) {
      return Error::InvalidType;
    }
    return data_;
  }
  Result<uint64_t> data_uint64_type() const {
    if (!is_uint64_) {
      return Error::InvalidType;
    }
    return data_uint64_;
  }

 private:
  void take(FreeableBuffer& rhs) {
    free_fn_ = rhs.free_fn_;
    free_uint64_fn_ = rhs.free_uint64_fn_;
    free_fn_context_ = rhs.free_fn_context_;
    data_ = rhs.data_;
    data_uint64_ = rhs.data_uint64_;
    is_uint64_ = rhs.is_uint64_;
    size_ = rhs.size_;
    rhs.free_fn_ = nullptr;
    rhs.free_uint64_fn_ = nullptr;
    rhs.data_ = nullptr;
    rhs.data_uint64_ = 0;
    rhs.size_ = 0;
  }

  FreeFn free_fn_ = nullptr;
  FreeUInt64Fn free_uint64_fn_ = nullptr;
  void* free_fn_context_ = nullptr;
  const void* data_ = nullptr;
  uint64_t data_uint64_ = 0;
  bool is_uint64_ = false;
  size_t size_ = 0;
};

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::FreeableBuffer;
} // namespace executor
} // namespace torch
