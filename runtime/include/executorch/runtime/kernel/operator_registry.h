// The kernel registry: operator name (e.g. "aten::add.out") plus an optional
// key of input dtypes and dim orders -> the function that runs it. One table
// per process, in libexecutorch.so.1; registration is thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <executorch/runtime/core/array_ref.h>
#include <executorch/runtime/core/error.h>
#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/result.h>
#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/kernel_runtime_context.h>
#include <executorch/runtime/platform/export.h>

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {

// Kernel arguments: the schema arguments in order (out included), then the
// return value, as indices resolved to EValue pointers.
using OpFunction = void (*)(KernelRuntimeContext&, Span<EValue*>);

// dtype and dim order of one tensor argument, used to pick a kernel.
struct TensorMeta {
  ::executorch::aten::ScalarType dtype_;
  Span<const ::executorch::aten::DimOrderType> dim_order_;

  TensorMeta() = default;
  TensorMeta(::executorch::aten::ScalarType dtype,
             ArrayRef<::executorch::aten::DimOrderType> order)
      : dtype_(dtype), dim_order_(order.data(), order.size()) {}
};

// Selects kernels by their tensor arguments. The text form is
// "v1/<dtype>;<dim,order>|<dtype>;<dim,order>..." (dtype as its integer code);
// a default-constructed key is the fallback that matches any arguments.
struct EXECUTORCH_API KernelKey {
 public:
  KernelKey() : is_fallback_(true), kernel_key_data_(nullptr) {}
  explicit KernelKey(const char* kernel_key_data)
      : is_fallback_(false), kernel_key_data_(kernel_key_data) {}

  bool operator==(const KernelKey& other) const { return equals(other); }
  bool operator!=(const KernelKey& other) const { return !equals(other); }
  bool equals(const KernelKey& other) const {
    if (is_fallback_ != other.is_fallback_) return false;
    if (is_fallback_) return true;
    return std::strcmp(kernel_key_data_, other.kernel_key_data_) == 0;
  }
  bool is_fallback() const { return is_fallback_; }
  const char* data() const { return kernel_key_data_; }

  // Longest text form: 16 tensors of rank 16.
  static constexpr size_t kMaxKeyLength = 16 * (4 + 16 * 3) + 4;

 private:
  bool is_fallback_;
  const char* kernel_key_data_;
};

// Writes the key text for these tensor arguments into buf (size buf_size).
ET_NODISCARD EXECUTORCH_API Error make_kernel_key(Span<const TensorMeta> meta,
                                                  char* buf, size_t buf_size);

struct Kernel {
  const char* name_;
  KernelKey kernel_key_;
  OpFunction op_;

  Kernel(const char* name, OpFunction func) : name_(name), op_(func) {}
  Kernel(const char* name, KernelKey key, OpFunction func)
      : name_(name), kernel_key_(key), op_(func) {}
  Kernel() : name_(nullptr), op_(nullptr) {}
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

// Same lookup, but the method-scoped overrides in `overrides` win over the
// process-wide table.
EXECUTORCH_API Result<OpFunction> get_op_function(
    const char* name, Span<const TensorMeta> meta_list,
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
using ::executorch::ET_RUNTIME_NAMESPACE::OpFunction;
using ::executorch::ET_RUNTIME_NAMESPACE::register_kernel;
using ::executorch::ET_RUNTIME_NAMESPACE::register_kernels;
using ::executorch::ET_RUNTIME_NAMESPACE::registry_has_op_function;
using ::executorch::ET_RUNTIME_NAMESPACE::TensorMeta;
} // namespace executor
} // namespace torch
