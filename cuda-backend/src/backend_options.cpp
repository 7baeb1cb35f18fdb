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
#include <array>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include <executorch/extension/cuda/caller_stream.h>

#include "cuda_backend.h"
#include "graph_replay.h"

namespace executorch {
namespace backends {
namespace cuda {

using runtime::BackendOption;
using runtime::BackendOptionContext;
using runtime::Error;
using runtime::Span;

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
    }
  }
  return BackendInterface::get_option(context, options);
}

} // namespace cuda
} // namespace backends
} // namespace executorch
