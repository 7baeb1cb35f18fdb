// The one per-thread caller-stream slot of the process.
#include <executorch/extension/cuda/caller_stream.h>

namespace executorch {
namespace extension {
namespace cuda {

namespace {
thread_local std::optional<cudaStream_t> tls_caller_stream;
} // namespace

std::optional<cudaStream_t> getCallerStream() { return tls_caller_stream; }

CallerStreamGuard::CallerStreamGuard(cudaStream_t stream) : previous_(tls_caller_stream) {
  tls_caller_stream = stream;
}

CallerStreamGuard::~CallerStreamGuard() { tls_caller_stream = previous_; }

} // namespace cuda
} // namespace extension
} // namespace executorch
