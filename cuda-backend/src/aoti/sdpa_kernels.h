// Device kernels of the math SDPA fallback (shim_sdpa.cpp), compiled by nvcc
// from sdpa_kernels.cu. Plain C++: the shim includes this with g++/clang++.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// One chunk of attention rows for the row-wise masked softmax. The scores
// workspace holds `heads` blocks of `rows` query rows, each `lk` floats
// (contiguous, [heads, rows, lk]); block t is head h0 + t * head_step of
// batch `batch`, and its row r is query i0 + r. Every index below is in
// elements.
struct SdpaSoftmaxParams {
  const float* scores = nullptr; // scale * Q K^T, float32
  void* probs = nullptr;         // same layout as scores, in probs_dtype
  int32_t probs_dtype = 6;       // c10 code: 6 float32, 5 float16, 15 bfloat16
  // log-sum-exp of each row (float32), or nullptr: lse[b*s0 + h*s1 + i*s2].
  float* lse = nullptr;
  int64_t lse_stride[3] = {0, 0, 0};
  // Additive mask (float32/float16/bfloat16) or keep-mask (bool, c10 11),
  // or nullptr: mask[b*s0 + h*s1 + i*s2 + j*s3] (stride 0 on broadcast dims).
  const void* mask = nullptr;
  int32_t mask_dtype = 6;
  int64_t mask_stride[4] = {0, 0, 0, 0};
  bool causal = false; // keep j <= i (top-left aligned)
  int64_t batch = 0;
  int64_t h0 = 0;
  int64_t head_step = 1;
  int64_t heads = 0;
  int64_t i0 = 0;
  int64_t rows = 0;
  int64_t lk = 0;
};

// Launches the softmax over heads * rows rows on `stream`: adds the mask,
// applies the causal limit, and writes probabilities and log-sum-exp.
// Fully masked rows get probabilities 0 and log-sum-exp -inf. Returns
// cudaGetLastError() after the launch (cudaErrorInvalidValue for a bad
// probs_dtype or mask_dtype).
cudaError_t launch_sdpa_softmax(const SdpaSoftmaxParams& p, cudaStream_t stream);

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
