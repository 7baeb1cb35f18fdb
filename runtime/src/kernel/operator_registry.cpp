// The process-wide kernel table: append-only, so views handed out stay valid.
#include <executorch/runtime/kernel/operator_registry.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "kernel/builtin_kernels.h"

namespace executorch {
namespace ET_RUNTIME_NAMESPACE {
namespace {

struct KernelTable {
  std::mutex mutex;
  Kernel entries[kMaxRegisteredKernels];
  std::atomic<size_t> count;
};
KernelTable& table() {
  static KernelTable t{};
  return t;
}

bool same_entry(const Kernel& a, const Kernel& b) {
  return std::strcmp(a.name_, b.name_) == 0 && a.kernel_key_ == b.kernel_key_;
}

// Registers the kernels built into this library on first use.
void ensure_builtin_kernels() {
  static std::once_flag once;
  std::call_once(once, [] { internal::register_builtin_kernels(); });
}

Result<OpFunction> find(const Kernel* entries, size_t n, const char* name, const char* key) {
  OpFunction fallback = nullptr;
  for (size_t i = 0; i < n; ++i) {
    const Kernel& k = entries[i];
    if (std::strcmp(k.name_, name) != 0) {
      continue;
    }
    if (k.kernel_key_.is_fallback()) {
      fallback = k.op_;
    } else if (key != nullptr && std::strcmp(k.kernel_key_.data(), key) == 0) {
      return k.op_;
    }
  }
  if (fallback != nullptr) {
    return fallback;
  }
  return Error::OperatorMissing;
}

} // namespace

namespace internal {

Error make_kernel_key_string(Span<const TensorMeta> meta, char* buf, size_t buf_size) {
  if (meta.empty()) {
    // No tensor arguments: the key does not apply.
    if (buf_size > 0) {
      buf[0] = '\0';
    }
    return Error::Ok;
  }
  size_t pos = 0;
  auto put = [&](const char* fmt, unsigned v) -> bool {
    const int n = std::snprintf(buf + pos, buf_size - pos, fmt, v);
    if (n < 0 || static_cast<size_t>(n) >= buf_size - pos) {
      return false;
    }
    pos += static_cast<size_t>(n);
    return true;
  };
  if (buf_size < 4) {
    return Error::InvalidArgument;
  }
  std::memcpy(buf, "v1/", 3);
  pos = 3;
  buf[pos] = '\0';
  for (size_t i = 0; i < meta.size(); ++i) {
    // As upstream: a key holds a dtype and dim order entries of at most two
    // decimal digits each; anything else has no key (InvalidArgument).
    const int dtype = static_cast<int>(meta[i].dtype_);
    if (dtype < 0 || dtype > 99) {
      return Error::InvalidArgument;
    }
    for (size_t j = 0; j < meta[i].dim_order_.size(); ++j) {
      if (meta[i].dim_order_[j] > 99) {
        return Error::InvalidArgument;
      }
    }
    if (i > 0 && !put("|", 0)) return Error::InvalidArgument;
    if (!put("%u;", static_cast<unsigned>(meta[i].dtype_))) return Error::InvalidArgument;
    for (size_t j = 0; j < meta[i].dim_order_.size(); ++j) {
      if (!put(j == 0 ? "%u" : ",%u", meta[i].dim_order_[j])) {
        return Error::InvalidArgument;
      }
    }
  }
  return Error::Ok;
}

} // namespace internal

Error make_kernel_key(Span<const TensorMeta> meta, char* buf, size_t buf_size) {
  return internal::make_kernel_key_string(meta, buf, buf_size);
}

Error register_kernels(const Span<const Kernel> kernels) {
  KernelTable& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  const size_t n = t.count.load();
  if (kernels.size() > kMaxRegisteredKernels - n) {
    ET_LOG(Error, "Kernel table full: %zu registered, %zu more requested, room for %zu", n,
           kernels.size(), kMaxRegisteredKernels);
    return Error::RegistrationExceedingMaxKernels;
  }
  for (size_t i = 0; i < kernels.size(); ++i) {
    const Kernel& k = kernels[i];
    if (k.name_ == nullptr || k.op_ == nullptr) {
      ET_LOG(Error, "Kernel %zu has no name or function", i);
      return Error::InvalidArgument;
    }
    for (size_t j = 0; j < n; ++j) {
      if (same_entry(t.entries[j], k)) {
        ET_LOG(Error, "Kernel '%s' (key %s) is already registered", k.name_,
               k.kernel_key_.is_fallback() ? "fallback" : k.kernel_key_.data());
        return Error::RegistrationAlreadyRegistered;
      }
    }
    for (size_t j = 0; j < i; ++j) {
      if (same_entry(kernels[j], k)) {
        ET_LOG(Error, "Kernel '%s' appears twice in one registration", k.name_);
        return Error::RegistrationAlreadyRegistered;
      }
    }
  }
  for (size_t i = 0; i < kernels.size(); ++i) {
    t.entries[n + i] = kernels[i];
  }
  t.count.store(n + kernels.size());
  return Error::Ok;
}

Result<OpFunction> get_op_function(const char* name, Span<const TensorMeta> meta_list,
                                   Span<const Kernel> overrides) {
  if (name == nullptr) {
    return Error::InvalidArgument;
  }
  ensure_builtin_kernels();
  char key[KernelKey::kMaxKeyLength];
  const char* key_ptr = nullptr;
  if (!meta_list.empty() &&
      internal::make_kernel_key_string(meta_list, key, sizeof(key)) == Error::Ok) {
    key_ptr = key;
  }
  if (!overrides.empty()) {
    auto r = find(overrides.data(), overrides.size(), name, key_ptr);
    if (r.ok()) {
      return r;
    }
  }
  KernelTable& t = table();
  return find(t.entries, t.count.load(), name, key_ptr);
}

namespace {
// The public lookups, as upstream's: a kernel key that cannot be built (too
// long, a dtype or dim order out of range) is an error, not a fallback.
// (The method loader's get_op_function() keeps falling back to the
// key-less kernel.)
Error check_key(Span<const TensorMeta> meta_list) {
  if (meta_list.empty()) {
    return Error::Ok;
  }
  char key[KernelKey::kMaxKeyLength];
  const Error err = internal::make_kernel_key_string(meta_list, key, sizeof(key));
  if (err != Error::Ok) {
    ET_LOG(Error, "No kernel key for %zu tensor arguments", meta_list.size());
  }
  return err;
}
} // namespace

Result<OpFunction> get_op_function_from_registry(const char* name,
                                                 Span<const TensorMeta> meta_list) {
  ET_CHECK_OK_OR_RETURN_ERROR(check_key(meta_list));
  return get_op_function(name, meta_list, {});
}

Result<OpFunction> get_op_function_from_registry(const char* name, Span<const TensorMeta> meta_list,
                                                 Span<const Kernel> kernel_list) {
  if (name == nullptr) {
    return Error::InvalidArgument;
  }
  ET_CHECK_OK_OR_RETURN_ERROR(check_key(meta_list));
  char key[KernelKey::kMaxKeyLength];
  const char* key_ptr = nullptr;
  if (!meta_list.empty() &&
      internal::make_kernel_key_string(meta_list, key, sizeof(key)) == Error::Ok) {
    key_ptr = key;
  }
  return find(kernel_list.data(), kernel_list.size(), name, key_ptr);
}

bool registry_has_op_function(const char* name, Span<const TensorMeta> meta_list) {
  return get_op_function(name, meta_list, {}).ok();
}

Span<const Kernel> get_registered_kernels() {
  ensure_builtin_kernels();
  KernelTable& t = table();
  return Span<const Kernel>(t.entries, t.count.load());
}

} // namespace ET_RUNTIME_NAMESPACE
} // namespace executorch
