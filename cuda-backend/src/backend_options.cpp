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
//   "weight_sharing_across_methods" -> bool: the default set_option gave.
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
// CudaBackend::set_option: "weight_sharing_across_methods" (bool; another
// type is InvalidArgument).
#include <array>
#include <cinttypes>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <variant>

#include <executorch/extension/cuda/caller_stream.h>
#include <executorch/runtime/platform/log.h>

#include "cuda_backend.h"
#include "aoti/device_pool.h"
#include "aoti/output_placement.h"
#include "aoti/tensor_obj.h"
#include "graph_replay.h"

namespace executorch {
namespace backends {
namespace cuda {

using runtime::BackendOption;
using runtime::BackendOptionContext;
using runtime::Error;
using runtime::Span;

namespace {
// An option's int (32 bits): counts and KiB beyond it read as INT_MAX.
int clamp_int(int64_t v) { return v > INT_MAX ? INT_MAX : static_cast<int>(v); }
} // namespace

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
  for (const BackendOption& option : options) {
    if (std::strcmp(option.key, "weight_sharing_across_methods") != 0) continue;
    const bool* on = std::get_if<bool>(&option.value);
    ET_CHECK_OR_RETURN_ERROR(on != nullptr, InvalidArgument,
                             "CudaBackend: option weight_sharing_across_methods must be a "
                             "boolean");
    weight_sharing_.store(*on, std::memory_order_relaxed);
  }
  return Error::Ok;
}

} // namespace cuda
} // namespace backends
} // namespace executorch
