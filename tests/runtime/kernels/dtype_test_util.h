// Test helpers for kernels over many dtypes and dim orders: tensors made
// from logical (row-major) double values in any dtype and dim order, read
// back the same way, and argument lists for the boxed calls.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "kernel_test_util.h"

namespace kt {

inline void put(ScalarType t, void* p, size_t i, double v) {
  switch (t) {
    case ScalarType::Byte:
      static_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(v);
      break;
    case ScalarType::Char:
      static_cast<int8_t*>(p)[i] = static_cast<int8_t>(v);
      break;
    case ScalarType::Short:
      static_cast<int16_t*>(p)[i] = static_cast<int16_t>(v);
      break;
    case ScalarType::Int:
      static_cast<int32_t*>(p)[i] = static_cast<int32_t>(v);
      break;
    case ScalarType::Long:
      static_cast<int64_t*>(p)[i] = static_cast<int64_t>(v);
      break;
    case ScalarType::Half:
      static_cast<Half*>(p)[i] = Half(static_cast<float>(v));
      break;
    case ScalarType::Float:
      static_cast<float*>(p)[i] = static_cast<float>(v);
      break;
    case ScalarType::Double:
      static_cast<double*>(p)[i] = v;
      break;
    case ScalarType::Bool:
      static_cast<bool*>(p)[i] = v != 0;
      break;
    case ScalarType::BFloat16:
      static_cast<BFloat16*>(p)[i] = BFloat16(static_cast<float>(v));
      break;
    default:
      break;
  }
}

inline double get(ScalarType t, const void* p, size_t i) {
  switch (t) {
    case ScalarType::Byte:
      return static_cast<const uint8_t*>(p)[i];
    case ScalarType::Char:
      return static_cast<const int8_t*>(p)[i];
    case ScalarType::Short:
      return static_cast<const int16_t*>(p)[i];
    case ScalarType::Int:
      return static_cast<const int32_t*>(p)[i];
    case ScalarType::Long:
      return static_cast<double>(static_cast<const int64_t*>(p)[i]);
    case ScalarType::Half:
      return float(static_cast<const Half*>(p)[i]);
    case ScalarType::Float:
      return static_cast<const float*>(p)[i];
    case ScalarType::Double:
      return static_cast<const double*>(p)[i];
    case ScalarType::Bool:
      return static_cast<const bool*>(p)[i] ? 1 : 0;
    case ScalarType::BFloat16:
      return float(static_cast<const BFloat16*>(p)[i]);
    default:
      return NAN;
  }
}

// The physical element offset of each logical (row-major) position.
inline std::vector<size_t> physical_offsets(const TT& t) {
  const auto sizes = t.impl->sizes();
  const auto strides = t.impl->strides();
  std::vector<size_t> r;
  const size_t n = static_cast<size_t>(t.impl->numel());
  std::vector<int64_t> c(sizes.size(), 0);
  for (size_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (size_t d = 0; d < sizes.size(); ++d) off += c[d] * strides[d];
    r.push_back(static_cast<size_t>(off));
    for (size_t d = sizes.size(); d-- > 0;) {
      if (++c[d] < sizes[d]) break;
      c[d] = 0;
    }
  }
  return r;
}

// A tensor of dtype t whose logical values are v (in any dim order).
inline std::unique_ptr<TT> tensor_of(ScalarType t, std::vector<int32_t> sizes,
                                     const std::vector<double>& v,
                                     std::vector<uint8_t> dim_order = {}, size_t cap = 0) {
  auto r = std::make_unique<TT>(t, std::move(sizes), cap, TensorShapeDynamism::DYNAMIC_BOUND,
                                std::move(dim_order));
  const auto offs = physical_offsets(*r);
  EXPECT_EQ(offs.size(), v.size());
  for (size_t k = 0; k < offs.size() && k < v.size(); ++k) put(t, r->bytes.data(), offs[k], v[k]);
  return r;
}

// An output tensor (contents unset) of the given sizes that kernels may
// resize up to `cap` elements: made at a larger leading dim (a tensor's
// capacity is its element count when made), then resized down.
inline std::unique_ptr<TT> out_of(ScalarType t, std::vector<int32_t> sizes,
                                  std::vector<uint8_t> dim_order = {}, size_t cap = 0) {
  std::vector<int32_t> big = sizes;
  size_t rest = 1;
  for (size_t d = 1; d < big.size(); ++d) rest *= static_cast<size_t>(big[d]);
  if (!big.empty() && rest > 0 && static_cast<size_t>(big[0]) * rest < cap) {
    big[0] = static_cast<int32_t>((cap + rest - 1) / rest);
  }
  auto r =
      std::make_unique<TT>(t, big, 0, TensorShapeDynamism::DYNAMIC_BOUND, std::move(dim_order));
  EXPECT_EQ(r->impl->internal_resize_contiguous(
                ::executorch::runtime::ArrayRef<int32_t>(sizes.data(), sizes.size())),
            Error::Ok);
  return r;
}

// The logical (row-major) values of a tensor in any dim order.
inline std::vector<double> logical(const TT& t) {
  std::vector<double> r;
  for (size_t off : physical_offsets(t)) r.push_back(get(t.dtype, t.bytes.data(), off));
  return r;
}

// v rounded to dtype t (what storing it there keeps).
inline double as_dtype(ScalarType t, double v) {
  double buf[2] = {0, 0};
  put(t, buf, 0, v);
  return get(t, buf, 0);
}

// The dtypes the portable kernels compute with.
inline std::vector<ScalarType> all_dtypes() {
  return {ScalarType::Byte,   ScalarType::Char, ScalarType::Short,    ScalarType::Int,
          ScalarType::Long,   ScalarType::Half, ScalarType::BFloat16, ScalarType::Float,
          ScalarType::Double, ScalarType::Bool};
}
inline std::vector<ScalarType> float_dtypes() {
  return {ScalarType::Half, ScalarType::BFloat16, ScalarType::Float, ScalarType::Double};
}
inline std::vector<ScalarType> int_dtypes() {
  return {ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int, ScalarType::Long};
}

// Relative tolerance of a dtype's rounding.
inline double tolerance(ScalarType t) {
  switch (t) {
    case ScalarType::Half:
      return 1e-3;
    case ScalarType::BFloat16:
      return 8e-3;
    case ScalarType::Float:
      return 1e-6;
    default:
      return 1e-12;
  }
}

inline std::string dtype_name(ScalarType t) { return ::executorch::runtime::toString(t); }

// Calls `name` with the given argument values plus the return value (the
// out again, as upstream's emitter passes it).
inline Error call_out(const char* name, std::vector<EValue> vals, const TT& out) {
  vals.push_back(out.tensor());
  return call(name, vals);
}

} // namespace kt
