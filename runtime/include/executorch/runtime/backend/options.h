// Backend options: small key/value settings passed to a backend, either at
// load time (LoadBackendOptionsMap -> BackendInitContext::runtime_specs) or
// at any time through set_option()/get_option() on the backend registry.
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <variant>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/span.h>

namespace executorch {
namespace runtime {

constexpr size_t kMaxOptionKeyLength = 64;
constexpr size_t kMaxOptionValueLength = 256;

// A string value is held inline (copied, NUL-terminated), so the option does
// not borrow the caller's string.
using OptionValue = std::variant<bool, int, std::array<char, kMaxOptionValueLength>>;

struct BackendOption {
  char key[kMaxOptionKeyLength]{};
  OptionValue value;
};

// A fixed-capacity list of options. Keys are string literals (or char
// arrays) whose length is checked at compile time.
template <size_t MaxCapacity>
class BackendOptions {
 public:
  BackendOptions() : size_(0) {}
  BackendOptions(const BackendOptions& other) = default;
  BackendOptions& operator=(const BackendOptions& other) = default;

  // A mutable view of the options set so far (what set_option(), the
  // LoadBackendOptionsMap and BackendInterface::set_option take).
  Span<BackendOption> view() { return Span<BackendOption>(options_, size_); }

  // Adds the key, or overwrites its value (and type). InvalidArgument when
  // the list is full.
  template <size_t N>
  Error set_option(const char (&key)[N], bool value) noexcept {
    static_assert(N <= kMaxOptionKeyLength, "Option key is too long");
    return set_option_impl(key, OptionValue(value));
  }
  template <size_t N>
  Error set_option(const char (&key)[N], int value) noexcept {
    static_assert(N <= kMaxOptionKeyLength, "Option key is too long");
    return set_option_impl(key, OptionValue(value));
  }
  // The string is copied; one longer than kMaxOptionValueLength - 1 bytes is
  // truncated.
  template <size_t N>
  Error set_option(const char (&key)[N], const char* value) noexcept {
    static_assert(N <= kMaxOptionKeyLength, "Option key is too long");
    std::array<char, kMaxOptionValueLength> text{};
    if (value != nullptr) {
      std::strncpy(text.data(), value, kMaxOptionValueLength - 1);
    }
    return set_option_impl(key, OptionValue(text));
  }

  // T is bool, int or const char* (which then points into this object).
  // NotFound for an unknown key, InvalidArgument when the stored value has
  // another type.
  template <typename T, size_t KeyLen>
  Error get_option(const char (&key)[KeyLen], T& out) const {
    static_assert(KeyLen <= kMaxOptionKeyLength, "Option key is too long");
    static_assert(std::is_same<T, bool>::value || std::is_same<T, int>::value ||
                      std::is_same<T, const char*>::value,
                  "get_option reads bool, int or const char*");
    for (size_t i = 0; i < size_; ++i) {
      if (std::strcmp(options_[i].key, key) != 0) {
        continue;
      }
      if constexpr (std::is_same<T, const char*>::value) {
        const auto* text = std::get_if<std::array<char, kMaxOptionValueLength>>(&options_[i].value);
        if (text == nullptr) {
          return Error::InvalidArgument;
        }
        out = text->data();
      } else {
        const T* v = std::get_if<T>(&options_[i].value);
        if (v == nullptr) {
          return Error::InvalidArgument;
        }
        out = *v;
      }
      return Error::Ok;
    }
    return Error::NotFound;
  }

 private:
  Error set_option_impl(const char* key, const OptionValue& value) {
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
