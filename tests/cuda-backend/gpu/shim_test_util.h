// Shared by the shim-level GPU tests: the aoti_torch_* C functions they call
// (declared by the backend's aoti/shim.h), device tensors made from host
// data, results copied back, bf16 conversion, a skip (exit 77) without a
// CUDA device, and a failure counter.
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

namespace shim_test {

enum : int32_t { kF32 = 6, kF16 = 5, kBF16 = 15, kF64 = 7, kCuda = 1 };

inline int& failures() {
  static int n = 0;
  return n;
}

#define SHIM_EXPECT(cond, ...)                             \
  do {                                                     \
    if (!(cond)) {                                         \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__);     \
      std::printf(__VA_ARGS__);                            \
      std::printf("\n");                                   \
      ++::shim_test::failures();                           \
    }                                                      \
  } while (0)

// Exits 77 (meson's "skipped") when no CUDA device is usable.
inline void require_gpu() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    std::printf("SKIP: no CUDA device\n");
    std::exit(77);
  }
}

inline uint16_t to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7FFF + ((u >> 16) & 1);  // round to nearest even
  return static_cast<uint16_t>(u >> 16);
}
inline float from_bf16(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

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
