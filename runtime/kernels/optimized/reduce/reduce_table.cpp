// The optimized reductions, pooling and resampling kernels.
#include "../optimized_tables.h"

namespace executorch {
namespace runtime {
namespace optimized {

Span<const Kernel> reduce_kernels() { return {}; }

} // namespace optimized
} // namespace runtime
} // namespace executorch
