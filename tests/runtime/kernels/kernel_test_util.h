// Test helpers: tensors that own their storage, EValue argument lists, and a
// call through the kernel registry.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/exec_aten.h>
#include <executorch/runtime/core/exec_aten/util/scalar_type_util.h>
#include <executorch/runtime/kernel/operator_registry.h>

namespace kt {

using ::executorch::aten::BFloat16;
using ::executorch::aten::Half;
using ::executorch::aten::ScalarType;
using ::executorch::aten::Tensor;
using ::executorch::aten::TensorImpl;
using ::executorch::aten::TensorShapeDynamism;
using ::executorch::runtime::BoxedEvalueList;
using ::executorch::runtime::Error;
using ::executorch::runtime::EValue;
using ::executorch::runtime::KernelRuntimeContext;
using ::executorch::runtime::Span;

// A tensor with its own sizes and storage (bytes), dynamic-bounded by default
// so kernels may resize it within its capacity.
struct TT {
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  std::vector<uint8_t> bytes;
  std::unique_ptr<TensorImpl> impl;
  ScalarType dtype;

  TT(ScalarType t, std::vector<int32_t> s, size_t capacity_elems = 0,
     TensorShapeDynamism dyn = TensorShapeDynamism::DYNAMIC_BOUND, std::vector<uint8_t> order = {})
      : sizes(std::move(s)), dim_order(std::move(order)), dtype(t) {
    size_t n = 1;
    for (int32_t v : sizes) n *= static_cast<size_t>(v);
    if (capacity_elems > n) n = capacity_elems;
    bytes.resize(n * ::executorch::runtime::elementSize(t) + 8);
    impl.reset(new TensorImpl(t, static_cast<ssize_t>(sizes.size()), sizes.data(), bytes.data(),
                              dim_order.empty() ? nullptr : dim_order.data(), nullptr, dyn));
  }
  Tensor tensor() const { return Tensor(impl.get()); }
  template <typename T>
  T* data() {
    return reinterpret_cast<T*>(bytes.data());
  }
  template <typename T>
  void set(const std::vector<T>& v) {
    for (size_t i = 0; i < v.size(); ++i) reinterpret_cast<T*>(bytes.data())[i] = v[i];
  }
  // Elements as doubles (for any dtype).
  std::vector<double> values() const {
    std::vector<double> r;
    const size_t n = static_cast<size_t>(impl->numel());
    const void* p = bytes.data();
    for (size_t i = 0; i < n; ++i) {
      switch (dtype) {
        case ScalarType::Float:
          r.push_back(static_cast<const float*>(p)[i]);
          break;
        case ScalarType::Double:
          r.push_back(static_cast<const double*>(p)[i]);
          break;
        case ScalarType::Int:
          r.push_back(static_cast<const int32_t*>(p)[i]);
          break;
        case ScalarType::Long:
          r.push_back(static_cast<double>(static_cast<const int64_t*>(p)[i]));
          break;
        case ScalarType::Short:
          r.push_back(static_cast<const int16_t*>(p)[i]);
          break;
        case ScalarType::Char:
          r.push_back(static_cast<const int8_t*>(p)[i]);
          break;
        case ScalarType::Byte:
          r.push_back(static_cast<const uint8_t*>(p)[i]);
          break;
        case ScalarType::Bool:
          r.push_back(static_cast<const bool*>(p)[i] ? 1 : 0);
          break;
        case ScalarType::Half:
          r.push_back(float(static_cast<const Half*>(p)[i]));
          break;
        case ScalarType::BFloat16:
          r.push_back(float(static_cast<const BFloat16*>(p)[i]));
          break;
        default:
          r.push_back(NAN);
          break;
      }
    }
    return r;
  }
  std::vector<int32_t> shape() const {
    return std::vector<int32_t>(impl->sizes().begin(), impl->sizes().end());
  }
};

template <typename T>
inline std::unique_ptr<TT> make(ScalarType t, std::vector<int32_t> s, std::vector<T> v,
                                size_t cap = 0) {
  auto r = std::make_unique<TT>(t, std::move(s), cap);
  r->set(v);
  return r;
}
inline std::unique_ptr<TT> out(ScalarType t, std::vector<int32_t> s, size_t cap = 0) {
  return std::make_unique<TT>(t, std::move(s), cap);
}

// Int list EValue storage.
struct IntListArg {
  std::vector<EValue> vals;
  std::vector<EValue*> ptrs;
  std::vector<int64_t> scratch;
  explicit IntListArg(std::vector<int64_t> v) {
    vals.reserve(v.size());
    for (int64_t x : v) vals.emplace_back(x);
    for (auto& e : vals) ptrs.push_back(&e);
    scratch.resize(v.size() + 1);
  }
  EValue ev() {
    return EValue(
        BoxedEvalueList<int64_t>(ptrs.data(), scratch.data(), static_cast<int>(ptrs.size())));
  }
};

// Tensor list EValue storage.
struct TensorListArg {
  std::vector<EValue> vals;
  std::vector<EValue*> ptrs;
  std::vector<Tensor> scratch;
  explicit TensorListArg(const std::vector<TT*>& ts) {
    vals.reserve(ts.size());
    for (TT* t : ts) vals.emplace_back(t->tensor());
    for (auto& e : vals) ptrs.push_back(&e);
    for (size_t i = 0; i <= ts.size(); ++i) scratch.emplace_back(nullptr);
  }
  EValue ev() {
    return EValue(
        BoxedEvalueList<Tensor>(ptrs.data(), scratch.data(), static_cast<int>(ptrs.size())));
  }
};

inline EValue str(const char* s) { return EValue(s, std::strlen(s)); }

// Calls the registered kernel `name` on `vals`; returns the failure state.
inline Error call(const char* name, std::vector<EValue>& vals) {
  auto fn = ::executorch::runtime::get_op_function_from_registry(name);
  EXPECT_TRUE(fn.ok()) << "missing kernel " << name;
  if (!fn.ok()) return Error::OperatorMissing;
  std::vector<EValue*> ptrs;
  for (auto& v : vals) ptrs.push_back(&v);
  KernelRuntimeContext ctx;
  (*fn)(ctx, Span<EValue*>(ptrs.data(), ptrs.size()));
  return ctx.failure_state();
}

inline void expect_close(const std::vector<double>& got, const std::vector<double>& want,
                         double rel = 1e-5, double abs_tol = 1e-6) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
      continue;
    }
    EXPECT_NEAR(got[i], want[i], abs_tol + rel * std::fabs(want[i])) << "at " << i;
  }
}

} // namespace kt
