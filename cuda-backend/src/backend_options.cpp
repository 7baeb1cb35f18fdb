// CudaBackend::get_option (BackendInterface::get_option, or
// executorch::runtime::get_option("CudaBackend", ...)):
//   "caller_stream" -> string: "none" when no CallerStreamGuard is live on
//                      this thread, else the stream as "0x<hex>" ("0x0" for
//                      the legacy default stream). It shows which caller
//                      stream this backend sees (one state per process).
//   "cuda_graph_launches" -> int: CUDA-graph launches by every delegate of
//                      this process that runs with use_cuda_graph (see
//                      graph_replay.h); 0 when none does.
//   "live_delegates" -> int: CudaBackend delegates initialized and not yet
//                      destroyed in this process.
//   "weight_sharing_across_methods", "use_shared_cuda_stream" -> bool, and
//   "enable_cuda_graph_for_method" -> string: the defaults set_option gave.
//   "shared_cuda_stream" -> string: the lowest device's live shared stream
//                      as "0x<hex>", or "none" (shared_stream.h).
//   "shared_stream_delegates" -> int: delegates running on a shared stream.
//   "live_tensor_handles", "live_storages" -> int: the shim's tensor objects
//                      and storages alive in this process (constants' too):
//                      steady across executes unless one leaks.
//   "pool_reserved_kib", "pool_used_kib", "pool_cached_kib" -> int, KiB:
//                      device memory the shim's pools hold from the driver,
//                      hand out (cached blocks included) and keep cached on
//                      delegate streams, summed over devices (device_pool.h).
//   "outputs_in_place" -> int: outputs a model allocated straight in the
//                      caller's device buffer, so that no copy was needed
//                      (output_placement.h), in this process.
// CudaBackend::set_option: "weight_sharing_across_methods" and
// "use_shared_cuda_stream" (bool), "enable_cuda_graph_for_method" (string).
// Every option is checked before any is applied: a wrong type or a bad list
// is InvalidArgument and changes nothing. Unknown keys are logged, skipped.
#include <array>
#include <cinttypes>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <variant>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/runtime/platform/log.h>

#include "cuda_backend.h"
#include "aoti/device_pool.h"
#include "aoti/output_placement.h"
#include "aoti/tensor_obj.h"
#include "graph_replay.h"
#include "method_list.h"
#include "shared_stream.h"

namespace executorch {
namespace backends {
namespace cuda {

using runtime::BackendOption;
using runtime::BackendOptionContext;
using runtime::Error;
using runtime::Span;

namespace {

using OptionText = std::array<char, runtime::kMaxOptionValueLength>;

// An option's int (32 bits): counts and KiB beyond it read as INT_MAX.
int clamp_int(int64_t v) { return v > INT_MAX ? INT_MAX : static_cast<int>(v); }

OptionText text_option(std::string_view s) {
  OptionText text{};
  std::snprintf(text.data(), text.size(), "%.*s", static_cast<int>(s.size()), s.data());
  return text;
}

// The NUL-terminated string of a string option; InvalidArgument naming
// `key` for another type, an unterminated value or a bad method list.
runtime::Result<std::string_view> method_list_option(const BackendOption& option) {
  const OptionText* text = std::get_if<OptionText>(&option.value);
  ET_CHECK_OR_RETURN_ERROR(text != nullptr, InvalidArgument,
                           "CudaBackend: option %s must be a string of method names", option.key);
  return method_list_text(text->data(), option.key);
}

bool is_key(const BackendOption& option, const char* key) {
  return std::strncmp(option.key, key, runtime::kMaxOptionKeyLength) == 0;
}

} // namespace

std::string CudaBackend::graph_methods() const {
  std::lock_guard<std::mutex> lk(graph_methods_mu_);
  return graph_methods_;
}

Error CudaBackend::get_option(BackendOptionContext& context, Span<BackendOption>& options) {
  for (BackendOption& option : options) {
    if (std::strcmp(option.key, "caller_stream") == 0) {
      std::array<char, runtime::kMaxOptionValueLength> text{};
      const auto stream = extension::cuda::getCallerStream();
      if (stream.has_value()) {
        std::snprintf(text.data(), text.size(), "0x%" PRIxPTR,
                      reinterpret_cast<uintptr_t>(*stream));
      } else {
        std::snprintf(text.data(), text.size(), "none");
      }
      option.value = text;
    } else if (std::strcmp(option.key, "cuda_graph_launches") == 0) {
      option.value = static_cast<int>(graph_launches_total());
    } else if (std::strcmp(option.key, "live_delegates") == 0) {
      option.value = static_cast<int>(live_delegate_count());
    } else if (std::strcmp(option.key, "weight_sharing_across_methods") == 0) {
      option.value = weight_sharing_.load(std::memory_order_relaxed);
    } else if (std::strcmp(option.key, "use_shared_cuda_stream") == 0) {
      option.value = shared_stream_.load(std::memory_order_relaxed);
    } else if (std::strcmp(option.key, "enable_cuda_graph_for_method") == 0) {
      option.value = text_option(graph_methods());
    } else if (std::strcmp(option.key, "shared_cuda_stream") == 0) {
      option.value = text_option(describe_shared_stream());
    } else if (std::strcmp(option.key, "shared_stream_delegates") == 0) {
      option.value = clamp_int(static_cast<int64_t>(shared_stream_users()));
    } else if (std::strcmp(option.key, "live_tensor_handles") == 0) {
      option.value = clamp_int(aoti::live_tensor_objs());
    } else if (std::strcmp(option.key, "live_storages") == 0) {
      option.value = clamp_int(aoti::live_storages());
    } else if (std::strcmp(option.key, "pool_reserved_kib") == 0) {
      option.value = clamp_int(static_cast<int64_t>(aoti::pool_stats().reserved >> 10));
    } else if (std::strcmp(option.key, "pool_used_kib") == 0) {
      option.value = clamp_int(static_cast<int64_t>(aoti::pool_stats().used >> 10));
    } else if (std::strcmp(option.key, "pool_cached_kib") == 0) {
      option.value = clamp_int(static_cast<int64_t>(aoti::pool_stats().cached >> 10));
    } else if (std::strcmp(option.key, "outputs_in_place") == 0) {
      option.value = clamp_int(aoti::outputs_in_place_total());
    }
  }
  return BackendInterface::get_option(context, options);
}

Error CudaBackend::set_option(BackendOptionContext& /*context*/,
                              const Span<BackendOption>& options) {
  // First every value is checked, so that a bad one changes nothing.
  for (const BackendOption& option : options) {
    if (is_key(option, "weight_sharing_across_methods") ||
        is_key(option, "use_shared_cuda_stream")) {
      ET_CHECK_OR_RETURN_ERROR(std::get_if<bool>(&option.value) != nullptr, InvalidArgument,
                               "CudaBackend: option %s must be a boolean", option.key);
    } else if (is_key(option, "enable_cuda_graph_for_method")) {
      const auto list = method_list_option(option);
      if (!list.ok()) return list.error();
    } else {
      ET_LOG(Error, "CudaBackend: set_option: unknown option '%.*s' ignored",
             static_cast<int>(strnlen(option.key, runtime::kMaxOptionKeyLength)), option.key);
    }
  }
  for (const BackendOption& option : options) {
    if (is_key(option, "weight_sharing_across_methods")) {
      weight_sharing_.store(std::get<bool>(option.value), std::memory_order_relaxed);
    } else if (is_key(option, "use_shared_cuda_stream")) {
      shared_stream_.store(std::get<bool>(option.value), std::memory_order_relaxed);
    } else if (is_key(option, "enable_cuda_graph_for_method")) {
      const std::string_view list = *method_list_option(option);
      std::lock_guard<std::mutex> lk(graph_methods_mu_);
      graph_methods_.assign(list.data(), list.size());
    }
  }
  return Error::Ok;
}

} // namespace cuda
} // namespace backends
} // namespace executorch
