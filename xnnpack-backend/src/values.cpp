#include "values.h"

#include <algorithm>

#include <executorch/runtime/platform/log.h>

namespace xnnpack_payload {

using executorch::runtime::Error;
using fb::XNNDatatype;

namespace {

bool known_datatype(XNNDatatype t) { return t >= XNNDatatype::MIN && t <= XNNDatatype::MAX; }

Error read_dims(const fb::XNNTensorValue& t, Value& out) {
  const auto* dims = t.dims();
  const uint32_t n = dims == nullptr ? 0 : dims->size();
  if (n > kMaxDims || n != t.num_dims()) {
    ET_LOG(Error, "XNNPACK payload: value %u has %u dims (num_dims %u, at most %u)", t.id_out(), n,
           t.num_dims(), kMaxDims);
    return Error::InvalidProgram;
  }
  out.dims.assign(dims == nullptr ? nullptr : dims->data(),
                  dims == nullptr ? nullptr : dims->data() + n);
  return Error::Ok;
}

Error read_tensor(const fb::XNNTensorValue& t, Value& out) {
  out.id = t.id_out();
  out.external_id = t.external_id();
  out.flags = t.flags();
  out.datatype = static_cast<int16_t>(t.datatype());
  out.dq_datatype = static_cast<int16_t>(t.dq_datatype());
  out.constant_index = t.constant_buffer_idx();
  if (t.datatype() == XNNDatatype::xnn_datatype_invalid || !known_datatype(t.datatype()) ||
      !known_datatype(t.dq_datatype())) {
    ET_LOG(Error, "XNNPACK payload: value %u has datatype %d (dq %d)", out.id, out.datatype,
           out.dq_datatype);
    return Error::NotSupported;
  }
  return read_dims(t, out);
}

// A quantization's scales kept as a constant: 0 (inline) or a valid index.
Error check_scale_index(uint32_t index, size_t num_constants, uint32_t id) {
  if (index != 0 && index >= num_constants) {
    ET_LOG(Error, "XNNPACK payload: value %u scales in constant %u of %zu", id, index,
           num_constants);
    return Error::InvalidProgram;
  }
  return Error::Ok;
}

void copy_scales(const flatbuffers::Vector<float>* v, Value& out) {
  out.scales.assign(v == nullptr ? nullptr : v->data(),
                    v == nullptr ? nullptr : v->data() + v->size());
}

// A channel dim or group size read from the schema's int: never negative.
Error non_negative(int32_t v, const char* what, uint32_t id, uint32_t& out) {
  if (v < 0) {
    ET_LOG(Error, "XNNPACK payload: value %u has %s %d", id, what, v);
    return Error::InvalidProgram;
  }
  out = static_cast<uint32_t>(v);
  return Error::Ok;
}

Error read_per_channel(const fb::PerChannelQuant& q, size_t num_constants, Value& out) {
  out.quant = QuantKind::kPerChannel;
  copy_scales(q.scale(), out);
  out.scale_constant = q.scale_buffer_idx();
  out.num_scales = q.num_scales();
  const Error e = non_negative(q.channel_dim(), "channel dim", out.id, out.channel_dim);
  return e != Error::Ok ? e : check_scale_index(out.scale_constant, num_constants, out.id);
}

Error read_per_group(const fb::PerChannelGroupQuant& q, size_t num_constants, Value& out) {
  out.quant = QuantKind::kPerChannelGroup;
  copy_scales(q.scale(), out);
  out.scale_constant = q.scale_buffer_idx();
  out.num_scales = q.num_scales();
  Error e = non_negative(q.channel_dim(), "channel dim", out.id, out.channel_dim);
  if (e == Error::Ok) {
    e = non_negative(q.group_size(), "group size", out.id, out.group_size);
  }
  return e != Error::Ok ? e : check_scale_index(out.scale_constant, num_constants, out.id);
}

Error read_quant(const fb::XNNQuantizedTensorValue& q, size_t num_constants, Value& out) {
  using fb::XNNQuantParams;
  const uint32_t id = out.id;
  if (q.quant_params() == nullptr) {
    ET_LOG(Error, "XNNPACK payload: quantized value %u without parameters", id);
    return Error::InvalidProgram;
  }
  switch (q.quant_params_type()) {
    case XNNQuantParams::PerTensorQuant:
      out.quant = QuantKind::kPerTensor;
      out.scale = q.quant_params_as_PerTensorQuant()->scale();
      out.zero_point = q.quant_params_as_PerTensorQuant()->zero_point();
      return Error::Ok;
    case XNNQuantParams::PerTokenDynamicQuant:
      out.quant = QuantKind::kPerTokenDynamic;
      return non_negative(q.quant_params_as_PerTokenDynamicQuant()->num_nonbatch_dims(),
                          "num_nonbatch_dims", id, out.num_nonbatch_dims);
    case XNNQuantParams::PerChannelQuant:
      return read_per_channel(*q.quant_params_as_PerChannelQuant(), num_constants, out);
    case XNNQuantParams::PerChannelGroupQuant:
      return read_per_group(*q.quant_params_as_PerChannelGroupQuant(), num_constants, out);
    default:
      ET_LOG(Error, "XNNPACK payload: quantized value %u with parameters of type %u", id,
             static_cast<unsigned>(q.quant_params_type()));
      return Error::NotSupported;
  }
}

// Bytes per element as a fraction (4-bit types: 1/2).
struct ElementSize {
  uint64_t num;
  uint64_t den; // 0: not fixed by the dims (packed layouts)
};

ElementSize element_size(int16_t datatype) {
  switch (static_cast<XNNDatatype>(datatype)) {
    case XNNDatatype::xnn_datatype_fp32:
    case XNNDatatype::xnn_datatype_qint32:
    case XNNDatatype::xnn_datatype_qcint32:
    case XNNDatatype::xnn_datatype_int32:
      return {4, 1};
    case XNNDatatype::xnn_datatype_fp16:
    case XNNDatatype::xnn_datatype_bf16:
      return {2, 1};
    case XNNDatatype::xnn_datatype_qint8:
    case XNNDatatype::xnn_datatype_quint8:
    case XNNDatatype::xnn_datatype_qcint8:
    case XNNDatatype::xnn_datatype_qdint8:
      return {1, 1};
    case XNNDatatype::xnn_datatype_qcint4:
    case XNNDatatype::xnn_datatype_qbint4:
      return {1, 2};
    default:
      return {0, 0};
  }
}

} // namespace

Error read_value(const fb::XValue& value, size_t num_constants, Value& out) {
  switch (value.xvalue_union_type()) {
    case fb::XValueUnion::XNNTensorValue: {
      const auto* t = value.xvalue_union_as_XNNTensorValue();
      if (t != nullptr) {
        return read_tensor(*t, out);
      }
      break;
    }
    case fb::XValueUnion::XNNQuantizedTensorValue: {
      const auto* q = value.xvalue_union_as_XNNQuantizedTensorValue();
      if (q != nullptr && q->tensor_value() != nullptr) {
        const Error e = read_tensor(*q->tensor_value(), out);
        return e != Error::Ok ? e : read_quant(*q, num_constants, out);
      }
      break;
    }
    default:
      break;
  }
  ET_LOG(Error, "XNNPACK payload: value of type %u without a tensor",
         static_cast<unsigned>(value.xvalue_union_type()));
  return Error::InvalidProgram;
}

bool constant_bytes(const Value& value, uint64_t& bytes, bool& exact) {
  const ElementSize es = element_size(value.datatype);
  // Sub-byte rows may be padded: those sizes are a minimum.
  exact = es.den == 1;
  uint64_t n = 1;
  for (uint32_t d : value.dims) {
    if (__builtin_mul_overflow(n, static_cast<uint64_t>(d), &n)) {
      return false;
    }
  }
  if (es.den == 0) {
    bytes = 0;
    return true;
  }
  if (es.den == 2 && !value.dims.empty()) {
    // 4-bit: each row (innermost dim) starts on a byte, as XNNPACK packs it.
    const uint64_t cols = value.dims.back();
    const uint64_t rows = cols == 0 ? 0 : n / cols;
    bytes = rows * (cols / 2 + cols % 2); // <= n: no overflow
    return true;
  }
  if (__builtin_mul_overflow(n, es.num, &n)) {
    return false;
  }
  bytes = n / es.den + (n % es.den != 0 ? 1 : 0);
  return true;
}

ValueIndex index_values(const Payload& payload) {
  ValueIndex index;
  index.reserve(payload.values.size());
  for (const Value& v : payload.values) {
    index.emplace_back(v.id, &v);
  }
  std::sort(index.begin(), index.end());
  return index;
}

const Value& value_of(const ValueIndex& index, uint32_t id) {
  return *std::lower_bound(index.begin(), index.end(),
                           std::make_pair(id, static_cast<const Value*>(nullptr)))
              ->second;
}

} // namespace xnnpack_payload
