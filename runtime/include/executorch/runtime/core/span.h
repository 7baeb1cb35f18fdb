// Span<T>: a mutable, non-owning view of contiguous elements.
#pragma once

#include <cstddef>

#include <executorch/runtime/platform/assert.h>

namespace executorch {
namespace runtime {

template <typename T>
class Span final {
 public:
  using iterator = T*;
  using size_type = size_t;

  constexpr Span() noexcept : data_(nullptr), length_(0) {}
  Span(T* data, size_t length) : data_(data), length_(length) {
    ET_DCHECK(data_ != nullptr || length_ == 0);
  }
  Span(T* begin, T* end) : data_(begin), length_(static_cast<size_t>(end - begin)) {}
  template <size_t N>
  /* implicit */ constexpr Span(T (&arr)[N]) : data_(arr), length_(N) {}
  /* implicit */ constexpr Span(T& single_element) : data_(&single_element), length_(1) {}

  T* begin() const noexcept { return data_; }
  T* end() const noexcept { return data_ + length_; }
  constexpr bool empty() const noexcept { return length_ == 0; }
  constexpr T* data() const noexcept { return data_; }
  constexpr size_t size() const noexcept { return length_; }
  T& operator[](size_t index) const {
    ET_DCHECK(index < length_);
    return data_[index];
  }

 private:
  T* data_;
  size_t length_;
};

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::Span;
} // namespace executor
} // namespace torch
