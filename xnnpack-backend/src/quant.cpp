#include "quant.h"

#include <cmath>
#include <cstring>
#include <limits>

#include <executorch/runtime/platform/log.h>

#include "values.h"
#include "xnnpack_graph_generated.h"

namespace xnnpack_payload {

using executorch::runtime::Error;
using fb::XNNDatatype;

namespace {

Error bad_quant(const Value& v, const char* what) {
  ET_LOG(Error, "XNNPACK payload: quantized value %u (%s): %s", v.id,
         fb::EnumNameXNNDatatype(static_cast<XNNDatatype>(v.datatype)), what);
  return Error::InvalidProgram;
}

// XNN_VALUE_FLAG_EXTERNAL_INPUT | XNN_VALUE_FLAG_EXTERNAL_OUTPUT
constexpr uint32_t kExternalFlags = 0x3;

Error check_per_tensor(const Value& v) {
  int32_t lo = 0;
  int32_t hi = 0;
  if (is_type(v, XNNDatatype::xnn_datatype_qint8)) {
    lo = -128;
    hi = 127;
  } else if (is_type(v, XNNDatatype::xnn_datatype_quint8)) {
    hi = 255;
  } else if (!is_type(v, XNNDatatype::xnn_datatype_qint32)) {
    return bad_quant(v, "per-tensor parameters on a type that is not qint8, quint8 or qint32");
  }
  if (v.zero_point < lo || v.zero_point > hi) {
    return bad_quant(v, "a zero point outside its type's range");
  }
  return valid_scale(v.scale) ? Error::Ok : bad_quant(v, "a scale that is not positive and normal");
}

Error check_inline_scales(const Value& v, uint64_t count) {
  if (v.scales.size() != count) {
    return bad_quant(v, "not one inline scale per channel or block");
  }
  for (float s : v.scales) {
    if (!valid_scale(s)) {
      return bad_quant(v, "an inline scale that is not positive and normal");
    }
  }
  return Error::Ok;
}

// `count` scales of `bytes_each`, inline or (scale_constant) in a constant.
Error check_scales(const Value& v, const std::vector<Constant>& constants, uint64_t count,
                   uint64_t bytes_each) {
  if (v.scale_constant == 0) {
    return check_inline_scales(v, count);
  }
  if (!v.scales.empty()) {
    return bad_quant(v, "scales both inline and in a constant");
  }
  if (v.num_scales != count) {
    return bad_quant(v, "num_scales is not one per channel or block");
  }
  if (constants[v.scale_constant].size != count * bytes_each) { // count < 2^32: no overflow
    return bad_quant(v, "its scale constant's size is not num_scales scales");
  }
  return Error::Ok;
}

// Per-channel and blockwise values are weights: XNNPACK packs them once.
Error check_weight(const Value& v) {
  if (v.constant_index == 0) {
    return bad_quant(v, "per-channel or blockwise quantized but not a constant");
  }
  if (v.dims.empty() || v.channel_dim >= v.dims.size()) {
    return bad_quant(v, "its channel dim is not below its rank");
  }
  return Error::Ok;
}

Error check_per_channel(const Value& v, const std::vector<Constant>& constants) {
  if (!is_type(v, XNNDatatype::xnn_datatype_qcint8) &&
      !is_type(v, XNNDatatype::xnn_datatype_qcint4) &&
      !is_type(v, XNNDatatype::xnn_datatype_qcint32)) {
    return bad_quant(v, "per-channel parameters on a type that is not qcint8, qcint4 or qcint32");
  }
  const Error e = check_weight(v);
  return e != Error::Ok ? e : check_scales(v, constants, v.dims[v.channel_dim], sizeof(float));
}

// XNNPACK's blockwise values are 2-d [output channels, input channels],
// one scale per group_size input channels of each output channel.
Error check_per_group(const Value& v, const std::vector<Constant>& constants) {
  if (!is_type(v, XNNDatatype::xnn_datatype_qbint4)) {
    return bad_quant(v, "per-channel-group parameters on a type that is not qbint4");
  }
  const Error e = check_weight(v);
  if (e != Error::Ok) {
    return e;
  }
  if (v.dims.size() != 2 || v.channel_dim != 0) {
    return bad_quant(v, "blockwise but not 2-d with channel dim 0");
  }
  if (v.group_size == 0 || v.group_size % kMinBlockSize != 0) {
    return bad_quant(v, "a group size that is not a positive multiple of 32");
  }
  if (v.dims[1] % v.group_size != 0) {
    return bad_quant(v, "a group size that does not divide its input channels");
  }
  const uint64_t blocks = uint64_t{v.dims[0]} * (v.dims[1] / v.group_size);
  if (blocks > std::numeric_limits<uint32_t>::max()) {
    return bad_quant(v, "more blocks than 2^32");
  }
  // Inline scales are fp32 (converted to bf16 for XNNPACK), a constant's bf16.
  return check_scales(v, constants, blocks, sizeof(uint16_t));
}

// Quantized by XNNPACK at run time, one scale per row (batch dims).
Error check_dynamic(const Value& v) {
  if (!is_type(v, XNNDatatype::xnn_datatype_qdint8)) {
    return bad_quant(v, "per-token dynamic parameters on a type that is not qdint8");
  }
  if (v.constant_index != 0 || (v.flags & kExternalFlags) != 0) {
    return bad_quant(v, "dynamically quantized but constant or external");
  }
  if (v.dims.empty() || v.num_nonbatch_dims > v.dims.size()) {
    return bad_quant(v, "num_nonbatch_dims above its rank, or a scalar");
  }
  return Error::Ok;
}

Error check_quant(const Value& v, const std::vector<Constant>& constants) {
  switch (v.quant) {
    case QuantKind::kPerTensor:
      return check_per_tensor(v);
    case QuantKind::kPerChannel:
      return check_per_channel(v, constants);
    case QuantKind::kPerChannelGroup:
      return check_per_group(v, constants);
    case QuantKind::kPerTokenDynamic:
      return check_dynamic(v);
    default:
      return Error::Ok;
  }
}

} // namespace

bool valid_scale(float scale) { return scale > 0 && std::isnormal(scale); }

float bf16_to_float(uint16_t bits) {
  const uint32_t u = uint32_t{bits} << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

Error check_quant_values(const std::vector<Value>& values, const std::vector<Constant>& constants) {
  for (const Value& v : values) {
    const Error e = check_quant(v, constants);
    if (e != Error::Ok) {
      return e;
    }
  }
  return Error::Ok;
}

} // namespace xnnpack_payload
