// The optimized set of a build with -Doptimized_kernels=false: empty.
#include "optimized_kernels.h"

namespace executorch {
namespace runtime {
namespace optimized {
Span<const Kernel> optimized_kernels() { return {}; }
} // namespace optimized
} // namespace runtime
} // namespace executorch
