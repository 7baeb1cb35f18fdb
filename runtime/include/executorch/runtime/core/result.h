// Result<T>: a value or an Error. Move-only; get() aborts without a value.
#pragma once

#include <new>
#include <type_traits>
#include <utility>

#include <executorch/runtime/core/error.h>
#include <executorch/runtime/platform/assert.h>

namespace executorch {
namespace runtime {

template <typename T>
class Result final {
 public:
  typedef T value_type;

  /* implicit */ Result(Error error)
      : error_(error == Error::Ok ? Error::Internal : error), has_value_(false) {}
  /* implicit */ Result(const T& val) : value_(val), has_value_(true) {}
  /* implicit */ Result(T&& val) : value_(std::move(val)), has_value_(true) {}

  Result(Result&& rhs) noexcept : has_value_(rhs.has_value_) {
    if (has_value_) {
      // remove_const: Result<const T> (e.g. get_tensor_layout) must move too.
      new (const_cast<typename std::remove_const<T>::type*>(&value_)) T(std::move(rhs.value_));
    } else {
      error_ = rhs.error_;
    }
  }

  ~Result() {
    if (has_value_) {
      value_.~T();
    }
  }

  Result() = delete;
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result& operator=(Result&&) = delete;

  ET_NODISCARD bool ok() const { return has_value_; }
  ET_NODISCARD Error error() const { return has_value_ ? Error::Ok : error_; }

  T& get() {
    CheckOk();
    return value_;
  }
  const T& get() const {
    CheckOk();
    return value_;
  }
  T& operator*() & { return get(); }
  const T& operator*() const& { return get(); }
  T* operator->() { return &get(); }
  const T* operator->() const { return &get(); }

 private:
  void CheckOk() const { ET_CHECK(has_value_); }

  union {
    T value_;
    Error error_;
  };
  bool has_value_;
};

} // namespace runtime
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::runtime::Result;
} // namespace executor
} // namespace torch

// Returns the error of a failed Result from the enclosing function, else
// yields the moved value (GNU statement expression).
#define ET_UNWRAP(result__, ...)           \
  ({                                       \
    auto et_result__ = (result__);         \
    if (!et_result__.ok()) {               \
      ET_INTERNAL_UNWRAP_LOG(__VA_ARGS__); \
      return et_result__.error();          \
    }                                      \
    std::move(*et_result__);               \
  })
#define ET_INTERNAL_UNWRAP_LOG(...) \
  ET_INTERNAL_UNWRAP_LOG_SELECT(dummy, ##__VA_ARGS__, 2, 2, 2, 2, 2, 2, 2, 2, 1)(__VA_ARGS__)
#define ET_INTERNAL_UNWRAP_LOG_SELECT(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, N, ...) \
  ET_INTERNAL_UNWRAP_LOG_##N
#define ET_INTERNAL_UNWRAP_LOG_1(...) \
  do {                                \
  } while (0)
#define ET_INTERNAL_UNWRAP_LOG_2(_format, ...) ET_LOG(Error, _format, ##__VA_ARGS__)

#define ET_ASSIGN_OR_RETURN(var__, result__, ...) auto var__ = ET_UNWRAP(result__, ##__VA_ARGS__)
