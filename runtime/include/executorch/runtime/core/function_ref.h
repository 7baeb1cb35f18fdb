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
                std::is_convertible<decltype(std::declval<Callable&>()(std::declval<Params>()...)),
                                    Ret>::value>>
  FunctionRef(Callable&& callable)
      : invoke_(&invoke<std::remove_reference_t<Callable>>),
        // An integer holds either an object's or a function's address.
        target_(reinterpret_cast<intptr_t>(std::addressof(callable))) {}

  Ret operator()(Params... params) const {
    return invoke_(target_, std::forward<Params>(params)...);
  }

  explicit operator bool() const { return invoke_ != nullptr; }

  // Whether both refer to the same callable object.
  bool operator==(const FunctionRef& other) const { return target_ == other.target_; }

 private:
  template <typename Callable>
  static Ret invoke(intptr_t target, Params... params) {
    return (*reinterpret_cast<Callable*>(target))(std::forward<Params>(params)...);
  }

  Ret (*invoke_)(intptr_t, Params...) = nullptr;
  intptr_t target_ = 0;
};

} // namespace runtime
} // namespace executorch
