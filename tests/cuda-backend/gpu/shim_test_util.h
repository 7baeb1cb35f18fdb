// Shared by the shim-level GPU tests (with gpu_test_util.h): the
// aoti_torch_* C functions they call (declared by the backend's
// aoti/shim.h), random data, device tensors made from host data, results
// copied back, and the error metric against double references.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <cuda_runtime_api.h>

#include "aoti/shim.h"
#include "gpu_test_util.h"

namespace shim_test {

enum : int32_t { kF32 = 6, kF16 = 5, kBF16 = 15, kF64 = 7, kCuda = 1 };

using gpu_test::failures;
using gpu_test::from_bf16;
using gpu_test::require_gpu;
using gpu_test::to_bf16;

inline std::vector<float> random_values(size_t n, uint32_t seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}

// Contiguous strides for `sizes`.
inline std::vector<int64_t> contiguous(const std::vector<int64_t>& sizes) {
  std::vector<int64_t> s(sizes.size(), 1);
  for (size_t i = sizes.size(); i-- > 1;) s[i - 1] = s[i] * sizes[i];
  return s;
}

// A device buffer holding `vals` (as float32 or bfloat16), wrapped in a
// non-owning shim handle with the given sizes/strides. `vals` is indexed by
// storage position (vals.size() elements of storage).
struct DeviceTensor {
  void* data = nullptr;
  AtenTensorHandle h = nullptr;
  DeviceTensor(const std::vector<float>& vals, const std::vector<int64_t>& sizes,
               const std::vector<int64_t>& strides, int32_t dtype) {
    const size_t es = dtype == kBF16 ? 2 : 4;
    cudaMalloc(&data, vals.size() * es + 1);
    if (dtype == kBF16) {
      std::vector<uint16_t> b(vals.size());
      for (size_t i = 0; i < vals.size(); ++i) b[i] = to_bf16(vals[i]);
      cudaMemcpy(data, b.data(), b.size() * 2, cudaMemcpyHostToDevice);
    } else {
      cudaMemcpy(data, vals.data(), vals.size() * 4, cudaMemcpyHostToDevice);
    }
    aoti_torch_create_tensor_from_blob(data, static_cast<int64_t>(sizes.size()), sizes.data(),
                                       strides.data(), 0, dtype, kCuda, 0, &h);
  }
  ~DeviceTensor() {
    if (h) aoti_torch_delete_tensor_object(h);
    if (data) cudaFree(data);
  }
  DeviceTensor(const DeviceTensor&) = delete;
  DeviceTensor& operator=(const DeviceTensor&) = delete;
};

// The logical elements of a float32/bfloat16 device tensor handle, in
// row-major order of its sizes (strides honoured). Synchronizes the device.
inline std::vector<float> read_back(AtenTensorHandle h, int32_t dtype) {
  int64_t nd = 0, *sz = nullptr, *st = nullptr;
  void* p = nullptr;
  aoti_torch_get_dim(h, &nd);
  aoti_torch_get_sizes(h, &sz);
  aoti_torch_get_strides(h, &st);
  aoti_torch_get_data_ptr(h, &p);
  int64_t n = 1, span = 1;
  for (int64_t i = 0; i < nd; ++i) {
    n *= sz[i];
    if (sz[i] > 0) span += (sz[i] - 1) * st[i];
  }
  if (n == 0) return {};
  const size_t es = dtype == kBF16 ? 2 : 4;
  std::vector<unsigned char> raw(static_cast<size_t>(span) * es);
  cudaDeviceSynchronize();
  cudaMemcpy(raw.data(), p, raw.size(), cudaMemcpyDeviceToHost);
  std::vector<float> out(static_cast<size_t>(n));
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (int64_t i = 0; i < nd; ++i) off += idx[i] * st[i];
    if (dtype == kBF16) {
      uint16_t b;
      std::memcpy(&b, raw.data() + off * 2, 2);
      out[static_cast<size_t>(k)] = from_bf16(b);
    } else {
      std::memcpy(&out[static_cast<size_t>(k)], raw.data() + off * 4, 4);
    }
    for (int64_t i = nd; i-- > 0;) {
      if (++idx[i] < sz[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

// max |got - want| / max(max |want|, floor).
inline double max_rel_err(const std::vector<float>& got, const std::vector<double>& want,
                          double floor = 1e-3) {
  double scale = floor, err = 0;
  for (double w : want) scale = std::fmax(scale, std::fabs(w));
  if (got.size() != want.size()) return INFINITY;
  for (size_t i = 0; i < got.size(); ++i) {
    const double e = std::fabs(double(got[i]) - want[i]);
    if (!(e <= err)) err = std::isnan(e) ? INFINITY : std::fmax(err, e);
  }
  return err / scale;
}

} // namespace shim_test
