// Row-wise masked softmax of the math SDPA fallback: one thread block per
// attention row. Each thread folds its share of the row into a running
// (max, sum of exp) pair, the block combines the pairs, then a second pass
// writes exp(x - max) / sum. All arithmetic is float32.
#include "sdpa_kernels.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <math.h>

namespace executorch {
namespace backends {
namespace cuda {
namespace aoti {

// A named namespace, not an anonymous one: nvcc names anonymous namespaces
// after the absolute source path, so the object would differ per build tree.
namespace sdpa_device {

constexpr int32_t kF16 = 5;
constexpr int32_t kF32 = 6;
constexpr int32_t kBool = 11;
constexpr int32_t kBF16 = 15;
constexpr int kMaxThreads = 256;
constexpr int kWarp = 32;

__device__ __forceinline__ void store(float* p, float v) { *p = v; }
__device__ __forceinline__ void store(__half* p, float v) { *p = __float2half_rn(v); }
__device__ __forceinline__ void store(__nv_bfloat16* p, float v) { *p = __float2bfloat16_rn(v); }

// The score of column j after the mask; -inf when masked out.
__device__ __forceinline__ float masked_score(const SdpaSoftmaxParams& p, const float* srow,
                                              const char* mrow, int64_t j, int64_t jend) {
  if (j >= jend) return -INFINITY;
  float x = srow[j];
  if (mrow != nullptr) {
    const int64_t off = j * p.mask_stride[3];
    switch (p.mask_dtype) {
      case kF32:
        x += reinterpret_cast<const float*>(mrow)[off];
        break;
      case kF16:
        x += __half2float(reinterpret_cast<const __half*>(mrow)[off]);
        break;
      case kBF16:
        x += __bfloat162float(reinterpret_cast<const __nv_bfloat16*>(mrow)[off]);
        break;
      default: // bool: true keeps the score
        if (reinterpret_cast<const unsigned char*>(mrow)[off] == 0) x = -INFINITY;
        break;
    }
  }
  return x;
}

// Merges (m2, s2) into (m, s): the running max and the sum of exp(x - max).
__device__ __forceinline__ void combine(float& m, float& s, float m2, float s2) {
  const float mx = fmaxf(m, m2);
  if (mx == -INFINITY) return; // both empty
  s = s * expf(m - mx) + s2 * expf(m2 - mx);
  m = mx;
}

__device__ __forceinline__ size_t mask_elem_size(int32_t dt) {
  return dt == kF32 ? 4 : (dt == kBool ? 1 : 2);
}

template <typename OutT>
__global__ void __launch_bounds__(kMaxThreads) softmax_rows(SdpaSoftmaxParams p) {
  __shared__ float sh_m[kMaxThreads / kWarp];
  __shared__ float sh_s[kMaxThreads / kWarp];
  const int64_t total = p.heads * p.rows;
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  const int nwarps = (blockDim.x + kWarp - 1) / kWarp;
  for (int64_t row = blockIdx.x; row < total; row += gridDim.x) {
    const int64_t t = row / p.rows;
    const int64_t i = p.i0 + row % p.rows;
    const int64_t h = p.h0 + t * p.head_step;
    const float* srow = p.scores + row * p.lk;
    OutT* prow = static_cast<OutT*>(p.probs) + row * p.lk;
    const char* mrow = nullptr;
    if (p.mask != nullptr) {
      mrow = static_cast<const char*>(p.mask) +
             static_cast<int64_t>(mask_elem_size(p.mask_dtype)) *
                 (p.batch * p.mask_stride[0] + h * p.mask_stride[1] + i * p.mask_stride[2]);
    }
    const int64_t jend = p.causal ? (i + 1 < p.lk ? i + 1 : p.lk) : p.lk;

    float m = -INFINITY, s = 0.f;
    for (int64_t j = threadIdx.x; j < jend; j += blockDim.x) {
      const float x = masked_score(p, srow, mrow, j, jend);
      if (x == -INFINITY) continue;
      if (x > m) {
        s = s * expf(m - x) + 1.f;
        m = x;
      } else {
        s += expf(x - m); // NaN scores or masks propagate through s
      }
    }
    for (int o = kWarp / 2; o > 0; o /= 2) {
      const float m2 = __shfl_xor_sync(0xffffffffu, m, o);
      const float s2 = __shfl_xor_sync(0xffffffffu, s, o);
      combine(m, s, m2, s2);
    }
    if (lane == 0) {
      sh_m[warp] = m;
      sh_s[warp] = s;
    }
    __syncthreads();
    m = -INFINITY;
    s = 0.f;
    for (int w = 0; w < nwarps; ++w) combine(m, s, sh_m[w], sh_s[w]);
    __syncthreads(); // sh_* are reused by the next row

    const bool empty = m == -INFINITY;
    if (p.lse != nullptr && threadIdx.x == 0) {
      p.lse[p.batch * p.lse_stride[0] + h * p.lse_stride[1] + i * p.lse_stride[2]] =
          empty ? -INFINITY : m + logf(s);
    }
    const float inv = empty ? 0.f : 1.f / s;
    for (int64_t j = threadIdx.x; j < p.lk; j += blockDim.x) {
      const float x = masked_score(p, srow, mrow, j, jend);
      store(prow + j, (empty || x == -INFINITY) ? 0.f : expf(x - m) * inv);
    }
  }
}

} // namespace sdpa_device
using namespace sdpa_device;

cudaError_t launch_sdpa_softmax(const SdpaSoftmaxParams& p, cudaStream_t stream) {
  if (p.mask != nullptr && p.mask_dtype != kF32 && p.mask_dtype != kF16 && p.mask_dtype != kBF16 &&
      p.mask_dtype != kBool) {
    return cudaErrorInvalidValue;
  }
  const int64_t total = p.heads * p.rows;
  if (total <= 0) return cudaSuccess;
  // Enough threads for the row (whole warps), at most kMaxThreads.
  int threads = kWarp;
  while (threads < kMaxThreads && threads < p.lk) threads *= 2;
  const unsigned blocks = static_cast<unsigned>(total < 0x7fffffff ? total : 0x7fffffff);
  switch (p.probs_dtype) {
    case kF32:
      softmax_rows<float><<<blocks, threads, 0, stream>>>(p);
      break;
    case kF16:
      softmax_rows<__half><<<blocks, threads, 0, stream>>>(p);
      break;
    case kBF16:
      softmax_rows<__nv_bfloat16><<<blocks, threads, 0, stream>>>(p);
      break;
    default:
      return cudaErrorInvalidValue;
  }
  return cudaGetLastError();
}

} // namespace aoti
} // namespace cuda
} // namespace backends
} // namespace executorch
