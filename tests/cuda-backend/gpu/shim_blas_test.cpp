// The cuBLAS fallbacks (aoti_torch_cuda_mm_out / bmm_out / addmm_out) against
// double-precision CPU products: row-major and transposed operands, float32
// and bfloat16, and every bias shape addmm broadcasts ([n], [1,n], [m,1],
// [m,n], a 0-d scalar). A column-major output is not supported by the shim:
// it must fail with an error, never write a wrong answer. Exits 77 without
// a GPU.
#include "shim_test_util.h"

using namespace shim_test;

namespace {

// Element (i, j) of a row-major logical [rows, cols] matrix stored with
// `strides` at `v` (storage order).
double at(const std::vector<float>& v, const std::vector<int64_t>& strides, int64_t i, int64_t j) {
  return v[static_cast<size_t>(i * strides[0] + j * strides[1])];
}

// Storage for a [rows, cols] matrix, row-major or transposed (column-major).
std::vector<int64_t> matrix_strides(int64_t rows, int64_t cols, bool transposed) {
  return transposed ? std::vector<int64_t>{1, rows} : std::vector<int64_t>{cols, 1};
}

double tolerance(int32_t dt) { return dt == kBF16 ? 2e-2 : 1e-5; }

// Rounds like the device storage does, so references use what the GPU sees.
std::vector<float> stored(std::vector<float> v, int32_t dt) {
  if (dt == kBF16) {
    for (float& x : v) x = from_bf16(to_bf16(x));
  }
  return v;
}

void mm_case(int64_t m, int64_t k, int64_t n, bool ta, bool tb, int32_t dt) {
  auto sa = matrix_strides(m, k, ta), sb = matrix_strides(k, n, tb);
  auto a = stored(random_values(size_t(m * k), 11), dt);
  auto b = stored(random_values(size_t(k * n), 12), dt);
  DeviceTensor A(a, {m, k}, sa, dt), B(b, {k, n}, sb, dt);
  DeviceTensor C(std::vector<float>(size_t(m * n), 0.f), {m, n}, {n, 1}, dt);
  const AOTITorchError rc = aoti_torch_cuda_mm_out(C.h, A.h, B.h);
  std::vector<double> want(size_t(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) want[size_t(i * n + j)] += at(a, sa, i, p) * at(b, sb, p, j);
  const double err = max_rel_err(read_back(C.h, dt), want);
  std::printf("mm   m=%lld k=%lld n=%lld ta=%d tb=%d dtype=%d: rc %d err %.3g\n", (long long)m,
              (long long)k, (long long)n, ta, tb, dt, rc, err);
  EXPECT(rc == 0 && err <= tolerance(dt), "mm err %g", err);
}

void bmm_case(int64_t bs, int64_t m, int64_t k, int64_t n, int32_t dt) {
  auto a = stored(random_values(size_t(bs * m * k), 21), dt);
  auto b = stored(random_values(size_t(bs * k * n), 22), dt);
  DeviceTensor A(a, {bs, m, k}, contiguous({bs, m, k}), dt);
  DeviceTensor B(b, {bs, k, n}, contiguous({bs, k, n}), dt);
  DeviceTensor C(std::vector<float>(size_t(bs * m * n), 0.f), {bs, m, n}, contiguous({bs, m, n}),
                 dt);
  const AOTITorchError rc = aoti_torch_cuda_bmm_out(C.h, A.h, B.h);
  std::vector<double> want(size_t(bs * m * n), 0.0);
  for (int64_t t = 0; t < bs; ++t)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t p = 0; p < k; ++p)
          want[size_t((t * m + i) * n + j)] +=
              double(a[size_t((t * m + i) * k + p)]) * b[size_t((t * k + p) * n + j)];
  const double err = max_rel_err(read_back(C.h, dt), want);
  std::printf("bmm  b=%lld m=%lld k=%lld n=%lld dtype=%d: rc %d err %.3g\n", (long long)bs,
              (long long)m, (long long)k, (long long)n, dt, rc, err);
  EXPECT(rc == 0 && err <= tolerance(dt), "bmm err %g", err);
}

// addmm: out = beta * bias + alpha * mat1 @ mat2, bias of `bias_sizes`
// (broadcast to [m, n]); out row-major or transposed.
void addmm_case(std::vector<int64_t> bias_sizes, bool t_out, int32_t dt) {
  const int64_t m = 33, k = 20, n = 17;
  const double alpha = 0.5, beta = 2.0;
  auto a = stored(random_values(size_t(m * k), 31), dt);
  auto b = stored(random_values(size_t(k * n), 32), dt);
  size_t bias_n = 1;
  for (int64_t s : bias_sizes) bias_n *= size_t(s);
  auto bias = stored(random_values(bias_n, 33), dt);
  DeviceTensor A(a, {m, k}, {k, 1}, dt), B(b, {k, n}, {n, 1}, dt);
  DeviceTensor Bias(bias, bias_sizes, contiguous(bias_sizes), dt);
  DeviceTensor C(std::vector<float>(size_t(m * n), 7.f), {m, n}, matrix_strides(m, n, t_out), dt);
  const AOTITorchError rc = aoti_torch_cuda_addmm_out(C.h, Bias.h, A.h, B.h, beta, alpha);
  std::vector<double> want(size_t(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p) acc += double(a[size_t(i * k + p)]) * b[size_t(p * n + j)];
      // Right-aligned broadcast of the bias.
      int64_t bi = 0, bj = 0, rows = 1, cols = 1;
      if (bias_sizes.size() == 2) {
        rows = bias_sizes[0];
        cols = bias_sizes[1];
      }
      if (bias_sizes.size() == 1) cols = bias_sizes[0];
      bi = rows == 1 ? 0 : i;
      bj = cols == 1 ? 0 : j;
      want[size_t(i * n + j)] = beta * bias[size_t(bi * cols + bj)] + alpha * acc;
    }
  }
  const double err = max_rel_err(read_back(C.h, dt), want);
  std::printf("addmm bias ndim=%zu [%s] out %s dtype=%d: rc %d err %.3g\n", bias_sizes.size(),
              bias_sizes.empty()       ? "scalar"
              : bias_sizes.size() == 1 ? "n"
              : bias_sizes[0] == 1     ? "1,n"
              : bias_sizes[1] == 1     ? "m,1"
                                       : "m,n",
              t_out ? "transposed" : "row-major", dt, rc, err);
  if (t_out) {
    EXPECT(rc != 0, "a column-major output must be rejected (unsupported)");
  } else {
    EXPECT(rc == 0 && err <= tolerance(dt), "addmm err %g", err);
  }
}

} // namespace

int main() {
  require_gpu();
  for (int32_t dt : {kF32, kBF16}) {
    for (bool ta : {false, true})
      for (bool tb : {false, true}) mm_case(37, 19, 23, ta, tb, dt);
    bmm_case(4, 16, 32, 16, dt);
    for (bool t_out : {false, true}) {
      addmm_case({17}, t_out, dt);
      addmm_case({1, 17}, t_out, dt);
      addmm_case({33, 1}, t_out, dt);
      addmm_case({33, 17}, t_out, dt);
      addmm_case({}, t_out, dt);
    }
  }
  // A bias that does not broadcast is an error, not a wrong answer.
  {
    DeviceTensor A(random_values(33 * 20, 1), {33, 20}, {20, 1}, kF32);
    DeviceTensor B(random_values(20 * 17, 2), {20, 17}, {17, 1}, kF32);
    DeviceTensor Bias(random_values(5, 3), {5}, {1}, kF32);
    DeviceTensor C(std::vector<float>(33 * 17, 0.f), {33, 17}, {17, 1}, kF32);
    EXPECT(aoti_torch_cuda_addmm_out(C.h, Bias.h, A.h, B.h, 1.0, 1.0) != 0,
           "a [5] bias into [33,17] must be rejected");
  }
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT(e == cudaSuccess, "device error %s", cudaGetErrorString(e));
  return gpu_test::finish();
}
