// The quantization of each value, checked against its datatype, dims and
// constants: what XNNPACK's xnn_define_*_quantized_tensor_value would read
// (a scale per channel or block, a channel dim, a block size) must be there,
// so that nothing past a scale array or a constant is ever read.
#pragma once

#include <cstdint>
#include <vector>

#include <executorch/runtime/core/error.h>

#include "payload.h"

namespace xnnpack_payload {

// XNNPACK's smallest block of a blockwise (qbint4) filter; block sizes are
// multiples of it (XNN_MIN_BLOCKSIZE in its fully connected operator).
constexpr uint32_t kMinBlockSize = 32;

// Checks every quantized value (and that no other value carries quantized
// data): per-tensor scale and zero point; per-channel datatype, channel dim
// below the rank, one scale per channel, inline or in a constant of that
// many fp32; per-channel-group (blockwise) a 2-d qbint4 filter, channel dim
// 0, a group size that is a multiple of kMinBlockSize and divides the
// input channels, one scale per block, inline fp32 or a constant of bf16;
// per-token dynamic a qdint8 value that is neither constant nor external,
// num_nonbatch_dims at most the rank. Inline scales must be positive,
// finite and normal. Needs check_constant_values to have passed.
executorch::runtime::Error check_quant_values(const std::vector<Value>& values,
                                              const std::vector<Constant>& constants);

// Whether a scale is one XNNPACK accepts: positive, finite, normal.
bool valid_scale(float scale);

// The scale of a bf16 bit pattern (its high 16 bits of an fp32).
float bf16_to_float(uint16_t bits);

} // namespace xnnpack_payload
