// Kernels written as plain ("unboxed") C++ functions, made callable by the
// runtime (boxed: KernelRuntimeContext& plus a Span<EValue*> of arguments).
//
//   Tensor& my_op_out(KernelRuntimeContext& ctx, const Tensor& a, Tensor& out);
//   EXECUTORCH_LIBRARY(my_ns, "my_op.out", my_op_out);  // registers my_ns::my_op.out
//
// Each parameter after the (optional) leading KernelRuntimeContext& takes the
// argument of the same position: Tensor (by reference or value), the scalar
// types, ArrayRef lists, std::optional<T> (None gives std::nullopt) and
// ArrayRef<std::optional<Tensor>>, through EValue::to<T>(). A call with fewer
// arguments than the function takes fails the context with InvalidArgument
// and calls nothing.
#pragma once

#include <cstddef>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

#include <executorch/extension/kernel_util/meta_programming.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/event_tracer_hooks.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/log.h>

namespace executorch {
namespace extension {
namespace kernel_util_internal {

// One argument, converted from its EValue for a parameter of type T.
template <class T>
struct evalue_to_arg final {
  using Value = std::decay_t<T>;
  static decltype(auto) call(::executorch::runtime::EValue& v) { return v.to<Value>(); }
};

template <>
struct evalue_to_arg<::executorch::aten::Tensor> final {
  static ::executorch::aten::Tensor& call(::executorch::runtime::EValue& v) { return v.toTensor(); }
};

template <class T>
struct evalue_to_arg<std::optional<T>> final {
  static std::optional<T> call(::executorch::runtime::EValue& v) {
    if (v.isNone()) {
      return std::nullopt;
    }
    return std::optional<T>(evalue_to_arg<T>::call(v));
  }
};

// Parameter type -> converter: references and cv-qualifiers dropped.
template <class P>
using evalue_to_arg_for = evalue_to_arg<std::remove_cv_t<std::remove_reference_t<P>>>;

template <class Signature>
struct unboxed_signature;

template <class R, class... Params>
struct unboxed_signature<R(Params...)> {
  using return_type = R;
  using parameter_types = std::tuple<Params...>;
};

template <class Params>
struct drop_context {
  static constexpr bool first_is_context = false;
  using type = Params;
};

template <class First, class... Rest>
struct drop_context<std::tuple<First, Rest...>> {
  static constexpr bool first_is_context =
      std::is_same<std::remove_cv_t<std::remove_reference_t<First>>,
                   ::executorch::runtime::KernelRuntimeContext>::value;
  using type =
      std::conditional_t<first_is_context, std::tuple<Rest...>, std::tuple<First, Rest...>>;
};

template <class Functor, bool kWithContext, class Params>
struct call_unboxed;

template <class Functor, bool kWithContext, class... Params>
struct call_unboxed<Functor, kWithContext, std::tuple<Params...>> {
  template <size_t... I>
  static void call(::executorch::runtime::KernelRuntimeContext& ctx,
                   ::executorch::runtime::Span<::executorch::runtime::EValue*> stack,
                   std::index_sequence<I...>) {
    if constexpr (kWithContext) {
      (*Functor::func_ptr())(ctx, evalue_to_arg_for<Params>::call(*stack[I])...);
    } else {
      (void)ctx;
      (*Functor::func_ptr())(evalue_to_arg_for<Params>::call(*stack[I])...);
    }
  }
};

} // namespace kernel_util_internal

// FuncType: EXECUTORCH_FN_TYPE(f). call() is the boxed kernel.
template <class FuncType>
struct WrapUnboxedIntoFunctor {
  static_assert(kernel_util_internal::is_compile_time_function_pointer<FuncType>::value,
                "Can't handle function other than EXECUTORCH_FN");
  using TrueType = typename FuncType::FuncType;
  using ReturnType = typename kernel_util_internal::unboxed_signature<TrueType>::return_type;
  using ArgsType = typename kernel_util_internal::unboxed_signature<TrueType>::parameter_types;
  static constexpr bool first_arg_is_context =
      kernel_util_internal::drop_context<ArgsType>::first_is_context;
  using ContextRemovedArgsType = typename kernel_util_internal::drop_context<ArgsType>::type;

  static void call(::executorch::runtime::KernelRuntimeContext& ctx,
                   ::executorch::runtime::Span<::executorch::runtime::EValue*> stack) {
    constexpr size_t num_inputs = std::tuple_size<ContextRemovedArgsType>::value;
    if (stack.size() < num_inputs) {
      ET_LOG(Error, "Boxed kernel takes %zu arguments, %zu given", num_inputs, stack.size());
      ctx.fail(::executorch::runtime::Error::InvalidArgument);
      return;
    }
    for (size_t i = 0; i < num_inputs; ++i) {
      if (stack[i] == nullptr) {
        ET_LOG(Error, "Boxed kernel: argument %zu is null", i);
        ctx.fail(::executorch::runtime::Error::InvalidArgument);
        return;
      }
    }
    kernel_util_internal::call_unboxed<FuncType, first_arg_is_context, ContextRemovedArgsType>::
        call(ctx, stack, std::make_index_sequence<num_inputs>());
  }
};

// A Kernel named name whose function is FuncType's, boxed.
template <typename FuncType>
static ::executorch::runtime::Kernel make_boxed_kernel(const char* name, FuncType) {
  return ::executorch::runtime::Kernel(name, WrapUnboxedIntoFunctor<FuncType>::call);
}

} // namespace extension
} // namespace executorch

#define ET_CONCATENATE_IMPL(s1, s2) s1##s2
#define ET_CONCATENATE(s1, s2) ET_CONCATENATE_IMPL(s1, s2)
#define ET_UID __LINE__

// Registers func as the kernel "ns::op_name" when this statement runs (at
// static initialization at namespace scope, or on the first pass through it
// in a function).
#define EXECUTORCH_LIBRARY(ns, op_name, func) _EXECUTORCH_LIBRARY_IMPL(ns, op_name, func, ET_UID)

#define _EXECUTORCH_LIBRARY_IMPL(ns, op_name, func, uid)                                 \
  static constexpr const char ET_CONCATENATE(name_of_op_, uid)[] = #ns "::" op_name;     \
  [[maybe_unused]] static auto ET_CONCATENATE(res_##ns##_, uid) =                        \
      ::executorch::runtime::register_kernel(::executorch::extension::make_boxed_kernel( \
          #ns "::" op_name, EXECUTORCH_FN(func, ET_CONCATENATE(name_of_op_, uid))))

namespace torch {
namespace executor {
using ::executorch::extension::make_boxed_kernel;
using ::executorch::extension::WrapUnboxedIntoFunctor;
} // namespace executor
} // namespace torch
