// Registers the built-in kernels: for each operator the optimized kernel when
// there is one and EXECUTORCH_KERNELS does not say "portable", else the
// portable one. Also answers builtin_kernels.h.
#include <executorch/runtime/kernel/builtin_kernels.h>
#include <executorch/runtime/platform/log.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernel/builtin_kernels.h"
#include "optimized/optimized_kernels.h"
#include "portable/op_tables.h"

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {
namespace {

OpFunction find_in(Span<const Kernel> table, const char* name) {
  for (const Kernel& k : table) {
    if (std::strcmp(k.name_, name) == 0) return k.op_;
  }
  return nullptr;
}

OpFunction find_portable(const char* name) {
  for (const Span<const Kernel>& table : portable::portable_kernel_tables()) {
    OpFunction f = find_in(table, name);
    if (f != nullptr) return f;
  }
  return nullptr;
}

// EXECUTORCH_KERNELS: unset, "" or "optimized" -> optimized first;
// "portable" -> the portable set alone; anything else is reported and ignored.
bool optimized_wanted() {
  const char* v = std::getenv("EXECUTORCH_KERNELS");
  if (v == nullptr || *v == '\0' || std::strcmp(v, "optimized") == 0) return true;
  if (std::strcmp(v, "portable") == 0) return false;
  ET_LOG(Error, "EXECUTORCH_KERNELS='%s' is neither 'portable' nor 'optimized': ignored", v);
  return true;
}

} // namespace

namespace internal {

void register_builtin_kernels() {
  const Span<const Kernel> optimized =
      optimized_wanted() ? optimized::optimized_kernels() : Span<const Kernel>();
  for (const Span<const Kernel>& table : portable::portable_kernel_tables()) {
    std::vector<Kernel> chosen(table.begin(), table.end());
    for (Kernel& k : chosen) {
      OpFunction fast = find_in(optimized, k.name_);
      if (fast != nullptr) k.op_ = fast;
    }
    const Error e = register_kernels(Span<const Kernel>(chosen.data(), chosen.size()));
    if (e != Error::Ok) {
      ET_LOG(Error, "Registering the built-in kernels failed: 0x%x", static_cast<unsigned>(e));
    }
  }
}

} // namespace internal

OpFunction get_builtin_kernel(const char* name, BuiltinKernelSet set) {
  if (name == nullptr) return nullptr;
  return set == BuiltinKernelSet::Optimized ? find_in(optimized::optimized_kernels(), name)
                                            : find_portable(name);
}

const char* kernel_origin(const char* name) {
  if (name == nullptr) return nullptr;
  auto served = get_op_function_from_registry(name, {});
  if (!served.ok()) return nullptr;
  if (served.get() == get_builtin_kernel(name, BuiltinKernelSet::Optimized)) return "optimized";
  if (served.get() == get_builtin_kernel(name, BuiltinKernelSet::Portable)) return "portable";
  return "registered";
}

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
