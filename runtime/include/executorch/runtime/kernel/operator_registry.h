// The kernel registry: operator name (e.g. "aten::add.out") plus an optional
// key of input dtypes and dim orders -> the function that runs it. One table
// per process, in libexecutorch.so.1; registration is thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include <executorch/runtime/core/array_ref.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>
#include <executorch/runtime/platform/assert.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

// Kernel arguments: the schema arguments in order (out included), then the
// return value, as indices resolved to EValue pointers.
using OpFunction = void (*)(KernelRuntimeContext&, Span<EValue*>);

// dtype and dim order of one tensor argument, used to pick a kernel.
struct TensorMeta {
  ::executorch::aten::ScalarType dtype_;
  Span<::executorch::aten::DimOrderType> dim_order_;

  TensorMeta() = default;
  TensorMeta(::executorch::aten::ScalarType dtype, Span<::executorch::aten::DimOrderType> order)
      : dtype_(dtype), dim_order_(order) {}
  // A tensor's dim_order() (read only: the meta never writes through it).
  // A template so that a plain array still picks the Span overload.
  template <typename Order, typename = typename std::enable_if<std::is_same<
                                Order, ArrayRef<::executorch::aten::DimOrderType>>::value>::type>
  TensorMeta(::executorch::aten::ScalarType dtype, const Order& order)
      : dtype_(dtype),
        dim_order_(const_cast<::executorch::aten::DimOrderType*>(order.data()), order.size()) {}

  bool operator==(const TensorMeta& other) const { return equals(other); }
  bool operator!=(const TensorMeta& other) const { return !equals(other); }
  bool equals(const TensorMeta& other) const {
    if (dtype_ != other.dtype_ || dim_order_.size() != other.dim_order_.size()) {
      return false;
    }
    for (size_t i = 0; i < dim_order_.size(); ++i) {
      if (dim_order_[i] != other.dim_order_[i]) {
        return false;
      }
    }
    return true;
  }
};

// Selects kernels by their tensor arguments. The text form is
// "v1/<dtype>;<dim,order>|<dtype>;<dim,order>..." (dtype as its integer
// code); a key without text (default-constructed, or from nullptr) is the
// fallback that matches any arguments. Implicit from a string, as upstream:
// Kernel("op.out", "v1/6;0,1", fn).
struct EXECUTORCH_API KernelKey {
 public:
  constexpr KernelKey() = default;
  /* implicit */ constexpr KernelKey(const char* kernel_key_data)
      : kernel_key_data_(kernel_key_data) {}

  bool operator==(const KernelKey& other) const { return equals(other); }
  bool operator!=(const KernelKey& other) const { return !equals(other); }
  bool equals(const KernelKey& other) const {
    if (is_fallback() != other.is_fallback()) return false;
    if (is_fallback()) return true;
    return std::strcmp(kernel_key_data_, other.kernel_key_data_) == 0;
  }
  bool is_fallback() const { return kernel_key_data_ == nullptr; }
  const char* data() const { return kernel_key_data_; }

  // Longest text form with two-digit dim values: 16 tensors of rank 16.
  static constexpr size_t kMaxKeyLength = 16 * (4 + 16 * 3) + 4;

 private:
  const char* kernel_key_data_ = nullptr;
};

namespace internal {
// Room for the key of 16 tensors of rank 16 (dim values below 16) and its
// NUL, as upstream sizes it.
constexpr size_t kKernelKeyBufSize = 659;
// Writes the key text for these tensor arguments ("" when there are none).
// InvalidArgument when buf_size is too small.
ET_NODISCARD EXECUTORCH_API Error make_kernel_key_string(Span<const TensorMeta> key, char* buf,
                                                         size_t buf_size);
} // namespace internal

// The same (ours; kept for existing callers).
ET_NODISCARD EXECUTORCH_API Error make_kernel_key(Span<const TensorMeta> meta, char* buf,
                                                  size_t buf_size);

struct Kernel {
  const char* name_;
  KernelKey kernel_key_;
  OpFunction op_;

  constexpr explicit Kernel(const char* name, OpFunction func) : name_(name), op_(func) {}
  constexpr explicit Kernel(const char* name, KernelKey key, OpFunction func)
      : name_(name), kernel_key_(key), op_(func) {}
  constexpr Kernel() : name_(nullptr), op_(nullptr) {}
};

// Room in the process-wide table.
constexpr size_t kMaxRegisteredKernels = 4096;

// Adds kernels; a (name, key) pair already present fails the whole call with
// RegistrationAlreadyRegistered (nothing is added), a full table with
// RegistrationExceedingMaxKernels. Strings must outlive the registration.
ET_NODISCARD EXECUTORCH_API Error register_kernels(const Span<const Kernel> kernels);
ET_NODISCARD inline Error register_kernel(const Kernel& kernel) {
  return register_kernels(Span<const Kernel>(&kernel, 1));
}

// Looks up an operator: the kernel whose key matches meta_list exactly, else
// the operator's fallback. OperatorMissing when neither exists.
EXECUTORCH_API Result<OpFunction> get_op_function_from_registry(
    const char* name, Span<const TensorMeta> meta_list = {});
EXECUTORCH_API bool registry_has_op_function(const char* name,
                                             Span<const TensorMeta> meta_list = {});

// The same lookup in kernel_list alone (upstream's three-argument form).
EXECUTORCH_API Result<OpFunction> get_op_function_from_registry(const char* name,
                                                                Span<const TensorMeta> meta_list,
                                                                Span<const Kernel> kernel_list);

// Same lookup, but the method-scoped overrides in `overrides` win over the
// process-wide table.
EXECUTORCH_API Result<OpFunction> get_op_function(const char* name,
                                                  Span<const TensorMeta> meta_list,
                                                  Span<const Kernel> overrides);

// A snapshot view of the table (entries are never removed or moved).
EXECUTORCH_API Span<const Kernel> get_registered_kernels();

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch

namespace torch {
namespace executor {
using ::executorch::ET_RUNTIME_NAMESPACE::get_op_function_from_registry;
using ::executorch::ET_RUNTIME_NAMESPACE::Kernel;
using ::executorch::ET_RUNTIME_NAMESPACE::KernelKey;
using ::executorch::ET_RUNTIME_NAMESPACE::KernelRuntimeContext;
using ::executorch::ET_RUNTIME_NAMESPACE::OpFunction;
using ::executorch::ET_RUNTIME_NAMESPACE::register_kernel;
using ::executorch::ET_RUNTIME_NAMESPACE::registry_has_op_function;
using ::executorch::ET_RUNTIME_NAMESPACE::TensorMeta;

// The legacy spellings, over ArrayRef as upstream declares them.
inline ::executorch::runtime::Error register_kernels(ArrayRef<Kernel> kernels) {
  return ::executorch::ET_RUNTIME_NAMESPACE::register_kernels({kernels.data(), kernels.size()});
}
// Aborts when the operator is missing (upstream's contract).
inline OpFunction getOpsFn(const char* name, ArrayRef<TensorMeta> meta_list = {}) {
  auto result = ::executorch::ET_RUNTIME_NAMESPACE::get_op_function_from_registry(
      name, {meta_list.data(), meta_list.size()});
  ET_CHECK(result.ok());
  return *result;
}
inline bool hasOpsFn(const char* name, ArrayRef<TensorMeta> meta_list = {}) {
  return ::executorch::ET_RUNTIME_NAMESPACE::registry_has_op_function(
      name, {meta_list.data(), meta_list.size()});
}
inline ArrayRef<Kernel> get_kernels() {
  Span<const Kernel> kernels = ::executorch::ET_RUNTIME_NAMESPACE::get_registered_kernels();
  return ArrayRef<Kernel>(kernels.data(), kernels.size());
}
} // namespace executor
} // namespace torch
