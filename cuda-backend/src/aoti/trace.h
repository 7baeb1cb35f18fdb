// The shim's call trace, for finding where host time goes and which handle
// went wrong: EXECUTORCH_AOTI_TRACE=1 prints every shim call with its
// handles, shapes and dtypes on stderr, each line prefixed with the
// microseconds since the first one, and keeps a registry of live handles so
// that a freed or foreign handle is reported when it comes back. Off, it
// costs one branch per call.
#pragma once

#include <cstdio>
#include <string>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

struct TensorObj;

bool trace_enabled();
double trace_clock_us();
std::string describe(const TensorObj* t);
void trace_live_add(const TensorObj* t);
void trace_live_remove(const TensorObj* t);
bool trace_is_live(const TensorObj* t);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch

#define AOTI_TRACE(...)                                                   \
  do {                                                                    \
    if (::executorch::backends::cuda::aoti::trace_enabled()) {            \
      std::fprintf(stderr, "[aoti-trace %12.1f us] ",                     \
                   ::executorch::backends::cuda::aoti::trace_clock_us()); \
      std::fprintf(stderr, __VA_ARGS__);                                  \
      std::fputc('\n', stderr);                                           \
    }                                                                     \
  } while (0)
