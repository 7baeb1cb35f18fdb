// Operator tables of the quantized_decomposed kernels (upstream's
// kernels/quantized/quantized.yaml); portable/register_kernels.cpp adds them
// to the portable set's tables.
#pragma once

#include <executorch/runtime/core/span.h>
#include <executorch/runtime/kernel/operator_registry.h>

namespace executorch {
namespace runtime {
namespace quantized {

Span<const Kernel> quantize_kernels();       // quantize_ops.cpp
Span<const Kernel> dequantize_kernels();     // dequantize_ops.cpp
Span<const Kernel> embedding_kernels();      // embedding_ops.cpp
Span<const Kernel> choose_qparams_kernels(); // choose_qparams_ops.cpp
Span<const Kernel> mixed_kernels();          // mixed_ops.cpp
Span<const Kernel> add_kernels();            // add_ops.cpp

} // namespace quantized
} // namespace runtime
} // namespace executorch
