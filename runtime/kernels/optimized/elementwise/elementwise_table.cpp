// The optimized elementwise kernels (binary ops, activations).
#include "../optimized_tables.h"

namespace executorch {
namespace runtime {
namespace optimized {

Span<const Kernel> elementwise_kernels() { return {}; }

} // namespace optimized
} // namespace runtime
} // namespace executorch
