// fp32 depthwise convolution for the optimized convolution kernel.
#pragma once

#include "../portable/conv.h"

namespace executorch {
namespace runtime {
namespace optimized {

// Computes a checked fp32 convolution whose groups each have one input
// channel (depthwise, any channel multiplier) and returns true; false, with
// nothing written, for any other convolution.
bool depthwise_fp32(const portable::ConvCall& c);

} // namespace optimized
} // namespace runtime
} // namespace executorch
