// FunctionRef<Ret(Params...)>: a non-owning reference to a callable, like
// C++26's std::function_ref. Cheap to copy; the callable must outlive it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace executorch {
namespace runtime {

namespace internal {
template <typename T>
using remove_cvref_t = typename std::remove_cv<typename std::remove_reference<T>::type>::type;
} // namespace internal

template <typename Fn>
class FunctionRef;

template <typename Ret, typename... Params>
class FunctionRef<Ret(Params...)> {
 public:
  FunctionRef() = default;
  FunctionRef(std::nullptr_t) {}

  // Refers to `callable` (a lambda, functor or function); not a copy.
  template <typename Callable,
            typename = std::enable_if_t<
                !std::is_same<internal::remove_cvref_t<Callable>, FunctionRef>::value>,
            typename = std::enable_if_t<
                std::is_void<Ret>::value ||
                std::is_convertible<decltype(std::declval<Callable&>()(
                                        std::declval<Params>()...)),
                                    Ret>::value>>
  FunctionRef(Callable&& callable)
      : invoke_(&invoke<std::remove_reference_t<Callable>>),
        target_(const_cast<void*>(static_cast<const void*>(std::addressof(callable)))) {}

  Ret operator()(Params... params) const {
    return invoke_(target_, std::forward<Params>(params)...);
  }

  explicit operator bool() const { return invoke_ != nullptr; }

  // Whether both refer to the same callable object.
  bool operator==(const FunctionRef& other) const { return target_ == other.target_; }

 private:
  template <typename Callable>
  static Ret invoke(void* target, Params... params) {
    return (*static_cast<Callable*>(target))(std::forward<Params>(params)...);
  }

  Ret (*invoke_)(void*, Params...) = nullptr;
  void* target_ = nullptr;
};

} // namespace runtime
} // namespace executorch
