// EXECUTORCH_FN(func): a function known at compile time, as a type, for
// make_boxed_kernel / WrapUnboxedIntoFunctor (make_boxed_from_unboxed_functor.h).
#pragma once

#include <type_traits>

namespace executorch {
namespace extension {
namespace kernel_util_internal {

// The function func_ptr_ (of function type FuncType_) as a type; name_ is an
// optional name for profiling scopes.
template <class FuncType_, FuncType_* func_ptr_, const char* name_ = nullptr>
struct CompileTimeFunctionPointer final {
  static_assert(std::is_function<FuncType_>::value,
                "EXECUTORCH_FN takes a function, not a pointer variable or a functor");
  using FuncType = FuncType_;
  static constexpr FuncType* func_ptr() { return func_ptr_; }
  static constexpr const char* func_name_ = name_;
};

template <class T>
struct is_compile_time_function_pointer : std::false_type {};

template <class FuncType, FuncType* func_ptr, const char* name>
struct is_compile_time_function_pointer<CompileTimeFunctionPointer<FuncType, func_ptr, name>>
    : std::true_type {};

} // namespace kernel_util_internal
} // namespace extension
} // namespace executorch

#define EXECUTORCH_FN_TYPE(func, ...)                                        \
  ::executorch::extension::kernel_util_internal::CompileTimeFunctionPointer< \
      std::remove_pointer_t<std::remove_reference_t<decltype(func)>>, (func), ##__VA_ARGS__>
#define EXECUTORCH_FN(func, ...) EXECUTORCH_FN_TYPE(func, ##__VA_ARGS__)()
