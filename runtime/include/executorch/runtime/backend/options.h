// Backend options: small key/value settings passed to a backend.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <variant>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/span.h>

namespace executorch {
namespace runtime {

constexpr size_t kMaxOptionKeyLength = 64;
constexpr size_t kMaxOptionValueLength = 256;

using OptionValue = std::variant<bool, int, std::array<char, kMaxOptionValueLength>>;

struct BackendOption {
  char key[kMaxOptionKeyLength]{};
  OptionValue value;
};

template <size_t MaxCapacity>
class BackendOptions {
 public:
  BackendOptions() : size_(0) {}

  Span<BackendOption> view() { return Span<BackendOption>(options_, size_); }

  template <size_t N>
  Error set_option(const char (&key)[N], bool value) noexcept {
    return set_option_impl(key, OptionValue(value));
  }
  template <size_t N>
  Error set_option(const char (&key)[N], int value) noexcept {
    return set_option_impl(key, OptionValue(value));
  }
  template <size_t N>
  Error set_option(const char (&key)[N], const char* value) noexcept {
    std::array<char, kMaxOptionValueLength> arr{};
    std::strncpy(arr.data(), value, kMaxOptionValueLength - 1);
    return set_option_impl(key, OptionValue(arr));
  }

  template <size_t N, typename T>
  Error get_option(const char (&key)[N], T& out) const {
    for (size_t i = 0; i < size_; ++i) {
      if (std::strcmp(options_[i].key, key) == 0) {
        if (auto* v = std::get_if<T>(&options_[i].value)) {
          out = *v;
          return Error::Ok;
        }
        return Error::InvalidArgument;
      }
    }
    return Error::NotFound;
  }

 private:
  Error set_option_impl(const char* key, OptionValue value) {
    if (std::strlen(key) >= kMaxOptionKeyLength) {
      return Error::InvalidArgument;
    }
    for (size_t i = 0; i < size_; ++i) {
      if (std::strcmp(options_[i].key, key) == 0) {
        options_[i].value = value;
        return Error::Ok;
      }
    }
    if (size_ >= MaxCapacity) {
      return Error::InvalidArgument;
    }
    std::strncpy(options_[size_].key, key, kMaxOptionKeyLength - 1);
    options_[size_].value = value;
    ++size_;
    return Error::Ok;
  }

  BackendOption options_[MaxCapacity]{};
  size_t size_;
};

} // namespace runtime
} // namespace executorch
